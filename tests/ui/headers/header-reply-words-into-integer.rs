// A header whose `---@return integer` no return of the script can be.
redis_script::scripts!(mod lock = "tests/ui/lua/headers/folder_word_reply");

fn main() {}
