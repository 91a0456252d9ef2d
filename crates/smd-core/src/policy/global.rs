//! Policy **global** in the pipeline: the Pareto sets, the joint search of the private
//! `global` module (docs/MODEL.md §9), every other policy's plan only where the search
//! cannot vouch for itself (a thinned box, or a stop before the proof), and the plan.

use super::assemble::{assemble, not_selected_reason, Candidate};
use super::{plan_until, Clock, Options, Policy};
use crate::enumerate::integer_optimum;
use crate::error::Error;
use crate::global::{thinned_box, Option_};
use crate::knapsack::{Limits, R};
use crate::model::JobModel;
use crate::observe::Quiet;
use crate::plan::{AdmissionReport, Plan, Stats};
use crate::scenario::Scenario;

/// Policy **global** (docs/MODEL.md §9, improved): the joint optimum over every job's Pareto set
/// of allocations and the admitted set (docs/MODEL.md §9, global). Named `"global"` in plans.
pub fn plan_global(
    scenario: &Scenario,
    opts: &mut Options,
    node_limit: u64,
) -> Result<Plan, Error> {
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let start = clock();
    let models = scenario.validated_models()?;
    // One deadline for every phase (docs/MODEL.md §9, *Guarantee and limits*): the seeds,
    // the options, the search and the seeds after it all read it.
    let deadline = opts
        .clock
        .zip(opts.time_budget_ms)
        .map(|(c, ms)| (c, start + ms));
    // What follows the search — the seeds (each validates and models every job again) and
    // the plan's assembly — costs about one validation and modelling pass each, the plan's lines and the placement a few more; the
    // options and the search leave eight such passes of the budget for it (at most half).
    let pass_ms = clock() - start;
    let search_deadline = deadline.map(|(c, at)| {
        let ms = at - start;
        (c, at - (8.0 * pass_ms).min(ms / 2.0))
    });
    let cap = scenario.cluster.capacity().to_array();
    // Seeds are needed up front only where a box is thinned (their allocations join its
    // grid); otherwise only if the search stops unproven.
    let thinned = models.iter().any(|m| m.feasible() && thinned_box(m));
    let mut seeds = if thinned {
        Some(seed_plans(scenario, opts, deadline)?)
    } else {
        None
    };
    let t0 = clock();
    let colocated = crate::joint::colocated_models(scenario, &models);
    let (options, aside, relaxed) = option_sets(
        &models,
        &colocated,
        &cap,
        seeds.as_deref(),
        opts,
        search_deadline,
    );
    let inner_ms = clock() - t0;
    let t1 = clock();
    let limits = Limits {
        nodes: node_limit,
        time_ms: search_deadline.map(|(c, at)| (at - c()).max(0.0)),
        clock: opts.clock,
    };
    let start_choice = seeds.as_deref().filter(|s| !s.is_empty()).map(best_choice);
    let total = models.len();
    let mut on_report = |r: crate::global::Report| {
        if let Some(f) = opts.progress.as_mut() {
            f(super::Progress {
                policy: Policy::Global,
                jobs_done: total,
                jobs_total: total,
                search: Some(super::SearchProgress {
                    nodes: r.nodes,
                    best: r.best,
                    bound: r.bound,
                }),
            });
        }
    };
    let (mut joint, options) = crate::global::solve_set_aside(
        options,
        aside,
        &cap,
        start_choice.as_deref(),
        &limits,
        &mut on_report,
    );
    if relaxed.iter().any(Option::is_some) {
        // The thinned search's own bound says nothing about the options it never saw.
        let bound =
            crate::global::relaxed_bound(&options, &relaxed, &cap, &joint.dual.y).max(joint.value);
        joint.proven_optimal = bound <= joint.value + 1e-11 * bound.abs().max(1.0);
        joint.bound = bound;
    }
    if !joint.proven_optimal || seeds.is_some() {
        // Seeds planned up front (a thinned box) are compared whatever the proof says.
        keep_the_best_seed(&mut joint, seeds.take(), scenario, opts, deadline)?;
    }
    let outer_ms = clock() - t1;
    let (cands, chosen) = chosen_allocations(&models, &colocated, &joint);
    let stats = Stats {
        inner_ms,
        outer_ms,
        outer_nodes: joint.nodes,
        solve_ms: clock() - start,
        ..Stats::default()
    };
    Ok(assemble(
        scenario,
        &models,
        Policy::Global,
        &cands,
        &chosen,
        admission_of(&joint),
        stats,
        &|c, d| not_selected_reason(Policy::Exact, c, d, &cap),
    ))
}

/// Every job's candidate in the joint solution and whether it is admitted: its chosen
/// allocation, or, not admitted, its least-T integer allocation (as `exact` shows it).
fn chosen_allocations(
    models: &[JobModel],
    colocated: &[Vec<JobModel>],
    joint: &crate::global::Joint,
) -> (Vec<Option<Candidate>>, Vec<bool>) {
    let mut cands = Vec::with_capacity(models.len());
    let mut chosen = Vec::with_capacity(models.len());
    for (i, m) in models.iter().enumerate() {
        if !m.feasible() {
            cands.push(None);
            chosen.push(false);
            continue;
        }
        let (w, p) = match joint.chosen[i] {
            Some(wp) => wp,
            None => integer_optimum(m).map(|(w, p, _)| (w, p)).unwrap_or((1, 1)),
        };
        cands.push(Some(Candidate::at_in(m, &colocated[i], w, p, None, None)));
        chosen.push(joint.chosen[i].is_some());
    }
    (cands, chosen)
}

/// The admission report of the joint solution: its guarantee value / bound, proven or with
/// its gap.
fn admission_of(joint: &crate::global::Joint) -> AdmissionReport {
    AdmissionReport {
        method: "global".into(),
        depth: None,
        guarantee: if joint.bound > 0.0 {
            joint.value / joint.bound
        } else {
            1.0
        },
        proven_optimal: joint.proven_optimal,
        gap: (!joint.proven_optimal).then(|| (joint.bound - joint.value) / joint.bound),
    }
}

/// Unproven: never below another policy's plan — plans the seeds (unless given) and takes
/// the best of them when it beats the search's plan.
fn keep_the_best_seed(
    joint: &mut crate::global::Joint,
    seeds: Option<Vec<Plan>>,
    scenario: &Scenario,
    opts: &mut Options,
    deadline: Option<(Clock, f64)>,
) -> Result<(), Error> {
    let seeds = match seeds {
        Some(s) => s,
        None => seed_plans(scenario, opts, deadline)?,
    };
    let Some(best) = seeds
        .iter()
        .max_by(|a, b| a.total_utility.total_cmp(&b.total_utility))
    else {
        return Ok(());
    };
    if best.total_utility > joint.value {
        joint.chosen = best_choice(&seeds);
        joint.value = best.total_utility;
        joint.bound = joint.bound.max(joint.value);
    }
    Ok(())
}

/// Per job, its options, and `Some((u_max, D_min))` when its box was thinned (its bound
/// term is then relaxed); progress is reported per job. Once `deadline` has passed, the
/// jobs left get no options and the loosest true term, `(sup μ, D(1, 1))`: the search then
/// works on the jobs it has and the bound stays true.
#[allow(clippy::type_complexity)]
fn option_sets(
    models: &[JobModel],
    colocated: &[Vec<JobModel>],
    cap: &[f64; R],
    seeds: Option<&[Plan]>,
    opts: &mut Options,
    deadline: Option<(Clock, f64)>,
) -> (
    Vec<Vec<Option_>>,
    Vec<Vec<Option_>>,
    Vec<Option<(f64, [f64; R])>>,
) {
    let total = models.len();
    let mut options = Vec::with_capacity(total);
    let mut aside = Vec::with_capacity(total);
    let mut relaxed = Vec::with_capacity(total);
    let mut late = false;
    for (i, m) in models.iter().enumerate() {
        // A job's Pareto set can cost up to GLOBAL_MAX_BOX evaluations: read the clock
        // before each.
        late = late || deadline.is_some_and(|(c, at)| c() > at);
        if m.feasible() && late {
            // μ is monotone in π ≥ 0, so its supremum there is at one end.
            let u_max = m.mu(0.0).max(m.mu(f64::MAX)).max(0.0);
            options.push(Vec::new());
            aside.push(Vec::new());
            relaxed.push(Some((u_max, m.demand(1.0, 1.0))));
        } else if m.feasible() {
            // Every seed's allocation of this job is on the grid even when the box is thinned.
            let mut extra: Vec<(u64, u64)> = seeds
                .unwrap_or_default()
                .iter()
                .filter_map(|pl| pl.jobs[i].workers.zip(pl.jobs[i].ps))
                .collect();
            // The least-T allocation matters (and costs a search) only for a thinned box.
            let best = if thinned_box(m) {
                integer_optimum(m)
            } else {
                None
            };
            extra.extend(best.map(|(w, p, _)| (w, p)));
            let cols = &colocated[i];
            let mut set = crate::global::pareto(m, cols, cap, &extra);
            let allowance = (MAX_OPTIONS / total).max(MIN_OPTIONS_PER_JOB);
            aside.push(keep_at_most(&mut set.options, allowance, cap));
            relaxed.push((!set.complete).then(|| {
                // The best utility anywhere: spread's least T or a co-located one's.
                let u_max = best
                    .iter()
                    .map(|&(w, p, _)| m.utility_at(w as f64, p as f64))
                    .chain(cols.iter().filter_map(|c| {
                        integer_optimum(c).map(|(w, p, _)| c.utility_at(w as f64, p as f64))
                    }))
                    .fold(0.0, f64::max);
                (u_max, m.demand(1.0, 1.0))
            }));
            options.push(set.options);
        } else {
            options.push(Vec::new());
            aside.push(Vec::new());
            relaxed.push(None);
        }
        if let Some(f) = opts.progress.as_mut() {
            f(super::Progress {
                policy: Policy::Global,
                jobs_done: i + 1,
                jobs_total: total,
                search: None,
            });
        }
    }
    (options, aside, relaxed)
}

/// Most options over all jobs, shared evenly: every phase of the search (prices, first
/// plan, core) is a pass over all options, so this bounds the time of each pass (≈ 40 ms)
/// and the memory (56 bytes each, ≈ 220 MB).
pub const MAX_OPTIONS: usize = 4_000_000;

/// Options every job may keep, however many jobs there are.
const MIN_OPTIONS_PER_JOB: usize = 64;

/// Keeps at most `n` of a job's options: in order of size (demand relative to the
/// capacity), the first to reach each of `n − 1` evenly spaced utility levels, and the one
/// of the most utility — the cheap "fast enough" options admission lives on. Returns the
/// others, set aside: [`crate::global::solve_set_aside`] searches those that could be in a
/// better plan, so the answer and its proof hold for every option.
fn keep_at_most(options: &mut Vec<Option_>, n: usize, cap: &[f64; R]) -> Vec<Option_> {
    if options.len() <= n || n < 2 {
        return Vec::new();
    }
    let u_max = options.iter().map(|o| o.utility).fold(0.0, f64::max);
    let size = |o: &Option_| crate::global::size(&o.demand, cap);
    let mut by_size: Vec<usize> = (0..options.len()).collect();
    by_size.sort_by(|&a, &b| {
        size(&options[a])
            .total_cmp(&size(&options[b]))
            .then(a.cmp(&b))
    });
    let mut keep = Vec::with_capacity(n);
    let mut level = 0;
    for &k in &by_size {
        // Level j of n − 1 is u_max·j/(n − 1); this option reaches every level up to its own.
        let reached =
            ((options[k].utility / u_max.max(f64::MIN_POSITIVE)) * (n - 1) as f64).floor() as usize;
        if reached >= level && keep.len() + 1 < n {
            keep.push(k);
            level = reached + 1;
        }
    }
    let best = (0..options.len())
        .max_by(|&a, &b| {
            options[a]
                .utility
                .total_cmp(&options[b].utility)
                .then(b.cmp(&a))
        })
        .unwrap_or(0);
    keep.push(best);
    keep.sort_unstable();
    keep.dedup();
    let all = std::mem::take(options);
    let mut aside = Vec::with_capacity(all.len() - keep.len());
    let mut kept = keep.into_iter().peekable();
    for (k, o) in all.into_iter().enumerate() {
        if kept.next_if_eq(&k).is_some() {
            options.push(o);
        } else {
            aside.push(o);
        }
    }
    aside
}

/// The plans global starts from: every other policy's, and smd's with its improved
/// options, so that global never falls below any of them, proven or not (on machines, as
/// each prices its plan before placement).
/// smd's allocations come from the caller's cache when it has one (the page's does), so
/// they cost nothing after the page has planned smd.
///
/// Within the budget: each seed gets what is left of it; smd's and smd_locality's, whose
/// Algorithm 1 runs per job, are dropped when it ends before they finish; the others
/// (closed forms per job, then an admission that stops at the deadline with its best)
/// always answer.
fn seed_plans(
    scenario: &Scenario,
    opts: &mut Options,
    deadline: Option<(Clock, f64)>,
) -> Result<Vec<Plan>, Error> {
    let inner = opts.inner;
    // (polished, policy)
    let mut seeds = vec![
        (false, Policy::Exact),
        (false, Policy::Smd),
        (true, Policy::Smd),
        (false, Policy::Optimus),
        (false, Policy::Esw),
    ];
    if scenario.cluster.has_machines() {
        // On a pool it is smd.
        seeds.push((false, Policy::SmdLocality));
    }
    let mut polished: Option<Scenario> = None;
    let mut plans = Vec::with_capacity(seeds.len());
    for (polish, p) in seeds {
        let costly = matches!(p, Policy::Smd | Policy::SmdLocality);
        if costly && crate::global::past(deadline) {
            // It would give up at its first job, after a validation pass: not worth one.
            continue;
        }
        let s = if polish {
            polished.get_or_insert_with(|| {
                let mut s = scenario.clone();
                s.params.polish = true;
                s.params.rounding = crate::scenario::Rounding::BestCorner;
                s
            })
        } else {
            scenario
        };
        let now = deadline.map(|(c, _)| c());
        let plan = plan_until(
            s,
            p,
            &mut Options {
                inner,
                cache: opts.cache.as_deref_mut(),
                clock: deadline.map(|(c, _)| c),
                // The seed's own clock starts now: give it what is left.
                time_budget_ms: deadline.zip(now).map(|((_, at), t)| (at - t).max(0.0)),
                ..Options::default()
            },
            &mut Quiet,
            costly,
        )?;
        plans.extend(plan);
    }
    Ok(plans)
}

/// The admitted allocations of the best seed (the first of the highest total utility).
fn best_choice(seeds: &[Plan]) -> Vec<Option<(u64, u64)>> {
    let seed = seeds.iter().reduce(|a, b| {
        if b.total_utility > a.total_utility {
            b
        } else {
            a
        }
    });
    let Some(seed) = seed else {
        return Vec::new();
    };
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

/// The joint problem `global` solves, as data for outside solvers (e.g. the benchmark's
/// MIP reference): the capacity and every job's Pareto options (docs/MODEL.md §9).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JointProblem {
    /// The cluster's capacity per resource (GPU, vCPU, memory, storage).
    pub capacity: [f64; R],
    /// Per job (in scenario order): its options; empty for a job that fits nowhere.
    pub jobs: Vec<Vec<JointOption>>,
    /// `false` when some job's box was thinned: its true option set is larger.
    pub complete: bool,
}

/// One allocation a job may get in the joint problem.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct JointOption {
    /// Workers.
    pub workers: u64,
    /// Parameter servers.
    pub ps: u64,
    /// The job's utility at this allocation.
    pub utility: f64,
    /// Its demand per resource.
    pub demand: [f64; R],
}

/// Builds the joint problem of a valid scenario (the multiple-choice knapsack of
/// [`plan_global`]); no search is run.
pub fn joint_problem(scenario: &Scenario) -> Result<JointProblem, Error> {
    let models = scenario.validated_models()?;
    let cap = scenario.cluster.capacity().to_array();
    let colocated = crate::joint::colocated_models(scenario, &models);
    let (options, aside, relaxed) = option_sets(
        &models,
        &colocated,
        &cap,
        None,
        &mut Options::default(),
        None,
    );
    // Every option, the set-aside ones too: the problem whole, for an outside solver.
    let options = options.into_iter().zip(aside).map(|(mut o, a)| {
        o.extend(a);
        o.sort_by_key(|o| (o.w, o.p));
        o
    });
    Ok(JointProblem {
        capacity: cap,
        jobs: options
            .map(|o| {
                o.iter()
                    .map(|o| JointOption {
                        workers: o.w,
                        ps: o.p,
                        utility: o.utility,
                        demand: o.demand,
                    })
                    .collect()
            })
            .collect(),
        complete: relaxed.iter().all(Option::is_none),
    })
}
