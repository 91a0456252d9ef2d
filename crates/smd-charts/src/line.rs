//! A generic line chart with error bars, for the paper-reproduction experiments.

use crate::axes::{scale_ticks, x_title, y_title, Axis};
use crate::format::plain_sig;
use crate::legend::{line_key, Legend};
use crate::marker;
use crate::palette::series_style;
use crate::rect::Rect;
use crate::scale::{data_range, usable, Scale};
use crate::svg::{
    broken_line, end, frame, group, text_at, text_width, titled_group, xy_root, Px, Tag,
};
use std::fmt::Display;

/// One point of a series: the mean at `x` and the half-height of its error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Abscissa.
    pub x: f64,
    /// Mean (the line passes through it).
    pub mean: f64,
    /// Error bar half-height (e.g. a standard deviation or a CI half-width); 0 for none.
    pub spread: f64,
}

impl Point {
    /// A point without an error bar.
    pub fn exact(x: f64, mean: f64) -> Point {
        Point {
            x,
            mean,
            spread: 0.0,
        }
    }
}

/// A named series of points, drawn in the order given.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// The points; those with a non-finite coordinate (or non-positive on a log axis) are
    /// skipped and break the line.
    pub points: Vec<Point>,
}

/// A line chart: its series, titles and axes.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// Chart title (may be empty).
    pub title: String,
    /// Title of the x axis.
    pub x_label: String,
    /// Title of the y axis.
    pub y_label: String,
    /// The series; each gets its own colour, dash pattern and marker shape.
    pub series: Vec<Series>,
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// Extend a linear y axis to include 0.
    pub y_zero: bool,
    /// Horizontal offset, px, between neighbouring series, so that error bars at the same x
    /// do not hide each other (series k of n is shifted by `(k − (n−1)/2)·dodge`); 0 draws
    /// every point at its exact x.
    pub dodge: f64,
}

impl Default for LineChart {
    fn default() -> Self {
        LineChart {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            series: Vec::new(),
            width: 640.0,
            height: 400.0,
            x_log: false,
            y_log: false,
            y_zero: true,
            dodge: 5.0,
        }
    }
}

/// Headroom of a line chart's axes: 4% of the span.
const HEADROOM: f64 = 0.04;

/// Data range of an axis (`scale::data_range` with the line chart's headroom).
fn range(vals: impl Iterator<Item = f64>, log: bool, zero: bool) -> (f64, f64) {
    data_range(vals, log, zero, HEADROOM)
}

/// The half-height of a point's error bar (0 when not finite).
fn spread(p: &Point) -> f64 {
    if p.spread.is_finite() {
        p.spread.abs()
    } else {
        0.0
    }
}

/// Where everything goes.
struct Layout {
    width: f64,
    height: f64,
    /// Top of the plot area's room (below the title).
    top: f64,
    /// Left edge of the plot area.
    left: f64,
    /// Width of the legend column at the right.
    legend_w: f64,
    /// The x scale; `xs.px.1` is the plot area's right edge.
    xs: Scale,
    /// The y scale; `ys.px.0` is the plot area's bottom, `ys.px.1` its top.
    ys: Scale,
}

impl Layout {
    fn new(chart: &LineChart) -> Layout {
        let (width, height) = (chart.width.max(240.0), chart.height.max(180.0));
        let legend_w = chart
            .series
            .iter()
            .map(|s| text_width(&s.name, 11.0))
            .fold(0.0_f64, f64::max)
            .min(width * 0.35)
            + 44.0;
        let top: f64 = if chart.title.is_empty() { 16.0 } else { 40.0 };
        let (left, bottom) = (70.0, 52.0);
        let plot_x1 = width - legend_w - 12.0;
        let plot_y1 = height - bottom;

        let pts = || chart.series.iter().flat_map(|s| s.points.iter());
        let (xlo, xhi) = {
            let (lo, hi) = range(pts().map(|p| p.x), chart.x_log, false);
            if chart.x_log {
                (lo, hi)
            } else {
                let pad = (hi - lo) * 0.03;
                (lo - pad, hi + pad)
            }
        };
        let (ylo, yhi) = range(
            pts()
                .filter(|p| usable(p.x, chart.x_log) && usable(p.mean, chart.y_log))
                .flat_map(|p| [p.mean - spread(p), p.mean + spread(p)]),
            chart.y_log,
            chart.y_zero,
        );
        let xs = Scale {
            lo: xlo,
            hi: xhi,
            px: (left, plot_x1.max(left + 20.0)),
            log: chart.x_log,
        };
        let ys = Scale {
            lo: ylo,
            hi: yhi,
            px: (plot_y1, top.min(plot_y1 - 20.0)),
            log: chart.y_log,
        };
        Layout {
            width,
            height,
            top,
            left,
            legend_w,
            xs,
            ys,
        }
    }

    /// The plot area: what the scales span.
    fn plot(&self) -> Rect {
        Rect::spanned(&self.xs, &self.ys)
    }

    /// The centre of the plot area.
    fn middle(&self) -> (f64, f64) {
        (
            (self.left + self.xs.px.1) / 2.0,
            (self.ys.px.1 + self.ys.px.0) / 2.0,
        )
    }
}

/// The chart as a standalone SVG document. Series `k` is a `g.series.series-{k}` with
/// `data-name`; its points are `g.point` elements with `data-x`, `data-mean`,
/// `data-spread` and a `<title>`.
pub fn line_chart_svg(chart: &LineChart) -> String {
    let lay = Layout::new(chart);
    let mut out = String::with_capacity(16 * 1024);
    xy_root(
        &mut out,
        (lay.width, lay.height, lay.left),
        "smd-line-chart",
        &chart.title,
        &chart.y_label,
        &chart.x_label,
    );
    axes(&mut out, chart, &lay);
    if chart.series.iter().all(|s| s.points.is_empty()) {
        let (x, y) = lay.middle();
        text_at(&mut out, x, y, 13.0, "middle", "no-data", "no data");
    }
    let n = chart.series.len();
    for (k, s) in chart.series.iter().enumerate() {
        let shift = if chart.dodge.is_finite() {
            (k as f64 - (n as f64 - 1.0) / 2.0) * chart.dodge
        } else {
            0.0
        };
        series(&mut out, chart, &lay, k, s, shift);
    }
    legend(&mut out, chart, &lay);
    end(&mut out, "svg");
    out
}

/// Grid, ticks, frame and axis titles.
fn axes(out: &mut String, chart: &LineChart, lay: &Layout) {
    let (xs, ys) = (&lay.xs, &lay.ys);
    group(out, "axes");
    let y_ticks = scale_ticks(ys, ((ys.px.0 - lay.top) / 45.0) as usize);
    Axis::left(lay.left)
        .gap(7.0)
        .grid(xs.px.1)
        .draw(out, &y_ticks);
    let x_ticks = scale_ticks(xs, ((xs.px.1 - lay.left) / 70.0) as usize);
    Axis::bottom(ys.px.0).gap(18.0).draw(out, &x_ticks);
    frame(out, lay.plot());
    let (mid_x, mid_y) = lay.middle();
    x_title(out, mid_x, lay.height - 12.0, &chart.x_label);
    y_title(out, 16.0, mid_y, &chart.y_label);
    end(out, "g");
}

/// Series `k`, its points drawn `shift` px right of their x: the line, broken at unusable
/// points, then each point's error bar and marker.
fn series(out: &mut String, chart: &LineChart, lay: &Layout, k: usize, s: &Series, shift: f64) {
    let (colour, dash, shape) = series_style(k);
    let (xs, ys) = (&lay.xs, &lay.ys);
    let drawn = |p: &Point| usable(p.x, chart.x_log) && usable(p.mean, chart.y_log);
    Tag::new(out, "g")
        .attr("class", format!("series series-{k}"))
        .attr("data-name", &s.name)
        .open();
    let points = s
        .points
        .iter()
        .map(|p| drawn(p).then(|| (xs.to_px(p.x) + shift, ys.to_px(p.mean))));
    broken_line(out, points, colour, dash, 2.0);
    for p in s.points.iter().filter(|p| drawn(p)) {
        let (x, y) = (xs.to_px(p.x) + shift, ys.to_px(p.mean));
        let data: [(&str, &dyn Display); 3] = [
            ("data-x", &p.x),
            ("data-mean", &p.mean),
            ("data-spread", &p.spread),
        ];
        let tip = format!(
            "{}: x = {}, mean = {} ± {}",
            s.name,
            plain_sig(p.x, 4),
            plain_sig(p.mean, 4),
            plain_sig(spread(p), 3)
        );
        titled_group(out, "point", &data, &tip, |out| {
            let sp = spread(p);
            if sp > 0.0 {
                let lo = p.mean - sp;
                let y_lo = if usable(lo, chart.y_log) {
                    ys.to_px(lo)
                } else {
                    ys.px.0
                };
                error_bar(out, x, y_lo, ys.to_px(p.mean + sp), colour);
            }
            marker::draw(out, shape, x, y, 4.5, colour, true);
        });
    }
    end(out, "g");
}

/// An error bar at `x` from `y_lo` to `y_hi` with whiskers.
fn error_bar(out: &mut String, x: f64, y_lo: f64, y_hi: f64, colour: &str) {
    let d = format!(
        "M{x},{a}L{x},{b}M{l},{a}L{r},{a}M{l},{b}L{r},{b}",
        x = Px(x),
        a = Px(y_lo),
        b = Px(y_hi),
        l = Px(x - 4.0),
        r = Px(x + 4.0)
    );
    Tag::new(out, "path")
        .attr("class", "error-bar")
        .attr("d", d)
        .attr("stroke", colour)
        .px("stroke-width", 1.3)
        .close();
}

/// The legend: each series' line sample, marker and name.
fn legend(out: &mut String, chart: &LineChart, lay: &Layout) {
    group(out, "legend");
    let mut legend = Legend::column(lay.width - lay.legend_w, lay.top + 8.0, 20.0).key_width(36.0);
    for (k, s) in chart.series.iter().enumerate() {
        let (colour, dash, shape) = series_style(k);
        let (x, y) = legend.key();
        let dash = (dash != "none").then_some(dash);
        line_key(out, (x, y), 30.0, colour, 2.0, dash);
        marker::draw(out, shape, x + 15.0, y, 4.5, colour, true);
        legend.label(out, &s.name);
    }
    end(out, "g");
}
