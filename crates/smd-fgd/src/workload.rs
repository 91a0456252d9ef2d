//! The target workload, the submission order and the node rank (docs/MODEL.md §26.3).

use crate::data::{Node, Pod};
use crate::gorand::GoRand;
use std::collections::HashMap;

/// The share of pods the target workload covers, in % (the reference's
/// `podPopularityThreshold`).
pub const POPULARITY_THRESHOLD_PCT: f64 = 95.0;
/// `Float64()` draws the reference's informers make between the clones and the node rank
/// (§26.3): each consumes one `Int63`.
pub const INFORMER_DRAWS: usize = 10;
/// The most pods a tuned workload may hold.
pub const MAX_TUNED_PODS: usize = 5_000_000;

/// A task type: the exact resource tuple the reference counts pods by.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskType {
    /// CPU request, milli-cores.
    pub cpu_milli: i64,
    /// Per-GPU milli.
    pub gpu_milli: i64,
    /// Number of GPUs.
    pub num_gpu: u32,
    /// Allowed GPU models (`|`-separated), empty = any.
    pub gpu_spec: String,
}

impl TaskType {
    /// The task type of a pod.
    pub fn of(pod: &Pod) -> Self {
        TaskType {
            cpu_milli: pod.cpu_milli,
            gpu_milli: pod.gpu_milli,
            num_gpu: pod.num_gpu,
            gpu_spec: pod.gpu_spec.clone(),
        }
    }
}

/// One type of the target workload with its count in the trace and its popularity.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetType {
    /// The task type.
    pub task: TaskType,
    /// Pods of this type in the original trace.
    pub count: u64,
    /// Popularity `p_m`, renormalized over the kept types.
    pub p: f64,
}

/// The target workload M: the most frequent task types covering 95 % of the pods, most
/// frequent first (§26.3).
pub fn target_workload(pods: &[Pod]) -> Vec<TargetType> {
    let mut counts: HashMap<TaskType, u64> = HashMap::new();
    for pod in pods {
        *counts.entry(TaskType::of(pod)).or_insert(0) += 1;
    }
    let mut types: Vec<(TaskType, u64)> = counts.into_iter().collect();
    // By count, descending; ties by the reverse of the resource order (larger CPU, GPU
    // milli, GPU count, model string first).
    types.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| b.0.cmp(&a.0)));
    let total = pods.len() as f64;
    let expected = POPULARITY_THRESHOLD_PCT * total / 100.0;
    let mut cum = 0.0;
    let mut kept = 0;
    while cum < expected && kept < types.len() {
        cum += types[kept].1 as f64;
        kept += 1;
    }
    let whole = kept >= types.len();
    types.truncate(kept);
    types
        .into_iter()
        .map(|(task, count)| {
            let share = count as f64 / total;
            // All types kept: the reference skips the renormalization.
            let p = if whole { share } else { share / (cum / total) };
            TargetType { task, count, p }
        })
        .collect()
}

/// The submission sequence of one seed: indices into the name-sorted original pods.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrivals {
    /// The original pods sorted by name (stable), which the indices refer to.
    pub sorted: Vec<usize>,
    /// Pods in submission order, as indices into `sorted`.
    pub order: Vec<usize>,
    /// Clones appended (tune-up) — 0 when tuning removed pods.
    pub clones: usize,
    /// Pods removed (tune-down).
    pub removed: usize,
    /// The total GPU request after tuning, milli.
    pub total_gpu_milli: i64,
    /// The node rank: `rank[i]` of node `i` (in the input's order); ties go to the
    /// smallest rank.
    pub rank: Vec<usize>,
}

/// Why the workload cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkloadError {
    /// The pod list requests no GPU at all: there is nothing to tune to a GPU ratio.
    NoGpuRequest,
    /// The cluster has no GPU.
    NoGpus,
    /// The target ratio is not a positive finite number.
    BadTarget,
    /// Tuning would need more pods than [`MAX_TUNED_PODS`].
    TooManyPods,
}

impl std::fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkloadError::NoGpuRequest => write!(f, "the pod list requests no GPU"),
            WorkloadError::NoGpus => write!(f, "the node list has no GPU"),
            WorkloadError::BadTarget => write!(f, "the target must be a number above 0"),
            WorkloadError::TooManyPods => {
                write!(
                    f,
                    "reaching the target would need more than {MAX_TUNED_PODS} pods"
                )
            }
        }
    }
}

impl std::error::Error for WorkloadError {}

/// Indices of `names` sorted by name, stable.
fn sorted_by_name<'a>(n: usize, name: impl Fn(usize) -> &'a str) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| name(a).cmp(name(b)));
    idx
}

/// The sequence and node rank of one seed, drawing from Go's source in the reference's
/// order (§26.3): `Seed`; one `Int`; `Shuffle` of the name-sorted pods; one `Intn` per
/// clone, the rejected last one included (or per removal when tuning down); ten `Int63`;
/// `Perm` over the name-sorted nodes. Returns the generator for later draws.
pub fn arrivals(
    nodes: &[Node],
    pods: &[Pod],
    seed: i64,
    target: f64,
) -> Result<(Arrivals, GoRand), WorkloadError> {
    if !(target.is_finite() && target > 0.0) {
        return Err(WorkloadError::BadTarget);
    }
    let capacity: i64 = nodes.iter().map(|n| n.gpus as i64 * 1000).sum();
    if capacity <= 0 {
        return Err(WorkloadError::NoGpus);
    }
    let original: i64 = pods.iter().map(Pod::gpu_total).sum();
    if original <= 0 {
        return Err(WorkloadError::NoGpuRequest);
    }
    let sorted = sorted_by_name(pods.len(), |i| pods[i].name.as_str());
    let mut rng = GoRand::new(seed);
    rng.int();
    let mut order: Vec<usize> = (0..pods.len()).collect();
    rng.shuffle(order.len(), |i, j| order.swap(i, j));
    let goal = target * capacity as f64;
    let mut total = original;
    let (mut clones, mut removed) = (0, 0);
    if (total as f64) < goal {
        loop {
            let idx = rng.intn(sorted.len());
            let pod = &pods[sorted[idx]];
            if (total + pod.gpu_milli) as f64 > goal {
                break;
            }
            if order.len() >= MAX_TUNED_PODS {
                return Err(WorkloadError::TooManyPods);
            }
            total += pod.gpu_total();
            order.push(idx);
            clones += 1;
        }
    } else {
        let mut alive = Alive::new(order.len());
        while total as f64 > goal && alive.len > 0 {
            // The idx-th pod still in the list (the reference removes it in place).
            let at = alive.take(rng.intn(alive.len));
            total -= pods[sorted[order[at]]].gpu_total();
            removed += 1;
        }
        order = order
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| alive.has(i))
            .map(|(_, p)| p)
            .collect();
    }
    for _ in 0..INFORMER_DRAWS {
        rng.int63();
    }
    let by_name = sorted_by_name(nodes.len(), |i| nodes[i].name.as_str());
    let perm = rng.perm(nodes.len());
    let mut rank = vec![0; nodes.len()];
    for (pos, &node) in by_name.iter().enumerate() {
        rank[node] = perm[pos];
    }
    let a = Arrivals {
        sorted,
        order,
        clones,
        removed,
        total_gpu_milli: total,
        rank,
    };
    Ok((a, rng))
}

/// The positions still in a list, with the k-th of them found in O(log n) (a Fenwick tree),
/// so that removing most of a large list stays fast.
struct Alive {
    tree: Vec<usize>,
    gone: Vec<bool>,
    len: usize,
}

impl Alive {
    fn new(n: usize) -> Self {
        let mut tree = vec![0; n + 1];
        for i in 1..=n {
            tree[i] += 1;
            let j = i + (i & i.wrapping_neg());
            if j <= n {
                tree[j] += tree[i];
            }
        }
        Alive {
            tree,
            gone: vec![false; n],
            len: n,
        }
    }

    fn has(&self, i: usize) -> bool {
        !self.gone[i]
    }

    /// Remove the k-th (0-based) remaining position and return it.
    fn take(&mut self, k: usize) -> usize {
        let n = self.gone.len();
        let (mut pos, mut rest) = (0, k + 1);
        let mut step = n.next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= n && self.tree[next] < rest {
                pos = next;
                rest -= self.tree[next];
            }
            step /= 2;
        }
        // pos is the count of positions before the k-th; it is at index pos (0-based).
        let mut i = pos + 1;
        while i <= n {
            self.tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
        self.gone[pos] = true;
        self.len -= 1;
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::Alive;

    #[test]
    fn alive_takes_the_kth_remaining_like_vec_remove() {
        let mut list: Vec<usize> = (0..37).collect();
        let mut alive = Alive::new(37);
        let mut state = 12345u64;
        while !list.is_empty() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (state >> 33) as usize % list.len();
            assert_eq!(alive.take(k), list.remove(k));
        }
        assert_eq!(alive.len, 0);
    }
}
