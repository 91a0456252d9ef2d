//! The integer optimum of one job, `min T(w, p)` over the integer points of Ω, for the
//! `exact` policy and the landscape.
//!
//! For a fixed w, T is convex in p (sync: θ2·p + θ4·w/p; async: θ'2·p/w + θ'4/p), so only the
//! two integers around the real minimiser can win: O(w_max) evaluations, not the whole box.
//! Ties go to the smaller w, then the smaller p.

use crate::model::JobModel;

// The method lives beside its algorithm, not in `model.rs`: the model stays below the
// enumeration that walks it.
impl JobModel {
    /// (w, p, T) of the least T over Ω's integer points (ties to the smaller w, then the
    /// smaller p), or `None` if (1, 1) does not fit: the `exact` policy's allocation.
    pub fn integer_optimum(&self) -> Option<(u64, u64, f64)> {
        integer_optimum(self)
    }
}

/// (w, p, T) of the least T over Ω's integer points, or `None` if (1, 1) does not fit.
pub fn integer_optimum(m: &JobModel) -> Option<(u64, u64, f64)> {
    let mut best: Option<(u64, u64, f64)> = None;
    // A measured job's region is w = 1…cap with p = 0 (MODEL.md §21): every point is tried.
    if let Some(c) = &m.measured {
        for w in 1..=u64::from(c.cap) {
            let t = c.t(w as f64);
            if t.is_finite() && best.is_none_or(|b| t < b.2) {
                best = Some((w, 0, t));
            }
        }
        return best;
    }
    for w in 1..=m.omega.w_max_int() {
        let pmax = m.omega.p_max_int(w);
        if pmax == 0 {
            continue;
        }
        let star = m.best_p_for(w as f64);
        let lo = (star.floor() as u64).clamp(1, pmax);
        let hi = (star.ceil() as u64).clamp(1, pmax);
        for p in [lo, hi] {
            let t = m.t(w as f64, p as f64);
            if best.is_none_or(|b| t < b.2) {
                best = Some((w, p, t));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;
