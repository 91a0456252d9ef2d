//! A measured job's curve (docs/MODEL.md §21.1) for the page's job editor: seconds per
//! iteration over its GPUs on the packed placement, with the measured rows it rests on
//! marked (the other points are interpolated or modelled).

use crate::line::{line_chart_svg, LineChart, Point, Series};
use smd_core::allreduce::{Source, StepPoint};

/// The curve of `points` (from `smd_core::allreduce::Curve::steps`) as an SVG `width` px
/// wide.
pub fn step_curve_svg(points: &[StepPoint], width: f64) -> String {
    let at = |p: &StepPoint, y: f64| Point::exact(f64::from(p.w), y);
    let all = Series {
        name: "seconds per iteration".into(),
        points: points.iter().map(|p| at(p, p.iteration_s)).collect(),
    };
    // Non-finite points are skipped and break the line: only measured rows are marked.
    let measured = Series {
        name: "a measured row".into(),
        points: points
            .iter()
            .map(|p| {
                let y = if p.source == Source::Measured {
                    p.iteration_s
                } else {
                    f64::NAN
                };
                at(p, y)
            })
            .collect(),
    };
    line_chart_svg(&LineChart {
        x_label: "GPUs, packed on machines".into(),
        y_label: "s per iteration".into(),
        series: vec![all, measured],
        width,
        height: 240.0,
        y_zero: true,
        dodge: 0.0,
        ..LineChart::default()
    })
}
