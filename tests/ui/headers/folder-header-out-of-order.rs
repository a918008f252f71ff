// An `@key` after an `@param` in a folder's script.
redis_script::scripts!("tests/ui/lua/headers/folder_bad_header");

fn main() {}
