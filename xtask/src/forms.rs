//! What the tables generated one row per form share: each name's distinct
//! forms (the text of a row after its name and servers), each with the
//! servers that give the name that form, and how the rows are written
//! (the server sets as named constants, then one row a line).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::commands::{names, set_expression};
use crate::servers::Server;

/// Each name's forms, in the order of their first server.
#[derive(Default)]
pub struct Forms<'a> {
    rows: BTreeMap<&'a str, Vec<(String, Vec<Server>)>>,
}

impl<'a> Forms<'a> {
    /// `server` gives `name` the form `form` (servers come in order).
    pub fn add(&mut self, name: &'a str, form: String, server: Server) {
        let forms = self.rows.entry(name).or_default();
        match forms.iter_mut().find(|(seen, _)| *seen == form) {
            Some((_, servers)) => servers.push(server),
            None => forms.push((form, vec![server])),
        }
    }

    /// Writes the server sets (`const S0: Servers = ...;`, in order of
    /// first use), then `declaration` (`pub(super) static X: &[Row] =
    /// &[`) and a line `row(name, S<n>, form),` for each form, sorted by
    /// name, then by first server.
    pub fn write(&self, out: &mut String, documentation: &str, declaration: &str, row: &str) {
        let mut sets: Vec<&[Server]> = Vec::new();
        for (_, servers) in self.rows.values().flatten() {
            if !sets.contains(&servers.as_slice()) {
                sets.push(servers);
            }
        }
        for (index, servers) in sets.iter().enumerate() {
            let _ = write!(
                out,
                "\n/// {}.\n#[rustfmt::skip]\nconst S{index}: Servers = {};\n",
                names(servers),
                set_expression(servers)
            );
        }
        let _ = write!(out, "\n{documentation}#[rustfmt::skip]\n{declaration}\n");
        for (name, forms) in &self.rows {
            for (form, servers) in forms {
                let set = sets
                    .iter()
                    .position(|set| set == servers)
                    .expect("every set is named");
                let _ = writeln!(out, "    {row}({name:?}, S{set}, {form}),");
            }
        }
        out.push_str("];\n");
    }
}
