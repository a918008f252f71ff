//! The checks of a [`Request`]: its arguments, its declaration, its header
//! against the declaration, and the Lua analysis, each mistake recorded in
//! the order the user reads them.

pub mod script;
pub mod signature;
#[cfg(test)]
mod tests;
mod valid;

use crate::errors::Errors;
use crate::input::attr::Kind;
use crate::input::request::Request;
use script::{Callee, Checked};

/// Checks `request`, pushing every mistake into `errors`; what the Lua
/// analysis found that the expansion uses, when it ran.
pub fn check(request: &Request, errors: &mut Errors) -> Option<Checked> {
    let binding = &request.binding;
    if let Some(args) = &request.args {
        args.check_required(errors);
    }
    let keys = request.keys();
    binding.validate(keys, errors);
    let file = request.file();
    if let Some(Err(error)) = &request.script {
        errors.push(error.clone());
    }
    let script = request.script();
    if let (Some(file), Some(script), Some(keys), Some(header)) =
        (file, script, keys, &request.header)
    {
        match header {
            Err(header_errors) => crate::input::header::header_errors(
                file,
                script.own_source(),
                header_errors,
                errors,
            ),
            // A declaration with errors of its own is not compared.
            Ok(Some(header)) if errors.is_empty() => {
                signature::check_agreement(binding, keys, file, script.own_source(), header, errors)
            }
            Ok(_) => {}
        }
    }
    let manifest = match request.manifest {
        Ok(manifest) => Some(manifest),
        Err(error) => {
            errors.push(error.clone());
            None
        }
    };
    let args = request.args.as_ref()?;
    // A binding whose `servers` list has a mistake is not checked against
    // any servers until it is fixed.
    if args.servers_invalid() {
        return None;
    }
    let (file, keys, script, manifest) = (file?, keys?, script?, manifest?);
    let options = script::Options {
        allowed: args.allowed,
        // A declaration with errors of its own cannot be held against the script.
        declaration_ok: errors.is_empty(),
        servers: args.servers.unwrap_or(manifest.servers),
        cluster: manifest.cluster,
    };
    let function = request.function_name().unwrap_or_default();
    let callee = match request.kind {
        Kind::Script => Callee::Script,
        Kind::Function => Callee::Function(&function),
    };
    Some(script::check(
        binding, keys, file, script, callee, options, errors,
    ))
}
