// The harness makes each parameter from its type: a generic one has none.
// (A parameter type the harness cannot make is an error only in a test
// build, where `#[test]` functions exist: tests/integration/test_crate.rs
// shows it.)

#[redis_script::test]
fn generic_test<C: redis_script::redis::ConnectionLike>(_con: C) {}

fn main() {}
