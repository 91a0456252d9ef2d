//! `start:stop:step` — the sizes a sweep visits, both ends included.

use serde::{Deserialize, Serialize};

/// Most points a sweep may have: each is a full plan per policy, so a typo such as
/// `0.001:5:0.001` is refused rather than left to run for minutes.
pub const MAX_POINTS: usize = 200;

/// The sizes `start, start + step, …, stop` (docs/SCENARIO.md, "Sweep output"). Both ends
/// are always included: when `stop` is not `start + k·step` the last step is shorter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Range {
    /// The first size.
    pub start: f64,
    /// The last size (≥ `start`).
    pub stop: f64,
    /// The step (> 0).
    pub step: f64,
}

impl Range {
    /// Reads `start:stop:step` (e.g. `0.5:5:0.5`); the message says what is wrong with it.
    pub fn parse(text: &str) -> Result<Range, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let [start, stop, step] = parts[..] else {
            return Err(format!(
                "expected start:stop:step, e.g. 0.5:5:0.5 (got {} part{})",
                parts.len(),
                if parts.len() == 1 { "" } else { "s" }
            ));
        };
        let num = |what: &str, s: &str| -> Result<f64, String> {
            match s.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!(
                    "the {what} {:?} is not a number",
                    smd_core::error::cut(s)
                )),
            }
        };
        let r = Range {
            start: num("start", start)?,
            stop: num("stop", stop)?,
            step: num("step", step)?,
        };
        r.values()?;
        Ok(r)
    }

    /// The sizes, ascending, both ends included, at most [`MAX_POINTS`]. Decimal inputs
    /// give decimal sizes without drift: `0.1:0.3:0.1` is `[0.1, 0.2, 0.3]`, not
    /// `0.30000000000000004`, because each size is computed from integers scaled by the
    /// inputs' decimals rather than by adding the step again and again.
    pub fn values(&self) -> Result<Vec<f64>, String> {
        let Range { start, stop, step } = *self;
        let num = smd_core::error::num;
        if !(start.is_finite() && stop.is_finite() && step.is_finite()) {
            return Err("start, stop and step must be finite numbers".into());
        }
        if step <= 0.0 {
            return Err(format!("the step must be > 0 (got {})", num(step)));
        }
        if stop < start {
            return Err(format!(
                "the stop ({}) is below the start ({})",
                num(stop),
                num(start)
            ));
        }
        // Whole steps that fit, with a little room for a stop typed as a decimal.
        let steps = ((stop - start) / step * (1.0 + 1e-12) + 1e-9).floor();
        if steps + 1.0 > MAX_POINTS as f64 {
            return Err(format!(
                "gives {} points, more than the {MAX_POINTS} a sweep may have (use a larger step)",
                (steps + 1.0).min(1e15)
            ));
        }
        let steps = steps as usize;
        let mut out: Vec<f64> = match decimal_scale(&[start, stop, step]) {
            Some(scale) => {
                let (a, b) = ((start * scale).round(), (step * scale).round());
                (0..=steps).map(|k| (a + k as f64 * b) / scale).collect()
            }
            None => (0..=steps).map(|k| start + k as f64 * step).collect(),
        };
        let last = *out.last().expect("at least the start");
        if last >= stop || (stop - last) <= 1e-9 * step {
            *out.last_mut().expect("at least the start") = stop;
        } else {
            if out.len() == MAX_POINTS {
                return Err(format!(
                    "gives {} points, more than the {MAX_POINTS} a sweep may have (use a larger step)",
                    MAX_POINTS + 1
                ));
            }
            out.push(stop);
        }
        Ok(out)
    }
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let num = smd_core::error::num;
        write!(
            f,
            "{}:{}:{}",
            num(self.start),
            num(self.stop),
            num(self.step)
        )
    }
}

/// `10^d` for the fewest decimals d ≤ 9 that make every value a whole number (to within
/// float noise) whose multiples stay exact in an f64; `None` when there is no such d.
fn decimal_scale(values: &[f64]) -> Option<f64> {
    (0..=9).map(|d| 10f64.powi(d)).find(|&scale| {
        values.iter().all(|v| {
            let x = v * scale;
            x.abs() < 1e12 && (x - x.round()).abs() <= 1e-12 * x.abs().max(1e3)
        })
    })
}

#[cfg(test)]
mod tests;
