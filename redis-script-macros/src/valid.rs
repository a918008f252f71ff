//! The rules a binding must follow, apart from parsing and generation.

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
        if let Some(abi) = &sig.abi {
            errors.push(syn::Error::new(
                abi.span(),
                "remove the ABI: a #[redis_script] function is a Rust function",
            ));
        }
        if let Some(variadic) = &sig.variadic {
            errors.push(syn::Error::new(
                variadic.span(),
                "C-style `...` is not supported: mark the last parameter #[variadic] to pass \
                 any number of ARGV values",
            ));
        }
    }

    fn validate_params(&self, errors: &mut Errors) {
        let last = self.params.len().saturating_sub(1);
        for (index, param) in self.params.iter().enumerate() {
            for attr in &param.other_attrs {
                errors.push(syn::Error::new(
                    attr.span(),
                    format!(
                        "#[redis_script] parameters take no attributes but #[{VARIADIC}]; \
                         every parameter is one KEYS or ARGV value"
                    ),
                ));
            }
            if let Some(span) = param.variadic
                && index != last
            {
                errors.push(syn::Error::new(
                    span,
                    format!("#[{VARIADIC}] belongs on the last parameter only: it takes the rest of ARGV"),
                ));
            }
        }
    }

    fn validate_keys(&self, keys: &Keys, errors: &mut Errors) {
        let params = self.params.len();
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
            .get(..keys.count.min(params))
            .and_then(<[_]>::last)
            && let Some(span) = param.variadic
        {
            errors.push(syn::Error::new(
                span,
                format!(
                    "`{}` is a key (`keys = {}`), but #[{VARIADIC}] feeds ARGV: every key must be \
                     one parameter",
                    param.ident, keys.count
                ),
            ));
        }
    }
}
