//! docs/MODEL.md §6, Algorithm 1: the inner sum-of-ratios problem `min_Ω T(w, p)` of one job,
//! solved to within (1+ε) over an ε-grid of Charnes–Cooper LPs.
//!
//! Decisions where docs/MODEL.md leaves room (documented here as the contract):
//! - *Tie-break.* The minimisers of ζ_J at a grid point form a vertex or an edge of the
//!   feasible polygon; we take the end of that edge with the least T (found by two more LPs
//!   along the edge), so ties never depend on which vertex the LP crate happens to return.
//! - *Tiny lower bounds.* A kept summand's `l_j` is floored at the drop threshold
//!   `1e-12·T(1,1)` so that the geometric grid stays finite.
//! - *Grid order.* Grid points are visited in lexicographic order of their exponents k; a
//!   later point replaces the incumbent only if its T is strictly smaller.

use crate::charnes_cooper::{extreme, linear_extreme};
use crate::choice::InnerSolver;
use crate::error::Error;
use crate::grid::{face_plane, setup, Search, Setup, GRID_BUDGET};
pub(crate) use crate::grid::{grid_ranges, grid_size_of, smallest_epsilon_of, InnerStats};
use crate::lp::Sense;
use crate::model::{JobModel, Ratio};
use crate::observe::{Event, Observer, Quiet};
use crate::omega::HalfPlane;

/// Algorithm 1's answer for one job.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct InnerSolution {
    /// x̄ = (w̄, p̄), real.
    pub x: [f64; 2],
    /// T(x̄), s.
    pub t: f64,
    /// The search, for display.
    pub search: Search,
    /// Work done.
    pub stats: InnerStats,
}

/// Runs Algorithm 1 on a feasible job with the default (fast) solver.
pub fn solve(model: &JobModel, epsilon: f64) -> Result<InnerSolution, Error> {
    solve_with(model, epsilon, InnerSolver::Fast)
}

/// Runs Algorithm 1 on a feasible job with the chosen solver.
pub fn solve_with(
    model: &JobModel,
    epsilon: f64,
    solver: InnerSolver,
) -> Result<InnerSolution, Error> {
    solve_observed(model, epsilon, solver, &mut Quiet)
}

/// [`solve_with`], telling `obs` what it does: the summands and J, every grid point solved
/// and every block pruned, and x̄ (docs/MODEL.md §20). The answer is the same whatever
/// the observer.
pub(crate) fn solve_observed<O: Observer>(
    model: &JobModel,
    epsilon: f64,
    solver: InnerSolver,
    obs: &mut O,
) -> Result<InnerSolution, Error> {
    let mut stats = InnerStats::default();
    // Step 1: bounds l_j and φ_j: Charnes–Cooper LPs, or Ω's vertices (a ratio is
    // quasi-linear, so its extremes over a polygon sit at vertices).
    let setup = match solver {
        InnerSolver::Reference => {
            let planes = model.omega.half_planes();
            setup(model, epsilon, |r| {
                let hi = extreme(r, &planes, Sense::Max)?.ok_or_else(empty)?;
                let lo = extreme(r, &planes, Sense::Min)?.ok_or_else(empty)?;
                stats.lp_solves += 2;
                Ok((r.eval(lo[0], lo[1]), r.eval(hi[0], hi[1])))
            })?
        }
        InnerSolver::Fast => {
            let verts = model.omega.vertices();
            if verts.is_empty() {
                return Err(empty());
            }
            setup(model, epsilon, |r| {
                let vals = verts.iter().map(|v| r.eval(v[0], v[1]));
                let lo = vals.clone().fold(f64::INFINITY, f64::min);
                Ok((lo, vals.fold(f64::NEG_INFINITY, f64::max)))
            })?
        }
    };
    if O::LISTENS && obs.on() {
        let search = match &setup {
            Ok(s) => &s.search,
            Err(search) => search,
        };
        for (j, s) in search.summands.iter().enumerate() {
            obs.event(Event::Summand {
                index: j,
                name: s.name.clone(),
                lower: s.lower,
                upper: s.upper,
                dropped: s.dropped,
                grid_size: s.grid_size,
            });
        }
        obs.event(match &setup {
            Ok(s) => Event::Free {
                index: s.j_free,
                name: s.search.summands[s.j_free].name.clone(),
                lower: s.search.summands[s.j_free].lower,
                upper: s.search.summands[s.j_free].upper,
                gridded: s.gridded.clone(),
                lambdas: s.lambdas.clone(),
                epsilon,
            },
            Err(_) => Event::Constant {
                t: model.t(1.0, 1.0),
            },
        });
    }
    let setup = match setup {
        Ok(setup) => setup,
        // Every summand dropped: T is constant on Ω, take the least allocation.
        Err(search) => {
            return Ok(InnerSolution {
                x: [1.0, 1.0],
                t: model.t(1.0, 1.0),
                search,
                stats,
            })
        }
    };
    // The budget is checked by validation; this guard keeps a direct caller bounded too.
    let size: f64 = setup.lambdas.iter().map(|&l| l as f64 + 1.0).product();
    if size > GRID_BUDGET {
        return Err(Error::field(
            None,
            "params.epsilon",
            format!(
                "gives Algorithm 1 a grid of {size:.3e} points for this job, over the budget of {GRID_BUDGET:.0e}; raise ε"
            ),
        ));
    }
    stats.grid_points = setup.lambdas.iter().map(|l| l + 1).product();
    let best = match solver {
        InnerSolver::Reference => reference_grid(model, &setup, &mut stats, obs)?,
        InnerSolver::Fast => crate::fast::grid(model, &setup, &mut stats, obs),
    };
    let (x, t, kw) = best.ok_or_else(|| {
        Error::Solver("Algorithm 1 found no feasible grid point (numerical trouble)".into())
    })?;
    let mut search = setup.search.clone();
    for (i, &j) in setup.gridded.iter().enumerate() {
        search.winning_nu[j] = Some(setup.nu(i, kw[i]));
    }
    if O::LISTENS && obs.on() {
        obs.event(Event::Relaxed {
            x,
            t,
            k: kw.clone(),
            nu: (0..kw.len()).map(|i| setup.nu(i, kw[i])).collect(),
            grid_points: stats.grid_points,
            solved: 0,
            pruned_blocks: 0,
            pruned_points: 0,
            omitted: 0,
        });
    }
    Ok(InnerSolution {
        x,
        t,
        search,
        stats,
    })
}

/// Step 3 as the paper writes it: one LP per grid point, in odometer order; a later point
/// replaces the incumbent only if its T is strictly smaller.
#[allow(clippy::type_complexity)]
fn reference_grid<O: Observer>(
    model: &JobModel,
    setup: &Setup,
    stats: &mut InnerStats,
    obs: &mut O,
) -> Result<Option<([f64; 2], f64, Vec<u64>)>, Error> {
    let planes = model.omega.half_planes();
    let mut best: Option<([f64; 2], f64, Vec<u64>)> = None;
    let mut k = vec![0u64; setup.gridded.len()];
    let mut cons = planes.clone();
    loop {
        cons.truncate(planes.len());
        for (i, &ki) in k.iter().enumerate() {
            cons.push(setup.plane(i, ki));
        }
        let r = grid_point(model, &setup.ratios[setup.j_free], &cons, stats)?;
        let mut improved = false;
        match r {
            None => stats.infeasible_grid_points += 1,
            Some((x, t)) => {
                if best.as_ref().is_none_or(|b| t < b.1) {
                    best = Some((x, t, k.clone()));
                    improved = true;
                }
            }
        }
        if O::LISTENS && obs.on() {
            obs.event(crate::fast::point(setup, &k, r, improved));
        }
        if !next(&mut k, &setup.lambdas) {
            break;
        }
    }
    Ok(best)
}

fn empty() -> Error {
    Error::Solver("Charnes–Cooper bound on an empty Ω (job should have been infeasible)".into())
}

/// Advances the exponent vector k like an odometer; false when it wraps around.
fn next(k: &mut [u64], lambdas: &[u64]) -> bool {
    for i in (0..k.len()).rev() {
        if k[i] < lambdas[i] {
            k[i] += 1;
            return true;
        }
        k[i] = 0;
    }
    false
}

/// One grid point: min ζ_J over the polygon; among its minimisers the end of the optimal
/// edge with the least T. `None` if the polygon is empty.
fn grid_point(
    model: &JobModel,
    free: &Ratio,
    cons: &[HalfPlane],
    stats: &mut InnerStats,
) -> Result<Option<([f64; 2], f64)>, Error> {
    stats.lp_solves += 1;
    let Some(x1) = extreme(free, cons, Sense::Min)? else {
        return Ok(None);
    };
    let z = free.eval(x1[0], x1[1]);
    // The optimal face {ζ_J ≤ z*} is a segment orthogonal to n; walk it both ways.
    let face = face_plane(free, z);
    let dir = [-face.a[1], face.a[0]];
    let mut with_face = cons.to_vec();
    with_face.push(face);
    // LP answers may sit 1e-9 outside w ≥ 1 or p ≥ 1; clamp so ⌊x̃⌋ stays ≥ 1.
    let clamp = |x: [f64; 2]| [x[0].max(1.0), x[1].max(1.0)];
    let x1 = clamp(x1);
    let mut best = (x1, model.t(x1[0], x1[1]));
    for sense in [Sense::Min, Sense::Max] {
        stats.lp_solves += 1;
        if let Some(x) = linear_extreme(dir, &with_face, cons, sense)? {
            let x = clamp(x);
            let t = model.t(x[0], x[1]);
            if t < best.1 {
                best = (x, t);
            }
        }
    }
    Ok(Some(best))
}

#[cfg(test)]
mod tests;
