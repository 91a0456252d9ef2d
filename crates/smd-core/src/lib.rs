//! # smd-core — the SMD planner's solver
//!
//! Plans a GPU/CPU cluster for deep-learning training jobs with **SMD**, the sum-of-ratios
//! multi-dimensional-knapsack decomposition of Yu, Wu, Ji and Liu (arXiv 2105.13855), as
//! specified by the project's `docs/MODEL.md`:
//!
//! 1. [`model`]: each job's completion time `T(w, p)` (workers w, parameter servers p) from the
//!    paper's θ coefficients, with the layer schedule folded in through η ([`eta`]);
//! 2. Algorithm 1: `min_Ω T` to within (1+ε) by an ε-grid of Charnes–Cooper LPs, or by its
//!    exact fast path ([`InnerSolver`]); its search is shown by [`landscape()`];
//! 3. Algorithm 2: randomized rounding to an integer allocation in Ω;
//! 4. admission as a multi-dimensional knapsack (Frieze–Clarke or exact branch and bound);
//! 5. [`policy`]: `smd` and the baselines `esw`, `optimus`, `exact`, each giving a [`Plan`].
//!
//! ```
//! use smd_core::{generate, plan, GenerateOptions, Policy};
//! let mut scenario = generate(&GenerateOptions { jobs: 5, ..Default::default() });
//! scenario.params.epsilon = 0.1;
//! let p = plan(&scenario, Policy::Smd).unwrap();
//! assert_eq!(p.jobs.len(), 5);
//! ```
//!
//! The crate has no browser dependency and no clock of its own: [`plan()`] times itself with
//! `std::time::Instant` natively; in wasm use [`plan_with_clock`] with the page's clock.
//!
//! ## Decisions where docs/MODEL.md was silent or wrong
//! - A worker or PS that demands no resource at all makes Ω unbounded: rejected at
//!   validation; so is a limit allowing more than 10^6 tasks.
//! - Frieze–Clarke at depth q guarantees `q/(q+R)` of the optimum, not `(q+1)/(q+R+1)`
//!   (proved in the admission module, `knapsack.rs`); depth 0 guarantees nothing.
//! - Algorithm 1's ties among the minimisers of ζ_J go to the least T (`inner.rs`).
//! - Rounding streams are keyed by a hash of the job id, so reordering jobs changes nothing.
//! - A plan's `utility` per job is the utility of its allocation; only admitted jobs count
//!   in `total_utility`.
//!
//! ## The public API
//! What the other crates and the page use, and no more:
//! - the scenario: [`scenario`] (its types, defaults and strict reader; the cluster's types
//!   are re-exported there), [`choice`] (every enum a user chooses from — policy,
//!   placement, GPU sharing, rounding, admission method, inner solver, mode, overlap — with
//!   its names, labels and the clusters it applies to), [`error`], [`budget`] (the work
//!   limits validation checks, and the smallest ε a job allows), [`diff`] (two scenarios
//!   compared field by field);
//! - planning: [`policy`] (with [`plan_with`], [`Options`], [`Cache`], …), [`mod@plan`];
//! - the models the placement, the simulation and the charts reuse: [`model`], [`eta`],
//!   [`locality`], [`joint`], [`sharing`], and [`lp`], the LP layer, which the simulation's
//!   `locality` policy solves its LP with;
//! - views: [`mod@landscape`] and [`teach`]'s step-by-step trace of one job;
//! - the generator ([`mod@generate`]) and the seeded streams ([`rng`]); the [`named!`]
//!   macro every crate's named enums are written with.
//!
//! The algorithms (Algorithm 1's grid, LPs and fast path, rounding, the knapsacks and their
//! LP, the joint search, the integer enumeration), the JSON reader and the observer the
//! algorithms report to are private and tested beside their code; the benchmarks reach the
//! few they time through the hidden `internals` module of the `internals` feature.
//!
//! ## Layers
//! A module uses only modules beneath it (`tests/layers.rs` fails on a loop), bottom-up:
//! 1. foundations: `error`, `json`, `rng`, `kp_lp`; then `lp`, `names`;
//! 2. the scenario's vocabulary: `cluster`, then `choice`, then `scenario` and `observe`
//!    (the observer and its events, so that algorithms report without knowing who listens);
//! 3. what a scenario implies, without solving: `diff`, `eta`, `generate`, `locality`,
//!    `omega`, `plan`, `sharing`; then `model` (and the admission `knapsack`, which knows
//!    items, not jobs);
//! 4. the algorithms: `charnes_cooper`, `enumerate`, `grid`, `joint`, `rounding` (and
//!    `orlib`, the benchmarks' reader); then `fast`, `global`; then `inner`;
//! 5. checks and views over the algorithms: `budget`, `landscape`; then `validate`;
//! 6. planning: `policy`; above it `teach`, which plans with a recorder listening.

#![warn(missing_docs)]

pub mod allreduce;
pub mod budget;
mod charnes_cooper;
pub mod choice;
mod cluster;
pub mod diff;
mod enumerate;
pub mod error;
pub mod eta;
mod fast;
pub mod generate;
mod global;
mod grid;
mod inner;
pub mod joint;
mod json;
mod knapsack;
mod kp_lp;
pub mod landscape;
pub mod locality;
pub mod lp;
pub mod model;
mod names;
mod observe;
mod omega;
#[cfg(any(test, feature = "internals"))]
mod orlib;
pub mod plan;
pub mod policy;
pub mod rng;
mod rounding;
pub mod scenario;
pub mod sharing;
pub mod teach;
mod validate;

// The helpers of the unit tests, shared with the integration tests (tests/common), name the
// crate `smd_core` as those do.
#[cfg(test)]
extern crate self as smd_core;
#[cfg(test)]
mod testutil;

/// What the benchmarks time beyond the public API (feature `internals`); not part of the API.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::knapsack::{branch_and_bound_with, Limits};
    pub use crate::orlib::parse as parse_orlib;
}

pub use choice::InnerSolver;
pub use error::{Error, FieldError};
pub use generate::{generate, GenerateOptions};
pub use landscape::{landscape, Landscape};
// Which LP crate `InnerSolver::Reference` runs on (the feature `minilp` swaps it).
pub use knapsack::FC_WORK_LIMIT;
// The admission's LP work on this thread, for tests that bound work without a timer.
pub use kp_lp::work_on_this_thread as lp_work_on_this_thread;
pub use lp::BACKEND as LP_BACKEND;
pub use plan::Plan;
pub use policy::{
    joint_problem, plan_global, plan_on, plan_with, plan_with_clock, Cache, Capacity, JointOption,
    JointProblem, Options, Pin, Policy, Progress, SearchProgress,
};
pub use scenario::{Mode, Scenario};

/// Plans a scenario with one policy, timing it with the platform's clock where there is one.
pub fn plan(scenario: &Scenario, policy: Policy) -> Result<Plan, Error> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let t0 = std::time::Instant::now();
        plan_with_clock(scenario, policy, &move || {
            t0.elapsed().as_secs_f64() * 1000.0
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        plan_with_clock(scenario, policy, &|| 0.0)
    }
}
