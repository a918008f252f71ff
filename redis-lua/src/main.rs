//! `redis-lua`: checks Redis and Valkey Lua scripts; see `redis-lua --help`.

fn main() {
    let status = redis_lua::run(
        std::env::args_os().skip(1),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    );
    std::process::exit(status);
}
