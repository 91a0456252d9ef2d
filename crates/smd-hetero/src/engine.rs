//! The Sia artifact's loop (MODEL.md §24.2, docs/MODEL.md §24): every tick each job runs
//! where it is, time advances, the policy decides every active job's GPUs, and the loop
//! records contention and allocated GPU time; it stops when every job is done.

use crate::cluster::Cluster;
use crate::job::{Job, Rules, Spec};
use smd_measured::gpu::Gpu;

/// What a policy sees at a decision.
pub struct View<'a> {
    /// The decision's time, s.
    pub now: f64,
    /// Every job of the workload (its state).
    pub jobs: &'a [Job],
    /// The jobs arrived and not finished, in workload order.
    pub active: &'a [usize],
    /// The cluster.
    pub cluster: &'a Cluster,
}

/// A job's GPUs: a type's index in the cluster and its GPUs on each of that type's nodes,
/// by node index.
pub type Allocation = (usize, Vec<u32>);

/// A policy's answer: each active job's GPUs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// Per active job (by index into the workload): a type's index in the cluster and its
    /// GPUs on each of that type's nodes, indexed by node (`[0, 4, 0]`: four on the second
    /// node; a shorter vector leaves the nodes after it empty), or nothing (it waits). The
    /// job's speed and restarts read only the GPUs per used node, in node order.
    pub alloc: Vec<(usize, Option<Allocation>)>,
    /// Whether the decision is proven optimal for its problem (`None`: the policy proves
    /// nothing).
    pub proven: Option<bool>,
}

/// A heterogeneity-aware policy.
pub trait Policy {
    /// Its decision at `view.now`.
    fn decide(&mut self, view: &View) -> Result<Decision, String>;
}

/// How a run is asked.
#[derive(Default)]
pub struct Options<'a> {
    /// A clock in ms, to time each decision (`None`: decision times are not measured).
    pub clock: Option<&'a dyn Fn() -> f64>,
    /// Called after every tick with (time reached s, jobs finished).
    pub progress: Option<&'a mut dyn FnMut(f64, usize)>,
    /// Checked after every tick: `true` stops the run.
    pub cancel: Option<&'a dyn Fn() -> bool>,
    /// The most ticks before the run is stopped as unfinished (0: 10⁶).
    pub max_ticks: u64,
    /// The run's horizon, s: it stops at the last tick boundary from which a whole tick would
    /// not end by then, the jobs left unfinished (`None`: until every job finishes).
    pub horizon_s: Option<f64>,
}

/// A job's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct JobOutcome {
    /// Its name.
    pub name: String,
    /// Its arrival, s.
    pub arrival_s: f64,
    /// When it finished, s (NaN: the horizon cut the run first).
    pub completion_s: f64,
    /// Completion − arrival, s.
    pub jct_s: f64,
    /// Restarts after its first start.
    pub restarts: u32,
    /// GPU-seconds allocated to it (MODEL.md §24.2: whole ticks while unfinished).
    pub gpu_seconds: f64,
    /// The type it finished on.
    pub gpu: Option<Gpu>,
    /// GPU-seconds per type, by [`Gpu::ALL`]'s index.
    pub gpu_seconds_by_type: [f64; 5],
    /// Where it ran: maximal stretches at one type and GPUs per node, in time order.
    pub segments: Vec<Stretch>,
}

/// A stretch of a job at one allocation.
#[derive(Clone, Debug, PartialEq)]
pub struct Stretch {
    /// From the decision that gave it, s.
    pub start_s: f64,
    /// To the decision that changed it, or the job's completion, s.
    pub end_s: f64,
    /// The type's index in the cluster.
    pub kind: usize,
    /// GPUs on each of the type's nodes, by node index.
    pub per_node: Vec<u32>,
    /// It began with a checkpoint-restore (a start, resume or resize).
    pub restarted: bool,
    /// The checkpoint-restore left when it began, s: a restart's whole delay, or what is
    /// left of one when a restoring job moves nodes without restarting. Its first
    /// `min(restore_s, end − start)` seconds make no progress.
    pub restore_s: f64,
    /// The share of the job's target it made.
    pub share: f64,
}

/// A run's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Per job, in workload order.
    pub jobs: Vec<JobOutcome>,
    /// Each decision's time, ms (empty without a clock).
    pub decision_ms: Vec<f64>,
    /// Decisions made.
    pub decisions: u64,
    /// Decisions proven optimal.
    pub proven: u64,
    /// Per recorded tick: submitted, unfinished jobs (MODEL.md §24.2's contention).
    pub contention: Vec<u32>,
    /// Each recorded tick's time, s.
    pub tick_s: Vec<f64>,
    /// Ticks not recorded one by one: nothing had arrived unfinished and nothing ran
    /// (contention 0, no GPU in use), skipped to the next arrival.
    pub idle_ticks: u64,
    /// Per tick record: GPUs allocated after the decision (the first tick's record is at
    /// t = interval).
    pub used: Vec<u32>,
    /// The tick, s.
    pub interval_s: f64,
    /// Where the horizon stopped the run with jobs unfinished, s (`None`: every job
    /// finished).
    pub cut_s: Option<f64>,
}

/// Why a run returned no outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// The input or a policy failed; the message names the job or field.
    Invalid(String),
    /// The cancel callback said stop.
    Cancelled,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Invalid(m) => f.write_str(m),
            RunError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs `specs` on `cluster` under `policy` with ticks of `interval_s`, its jobs under
/// `rules`.
pub fn run(
    specs: &[Spec],
    cluster: &Cluster,
    policy: &mut dyn Policy,
    interval_s: f64,
    rules: Rules,
    opts: &mut Options,
) -> Result<Outcome, RunError> {
    check(specs, interval_s)?;
    let mut jobs: Vec<Job> = specs.iter().map(|s| Job::new(s.clone(), rules)).collect();
    let mut gpu_s = vec![[0.0f64; 5]; jobs.len()];
    let mut stretches: Vec<Vec<Stretch>> = vec![Vec::new(); jobs.len()];
    let mut out = Outcome {
        jobs: Vec::new(),
        decision_ms: Vec::new(),
        decisions: 0,
        proven: 0,
        contention: Vec::new(),
        tick_s: Vec::new(),
        idle_ticks: 0,
        used: Vec::new(),
        interval_s,
        cut_s: None,
    };
    let horizon = opts.horizon_s.unwrap_or(f64::INFINITY);
    let max_ticks = match opts.max_ticks {
        0 => 1_000_000,
        n => n,
    };
    // Time is a whole number of ticks: a skip lands exactly where stepping would.
    let mut tick = 0u64;
    let mut ticks = 0u64;
    while jobs.iter().any(|j| j.completion_s.is_none()) {
        let mut now = tick as f64 * interval_s;
        // Nothing arrived unfinished and nothing running: every step until the next arrival
        // is idle, so the ticks before the one that first sees it are skipped (an arrival
        // far in the future costs nothing).
        let idle = jobs.iter().all(|j| {
            j.completion_s.is_some() || (j.spec.arrival_s > now && j.placement.is_empty())
        });
        if idle {
            let next = jobs
                .iter()
                .filter(|j| j.completion_s.is_none())
                .map(|j| j.spec.arrival_s)
                .fold(f64::INFINITY, f64::min);
            let seen = ((next - now) / interval_s).ceil().max(1.0);
            if seen.is_finite() && seen > 1.0 {
                let skip = (seen - 1.0).min(1e15) as u64;
                tick += skip;
                out.idle_ticks += skip;
                now = tick as f64 * interval_s;
            }
        }
        ticks += 1;
        if ticks > max_ticks {
            let left: Vec<&str> = jobs
                .iter()
                .filter(|j| j.completion_s.is_none())
                .take(3)
                .map(|j| j.spec.name.as_str())
                .collect();
            return Err(RunError::Invalid(format!(
                "jobs {} (and others) have not finished after {max_ticks} ticks",
                left.join(", ")
            )));
        }
        for (j, list) in jobs.iter_mut().zip(stretches.iter_mut()) {
            // Only a running, unfinished job moves (its step is a no-op otherwise).
            if j.completion_s.is_some() || j.placement.is_empty() {
                continue;
            }
            let before = share_of(j);
            j.step(now, interval_s)
                .map_err(|e| RunError::Invalid(format!("job {}: {e}", j.spec.name)))?;
            if let Some(last) = list.last_mut() {
                last.share += share_of(j) - before;
            }
        }
        tick += 1;
        now = tick as f64 * interval_s;
        // The horizon: no tick that would end past it is decided or run.
        if now + interval_s > horizon && jobs.iter().any(|j| j.completion_s.is_none()) {
            out.cut_s = Some(now);
            break;
        }
        let active: Vec<usize> = (0..jobs.len())
            .filter(|&i| jobs[i].spec.arrival_s <= now && jobs[i].completion_s.is_none())
            .collect();
        if !active.is_empty() {
            let t0 = opts.clock.map(|c| c());
            let view = View {
                now,
                jobs: &jobs,
                active: &active,
                cluster,
            };
            let d = policy.decide(&view).map_err(RunError::Invalid)?;
            if let (Some(c), Some(t0)) = (opts.clock, t0) {
                out.decision_ms.push(c() - t0);
            }
            out.decisions += 1;
            out.proven += u64::from(d.proven == Some(true));
            apply(&mut jobs, cluster, &active, d, now, &mut stretches)?;
        }
        out.contention.push(active.len() as u32);
        out.tick_s.push(now);
        out.used.push(active.iter().map(|&i| jobs[i].gpus()).sum());
        for &i in &active {
            if let Some(g) = jobs[i].gpu {
                gpu_s[i][g.index()] += f64::from(jobs[i].gpus()) * interval_s;
            }
        }
        if let Some(p) = opts.progress.as_mut() {
            p(
                now,
                jobs.iter().filter(|j| j.completion_s.is_some()).count(),
            );
        }
        if opts.cancel.is_some_and(|c| c()) {
            return Err(RunError::Cancelled);
        }
    }
    let cut = out.cut_s;
    out.jobs = jobs
        .iter()
        .zip(&gpu_s)
        .zip(stretches)
        .map(|((j, by), mut segments)| {
            let done = j.completion_s.unwrap_or(f64::NAN);
            // A stretch still open ends with the job, or where the horizon cut the run.
            if let Some(last) = segments.last_mut() {
                last.end_s = last.end_s.min(j.completion_s.or(cut).unwrap_or(f64::NAN));
            }
            JobOutcome {
                name: j.spec.name.clone(),
                arrival_s: j.spec.arrival_s,
                completion_s: done,
                jct_s: done - j.spec.arrival_s,
                restarts: j.restarts.unwrap_or(0),
                gpu_seconds: by.iter().sum(),
                gpu: j.gpu,
                gpu_seconds_by_type: *by,
                segments,
            }
        })
        .collect();
    Ok(out)
}

/// The decision applied in workload order (MODEL.md §24.2 step 5), checked: every active job
/// named once at most, on a type of the cluster, within each type's GPUs.
fn apply(
    jobs: &mut [Job],
    cluster: &Cluster,
    active: &[usize],
    d: Decision,
    now: f64,
    stretches: &mut [Vec<Stretch>],
) -> Result<(), RunError> {
    let mut to: Vec<Option<Option<Allocation>>> = vec![None; jobs.len()];
    let mut used = vec![0u64; cluster.types.len()];
    for (i, a) in d.alloc {
        if i >= jobs.len() || !active.contains(&i) || to[i].is_some() {
            return Err(RunError::Invalid(format!(
                "the policy allocated job index {i} twice or while it is not active"
            )));
        }
        if let Some((k, p)) = &a {
            let Some(&(g, _)) = cluster.types.get(*k) else {
                return Err(RunError::Invalid(format!("the policy named type {k}")));
            };
            let nodes = cluster.types[*k].1 as usize;
            if p.len() > nodes || p.iter().any(|&x| x > g.per_node()) {
                return Err(RunError::Invalid(format!(
                    "the policy put more than {} GPUs on a {} node, or named more than its {nodes} nodes",
                    g.per_node(),
                    g.label()
                )));
            }
            used[*k] += p.iter().map(|&x| u64::from(x)).sum::<u64>();
        }
        to[i] = Some(a);
    }
    for (k, &u) in used.iter().enumerate() {
        if u > u64::from(cluster.gpus(k)) {
            return Err(RunError::Invalid(format!(
                "the policy gave {u} {} GPUs of {}",
                cluster.types[k].0.label(),
                cluster.gpus(k)
            )));
        }
    }
    // GPUs per node of each type, to check that no node is over-full.
    let mut on_node: Vec<Vec<u32>> = cluster
        .types
        .iter()
        .map(|&(_, n)| vec![0; n as usize])
        .collect();
    for &i in active {
        let a = to[i]
            .take()
            .flatten()
            .filter(|(_, p)| p.iter().any(|&x| x > 0));
        if let Some((k, p)) = &a {
            for (n, &x) in p.iter().enumerate() {
                on_node[*k][n] += x;
                if on_node[*k][n] > cluster.types[*k].0.per_node() {
                    return Err(RunError::Invalid(format!(
                        "the policy over-filled {} node {n}",
                        cluster.types[*k].0.label()
                    )));
                }
            }
        }
        let restarts = jobs[i].restarts;
        let tuple = a.as_ref().map(|(k, p)| {
            let used: Vec<u32> = p.iter().copied().filter(|&x| x > 0).collect();
            (cluster.types[*k].0, used)
        });
        jobs[i].apply(tuple);
        let restarted = jobs[i].restarts != restarts;
        let list = &mut stretches[i];
        let same = matches!((list.last(), &a), (Some(l), Some((k, p)))
            if l.end_s > now && l.kind == *k && trimmed(&l.per_node) == trimmed(p) && !restarted);
        if !same {
            if let Some(l) = list.last_mut().filter(|l| l.end_s > now) {
                l.end_s = now;
            }
            if let Some((kind, per_node)) = a {
                list.push(Stretch {
                    start_s: now,
                    end_s: f64::INFINITY,
                    kind,
                    per_node,
                    restarted,
                    restore_s: jobs[i].rescale_s,
                    share: 0.0,
                });
            }
        }
    }
    Ok(())
}

/// The share of its target a job has reached.
fn share_of(j: &Job) -> f64 {
    smd_measured::measured::Measured::of(j.spec.app).map_or(0.0, |m| m.share_done(&j.at))
}

/// A per-node vector without its trailing empty nodes.
fn trimmed(p: &[u32]) -> &[u32] {
    let end = p.iter().rposition(|&x| x > 0).map_or(0, |k| k + 1);
    &p[..end]
}

/// A workload the loop can run: finite arrivals, positive batches and GPUs, a tick > 0.
fn check(specs: &[Spec], interval_s: f64) -> Result<(), RunError> {
    if !(interval_s.is_finite() && interval_s > 0.0) {
        return Err(RunError::Invalid(format!(
            "interval: {} is not a positive number of seconds",
            smd_format::num(interval_s)
        )));
    }
    for s in specs {
        if !(s.arrival_s.is_finite() && s.arrival_s >= 0.0) {
            return Err(RunError::Invalid(format!(
                "job {}: arrival {} is not a time ≥ 0",
                s.name,
                smd_format::num(s.arrival_s)
            )));
        }
        if !(s.batch.is_finite() && s.batch > 0.0) || s.gpus == 0 {
            return Err(RunError::Invalid(format!(
                "job {}: needs GPUs ≥ 1 and a batch > 0",
                s.name
            )));
        }
    }
    Ok(())
}
