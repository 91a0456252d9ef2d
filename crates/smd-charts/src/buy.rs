//! Charts of "what to buy" (`smd_sweep::MixReport`, docs/MODEL.md §25): the map of a grid
//! of mixes of one or two machine types — a cell per mix coloured by the metric, the mixes
//! that qualify (meet the goal, within the budget) parted from the others by a drawn
//! boundary, the answer marked, the mixes the search skipped hatched — and the cost–metric
//! frontier: every evaluated mix at its price per hour and value, the frontier joined, the
//! answer marked.

use crate::axes::{framed_axes, scale_ticks, x_title, y_title, Tick};
use crate::legend::{colour_bar_with, line_key, swatch};
use crate::marker::{self, Shape};
use crate::palette::{viridis, CATEGORICAL};
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{end, frame, root, text_at, text_width, titled_group, Px, Tag};
use crate::sweep::{log_axis, SweepMetric};
use smd_format::usd;
use smd_sweep::{mix_words, Metric, MixPoint, MixReport, MixSpec, Question};
use std::fmt::{Display, Write as _};

/// Size of a chart of mixes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuyOptions {
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
}

impl Default for BuyOptions {
    fn default() -> Self {
        BuyOptions {
            width: 760.0,
            height: 420.0,
        }
    }
}

/// The answer's colour (vermillion) and the frontier's (blue).
const BEST: &str = CATEGORICAL[1];
const FRONTIER: &str = CATEGORICAL[0];
/// A mix evaluated without a value: light grey.
const NO_VALUE: &str = "#d4d4d4";

/// Whether `p` is a candidate answer of `q` (`Question::qualifies`, read back from the
/// report).
pub fn qualifies(q: &Question, p: &MixPoint) -> bool {
    q.qualifies(p)
}

/// What qualifying means for `q`, in words (`mean JCT ≤ 30 min, within $60.00/h`);
/// `None` without a goal or a budget.
fn condition(q: &Question) -> Option<String> {
    let parts: Vec<String> = q.goal_words().into_iter().chain(q.budget_words()).collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A metric on an axis: the divisor from its base unit and the unit's name (times in
/// hours, as the sweep charts draw them).
fn axis_unit(m: Metric) -> (f64, &'static str) {
    match m {
        Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue => (3600.0, " (h)"),
        Metric::Cost | Metric::CostPerJob => (1.0, " (USD)"),
        Metric::Finished => (1.0, " (jobs)"),
        Metric::GpuHours | Metric::Utility => (1.0, ""),
    }
}

/// A scale for the values `values` (in the axis unit) from `px.0` (low) to `px.1`:
/// logarithmic where the sweep charts would be ([`log_axis`]), else linear from 0.
fn value_scale(metric: Metric, values: &[f64], px: (f64, f64)) -> Option<Scale> {
    let most = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !most.is_finite() {
        return None;
    }
    let least = values
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let log = log_axis(SweepMetric::of(metric), least, most);
    Some(if log {
        Scale {
            lo: least / 1.15,
            hi: most * 1.15,
            px,
            log: true,
        }
    } else {
        let lo = values.iter().copied().fold(0.0, f64::min);
        Scale {
            lo,
            hi: if most > lo { most * 1.06 } else { lo + 1.0 },
            px,
            log: false,
        }
    })
}

/// The hatch of a mix not evaluated (in `<defs>`, under an id of its own).
fn hatch_defs(out: &mut String, id: &str) {
    let _ = write!(
        out,
        "<defs><pattern id=\"{id}\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" \
         patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#a8a8a8\" stroke-width=\"2\"/></pattern></defs>"
    );
}

/// A mix as `TYPE=N,…` for `data-mix`.
fn mix_attr(mix: &[(String, u32)]) -> String {
    mix.iter()
        .map(|(t, c)| format!("{t}={c}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A mix's price and value in a tooltip.
fn described(p: &MixPoint, metric: Metric) -> String {
    let price = p
        .usd_per_hour
        .map_or("no price".to_owned(), |u| format!("{}/h", usd(u)));
    let value = match (p.value, &p.note) {
        (Some(v), _) => format!("{} {}", metric.words(), metric.show(v)),
        (None, Some(n)) => format!("no {}: {n}", metric.words()),
        (None, None) => format!("no {}", metric.words()),
    };
    format!("{}: {price}, {value}", mix_words(&p.mix))
}

/// The map of a grid of mixes of one or two types as a standalone SVG document: x the
/// first type's counts, y the second's (one row for one type), a cell per mix coloured by
/// the metric (viridis, its scale in the colour bar; logarithmic where the values span more
/// than ten times), its value written in it where it fits.
///
/// Stable hooks: the root `data-testid="mix-map"` with `data-cells` (the grid's mixes),
/// `data-types`; each mix a `g.mix-cell` with `data-index`, `data-mix` (`t4x4=2,a100x8=1`),
/// `data-state` (`evaluated`, `no-value` or `skipped`), `data-value` and
/// `data-usd-per-hour` (empty when absent), `data-qualifies`; the boundary between the
/// mixes that qualify and those that do not a `g.qualify-boundary` of `line`s with
/// `data-segments`; the answer a `g.best` with `data-index`. A grid of three or more types
/// has no map: the root then says so (`data-cells` 0).
pub fn mix_map_svg(report: &MixReport, spec: &MixSpec, opts: &BuyOptions) -> String {
    let (width, height) = (opts.width.max(360.0), opts.height.max(220.0));
    let q = &report.question;
    let metric = q.metric;
    let axes = &spec.axes;
    let title = match axes.len() {
        1 => format!(
            "{} under {} on each count of {}",
            capitalised(metric.words()),
            q.policy.name(),
            axes[0].machine_type
        ),
        _ => format!(
            "{} under {} on each mix",
            capitalised(metric.words()),
            q.policy.name()
        ),
    };
    let mut out = String::with_capacity(32 * 1024);
    let drawn = (1..=2).contains(&axes.len());
    let attrs = [
        ("data-testid", "mix-map".to_owned()),
        (
            "data-cells",
            if drawn {
                report.grid.to_string()
            } else {
                "0".into()
            },
        ),
        ("data-types", axes.len().to_string()),
    ];
    root(&mut out, width, height, "smd-mix-map", &title, &attrs);
    text_at(&mut out, 70.0, 22.0, 14.0, "start", "title", &title);
    if !drawn {
        text_at(
            &mut out,
            width / 2.0,
            height / 2.0,
            13.0,
            "middle",
            "no-data",
            &format!(
                "The map shows grids of one or two types; this one has {}.",
                axes.len()
            ),
        );
        end(&mut out, "svg");
        return out;
    }
    let hatch = "mix-map-hatch";
    hatch_defs(&mut out, hatch);
    let xs_counts = &axes[0].counts;
    let ys_counts: Vec<u32> = axes.get(1).map_or(vec![0], |a| a.counts.clone());
    let (nx, ny) = (xs_counts.len().max(1), ys_counts.len().max(1));
    // Room: the colour bar and the legend on the right.
    let right_room = 190.0;
    let plot_w = (width - 70.0 - right_room).max(120.0);
    let plot_h = (height - 40.0 - 52.0).max(60.0);
    let cell_w = plot_w / nx as f64;
    let cell_h = if axes.len() == 1 {
        (plot_h / 2.0).min(60.0)
    } else {
        plot_h / ny as f64
    };
    let plot = Rect {
        x: 70.0,
        y: 40.0,
        width: cell_w * nx as f64,
        height: cell_h * ny as f64,
    };
    let grid = spec.grid();
    let point = |i: usize| report.points.iter().find(|p| p.index == i);
    let (div, unit) = axis_unit(metric);
    let values: Vec<f64> = report
        .points
        .iter()
        .filter_map(|p| p.value)
        .map(|v| v / div)
        .collect();
    let colours = value_scale(metric, &values, (0.0, 1.0));
    // Cell (column, row) of grid index i; row 0 at the bottom.
    let at = |i: usize| -> (usize, usize) {
        let c = &grid[i];
        let col = xs_counts.iter().position(|&x| x == c[0]).unwrap_or(0);
        let row = c
            .get(1)
            .and_then(|y| ys_counts.iter().position(|v| v == y))
            .unwrap_or(0);
        (col, row)
    };
    let cell_rect = |(col, row): (usize, usize)| Rect {
        x: plot.x + col as f64 * cell_w,
        y: plot.bottom() - (row + 1) as f64 * cell_h,
        width: cell_w,
        height: cell_h,
    };
    let has_condition = q.goal.is_some() || q.budget.is_some();
    // Qualifies: Some(true/false) for an evaluated mix, None for one not evaluated.
    let mut state: Vec<Vec<Option<bool>>> = vec![vec![None; ny]; nx];
    Tag::new(&mut out, "g")
        .attr("class", "mix-cells")
        .attr("shape-rendering", "crispEdges")
        .open();
    let fits = |text: &str, size: f64| text_width(text, size) + 6.0 <= cell_w && cell_h >= 18.0;
    for (i, counts) in grid.iter().enumerate() {
        let (col, row) = at(i);
        let r = cell_rect((col, row));
        let mix = spec.named(counts);
        let p = point(i);
        let (kind, fill, label, tip) = match p {
            Some(p) => {
                state[col][row] = Some(qualifies(q, p));
                match (p.value, colours.as_ref()) {
                    (Some(v), Some(s)) => {
                        let t = s.fraction(v / div);
                        (
                            "evaluated",
                            viridis(t),
                            Some((metric.show(v), if t < 0.6 { "#ffffff" } else { "#111111" })),
                            described(p, metric),
                        )
                    }
                    _ => (
                        "no-value",
                        NO_VALUE.to_owned(),
                        Some(("—".to_owned(), "#333333")),
                        described(p, metric),
                    ),
                }
            }
            None => (
                "skipped",
                format!("url(#{hatch})"),
                None,
                format!(
                    "{}: not evaluated{}",
                    mix_words(&mix),
                    report
                        .rule
                        .as_ref()
                        .map(|r| format!(" — {r}"))
                        .unwrap_or_default()
                ),
            ),
        };
        let value = p.and_then(|p| p.value);
        let price = p.and_then(|p| p.usd_per_hour);
        let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
        let qual = p.is_some_and(|p| qualifies(q, p));
        let data: [(&str, &dyn Display); 6] = [
            ("data-index", &i),
            ("data-mix", &mix_attr(&mix)),
            ("data-state", &kind),
            ("data-value", &opt(value)),
            ("data-usd-per-hour", &opt(price)),
            ("data-qualifies", &qual),
        ];
        titled_group(&mut out, "mix-cell", &data, &tip, |out| {
            Tag::new(out, "rect")
                .attr("class", "cell")
                .rect(r)
                .attr("fill", &fill)
                .attr("stroke", "#ffffff")
                .px("stroke-width", 1.0)
                .close();
            let (x, y) = (r.x + r.width / 2.0, r.y + r.height / 2.0 + 4.0);
            match &label {
                Some((text, ink)) if fits(text, 10.5) => text_tag_fill(out, x, y, 10.5, ink, text),
                None if fits("not run", 10.0) => {
                    text_tag_fill(out, x, y, 10.0, "#444444", "not run")
                }
                _ => {}
            }
        });
    }
    end(&mut out, "g");
    frame(&mut out, plot);
    // The answer: a thick outline and a star.
    if let Some(b) = &report.best {
        if b.index < grid.len() {
            let r = cell_rect(at(b.index));
            let tip = format!("The answer: {}", described(b, metric));
            titled_group(&mut out, "best", &[("data-index", &b.index)], &tip, |out| {
                for (colour, w) in [("#ffffff", 5.0), (BEST, 3.0)] {
                    Tag::new(out, "rect")
                        .rect(Rect {
                            x: r.x + 4.5,
                            y: r.y + 4.5,
                            width: r.width - 9.0,
                            height: r.height - 9.0,
                        })
                        .attr("fill", "none")
                        .attr("stroke", colour)
                        .px("stroke-width", w)
                        .close();
                }
                let s = (r.height / 6.0).clamp(4.0, 7.0);
                marker::draw(
                    out,
                    Shape::Pentagon,
                    r.x + s + 8.0,
                    r.y + s + 8.0,
                    s,
                    BEST,
                    true,
                );
            });
        }
    }
    // Over the answer's outline: the boundary between neighbours of which one qualifies and the other not (both
    // evaluated): the edge they share.
    if has_condition {
        let mut segments = Vec::new();
        for col in 0..nx {
            for row in 0..ny {
                let Some(a) = state[col][row] else { continue };
                if col + 1 < nx {
                    if let Some(b) = state[col + 1][row] {
                        if a != b {
                            let r = cell_rect((col, row));
                            segments.push((r.right(), r.y, r.right(), r.bottom()));
                        }
                    }
                }
                if row + 1 < ny {
                    if let Some(b) = state[col][row + 1] {
                        if a != b {
                            let r = cell_rect((col, row));
                            segments.push((r.x, r.y, r.right(), r.y));
                        }
                    }
                }
            }
        }
        let tip = format!(
            "Boundary: the mixes on one side qualify ({}), on the other not",
            condition(q).unwrap_or_default()
        );
        let n = segments.len();
        titled_group(
            &mut out,
            "qualify-boundary",
            &[("data-segments", &n)],
            &tip,
            |out| {
                for (colour, w) in [("#ffffff", 6.0), ("#111111", 3.0)] {
                    for &(x1, y1, x2, y2) in &segments {
                        Tag::new(out, "line")
                            .ends(x1, y1, x2, y2)
                            .attr("stroke", colour)
                            .px("stroke-width", w)
                            .attr("stroke-linecap", "square")
                            .close();
                    }
                }
            },
        );
    }
    // Axes: the counts under the columns and beside the rows.
    let x_ticks: Vec<Tick> = xs_counts
        .iter()
        .enumerate()
        .map(|(k, c)| Tick {
            at: plot.x + (k as f64 + 0.5) * cell_w,
            label: c.to_string(),
        })
        .collect();
    let every = (nx as f64 / (plot.width / 34.0)).ceil().max(1.0) as usize;
    Tag::new(&mut out, "g").attr("class", "axes").open();
    for (_, t) in x_ticks.iter().enumerate().filter(|(k, _)| k % every == 0) {
        text_at(
            &mut out,
            t.at,
            plot.bottom() + 16.0,
            11.0,
            "middle",
            "tick",
            &t.label,
        );
    }
    x_title(
        &mut out,
        plot.x + plot.width / 2.0,
        plot.bottom() + 36.0,
        &format!("{} machines", axes[0].machine_type),
    );
    if let Some(a) = axes.get(1) {
        let every = (ny as f64 / (plot.height / 16.0)).ceil().max(1.0) as usize;
        for (k, c) in ys_counts.iter().enumerate().filter(|(k, _)| k % every == 0) {
            let y = plot.bottom() - (k as f64 + 0.5) * cell_h + 4.0;
            text_at(
                &mut out,
                plot.x - 7.0,
                y,
                11.0,
                "end",
                "tick",
                &c.to_string(),
            );
        }
        y_title(
            &mut out,
            22.0,
            plot.y + plot.height / 2.0,
            &format!("{} machines", a.machine_type),
        );
    }
    end(&mut out, "g");
    // The colour bar and the legend.
    let bar_x = plot.right() + 24.0;
    let bar = Rect {
        x: bar_x,
        y: plot.y + 16.0,
        width: 14.0,
        height: (plot.height - 16.0).clamp(60.0, 180.0),
    };
    let bar_label = format!("{}{unit}", metric.words());
    match &colours {
        Some(s) => {
            let px_scale = Scale {
                px: (bar.bottom(), bar.y),
                ..*s
            };
            let ticks = scale_ticks(&px_scale, ((bar.height / 36.0) as usize).max(2));
            colour_bar_with(&mut out, &bar, Some((&px_scale, ticks)), &bar_label, "")
        }
        None => crate::legend::colour_bar(&mut out, &bar, None, &bar_label, "no value"),
    }
    let mut y = bar.bottom() + 26.0;
    let lx = bar_x - 4.0;
    let entry = |out: &mut String, y: f64, text: &str| {
        text_at(out, lx + 24.0, y + 4.0, 11.0, "start", "legend-label", text);
    };
    Tag::new(&mut out, "g").attr("class", "legend").open();
    if report.best.is_some() {
        marker::draw(&mut out, Shape::Pentagon, lx + 9.0, y, 5.0, BEST, true);
        entry(&mut out, y, "the answer");
        y += 18.0;
    }
    if let Some(c) = condition(q) {
        line_key(&mut out, (lx, y), 18.0, "#111111", 2.5, None);
        entry(&mut out, y, "boundary: qualifies");
        y += 14.0;
        text_at(
            &mut out,
            lx + 24.0,
            y + 4.0,
            10.0,
            "start",
            "legend-label",
            &format!("({})", fit(&c, 30)),
        );
        y += 18.0;
    }
    if report.skipped > 0 {
        swatch(
            &mut out,
            Rect {
                x: lx,
                y: y - 6.0,
                width: 18.0,
                height: 12.0,
            },
            &format!("url(#{hatch})"),
        )
        .attr("stroke", "#999999")
        .close();
        entry(&mut out, y, &format!("not evaluated ({})", report.skipped));
        y += 18.0;
    }
    if report.points.iter().any(|p| p.value.is_none()) {
        swatch(
            &mut out,
            Rect {
                x: lx,
                y: y - 6.0,
                width: 18.0,
                height: 12.0,
            },
            NO_VALUE,
        )
        .attr("stroke", "#999999")
        .close();
        entry(&mut out, y, &format!("no {}", metric.words()));
    }
    end(&mut out, "g");
    end(&mut out, "svg");
    out
}

/// `text`, cut to `n` characters with an ellipsis.
fn fit(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(n - 1).collect::<String>())
    }
}

/// `Mean JCT` for `mean JCT`.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A centred label in a cell, in `fill`.
fn text_tag_fill(out: &mut String, x: f64, y: f64, size: f64, fill: &str, text: &str) {
    crate::svg::text_tag(out, "cell-label", x, y, size)
        .attr("text-anchor", "middle")
        .attr("fill", fill)
        .attr("pointer-events", "none")
        .text("text", text);
}

/// An 11 px label at `at` with a white halo, legible over lines and dots.
fn haloed(out: &mut String, at: (f64, f64), anchor: &str, class: &str, text: &str) {
    crate::svg::text_tag(out, class, at.0, at.1, 11.0)
        .attr("text-anchor", anchor)
        .attr("fill", "#222222")
        .attr("stroke", "#ffffff")
        .px("stroke-width", 3.0)
        .attr("stroke-linejoin", "round")
        .attr("paint-order", "stroke")
        .text("text", text);
}

/// The cost–metric frontier as a standalone SVG document: x the mix's price per hour, y
/// the metric (logarithmic where its values span more than ten times), every evaluated mix
/// with both a dot, the frontier (`report.frontier`, cheapest first) joined, the answer
/// marked, the goal and the budget as lines.
///
/// Stable hooks: the root `data-testid="mix-frontier"` with `data-points` (the dots) and
/// `data-log`; each dot a `g.mix-point` with `data-index`, `data-usd-per-hour`,
/// `data-value`, `data-frontier`; the frontier a `polyline.frontier` with `data-points`;
/// the answer a `g.best` with `data-index`; `line.goal` and `line.budget`. Without prices
/// (a type unpriced) the chart says so.
pub fn mix_frontier_svg(report: &MixReport, opts: &BuyOptions) -> String {
    let (width, height) = (opts.width.max(360.0), opts.height.max(220.0));
    let q = &report.question;
    let metric = q.metric;
    let (div, unit) = axis_unit(metric);
    let dots: Vec<(&MixPoint, f64, f64)> = report
        .points
        .iter()
        .filter_map(|p| Some((p, p.usd_per_hour?, p.value? / div)))
        .collect();
    let title = format!(
        "{} against the price of each mix, under {}",
        capitalised(metric.words()),
        q.policy.name()
    );
    let plot = Rect {
        x: 70.0,
        y: 40.0,
        width: width - 70.0 - 24.0,
        height: height - 40.0 - 78.0,
    };
    let values: Vec<f64> = dots
        .iter()
        .map(|d| d.2)
        .chain(q.goal.map(|g| g / div))
        .collect();
    let ys = value_scale(metric, &values, (plot.bottom(), plot.y));
    let log = ys.is_some_and(|s| s.log);
    let attrs = [
        ("data-testid", "mix-frontier".to_owned()),
        ("data-points", dots.len().to_string()),
        ("data-log", log.to_string()),
    ];
    let mut out = String::with_capacity(16 * 1024);
    root(&mut out, width, height, "smd-mix-frontier", &title, &attrs);
    text_at(&mut out, plot.x, 22.0, 14.0, "start", "title", &title);
    let top_price = dots.iter().map(|d| d.1).chain(q.budget).fold(0.0, f64::max);
    let xs = Scale {
        lo: 0.0,
        hi: if top_price > 0.0 {
            top_price * 1.05
        } else {
            1.0
        },
        px: (plot.x, plot.right()),
        log: false,
    };
    let ys = ys.unwrap_or(Scale {
        lo: 0.0,
        hi: 1.0,
        px: (plot.bottom(), plot.y),
        log: false,
    });
    let y_label = format!(
        "{}{unit}{}",
        metric.words(),
        if log { ", log scale" } else { "" }
    );
    framed_axes(
        &mut out,
        plot,
        height - 28.0,
        (
            &scale_ticks(&ys, (plot.height / 40.0) as usize),
            &scale_ticks(&xs, (plot.width / 80.0) as usize),
        ),
        ("price of the mix, US dollars per hour", &y_label),
    );
    if dots.is_empty() {
        let why = if report.unpriced.is_empty() {
            format!("no mix has both a price and a {}", metric.words())
        } else {
            format!(
                "no prices: {} {} none",
                report.unpriced.join(" and "),
                if report.unpriced.len() == 1 {
                    "has"
                } else {
                    "have"
                }
            )
        };
        text_at(
            &mut out,
            plot.x + plot.width / 2.0,
            plot.y + plot.height / 2.0,
            13.0,
            "middle",
            "no-data",
            &why,
        );
    }
    // The goal and the budget.
    if let Some(g) = q.goal {
        let y = ys.to_px(g / div);
        if y >= plot.y - 0.5 && y <= plot.bottom() + 0.5 {
            Tag::new(&mut out, "line")
                .attr("class", "goal")
                .ends(plot.x, y, plot.right(), y)
                .attr("stroke", "#222222")
                .attr("stroke-dasharray", "6 3")
                .px("stroke-width", 1.3)
                .titled(
                    "line",
                    &format!("goal: {}", condition(q).unwrap_or_default()),
                );
            haloed(
                &mut out,
                (plot.x + 6.0, y - 5.0),
                "start",
                "goal-label",
                &format!("goal: {}", condition(q).unwrap_or_default()),
            );
        }
    }
    if let Some(b) = q.budget {
        let x = xs.to_px(b);
        Tag::new(&mut out, "line")
            .attr("class", "budget")
            .ends(x, plot.y, x, plot.bottom())
            .attr("stroke", "#222222")
            .attr("stroke-dasharray", "2 3")
            .px("stroke-width", 1.3)
            .titled("line", &format!("budget: {}/h", usd(b)));
        text_at(
            &mut out,
            x - 4.0,
            plot.y + 14.0,
            11.0,
            "end",
            "budget-label",
            &format!("budget {}/h", usd(b)),
        );
    }
    // The frontier, joined.
    let on_frontier = |i: usize| report.frontier.iter().any(|f| f.index == i);
    let pts: Vec<(f64, f64)> = report
        .frontier
        .iter()
        .filter_map(|p| Some((xs.to_px(p.usd_per_hour?), ys.to_px(p.value? / div))))
        .collect();
    let mut list = String::new();
    for (k, (x, y)) in pts.iter().enumerate() {
        if k > 0 {
            list.push(' ');
        }
        let _ = write!(list, "{},{}", Px(*x), Px(*y));
    }
    if !pts.is_empty() {
        Tag::new(&mut out, "polyline")
            .attr("class", "frontier")
            .attr("data-points", pts.len())
            .attr("points", &list)
            .attr("fill", "none")
            .attr("stroke", FRONTIER)
            .px("stroke-width", 2.0)
            .attr("stroke-linejoin", "round")
            .titled(
                "polyline",
                "The frontier: no other mix is both cheaper and better",
            );
    }
    // Every evaluated mix: the others first, the frontier's over them.
    let mut order: Vec<&(&MixPoint, f64, f64)> = dots.iter().collect();
    order.sort_by_key(|d| on_frontier(d.0.index));
    for (p, u, v) in order {
        let front = on_frontier(p.index);
        let (x, y) = (xs.to_px(*u), ys.to_px(*v));
        let data: [(&str, &dyn Display); 4] = [
            ("data-index", &p.index),
            ("data-usd-per-hour", u),
            ("data-value", &p.value.unwrap_or(f64::NAN)),
            ("data-frontier", &front),
        ];
        let tip = format!(
            "{}{}",
            described(p, metric),
            if front { " — on the frontier" } else { "" }
        );
        titled_group(&mut out, "mix-point", &data, &tip, |out| {
            if front {
                marker::draw(out, Shape::Circle, x, y, 4.5, FRONTIER, true);
            } else {
                marker::draw(out, Shape::Circle, x, y, 3.2, "#9a9a9a", true);
            }
        });
    }
    if let Some(b) = &report.best {
        if let (Some(u), Some(v)) = (b.usd_per_hour, b.value) {
            let (x, y) = (xs.to_px(u), ys.to_px(v / div));
            let tip = format!("The answer: {}", described(b, metric));
            titled_group(&mut out, "best", &[("data-index", &b.index)], &tip, |out| {
                marker::draw(out, Shape::Pentagon, x, y, 8.0, BEST, true);
            });
            let label = format!("the answer: {}", mix_words(&b.mix));
            let (lx, anchor) = if x > plot.x + plot.width / 2.0 {
                (x - 10.0, "end")
            } else {
                (x + 10.0, "start")
            };
            haloed(
                &mut out,
                (lx, (y - 14.0).max(plot.y + 12.0)),
                anchor,
                "best-label",
                &label,
            );
        }
    }
    // The legend, in a row under the x axis' title.
    let ly = height - 14.0;
    let mut x = plot.x;
    Tag::new(&mut out, "g").attr("class", "legend").open();
    marker::draw(
        &mut out,
        Shape::Circle,
        x + 5.0,
        ly - 4.0,
        3.2,
        "#9a9a9a",
        true,
    );
    text_at(
        &mut out,
        x + 14.0,
        ly,
        11.0,
        "start",
        "legend-label",
        "a mix evaluated",
    );
    x += 14.0 + text_width("a mix evaluated", 11.0) + 18.0;
    line_key(&mut out, (x, ly - 4.0), 22.0, FRONTIER, 2.0, None);
    marker::draw(
        &mut out,
        Shape::Circle,
        x + 11.0,
        ly - 4.0,
        4.5,
        FRONTIER,
        true,
    );
    text_at(
        &mut out,
        x + 28.0,
        ly,
        11.0,
        "start",
        "legend-label",
        "the frontier",
    );
    x += 28.0 + text_width("the frontier", 11.0) + 18.0;
    if report.best.is_some() {
        marker::draw(
            &mut out,
            Shape::Pentagon,
            x + 6.0,
            ly - 4.0,
            6.0,
            BEST,
            true,
        );
        text_at(
            &mut out,
            x + 16.0,
            ly,
            11.0,
            "start",
            "legend-label",
            "the answer",
        );
        x += 16.0 + text_width("the answer", 11.0) + 18.0;
    }
    if q.goal.is_some() {
        Tag::new(&mut out, "line")
            .ends(x, ly - 4.0, x + 22.0, ly - 4.0)
            .attr("stroke", "#222222")
            .attr("stroke-dasharray", "6 3")
            .close();
        text_at(
            &mut out,
            x + 28.0,
            ly,
            11.0,
            "start",
            "legend-label",
            "the goal",
        );
    }
    end(&mut out, "g");
    end(&mut out, "svg");
    out
}

#[cfg(test)]
mod tests;
