//! The rules a binding must follow, apart from parsing and generation.

use syn::FnArg;
use syn::spanned::Spanned;

use crate::ast::{Binding, VARIADIC};
use crate::attr::Keys;
use crate::errors::Errors;

impl Binding {
    /// Checks the declaration and its `keys` count, recording every problem.
    pub fn validate(&self, keys: Option<&Keys>, errors: &mut Errors) {
        for error in &self.bad_params {
            errors.push(error.clone());
        }
        self.validate_signature(errors);
        self.validate_params(errors);
        if let Some(keys) = keys {
            self.validate_keys(keys, errors);
        }
    }

    fn validate_signature(&self, errors: &mut Errors) {
        let sig = &self.sig;
        let name = &sig.ident;
        if let Some(body) = &self.body {
            errors.push(syn::Error::new(
                body.span(),
                format!(
                    "remove the body: #[redis_script] generates `{name}` from the Lua file; \
                     end the declaration with `;`"
                ),
            ));
        }
        if let Some(token) = &sig.asyncness {
            errors.push(syn::Error::new(
                token.span,
                format!(
                    "remove `async`: `{name}(...)` builds the call, which runs with \
                     `.invoke(&mut con)` or `.invoke_async(&mut con).await`"
                ),
            ));
        }
        if let Some(token) = &sig.constness {
            errors.push(syn::Error::new(
                token.span,
                "remove `const`: a script call cannot be built at compile time",
            ));
        }
        if let syn::Safety::Unsafe(token) = &sig.safety {
            errors.push(syn::Error::new(
                token.span,
                "remove `unsafe`: building a script call is safe, and so is the generated function",
            ));
        }
        if let Some(abi) = &sig.abi {
            errors.push(syn::Error::new_spanned(
                abi,
                "remove the ABI: a #[redis_script] function is a Rust function",
            ));
        }
        if let Some(variadic) = &sig.variadic {
            errors.push(syn::Error::new_spanned(
                variadic,
                "C-style `...` is not supported: mark the last parameter #[variadic] to pass \
                 any number of ARGV values",
            ));
        }
    }

    fn validate_params(&self, errors: &mut Errors) {
        let last = self.params.len().saturating_sub(1);
        for (index, param) in self.params.iter().enumerate() {
            for attr in &param.other_attrs {
                errors.push(syn::Error::new_spanned(
                    attr,
                    format!(
                        "remove this attribute: a #[redis_script] parameter is one KEYS or ARGV \
                         value and takes no attribute but #[{VARIADIC}]"
                    ),
                ));
            }
            if let Some(attr) = &param.variadic
                && index != last
            {
                errors.push(syn::Error::new_spanned(
                    attr,
                    format!(
                        "#[{VARIADIC}] takes the rest of ARGV, so only the last parameter can \
                         have it: move `{}` to the end or remove #[{VARIADIC}]",
                        param.ident
                    ),
                ));
            }
        }
    }

    fn validate_keys(&self, keys: &Keys, errors: &mut Errors) {
        // Counted as written: a badly named parameter is still a parameter
        // (and has its own error), a receiver never is.
        let params = self
            .sig
            .inputs
            .iter()
            .filter(|arg| matches!(arg, FnArg::Typed(_)))
            .count();
        if keys.count > params {
            errors.push(syn::Error::new_spanned(
                &keys.lit,
                format!(
                    "`keys = {}` but `{}` has {params} parameter{}: the first `keys` parameters \
                     are the script's KEYS, so `keys` can be at most {params}",
                    keys.count,
                    self.sig.ident,
                    if params == 1 { "" } else { "s" },
                ),
            ));
        }
        if let Some(param) = self
            .params
            .get(..keys.count.min(self.params.len()))
            .and_then(<[_]>::last)
            && let Some(attr) = &param.variadic
        {
            errors.push(syn::Error::new_spanned(
                attr,
                format!(
                    "`{}` is a key (`keys = {}`), but #[{VARIADIC}] fills ARGV: pass each key as \
                     its own parameter, or lower `keys` to make `{}` the ARGV tail",
                    param.ident, keys.count, param.ident
                ),
            ));
        }
    }
}
