// A header that declares no `---@return`.
redis_script::scripts!(mod silent = "tests/ui/lua/headers/folder_no_return");

fn main() {}
