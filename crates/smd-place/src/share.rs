//! GPU sharing (CLUSTER.md §5, seed 002's OJPP): workers of different jobs on shared GPUs.
//!
//! A GPU of memory M may host a set S of one-GPU workers when
//! - memory collisions are rare: `Σ_S mean + z·sqrt(Σ_S sd²) ≤ M`, z the standard normal
//!   quantile of `1 − collision_prob` (each worker's memory over an iteration is modelled
//!   as an independent Gaussian);
//! - every member keeps its performance: the slowdown
//!   `s(S) = max(1, Σ_S util)·(1 + κ·(|S| − 1))` satisfies `1/s ≥ min_performance` of every
//!   member (compute saturation plus a per-co-runner overhead κ).
//!
//! OJPP asks for the fewest GPUs. Algorithms ([`Algorithm`], the scenario's
//! `params.gpu_sharing`): `off` (a GPU per worker), `greedy` (decreasing mean
//! memory, each to the feasible GPU with the least free mean memory, else a new one),
//! `heuristic` (greedy, then repeatedly empty the least-loaded GPU into the others),
//! `exact` (branch and bound over the same order, proven, within a node limit) and, for
//! arrivals and departures, [`Online`]. Pure and deterministic.

use smd_core::scenario::{Mode, DEFAULT_MIN_PERFORMANCE};
use smd_core::sharing::shareable;
use smd_core::Error;
// The rules and the normal distribution are the scenario's model of a shared worker
// (smd-core's `sharing`, which validation also reads); re-exported where they were.
pub use smd_core::sharing::{normal_cdf, normal_quantile, rules_of, Rules};

/// One worker that needs exactly one GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Worker {
    /// Its job's index (for the caller).
    pub job: usize,
    /// Its index within the job.
    pub index: u32,
    /// Mean GPU memory over an iteration, GB.
    pub mem_mean_gb: f64,
    /// Standard deviation of that memory, GB.
    pub mem_sd_gb: f64,
    /// Compute intensity in (0, 1]: the share of the GPU it would use alone.
    pub util: f64,
    /// The share of its standalone speed it must keep, in (0, 1].
    pub min_performance: f64,
}

pub use smd_core::scenario::GpuSharing as Algorithm;

/// A shareable job's worker as the packing sees it (`job`: the caller's index of the job).
pub fn worker_of(j: &smd_core::scenario::Job, job: usize, index: u32) -> Worker {
    Worker {
        job,
        index,
        mem_mean_gb: j.gpu_mem_mean_gb.unwrap_or(0.0),
        mem_sd_gb: j.gpu_mem_sd_gb.unwrap_or(0.0),
        util: j.gpu_util.unwrap_or(1.0),
        min_performance: j.min_performance.unwrap_or(DEFAULT_MIN_PERFORMANCE),
    }
}

/// A job's slowdown from its workers' (docs/MODEL.md §18): a synchronous job runs at its
/// slowest worker's pace, an asynchronous one at their mean; 1 with no shared worker.
pub fn job_slowdown(mode: Mode, workers: &[f64]) -> f64 {
    match mode {
        _ if workers.is_empty() => 1.0,
        Mode::Sync => workers.iter().copied().fold(1.0, f64::max),
        Mode::Async => workers.iter().sum::<f64>() / workers.len() as f64,
    }
}

/// Nodes the exact search may visit before it returns its best packing unproven.
pub const EXACT_MAX_NODES: u64 = 2_000_000;

/// One GPU's occupants and what they do to each other.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Gpu {
    /// Indices into the workers given.
    pub workers: Vec<usize>,
    /// Σ mean memory, GB.
    pub mem_mean_gb: f64,
    /// The spread of the members' memory, sqrt(Σ sd²), GB.
    pub mem_sd_gb: f64,
    /// P(Σ memory > M) under the Gaussian model.
    pub collision_prob: f64,
    /// The members' common slowdown s(S) (1: alone and below saturation).
    pub slowdown: f64,
}

/// A packing.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Packing {
    /// The GPUs used, each with its occupants.
    pub gpus: Vec<Gpu>,
    /// `exact` only: whether the search proved the count least.
    pub proven: Option<bool>,
    /// Workers that fit no GPU even alone (their memory rule fails on an empty GPU, or
    /// their own util exceeds what their min performance allows).
    pub unplaceable: Vec<usize>,
}

/// A GPU's running sums, so that adding a worker is checked in O(1).
#[derive(Clone, Copy, Debug, Default)]
struct Load {
    mean: f64,
    var: f64,
    util: f64,
    count: usize,
    /// The largest min_performance among the members.
    need: f64,
}

impl Load {
    fn with(self, w: &Worker) -> Load {
        Load {
            mean: self.mean + w.mem_mean_gb,
            var: self.var + w.mem_sd_gb * w.mem_sd_gb,
            util: self.util + w.util,
            count: self.count + 1,
            need: self.need.max(w.min_performance),
        }
    }
    fn slowdown(&self, kappa: f64) -> f64 {
        self.util.max(1.0) * (1.0 + kappa * (self.count.max(1) - 1) as f64)
    }
    fn ok(&self, rules: &Rules, z: f64) -> bool {
        const TOL: f64 = 1e-9;
        let mem = self.mean + z * self.var.sqrt() <= rules.gpu_memory_gb * (1.0 + TOL);
        let perf = self.need <= 0.0 || 1.0 / self.slowdown(rules.share_overhead) >= self.need - TOL;
        mem && perf
    }
}

/// Checks the inputs; `z` of the rules.
fn prepare(workers: &[Worker], rules: &Rules) -> Result<f64, Error> {
    let bad = |field: &str, v: f64| {
        Err(Error::Invalid(vec![smd_core::FieldError {
            job: None,
            field: field.into(),
            message: format!("must be a finite number in range (got {v})"),
        }]))
    };
    if !(rules.gpu_memory_gb.is_finite() && rules.gpu_memory_gb > 0.0) {
        return bad("gpu_memory_gb", rules.gpu_memory_gb);
    }
    if !(rules.collision_prob > 0.0 && rules.collision_prob < 1.0) {
        return bad("collision_prob", rules.collision_prob);
    }
    if !(rules.share_overhead.is_finite() && rules.share_overhead >= 0.0) {
        return bad("share_overhead", rules.share_overhead);
    }
    for w in workers {
        for (f, v, ok) in [
            ("gpu_mem_mean_gb", w.mem_mean_gb, w.mem_mean_gb >= 0.0),
            ("gpu_mem_sd_gb", w.mem_sd_gb, w.mem_sd_gb >= 0.0),
            ("gpu_util", w.util, w.util > 0.0 && w.util <= 1.0),
            (
                "min_performance",
                w.min_performance,
                w.min_performance > 0.0 && w.min_performance <= 1.0,
            ),
        ] {
            if !(v.is_finite() && ok) {
                return bad(f, v);
            }
        }
    }
    Ok(normal_quantile(1.0 - rules.collision_prob))
}

/// Packs `workers` on as few GPUs as `algorithm` finds.
pub fn pack(workers: &[Worker], rules: &Rules, algorithm: Algorithm) -> Result<Packing, Error> {
    let z = prepare(workers, rules)?;
    let (order, unplaceable) = sorted(workers, rules, z);
    if order.len() > MIXING_LIMIT && algorithm != Algorithm::Off {
        let proven = (algorithm == Algorithm::Exact).then_some(false);
        let bins = by_job(workers, &order, rules, z);
        return Ok(finish(workers, bins, rules, proven, unplaceable));
    }
    let bins = match algorithm {
        Algorithm::Off => order
            .iter()
            .map(|&i| (Load::default().with(&workers[i]), vec![i]))
            .collect(),
        Algorithm::Greedy => greedy(workers, &order, rules, z),
        Algorithm::Heuristic => {
            let mut bins = greedy(workers, &order, rules, z);
            empty_least_loaded(workers, &mut bins, rules, z);
            bins
        }
        Algorithm::Exact => {
            let mut start = greedy(workers, &order, rules, z);
            empty_least_loaded(workers, &mut start, rules, z);
            let (bins, proven) = exact(workers, &order, rules, z, start);
            return Ok(finish(workers, bins, rules, Some(proven), unplaceable));
        }
    };
    Ok(finish(workers, bins, rules, None, unplaceable))
}

/// Above this many workers to pack, [`pack`] packs each job's workers only among
/// themselves: linear time, where best fit and the emptying heuristic are quadratic
/// (docs/BENCHMARKS.md §9) — a job of 7·10^5 one-GPU workers took minutes (issue 23's
/// soak, seed 2 input 87 279). A valid packing, not the fewest GPUs; `exact` then says
/// `proven: false`.
pub const MIXING_LIMIT: usize = 4096;

/// Each job's workers (in `order` within the job) next fit on GPUs of their own: a GPU
/// takes the job's next worker while both rules hold. O(n log n) for the grouping.
fn by_job(workers: &[Worker], order: &[usize], rules: &Rules, z: f64) -> Bins {
    let mut order = order.to_vec();
    order.sort_by_key(|&i| workers[i].job);
    let mut bins: Bins = Vec::new();
    let mut open: Option<usize> = None;
    for i in order {
        let w = &workers[i];
        if let Some(b) = open.filter(|&b| workers[bins[b].1[0]].job == w.job) {
            let load = bins[b].0.with(w);
            if load.ok(rules, z) {
                bins[b].0 = load;
                bins[b].1.push(i);
                continue;
            }
        }
        bins.push((Load::default().with(w), vec![i]));
        open = Some(bins.len() - 1);
    }
    bins
}

/// Workers by decreasing mean memory (ties: index), and those that fit no GPU alone.
fn sorted(workers: &[Worker], rules: &Rules, z: f64) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..workers.len()).collect();
    order.sort_by(|&a, &b| {
        workers[b]
            .mem_mean_gb
            .total_cmp(&workers[a].mem_mean_gb)
            .then(a.cmp(&b))
    });
    let (ok, bad): (Vec<usize>, Vec<usize>) = order
        .into_iter()
        .partition(|&i| Load::default().with(&workers[i]).ok(rules, z));
    (ok, bad)
}

type Bins = Vec<(Load, Vec<usize>)>;

/// Best fit: each worker to the feasible GPU with the least free mean memory.
fn greedy(workers: &[Worker], order: &[usize], rules: &Rules, z: f64) -> Bins {
    let mut bins: Bins = Vec::new();
    for &i in order {
        place_best_fit(workers, &mut bins, i, rules, z, None);
    }
    bins
}

/// Puts worker i on the feasible GPU (other than `skip`) with the least free mean memory,
/// or on a new GPU when `skip` is `None`; `false` if it fits none (with `skip` set).
fn place_best_fit(
    workers: &[Worker],
    bins: &mut Bins,
    i: usize,
    rules: &Rules,
    z: f64,
    skip: Option<usize>,
) -> bool {
    let w = &workers[i];
    let best = bins
        .iter()
        .enumerate()
        .filter(|(b, _)| Some(*b) != skip)
        .filter(|(_, (l, _))| l.with(w).ok(rules, z))
        .min_by(|a, b| (b.1 .0.mean).total_cmp(&a.1 .0.mean).then(a.0.cmp(&b.0)))
        .map(|(b, _)| b);
    match (best, skip) {
        (Some(b), _) => {
            bins[b].0 = bins[b].0.with(w);
            bins[b].1.push(i);
            true
        }
        (None, None) => {
            bins.push((Load::default().with(w), vec![i]));
            true
        }
        (None, Some(_)) => false,
    }
}

/// Repeatedly tries to empty the least-loaded GPU by moving each of its workers to another
/// GPU (best fit); stops when the least-loaded one cannot be emptied.
fn empty_least_loaded(workers: &[Worker], bins: &mut Bins, rules: &Rules, z: f64) {
    loop {
        if bins.len() < 2 {
            return;
        }
        let least = (0..bins.len())
            .min_by(|&a, &b| bins[a].0.mean.total_cmp(&bins[b].0.mean).then(a.cmp(&b)))
            .expect("two GPUs");
        let mut trial = bins.clone();
        let movers = std::mem::take(&mut trial[least].1);
        trial[least].0 = Load::default();
        let moved = movers
            .iter()
            .all(|&i| place_best_fit(workers, &mut trial, i, rules, z, Some(least)));
        if !moved {
            return;
        }
        trial.remove(least);
        *bins = trial;
    }
}

/// Branch and bound: workers in `order` each to an open GPU or one new GPU; bound: GPUs
/// open plus ⌈remaining mean memory / M⌉ beyond their free memory. Starts from `start`.
fn exact(workers: &[Worker], order: &[usize], rules: &Rules, z: f64, start: Bins) -> (Bins, bool) {
    struct Search<'a> {
        workers: &'a [Worker],
        order: &'a [usize],
        rules: &'a Rules,
        z: f64,
        suffix_mean: Vec<f64>,
        best: Bins,
        nodes: u64,
        cut: bool,
    }
    impl Search<'_> {
        fn go(&mut self, k: usize, bins: &mut Bins) {
            if self.nodes >= EXACT_MAX_NODES {
                self.cut = true;
                return;
            }
            self.nodes += 1;
            if bins.len() >= self.best.len() {
                return;
            }
            if k == self.order.len() {
                self.best = bins.clone();
                return;
            }
            // Lower bound: the remaining mean memory beyond the open GPUs' free memory.
            let m = self.rules.gpu_memory_gb;
            let free: f64 = bins.iter().map(|(l, _)| (m - l.mean).max(0.0)).sum();
            let extra = ((self.suffix_mean[k] - free) / m).max(0.0).ceil() as usize;
            if bins.len() + extra >= self.best.len() {
                return;
            }
            let i = self.order[k];
            let w = self.workers[i];
            for b in 0..bins.len() {
                let next = bins[b].0.with(&w);
                if next.ok(self.rules, self.z) {
                    let old = bins[b].0;
                    bins[b].0 = next;
                    bins[b].1.push(i);
                    self.go(k + 1, bins);
                    bins[b].1.pop();
                    bins[b].0 = old;
                }
            }
            bins.push((Load::default().with(&w), vec![i]));
            self.go(k + 1, bins);
            bins.pop();
        }
    }
    let mut suffix_mean = vec![0.0; order.len() + 1];
    for k in (0..order.len()).rev() {
        suffix_mean[k] = suffix_mean[k + 1] + workers[order[k]].mem_mean_gb;
    }
    let mut s = Search {
        workers,
        order,
        rules,
        z,
        suffix_mean,
        best: start,
        nodes: 0,
        cut: false,
    };
    s.go(0, &mut Vec::new());
    let proven = !s.cut;
    (s.best, proven)
}

fn finish(
    workers: &[Worker],
    bins: Bins,
    rules: &Rules,
    proven: Option<bool>,
    unplaceable: Vec<usize>,
) -> Packing {
    let m = rules.gpu_memory_gb;
    let gpus = bins
        .into_iter()
        .map(|(l, mut members)| {
            members.sort_unstable();
            let sd = l.var.sqrt();
            let collision_prob = if sd > 0.0 {
                1.0 - normal_cdf((m - l.mean) / sd)
            } else if l.mean > m {
                1.0
            } else {
                0.0
            };
            Gpu {
                workers: members,
                mem_mean_gb: l.mean,
                mem_sd_gb: sd,
                collision_prob,
                slowdown: l.slowdown(rules.share_overhead),
            }
        })
        .collect();
    let _ = workers;
    Packing {
        gpus,
        proven,
        unplaceable,
    }
}

/// Online packing: workers arrive (best fit) and depart (then the least-loaded GPU is
/// emptied into the others if it can be). O(g) per event for g GPUs in use.
#[derive(Clone, Debug)]
pub struct Online {
    rules: Rules,
    z: f64,
    workers: Vec<Option<Worker>>,
    bins: Bins,
}

impl Online {
    /// An empty set of GPUs under `rules`.
    pub fn new(rules: Rules) -> Result<Online, Error> {
        let z = prepare(&[], &rules)?;
        Ok(Online {
            rules,
            z,
            workers: Vec::new(),
            bins: Vec::new(),
        })
    }

    /// A worker arrives; returns its id, or `None` if it fits no GPU even alone.
    pub fn arrive(&mut self, w: Worker) -> Result<Option<usize>, Error> {
        prepare(std::slice::from_ref(&w), &self.rules)?;
        if !Load::default().with(&w).ok(&self.rules, self.z) {
            return Ok(None);
        }
        let id = self.workers.len();
        self.workers.push(Some(w));
        let all = self.all();
        place_best_fit(&all, &mut self.bins, id, &self.rules, self.z, None);
        Ok(Some(id))
    }

    /// Worker `id` departs (unknown ids are ignored).
    pub fn depart(&mut self, id: usize) {
        let Some(slot) = self.workers.get_mut(id) else {
            return;
        };
        if slot.take().is_none() {
            return;
        }
        let all = self.all();
        for bin in &mut self.bins {
            if let Some(pos) = bin.1.iter().position(|&i| i == id) {
                bin.1.remove(pos);
                bin.0 = bin.1.iter().fold(Load::default(), |l, &i| l.with(&all[i]));
            }
        }
        self.bins.retain(|b| !b.1.is_empty());
        empty_least_loaded(&all, &mut self.bins, &self.rules, self.z);
    }

    /// Worker `id` while it is present.
    pub fn worker(&self, id: usize) -> Option<Worker> {
        self.workers.get(id).copied().flatten()
    }

    /// The GPUs in use now; a GPU's `workers` are the ids [`Online::arrive`] returned.
    pub fn packing(&self) -> Packing {
        finish(
            &self.all(),
            self.bins.clone(),
            &self.rules,
            None,
            Vec::new(),
        )
    }

    /// Every worker ever seen (departed ones as zero-demand placeholders never placed).
    fn all(&self) -> Vec<Worker> {
        self.workers
            .iter()
            .map(|w| {
                w.unwrap_or(Worker {
                    job: usize::MAX,
                    index: 0,
                    mem_mean_gb: 0.0,
                    mem_sd_gb: 0.0,
                    util: 1e-9,
                    min_performance: 1e-9,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;

pub use smd_core::plan::{SharedGpu, WorkerRef};

/// The packing of a plan's admitted one-GPU workers.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SharedPlan {
    /// The GPUs with their occupants.
    pub gpus: Vec<SharedGpu>,
    /// GPUs the shareable workers use.
    pub gpus_used: usize,
    /// GPUs they would use alone (one each).
    pub exclusive_gpus: usize,
    /// Mean over the packed workers of 1 / slowdown.
    pub mean_performance: f64,
    /// Workers that fit no GPU even alone under the rules.
    pub unplaceable: Vec<WorkerRef>,
    /// Admitted workers not shared: their job gives no `gpu_mem_mean_gb`, or a worker
    /// needs other than exactly one GPU.
    pub not_shareable: usize,
    /// `exact` only: whether the GPU count is proven least (else: too big for the search,
    /// the best found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven: Option<bool>,
}

/// Where a scenario's GPUs are: each machine's name and GPU count, or (a pool) one site
/// `pool` with all of them.
pub fn gpu_sites(s: &smd_core::Scenario) -> Vec<(String, f64)> {
    if s.cluster.has_machines() {
        s.cluster
            .machine_list()
            .into_iter()
            .map(|m| (m.name, m.capacity.gpu))
            .collect()
    } else {
        vec![("pool".into(), s.cluster.capacity().gpu)]
    }
}

/// Packs the admitted workers of `plan` (a plan of `s`) that need exactly one GPU and whose
/// job gives its GPU memory, with `algorithm`; the GPUs are numbered over the machines in
/// order (`<machine>`, `gpu`), regardless of where placement put the workers — the
/// planner's sharing-aware admission and placement are docs/MODEL.md §18's next step.
pub fn share_plan(
    s: &smd_core::Scenario,
    plan: &smd_core::Plan,
    algorithm: Algorithm,
) -> Result<SharedPlan, Error> {
    let rules = rules_of(s);
    let mut workers = Vec::new();
    let mut refs = Vec::new();
    let mut not_shareable = 0usize;
    for (i, (job, line)) in s.jobs.iter().zip(&plan.jobs).enumerate() {
        let (true, Some(w)) = (line.admitted, line.workers) else {
            continue;
        };
        if !shareable(job) {
            not_shareable += w as usize;
            continue;
        }
        for k in 0..w.min(u64::from(u32::MAX)) as u32 {
            workers.push(worker_of(job, i, k));
            refs.push(WorkerRef {
                job: job.id.clone(),
                index: k,
            });
        }
    }
    let packing = pack(&workers, &rules, algorithm)?;
    // GPU slots over the machines, in order.
    let mut slots: Vec<(String, u32)> = Vec::new();
    if s.cluster.has_machines() {
        for m in s.cluster.machine_list() {
            for g in 0..m.capacity.gpu.clamp(0.0, 1e6) as u32 {
                slots.push((m.name.clone(), g));
            }
        }
    }
    let mut perf = 0.0;
    let gpus: Vec<SharedGpu> = packing
        .gpus
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let (machine, gpu) = slots
                .get(k)
                .cloned()
                .unwrap_or_else(|| ("pool".into(), k as u32));
            perf += g.workers.len() as f64 / g.slowdown;
            SharedGpu {
                machine,
                gpu,
                workers: g.workers.iter().map(|&i| refs[i].clone()).collect(),
                mem_mean_gb: g.mem_mean_gb,
                mem_sd_gb: g.mem_sd_gb,
                collision_prob: g.collision_prob,
                slowdowns: vec![g.slowdown; g.workers.len()],
            }
        })
        .collect();
    let packed = workers.len() - packing.unplaceable.len();
    Ok(SharedPlan {
        gpus_used: gpus.len(),
        exclusive_gpus: packed,
        mean_performance: if packed > 0 {
            perf / packed as f64
        } else {
            1.0
        },
        unplaceable: packing
            .unplaceable
            .iter()
            .map(|&i| refs[i].clone())
            .collect(),
        gpus,
        not_shareable,
        proven: packing.proven,
    })
}
