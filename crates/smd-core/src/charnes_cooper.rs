//! The Charnes–Cooper transformation: a linear-fractional program over a polygon becomes an LP.
//!
//! `min (a·x + q)/(c·x + d)` s.t. `h_i·x ≤ b_i` turns, with `t = 1/(c·x + d)` and `y = t·x`,
//! into `min a·y + q·t` s.t. `h_i·y − b_i·t ≤ 0`, `c·y + d·t = 1`, `y, t ≥ 0`; then `x = y/t`.
//! `t > 0` at every feasible point because the polygon is bounded (its recession cone is {0}).

use crate::error::Error;
use crate::lp::{Lp, Op, Outcome, Sense};
use crate::model::Ratio;
use crate::omega::HalfPlane;

/// The extreme value of ζ over the polygon, or `None` if the polygon is empty.
pub fn extreme(r: &Ratio, planes: &[HalfPlane], sense: Sense) -> Result<Option<[f64; 2]>, Error> {
    let mut lp = Lp::new(sense);
    // Objective scaled to unit size: the LP crate wants coefficients within six decades.
    let s = scale(&[r.a[0], r.a[1], r.q]);
    let yw = lp.var(r.a[0] / s, 0.0, f64::INFINITY);
    let yp = lp.var(r.a[1] / s, 0.0, f64::INFINITY);
    let t = lp.var(r.q / s, 0.0, f64::INFINITY);
    for h in planes {
        let k = scale(&[h.a[0], h.a[1], h.b]);
        lp.row(
            &[(yw, h.a[0] / k), (yp, h.a[1] / k), (t, -h.b / k)],
            Op::Le,
            0.0,
        );
    }
    lp.row(&[(yw, r.c[0]), (yp, r.c[1]), (t, r.d)], Op::Eq, 1.0);
    match lp.solve()? {
        Outcome::Optimal { x, .. } => {
            if x[2] <= 0.0 {
                return Err(Error::Solver(format!(
                    "Charnes–Cooper LP for {} returned t = {} (region unbounded?)",
                    r.name, x[2]
                )));
            }
            Ok(Some([x[0] / x[2], x[1] / x[2]]))
        }
        Outcome::Infeasible => Ok(None),
        Outcome::Unbounded => Err(Error::Solver(format!(
            "Charnes–Cooper LP for {} is unbounded",
            r.name
        ))),
    }
}

/// The extreme of a linear objective `u·x` over the polygon (plain LP, x ≥ 1 as bounds).
pub fn linear_extreme(
    u: [f64; 2],
    planes: &[HalfPlane],
    sense: Sense,
) -> Result<Option<[f64; 2]>, Error> {
    let mut lp = Lp::new(sense);
    let s = scale(&u);
    let w = lp.var(u[0] / s, f64::NEG_INFINITY, f64::INFINITY);
    let p = lp.var(u[1] / s, f64::NEG_INFINITY, f64::INFINITY);
    for h in planes {
        let k = scale(&[h.a[0], h.a[1]]);
        lp.row(&[(w, h.a[0] / k), (p, h.a[1] / k)], Op::Le, h.b / k);
    }
    match lp.solve()? {
        Outcome::Optimal { x, .. } => Ok(Some([x[0], x[1]])),
        Outcome::Infeasible => Ok(None),
        Outcome::Unbounded => Err(Error::Solver("linear LP over Ω is unbounded".into())),
    }
}

/// Largest magnitude of a row, or 1 for a zero row.
fn scale(v: &[f64]) -> f64 {
    let m = v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    if m > 0.0 {
        m
    } else {
        1.0
    }
}
