//! docs/MODEL.md §9, policy **global** (improved): the true optimum of the joint problem — every
//! job's integer (w, p) and the admitted set chosen together — as a multiple-choice
//! multi-dimensional knapsack over each job's Pareto set of allocations.
//!
//! A job's options are its integer points of Ω that no componentwise-smaller point matches
//! in utility (demand grows with w and p, so a smaller point with at least the utility is
//! never worse); options of zero utility or that exceed the cluster are dropped.
//!
//! The search is a depth-first branch and bound over jobs. Its bound is Lagrangian: for any
//! y ≥ 0, `value + y·(capacity − used) + Σ_{jobs left} max(0, max_k u_k − y·D_k)` bounds every
//! completion (weak duality of the LP relaxation), and with y fixed at the root it costs O(1)
//! per node through suffix sums. y is found at the root by subgradient descent on the
//! Lagrangian dual; any y is valid, a good one prunes more. The incumbent starts at the best
//! plan of every other policy, improved by a local search (change one job's option, or drop
//! one job to change another's), so global is never below any policy, proven or not.
//!
//! Limits, honestly: the bound is the LP relaxation's, whose gap is up to R jobs' utility, so
//! with few jobs and a binding capacity the search often stops at its node limit unproven
//! (about 3 in 10 generated scenarios of 10–100 jobs at the default limit); the plan then
//! reports the gap.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::knapsack::{fits_all, Limits, R};
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
/// `extra` points (e.g. other policies' allocations), so huge regions never fail.
pub fn pareto(m: &JobModel, cap: &[f64; R], extra: &[(u64, u64)]) -> Options {
    let wmax = m.omega.w_max_int();
    let pmax1 = m.omega.p_max_int(1);
    if wmax.saturating_mul(pmax1) <= MAX_BOX {
        let ws: Vec<u64> = (1..=wmax).collect();
        let ps: Vec<u64> = (1..=pmax1).collect();
        return Options {
            options: pareto_on(m, cap, &ws, &ps),
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
        options: pareto_on(m, cap, &axis(wmax, |e| e.0), &axis(pmax1, |e| e.1)),
        complete: false,
    }
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
fn pareto_on(m: &JobModel, cap: &[f64; R], ws: &[u64], ps: &[u64]) -> Vec<Option_> {
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
            let u = m.utility_at(w as f64, p as f64);
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

/// An upper bound on the joint optimum when some jobs' option sets are incomplete: the
/// Lagrangian `y·cap + Σ_i max(0, max_k u_ik − y·D_ik)` at the dual y of the searched
/// options, where an incomplete job's term is relaxed to `max(0, u_max − y·D_min)` (its
/// best utility anywhere in Ω, its least demand), which bounds every option it has.
pub fn relaxed_bound(
    options: &[Vec<Option_>],
    relaxed: &[Option<(f64, [f64; R])>],
    cap: &[f64; R],
) -> f64 {
    let y = dual(options, cap);
    let dot = |d: &[f64; R]| (0..R).map(|r| y[r] * d[r]).sum::<f64>();
    let mut val = dot(cap);
    for (opts, rel) in options.iter().zip(relaxed) {
        val += match rel {
            Some((u_max, d_min)) => (u_max - dot(d_min)).max(0.0),
            None => opts
                .iter()
                .map(|o| o.utility - dot(&o.demand))
                .fold(0.0, f64::max),
        };
    }
    val
}

/// The joint optimum's answer: per job the chosen option (index into its Pareto set) or none.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Per job: `Some((w, p))` if admitted.
    pub chosen: Vec<Option<(u64, u64)>>,
    /// Σ utility.
    pub value: f64,
    /// Best upper bound when the search stopped (= value when proven).
    pub bound: f64,
    /// Whether the optimum is proven.
    pub proven_optimal: bool,
    /// Nodes expanded.
    pub nodes: u64,
    /// Options per job after the Pareto filter, summed.
    pub options: u64,
}

/// Solves the multiple-choice knapsack over `options[i]` (job i's Pareto set), starting from
/// the incumbent `start` (a feasible choice per job), within the node and time limits.
pub fn solve(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    start: &[Option<(u64, u64)>],
    limits: &Limits,
) -> Joint {
    let t_start = limits.clock.map(|c| c());
    let out_of_time = || match (limits.time_ms, limits.clock, t_start) {
        (Some(budget), Some(c), Some(t0)) => c() - t0 > budget,
        _ => false,
    };
    let mut stopped = false;
    let n = options.len();
    let total: u64 = options.iter().map(|o| o.len() as u64).sum();
    let value_of = |choice: &[Option<(u64, u64)>]| -> f64 {
        choice
            .iter()
            .zip(options)
            .filter_map(|(c, opts)| {
                let (w, p) = (*c)?;
                opts.iter()
                    .find(|o| o.w == w && o.p == p)
                    .map(|o| o.utility)
            })
            .sum()
    };
    // The incumbent: `start`, with any choice outside the Pareto set replaced by a Pareto
    // option that dominates it (same or smaller (w, p), at least the utility).
    let mut inc: Vec<Option<(u64, u64)>> = start
        .iter()
        .zip(options)
        .map(|(c, opts)| {
            let (w, p) = (*c)?;
            opts.iter()
                .filter(|o| o.w <= w && o.p <= p)
                .max_by(|a, b| a.utility.total_cmp(&b.utility))
                .map(|o| (o.w, o.p))
        })
        .collect();
    inc.resize(n, None);
    improve(options, cap, &mut inc, &out_of_time);
    let mut inc_value = value_of(&inc);

    let y = dual(options, cap);
    let reduced = |o: &Option_| o.utility - (0..R).map(|r| y[r] * o.demand[r]).sum::<f64>();
    // Jobs in order of their best reduced value; each job's options best first.
    let best_reduced: Vec<f64> = options
        .iter()
        .map(|o| o.iter().map(reduced).fold(0.0, f64::max))
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| best_reduced[b].total_cmp(&best_reduced[a]).then(a.cmp(&b)));
    let sorted: Vec<Vec<usize>> = options
        .iter()
        .map(|o| {
            let mut idx: Vec<usize> = (0..o.len()).collect();
            idx.sort_by(|&a, &b| reduced(&o[b]).total_cmp(&reduced(&o[a])));
            idx
        })
        .collect();
    let mut tail = vec![0.0; n + 1];
    for d in (0..n).rev() {
        tail[d] = tail[d + 1] + best_reduced[order[d]];
    }
    let bound_at = |d: usize, value: f64, used: &[f64; R]| {
        value
            + (0..R)
                .map(|r| y[r] * (cap[r] - used[r]).max(0.0))
                .sum::<f64>()
            + tail[d]
    };
    let root_bound = bound_at(0, 0.0, &[0.0; R]);
    let tol = |v: f64| 1e-9 * v.abs().max(1e-300);
    // Depth-first: a frame per depth with the next option to try (usize::MAX = "none").
    let mut path: Vec<Option<usize>> = Vec::with_capacity(n);
    let mut used_stack: Vec<[f64; R]> = vec![[0.0; R]];
    let mut value_stack: Vec<f64> = vec![0.0];
    let mut next_try: Vec<usize> = vec![0];
    let mut bound_stack: Vec<f64> = vec![root_bound];
    let mut nodes = 0u64;
    let mut open_bound = f64::NEG_INFINITY; // the largest bound left unexplored at a stop
    loop {
        let d = path.len();
        let used = *used_stack.last().expect("stack");
        let value = *value_stack.last().expect("stack");
        if d == n {
            if value > inc_value + tol(inc_value) {
                inc_value = value;
                inc = vec![None; n];
                for (k, c) in path.iter().enumerate() {
                    if let Some(o) = c {
                        let opt = &options[order[k]][*o];
                        inc[order[k]] = Some((opt.w, opt.p));
                    }
                }
            }
        } else if !stopped && *bound_stack.last().expect("stack") > inc_value + tol(inc_value) {
            // Try the next child of this node.
            let job = order[d];
            let k = next_try[d];
            let m = sorted[job].len();
            if k <= m {
                next_try[d] = k + 1;
                nodes += 1;
                if nodes >= limits.nodes || (nodes % 1024 == 0 && out_of_time()) {
                    stopped = true;
                }
                let child = if k < m { Some(sorted[job][k]) } else { None };
                let (mut u, mut v) = (used, value);
                if let Some(o) = child {
                    let opt = &options[job][o];
                    for r in 0..R {
                        u[r] += opt.demand[r];
                    }
                    if !fits_all(&u, cap) {
                        continue;
                    }
                    v += opt.utility;
                }
                path.push(child);
                used_stack.push(u);
                value_stack.push(v);
                next_try.push(0);
                bound_stack.push(bound_at(d + 1, v, &u));
                continue;
            }
        } else if stopped {
            open_bound = open_bound.max(*bound_stack.last().expect("stack"));
        }
        // Backtrack.
        if path.pop().is_none() {
            break;
        }
        used_stack.pop();
        value_stack.pop();
        next_try.pop();
        bound_stack.pop();
    }
    let proven = !stopped || open_bound <= inc_value + tol(inc_value);
    Joint {
        chosen: inc,
        value: inc_value,
        bound: if proven {
            inc_value
        } else {
            open_bound.max(inc_value).min(root_bound)
        },
        proven_optimal: proven,
        nodes,
        options: total,
    }
}

/// Local search on a feasible choice: repeatedly the best single move — change one job's
/// option (or drop or add it), or drop one job to change another's — while it gains.
fn improve(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    choice: &mut [Option<(u64, u64)>],
    out_of_time: &dyn Fn() -> bool,
) {
    let n = options.len();
    let idx = |i: usize, c: Option<(u64, u64)>| -> Option<usize> {
        let (w, p) = c?;
        options[i].iter().position(|o| o.w == w && o.p == p)
    };
    let mut cur: Vec<Option<usize>> = (0..n).map(|i| idx(i, choice[i])).collect();
    let val = |i: usize, k: Option<usize>| k.map_or(0.0, |k| options[i][k].utility);
    let dem = |i: usize, k: Option<usize>| k.map_or([0.0; R], |k| options[i][k].demand);
    let mut used = [0.0; R];
    for (i, &k) in cur.iter().enumerate() {
        let d = dem(i, k);
        for r in 0..R {
            used[r] += d[r];
        }
    }
    for _ in 0..200 {
        if out_of_time() {
            break;
        }
        // Admitted jobs by ascending utility: the drop loop below stops at the first job
        // whose loss leaves no gain above the best move so far.
        let mut admitted: Vec<(f64, usize)> = (0..n)
            .filter(|&j| cur[j].is_some())
            .map(|j| (val(j, cur[j]), j))
            .collect();
        admitted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // (gain, job to change, its new option, job to drop)
        let mut best: Option<(f64, usize, Option<usize>, Option<usize>)> = None;
        for i in 0..n {
            let (vi, di) = (val(i, cur[i]), dem(i, cur[i]));
            for k in (0..options[i].len()).map(Some).chain([None]) {
                if k == cur[i] {
                    continue;
                }
                let gain = val(i, k) - vi;
                if gain <= 1e-12 * vi.abs().max(1e-300) {
                    continue;
                }
                let dk = dem(i, k);
                let after: [f64; R] = std::array::from_fn(|r| used[r] - di[r] + dk[r]);
                if fits_all(&after, cap) {
                    if best.is_none_or(|b| gain > b.0) {
                        best = Some((gain, i, k, None));
                    }
                    continue;
                }
                // Make room by dropping one other admitted job.
                for &(vj, j) in &admitted {
                    let g = gain - vj;
                    if g <= 1e-12 || best.is_some_and(|b| g <= b.0) {
                        break;
                    }
                    if j == i {
                        continue;
                    }
                    let dj = dem(j, cur[j]);
                    let room: [f64; R] = std::array::from_fn(|r| after[r] - dj[r]);
                    if fits_all(&room, cap) {
                        best = Some((g, i, k, Some(j)));
                    }
                }
            }
        }
        let Some((_, i, k, drop)) = best else { break };
        let (di, dk) = (dem(i, cur[i]), dem(i, k));
        for r in 0..R {
            used[r] += dk[r] - di[r];
        }
        cur[i] = k;
        if let Some(j) = drop {
            let dj = dem(j, cur[j]);
            for r in 0..R {
                used[r] -= dj[r];
            }
            cur[j] = None;
        }
    }
    for i in 0..n {
        choice[i] = cur[i].map(|k| (options[i][k].w, options[i][k].p));
    }
}

/// A good y ≥ 0 for the Lagrangian bound: subgradient descent on
/// `L(y) = y·cap + Σ_i max(0, max_k u_ik − y·D_ik)`; returns the best y seen.
fn dual(options: &[Vec<Option_>], cap: &[f64; R]) -> [f64; R] {
    let eval = |y: &[f64; R]| -> (f64, [f64; R]) {
        let mut val: f64 = (0..R).map(|r| y[r] * cap[r]).sum();
        let mut g = *cap;
        for opts in options {
            let mut best: Option<&Option_> = None;
            let mut bv = 0.0;
            for o in opts {
                let v = o.utility - (0..R).map(|r| y[r] * o.demand[r]).sum::<f64>();
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
    };
    // Descend in z_r = y_r·cap_r (utility units), where the subgradient is 1 − Σ D_r/cap_r.
    let mut y = [0.0; R];
    let (l0, _) = eval(&y);
    let (mut best_val, mut best_y) = (l0, y);
    let mut z = [0.0; R];
    for it in 0..400 {
        let (val, g) = eval(&y);
        if val < best_val {
            best_val = val;
            best_y = y;
        }
        let gz: [f64; R] = std::array::from_fn(|r| if cap[r] > 0.0 { g[r] / cap[r] } else { 0.0 });
        let norm = gz.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 {
            break;
        }
        let step = 0.2 * l0 / (R as f64) / (1.0 + it as f64).sqrt();
        for r in 0..R {
            z[r] = (z[r] - step * gz[r] / norm).max(0.0);
            y[r] = if cap[r] > 0.0 { z[r] / cap[r] } else { 0.0 };
        }
    }
    best_y
}
