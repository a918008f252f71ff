//! The faults a test of recovery needs, on a running [`RedisServer`]: each
//! does to the server what production does to it, and returns once it is
//! done.
//!
//! | Helper | What the client then sees |
//! |---|---|
//! | [`flush_scripts`](RedisServer::flush_scripts) | NOSCRIPT for every cached script; libraries gone (as after a restart or a failover to a fresh replica) |
//! | [`restart`](RedisServer::restart) | its connections broken, then a server on the same port with no data, scripts or libraries |
//! | [`kill_clients`](RedisServer::kill_clients) | its connections closed by the server (as by a proxy or a `CLIENT KILL`) |
//! | [`pause`](RedisServer::pause) | every command waits until the pause ends (`CLIENT PAUSE`) |
//! | [`freeze`](RedisServer::freeze) | a peer that accepts bytes and never answers, until [`thaw`](RedisServer::thaw) (Unix) |
//!
//! A failover is a fault of a [`Replicated`](crate::Replicated) pair.

use std::time::Duration;

use redis_script::redis;

use crate::server::RedisServer;

impl RedisServer {
    /// Empties the script cache (`SCRIPT FLUSH`) and deletes every library
    /// (`FUNCTION FLUSH`): the next call of each binding meets NOSCRIPT, or
    /// a missing library, and must recover.
    ///
    /// # Panics
    ///
    /// If the server does not answer.
    pub fn flush_scripts(&self) {
        let mut con = self.connection();
        for command in ["SCRIPT", "FUNCTION"] {
            redis::cmd(command)
                .arg("FLUSH")
                .arg("SYNC")
                .exec(&mut con)
                .unwrap_or_else(|e| panic!("{command} FLUSH SYNC on port {}: {e}", self.port()));
        }
    }

    /// Kills the server and starts it again on the same port: every
    /// connection breaks, and the new server has no data, scripts or
    /// libraries (nothing is persisted). Returns once it answers.
    ///
    /// # Panics
    ///
    /// If it does not come back (the message quotes its log).
    pub fn restart(&self) {
        self.kill();
        self.start_again();
    }

    /// Closes every normal and Pub/Sub client connection from the server's
    /// side (`CLIENT KILL TYPE ...`); replication links stay. Returns how
    /// many were closed.
    ///
    /// # Panics
    ///
    /// If the server does not answer.
    pub fn kill_clients(&self) -> usize {
        let mut con = self.connection();
        ["normal", "pubsub"]
            .iter()
            .map(|kind| {
                redis::cmd("CLIENT")
                    .arg("KILL")
                    .arg("TYPE")
                    .arg(kind)
                    .query::<usize>(&mut con)
                    .unwrap_or_else(|e| panic!("CLIENT KILL TYPE {kind}: {e}"))
            })
            .sum()
    }

    /// Holds every client's commands for `duration` (`CLIENT PAUSE ... ALL`):
    /// they are answered when it ends. Returns at once.
    ///
    /// # Panics
    ///
    /// If the server does not answer.
    pub fn pause(&self, duration: Duration) {
        let mut con = self.connection();
        redis::cmd("CLIENT")
            .arg("PAUSE")
            .arg(duration.as_millis().max(1) as u64)
            .arg("ALL")
            .exec(&mut con)
            .unwrap_or_else(|e| panic!("CLIENT PAUSE on port {}: {e}", self.port()));
    }

    /// Stops the server process (SIGSTOP): connections stay open, requests
    /// are accepted by the kernel, and nothing answers, as from a peer that
    /// hangs or a network that drops replies. [`thaw`](Self::thaw) resumes
    /// it, and so does dropping the server (which kills it).
    ///
    /// # Panics
    ///
    /// If the signal cannot be sent.
    #[cfg(unix)]
    pub fn freeze(&self) {
        self.signal(libc::SIGSTOP);
    }

    /// Resumes a [`freeze`](Self::freeze)d server; what it was sent
    /// meanwhile is answered now.
    ///
    /// # Panics
    ///
    /// If the signal cannot be sent.
    #[cfg(unix)]
    pub fn thaw(&self) {
        self.signal(libc::SIGCONT);
    }

    #[cfg(unix)]
    fn signal(&self, signal: libc::c_int) {
        self.with_running_child(|pid| {
            // SAFETY: `kill` only sends a signal. The pid is our child's,
            // running and not reaped while the child's lock is held, so it
            // cannot name another process.
            let sent = unsafe { libc::kill(pid as libc::pid_t, signal) };
            assert!(
                sent == 0,
                "cannot signal the server on port {}: {}",
                self.port(),
                std::io::Error::last_os_error()
            );
        })
        .unwrap_or_else(|| panic!("the server on port {} is not running", self.port()));
    }
}
