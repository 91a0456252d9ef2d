//! Teaching traces (docs/MODEL.md §20): what SMD did for one job and one plan, step by step —
//! (a) the bounds `l_j`, `φ_j` of every summand and the free summand `J`, (b) the ε-grid:
//! the grid points solved and the blocks the fast path pruned, (c) Algorithm 2's scaled
//! point `x̃` and its draws, (d) the admission of the whole plan (Frieze–Clarke's subsets or
//! the branch-and-bound nodes).
//!
//! The trace is recorded by the normal planner, not by a copy of it: `plan_with` and the
//! algorithms under it take an `Observer` (crate-internal, in `observe.rs`, a leaf the
//! algorithms import, with the events re-exported here), which every normal plan passes as
//! `Quiet` — whose constant `LISTENS` is false, so that no report is even compiled into a
//! normal plan (docs/MODEL.md §20, "Cost", for what that costs). [`trace`] passes a
//! recorder instead and returns its steps with the plan, which therefore is exactly
//! `plan_with(scenario, Policy::Smd, …)`'s (tested).
//!
//! The core records data, never text: the sentences a page or the CLI shows for each step
//! are written by `smd_charts::teach`, in one place.
//!
//! ```
//! use smd_core::teach::{trace, Stage, TraceOptions};
//! let mut s = smd_core::generate(&smd_core::GenerateOptions { jobs: 3, ..Default::default() });
//! s.params.epsilon = 0.2;
//! let t = trace(&s, 0, &TraceOptions::default()).unwrap();
//! assert_eq!(t.steps.first().map(|e| e.stage()), Some(Stage::Bounds));
//! assert_eq!(t.steps.last().map(|e| e.stage()), Some(Stage::Admission));
//! assert_eq!(t.plan, smd_core::plan_with(&s, smd_core::Policy::Smd, &mut Default::default()).unwrap());
//! ```

use crate::choice::InnerSolver;
use crate::error::Error;
use crate::model::JobModel;
use crate::observe::Observer;
pub use crate::observe::{AdmissionItem, Event, NodeOutcome, Stage, SubsetOutcome};
use crate::plan::Plan;
use crate::policy::{plan_observed, Options, Policy};
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// How much a trace keeps. Steps over a cap are counted (the summary steps say how many)
/// instead of recorded, so that a page stays responsive on a large grid or knapsack.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceOptions {
    /// How Algorithm 1 searches its grid (the fast path by default; the reference solves
    /// every grid point).
    pub inner: InnerSolver,
    /// Most grid steps (points and pruned blocks) recorded; past it, only points that
    /// become the best are, up to as many again.
    pub max_grid_steps: usize,
    /// Most rounding draws recorded (the accepted draw always is).
    pub max_draws: usize,
    /// Most admission steps (subsets or nodes) recorded; past it, only those that improve
    /// the best selection are, up to as many again.
    pub max_admission_steps: usize,
}

impl Default for TraceOptions {
    fn default() -> TraceOptions {
        TraceOptions {
            inner: InnerSolver::Fast,
            max_grid_steps: 2000,
            max_draws: 50,
            max_admission_steps: 1000,
        }
    }
}

/// What SMD did for one job of a plan, and the plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The traced job's id.
    pub job: String,
    /// Its index in the scenario.
    pub index: usize,
    /// Every job's id, in scenario order (admission steps name jobs by index).
    pub ids: Vec<String>,
    /// The steps, in the order they happened: (a), (b), (c) for the job, then (d).
    pub steps: Vec<Event>,
    /// The plan the trace ends with: `plan_with(scenario, Policy::Smd, …)`'s, on the pool
    /// (on machines the placement that follows is not traced).
    pub plan: Plan,
    /// What the job's allocation is measured against when the trace explains it (not part
    /// of SMD's run: computed beside it from the job's model).
    #[serde(default)]
    pub reference: Reference,
}

/// The points a teacher compares SMD's allocation of the traced job with (docs/MODEL.md §20,
/// *lesson*): the integer optimum of T over Ω (the `exact` policy's allocation) and the real
/// p minimising T at the allocation's w (what *polish* moves p̄ to, §6).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// (w, p, T) of the least T over Ω's integer points; `None` when the job is infeasible.
    pub integer_optimum: Option<(u64, u64, f64)>,
    /// The real p minimising T at the plan's w for this job, and T there.
    pub best_p: Option<(f64, f64)>,
}

impl Trace {
    /// The index of the first step of `stage`, if the trace has one.
    pub fn first_of(&self, stage: Stage) -> Option<usize> {
        self.steps.iter().position(|e| e.stage() == stage)
    }
}

/// Records the steps of one job (and the admission), within the caps.
struct Recorder<'a> {
    target: usize,
    current: Option<usize>,
    admission: bool,
    opts: &'a TraceOptions,
    steps: Vec<Event>,
    grid_kept: usize,
    grid_extra: usize,
    solved: u64,
    pruned_blocks: u64,
    pruned_points: u64,
    grid_omitted: u64,
    draws_kept: usize,
    draws_omitted: u32,
    admission_kept: usize,
    admission_extra: usize,
    admission_omitted: u64,
    incumbent: f64,
}

impl Recorder<'_> {
    /// Keeps a capped step: under `cap` steps kept, or an improvement under `cap` more.
    fn capped(kept: &mut usize, extra: &mut usize, cap: usize, improves: bool) -> bool {
        if *kept < cap {
            *kept += 1;
            true
        } else if improves && *extra < cap {
            *extra += 1;
            true
        } else {
            false
        }
    }

    /// An admission step (a subset or a node), capped by `max_admission_steps`.
    fn admission_step(&mut self, improves: bool) -> bool {
        let cap = self.opts.max_admission_steps;
        Self::capped(
            &mut self.admission_kept,
            &mut self.admission_extra,
            cap,
            improves,
        )
    }
}

impl Observer for Recorder<'_> {
    const LISTENS: bool = true;

    fn on(&self) -> bool {
        self.admission || self.current == Some(self.target)
    }

    fn job(&mut self, index: usize) {
        self.current = Some(index);
    }

    fn admission(&mut self) {
        self.current = None;
        self.admission = true;
    }

    fn event(&mut self, mut e: Event) {
        let cap = self.opts.max_grid_steps;
        let keep = match &mut e {
            Event::Point { best, .. } => {
                self.solved += 1;
                Self::capped(&mut self.grid_kept, &mut self.grid_extra, cap, *best)
            }
            Event::Pruned { points, .. } => {
                self.pruned_blocks += 1;
                self.pruned_points += *points;
                Self::capped(&mut self.grid_kept, &mut self.grid_extra, cap, false)
            }
            Event::Relaxed {
                solved,
                pruned_blocks,
                pruned_points,
                omitted,
                ..
            } => {
                *solved = self.solved;
                *pruned_blocks = self.pruned_blocks;
                *pruned_points = self.pruned_points;
                *omitted = self.grid_omitted;
                true
            }
            Event::Draw { inside, .. } => {
                let keep = self.draws_kept < self.opts.max_draws || *inside;
                self.draws_kept += usize::from(keep);
                keep
            }
            Event::Rounded { omitted, .. } => {
                *omitted = self.draws_omitted;
                true
            }
            Event::Subset { outcome, .. } => {
                let improves = matches!(outcome, SubsetOutcome::Filled { best: true, .. });
                self.admission_step(improves)
            }
            Event::Node { incumbent, .. } => {
                let improves = *incumbent > self.incumbent;
                self.incumbent = self.incumbent.max(*incumbent);
                self.admission_step(improves)
            }
            Event::Admitted { omitted, .. } => {
                *omitted = self.admission_omitted;
                true
            }
            _ => true,
        };
        if keep {
            self.steps.push(e);
        } else {
            match e.stage() {
                Stage::Grid => self.grid_omitted += 1,
                Stage::Rounding => self.draws_omitted += 1,
                _ => self.admission_omitted += 1,
            }
        }
    }
}

/// The trace of job `job` (its index in the scenario) in SMD's plan of `scenario`: the plan
/// is planned once, by the normal planner, with a recorder listening (module docs). Invalid
/// scenarios give [`Error::Invalid`]; a job index out of range names the field `job`.
pub fn trace(scenario: &Scenario, job: usize, opts: &TraceOptions) -> Result<Trace, Error> {
    let Some(id) = scenario.jobs.get(job).map(|j| j.id.clone()) else {
        let range = match scenario.jobs.len() {
            0 => "the scenario has no jobs".to_string(),
            n => format!("0 to {}", n - 1),
        };
        return Err(Error::field(
            None,
            "job",
            format!("must be the index of a job of the scenario, {range} (got {job})"),
        ));
    };
    if scenario.jobs[job].measured.is_some() {
        // Named as the job and its field: `job "x": architecture is …` (the display adds
        // the word "job"; a message of its own that starts with it would say it twice).
        return Err(Error::field(
            Some(&id),
            "architecture",
            "is \"allreduce\" (a measured job): over its one-dimensional region Algorithm 1 \
             is an enumeration of w and Algorithm 2 has nothing to round, so there are no \
             steps to teach (docs/MODEL.md §21.1); pick a parameter-server job",
        ));
    }
    let mut rec = Recorder {
        target: job,
        current: None,
        admission: false,
        opts,
        steps: Vec::new(),
        grid_kept: 0,
        grid_extra: 0,
        solved: 0,
        pruned_blocks: 0,
        pruned_points: 0,
        grid_omitted: 0,
        draws_kept: 0,
        draws_omitted: 0,
        admission_kept: 0,
        admission_extra: 0,
        admission_omitted: 0,
        incumbent: 0.0,
    };
    let mut plan_opts = Options {
        inner: opts.inner,
        ..Options::default()
    };
    let plan = plan_observed(scenario, Policy::Smd, &mut plan_opts, &mut rec)?;
    let model = JobModel::of(
        &scenario.jobs[job],
        &scenario.cluster,
        scenario.params.time_unit_s,
    );
    let reference = if model.feasible() {
        let w = plan.jobs.get(job).and_then(|l| l.workers);
        Reference {
            integer_optimum: model.integer_optimum(),
            best_p: w.map(|w| {
                let p = model.best_p_for(w as f64);
                (p, model.t(w as f64, p))
            }),
        }
    } else {
        Reference::default()
    };
    Ok(Trace {
        job: id,
        index: job,
        ids: scenario.jobs.iter().map(|j| j.id.clone()).collect(),
        steps: rec.steps,
        plan,
        reference,
    })
}

#[cfg(test)]
mod tests;
