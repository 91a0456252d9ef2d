//! # smd-check — a plan's invariants, re-derived from its scenario
//!
//! [`check_plan`] recomputes what a plan claims from the scenario and the job models
//! (docs/MODEL.md): every admitted (w, p) is an integer point of Ω; utilities (at the
//! placement's ρ on machines, §14–§15), totals and resource sums match the model; the
//! admitted demand fits the cluster per resource and, on machines, every machine's
//! capacity, with each job's shares summing to its (w, p); the rounding attempts are within
//! their cap; a plan with GPU sharing obeys the rules of §18 on every shared GPU.
//!
//! It sits beside the planner rather than in the reproduction crate so that the
//! reproduction, the sweep's tests and the fuzzer check plans without depending on each
//! other. Pure: depends on `smd-core` and `smd-place` only and builds for
//! `wasm32-unknown-unknown`.

#![warn(missing_docs)]

mod jobs;
mod sharing;
mod totals;

use smd_core::model::JobModel;
use smd_core::{Plan, Scenario};

/// Relative tolerance of the numeric checks.
const TOL: f64 = 1e-9;

/// Whether `a` and `b` agree within [`TOL`], relative to the larger (or 1).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * a.abs().max(b.abs()).max(1.0)
}

/// The invariants of one plan, recomputed from the scenario: every admitted (w, p) is an
/// integer point of Ω; utilities (at the placement's ρ on machines), totals and resource
/// sums match the model; the admitted demand fits the cluster per resource and, on
/// machines, every machine's capacity, with each job's shares summing to its (w, p); the
/// rounding attempts are within their cap. A plan with GPU sharing (`plan.sharing`) is
/// checked against its effective scenario (docs/MODEL.md §18) and its packing against the
/// sharing rules.
///
/// `models` are the scenario's job models, in its order. Returns one message per broken
/// invariant, empty when the plan passes.
pub fn check_plan(scenario: &Scenario, models: &[JobModel], plan: &Plan) -> Vec<String> {
    let mut errs = Vec::new();
    // A shared plan admitted every shareable worker at its effective GPU share (MODEL §18):
    // demands and Ω are those of the effective scenario; the GPUs really used are checked
    // against the packing (sharing.rs).
    let effective: Vec<JobModel>;
    let models = if plan.sharing.is_some() {
        let e = smd_place::effective_scenario(scenario);
        effective = e
            .jobs
            .iter()
            .map(|j| JobModel::of(j, &e.cluster, e.params.time_unit_s))
            .collect();
        &effective[..]
    } else {
        models
    };
    if plan.jobs.len() != models.len() {
        errs.push(format!(
            "{} job lines for {} jobs",
            plan.jobs.len(),
            models.len()
        ));
        return errs;
    }
    let machines = scenario.cluster.machine_list();
    let sums = jobs::check_jobs(scenario, models, plan, &machines, &mut errs);
    totals::check_admitted(plan, &sums, &mut errs);
    totals::check_machines(&machines, &sums.machine_used, &mut errs);
    totals::check_total(plan, &sums, &mut errs);
    totals::check_resources(scenario, plan, &sums, &mut errs);
    errs
}
