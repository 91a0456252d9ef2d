//! docs/MODEL.md §18: the scenario's model of a worker that shares a GPU — the rules of a
//! GPU, the normal distribution they use, and each shareable worker's *effective* share of
//! a GPU, which admission sees instead of a whole GPU. Owned here, under validation, so
//! that the ε budget checks the grids planning with sharing builds; the packing itself is
//! `smd-place`'s (`smd_place::share`).

use crate::scenario::{Job, Scenario, DEFAULT_COLLISION_PROB, DEFAULT_SHARE_OVERHEAD};

/// The rules of a GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Memory of one GPU, GB.
    pub gpu_memory_gb: f64,
    /// The accepted probability that the members' memory exceeds the GPU's.
    pub collision_prob: f64,
    /// κ: the slowdown each co-runner adds.
    pub share_overhead: f64,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            gpu_memory_gb: 16.0,
            collision_prob: 0.01,
            share_overhead: 0.02,
        }
    }
}

/// The standard normal CDF Φ(x) (erfc of W. J. Cody's rational approximations through
/// Numerical Recipes' Chebyshev fit; |error| < 1.2e-7).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t * libm::exp(
        -z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))),
    );
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// z with Φ(z) = p, p in (0, 1): Acklam's rational approximation refined by two Newton
/// steps on [`normal_cdf`].
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let mut x = if p < 0.024_25 {
        tail((-2.0 * libm::log(p)).sqrt())
    } else if p > 1.0 - 0.024_25 {
        -tail((-2.0 * libm::log(1.0 - p)).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    for _ in 0..2 {
        let density = libm::exp(-0.5 * x * x) / (2.0 * std::f64::consts::PI).sqrt();
        if density > 0.0 {
            x -= (normal_cdf(x) - p) / density;
        }
    }
    x
}

/// The sharing rules of a scenario: its GPU memory (the smallest `gpu_memory_gb` of its
/// machine groups; 16 GB on a pool or when none is given), `params.collision_prob` and
/// `params.share_overhead`.
pub fn rules_of(s: &Scenario) -> Rules {
    let memory = s
        .cluster
        .machines
        .iter()
        .filter_map(|g| g.gpu_memory_gb)
        .reduce(f64::min)
        .unwrap_or(Rules::default().gpu_memory_gb);
    Rules {
        gpu_memory_gb: memory,
        collision_prob: s.params.collision_prob.unwrap_or(DEFAULT_COLLISION_PROB),
        share_overhead: s.params.share_overhead.unwrap_or(DEFAULT_SHARE_OVERHEAD),
    }
}

/// The smallest effective GPU share a worker is counted at (64 workers to a GPU at most).
pub const MIN_SHARE: f64 = 1.0 / 64.0;

/// Whether job `j`'s workers may share GPUs: one GPU each, and a memory profile.
pub fn shareable(j: &Job) -> bool {
    j.worker.gpu == 1.0 && j.gpu_mem_mean_gb.is_some()
}

/// The effective GPU share of one worker: the memory it reserves with its spread
/// (`(μ + z·σ)/M`: summing these never breaks the memory rule, as `sqrt(Σσ²) ≤ Σσ`) or its
/// compute intensity, whichever is larger, in [[`MIN_SHARE`], 1].
pub fn effective_share(j: &Job, rules: &Rules, z: f64) -> f64 {
    let mem = (j.gpu_mem_mean_gb.unwrap_or(0.0) + z * j.gpu_mem_sd_gb.unwrap_or(0.0))
        / rules.gpu_memory_gb;
    mem.max(j.gpu_util.unwrap_or(1.0)).clamp(MIN_SHARE, 1.0)
}

/// The scenario admission and placement see with sharing on: every shareable worker at its
/// [`effective_share`] of a GPU under the scenario's rules ([`rules_of`]).
pub fn effective_scenario(s: &Scenario) -> Scenario {
    let rules = rules_of(s);
    effective(s, &rules, normal_quantile(1.0 - rules.collision_prob))
}

/// Whether `s` plans with GPU sharing (`params.gpu_sharing` set and not `off`).
pub fn sharing_on(s: &Scenario) -> bool {
    s.params
        .gpu_sharing
        .is_some_and(|a| a != crate::scenario::GpuSharing::Off)
}

/// `s` with every shareable worker at its effective share under `rules` and quantile `z`.
pub fn effective(s: &Scenario, rules: &Rules, z: f64) -> Scenario {
    let mut e = s.clone();
    for j in &mut e.jobs {
        if shareable(j) {
            j.worker.gpu = effective_share(j, rules, z);
        }
    }
    e
}
