//! # smd-sweep — one scenario at many cluster sizes
//!
//! A capacity sweep plans the same jobs on a cluster of each size of a range — cluster
//! units of a pool, the machine count of one group (or of a catalog type), or one resource
//! alone — with every policy, and finds the knee: the smallest size at which the best
//! policy reaches 95% of the utility it has at the largest size, and what each further
//! unit or machine adds beyond it (docs/MODEL.md §19; output: docs/SCENARIO.md "Sweep
//! output").
//!
//! The steps are separate so that a page can run each point in its own Web Worker:
//!
//! 1. [`points`]: the sizes of a [`Spec`] as self-contained, serialisable [`Point`]s;
//! 2. [`scenario_at`]: a point's scenario (the base with its cluster changed);
//! 3. [`evaluate`]: that scenario with every policy of [`Policies`] — static planners
//!    through `smd_place::plan_placed`, policies over time through `smd_sim::simulate` —
//!    into a [`PointResult`];
//! 4. [`Report::new`]: the results with their [`knee`] (and [`knee_over_time`]), whose
//!    [`answer`] is the sentence.
//!
//! [`sweep`] runs them all in turn with progress and cancel callbacks; with the cargo
//! feature `parallel`, `sweep_parallel` runs the points on rayon's threads (the CLI).
//!
//! ```
//! use smd_core::{generate, GenerateOptions};
//! use smd_sweep::{sweep, Axis, Options, Policies, Range, Spec};
//!
//! let base = generate(&GenerateOptions { jobs: 6, ..Default::default() });
//! let spec = Spec {
//!     axis: Axis::Units,
//!     range: Range::parse("0.5:2:0.5").unwrap(),
//!     resource: None,
//!     machine_type: None,
//!     group: None,
//! };
//! let policies = Policies::all(&base.cluster, false);
//! let report = sweep(&base, &spec, &policies, &mut Options::default()).unwrap();
//! assert_eq!(report.points.len(), 4);
//! assert!(!report.knee.answer.is_empty());
//! ```
//!
//! Pure: no clock (the caller passes one to time the plans; results never depend on it),
//! file system or thread of its own outside the `parallel` feature; builds for
//! `wasm32-unknown-unknown`; deterministic for a scenario.

#![warn(missing_docs)]

mod axis;
mod buy;
mod error;
mod evaluate;
mod knee;
mod metric;
mod mix;
mod pairs;
mod point;
mod range;

pub use axis::Axis;
#[cfg(feature = "parallel")]
pub use buy::run_parallel as run_mixes_parallel;
pub use buy::{frontier, parse_budget, Minimize, MixReport, MixSearch, Question, MAX_BUDGET};
pub use error::SweepError;
pub use evaluate::{
    evaluate, Options, Outcome, PointResult, Policies, Progress, Size, TimeOutcome,
};
pub use knee::{answer, knee, knee_over_time, Knee, KNEE_SHARE};
pub use metric::{
    goal_in, metric_answer, parse_goal, seek, Metric, MetricAnswer, MetricPoint, Seek, MAX_GOAL,
};
pub use mix::{
    evaluate_mix, mix_price, mix_types, mix_words, scenario_at_mix, type_prices, MixAxis, MixPoint,
    MixSpec, MixTask, MAX_MIXES,
};
pub use point::{parse_resource, points, scenario_at, Point, Spec, Target, DEFAULT_MACHINE_TYPE};
pub use range::{Range, MAX_POINTS};

use serde::{Deserialize, Serialize};
use smd_core::Scenario;

/// A whole sweep: every point's results and the knees (the output of docs/SCENARIO.md,
/// "Sweep output").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// One per size, ascending.
    pub points: Vec<PointResult>,
    /// The static policies' knee.
    pub knee: Knee,
    /// The knee over time (absent from a static sweep).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_time_knee: Option<Knee>,
}

/// A sweep's report with the answer asked of it — the output contract of SCENARIO.md
/// "Sweep output", written by `smd sweep --json` and the page's Export JSON alike: the
/// report's fields, then the answer's sentence, the metric's answer and the goal's.
#[derive(Clone, Debug, Serialize)]
pub struct Answered<'a> {
    /// The sweep.
    #[serde(flatten)]
    pub report: &'a Report,
    /// The sentence (the metric's answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<&'a str>,
    /// The metric's answer in full.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<&'a MetricAnswer>,
    /// A goal's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<&'a Seek>,
}

impl Report {
    /// The report of `points` (evaluated in any order, on any thread): sorted by size,
    /// with their knees.
    pub fn new(mut points: Vec<PointResult>) -> Report {
        points.sort_by(|a, b| a.size.value().total_cmp(&b.size.value()));
        Report {
            knee: knee(&points),
            over_time_knee: knee_over_time(&points),
            points,
        }
    }
}

/// Every point of `spec` on `base`, one after another, with `opts`' progress and cancel.
pub fn sweep(
    base: &Scenario,
    spec: &Spec,
    policies: &Policies,
    opts: &mut Options,
) -> Result<Report, SweepError> {
    let mut results = Vec::new();
    for p in points(base, spec)? {
        let s = scenario_at(base, &p)?;
        results.push(evaluate(&p, &s, policies, opts)?);
    }
    Ok(Report::new(results))
}

/// How [`sweep_parallel`] runs: [`Options`] without progress, its callbacks shareable
/// across threads.
#[cfg(feature = "parallel")]
#[derive(Default, Clone, Copy)]
pub struct ParallelOptions<'a> {
    /// Milliseconds from any origin, for `solve_ms` and `run_ms`.
    pub clock: Option<&'a (dyn Fn() -> f64 + Sync)>,
    /// Checked before each policy of each point.
    pub cancel: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// How Algorithm 1 solves its grid points.
    pub inner: smd_core::InnerSolver,
    /// `global`'s wall-clock budget per point, ms (see [`Options::global_budget_ms`]).
    pub global_budget_ms: Option<f64>,
}

#[cfg(feature = "parallel")]
impl<'a> ParallelOptions<'a> {
    /// The [`Options`] one thread runs with: these callbacks, no progress.
    pub fn options(&self) -> Options<'a> {
        Options {
            clock: self.clock.map(|c| c as &dyn Fn() -> f64),
            progress: None,
            cancel: self.cancel.map(|c| c as &dyn Fn() -> bool),
            inner: self.inner,
            global_budget_ms: self.global_budget_ms,
        }
    }
}

/// The threads [`sweep_parallel`] runs points on (rayon's pool).
#[cfg(feature = "parallel")]
pub fn threads() -> usize {
    rayon::current_num_threads()
}

/// [`sweep`] with the points on rayon's thread pool: the same report, except the times.
#[cfg(feature = "parallel")]
pub fn sweep_parallel(
    base: &Scenario,
    spec: &Spec,
    policies: &Policies,
    opts: ParallelOptions,
) -> Result<Report, SweepError> {
    use rayon::prelude::*;
    let results = points(base, spec)?
        .par_iter()
        .map(|p| {
            let s = scenario_at(base, p)?;
            evaluate(p, &s, policies, &mut opts.options())
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Report::new(results))
}
