"""One run of the lock benchmark with redis-py, for the Rust harness.

N client processes (not threads: threads would share one interpreter lock)
each take and release one lock for a fixed window, pausing 1 ms after a
failed attempt, and count their attempts and acquisitions. Prints one line:

    attempts=<n> acquisitions=<n> lost=<n>

`lost` counts releases that found the lock no longer held: it must be 0.

Two locks, with the same semantics as the Rust variants:
- lua: one script takes the lock (SET NX PX: the lock never exists without
  an expiry), one releases it only for the holder's token;
- watch: SET NX PX takes it; the release WATCHes the key, reads it, and
  deletes it in MULTI/EXEC only if it still holds the caller's token.

Usage: lock_bench.py --port P --variant lua|watch --clients N --seconds S
       lock_bench.py --versions
"""

import argparse
import multiprocessing
import sys
import time
import uuid

import redis

ACQUIRE_LUA = "return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1])"
RELEASE_LUA = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "return redis.call('DEL', KEYS[1]) end return 0"
)
RETRY_PAUSE_S = 0.001


class LuaLock:
    def __init__(self, client, key, ttl_ms):
        self.key = key
        self.ttl_ms = ttl_ms
        # register_script sends EVALSHA, and SCRIPT LOAD only on NOSCRIPT.
        self.acquire_script = client.register_script(ACQUIRE_LUA)
        self.release_script = client.register_script(RELEASE_LUA)
        client.script_load(ACQUIRE_LUA)
        client.script_load(RELEASE_LUA)

    def try_acquire(self):
        token = uuid.uuid4().hex
        taken = self.acquire_script(keys=[self.key], args=[self.ttl_ms, token])
        return token if taken is not None else None

    def release(self, token):
        return self.release_script(keys=[self.key], args=[token]) == 1


class WatchLock:
    def __init__(self, client, key, ttl_ms):
        self.client = client
        self.key = key
        self.ttl_ms = ttl_ms

    def try_acquire(self):
        token = uuid.uuid4().hex
        taken = self.client.set(self.key, token, nx=True, px=self.ttl_ms)
        return token if taken else None

    def release(self, token):
        expected = token.encode()
        with self.client.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self.key)
                    if pipe.get(self.key) != expected:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    pipe.delete(self.key)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    # The key changed between WATCH and EXEC: look again.
                    continue


LOCKS = {"lua": LuaLock, "watch": WatchLock}


def client_process(args, start, results):
    client = redis.Redis(host="127.0.0.1", port=args.port)
    client.ping()
    lock = LOCKS[args.variant](client, args.key, args.ttl_ms)
    start.wait()
    attempts = acquisitions = lost = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        attempts += 1
        token = lock.try_acquire()
        if token is None:
            time.sleep(RETRY_PAUSE_S)
            continue
        acquisitions += 1
        if not lock.release(token):
            lost += 1
    results.put((attempts, acquisitions, lost))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--versions", action="store_true")
    parser.add_argument("--port", type=int)
    parser.add_argument("--variant", choices=sorted(LOCKS))
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--key", default="bench:lock")
    parser.add_argument("--ttl-ms", type=int, default=10_000)
    args = parser.parse_args()
    if args.versions:
        print(f"python={sys.version.split()[0]} redis-py={redis.__version__}")
        return
    if args.port is None or args.variant is None:
        parser.error("--port and --variant are required")

    # fork: the clients start at once, with redis-py already imported.
    context = multiprocessing.get_context("fork")
    start = context.Barrier(args.clients)
    results = context.Queue()
    clients = [
        context.Process(target=client_process, args=(args, start, results))
        for _ in range(args.clients)
    ]
    for process in clients:
        process.start()
    totals = [0, 0, 0]
    for _ in clients:
        # A client that failed puts nothing: do not wait for it forever.
        for i, value in enumerate(results.get(timeout=args.seconds + 60)):
            totals[i] += value
    for process in clients:
        process.join()
        if process.exitcode != 0:
            sys.exit(f"a client process failed (exit code {process.exitcode})")
    print(f"attempts={totals[0]} acquisitions={totals[1]} lost={totals[2]}")


if __name__ == "__main__":
    main()
