//! The servers the specifications describe, named by their key
//! (`redis-7.0`, `valkey-9.1`): their family, their release, and the names
//! the analyzer gives them.

use std::fmt;

/// A server family, Redis before Valkey (the analyzer's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Product {
    Redis,
    Valkey,
}

impl Product {
    /// `Redis`, `Valkey`.
    pub const fn name(self) -> &'static str {
        match self {
            Product::Redis => "Redis",
            Product::Valkey => "Valkey",
        }
    }
}

/// One server: a product's release. Sorted as the analyzer's `Server`
/// variants are: by product, then by release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Server {
    pub product: Product,
    /// `(major, minor)`.
    pub release: (u32, u32),
}

impl Server {
    /// Reads a key: `redis-7.0`, `valkey-9.1`.
    pub fn from_key(key: &str) -> Option<Server> {
        let (product, release) = key.split_once('-')?;
        let product = match product {
            "redis" => Product::Redis,
            "valkey" => Product::Valkey,
            _ => return None,
        };
        let (major, minor) = release.split_once('.')?;
        Some(Server {
            product,
            release: (major.parse().ok()?, minor.parse().ok()?),
        })
    }

    /// `redis-7.0`: the name of its specifications file and the
    /// analyzer's settings.
    pub fn key(self) -> String {
        format!(
            "{}-{}",
            self.product.name().to_ascii_lowercase(),
            self.release()
        )
    }

    /// `7.4`: the version a derived table is for.
    pub fn release(self) -> String {
        format!("{}.{}", self.release.0, self.release.1)
    }

    /// The analyzer's `Server` variant: `Redis7_0`.
    pub fn variant(self) -> String {
        let (major, minor) = self.release;
        format!("{}{major}_{minor}", self.product.name())
    }
}

/// As a diagnostic says it: `Redis 7.0`.
impl fmt::Display for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.product.name(), self.release())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_the_analyzers_servers_in_its_order() {
        let redis = Server::from_key("redis-8.2").unwrap();
        let valkey = Server::from_key("valkey-8.0").unwrap();
        assert_eq!(
            (redis.variant(), redis.to_string()),
            ("Redis8_2".to_owned(), "Redis 8.2".to_owned())
        );
        assert_eq!(redis.key(), "redis-8.2");
        assert!(redis < valkey);
        assert!(Server::from_key("redis-7.0").unwrap() < redis);
        assert_eq!(Server::from_key("keydb-6.3"), None);
    }
}
