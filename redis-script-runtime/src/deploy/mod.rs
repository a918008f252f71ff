//! Putting the bindings' code on servers, above the errors and replies:
//! [`load`] (`Script::load`, `Library::load`), [`library_status`] (which
//! version of a library a server has), the [`registry`] of every binding
//! with `load_all`, and [`kill`] (`SCRIPT KILL` of a running script).

pub(crate) mod kill;
pub(crate) mod library_status;
pub(crate) mod load;
pub mod registry;
