//! One point: its scenario planned by every static policy (and simulated over time), the
//! numbers a sweep keeps of each.

use crate::axis::Axis;
use crate::point::Point;
use crate::SweepError;
use serde::{Deserialize, Serialize};
use smd_core::scenario::{Resource, Resources};
use smd_core::{InnerSolver, Policy, Scenario};
use smd_sim::SimPolicy;

/// The policies a sweep runs at every point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Policies {
    /// Static planners (`smd_place::plan_placed`; on a pool exactly `smd_core::plan_with`).
    pub planners: Vec<Policy>,
    /// Policies over time (`smd_sim::simulate`); empty: a static sweep only.
    pub over_time: Vec<SimPolicy>,
}

impl Policies {
    /// What `smd compare` and `smd simulate` run for `cluster`: [`Policy::for_cluster`]
    /// and, when `over_time`, every [`SimPolicy`].
    pub fn all(cluster: &smd_core::scenario::Cluster, over_time: bool) -> Policies {
        Policies {
            planners: Policy::for_cluster(cluster).to_vec(),
            over_time: if over_time {
                SimPolicy::ALL.to_vec()
            } else {
                Vec::new()
            },
        }
    }
}

/// A point's size, serialised under its axis' name (`"units": 2.5` or `"machines": 8`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Cluster units.
    Units(f64),
    /// Machines of the group or type swept.
    Machines(f64),
}

impl Size {
    /// The number.
    pub fn value(self) -> f64 {
        match self {
            Size::Units(v) | Size::Machines(v) => v,
        }
    }
    /// The axis.
    pub fn axis(self) -> Axis {
        match self {
            Size::Units(_) => Axis::Units,
            Size::Machines(_) => Axis::Machines,
        }
    }
}

/// A static policy at one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Σ utility of the admitted jobs.
    pub total_utility: f64,
    /// Jobs admitted.
    pub admitted: usize,
    /// Resources the admitted jobs use (the plan's `resources.used`).
    pub used: Resources,
    /// Wall time of the plan, ms, by the caller's clock (0 without one).
    pub solve_ms: f64,
    /// `global` only, when its search ended unproven: (bound − value) / bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
}

/// A policy over time at one point (the run's metrics, docs/SCENARIO.md "Simulation
/// output").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeOutcome {
    /// Σ utility of the finished jobs.
    pub total_utility: f64,
    /// `bound`'s total on the same point.
    pub bound: f64,
    /// Jobs finished.
    pub finished: usize,
    /// Jobs not finished at the horizon.
    pub unfinished: usize,
    /// Mean JCT of the finished jobs, s (`null`: none finished).
    pub mean_jct_s: Option<f64>,
    /// Mean wait before the first start, s (`null`: none started).
    pub mean_queue_s: Option<f64>,
    /// 95th percentile JCT of the finished jobs, s (`null`: none finished).
    #[serde(default)]
    pub p95_jct_s: Option<f64>,
    /// GPUs in use summed slot by slot, × the slot length, in hours (a finished job's GPUs
    /// count to the end of its slot, as the reference holds them).
    #[serde(default)]
    pub gpu_hours: f64,
    /// What renting the cluster costs for the run, US dollars: its hourly price
    /// (`Cluster::hourly_usd`) × the run's length, every slot until the last job finishes
    /// (or the horizon) × Δ. `null`: the cluster has no price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// The cluster's price, US dollars per hour (`Cluster::hourly_usd`; `null`: some
    /// group has no price).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_hour: Option<f64>,
    /// The mean over the jobs that ran of each job's cost: the GPU-hours it ran on each
    /// type × that type's price per GPU-hour (docs/MODEL.md §25.1; `null`: unpriced, or no
    /// job ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_per_job_usd: Option<f64>,
    /// Wall time of the run, ms, by the caller's clock (0 without one).
    pub run_ms: f64,
}

/// Everything a sweep keeps of one point (one element of the output's `points`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    /// The size, under its axis' name.
    #[serde(flatten)]
    pub size: Size,
    /// The one resource varied, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    /// The machine group or catalog type counted (the `machines` axis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// The point's cluster capacity.
    pub capacity: Resources,
    /// Each static policy, by name, in the order run.
    #[serde(with = "crate::pairs")]
    pub policies: Vec<(Policy, Outcome)>,
    /// Each policy over time, by name (absent from a static sweep).
    #[serde(with = "crate::pairs", default, skip_serializing_if = "Vec::is_empty")]
    pub over_time: Vec<(SimPolicy, TimeOutcome)>,
}

/// Where a sweep is: called after each policy of each point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The point's index, from 0.
    pub point: usize,
    /// Points in the sweep.
    pub points: usize,
    /// Policies done at this point (static, then over time).
    pub done: usize,
    /// Policies per point.
    pub policies: usize,
    /// The policy just done.
    pub policy: &'static str,
}

/// How a sweep runs. Like `smd_core::Options` and `smd_sim::Options`: the crate reads no
/// clock of its own, so the same code runs natively, in a Web Worker and in the tests.
#[derive(Default)]
pub struct Options<'a> {
    /// Milliseconds from any origin, for `solve_ms` and `run_ms` (0 without one). It only
    /// times: without a `global_budget_ms`, `global` stops at its node limit either way, so
    /// results do not depend on it.
    pub clock: Option<&'a dyn Fn() -> f64>,
    /// Called after each policy of each point.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// Checked before each policy (and by simulations after every slot): `true` stops the
    /// sweep with [`SweepError::Cancelled`].
    pub cancel: Option<&'a dyn Fn() -> bool>,
    /// How Algorithm 1 solves its grid points.
    pub inner: InnerSolver,
    /// `global`'s wall-clock budget per point, ms (needs `clock`); `None`: its node limit,
    /// which keeps a sweep deterministic.
    pub global_budget_ms: Option<f64>,
}

/// Plans `scenario` — the scenario of `point` ([`crate::scenario_at`]) — with every
/// policy of `policies`: each static planner through `smd_place::plan_placed`, then each
/// policy over time through `smd_sim::simulate`.
pub fn evaluate(
    point: &Point,
    scenario: &Scenario,
    policies: &Policies,
    opts: &mut Options,
) -> Result<PointResult, SweepError> {
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let total = policies.planners.len() + policies.over_time.len();
    let mut done = 0;
    let mut step = |opts: &mut Options, policy: &'static str| {
        done += 1;
        if let Some(f) = opts.progress.as_mut() {
            f(Progress {
                point: point.index,
                points: point.count,
                done,
                policies: total,
                policy,
            });
        }
    };
    let failed = |policy: &str, error: smd_core::Error| SweepError::Planner {
        at: point.label(),
        policy: policy.to_owned(),
        error,
    };
    let mut planned = Vec::with_capacity(policies.planners.len());
    for &policy in &policies.planners {
        if opts.cancel.is_some_and(|c| c()) {
            return Err(SweepError::Cancelled);
        }
        let mut plan_opts = smd_core::Options {
            clock: opts.clock,
            inner: opts.inner,
            time_budget_ms: opts.global_budget_ms,
            ..smd_core::Options::default()
        };
        let t0 = clock();
        let plan = smd_place::plan_placed(scenario, policy, &mut plan_opts)
            .map_err(|e| failed(policy.name(), e))?;
        let solve_ms = clock() - t0;
        planned.push((
            policy,
            Outcome {
                total_utility: plan.total_utility,
                admitted: plan.admitted,
                used: plan.resources.used,
                solve_ms,
                gap: plan.admission.gap.filter(|_| policy == Policy::Global),
            },
        ));
        step(opts, policy.name());
    }
    let mut over_time = Vec::with_capacity(policies.over_time.len());
    for &policy in &policies.over_time {
        if opts.cancel.is_some_and(|c| c()) {
            return Err(SweepError::Cancelled);
        }
        // The reference's policies schedule measured jobs only: skipped elsewhere.
        if !policy.applies_to(scenario) {
            step(opts, policy.name());
            continue;
        }
        over_time.push((
            policy,
            time_outcome(scenario, policy, opts, &point.label())?,
        ));
        step(opts, policy.name());
    }
    Ok(PointResult {
        size: match point.axis {
            Axis::Units => Size::Units(point.size),
            Axis::Machines => Size::Machines(point.size),
        },
        resource: point.resource,
        machine: point.machine().map(str::to_owned),
        capacity: scenario.cluster.capacity(),
        policies: planned,
        over_time,
    })
}

/// `scenario` simulated with `policy` into a [`TimeOutcome`], timed by `opts`' clock and
/// stopped by its cancel; a failure names the point (`at`) and the policy.
pub(crate) fn time_outcome(
    scenario: &Scenario,
    policy: SimPolicy,
    opts: &Options,
    at: &str,
) -> Result<TimeOutcome, SweepError> {
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let mut sim_opts = smd_sim::Options {
        cancel: opts.cancel,
        ..Default::default()
    };
    let t0 = clock();
    let run = match smd_sim::simulate(scenario, policy, &mut sim_opts) {
        Ok(run) => run,
        Err(smd_sim::SimError::Cancelled) => return Err(SweepError::Cancelled),
        Err(smd_sim::SimError::Invalid(error)) => {
            return Err(SweepError::Planner {
                at: at.to_owned(),
                policy: policy.name().to_owned(),
                error,
            })
        }
    };
    let run_ms = clock() - t0;
    let m = &run.metrics;
    Ok(TimeOutcome {
        total_utility: m.total_utility,
        bound: m.bound,
        finished: run.jobs.len() - m.unfinished,
        unfinished: m.unfinished,
        mean_jct_s: m.mean_jct_s,
        mean_queue_s: m.mean_queue_s,
        p95_jct_s: m.p95_jct_s,
        gpu_hours: smd_sim::gpu_hours(scenario, &run),
        cost_usd: run.cost.as_ref().map(|c| c.run_usd),
        usd_per_hour: run.cost.as_ref().map(|c| c.usd_per_hour),
        cost_per_job_usd: run.cost.as_ref().and_then(|c| c.mean_job_usd),
        run_ms,
    })
}
