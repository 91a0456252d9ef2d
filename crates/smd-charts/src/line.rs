//! A generic line chart with error bars, for the paper-reproduction experiments.

use crate::marker::{self, Shape};
use crate::palette::CATEGORICAL;
use crate::scale::Scale;
use crate::svg::{end, fmt_sig, fmt_tick, root, text_at, text_width, title, Px, Tag};

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

const DASHES: [&str; 6] = ["none", "7 3", "2 3", "9 3 2 3", "13 4", "4 2 1 2"];
const SHAPES: [Shape; 8] = [
    Shape::Circle,
    Shape::Square,
    Shape::TriangleUp,
    Shape::Diamond,
    Shape::TriangleDown,
    Shape::Cross,
    Shape::Pentagon,
    Shape::Asterisk,
];

/// Style of series `k`: colour, dash pattern, marker.
fn style(k: usize) -> (&'static str, &'static str, Shape) {
    (
        CATEGORICAL[k % CATEGORICAL.len()],
        DASHES[k % DASHES.len()],
        SHAPES[k % SHAPES.len()],
    )
}

/// Data range of an axis over usable values, widened when degenerate.
fn range(vals: impl Iterator<Item = f64>, log: bool, zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
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
            // A little headroom in log space.
            let pad = (hi / lo).powf(0.04);
            (lo / pad, hi * pad)
        }
    } else if hi - lo <= 0.0 {
        let d = lo.abs().max(1.0) * 0.5;
        (lo - d, hi + d)
    } else {
        let pad = (hi - lo) * 0.04;
        (if zero && lo == 0.0 { 0.0 } else { lo - pad }, hi + pad)
    }
}

/// The chart as a standalone SVG document. Series `k` is a `g.series.series-{k}` with
/// `data-name`; its points are `g.point` elements with `data-x`, `data-mean`,
/// `data-spread` and a `<title>`.
pub fn line_chart_svg(chart: &LineChart) -> String {
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

    let x_usable = |v: f64| v.is_finite() && (!chart.x_log || v > 0.0);
    let y_usable = |v: f64| v.is_finite() && (!chart.y_log || v > 0.0);
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
    let spread = |p: &Point| {
        if p.spread.is_finite() {
            p.spread.abs()
        } else {
            0.0
        }
    };
    let (ylo, yhi) = range(
        pts()
            .filter(|p| x_usable(p.x) && y_usable(p.mean))
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

    let mut out = String::with_capacity(16 * 1024);
    let label = if chart.title.is_empty() {
        format!("{} against {}", chart.y_label, chart.x_label)
    } else {
        chart.title.clone()
    };
    root(&mut out, width, height, "smd-line-chart", &label, &[]);
    if !chart.title.is_empty() {
        text_at(&mut out, left, 22.0, 15.0, "start", "title", &chart.title);
    }

    // Grid and axes.
    Tag::new(&mut out, "g").attr("class", "axes").open();
    let (yt, ystep) = ys.ticks(((plot_y1 - top) / 45.0) as usize);
    for v in yt {
        let y = ys.to_px(v);
        Tag::new(&mut out, "line")
            .attr("class", "grid")
            .px("x1", left)
            .px("y1", y)
            .px("x2", xs.px.1)
            .px("y2", y)
            .attr("stroke", "#e3e3e3")
            .close();
        let label = if ys.log {
            fmt_sig(v, 3)
        } else {
            fmt_tick(v, ystep)
        };
        text_at(&mut out, left - 7.0, y + 4.0, 11.0, "end", "tick", &label);
    }
    let (xt, xstep) = xs.ticks(((xs.px.1 - left) / 70.0) as usize);
    for v in xt {
        let x = xs.to_px(v);
        Tag::new(&mut out, "line")
            .px("x1", x)
            .px("y1", plot_y1)
            .px("x2", x)
            .px("y2", plot_y1 + 5.0)
            .attr("stroke", "#444444")
            .close();
        let label = if xs.log {
            fmt_sig(v, 3)
        } else {
            fmt_tick(v, xstep)
        };
        text_at(&mut out, x, plot_y1 + 18.0, 11.0, "middle", "tick", &label);
    }
    Tag::new(&mut out, "rect")
        .attr("class", "frame")
        .px("x", left)
        .px("y", ys.px.1)
        .px("width", xs.px.1 - left)
        .px("height", plot_y1 - ys.px.1)
        .attr("fill", "none")
        .attr("stroke", "#444444")
        .close();
    text_at(
        &mut out,
        (left + xs.px.1) / 2.0,
        height - 12.0,
        12.5,
        "middle",
        "axis-label",
        &chart.x_label,
    );
    let (ax, ay) = (16.0, (ys.px.1 + plot_y1) / 2.0);
    Tag::new(&mut out, "text")
        .attr("class", "axis-label")
        .px("x", ax)
        .px("y", ay)
        .px("font-size", 12.5)
        .attr("text-anchor", "middle")
        .attr("fill", "#222222")
        .attr("transform", format!("rotate(-90 {} {})", Px(ax), Px(ay)))
        .text("text", &chart.y_label);
    end(&mut out, "g");

    if pts().next().is_none() {
        text_at(
            &mut out,
            (left + xs.px.1) / 2.0,
            (ys.px.1 + plot_y1) / 2.0,
            13.0,
            "middle",
            "no-data",
            "no data",
        );
    }

    // Series.
    let n = chart.series.len();
    for (k, s) in chart.series.iter().enumerate() {
        let (colour, dash, shape) = style(k);
        let shift = if chart.dodge.is_finite() {
            (k as f64 - (n as f64 - 1.0) / 2.0) * chart.dodge
        } else {
            0.0
        };
        Tag::new(&mut out, "g")
            .attr("class", format!("series series-{k}"))
            .attr("data-name", &s.name)
            .open();
        // The line, broken at unusable points.
        let mut d = String::new();
        let mut pen_down = false;
        for p in &s.points {
            if x_usable(p.x) && y_usable(p.mean) {
                d.push(if pen_down { 'L' } else { 'M' });
                d.push_str(&format!(
                    "{},{}",
                    Px(xs.to_px(p.x) + shift),
                    Px(ys.to_px(p.mean))
                ));
                pen_down = true;
            } else {
                pen_down = false;
            }
        }
        if !d.is_empty() {
            let mut t = Tag::new(&mut out, "path")
                .attr("class", "line")
                .attr("d", &d)
                .attr("fill", "none")
                .attr("stroke", colour)
                .px("stroke-width", 2.0)
                .attr("stroke-linejoin", "round");
            if dash != "none" {
                t = t.attr("stroke-dasharray", dash);
            }
            t.close();
        }
        for p in &s.points {
            if !(x_usable(p.x) && y_usable(p.mean)) {
                continue;
            }
            let (x, y) = (xs.to_px(p.x) + shift, ys.to_px(p.mean));
            Tag::new(&mut out, "g")
                .attr("class", "point")
                .attr("data-x", p.x)
                .attr("data-mean", p.mean)
                .attr("data-spread", p.spread)
                .open();
            title(
                &mut out,
                &format!(
                    "{}: x = {}, mean = {} ± {}",
                    s.name,
                    fmt_sig(p.x, 4),
                    fmt_sig(p.mean, 4),
                    fmt_sig(spread(p), 3)
                ),
            );
            let sp = spread(p);
            if sp > 0.0 {
                let lo = p.mean - sp;
                let y_lo = if y_usable(lo) { ys.to_px(lo) } else { ys.px.0 };
                let y_hi = ys.to_px(p.mean + sp);
                let d = format!(
                    "M{x},{a}L{x},{b}M{l},{a}L{r},{a}M{l},{b}L{r},{b}",
                    x = Px(x),
                    a = Px(y_lo),
                    b = Px(y_hi),
                    l = Px(x - 4.0),
                    r = Px(x + 4.0)
                );
                Tag::new(&mut out, "path")
                    .attr("class", "error-bar")
                    .attr("d", d)
                    .attr("stroke", colour)
                    .px("stroke-width", 1.3)
                    .close();
            }
            marker::draw(&mut out, shape, x, y, 4.5, colour, true);
            end(&mut out, "g");
        }
        end(&mut out, "g");
    }

    // Legend.
    Tag::new(&mut out, "g").attr("class", "legend").open();
    let lx = width - legend_w;
    for (k, s) in chart.series.iter().enumerate() {
        let (colour, dash, shape) = style(k);
        let y = top + 8.0 + k as f64 * 20.0;
        let mut t = Tag::new(&mut out, "line")
            .px("x1", lx)
            .px("y1", y)
            .px("x2", lx + 30.0)
            .px("y2", y)
            .attr("stroke", colour)
            .px("stroke-width", 2.0);
        if dash != "none" {
            t = t.attr("stroke-dasharray", dash);
        }
        t.close();
        marker::draw(&mut out, shape, lx + 15.0, y, 4.5, colour, true);
        text_at(
            &mut out,
            lx + 36.0,
            y + 4.0,
            11.0,
            "start",
            "legend-label",
            &s.name,
        );
    }
    end(&mut out, "g");
    end(&mut out, "svg");
    out
}
