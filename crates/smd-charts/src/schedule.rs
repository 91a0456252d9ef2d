//! The layer schedule of one iteration under the three overlap models, from
//! `smd_core::eta::simulate`, with the job's own model highlighted.

use crate::axes::{scale_ticks_at, x_title, Axis};
use crate::format::{fmt_sig, plain_sig};
use crate::legend::{swatch, Legend};
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{end, group, root, text_at, text_tag, Px, Tag};
use smd_core::eta::{self, Bar};
use smd_core::scenario::{Layer, Overlap};

/// The unit of the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeUnit {
    /// Milliseconds if the longest iteration is under a second, else seconds.
    #[default]
    Auto,
    /// Milliseconds.
    Milliseconds,
    /// Seconds.
    Seconds,
}

/// Options of [`schedule_svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleOptions {
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
    /// Unit of the time axis and labels.
    pub unit: TimeUnit,
}

impl Default for ScheduleOptions {
    fn default() -> Self {
        ScheduleOptions {
            width: 800.0,
            height: 420.0,
            unit: TimeUnit::Auto,
        }
    }
}

/// A lane kind: its key (class names), its legend text, its lane name, and the colours of
/// its even and odd layers.
struct Kind {
    key: &'static str,
    legend: &'static str,
    lane: &'static str,
    colours: [&'static str; 2],
}

/// Forward, backward, communication.
const KINDS: [Kind; 3] = [
    Kind {
        key: "forward",
        legend: "forward lane",
        lane: "forward",
        colours: ["#0072B2", "#5C9FCC"],
    },
    Kind {
        key: "backward",
        legend: "backward lane",
        lane: "backward",
        colours: ["#E69F00", "#F0C25C"],
    },
    Kind {
        key: "comm",
        legend: "communication lane",
        lane: "comm.",
        colours: ["#009E73", "#5CBFA3"],
    },
];

const MODELS: [(Overlap, &str, &str); 3] = [
    (Overlap::Sequential, "sequential", "Sequential"),
    (Overlap::Wfbp, "wfbp", "WFBP"),
    (Overlap::Pipelined, "pipelined", "Pipelined"),
];

/// Fill and outline of the job's own model (its group's band and its legend key).
const HIGHLIGHT: (&str, &str) = ("#EAF2FA", "#0072B2");

/// Height of a group's label row above its lanes, px.
const HEADER: f64 = 18.0;

/// Gap between lanes, px.
const LANE_GAP: f64 = 2.0;

/// Where everything goes, and the time unit.
struct Layout {
    width: f64,
    /// Time in seconds → x, from `x0` (t = 0) to `x1` (the longest schedule's end).
    time: Scale,
    /// Top of the first group.
    top: f64,
    /// The time axis's y.
    bottom: f64,
    group_h: f64,
    lane_h: f64,
    /// The unit shown ("ms" or "s") and its number per second.
    unit: &'static str,
    factor: f64,
}

impl Layout {
    fn x0(&self) -> f64 {
        self.time.px.0
    }

    fn x1(&self) -> f64 {
        self.time.px.1
    }

    /// A time in seconds, in the unit shown.
    fn show(&self, t: f64) -> String {
        format!("{} {}", plain_sig(t * self.factor, 4), self.unit)
    }
}

/// The schedule of one iteration (times in seconds, `tau` = communication time at w = p)
/// drawn for sequential, WFBP and pipelined overlap, one group of three lanes (forward,
/// backward, communication) each, on a shared time axis; the group of `overlap` is
/// highlighted. Each group is labelled with its iteration time T and the η1, η2, η3 it
/// yields (sequential is (1, 1, 1) by definition).
///
/// Stable hooks: the root carries `data-x0`, `data-x1` (pixels of t = 0 and of the axis
/// end) and `data-tmax` (seconds at `data-x1`); each group is a
/// `g.lane-group` with `data-overlap`, `data-t`, `data-eta1..3` (and class `highlight`
/// for the job's own model); each bar is a `rect.bar.bar-{forward|backward|comm}` with
/// `data-layer`, `data-start`, `data-end` (seconds) and a `<title>`.
pub fn schedule_svg(
    layers: &[Layer],
    tau: f64,
    overlap: Overlap,
    opts: &ScheduleOptions,
) -> String {
    let (width, height) = (opts.width.max(300.0), opts.height.max(220.0));
    let schedules: Vec<_> = MODELS
        .iter()
        .map(|&(o, _, _)| (eta::simulate(layers, o, tau), eta::eta(layers, o, tau)))
        .collect();
    let t_end = schedules
        .iter()
        .flat_map(|(s, _)| {
            std::iter::once(s.t).chain(
                s.comm
                    .iter()
                    .chain(&s.forward)
                    .chain(&s.backward)
                    .map(|b| b.end),
            )
        })
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let t_max = if t_end > 0.0 { t_end } else { 1.0 };
    let (unit, factor) = match opts.unit {
        TimeUnit::Milliseconds => ("ms", 1000.0),
        TimeUnit::Seconds => ("s", 1.0),
        TimeUnit::Auto if t_max < 1.0 => ("ms", 1000.0),
        TimeUnit::Auto => ("s", 1.0),
    };
    let (x0, x1) = (84.0, width - 24.0);
    let (top, bottom) = (58.0, height - 46.0);
    let group_h = (bottom - top) / 3.0;
    let lay = Layout {
        width,
        time: Scale {
            lo: 0.0,
            hi: t_max,
            px: (x0, x1),
            log: false,
        },
        top,
        bottom,
        group_h,
        lane_h: ((group_h - HEADER - 10.0 - 2.0 * LANE_GAP) / 3.0).max(3.0),
        unit,
        factor,
    };

    let mut out = String::with_capacity(256 * 1024);
    let own = MODELS
        .iter()
        .find(|m| m.0 == overlap)
        .map(|m| m.2)
        .unwrap_or("?");
    let label = format!(
        "Layer schedule of one iteration: {} layers, τ = {}; this job overlaps {own}",
        layers.len(),
        lay.show(tau)
    );
    root(
        &mut out,
        width,
        height,
        "smd-schedule",
        &label,
        &[
            ("data-x0", Px(x0).to_string()),
            ("data-x1", Px(x1).to_string()),
            ("data-tmax", t_max.to_string()),
        ],
    );
    text_at(
        &mut out,
        12.0,
        21.0,
        15.0,
        "start",
        "title",
        &format!(
            "One iteration, {} layers, τ = {} — this job: {own}",
            layers.len(),
            lay.show(tau)
        ),
    );
    legend(&mut out, &lay);
    for (g, (model, (s, e))) in MODELS.iter().zip(&schedules).enumerate() {
        lane_group(&mut out, &lay, g, *model, s, e, model.0 == overlap);
    }
    time_axis(&mut out, &lay);
    end(&mut out, "svg");
    out
}

/// The legend: the lanes' colours, the highlight, and a note on the alternate shades.
fn legend(out: &mut String, lay: &Layout) {
    let mut legend = Legend::row(12.0, 40.0, 16.0).key_width(19.0);
    group(out, "legend");
    for kind in &KINDS {
        let (x, y) = legend.key();
        for (k, c) in kind.colours.iter().enumerate() {
            let r = Rect {
                x: x + 7.0 * k as f64,
                y: y - 9.0,
                width: 7.0,
                height: 11.0,
            };
            swatch(out, r, c).close();
        }
        legend.label(out, kind.legend);
    }
    let (x, y) = legend.key();
    let r = Rect {
        x,
        y: y - 10.0,
        width: 14.0,
        height: 13.0,
    };
    swatch(out, r, HIGHLIGHT.0)
        .attr("stroke", HIGHLIGHT.1)
        .px("stroke-width", 1.5)
        .close();
    legend.label(out, "this job's model");
    let (x, y) = legend.key();
    if x < lay.x1() - 170.0 {
        text_at(
            out,
            lay.x1(),
            y,
            10.0,
            "end",
            "legend-note",
            "alternate shades: adjacent layers",
        );
    }
    end(out, "g");
}

/// Group `g` (0, 1, 2 from the top): model `key` (named `name`) with its schedule `s`
/// and η's `e`, highlighted if it is the job's own (`own`).
fn lane_group(
    out: &mut String,
    lay: &Layout,
    g: usize,
    (model, key, name): (Overlap, &str, &str),
    s: &eta::Schedule,
    e: &eta::Eta,
    own: bool,
) {
    let gy = lay.top + g as f64 * lay.group_h;
    let class = if own {
        format!("lane-group lane-{key} highlight")
    } else {
        format!("lane-group lane-{key}")
    };
    Tag::new(out, "g")
        .attr("class", class)
        .attr("data-overlap", key)
        .attr("data-t", s.t)
        .attr("data-eta1", e.eta1)
        .attr("data-eta2", e.eta2)
        .attr("data-eta3", e.eta3)
        .open();
    if own {
        Tag::new(out, "rect")
            .attr("class", "highlight-band")
            .rect(Rect {
                x: 4.0,
                y: gy,
                width: lay.width - 8.0,
                height: lay.group_h - 4.0,
            })
            .attr("rx", 3)
            .attr("fill", HIGHLIGHT.0)
            .attr("stroke", HIGHLIGHT.1)
            .px("stroke-width", 1.5)
            .close();
    }
    let label = format!(
        "{name}: T = {} — η1 = {}, η2 = {}, η3 = {}",
        lay.show(s.t),
        fmt_sig(e.eta1, 3),
        fmt_sig(e.eta2, 3),
        fmt_sig(e.eta3, 3)
    );
    text_tag(out, "lane-label", 12.0, gy + 14.0, 12.0)
        .attr("font-weight", if own { "bold" } else { "normal" })
        .attr("fill", "#222222")
        .text(
            "text",
            &if own {
                format!("{label}  (this job)")
            } else {
                label
            },
        );
    if model == Overlap::Pipelined {
        text_at(
            out,
            lay.x1(),
            gy + 14.0,
            10.0,
            "end",
            "lane-note",
            "communication overlaps the next iteration's compute",
        );
    }
    for (k, bars) in [&s.forward, &s.backward, &s.comm].into_iter().enumerate() {
        let ly = gy + HEADER + k as f64 * (lay.lane_h + LANE_GAP);
        lane(out, lay, &KINDS[k], ly, bars);
    }
    // T marker across the group's lanes.
    let (ty0, ty1) = (
        gy + HEADER - 2.0,
        gy + HEADER + 3.0 * lay.lane_h + 2.0 * LANE_GAP + 2.0,
    );
    let x = lay.time.to_px(s.t);
    Tag::new(out, "line")
        .attr("class", "t-line")
        .ends(x, ty0, x, ty1)
        .attr("stroke", "#000000")
        .px("stroke-width", 1.5)
        .attr("stroke-dasharray", "4 2")
        .titled("line", &format!("{name}: T = {}", lay.show(s.t)));
    end(out, "g");
}

/// One lane at height `y`: its name, its background and its bars.
fn lane(out: &mut String, lay: &Layout, kind: &Kind, y: f64, bars: &[Bar]) {
    let (x0, x1, h) = (lay.x0(), lay.x1(), lay.lane_h);
    text_at(
        out,
        x0 - 6.0,
        y + h / 2.0 + 3.5,
        10.0,
        "end",
        "lane-name",
        kind.lane,
    );
    Tag::new(out, "rect")
        .attr("class", "lane")
        .rect(Rect {
            x: x0,
            y,
            width: x1 - x0,
            height: h,
        })
        .attr("fill", "#f3f3f3")
        .close();
    let (key, colours) = (kind.key, kind.colours);
    Tag::new(out, "g")
        .attr("class", format!("bars bars-{key}"))
        .attr("shape-rendering", "crispEdges")
        .open();
    for b in bars {
        let fill = colours[b.layer % 2];
        let x = lay.time.to_px(b.start);
        let w = lay.time.to_px(b.end) - x;
        let mut t = Tag::new(out, "rect")
            .attr("class", format!("bar bar-{key}"))
            .attr("data-layer", b.layer)
            .attr("data-start", b.start)
            .attr("data-end", b.end)
            .rect(Rect {
                x,
                y,
                width: w,
                height: h,
            })
            .attr("fill", fill);
        if w < 1.0 && b.end > b.start {
            // Keep a bar thinner than a pixel visible as a hairline.
            t = t.attr("stroke", fill).px("stroke-width", 1.0);
        }
        t.titled(
            "rect",
            &format!(
                "layer {} {key}: {} – {} ({})",
                b.layer + 1,
                plain_sig(b.start * lay.factor, 4),
                lay.show(b.end),
                lay.show(b.end - b.start)
            ),
        );
    }
    end(out, "g");
}

/// The time axis under the groups, in the unit shown.
fn time_axis(out: &mut String, lay: &Layout) {
    let (x0, x1) = (lay.x0(), lay.x1());
    // The ticks are nice values in the unit shown, placed by their time in seconds.
    let shown = Scale {
        lo: 0.0,
        hi: lay.time.hi * lay.factor,
        ..lay.time
    };
    let ticks = scale_ticks_at(&shown, ((x1 - x0) / 80.0) as usize, |v| {
        lay.time.to_px(v / lay.factor)
    });
    group(out, "axes");
    Axis::bottom(lay.bottom).line(x0, x1).draw(out, &ticks);
    x_title(
        out,
        (x0 + x1) / 2.0,
        lay.bottom + 36.0,
        &format!("time since the iteration's start ({})", lay.unit),
    );
    end(out, "g");
}
