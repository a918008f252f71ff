//! A script's signature, declared in its own header: doc comments at the top
//! of the file, in the style Lua's language server reads (`---@param`), so
//! that the Lua file alone says what the script takes and replies.
//!
//! ```lua
//! --- Takes the lock if nobody holds it.
//! ---@key lock string the lock's key
//! ---@param ttl_ms integer time to live in milliseconds
//! ---@param token string the caller's random token
//! ---@return string? "OK" when taken, nil when somebody holds it
//! return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1])
//! ```
//!
//! The header is the run of `---` lines that opens the file (after the
//! `#!lua` line, if any). Lines that start with a tag declare, in order:
//!
//! - `---@key <name> <type> [description]`: the next of `KEYS[1..]`;
//! - `---@key ... <type> [description]`: any number of further KEYS (a
//!   list of keys each call passes, none included), after the other keys;
//! - `---@param <name> <type> [description]`: the next of `ARGV[1..]`;
//! - `---@param ... <type> [description]`: any number of further ARGV
//!   values (the variadic tail), last;
//! - `---@return <type> [description]`: the reply, once.
//!
//! Other lines are the description. `@param` and `@return` are the language
//! server's own tags; `@key` is ours, and an editor shows it as text. A
//! `--- @include` line (see the `compose` convention) is not part of the
//! signature, nor is any other tag of the language server's
//! (`---@diagnostic`, `---@type`, `---@class`...). Types are [`LuaType`]s,
//! written without spaces. Where a signature is optional ([`parse_optional`]:
//! `#[redis_script]`, `redis-lua`), a header of `@param`/`@return` lines
//! that do not parse as one is the language server's annotations, not a
//! signature.

use std::collections::HashSet;

use crate::suggest::suggest;
use crate::syntax::tree::Span;

/// The signature a script declares in its header.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The description lines, without their `---`, in order.
    pub description: Vec<String>,
    /// `@key` lines but the variadic one: `KEYS[1..]`.
    pub keys: Vec<Value>,
    /// `@key ...`: further KEYS, any number.
    pub variadic_keys: Option<Value>,
    /// `@param` lines but the variadic one: `ARGV[1..]`.
    pub args: Vec<Value>,
    /// `@param ...`: further ARGV values, any number.
    pub variadic: Option<Value>,
    /// `@return`.
    pub reply: Option<Value>,
    /// The whole header, from its first line to the end of its last.
    pub span: Span,
}

/// One declared key, argument, or the reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// The name (`...` for the variadic tail; empty for the reply).
    pub name: String,
    /// The declared type.
    pub ty: LuaType,
    /// The rest of the line, trimmed.
    pub description: String,
    /// The tag's line, without its line break.
    pub span: Span,
}

/// A type of the header, as the language server writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LuaType {
    /// `string`
    String,
    /// `integer`
    Integer,
    /// `number`
    Number,
    /// `boolean`
    Boolean,
    /// `nil`, as a reply: the script replies nothing.
    Nil,
    /// `any`: whatever the server sends, unconverted.
    Any,
    /// `T?` or `T|nil`.
    Optional(Box<LuaType>),
    /// `T[]`
    Array(Box<LuaType>),
    /// `table<string,T>`: field-value pairs, as `HGETALL` replies them.
    Map(Box<LuaType>),
}

/// The type names a header may use, for messages and suggestions.
pub const TYPE_NAMES: &[&str] = &["string", "integer", "number", "boolean", "nil", "any"];

/// The tags a header may use.
const TAGS: &[&str] = &["key", "param", "return"];

impl LuaType {
    /// Parses a type as written in a header: `string`, `integer?`,
    /// `string|nil`, `string[]`, `table<string,integer>`.
    pub fn parse(text: &str) -> Result<LuaType, String> {
        if let Some(inner) = text.strip_suffix('?') {
            return Ok(LuaType::Optional(Box::new(LuaType::parse(inner)?)));
        }
        if let Some(inner) = text
            .strip_suffix("|nil")
            .or_else(|| text.strip_prefix("nil|"))
        {
            return Ok(LuaType::Optional(Box::new(LuaType::parse(inner)?)));
        }
        if let Some(inner) = text.strip_suffix("[]") {
            return Ok(LuaType::Array(Box::new(LuaType::parse(inner)?)));
        }
        if let Some(inner) = text
            .strip_prefix("table<string,")
            .and_then(|rest| rest.strip_suffix('>'))
        {
            return Ok(LuaType::Map(Box::new(LuaType::parse(inner)?)));
        }
        Ok(match text {
            "string" => LuaType::String,
            "integer" => LuaType::Integer,
            "number" => LuaType::Number,
            "boolean" => LuaType::Boolean,
            "nil" => LuaType::Nil,
            "any" => LuaType::Any,
            "" => return Err("a type is missing".to_owned()),
            other => {
                let hint = suggest(other, TYPE_NAMES.iter().copied())
                    .map(|name| format!(" (did you mean `{name}`?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "unknown type `{other}`{hint}: a header type is one of {}, optionally \
                     `T?` (or `T|nil`), `T[]` or `table<string,T>`",
                    TYPE_NAMES.join(", ")
                ));
            }
        })
    }

    /// Whether the type is one value on the wire: what a key or a fixed
    /// argument must be.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            LuaType::String | LuaType::Integer | LuaType::Number | LuaType::Boolean
        )
    }
}

impl std::fmt::Display for LuaType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LuaType::String => f.write_str("string"),
            LuaType::Integer => f.write_str("integer"),
            LuaType::Number => f.write_str("number"),
            LuaType::Boolean => f.write_str("boolean"),
            LuaType::Nil => f.write_str("nil"),
            LuaType::Any => f.write_str("any"),
            LuaType::Optional(inner) => write!(f, "{inner}?"),
            LuaType::Array(inner) => write!(f, "{inner}[]"),
            LuaType::Map(inner) => write!(f, "table<string,{inner}>"),
        }
    }
}

/// A header that does not parse: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderError {
    /// The offending line.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to write it instead.
    pub note: Option<String>,
}

/// Reads the header of `source`, as `scripts!` binds it: `Ok(None)` when
/// the file opens with no `---` line carrying a signature tag, every
/// mistake otherwise. Another `---@` tag is the language server's
/// (`---@diagnostic`, `---@type`, `---@class`) and is skipped, unless it is
/// a near miss of a signature tag (`---@parm`), which is a mistake.
pub fn parse(source: &str) -> Result<Option<Header>, Vec<HeaderError>> {
    parse_tags(source).0
}

/// The parameter a binding of the header (`scripts!`) names the list of
/// keys of `---@key ...`; no other key or argument may take it.
pub const KEY_LIST_PARAMETER: &str = "keys";

/// The parameter a binding of the header names the variadic tail of
/// `---@param ...`; no other key or argument may take it.
pub const TAIL_PARAMETER: &str = "rest";

/// Reads the header of a script that may have none, as `#[redis_script]`
/// and `redis-lua` do, where the signature is optional: as [`parse`], but a
/// header that does not parse is taken for the language server's own
/// annotations (`---@param x string|number`), not for a signature, unless
/// it has a `---@key` line (a tag only signatures use) or a near miss of a
/// signature tag. A signature there still has each mistake reported.
pub fn parse_optional(source: &str) -> Result<Option<Header>, Vec<HeaderError>> {
    match parse_tags(source) {
        (Err(_), Intent::Unclear) => Ok(None),
        (result, _) => result,
    }
}

/// Whether a header's tags show it is meant as a signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Intent {
    /// A `---@key` line, or a near miss of a signature tag.
    Signature,
    /// Only `---@param` and `---@return` lines: the language server's tags too.
    Unclear,
}

fn parse_tags(source: &str) -> (Result<Option<Header>, Vec<HeaderError>>, Intent) {
    let mut header = Header {
        description: Vec::new(),
        keys: Vec::new(),
        variadic_keys: None,
        args: Vec::new(),
        variadic: None,
        reply: None,
        span: Span::new(0, 0),
    };
    let mut errors = Vec::new();
    // Every name declared so far: a set, so that a header of many keys
    // checks each new name in constant time.
    let mut names = HashSet::new();
    let mut tagged = false;
    let mut intent = Intent::Unclear;
    let mut first = None;
    let mut end = 0;
    for (index, (start, line)) in lines(source).enumerate() {
        if index == 0 && line.starts_with("#!") {
            continue;
        }
        let Some(text) = line.strip_prefix("---") else {
            break;
        };
        first.get_or_insert(start);
        end = start + line.len();
        let span = Span::new(start, end);
        let trimmed = text.trim();
        let Some(tagged_text) = trimmed.strip_prefix('@') else {
            if !text.starts_with('-') {
                header
                    .description
                    .push(text.strip_prefix(' ').unwrap_or(text).to_owned());
            }
            continue;
        };
        let (tag, rest) = split_word(tagged_text);
        if tag == "include" {
            continue;
        }
        if !TAGS.contains(&tag) && suggest(tag, TAGS.iter().copied()).is_none() {
            // The language server's tag, not a signature's.
            continue;
        }
        if tag != "param" && tag != "return" {
            intent = Intent::Signature;
        }
        tagged = true;
        if let Err(error) = header.add(tag, rest, span, &mut names) {
            errors.push(error);
        }
    }
    if !tagged {
        return (Ok(None), intent);
    }
    header.span = Span::new(first.unwrap_or(0), end);
    // A description that ends in blank lines (before the tags) keeps none of them.
    while header
        .description
        .last()
        .is_some_and(|line| line.trim().is_empty())
    {
        header.description.pop();
    }
    let result = if errors.is_empty() {
        Ok(Some(header))
    } else {
        Err(errors)
    };
    (result, intent)
}

impl Header {
    /// Adds the declaration of one tag line; `names` holds the names of
    /// every value declared so far, and gets this one's.
    fn add(
        &mut self,
        tag: &str,
        rest: &str,
        span: Span,
        names: &mut HashSet<String>,
    ) -> Result<(), HeaderError> {
        let error = |message: String, note: Option<&str>| HeaderError {
            span,
            message,
            note: note.map(str::to_owned),
        };
        if !TAGS.contains(&tag) {
            let hint = suggest(tag, TAGS.iter().copied())
                .map(|name| format!(" (did you mean `@{name}`?)"))
                .unwrap_or_default();
            return Err(error(
                format!("unknown tag `@{tag}`{hint}"),
                Some(
                    "a header declares `---@key name type`, `---@param name type` and `---@return type`",
                ),
            ));
        }
        if tag == "return" {
            let (ty, description) = split_word(rest);
            let ty = LuaType::parse(ty).map_err(|why| {
                error(
                    why,
                    Some("write the reply's type, e.g. `---@return string?`"),
                )
            })?;
            if self.reply.is_some() {
                return Err(error(
                    "a second `@return`: a script replies one value".to_owned(),
                    Some("keep one `---@return` line"),
                ));
            }
            self.reply = Some(Value {
                name: String::new(),
                ty,
                description: description.to_owned(),
                span,
            });
            return Ok(());
        }
        let (name, rest) = split_word(rest);
        let (ty, description) = split_word(rest);
        let example = if tag == "key" {
            "e.g. `---@key lock string the lock's key`"
        } else {
            "e.g. `---@param ttl_ms integer time to live`"
        };
        if name.is_empty() || ty.is_empty() {
            return Err(error(
                format!("`@{tag}` needs a name and a type"),
                Some(example),
            ));
        }
        let variadic = name == "...";
        if !variadic && !is_identifier(name) {
            return Err(error(
                format!("`{name}` is not a name a Rust parameter can have"),
                Some("use letters, digits and `_`, not starting with a digit, e.g. `ttl_ms`"),
            ));
        }
        let ty = LuaType::parse(ty).map_err(|why| error(why, Some(example)))?;
        if !ty.is_scalar() {
            return Err(error(
                format!(
                    "`{name}` is declared `{ty}`, but a key or argument is one value: \
                     `string`, `integer`, `number` or `boolean`"
                ),
                Some(if variadic {
                    "a list's type is that of each value: `---@key ... string`, \
                     `---@param ... string`"
                } else if tag == "key" {
                    "for any number of keys, declare `---@key ... <type>` after the other keys"
                } else {
                    "for any number of values, declare the tail `---@param ... <type>` last"
                }),
            ));
        }
        if !variadic && names.contains(name) {
            return Err(error(
                format!("`{name}` is declared twice"),
                Some("give each key and argument its own name"),
            ));
        }
        // The lists are bound as parameters of these names: a value that
        // also has one would be a parameter bound twice.
        let list_names = [
            (
                self.variadic_keys.is_some() || (variadic && tag == "key"),
                KEY_LIST_PARAMETER,
                "key ...",
            ),
            (
                self.variadic.is_some() || (variadic && tag != "key"),
                TAIL_PARAMETER,
                "param ...",
            ),
        ];
        for (listed, parameter, list) in list_names {
            // A list's own name is `...`, never a parameter's.
            let clash = if variadic {
                names.contains(parameter)
            } else {
                name == parameter
            };
            if listed && clash {
                return Err(error(
                    format!(
                        "`{parameter}` is the parameter a binding gives the list `---@{list}`, \
                         so no key or argument may be named `{parameter}` beside it"
                    ),
                    Some("rename that key or argument"),
                ));
            }
        }
        if self.variadic.is_some() {
            return Err(error(
                format!("`@{tag} {name}` follows the variadic `@param ...`, which must be last"),
                Some("move `---@param ...` after every other `@key` and `@param`"),
            ));
        }
        if tag == "key" && self.variadic_keys.is_some() {
            return Err(error(
                format!(
                    "`@key {name}` follows the variadic `@key ...`, which must be the last key"
                ),
                Some("move `---@key ...` after every other `@key`"),
            ));
        }
        let value = Value {
            name: name.to_owned(),
            ty,
            description: description.to_owned(),
            span,
        };
        if tag == "key" && !self.args.is_empty() {
            return Err(error(
                format!("`@key {name}` follows an `@param`: KEYS come before ARGV"),
                Some("list every `---@key` before the first `---@param`"),
            ));
        }
        names.insert(name.to_owned());
        match (tag, variadic) {
            ("key", true) => self.variadic_keys = Some(value),
            ("key", false) => self.keys.push(value),
            (_, true) => self.variadic = Some(value),
            _ => self.args.push(value),
        }
        Ok(())
    }
}

/// Each line of `source` with its byte offset, without its line ending
/// (lines end as Lua ends them: `\n`, `\r`, `\r\n` or `\n\r`).
fn lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    crate::text::lines(source.as_bytes()).map(|line| (line.start, &source[line.start..line.end]))
}

/// The first whitespace-separated word of `text`, and the rest, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(at) => (&text[..at], text[at..].trim()),
        None => (text, ""),
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = "#!lua\n\
        --- Takes the lock.\n\
        ---\n\
        --- Replies OK.\n\
        ---@key lock string the lock's key\n\
        ---@param ttl_ms integer time to live\n\
        ---@param token string\n\
        ---@return string? OK when taken\n\
        return 1\n";

    #[test]
    fn a_header_declares_keys_arguments_and_the_reply_in_order() {
        let header = parse(LOCK).unwrap().unwrap();
        assert_eq!(header.description, ["Takes the lock.", "", "Replies OK."]);
        let names = |values: &[Value]| values.iter().map(|v| v.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&header.keys), ["lock"]);
        assert_eq!(names(&header.args), ["ttl_ms", "token"]);
        assert_eq!(header.args[0].ty, LuaType::Integer);
        assert_eq!(header.keys[0].description, "the lock's key");
        let reply = header.reply.unwrap();
        assert_eq!(reply.ty, LuaType::Optional(Box::new(LuaType::String)));
        assert_eq!(reply.description, "OK when taken");
        assert_eq!(&LOCK[header.span.start..header.span.start + 3], "---");
        assert!(LOCK[..header.span.end].ends_with("OK when taken"));
    }

    #[test]
    fn no_key_or_argument_takes_the_name_a_list_is_bound_to() {
        let refused = |source: &str| {
            let errors = parse(source).unwrap_err();
            assert_eq!(errors.len(), 1, "{errors:?}");
            errors[0].message.clone()
        };
        // Either order: the named value first, or the list.
        for source in [
            "---@key keys string\n---@key ... string\n---@return integer\nreturn 1\n",
            "---@key ... string\n---@param keys string\n---@return integer\nreturn 1\n",
            "---@param rest string\n---@param ... string\n---@return integer\nreturn 1\n",
        ] {
            let message = refused(source);
            assert!(
                message.contains("the parameter a binding gives"),
                "{message}"
            );
        }
        // Without the list, the names are free; a list of keys leaves `rest` free.
        assert!(
            parse("---@key keys string\n---@param rest string\n---@return integer\nreturn 1\n")
                .is_ok()
        );
        assert!(
            parse("---@key ... string\n---@param rest string\n---@return integer\nreturn 1\n")
                .is_ok()
        );
    }

    #[test]
    fn types_read_as_the_language_server_writes_them() {
        let ty = |text| LuaType::parse(text).unwrap().to_string();
        assert_eq!(ty("string|nil"), "string?");
        assert_eq!(ty("nil|integer"), "integer?");
        assert_eq!(ty("string[]"), "string[]");
        assert_eq!(ty("table<string,integer>"), "table<string,integer>");
        assert_eq!(ty("string[]?"), "string[]?");
        let error = LuaType::parse("strng").unwrap_err();
        assert!(error.contains("did you mean `string`"), "{error}");
    }

    #[test]
    fn a_file_without_tags_has_no_header() {
        assert_eq!(parse("--- just a comment\nreturn 1\n"), Ok(None));
        assert_eq!(parse("-- KEYS[1] the key\nreturn 1\n"), Ok(None));
        // A tag after the opening comment lines is not in the header.
        assert_eq!(parse("-- text\n---@key k string\nreturn 1\n"), Ok(None));
        // Include lines are not a signature.
        assert_eq!(parse("--- @include \"x\"\nreturn 1\n"), Ok(None));
    }

    #[test]
    fn the_language_servers_own_tags_are_no_signature() {
        // Tags of the language server's only: skipped, by both readers.
        let source = "---@diagnostic disable: undefined-global\n---@type string\n\
                      ---@class Job\n---@field id string\nreturn 1\n";
        assert_eq!(parse(source), Ok(None));
        assert_eq!(parse_optional(source), Ok(None));
        let source = "---@diagnostic disable: undefined-global\n---@key k string\nreturn 1\n";
        assert_eq!(parse(source).unwrap().unwrap().keys.len(), 1);
        // Its `@param` with a type no signature has: a signature to bind,
        // annotations where the signature is optional.
        let source = "---@param x string|number\n---@return integer\nreturn 1\n";
        assert!(parse(source).is_err());
        assert_eq!(parse_optional(source), Ok(None));
        // With a `@key`, or a near miss of a tag, it is a signature all the same.
        let source = "---@key k string\n---@param x string|number\nreturn 1\n";
        assert!(parse_optional(source).is_err());
        let source = "---@parm x string\n---@param y string|number\nreturn 1\n";
        assert!(parse_optional(source).is_err());
        let source = "---@param x string\n---@return integer\nreturn 1\n";
        assert_eq!(parse_optional(source).unwrap().unwrap().args.len(), 1);
    }

    #[test]
    fn a_variadic_tail_is_the_last_parameter() {
        let header = parse("---@key q string\n---@param ... string members\nreturn 1\n")
            .unwrap()
            .unwrap();
        assert_eq!(header.variadic.unwrap().description, "members");
        let errors = parse("---@param ... string\n---@param x string\n").unwrap_err();
        assert!(errors[0].message.contains("must be last"), "{errors:?}");
    }

    #[test]
    fn a_variadic_key_list_is_the_last_key() {
        let header = parse(
            "---@key dest string\n---@key ... string sources\n---@param ... string\nreturn 1\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(header.keys.len(), 1);
        assert_eq!(header.variadic_keys.unwrap().description, "sources");
        assert!(header.variadic.is_some());
        let errors = parse("---@key ... string\n---@key other string\n").unwrap_err();
        assert!(
            errors[0].message.contains("must be the last key"),
            "{errors:?}"
        );
        let errors = parse("---@key ... string\n---@key ... string\n").unwrap_err();
        assert!(
            errors[0].message.contains("must be the last key"),
            "{errors:?}"
        );
        let errors = parse("---@param x string\n---@key ... string\n").unwrap_err();
        assert!(
            errors[0].message.contains("KEYS come before ARGV"),
            "{errors:?}"
        );
        let errors = parse("---@key ... string[]\n").unwrap_err();
        assert!(errors[0].message.contains("one value"), "{errors:?}");
    }

    #[test]
    fn header_lines_end_as_lua_ends_them() {
        for ending in ["\n", "\r\n", "\r", "\n\r"] {
            let source = ["---@key lock string", "---@param ttl integer", "return 1"].join(ending);
            let header = parse(&source).unwrap().unwrap();
            assert_eq!(header.keys.len(), 1, "{ending:?}");
            assert_eq!(header.args.len(), 1, "{ending:?}");
            let span = header.args[0].span;
            assert!(source[span.start..span.end].contains("ttl"), "{ending:?}");
        }
    }

    #[test]
    fn every_mistake_is_reported_at_its_line() {
        let source = "---@kee a string\n---@param 1x string\n---@param b table\n\
                      ---@param c string\n---@param c string\n---@key d string\n\
                      ---@return string\n---@return integer\n---@param e\n";
        let errors = parse(source).unwrap_err();
        let lines: Vec<usize> = errors
            .iter()
            .map(|e| source[..e.span.start].matches('\n').count() + 1)
            .collect();
        assert_eq!(lines, [1, 2, 3, 5, 6, 8, 9], "{errors:?}");
        assert!(errors[0].message.contains("did you mean `@key`"));
        assert!(errors[2].message.contains("unknown type `table`"));
        assert!(errors[4].message.contains("KEYS come before ARGV"));
    }

    #[test]
    fn a_header_of_many_keys_declares_each_in_order() {
        let mut source = String::new();
        for i in 0..20_000 {
            source.push_str(&format!("---@key k{i} string\n"));
        }
        source.push_str("---@param ... string\n---@return integer\nreturn 1\n");
        let header = parse(&source).unwrap().unwrap();
        assert_eq!(header.keys.len(), 20_000);
        assert_eq!(header.keys[12_345].name, "k12345");
        assert!(header.variadic.is_some());
        // A name taken thousands of lines before is still taken.
        let twice = source.replacen("---@param ...", "---@key k7 string\n---@param ...", 1);
        let errors = parse(&twice).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains("`k7` is declared twice"));
        assert_eq!(
            &twice[errors[0].span.start..errors[0].span.end],
            "---@key k7 string"
        );
    }

    #[test]
    fn keys_and_arguments_are_single_values() {
        let errors = parse("---@param ids string[]\n").unwrap_err();
        assert!(errors[0].message.contains("one value"), "{errors:?}");
        assert!(errors[0].note.as_deref().unwrap().contains("---@param ..."));
        let errors = parse("---@key maybe string?\n").unwrap_err();
        assert!(errors[0].message.contains("one value"), "{errors:?}");
    }
}
