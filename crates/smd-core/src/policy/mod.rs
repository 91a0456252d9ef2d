//! docs/MODEL.md §9: the policies `smd`, `esw`, `optimus`, `exact` and `global`, each turning a
//! validated scenario into a [`Plan`] through one pipeline: every job's model, its candidate
//! allocation (per policy: `smd.rs`, ESW's k, `exact`'s enumeration, `optimus.rs`), admission
//! (a knapsack, or the joint search of the private `global` module), then `assemble.rs` into the plan.

mod assemble;
mod cache;
mod global;
mod optimus;
mod pinned;
mod smd;

pub use assemble::esw_k;
use assemble::{admission_report, assemble, not_selected_reason, Candidate};
pub use cache::Cache;
pub use global::{joint_problem, plan_global, JointOption, JointProblem};
use optimus::optimus;
pub use pinned::{plan_on, Capacity, Pin};
use smd::{smd_cached, smd_locality};

use crate::choice::InnerSolver;
pub use crate::choice::Policy;
use crate::enumerate::integer_optimum;
use crate::error::Error;
use crate::knapsack::{self, Item, R};
use crate::model::JobModel;
use crate::observe::{AdmissionItem, Event, Observer, Quiet};
use crate::plan::{AdmissionReport, Plan, Stats};
use crate::scenario::{Outer, Scenario};

/// A clock in milliseconds; the crate has none of its own so it runs anywhere (wasm too).
pub type Clock<'a> = &'a dyn Fn() -> f64;

/// Progress of a plan: called after each job's allocation, and for `global` when its search
/// starts and every ~100 ms of it (when there is a clock).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The policy being planned.
    pub policy: Policy,
    /// Jobs whose allocation is done.
    pub jobs_done: usize,
    /// Jobs in the scenario.
    pub jobs_total: usize,
    /// `global`'s search, once all jobs' options are known.
    pub search: Option<SearchProgress>,
}

/// Where `global`'s search is: its best plan so far and an upper bound on the optimum
/// (serialisable, so a Web Worker can post it as it is).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchProgress {
    /// Branch-and-bound nodes expanded.
    pub nodes: u64,
    /// Total utility of the best plan found.
    pub best: f64,
    /// No plan has more total utility than this.
    pub bound: f64,
}

impl SearchProgress {
    /// The relative gap `(bound − best) / bound` (0 when the bound is 0).
    pub fn gap(&self) -> f64 {
        if self.bound > 0.0 {
            ((self.bound - self.best) / self.bound).max(0.0)
        } else {
            0.0
        }
    }
}

/// How [`plan_with`] runs: its clock and a progress callback, both optional.
#[derive(Default)]
pub struct Options<'a> {
    /// Milliseconds from any origin; without one every time in the plan is 0.
    pub clock: Option<Clock<'a>>,
    /// Called after each job's allocation (e.g. to post progress from a Web Worker).
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// How Algorithm 1 solves its grid points (default: the exact fast path).
    pub inner: InnerSolver,
    /// Reuse SMD allocations of unchanged jobs from earlier plans.
    pub cache: Option<&'a mut Cache>,
    /// Wall-clock budget of a plan in ms (needs `clock`; docs/MODEL.md §13): `global`'s
    /// whole solve, and the admission of the other policies (Frieze–Clarke's subsets, the
    /// exact branch and bound). When it ends, the best plan so far is returned with its
    /// status (`admission.gap`, and for `global` its bound). smd's and smd_locality's
    /// Algorithm 1 take at most 70 % of it; the jobs left then take the equal split (the
    /// admission method says how many).
    pub time_budget_ms: Option<f64>,
    /// Frieze–Clarke's LP work cap (items summed over its LPs; default
    /// [`crate::FC_WORK_LIMIT`]): a deterministic bound for callers without a clock,
    /// e.g. the simulation's per-slot replan.
    pub admission_work: Option<u64>,
    /// Frieze–Clarke stops once its best admission is within this much utility of the LP
    /// relaxation's (an upper bound on the optimum; default `None`: it enumerates to the
    /// end), e.g. the simulation's per-slot replan, where jobs that waited past their
    /// deadlines all have utilities of ~10⁻⁹ and a full enumeration would optimise dust.
    pub admission_slack: Option<f64>,
}

/// Plans `scenario` with `policy`, timing with `clock`.
pub fn plan_with_clock(scenario: &Scenario, policy: Policy, clock: Clock) -> Result<Plan, Error> {
    plan_with(
        scenario,
        policy,
        &mut Options {
            clock: Some(clock),
            ..Options::default()
        },
    )
}

/// Plans `scenario` with `policy`; invalid scenarios give [`Error::Invalid`].
pub fn plan_with(scenario: &Scenario, policy: Policy, opts: &mut Options) -> Result<Plan, Error> {
    plan_observed(scenario, policy, opts, &mut Quiet)
}

/// [`plan_with`], telling `obs` which job's allocation runs and when the admission starts,
/// and passing it down to Algorithms 1 and 2 and the knapsack (docs/MODEL.md §20). The plan
/// is the same whatever the observer; with [`Quiet`] every report compiles away.
pub(crate) fn plan_observed<O: Observer>(
    scenario: &Scenario,
    policy: Policy,
    opts: &mut Options,
    obs: &mut O,
) -> Result<Plan, Error> {
    plan_until(scenario, policy, opts, obs, false)?
        .ok_or_else(|| Error::Solver("a plan gave up without being asked to".into()))
}

/// [`plan_observed`]; with `give_up`, `None` once the time budget ends before every job's
/// allocation is known (`global`'s seed plans: a seed that cannot finish in time is not
/// worth waiting for).
pub(crate) fn plan_until<O: Observer>(
    scenario: &Scenario,
    policy: Policy,
    opts: &mut Options,
    obs: &mut O,
    give_up: bool,
) -> Result<Option<Plan>, Error> {
    scenario.t4_only(policy.name())?;
    if policy == Policy::Global {
        // A time budget replaces the node limit; the limit keeps clockless runs finite.
        let timed = opts.clock.is_some() && opts.time_budget_ms.is_some();
        let nodes = if timed { u64::MAX } else { GLOBAL_NODE_LIMIT };
        return plan_global(scenario, opts, nodes).map(Some);
    }
    // Validation builds every job's model (its model rules need them): planned with those.
    let models = scenario.validated_models()?;
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let start = clock();
    let cap = scenario.cluster.capacity().to_array();
    let mut stats = Stats::default();
    let colocated = if policy == Policy::SmdLocality {
        crate::joint::colocated_models(scenario, &models)
    } else {
        Vec::new()
    };

    let (cands, chosen, admission) = if policy == Policy::Optimus {
        let t0 = clock();
        let (cands, chosen) = optimus(&models, &cap);
        stats.inner_ms = clock() - t0;
        report_progress(opts, policy, scenario.jobs.len(), models.len());
        let report = AdmissionReport {
            method: "greedy".into(),
            depth: None,
            guarantee: 0.0,
            proven_optimal: false,
            gap: None,
        };
        (cands, chosen, report)
    } else {
        let t0 = clock();
        let jobs = Jobs {
            scenario,
            policy,
            models: &models,
            colocated: &colocated,
            cap: &cap,
        };
        let Some((cands, quick)) = allocate(&jobs, opts, start, give_up, &mut stats, obs)? else {
            return Ok(None);
        };
        stats.inner_ms = clock() - t0 - stats.rounding_ms;
        let (chosen, mut report) = admit(&jobs, &cands, opts, start, &mut stats, obs)?;
        if quick > 0 {
            // The plan says what its budget cost it rather than overrun it.
            report.method = format!(
                "{} (budget spent after {} of {} jobs' allocations: the other {quick} at the \
                 equal split)",
                report.method,
                cands.len() - quick,
                cands.len()
            );
        }
        (cands, chosen, report)
    };

    stats.solve_ms = clock() - start;
    Ok(Some(assemble(
        scenario,
        &models,
        policy,
        &cands,
        &chosen,
        admission,
        stats,
        &|c, d| not_selected_reason(policy, c, d, &cap),
    )))
}

/// What [`allocate`] and [`admit`] plan: the scenario's jobs under one policy, their models
/// (and, for `smd_locality`, their co-located models) and the cluster's capacity.
struct Jobs<'a> {
    scenario: &'a Scenario,
    policy: Policy,
    models: &'a [JobModel],
    colocated: &'a [Vec<JobModel>],
    cap: &'a [f64; R],
}

/// Posts "`done` of `total` jobs allocated" to the progress callback, if any.
fn report_progress(opts: &mut Options, policy: Policy, total: usize, done: usize) {
    if let Some(f) = opts.progress.as_mut() {
        f(Progress {
            policy,
            jobs_done: done,
            jobs_total: total,
            search: None,
        });
    }
}

/// The share of a plan's time budget Algorithm 1's allocations may take (MODEL.md §13):
/// the admission, the plan's lines and the placement after it get the rest.
const ALLOCATION_SHARE: f64 = 0.7;

/// Every job's candidate (`None`: infeasible) and how many took the equal split.
type Allocated = (Vec<Option<Candidate>>, usize);

/// Every job's candidate allocation in scenario order (`None`: infeasible) under any policy
/// but `optimus` (which allocates and admits at once) and `global`, and how many jobs took
/// the equal split because the time budget's allocation share ended first (smd and
/// smd_locality, whose Algorithm 1 costs up to milliseconds a job). `Ok(None)` when
/// `give_up` and the time budget ends first.
fn allocate<O: Observer>(
    jobs: &Jobs,
    opts: &mut Options,
    start: f64,
    give_up: bool,
    stats: &mut Stats,
    obs: &mut O,
) -> Result<Option<Allocated>, Error> {
    let (scenario, policy, cap) = (jobs.scenario, jobs.policy, jobs.cap);
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let total = scenario.jobs.len();
    let mut cands: Vec<Option<Candidate>> = Vec::with_capacity(jobs.models.len());
    let over = |c: Clock, ms: f64| c() - start > ms;
    let budget = opts.clock.zip(opts.time_budget_ms).filter(|_| give_up);
    let share = opts
        .clock
        .zip(opts.time_budget_ms)
        .filter(|_| !give_up && matches!(policy, Policy::Smd | Policy::SmdLocality));
    let mut quick = 0;
    for (job, m) in scenario.jobs.iter().zip(jobs.models) {
        if budget.is_some_and(|(c, ms)| over(c, ms)) {
            return Ok(None);
        }
        if m.feasible()
            && !m.is_measured()
            && (quick > 0 || share.is_some_and(|(c, ms)| over(c, ALLOCATION_SHARE * ms)))
        {
            // Past its share of the budget: the equal split, O(1) a job.
            cands.push(Some(equal_split(m)));
            quick += 1;
            report_progress(opts, policy, total, cands.len());
            continue;
        }
        obs.job(cands.len());
        if !m.feasible() {
            if O::LISTENS && obs.on() {
                obs.event(Event::Infeasible);
            }
            cands.push(None);
            report_progress(opts, policy, total, cands.len());
            continue;
        }
        let c = match policy {
            // A measured job's region is one-dimensional: each policy's choice is an
            // enumeration of w (MODEL.md §21).
            _ if m.is_measured() => measured_candidate(policy, m),
            Policy::Smd => {
                let cache = opts.cache.as_deref_mut();
                let c = smd_cached(job, m, scenario, opts.inner, cache, clock, stats, obs)?;
                if O::LISTENS && obs.on() {
                    obs.event(Event::Allocated {
                        w: c.w,
                        p: c.p,
                        t: c.t,
                        pi: m.pi(c.t),
                        utility: c.utility,
                    });
                }
                c
            }
            Policy::SmdLocality => {
                let cache = opts.cache.as_deref_mut();
                let spread = smd_cached(
                    job, m, scenario, opts.inner, cache, clock, stats, &mut Quiet,
                )?;
                let cols = &jobs.colocated[cands.len()];
                smd_locality(
                    job, m, cols, spread, scenario, opts.inner, clock, cap, stats,
                )?
            }
            Policy::Esw => equal_split(m),
            Policy::Exact => {
                let (w, ps, _) = integer_optimum(m).ok_or_else(|| {
                    Error::Solver(format!("job {:?}: no integer point in Ω", job.id))
                })?;
                Candidate::at(m, w, ps, None, None)
            }
            Policy::Optimus | Policy::Global => unreachable!("planned by plan_until"),
        };
        cands.push(Some(c));
        report_progress(opts, policy, total, cands.len());
    }
    Ok(Some((cands, quick)))
}

/// esw's candidate: the largest (k, k) in Ω.
fn equal_split(m: &JobModel) -> Candidate {
    let k = esw_k(m);
    Candidate::at(m, k, k, None, None)
}

/// A measured job's candidate (MODEL.md §21): `esw` takes its cap (as many GPUs as it may
/// use); `smd`, `smd_locality` and `exact` its least-T w (Algorithm 1 over w = 1…cap, p = 0,
/// is an enumeration, so SMD's allocation is `exact`'s; they differ in admission).
fn measured_candidate(policy: Policy, m: &JobModel) -> Candidate {
    let c = m.measured.as_ref().expect("a measured job");
    let w = match policy {
        Policy::Esw => (1..=u64::from(c.cap))
            .rev()
            .find(|&w| c.t(w as f64).is_finite())
            .unwrap_or(1),
        _ => integer_optimum(m).map_or(1, |(w, _, _)| w),
    };
    Candidate::at(m, w, 0, None, None)
}

/// The admission of the candidates `cands` (docs/MODEL.md §8): the exact branch and bound
/// for `exact` or `params.outer = exact`, else Frieze–Clarke at `ptas_depth`, within the
/// plan's time budget (from `start`) and work cap. Gives the chosen jobs and the report.
fn admit<O: Observer>(
    jobs: &Jobs,
    cands: &[Option<Candidate>],
    opts: &Options,
    start: f64,
    stats: &mut Stats,
    obs: &mut O,
) -> Result<(Vec<bool>, AdmissionReport), Error> {
    let (p, cap) = (&jobs.scenario.params, jobs.cap);
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let items: Vec<Item> = cands
        .iter()
        .zip(jobs.models)
        .map(|(c, m)| match c {
            Some(c) => Item {
                value: c.utility,
                demand: m.demand(c.w as f64, c.p as f64),
            },
            None => Item {
                value: 0.0,
                demand: [f64::INFINITY; R],
            },
        })
        .collect();
    let t0 = clock();
    let exact = jobs.policy == Policy::Exact || p.outer == Outer::Exact;
    obs.admission();
    if O::LISTENS && obs.on() {
        obs.event(candidates(
            &items,
            cap,
            if exact { None } else { Some(p.ptas_depth) },
        ));
    }
    // The budget runs from the plan's start; what Algorithm 1 used is spent.
    let deadline = opts
        .clock
        .zip(opts.time_budget_ms)
        .map(|(c, ms)| (c, start + ms));
    let sel = if exact {
        let limits = knapsack::Limits {
            nodes: knapsack::NODE_LIMIT,
            time_ms: deadline.map(|(c, at)| (at - c()).max(0.0)),
            clock: opts.clock,
        };
        knapsack::branch_and_bound_observed(&items, cap, &limits, obs)?
    } else {
        let budget = knapsack::Budget {
            work: opts.admission_work.unwrap_or(knapsack::FC_WORK_LIMIT),
            deadline,
            slack: opts.admission_slack,
        };
        knapsack::frieze_clarke_observed(&items, cap, p.ptas_depth, &budget, obs)?
    };
    if O::LISTENS && obs.on() {
        obs.event(Event::Admitted {
            chosen: (0..sel.chosen.len()).filter(|&i| sel.chosen[i]).collect(),
            value: sel.value,
            guarantee: sel.guarantee,
            proven_optimal: sel.proven_optimal,
            gap: sel.gap,
            nodes: sel.nodes,
            omitted: 0,
        });
    }
    stats.outer_ms = clock() - t0;
    stats.outer_lp_solves = sel.lp_solves;
    stats.outer_nodes = sel.nodes;
    stats.lp_solves += sel.lp_solves;
    let report = admission_report(&sel, if exact { None } else { Some(p.ptas_depth) });
    Ok((sel.chosen, report))
}

/// The admission's first step: the candidates among `items` (one per job) and `cap`.
pub(crate) fn candidates(items: &[Item], cap: &[f64; R], depth: Option<u32>) -> Event {
    let fits = |d: &[f64; R]| crate::knapsack::fits_all(d, cap);
    let items: Vec<AdmissionItem> = items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.value > 0.0 && fits(&it.demand))
        .map(|(job, it)| AdmissionItem {
            job,
            value: it.value,
            demand: it.demand,
        })
        .collect();
    let values: Vec<f64> = items.iter().map(|i| i.value).collect();
    let demands: Vec<[f64; R]> = items.iter().map(|i| i.demand).collect();
    let bound = if items.is_empty() {
        0.0
    } else {
        crate::kp_lp::solve(&values, &demands, cap).value
    };
    Event::Candidates {
        items,
        capacity: *cap,
        depth,
        bound,
    }
}

/// Node limit of the `global` policy's search when it has no clock and time budget
/// (with both, the time budget alone ends it); the limit makes clockless runs finite and
/// deterministic.
pub const GLOBAL_NODE_LIMIT: u64 = 10_000_000;

#[cfg(test)]
mod tests;
