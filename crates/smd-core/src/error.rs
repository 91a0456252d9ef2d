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
            Some(id) => write!(f, "job {:?}: {} {}", id, self.field, self.message),
            None => write!(f, "{} {}", self.field, self.message),
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
            Error::Parse(m) => write!(f, "invalid scenario: {m}"),
            Error::Invalid(errs) => {
                for (i, e) in errs.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            Error::Solver(m) => write!(f, "solver failure: {m}"),
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
