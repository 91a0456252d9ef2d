//! Heterogeneity-unaware Pollux (MODEL.md §24.6; the Sia artifact's `cluster_unaware.py` and
//! `pollux_unaware.py`) as a policy of `smd-hetero`'s loop: Pollux's problem (POLLUX-SIM.md
//! §4.3, docs/MODEL.md §23) solved on *virtual* nodes that hide the GPU types, then a fix
//! that keeps each job on one type.
//!
//! - **Virtual nodes** (§6.1): a virtual node has as many GPUs as the smallest node of the
//!   cluster (4 with the catalog's types); each real node of a type with `per_node` GPUs is
//!   `per_node / 4` of them, numbered in the cluster's order of types, then nodes.
//! - **Jobs** (§6.2): one learner per job, every type's steps merged into it (run the loop
//!   with `Rules { merged_profile: true, .. }`); its speedups are its model goodput with
//!   the T4's application constants (initial and largest batch, the T4 table's local
//!   batches) over the fair share's; before its first step R / R_f. Its cap is
//!   min(max(2 · the most GPUs it has run on, 1), the cluster-wide cap, ⌊largest batch /
//!   smallest local batch⌋) (ncf 1), the cluster-wide cap being the fewest GPUs any type
//!   has within its measured nodes (16 on the default cluster). The restart estimate is
//!   30 s for every model, p = −1.
//! - **The search** is the project's own ([`search::optimise`], MODEL.md §23): the
//!   knapsack bound, packing, local search — deterministic; the reference's NSGA-II is
//!   not (numpy's RNG is never seeded, MODEL.md §24.6). Virtual nodes look alike to the
//!   problem, so among equally fit allocations the search's own order decides where a job
//!   lands (best fit, the lower virtual node first: in the cluster's order of types, a lone
//!   new job on the first type), where NSGA-II's random mutations land it anywhere.
//! - **The type fix** (§6.4, `fix_allocations_by_dropping`): each job keeps the GPUs of the
//!   type it has most of; on equal counts the types keep the order they are first met in
//!   (virtual nodes in order) and only the first two are compared, the one of lower
//!   [`Gpu::preference`] kept. The other GPUs stay idle this tick. The fixed virtual
//!   allocation is the next tick's current one; on the real cluster it is the type and the
//!   GPUs on each of its nodes (two virtual nodes of one 8-GPU node are one node). A job
//!   over more nodes than the type's measurements cover is spread again, ⌈R / measured
//!   nodes⌉ GPUs per node ([`respread`], §1.3; never on the default cluster).

use super::pollux::search::{self, JobCosts, Problem};
use super::pollux::{fair_share, fill_costs, order};
use smd_hetero::cluster::Cluster;
use smd_hetero::engine::{Decision, Policy, View};
use smd_hetero::job::Job;
use smd_measured::app::App;
use smd_measured::gpu::Gpu;
use smd_measured::measured::{Learner, Measured};

/// The scheduler's restart estimate, s, for every model (MODEL.md §24.1, §6.3).
const RESTART_S: f64 = 30.0;

/// The GPU type whose application constants the speedups use (MODEL.md §24.6: `aws`).
const MODEL_GPU: Gpu = Gpu::T4;

/// Where a job is on the real cluster: its type's index and the GPUs on each of the type's
/// nodes by node index (`smd_hetero::engine::Decision`'s form), or nowhere.
pub(crate) type Place = Option<(usize, Vec<u32>)>;

/// A virtual node: a real node's share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VNode {
    /// Its type's index in the cluster.
    pub kind: usize,
    /// Its real node among the type's, from 0.
    pub node: u32,
}

/// The cluster's virtual nodes (§6.1): their GPUs each (the fewest GPUs per node of any
/// type) and, in order, the real node each is part of.
pub(crate) fn vnodes(cluster: &Cluster) -> (u32, Vec<VNode>) {
    let gpus = cluster
        .types
        .iter()
        .map(|(g, _)| g.per_node())
        .min()
        .unwrap_or(1)
        .max(1);
    let mut map = Vec::new();
    for (kind, &(g, nodes)) in cluster.types.iter().enumerate() {
        for node in 0..nodes {
            for _ in 0..g.per_node() / gpus {
                map.push(VNode { kind, node });
            }
        }
    }
    (gpus, map)
}

/// The type the fix keeps for a virtual row (§6.4), `None` for an empty row: the type of
/// most GPUs; on equal counts, of the types in the order first met, the second instead of
/// the first when it is preferred ([`Gpu::preference`], lower first). Only the first two
/// are compared, as the reference compares them.
pub(crate) fn kept_type(row: &[u32], map: &[VNode], cluster: &Cluster) -> Option<usize> {
    // (type index, GPUs) in the order first met.
    let mut counts: Vec<(usize, u32)> = Vec::new();
    for (v, &g) in row.iter().enumerate().filter(|(_, &g)| g > 0) {
        let kind = map[v].kind;
        match counts.iter_mut().find(|(k, _)| *k == kind) {
            Some(c) => c.1 += g,
            None => counts.push((kind, g)),
        }
    }
    // Most GPUs first; a stable sort keeps equal counts in the order first met.
    counts.sort_by_key(|&(_, g)| std::cmp::Reverse(g));
    let first = *counts.first()?;
    let preference = |k: usize| cluster.types[k].0.preference();
    match counts.get(1) {
        Some(&second) if second.1 == first.1 && preference(second.0) < preference(first.0) => {
            Some(second.0)
        }
        _ => Some(first.0),
    }
}

/// The type fix (§6.4): `row` with the GPUs of every type but the kept one dropped.
pub(crate) fn fix_type(row: &mut [u32], map: &[VNode], cluster: &Cluster) {
    if let Some(kind) = kept_type(row, map, cluster) {
        for (v, g) in row.iter_mut().enumerate() {
            if map[v].kind != kind {
                *g = 0;
            }
        }
    }
}

/// A fixed virtual row on the real cluster: its type's index and the GPUs on each of the
/// type's nodes, by node index up to the last one used (`None` for an empty row).
pub(crate) fn placement_of(row: &[u32], map: &[VNode], cluster: &Cluster) -> Place {
    let first = row.iter().position(|&g| g > 0)?;
    let kind = map[first].kind;
    let mut per_node: Vec<u32> = Vec::new();
    for (v, &g) in row.iter().enumerate().filter(|(_, &g)| g > 0) {
        debug_assert_eq!(map[v].kind, kind, "a row over two types");
        let n = map[v].node as usize;
        if per_node.len() <= n {
            per_node.resize(n + 1, 0);
        }
        per_node[n] += g;
    }
    debug_assert!(per_node.len() <= cluster.types[kind].1 as usize);
    Some((kind, per_node))
}

/// §1.3 on the real cluster: a job over more nodes than its type's measurements cover (n)
/// is spread again, ⌈R/n⌉ GPUs per node, on the n nodes of its type with the most GPUs
/// free once its own are given back (the lower node first on ties), as many GPUs as fit
/// there. Never on the default cluster (no type has more nodes than were measured).
pub(crate) fn respread(alloc: &mut [(usize, Place)], cluster: &Cluster) {
    let mut used: Vec<Vec<u32>> = cluster
        .types
        .iter()
        .map(|&(_, n)| vec![0; n as usize])
        .collect();
    for (_, a) in alloc.iter() {
        if let Some((k, p)) = a {
            for (n, &g) in p.iter().enumerate() {
                used[*k][n] += g;
            }
        }
    }
    for (_, a) in alloc.iter_mut() {
        let Some((k, p)) = a else { continue };
        let k = *k;
        let (gpu, _) = cluster.types[k];
        let most = gpu.measured_nodes().max(1) as usize;
        if p.iter().filter(|&&g| g > 0).count() <= most {
            continue;
        }
        for (n, &g) in p.iter().enumerate() {
            used[k][n] -= g;
        }
        let mut left: u32 = p.iter().sum();
        let each = left.div_ceil(most as u32);
        let free = |n: usize| gpu.per_node().saturating_sub(used[k][n]);
        let mut nodes: Vec<usize> = (0..used[k].len()).collect();
        nodes.sort_by_key(|&n| (std::cmp::Reverse(free(n)), n));
        nodes.truncate(most);
        nodes.sort_unstable();
        p.clear();
        for n in nodes {
            let g = each.min(left).min(free(n));
            if p.len() <= n {
                p.resize(n + 1, 0);
            }
            p[n] = g;
            left -= g;
        }
        for (n, &g) in p.iter().enumerate() {
            used[k][n] += g;
        }
    }
}

/// The most GPUs any job may have (§6.2): the fewest GPUs of any type within the nodes
/// its measurements cover.
pub(crate) fn clusterwide_max(cluster: &Cluster) -> u32 {
    cluster
        .types
        .iter()
        .map(|&(g, n)| n.min(g.measured_nodes()).saturating_mul(g.per_node()))
        .min()
        .unwrap_or(0)
}

/// One job's speedup goodputs while its model and gradient statistics stay the same.
#[derive(Default)]
struct Goodputs {
    /// (model version, statistics' bits) they were computed with.
    key: Option<(u32, (u64, u64))>,
    /// The best model goodput on one node (`one`) or several (`many`) at r GPUs (index r;
    /// `None`: not computed yet).
    one: Vec<Option<f64>>,
    many: Vec<Option<f64>>,
}

impl Goodputs {
    /// Cleared when the model or the statistics have changed since.
    fn renew(&mut self, l: &Learner, (sqr, var): (f64, f64)) {
        let key = (l.version(), (sqr.to_bits(), var.to_bits()));
        if self.key != Some(key) {
            self.key = Some(key);
            self.one.clear();
            self.many.clear();
        }
    }

    /// The model goodput of the best batch on `r` GPUs of one node or several with the
    /// statistics `stats` (MODEL.md §24.6: the T4's application constants), 0 without a model.
    fn at(&mut self, m: &Measured, l: &Learner, stats: (f64, f64), spread: bool, r: u32) -> f64 {
        let v = if spread {
            &mut self.many
        } else {
            &mut self.one
        };
        let k = r as usize;
        if v.len() <= k {
            v.resize(k + 1, None);
        }
        *v[k].get_or_insert_with(|| {
            l.estimate(m, if spread { 2 } else { 1 }, r, m.batch_range()[1], stats)
                .unwrap_or(0.0)
        })
    }
}

/// Heterogeneity-unaware Pollux's state across ticks.
#[derive(Default)]
pub(crate) struct Unaware {
    /// The cluster its virtual nodes were made for.
    cluster: Option<Cluster>,
    /// GPUs per virtual node, and each one's real node.
    vnode_gpus: u32,
    map: Vec<VNode>,
    /// Per job of the workload: its fixed virtual row of the last decision (empty: none),
    /// and where that put it on the real cluster.
    rows: Vec<Vec<u32>>,
    decided: Vec<Place>,
    /// GPU-seconds each job has held, restart delays included.
    attained: Vec<f64>,
    /// The previous decision's time.
    last: f64,
    cache: Vec<Goodputs>,
    /// The last tick's problem, its vectors reused by the next.
    problem: Problem,
}

impl Unaware {
    /// A policy that has decided nothing yet.
    pub(crate) fn new() -> Unaware {
        Unaware::default()
    }

    /// Job `i`'s current virtual row: the last decision's, when the job runs where it put
    /// it (else none).
    fn base(&self, i: usize, job: &Job, cluster: &Cluster) -> Vec<u32> {
        let runs = job.gpu.filter(|_| !job.placement.is_empty());
        let same = self.decided[i].as_ref().is_some_and(|(k, p)| {
            Some(cluster.types[*k].0) == runs
                && p.iter()
                    .copied()
                    .filter(|&g| g > 0)
                    .eq(job.placement.iter().copied())
        });
        if same {
            self.rows[i].clone()
        } else {
            vec![0; self.map.len()]
        }
    }
}

impl Policy for Unaware {
    fn decide(&mut self, view: &View) -> Result<Decision, String> {
        let cluster = view.cluster;
        if self.cluster.as_ref() != Some(cluster) {
            let (gpus, map) = vnodes(cluster);
            *self = Unaware {
                cluster: Some(cluster.clone()),
                vnode_gpus: gpus,
                map,
                ..Unaware::default()
            };
        }
        let n = view.jobs.len();
        if self.rows.len() < n {
            self.rows.resize(n, Vec::new());
            self.decided.resize(n, None);
            self.attained.resize(n, 0.0);
            self.cache.resize_with(n, Goodputs::default);
        }
        let now = view.now;
        for &i in view.active {
            self.attained[i] += f64::from(view.jobs[i].gpus()) * (now - self.last);
        }
        self.last = now;
        let order = order(view.active, &self.attained, |i| view.jobs[i].spec.arrival_s);
        let h = self.map.len();
        let node = self.vnode_gpus;
        let mut problem = std::mem::take(&mut self.problem);
        problem.gpus.clear();
        problem.gpus.resize(h, node);
        problem.node = node;
        problem.jobs.resize_with(order.len(), JobCosts::default);
        let total = (h as u32).saturating_mul(node);
        let fair = total.div_ceil((order.len() as u32).max(1)).max(1);
        // The dominant share of a GPU times the nodes (1/64 · 16 on the default cluster).
        let scale = h as f64 / f64::from(total.max(1));
        let widest_cluster = clusterwide_max(cluster);
        for (k, &i) in order.iter().enumerate() {
            let job = &view.jobs[i];
            let m = Measured::on(job.spec.app, MODEL_GPU)
                .map_err(|e| format!("job {}: {e}", job.spec.name))?;
            let learner = job.learner(MODEL_GPU);
            let [_, top] = m.batch_range();
            let widest = (top / m.table_local_range()[0].max(1.0)).floor() as u32;
            let max = if job.spec.app == App::Ncf {
                1
            } else {
                (2 * learner.max_replicas())
                    .max(1)
                    .min(widest_cluster)
                    .min(widest)
            };
            let age = now - job.spec.arrival_s;
            let restarts = f64::from(job.restarts.unwrap_or(0));
            let factor = (age - RESTART_S * restarts).max(0.0) / (age + RESTART_S);
            let base = self.base(i, job, cluster);
            let costs = &mut problem.jobs[k];
            costs.max = max;
            costs.base = base;
            if let (Some(stats), Some(_)) = (job.stats, learner.model()) {
                let g = &mut self.cache[i];
                g.renew(learner, stats);
                let base_goodput = g.at(m, learner, stats, false, fair_share(fair, widest));
                fill_costs(costs, node, factor, scale, |spread, r| {
                    let x = g.at(m, learner, stats, spread, r);
                    if base_goodput > 0.0 {
                        x / base_goodput
                    } else {
                        0.0
                    }
                });
            } else {
                fill_costs(costs, node, factor, scale, |_, r| {
                    f64::from(r) / f64::from(fair)
                });
            }
        }
        let found = search::optimise(&problem);
        debug_assert!(
            problem.feasible(&found.rows),
            "unaware: an infeasible allocation"
        );
        for row in &mut self.rows {
            row.clear();
        }
        self.decided.iter_mut().for_each(|d| *d = None);
        let mut alloc = Vec::with_capacity(order.len());
        for (k, &i) in order.iter().enumerate() {
            let mut row = found.rows[k].clone();
            fix_type(&mut row, &self.map, cluster);
            alloc.push((i, placement_of(&row, &self.map, cluster)));
            self.rows[i] = row;
        }
        alloc.sort_by_key(|a| a.0);
        respread(&mut alloc, cluster);
        for (i, a) in &alloc {
            self.decided[*i].clone_from(a);
        }
        self.problem = problem;
        Ok(Decision {
            alloc,
            proven: None,
        })
    }
}

#[cfg(test)]
mod tests;
