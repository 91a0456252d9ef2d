// Resource loops index parallel [f64; 4] arrays (demand, capacity, reservations).
#![allow(clippy::needless_range_loop)]

//! # smd-sim — planning over time
//!
//! Jobs arrive (`arrival_s`), wait, run, are resized and finish, slot by slot (CLUSTER.md
//! §4, docs/MODEL.md §17): at each slot boundary a policy decides every arrived,
//! unfinished job's allocation (or that it waits); on machines the placement stage of
//! `smd-place` puts the new or changed jobs on what the unchanged ones leave; each running
//! job then makes `(Δ − restart)·E / T(w, p, ρ)` iterations of progress, the restart paid in
//! the slot where it starts or changes. Utility is μ(π(JCT)).
//!
//! Policies ([`SimPolicy`]): `fifo`, `optimus`, `smd`, `oasis`, `locality` and `bound` (an upper bound
//! on every policy's total utility). `smd` and `optimus` re-plan each slot through the
//! static planner of `smd-core` on the active jobs' remaining work; none copies it.
//!
//! ```
//! use smd_core::{generate, GenerateOptions};
//! use smd_sim::{simulate, Options, SimPolicy};
//!
//! let mut s = generate(&GenerateOptions { jobs: 4, ..Default::default() });
//! s.version = 2;
//! for (i, j) in s.jobs.iter_mut().enumerate() {
//!     j.arrival_s = Some(300.0 * i as f64);
//! }
//! let run = simulate(&s, SimPolicy::Fifo, &mut Options::default()).unwrap();
//! assert_eq!(run.jobs.len(), 4);
//! assert!(run.metrics.total_utility <= run.metrics.bound);
//! ```
//!
//! Pure: no clock, file system or thread (progress and cancel are callbacks); builds for
//! `wasm32-unknown-unknown`; deterministic for a scenario (its `params.seed`).

#![warn(missing_docs)]

mod engine;
mod output;
mod policy;
mod settle;
mod sharing;

pub use output::{JobRun, Metrics, Run, Segment, SharingMetrics, SlotUse};

use smd_core::{Error, Scenario};

/// A policy over time (CLUSTER.md §4, docs/MODEL.md §17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimPolicy {
    /// Arrival order at each job's requested allocation, no backfilling.
    Fifo,
    /// Each slot: (1, 1) in arrival order, then Optimus' greedy on remaining time.
    Optimus,
    /// Each slot: the SMD pipeline on the active jobs' remaining work.
    Smd,
    /// At arrival: the job's whole schedule against rising resource prices (OASiS).
    Oasis,
    /// Each slot: a packing–covering LP over co-located or spread configurations,
    /// randomized rounding, repair (seed 004).
    Locality,
    /// An upper bound: every job alone on the empty cluster from its arrival.
    Bound,
}

smd_core::named!(SimPolicy, "simulation policy" {
    Fifo => "fifo",
    Optimus => "optimus",
    Smd => "smd",
    Oasis => "oasis",
    Locality => "locality",
    Bound => "bound",
});

/// Where a run is: reported after every slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The policy running.
    pub policy: SimPolicy,
    /// Slots simulated.
    pub slots: usize,
    /// Simulated time reached, s.
    pub time_s: f64,
    /// Jobs finished.
    pub finished: usize,
    /// Jobs in the scenario.
    pub jobs: usize,
}

/// How to run a simulation.
#[derive(Default)]
pub struct Options<'a> {
    /// Called after every slot.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// Checked after every slot: `true` stops the run with [`SimError::Cancelled`].
    pub cancel: Option<&'a dyn Fn() -> bool>,
    /// With GPU sharing: record every slot's shared GPUs in [`SlotUse::gpus`] (for checks;
    /// large).
    pub gpus: bool,
}

/// Why a simulation returned no run.
#[derive(Debug, PartialEq)]
pub enum SimError {
    /// The scenario is invalid, or a planner failed.
    Invalid(Error),
    /// The cancel callback said stop.
    Cancelled,
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Invalid(e) => e.fmt(f),
            SimError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<Error> for SimError {
    fn from(e: Error) -> SimError {
        SimError::Invalid(e)
    }
}

/// Simulates `scenario` over time with `policy`. Every run carries `metrics.bound`, the
/// total utility of [`SimPolicy::Bound`], so each policy shows its share of it.
pub fn simulate(
    scenario: &Scenario,
    policy: SimPolicy,
    opts: &mut Options,
) -> Result<Run, SimError> {
    scenario.validate()?;
    engine::run(scenario, policy, opts)
}
