//! The words of a command's arguments: the tokens its documentation names
//! (`SET`'s `NX`, `EX`, `KEEPTTL`; `CLIENT KILL`'s `MAXAGE`), with, for
//! each product, the first version that takes it, and the value it takes.
//!
//! The table is generated (`option_table.rs`, one row per word, sorted by
//! command, in the order the documentation lists the words) from the
//! servers' own `COMMAND DOCS` as the crate stores them
//! (`specs/redis-8.2.json` for Redis, `specs/valkey-9.1.json` for Valkey),
//! by `cargo xtask codegen`, which needs no server
//! (`cargo xtask codegen --check` says whether the file is current). A word
//! the documentation of one product does not name is not on that product.
//! A word's `since` is its own, else that of the argument around it, else
//! the first release the command's history names it in, else the command's.

use super::option_table::OPTIONS;
use super::option_word::OptionWord;
use crate::servers::Servers;

/// The rows of the command `name` (any case; `container|sub`).
fn rows(name: &str) -> &'static [OptionWord] {
    let lower = name.to_ascii_lowercase();
    let start = OPTIONS.partition_point(|row| row.command < lower.as_str());
    let len = OPTIONS[start..]
        .iter()
        .take_while(|row| row.command == lower)
        .count();
    &OPTIONS[start..start + len]
}

/// The words of the command `name` (any case; `container|sub` for a
/// subcommand, `client|kill`) that every server of `servers` takes, in the
/// order of its documentation. See [`all_options`] for those of any server.
pub fn options(name: &str, servers: Servers) -> impl Iterator<Item = OptionWord> + use<> {
    rows(name)
        .iter()
        .filter(move |word| word.missing_on(servers).is_empty())
        .copied()
}

/// Every word of the command `name` (any case) that some server takes,
/// whichever; [`OptionWord::missing_on`] tells where it is missing.
pub fn all_options(name: &str) -> impl Iterator<Item = OptionWord> + use<> {
    rows(name).iter().copied()
}

/// The word `token` (any case) of the command `name` (any case), if some
/// server takes it.
pub fn option(name: &str, token: &str) -> Option<OptionWord> {
    rows(name)
        .iter()
        .find(|word| word.token.eq_ignore_ascii_case(token))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::servers::{Product, Server};

    fn tokens(name: &str, servers: Servers) -> Vec<&'static str> {
        options(name, servers).map(|word| word.token).collect()
    }

    #[test]
    fn the_table_is_sorted_by_command() {
        assert!(OPTIONS.windows(2).all(|w| w[0].command <= w[1].command));
        for word in OPTIONS {
            assert_eq!(word.command, word.command.to_ascii_lowercase());
            assert_eq!(word.token, word.token.to_ascii_uppercase(), "{word:?}");
            assert!(word.since(Product::Redis).is_some() || word.since(Product::Valkey).is_some());
        }
    }

    #[test]
    fn set_takes_its_words_on_every_server() {
        let set = tokens("SET", Servers::ALL);
        for word in ["NX", "XX", "GET", "EX", "PX", "EXAT", "PXAT", "KEEPTTL"] {
            assert!(set.contains(&word), "{word} in {set:?}");
        }
        let nx = option("set", "nx").unwrap();
        assert!(nx.is_flag());
        let ex = option("set", "EX").unwrap();
        assert_eq!(ex.value, "integer");
        assert!(!ex.is_flag());
        assert_eq!(
            option("set", "KEEPTTL").unwrap().since(Product::Redis),
            Some("6.0.0")
        );
        assert_eq!(option("set", "MAXAGE"), None);
        assert_eq!(tokens("nosuch", Servers::ALL), Vec::<&str>::new());
        assert_eq!(tokens("get", Servers::ALL), Vec::<&str>::new());
    }

    #[test]
    fn a_word_is_missing_on_servers_older_than_it() {
        // `CLIENT KILL MAXAGE`: Redis 7.4, Valkey 8.0.
        let maxage = option("client|kill", "maxage").unwrap();
        assert_eq!(maxage.since(Product::Redis), Some("7.4.0"));
        assert_eq!(maxage.since(Product::Valkey), Some("8.0.0"));
        assert_eq!(
            maxage.missing_on(Servers::ALL),
            Servers::only(Server::Redis7_0).with(Server::Redis7_2)
        );
        assert!(!tokens("client|kill", Servers::ALL).contains(&"MAXAGE"));
        assert!(tokens("CLIENT|KILL", Servers::only(Server::Redis7_4)).contains(&"MAXAGE"));
        assert!(tokens("client|kill", Servers::VALKEY).contains(&"MAXAGE"));
        assert!(tokens("client|kill", Servers::ALL).contains(&"SKIPME"));
    }

    #[test]
    fn a_word_one_product_does_not_document_is_not_on_it() {
        // Valkey 9.0's `CLIENT KILL NAME`; Redis has no such filter.
        let name = option("client|kill", "NAME").unwrap();
        assert_eq!(name.since(Product::Redis), None);
        assert_eq!(
            name.missing_on(Servers::VALKEY),
            Servers::only(Server::Valkey8_0).with(Server::Valkey8_1)
        );
        assert!(tokens("client|kill", Servers::only(Server::Valkey9_1)).contains(&"NAME"));
        assert!(!tokens("client|kill", Servers::REDIS.with(Server::Valkey9_1)).contains(&"NAME"));
        // Valkey 8.1's `SET IFEQ`.
        let ifeq = option("set", "IFEQ").unwrap();
        assert_eq!(
            (ifeq.since(Product::Redis), ifeq.since(Product::Valkey)),
            (None, Some("8.1.0"))
        );
        assert_eq!(
            ifeq.missing_on(Servers::ALL),
            Servers::REDIS.with(Server::Valkey8_0)
        );
    }

    #[test]
    fn a_word_of_a_newer_command_follows_the_command() {
        // `HGETEX` came in Redis 8.0; its words with it.
        let words = tokens("hgetex", Servers::only(Server::Redis8_0));
        assert!(words.contains(&"PERSIST"), "{words:?}");
        assert!(tokens("hgetex", Servers::only(Server::Redis7_4)).is_empty());
    }
}
