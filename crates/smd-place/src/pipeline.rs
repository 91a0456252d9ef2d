//! Planning on machines as one pipeline of stages (docs/MODEL.md §15, §18): admission by
//! any policy of `smd-core` (on the effective scenario with GPU sharing on), then the
//! placement stage ([`crate::stage`]), then with GPU sharing on the sharing stage
//! ([`crate::shared`]); for `global`, the same pipeline for the other policies, the best
//! plan kept.

use crate::shared::SharingStage;
use crate::stage::place_plan;
use smd_core::{Error, Options, Plan, Policy as Planner, Scenario};

/// Plans `scenario` with `planner` and, on machines, places the admitted jobs with the
/// scenario's placement policy. A pool scenario's plan is exactly `smd_core::plan_with`'s.
pub fn plan_placed(
    scenario: &Scenario,
    planner: Planner,
    opts: &mut Options,
) -> Result<Plan, Error> {
    let sharing = smd_core::sharing::sharing_on(scenario);
    if planner != Planner::Global || !(scenario.cluster.has_machines() || sharing) {
        return plan_placed_once(scenario, planner, opts);
    }
    // Within a time budget global's own search takes 60% of it, the other policies' placed
    // plans the rest (global_placed).
    let started = opts.clock.map(|c| c());
    let budget = opts.time_budget_ms;
    opts.time_budget_ms = budget.map(|ms| GLOBAL_SHARE * ms);
    let plan = plan_placed_once(scenario, planner, opts);
    opts.time_budget_ms = budget;
    global_placed(scenario, plan?, opts, started)
}

/// The share of a time budget `global`'s own search takes on machines.
const GLOBAL_SHARE: f64 = 0.6;
/// The other policies `global` compares on machines, cheapest first.
const SEEDS: [Planner; 5] = [
    Planner::Optimus,
    Planner::Esw,
    Planner::Exact,
    Planner::SmdLocality,
    Planner::Smd,
];
/// smd's cost over exact's on the same jobs, for the estimate above (measured on 10^4
/// generated jobs on 100 machines: 2.08 s against 0.21 s).
const SMD_COST_OVER_EXACT: f64 = 12.0;

/// `global` where placement or GPU packing follows the admission (docs/MODEL.md §15): its
/// proof is about the admission on the cluster's total capacity with modelled
/// configurations, not about the placed plan, so the placed plan claims no proof; and it
/// is never below another policy's placed plan — each is planned and placed, and the best
/// is kept (relabelled `global`, its admission report saying whose plan it is). Within a
/// time budget (`opts.time_budget_ms` from `started`) the others share what `global` left;
/// those it does not reach are named in the admission report's method (MODEL §15).
fn global_placed(
    scenario: &Scenario,
    mut plan: Plan,
    opts: &mut Options,
    started: Option<f64>,
) -> Result<Plan, Error> {
    plan.admission.proven_optimal = false;
    plan.admission.gap = None;
    plan.admission.guarantee = 0.0;
    let deadline = opts
        .clock
        .zip(opts.time_budget_ms)
        .zip(started)
        .map(|((c, ms), t0)| (c, t0 + ms));
    let budget = opts.time_budget_ms;
    let mut seeds_ms = 0.0;
    let mut exact_ms = 0.0;
    let mut skipped = Vec::new();
    for other in SEEDS {
        let left = deadline.map(|(c, at)| (at - c()).max(0.0));
        // Algorithm 1 sizes every job outside any budget: run smd's family only when the
        // time left covers its cost as estimated from exact's (about 10× on 10^4 jobs).
        let costly = matches!(other, Planner::Smd | Planner::SmdLocality);
        if left.is_some_and(|l| l <= 0.0 || (costly && l < SMD_COST_OVER_EXACT * exact_ms)) {
            skipped.push(other.name());
            continue;
        }
        opts.time_budget_ms = left.or(budget);
        let seed = plan_placed_once(scenario, other, opts);
        opts.time_budget_ms = budget;
        let seed = seed?;
        seeds_ms += seed.stats.solve_ms;
        if other == Planner::Exact {
            exact_ms = seed.stats.solve_ms;
        }
        let floor = 1e-9 * plan.total_utility.abs().max(1.0);
        if seed.total_utility > plan.total_utility + floor {
            let stats = plan.stats.clone();
            plan = Plan {
                policy: Planner::Global,
                admission: smd_core::plan::AdmissionReport {
                    method: format!("global (placed: {other}'s plan)"),
                    depth: None,
                    guarantee: 0.0,
                    proven_optimal: false,
                    gap: None,
                },
                stats,
                ..seed
            };
        }
    }
    plan.stats.solve_ms += seeds_ms;
    if !skipped.is_empty() {
        // Out of time: the plan says whom it could not compare rather than overrun.
        plan.admission.method = format!(
            "{} (budget spent before {})",
            plan.admission.method,
            skipped.join(", ")
        );
    }
    Ok(plan)
}

/// [`plan_placed`] for one policy, with no comparison: admission, placement, sharing.
fn plan_placed_once(
    scenario: &Scenario,
    planner: Planner,
    opts: &mut Options,
) -> Result<Plan, Error> {
    // With GPU sharing on, admission and placement see the workers' shares of a GPU and
    // the GPUs are packed after placement (docs/MODEL.md §18).
    let sharing = SharingStage::of(scenario);
    let admitted_on = sharing.as_ref().map_or(scenario, |s| &s.effective);
    let plan = smd_core::plan_with(admitted_on, planner, opts)?;
    let Some(sharing) = &sharing else {
        let clock = opts.clock;
        let start = clock.map(|c| c());
        let mut plan = place_plan(scenario, plan)?;
        // Placement's time counts in the plan's solve time (not with GPU sharing on, as
        // before the stages were one pipeline).
        if let (Some(c), Some(s)) = (clock, start) {
            if scenario.cluster.has_machines() {
                plan.stats.solve_ms += c() - s;
            }
        }
        return Ok(plan);
    };
    let plan = place_plan(admitted_on, plan)?;
    sharing.share(scenario, plan)
}
