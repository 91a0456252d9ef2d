//! Seeded instances in the realistic regime of Sia's MILP, for tests and the benchmark
//! (`cargo run --release -p smd-bench --bin milp`).
//!
//! The default cluster of MODEL.md §24.3 scaled `k`×: types of 6k 4-GPU nodes, 2k and 3k
//! 8-GPU nodes (capacities 24k, 16k, 24k GPUs), their configuration lists capped at 16 and
//! 8 nodes (19 configurations at k = 1, 40 at k = 32), and 30k jobs:
//!
//! - a third are new: value 10 on each type's 1-GPU configuration, −9890 (A = 100)
//!   elsewhere;
//! - the others run: goodput `G = s_t·g^e` (× 0.85 across nodes) up to a GPU cap M, the row
//!   normalised to minimum 1, every configuration but the current one times a restart
//!   factor r ∈ [0.3, 1], and `v = 110 − round(100·G^−½)`; configurations beyond M are not
//!   allowed;
//! - a tenth of the running jobs are pinned to their current configuration (while the
//!   pins fit).

use super::Problem;

/// An instance, owning what a [`Problem`] borrows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Per job, per configuration.
    pub values: Vec<Vec<Option<i64>>>,
    /// Per configuration.
    pub gpus: Vec<u32>,
    /// Per configuration.
    pub kind: Vec<usize>,
    /// Per type.
    pub capacity: Vec<u32>,
    /// Per job.
    pub pinned: Vec<Option<usize>>,
}

impl Instance {
    /// The problem this instance states.
    pub fn problem(&self) -> Problem<'_> {
        Problem {
            values: &self.values,
            gpus: &self.gpus,
            kind: &self.kind,
            capacity: &self.capacity,
            pinned: &self.pinned,
        }
    }
}

/// SplitMix64: a small seeded generator (no dependency), shared with the solver's tests.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.bits() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in 0..n (n ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.bits() % n as u64) as usize
    }

    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
}

/// The instance of `seed` at scale `k` (k ≥ 1; 1 is ≈30 jobs, 32 is ≈1000).
pub fn realistic(seed: u64, k: u32) -> Instance {
    let k = k.max(1);
    let mut rng = Rng(seed ^ 0x5DEE_CE66_D1CE_5EED);
    // (GPUs per node, nodes) per type.
    let types = [(4u32, 6 * k), (8, 2 * k), (8, 3 * k)];
    let mut gpus = Vec::new();
    let mut kind = Vec::new();
    let mut nodes_of = Vec::new();
    for (t, &(per_node, nodes)) in types.iter().enumerate() {
        let most = if per_node == 4 { 16 } else { 8 };
        let mut list: Vec<(u32, u32)> = vec![(1, 1), (1, 2), (1, 4)];
        if per_node == 8 {
            list.push((1, 8));
        }
        list.extend((2..=most).map(|n| (n, per_node * n)));
        for (n, g) in list {
            if n <= nodes {
                gpus.push(g);
                kind.push(t);
                nodes_of.push(n);
            }
        }
    }
    let capacity: Vec<u32> = types.iter().map(|&(g, n)| g * n).collect();
    let configs = gpus.len();
    let jobs = 30 * k as usize;
    let mut values = Vec::with_capacity(jobs);
    let mut pinned = vec![None; jobs];
    let mut pinned_use = vec![0u32; types.len()];
    let value = |g: f64| 110 - (100.0 * g.powf(-0.5)).round() as i64;
    for pin in pinned.iter_mut() {
        if rng.below(3) == 0 {
            values.push(
                (0..configs)
                    .map(|c| Some(if gpus[c] == 1 { 10 } else { -9890 }))
                    .collect(),
            );
            continue;
        }
        let cap = 1u32 << rng.below(7).min(rng.below(7));
        let exponent = 0.3 + 0.65 * rng.unit();
        let speed: Vec<f64> = (0..types.len()).map(|_| 0.5 + 1.5 * rng.unit()).collect();
        let mut goodput: Vec<Option<f64>> = (0..configs)
            .map(|c| {
                (gpus[c] <= cap).then(|| {
                    let across = if nodes_of[c] > 1 { 0.85 } else { 1.0 };
                    speed[kind[c]] * f64::from(gpus[c]).powf(exponent) * across
                })
            })
            .collect();
        let least = goodput
            .iter()
            .flatten()
            .fold(f64::INFINITY, |m, &g| m.min(g));
        let valid: Vec<usize> = (0..configs).filter(|&c| goodput[c].is_some()).collect();
        let current = valid[rng.below(valid.len())];
        let restart = 0.3 + 0.7 * rng.unit();
        for (c, g) in goodput.iter_mut().enumerate() {
            if let Some(g) = g {
                *g /= least;
                if c != current {
                    *g *= restart;
                }
            }
        }
        values.push(goodput.iter().map(|g| g.map(value)).collect());
        let t = kind[current];
        if rng.below(10) == 0 && pinned_use[t] + gpus[current] <= capacity[t] {
            pinned_use[t] += gpus[current];
            *pin = Some(current);
        }
    }
    Instance {
        values,
        gpus,
        kind,
        capacity,
        pinned,
    }
}
