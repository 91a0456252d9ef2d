//! The exact search (docs/MODEL.md §9, global, *Search*): depth-first branch and bound on
//! the *core* — the jobs whose choice is still open once reduced-cost fixing has removed
//! every option that cannot be in a plan better than the incumbent.
//!
//! With prices y, job i's reduced value of option k is `u_ik − y·D_ik`, its best
//! `π_i = max(0, max_k …)`, and the option's reduced cost `rc_ik = π_i − (u_ik − y·D_ik)`
//! (`rc = π_i` for not admitting it). Any plan x has value `≤ L(y) − Σ_i rc_i,x_i`, so a plan
//! better than the incumbent z uses only options with `rc ≤ L(y) − z`: jobs left with one
//! such option are fixed, and the search enumerates the rest in order of increasing
//! reduced cost, pruning a node when `L(y) − Σ rc ≤ z` or when even the least demand of the
//! jobs below it no longer fits. Jobs with identical option lists are interchangeable, so
//! their choices are enumerated in non-decreasing order only (symmetry breaking). The
//! bound of every unexplored node is known in O(depth), so a stopped search reports a true
//! upper bound.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use super::dual::priced;
use super::incumbent::{self, Choice};
use super::{Dual, Option_};
use crate::knapsack::{fits_all, Limits, R};

/// One open choice of a core job.
#[derive(Clone, Copy, Debug)]
struct Cand {
    /// The option, or `None` for not admitting the job.
    k: Option<usize>,
    /// Its reduced cost (≥ 0).
    rc: f64,
    utility: f64,
    demand: [f64; R],
}

/// Where the search is, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// Nodes expanded so far.
    pub nodes: u64,
    /// The incumbent's value.
    pub best: f64,
    /// An upper bound on the optimum.
    pub bound: f64,
}

/// What the search ends with.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The best choice found.
    pub choice: Choice,
    /// Its value.
    pub value: f64,
    /// An upper bound on the optimum (= value when proven).
    pub bound: f64,
    /// Whether no better plan exists.
    pub proven: bool,
    /// Nodes expanded.
    pub nodes: u64,
    /// Jobs left open after reduced-cost fixing (the core).
    pub core: usize,
}

/// How often (ms of the limits' clock) a running search reports.
const REPORT_EVERY_MS: f64 = 100.0;

/// The aimed time between two clock reads of the search, ms.
const READ_EVERY_MS: f64 = 1.0;

/// The most nodes between two clock reads: the old fixed interval, so a coarse clock
/// (reads in the same tick look free and double the stride) is never read less often than
/// before; a read costs ~20 ns, 1024 of the cheapest nodes ≥ 100 µs.
const MAX_STRIDE: u64 = 1024;

/// Finds the best choice by branch and bound on the core, from the feasible `start`.
///
/// Longer than the project's usual function: the depth-first loop over explicit per-depth
/// stacks (`next`, `pick`, `used`, `val`, `rcs`) reads better whole than split into
/// helpers that would each need all five.
pub fn search(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    dual: &Dual,
    start: Choice,
    limits: &Limits,
    report: &mut dyn FnMut(Report),
) -> Outcome {
    let big_l = dual.value;
    // Rounding noise in L and in sums of utilities is ~1e-13 relative; a better plan by
    // more than 1e-11·L counts. (1e-9·L once hid a plan better by 1.7e-9 of its value when
    // L was twice the optimum — found by the fuzzer.)
    let tol = 1e-11 * big_l.abs().max(1.0);
    let mut inc = start;
    let mut inc_value = incumbent::value(options, &inc);
    let t_start = limits.clock.map(|c| c());
    let deadline: super::Deadline = limits
        .clock
        .zip(limits.time_ms)
        .zip(t_start)
        .map(|((c, ms), t0)| (c, t0 + ms));
    // Building the core passes over every option (and sorts): with millions of options
    // and a weak incumbent that is a good part of a second, so it stops at the deadline
    // too, leaving the incumbent and the LP bound.
    let Some(Core {
        cands,
        free,
        base,
        base_used,
        base_value,
        base_rc,
        same_prev,
        min_rest,
    }) = Core::new(options, &dual.y, big_l - inc_value + tol, deadline)
    else {
        return Outcome {
            choice: inc,
            value: inc_value,
            bound: big_l.max(inc_value),
            proven: big_l <= inc_value + tol,
            nodes: 0,
            core: 0,
        };
    };
    let core = free.len();
    let done = |inc: Choice, value: f64, bound: f64, proven: bool, nodes: u64| Outcome {
        choice: inc,
        value,
        bound: if proven { value } else { bound.max(value) },
        proven,
        nodes,
        core,
    };
    if !fits_all(&base_used, cap) || big_l - base_rc <= inc_value + tol {
        // No plan better than the incumbent exists.
        return done(inc, inc_value, inc_value, true, 0);
    }
    let n = free.len();
    let scaled = Scaled::new(&dual.y, cap, &free, &cands);

    // A first report: the incumbent and the LP bound, before any node.
    report(Report {
        nodes: 0,
        best: inc_value,
        bound: (big_l - base_rc).max(inc_value),
    });
    let mut last_report = t_start.unwrap_or(0.0);
    let mut pace = Pace::new(t_start.unwrap_or(0.0));
    let mut next = vec![0usize; n + 1];
    let mut pick = vec![0usize; n + 1];
    let mut used = vec![base_used; n + 1];
    let mut val = vec![base_value; n + 1];
    let mut rcs = vec![base_rc; n + 1];
    let mut nodes = 0u64;
    let mut d = 0usize;
    // The largest bound of an unexplored node when the path is at depth d: the next
    // untried sibling above d, and the node at d itself (a leaf at n is handled apart).
    let open_bound = |d: usize, next: &[usize], rcs: &[f64]| -> f64 {
        let here = if d < n {
            big_l - rcs[d]
        } else {
            f64::NEG_INFINITY
        };
        (0..d)
            .filter_map(|e| {
                let c = cands[free[e]].get(next[e])?;
                Some(big_l - rcs[e] - c.rc)
            })
            .fold(here, f64::max)
    };
    let record = |inc: &mut Choice, pick: &[usize]| {
        inc.clone_from(&base);
        for e in 0..n {
            inc[free[e]] = cands[free[e]][pick[e]].k;
        }
    };
    loop {
        if d == n {
            if val[d] > inc_value + tol {
                inc_value = val[d];
                record(&mut inc, &pick);
            }
            if n == 0 {
                break;
            }
            d -= 1;
            continue;
        }
        let list = &cands[free[d]];
        let mut child = None;
        let mut k = next[d];
        while k < list.len() {
            let c = &list[k];
            if big_l - (rcs[d] + c.rc) <= inc_value + tol {
                // Candidates are in increasing reduced cost: the rest are worse.
                break;
            }
            let after: [f64; R] = std::array::from_fn(|r| used[d][r] + c.demand[r]);
            let least: [f64; R] = std::array::from_fn(|r| after[r] + min_rest[d + 1][r]);
            if fits_all(&least, cap)
                && scaled.bound(d + 1, val[d] + c.utility, &after) > inc_value + tol
            {
                child = Some((k, after));
                break;
            }
            k += 1;
        }
        let Some((k, after)) = child else {
            next[d] = list.len();
            if d == 0 {
                break;
            }
            d -= 1;
            continue;
        };
        next[d] = k + 1;
        pick[d] = k;
        used[d + 1] = after;
        val[d + 1] = val[d] + list[k].utility;
        rcs[d + 1] = rcs[d] + list[k].rc;
        d += 1;
        next[d] = if d < n && same_prev[d] {
            pick[d - 1]
        } else {
            0
        };
        nodes += 1;
        if pace.due() || nodes >= limits.nodes {
            let now = pace.read(limits.clock);
            let over_time = matches!((limits.time_ms, now, t_start), (Some(b), Some(t), Some(t0)) if t - t0 > b);
            if over_time || nodes >= limits.nodes {
                if d == n && val[d] > inc_value + tol {
                    inc_value = val[d];
                    record(&mut inc, &pick);
                }
                let open = open_bound(d, &next, &rcs);
                let proven = open <= inc_value + tol;
                return done(inc, inc_value, open, proven, nodes);
            }
            if let Some(t) = now {
                if t - last_report >= REPORT_EVERY_MS {
                    last_report = t;
                    report(Report {
                        nodes,
                        best: inc_value,
                        bound: open_bound(d, &next, &rcs).max(inc_value),
                    });
                }
            }
        }
    }
    done(inc, inc_value, inc_value, true, nodes)
}

/// When the search reads the clock: by time, not by node count. A node's cost varies by
/// orders of magnitude with the core's size (12 bounds over the jobs below it), so the
/// nodes between two reads adapt to keep reads about [`READ_EVERY_MS`] apart.
struct Pace {
    stride: u64,
    until_read: u64,
    last_read: f64,
}

impl Pace {
    fn new(t_start: f64) -> Pace {
        Pace {
            stride: 1,
            until_read: 1,
            last_read: t_start,
        }
    }

    /// Counts a node; whether the clock is due.
    fn due(&mut self) -> bool {
        self.until_read -= 1;
        self.until_read == 0
    }

    /// Reads `clock` (if any) and sets the nodes until the next read.
    fn read(&mut self, clock: Option<&dyn Fn() -> f64>) -> Option<f64> {
        let now = clock.map(|c| c());
        if let Some(t) = now {
            let dt = t - self.last_read;
            self.last_read = t;
            if dt < READ_EVERY_MS / 2.0 {
                self.stride = (self.stride * 2).min(MAX_STRIDE);
            } else if dt > READ_EVERY_MS * 2.0 {
                self.stride = (self.stride / 2).max(1);
            }
        } else {
            self.stride = MAX_STRIDE;
        }
        self.until_read = self.stride;
        now
    }
}

/// Multiples of the prices whose Lagrangian bounds every node also takes: a node that
/// used more (or less) of a binding resource than the LP did is bounded more tightly at a
/// higher (or lower) price, so the minimum over a few multiples approaches the node's own
/// LP bound when one resource binds.
const SCALES: [f64; 12] = [
    0.0, 0.5, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25, 1.5, 2.0, 4.0,
];

/// The Lagrangian bound of a node at every multiple of the prices, over the open choices
/// of the jobs below it: `value + y_s·(cap − used) + Σ_{jobs below} max_c (u_c − y_s·D_c)`.
struct Scaled {
    ys: Vec<[f64; R]>,
    /// tail[s][d]: Σ over free jobs at depth ≥ d of their best open reduced value at ys[s].
    tail: Vec<Vec<f64>>,
    cap: [f64; R],
}

impl Scaled {
    fn new(y: &[f64; R], cap: &[f64; R], free: &[usize], cands: &[Vec<Cand>]) -> Scaled {
        let ys: Vec<[f64; R]> = SCALES.iter().map(|t| y.map(|v| v * t)).collect();
        let tail = ys
            .iter()
            .map(|ys| {
                let mut t = vec![0.0; free.len() + 1];
                for d in (0..free.len()).rev() {
                    let best = cands[free[d]]
                        .iter()
                        .map(|c| c.utility - priced(ys, &c.demand))
                        .fold(f64::NEG_INFINITY, f64::max);
                    t[d] = t[d + 1] + best;
                }
                t
            })
            .collect();
        Scaled {
            ys,
            tail,
            cap: *cap,
        }
    }

    /// The least of the bounds of a node at depth `d` with `value` and `used` so far.
    fn bound(&self, d: usize, value: f64, used: &[f64; R]) -> f64 {
        self.ys
            .iter()
            .zip(&self.tail)
            .map(|(y, t)| {
                value + (0..R).map(|r| y[r] * (self.cap[r] - used[r])).sum::<f64>() + t[d]
            })
            .fold(f64::INFINITY, f64::min)
    }
}

/// The search's problem after reduced-cost fixing.
struct Core {
    /// Per job, its open choices (see [`candidates`]).
    cands: Vec<Vec<Cand>>,
    /// The open jobs in search order.
    free: Vec<usize>,
    /// The fixed jobs' choices (open jobs `None`), their demand, value and reduced cost.
    base: Choice,
    base_used: [f64; R],
    base_value: f64,
    base_rc: f64,
    /// Symmetry: `free[d]` has the same options as `free[d − 1]`.
    same_prev: Vec<bool>,
    /// `min_rest[d]` = Σ over depths ≥ d of the least demand among the job's open choices.
    min_rest: Vec<[f64; R]>,
}

impl Core {
    /// Fixes every job with one open choice within `gap` and orders the rest; `None` once
    /// `deadline` passes.
    fn new(
        options: &[Vec<Option_>],
        y: &[f64; R],
        gap: f64,
        deadline: super::Deadline,
    ) -> Option<Core> {
        let cands = candidates(options, y, gap, deadline)?;
        let (mut base_used, mut base_value, mut base_rc) = ([0.0; R], 0.0, 0.0);
        let mut base: Choice = vec![None; options.len()];
        let mut free: Vec<usize> = Vec::new();
        for (i, c) in cands.iter().enumerate() {
            if let [only] = c.as_slice() {
                for r in 0..R {
                    base_used[r] += only.demand[r];
                }
                base_value += only.utility;
                base_rc += only.rc;
                base[i] = only.k;
            } else {
                free.push(i);
            }
        }
        if super::past(deadline) {
            return None;
        }
        order(&mut free, &cands, options, y);
        if super::past(deadline) {
            return None;
        }
        let n = free.len();
        let same_prev = (0..n)
            .map(|d| d > 0 && options[free[d]] == options[free[d - 1]])
            .collect();
        let mut min_rest = vec![[0.0; R]; n + 1];
        for d in (0..n).rev() {
            for r in 0..R {
                let least = cands[free[d]]
                    .iter()
                    .map(|c| c.demand[r])
                    .fold(f64::INFINITY, f64::min);
                min_rest[d][r] = min_rest[d + 1][r] + least;
            }
        }
        Some(Core {
            cands,
            free,
            base,
            base_used,
            base_value,
            base_rc,
            same_prev,
            min_rest,
        })
    }
}

/// Per job, the choices whose reduced cost is at most `gap`, in increasing reduced cost
/// (ties: lower option index first, not admitting last); `None` once `deadline` passes
/// (read every 64 jobs).
fn candidates(
    options: &[Vec<Option_>],
    y: &[f64; R],
    gap: f64,
    deadline: super::Deadline,
) -> Option<Vec<Vec<Cand>>> {
    options
        .iter()
        .enumerate()
        .map(|(i, opts)| {
            if i % 64 == 63 && super::past(deadline) {
                return None;
            }
            let reduced: Vec<f64> = opts
                .iter()
                .map(|o| o.utility - priced(y, &o.demand))
                .collect();
            let pi = reduced.iter().copied().fold(0.0, f64::max);
            let mut list: Vec<Cand> = opts
                .iter()
                .zip(&reduced)
                .enumerate()
                .filter(|(_, (_, &red))| pi - red <= gap)
                .map(|(k, (o, &red))| Cand {
                    k: Some(k),
                    rc: pi - red,
                    utility: o.utility,
                    demand: o.demand,
                })
                .collect();
            if pi <= gap {
                list.push(Cand {
                    k: None,
                    rc: pi,
                    utility: 0.0,
                    demand: [0.0; R],
                });
            }
            // Stable: equal reduced costs keep option order, `None` (pushed last) last.
            list.sort_by(|a, b| a.rc.total_cmp(&b.rc));
            Some(list)
        })
        .collect()
}

/// Orders the core jobs: the largest priced demand `y·D` among a job's open options first
/// (big decisions near the root, where capacity then prunes the most), identical jobs
/// next to each other, then by index.
fn order(free: &mut [usize], cands: &[Vec<Cand>], options: &[Vec<Option_>], y: &[f64; R]) {
    let mut keyed: Vec<(f64, Vec<u64>, usize)> = free
        .iter()
        .map(|&i| {
            let biggest = cands[i]
                .iter()
                .map(|c| priced(y, &c.demand))
                .fold(0.0, f64::max);
            (-biggest, identity(&options[i]), i)
        })
        .collect();
    keyed.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then_with(|| a.1.cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    for (slot, (_, _, i)) in free.iter_mut().zip(keyed) {
        *slot = i;
    }
}

/// A total order key of a job's options (bits of utilities and demands), so identical
/// jobs sort next to each other.
fn identity(opts: &[Option_]) -> Vec<u64> {
    opts.iter()
        .flat_map(|o| std::iter::once(o.utility.to_bits()).chain(o.demand.map(f64::to_bits)))
        .collect()
}
