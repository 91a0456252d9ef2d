//! The checks of each job line: rounding draws, the admitted point, its utility, its
//! placement; and the sums the plan-wide checks compare with the plan's own.

use smd_core::model::JobModel;
use smd_core::plan::JobPlan;
use smd_core::scenario::{Machine, Rounding};
use smd_core::{Plan, Policy, Scenario};

use crate::close;

/// What the admitted job lines add up to, recomputed from the model.
pub(crate) struct Sums {
    /// Demand placed on each machine of the cluster's list, per resource.
    pub machine_used: Vec<[f64; 4]>,
    /// Σ demand of the admitted jobs per resource (effective shares when sharing).
    pub used: [f64; 4],
    /// Σ limit L of the admitted jobs per resource.
    pub requested: [f64; 4],
    /// Σ utility of the admitted jobs.
    pub total: f64,
    /// Admitted job lines.
    pub admitted: usize,
}

/// What a job line's placement is checked against.
struct Ctx<'a> {
    scenario: &'a Scenario,
    plan: &'a Plan,
    machines: &'a [Machine],
}

/// Checks every job line (`plan.jobs` and `models` have the same length) and sums what
/// the admitted ones use.
pub(crate) fn check_jobs(
    scenario: &Scenario,
    models: &[JobModel],
    plan: &Plan,
    machines: &[Machine],
    errs: &mut Vec<String>,
) -> Sums {
    let mut sums = Sums {
        machine_used: vec![[0.0; 4]; machines.len()],
        used: [0.0; 4],
        requested: [0.0; 4],
        total: 0.0,
        admitted: 0,
    };
    let ctx = Ctx {
        scenario,
        plan,
        machines,
    };
    for (j, m) in plan.jobs.iter().zip(models) {
        check_rounding(scenario, plan, j, m, errs);
        if !j.admitted {
            continue;
        }
        sums.admitted += 1;
        let (Some(w), Some(p)) = (j.workers, j.ps) else {
            errs.push(format!("job {}: admitted without an allocation", j.id));
            continue;
        };
        check_point(j, m, w, p, errs);
        check_placement(&ctx, j, m, (w, p), &mut sums.machine_used, errs);
        if j.utility.is_nan() || j.utility <= 0.0 {
            errs.push(format!("job {}: admitted with utility {}", j.id, j.utility));
        }
        sums.total += j.utility;
        let d = m.demand(w as f64, p as f64);
        let l = m.limit.to_array();
        for r in 0..4 {
            sums.used[r] += d[r];
            sums.requested[r] += l[r];
        }
    }
    sums
}

/// smd with paper rounding draws between 1 and the cap for every feasible job (MODEL §5).
fn check_rounding(
    scenario: &Scenario,
    plan: &Plan,
    j: &JobPlan,
    m: &JobModel,
    errs: &mut Vec<String>,
) {
    // A measured job's allocation is an enumeration's, with nothing to round (MODEL §21.1).
    if plan.policy == Policy::Smd
        && m.feasible()
        && !m.is_measured()
        && scenario.params.rounding == Rounding::Paper
    {
        match j.rounding_attempts {
            Some(a) if a >= 1 && a <= scenario.params.max_rounding_attempts => {}
            other => errs.push(format!(
                "job {}: rounding attempts {other:?} outside [1, {}]",
                j.id, scenario.params.max_rounding_attempts
            )),
        }
    }
}

/// The admitted (w, p) is an integer point of Ω and the line's utility is μ(π(T)) there.
fn check_point(j: &JobPlan, m: &JobModel, w: u64, p: u64, errs: &mut Vec<String>) {
    let (wf, pf) = (w as f64, p as f64);
    if w < 1 || !m.contains(wf, pf) {
        errs.push(format!(
            "job {}: admitted (w, p) = ({w}, {p}) is not in Ω",
            j.id
        ));
    }
    // On machines T uses the placement's ρ (docs/MODEL.md §14–§15).
    let rho = j.locality_factor.unwrap_or(1.0);
    let per = smd_core::plan::workers_per_machine(j.placement.as_deref());
    let u = m.mu(m.pi(m.t_on(wf, pf, rho, &per) * j.slowdown.unwrap_or(1.0)));
    if !close(u, j.utility) {
        errs.push(format!(
            "job {}: utility {} but μ(T({w}, {p}, ρ = {rho})) = {u}",
            j.id, j.utility
        ));
    }
}

/// The job's shares sum to its (w, p) and sit on known machines, whose use they add to;
/// on machines a placed plan places every admitted job.
fn check_placement(
    ctx: &Ctx,
    j: &JobPlan,
    m: &JobModel,
    (w, p): (u64, u64),
    machine_used: &mut [[f64; 4]],
    errs: &mut Vec<String>,
) {
    let Some(shares) = &j.placement else {
        if ctx.scenario.cluster.has_machines() && ctx.plan.placement.is_some() {
            errs.push(format!(
                "job {}: admitted on machines without a placement",
                j.id
            ));
        }
        return;
    };
    let (sw, sp) = shares
        .iter()
        .fold((0, 0), |(a, b), s| (a + s.workers, b + s.ps));
    if (sw, sp) != (w, p) {
        errs.push(format!(
            "job {}: placed ({sw}, {sp}) but allocated ({w}, {p})",
            j.id
        ));
    }
    for s in shares {
        match ctx.machines.iter().position(|mm| mm.name == s.machine) {
            Some(h) => {
                let (dw, dp) = (m.demand(s.workers as f64, 0.0), m.demand(0.0, s.ps as f64));
                for r in 0..4 {
                    machine_used[h][r] += dw[r] + dp[r];
                }
            }
            None => errs.push(format!(
                "job {}: placed on unknown machine {:?}",
                j.id, s.machine
            )),
        }
    }
}
