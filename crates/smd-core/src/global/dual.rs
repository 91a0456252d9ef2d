//! The LP relaxation's dual (docs/MODEL.md §9, global, *Prices*): prices y ≥ 0 for the R
//! capacities that minimise the Lagrangian `L(y) = y·cap + Σ_i max(0, max_k u_ik − y·D_ik)`.
//!
//! Every y gives a valid upper bound L(y) on the joint optimum (weak duality), so a poor y
//! is never wrong, only weak. L is convex and piecewise linear in R = 4 variables: a few
//! hundred subgradient steps get near its minimum, then Kelley's cutting planes (an LP in
//! y and one epigraph variable, one cut per evaluation) finish exactly in a few dozen
//! evaluations, because L has finitely many pieces and only the binding capacities matter.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use super::Option_;
use crate::knapsack::R;
use crate::lp::{Lp, Op, Outcome, Sense};

/// The prices found and what they certify.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual {
    /// Prices per unit of each capacity (≥ 0).
    pub y: [f64; R],
    /// L(y): an upper bound on the joint optimum.
    pub value: f64,
    /// A lower bound on min L (the cutting-plane model's minimum): `value − lower` says how
    /// far y may be from the best prices.
    pub lower: f64,
}

/// `y·d`: a demand (or the capacity) at prices y.
pub fn priced(y: &[f64; R], d: &[f64; R]) -> f64 {
    (0..R).map(|r| y[r] * d[r]).sum()
}

/// An upper bound on the joint optimum when some jobs' option sets are incomplete: the
/// Lagrangian `y·cap + Σ_i max(0, max_k u_ik − y·D_ik)` at any y ≥ 0 (e.g. the dual of the
/// searched options), where an incomplete job's term is relaxed to `max(0, u_max − y·D_min)`
/// (its best utility anywhere in Ω, its least demand), which bounds every option it has.
pub fn relaxed_bound(
    options: &[Vec<Option_>],
    relaxed: &[Option<(f64, [f64; R])>],
    cap: &[f64; R],
    y: &[f64; R],
) -> f64 {
    let mut val = priced(y, cap);
    for (opts, rel) in options.iter().zip(relaxed) {
        val += match rel {
            Some((u_max, d_min)) => (u_max - priced(y, d_min)).max(0.0),
            None => opts
                .iter()
                .map(|o| o.utility - priced(y, &o.demand))
                .fold(0.0, f64::max),
        };
    }
    val
}

/// `L(y)` and a subgradient (`cap − Σ_i D_i,k*(i)`, k* the job's maximiser or nothing).
pub fn lagrangian(options: &[Vec<Option_>], cap: &[f64; R], y: &[f64; R]) -> (f64, [f64; R]) {
    let mut val = priced(y, cap);
    let mut g = *cap;
    for opts in options {
        let mut best: Option<&Option_> = None;
        let mut bv = 0.0;
        for o in opts {
            let v = o.utility - priced(y, &o.demand);
            if v > bv {
                bv = v;
                best = Some(o);
            }
        }
        val += bv;
        if let Some(o) = best {
            for r in 0..R {
                g[r] -= o.demand[r];
            }
        }
    }
    (val, g)
}

/// Subgradient steps before the cutting planes take over.
const SUBGRADIENT_STEPS: usize = 150;
/// Most cutting-plane iterations.
const KELLEY_STEPS: usize = 80;
/// Relative distance between L(y) and the model's minimum at which y counts as optimal.
const DUAL_TOL: f64 = 1e-10;

/// Near-optimal prices: subgradient descent, then Kelley's cutting planes (bounded work:
/// at most 150 + 80 evaluations of L, so it runs whatever the time budget).
pub fn solve(options: &[Vec<Option_>], cap: &[f64; R], deadline: super::Deadline) -> Dual {
    // Work in z_r = y_r·cap_r (utility units), where every coordinate has the same scale.
    let to_y = |z: &[f64; R]| -> [f64; R] {
        std::array::from_fn(|r| if cap[r] > 0.0 { z[r] / cap[r] } else { 0.0 })
    };
    let (l0, g0) = lagrangian(options, cap, &[0.0; R]);
    let mut cuts: Vec<([f64; R], f64, [f64; R])> = vec![([0.0; R], l0, g0)];
    let mut best = ([0.0; R], l0);
    let mut z = [0.0; R];
    for it in 0..SUBGRADIENT_STEPS {
        if super::past(deadline) {
            break;
        }
        let g = cuts.last().expect("one cut").2;
        let gz: [f64; R] = std::array::from_fn(|r| if cap[r] > 0.0 { g[r] / cap[r] } else { 0.0 });
        let norm = gz.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 {
            break;
        }
        let step = 0.2 * l0 / (R as f64) / (1.0 + it as f64).sqrt();
        for r in 0..R {
            z[r] = (z[r] - step * gz[r] / norm).max(0.0);
        }
        let (v, g) = lagrangian(options, cap, &to_y(&z));
        if v < best.1 {
            best = (z, v);
        }
        cuts.push((z, v, g));
    }
    let mut lower = 0.0;
    for _ in 0..KELLEY_STEPS {
        if super::past(deadline) {
            break;
        }
        let Some((zk, model_min)) = master(&cuts, cap, l0) else {
            break;
        };
        lower = model_min.max(lower);
        if best.1 - lower <= DUAL_TOL * best.1.abs().max(1.0) {
            break;
        }
        let (v, g) = lagrangian(options, cap, &to_y(&zk));
        if v < best.1 {
            best = (zk, v);
        }
        cuts.push((zk, v, g));
    }
    Dual {
        y: to_y(&best.0),
        value: best.1,
        lower: lower.min(best.1),
    }
}

/// Kelley's master: `min t` over `0 ≤ z ≤ zmax` with `t ≥ L_j + Σ_r g_jr/cap_r·(z_r − z_jr)`
/// for every cut; the minimiser and the minimum (a lower bound on min L over the box,
/// which holds the optimum because y·cap ≤ L(y*) ≤ L(0) = zmax).
fn master(
    cuts: &[([f64; R], f64, [f64; R])],
    cap: &[f64; R],
    zmax: f64,
) -> Option<([f64; R], f64)> {
    let mut lp = Lp::new(Sense::Min);
    let zs: [Option<usize>; R] =
        std::array::from_fn(|r| (cap[r] > 0.0).then(|| lp.var(0.0, 0.0, zmax)));
    let t = lp.var(1.0, 0.0, f64::INFINITY);
    for (zj, lj, gj) in cuts {
        // t − Σ_r s_r z_r ≥ L_j − Σ_r s_r z_jr, with s_r = g_jr / cap_r.
        let mut terms = vec![(t, 1.0)];
        let mut rhs = *lj;
        for r in 0..R {
            if let Some(v) = zs[r] {
                let s = gj[r] / cap[r];
                terms.push((v, -s));
                rhs -= s * zj[r];
            }
        }
        lp.row(&terms, Op::Ge, rhs);
    }
    match lp.solve().ok()? {
        Outcome::Optimal { x, objective } => {
            let z = std::array::from_fn(|r| zs[r].map_or(0.0, |v| x[v].clamp(0.0, zmax)));
            Some((z, objective))
        }
        _ => None,
    }
}
