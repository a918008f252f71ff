//! The scripts under test, as `#[redis_script]` bindings: the same small
//! body (INCR a counter, reply its value) padded with comments to 100 B,
//! 1 KiB, 4 KiB and 16 KiB, so that only the bytes EVAL sends differ.

use redis_script::{Invocation, Script, redis_script};

/// Increments `counter`; 100 bytes of Lua.
#[redis_script(file = "scripts/pad_100.lua", keys = 1)]
pub fn pad_100(counter: &str) -> i64;

/// Increments `counter`; 1 KiB of Lua.
#[redis_script(file = "scripts/pad_1k.lua", keys = 1)]
pub fn pad_1k(counter: &str) -> i64;

/// Increments `counter`; 4 KiB of Lua.
#[redis_script(file = "scripts/pad_4k.lua", keys = 1)]
pub fn pad_4k(counter: &str) -> i64;

/// Increments `counter`; 16 KiB of Lua.
#[redis_script(file = "scripts/pad_16k.lua", keys = 1)]
pub fn pad_16k(counter: &str) -> i64;

/// One script size under test.
#[derive(Clone, Copy)]
pub struct Sized {
    /// As the report shows it: `100 B`, `4 KiB`.
    pub label: &'static str,
    pub bytes: usize,
    pub call: fn(&str) -> Invocation<i64>,
    pub script: &'static Script,
}

/// Every size, smallest first.
pub const SIZES: [Sized; 4] = [
    Sized {
        label: "100 B",
        bytes: 100,
        call: pad_100,
        script: &pad_100::SCRIPT,
    },
    Sized {
        label: "1 KiB",
        bytes: 1024,
        call: pad_1k,
        script: &pad_1k::SCRIPT,
    },
    Sized {
        label: "4 KiB",
        bytes: 4096,
        call: pad_4k,
        script: &pad_4k::SCRIPT,
    },
    Sized {
        label: "16 KiB",
        bytes: 16384,
        call: pad_16k,
        script: &pad_16k::SCRIPT,
    },
];

#[cfg(test)]
mod tests {
    use super::SIZES;

    #[test]
    fn each_script_has_its_nominal_size() {
        for size in SIZES {
            assert_eq!(size.script.source().len(), size.bytes, "{}", size.label);
        }
    }
}
