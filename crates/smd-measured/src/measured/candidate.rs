//! A model's candidate batches on one allocation ([`Candidate`], [`Candidates`]): what the
//! learner ([`super::goodput`]) chooses among and the memo ([`super::memo`]) remembers.

use super::BatchConfig;
use std::sync::Arc;

/// A model's candidate batches on one allocation, shared between the memo, the learner
/// and a scheduler's table (made once, read many times).
pub type Candidates = Arc<[Candidate]>;

/// One candidate total batch on an allocation, with the model's time per iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// How it runs (atomic batch after §2.4's clamp).
    pub config: BatchConfig,
    /// The effective total batch before the clamp, R · atomic · (accum + 1).
    pub batch: f64,
    /// The model's seconds per iteration; infinite where the atomic batch is outside the
    /// measured local range (§3.4's goodput 0).
    pub iteration_s: f64,
}
