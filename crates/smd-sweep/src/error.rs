//! Why a sweep returned no result: always a value, never a panic.

use crate::axis::Axis;

/// What went wrong, naming what the caller gave.
#[derive(Debug, PartialEq)]
pub enum SweepError {
    /// The range of sizes is unusable (its axis, the range as given, what is wrong).
    Range {
        /// The axis the range is for.
        axis: Axis,
        /// The range, `start:stop:step`.
        range: String,
        /// What is wrong with it.
        message: String,
    },
    /// The sweep does not fit the scenario (e.g. `units` on a cluster of machines, an
    /// unknown machine group or type).
    Spec {
        /// The [`crate::Spec`] field at fault (`axis`, `range`, `resource`, `group`,
        /// `machine_type`), or `point` for a point made for another scenario, so that a
        /// caller can name its own flag or input.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A point's plan or simulation failed: at which size, with which policy.
    Planner {
        /// The point's size, as its axis reads it (`units 2.5`, `machines 8`).
        at: String,
        /// The policy.
        policy: String,
        /// The planner's error (invalid scenario or a solver failure).
        error: smd_core::Error,
    },
    /// The cancel callback said stop.
    Cancelled,
}

impl std::fmt::Display for SweepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SweepError::Range {
                axis,
                range,
                message,
            } => write!(f, "{axis} {range}: {message}"),
            SweepError::Spec { message, .. } => f.write_str(message),
            SweepError::Planner { at, policy, error } => {
                write!(f, "at {at}, policy {policy}: {error}")
            }
            SweepError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for SweepError {}
