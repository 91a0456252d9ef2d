//! A job's utility curve μ(π) (docs/MODEL.md §4) for "How it works": the sigmoid of its γ,
//! with the half-way point (γ3, γ1/2) marked — the deadline-like shape that makes "fast
//! enough" worth as much as "fastest".

use crate::line::{line_chart_svg, LineChart, Point, Series};
use smd_core::model::sigmoid_utility;

/// μ(π) = γ1 / (1 + exp(γ2·(π − γ3))) of `gamma = [γ1, γ2, γ3]` over π from
/// max(0, γ3 − 6/γ2) to γ3 + 6/γ2 (μ from ≈ 99.8 % to ≈ 0.2 % of γ1), as an SVG `width`
/// px wide; the point (γ3, γ1/2) is a series of its own.
pub fn utility_curve_svg(gamma: [f64; 3], width: f64) -> String {
    let [g1, g2, g3] = gamma;
    let reach = if g2 > 0.0 {
        6.0 / g2
    } else {
        g3.abs().max(1.0)
    };
    let (lo, hi) = ((g3 - reach).max(0.0), g3 + reach);
    let at = Point::exact;
    let curve = Series {
        name: "μ(π)".into(),
        points: (0..=24)
            .map(|k| {
                let pi = lo + (hi - lo) * k as f64 / 24.0;
                at(pi, sigmoid_utility(gamma, pi))
            })
            .collect(),
    };
    let half = Series {
        name: "γ3: μ = γ1 / 2".into(),
        points: vec![at(g3, g1 / 2.0)],
    };
    line_chart_svg(&LineChart {
        x_label: "π (time to finish, in the planner's unit)".into(),
        y_label: "utility μ".into(),
        series: vec![curve, half],
        width,
        height: 220.0,
        y_zero: true,
        dodge: 0.0,
        ..LineChart::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The curve starts near γ1, ends near 0, and marks its half-way point.
    #[test]
    fn the_sigmoid_from_its_gammas() {
        let svg = utility_curve_svg([100.0, 2.0, 5.0], 480.0);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("γ3: μ = γ1 / 2"));
        assert!(sigmoid_utility([100.0, 2.0, 5.0], 2.0) > 99.7);
        assert!(sigmoid_utility([100.0, 2.0, 5.0], 8.0) < 0.3);
    }
}
