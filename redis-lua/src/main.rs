//! `redis-lua`: checks Redis and Valkey Lua scripts; see `redis-lua --help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Not locked for the whole run: the language server writes to stdout
    // from a thread of its own.
    let status = redis_lua::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(status);
}
