// A fixture file that does not exist is an error at its path.

#[redis_script::test(fixtures("tests/fixtures/accounts.redis", "tests/fixtures/no-such-file.redis"))]
fn seeded(_con: &mut redis_script::redis::Connection) {}

fn main() {}
