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

// Bottom-up: hetero_input (what the heterogeneity-aware policies can run), options and
// output (what a run is asked and answers), cost (what a run costs), world (the scenario as
// the loop reads it, a slot, a decision), sharing (the GPU packing over time), settle (a
// decision placed and packed), policy (the deciders), hetero (the heterogeneity-aware
// policies' runs), engine (the slot loop).
mod cost;
mod engine;
mod hetero;
mod hetero_input;
mod options;
mod output;
mod policy;
mod settle;
mod sharing;
mod world;

pub use cost::{gpu_hours, job_costs, run_cost, run_end_s};
pub use hetero_input::{GAVEL_ROUND_S, TICK_S as HETERO_TICK_S};
pub use options::{Options, Progress, SimError, SimPolicy};
pub use output::{
    DecisionStats, JobRun, Metrics, Refusals, Run, RunCost, Segment, SharingMetrics, SlotUse,
    Spread, NOT_ADMITTED,
};
pub use policy::pollux::{Search, SearchStats};

use smd_core::Scenario;

/// Simulates `scenario` over time with `policy`. Every run carries `metrics.bound`, the
/// total utility of [`SimPolicy::Bound`], so each policy shows its share of it.
pub fn simulate(
    scenario: &Scenario,
    policy: SimPolicy,
    opts: &mut Options,
) -> Result<Run, SimError> {
    scenario.validate()?;
    let mut run = engine::run(scenario, policy, opts)?;
    run.cost = cost::run_cost(scenario, &run).ok();
    Ok(run)
}

/// Simulates `scenario` with [`SimPolicy::Pollux`] deciding by `search` (MODEL.md §23),
/// and how its search did: with `compare`, the other search also runs on every tick's
/// problem (its answer unused) so the two are compared on identical inputs.
pub fn simulate_pollux(
    scenario: &Scenario,
    search: Search,
    compare: bool,
    opts: &mut Options,
) -> Result<(Run, SearchStats), SimError> {
    scenario.validate()?;
    let stats = std::rc::Rc::new(std::cell::RefCell::new(SearchStats::default()));
    let run = engine::run_with(scenario, SimPolicy::Pollux, opts, &|world| {
        Box::new(policy::pollux::Pollux::with(
            world,
            search,
            Some(stats.clone()),
            compare,
        ))
    })?;
    let stats = stats.borrow().clone();
    let mut run = run;
    run.cost = cost::run_cost(scenario, &run).ok();
    Ok((run, stats))
}
