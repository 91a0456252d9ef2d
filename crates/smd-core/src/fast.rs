//! The exact fast path of Algorithm 1's step 3 (issue: interactive speed).
//!
//! After fixing a grid point ν, the problem `min ζ_J` s.t. `ζ_j ≤ (1+ε)ν_j`, x ∈ Ω has two
//! variables and a handful of half-planes: its feasible set is a polygon P_ν, and a
//! linear-fractional ζ_J is quasi-linear, so its minimum sits at a vertex. We clip Ω's polygon
//! by the grid half-planes and read the answer off the vertices — the same definition the
//! reference path computes with three LPs (the least-T end of the optimal face).
//!
//! Most grid points cannot win, so the grid is searched best-first over blocks
//! `[lo, hi]` of exponents with a lower bound on T valid for every point of the block:
//! P_ν ⊆ P_hi, and ζ_J(x(ν)) ≤ z*(lo) because P_lo ⊆ P_ν, so x(ν) lies in
//! `Q = P_hi ∩ {ζ_J ≤ z*(lo)}` and `T(x(ν)) ≥ const + Σ_j min_Q ζ_j` (each min at a vertex of
//! Q). A block is dropped when its bound exceeds the incumbent's T by more than a relative
//! 1e-9, or reaches it and all its points come after the incumbent in the reference's
//! odometer order (the reference keeps the first of equal T). The answer is therefore the
//! reference's: the odometer-first grid point of least T, to 1e-9 relative in T.

use crate::grid::{face_plane, InnerStats, Setup};
use crate::model::{JobModel, Ratio};
use crate::observe::{Event, Observer};
use crate::omega::Polygon;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Relative slack of every pruning test (round-off of the bounds).
const SLACK: f64 = 1e-9;
/// Blocks of at most this many grid points are enumerated rather than bounded further.
const LEAF: u64 = 64;
/// The least value of `r` over the polygon's vertices (a ratio is quasi-linear: its
/// minimum over a polygon sits at a vertex).
fn min_of(p: &Polygon, r: &Ratio) -> f64 {
    p.vertices()
        .iter()
        .map(|v| r.eval(v[0], v[1]))
        .fold(f64::INFINITY, f64::min)
}

/// A block of grid exponents `lo ..= hi` (per gridded summand) and its lower bound on T.
#[derive(Clone, Copy)]
struct Block {
    lb: f64,
    lo: [u64; 2],
    hi: [u64; 2],
}

impl PartialEq for Block {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Block {}
impl PartialOrd for Block {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Block {
    /// Reversed for the max-heap: least bound first, then odometer-first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.lb.total_cmp(&self.lb).then_with(|| o.lo.cmp(&self.lo))
    }
}

struct Search<'a> {
    model: &'a JobModel,
    setup: &'a Setup,
    omega: Polygon,
    d: usize,
}

impl Search<'_> {
    /// P_ν for exponents k.
    fn polygon(&self, k: &[u64; 2]) -> Polygon {
        let mut p = self.omega;
        for (i, &ki) in k.iter().enumerate().take(self.d) {
            if p.is_empty() {
                break;
            }
            p = p.clip(&self.setup.plane(i, ki));
        }
        p
    }

    /// One grid point, exactly as the reference defines it: min ζ_J over P_ν, then the
    /// least-T vertex of the optimal face. `None` if P_ν is empty.
    fn point(&self, k: &[u64; 2]) -> Option<([f64; 2], f64)> {
        self.point_in(self.polygon(k))
    }

    /// [`Search::point`] for an already clipped P_ν.
    fn point_in(&self, p: Polygon) -> Option<([f64; 2], f64)> {
        if p.is_empty() {
            return None;
        }
        let free = &self.setup.ratios[self.setup.j_free];
        let z = min_of(&p, free);
        let face = face_plane(free, z);
        let mut best: Option<([f64; 2], f64)> = None;
        for v in p.vertices() {
            if face.a[0] * v[0] + face.a[1] * v[1] > face.b {
                continue;
            }
            let x = [v[0].max(1.0), v[1].max(1.0)];
            let t = self.model.t(x[0], x[1]);
            if best.is_none_or(|b| t < b.1) {
                best = Some((x, t));
            }
        }
        best
    }

    /// A lower bound on T over every grid point of `lo ..= hi`; `None` if all are infeasible.
    fn bound(&self, lo: &[u64; 2], hi: &[u64; 2]) -> Option<f64> {
        let p_hi = self.polygon(hi);
        if p_hi.is_empty() {
            return None;
        }
        let free = &self.setup.ratios[self.setup.j_free];
        let p_lo = self.polygon(lo);
        let q = if p_lo.is_empty() {
            p_hi
        } else {
            let q = p_hi.clip(&face_plane(free, min_of(&p_lo, free)));
            if q.is_empty() {
                p_hi
            } else {
                q
            }
        };
        let kept = self.setup.search.summands.iter().zip(&self.setup.ratios);
        Some(
            self.setup.constant
                + kept
                    .filter(|(s, _)| !s.dropped)
                    .map(|(_, r)| min_of(&q, r))
                    .sum::<f64>(),
        )
    }
}

/// The incumbent `(T, k, x)` so far, if any.
type Incumbent = Option<(f64, [u64; 2], [f64; 2])>;

/// Whether a point of T `t` at exponents `k` replaces the incumbent: a smaller T, or an equal
/// T earlier in odometer order (the reference keeps the first of equal T). The trace's
/// replay uses it; the search loop writes the same rule out (see there).
fn improves(best: Incumbent, t: f64, k: [u64; 2], d: usize) -> bool {
    best.is_none_or(|(bt, bk, _)| t < bt || (t == bt && k[..d] < bk[..d]))
}

/// Tells `obs` every point of the block `lo ..= hi` the search is about to enumerate, by
/// solving them with the same function in the same order: the search loop itself then
/// carries no report at all. `best` is the incumbent before the block.
#[cold]
#[inline(never)]
fn tell_block<O: Observer>(
    model: &JobModel,
    setup: &Setup,
    lo: [u64; 2],
    hi: [u64; 2],
    mut best: Incumbent,
    obs: &mut O,
) {
    let s = Search {
        model,
        setup,
        omega: Polygon::from_vertices(&model.omega.vertices()),
        d: setup.gridded.len(),
    };
    let d = s.d;
    let mut report = |k: [u64; 2]| {
        let r = s.point(&k);
        let better = r.is_some_and(|(x, t)| {
            let better = improves(best, t, k, d);
            if better {
                best = Some((t, k, x));
            }
            better
        });
        obs.event(point(s.setup, &k[..d], r, better));
    };
    match d {
        0 => report(lo),
        1 => (lo[0]..=hi[0]).for_each(|k0| report([k0, 0])),
        _ => {
            for k0 in lo[0]..=hi[0] {
                for k1 in lo[1]..=hi[1] {
                    report([k0, k1]);
                }
            }
        }
    }
}

/// Step 3 of Algorithm 1 by best-first search over grid blocks; returns (x̄, T(x̄), k).
/// `obs` hears every grid point solved and every block dropped unvisited (docs/MODEL.md
/// §20), block by block: each report sits behind the constant `O::LISTENS`, so that for
/// `Quiet` it is not even compiled, and the loop over a block's points carries none.
#[allow(clippy::type_complexity)]
pub(crate) fn grid<O: Observer>(
    model: &JobModel,
    setup: &Setup,
    stats: &mut InnerStats,
    obs: &mut O,
) -> Option<([f64; 2], f64, Vec<u64>)> {
    let d = setup.gridded.len();
    debug_assert!(d <= 2, "at most three summands, one of them free");
    let s = Search {
        model,
        setup,
        omega: Polygon::from_vertices(&model.omega.vertices()),
        d,
    };
    let mut hi0 = [0u64; 2];
    hi0[..d].copy_from_slice(&setup.lambdas);
    let size = |b: &Block| (0..d).map(|i| b.hi[i] - b.lo[i] + 1).product::<u64>();

    let mut best: Incumbent = None;
    let mut heap = BinaryHeap::new();
    stats.lp_solves += 1;
    match s.bound(&[0; 2], &hi0) {
        Some(lb) => heap.push(Block {
            lb,
            lo: [0; 2],
            hi: hi0,
        }),
        None => {
            stats.infeasible_grid_points += size(&Block {
                lb: 0.0,
                lo: [0; 2],
                hi: hi0,
            });
            if O::LISTENS && obs.on() {
                dropped(obs, setup, [0; 2], hi0, None, None);
            }
        }
    }
    // Whether a block can still hold the answer, given the incumbent.
    let alive = |b: &Block, best: &Incumbent| match best {
        None => true,
        Some((t, k, _)) => {
            b.lb <= t * (1.0 + SLACK) && (b.lb < t * (1.0 - SLACK) || b.lo[..d] < k[..d])
        }
    };
    while let Some(b) = heap.pop() {
        if !alive(&b, &best) {
            if O::LISTENS && obs.on() {
                dropped(obs, setup, b.lo, b.hi, Some(b.lb), best.map(|b| b.0));
            }
            continue;
        }
        if size(&b) <= LEAF {
            // Small blocks: every point, in odometer order, sharing the first clip per row.
            // The trace hears the block's points first, from a replay of them (the search
            // below carries no report).
            if O::LISTENS && obs.on() {
                tell_block(model, setup, b.lo, b.hi, best, obs);
            }
            s.every_point(&b, &mut best, stats);
            continue;
        }
        // Split the widest dimension in two.
        let i = (0..d)
            .max_by_key(|&i| (b.hi[i] - b.lo[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        let mid = b.lo[i] + (b.hi[i] - b.lo[i]) / 2;
        let (mut left_hi, mut right_lo) = (b.hi, b.lo);
        left_hi[i] = mid;
        right_lo[i] = mid + 1;
        for (lo, hi) in [(b.lo, left_hi), (right_lo, b.hi)] {
            stats.lp_solves += 1;
            match s.bound(&lo, &hi) {
                None => {
                    stats.infeasible_grid_points += size(&Block { lb: 0.0, lo, hi });
                    if O::LISTENS && obs.on() {
                        dropped(obs, setup, lo, hi, None, best.map(|b| b.0));
                    }
                }
                Some(lb) => {
                    let child = Block {
                        lb: lb.max(b.lb),
                        lo,
                        hi,
                    };
                    if alive(&child, &best) {
                        heap.push(child);
                    } else if O::LISTENS && obs.on() {
                        dropped(obs, setup, lo, hi, Some(child.lb), best.map(|b| b.0));
                    }
                }
            }
        }
    }
    best.map(|(t, k, x)| (x, t, k[..d].to_vec()))
}

impl Search<'_> {
    /// Every grid point of the small block `b`, in odometer order, sharing the first clip per
    /// row; `best` becomes the least T (ties to the smaller exponents). Inlined into the
    /// search's loop, which it is the hot part of (docs/MODEL.md §20, "Cost").
    #[inline(always)]
    fn every_point(&self, b: &Block, best: &mut Incumbent, stats: &mut InnerStats) {
        let (s, setup, d) = (self, self.setup, self.d);
        let mut offer = |k: [u64; 2], r: Option<([f64; 2], f64)>, stats: &mut InnerStats| {
            stats.lp_solves += 1;
            match r {
                None => stats.infeasible_grid_points += 1,
                Some((x, t)) => {
                    // The rule of `improves`, written out: calling it here made this
                    // loop measurably slower (docs/MODEL.md §20, "Cost").
                    if best.is_none_or(|(bt, bk, _)| t < bt || (t == bt && k[..d] < bk[..d])) {
                        *best = Some((t, k, x));
                    }
                }
            }
        };
        match d {
            0 => offer(b.lo, s.point(&b.lo), stats),
            1 => {
                for k0 in b.lo[0]..=b.hi[0] {
                    offer([k0, 0], s.point(&[k0, 0]), stats);
                }
            }
            _ => {
                for k0 in b.lo[0]..=b.hi[0] {
                    let row = s.omega.clip(&setup.plane(0, k0));
                    for k1 in b.lo[1]..=b.hi[1] {
                        let p = if row.is_empty() {
                            row
                        } else {
                            row.clip(&setup.plane(1, k1))
                        };
                        offer([k0, k1], s.point_in(p), stats);
                    }
                }
            }
        }
    }
}

/// The event of one grid point solved (exponents `k`, its answer `r`). Cold and never
/// inlined: only a trace calls it.
#[cold]
#[inline(never)]
pub(crate) fn point(setup: &Setup, k: &[u64], r: Option<([f64; 2], f64)>, improved: bool) -> Event {
    Event::Point {
        k: k.to_vec(),
        nu: (0..k.len()).map(|i| setup.nu(i, k[i])).collect(),
        levels: (0..k.len())
            .map(|i| {
                let h = setup.plane(i, k[i]);
                [h.a[0], h.a[1], h.b]
            })
            .collect(),
        x: r.map(|r| r.0),
        t: r.map(|r| r.1),
        best: improved,
    }
}

/// Tells `obs` of a block `lo ..= hi` dropped unvisited: its bound (`None`: every point
/// infeasible) against the incumbent's T. Cold and never inlined, as [`point`].
#[cold]
#[inline(never)]
fn dropped<O: Observer>(
    obs: &mut O,
    setup: &Setup,
    lo: [u64; 2],
    hi: [u64; 2],
    bound: Option<f64>,
    incumbent: Option<f64>,
) {
    let d = setup.gridded.len();
    obs.event(Event::Pruned {
        lo: lo[..d].to_vec(),
        hi: hi[..d].to_vec(),
        nu_lo: (0..d).map(|i| setup.nu(i, lo[i])).collect(),
        nu_hi: (0..d).map(|i| setup.nu(i, hi[i])).collect(),
        points: (0..d).map(|i| hi[i] - lo[i] + 1).product(),
        bound,
        incumbent,
    });
}

#[cfg(test)]
mod tests;
