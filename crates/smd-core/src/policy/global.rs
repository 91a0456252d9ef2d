//! Policy **global** in the pipeline: seeds from every other policy, the Pareto sets, the
//! joint search of [`crate::global`], and the plan.

use super::assemble::{assemble, check_models, not_selected_reason, Candidate};
use super::{plan_with, Options, Policy};
use crate::enumerate::integer_optimum;
use crate::error::Error;
use crate::knapsack::{Limits, R};
use crate::model::JobModel;
use crate::plan::{AdmissionReport, Plan, Stats};
use crate::scenario::Scenario;

/// Policy **global** (docs/MODEL.md §9, improved): the joint optimum over every job's Pareto set
/// of allocations and the admitted set; see [`crate::global`]. Named `"global"` in plans.
pub fn plan_global(
    scenario: &Scenario,
    opts: &mut Options,
    node_limit: u64,
) -> Result<Plan, Error> {
    scenario.validate()?;
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let start = clock();
    let models: Vec<JobModel> = scenario
        .jobs
        .iter()
        .map(|j| JobModel::new(j, &scenario.cluster.instance, scenario.params.time_unit_s))
        .collect();
    check_models(scenario, &models)?;
    let cap = scenario.cluster.capacity().to_array();
    let seeds = seed_plans(scenario, opts.inner)?;
    let start_choice = best_choice(&seeds);
    let t0 = clock();
    let mut options = Vec::with_capacity(models.len());
    // Per job: `Some((u_max, D_min))` when its box was thinned (its bound term is relaxed).
    let mut relaxed: Vec<Option<(f64, [f64; R])>> = Vec::with_capacity(models.len());
    let total = models.len();
    let mut report = |done: usize| {
        if let Some(f) = opts.progress.as_mut() {
            f(super::Progress {
                policy: Policy::Global,
                jobs_done: done,
                jobs_total: total,
            });
        }
    };
    for (i, m) in models.iter().enumerate() {
        if !m.feasible() {
            options.push(Vec::new());
            relaxed.push(None);
            report(i + 1);
            continue;
        }
        // Every seed's allocation of this job is on the grid even when the box is thinned.
        let mut extra: Vec<(u64, u64)> = seeds
            .iter()
            .filter_map(|pl| pl.jobs[i].workers.zip(pl.jobs[i].ps))
            .collect();
        let best = integer_optimum(m);
        extra.extend(best.map(|(w, p, _)| (w, p)));
        let set = crate::global::pareto(m, &cap, &extra);
        relaxed.push((!set.complete).then(|| {
            let u_max = best.map_or(0.0, |(w, p, _)| m.utility_at(w as f64, p as f64));
            (u_max, m.demand(1.0, 1.0))
        }));
        options.push(set.options);
        report(i + 1);
    }
    let inner_ms = clock() - t0;
    let t1 = clock();
    let limits = Limits {
        nodes: node_limit,
        time_ms: opts.time_budget_ms,
        clock: opts.clock,
    };
    let mut joint = crate::global::solve(&options, &cap, &start_choice, &limits);
    if relaxed.iter().any(Option::is_some) {
        // The thinned search's own bound says nothing about the options it never saw.
        let bound = crate::global::relaxed_bound(&options, &relaxed, &cap).max(joint.value);
        joint.proven_optimal = bound <= joint.value * (1.0 + 1e-9);
        joint.bound = bound;
    }
    let outer_ms = clock() - t1;
    let mut cands = Vec::with_capacity(models.len());
    let mut chosen = Vec::with_capacity(models.len());
    for (i, m) in models.iter().enumerate() {
        if !m.feasible() {
            cands.push(None);
            chosen.push(false);
            continue;
        }
        // Not admitted: show the job's least-T integer allocation, as `exact` does.
        let (w, p) = match joint.chosen[i] {
            Some(wp) => wp,
            None => integer_optimum(m).map(|(w, p, _)| (w, p)).unwrap_or((1, 1)),
        };
        cands.push(Some(Candidate::at(m, w, p, None, None)));
        chosen.push(joint.chosen[i].is_some());
    }
    let stats = Stats {
        inner_ms,
        outer_ms,
        outer_nodes: joint.nodes,
        solve_ms: clock() - start,
        ..Stats::default()
    };
    let admission = AdmissionReport {
        method: "global".into(),
        depth: None,
        guarantee: if joint.bound > 0.0 {
            joint.value / joint.bound
        } else {
            1.0
        },
        proven_optimal: joint.proven_optimal,
        gap: (!joint.proven_optimal).then(|| (joint.bound - joint.value) / joint.bound),
    };
    Ok(assemble(
        scenario,
        &models,
        Policy::Global,
        &cands,
        &chosen,
        admission,
        stats,
        &|c, d| not_selected_reason(Policy::Exact, c, d, &cap),
    ))
}

/// The plans global starts from: every other policy's, and smd's with its improved
/// options, so that global never falls below any of them, proven or not.
fn seed_plans(scenario: &Scenario, inner: crate::inner::InnerSolver) -> Result<Vec<Plan>, Error> {
    let mut polished = scenario.clone();
    polished.params.polish = true;
    polished.params.rounding = crate::scenario::Rounding::BestCorner;
    [
        (scenario, Policy::Exact),
        (scenario, Policy::Smd),
        (&polished, Policy::Smd),
        (scenario, Policy::Optimus),
        (scenario, Policy::Esw),
    ]
    .into_iter()
    .map(|(s, p)| {
        plan_with(
            s,
            p,
            &mut Options {
                inner,
                ..Options::default()
            },
        )
    })
    .collect()
}

/// The admitted allocations of the best seed (the first of the highest total utility).
fn best_choice(seeds: &[Plan]) -> Vec<Option<(u64, u64)>> {
    let seed = seeds
        .iter()
        .reduce(|a, b| {
            if b.total_utility > a.total_utility {
                b
            } else {
                a
            }
        })
        .expect("five seeds");
    seed.jobs
        .iter()
        .map(|j| {
            if j.admitted {
                j.workers.zip(j.ps)
            } else {
                None
            }
        })
        .collect()
}
