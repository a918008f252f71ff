// A folder with a script that has no signature header.
redis_script::scripts!(mod counters = "tests/ui/lua/headers/folder_without_header");

fn main() {}
