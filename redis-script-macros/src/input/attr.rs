//! The attributes' arguments: `#[redis_script(file = "scripts/x.lua", keys = 1)]`
//! and `#[redis_function(library = "scripts/lib.lua", name = "f", keys = 1)]`.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Ident, Lit, LitInt, LitStr, Meta, MetaList, Token};

use crate::errors::Errors;
use redis_script_analyzer::servers::{Server, Servers};
use redis_script_analyzer::{Allowed, Checker, Rule};

const FILE: &str = "file";
/// `library = "..."`, the file of `#[redis_function]`.
const LIBRARY: &str = "library";
/// `name = "..."`: the registered function, for `#[redis_function]`.
const NAME: &str = "name";
const KEYS: &str = "keys";
const ALLOW: &str = "allow";
/// `crate = "path"`: where the facade is, when not at `::redis_script`.
const CRATE: &str = "crate";
/// `servers = ["redis-8.2", ...]`: the binding's own target servers.
const SERVERS: &str = "servers";

/// Which attribute the arguments are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `#[redis_script]`: a script, called with EVALSHA.
    Script,
    /// `#[redis_function]`: a function of a library, called with FCALL.
    Function,
}

impl Kind {
    /// The attribute as written, for messages.
    pub fn attribute(self) -> &'static str {
        match self {
            Kind::Script => "#[redis_script]",
            Kind::Function => "#[redis_function]",
        }
    }

    /// The argument naming the Lua file.
    fn file_key(self) -> &'static str {
        match self {
            Kind::Script => FILE,
            Kind::Function => LIBRARY,
        }
    }

    fn example(self) -> &'static str {
        match self {
            Kind::Script => "scripts/lock_acquire.lua",
            Kind::Function => "scripts/functions/stock.lua",
        }
    }
}

/// The attribute's arguments, each still pointing at its tokens.
pub struct Args {
    pub kind: Kind,
    pub file: Option<LitStr>,
    /// `name = "..."` of `#[redis_function]`.
    pub name: Option<LitStr>,
    pub keys: Option<Keys>,
    /// Whether `file` and `keys` were written at all: one with a bad value
    /// has an error of its own and is not also missing.
    file_written: bool,
    keys_written: bool,
    krate_written: bool,
    /// `crate = "..."`: the path of the redis-script facade, for a renamed
    /// dependency or a crate that re-exports the macro.
    pub krate: Option<syn::Path>,
    /// `allow(unread, unknown_commands, ...)`: the analyzer's rules
    /// ([`Rule`]) not to report, by their stable names.
    pub allowed: Allowed,
    /// `servers = [...]`: the servers this binding's script must run on,
    /// instead of the crate's (`[package.metadata.redis-script]`).
    pub servers: Option<Servers>,
    servers_written: bool,
}

/// `keys = N`: how many leading parameters are KEYS.
pub struct Keys {
    pub count: usize,
    pub lit: LitInt,
}

/// The arguments as written, before their meaning is checked.
pub struct RawArgs(Punctuated<Meta, Token![,]>);

impl Parse for RawArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Punctuated::parse_terminated(input).map(RawArgs)
    }
}

impl Args {
    /// Reads every pair, recording each problem in `errors` rather than
    /// stopping at the first, so the user sees all of them at once.
    pub fn from_raw(raw: RawArgs, kind: Kind, errors: &mut Errors) -> Args {
        let mut args = Args {
            kind,
            name: None,
            file: None,
            keys: None,
            file_written: false,
            keys_written: false,
            krate_written: false,
            krate: None,
            allowed: Allowed::NONE,
            servers: None,
            servers_written: false,
        };
        for meta in raw.0 {
            let pair = match meta {
                Meta::NameValue(pair) => pair,
                // #[redis_script(..., allow(unread))]
                Meta::List(list) if list.path.is_ident(ALLOW) => {
                    args.allow(&list, errors);
                    continue;
                }
                other => {
                    let name = path_name(other.path());
                    errors.push(syn::Error::new_spanned(
                        other,
                        unknown_key_message(kind, &name),
                    ));
                    continue;
                }
            };
            let Some(name) = pair.path.get_ident().map(ToString::to_string) else {
                errors.push(syn::Error::new_spanned(
                    &pair.path,
                    unknown_key_message(kind, &path_name(&pair.path)),
                ));
                continue;
            };
            let mut name_written = args.name.is_some();
            let written = match name.as_str() {
                key if key == kind.file_key() => &mut args.file_written,
                KEYS => &mut args.keys_written,
                CRATE => &mut args.krate_written,
                SERVERS => &mut args.servers_written,
                NAME if kind == Kind::Function => &mut name_written,
                _ => {
                    errors.push(syn::Error::new_spanned(
                        &pair.path,
                        unknown_key_message(kind, &name),
                    ));
                    continue;
                }
            };
            if std::mem::replace(written, true) {
                errors.push(syn::Error::new_spanned(
                    &pair.path,
                    format!(
                        "`{name}` is given twice: {} takes it once, so remove one of them",
                        kind.attribute()
                    ),
                ));
                continue;
            }
            if name == kind.file_key() {
                // #[redis_script(file = "scripts/lock_acquire.lua")]
                match string_literal(&pair.value) {
                    Some(lit) => args.file = Some(lit),
                    None => errors.push(syn::Error::new_spanned(
                        &pair.value,
                        format!(
                            "`{name}` takes a string literal: the Lua file's path relative to \
                             Cargo.toml, e.g. `{name} = \"{}\"`",
                            kind.example()
                        ),
                    )),
                }
            } else if name == NAME {
                // #[redis_function(library = "...", name = "add_stock")]
                match string_literal(&pair.value) {
                    Some(lit) => args.name = Some(lit),
                    None => errors.push(syn::Error::new_spanned(
                        &pair.value,
                        "`name` takes a string literal: the function's name as the library \
                         registers it, e.g. `name = \"add_stock\"`",
                    )),
                }
            } else if name == SERVERS {
                // #[redis_script(..., servers = ["redis-8.2"])]
                args.servers = servers_list(&pair.value, errors);
            } else if name == CRATE {
                // #[redis_script(crate = "my_lib::redis_script")]
                let path =
                    string_literal(&pair.value).and_then(|lit| lit.parse::<syn::Path>().ok());
                match path {
                    Some(path) => args.krate = Some(path),
                    None => errors.push(syn::Error::new_spanned(
                        &pair.value,
                        "`crate` takes a path in a string: where the redis-script crate is, \
                         e.g. `crate = \"my_lib::redis_script\"`",
                    )),
                }
            } else {
                // #[redis_script(keys = 1)]
                match keys_literal(&pair.value) {
                    Ok(keys) => args.keys = Some(keys),
                    Err(error) => errors.push(error),
                }
            }
        }
        args
    }

    /// The arguments of a headed script of a `scripts!` folder: its file
    /// and the keys its header declares, nothing else.
    pub fn from_header(file: LitStr, keys: Keys) -> Args {
        Args {
            kind: Kind::Script,
            file: Some(file),
            name: None,
            keys: Some(keys),
            file_written: true,
            keys_written: true,
            krate_written: false,
            krate: None,
            allowed: Allowed::NONE,
            servers: None,
            servers_written: false,
        }
    }

    /// `allow(unread, unknown_commands, ...)`: names of the rules an
    /// attribute may allow ([`Rule::allowable_by`]); any other name inside
    /// is an error.
    fn allow(&mut self, list: &MetaList, errors: &mut Errors) {
        let parsed = list.parse_args_with(Punctuated::<Ident, Token![,]>::parse_terminated);
        let Some(names) = errors.take(parsed) else {
            return;
        };
        for name in names {
            match Rule::from_name(&name.to_string()) {
                Some(rule) if rule.allowable_by(Checker::Attribute) => {
                    self.allowed = self.allowed.with(rule)
                }
                Some(rule) if rule.allowable() => errors.push(syn::Error::new_spanned(
                    &name,
                    format!(
                        "`{rule}` cannot be allowed on {}: {}\n\
                         help: {} can allow {}; `redis-lua`, where no Rust type is \
                         involved, can allow `{rule}`",
                        self.kind.attribute(),
                        not_allowed_because(rule),
                        self.kind.attribute(),
                        allowable_names()
                    ),
                )),
                _ => errors.push(syn::Error::new_spanned(
                    &name,
                    format!(
                        "unknown name `{name}`: {} can allow {}",
                        self.kind.attribute(),
                        allowable_names()
                    ),
                )),
            }
        }
    }

    /// Whether `servers = [...]` was written with a mistake (reported).
    pub fn servers_invalid(&self) -> bool {
        self.servers_written && self.servers.is_none()
    }

    /// Reports each required argument that is missing, at the attribute.
    pub fn check_required(&self, errors: &mut Errors) {
        let (attribute, file) = (self.kind.attribute(), self.kind.file_key());
        let attribute = attribute.trim_start_matches("#[").trim_end_matches(']');
        if !self.file_written {
            let what = match self.kind {
                Kind::Script => "the Lua script",
                Kind::Function => "the Lua library",
            };
            errors.push(syn::Error::new(
                Span::call_site(),
                format!(
                    "missing `{file}`: name {what}, e.g. \
                     #[{attribute}({file} = \"{}\", keys = 1)]",
                    self.kind.example()
                ),
            ));
        }
        if !self.keys_written {
            errors.push(syn::Error::new(
                Span::call_site(),
                format!(
                    "missing `keys`: say how many leading parameters are KEYS, e.g. \
                     #[{attribute}({file} = \"...\", keys = 1)]; use `keys = 0` for a {} without keys",
                    match self.kind {
                        Kind::Script => "script",
                        Kind::Function => "function",
                    }
                ),
            ));
        }
    }
}

fn unknown_key_message(kind: Kind, name: &str) -> String {
    match kind {
        Kind::Script => format!(
            "unknown argument `{name}`: #[redis_script] takes only `{FILE} = \"...\"`, \
             `{KEYS} = N`, `{ALLOW}(...)`, `{SERVERS} = [...]` and `{CRATE} = \"...\"`"
        ),
        Kind::Function => format!(
            "unknown argument `{name}`: #[redis_function] takes only `{LIBRARY} = \"...\"`, \
             `{NAME} = \"...\"`, `{KEYS} = N`, `{ALLOW}(...)`, `{SERVERS} = [...]` and \
             `{CRATE} = \"...\"`"
        ),
    }
}

/// `a::b` for a path written `a :: b`.
fn path_name(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

fn string_literal(value: &Expr) -> Option<LitStr> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => Some(lit.clone()),
        _ => None,
    }
}

/// `["redis-8.2", "valkey-9.1"]`: each server once, at least one; each
/// mistake reported at its own token. `None` if any.
fn servers_list(value: &Expr, errors: &mut Errors) -> Option<Servers> {
    let accepted = || Servers::ALL.quoted_keys();
    let Expr::Array(array) = value else {
        errors.push(syn::Error::new_spanned(
            value,
            format!(
                "`servers` takes a list of server names, e.g. `servers = [\"redis-8.2\"]`; \
                 the servers are {}",
                accepted()
            ),
        ));
        return None;
    };
    let (mut servers, mut ok) = (Servers::empty(), true);
    for element in &array.elems {
        let found = string_literal(element).map(|lit| (Server::from_key(&lit.value()), lit));
        match found {
            Some((Some(server), _)) if !servers.contains(server) => {
                servers = servers.with(server);
            }
            Some((Some(server), lit)) => {
                ok = false;
                errors.push(syn::Error::new_spanned(
                    lit,
                    format!("`{}` is listed twice: name each server once", server.key()),
                ));
            }
            Some((None, lit)) => {
                ok = false;
                errors.push(syn::Error::new_spanned(
                    &lit,
                    format!(
                        "`{}` is not a server redis-script knows: the servers are {}",
                        lit.value(),
                        accepted()
                    ),
                ));
            }
            None => {
                ok = false;
                errors.push(syn::Error::new_spanned(
                    element,
                    format!(
                        "a server is named by a string literal, one of {}",
                        accepted()
                    ),
                ));
            }
        }
    }
    if servers.is_empty() && ok {
        errors.push(syn::Error::new_spanned(
            array,
            format!(
                "`servers` names at least one server, e.g. `servers = [\"redis-8.2\"]`; \
                 the servers are {}",
                accepted()
            ),
        ));
        return None;
    }
    ok.then_some(servers)
}

fn keys_literal(value: &Expr) -> syn::Result<Keys> {
    let lit = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) => lit,
        _ => {
            return Err(syn::Error::new_spanned(
                value,
                "`keys` takes an integer literal: how many leading parameters are KEYS, e.g. `keys = 1`",
            ));
        }
    };
    let count = lit.base10_parse::<usize>().map_err(|_| {
        syn::Error::new_spanned(
            lit,
            "`keys` must be a non-negative integer, e.g. `keys = 1`",
        )
    })?;
    Ok(Keys {
        count,
        lit: lit.clone(),
    })
}

/// Why an attribute cannot allow `rule` (one the tool can).
fn not_allowed_because(rule: Rule) -> &'static str {
    match rule {
        Rule::NilReply | Rule::ReplyShape => {
            "the binding's Rust type could not hold the reply, and the call would fail to decode it"
        }
        _ => "the server would refuse the call at run time",
    }
}

/// The rules `allow(...)` takes, in words: "`unknown_member`, ... and `unread`".
fn allowable_names() -> String {
    let names: Vec<String> = Rule::allowable_names_by(Checker::Attribute)
        .into_iter()
        .map(|name| format!("`{name}`"))
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}
