//! Redis Cluster hash slots: which of the 16384 slots a key belongs to.
//!
//! A cluster serves each slot from one primary, and refuses (CROSSSLOT) a
//! script call whose KEYS are in more than one slot, whatever the script's
//! flags: `allow-cross-slot-keys` only lets a script reach keys it did not
//! declare, in other slots of the same node. The runtime computes slots
//! itself to tell a caller which keys of a call are apart, by name and slot.

/// How many hash slots a Redis Cluster has.
pub const SLOTS: u16 = 16384;

/// Whether `slots` holds more than one distinct slot: what a cluster
/// refuses for one command.
pub(crate) fn span_several(mut slots: impl Iterator<Item = u16>) -> bool {
    match slots.next() {
        Some(first) => slots.any(|slot| slot != first),
        None => false,
    }
}

/// The hash slot of `key`, as `CLUSTER KEYSLOT` computes it: CRC16 (XMODEM)
/// of the key's hash tag, modulo 16384.
///
/// The hash tag is the part between the first `{` and the first `}` after
/// it, if that part is not empty; otherwise the whole key. Keys that share a
/// tag share a slot, which is how a script's keys are kept together:
/// `{cart:7}:items` and `{cart:7}:total` are both in the slot of `cart:7`.
///
/// ```
/// use redis_script_runtime::key_slot; // `redis_script::key_slot` in the facade
///
/// assert_eq!(key_slot(b"{user:1}:name"), key_slot(b"user:1"));
/// assert_eq!(key_slot(b"foo"), 12182);
/// ```
pub fn key_slot(key: &[u8]) -> u16 {
    crc16_xmodem(hash_tag(key)) % SLOTS
}

/// The part of `key` that decides its slot: the hash tag, or the whole key.
pub fn hash_tag(key: &[u8]) -> &[u8] {
    let Some(open) = key.iter().position(|&byte| byte == b'{') else {
        return key;
    };
    let after = &key[open + 1..];
    match after.iter().position(|&byte| byte == b'}') {
        Some(close) if close > 0 => &after[..close],
        _ => key,
    }
}

/// CRC16 with the XMODEM parameters (polynomial 0x1021, initial value 0, no
/// reflection), bit by bit: keys are short, and a call hashes each key once.
fn crc16_xmodem(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &byte in bytes {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc16_matches_the_xmodem_check_value() {
        // The standard check input for CRC catalogues.
        assert_eq!(crc16_xmodem(b"123456789"), 0x31C3);
    }

    #[test]
    fn hash_tags_follow_the_cluster_rules() {
        assert_eq!(hash_tag(b"{user1000}.following"), b"user1000");
        assert_eq!(hash_tag(b"foo{}{bar}"), b"foo{}{bar}");
        assert_eq!(hash_tag(b"foo{{bar}}zap"), b"{bar");
        assert_eq!(hash_tag(b"foo{bar}{zap}"), b"bar");
        assert_eq!(hash_tag(b"no tag"), b"no tag");
        assert_eq!(hash_tag(b"open{only"), b"open{only");
        assert_eq!(key_slot(b"{user1000}.following"), key_slot(b"user1000"));
    }
}
