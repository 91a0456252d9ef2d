//! A job's options: the Pareto set of its integer allocations (utility vs demand), thinned
//! when Ω's box is huge, and the relaxed bound for thinned jobs.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::knapsack::{fits_all, R};
use crate::model::JobModel;

/// Most allocations enumerated per job (the integer box of Ω); a larger box is thinned.
pub const MAX_BOX: u64 = 4_000_000;

/// Every integer up to this is kept on each axis of a thinned box; beyond it, a geometric
/// sequence of ratio [`THIN_RATIO`].
const THIN_DENSE: u64 = 64;
/// Ratio of the geometric part of a thinned axis.
const THIN_RATIO: f64 = 1.05;

/// One allocation option of one job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Option_ {
    /// Workers.
    pub w: u64,
    /// Parameter servers.
    pub p: u64,
    /// μ(π(T(w, p))).
    pub utility: f64,
    /// w·O^w + p·O^p.
    pub demand: [f64; R],
}

/// A job's options: its Pareto set, or that of a thinned grid when the box is too large.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The options (Pareto-filtered).
    pub options: Vec<Option_>,
    /// `false` when the box exceeded [`MAX_BOX`] and only a thinned grid of it (every w and
    /// p up to 64, then a ratio of 1.05, plus the extra points given) was searched: the
    /// job's true Pareto set may hold better options.
    pub complete: bool,
}

/// The Pareto set of a feasible job's allocations (utility vs demand): every integer point
/// of Ω when the box holds at most [`MAX_BOX`] of them, else a thinned grid that includes
/// `extra` points (e.g. other policies' allocations), so huge regions never fail. Each
/// allocation is priced in its fastest configuration, spread or one of `colocated`
/// (docs/MODEL.md §16; none on a pool).
pub fn pareto(
    m: &JobModel,
    colocated: &[JobModel],
    cap: &[f64; R],
    extra: &[(u64, u64)],
) -> Options {
    if let Some(c) = &m.measured {
        return Options {
            options: pareto_measured(m, c.cap, cap),
            complete: true,
        };
    }
    let wmax = m.omega.w_max_int();
    let pmax1 = m.omega.p_max_int(1);
    if !thinned_box(m) {
        let ws: Vec<u64> = (1..=wmax).collect();
        let ps: Vec<u64> = (1..=pmax1).collect();
        return Options {
            options: pareto_on(m, colocated, cap, &ws, &ps),
            complete: true,
        };
    }
    let axis = |max: u64, pick: fn(&(u64, u64)) -> u64| {
        let mut v = thinned(max);
        v.extend(extra.iter().map(pick).filter(|&x| x >= 1 && x <= max));
        v.sort_unstable();
        v.dedup();
        v
    };
    Options {
        options: pareto_on(
            m,
            colocated,
            cap,
            &axis(wmax, |e| e.0),
            &axis(pmax1, |e| e.1),
        ),
        complete: false,
    }
}

/// A measured job's options (MODEL.md §21): every w = 1…cap (p = 0) that beats each smaller
/// w in utility.
fn pareto_measured(m: &JobModel, w_cap: u32, cap: &[f64; R]) -> Vec<Option_> {
    let mut best = 0.0;
    let mut out = Vec::new();
    for w in 1..=u64::from(w_cap) {
        let u = m.utility_at(w as f64, 0.0);
        let demand = m.demand(w as f64, 0.0);
        if u > best && fits_all(&demand, cap) {
            out.push(Option_ {
                w,
                p: 0,
                utility: u,
                demand,
            });
            best = u;
        }
    }
    out
}

/// Whether a job's integer box (`w_max × p_max(1)`) exceeds [`MAX_BOX`], so that
/// [`pareto`] searches a thinned grid of it.
pub fn thinned_box(m: &JobModel) -> bool {
    !m.is_measured() && m.omega.w_max_int().saturating_mul(m.omega.p_max_int(1)) > MAX_BOX
}

/// 1, 2, …, 64, then ⌈64·1.05^k⌉ up to `max`, and `max` itself.
fn thinned(max: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (1..=max.min(THIN_DENSE)).collect();
    let mut x = THIN_DENSE as f64;
    while (x as u64) < max {
        x = (x * THIN_RATIO).ceil();
        v.push((x as u64).min(max));
    }
    v.dedup();
    v
}

/// The options on the grid `ws × ps` (both ascending) that no grid point with smaller or
/// equal w and p matches in utility.
fn pareto_on(
    m: &JobModel,
    colocated: &[JobModel],
    cap: &[f64; R],
    ws: &[u64],
    ps: &[u64],
) -> Vec<Option_> {
    // best_prev[j] = the largest utility over rows so far and columns ≤ j, inclusive.
    let mut best_prev = vec![f64::NEG_INFINITY; ps.len()];
    let mut out = Vec::new();
    for &w in ws {
        let pmax = m.omega.p_max_int(w);
        let mut best_row = vec![f64::NEG_INFINITY; ps.len()];
        let mut left = f64::NEG_INFINITY; // max over (w, p' < p) and (w' < w, p' ≤ p−1)
        for (j, &p) in ps.iter().enumerate() {
            if p > pmax {
                // Columns beyond this row's p_max carry the prefix maximum forward.
                best_row[j] = left.max(best_prev[j]);
                left = best_row[j];
                continue;
            }
            let u = crate::joint::best_utility(m, colocated, w, p);
            let below = best_prev[j]; // w' < w, p' ≤ p
            let dominated = u <= left.max(below);
            let demand = m.demand(w as f64, p as f64);
            if !dominated && u > 0.0 && fits_all(&demand, cap) {
                out.push(Option_ {
                    w,
                    p,
                    utility: u,
                    demand,
                });
            }
            best_row[j] = u.max(left).max(below);
            left = best_row[j];
        }
        best_prev = best_row;
    }
    out
}
