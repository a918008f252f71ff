//! The Lua checks, seen from the binding: what the declaration promises,
//! and each finding turned into a compile error (or warning) at the Rust
//! token it concerns, quoting the Lua file, line and column.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Ident, LitStr, ReturnType};

use redis_script_analyzer::servers::Servers;
use redis_script_analyzer::{
    self as analyzer, Allowed, Checker, Declared, Diagnostic, Rule, Severity, Target,
};

use crate::errors::Errors;
use crate::input::ast::Binding;
use crate::input::attr::Keys;
use crate::input::script_file::ScriptFile;
use crate::reply_type;

/// What the checks found that the expansion uses.
pub struct Checked {
    /// The script's shebang flags, or the function's registered flags.
    pub flags: Vec<String>,
    /// Whether the flags hold `no-writes`: calls use the `_RO` commands.
    pub read_only: bool,
    /// For a function: the name of its library.
    pub library: Option<String>,
    /// Warnings, as statements of the binding's body that make rustc warn
    /// at the right token.
    pub warnings: TokenStream,
}

/// How to check.
pub struct Options {
    /// `allow(...)` on the attribute.
    pub allowed: Allowed,
    /// Whether the declaration itself is free of errors; if not, only the
    /// findings about the script alone are reported, not those measured
    /// against the declaration.
    pub declaration_ok: bool,
    /// The servers the script must run on: the binding's `servers = [...]`,
    /// else the crate's (its `Cargo.toml`).
    pub servers: Servers,
    /// Whether the crate's scripts run on Redis Cluster (its `Cargo.toml`).
    pub cluster: bool,
}

/// What a binding calls: a script, or a function of a library.
pub enum Callee<'a> {
    Script,
    /// The function's name, as the library registers it.
    Function(&'a str),
}

/// Checks `script` (a script, or the library of `callee`) against
/// `binding`, pushing every error into `errors`.
pub fn check(
    binding: &Binding,
    keys: &Keys,
    file: &LitStr,
    script: &ScriptFile,
    callee: Callee,
    options: Options,
    errors: &mut Errors,
) -> Checked {
    let declared = declared(binding, keys.count, &options);
    let (flags, read_only, library, diagnostics) = match callee {
        Callee::Script => {
            let analysis =
                analyze_with_room(|| analyzer::analyze(&script.source, declared.clone()));
            let flags = analysis
                .shebang
                .flags
                .iter()
                .map(|flag| (*flag).to_owned())
                .collect();
            (
                flags,
                analysis.shebang.is_read_only(),
                None,
                analysis.diagnostics,
            )
        }
        Callee::Function(function) => {
            let analysis = analyze_with_room(|| {
                analyzer::library::analyze_function(&script.source, function, declared.clone())
            });
            let (flags, read_only) = analysis
                .function
                .as_ref()
                .map_or((Vec::new(), false), |f| (f.flags.clone(), f.is_read_only()));
            (
                flags,
                read_only,
                Some(analysis.library),
                analysis.diagnostics,
            )
        }
    };
    let warnings = report_findings(binding, keys, file, script, &options, &diagnostics, errors);
    Checked {
        flags,
        read_only,
        library,
        warnings,
    }
}

/// Each finding as an error in `errors` or a warning (returned as statements),
/// at the Rust token it concerns.
fn report_findings(
    binding: &Binding,
    keys: &Keys,
    file: &LitStr,
    script: &ScriptFile,
    options: &Options,
    diagnostics: &[Diagnostic],
    errors: &mut Errors,
) -> TokenStream {
    let mut warnings = TokenStream::new();
    let relevant = diagnostics
        .iter()
        .filter(|diagnostic| options.declaration_ok || diagnostic.target == Target::File);
    let mut shown_errors = 0;
    let mut hidden_errors = 0;
    for diagnostic in relevant {
        let span = target_span(binding, keys, file, diagnostic.target);
        match diagnostic.severity {
            Severity::Error if shown_errors == SHOWN_ERRORS => hidden_errors += 1,
            Severity::Error => {
                shown_errors += 1;
                let message = script.render(
                    diagnostic.span,
                    &diagnostic.message,
                    diagnostic.note.as_deref(),
                );
                errors.push(syn::Error::new(span, message));
            }
            // A warning, or a milder severity a later analyzer may add.
            _ => {
                let message = warning_message(binding, keys, script, diagnostic);
                let parameter = target_parameter(binding, keys, diagnostic.target);
                warnings.extend(warning(span, diagnostic.rule, parameter, &message));
            }
        }
    }
    if hidden_errors > 0 {
        errors.push(syn::Error::new(
            file.span(),
            format!(
                "... and {hidden_errors} more error{} in `{}`, not shown (the first \
                 {SHOWN_ERRORS} are)",
                if hidden_errors == 1 { "" } else { "s" },
                file.value()
            ),
        ));
    }
    warnings
}

/// Errors shown per script, at most: each quotes a line of the script, and
/// a generated script can have thousands of the same mistake.
const SHOWN_ERRORS: usize = 20;

/// Parsing and checking recurse as deep as the script nests, up to Lua's
/// 200 levels (chains such as a generated `a + b + ...` of any length are
/// walked in loops), which in an unoptimized build may be more than the
/// compiler's own stack leaves a macro; so they run on a thread with room.
fn analyze_with_room<A: Send>(analyze: impl Fn() -> A + Send + Sync) -> A {
    const STACK: usize = 256 << 20;
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("redis-script-lua".to_owned())
            .stack_size(STACK)
            .spawn_scoped(scope, &analyze)
            .ok()
            .and_then(|thread| thread.join().ok())
            // Without a thread (a platform that has none), analyze in place.
            .unwrap_or_else(&analyze)
    })
}

fn declared(binding: &Binding, keys: usize, options: &Options) -> Declared {
    let split = binding.split(keys);
    Declared::default()
        // With a #[variadic] key list, the fixed keys are a lower bound.
        .keys(split.keys.len())
        .args(split.args.len())
        .variadic(split.variadic.is_some())
        .variadic_keys(split.variadic_keys.is_some())
        .reply(reply_type::reply_kind(&binding.reply_type()))
        .reply_type(reply_type::rust_type(&binding.reply_type()))
        .allowed(options.allowed)
        .servers(options.servers)
        .checker(Checker::Attribute)
        .cluster(options.cluster)
}

fn target_span(binding: &Binding, keys: &Keys, file: &LitStr, target: Target) -> Span {
    let param = |index: usize| binding.params.get(index).map(|param| param.ident.span());
    match target {
        Target::File => file.span(),
        Target::Keys => keys.lit.span(),
        Target::Params => binding.sig.ident.span(),
        Target::Key(index) => param(index).unwrap_or_else(|| keys.lit.span()),
        Target::Arg(index) => param(keys.count + index).unwrap_or_else(|| binding.sig.ident.span()),
        Target::Reply => match &binding.sig.output {
            ReturnType::Type(_, ty) => ty.span(),
            ReturnType::Default => binding.sig.ident.span(),
        },
        _ => file.span(),
    }
}

/// The warning's text names the file and the parameter, since it shows
/// at the parameter, or the file and line of a finding in the script;
/// rustc shows no note, so the note ends the text.
fn warning_message(
    binding: &Binding,
    keys: &Keys,
    script: &ScriptFile,
    diagnostic: &Diagnostic,
) -> String {
    let file = script.display();
    let parameter = match diagnostic.target {
        Target::Key(index) => index,
        Target::Arg(index) => keys.count + index,
        _ => usize::MAX,
    };
    let name = binding
        .params
        .get(parameter)
        .map_or(String::new(), |p| p.ident.to_string());
    let message = diagnostic
        .target
        .unread_message(&format!("`{file}`"), &format!("`{name}`"))
        .unwrap_or_else(|| {
            let (file, line, column) = script.position(diagnostic.span);
            format!("{} (`{file}`:{line}:{column})", diagnostic.message)
        });
    match &diagnostic.note {
        Some(note) => format!("redis-script: {message}. {}", sentence(note)),
        None => format!("redis-script: {message}"),
    }
}

/// `note` as a sentence of its own: its first letter in upper case.
fn sentence(note: &str) -> String {
    let mut chars = note.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The parameter a finding is about, if it is about one.
fn target_parameter<'b>(binding: &'b Binding, keys: &Keys, target: Target) -> Option<&'b Ident> {
    let index = match target {
        Target::Key(index) => index,
        Target::Arg(index) => keys.count + index,
        _ => return None,
    };
    binding.params.get(index).map(|param| &param.ident)
}

/// Stable proc macros cannot emit warnings; the use of a deprecated item is
/// the usual way to have rustc show one, at `span`. A statement of the
/// binding's body: the item, a constant named after the finding (and the
/// parameter it is about), is then named by the binding's path, and the
/// warning reads "use of deprecated constant `set::ttl_ms_is_never_read`:
/// <message>".
fn warning(span: Span, rule: Rule, parameter: Option<&Ident>, message: &str) -> TokenStream {
    let parameter = parameter.map(|p| p.to_string().trim_start_matches("r#").to_owned());
    let name = match (rule, parameter) {
        (Rule::Unread, Some(parameter)) => format!("{parameter}_is_never_read"),
        (Rule::Unread, None) => "unread_parameter".to_owned(),
        (other, Some(parameter)) => format!("{parameter}_{}", other.name()),
        (other, None) => other.name().to_owned(),
    };
    let item = Ident::new(&name, Span::call_site());
    let used = Ident::new(&name, span);
    quote! {
        {
            #[deprecated(note = #message)]
            #[allow(non_upper_case_globals)]
            const #item: () = ();
            let _ = #used;
        }
    }
}
