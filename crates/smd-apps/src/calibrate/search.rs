//! A deterministic derivative-free minimiser over a box: a coarse grid, then Nelder–Mead
//! from its best point. The objective is evaluated at points clamped into the box, so the
//! simplex may press against an edge but never leaves it.

/// The box: `lo[i] ≤ x[i] ≤ hi[i]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds<const N: usize> {
    pub lo: [f64; N],
    pub hi: [f64; N],
}

impl<const N: usize> Bounds<N> {
    fn clamp(&self, x: [f64; N]) -> [f64; N] {
        std::array::from_fn(|i| x[i].clamp(self.lo[i], self.hi[i]))
    }
}

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Found<const N: usize> {
    /// The best point, inside the box.
    pub x: [f64; N],
    /// The objective there.
    pub value: f64,
    /// Objective evaluations spent.
    pub evaluations: usize,
}

/// Grid points per dimension of the coarse stage.
const GRID: usize = 11;
/// Nelder–Mead's budget of evaluations.
const MAX_EVALUATIONS: usize = 600;
/// Stop when the simplex spans less than this in every coordinate …
const X_TOL: f64 = 1e-7;
/// … and its values differ by less than this, relative.
const F_TOL: f64 = 1e-12;

/// Minimises `f` over `bounds`: the best of a `GRID`^N grid (ties: the first), then
/// Nelder–Mead (reflection 1, expansion 2, contraction ½, shrink ½) from it with a first
/// simplex one grid step wide. A non-finite value counts as +∞.
pub(crate) fn minimise<const N: usize>(
    bounds: &Bounds<N>,
    mut f: impl FnMut([f64; N]) -> f64,
) -> Found<N> {
    let mut evaluations = 0;
    let mut eval = |x: [f64; N]| {
        evaluations += 1;
        let v = f(bounds.clamp(x));
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    };
    let step: [f64; N] = std::array::from_fn(|i| (bounds.hi[i] - bounds.lo[i]) / (GRID - 1) as f64);
    let mut best = (bounds.lo, f64::INFINITY);
    for k in 0..GRID.pow(N as u32) {
        let mut rest = k;
        let x: [f64; N] = std::array::from_fn(|i| {
            let j = rest % GRID;
            rest /= GRID;
            bounds.lo[i] + j as f64 * step[i]
        });
        let v = eval(x);
        if v < best.1 {
            best = (x, v);
        }
    }
    // The first simplex: the grid's best and one step along each axis, towards the box's
    // inside so that no vertex starts clamped onto another.
    let mut simplex: Vec<([f64; N], f64)> = vec![best];
    for i in 0..N {
        let mut x = best.0;
        x[i] += if x[i] + step[i] <= bounds.hi[i] {
            step[i]
        } else {
            -step[i]
        };
        simplex.push((x, eval(x)));
    }
    let mut spent = 0;
    while spent < MAX_EVALUATIONS {
        // Stable sort: equal values keep their order, so the run is deterministic.
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (lo, hi) = (simplex[0].1, simplex[N].1);
        let span = (0..N)
            .map(|i| {
                simplex
                    .iter()
                    .map(|v| (v.0[i] - simplex[0].0[i]).abs())
                    .fold(0.0, f64::max)
            })
            .fold(0.0, f64::max);
        if span < X_TOL && (hi - lo).abs() <= F_TOL * (1.0 + lo.abs()) {
            break;
        }
        let centroid: [f64; N] =
            std::array::from_fn(|i| simplex[..N].iter().map(|v| v.0[i]).sum::<f64>() / N as f64);
        let towards = |t: f64| -> [f64; N] {
            std::array::from_fn(|i| centroid[i] + t * (simplex[N].0[i] - centroid[i]))
        };
        let reflected = towards(-1.0);
        let fr = eval(reflected);
        spent += 1;
        if fr < lo {
            let expanded = towards(-2.0);
            let fe = eval(expanded);
            spent += 1;
            simplex[N] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < simplex[N - 1].1 {
            simplex[N] = (reflected, fr);
        } else {
            let (t, bound) = if fr < hi { (-0.5, fr) } else { (0.5, hi) };
            let contracted = towards(t);
            let fc = eval(contracted);
            spent += 1;
            if fc < bound {
                simplex[N] = (contracted, fc);
            } else {
                let first = simplex[0].0;
                for v in simplex.iter_mut().skip(1) {
                    let x: [f64; N] = std::array::from_fn(|i| first[i] + 0.5 * (v.0[i] - first[i]));
                    *v = (x, eval(x));
                    spent += 1;
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (x, value) = simplex[0];
    Found {
        x: bounds.clamp(x),
        value,
        evaluations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_an_interior_minimum_and_one_on_the_edge() {
        let b = Bounds {
            lo: [-5.0, -5.0],
            hi: [5.0, 5.0],
        };
        // Rosenbrock's valley: the classic hard case for a simplex search.
        let r = minimise(&b, |[x, y]| (1.0 - x).powi(2) + 100.0 * (y - x * x).powi(2));
        assert!(
            (r.x[0] - 1.0).abs() < 1e-4 && (r.x[1] - 1.0).abs() < 1e-4,
            "{r:?}"
        );
        // The unconstrained minimum (9, 0) lies outside: the search stops on the edge x = 5.
        let r = minimise(&b, |[x, y]| (x - 9.0).powi(2) + y * y);
        assert!((r.x[0] - 5.0).abs() < 1e-9 && r.x[1].abs() < 1e-4, "{r:?}");
        assert!(r.evaluations <= GRID * GRID + MAX_EVALUATIONS + 2 + 2 * 2);
    }

    #[test]
    fn non_finite_values_are_avoided() {
        let b = Bounds {
            lo: [0.0],
            hi: [4.0],
        };
        let r = minimise(&b, |[x]| if x < 1.0 { f64::NAN } else { (x - 2.0).powi(2) });
        assert!((r.x[0] - 2.0).abs() < 1e-4, "{r:?}");
    }
}
