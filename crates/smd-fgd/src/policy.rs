//! The filter, the six node scores and the GPU each pod gets (docs/MODEL.md §26.4).

use crate::frag::{fgd_score, node_frag, CompiledType};

/// Normalization maxima of DotProd and BestFit: CPU milli-cores and GPU milli of the
/// largest node type.
pub const MAX_SPEC_CPU: f64 = 128_000.0;
/// See [`MAX_SPEC_CPU`].
pub const MAX_SPEC_GPU: f64 = 8_000.0;
/// The most pods a node admits.
pub const MAX_PODS_PER_NODE: u32 = 1001;

/// A node-scoring policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Policy {
    /// A uniform choice among the feasible nodes.
    Random,
    /// The smallest normalized dot product of free capacity and request.
    DotProd,
    /// Prefer nodes already running pods of the same GPU shape.
    Clustering,
    /// Prefer partially used GPUs, then partially used nodes.
    Packing,
    /// The least free CPU and GPU left after placement.
    BestFit,
    /// Fragmentation gradient descent: the smallest growth of F_n(M).
    Fgd,
    /// The project's GPU sharing (docs/MODEL.md §18, §26.11) applied here: online best fit
    /// on GPUs — a shared pod to the GPU it leaves least free, a whole-GPU pod to the node
    /// it leaves fewest free GPUs.
    ShareBestFit,
    /// The project's own (§26.11): FGD's node score, each node scored at the GPU that fits
    /// the pod most tightly, and the pod placed there.
    FgdBestFit,
}

impl Policy {
    /// The six of the published experiment, in its tables' order.
    pub const PUBLISHED: [Policy; 6] = [
        Policy::Random,
        Policy::DotProd,
        Policy::Clustering,
        Policy::Packing,
        Policy::BestFit,
        Policy::Fgd,
    ];

    /// Every policy: the published six, then the project's.
    pub const ALL: [Policy; 8] = [
        Policy::Random,
        Policy::DotProd,
        Policy::Clustering,
        Policy::Packing,
        Policy::BestFit,
        Policy::Fgd,
        Policy::ShareBestFit,
        Policy::FgdBestFit,
    ];

    /// Whether it scores nodes by their fragmentation (FGD and the project's variant).
    pub fn scores_fragmentation(self) -> bool {
        matches!(self, Policy::Fgd | Policy::FgdBestFit)
    }

    /// Whether the published experiment ran it (its tables have rows for it).
    pub fn is_published(self) -> bool {
        Policy::PUBLISHED.contains(&self)
    }

    /// The short name (`fgd`, `bestfit`, …).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::DotProd => "dotprod",
            Policy::Clustering => "clustering",
            Policy::Packing => "packing",
            Policy::BestFit => "bestfit",
            Policy::Fgd => "fgd",
            Policy::ShareBestFit => "share_bestfit",
            Policy::FgdBestFit => "fgd_bestfit",
        }
    }

    /// The policy of a short name.
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The policy's name in the published tables' `sc_policy` column.
    pub fn published_name(self) -> &'static str {
        match self {
            Policy::Random => "01-Random",
            Policy::DotProd => "02-DotProd",
            Policy::Clustering => "03-GpuClustering",
            Policy::Packing => "04-GpuPacking",
            Policy::BestFit => "05-BestFit",
            Policy::Fgd => "06-FGD",
            Policy::ShareBestFit => "share_bestfit",
            Policy::FgdBestFit => "fgd_bestfit",
        }
    }
}

/// A pod compiled for the cluster.
#[derive(Clone, Debug)]
pub struct PodReq {
    /// CPU, milli-cores.
    pub cpu: i64,
    /// Memory, MiB.
    pub mem: i64,
    /// GPU count.
    pub num: u32,
    /// Per-GPU milli (0 for CPU-only).
    pub milli: i64,
    /// `access[model id]`.
    pub access: Vec<bool>,
    /// Its task-type class (an index shared by pods of equal resources), for caching.
    pub class: usize,
}

impl PodReq {
    /// A pod that shares one GPU.
    pub fn is_sharing(&self) -> bool {
        self.num == 1 && self.milli > 0 && self.milli < 1000
    }
    /// Total GPU milli.
    pub fn gpu_total(&self) -> i64 {
        self.milli * self.num as i64
    }
    /// GpuClustering's tag: `None` for CPU-only, `Some(0)` for sharing, `Some(k)` for k
    /// whole GPUs.
    pub fn tag(&self) -> Option<u32> {
        if self.num == 0 || self.milli == 0 {
            None
        } else if self.is_sharing() {
            Some(0)
        } else {
            Some(self.num)
        }
    }
}

/// The state of one node.
#[derive(Clone, Debug)]
pub struct NodeState {
    /// Free CPU, milli-cores.
    pub cpu_left: i64,
    /// Free memory, MiB.
    pub mem_left: i64,
    /// Pods bound.
    pub pods: u32,
    /// Model id.
    pub model: usize,
    /// Free milli per GPU, index order.
    pub free: Vec<i64>,
    /// GpuClustering's count of bound GPU pods per tag.
    pub tags: Vec<(u32, u32)>,
}

impl NodeState {
    /// Total free GPU milli.
    pub fn free_total(&self) -> i64 {
        self.free.iter().sum()
    }

    /// The filter (§26.4): pod slots, CPU, memory and the GPU check.
    pub fn feasible(&self, pod: &PodReq) -> bool {
        if self.pods + 1 > MAX_PODS_PER_NODE || self.cpu_left < pod.cpu || self.mem_left < pod.mem {
            return false;
        }
        if pod.milli <= 0 {
            return true;
        }
        if self.free.is_empty() || !pod.access.get(self.model).copied().unwrap_or(false) {
            return false;
        }
        let fitting = self.free.iter().filter(|&&g| g >= pod.milli).count();
        fitting >= pod.num.max(1) as usize
    }

    /// The GPUs `best` fit gives a pod: a sharing pod the GPU with the least free milli
    /// that fits (first index on ties); others the first GPUs by index that fit.
    pub fn best_gpus(&self, pod: &PodReq) -> Vec<usize> {
        if pod.num == 0 || pod.milli == 0 {
            return Vec::new();
        }
        if pod.is_sharing() {
            let mut best: Option<usize> = None;
            for (i, &g) in self.free.iter().enumerate() {
                if g >= pod.milli && best.is_none_or(|b| g < self.free[b]) {
                    best = Some(i);
                }
            }
            return best.into_iter().collect();
        }
        self.first_fitting(pod)
    }

    /// The first `num` GPUs by index with free ≥ milli.
    fn first_fitting(&self, pod: &PodReq) -> Vec<usize> {
        (0..self.free.len())
            .filter(|&i| self.free[i] >= pod.milli)
            .take(pod.num as usize)
            .collect()
    }

    /// The GPUs of the reference's hypothetical `Sub` (FGD's non-sharing pods): walk the
    /// GPUs by free milli ascending (stable) and take the first `num` that fit.
    fn sub_gpus(&self, pod: &PodReq) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.free.len()).collect();
        idx.sort_by_key(|&i| self.free[i]);
        idx.into_iter()
            .filter(|&i| self.free[i] >= pod.milli)
            .take(pod.num as usize)
            .collect()
    }

    /// Bind a pod with the given GPUs.
    pub fn bind(&mut self, pod: &PodReq, gpus: &[usize]) {
        self.cpu_left -= pod.cpu;
        self.mem_left -= pod.mem;
        self.pods += 1;
        for &i in gpus {
            self.free[i] -= pod.milli;
        }
        if let Some(tag) = pod.tag() {
            match self.tags.iter_mut().find(|(t, _)| *t == tag) {
                Some((_, c)) => *c += 1,
                None => self.tags.push((tag, 1)),
            }
        }
    }

    /// F_n(M) of the current state.
    pub fn frag(&self, m: &[CompiledType]) -> f64 {
        node_frag(self.cpu_left, &self.free, self.model, m)
    }
}

/// DotProd (§26.4): `⌊100·(1 − (ĉ·p̂c + ĝ·p̂g)/2)⌋` with every vector normalized by the
/// maxima; a larger dot product scores lower.
pub fn dotprod_score(node: &NodeState, pod: &PodReq) -> i64 {
    let (c, g) = (node.cpu_left, node.free_total());
    if c < pod.cpu || g < pod.gpu_total() {
        return 0;
    }
    let nv = [c as f64 / MAX_SPEC_CPU, g as f64 / MAX_SPEC_GPU];
    let pv = [
        pod.cpu as f64 / MAX_SPEC_CPU,
        pod.gpu_total() as f64 / MAX_SPEC_GPU,
    ];
    let dot = nv[0] * pv[0] + nv[1] * pv[1];
    let score = 1.0 - dot / 2.0;
    (100.0 * score) as i64
}

/// The project's online best fit on GPUs (§26.11), higher is better: a shared pod the
/// least free milli left on the GPU it gets, then the least free GPU on the node; a
/// whole-GPU pod the least free GPU left on the node; a CPU-only pod a node whose GPUs are
/// all in use (its CPU serves no GPU there), then the most CPU left.
pub fn share_bestfit_score(node: &NodeState, pod: &PodReq) -> i64 {
    let total = node.free_total();
    if pod.num == 0 || pod.milli == 0 {
        let full = i64::from(total == 0);
        return full * 1_000_000_000_000 + (node.cpu_left - pod.cpu);
    }
    if pod.is_sharing() {
        let left = node
            .free
            .iter()
            .filter(|&&g| g >= pod.milli)
            .map(|&g| g - pod.milli)
            .min()
            .unwrap_or(1000);
        return -(left * 100_000 + (total - pod.milli));
    }
    -(total - pod.gpu_total())
}

/// The project's own (§26.11): FGD's score of the node with a shared pod on the GPU of
/// best fit (the least free milli that fits, first index on ties), and that GPU; other
/// pods as FGD.
pub fn fgd_bestfit_choice(
    node: &NodeState,
    pod: &PodReq,
    f0: f64,
    m: &[CompiledType],
) -> (i64, Vec<usize>) {
    if !pod.is_sharing() {
        return fgd_choice(node, pod, f0, m);
    }
    let gpus = node.best_gpus(pod);
    if gpus.is_empty() {
        return (0, gpus);
    }
    let mut free = node.free.clone();
    for &i in &gpus {
        free[i] -= pod.milli;
    }
    (
        fgd_score(f0, node_frag(node.cpu_left - pod.cpu, &free, node.model, m)),
        gpus,
    )
}

/// GpuClustering (§26.4).
pub fn clustering_score(node: &NodeState, pod: &PodReq) -> i64 {
    let Some(tag) = pod.tag() else { return 0 };
    let left = node.free_total();
    let b = 25 * (8000 - left) / 8000;
    let used: Vec<u32> = node
        .tags
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(t, _)| *t)
        .collect();
    let score = if used.is_empty() {
        25 + b
    } else if used.contains(&tag) {
        if used.len() == 1 {
            75 + b
        } else {
            50 + b
        }
    } else {
        b
    };
    score.clamp(0, 100)
}

/// GpuPacking (§26.4).
pub fn packing_score(node: &NodeState, pod: &PodReq) -> i64 {
    if pod.num == 0 || pod.milli == 0 {
        return 0;
    }
    let n = node.free.len() as i64;
    let fully_free = node.free.iter().filter(|&&g| g == 1000).count() as i64;
    if fully_free == n {
        return (33 - n).max(n).min(100);
    }
    let chosen = node.sub_gpus(pod);
    let k = chosen.iter().filter(|&&i| node.free[i] == 1000).count() as i64;
    if k > 0 {
        return (50 - k).max(33);
    }
    let sum: i64 = chosen.iter().map(|&i| node.free[i] * 100 / 1000).sum();
    (100 - sum / 10).clamp(50, 100)
}

/// BestFit's raw score (§26.4), before the normalization over the feasible nodes.
pub fn bestfit_raw(node: &NodeState, pod: &PodReq) -> i64 {
    let free = [node.cpu_left as f64, node.free_total() as f64];
    let req = [pod.cpu as f64, pod.gpu_total() as f64];
    let max = [MAX_SPEC_CPU, MAX_SPEC_GPU];
    let mut s = 0.0;
    for i in 0..2 {
        if free[i] < req[i] {
            return -1;
        }
        s += (free[i] - req[i]) / max[i] * 0.5;
    }
    ((1.0 - s) * 100.0) as i64
}

/// The framework's normalization of BestFit: `(raw − min)·100/(max − min)`, integer
/// division, all 0 when max = min.
pub fn normalize(raw: &mut [i64]) {
    let (Some(&lo), Some(&hi)) = (raw.iter().min(), raw.iter().max()) else {
        return;
    };
    for r in raw.iter_mut() {
        *r = if hi == lo {
            0
        } else {
            (*r - lo) * 100 / (hi - lo)
        };
    }
}

/// FGD (§26.4): the score of a node and the GPU it gives a sharing pod. `f0` is the node's
/// current F_n(M).
pub fn fgd_choice(
    node: &NodeState,
    pod: &PodReq,
    f0: f64,
    m: &[CompiledType],
) -> (i64, Vec<usize>) {
    let cpu = node.cpu_left - pod.cpu;
    if pod.is_sharing() {
        let mut best: Option<(i64, usize)> = None;
        let mut free = node.free.clone();
        // F depends on the multiset of free values only: one evaluation per distinct value.
        let mut seen: Vec<(i64, i64)> = Vec::new();
        for i in 0..node.free.len() {
            let g = node.free[i];
            if g < pod.milli {
                continue;
            }
            let s = match seen.iter().find(|(v, _)| *v == g) {
                Some(&(_, s)) => s,
                None => {
                    free[i] = g - pod.milli;
                    let s = fgd_score(f0, node_frag(cpu, &free, node.model, m));
                    free[i] = g;
                    seen.push((g, s));
                    s
                }
            };
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, i));
            }
        }
        return match best {
            Some((s, i)) => (s, vec![i]),
            None => (0, Vec::new()),
        };
    }
    let gpus = if pod.num == 0 || pod.milli == 0 {
        Vec::new()
    } else {
        node.sub_gpus(pod)
    };
    let mut free = node.free.clone();
    for &i in &gpus {
        free[i] -= pod.milli;
    }
    (fgd_score(f0, node_frag(cpu, &free, node.model, m)), gpus)
}
