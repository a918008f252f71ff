//! Collects errors so that one expansion reports all of them at once.

/// A list of errors, combined into one `syn::Error` at the end.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Keeps the error of `result`, if any, and returns its value.
    pub fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub fn into_result(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
