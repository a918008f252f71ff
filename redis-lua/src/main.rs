//! `redis-lua`: checks Redis and Valkey Lua scripts; see `redis-lua --help`.

fn main() {
    // Not locked for the whole run: the language server writes to stdout
    // from a thread of its own.
    let status = redis_lua::run(
        std::env::args_os().skip(1),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(status);
}
