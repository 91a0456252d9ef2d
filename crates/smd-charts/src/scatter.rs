//! A scatter plot of many points in a few named series, with the line y = x and guides
//! y = k·x: what a model predicts against what was measured.
//!
//! Made for thousands of points: each series' marker is defined once (`<defs>`) and every
//! point is a `<use>` of it; points of a series that would land on the same pixel are
//! drawn once (the group's `data-points` counts them all, `data-drawn` the markers).

use crate::axes::{scale_ticks, x_title, y_title, Axis};
use crate::format::fmt_sig;
use crate::legend::{line_key, Legend};
use crate::marker;
use crate::palette::series_style;
use crate::rect::Rect;
use crate::scale::{data_range, usable, Scale};
use crate::svg::{end, frame, group, text_at, text_width, xy_root, Tag};
use std::collections::BTreeSet;

/// A named set of points `(x, y)`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ScatterSeries {
    /// Legend name.
    pub name: String,
    /// The points; those with a non-finite coordinate (or non-positive on a log axis) are
    /// skipped.
    pub points: Vec<(f64, f64)>,
}

/// A scatter chart: its series, titles and axes.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterChart {
    /// Chart title (may be empty).
    pub title: String,
    /// Title of the x axis.
    pub x_label: String,
    /// Title of the y axis.
    pub y_label: String,
    /// The series; each gets its own colour and marker shape.
    pub series: Vec<ScatterSeries>,
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px (with `identity`, at most: the chart ends below its square
    /// plot).
    pub height: f64,
    /// Logarithmic axes (both).
    pub log: bool,
    /// Both axes over one range in a square plot, with the line y = x.
    pub identity: bool,
    /// Factors k of the dashed guides y = k·x (with `identity`), e.g. `[0.5, 2.0]`.
    pub guides: Vec<f64>,
    /// Marker "radius", px.
    pub marker_size: f64,
}

impl Default for ScatterChart {
    fn default() -> Self {
        ScatterChart {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            series: Vec::new(),
            width: 640.0,
            height: 560.0,
            log: false,
            identity: false,
            guides: Vec::new(),
            marker_size: 3.0,
        }
    }
}

/// Data range of the usable values (`scale::data_range` with 3% headroom, no forced 0).
fn range(vals: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    data_range(vals, log, false, 0.03)
}

/// Where everything goes.
struct Layout {
    width: f64,
    height: f64,
    top: f64,
    left: f64,
    legend_x: f64,
    xs: Scale,
    ys: Scale,
}

impl Layout {
    fn new(chart: &ScatterChart) -> Layout {
        let (width, mut height) = (chart.width.max(240.0), chart.height.max(180.0));
        let names = chart
            .series
            .iter()
            .map(|s| s.name.as_str())
            .chain(["y = x"]);
        let legend_w = names
            .map(|n| text_width(n, 11.0))
            .fold(0.0_f64, f64::max)
            .min(width * 0.35)
            + 30.0;
        let top: f64 = if chart.title.is_empty() { 16.0 } else { 40.0 };
        let (left, bottom) = (70.0, 52.0);
        let mut plot_w = (width - legend_w - 24.0 - left).max(20.0);
        let mut plot_h = (height - bottom - top).max(20.0);
        let pts = || chart.series.iter().flat_map(|s| s.points.iter());
        let both = |p: &&(f64, f64)| usable(p.0, chart.log) && usable(p.1, chart.log);
        let (xr, yr) = if chart.identity {
            // One range for both axes, so that y = x is the diagonal of a square.
            let r = range(pts().filter(both).flat_map(|p| [p.0, p.1]), chart.log);
            plot_w = plot_w.min(plot_h);
            plot_h = plot_w;
            // No empty band under a square plot that is narrower than the chart is tall.
            height = top + plot_h + bottom;
            (r, r)
        } else {
            (
                range(pts().filter(both).map(|p| p.0), chart.log),
                range(pts().filter(both).map(|p| p.1), chart.log),
            )
        };
        let xs = Scale {
            lo: xr.0,
            hi: xr.1,
            px: (left, left + plot_w),
            log: chart.log,
        };
        let ys = Scale {
            lo: yr.0,
            hi: yr.1,
            px: (top + plot_h, top),
            log: chart.log,
        };
        Layout {
            width,
            height,
            top,
            left,
            legend_x: left + plot_w + 24.0,
            xs,
            ys,
        }
    }

    /// The plot area: what the scales span.
    fn plot(&self) -> Rect {
        Rect::spanned(&self.xs, &self.ys)
    }
}

/// The chart as a standalone SVG document. Series `k` is a `g.series.series-{k}` with
/// `data-name`, `data-points` (its usable points) and `data-drawn` (its markers, one per
/// occupied pixel); each marker is a `<use>` with `data-x` and `data-y`. The line
/// y = x is `line.identity`, each guide a `line.guide` with `data-k`.
pub fn scatter_svg(chart: &ScatterChart) -> String {
    let lay = Layout::new(chart);
    let mut out = String::with_capacity(64 * 1024);
    xy_root(
        &mut out,
        (lay.width, lay.height, lay.left),
        "smd-scatter-chart",
        &chart.title,
        &chart.y_label,
        &chart.x_label,
    );
    axes(&mut out, chart, &lay);
    if chart.identity {
        identity(&mut out, chart, &lay);
    }
    let drawn = |p: &(f64, f64)| usable(p.0, chart.log) && usable(p.1, chart.log);
    if !chart.series.iter().flat_map(|s| &s.points).any(drawn) {
        let plot = lay.plot();
        let (x, y) = (plot.x + plot.width / 2.0, plot.y + plot.height / 2.0);
        text_at(&mut out, x, y, 13.0, "middle", "no-data", "no data");
    }
    defs(&mut out, chart);
    for (k, s) in chart.series.iter().enumerate() {
        series(&mut out, chart, &lay, k, s);
    }
    legend(&mut out, chart, &lay);
    end(&mut out, "svg");
    out
}

/// Grid lines on both axes, the frame and the axis titles.
fn axes(out: &mut String, chart: &ScatterChart, lay: &Layout) {
    let (xs, ys) = (&lay.xs, &lay.ys);
    group(out, "axes");
    let y_ticks = scale_ticks(ys, ((ys.px.0 - ys.px.1) / 45.0) as usize);
    Axis::left(lay.left)
        .gap(7.0)
        .grid(xs.px.1)
        .draw(out, &y_ticks);
    let x_ticks = scale_ticks(xs, ((xs.px.1 - xs.px.0) / 70.0) as usize);
    Axis::bottom(ys.px.0)
        .gap(18.0)
        .grid(ys.px.1)
        .draw(out, &x_ticks);
    frame(out, lay.plot());
    let mid_x = (xs.px.0 + xs.px.1) / 2.0;
    let mid_y = (ys.px.0 + ys.px.1) / 2.0;
    x_title(out, mid_x, ys.px.0 + 40.0, &chart.x_label);
    y_title(out, 16.0, mid_y, &chart.y_label);
    end(out, "g");
}

/// The line y = x across the plot and the guides y = k·x, each cut to the plot.
fn identity(out: &mut String, chart: &ScatterChart, lay: &Layout) {
    let (lo, hi) = (lay.xs.lo, lay.xs.hi);
    let mut line = |k: f64, class: &str, dash: Option<&str>| {
        // y = k·x inside [lo, hi]²: x from max(lo, lo/k) to min(hi, hi/k).
        let (x0, x1) = (lo.max(lo / k), hi.min(hi / k));
        if !(k.is_finite() && k > 0.0 && x0 < x1) {
            return;
        }
        let mut t = Tag::new(out, "line")
            .attr("class", class)
            .ends(
                lay.xs.to_px(x0),
                lay.ys.to_px(k * x0),
                lay.xs.to_px(x1),
                lay.ys.to_px(k * x1),
            )
            .attr("stroke", if dash.is_some() { "#999999" } else { "#222222" })
            .px("stroke-width", if dash.is_some() { 1.0 } else { 1.4 });
        if let Some(d) = dash {
            t = t.attr("stroke-dasharray", d).attr("data-k", k);
        }
        t.close();
    };
    line(1.0, "identity", None);
    for &k in &chart.guides {
        line(k, "guide", Some("5 4"));
    }
}

/// One marker per series, centred on the origin, for the points to `<use>`.
fn defs(out: &mut String, chart: &ScatterChart) {
    Tag::new(out, "defs").open();
    for k in 0..chart.series.len() {
        let (_, _, shape) = series_style(k);
        Tag::new(out, "path")
            .attr("id", format!("scatter-marker-{k}"))
            .attr("d", shape.path(0.0, 0.0, chart.marker_size))
            .close();
    }
    end(out, "defs");
}

/// Series `k`: its markers, filled translucent (stroke-only shapes stroked), so that
/// dense regions read darker.
fn series(out: &mut String, chart: &ScatterChart, lay: &Layout, k: usize, s: &ScatterSeries) {
    let (colour, _, shape) = series_style(k);
    let usable_points: Vec<(f64, f64)> = s
        .points
        .iter()
        .copied()
        .filter(|p| usable(p.0, chart.log) && usable(p.1, chart.log))
        .collect();
    let mut seen = BTreeSet::new();
    let mut markers = String::new();
    for &(x, y) in &usable_points {
        let (px, py) = (lay.xs.to_px(x), lay.ys.to_px(y));
        if !seen.insert((px.round() as i64, py.round() as i64)) {
            continue;
        }
        // Four significant digits: enough to find the point, and a figure of thousands
        // of points stays small.
        Tag::new(&mut markers, "use")
            .attr("href", format!("#scatter-marker-{k}"))
            .px("x", px)
            .px("y", py)
            .attr("data-x", fmt_sig(x, 4))
            .attr("data-y", fmt_sig(y, 4))
            .close();
    }
    let g = Tag::new(out, "g")
        .attr("class", format!("series series-{k}"))
        .attr("data-name", &s.name)
        .attr("data-points", usable_points.len())
        .attr("data-drawn", seen.len());
    let g = if shape.stroke_only() {
        g.attr("fill", "none")
            .attr("stroke", colour)
            .px("stroke-width", 1.2)
            .attr("stroke-opacity", "0.7")
    } else {
        g.attr("fill", colour)
            .attr("fill-opacity", "0.45")
            .attr("stroke", colour)
            .px("stroke-width", 0.6)
    };
    g.open().push_str(&markers);
    end(out, "g");
}

/// The legend: each series' marker and name, then the line y = x and the guides.
fn legend(out: &mut String, chart: &ScatterChart, lay: &Layout) {
    group(out, "legend");
    let mut legend = Legend::column(lay.legend_x, lay.top + 8.0, 20.0).key_width(26.0);
    for (k, s) in chart.series.iter().enumerate() {
        let (colour, _, shape) = series_style(k);
        let (x, y) = legend.key();
        marker::draw(out, shape, x + 9.0, y, 4.5, colour, true);
        legend.label(out, &s.name);
    }
    if chart.identity {
        let (x, y) = legend.key();
        line_key(out, (x, y), 20.0, "#222222", 1.4, None);
        legend.label(out, "y = x");
        for &k in chart.guides.iter().filter(|k| k.is_finite() && **k > 0.0) {
            let (x, y) = legend.key();
            line_key(out, (x, y), 20.0, "#999999", 1.0, Some("5 4"));
            let name = if k >= 1.0 {
                format!("y = {}·x", crate::format::sig(k, 3))
            } else {
                format!("y = x/{}", crate::format::sig(1.0 / k, 3))
            };
            legend.label(out, &name);
        }
    }
    end(out, "g");
}
