//! docs/MODEL.md §15: planning on machines — admission by any policy of `smd-core` on the
//! machines' total capacity, then the placement stage, then each placed job's T, π and μ
//! with its locality factor ρ. A job the admission chose that no placement fits is not
//! admitted (`"not placed: …"`); the totals are re-derived from what was placed.

use crate::{place, Job, Machine, Options as PlaceOptions, Outcome, Policy};
use smd_core::model::JobModel;
use smd_core::plan::{MachineUse, PlacementSummary, Reason};
use smd_core::scenario::{Resources, DEFAULT_DLTAP_LAMBDA};
use smd_core::{Error, Options, Plan, Policy as Planner, Scenario};

/// The placement options a scenario asks for (`params.placement`, `params.dltap_lambda`).
pub fn placement_of(s: &Scenario) -> (Policy, PlaceOptions) {
    let options = PlaceOptions {
        dltap_lambda: s.params.dltap_lambda.unwrap_or(DEFAULT_DLTAP_LAMBDA),
        ..PlaceOptions::default()
    };
    (s.params.placement.unwrap_or_default(), options)
}

/// The machines of a scenario as placement reads them (none on a pool).
pub fn machines_of(s: &Scenario) -> Vec<Machine> {
    s.cluster
        .machine_list()
        .into_iter()
        .map(|m| Machine {
            name: m.name,
            capacity: m.capacity,
            nic_gbps: m.nic_gbps,
            local_gbps: m.local_gbps,
        })
        .collect()
}

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

/// [`plan_placed`] for one policy, with no comparison.
fn plan_placed_once(
    scenario: &Scenario,
    planner: Planner,
    opts: &mut Options,
) -> Result<Plan, Error> {
    // With GPU sharing on, admission and placement see the workers' shares of a GPU and
    // the GPUs are packed after placement (docs/MODEL.md §18).
    if let Some(a) = scenario.params.gpu_sharing {
        if a != smd_core::scenario::GpuSharing::Off {
            return crate::shared::plan_shared(scenario, a, planner, opts);
        }
    }
    let plan = smd_core::plan_with(scenario, planner, opts)?;
    let clock = opts.clock;
    let start = clock.map(|c| c());
    let mut plan = place_plan(scenario, plan)?;
    if let (Some(c), Some(s)) = (clock, start) {
        if scenario.cluster.has_machines() {
            plan.stats.solve_ms += c() - s;
        }
    }
    Ok(plan)
}

/// The placement stage of [`plan_placed`] on its own: places the admitted jobs of `plan`
/// (a plan of `scenario`'s jobs, in order, e.g. one made on another cluster) on
/// `scenario`'s machines with its placement policy, then re-derives T, π, μ and the
/// totals. A job whose placement leaves it zero utility is not admitted (reason "not
/// placed: … ρ … leaves it zero utility") and the others are placed again without it.
/// A pool scenario returns `plan` unchanged.
pub fn place_plan(scenario: &Scenario, mut plan: Plan) -> Result<Plan, Error> {
    if !scenario.cluster.has_machines() {
        return Ok(plan);
    }
    let same_jobs = plan.jobs.len() == scenario.jobs.len()
        && plan
            .jobs
            .iter()
            .zip(&scenario.jobs)
            .all(|(l, j)| l.id == j.id);
    if !same_jobs {
        return Err(Error::Solver(
            "the plan's jobs are not the scenario's (same ids, same order)".into(),
        ));
    }
    let (policy, options) = placement_of(scenario);
    let machines = machines_of(scenario);
    let models: Vec<JobModel> = scenario
        .jobs
        .iter()
        .map(|j| JobModel::new(j, &scenario.cluster.instance, scenario.params.time_unit_s))
        .collect();
    // Admitted jobs in plan order: the order placement takes them in. A job whose
    // placement leaves it no utility (its ρ slows it past its deadline, MODEL §15) is
    // dropped and the rest placed again without it, so that no admitted job is worthless
    // and machine use counts only jobs that stay; each round drops one job or more.
    let mut admitted: Vec<usize> = (0..plan.jobs.len())
        .filter(|&i| plan.jobs[i].admitted)
        .collect();
    let mut dropped = 0;
    let (tasks, placement) = loop {
        let tasks: Vec<Job> = admitted
            .iter()
            .map(|&i| {
                let line = &plan.jobs[i];
                let (w, p) = (line.workers.unwrap_or(0), line.ps.unwrap_or(0));
                Job::of(&scenario.jobs[i], w, p)
            })
            .collect();
        let placement = place(&machines, &tasks, policy, &options)?;
        let mut worthless = Vec::new();
        for (k, &i) in admitted.iter().enumerate() {
            if let Outcome::Placed(p) = &placement.jobs[k] {
                let m = &models[i];
                let (w, ps) = (tasks[k].workers as f64, tasks[k].ps as f64);
                let u = m.mu(m.pi(m.t_placed(w, ps, p.locality_factor)));
                if u.is_nan() || u <= 0.0 {
                    worthless.push((i, p.locality_factor));
                }
            }
        }
        if worthless.is_empty() {
            break (tasks, placement);
        }
        for (i, rho) in worthless {
            let line = &mut plan.jobs[i];
            line.admitted = false;
            line.reason = Some(Reason::NotPlaced(format!(
                "its placement's locality factor ρ = {} leaves it zero utility",
                if rho < 1e4 {
                    format!("{rho:.3}")
                } else {
                    format!("{rho:.3e}")
                }
            )));
            dropped += 1;
            admitted.retain(|&a| a != i);
        }
    };
    let mut not_placed = dropped;
    for (k, &i) in admitted.iter().enumerate() {
        let (line, m) = (&mut plan.jobs[i], &models[i]);
        match &placement.jobs[k] {
            Outcome::Placed(p) => {
                let (w, ps) = (tasks[k].workers as f64, tasks[k].ps as f64);
                let t = m.t_placed(w, ps, p.locality_factor);
                line.completion_time_s = Some(t);
                line.completion_time = Some(m.pi(t));
                line.utility = m.mu(m.pi(t));
                line.locality_factor = Some(p.locality_factor);
                line.cross_traffic_gbit = Some(p.cross_traffic_gbit);
                line.placement = Some(p.named_shares(&machines));
            }
            Outcome::NotPlaced(why) => {
                not_placed += 1;
                line.admitted = false;
                // `why` is the text after "not placed: ", as the reason holds it.
                line.reason = Some(Reason::NotPlaced(why.clone()));
            }
        }
    }
    rederive_totals(&models, &mut plan);
    plan.placement = Some(PlacementSummary {
        policy,
        total_cross_traffic_gbit: placement.total_cross_traffic_gbit,
        machines_used: placement.machines_used,
        machines: machines
            .iter()
            .zip(&placement.used)
            .map(|(m, u)| MachineUse {
                machine: m.name.clone(),
                used: *u,
                capacity: m.capacity,
            })
            .collect(),
        proven: placement.proven,
        not_placed,
    });
    Ok(plan)
}

/// Total utility, admitted count, used and requested resources from the job lines.
pub(crate) fn rederive_totals(models: &[JobModel], plan: &mut Plan) {
    let (mut total, mut admitted) = (0.0, 0);
    let (mut used, mut requested) = ([0.0; 4], [0.0; 4]);
    for (line, m) in plan.jobs.iter().zip(models) {
        if !line.admitted {
            continue;
        }
        admitted += 1;
        total += line.utility;
        let d = m.demand(
            line.workers.unwrap_or(0) as f64,
            line.ps.unwrap_or(0) as f64,
        );
        let l = m.limit.to_array();
        for r in 0..4 {
            used[r] += d[r];
            requested[r] += l[r];
        }
    }
    plan.total_utility = total;
    plan.admitted = admitted;
    plan.resources.used = Resources::from_array(used);
    plan.resources.requested = Resources::from_array(requested);
}
