//! The placement stage on a plan (docs/MODEL.md §15): the admitted jobs placed on the
//! scenario's machines with its placement policy, each placed job's T, π and μ with its
//! locality factor ρ; a job the admission chose that no placement fits is not admitted
//! (`"not placed: …"`); the totals are re-derived from what was placed.

use crate::input::{Job, Machine, Options as PlaceOptions};
use crate::output::Outcome;
use crate::place::place;
use crate::policy::Policy;
use crate::totals::rederive_totals;
use smd_core::model::JobModel;
use smd_core::plan::{MachineUse, PlacementSummary, Reason};
use smd_core::scenario::DEFAULT_DLTAP_LAMBDA;
use smd_core::{Error, Plan, Scenario};

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

/// The placement stage of [`crate::plan_placed`] on its own: places the admitted jobs of `plan`
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
        .map(|j| JobModel::of(j, &scenario.cluster, scenario.params.time_unit_s))
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
                let u = m.mu(m.pi(placed_time(m, &tasks[k], p)));
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
            line.reason = Some(Reason::NotPlaced(if models[i].is_measured() {
                "its placement's measured time leaves it zero utility".to_owned()
            } else {
                format!(
                    "its placement's locality factor ρ = {} leaves it zero utility",
                    smd_core::error::num(rho)
                )
            }));
            dropped += 1;
            admitted.retain(|&a| a != i);
        }
    };
    let mut not_placed = dropped;
    for (k, &i) in admitted.iter().enumerate() {
        let (line, m) = (&mut plan.jobs[i], &models[i]);
        match &placement.jobs[k] {
            Outcome::Placed(p) => {
                let t = placed_time(m, &tasks[k], p);
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

/// T of a placed task at its placement: its ρ (docs/MODEL.md §14–§15), or a measured job's
/// time with its workers per machine (§21).
fn placed_time(m: &JobModel, task: &Job, p: &crate::output::JobPlacement) -> f64 {
    let per: Vec<u32> = p.shares.iter().map(|s| s.workers).collect();
    m.t_on(task.workers as f64, task.ps as f64, p.locality_factor, &per)
}
