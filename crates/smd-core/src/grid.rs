//! docs/MODEL.md §6, Algorithm 1's grid: the summands of T with their bounds l_j and φ_j over Ω,
//! the free summand J, the geometric grid per other summand and its size in closed form
//! (with the work budget), and the half-planes a grid point imposes. Both ways of searching
//! the grid use this one module: the reference (one LP per point, [`crate::inner`]) and the
//! fast path ([`crate::fast`]).

use crate::error::Error;
use crate::model::{JobModel, Ratio};
use crate::omega::HalfPlane;

/// Relative threshold below which a summand is dropped (docs/MODEL.md §6).
pub const DROP: f64 = 1e-12;

/// One summand ζ_j as Algorithm 1 saw it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summand {
    /// Name, e.g. `θ5/w`.
    pub name: String,
    /// l_j = min_Ω ζ_j.
    pub lower: f64,
    /// φ_j = max_Ω ζ_j.
    pub upper: f64,
    /// Dropped because φ_j < 1e-12·T(1,1).
    pub dropped: bool,
    /// λ_j + 1 grid values, or `None` for the free summand and dropped ones.
    pub grid_size: Option<u64>,
}

/// The search Algorithm 1 made, for the landscape view.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Search {
    /// The constant part of T.
    pub constant: f64,
    /// Every summand with its bounds.
    pub summands: Vec<Summand>,
    /// Index (into `summands`) of J, the free summand; `None` if every summand was dropped.
    pub free: Option<usize>,
    /// ν of the winning grid point, per summand (`None` for J and dropped ones).
    pub winning_nu: Vec<Option<f64>>,
    /// ε used.
    pub epsilon: f64,
}

/// What both grid searches share: the summands, their bounds, J and the grid.
pub(crate) struct Setup {
    pub constant: f64,
    pub ratios: [Ratio; 3],
    pub search: Search,
    pub j_free: usize,
    /// Summands with a grid, in odometer order (the last varies fastest).
    pub gridded: Vec<usize>,
    /// λ_j per gridded summand.
    pub lambdas: Vec<u64>,
}

impl Setup {
    /// ν_j for exponent k of gridded summand number i (the one formula both paths use).
    #[inline]
    pub fn nu(&self, i: usize, k: u64) -> f64 {
        self.search.summands[self.gridded[i]].lower * (1.0 + self.search.epsilon).powi(k as i32)
    }
    /// The constraint `ζ_j ≤ (1+ε)·ν_j` of gridded summand number i at exponent k.
    #[inline]
    pub fn plane(&self, i: usize, k: u64) -> HalfPlane {
        level_plane(
            &self.ratios[self.gridded[i]],
            (1.0 + self.search.epsilon) * self.nu(i, k),
        )
    }
}

/// Steps 1–2: bounds (by `bounds`), dropping, J and the grid; `Err(search)` if every summand
/// drops.
pub(crate) fn setup(
    model: &JobModel,
    epsilon: f64,
    mut bounds: impl FnMut(&Ratio) -> Result<(f64, f64), Error>,
) -> Result<Result<Setup, Search>, Error> {
    let (constant, ratios) = model.split();
    let threshold = DROP * model.t11;
    let mut summands = Vec::with_capacity(3);
    for r in &ratios {
        let (lo, upper) = bounds(r)?;
        let dropped = upper < threshold;
        let lower = if dropped { lo } else { lo.max(threshold) };
        summands.push(Summand {
            name: r.name.into(),
            lower,
            upper,
            dropped,
            grid_size: None,
        });
    }
    let kept: Vec<usize> = (0..3).filter(|&j| !summands[j].dropped).collect();
    let mut search = Search {
        constant,
        summands,
        free: None,
        winning_nu: vec![None; 3],
        epsilon,
    };
    if kept.is_empty() {
        return Ok(Err(search));
    }
    // Step 2: J = argmax φ_j / l_j stays free; the others get geometric grids.
    let j_free = *kept
        .iter()
        .max_by(|&&a, &&b| {
            let ra = search.summands[a].upper / search.summands[a].lower;
            let rb = search.summands[b].upper / search.summands[b].lower;
            ra.partial_cmp(&rb)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.cmp(&a))
        })
        .expect("kept is not empty");
    search.free = Some(j_free);
    let gridded: Vec<usize> = kept.iter().copied().filter(|&j| j != j_free).collect();
    let lambdas: Vec<u64> = gridded
        .iter()
        .map(|&j| lambda(search.summands[j].lower, search.summands[j].upper, epsilon))
        .collect();
    for (&j, &l) in gridded.iter().zip(&lambdas) {
        search.summands[j].grid_size = Some(l + 1);
    }
    Ok(Ok(Setup {
        constant,
        ratios,
        search,
        j_free,
        gridded,
        lambdas,
    }))
}

/// Most grid points Algorithm 1 may visit for one job (docs/MODEL.md §6, "Budget").
///
/// The fast path's worst case (no block pruned) is proportional to the grid, so this caps the
/// work of every valid input; in practice pruning leaves milliseconds per job even at the
/// cap (docs/BENCHMARKS.md §4). Every generated job allows ε = 0.005, the page's slider
/// minimum (tested); a contrived job may need a larger ε, and validation says which.
pub const GRID_BUDGET: f64 = 3.0e7;

/// λ = max{n : l(1+ε)^n ≤ φ}, in closed form (a logarithm, then at most a step or two of
/// correction for its round-off). Saturates at `u32::MAX` for a grid no budget allows.
pub fn lambda(l: f64, phi: f64, epsilon: f64) -> u64 {
    if phi.partial_cmp(&l) != Some(std::cmp::Ordering::Greater) {
        return 0;
    }
    let est = lambda_estimate(l, phi, epsilon);
    // Beyond i32 `powi` cannot check the estimate; such a grid is over budget anyway.
    if est.is_nan() || est >= f64::from(i32::MAX - 2) {
        return u64::from(u32::MAX);
    }
    let mut n = est as u64;
    // Round-off moves the logarithm by far less than one step: these loops run ≤ 2 times.
    while l * (1.0 + epsilon).powi(n as i32 + 1) <= phi {
        n += 1;
    }
    while n > 0 && l * (1.0 + epsilon).powi(n as i32) > phi {
        n -= 1;
    }
    n
}

/// ⌊ln(φ/l) / ln(1+ε)⌋ as a float (no correction), ≥ 0; +∞ when 1+ε rounds to 1.
fn lambda_estimate(l: f64, phi: f64, epsilon: f64) -> f64 {
    // The grid's ratio is the float 1+ε (what `powi` raises), so its logarithm is taken.
    let step = libm::log(1.0 + epsilon);
    if step.is_nan() || step <= 0.0 {
        return f64::INFINITY;
    }
    (libm::log(phi / l) / step).floor().max(0.0)
}

/// The grid Algorithm 1 would search for `model` at `epsilon`: Π (λ_j + 1) over the gridded
/// summands, from Ω's vertices (the fast path's bounds), in closed form — its cost is known
/// before the search starts. 1 when at most one summand is kept. Validation works from the
/// ranges ([`grid_size_of`]); this form is what the tests compare with the search.
#[cfg(test)]
pub(crate) fn grid_size(model: &JobModel, epsilon: f64) -> f64 {
    grid_size_of(&grid_ranges(model), epsilon)
}

/// The grid's size (see `grid_size`) from the gridded summands' (l_j, φ_j).
pub(crate) fn grid_size_of(ranges: &[(f64, f64)], epsilon: f64) -> f64 {
    ranges
        .iter()
        .map(|&(l, phi)| {
            // Exact λ where `powi` can check it; beyond, the estimate (over any budget anyway).
            let est = if phi > l {
                lambda_estimate(l, phi, epsilon)
            } else {
                0.0
            };
            if est < f64::from(i32::MAX - 2) {
                lambda(l, phi, epsilon) as f64 + 1.0
            } else {
                est + 1.0
            }
        })
        .product()
}

/// The smallest ε (rounded up to two significant digits) whose grid for the gridded summands'
/// (l_j, φ_j) fits [`GRID_BUDGET`]; `None` if every ε in (0, 1] does (no grid, or a narrow
/// one). Arithmetic only.
pub(crate) fn smallest_epsilon_of(ranges: &[(f64, f64)]) -> Option<f64> {
    let fits = |e: f64| grid_size_of(ranges, e) <= GRID_BUDGET;
    if fits(f64::MIN_POSITIVE) {
        return None;
    }
    if !fits(1.0) {
        return Some(1.0);
    }
    // Bisection in ln ε: the grid shrinks as ε grows.
    let (mut lo, mut hi) = (libm::log(f64::MIN_POSITIVE), 0.0_f64);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if fits(libm::exp(mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // Two significant digits, rounded up (so it fits), written as a short decimal.
    let e = libm::exp(hi);
    let exp = e.log10().floor() as i32 - 1;
    let mut digits = (e / 10f64.powi(exp)).ceil() as u64;
    loop {
        let r: f64 = format!("{digits}e{exp}").parse().unwrap_or(1.0);
        if fits(r) || r >= 1.0 {
            return Some(r.min(1.0));
        }
        digits += 1;
    }
}

/// (l_j, φ_j) of the summands that would be gridded (all kept but the free one), from Ω's
/// vertices; empty when Ω has no vertex or nothing is gridded.
pub(crate) fn grid_ranges(model: &JobModel) -> Vec<(f64, f64)> {
    let verts = model.omega.vertices();
    if verts.is_empty() {
        return Vec::new();
    }
    let setup = setup(model, 0.5, |r| {
        let vals = verts.iter().map(|v| r.eval(v[0], v[1]));
        let lo = vals.clone().fold(f64::INFINITY, f64::min);
        Ok((lo, vals.fold(f64::NEG_INFINITY, f64::max)))
    });
    let Ok(Ok(setup)) = setup else {
        return Vec::new();
    };
    let s = &setup.search.summands;
    setup
        .gridded
        .iter()
        .map(|&j| (s[j].lower, s[j].upper))
        .collect()
}

/// `ζ(x) ≤ c` as a half-plane in x (the denominator is positive on Ω).
pub fn level_plane(r: &Ratio, c: f64) -> HalfPlane {
    HalfPlane {
        a: [r.a[0] - c * r.c[0], r.a[1] - c * r.c[1]],
        b: c * r.d - r.q,
    }
}

/// `ζ_J ≤ z*` widened by a relative 1e-7: the half-plane whose intersection with the
/// feasible polygon is the optimal face (both solvers use this one definition).
pub fn face_plane(free: &Ratio, z: f64) -> HalfPlane {
    let mut face = level_plane(free, z);
    face.b += 1e-7 * face.b.abs().max(z.abs()).max(1e-300);
    face
}

/// Work counters of one inner solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct InnerStats {
    /// LPs solved.
    pub lp_solves: u64,
    /// Grid points visited.
    pub grid_points: u64,
    /// Grid points whose LP was infeasible.
    pub infeasible_grid_points: u64,
}

#[cfg(test)]
mod tests;
