//! Errors as values: invalid input names the job, the field and the value; solver failures
//! are reported, never panicked.

use std::fmt;

/// One violated rule of `SCENARIO.md`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FieldError {
    /// The job's id, or `None` for a field outside `jobs` (cluster, params).
    pub job: Option<String>,
    /// The field's path inside the job (`worker.gpu`, `layers[3].forward_ms`) or the scenario
    /// (`params.epsilon`).
    pub field: String,
    /// What is wrong, with the value that was given.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.job {
            Some(id) => write!(
                f,
                "job {:?}: {} {}",
                cut(id),
                cut(&self.field),
                cut_quoted(&self.message)
            ),
            None => write!(f, "{} {}", cut(&self.field), cut_quoted(&self.message)),
        }
    }
}

/// Everything that can go wrong between a scenario file and a plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The text is not JSON, or does not have the scenario's shape.
    Parse(String),
    /// The scenario breaks one or more rules; every violation is listed.
    Invalid(Vec<FieldError>),
    /// The LP solver (or a numerical step) failed; the message says where.
    Solver(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(m) => write!(f, "invalid scenario: {}", cut_quoted(m)),
            Error::Invalid(errs) => {
                for (i, e) in errs.iter().take(MAX_LISTED).enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{e}")?;
                }
                if errs.len() > MAX_LISTED {
                    write!(f, "\n… and {} more problems", errs.len() - MAX_LISTED)?;
                }
                Ok(())
            }
            Error::Solver(m) => write!(f, "solver failure: {}", cut_quoted(m)),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// A solver failure with the job it happened in; other errors unchanged.
    pub fn for_job(self, id: &str) -> Error {
        match self {
            Error::Solver(m) => Error::Solver(format!("job {id:?}: {m}")),
            e => e,
        }
    }

    /// A single field error.
    pub fn field(job: Option<&str>, field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid(vec![FieldError {
            job: job.map(str::to_owned),
            field: field.into(),
            message: message.into(),
        }])
    }
}

/// Most problems an [`Error::Invalid`] lists when displayed (all are kept in the value).
pub const MAX_LISTED: usize = 50;

/// Longest text echoed whole in a message; longer text is cut by [`cut`].
pub const MAX_ECHO: usize = 60;

/// `s` itself if short, else its first 40 characters, "…" and its length: user text (an id,
/// a key, a string value) is echoed in messages without flooding them.
pub fn cut(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().count() <= MAX_ECHO {
        return s.into();
    }
    let head: String = s.chars().take(40).collect();
    format!("{head}… ({} characters)", s.chars().count()).into()
}

/// `message` with every over-long run between quotes or backticks cut by [`cut`]: serde's
/// messages echo the offending value (`invalid type: string "…"`); the text around them is
/// the planner's own.
pub fn cut_quoted(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= 4 * MAX_ECHO {
        return message.into();
    }
    let mut out = String::with_capacity(4 * MAX_ECHO);
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let q = rest.as_bytes()[open] as char;
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        match after.find(q) {
            Some(close) => {
                out.push_str(&cut(&after[..close]));
                out.push(q);
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&cut(after));
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// A number as messages show it (`smd_format::num`, the one owner, which the measurements'
/// messages beneath the core use too).
pub use smd_format::num;
