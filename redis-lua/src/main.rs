//! `redis-lua`: checks Redis and Valkey Lua scripts; see `redis-lua --help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let status = redis_lua::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr());
    std::process::exit(status);
}
