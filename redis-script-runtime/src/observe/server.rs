//! The server the program's calls go to, as the program declares it
//! (`server.address`, `server.port`): redis-rs's connections do not tell
//! their peer, so spans and metrics carry it only once it is set here.

use std::sync::RwLock;
#[cfg(feature = "metrics")]
use std::sync::atomic::{AtomicU64, Ordering};

/// The server of every call from now on: an address and, for TCP, a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Server {
    pub(crate) address: &'static str,
    pub(crate) port: Option<u16>,
}

static SERVER: RwLock<Option<Server>> = RwLock::new(None);

#[cfg(feature = "metrics")]
/// Bumped on every change, so that caches of metric labels that hold the
/// server can tell theirs is stale.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The declared server, if any.
pub(crate) fn current() -> Option<Server> {
    // A poisoned lock still holds a whole value: an `Option` of `Copy` data.
    *SERVER
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(feature = "metrics")]
/// Which setting [`current`] returns: changes whenever it changes.
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}

pub(crate) fn set(address: Option<(&str, Option<u16>)>) {
    let mut server = SERVER
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let unchanged = match (&*server, address) {
        (Some(known), Some((address, port))) => known.address == address && known.port == port,
        (None, None) => true,
        _ => false,
    };
    if unchanged {
        return;
    }
    // Spans and metric labels borrow the address for the rest of the
    // program: leaked once per change, which programs make at start-up.
    *server = address.map(|(address, port)| Server {
        address: Box::leak(address.to_owned().into_boxed_str()),
        port,
    });
    #[cfg(feature = "metrics")]
    GENERATION.fetch_add(1, Ordering::AcqRel);
}

/// The address and port of a redis-rs connection's target: `None` for a
/// kind of address this version of redis-rs added after these were written.
pub(crate) fn of(addr: &redis::ConnectionAddr) -> Option<(String, Option<u16>)> {
    match addr {
        redis::ConnectionAddr::Tcp(host, port) => Some((host.clone(), Some(*port))),
        redis::ConnectionAddr::TcpTls { host, port, .. } => Some((host.clone(), Some(*port))),
        redis::ConnectionAddr::Unix(path) => Some((path.display().to_string(), None)),
        _ => None,
    }
}
