//! The arguments of `#[redis_script::test(...)]`: which servers, what runs
//! before the test, and how long it may take.

use std::path::{Path, PathBuf};

use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, LitInt, LitStr, Meta, Token};

use crate::errors::Errors;

/// Every argument, for the message about an unknown one.
const ACCEPTED: &str = "`cluster`, `cluster(replicas = N)`, `replica`, \
                        `fixtures(\"path\", ...)`, `load_all` and `timeout_secs = N`";

/// The servers a test runs on.
pub enum Topology {
    Server,
    Cluster { replicas: usize },
    Replica,
}

/// One fixture file: the path as written, and where it is.
pub struct Fixture {
    pub lit: LitStr,
    pub absolute: PathBuf,
}

/// The arguments, each checked.
pub struct Args {
    pub topology: Topology,
    pub fixtures: Vec<Fixture>,
    pub load_all: bool,
    pub timeout_secs: Option<u64>,
}

impl Args {
    /// Reads every argument, recording each problem in `errors`.
    pub fn parse(args: Punctuated<Meta, Token![,]>, errors: &mut Errors) -> Args {
        let mut parsed = Args {
            topology: Topology::Server,
            fixtures: Vec::new(),
            load_all: false,
            timeout_secs: None,
        };
        let mut seen: Vec<String> = Vec::new();
        let mut topology_written: Option<String> = None;
        for meta in args {
            let Some(name) = meta.path().get_ident().map(ToString::to_string) else {
                errors.push(syn::Error::new_spanned(
                    meta.path(),
                    format!("unknown argument of #[redis_script::test]: it takes {ACCEPTED}"),
                ));
                continue;
            };
            if seen.contains(&name) {
                errors.push(syn::Error::new_spanned(
                    meta.path(),
                    format!("`{name}` is given twice: remove one of them"),
                ));
                continue;
            }
            seen.push(name.clone());
            match (name.as_str(), &meta) {
                ("cluster" | "replica", _) => {
                    if let Some(other) = &topology_written {
                        errors.push(syn::Error::new_spanned(
                            meta.path(),
                            format!(
                                "a test runs on a cluster or on a primary with a replica, \
                                 not both: remove `{name}` or `{other}`"
                            ),
                        ));
                        continue;
                    }
                    topology_written = Some(name.clone());
                    parsed.topology = match (name.as_str(), &meta) {
                        ("replica", Meta::Path(_)) => Topology::Replica,
                        ("cluster", Meta::Path(_)) => Topology::Cluster { replicas: 0 },
                        ("cluster", Meta::List(list)) => Topology::Cluster {
                            replicas: replicas(list, errors),
                        },
                        _ => {
                            errors.push(syn::Error::new_spanned(
                                &meta,
                                format!(
                                    "`{name}` stands alone{}",
                                    if name == "cluster" {
                                        ", or takes the replicas of each primary: \
                                         `cluster(replicas = 1)`"
                                    } else {
                                        ""
                                    }
                                ),
                            ));
                            continue;
                        }
                    };
                }
                ("load_all", Meta::Path(_)) => parsed.load_all = true,
                ("fixtures", Meta::List(list)) => parsed.fixtures = fixtures(list, errors),
                ("timeout_secs", Meta::NameValue(pair)) => match int(&pair.value) {
                    Some(lit) => match lit.base10_parse::<u64>() {
                        Ok(secs) if secs > 0 => parsed.timeout_secs = Some(secs),
                        _ => errors.push(syn::Error::new_spanned(
                            lit,
                            "`timeout_secs` is a whole number of seconds, at least 1",
                        )),
                    },
                    None => errors.push(syn::Error::new_spanned(
                        &pair.value,
                        "`timeout_secs` takes a whole number of seconds, e.g. `timeout_secs = 30`",
                    )),
                },
                ("load_all" | "fixtures" | "timeout_secs", _) => {
                    let form = match name.as_str() {
                        "load_all" => "`load_all` stands alone",
                        "fixtures" => "`fixtures` lists files: `fixtures(\"tests/data.redis\")`",
                        _ => "`timeout_secs` takes a number: `timeout_secs = 30`",
                    };
                    errors.push(syn::Error::new_spanned(&meta, form));
                }
                _ => errors.push(syn::Error::new_spanned(
                    meta.path(),
                    format!(
                        "unknown argument `{name}` of #[redis_script::test]: it takes {ACCEPTED}"
                    ),
                )),
            }
        }
        parsed
    }
}

/// `cluster(replicas = N)`.
fn replicas(list: &syn::MetaList, errors: &mut Errors) -> usize {
    let wrong = |span: &dyn quote::ToTokens| {
        syn::Error::new_spanned(
            span,
            "`cluster` takes the replicas of each primary: `cluster(replicas = 1)`",
        )
    };
    let Ok(Meta::NameValue(pair)) = list.parse_args::<Meta>() else {
        errors.push(wrong(list));
        return 0;
    };
    if !pair.path.is_ident("replicas") {
        errors.push(wrong(&pair.path));
        return 0;
    }
    match int(&pair.value).and_then(|lit| lit.base10_parse::<usize>().ok()) {
        Some(count) if count <= 2 => count,
        _ => {
            errors.push(syn::Error::new_spanned(
                &pair.value,
                "`replicas` is 0, 1 or 2 replicas of each primary",
            ));
            0
        }
    }
}

/// `fixtures("a.redis", "b.lua")`: each a file, relative to `Cargo.toml`,
/// that must exist.
fn fixtures(list: &syn::MetaList, errors: &mut Errors) -> Vec<Fixture> {
    let lits = match list.parse_args_with(Punctuated::<LitStr, Token![,]>::parse_terminated) {
        Ok(lits) if !lits.is_empty() => lits,
        _ => {
            errors.push(syn::Error::new_spanned(
                list,
                "`fixtures` lists files as strings, relative to Cargo.toml: \
                 `fixtures(\"tests/fixtures/users.redis\")`",
            ));
            return Vec::new();
        }
    };
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    lits.into_iter()
        .filter_map(|lit| {
            let absolute = dir.as_deref().unwrap_or(Path::new(".")).join(lit.value());
            if absolute.is_file() {
                Some(Fixture { lit, absolute })
            } else {
                errors.push(syn::Error::new(
                    lit.span(),
                    format!(
                        "fixture file not found: `{}` (a fixture's path is relative to the \
                         directory of the crate's Cargo.toml)",
                        lit.value()
                    ),
                ));
                None
            }
        })
        .collect()
}

fn int(expr: &Expr) -> Option<&LitInt> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) => Some(lit),
        _ => None,
    }
}
