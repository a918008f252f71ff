//! The binding path of a binding in an `impl` block, built in `const`
//! context.
//!
//! `#[bindings]` puts such a binding's `static` in a hidden module beside
//! the `impl` (an `impl` admits no module), so `module_path!()` there reads
//! `my_app::jobs::__redis_script_Jobs_claim::claim`. What a reader expects,
//! and what filters by module prefix need, is `my_app::jobs::Jobs::claim`:
//! the hidden segments are cut and `Type::name` put in their place.
//! `concat!` takes only literals, so the bytes are built here, in two
//! steps because an array's length must be known before it is filled.

/// The segment that starts the hidden modules `#[bindings]` generates.
const HIDDEN: &[u8] = b"::__redis_script_";

/// Where the hidden module's segment starts in `module_path`, or its end
/// if there is none (then nothing is cut).
const fn cut_at(module_path: &str) -> usize {
    let path = module_path.as_bytes();
    let mut at = path.len();
    let mut start = 0;
    while start + HIDDEN.len() <= path.len() {
        let mut same = true;
        let mut i = 0;
        while i < HIDDEN.len() {
            if path[start + i] != HIDDEN[i] {
                same = false;
                break;
            }
            i += 1;
        }
        if same {
            at = start;
        }
        start += 1;
    }
    at
}

/// The length of [`bytes`]' result.
pub const fn len(module_path: &str, type_and_name: &str) -> usize {
    cut_at(module_path) + 2 + type_and_name.len()
}

/// `module_path` up to its hidden segment, then `::`, then `type_and_name`
/// (`Jobs::claim`). `N` is [`len`] of the same arguments.
pub const fn bytes<const N: usize>(module_path: &str, type_and_name: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let head = module_path.as_bytes();
    let tail = type_and_name.as_bytes();
    let cut = cut_at(module_path);
    let mut i = 0;
    while i < cut {
        out[i] = head[i];
        i += 1;
    }
    out[cut] = b':';
    out[cut + 1] = b':';
    let mut j = 0;
    while j < tail.len() {
        out[cut + 2 + j] = tail[j];
        j += 1;
    }
    out
}

/// The path as text: whole segments of UTF-8 text joined by ASCII, so
/// always UTF-8.
pub const fn as_str(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("a binding path is UTF-8"),
    }
}

#[cfg(test)]
mod tests {
    use super::{as_str, bytes, len};

    const HIDDEN_PATH: &str = "my_app::jobs::__redis_script_Jobs_claim::claim";
    static BUILT: [u8; len(HIDDEN_PATH, "Jobs::claim")] = bytes(HIDDEN_PATH, "Jobs::claim");

    #[test]
    fn hidden_segments_give_way_to_the_type() {
        assert_eq!(as_str(&BUILT), "my_app::jobs::Jobs::claim");
    }

    #[test]
    fn binding_at_the_crate_root() {
        const PATH: &str = "my_app::__redis_script_Jobs_claim::claim";
        static ROOT: [u8; len(PATH, "Jobs::claim")] = bytes(PATH, "Jobs::claim");
        assert_eq!(as_str(&ROOT), "my_app::Jobs::claim");
    }

    #[test]
    fn innermost_hidden_segment_is_cut_when_a_user_module_has_the_prefix() {
        const PATH: &str = "a::__redis_script_odd::b::__redis_script_T_f::f";
        static BUILT: [u8; len(PATH, "T::f")] = bytes(PATH, "T::f");
        assert_eq!(as_str(&BUILT), "a::__redis_script_odd::b::T::f");
    }
}
