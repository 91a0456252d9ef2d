//! A proven upper bound on the GPU any policy can allocate (docs/MODEL.md §26.10): no
//! online policy places more of the arrived pods than the best offline packing of them,
//! and that packing is bounded by an LP relaxation whose dual gives the bound.
//!
//! The relaxation: node classes `k` (equal CPU, memory, GPU count and model; `N_k`
//! nodes), GPU pod classes `p` (equal CPU, memory, GPU count, milli and GPU types; `n_p`
//! arrived, `g_p` GPU milli each), `x_pk ≥ 0` pods of `p` on class `k`, only where one
//! fits an empty node of `k`:
//!
//! max Σ g_p·x_pk  s.t.  Σ_k x_pk ≤ n_p;  Σ_p g_p·x_pk ≤ GPU_k,  Σ_p c_p·x_pk ≤ CPU_k,
//! Σ_p m_p·x_pk ≤ MEM_k (each class' totals).
//!
//! Every packing is a point of it. By weak duality any prices `α_k, β_k, γ_k ≥ 0` of a
//! class' GPU, CPU and memory give the bound
//! `Σ_p n_p·u_p + Σ_k (GPU_k·α_k + CPU_k·β_k + MEM_k·γ_k)` with
//! `u_p = max(0, max_k (g_p − g_p·α_k − c_p·β_k − m_p·γ_k))` — valid whatever the prices,
//! so prices solved once serve every arrival count, and the bound at a count is the least
//! over the prices at hand: none (the arrived GPU), one for every GPU (the capacity), and
//! the LP's optimal prices at a few counts.

use crate::experiment::{columns, Prepared, RunError};
use crate::policy::PodReq;
use smd_core::lp::{Lp, Op, Outcome, Sense};
use std::collections::HashMap;

/// The bound at one column of the tables.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BoundPoint {
    /// Arrived GPU request in whole % of capacity.
    pub x: u32,
    /// The bound over the column's records: the mean, over the pods recorded in column x, of
    /// the most any packing of the pods arrived by then allocates, % of capacity (each at
    /// least what any run recorded then, so the mean is at least the run's column mean).
    pub allocation_pct: f64,
}

/// A node class: its totals over its nodes and what one node holds.
struct NodeClass {
    cpu: f64,
    mem: f64,
    gpus: u32,
    model: usize,
    count: f64,
}

/// Prices of each node class' GPU (per GPU), CPU (per core) and memory (per GiB).
type Prices = Vec<[f64; 3]>;

/// The relaxation of one seed's arrivals.
struct Relaxation {
    classes: Vec<NodeClass>,
    /// Each GPU pod class: GPUs, cores, GiB, GPU count, access.
    pods: Vec<(f64, f64, f64, u32, Vec<bool>)>,
    /// `fits[p]`: the node classes an empty node of which holds one pod of `p`.
    fits: Vec<Vec<usize>>,
}

impl Relaxation {
    fn new(prepared: &Prepared) -> Relaxation {
        let mut classes: Vec<NodeClass> = Vec::new();
        let mut index: HashMap<(i64, i64, usize, usize), usize> = HashMap::new();
        for n in prepared.initial_states() {
            let key = (n.cpu_left, n.mem_left, n.free.len(), n.model);
            let k = *index.entry(key).or_insert_with(|| {
                classes.push(NodeClass {
                    cpu: n.cpu_left as f64 / 1000.0,
                    mem: n.mem_left as f64 / 1024.0,
                    gpus: n.free.len() as u32,
                    model: n.model,
                    count: 0.0,
                });
                classes.len() - 1
            });
            classes[k].count += 1.0;
        }
        Relaxation {
            classes,
            pods: Vec::new(),
            fits: Vec::new(),
        }
    }

    /// The class of a GPU pod, added on first sight.
    fn class_of(
        &mut self,
        pod: &PodReq,
        index: &mut HashMap<(i64, i64, u32, i64, Vec<bool>), usize>,
    ) -> usize {
        let key = (pod.cpu, pod.mem, pod.num, pod.milli, pod.access.clone());
        if let Some(&p) = index.get(&key) {
            return p;
        }
        let (g, c, m) = (
            pod.gpu_total() as f64 / 1000.0,
            pod.cpu as f64 / 1000.0,
            pod.mem as f64 / 1024.0,
        );
        let fits = self
            .classes
            .iter()
            .enumerate()
            .filter(|(_, k)| {
                c <= k.cpu
                    && m <= k.mem
                    && pod.num <= k.gpus
                    && pod.milli <= 1000
                    && pod.access.get(k.model).copied().unwrap_or(false)
            })
            .map(|(i, _)| i)
            .collect();
        self.pods.push((g, c, m, pod.num, pod.access.clone()));
        self.fits.push(fits);
        index.insert(key, self.pods.len() - 1);
        self.pods.len() - 1
    }

    /// The part of the bound under `prices` that no pod adds: the classes' capacities at
    /// their prices, in GPUs.
    fn fixed(&self, prices: &Prices) -> f64 {
        self.classes
            .iter()
            .zip(prices)
            .map(|(k, pr)| k.count * (k.gpus as f64 * pr[0] + k.cpu * pr[1] + k.mem * pr[2]))
            .sum()
    }

    /// What one arrived pod of class `p` adds to the bound under `prices`: its dual
    /// `u_p`, the largest excess of its GPUs over its price on a class it fits, at least 0.
    fn u(&self, p: usize, prices: &Prices) -> f64 {
        let (g, c, m, _, _) = self.pods[p];
        self.fits[p]
            .iter()
            .map(|&k| g - g * prices[k][0] - c * prices[k][1] - m * prices[k][2])
            .fold(0.0, f64::max)
    }

    /// The LP's optimal prices at `counts` (the dual, solved), or `None` when the solver
    /// fails — the other prices still bound.
    fn solve(&self, counts: &[f64]) -> Option<Prices> {
        let mut lp = Lp::new(Sense::Min);
        let u: Vec<usize> = counts
            .iter()
            .map(|&n| lp.var(n, 0.0, f64::INFINITY))
            .collect();
        let prices: Vec<[usize; 3]> = self
            .classes
            .iter()
            .map(|k| {
                [
                    lp.var(k.count * k.gpus as f64, 0.0, f64::INFINITY),
                    lp.var(k.count * k.cpu, 0.0, f64::INFINITY),
                    lp.var(k.count * k.mem, 0.0, f64::INFINITY),
                ]
            })
            .collect();
        for (p, fits) in self.fits.iter().enumerate() {
            if counts[p] == 0.0 {
                continue;
            }
            let (g, c, m, _, _) = self.pods[p];
            for &k in fits {
                let [a, b, d] = prices[k];
                lp.row(&[(u[p], 1.0), (a, g), (b, c), (d, m)], Op::Ge, g);
            }
        }
        match lp.solve() {
            Ok(Outcome::Optimal { x, .. }) => {
                Some(prices.iter().map(|v| v.map(|i| x[i].max(0.0))).collect())
            }
            _ => None,
        }
    }
}

/// Columns at which the LP's prices are solved: every 10 % of capacity from 50 % and the
/// last column; the bound at every pod is the least over all of them.
fn checkpoints(xmax: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (5..=xmax / 10).map(|t| t * 10).collect();
    v.push(xmax);
    v.dedup();
    v
}

/// The bound of one seed's arrivals tuned to `target`, in % of capacity, one point per
/// column 0 ..= round(100 × target) that has pods: the mean, over the column's pods as the
/// tables take them (§26.7), of the bound on what any packing of the pods arrived by then
/// allocates — so that it is at least every policy's column, a mean of allocations.
pub fn bound(prepared: &Prepared, seed: i64, target: f64) -> Result<Vec<BoundPoint>, RunError> {
    let seq = prepared.sequence(seed, target)?;
    let gpus = prepared.gpus.max(1);
    let xmax = (100.0 * target).round().clamp(0.0, 100_000.0) as u32;
    let mut rel = Relaxation::new(prepared);
    let mut index = HashMap::new();
    // Each pod's class (None: CPU-only) and the arrived milli after it.
    let mut classes: Vec<Option<usize>> = Vec::with_capacity(seq.len());
    let mut arrived: Vec<i64> = Vec::with_capacity(seq.len());
    let mut sum = 0i64;
    for pod in &seq {
        sum += pod.gpu_total();
        classes.push((pod.num > 0 && pod.milli > 0).then(|| rel.class_of(pod, &mut index)));
        arrived.push(sum);
    }
    let counts_at = |end: usize| -> Vec<f64> {
        let mut c = vec![0.0; rel.pods.len()];
        for p in classes[..=end].iter().flatten() {
            c[*p] += 1.0;
        }
        c
    };
    let groups = columns(&arrived, gpus, xmax);
    let k = rel.classes.len();
    // Prices: none (the arrived GPU), one per GPU (the capacity), the LP's at checkpoints.
    let mut all_prices: Vec<Prices> = vec![vec![[0.0; 3]; k], vec![[1.0, 0.0, 0.0]; k]];
    for x in checkpoints(xmax) {
        if let Some(end) = groups
            .iter()
            .find(|(c, _)| *c == x)
            .and_then(|(_, g)| g.last())
        {
            all_prices.extend(rel.solve(&counts_at(*end)));
        }
    }
    // The bound is linear in the counts for given prices: each price set's fixed part,
    // then each arrived pod adds its class' u_p.
    let fixed: Vec<f64> = all_prices.iter().map(|pr| rel.fixed(pr)).collect();
    let per_pod: Vec<Vec<f64>> = all_prices
        .iter()
        .map(|pr| (0..rel.pods.len()).map(|p| rel.u(p, pr)).collect())
        .collect();
    let mut running = fixed;
    let mut at_pod = Vec::with_capacity(seq.len());
    for class in &classes {
        if let Some(p) = class {
            for (r, u) in running.iter_mut().zip(&per_pod) {
                *r += u[*p];
            }
        }
        at_pod.push(running.iter().copied().fold(f64::INFINITY, f64::min));
    }
    let capacity = gpus as f64;
    Ok(groups
        .into_iter()
        .map(|(x, members)| BoundPoint {
            x,
            allocation_pct: 100.0 * members.iter().map(|&i| at_pod[i]).sum::<f64>()
                / members.len() as f64
                / capacity,
        })
        .collect())
}

/// The mean over seeds of [`bound`], per x (only the x every seed has).
pub fn mean_bound(
    prepared: &Prepared,
    seeds: &[i64],
    target: f64,
) -> Result<Vec<BoundPoint>, RunError> {
    let per: Vec<Vec<BoundPoint>> = seeds
        .iter()
        .map(|&s| bound(prepared, s, target))
        .collect::<Result<_, _>>()?;
    let Some(first) = per.first() else {
        return Ok(Vec::new());
    };
    Ok(first
        .iter()
        .filter_map(|p| {
            let same: Vec<f64> = per
                .iter()
                .filter_map(|r| r.iter().find(|q| q.x == p.x).map(|q| q.allocation_pct))
                .collect();
            (same.len() == per.len()).then(|| BoundPoint {
                x: p.x,
                allocation_pct: same.iter().sum::<f64>() / same.len() as f64,
            })
        })
        .collect())
}
