//! What a command's failure is and its exit status: invalid input (2) or a solver or
//! output failure (1).

use smd_core::Error;
use std::io;
use std::path::Path;

/// Why the program stops early.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Invalid input: exit 2.
    Invalid(String),
    /// The solver failed: exit 1.
    Solver(String),
    /// Writing the output failed (a broken pipe is a quiet exit 0).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        match e {
            Error::Parse(_) | Error::Invalid(_) => Failure::Invalid(e.to_string()),
            Error::Solver(_) => Failure::Solver(e.to_string()),
        }
    }
}

/// A file named by `flag` that cannot be written: the user's path, so invalid input (exit 2)
/// naming the flag; whatever was printed before stays.
pub(crate) fn unwritable(flag: &str, path: &Path, e: &io::Error) -> Failure {
    Failure::Invalid(format!("{flag}: cannot write {}: {e}", path.display()))
}
