//! MODEL.md §9: the policies `smd`, `esw`, `optimus` and `exact`, each turning a validated
//! scenario into a [`Plan`].

use crate::enumerate::integer_optimum;
use crate::error::Error;
use crate::inner::{self, InnerSolver, InnerStats};
use crate::knapsack::{self, Item, Limits, Selection, R};
use crate::model::JobModel;
use crate::omega::{fits, floor_tol};
use crate::plan::{AdmissionReport, JobPlan, Plan, ResourceUse, Stats};
use crate::rng::{stream_of, Stream};
use crate::rounding;
use crate::scenario::{Job, Outer, Params, Resources, Scenario, RESOURCE_NAMES};
use std::fmt;
use std::str::FromStr;

/// A planning policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Algorithm 1 → Algorithm 2 → Frieze–Clarke (or exact) admission.
    Smd,
    /// Equal split w = p = k, then SMD's admission stage.
    Esw,
    /// The cluster-wide greedy of Optimus.
    Optimus,
    /// Per-job integer optimum, then the exact knapsack.
    Exact,
}

impl Policy {
    /// Every policy, in display order.
    pub const ALL: [Policy; 4] = [Policy::Smd, Policy::Esw, Policy::Optimus, Policy::Exact];
    /// The policy's name in plan files.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Smd => "smd",
            Policy::Esw => "esw",
            Policy::Optimus => "optimus",
            Policy::Exact => "exact",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown policy {s:?} (expected smd, esw, optimus or exact)"))
    }
}

/// A clock in milliseconds; the crate has none of its own so it runs anywhere (wasm too).
pub type Clock<'a> = &'a dyn Fn() -> f64;

/// A job's chosen integer allocation before admission.
#[derive(Clone, Debug)]
struct Candidate {
    w: u64,
    p: u64,
    t: f64,
    utility: f64,
    relaxed: Option<([f64; 2], f64)>,
    attempts: Option<u32>,
}

/// Progress of a plan: called after each job's allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The policy being planned.
    pub policy: Policy,
    /// Jobs whose allocation is done.
    pub jobs_done: usize,
    /// Jobs in the scenario.
    pub jobs_total: usize,
}

/// How [`plan_with`] runs: its clock and a progress callback, both optional.
#[derive(Default)]
pub struct Options<'a> {
    /// Milliseconds from any origin; without one every time in the plan is 0.
    pub clock: Option<Clock<'a>>,
    /// Called after each job's allocation (e.g. to post progress from a Web Worker).
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// How Algorithm 1 solves its grid points (default: the exact fast path).
    pub inner: InnerSolver,
    /// Reuse SMD allocations of unchanged jobs from earlier plans.
    pub cache: Option<&'a mut Cache>,
    /// Wall-clock budget of the `global` search in ms (needs `clock`): when it ends, the
    /// best plan so far is returned with its bound and gap.
    pub time_budget_ms: Option<f64>,
}

/// Plans `scenario` with `policy`, timing with `clock`.
pub fn plan_with_clock(scenario: &Scenario, policy: Policy, clock: Clock) -> Result<Plan, Error> {
    plan_with(
        scenario,
        policy,
        &mut Options {
            clock: Some(clock),
            ..Options::default()
        },
    )
}

/// Plans `scenario` with `policy`; invalid scenarios give [`Error::Invalid`].
pub fn plan_with(scenario: &Scenario, policy: Policy, opts: &mut Options) -> Result<Plan, Error> {
    scenario.validate()?;
    let clock = opts.clock.unwrap_or(&|| 0.0);
    let mut report = |done: usize| {
        if let Some(f) = opts.progress.as_mut() {
            f(Progress {
                policy,
                jobs_done: done,
                jobs_total: scenario.jobs.len(),
            });
        }
    };
    let start = clock();
    let p = &scenario.params;
    let models: Vec<JobModel> = scenario
        .jobs
        .iter()
        .map(|j| JobModel::new(j, &scenario.cluster.instance, p.time_unit_s))
        .collect();
    check_models(scenario, &models)?;
    let cap = scenario.cluster.capacity().to_array();
    let mut stats = Stats::default();
    let mut cands: Vec<Option<Candidate>> = Vec::with_capacity(models.len());

    let (chosen, admission) = if policy == Policy::Optimus {
        let t0 = clock();
        let (c, chosen) = optimus(&models, &cap);
        stats.inner_ms = clock() - t0;
        report(models.len());
        cands = c;
        let report = AdmissionReport {
            method: "greedy".into(),
            depth: None,
            guarantee: 0.0,
            proven_optimal: false,
            gap: None,
        };
        (chosen, report)
    } else {
        let t0 = clock();
        for (job, m) in scenario.jobs.iter().zip(&models) {
            if !m.feasible() {
                cands.push(None);
                report(cands.len());
                continue;
            }
            let c = match policy {
                Policy::Smd => {
                    let key = opts
                        .cache
                        .as_ref()
                        .map(|_| cache_key(job, scenario, opts.inner));
                    let hit = match (opts.cache.as_mut(), key) {
                        (Some(cache), Some(k)) => cache.get(k),
                        _ => None,
                    };
                    let (c, work, rounding_ms) = match hit {
                        Some(found) => found,
                        None => {
                            let found = smd_allocation(job, m, p, opts.inner, clock)?;
                            if let (Some(cache), Some(k)) = (opts.cache.as_mut(), key) {
                                cache.put(k, found.clone());
                            }
                            found
                        }
                    };
                    add_inner(&mut stats, &work);
                    stats.rounding_ms += rounding_ms;
                    stats.rounding_attempts += u64::from(c.attempts.unwrap_or(0));
                    c
                }
                Policy::Esw => {
                    let k = esw_k(m);
                    Candidate::at(m, k, k, None, None)
                }
                Policy::Exact => {
                    let (w, ps, _) = integer_optimum(m).ok_or_else(|| {
                        Error::Solver(format!("job {:?}: no integer point in Ω", job.id))
                    })?;
                    Candidate::at(m, w, ps, None, None)
                }
                Policy::Optimus => unreachable!("handled above"),
            };
            cands.push(Some(c));
            report(cands.len());
        }
        stats.inner_ms = clock() - t0 - stats.rounding_ms;
        let items: Vec<Item> = cands
            .iter()
            .zip(&models)
            .map(|(c, m)| match c {
                Some(c) => Item {
                    value: c.utility,
                    demand: m.demand(c.w as f64, c.p as f64),
                },
                None => Item {
                    value: 0.0,
                    demand: [f64::INFINITY; R],
                },
            })
            .collect();
        let t0 = clock();
        let exact = policy == Policy::Exact || p.outer == Outer::Exact;
        let sel = if exact {
            knapsack::branch_and_bound(&items, &cap, knapsack::NODE_LIMIT)?
        } else {
            knapsack::frieze_clarke(&items, &cap, p.ptas_depth)?
        };
        stats.outer_ms = clock() - t0;
        stats.outer_lp_solves = sel.lp_solves;
        stats.outer_nodes = sel.nodes;
        stats.lp_solves += sel.lp_solves;
        let report = admission_report(&sel, if exact { None } else { Some(p.ptas_depth) });
        (sel.chosen, report)
    };

    stats.solve_ms = clock() - start;
    Ok(assemble(
        scenario,
        &models,
        policy.name(),
        &cands,
        &chosen,
        admission,
        stats,
        &|c, d| not_selected_reason(policy, c, d, &cap),
    ))
}

/// The plan file from per-job candidates and the admission decision.
#[allow(clippy::too_many_arguments)]
fn assemble(
    scenario: &Scenario,
    models: &[JobModel],
    policy: &str,
    cands: &[Option<Candidate>],
    chosen: &[bool],
    admission: AdmissionReport,
    stats: Stats,
    why_not: &dyn Fn(&Candidate, &[f64; R]) -> String,
) -> Plan {
    let cap = scenario.cluster.capacity().to_array();
    let mut jobs = Vec::with_capacity(models.len());
    let mut used = [0.0; R];
    let mut requested = [0.0; R];
    let mut total = 0.0;
    let mut admitted = 0;
    for (i, (job, m)) in scenario.jobs.iter().zip(models).enumerate() {
        let line = match &cands[i] {
            None => JobPlan {
                id: job.id.clone(),
                workers: None,
                ps: None,
                completion_time_s: None,
                completion_time: None,
                utility: 0.0,
                admitted: false,
                reason: Some(infeasible_reason(m)),
                relaxed_workers: None,
                relaxed_ps: None,
                relaxed_completion_time_s: None,
                rounding_attempts: None,
            },
            Some(c) => {
                let demand = m.demand(c.w as f64, c.p as f64);
                if chosen[i] {
                    admitted += 1;
                    total += c.utility;
                    for r in 0..R {
                        used[r] += demand[r];
                        requested[r] += m.limit.to_array()[r];
                    }
                }
                JobPlan {
                    id: job.id.clone(),
                    workers: Some(c.w),
                    ps: Some(c.p),
                    completion_time_s: Some(c.t),
                    completion_time: Some(m.pi(c.t)),
                    utility: c.utility,
                    admitted: chosen[i],
                    reason: (!chosen[i]).then(|| why_not(c, &demand)),
                    relaxed_workers: c.relaxed.map(|r| r.0[0]),
                    relaxed_ps: c.relaxed.map(|r| r.0[1]),
                    relaxed_completion_time_s: c.relaxed.map(|r| r.1),
                    rounding_attempts: c.attempts,
                }
            }
        };
        jobs.push(line);
    }
    Plan {
        policy: policy.into(),
        total_utility: total,
        admitted,
        jobs,
        resources: ResourceUse {
            used: Resources::from_array(used),
            capacity: Resources::from_array(cap),
            requested: Resources::from_array(requested),
        },
        stats,
        admission,
        time_unit: match scenario.params.time_unit_s {
            None => "relative".into(),
            Some(u) => format!("seconds/{u}"),
        },
    }
}

/// Default node limit of the `global` policy's search.
pub const GLOBAL_NODE_LIMIT: u64 = 10_000_000;

/// Policy **global** (MODEL.md §9, improved): the joint optimum over every job's Pareto set
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
    // Start from the best plan of every other policy (and of smd with its improved options),
    // so global never falls below any of them, proven or not.
    let mut polished = scenario.clone();
    polished.params.polish = true;
    polished.params.rounding = crate::scenario::Rounding::BestCorner;
    let mut seeds = Vec::new();
    for (s, p) in [
        (scenario, Policy::Exact),
        (scenario, Policy::Smd),
        (&polished, Policy::Smd),
        (scenario, Policy::Optimus),
        (scenario, Policy::Esw),
    ] {
        seeds.push(plan_with(
            s,
            p,
            &mut Options {
                inner: opts.inner,
                ..Options::default()
            },
        )?);
    }
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
    let start_choice: Vec<Option<(u64, u64)>> = seed
        .jobs
        .iter()
        .map(|j| {
            if j.admitted {
                j.workers.zip(j.ps)
            } else {
                None
            }
        })
        .collect();
    let t0 = clock();
    let mut options = Vec::with_capacity(models.len());
    // Per job: `Some((u_max, D_min))` when its box was thinned (its bound term is relaxed).
    let mut relaxed: Vec<Option<(f64, [f64; R])>> = Vec::with_capacity(models.len());
    for (i, m) in models.iter().enumerate() {
        if !m.feasible() {
            options.push(Vec::new());
            relaxed.push(None);
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
        "global",
        &cands,
        &chosen,
        admission,
        stats,
        &|c, d| not_selected_reason(Policy::Exact, c, d, &cap),
    ))
}

/// Algorithm 1 (+ polish) and Algorithm 2 for one feasible job: the candidate, the inner
/// work, and the rounding time.
fn smd_allocation(
    job: &Job,
    m: &JobModel,
    p: &Params,
    solver: InnerSolver,
    clock: Clock,
) -> Result<(Candidate, InnerStats, f64), Error> {
    let sol = inner::solve_with(m, p.epsilon, solver).map_err(|e| e.for_job(&job.id))?;
    let mut x = sol.x;
    if p.polish {
        let pp = m.best_p_for(x[0]);
        if m.t(x[0], pp) <= m.t(x[0], x[1]) {
            x[1] = pp;
        }
    }
    let t1 = clock();
    let mut rng = Stream::new(p.seed, stream_of(&job.id));
    let r = rounding::round(
        m,
        x,
        p.m_delta,
        p.max_rounding_attempts,
        p.rounding,
        &mut rng,
    );
    let ms = clock() - t1;
    Ok((
        Candidate::at(m, r.w, r.p, Some((sol.x, sol.t)), Some(r.attempts)),
        sol.stats,
        ms,
    ))
}

/// Everything a job's SMD allocation depends on, hashed.
fn cache_key(job: &Job, scenario: &Scenario, solver: InnerSolver) -> u64 {
    use std::hash::{Hash, Hasher};
    let p = &scenario.params;
    let text = serde_json::to_string(&(
        job,
        &scenario.cluster.instance,
        (
            p.epsilon,
            p.m_delta,
            p.max_rounding_attempts,
            p.seed,
            p.time_unit_s,
        ),
        (p.polish, p.rounding, solver),
    ))
    .expect("serialisable");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Per-job SMD allocations kept between plans, so that a re-plan after editing one job runs
/// Algorithm 1 for that job only. Plans are identical with or without it (its entries carry
/// the work counts they stand for).
#[derive(Default)]
pub struct Cache {
    entries: std::collections::HashMap<u64, (Candidate, InnerStats, f64)>,
    used: std::collections::HashSet<u64>,
    hits: u64,
    misses: u64,
}

impl Cache {
    /// An empty cache.
    pub fn new() -> Cache {
        Cache::default()
    }
    /// Allocations reused so far.
    pub fn hits(&self) -> u64 {
        self.hits
    }
    /// Allocations computed so far.
    pub fn misses(&self) -> u64 {
        self.misses
    }
    /// Forgets the entries no plan used since the last call (bounds memory to one scenario).
    pub fn retain_used(&mut self) {
        let used = std::mem::take(&mut self.used);
        self.entries.retain(|k, _| used.contains(k));
    }
    fn get(&mut self, k: u64) -> Option<(Candidate, InnerStats, f64)> {
        self.used.insert(k);
        let found = self.entries.get(&k).cloned();
        if found.is_some() {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        found.map(|(c, s, _)| (c, s, 0.0))
    }
    fn put(&mut self, k: u64, v: (Candidate, InnerStats, f64)) {
        self.used.insert(k);
        self.entries.insert(k, v);
    }
}

impl Candidate {
    fn at(
        m: &JobModel,
        w: u64,
        p: u64,
        relaxed: Option<([f64; 2], f64)>,
        attempts: Option<u32>,
    ) -> Candidate {
        let t = m.t(w as f64, p as f64);
        Candidate {
            w,
            p,
            t,
            utility: m.mu(m.pi(t)),
            relaxed,
            attempts,
        }
    }
}

fn add_inner(stats: &mut Stats, s: &InnerStats) {
    stats.lp_solves += s.lp_solves;
    stats.grid_points += s.grid_points;
    stats.infeasible_grid_points += s.infeasible_grid_points;
}

fn admission_report(sel: &Selection, depth: Option<u32>) -> AdmissionReport {
    AdmissionReport {
        method: if depth.is_some() { "ptas" } else { "exact" }.into(),
        depth,
        guarantee: sel.guarantee,
        proven_optimal: sel.proven_optimal,
        gap: sel.gap,
    }
}

/// Numbers that overflow make every later step meaningless: refuse them with the job named.
fn check_models(scenario: &Scenario, models: &[JobModel]) -> Result<(), Error> {
    let mut errs = Vec::new();
    for (job, m) in scenario.jobs.iter().zip(models) {
        let bad = if !m.theta.iter().all(|v| v.is_finite()) || !m.t11.is_finite() {
            Some("gives a completion time too large to represent; check iterations, global_batch and the layer times")
        } else if m.t11 <= 0.0 {
            Some("gives a completion time of 0 (every time and overhead is 0)")
        } else if !m.limit.to_array().iter().all(|v| v.is_finite()) {
            Some("gives a limit too large to represent")
        } else {
            None
        };
        if let Some(msg) = bad {
            errs.push(crate::error::FieldError {
                job: Some(job.id.clone()),
                field: "(model)".into(),
                message: msg.into(),
            });
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid(errs))
    }
}

/// ESW: the largest k with (k, k) in Ω.
pub fn esw_k(m: &JobModel) -> u64 {
    let per = (0..R)
        .filter(|&r| m.omega.ow[r] + m.omega.op[r] > 0.0)
        .map(|r| m.omega.limit[r] / (m.omega.ow[r] + m.omega.op[r]))
        .fold(f64::INFINITY, f64::min);
    let mut k = floor_tol(per).max(1.0) as u64;
    while k > 1 && !m.omega.contains(k as f64, k as f64) {
        k -= 1;
    }
    k
}

fn infeasible_reason(m: &JobModel) -> String {
    let d = m.demand(1.0, 1.0);
    let lim = m.limit.to_array();
    let over: Vec<String> = (0..R)
        .filter(|&r| !fits(d[r], lim[r]))
        .map(|r| format!("{} {} > {}", RESOURCE_NAMES[r], d[r], lim[r]))
        .collect();
    format!(
        "infeasible: one worker and one PS exceed the job's limit ({})",
        over.join(", ")
    )
}

fn not_selected_reason(policy: Policy, c: &Candidate, demand: &[f64; R], cap: &[f64; R]) -> String {
    if !knapsack::fits_all(demand, cap) {
        "not selected: needs more than the whole cluster".into()
    } else if c.utility <= 0.0 {
        "not selected: zero utility".into()
    } else if policy == Policy::Optimus {
        "not selected: (1, 1) did not fit the remaining capacity".into()
    } else {
        "not selected".into()
    }
}

/// Optimus (MODEL.md §9): admit at (1, 1) in order, then add the task with the best utility
/// gain per dominant share until no move reduces T and fits.
fn optimus(models: &[JobModel], cap: &[f64; R]) -> (Vec<Option<Candidate>>, Vec<bool>) {
    let mut remaining = *cap;
    let mut alloc: Vec<Option<(u64, u64)>> = vec![None; models.len()];
    let mut admitted = vec![false; models.len()];
    for (i, m) in models.iter().enumerate() {
        if !m.feasible() {
            continue;
        }
        alloc[i] = Some((1, 1));
        let d = m.demand(1.0, 1.0);
        if knapsack::fits_all(&d, &remaining) {
            admitted[i] = true;
            for r in 0..R {
                remaining[r] -= d[r];
            }
        }
    }
    let share = |task: &[f64; 4]| -> f64 {
        (0..R)
            .map(|r| {
                if cap[r] > 0.0 {
                    task[r] / cap[r]
                } else if task[r] > 0.0 {
                    f64::INFINITY
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max)
    };
    loop {
        // (gain/share, ΔT/share, job, is_ps)
        let mut best: Option<(f64, f64, usize, bool)> = None;
        for (i, m) in models.iter().enumerate() {
            if !admitted[i] {
                continue;
            }
            let (w, p) = alloc[i].expect("admitted jobs have an allocation");
            let t_now = m.t(w as f64, p as f64);
            let u_now = m.mu(m.pi(t_now));
            for is_ps in [false, true] {
                let (nw, np) = if is_ps { (w, p + 1) } else { (w + 1, p) };
                let task = if is_ps { m.omega.op } else { m.omega.ow };
                if !m.omega.contains(nw as f64, np as f64) || !knapsack::fits_all(&task, &remaining)
                {
                    continue;
                }
                let t_new = m.t(nw as f64, np as f64);
                if t_new >= t_now {
                    continue;
                }
                let s = share(&task);
                let key = ((m.mu(m.pi(t_new)) - u_now) / s, (t_now - t_new) / s);
                let better = match best {
                    None => true,
                    Some((g, dt, _, _)) => key.0 > g || (key.0 == g && key.1 > dt),
                };
                if better {
                    best = Some((key.0, key.1, i, is_ps));
                }
            }
        }
        let Some((_, _, i, is_ps)) = best else { break };
        let m = &models[i];
        let (w, p) = alloc[i].expect("admitted");
        let task = if is_ps { m.omega.op } else { m.omega.ow };
        for r in 0..R {
            remaining[r] -= task[r];
        }
        alloc[i] = Some(if is_ps { (w, p + 1) } else { (w + 1, p) });
    }
    let cands: Vec<Option<Candidate>> = models
        .iter()
        .zip(&alloc)
        .map(|(m, a)| a.map(|(w, p)| Candidate::at(m, w, p, None, None)))
        .collect();
    // Zero-utility jobs are never admitted (docs/MODEL.md, decisions): a job the greedy
    // could not lift above 0 (e.g. a time unit that puts every π far past γ3) is dropped.
    for (adm, c) in admitted.iter_mut().zip(&cands) {
        if c.as_ref().is_some_and(|c| c.utility <= 0.0) {
            *adm = false;
        }
    }
    (cands, admitted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenerateOptions};

    fn without_times(mut p: Plan) -> Plan {
        p.stats.solve_ms = 0.0;
        p.stats.inner_ms = 0.0;
        p.stats.rounding_ms = 0.0;
        p.stats.outer_ms = 0.0;
        p
    }

    #[test]
    fn cache_reuses_unchanged_jobs_and_changes_no_plan() {
        let mut s = generate(&GenerateOptions {
            jobs: 6,
            seed: 4,
            ..Default::default()
        });
        let mut cache = Cache::new();
        let with_cache = |s: &Scenario, cache: &mut Cache| {
            let mut o = Options {
                cache: Some(cache),
                ..Options::default()
            };
            without_times(plan_with(s, Policy::Smd, &mut o).unwrap())
        };
        let first = with_cache(&s, &mut cache);
        let feasible = first.jobs.iter().filter(|j| j.workers.is_some()).count() as u64;
        assert_eq!((cache.hits(), cache.misses()), (0, feasible));
        assert_eq!(first, without_times(crate::plan(&s, Policy::Smd).unwrap()));
        // Edit one feasible job: only it is solved again.
        let k = first.jobs.iter().position(|j| j.workers.is_some()).unwrap();
        s.jobs[k].iterations += 7.0;
        let second = with_cache(&s, &mut cache);
        assert_eq!((cache.hits(), cache.misses()), (feasible - 1, feasible + 1));
        assert_eq!(second, without_times(crate::plan(&s, Policy::Smd).unwrap()));
        // A parameter every job depends on invalidates them all.
        s.params.seed += 1;
        with_cache(&s, &mut cache);
        assert_eq!(cache.misses(), 2 * feasible + 1);
        cache.retain_used();
    }

    #[test]
    fn progress_counts_every_job_once_in_order() {
        let mut s = generate(&GenerateOptions {
            jobs: 4,
            seed: 9,
            ..Default::default()
        });
        s.params.epsilon = 0.3;
        for policy in Policy::ALL {
            let mut seen = Vec::new();
            let mut cb = |p: Progress| seen.push((p.jobs_done, p.jobs_total));
            let plan = plan_with(
                &s,
                policy,
                &mut Options {
                    progress: Some(&mut cb),
                    ..Options::default()
                },
            )
            .unwrap();
            assert_eq!(plan.stats.solve_ms, 0.0, "no clock, no time");
            let last = *seen.last().unwrap();
            assert_eq!(last, (4, 4), "{policy}");
            assert!(
                seen.windows(2).all(|w| w[0].0 < w[1].0),
                "{policy}: {seen:?}"
            );
        }
    }
}
