// What the function cannot be: generic (the harness makes each parameter
// from its type), taking `impl Trait`, or a test twice over. (A parameter
// type the harness cannot make is an error only in a test build, where
// `#[test]` functions exist: tests/integration/test_crate.rs shows it.)

#[redis_script::test]
fn generic_test<C: redis_script::redis::ConnectionLike>(_con: C) {}

#[redis_script::test]
fn impl_trait_test(_con: &mut impl redis_script::redis::ConnectionLike) {}

#[redis_script::test]
#[test]
fn twice_a_test() {}

fn main() {}
