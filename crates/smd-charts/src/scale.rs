//! Axis scales and tick placement.

/// A map from a data interval to a pixel interval, linear or logarithmic (base 10).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Data value at `px.0`.
    pub lo: f64,
    /// Data value at `px.1`.
    pub hi: f64,
    /// Pixel positions of `lo` and `hi` (`px.0 > px.1` for a y axis pointing up).
    pub px: (f64, f64),
    /// Logarithmic (then `lo` and `hi` are positive).
    pub log: bool,
}

impl Scale {
    /// Position of `v` along the data interval, 0 at `lo` and 1 at `hi`.
    pub fn fraction(&self, v: f64) -> f64 {
        let (a, b, x) = if self.log {
            (self.lo.log10(), self.hi.log10(), v.log10())
        } else {
            (self.lo, self.hi, v)
        };
        if b == a {
            0.5
        } else {
            (x - a) / (b - a)
        }
    }

    /// Pixel of the data value `v`.
    pub fn to_px(&self, v: f64) -> f64 {
        self.px.0 + self.fraction(v) * (self.px.1 - self.px.0)
    }

    /// Data value at pixel `x`.
    pub fn from_px(&self, x: f64) -> f64 {
        let f = if self.px.1 == self.px.0 {
            0.5
        } else {
            (x - self.px.0) / (self.px.1 - self.px.0)
        };
        if self.log {
            10f64.powf(self.lo.log10() + f * (self.hi.log10() - self.lo.log10()))
        } else {
            self.lo + f * (self.hi - self.lo)
        }
    }

    /// Tick values and the step used to label them (the step is 0 on a log scale).
    pub fn ticks(&self, target: usize) -> (Vec<f64>, f64) {
        if self.log {
            (log_ticks(self.lo, self.hi, target), 0.0)
        } else {
            let step = nice_step(self.lo, self.hi, target);
            (linear_ticks(self.lo, self.hi, step), step)
        }
    }
}

/// A "nice" step (1, 2 or 5 × 10^k) giving about `target` ticks on [lo, hi].
pub fn nice_step(lo: f64, hi: f64, target: usize) -> f64 {
    let range = (hi - lo).abs();
    if range <= 0.0 || !range.is_finite() {
        return 1.0;
    }
    let raw = range / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let r = raw / mag;
    let m = if r < 1.5 {
        1.0
    } else if r < 3.0 {
        2.0
    } else if r < 7.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Multiples of `step` in [lo, hi] (with a little round-off slack), computed as k·step.
pub fn linear_ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    if step.is_nan() || step <= 0.0 || !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    let slack = step * 1e-9;
    let k0 = ((lo - slack) / step).ceil() as i64;
    let k1 = ((hi + slack) / step).floor() as i64;
    if k1 < k0 || k1 - k0 > 1000 {
        return Vec::new();
    }
    (k0..=k1)
        .map(|k| {
            let v = k as f64 * step;
            if v == 0.0 {
                0.0
            } else {
                v
            }
        })
        .collect()
}

/// Ticks on a log scale: decades, else 1-2-5 multiples, else 1…9 multiples, else linear.
pub fn log_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if lo.is_nan() || lo <= 0.0 || !hi.is_finite() {
        return Vec::new();
    }
    let d0 = lo.log10().floor() as i32;
    let d1 = hi.log10().ceil() as i32;
    let max = target.max(2) * 2;
    let within = |v: f64| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9);
    let mut best = Vec::new();
    for mantissas in [
        &[1.0][..],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ] {
        let mut ticks = Vec::new();
        for d in d0..=d1 {
            for &m in mantissas {
                let v = m * 10f64.powi(d);
                if within(v) {
                    ticks.push(v);
                }
            }
        }
        if ticks.len() > max {
            // Too dense: keep the previous (sparser) choice if it had anything.
            if best.len() >= 2 {
                return best;
            }
            // Thin decades out.
            let every = ticks.len().div_ceil(max);
            return ticks.into_iter().step_by(every).collect();
        }
        if ticks.len() >= 3 {
            return ticks;
        }
        best = ticks;
    }
    if best.len() >= 2 {
        return best;
    }
    linear_ticks(lo, hi, nice_step(lo, hi, target))
}

/// Whether `v` can be drawn on an axis (finite; positive on a log axis).
pub(crate) fn usable(v: f64, log: bool) -> bool {
    v.is_finite() && (!log || v > 0.0)
}

/// The data range of an axis over the usable values: widened when degenerate (empty: a
/// default decade or unit; one value: ×/÷ 2 on a log axis, ± half its size otherwise),
/// including 0 when `zero` (linear axes), with `headroom` (a share of the span, or of the
/// decades on a log axis) on both sides — none below a 0 that `zero` put there.
pub(crate) fn data_range(
    vals: impl Iterator<Item = f64>,
    log: bool,
    zero: bool,
    headroom: f64,
) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|&v| usable(v, log)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if zero && !log {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    if log {
        if hi / lo < 1.0 + 1e-9 {
            (lo / 2.0, hi * 2.0)
        } else {
            let pad = (hi / lo).powf(headroom);
            (lo / pad, hi * pad)
        }
    } else if hi - lo <= 0.0 {
        let d = lo.abs().max(1.0) * 0.5;
        // Zero asked for and every value zero: nothing below it to show.
        if zero && lo == 0.0 {
            (0.0, 2.0 * d)
        } else {
            (lo - d, hi + d)
        }
    } else {
        let pad = (hi - lo) * headroom;
        (if zero && lo == 0.0 { 0.0 } else { lo - pad }, hi + pad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear() {
        assert_eq!(nice_step(0.0, 10.0, 5), 2.0);
        assert_eq!(linear_ticks(0.5, 10.5, 2.0), vec![2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = linear_ticks(0.0, 0.3, 0.1);
        assert_eq!(t.len(), 4);
    }

    #[test]
    fn log() {
        assert_eq!(log_ticks(1.0, 1000.0, 5), vec![1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(
            log_ticks(150.0, 900.0, 5),
            vec![200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0]
        );
        assert_eq!(
            log_ticks(15.0, 600.0, 5),
            vec![20.0, 50.0, 100.0, 200.0, 500.0]
        );
        assert!(log_ticks(1e-3, 1e9, 5).len() <= 10);
    }

    #[test]
    fn round_trip() {
        let s = Scale {
            lo: 1.0,
            hi: 1000.0,
            px: (300.0, 0.0),
            log: true,
        };
        assert!((s.from_px(s.to_px(42.0)) - 42.0).abs() < 1e-9);
        assert!((s.to_px(10.0) - 200.0).abs() < 1e-9);
    }
}
