//! The annotated function declaration, as a typed view over its syn nodes.

use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Block, FnArg, Ident, Pat, ReturnType, Signature, Token, Type, Visibility};

/// The parameter attribute that marks a variable-length list: the last key
/// parameter (any number of further KEYS), or the last parameter (the ARGV
/// tail).
pub const VARIADIC: &str = "variadic";

/// `#[redis_script(...)] pub fn name(params) -> Reply;`
pub struct Binding {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub sig: Signature,
    /// The body, which a binding must not have; kept to point an error at it.
    pub body: Option<Block>,
    pub params: Vec<Param>,
    /// Parameters the binding cannot use (receivers, patterns), each with its error.
    pub bad_params: Vec<syn::Error>,
}

/// One named parameter: a KEYS or ARGV value.
pub struct Param {
    pub ident: Ident,
    pub ty: Type,
    /// The `#[variadic]` attribute, when present, to point errors at.
    pub variadic: Option<Attribute>,
    /// Attributes other than `#[variadic]`, which a binding does not accept.
    pub other_attrs: Vec<Attribute>,
}

impl Parse for Binding {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        let sig: Signature = input.parse()?;
        let body = if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
            None
        } else {
            Some(input.parse::<Block>()?)
        };
        Ok(Binding::from_syn(attrs, vis, sig, body))
    }
}

impl Binding {
    /// The typed view of a declaration's parts, written by the user or
    /// built from a script's header.
    pub fn from_syn(
        attrs: Vec<Attribute>,
        vis: Visibility,
        sig: Signature,
        body: Option<Block>,
    ) -> Binding {
        let mut params = Vec::new();
        let mut bad_params = Vec::new();
        for arg in &sig.inputs {
            match Param::from_syn(arg) {
                Ok(param) => params.push(param),
                Err(error) => bad_params.push(error),
            }
        }
        Binding {
            attrs,
            vis,
            sig,
            body,
            params,
            bad_params,
        }
    }
}

impl Param {
    fn from_syn(arg: &FnArg) -> syn::Result<Param> {
        let typed = match arg {
            FnArg::Typed(typed) => typed,
            FnArg::Receiver(receiver) => {
                return Err(syn::Error::new_spanned(
                    receiver,
                    "remove `self`: a #[redis_script] function's parameters are the script's \
                     KEYS then ARGV; in an `impl` marked #[redis_script::bindings] it is an \
                     associated function, called as `Type::name(...)`",
                ));
            }
        };
        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "use a plain parameter name here: it names the KEYS or ARGV value in errors and docs",
                ));
            }
        };
        let (variadic, other_attrs): (Vec<_>, Vec<_>) = typed
            .attrs
            .iter()
            .cloned()
            .partition(|attr| attr.path().is_ident(VARIADIC));
        Ok(Param {
            ident,
            ty: (*typed.ty).clone(),
            variadic: variadic.into_iter().next(),
            other_attrs,
        })
    }
}

/// The parameters as the script receives them.
pub struct Split<'a> {
    /// The fixed `KEYS[1..]`.
    pub keys: &'a [Param],
    /// The `#[variadic]` last key parameter, whose keys follow the fixed ones.
    pub variadic_keys: Option<&'a Param>,
    /// The fixed `ARGV[1..]`.
    pub args: &'a [Param],
    /// The `#[variadic]` last parameter, which fills the rest of ARGV.
    pub variadic: Option<&'a Param>,
}

impl Binding {
    /// Splits the parameters at `keys`: the first `keys` are KEYS, the last
    /// of them, if `#[variadic]`, a list of keys; the rest ARGV, a
    /// `#[variadic]` last one the ARGV tail.
    pub fn split(&self, keys: usize) -> Split<'_> {
        let (keys, args) = self.params.split_at(keys.min(self.params.len()));
        let (keys, variadic_keys) = split_variadic(keys);
        let (args, variadic) = split_variadic(args);
        Split {
            keys,
            variadic_keys,
            args,
            variadic,
        }
    }

    /// The declared reply type; `()` when the declaration has none.
    pub fn reply_type(&self) -> Type {
        match &self.sig.output {
            ReturnType::Type(_, ty) => (**ty).clone(),
            ReturnType::Default => syn::parse_quote!(()),
        }
    }
}

/// `params` without its last one if that is `#[variadic]`, and that one.
fn split_variadic(params: &[Param]) -> (&[Param], Option<&Param>) {
    match params.split_last() {
        Some((last, fixed)) if last.variadic.is_some() => (fixed, Some(last)),
        _ => (params, None),
    }
}
