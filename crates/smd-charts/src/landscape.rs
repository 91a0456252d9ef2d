//! The objective landscape of one job: a heatmap of T or μ over the (w, p) samples, Ω,
//! the points the policies chose, and Algorithm 1's search as a text panel.

use crate::marker::{self, Shape};
use crate::palette::viridis;
use crate::scale::Scale;
use crate::svg::{end, fmt_sig, fmt_tick, root, text_at, title, Px, Tag};
use smd_core::Landscape;

/// Which value the heatmap shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Value {
    /// The completion time T (s), on a logarithmic colour scale (`l.t`).
    #[default]
    Time,
    /// The utility μ(π), on a linear colour scale from 0 (`l.mu`).
    Utility,
}

/// Options of [`landscape_svg`] and [`landscape_geometry`]. The layout (plot, colour bar,
/// legend and search column) reads well from about 560×400 up.
#[derive(Clone, Debug, PartialEq)]
pub struct LandscapeOptions {
    /// Width of the SVG, px (user units of its viewBox).
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
    /// The value shown.
    pub value: Value,
    /// Prefix of the ids inside the SVG (hatch pattern, clip path). Charts embedded in the
    /// same HTML page share one id namespace: give each a different prefix.
    pub id_prefix: String,
}

impl Default for LandscapeOptions {
    fn default() -> Self {
        LandscapeOptions {
            width: 640.0,
            height: 480.0,
            value: Value::Time,
            id_prefix: "smd-landscape".into(),
        }
    }
}

/// An axis-aligned rectangle in SVG user units (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// Whether (x, y) lies in the rectangle, edges included.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x <= self.right() && y >= self.y && y <= self.bottom()
    }
}

/// The map between the landscape SVG's pixels and (w, p), exactly as [`landscape_svg`]
/// draws it (same options ⇒ same geometry).
///
/// Pixels are SVG user units of the chart's `viewBox` (`0 0 width height`); a page that
/// scales the SVG with CSS must scale mouse offsets by `width / clientWidth` first.
/// Sample `(i, j)` (`l.w[i]`, `l.p[j]`) is drawn as a cell centred on its (w, p) whose
/// edges are the midpoints to the neighbouring samples; its values are `l.t[j][i]`,
/// `l.pi[j][i]`, `l.mu[j][i]`. w grows to the right, p upwards.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// Width of the whole chart.
    pub width: f64,
    /// Height of the whole chart.
    pub height: f64,
    /// The plot area (the heatmap's extent).
    pub plot: Rect,
    w_scale: Scale,
    p_scale: Scale,
    w_edges: Vec<f64>,
    p_edges: Vec<f64>,
    /// Numbers of samples along w and p (0 if the landscape has none).
    samples: (usize, usize),
}

impl Geometry {
    /// The pixel of (w, p) (also outside the plot area).
    pub fn to_px(&self, w: f64, p: f64) -> (f64, f64) {
        (self.w_scale.to_px(w), self.p_scale.to_px(p))
    }

    /// The (w, p) under the pixel (x, y), `None` outside the plot area.
    pub fn to_wp(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        if !self.plot.contains(x, y) {
            return None;
        }
        Some((self.w_scale.from_px(x), self.p_scale.from_px(y)))
    }

    /// Indices `(i, j)` into `l.w` and `l.p` of the sample whose cell contains the pixel,
    /// `None` outside the plot area (or if the landscape has no samples).
    pub fn nearest_sample(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (w, p) = self.to_wp(x, y)?;
        if self.samples.0 == 0 || self.samples.1 == 0 {
            return None;
        }
        Some((cell_index(&self.w_edges, w)?, cell_index(&self.p_edges, p)?))
    }

    /// The cell of sample `(i, j)` (`l.w[i]`, `l.p[j]`), `None` if there is no such sample.
    pub fn cell(&self, i: usize, j: usize) -> Option<Rect> {
        if i >= self.samples.0 || j >= self.samples.1 {
            return None;
        }
        let (w0, w1) = (*self.w_edges.get(i)?, *self.w_edges.get(i + 1)?);
        let (p0, p1) = (*self.p_edges.get(j)?, *self.p_edges.get(j + 1)?);
        let (x0, y0) = self.to_px(w0, p1);
        let (x1, y1) = self.to_px(w1, p0);
        Some(Rect {
            x: x0,
            y: y0,
            width: x1 - x0,
            height: y1 - y0,
        })
    }

    /// The w range of the plot area (left, right edge).
    pub fn w_range(&self) -> (f64, f64) {
        (self.w_scale.lo, self.w_scale.hi)
    }

    /// The p range of the plot area (bottom, top edge).
    pub fn p_range(&self) -> (f64, f64) {
        (self.p_scale.lo, self.p_scale.hi)
    }
}

/// Index of the cell of `edges` containing `v` (the last cell includes its right edge).
fn cell_index(edges: &[f64], v: f64) -> Option<usize> {
    let n = edges.len().checked_sub(1).filter(|&n| n > 0)?;
    let k = edges.partition_point(|&e| e <= v);
    Some(k.saturating_sub(1).min(n - 1))
}

/// Cell edges of samples: midpoints between neighbours, half a spacing beyond the ends
/// (spacing 1 for a single sample; the one cell around 1 for no sample, which keeps the
/// axes drawable).
fn edges(samples: &[f64]) -> Vec<f64> {
    let n = samples.len();
    if n == 0 {
        return vec![0.5, 1.5];
    }
    let first_gap = if n > 1 { samples[1] - samples[0] } else { 1.0 };
    let last_gap = if n > 1 {
        samples[n - 1] - samples[n - 2]
    } else {
        1.0
    };
    let mut e = Vec::with_capacity(n + 1);
    e.push(samples[0] - first_gap / 2.0);
    for k in 1..n {
        e.push((samples[k - 1] + samples[k]) / 2.0);
    }
    e.push(samples[n - 1] + last_gap / 2.0);
    e
}

/// Where everything goes.
struct Layout {
    geometry: Geometry,
    /// The colour bar.
    bar: Rect,
    /// Left edge of the legend/search column.
    column_x: f64,
}

fn layout(l: &Landscape, opts: &LandscapeOptions) -> Layout {
    let (width, height) = (opts.width.max(200.0), opts.height.max(160.0));
    let column_w = (width * 0.29).clamp(150.0, 230.0);
    let bar_zone = 78.0;
    let (left, top, bottom) = (62.0, 42.0, 50.0);
    let plot_w = (width - column_w - bar_zone - left).max(40.0);
    let plot_h = (height - top - bottom).max(40.0);
    let plot = Rect {
        x: left,
        y: top,
        width: plot_w,
        height: plot_h,
    };
    let (w_edges, p_edges) = (edges(&l.w), edges(&l.p));
    let w_scale = Scale {
        lo: w_edges[0],
        hi: *w_edges.last().expect("edges are never empty"),
        px: (plot.x, plot.right()),
        log: false,
    };
    let p_scale = Scale {
        lo: p_edges[0],
        hi: *p_edges.last().expect("edges are never empty"),
        px: (plot.bottom(), plot.y),
        log: false,
    };
    let bar = Rect {
        x: plot.right() + 14.0,
        y: plot.y,
        width: 14.0,
        height: plot.height,
    };
    Layout {
        geometry: Geometry {
            width,
            height,
            plot,
            w_scale,
            p_scale,
            w_edges,
            p_edges,
            samples: (l.w.len(), l.p.len()),
        },
        bar,
        column_x: plot.right() + bar_zone + 8.0,
    }
}

/// The geometry [`landscape_svg`] uses for `l` with `opts`, for mapping mouse positions.
pub fn landscape_geometry(l: &Landscape, opts: &LandscapeOptions) -> Geometry {
    layout(l, opts).geometry
}

/// The value at sample (i, j), NaN where the landscape has none.
fn value_at(l: &Landscape, value: Value, i: usize, j: usize) -> f64 {
    let rows = match value {
        Value::Time => &l.t,
        Value::Utility => &l.mu,
    };
    rows.get(j)
        .and_then(|r| r.get(i))
        .copied()
        .unwrap_or(f64::NAN)
}

fn inside_at(l: &Landscape, i: usize, j: usize) -> bool {
    l.inside
        .get(j)
        .and_then(|r| r.get(i))
        .copied()
        .unwrap_or(false)
}

/// The colour scale: log of T over Ω's samples, or linear μ from 0; `None` if no sample
/// in Ω has a usable value (then no cell is coloured).
fn colour_scale(l: &Landscape, value: Value, bar: &Rect) -> Option<Scale> {
    let mut vs = Vec::new();
    for j in 0..l.p.len() {
        for i in 0..l.w.len() {
            let v = value_at(l, value, i, j);
            if usable(value, v) && inside_at(l, i, j) {
                vs.push(v);
            }
        }
    }
    if vs.is_empty() {
        return None;
    }
    let lo = vs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = vs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let px = (bar.bottom(), bar.y);
    Some(match value {
        Value::Time => {
            let (lo, hi) = if hi / lo < 1.0 + 1e-9 {
                (lo / 2.0, hi * 2.0)
            } else {
                (lo, hi)
            };
            Scale {
                lo,
                hi,
                px,
                log: true,
            }
        }
        Value::Utility => {
            let (lo, hi) = (lo.min(0.0), hi.max(0.0));
            let hi = if hi - lo <= 0.0 { lo + 1.0 } else { hi };
            Scale {
                lo,
                hi,
                px,
                log: false,
            }
        }
    })
}

/// Whether a sample value can be coloured (finite; positive on the log scale of T).
fn usable(value: Value, v: f64) -> bool {
    v.is_finite() && (value == Value::Utility || v > 0.0)
}

/// Colour of a policy's marker and its shape. Unknown policies share a pentagon.
fn policy_style(policy: &str) -> (Shape, &'static str) {
    match policy {
        "smd" => (Shape::Diamond, "#D55E00"),
        "esw" => (Shape::Square, "#56B4E9"),
        "optimus" => (Shape::TriangleUp, "#E69F00"),
        "exact" => (Shape::TriangleDown, "#CC79A7"),
        _ => (Shape::Pentagon, "#0072B2"),
    }
}

/// Drawing order (bigger shapes first, so the smaller ones stay visible on top).
fn policy_rank(policy: &str) -> usize {
    match policy {
        "exact" => 0,
        "optimus" => 1,
        "esw" => 2,
        "smd" => 4,
        _ => 3,
    }
}

/// Marker size of a policy.
fn policy_size(policy: &str) -> f64 {
    match policy {
        "exact" => 8.5,
        "optimus" => 8.0,
        "esw" => 7.0,
        _ => 7.0,
    }
}

/// A class-name-safe form of a policy name.
fn class_name(s: &str) -> String {
    let c: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if c.is_empty() {
        "unnamed".into()
    } else {
        c
    }
}

const RELAXED: (Shape, &str, f64) = (Shape::Circle, "#000000", 3.6);
const INTEGER: (Shape, &str, f64) = (Shape::Cross, "#000000", 6.0);

/// The landscape of one job as a standalone SVG document (see the crate docs for the
/// classes and data attributes it carries).
pub fn landscape_svg(l: &Landscape, opts: &LandscapeOptions) -> String {
    let lay = layout(l, opts);
    let g = &lay.geometry;
    let plot = g.plot;
    let id = |s: &str| format!("{}-{s}", crate::svg::escape(&opts.id_prefix));
    let cscale = colour_scale(l, opts.value, &lay.bar);
    let (what, unit_label) = match opts.value {
        Value::Time => ("completion time T", "T (s, log)"),
        Value::Utility => ("utility μ", "utility μ"),
    };
    let mut out = String::with_capacity(64 * 1024);
    let label = format!("Landscape of {}: {what} over workers w and PS p", l.id);
    root(&mut out, g.width, g.height, "smd-landscape", &label, &[]);
    out.push_str(&format!(
        "<defs><pattern id=\"{hatch}\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" \
         patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e4e4e4\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9e9e9e\" stroke-width=\"2\"/></pattern>\
         <clipPath id=\"{clip}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath></defs>",
        Px(plot.x),
        Px(plot.y),
        Px(plot.width),
        Px(plot.height),
        hatch = id("hatch"),
        clip = id("clip"),
    ));
    text_at(
        &mut out,
        plot.x,
        22.0,
        15.0,
        "start",
        "title",
        &format!("{} — {what}", l.id),
    );

    // Heatmap.
    Tag::new(&mut out, "g")
        .attr("class", "cells")
        .attr("shape-rendering", "crispEdges")
        .open();
    for j in 0..l.p.len() {
        for i in 0..l.w.len() {
            let Some(r) = g.cell(i, j) else { continue };
            let v = value_at(l, opts.value, i, j);
            let inside = inside_at(l, i, j);
            let (class, fill) = if !inside {
                ("cell outside".to_string(), format!("url(#{})", id("hatch")))
            } else if let (Some(cs), true) = (&cscale, usable(opts.value, v)) {
                ("cell".to_string(), viridis(cs.fraction(v)))
            } else {
                ("cell novalue".to_string(), "#bdbdbd".to_string())
            };
            Tag::new(&mut out, "rect")
                .attr("class", class)
                .attr("data-i", i)
                .attr("data-j", j)
                .attr("data-w", l.w[i])
                .attr("data-p", l.p[j])
                .attr("data-v", v)
                .px("x", r.x)
                .px("y", r.y)
                // A hair of overlap hides seams between cells in every renderer.
                .px("width", r.width + 0.3)
                .px("height", r.height + 0.3)
                .attr("fill", fill)
                .close();
        }
    }
    end(&mut out, "g");
    frame(&mut out, plot);

    // Ω.
    if l.omega.len() >= 3 {
        let pts: Vec<String> = l
            .omega
            .iter()
            .map(|v| {
                let (x, y) = g.to_px(v[0], v[1]);
                format!("{},{}", Px(x), Px(y))
            })
            .collect();
        let pts = pts.join(" ");
        Tag::new(&mut out, "g")
            .attr("class", "omega")
            .attr("clip-path", format!("url(#{})", id("clip")))
            .open();
        title(&mut out, "boundary of Ω (the job's resource limit)");
        for (stroke, w) in [("#ffffff", 4.5), ("#111111", 2.0)] {
            Tag::new(&mut out, "polygon")
                .attr("points", &pts)
                .attr("fill", "none")
                .attr("stroke", stroke)
                .px("stroke-width", w)
                .attr("stroke-linejoin", "round")
                .close();
        }
        end(&mut out, "g");
    }

    // Markers.
    let mut chosen: Vec<&smd_core::landscape::Chosen> = l.chosen.iter().collect();
    chosen.sort_by_key(|c| policy_rank(&c.policy));
    for c in &chosen {
        let (shape, colour) = policy_style(&c.policy);
        let (x, y) = g.to_px(c.w, c.p);
        let admitted = if c.admitted {
            "admitted"
        } else {
            "not admitted"
        };
        let class = if c.admitted {
            format!("marker marker-{}", class_name(&c.policy))
        } else {
            format!("marker marker-{} not-admitted", class_name(&c.policy))
        };
        Tag::new(&mut out, "g")
            .attr("class", class)
            .attr("data-w", c.w)
            .attr("data-p", c.p)
            .attr("data-t", c.t)
            .attr("data-admitted", c.admitted)
            .open();
        title(
            &mut out,
            &format!(
                "{}: w = {}, p = {}, T = {} s ({admitted})",
                c.policy,
                fmt_sig(c.w, 6),
                fmt_sig(c.p, 6),
                fmt_sig(c.t, 4)
            ),
        );
        marker::draw(
            &mut out,
            shape,
            x,
            y,
            policy_size(&c.policy),
            colour,
            c.admitted,
        );
        end(&mut out, "g");
    }
    if let Some((w, p, t)) = l.integer_optimum {
        let (x, y) = g.to_px(w as f64, p as f64);
        Tag::new(&mut out, "g")
            .attr("class", "marker marker-integer-optimum")
            .attr("data-w", w)
            .attr("data-p", p)
            .attr("data-t", t)
            .open();
        title(
            &mut out,
            &format!("integer optimum: w = {w}, p = {p}, T = {} s", fmt_sig(t, 4)),
        );
        marker::draw(&mut out, INTEGER.0, x, y, INTEGER.2, INTEGER.1, true);
        end(&mut out, "g");
    }
    if let Some(([w, p], t)) = l.relaxed {
        let (x, y) = g.to_px(w, p);
        Tag::new(&mut out, "g")
            .attr("class", "marker marker-relaxed")
            .attr("data-w", w)
            .attr("data-p", p)
            .attr("data-t", t)
            .open();
        title(
            &mut out,
            &format!(
                "SMD relaxed x̄: w = {}, p = {}, T = {} s",
                fmt_sig(w, 4),
                fmt_sig(p, 4),
                fmt_sig(t, 4)
            ),
        );
        marker::draw(&mut out, RELAXED.0, x, y, RELAXED.2, RELAXED.1, true);
        end(&mut out, "g");
    }

    if l.omega.is_empty() {
        let (cx, cy) = (plot.x + plot.width / 2.0, plot.y + plot.height / 2.0);
        let msg = "infeasible: Ω is empty";
        let sub = "(1, 1) does not fit the job's limit";
        let w = 250.0_f64.min(plot.width - 8.0);
        Tag::new(&mut out, "rect")
            .attr("class", "infeasible-box")
            .px("x", cx - w / 2.0)
            .px("y", cy - 24.0)
            .px("width", w)
            .px("height", 44.0)
            .attr("rx", 4)
            .attr("fill", "#ffffff")
            .attr("fill-opacity", "0.92")
            .attr("stroke", "#444444")
            .close();
        text_at(&mut out, cx, cy - 5.0, 13.0, "middle", "infeasible", msg);
        text_at(
            &mut out,
            cx,
            cy + 12.0,
            10.5,
            "middle",
            "infeasible-detail",
            sub,
        );
    }

    axes(&mut out, l, g);
    colour_bar(&mut out, &lay.bar, cscale.as_ref(), unit_label);
    column(&mut out, l, &lay, &chosen, &id("hatch"));
    end(&mut out, "svg");
    out
}

fn frame(out: &mut String, r: Rect) {
    Tag::new(out, "rect")
        .attr("class", "frame")
        .px("x", r.x)
        .px("y", r.y)
        .px("width", r.width)
        .px("height", r.height)
        .attr("fill", "none")
        .attr("stroke", "#444444")
        .close();
}

/// Integer-friendly ticks over the sampled range of an axis.
fn count_ticks(samples: &[f64], target: usize) -> (Vec<f64>, f64) {
    let (Some(&lo), Some(&hi)) = (samples.first(), samples.last()) else {
        return (Vec::new(), 1.0);
    };
    if hi <= lo {
        return (vec![lo], 1.0);
    }
    let step = crate::scale::nice_step(lo, hi, target).max(1.0);
    let mut t = crate::scale::linear_ticks(lo, hi, step);
    if t.first().is_some_and(|&f| f - lo > step * 0.5) || t.is_empty() {
        t.insert(0, lo);
    }
    if lo == 1.0 && t.first() != Some(&1.0) && t.first().is_some_and(|&f| f - 1.0 >= step * 0.5) {
        t.insert(0, 1.0);
    }
    (t, step)
}

fn axes(out: &mut String, l: &Landscape, g: &Geometry) {
    let plot = g.plot;
    Tag::new(out, "g").attr("class", "axes").open();
    let (wt, ws) = count_ticks(&l.w, ((plot.width / 60.0) as usize).max(2));
    for w in wt {
        let (x, _) = g.to_px(w, 1.0);
        tick_line(out, x, plot.bottom(), x, plot.bottom() + 5.0);
        text_at(
            out,
            x,
            plot.bottom() + 17.0,
            11.0,
            "middle",
            "tick",
            &fmt_tick(w, ws),
        );
    }
    let (pt, ps) = count_ticks(&l.p, ((plot.height / 45.0) as usize).max(2));
    for p in pt {
        let (_, y) = g.to_px(1.0, p);
        tick_line(out, plot.x - 5.0, y, plot.x, y);
        text_at(
            out,
            plot.x - 8.0,
            y + 4.0,
            11.0,
            "end",
            "tick",
            &fmt_tick(p, ps),
        );
    }
    text_at(
        out,
        plot.x + plot.width / 2.0,
        plot.bottom() + 38.0,
        12.5,
        "middle",
        "axis-label",
        "workers w",
    );
    let (x, y) = (18.0, plot.y + plot.height / 2.0);
    Tag::new(out, "text")
        .attr("class", "axis-label")
        .px("x", x)
        .px("y", y)
        .px("font-size", 12.5)
        .attr("text-anchor", "middle")
        .attr("fill", "#222222")
        .attr("transform", format!("rotate(-90 {} {})", Px(x), Px(y)))
        .text("text", "PS p");
    end(out, "g");
}

fn tick_line(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    Tag::new(out, "line")
        .px("x1", x1)
        .px("y1", y1)
        .px("x2", x2)
        .px("y2", y2)
        .attr("stroke", "#444444")
        .close();
}

fn colour_bar(out: &mut String, bar: &Rect, s: Option<&Scale>, label: &str) {
    let Some(s) = s else {
        Tag::new(out, "g").attr("class", "colour-bar").open();
        text_at(
            out,
            bar.x - 2.0,
            bar.y - 8.0,
            11.0,
            "start",
            "colour-bar-label",
            label,
        );
        Tag::new(out, "rect")
            .px("x", bar.x)
            .px("y", bar.y)
            .px("width", bar.width)
            .px("height", bar.height)
            .attr("fill", "#f0f0f0")
            .attr("stroke", "#999999")
            .close();
        Tag::new(out, "text")
            .attr("class", "colour-bar-empty")
            .px("x", bar.x + 11.0)
            .px("y", bar.y + bar.height / 2.0)
            .px("font-size", 10.0)
            .attr("text-anchor", "middle")
            .attr("fill", "#555555")
            .attr(
                "transform",
                format!(
                    "rotate(-90 {} {})",
                    Px(bar.x + 11.0),
                    Px(bar.y + bar.height / 2.0)
                ),
            )
            .text("text", "no sample in Ω");
        end(out, "g");
        return;
    };
    Tag::new(out, "g")
        .attr("class", "colour-bar")
        .attr("data-lo", s.lo)
        .attr("data-hi", s.hi)
        .attr("data-log", s.log)
        .open();
    text_at(
        out,
        bar.x - 2.0,
        bar.y - 8.0,
        11.0,
        "start",
        "colour-bar-label",
        label,
    );
    let n = 64;
    let h = bar.height / n as f64;
    Tag::new(out, "g")
        .attr("shape-rendering", "crispEdges")
        .open();
    for k in 0..n {
        let f = (k as f64 + 0.5) / n as f64;
        Tag::new(out, "rect")
            .px("x", bar.x)
            .px("y", bar.bottom() - (k + 1) as f64 * h)
            .px("width", bar.width)
            .px("height", h + 0.3)
            .attr("fill", viridis(f))
            .close();
    }
    end(out, "g");
    frame(out, *bar);
    let (ticks, step) = s.ticks(((bar.height / 40.0) as usize).max(2));
    for t in ticks {
        let y = s.to_px(t);
        tick_line(out, bar.right(), y, bar.right() + 4.0, y);
        let label = if s.log {
            fmt_sig(t, 3)
        } else {
            fmt_tick(t, step)
        };
        text_at(
            out,
            bar.right() + 6.0,
            y + 3.5,
            10.0,
            "start",
            "tick",
            &label,
        );
    }
    end(out, "g");
}

/// The legend and the search panel.
fn column(
    out: &mut String,
    l: &Landscape,
    lay: &Layout,
    chosen: &[&smd_core::landscape::Chosen],
    hatch: &str,
) {
    let x = lay.column_x;
    let mut y = lay.geometry.plot.y + 2.0;
    let line = 16.0;
    Tag::new(out, "g").attr("class", "legend").open();
    text_at(out, x, y, 11.5, "start", "legend-heading", "Legend");
    y += line;
    let entry = |out: &mut String, y: f64, key: &str, label: &str, tip: &str| {
        Tag::new(out, "g")
            .attr("class", "legend-entry")
            .attr("data-marker", key)
            .open();
        title(out, tip);
        // Shrink a long label to fit the column rather than run off the chart.
        let room = lay.geometry.width - (x + 20.0) - 4.0;
        let size = (room / crate::svg::text_width(label, 1.0)).clamp(8.0, 11.0);
        text_at(out, x + 20.0, y + 4.0, size, "start", "legend-label", label);
        end(out, "g");
    };
    if let Some(([w, p], t)) = l.relaxed {
        marker::draw(out, RELAXED.0, x + 8.0, y, RELAXED.2, RELAXED.1, true);
        entry(
            out,
            y,
            "relaxed",
            "SMD relaxed x̄",
            &format!(
                "Algorithm 1's real point ({}, {}), T = {} s",
                fmt_sig(w, 4),
                fmt_sig(p, 4),
                fmt_sig(t, 4)
            ),
        );
        y += line;
    }
    if let Some((w, p, _)) = l.integer_optimum {
        marker::draw(out, INTEGER.0, x + 8.0, y, INTEGER.2 - 1.0, INTEGER.1, true);
        entry(
            out,
            y,
            "integer-optimum",
            &format!("integer optimum ({w}, {p})"),
            "least T over Ω's integer points",
        );
        y += line;
    }
    let mut by_name = chosen.to_vec();
    by_name.sort_by_key(|c| match c.policy.as_str() {
        "smd" => 0,
        "esw" => 1,
        "optimus" => 2,
        "exact" => 3,
        _ => 4,
    });
    for c in &by_name {
        let (shape, colour) = policy_style(&c.policy);
        marker::draw(out, shape, x + 8.0, y, 6.0, colour, c.admitted);
        let label = if c.admitted {
            format!("{} ({}, {})", c.policy, fmt_sig(c.w, 4), fmt_sig(c.p, 4))
        } else {
            format!(
                "{} ({}, {}) not admitted",
                c.policy,
                fmt_sig(c.w, 4),
                fmt_sig(c.p, 4)
            )
        };
        entry(
            out,
            y,
            &class_name(&c.policy),
            &label,
            "the plan's allocation; hollow if the plan did not admit the job",
        );
        y += line;
    }
    // Ω and the hatch.
    if l.omega.len() >= 3 {
        for (stroke, w) in [("#ffffff", 4.5), ("#111111", 2.0)] {
            Tag::new(out, "line")
                .px("x1", x)
                .px("y1", y)
                .px("x2", x + 16.0)
                .px("y2", y)
                .attr("stroke", stroke)
                .px("stroke-width", w)
                .close();
        }
        entry(out, y, "omega", "boundary of Ω", "the job's resource limit");
        y += line;
    }
    Tag::new(out, "rect")
        .px("x", x + 1.0)
        .px("y", y - 6.0)
        .px("width", 14.0)
        .px("height", 12.0)
        .attr("fill", format!("url(#{hatch})"))
        .attr("stroke", "#777777")
        .close();
    entry(
        out,
        y,
        "outside",
        "outside Ω",
        "samples that do not fit the limit",
    );
    y += line;
    end(out, "g");

    // Search panel.
    y += 8.0;
    let small = 10.0;
    let sl = 13.0;
    Tag::new(out, "g").attr("class", "search").open();
    match &l.search {
        None => {
            text_at(out, x, y, 11.5, "start", "search-heading", "Algorithm 1");
            y += sl + 2.0;
            text_at(
                out,
                x,
                y,
                small,
                "start",
                "search-line",
                "no search (job infeasible)",
            );
        }
        Some(s) => {
            text_at(
                out,
                x,
                y,
                11.5,
                "start",
                "search-heading",
                &format!("Algorithm 1, ε = {}", fmt_sig(s.epsilon, 3)),
            );
            y += sl + 2.0;
            text_at(
                out,
                x,
                y,
                small,
                "start",
                "search-line",
                &format!("T = {} s + Σ ζj", fmt_sig(s.constant, 4)),
            );
            y += sl;
            let mut sizes = Vec::new();
            for (k, z) in s.summands.iter().enumerate() {
                let status = if z.dropped {
                    "dropped".to_string()
                } else if s.free == Some(k) {
                    "free (J)".to_string()
                } else if let Some(n) = z.grid_size {
                    sizes.push(n);
                    format!("λ+1 = {n}")
                } else {
                    "—".to_string()
                };
                let nu = s
                    .winning_nu
                    .get(k)
                    .copied()
                    .flatten()
                    .map(|v| format!(", winning ν = {}", fmt_sig(v, 6)))
                    .unwrap_or_default();
                Tag::new(out, "g")
                    .attr("class", "summand")
                    .attr("data-name", z.name.as_str())
                    .attr("data-lower", z.lower)
                    .attr("data-upper", z.upper)
                    .attr("data-status", &status)
                    .open();
                title(
                    out,
                    &format!(
                        "ζ = {}: l = {} s, φ = {} s, {status}{nu}",
                        z.name,
                        fmt_sig(z.lower, 6),
                        fmt_sig(z.upper, 6)
                    ),
                );
                Tag::new(out, "text")
                    .attr("class", "search-line")
                    .px("x", x)
                    .px("y", y)
                    .px("font-size", small)
                    .attr("fill", "#222222")
                    .open();
                Tag::new(out, "tspan")
                    .attr("font-weight", "bold")
                    .text("tspan", &z.name);
                Tag::new(out, "tspan").text("tspan", &format!("  {status}"));
                end(out, "text");
                y += sl;
                text_at(
                    out,
                    x + 8.0,
                    y,
                    small,
                    "start",
                    "search-line",
                    &format!("l = {}, φ = {} s", fmt_sig(z.lower, 3), fmt_sig(z.upper, 3)),
                );
                y += sl;
                end(out, "g");
            }
            let total: u64 = sizes.iter().product();
            let grid = match sizes.len() {
                0 => "grid: 1 point (J only)".to_string(),
                1 => format!("grid: {total} points"),
                _ => format!(
                    "grid: {} = {total} points",
                    sizes
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(" × ")
                ),
            };
            Tag::new(out, "text")
                .attr("class", "search-line search-total")
                .attr("data-total", total)
                .px("x", x)
                .px("y", y)
                .px("font-size", small)
                .attr("fill", "#222222")
                .text("text", &grid);
            y += sl;
            if let Some((_, t)) = l.relaxed {
                text_at(
                    out,
                    x,
                    y,
                    small,
                    "start",
                    "search-line",
                    &format!("T(x̄) = {} s", fmt_sig(t, 4)),
                );
            }
        }
    }
    end(out, "g");
}
