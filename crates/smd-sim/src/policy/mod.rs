//! The policies over time (docs/MODEL.md §17): each decides, at a slot boundary, every
//! active job's allocation or that it waits (and why).

pub(crate) mod bound;
mod fifo;
mod locality;
mod oasis;
mod replan;

use crate::engine::{Slot, World};
use crate::SimPolicy;
pub(crate) use fifo::requested;
use smd_core::Error;

/// A policy's answer for one slot, indexed by job (inactive jobs: `None`).
pub(crate) struct Decision {
    /// Workers and PSs of each job that runs.
    pub alloc: Vec<Option<(u64, u64)>>,
    /// Why a job waits (for the page's "why is job X waiting").
    pub why: Vec<Option<String>>,
}

impl Decision {
    /// Every job waiting, no reason yet.
    pub fn none(n: usize) -> Decision {
        Decision {
            alloc: vec![None; n],
            why: vec![None; n],
        }
    }
}

/// A policy with its state across slots.
pub(crate) trait Decide {
    /// The allocations of the slot starting at `slot.now`.
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error>;
}

/// The policy's decision maker (`bound` is no schedule: the engine does not call this for it).
pub(crate) fn of(policy: SimPolicy, world: &World) -> Box<dyn Decide> {
    match policy {
        SimPolicy::Fifo => Box::new(fifo::Fifo),
        SimPolicy::Optimus => Box::new(replan::Replan::new(smd_core::Policy::Optimus)),
        SimPolicy::Smd | SimPolicy::Bound => Box::new(replan::Replan::new(smd_core::Policy::Smd)),
        SimPolicy::Oasis => Box::new(oasis::Oasis::new(world)),
        SimPolicy::Locality => Box::new(locality::Locality::new(world)),
    }
}

/// Σ demand fits the capacity (the crate's one tolerance).
pub(crate) fn fits(used: &[f64; 4], cap: &[f64; 4]) -> bool {
    (0..4).all(|r| used[r] <= cap[r] + 1e-9 * cap[r].abs().max(1.0))
}

/// The error of a run in which `policy`, which decides for every active job each slot at a
/// cost that grows with their number, meets more than `limit` of them at once
/// (docs/MODEL.md §17, *Limits*): a documented size limit instead of hours of work.
pub(crate) fn too_many(policy: &str, slot: &Slot, limit: usize, instead: &str) -> Error {
    Error::Invalid(vec![smd_core::FieldError {
        job: None,
        field: "jobs".into(),
        message: format!(
            "are too many to replan: {} wait or run at t = {} s, and {policy} over time \
             replans at most {limit} at once (each slot replans all of them); simulate \
             fewer jobs, or use {instead}",
            slot.active.len(),
            smd_core::error::num(slot.now),
        ),
    }])
}
