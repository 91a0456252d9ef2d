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
            Ok(Some(snap([x[0] / x[2], x[1] / x[2]], planes)))
        }
        Outcome::Infeasible => Ok(None),
        Outcome::Unbounded => Err(Error::Solver(format!(
            "Charnes–Cooper LP for {} is unbounded",
            r.name
        ))),
    }
}

/// The extreme of a linear objective `u·x` over the polygon `planes` (plain LP), snapped to a
/// vertex of the polygon `snap_to` (see [`snap`]).
pub fn linear_extreme(
    u: [f64; 2],
    planes: &[HalfPlane],
    snap_to: &[HalfPlane],
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
        Outcome::Optimal { x, .. } => Ok(Some(snap([x[0], x[1]], snap_to))),
        Outcome::Infeasible => Ok(None),
        Outcome::Unbounded => Err(Error::Solver("linear LP over Ω is unbounded".into())),
    }
}

/// Recovers the exact vertex behind an LP answer: the LP crate meets constraints to about
/// 1e-7, so its point can sit that far off the vertex (and outside Ω). The two tightest
/// non-parallel constraints define the basic solution; their intersection replaces `x` when
/// it is feasible and within 1e-5 (relative) of `x`.
pub fn snap(x: [f64; 2], planes: &[HalfPlane]) -> [f64; 2] {
    let slack = |h: &HalfPlane, v: [f64; 2]| {
        let n = h.a[0].hypot(h.a[1]);
        if n > 0.0 {
            (h.b - h.a[0] * v[0] - h.a[1] * v[1]) / n
        } else {
            f64::INFINITY
        }
    };
    let mut order: Vec<usize> = (0..planes.len()).collect();
    order.sort_by(|&i, &j| {
        slack(&planes[i], x)
            .abs()
            .total_cmp(&slack(&planes[j], x).abs())
    });
    let scale = x[0].abs().max(x[1].abs()).max(1.0);
    // The tightest constraint with the tightest one not parallel to it.
    let Some(&i) = order.first() else { return x };
    let h = &planes[i];
    for &j in &order[1..] {
        let g = &planes[j];
        let det = h.a[0] * g.a[1] - h.a[1] * g.a[0];
        let norm = h.a[0].hypot(h.a[1]) * g.a[0].hypot(g.a[1]);
        if det.abs() <= 1e-12 * norm {
            continue;
        }
        let v = [
            (h.b * g.a[1] - h.a[1] * g.b) / det,
            (h.a[0] * g.b - h.b * g.a[0]) / det,
        ];
        let near = (v[0] - x[0]).abs().max((v[1] - x[1]).abs()) <= 1e-5 * scale;
        let feasible = planes
            .iter()
            .all(|p| slack(p, v) >= -1e-9 * p.b.abs().max(1.0) / p.a[0].hypot(p.a[1]).max(1e-300));
        return if near && feasible { v } else { x };
    }
    x
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

#[cfg(test)]
mod tests;
