//! The validation rules that need each job's model (docs/MODEL.md §6, "Budget", and §12):
//! a completion time that is 0 or too large to represent is rejected naming the job, and an
//! ε whose Algorithm 1 grid exceeds [`GRID_BUDGET`] for some job is rejected naming
//! `params.epsilon` and the smallest ε the scenario allows. Run by `Scenario::validate`
//! once the fields are valid, so a valid scenario always plans.

use crate::error::{cut, num, FieldError};
use crate::inner::{grid_ranges, grid_size_of, smallest_epsilon_of as smallest};
// The budget itself, public here (Algorithm 1's grid module is private).
/// Most allocations policy `global` enumerates per job (the integer box of Ω); a larger box
/// is thinned and the plan's bound relaxed (docs/MODEL.md §9, global, *Options*).
pub use crate::global::MAX_BOX as GLOBAL_MAX_BOX;
pub use crate::grid::GRID_BUDGET;
use crate::model::JobModel;
use crate::scenario::Scenario;

/// The smallest ε the scenario's jobs allow under [`GRID_BUDGET`], with the id of the job that
/// sets it; `None` if every ε in (0, 1] is allowed. Meaningful for a scenario whose fields are
/// valid (the page shows it beside the ε input).
pub fn smallest_epsilon(scenario: &Scenario) -> Option<(f64, String)> {
    let mut worst: Option<(f64, &str)> = None;
    for (id, ranges) in ranges(scenario) {
        if let Some(e) = smallest(&ranges) {
            if worst.is_none_or(|(w, _)| e > w) {
                worst = Some((e, id));
            }
        }
    }
    worst.map(|(e, id)| (e, id.to_owned()))
}

/// The `(model)` error of a job whose model cannot be planned.
pub(crate) fn model_error(id: &str, m: &JobModel) -> Option<FieldError> {
    model_problem(m).map(|msg| FieldError {
        job: Some(id.to_owned()),
        field: "(model)".into(),
        message: msg.into(),
    })
}

/// Why a job's model cannot be planned, if it cannot.
fn model_problem(m: &JobModel) -> Option<&'static str> {
    if m.is_measured() {
        // Its numbers are the measurements' (validation checks its fields); no grid.
        None
    } else if !m.theta.iter().all(|v| v.is_finite()) || !m.t11.is_finite() {
        Some("gives a completion time too large to represent; check iterations, global_batch and the layer times")
    } else if m.t11 <= 0.0 {
        Some("gives a completion time of 0 (every time and overhead is 0)")
    } else if !m.limit.to_array().iter().all(|v| v.is_finite()) {
        Some("gives a limit too large to represent")
    } else {
        None
    }
}

/// The model rules of validation: every job's model is representable, then ε's budget.
/// Each job's model is built once for both.
pub(crate) fn check(scenario: &Scenario) -> Vec<FieldError> {
    check_with(scenario, &base_models(scenario))
}

/// Every job's model as planning builds it (its own worker share).
pub(crate) fn base_models(scenario: &Scenario) -> Vec<JobModel> {
    scenario
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &scenario.cluster, scenario.params.time_unit_s))
        .collect()
}

/// [`check`] with the jobs' models already built (`base`, in job order), so planning, which
/// needs them too, builds each once.
pub(crate) fn check_with(scenario: &Scenario, base: &[JobModel]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut grids = Vec::new();
    for (job, own) in scenario.jobs.iter().zip(base) {
        let shared = effective(scenario, job);
        for m in std::iter::once(own).chain(shared.as_ref()) {
            match model_error(&job.id, m) {
                Some(e) => errs.push(e),
                None if m.feasible() && !m.is_measured() => {
                    grids.push((job.id.as_str(), grid_ranges(m)))
                }
                None => {}
            }
        }
    }
    if errs.is_empty() {
        errs.extend(check_epsilon(scenario.params.epsilon, grids));
    }
    errs
}

/// `params.epsilon` must keep every job's grid (its gridded summands' ranges) within the
/// budget.
fn check_epsilon<'a>(
    eps: f64,
    grids: impl IntoIterator<Item = (&'a str, Vec<(f64, f64)>)>,
) -> Option<FieldError> {
    // (smallest ε, job, grid at ε) of the over-budget job that needs the largest ε.
    let mut worst: Option<(f64, &str, f64)> = None;
    for (id, ranges) in grids {
        let size = grid_size_of(&ranges, eps);
        if size > GRID_BUDGET {
            let e = smallest(&ranges).unwrap_or(1.0);
            if worst.is_none_or(|(w, _, _)| e > w) {
                worst = Some((e, id, size));
            }
        }
    }
    let (smallest, job, size) = worst?;
    Some(FieldError {
        job: None,
        field: "params.epsilon".into(),
        message: format!(
            "is too small for these jobs (got {}): Algorithm 1's grid for job {:?} would have {size:.1e} points, over the budget of {GRID_BUDGET:.0e}; the smallest ε this scenario allows is {smallest}",
            num(eps),
            cut(job),
        ),
    })
}

/// Every job with its model; with GPU sharing on, each shareable job also at its effective
/// share of a GPU (MODEL §18), the form planning with sharing solves — its region, and so
/// its grid, is the larger one.
fn models(scenario: &Scenario) -> impl Iterator<Item = (&crate::scenario::Job, JobModel)> + '_ {
    scenario.jobs.iter().flat_map(move |job| {
        let own = JobModel::of(job, &scenario.cluster, scenario.params.time_unit_s);
        std::iter::once((job, own)).chain(effective(scenario, job).map(|m| (job, m)))
    })
}

/// With GPU sharing on, a shareable job's model at its effective share of a GPU.
fn effective(scenario: &Scenario, job: &crate::scenario::Job) -> Option<JobModel> {
    if !(crate::sharing::sharing_on(scenario) && crate::sharing::shareable(job)) {
        return None;
    }
    let rules = crate::sharing::rules_of(scenario);
    let z = crate::sharing::normal_quantile(1.0 - rules.collision_prob);
    let mut j = job.clone();
    j.worker.gpu = crate::sharing::effective_share(job, &rules, z);
    Some(JobModel::of(
        &j,
        &scenario.cluster,
        scenario.params.time_unit_s,
    ))
}

/// The gridded summands' ranges of every feasible job whose numbers are finite (others have
/// no grid: they are reported elsewhere or never solved).
fn ranges(scenario: &Scenario) -> impl Iterator<Item = (&str, Vec<(f64, f64)>)> + '_ {
    models(scenario).filter_map(|(job, m)| {
        (model_problem(&m).is_none() && m.feasible() && !m.is_measured())
            .then(|| (job.id.as_str(), grid_ranges(&m)))
    })
}
