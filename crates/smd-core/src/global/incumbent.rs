//! Starting plans for the joint search: the LP relaxation's choice repaired to fit, seeds
//! mapped onto the Pareto sets, and a local search that improves either.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use super::dual::priced;
use super::Option_;
use crate::knapsack::{fits_all, R};

/// Per job: the index of its chosen option, or `None` (not admitted).
pub type Choice = Vec<Option<usize>>;

/// Σ utility of a choice.
pub fn value(options: &[Vec<Option_>], choice: &[Option<usize>]) -> f64 {
    choice
        .iter()
        .zip(options)
        .filter_map(|(c, o)| c.map(|k| o[k].utility))
        .sum()
}

/// Total demand of a choice.
pub fn demand(options: &[Vec<Option_>], choice: &[Option<usize>]) -> [f64; R] {
    let mut used = [0.0; R];
    for (c, o) in choice.iter().zip(options) {
        if let Some(k) = c {
            for r in 0..R {
                used[r] += o[*k].demand[r];
            }
        }
    }
    used
}

/// A seed's allocations on the Pareto sets: each `(w, p)` replaced by the best option with
/// no more workers and no more PS (a Pareto option dominates every allocation it covers).
pub fn dominating(options: &[Vec<Option_>], start: &[Option<(u64, u64)>]) -> Choice {
    options
        .iter()
        .enumerate()
        .map(|(i, opts)| {
            let (w, p) = start.get(i).copied().flatten()?;
            (0..opts.len())
                .filter(|&k| opts[k].w <= w && opts[k].p <= p)
                .max_by(|&a, &b| opts[a].utility.total_cmp(&opts[b].utility).then(b.cmp(&a)))
        })
        .collect()
}

/// The LP relaxation's integer part at prices y: each job takes the option of the largest
/// reduced value `u − y·D` when that is not negative (ties: the least demand relative to
/// the capacity), then [`repair`] makes it fit.
pub fn from_prices(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    y: &[f64; R],
    deadline: super::Deadline,
) -> Choice {
    let mut choice: Choice = options
        .iter()
        .map(|opts| {
            (0..opts.len())
                .map(|k| (opts[k].utility - priced(y, &opts[k].demand), k))
                // A reduced value of 0 (up to rounding) is a tie the LP may admit in part:
                // take it, and let the repair decide what fits.
                .filter(|&(v, k)| v >= -1e-9 * opts[k].utility)
                .max_by(|a, b| {
                    a.0.total_cmp(&b.0)
                        .then_with(|| {
                            size(&opts[b.1].demand, cap).total_cmp(&size(&opts[a.1].demand, cap))
                        })
                        .then(b.1.cmp(&a.1))
                })
                .map(|(_, k)| k)
        })
        .collect();
    repair(options, cap, &mut choice, deadline);
    choice
}

/// Σ_r D_r / cap_r: a demand's size relative to the cluster.
pub fn size(d: &[f64; R], cap: &[f64; R]) -> f64 {
    (0..R)
        .filter(|&r| cap[r] > 0.0)
        .map(|r| d[r] / cap[r])
        .sum()
}

/// Makes a choice fit: while some resource is over capacity, the move — one job to a
/// smaller option, or out — that loses the least utility per unit of overload it removes
/// (relative to capacity) and overloads nothing new. Downgrading before dropping keeps
/// jobs whose utility is flat near its best (a met deadline) at a cheaper size. Each move
/// scans every option; past `deadline` the rest is the quick fallback below (drop every
/// job on an overloaded resource), which always fits.
pub fn repair(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    choice: &mut [Option<usize>],
    deadline: super::Deadline,
) {
    let mut used = demand(options, choice);
    let dem = |i: usize, k: Option<usize>| k.map_or([0.0; R], |k| options[i][k].demand);
    let val = |i: usize, k: Option<usize>| k.map_or(0.0, |k| options[i][k].utility);
    while !fits_all(&used, cap) {
        let over: [bool; R] = std::array::from_fn(|r| !fits_all(&[used[r]], &[cap[r]]));
        // (loss per overload removed, job, new option)
        let mut best: Option<(f64, usize, Option<usize>)> = None;
        for i in 0..options.len() {
            let Some(cur) = choice[i] else { continue };
            let (dc, vc) = (dem(i, Some(cur)), val(i, Some(cur)));
            for k in (0..options[i].len()).map(Some).chain([None]) {
                let dk = dem(i, k);
                // No overloaded resource may grow (so the overload shrinks every step and
                // the loop ends), and no other may overflow.
                let grows = (0..R).any(|r| over[r] && dk[r] > dc[r]);
                let new_over =
                    (0..R).any(|r| !over[r] && !fits_all(&[used[r] - dc[r] + dk[r]], &[cap[r]]));
                let removed: f64 = (0..R)
                    .filter(|&r| over[r] && cap[r] > 0.0)
                    .map(|r| (dc[r] - dk[r]) / cap[r])
                    .sum();
                if grows || new_over || removed <= 0.0 {
                    continue;
                }
                let rate = (vc - val(i, k)) / removed;
                if best.is_none_or(|b| rate < b.0) {
                    best = Some((rate, i, k));
                }
            }
        }
        if super::past(deadline) {
            drop_until_fits(options, cap, choice, &mut used);
            return;
        }
        let Some((_, i, k)) = best else {
            // Nothing removes overload without adding some (or no time is left): drop
            // every job using an overloaded resource (always fits).
            for i in 0..options.len() {
                let d = dem(i, choice[i]);
                if (0..R).any(|r| over[r] && d[r] > 0.0) {
                    choice[i] = None;
                }
            }
            return;
        };
        let (dc, dk) = (dem(i, choice[i]), dem(i, k));
        for r in 0..R {
            used[r] += dk[r] - dc[r];
        }
        choice[i] = k;
    }
}

/// Repair's quick end once its time is up: drops admitted jobs, least utility per size
/// first, until the choice fits (one sort, so it costs O(n log n) whatever the options).
fn drop_until_fits(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    choice: &mut [Option<usize>],
    used: &mut [f64; R],
) {
    let mut admitted: Vec<(f64, usize)> = (0..choice.len())
        .filter_map(|i| {
            let o = &options[i][choice[i]?];
            Some((o.utility / size(&o.demand, cap).max(f64::MIN_POSITIVE), i))
        })
        .collect();
    admitted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (_, i) in admitted {
        if fits_all(used, cap) {
            return;
        }
        if let Some(k) = choice[i].take() {
            for r in 0..R {
                used[r] -= options[i][k].demand[r];
            }
        }
    }
}

/// Local search on a feasible choice: repeatedly the best single move — change one job's
/// option (or drop or add it), or drop one job to change another's — while it gains and
/// until `deadline` (every move keeps the choice feasible).
pub fn improve(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    cur: &mut [Option<usize>],
    deadline: super::Deadline,
) {
    let n = options.len();
    let val = |i: usize, k: Option<usize>| k.map_or(0.0, |k| options[i][k].utility);
    let dem = |i: usize, k: Option<usize>| k.map_or([0.0; R], |k| options[i][k].demand);
    let mut used = demand(options, cur);
    for _ in 0..200 {
        if super::past(deadline) {
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
}
