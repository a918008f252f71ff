//! The rules that read the semantic model ([`crate::semantic`]), one per file.

pub(crate) mod nil_comparison;
pub(crate) mod undeclared_key;
