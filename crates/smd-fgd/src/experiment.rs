//! One run of the experiment and its tables (docs/MODEL.md §26.6–§26.7).

use crate::data::{Node, Pod};
use crate::frag::{compile, node_buckets, sum_except_q3, CompiledType};
use crate::policy::{
    bestfit_raw, clustering_score, dotprod_score, fgd_bestfit_choice, fgd_choice, normalize,
    packing_score, share_bestfit_score, NodeState, PodReq, Policy,
};
use crate::workload::{arrivals, target_workload, TargetType, TaskType, WorkloadError};
use std::collections::HashMap;

/// How often (in pods) a run reports progress.
pub const PROGRESS_EVERY: usize = 256;

/// What the reference logs after each pod, rounded as it logs it (§26.6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    /// Cumulative arrived GPU request, milli (failed pods included).
    pub arrived_milli: i64,
    /// Allocated GPU milli.
    pub used_milli: i64,
    /// Allocated GPU in % of capacity, rounded to 2 decimals.
    pub alloc_pct: f64,
    /// Σ_n F_n(M), milli, rounded to 2 decimals.
    pub frag_milli: f64,
    /// 100·frag/idle, rounded to 2 decimals (0 when nothing is idle).
    pub frag_ratio_pct: f64,
    /// Whether the pod was placed.
    pub placed: bool,
}

/// One column x of the tables.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// Arrived GPU request in whole % of capacity.
    pub x: u32,
    /// GPU allocation, % of capacity.
    pub allocation_pct: f64,
    /// Unallocated GPUs: `(100 − allocation)/100 × GPUs`.
    pub unallocated_gpus: f64,
    /// Fragmentation amount, % of capacity.
    pub frag_amount_pct: f64,
    /// Fragmentation ratio, % of idle GPU.
    pub frag_ratio_pct: f64,
}

/// The result of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// The policy.
    pub policy: Policy,
    /// The seed.
    pub seed: i64,
    /// Clones appended (or pods removed, negative) by the tuning.
    pub clones: i64,
    /// Pods submitted.
    pub submitted: usize,
    /// Pods that found no node.
    pub failed: usize,
    /// One record per submitted pod.
    pub records: Vec<Record>,
    /// The tables, one point per x in 0 ..= round(100 × target) that has records.
    pub points: Vec<Point>,
}

/// Why a run did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The workload could not be built.
    Workload(WorkloadError),
    /// The progress callback asked to stop.
    Cancelled,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Workload(e) => e.fmt(f),
            RunError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for RunError {}

/// A cluster and a pod list compiled once, for any number of runs.
#[derive(Clone, Debug)]
pub struct Prepared {
    nodes: Vec<Node>,
    pods: Vec<Pod>,
    /// The target workload M.
    pub target: Vec<TargetType>,
    m: Vec<CompiledType>,
    reqs: Vec<PodReq>,
    classes: usize,
    /// The most entries of the fragmentation policies' score cache ([`MAX_CACHE`]).
    max_cache: usize,
    initial: Vec<NodeState>,
    /// The cluster's GPUs.
    pub gpus: i64,
}

impl Prepared {
    /// Compile the cluster and the pods.
    pub fn new(nodes: &[Node], pods: &[Pod]) -> Prepared {
        let mut models: Vec<String> = Vec::new();
        let mut model_of = |name: &str| match models.iter().position(|m| m == name) {
            Some(i) => i,
            None => {
                models.push(name.to_string());
                models.len() - 1
            }
        };
        let ids: Vec<usize> = nodes.iter().map(|n| model_of(&n.model)).collect();
        let initial = nodes
            .iter()
            .zip(&ids)
            .map(|(n, &model)| NodeState {
                cpu_left: n.cpu_milli,
                mem_left: n.memory_mib,
                pods: 0,
                model,
                free: vec![1000; n.gpus as usize],
                tags: Vec::new(),
            })
            .collect();
        let target = target_workload(pods);
        let m = compile(&target, &models);
        let mut class_of: HashMap<TaskType, usize> = HashMap::new();
        let mut access_of: HashMap<String, Vec<bool>> = HashMap::new();
        let reqs = pods
            .iter()
            .map(|p| {
                let n = class_of.len();
                let class = *class_of.entry(TaskType::of(p)).or_insert(n);
                let access = access_of
                    .entry(p.gpu_spec.clone())
                    .or_insert_with(|| {
                        models
                            .iter()
                            .map(|md| crate::frag::accessible(md, &p.gpu_spec))
                            .collect()
                    })
                    .clone();
                PodReq {
                    cpu: p.cpu_milli,
                    mem: p.memory_mib,
                    num: p.num_gpu,
                    milli: p.gpu_milli,
                    access,
                    class,
                }
            })
            .collect();
        let gpus = nodes.iter().map(|n| n.gpus as i64).sum();
        Prepared {
            nodes: nodes.to_vec(),
            pods: pods.to_vec(),
            target,
            m,
            reqs,
            classes: class_of.len(),
            max_cache: MAX_CACHE,
            initial,
            gpus,
        }
    }

    /// The compiled target workload.
    pub fn compiled_target(&self) -> &[CompiledType] {
        &self.m
    }

    /// The nodes' initial states.
    pub fn initial_states(&self) -> &[NodeState] {
        &self.initial
    }

    /// The pods compiled, in the input's order.
    pub fn requests(&self) -> &[PodReq] {
        &self.reqs
    }

    /// The submission sequence of `seed` tuned to `target` (§26.3): the compiled pods in
    /// the order they arrive.
    pub fn sequence(&self, seed: i64, target: f64) -> Result<Vec<&PodReq>, RunError> {
        let (arr, _) =
            arrivals(&self.nodes, &self.pods, seed, target).map_err(RunError::Workload)?;
        Ok(arr
            .order
            .iter()
            .map(|&i| &self.reqs[arr.sorted[i]])
            .collect())
    }

    /// One run. `progress(done, total)` is called every [`PROGRESS_EVERY`] pods and at the
    /// end; returning `false` cancels the run.
    pub fn run(
        &self,
        policy: Policy,
        seed: i64,
        target: f64,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Experiment, RunError> {
        self.run_to(policy, seed, target, usize::MAX, progress)
            .map(|(e, _)| e)
    }

    /// The nodes' states after the first `pods` pods of the run (all of them when
    /// `pods` is larger), with the run so far: what a map of the cluster at one moment
    /// draws.
    pub fn state_after(
        &self,
        policy: Policy,
        seed: i64,
        target: f64,
        pods: usize,
    ) -> Result<(Experiment, Vec<NodeState>), RunError> {
        self.run_to(policy, seed, target, pods, &mut |_, _| true)
    }

    /// The run up to its first `stop` pods, and the nodes' states then.
    fn run_to(
        &self,
        policy: Policy,
        seed: i64,
        target: f64,
        stop: usize,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<(Experiment, Vec<NodeState>), RunError> {
        let (arr, mut rng) =
            arrivals(&self.nodes, &self.pods, seed, target).map_err(RunError::Workload)?;
        let mut sim = Sim::new(self, policy);
        let total = arr.order.len();
        let mut records = Vec::with_capacity(total.min(stop));
        let mut arrived = 0i64;
        let mut failed = 0;
        for (step, &idx) in arr.order.iter().enumerate().take(stop) {
            if step % PROGRESS_EVERY == 0 && !progress(step, total) {
                return Err(RunError::Cancelled);
            }
            let pod = &self.reqs[arr.sorted[idx]];
            arrived += pod.gpu_total();
            let placed = sim.schedule(pod, &arr.rank, &mut rng);
            if !placed {
                failed += 1;
            }
            records.push(sim.record(arrived, placed));
        }
        if !progress(total.min(stop), total) {
            return Err(RunError::Cancelled);
        }
        let xmax = (100.0 * target).round().clamp(0.0, 100_000.0) as u32;
        let points = tables(&records, self.gpus, xmax);
        let clones = arr.clones as i64 - arr.removed as i64;
        Ok((
            Experiment {
                policy,
                seed,
                clones,
                submitted: records.len(),
                failed,
                records,
                points,
            },
            sim.nodes,
        ))
    }
}

/// The mutable state of one run.
struct Sim<'a> {
    p: &'a Prepared,
    policy: Policy,
    nodes: Vec<NodeState>,
    frag: Vec<f64>,
    idle: Vec<f64>,
    free_total: i64,
    capacity: i64,
    /// The fragmentation policies' cache: per node and pod class, score·256 + GPU + 1 (0 =
    /// unknown); empty past [`MAX_CACHE`] entries.
    cache: Vec<u32>,
    scores: Vec<i64>,
    feasible: Vec<usize>,
}

/// The most entries of the fragmentation policies' score cache (64 MB): lists with more
/// nodes × distinct pod kinds are scored without it, slower but in bounded memory.
const MAX_CACHE: usize = 1 << 24;

impl<'a> Sim<'a> {
    fn new(p: &'a Prepared, policy: Policy) -> Self {
        let nodes = p.initial.clone();
        let mut frag = Vec::with_capacity(nodes.len());
        let mut idle = Vec::with_capacity(nodes.len());
        for n in &nodes {
            let b = node_buckets(n.cpu_left, &n.free, n.model, &p.m);
            frag.push(sum_except_q3(&b));
            idle.push(b.iter().sum());
        }
        let free_total = nodes.iter().map(NodeState::free_total).sum();
        let cache = match nodes.len().checked_mul(p.classes) {
            Some(len) if policy.scores_fragmentation() && len <= p.max_cache => vec![0; len],
            _ => vec![],
        };
        Sim {
            p,
            policy,
            nodes,
            frag,
            idle,
            free_total,
            capacity: p.gpus * 1000,
            cache,
            scores: Vec::new(),
            feasible: Vec::new(),
        }
    }

    /// FGD's score and GPU for node `n`, from the cache when the node has not changed.
    fn fgd(&mut self, n: usize, pod: &PodReq) -> (i64, Option<usize>) {
        // Without a cache (too many nodes × pod classes) every score is computed.
        let slot = (!self.cache.is_empty()).then(|| n * self.p.classes + pod.class);
        if let Some(v) = slot.map(|k| self.cache[k]).filter(|&v| v != 0) {
            let gpu = (v & 0xff) as usize;
            return ((v >> 8) as i64, gpu.checked_sub(1));
        }
        let choice = if self.policy == Policy::FgdBestFit {
            fgd_bestfit_choice
        } else {
            fgd_choice
        };
        let (s, gpus) = choice(&self.nodes[n], pod, self.frag[n], &self.p.m);
        let gpu = if pod.is_sharing() {
            gpus.first().copied()
        } else {
            None
        };
        if let Some(k) = slot {
            self.cache[k] = ((s.clamp(0, 0xff_ffff) as u32) << 8) | gpu.map_or(0, |g| g as u32 + 1);
        }
        (s, gpu)
    }

    /// Place one pod; returns whether it found a node.
    fn schedule(&mut self, pod: &PodReq, rank: &[usize], rng: &mut crate::gorand::GoRand) -> bool {
        self.feasible.clear();
        for (i, n) in self.nodes.iter().enumerate() {
            if n.feasible(pod) {
                self.feasible.push(i);
            }
        }
        let feasible = std::mem::take(&mut self.feasible);
        let chosen = match feasible.len() {
            0 => None,
            1 => Some(feasible[0]),
            len if self.policy == Policy::Random => Some(feasible[rng.intn(len)]),
            _ => Some(self.best_node(&feasible, pod, rank)),
        };
        self.feasible = feasible;
        let Some(n) = chosen else { return false };
        let gpus = self.gpus_for(n, pod, rng);
        self.nodes[n].bind(pod, &gpus);
        self.free_total -= pod.milli * gpus.len() as i64;
        let node = &self.nodes[n];
        let b = node_buckets(node.cpu_left, &node.free, node.model, &self.p.m);
        self.frag[n] = sum_except_q3(&b);
        self.idle[n] = b.iter().sum();
        if !self.cache.is_empty() {
            let row = n * self.p.classes;
            self.cache[row..row + self.p.classes].fill(0);
        }
        true
    }

    /// The highest score among the feasible nodes; ties go to the smallest rank.
    fn best_node(&mut self, feasible: &[usize], pod: &PodReq, rank: &[usize]) -> usize {
        if self.policy == Policy::FgdBestFit && pod.is_sharing() {
            if let Some(n) = self.dead_slice_fit(feasible, pod, rank) {
                return n;
            }
        }
        let mut scores = std::mem::take(&mut self.scores);
        scores.clear();
        for &n in feasible {
            let node = &self.nodes[n];
            let s = match self.policy {
                Policy::DotProd => dotprod_score(node, pod),
                Policy::Clustering => clustering_score(node, pod),
                Policy::Packing => packing_score(node, pod),
                Policy::BestFit => bestfit_raw(node, pod),
                Policy::Fgd | Policy::FgdBestFit => self.fgd(n, pod).0,
                Policy::ShareBestFit => share_bestfit_score(node, pod),
                Policy::Random => 0,
            };
            scores.push(s);
        }
        if self.policy == Policy::BestFit {
            normalize(&mut scores);
        }
        let mut best = feasible[0];
        let mut best_key = (scores[0], std::cmp::Reverse(rank[best]));
        for (&n, &s) in feasible.iter().zip(&scores).skip(1) {
            let key = (s, std::cmp::Reverse(rank[n]));
            if key > best_key {
                best_key = key;
                best = n;
            }
        }
        self.scores = scores;
        best
    }

    /// `fgd_bestfit`'s first rule (§26.11): the node with a GPU that the shared pod leaves
    /// with less free milli than the smallest share the target workload expects — a slice
    /// no expected pod can use — the least such, ties by rank; `None` when no GPU does.
    fn dead_slice_fit(&self, feasible: &[usize], pod: &PodReq, rank: &[usize]) -> Option<usize> {
        let smallest = self
            .p
            .m
            .iter()
            .filter(|t| t.num > 0 && t.milli > 0)
            .map(|t| t.milli)
            .min()?;
        let mut best: Option<(i64, usize, usize)> = None;
        for &n in feasible {
            let left = self.nodes[n]
                .free
                .iter()
                .filter(|&&g| g >= pod.milli)
                .map(|&g| g - pod.milli)
                .min();
            if let Some(l) = left.filter(|&l| l < smallest) {
                if best.is_none_or(|(bl, br, _)| (l, rank[n]) < (bl, br)) {
                    best = Some((l, rank[n], n));
                }
            }
        }
        best.map(|(_, _, n)| n)
    }

    /// The GPU indices a pod gets on node `n` (§26.4).
    fn gpus_for(&mut self, n: usize, pod: &PodReq, rng: &mut crate::gorand::GoRand) -> Vec<usize> {
        if !pod.is_sharing() {
            return self.nodes[n].best_gpus(pod);
        }
        match self.policy {
            Policy::Fgd | Policy::FgdBestFit => self.fgd(n, pod).1.into_iter().collect(),
            Policy::Random => {
                // Reservoir sampling in index order: keep the c-th fitting GPU when
                // Intn(c) = 0.
                let mut pick = None;
                let mut count = 0;
                for (i, &g) in self.nodes[n].free.iter().enumerate() {
                    if g >= pod.milli {
                        count += 1;
                        if rng.intn(count) == 0 {
                            pick = Some(i);
                        }
                    }
                }
                pick.into_iter().collect()
            }
            _ => self.nodes[n].best_gpus(pod),
        }
    }

    fn record(&self, arrived: i64, placed: bool) -> Record {
        let used = self.capacity - self.free_total;
        let frag: f64 = self.frag.iter().sum();
        let idle: f64 = self.idle.iter().sum();
        let ratio = if idle > 0.0 { 100.0 * frag / idle } else { 0.0 };
        Record {
            arrived_milli: arrived,
            used_milli: used,
            alloc_pct: round2(used as f64 / self.p.gpus as f64 / 10.0),
            frag_milli: round2(frag),
            frag_ratio_pct: round2(ratio),
            placed,
        }
    }
}

/// Round to 2 decimals the way Python's `round(x, 2)` and Go's `%.2f` do: the exact
/// binary value, ties to even.
pub fn round2(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.2}").parse().unwrap_or(x)
}

/// The arrived share in whole % of capacity: `arrived/(GPUs·10)` rounded half to even.
pub fn arrive_pct(arrived_milli: i64, gpus: i64) -> i64 {
    let d = gpus.max(1) * 10;
    let (q, r) = (arrived_milli.div_euclid(d), arrived_milli.rem_euclid(d));
    match (2 * r).cmp(&d) {
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal if q % 2 != 0 => q + 1,
        _ => q,
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The published post-processing (§26.7): for each x, the records whose arrival rounds to
/// x, else those within x ± 1; allocation and amount rounded to 2 decimals, the ratio not.
pub fn tables(records: &[Record], gpus: i64, xmax: u32) -> Vec<Point> {
    let arrived: Vec<i64> = records.iter().map(|r| r.arrived_milli).collect();
    let mut points = Vec::new();
    for (x, members) in columns(&arrived, gpus, xmax) {
        let x = x as i64;
        let group: Vec<&Record> = members.iter().map(|&i| &records[i]).collect();
        let alloc = round2(mean(&group.iter().map(|r| r.alloc_pct).collect::<Vec<_>>()));
        let frag = mean(&group.iter().map(|r| r.frag_milli).collect::<Vec<_>>());
        let ratio = mean(&group.iter().map(|r| r.frag_ratio_pct).collect::<Vec<_>>());
        points.push(Point {
            x: x as u32,
            allocation_pct: alloc,
            unallocated_gpus: (100.0 - alloc) / 100.0 * gpus as f64,
            frag_amount_pct: round2(100.0 * frag / 1000.0 / gpus as f64),
            frag_ratio_pct: ratio,
        });
    }
    points
}

/// The records of each column x in 0 ..= `xmax` (§26.7), from each record's arrived milli:
/// those whose arrival rounds to x, else those within x ± 1; columns without records left
/// out.
pub fn columns(arrived: &[i64], gpus: i64, xmax: u32) -> Vec<(u32, Vec<usize>)> {
    let pct: Vec<i64> = arrived.iter().map(|&a| arrive_pct(a, gpus)).collect();
    let mut by_x: HashMap<i64, Vec<usize>> = HashMap::new();
    for (i, &x) in pct.iter().enumerate() {
        by_x.entry(x).or_default().push(i);
    }
    (0..=xmax)
        .filter_map(|x| {
            let group = match by_x.get(&(x as i64)) {
                Some(g) => g.clone(),
                None => (0..pct.len())
                    .filter(|&i| (pct[i] - x as i64).abs() <= 1)
                    .collect(),
            };
            (!group.is_empty()).then_some((x, group))
        })
        .collect()
}

/// The mean over runs, per x (only the x every run has).
pub fn mean_points(runs: &[Experiment]) -> Vec<Point> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in &first.points {
        let same: Vec<&Point> = runs
            .iter()
            .filter_map(|r| r.points.iter().find(|q| q.x == p.x))
            .collect();
        if same.len() != runs.len() {
            continue;
        }
        let avg = |f: fn(&Point) -> f64| same.iter().map(|q| f(q)).sum::<f64>() / same.len() as f64;
        out.push(Point {
            x: p.x,
            allocation_pct: avg(|q| q.allocation_pct),
            unallocated_gpus: avg(|q| q.unallocated_gpus),
            frag_amount_pct: avg(|q| q.frag_amount_pct),
            frag_ratio_pct: avg(|q| q.frag_ratio_pct),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::bundled;
    use crate::{parse_nodes, parse_pods};

    /// Lists past the cache's size are scored without it, to the same runs.
    #[test]
    fn the_fragmentation_policies_run_the_same_without_their_cache() {
        let nodes = parse_nodes(bundled::NODES).unwrap();
        let pods = parse_pods(bundled::PODS).unwrap();
        let mut p = Prepared::new(&nodes[..200], &pods);
        for policy in [Policy::Fgd, Policy::FgdBestFit] {
            assert!(policy.scores_fragmentation());
            p.max_cache = MAX_CACHE;
            let cached = p.run(policy, 42, 0.6, &mut |_, _| true).unwrap();
            p.max_cache = 0;
            let uncached = p.run(policy, 42, 0.6, &mut |_, _| true).unwrap();
            assert!(cached.records.len() > 100, "{}", policy.name());
            assert_eq!(cached, uncached, "{}", policy.name());
        }
    }
}
