//! The plan-wide checks: the plan's counts, totals and resource sums against those
//! recomputed from its job lines, and capacities (per machine and per resource).

use smd_core::scenario::{Machine, RESOURCE_NAMES};
use smd_core::{Plan, Scenario};

use crate::jobs::Sums;
use crate::{close, sharing, TOL};

/// The plan's admitted count is the number of admitted job lines.
pub(crate) fn check_admitted(plan: &Plan, sums: &Sums, errs: &mut Vec<String>) {
    if sums.admitted != plan.admitted {
        errs.push(format!(
            "admitted = {} but {} job lines are admitted",
            plan.admitted, sums.admitted
        ));
    }
}

/// No machine holds more than its capacity of any resource.
pub(crate) fn check_machines(machines: &[Machine], used: &[[f64; 4]], errs: &mut Vec<String>) {
    for (mm, u) in machines.iter().zip(used) {
        let c = mm.capacity.to_array();
        for r in 0..4 {
            if u[r] > c[r] * (1.0 + TOL) + TOL {
                errs.push(format!(
                    "machine {}: {} {} exceeds its capacity {}",
                    mm.name, RESOURCE_NAMES[r], u[r], c[r]
                ));
            }
        }
    }
}

/// The plan's total utility is the sum over its admitted lines.
pub(crate) fn check_total(plan: &Plan, sums: &Sums, errs: &mut Vec<String>) {
    if !close(sums.total, plan.total_utility) {
        errs.push(format!(
            "total utility {} but the admitted jobs sum to {}",
            plan.total_utility, sums.total
        ));
    }
}

/// Per resource: the plan's used, requested and capacity figures are the recomputed ones
/// (used: the GPUs of the packing when sharing, MODEL §18), the admitted demand fits the
/// cluster and stays within the admitted limits.
pub(crate) fn check_resources(
    scenario: &Scenario,
    plan: &Plan,
    sums: &Sums,
    errs: &mut Vec<String>,
) {
    let cap = scenario.cluster.capacity().to_array();
    let (pu, pr, pc) = (
        plan.resources.used.to_array(),
        plan.resources.requested.to_array(),
        plan.resources.capacity.to_array(),
    );
    let requested = sums.requested;
    // What admission counted (effective shares when sharing), against the limits.
    let demand = sums.used;
    let mut used = sums.used;
    if let Some(sh) = &plan.sharing {
        used[0] = sharing::check_sharing(scenario, plan, sh, errs);
    }
    for r in 0..4 {
        let name = RESOURCE_NAMES[r];
        if !close(used[r], pu[r]) {
            errs.push(format!("{name}: used {} but recomputed {}", pu[r], used[r]));
        }
        if !close(requested[r], pr[r]) {
            errs.push(format!(
                "{name}: requested {} but recomputed {}",
                pr[r], requested[r]
            ));
        }
        if !close(cap[r], pc[r]) {
            errs.push(format!("{name}: capacity {} but cluster {}", pc[r], cap[r]));
        }
        if used[r] > cap[r] * (1.0 + TOL) + TOL {
            errs.push(format!(
                "{name}: admitted demand {} exceeds the capacity {}",
                used[r], cap[r]
            ));
        }
        if demand[r] > requested[r] * (1.0 + TOL) + TOL {
            errs.push(format!(
                "{name}: admitted demand {} exceeds the admitted limits {}",
                demand[r], requested[r]
            ));
        }
    }
}
