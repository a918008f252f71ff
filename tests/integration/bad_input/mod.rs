//! Bad input, from both sides: replies of every shape into every declared
//! type, hostile and extreme arguments, values that try to become Lua
//! source. Each test says what it shows; the property tests run a fixed
//! number of cases from a fixed seed (see [`property_config`]).

mod arguments;
mod injection;
mod replies;

use proptest::test_runner::{Config, RngSeed};

/// A property test's configuration: `cases` cases from a fixed seed, so
/// that CI runs the same cases every time, and no regression files written
/// into the source tree. `PROPTEST_CASES` and `PROPTEST_RNG_SEED` override
/// both, for a longer or a different search by hand:
///
/// ```text
/// PROPTEST_CASES=100000 PROPTEST_RNG_SEED=7 cargo test --test integration bad_input
/// ```
fn property_config(cases: u32) -> Config {
    let from_env = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            from_env.cases
        } else {
            cases
        },
        rng_seed: match from_env.rng_seed {
            RngSeed::Random => RngSeed::Fixed(SEED),
            seed => seed,
        },
        failure_persistence: None,
        ..from_env
    }
}

/// The seed of every property test here, unless `PROPTEST_RNG_SEED` says otherwise.
const SEED: u64 = 0x5eed_0010;
