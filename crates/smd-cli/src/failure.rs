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

/// `run`'s value, or a solver failure saying `message` when it panics: an internal error
/// ends the command with exit 1 and a sentence, never a backtrace.
pub(crate) fn guarded<T>(message: &str, run: impl FnOnce() -> T) -> Result<T, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .map_err(|_| Failure::Solver(message.to_owned()))
}

/// A file named by `flag` that cannot be written: the user's path, so invalid input (exit 2)
/// naming the flag; whatever was printed before stays.
pub(crate) fn unwritable(flag: &str, path: &Path, e: &io::Error) -> Failure {
    Failure::Invalid(format!("{flag}: cannot write {}: {e}", path.display()))
}
