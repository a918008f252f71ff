// A folder that does not exist.
redis_script::scripts!(pub mod lua = "scripts/nowhere");

fn main() {}
