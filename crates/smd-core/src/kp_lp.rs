//! The LP relaxation of a multi-dimensional knapsack, `max c·x` s.t. `A x ≤ b`, `0 ≤ x ≤ 1`
//! with `A, b, c ≥ 0` and R rows, by a bounded-variable revised simplex.
//!
//! The admission stage solves thousands of these (Frieze–Clarke visits every subset of size
//! ≤ q; branch and bound one per node). A general LP crate builds and factors a model each
//! time; this keeps an R×R basis inverse, prices all columns in O(n·R) per pivot and returns
//! a basic optimum (≤ R fractional entries, which Frieze–Clarke's guarantee needs).
//! Degenerate pivots switch to Bland's rule, so it cannot cycle.

// The basis arithmetic indexes several parallel R-arrays at once.
#![allow(clippy::needless_range_loop)]

/// A basic optimal solution: the objective and x.
#[derive(Clone, Debug, PartialEq)]
pub struct Relaxation {
    /// c·x.
    pub value: f64,
    /// x, in [0, 1].
    pub x: Vec<f64>,
    /// Optimal duals y ≥ 0 of the R rows: for any subset of these items and any capacity
    /// `b'`, the LP value is ≤ `y·b' + Σ max(0, c_j − y·A_j)` (weak duality).
    pub dual: Vec<f64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Lower,
    Upper,
    Basic(usize),
}

/// Above this many items the LP is solved by column generation (see [`solve`]).
pub const COLUMN_GENERATION_MIN: usize = 4096;
/// Columns in the first restricted LP, and most added per round.
const COLUMNS_PER_ROUND: usize = 2048;

/// Solves the relaxation; `a[j]` is column j (item j's demand), `b` the capacity (≥ 0).
///
/// With more than [`COLUMN_GENERATION_MIN`] items (10^5 jobs: a few dozen fit) pricing every
/// column at every pivot dominates, so the LP is solved over the most efficient items, then
/// every other item is priced with that LP's duals and the violators are added until none
/// is left: the answer is a basic optimum of the whole LP (items outside at 0).
pub fn solve<const R: usize>(c: &[f64], a: &[[f64; R]], b: &[f64; R]) -> Relaxation {
    let n = c.len();
    if n <= COLUMN_GENERATION_MIN {
        return dense(c, a, b);
    }
    let tol = 1e-11 * c.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-300);
    // Efficiency: value per unit of capacity-normalised demand (demand-free items first).
    let eff = |j: usize| {
        let w: f64 = (0..R).map(|r| a[j][r] / b[r].max(1e-300)).sum();
        if w > 0.0 {
            c[j] / w
        } else {
            f64::INFINITY
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    let k = COLUMNS_PER_ROUND.min(n);
    order.select_nth_unstable_by(k - 1, |&x, &y| eff(y).total_cmp(&eff(x)).then(x.cmp(&y)));
    let mut set: Vec<usize> = order[..k].to_vec();
    let mut inside = vec![false; n];
    loop {
        set.sort_unstable();
        for &j in &set {
            inside[j] = true;
        }
        let cs: Vec<f64> = set.iter().map(|&j| c[j]).collect();
        let as_: Vec<[f64; R]> = set.iter().map(|&j| a[j]).collect();
        let sub = dense(&cs, &as_, b);
        let y = &sub.dual;
        let mut violators: Vec<(f64, usize)> = (0..n)
            .filter(|&j| !inside[j])
            .map(|j| (c[j] - (0..R).map(|r| y[r] * a[j][r]).sum::<f64>(), j))
            .filter(|&(d, _)| d > tol)
            .collect();
        if violators.is_empty() {
            let mut x = vec![0.0; n];
            for (&j, &v) in set.iter().zip(&sub.x) {
                x[j] = v;
            }
            return Relaxation {
                value: sub.value,
                x,
                dual: sub.dual,
            };
        }
        if violators.len() > COLUMNS_PER_ROUND {
            violators.select_nth_unstable_by(COLUMNS_PER_ROUND - 1, |p, q| {
                q.0.total_cmp(&p.0).then(p.1.cmp(&q.1))
            });
            violators.truncate(COLUMNS_PER_ROUND);
        }
        set.extend(violators.iter().map(|&(_, j)| j));
    }
}

/// The bounded-variable revised simplex over every column.
fn dense<const R: usize>(c: &[f64], a: &[[f64; R]], b: &[f64; R]) -> Relaxation {
    let n = c.len();
    let tol = 1e-11;
    // Variables 0..n are items, n..n+R the slacks of the rows.
    let col = |j: usize| -> [f64; R] {
        if j < n {
            a[j]
        } else {
            let mut e = [0.0; R];
            e[j - n] = 1.0;
            e
        }
    };
    let cost = |j: usize| if j < n { c[j] } else { 0.0 };
    let upper = |j: usize| if j < n { 1.0 } else { f64::INFINITY };
    let mut state = vec![State::Lower; n + R];
    let mut basis = [0usize; R];
    let mut binv = [[0.0; R]; R];
    let mut xb = [0.0; R];
    for r in 0..R {
        basis[r] = n + r;
        state[n + r] = State::Basic(r);
        binv[r][r] = 1.0;
        xb[r] = b[r].max(0.0);
    }
    let cmax = c.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-300);
    let mut degenerate = 0usize;
    let limit = 100 * (n + R) + 1000;
    for _ in 0..limit {
        // Duals y = c_B · B⁻¹.
        let mut y = [0.0; R];
        for (r, &bj) in basis.iter().enumerate() {
            let cb = cost(bj);
            if cb != 0.0 {
                for k in 0..R {
                    y[k] += cb * binv[r][k];
                }
            }
        }
        // Pricing: Dantzig, or Bland (first improving index) after degenerate pivots.
        let bland = degenerate > 2 * R;
        let mut enter: Option<(usize, f64)> = None;
        for j in 0..n + R {
            if matches!(state[j], State::Basic(_)) {
                continue;
            }
            let aj = col(j);
            let d = cost(j) - (0..R).map(|k| y[k] * aj[k]).sum::<f64>();
            let gain = match state[j] {
                State::Lower if d > tol * cmax => d,
                State::Upper if d < -tol * cmax => -d,
                _ => continue,
            };
            if bland {
                enter = Some((j, gain));
                break;
            }
            if enter.is_none_or(|(_, g)| gain > g) {
                enter = Some((j, gain));
            }
        }
        let Some((j, _)) = enter else { break };
        // Direction of x_B per unit step of the entering variable.
        let aj = col(j);
        let sign = if state[j] == State::Upper { -1.0 } else { 1.0 };
        let mut alpha = [0.0; R];
        for r in 0..R {
            alpha[r] = (0..R).map(|k| binv[r][k] * aj[k]).sum();
        }
        // Ratio test: the entering bound flip, or a basic variable hitting a bound.
        let mut theta = upper(j);
        let mut leave: Option<(usize, State)> = None;
        for r in 0..R {
            let rate = -sign * alpha[r];
            if rate < -1e-12 {
                let t = xb[r].max(0.0) / -rate;
                if t < theta {
                    theta = t;
                    leave = Some((r, State::Lower));
                }
            } else if rate > 1e-12 {
                let t = (upper(basis[r]) - xb[r]).max(0.0) / rate;
                if t < theta {
                    theta = t;
                    leave = Some((r, State::Upper));
                }
            }
        }
        degenerate = if theta <= 1e-12 { degenerate + 1 } else { 0 };
        for r in 0..R {
            xb[r] -= sign * alpha[r] * theta;
        }
        match leave {
            None => {
                // Bound flip: the entering variable moves to its other bound.
                state[j] = if state[j] == State::Upper {
                    State::Lower
                } else {
                    State::Upper
                };
            }
            Some((r, to)) => {
                let entering_value = if state[j] == State::Upper {
                    1.0 - theta
                } else {
                    theta
                };
                state[basis[r]] = to;
                basis[r] = j;
                state[j] = State::Basic(r);
                // Pivot B⁻¹ on row r with column alpha.
                let p = alpha[r];
                for k in 0..R {
                    binv[r][k] /= p;
                }
                for i in 0..R {
                    if i != r && alpha[i] != 0.0 {
                        let f = alpha[i];
                        for k in 0..R {
                            binv[i][k] -= f * binv[r][k];
                        }
                    }
                }
                xb[r] = entering_value;
            }
        }
    }
    let x: Vec<f64> = (0..n)
        .map(|j| match state[j] {
            State::Lower => 0.0,
            State::Upper => 1.0,
            State::Basic(r) => xb[r].clamp(0.0, 1.0),
        })
        .collect();
    let value = c.iter().zip(&x).map(|(c, x)| c * x).sum();
    let mut dual = vec![0.0; R];
    for (r, &bj) in basis.iter().enumerate() {
        for k in 0..R {
            dual[k] += cost(bj) * binv[r][k];
        }
    }
    Relaxation {
        value,
        x,
        dual: dual.into_iter().map(|y| y.max(0.0)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lp::{Lp, Op, Outcome, Sense};
    use crate::rng::Stream;

    /// The LP crate as the independent reference.
    fn reference<const R: usize>(c: &[f64], a: &[[f64; R]], b: &[f64; R]) -> f64 {
        let mut lp = Lp::new(Sense::Max);
        let v: Vec<usize> = c.iter().map(|&ci| lp.var(ci, 0.0, 1.0)).collect();
        for r in 0..R {
            let terms: Vec<(usize, f64)> = v.iter().map(|&j| (j, a[j][r])).collect();
            lp.row(&terms, Op::Le, b[r]);
        }
        match lp.solve().unwrap() {
            Outcome::Optimal { objective, .. } => objective,
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn column_generation_matches_the_dense_simplex() {
        let mut s = Stream::new(9, 0);
        for case in 0..6 {
            let n = COLUMN_GENERATION_MIN + 1 + s.int(0, 12_000) as usize;
            let c: Vec<f64> = (0..n).map(|_| s.uniform(0.0, 100.0)).collect();
            let a: Vec<[f64; 4]> = (0..n)
                .map(|_| std::array::from_fn(|_| s.uniform(0.0, 50.0)))
                .collect();
            // Few items fit (the 10^5-job regime) or many (column generation needs rounds).
            let tight = if case % 2 == 0 { 0.001 } else { 0.2 };
            let b: [f64; 4] = std::array::from_fn(|r| tight * a.iter().map(|x| x[r]).sum::<f64>());
            let got = solve(&c, &a, &b);
            let want = dense(&c, &a, &b);
            assert!(
                (got.value - want.value).abs() <= 1e-9 * want.value.max(1.0),
                "case {case}: {} vs {}",
                got.value,
                want.value
            );
            let fractional = got
                .x
                .iter()
                .filter(|&&x| x > 1e-9 && x < 1.0 - 1e-9)
                .count();
            assert!(fractional <= 4, "case {case}: {fractional} fractional");
            for r in 0..4 {
                let used: f64 = a.iter().zip(&got.x).map(|(a, x)| a[r] * x).sum();
                assert!(used <= b[r] * (1.0 + 1e-9) + 1e-9);
            }
            // Its duals bound the LP (weak duality), so Frieze–Clarke's pruning stays valid.
            let y = &got.dual;
            let bound: f64 = (0..4).map(|r| y[r] * b[r]).sum::<f64>()
                + (0..n)
                    .map(|j| (c[j] - (0..4).map(|r| y[r] * a[j][r]).sum::<f64>()).max(0.0))
                    .sum::<f64>();
            assert!(
                bound >= want.value * (1.0 - 1e-9),
                "case {case}: {bound} < {}",
                want.value
            );
        }
    }

    #[test]
    fn matches_the_lp_crate_and_is_basic() {
        let mut s = Stream::new(5, 0);
        for case in 0..400 {
            let n = 1 + s.int(0, 40) as usize;
            let c: Vec<f64> = (0..n)
                .map(|_| {
                    if s.unit() < 0.1 {
                        0.0
                    } else {
                        s.uniform(0.0, 100.0)
                    }
                })
                .collect();
            let a: Vec<[f64; 4]> = (0..n)
                .map(|_| {
                    std::array::from_fn(|_| {
                        if s.unit() < 0.2 {
                            0.0
                        } else {
                            s.uniform(0.0, 50.0)
                        }
                    })
                })
                .collect();
            let tight = s.uniform(0.05, 0.9);
            let b: [f64; 4] = std::array::from_fn(|r| tight * a.iter().map(|x| x[r]).sum::<f64>());
            let got = solve(&c, &a, &b);
            let want = reference(&c, &a, &b);
            assert!(
                (got.value - want).abs() <= 1e-7 * want.max(1.0),
                "case {case}: {} vs {want}",
                got.value
            );
            for r in 0..4 {
                let used: f64 = a.iter().zip(&got.x).map(|(a, x)| a[r] * x).sum();
                assert!(
                    used <= b[r] * (1.0 + 1e-9) + 1e-9,
                    "case {case}: row {r} {used} > {}",
                    b[r]
                );
            }
            let fractional = got
                .x
                .iter()
                .filter(|&&x| x > 1e-9 && x < 1.0 - 1e-9)
                .count();
            assert!(
                fractional <= 4,
                "case {case}: {fractional} fractional entries"
            );
        }
    }

    #[test]
    fn degenerate_and_empty_cases() {
        let r = solve::<4>(&[], &[], &[1.0; 4]);
        assert_eq!(r.value, 0.0);
        // Zero capacity: nothing with positive demand fits; free items are taken whole.
        let a = [[1.0, 0.0, 0.0, 0.0], [0.0; 4], [1.0, 1.0, 1.0, 1.0]];
        let r = solve(&[3.0, 2.0, 5.0], &a, &[0.0; 4]);
        assert_eq!(r.x, vec![0.0, 1.0, 0.0]);
        // Many identical items: degenerate ties.
        let a = vec![[1.0, 1.0, 1.0, 1.0]; 30];
        let r = solve(&vec![1.0; 30], &a, &[7.5; 4]);
        assert!((r.value - 7.5).abs() < 1e-9);
    }
}
