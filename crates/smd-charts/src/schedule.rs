//! The layer schedule of one iteration under the three overlap models, from
//! `smd_core::eta::simulate`, with the job's own model highlighted.

use crate::scale::{linear_ticks, nice_step};
use crate::svg::{end, fmt_sig, fmt_tick, root, text_at, Px, Tag};
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

/// Forward, backward, communication: name, colour of even layers, colour of odd layers.
const KINDS: [(&str, &str, &str); 3] = [
    ("forward", "#0072B2", "#5C9FCC"),
    ("backward", "#E69F00", "#F0C25C"),
    ("comm", "#009E73", "#5CBFA3"),
];

const MODELS: [(Overlap, &str, &str); 3] = [
    (Overlap::Sequential, "sequential", "Sequential"),
    (Overlap::Wfbp, "wfbp", "WFBP"),
    (Overlap::Pipelined, "pipelined", "Pipelined"),
];

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
    let show = |t: f64| format!("{} {unit}", fmt_sig(t * factor, 4));

    let (x0, x1) = (84.0, width - 24.0);
    let px = |t: f64| x0 + t / t_max * (x1 - x0);
    let (top, bottom) = (58.0, height - 46.0);
    let group_h = (bottom - top) / 3.0;
    let header = 18.0;
    let lane_gap = 2.0;
    let lane_h = ((group_h - header - 10.0 - 2.0 * lane_gap) / 3.0).max(3.0);

    let mut out = String::with_capacity(256 * 1024);
    let own = MODELS
        .iter()
        .find(|m| m.0 == overlap)
        .map(|m| m.2)
        .unwrap_or("?");
    let label = format!(
        "Layer schedule of one iteration: {} layers, τ = {}; this job overlaps {own}",
        layers.len(),
        show(tau)
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
            show(tau)
        ),
    );
    // Legend.
    let mut lx = 12.0;
    let ly = 40.0;
    Tag::new(&mut out, "g").attr("class", "legend").open();
    for (name, c0, c1) in KINDS {
        for (k, c) in [c0, c1].iter().enumerate() {
            Tag::new(&mut out, "rect")
                .px("x", lx + 7.0 * k as f64)
                .px("y", ly - 9.0)
                .px("width", 7.0)
                .px("height", 11.0)
                .attr("fill", *c)
                .close();
        }
        let text = match name {
            "comm" => "communication lane",
            "forward" => "forward lane",
            _ => "backward lane",
        };
        text_at(&mut out, lx + 19.0, ly, 11.0, "start", "legend-label", text);
        lx += 19.0 + crate::svg::text_width(text, 11.0) + 16.0;
    }
    Tag::new(&mut out, "rect")
        .px("x", lx)
        .px("y", ly - 10.0)
        .px("width", 14.0)
        .px("height", 13.0)
        .attr("fill", "#EAF2FA")
        .attr("stroke", "#0072B2")
        .px("stroke-width", 1.5)
        .close();
    text_at(
        &mut out,
        lx + 19.0,
        ly,
        11.0,
        "start",
        "legend-label",
        "this job's model",
    );
    lx += 19.0 + crate::svg::text_width("this job's model", 11.0) + 16.0;
    if lx < x1 - 170.0 {
        text_at(
            &mut out,
            x1,
            ly,
            10.0,
            "end",
            "legend-note",
            "alternate shades: adjacent layers",
        );
    }
    end(&mut out, "g");

    for (g, ((model, key, name), (s, e))) in MODELS.iter().zip(&schedules).enumerate() {
        let gy = top + g as f64 * group_h;
        let own = *model == overlap;
        let class = if own {
            format!("lane-group lane-{key} highlight")
        } else {
            format!("lane-group lane-{key}")
        };
        Tag::new(&mut out, "g")
            .attr("class", class)
            .attr("data-overlap", key)
            .attr("data-t", s.t)
            .attr("data-eta1", e.eta1)
            .attr("data-eta2", e.eta2)
            .attr("data-eta3", e.eta3)
            .open();
        if own {
            Tag::new(&mut out, "rect")
                .attr("class", "highlight-band")
                .px("x", 4.0)
                .px("y", gy)
                .px("width", width - 8.0)
                .px("height", group_h - 4.0)
                .attr("rx", 3)
                .attr("fill", "#EAF2FA")
                .attr("stroke", "#0072B2")
                .px("stroke-width", 1.5)
                .close();
        }
        let label = format!(
            "{name}: T = {} — η1 = {}, η2 = {}, η3 = {}",
            show(s.t),
            fmt_sig(e.eta1, 3),
            fmt_sig(e.eta2, 3),
            fmt_sig(e.eta3, 3)
        );
        Tag::new(&mut out, "text")
            .attr("class", "lane-label")
            .px("x", 12.0)
            .px("y", gy + 14.0)
            .px("font-size", 12.0)
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
        if *model == Overlap::Pipelined {
            text_at(
                &mut out,
                x1,
                gy + 14.0,
                10.0,
                "end",
                "lane-note",
                "communication overlaps the next iteration's compute",
            );
        }
        let lanes: [(&[Bar], usize); 3] = [(&s.forward, 0), (&s.backward, 1), (&s.comm, 2)];
        for (bars, k) in lanes {
            let (kind, c0, c1) = KINDS[k];
            let ly = gy + header + k as f64 * (lane_h + lane_gap);
            text_at(
                &mut out,
                x0 - 6.0,
                ly + lane_h / 2.0 + 3.5,
                10.0,
                "end",
                "lane-name",
                match kind {
                    "comm" => "comm.",
                    other => other,
                },
            );
            Tag::new(&mut out, "rect")
                .attr("class", "lane")
                .px("x", x0)
                .px("y", ly)
                .px("width", x1 - x0)
                .px("height", lane_h)
                .attr("fill", "#f3f3f3")
                .close();
            Tag::new(&mut out, "g")
                .attr("class", format!("bars bars-{kind}"))
                .attr("shape-rendering", "crispEdges")
                .open();
            for b in bars {
                let fill = if b.layer % 2 == 0 { c0 } else { c1 };
                let w = px(b.end) - px(b.start);
                let mut t = Tag::new(&mut out, "rect")
                    .attr("class", format!("bar bar-{kind}"))
                    .attr("data-layer", b.layer)
                    .attr("data-start", b.start)
                    .attr("data-end", b.end)
                    .px("x", px(b.start))
                    .px("y", ly)
                    .px("width", w)
                    .px("height", lane_h)
                    .attr("fill", fill);
                if w < 1.0 && b.end > b.start {
                    // Keep a bar thinner than a pixel visible as a hairline.
                    t = t.attr("stroke", fill).px("stroke-width", 1.0);
                }
                t.titled(
                    "rect",
                    &format!(
                        "layer {} {kind}: {} – {} ({})",
                        b.layer + 1,
                        fmt_sig(b.start * factor, 4),
                        show(b.end),
                        show(b.end - b.start)
                    ),
                );
            }
            end(&mut out, "g");
        }
        // T marker across the group's lanes.
        let (ty0, ty1) = (
            gy + header - 2.0,
            gy + header + 3.0 * lane_h + 2.0 * lane_gap + 2.0,
        );
        Tag::new(&mut out, "line")
            .attr("class", "t-line")
            .px("x1", px(s.t))
            .px("y1", ty0)
            .px("x2", px(s.t))
            .px("y2", ty1)
            .attr("stroke", "#000000")
            .px("stroke-width", 1.5)
            .attr("stroke-dasharray", "4 2")
            .titled("line", &format!("{name}: T = {}", show(s.t)));
        end(&mut out, "g");
    }

    // Time axis.
    Tag::new(&mut out, "g").attr("class", "axes").open();
    Tag::new(&mut out, "line")
        .px("x1", x0)
        .px("y1", bottom)
        .px("x2", x1)
        .px("y2", bottom)
        .attr("stroke", "#444444")
        .close();
    let step = nice_step(0.0, t_max * factor, ((x1 - x0) / 80.0) as usize);
    for v in linear_ticks(0.0, t_max * factor, step) {
        let x = px(v / factor);
        Tag::new(&mut out, "line")
            .px("x1", x)
            .px("y1", bottom)
            .px("x2", x)
            .px("y2", bottom + 5.0)
            .attr("stroke", "#444444")
            .close();
        text_at(
            &mut out,
            x,
            bottom + 17.0,
            11.0,
            "middle",
            "tick",
            &fmt_tick(v, step),
        );
    }
    text_at(
        &mut out,
        (x0 + x1) / 2.0,
        bottom + 36.0,
        12.5,
        "middle",
        "axis-label",
        &format!("time since the iteration's start ({unit})"),
    );
    end(&mut out, "g");
    end(&mut out, "svg");
    out
}
