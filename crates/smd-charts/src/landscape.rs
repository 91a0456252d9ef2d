//! The objective landscape of one job: a heatmap of T or μ over the (w, p) samples, Ω,
//! the points the policies chose, and Algorithm 1's search as a text panel.

mod geometry;
mod search;

use crate::axes::{count_ticks, x_title, y_title, Axis, Tick};
use crate::format::{fmt_sig, plain_sig};
use crate::legend::{colour_bar, colour_bar_with, line_key, swatch, Legend};
use crate::marker::{self, Shape};
use crate::palette::viridis;
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{end, frame, group, root, text_at, titled_group, Px, Tag};
pub use geometry::Geometry;
use geometry::{layout, Layout};
use search::search_panel;
use smd_core::landscape::Chosen;
use smd_core::Landscape;
use std::fmt::Display;

/// Which value the heatmap shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Value {
    /// The completion time T (s) (`l.t`), coloured by how far it is above its minimum over
    /// Ω, `T / min T − 1`, on a logarithmic scale from the smallest excess of the samples
    /// (their 5th percentile) to the largest — so the flat valley around the optimum, most
    /// of Ω, shows its shape rather than one dark colour.
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

/// A sample's colour: its value mapped through the scale (T through its excess over the
/// minimum, `T / min T − 1`), as a fraction of the colour bar.
#[derive(Clone, Copy, Debug)]
struct Colours {
    /// The colour bar's scale (over T's excess, or μ).
    scale: Scale,
    /// T's minimum over Ω (`None`: the value itself is on the scale).
    base: Option<f64>,
}

impl Colours {
    /// The colour of value `v`, from 0 to 1.
    fn fraction(&self, v: f64) -> f64 {
        let x = match self.base {
            Some(m) => (v / m - 1.0).max(self.scale.lo),
            None => v,
        };
        self.scale.fraction(x).clamp(0.0, 1.0)
    }
}

/// The excess over the minimum below which a time's colour is the darkest: the 5th
/// percentile of the samples' positive excesses (of `excess`, sorted ascending), at least a
/// millionth of the largest.
fn excess_floor(excess: &[f64]) -> Option<(f64, f64)> {
    let positive: Vec<f64> = excess.iter().copied().filter(|&e| e > 0.0).collect();
    let hi = *positive.last()?;
    let lo = positive[(positive.len() - 1) / 20].max(hi * 1e-6);
    Some(if hi / lo < 1.0 + 1e-9 {
        (lo / 2.0, hi * 2.0)
    } else {
        (lo, hi)
    })
}

/// The colours: T by its excess over its minimum on a log scale ([`Value::Time`]), or linear
/// μ from 0; `None` if no sample in Ω has a usable value (then no cell is coloured).
fn colours(l: &Landscape, value: Value, bar: &Rect) -> Option<Colours> {
    let scale = colour_scale(l, value, bar)?;
    if value == Value::Utility {
        return Some(Colours { scale, base: None });
    }
    let base = scale.lo;
    let mut excess: Vec<f64> = (0..l.p.len())
        .flat_map(|j| (0..l.w.len()).map(move |i| (i, j)))
        .filter(|&(i, j)| inside_at(l, i, j))
        .map(|(i, j)| value_at(l, value, i, j))
        .filter(|&v| usable(value, v))
        .map(|v| v / base - 1.0)
        .collect();
    excess.sort_by(f64::total_cmp);
    // Every sample at the minimum: one colour, the darkest.
    let (lo, hi) = excess_floor(&excess).unwrap_or((1e-3, 1.0));
    Some(Colours {
        scale: Scale {
            lo,
            hi,
            px: scale.px,
            log: true,
        },
        base: Some(base),
    })
}

/// The values' scale: log of T over Ω's samples, or linear μ from 0; `None` if no sample
/// in Ω has a usable value.
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

/// Markers of SMD's relaxed point and of the integer optimum: shape, colour, size.
const RELAXED: (Shape, &str, f64) = (Shape::Circle, "#000000", 3.6);
const INTEGER: (Shape, &str, f64) = (Shape::Cross, "#000000", 6.0);

/// What an overlay mark stands for; each has its own shape, colour and class
/// (`overlay-{name}`), so that it reads without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A level line `ζ_j = (1+ε)·ν_j` of the current grid point (dashed).
    Level,
    /// A level line of the best grid point so far (dotted).
    BestLevel,
    /// The current grid point's answer (hollow circle).
    GridPoint,
    /// The best grid point's answer so far (diamond).
    Best,
    /// Algorithm 1's x̄ (black disc).
    Relaxed,
    /// Algorithm 2's scaled point x̃, or the polished point (hollow square).
    Scaled,
    /// An integer point in Ω (a draw or corner taken or tried; triangle).
    Inside,
    /// An integer point outside Ω (cross).
    Outside,
    /// The integer allocation (pentagon).
    Rounded,
}

impl Mark {
    /// Its class suffix.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Level => "level",
            Mark::BestLevel => "best-level",
            Mark::GridPoint => "grid-point",
            Mark::Best => "best",
            Mark::Relaxed => "relaxed",
            Mark::Scaled => "scaled",
            Mark::Inside => "inside",
            Mark::Outside => "outside",
            Mark::Rounded => "rounded",
        }
    }

    /// Shape, colour, size and fill of a point mark.
    fn style(self) -> (Shape, &'static str, f64, bool) {
        match self {
            Mark::GridPoint => (Shape::Circle, "#0072B2", 6.0, false),
            Mark::Best => (Shape::Diamond, "#D55E00", 7.0, true),
            Mark::Relaxed => (RELAXED.0, RELAXED.1, 4.5, true),
            Mark::Scaled => (Shape::Square, "#009E73", 6.0, false),
            Mark::Inside => (Shape::TriangleUp, "#009E73", 7.5, true),
            Mark::Outside => (Shape::Cross, "#CC79A7", 6.0, true),
            Mark::Rounded => (Shape::Pentagon, "#E69F00", 8.0, true),
            Mark::Level | Mark::BestLevel => (Shape::Circle, "#000000", 3.0, false),
        }
    }

    /// Colour and dash pattern of a line mark.
    fn stroke(self) -> (&'static str, &'static str) {
        match self {
            Mark::BestLevel => ("#D55E00", "2 3"),
            _ => ("#0072B2", "7 4"),
        }
    }
}

/// A line `a·(w, p) = b` on a landscape (the boundary of the half-plane `a·x ≤ b`).
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayLine {
    /// Coefficients of w and p.
    pub a: [f64; 2],
    /// Right-hand side.
    pub b: f64,
    /// What it is.
    pub mark: Mark,
    /// Its tooltip and legend text.
    pub label: String,
}

/// A point on a landscape.
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayPoint {
    /// Workers.
    pub w: f64,
    /// Parameter servers.
    pub p: f64,
    /// What it is.
    pub mark: Mark,
    /// Its tooltip and legend text.
    pub label: String,
}

/// Marks drawn over a landscape by [`landscape_overlay_svg`] (e.g. a step of a teaching
/// trace: `smd_charts::teach::overlay`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Lines, clipped to the plot.
    pub lines: Vec<OverlayLine>,
    /// Points, drawn in order (the last on top).
    pub points: Vec<OverlayPoint>,
}

/// The landscape of one job with `overlay` drawn over it instead of the policies' points and
/// SMD's x̄ (the overlay says what matters); Ω, the integer optimum and the search panel
/// stay. Overlay marks are `g.overlay-{mark}` (see [`Mark::name`]) with `data-w`, `data-p`
/// on points; the legend lists them.
pub fn landscape_overlay_svg(l: &Landscape, opts: &LandscapeOptions, overlay: &Overlay) -> String {
    let bare = Landscape {
        chosen: Vec::new(),
        relaxed: None,
        ..l.clone()
    };
    render(&bare, opts, Some(overlay))
}

/// The geometry [`landscape_svg`] uses for `l` with `opts`, for mapping mouse positions.
pub fn landscape_geometry(l: &Landscape, opts: &LandscapeOptions) -> Geometry {
    layout(l, opts).geometry
}

/// The landscape of one job as a standalone SVG document (see the crate docs for the
/// classes and data attributes it carries).
pub fn landscape_svg(l: &Landscape, opts: &LandscapeOptions) -> String {
    render(l, opts, None)
}

fn render(l: &Landscape, opts: &LandscapeOptions, overlay: Option<&Overlay>) -> String {
    let lay = layout(l, opts);
    let g = &lay.geometry;
    let plot = g.plot;
    let id = |s: &str| format!("{}-{s}", crate::svg::escape(&opts.id_prefix));
    let cscale = colours(l, opts.value, &lay.bar);
    let (what, unit_label) = match opts.value {
        Value::Time => ("completion time T", "T: % above min"),
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
    heatmap(&mut out, l, g, opts.value, cscale.as_ref(), &id("hatch"));
    frame(&mut out, plot);
    if l.omega.len() >= 3 {
        omega(&mut out, l, g, &id("clip"));
    }
    let mut chosen: Vec<&Chosen> = l.chosen.iter().collect();
    chosen.sort_by_key(|c| policy_rank(&c.policy));
    markers(&mut out, l, g, &chosen);
    if let Some(o) = overlay {
        overlay_marks(&mut out, g, o, &id("clip"));
    }
    if l.omega.is_empty() {
        infeasible(&mut out, plot);
    }
    axes(&mut out, l, g);
    match cscale.filter(|c| c.base.is_some()) {
        // T: the bar in % above the minimum.
        Some(c) => {
            let ticks: Vec<Tick> = c
                .scale
                .ticks(((lay.bar.height / 40.0) as usize).max(2))
                .0
                .into_iter()
                .map(|v| Tick {
                    at: c.scale.to_px(v),
                    label: format!("+{} %", plain_sig(100.0 * v, 3)),
                })
                .collect();
            colour_bar_with(&mut out, &lay.bar, Some((&c.scale, ticks)), unit_label, "")
        }
        None => colour_bar(
            &mut out,
            &lay.bar,
            cscale.as_ref().map(|c| &c.scale),
            unit_label,
            "no sample in Ω",
        ),
    }
    let y = legend(&mut out, l, &lay, &chosen, &id("hatch"), overlay);
    search_panel(&mut out, l, lay.column_x, y + 8.0);
    end(&mut out, "svg");
    out
}

/// The cells (`g.cells`): one per sample, coloured by `cscale` inside Ω, hatched outside.
fn heatmap(
    out: &mut String,
    l: &Landscape,
    g: &Geometry,
    value: Value,
    cscale: Option<&Colours>,
    hatch: &str,
) {
    Tag::new(out, "g")
        .attr("class", "cells")
        .attr("shape-rendering", "crispEdges")
        .open();
    for j in 0..l.p.len() {
        for i in 0..l.w.len() {
            let Some(r) = g.cell(i, j) else { continue };
            let v = value_at(l, value, i, j);
            let inside = inside_at(l, i, j);
            let (class, fill) = if !inside {
                ("cell outside".to_string(), format!("url(#{hatch})"))
            } else if let (Some(cs), true) = (cscale, usable(value, v)) {
                ("cell".to_string(), viridis(cs.fraction(v)))
            } else {
                ("cell novalue".to_string(), "#bdbdbd".to_string())
            };
            Tag::new(out, "rect")
                .attr("class", class)
                .attr("data-i", i)
                .attr("data-j", j)
                .attr("data-w", l.w[i])
                .attr("data-p", l.p[j])
                .attr("data-v", v)
                // A hair of overlap hides seams between cells in every renderer.
                .rect(Rect {
                    width: r.width + 0.3,
                    height: r.height + 0.3,
                    ..r
                })
                .attr("fill", fill)
                .close();
        }
    }
    end(out, "g");
}

/// Ω's outline: a white halo under a dark line (on the plot and as its legend key).
const OUTLINE: [(&str, f64); 2] = [("#ffffff", 4.5), ("#111111", 2.0)];

/// The boundary of Ω (`g.omega`), clipped to the plot by the clip path `clip`.
fn omega(out: &mut String, l: &Landscape, g: &Geometry, clip: &str) {
    let pts: Vec<String> = l
        .omega
        .iter()
        .map(|v| {
            let (x, y) = g.to_px(v[0], v[1]);
            format!("{},{}", Px(x), Px(y))
        })
        .collect();
    let pts = pts.join(" ");
    let clip = format!("url(#{clip})");
    let tip = "boundary of Ω (the job's resource limit)";
    titled_group(out, "omega", &[("clip-path", &clip)], tip, |out| {
        for (stroke, w) in OUTLINE {
            Tag::new(out, "polygon")
                .attr("points", &pts)
                .attr("fill", "none")
                .attr("stroke", stroke)
                .px("stroke-width", w)
                .attr("stroke-linejoin", "round")
                .close();
        }
    });
}

/// The markers (`g.marker`): the policies' points in `chosen` (drawn in that order), the
/// integer optimum and SMD's relaxed point.
fn markers(out: &mut String, l: &Landscape, g: &Geometry, chosen: &[&Chosen]) {
    for c in chosen {
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
        let data: [(&str, &dyn Display); 4] = [
            ("data-w", &c.w),
            ("data-p", &c.p),
            ("data-t", &c.t),
            ("data-admitted", &c.admitted),
        ];
        let tip = format!(
            "{}: w = {}, p = {}, T = {} s ({admitted})",
            c.policy,
            fmt_sig(c.w, 6),
            fmt_sig(c.p, 6),
            plain_sig(c.t, 4)
        );
        let size = policy_size(&c.policy);
        titled_group(out, &class, &data, &tip, |out| {
            marker::draw(out, shape, x, y, size, colour, c.admitted)
        });
    }
    if let Some((w, p, t)) = l.integer_optimum {
        let (x, y) = g.to_px(w as f64, p as f64);
        let data: [(&str, &dyn Display); 3] = [("data-w", &w), ("data-p", &p), ("data-t", &t)];
        let tip = format!(
            "integer optimum: w = {w}, p = {p}, T = {} s",
            plain_sig(t, 4)
        );
        titled_group(out, "marker marker-integer-optimum", &data, &tip, |out| {
            marker::draw(out, INTEGER.0, x, y, INTEGER.2, INTEGER.1, true)
        });
    }
    if let Some(([w, p], t)) = l.relaxed {
        let (x, y) = g.to_px(w, p);
        let data: [(&str, &dyn Display); 3] = [("data-w", &w), ("data-p", &p), ("data-t", &t)];
        let tip = format!(
            "SMD relaxed x̄: w = {}, p = {}, T = {} s",
            fmt_sig(w, 4),
            fmt_sig(p, 4),
            plain_sig(t, 4)
        );
        titled_group(out, "marker marker-relaxed", &data, &tip, |out| {
            marker::draw(out, RELAXED.0, x, y, RELAXED.2, RELAXED.1, true)
        });
    }
}

/// The overlay (`g.overlay`): its lines clipped to the plot (by the clip path `clip`), then
/// its points.
fn overlay_marks(out: &mut String, g: &Geometry, o: &Overlay, clip: &str) {
    let clip = format!("url(#{clip})");
    Tag::new(out, "g")
        .attr("class", "overlay")
        .attr("clip-path", &clip)
        .open();
    for (m, (x1, y1, x2, y2), label) in drawn_lines(g, o) {
        let (colour, dash) = m.mark.stroke();
        let class = format!("overlay-{}", m.mark.name());
        titled_group(out, &class, &[], &label, |out| {
            Tag::new(out, "line")
                .ends(x1, y1, x2, y2)
                .attr("stroke", "#ffffff")
                .px("stroke-width", 4.0)
                .close();
            Tag::new(out, "line")
                .ends(x1, y1, x2, y2)
                .attr("stroke", colour)
                .px("stroke-width", 2.0)
                .attr("stroke-dasharray", dash)
                .close();
        });
    }
    for m in &o.points {
        let (x, y) = g.to_px(m.w, m.p);
        let (shape, colour, size, filled) = m.mark.style();
        let class = format!("overlay-{}", m.mark.name());
        let data: [(&str, &dyn Display); 2] = [("data-w", &m.w), ("data-p", &m.p)];
        titled_group(out, &class, &data, &m.label, |out| {
            marker::draw(out, shape, x, y, size, colour, filled)
        });
    }
    end(out, "g");
}

/// A line as drawn: what it is, its ends in pixels `(x1, y1, x2, y2)`, its tooltip.
type DrawnLine<'a> = (&'a OverlayLine, (f64, f64, f64, f64), String);

/// Pixels within which two lines of one kind count as one: drawn apart, they would
/// overlap.
const SAME_LINE_PX: f64 = 6.0;

/// The overlay's lines as drawn: each clipped to the plot, in pixels `(x1, y1, x2, y2)`, with
/// its tooltip; a line of the same kind as one before it whose ends lie within
/// [`SAME_LINE_PX`] of that one's (two level lines nearly alike at this zoom, e.g. both
/// steep through the same point) is not drawn again — its label joins the first's.
fn drawn_lines<'a>(g: &Geometry, o: &'a Overlay) -> Vec<DrawnLine<'a>> {
    let (ws, ps) = (g.w_range(), g.p_range());
    let mut drawn: Vec<DrawnLine> = Vec::new();
    for m in &o.lines {
        let Some(((a, b), (c, d))) = clip_line(m.a, m.b, ws, ps) else {
            continue;
        };
        let (x1, y1) = g.to_px(a, b);
        let (x2, y2) = g.to_px(c, d);
        let near = |u: (f64, f64), v: (f64, f64)| (u.0 - v.0).hypot(u.1 - v.1) <= SAME_LINE_PX;
        let same = |s: &(f64, f64, f64, f64)| {
            let (p, q) = ((s.0, s.1), (s.2, s.3));
            (near(p, (x1, y1)) && near(q, (x2, y2))) || (near(p, (x2, y2)) && near(q, (x1, y1)))
        };
        match drawn
            .iter_mut()
            .find(|(d, s, _)| d.mark == m.mark && same(s))
        {
            Some((_, _, label)) => {
                label.push_str(" and ");
                label.push_str(&m.label);
            }
            None => drawn.push((m, (x1, y1, x2, y2), m.label.clone())),
        }
    }
    drawn
}

/// The segment of the line `a·(w, p) = b` inside the box `ws × ps`, if it crosses it.
#[allow(clippy::type_complexity)]
fn clip_line(
    a: [f64; 2],
    b: f64,
    ws: (f64, f64),
    ps: (f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let mut hits: Vec<(f64, f64)> = Vec::with_capacity(4);
    let tol = 1e-9 * (ws.1 - ws.0).abs().max((ps.1 - ps.0).abs()).max(1.0);
    let inside = |w: f64, p: f64| {
        w.is_finite()
            && p.is_finite()
            && w >= ws.0 - tol
            && w <= ws.1 + tol
            && p >= ps.0 - tol
            && p <= ps.1 + tol
    };
    if a[1] != 0.0 {
        for w in [ws.0, ws.1] {
            let p = (b - a[0] * w) / a[1];
            if inside(w, p) {
                hits.push((w, p));
            }
        }
    }
    if a[0] != 0.0 {
        for p in [ps.0, ps.1] {
            let w = (b - a[1] * p) / a[0];
            if inside(w, p) {
                hits.push((w, p));
            }
        }
    }
    // The two hits farthest apart (corners can be hit twice).
    let mut best: Option<((f64, f64), (f64, f64), f64)> = None;
    for (i, &u) in hits.iter().enumerate() {
        for &v in &hits[i + 1..] {
            let d = (u.0 - v.0).powi(2) + (u.1 - v.1).powi(2);
            if best.is_none_or(|b| d > b.2) {
                best = Some((u, v, d));
            }
        }
    }
    best.filter(|b| b.2 > 0.0).map(|(u, v, _)| (u, v))
}

/// A box in the middle of the plot saying that Ω is empty.
fn infeasible(out: &mut String, plot: Rect) {
    let (cx, cy) = (plot.x + plot.width / 2.0, plot.y + plot.height / 2.0);
    let w = 250.0_f64.min(plot.width - 8.0);
    Tag::new(out, "rect")
        .attr("class", "infeasible-box")
        .rect(Rect {
            x: cx - w / 2.0,
            y: cy - 24.0,
            width: w,
            height: 44.0,
        })
        .attr("rx", 4)
        .attr("fill", "#ffffff")
        .attr("fill-opacity", "0.92")
        .attr("stroke", "#444444")
        .close();
    let msg = "infeasible: Ω is empty";
    text_at(out, cx, cy - 5.0, 13.0, "middle", "infeasible", msg);
    let sub = "(1, 1) does not fit the job's limit";
    text_at(out, cx, cy + 12.0, 10.5, "middle", "infeasible-detail", sub);
}

/// The w and p axes: integer-friendly ticks over the samples, and the axis titles.
fn axes(out: &mut String, l: &Landscape, g: &Geometry) {
    let plot = g.plot;
    group(out, "axes");
    let target = ((plot.width / 60.0) as usize).max(2);
    let w_ticks = count_ticks(&l.w, target, |w| g.to_px(w, 1.0).0);
    Axis::bottom(plot.bottom()).draw(out, &w_ticks);
    let target = ((plot.height / 45.0) as usize).max(2);
    let p_ticks = count_ticks(&l.p, target, |p| g.to_px(1.0, p).1);
    Axis::left(plot.x).draw(out, &p_ticks);
    let (mid_x, mid_y) = (plot.x + plot.width / 2.0, plot.y + plot.height / 2.0);
    x_title(out, mid_x, plot.bottom() + 38.0, "workers w");
    y_title(out, 18.0, mid_y, "PS p");
    end(out, "g");
}

/// The legend (`g.legend`) at the top of the right column: the relaxed point, the integer
/// optimum, the policies' points in a fixed order, Ω and the hatch. Returns the y below it.
fn legend(
    out: &mut String,
    l: &Landscape,
    lay: &Layout,
    chosen: &[&Chosen],
    hatch: &str,
    overlay: Option<&Overlay>,
) -> f64 {
    let x = lay.column_x;
    let y = lay.geometry.plot.y + 2.0;
    group(out, "legend");
    text_at(out, x, y, 11.5, "start", "legend-heading", "Legend");
    let mut legend = Legend::column(x, y + 16.0, 16.0).fit(lay.geometry.width);
    // The overlay's marks first: they are what the chart is about. One entry per kind.
    let mut seen: Vec<Mark> = Vec::new();
    for (mark, label) in overlay.iter().flat_map(|o| {
        let lines = o.lines.iter().map(|m| (m.mark, &m.label));
        lines.chain(o.points.iter().map(|m| (m.mark, &m.label)))
    }) {
        if seen.contains(&mark) {
            continue;
        }
        seen.push(mark);
        let (kx, ky) = legend.key();
        match mark {
            Mark::Level | Mark::BestLevel => {
                let (colour, dash) = mark.stroke();
                line_key(out, (kx, ky), 16.0, colour, 2.0, Some(dash));
            }
            _ => {
                let (shape, colour, size, filled) = mark.style();
                marker::draw(out, shape, kx + 8.0, ky, size.min(6.0), colour, filled);
            }
        }
        let text = match mark {
            Mark::Level => "level lines ζ_j = (1+ε)·ν_j",
            Mark::BestLevel => "the best point's level lines",
            _ => label.as_str(),
        };
        legend.entry(out, &format!("overlay-{}", mark.name()), text, label);
    }
    if let Some(([w, p], t)) = l.relaxed {
        let (x, y) = legend.key();
        marker::draw(out, RELAXED.0, x + 8.0, y, RELAXED.2, RELAXED.1, true);
        let tip = format!(
            "Algorithm 1's real point ({}, {}), T = {} s",
            fmt_sig(w, 4),
            fmt_sig(p, 4),
            plain_sig(t, 4)
        );
        legend.entry(out, "relaxed", "SMD relaxed x̄", &tip);
    }
    if let Some((w, p, _)) = l.integer_optimum {
        let (x, y) = legend.key();
        marker::draw(out, INTEGER.0, x + 8.0, y, INTEGER.2 - 1.0, INTEGER.1, true);
        let label = format!("integer optimum ({w}, {p})");
        legend.entry(
            out,
            "integer-optimum",
            &label,
            "least T over Ω's integer points",
        );
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
        let (x, y) = legend.key();
        marker::draw(out, shape, x + 8.0, y, 6.0, colour, c.admitted);
        let point = format!("{} ({}, {})", c.policy, fmt_sig(c.w, 4), fmt_sig(c.p, 4));
        let label = if c.admitted {
            point
        } else {
            format!("{point} not admitted")
        };
        legend.entry(
            out,
            &class_name(&c.policy),
            &label,
            "the plan's allocation; hollow if the plan did not admit the job",
        );
    }
    if l.omega.len() >= 3 {
        for (stroke, w) in OUTLINE {
            line_key(out, legend.key(), 16.0, stroke, w, None);
        }
        legend.entry(out, "omega", "boundary of Ω", "the job's resource limit");
    }
    let (x, y) = legend.key();
    let key = Rect {
        x: x + 1.0,
        y: y - 6.0,
        width: 14.0,
        height: 12.0,
    };
    swatch(out, key, &format!("url(#{hatch})"))
        .attr("stroke", "#777777")
        .close();
    legend.entry(
        out,
        "outside",
        "outside Ω",
        "samples that do not fit the limit",
    );
    end(out, "g");
    legend.key().1
}
