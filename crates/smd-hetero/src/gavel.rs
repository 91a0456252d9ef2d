//! Gavel with TunedJobs as the Sia artifact runs it (MODEL.md §24.5, its
//! `max_sum_throughput_perf` policy): every job keeps the GPU count and batch of its
//! workload row; each round an LP spreads the jobs' time over the GPU types to maximise the
//! summed throughput, and a round-based time sharing turns those fractions into whole
//! allocations, work-conserving, on worker ids that may straddle nodes.
//!
//! One round ([`Gavel::decide`]):
//! 1. **Throughputs θ_jt** ([`throughput`], §5.1): iterations per second of the job's
//!    packed placement on type t at Gavel's own batch split, slowed by the application's
//!    calibration ([`crate::job::slowdown`]); 0.1 when the job asks for more GPUs than the
//!    type's largest configuration ([`Cluster::configs`]).
//! 2. **The LP** ([`max_sum_throughput`], §5.2): max Σ θ_jt·x_jt with x ≥ 0, Σ_t x_jt ≤ 1
//!    and Σ_j R_j·x_jt ≤ the GPUs of t; rows are the jobs by name (as strings), columns the
//!    types by the artifact's keys (`aws`, `dgx-ext`, `rtx`, …), as the reference orders
//!    them; x rounded to 5 decimals and clipped to [0, 1].
//! 3. **Time sharing** (§5.3): priority_jt = x_jt / (job_time_jt / cluster_time_t) where
//!    x_jt > 0, else 0; the (job, type) entries, by type in cluster order and by job in
//!    active order, sorted stably by (priority, x) descending, fill the types greedily —
//!    entries with x = 0 too, so no GPU idles while an active job fits.
//! 4. **Workers** ([`assign_workers`], §5.4): per type, jobs by GPU count descending; a job
//!    that ran on the type last round keeps its workers when none is taken, the others take
//!    the next free workers from a pointer that only moves forward (a job may straddle
//!    nodes); the worker ids become GPUs on each node ([`on_nodes`]), which the loop reads
//!    as the runs of equal consecutive node ids ([`node_runs`]).
//!
//! Differences from the reference, stated:
//! - **The LP's solver.** The reference solves the LP with ECOS, an interior-point method:
//!   where several optima tie it returns a fractional split between them. Ours is the
//!   project's simplex ([`smd_core::lp::multiple_choice`], the general LP layer as a
//!   fallback), which returns a vertex: on ties, x puts a job's whole share on one type
//!   (chosen through the row and column order above) where ECOS splits it. Priorities,
//!   hence the greedy fill, follow. The row and column order matters only through such
//!   ties: it is the order in which the simplex prices (and, on degenerate pivots, Bland's
//!   rule picks) the options, so among equally good vertices it decides which one comes
//!   back; a unique optimum is the same in any order.
//! - **Worker ids** are numbered per type. The reference numbers them across types in
//!   sorted-name order and maps them back in cluster order, which assumes the two agree
//!   (MODEL.md §24.5); here no such assumption arises.
//! - **Fixed batches.** Whether a placement is readable is checked at the job's own batch
//!   split there ([`readable`]), as the loop runs jobs under TunedJobs (`fixed_batch`).
//! - **Placements the measurements cannot read.** The reference re-spreads a placement of
//!   more nodes than the type's measured nodes as ⌈R/nodes⌉ GPUs per node (§1.3), whatever
//!   nodes those GPUs are on, and reads whatever comes out. Here (never on the reference's
//!   default cluster) every allocation is on real nodes and readable: a job is not placed
//!   on a type whose largest configuration (capped at the measured nodes, as
//!   [`Cluster::configs`] caps it) it exceeds — it keeps its θ = 0.1 in the LP; a job
//!   whose workers straddle more nodes than were measured, or whose step the measurements
//!   cannot give at its batch there, moves to free workers ([`relocate`], [`fullest`]) in
//!   the reference's re-spread, else its packed placement (GPUs per node, remainder last),
//!   else the fullest free nodes; a job that fits none waits this round, and the GPUs it
//!   left go, in the fill's order, to jobs still waiting.
//! - **Steps.** θ reads steps as the loop does ([`Measured::step_any`]): T4 placements on
//!   5–16 nodes by the project's rule for wide placements, not the reference's Qhull
//!   interpolation (MODEL.md §24.1). A θ whose packed placement the measurements cannot read
//!   is 0 (the reference stops on an assertion).
//! - **The largest configuration** is [`Cluster::configs`]'s, capped at the type's measured
//!   nodes; the reference's lists go to 16 (4-GPU nodes) or 8 (8-GPU nodes) nodes whatever
//!   was measured. The two agree on the reference's clusters.
//! - A job no type can place (more GPUs than every type's largest configuration) is an
//!   error at its first decision, where the reference would wait for it for ever.

use crate::cluster::Cluster;
use crate::engine::{Decision, Policy, View};
use crate::job::{slowdown, Spec};
use smd_core::lp::multiple_choice::{self, Choice};
use smd_core::lp::{Lp, Op, Outcome, Sense};
use smd_measured::app::App;
use smd_measured::gpu::Gpu;
use smd_measured::measured::{Measured, MeasuredError};
use std::collections::BTreeMap;

/// The most GPU types a cluster holds (one LP resource each).
const TYPES: usize = Gpu::ALL.len();

/// The θ the reference gives a job on a type too small for it (iterations/s).
pub const TOO_SMALL_THETA: f64 = 0.1;

/// Gavel's estimate of a job on one type (MODEL.md §24.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The packed placement: GPUs per node, full nodes first, the remainder last.
    pub placement: Vec<u32>,
    /// The largest local batch of that placement (MODEL.md §24.1).
    pub max_local: f64,
    /// Accumulation steps.
    pub accum: u32,
    /// The batch each GPU computes per micro-step.
    pub atomic: u32,
    /// Iterations per second, slowed by the application's calibration.
    pub theta: f64,
}

/// The packed placement of `gpus` GPUs on nodes of `per_node`: full nodes, then the
/// remainder.
pub fn packed(gpus: u32, per_node: u32) -> Vec<u32> {
    let per = per_node.max(1);
    let mut p = vec![per; (gpus / per) as usize];
    if gpus % per > 0 {
        p.push(gpus % per);
    }
    p
}

/// Gavel's throughput estimate (MODEL.md §24.5 steps 1–3) of a job of `app` on `gpus` GPUs
/// of `gpu` with total batch `batch`: its packed placement; local = ⌈B/R⌉; accumulation
/// steps of at most the placement's largest local batch, at least one on a single GPU
/// (even at the initial batch); atomic = ⌈local/(accum+1)⌉ held to the application's
/// largest batch over R·(accum+1); no memory correction; θ = 1/(step + accum·(step −
/// sync)) / slowdown at that atomic batch.
pub fn estimate(app: App, gpus: u32, batch: f64, gpu: Gpu) -> Result<Estimate, MeasuredError> {
    const EPS: f64 = 1e-8;
    let m = Measured::on(app, gpu)?;
    let placement = packed(gpus.max(1), gpu.per_node());
    let r = f64::from(gpus.max(1));
    let local = (batch / r - EPS).ceil();
    let max_local = m
        .max_local_at(&placement)
        .unwrap_or(m.table_local_range()[1]);
    let mut accum = ((local / max_local - EPS).ceil() - 1.0).max(0.0);
    if gpus <= 1 {
        accum = accum.max(1.0);
    }
    let atomic = (local / (accum + 1.0) - EPS)
        .ceil()
        .min((m.batch_range()[1] / (r * (accum + 1.0))).floor())
        .max(0.0);
    let s = m.step_any(&placement, atomic)?;
    let theta = 1.0 / (s.step_s + accum * (s.step_s - s.sync_s)) / slowdown(app);
    Ok(Estimate {
        placement,
        max_local,
        accum: accum as u32,
        atomic: atomic as u32,
        theta,
    })
}

/// The GPUs of type index `kind`'s largest configuration ([`Cluster::configs`]).
pub fn largest_config(cluster: &Cluster, kind: usize) -> u32 {
    cluster
        .configs()
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.gpus)
        .max()
        .unwrap_or(0)
}

/// θ of `spec` on type index `kind` of `cluster` (MODEL.md §24.5): [`TOO_SMALL_THETA`] when
/// it asks for more GPUs than the type's largest configuration, 0 when the measurements
/// cannot give its packed placement's step, else [`estimate`]'s.
pub fn throughput(spec: &Spec, cluster: &Cluster, kind: usize) -> f64 {
    if spec.gpus > largest_config(cluster, kind) {
        return TOO_SMALL_THETA;
    }
    match estimate(spec.app, spec.gpus, spec.batch, cluster.types[kind].0) {
        Ok(e) if e.theta.is_finite() && e.theta > 0.0 => e.theta,
        _ => 0.0,
    }
}

/// Whether Gavel can run `spec` on type `kind` of `cluster`: its GPUs within the type's
/// largest configuration, a positive throughput there, and its packed placement measured.
/// A job placeable on no type is refused (so is a scenario holding one).
pub fn placeable_on(spec: &Spec, cluster: &Cluster, kind: usize) -> bool {
    let g = cluster.types[kind].0;
    spec.gpus <= largest_config(cluster, kind)
        && throughput(spec, cluster, kind) > 0.0
        && readable(spec, g, &packed(spec.gpus, g.per_node()))
}

/// Whether the loop can run `spec` on `placement` of `gpu`: the step of its fixed batch's
/// split there ([`Measured::sia_batch_config`]) is measured or interpolated.
pub fn readable(spec: &Spec, gpu: Gpu, placement: &[u32]) -> bool {
    let Ok(m) = Measured::on(spec.app, gpu) else {
        return false;
    };
    if placement.is_empty() || placement.iter().any(|&g| g > gpu.per_node()) {
        return false;
    }
    let c = m.sia_batch_config(placement, spec.batch);
    m.step_any(placement, f64::from(c.atomic)).is_ok()
}

/// The LP of MODEL.md §24.5: x maximising Σ θ_jt·x_jt with x ≥ 0, Σ_t x_jt ≤ 1 for every
/// job j and Σ_j R_j·x_jt ≤ `cap[t]` for every type t; `theta[j][t]` (≥ 0), `need[j]` = R_j.
/// Rows and columns in the order given (they matter only through ties). At most five
/// columns. Solved by the multiple-choice simplex (each job a convex combination of "none"
/// and its types), the general LP layer if that fails; a vertex of the polytope.
pub fn max_sum_throughput(
    theta: &[Vec<f64>],
    need: &[u32],
    cap: &[f64],
) -> Result<Vec<Vec<f64>>, String> {
    let n = cap.len();
    if n > TYPES {
        return Err(format!(
            "Gavel's LP takes at most {TYPES} GPU types, not {n}"
        ));
    }
    if theta.len() != need.len() || theta.iter().any(|row| row.len() != n) {
        return Err("Gavel's LP: throughputs and GPU counts do not match".into());
    }
    let mut capacity = [0.0; TYPES];
    capacity[..n].copy_from_slice(cap);
    let groups: Vec<Vec<Choice<TYPES>>> = theta
        .iter()
        .zip(need)
        .map(|(row, &r)| {
            let mut options = vec![Choice {
                value: 0.0,
                demand: [0.0; TYPES],
            }];
            for (t, &v) in row.iter().enumerate() {
                let mut demand = [0.0; TYPES];
                demand[t] = f64::from(r);
                options.push(Choice { value: v, demand });
            }
            options
        })
        .collect();
    match multiple_choice::solve(&groups, &capacity) {
        Ok(s) => Ok(s
            .weights
            .iter()
            .map(|w| {
                let mut x = vec![0.0; n];
                for &(o, weight) in w.iter().filter(|&&(o, _)| o > 0) {
                    x[o - 1] = weight;
                }
                x
            })
            .collect()),
        Err(_) => by_lp(theta, need, cap),
    }
}

/// [`max_sum_throughput`] as a general LP.
fn by_lp(theta: &[Vec<f64>], need: &[u32], cap: &[f64]) -> Result<Vec<Vec<f64>>, String> {
    let mut lp = Lp::new(Sense::Max);
    let mut columns: Vec<Vec<(usize, f64)>> = vec![Vec::new(); cap.len()];
    let mut vars = Vec::with_capacity(theta.len());
    for (row, &r) in theta.iter().zip(need) {
        let ids: Vec<usize> = row.iter().map(|&v| lp.var(v, 0.0, 1.0)).collect();
        let terms: Vec<(usize, f64)> = ids.iter().map(|&x| (x, 1.0)).collect();
        lp.row(&terms, Op::Le, 1.0);
        for (t, &x) in ids.iter().enumerate() {
            columns[t].push((x, f64::from(r)));
        }
        vars.push(ids);
    }
    for (terms, &c) in columns.iter().zip(cap) {
        lp.row(terms, Op::Le, c);
    }
    match lp.solve().map_err(|e| format!("Gavel's LP: {e}"))? {
        Outcome::Optimal { x, .. } => Ok(vars
            .iter()
            .map(|ids| ids.iter().map(|&i| x[i]).collect())
            .collect()),
        _ => Err("Gavel's LP has no optimum".into()),
    }
}

/// x as the reference keeps it: rounded to 5 decimals (half to even, numpy's `round`) and
/// clipped to [0, 1].
pub fn rounded(x: f64) -> f64 {
    ((x * 1e5).round_ties_even() / 1e5).clamp(0.0, 1.0) + 0.0
}

/// The (job, type) entries of MODEL.md §24.5 in the fill's order: by type (cluster order)
/// then job (active order), sorted stably by (`priority[t][a]`, `x[t][a]`) descending.
pub fn entries(priority: &[Vec<f64>], x: &[Vec<f64>]) -> Vec<(usize, usize)> {
    let mut entries: Vec<(usize, usize)> = (0..priority.len())
        .flat_map(|t| (0..priority[t].len()).map(move |a| (a, t)))
        .collect();
    let key = |&(a, t): &(usize, usize)| (priority[t][a], x[t][a]);
    entries.sort_by(|p, q| {
        key(q)
            .partial_cmp(&key(p))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    entries
}

/// The greedy fill of MODEL.md §24.5. `priority[t][a]` and `x[t][a]` per type (cluster
/// order) and active job (active order), `need[a]` its GPUs, `free[t]` the type's GPUs,
/// `placeable(a, t)` whether the job may run on the type at all. Walking [`entries`], an
/// entry is taken unless its type has no free GPU, its job is already placed, the job
/// needs more GPUs than are free or it is not placeable. Returns the (job, type) taken,
/// in the order taken.
pub fn fill(
    priority: &[Vec<f64>],
    x: &[Vec<f64>],
    need: &[u32],
    free: &[u32],
    placeable: &dyn Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut free = free.to_vec();
    let mut placed = vec![false; need.len()];
    let mut out = Vec::new();
    for (a, t) in entries(priority, x) {
        if free[t] == 0 || placed[a] || need[a] > free[t] || !placeable(a, t) {
            continue;
        }
        free[t] -= need[a];
        placed[a] = true;
        out.push((a, t));
    }
    out
}

/// Workers of one type for its scheduled jobs (MODEL.md §24.5). `scheduled`: (job, GPUs) in
/// the order the fill took them; `previous`: each job's workers on this type last round;
/// `workers`: the type's GPUs (ids 0…workers−1, node = id / GPUs per node). By GPU count
/// descending (stably), each count in turn: its jobs that ran here keep their workers if
/// none is taken yet, then its others take the next free ids from a pointer that only
/// moves forward. Returns (job, worker ids) in that order; `None` if the GPUs run out
/// (they cannot when the jobs fit the type).
pub fn assign_workers(
    scheduled: &[(usize, u32)],
    previous: &BTreeMap<usize, Vec<u32>>,
    workers: u32,
) -> Option<Vec<(usize, Vec<u32>)>> {
    let mut order = scheduled.to_vec();
    order.sort_by_key(|s| std::cmp::Reverse(s.1));
    let mut sizes: Vec<u32> = order.iter().map(|s| s.1).collect();
    sizes.dedup();
    let mut taken = vec![false; workers as usize];
    let mut pointer = 0usize;
    let mut out: Vec<(usize, Vec<u32>)> = Vec::with_capacity(order.len());
    for r in sizes {
        let mut kept = Vec::new();
        for &(j, _) in order.iter().filter(|s| s.1 == r) {
            let Some(ids) = previous.get(&j) else {
                continue;
            };
            let free = ids
                .iter()
                .all(|&w| (w as usize) < taken.len() && !taken[w as usize]);
            if free && ids.len() == r as usize {
                for &w in ids {
                    taken[w as usize] = true;
                }
                kept.push(j);
                out.push((j, ids.clone()));
            }
        }
        for &(j, _) in order.iter().filter(|s| s.1 == r && !kept.contains(&s.0)) {
            let mut ids = Vec::with_capacity(r as usize);
            while ids.len() < r as usize && pointer < taken.len() {
                if !taken[pointer] {
                    taken[pointer] = true;
                    ids.push(pointer as u32);
                }
                pointer += 1;
            }
            if ids.len() < r as usize {
                return None;
            }
            out.push((j, ids));
        }
    }
    Some(out)
}

/// GPUs per node of worker ids (node = id / `per_node`): the lengths of the runs of equal
/// consecutive node ids, as the loop reads an allocation (MODEL.md §24.2).
pub fn node_runs(ids: &[u32], per_node: u32) -> Vec<u32> {
    let mut runs: Vec<u32> = Vec::new();
    let mut last = None;
    for &w in ids {
        let node = w / per_node.max(1);
        if last == Some(node) {
            if let Some(n) = runs.last_mut() {
                *n += 1;
            }
        } else {
            runs.push(1);
            last = Some(node);
        }
    }
    runs
}

/// The reference's fix of a placement over more than `nodes` nodes (MODEL.md §24.1):
/// ⌈R/nodes⌉ GPUs per node, the remainder last; others unchanged.
pub fn respread(placement: &[u32], nodes: u32) -> Vec<u32> {
    if placement.len() as u32 <= nodes || nodes == 0 {
        return placement.to_vec();
    }
    let r: u32 = placement.iter().sum();
    packed(r, r.div_ceil(nodes))
}

/// GPUs on each node of worker ids, indexed by node (node = id / `per_node`), up to the
/// last node used: the engine's allocation.
pub fn on_nodes(ids: &[u32], per_node: u32) -> Vec<u32> {
    let mut v: Vec<u32> = Vec::new();
    for &w in ids {
        let n = (w / per_node.max(1)) as usize;
        if v.len() <= n {
            v.resize(n + 1, 0);
        }
        v[n] += 1;
    }
    v
}

/// The free worker ids (`taken[id]` false) of each node of `per_node` workers.
fn free_by_node(taken: &[bool], per_node: u32) -> Vec<Vec<u32>> {
    let per = per_node.max(1) as usize;
    (0..taken.len().div_ceil(per))
        .map(|n| {
            (n * per..((n + 1) * per).min(taken.len()))
                .filter(|&w| !taken[w])
                .map(|w| w as u32)
                .collect()
        })
        .collect()
}

/// Free workers (`taken[id]` false) for `target` GPUs per node, on distinct nodes of
/// `per_node` workers: each count, largest first, on the node with the fewest free workers
/// that holds it (the lowest such node on ties), its lowest free ids. Sorted ids, or `None`
/// when it does not fit.
pub fn relocate(target: &[u32], taken: &[bool], per_node: u32) -> Option<Vec<u32>> {
    let mut free = free_by_node(taken, per_node);
    let nodes = free.len();
    let mut counts = target.to_vec();
    counts.sort_by_key(|&c| std::cmp::Reverse(c));
    let mut ids = Vec::new();
    for c in counts.into_iter().filter(|&c| c > 0) {
        let n = (0..nodes)
            .filter(|&n| free[n].len() >= c as usize)
            .min_by_key(|&n| (free[n].len(), n))?;
        ids.extend(free[n].drain(..c as usize));
        free[n].clear();
    }
    ids.sort_unstable();
    Some(ids)
}

/// Free workers (`taken[id]` false) for `gpus` GPUs on at most `nodes` nodes of
/// `per_node` workers: the nodes with the most free workers (the lowest on ties), filled
/// in that order. Sorted ids, or `None` when those nodes hold fewer free workers.
pub fn fullest(gpus: u32, taken: &[bool], per_node: u32, nodes: u32) -> Option<Vec<u32>> {
    let mut free = free_by_node(taken, per_node);
    free.sort_by_key(|f| std::cmp::Reverse(f.len()));
    let mut left = gpus as usize;
    let mut ids = Vec::with_capacity(left);
    for f in free.iter().take(nodes as usize) {
        let k = left.min(f.len());
        ids.extend_from_slice(&f[..k]);
        left -= k;
    }
    if left > 0 {
        return None;
    }
    ids.sort_unstable();
    Some(ids)
}

/// Workers for `spec` on free workers of `g` (`taken` marks the others; see the module's
/// documentation): `ids` if they span at most the type's measured nodes and its step there
/// is readable; else the reference's re-spread of them (⌈R/nodes⌉ per node) when they
/// span more, its packed placement, or the fullest free nodes, moved with [`relocate`]
/// (the last with [`fullest`]), the first readable one; `None` if none is. The ids taken
/// are marked in `taken`.
fn readable_ids(spec: &Spec, g: Gpu, ids: &[u32], taken: &mut [bool]) -> Option<Vec<u32>> {
    let (per, measured) = (g.per_node(), g.measured_nodes());
    let runs = node_runs(ids, per);
    let fine = |ids: &[u32]| {
        let runs = node_runs(ids, per);
        runs.len() as u32 <= measured && readable(spec, g, &runs)
    };
    let chosen = if ids.len() == spec.gpus as usize && fine(ids) {
        Some(ids.to_vec())
    } else {
        let mut targets = Vec::new();
        if runs.len() as u32 > measured {
            targets.push(respread(&runs, measured));
        }
        targets.push(packed(spec.gpus, per));
        targets
            .iter()
            .filter(|t| t.iter().all(|&x| x <= per))
            .filter_map(|t| relocate(t, taken, per))
            .chain(fullest(spec.gpus, taken, per, measured))
            .find(|new| fine(new))
    };
    if let Some(new) = &chosen {
        for &w in new {
            taken[w as usize] = true;
        }
    }
    chosen
}

/// What the last round saw and chose (for tests and tracing); rows by active job (active
/// order), columns by type (cluster order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// The active jobs (indices into the workload).
    pub jobs: Vec<usize>,
    /// θ per job and type, iterations/s.
    pub theta: Vec<Vec<f64>>,
    /// The LP's x per job and type, rounded.
    pub x: Vec<Vec<f64>>,
    /// Priorities per job and type.
    pub priority: Vec<Vec<f64>>,
    /// Each type's cluster time before the round, s.
    pub cluster_time: Vec<f64>,
    /// Per job, its type index if it runs this round.
    pub placed: Vec<Option<usize>>,
    /// The jobs (indices into the workload) whose workers were moved to nodes the
    /// measurements read, or given GPUs another job could not use.
    pub moved: Vec<usize>,
}

/// Per job: its time on each type (cluster order) and its θ there.
#[derive(Clone, Debug)]
struct Known {
    time: Vec<f64>,
    theta: Vec<f64>,
    /// Whether the job may be placed on the type (fits its largest configuration and its
    /// packed placement is readable).
    placeable: Vec<bool>,
}

/// The Gavel policy (see the module's documentation). One per run: its time shares and
/// workers carry over from decision to decision; a decision at a time not after the last
/// one, or on another cluster, starts afresh.
#[derive(Clone, Debug)]
pub struct Gavel {
    interval_s: f64,
    cluster: Option<Cluster>,
    last_now: f64,
    cluster_time: Vec<f64>,
    known: BTreeMap<usize, Known>,
    /// Last round's workers: job → (type index, worker ids).
    workers: BTreeMap<usize, (usize, Vec<u32>)>,
    round: Option<Round>,
}

impl Gavel {
    /// Gavel with rounds of `interval_s` (the loop's tick, 360 s in the reference): a new
    /// job starts with half a round of time on every type.
    pub fn new(interval_s: f64) -> Gavel {
        Gavel {
            interval_s,
            cluster: None,
            last_now: f64::NEG_INFINITY,
            cluster_time: Vec::new(),
            known: BTreeMap::new(),
            workers: BTreeMap::new(),
            round: None,
        }
    }

    /// The last round.
    pub fn last_round(&self) -> Option<&Round> {
        self.round.as_ref()
    }

    /// Forgets every job when the cluster changed or time went back (a new run).
    fn start(&mut self, view: &View) {
        if self.cluster.as_ref() != Some(view.cluster) || view.now <= self.last_now {
            *self = Gavel::new(self.interval_s);
            self.cluster = Some(view.cluster.clone());
            self.cluster_time = vec![0.0; view.cluster.types.len()];
        }
        self.last_now = view.now;
    }

    /// A new job: half a round on every type, its θ and where it may run.
    fn know(&mut self, view: &View, j: usize) -> Result<(), String> {
        let cluster = view.cluster;
        let spec = &view.jobs[j].spec;
        let n = cluster.types.len();
        let half = self.interval_s / 2.0;
        let theta: Vec<f64> = (0..n).map(|t| throughput(spec, cluster, t)).collect();
        let placeable: Vec<bool> = (0..n).map(|t| placeable_on(spec, cluster, t)).collect();
        if !placeable.iter().any(|&p| p) {
            let most: Vec<String> = (0..n)
                .map(|t| {
                    format!(
                        "{} {}",
                        smd_format::num(f64::from(largest_config(cluster, t))),
                        cluster.types[t].0.label()
                    )
                })
                .collect();
            return Err(format!(
                "job {}: Gavel cannot place {} GPUs of any type (the largest configurations: {})",
                spec.name,
                smd_format::num(f64::from(spec.gpus)),
                most.join(", ")
            ));
        }
        for c in self.cluster_time.iter_mut() {
            *c += half;
        }
        self.known.insert(
            j,
            Known {
                time: vec![half; n],
                theta,
                placeable,
            },
        );
        Ok(())
    }

    /// The rounded LP answer per active job (active order) and type (cluster order).
    fn shares(&self, view: &View) -> Result<Vec<Vec<f64>>, String> {
        let cluster = view.cluster;
        let n = cluster.types.len();
        let mut rows: Vec<usize> = (0..view.active.len()).collect();
        rows.sort_by(|&a, &b| {
            let (ja, jb) = (view.active[a], view.active[b]);
            view.jobs[ja]
                .spec
                .name
                .cmp(&view.jobs[jb].spec.name)
                .then(ja.cmp(&jb))
        });
        let mut columns: Vec<usize> = (0..n).collect();
        columns.sort_by_key(|&t| cluster.types[t].0.artifact_key());
        let theta: Vec<Vec<f64>> = rows
            .iter()
            .map(|&a| {
                let k = &self.known[&view.active[a]];
                columns.iter().map(|&t| k.theta[t]).collect()
            })
            .collect();
        let need: Vec<u32> = rows
            .iter()
            .map(|&a| view.jobs[view.active[a]].spec.gpus)
            .collect();
        let cap: Vec<f64> = columns
            .iter()
            .map(|&t| f64::from(cluster.gpus(t)))
            .collect();
        let solved = max_sum_throughput(&theta, &need, &cap)?;
        let mut x = vec![vec![0.0; n]; view.active.len()];
        for (row, &a) in solved.iter().zip(&rows) {
            for (&v, &t) in row.iter().zip(&columns) {
                x[a][t] = rounded(v);
            }
        }
        Ok(x)
    }
}

impl Policy for Gavel {
    fn decide(&mut self, view: &View) -> Result<Decision, String> {
        self.start(view);
        let cluster = view.cluster;
        let n = cluster.types.len();
        if n > TYPES {
            return Err(format!("Gavel takes at most {TYPES} GPU types, not {n}"));
        }
        for &j in view.active {
            if !self.known.contains_key(&j) {
                self.know(view, j)?;
            }
        }
        let x = self.shares(view)?;
        let active = view.active;
        let priority: Vec<Vec<f64>> = (0..n)
            .map(|t| {
                active
                    .iter()
                    .enumerate()
                    .map(|(a, j)| {
                        let share = self.known[j].time[t] / self.cluster_time[t];
                        if x[a][t] > 0.0 && share > 0.0 {
                            x[a][t] / share
                        } else if x[a][t] > 0.0 {
                            x[a][t] * 1e9
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        let by_type: Vec<Vec<f64>> = (0..n)
            .map(|t| (0..active.len()).map(|a| x[a][t]).collect())
            .collect();
        let need: Vec<u32> = active.iter().map(|&j| view.jobs[j].spec.gpus).collect();
        let free: Vec<u32> = (0..n).map(|t| cluster.gpus(t)).collect();
        let placeable = |a: usize, t: usize| self.known[&active[a]].placeable[t];
        let taken = fill(&priority, &by_type, &need, &free, &placeable);

        let mut placed: Vec<Option<usize>> = vec![None; active.len()];
        let mut workers: BTreeMap<usize, (usize, Vec<u32>)> = BTreeMap::new();
        let mut taken_ids: Vec<Vec<bool>> = Vec::with_capacity(n);
        let mut moved = Vec::new();
        for (t, &(g, _)) in cluster.types.iter().enumerate() {
            let scheduled: Vec<(usize, u32)> = taken
                .iter()
                .filter(|&&(_, k)| k == t)
                .map(|&(a, _)| (active[a], need[a]))
                .collect();
            let previous: BTreeMap<usize, Vec<u32>> = scheduled
                .iter()
                .filter_map(|&(j, _)| match self.workers.get(&j) {
                    Some((k, ids)) if *k == t => Some((j, ids.clone())),
                    _ => None,
                })
                .collect();
            let assigned = assign_workers(&scheduled, &previous, cluster.gpus(t))
                .ok_or_else(|| format!("Gavel ran out of {} workers", g.label()))?;
            let mut used = vec![false; cluster.gpus(t) as usize];
            for w in assigned.iter().flat_map(|(_, ids)| ids) {
                used[*w as usize] = true;
            }
            for (j, ids) in &assigned {
                for &w in ids {
                    used[w as usize] = false;
                }
                if let Some(new) = readable_ids(&view.jobs[*j].spec, g, ids, &mut used) {
                    if new != *ids {
                        moved.push(*j);
                    }
                    workers.insert(*j, (t, new));
                }
            }
            taken_ids.push(used);
        }
        // A job the measured nodes could not hold waits; what it left goes, in the fill's
        // order, to the jobs still waiting (none on the reference's clusters).
        if workers.len() < taken.len() {
            for (a, t) in entries(&priority, &by_type) {
                let (j, g) = (active[a], cluster.types[t].0);
                let free = taken_ids[t].iter().filter(|&&u| !u).count();
                if workers.contains_key(&j) || !placeable(a, t) || need[a] as usize > free {
                    continue;
                }
                let first: Vec<u32> = (0..taken_ids[t].len())
                    .filter(|&w| !taken_ids[t][w])
                    .take(need[a] as usize)
                    .map(|w| w as u32)
                    .collect();
                let spec = &view.jobs[j].spec;
                if let Some(ids) = readable_ids(spec, g, &first, &mut taken_ids[t]) {
                    moved.push(j);
                    workers.insert(j, (t, ids));
                }
            }
        }
        let mut alloc = Vec::with_capacity(active.len());
        for (a, &j) in active.iter().enumerate() {
            let Some((t, ids)) = workers.get(&j) else {
                alloc.push((j, None));
                continue;
            };
            placed[a] = Some(*t);
            let per = cluster.types[*t].0.per_node();
            alloc.push((j, Some((*t, on_nodes(ids, per)))));
        }
        self.round = Some(Round {
            jobs: active.to_vec(),
            theta: active.iter().map(|j| self.known[j].theta.clone()).collect(),
            x,
            priority: (0..active.len())
                .map(|a| (0..n).map(|t| priority[t][a]).collect())
                .collect(),
            cluster_time: self.cluster_time.clone(),
            placed,
            moved,
        });
        for (j, (t, _)) in &workers {
            if let Some(k) = self.known.get_mut(j) {
                k.time[*t] += self.interval_s;
            }
            self.cluster_time[*t] += self.interval_s;
        }
        self.workers = workers;
        Ok(Decision {
            alloc,
            proven: None,
        })
    }
}

#[cfg(test)]
mod tests;
