//! The policies over time (docs/MODEL.md §17): each decides, at a slot boundary, every
//! active job's allocation or that it waits (and why).

pub(crate) mod bound;
mod fifo;
mod locality;
mod oasis;
pub(crate) mod pollux;
mod reference;
mod replan;
// Heterogeneity-unaware Pollux in `smd-hetero`'s loop (docs/MODEL.md §24.6): `hetero`
// runs it, not this crate's slot loop.
pub(crate) mod unaware;

use crate::options::SimPolicy;
use crate::world::{Decision, Slot, World};
use smd_core::Error;

/// A policy with its state across slots.
pub(crate) trait Decide {
    /// The allocations of the slot starting at `slot.now`.
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error>;
}

/// The policy's decision maker (`bound` is no schedule: the engine does not call this for it).
pub(crate) fn of(policy: SimPolicy, world: &World) -> Box<dyn Decide> {
    match policy {
        SimPolicy::Fifo => Box::new(fifo::Fifo),
        SimPolicy::Optimus => Box::new(replan::Replan::new(
            smd_core::Policy::Optimus,
            world.s.jobs.len(),
        )),
        SimPolicy::Smd | SimPolicy::Bound => Box::new(replan::Replan::new(
            smd_core::Policy::Smd,
            world.s.jobs.len(),
        )),
        SimPolicy::Oasis => Box::new(oasis::Oasis::new(world)),
        SimPolicy::Locality => Box::new(locality::Locality::new(world)),
        SimPolicy::Tiresias => Box::new(reference::Tiresias::new(world)),
        SimPolicy::OptimusOracle => Box::new(reference::OptimusOracle),
        SimPolicy::Pollux => Box::new(pollux::Pollux::new(world)),
        // The slot loop hands these to `hetero` before it builds a world.
        SimPolicy::Sia | SimPolicy::Gavel | SimPolicy::PolluxUnaware => Box::new(fifo::Fifo),
    }
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
