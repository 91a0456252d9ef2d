//! Why a job prefers a GPU type (How it works): each application's one-GPU speed on every
//! GPU type, relative to the first type (a T4), as grouped horizontal bars — an
//! application's block of bars, one per type in the type's colour
//! ([`palette::gpu_type`](crate::palette::gpu_type)), each named and labelled with its
//! speed. The numbers are the caller's (measured); the figure only divides by the first.

use crate::format::{fmt_tick, readable, sig};
use crate::palette::gpu_type;
use crate::rect::Rect;
use crate::scale::{linear_ticks, nice_step};
use crate::svg::{end, root, text_at, text_tag, text_width, titled_group, Tag, INK};
use smd_core::scenario::Gpu;

/// One application of [`gpu_speeds_svg`]: its name and its speed on each GPU type, in the
/// order of the figure's types.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedRow {
    /// The application, in words (`BERT`).
    pub name: String,
    /// Its speed on each type, samples per second.
    pub speeds: Vec<f64>,
}

const TOP: f64 = 52.0;
const BAR: f64 = 10.0;
const PITCH: f64 = 13.0;
const HEAD: f64 = 17.0;
const GAP: f64 = 8.0;
const BOTTOM: f64 = 44.0;
const FONT: f64 = 10.0;

/// The figure of `rows` on `gpus` (speeds relative to `gpus[0]`), `width` px wide, as an
/// SVG document `svg.gpu-speeds`: per application a `g.speeds` with `data-app`, per bar
/// a `rect.speed` with `data-gpu` (the type's name), `data-speed` and `data-relative`, a
/// legend `g.legend-entry` per type, and a dashed line at 1×. A speed that is not a
/// positive number is drawn as no bar and said to be unknown.
pub fn gpu_speeds_svg(gpus: &[Gpu], rows: &[SpeedRow], width: f64) -> String {
    let base = gpus.first().copied().unwrap_or(Gpu::T4);
    let relative = |row: &SpeedRow, k: usize| -> Option<f64> {
        let v = *row.speeds.get(k)?;
        let b = *row.speeds.first()?;
        (v > 0.0 && b > 0.0 && v.is_finite() && b.is_finite()).then(|| v / b)
    };
    let most = rows
        .iter()
        .flat_map(|r| (0..gpus.len()).filter_map(|k| relative(r, k)))
        .fold(1.0f64, f64::max);
    let step = nice_step(0.0, most, 6);
    let hi = (most / step).ceil() * step;
    let label_w = gpus
        .iter()
        .map(|g| text_width(g.label(), FONT))
        .fold(0.0, f64::max);
    let left = 16.0 + label_w + 8.0;
    let right = 150.0;
    let plot_w = (width - left - right).max(40.0);
    let x = |v: f64| left + plot_w * (v / hi).clamp(0.0, 1.0);
    let block = HEAD + gpus.len() as f64 * PITCH + GAP;
    let plot_h = rows.len() as f64 * block;
    let height = TOP + plot_h + BOTTOM;
    let label = format!(
        "One GPU's speed on each type, relative to a{} {}: {}",
        if base.label().starts_with(['A', 'R']) {
            "n"
        } else {
            ""
        },
        base.label(),
        rows.iter()
            .map(|r| {
                let best = (0..gpus.len())
                    .filter_map(|k| relative(r, k).map(|v| (k, v)))
                    .max_by(|a, b| a.1.total_cmp(&b.1));
                match best {
                    Some((k, v)) => format!(
                        "{} fastest on the {} ({}×)",
                        r.name,
                        gpus[k].label(),
                        sig(v, 2)
                    ),
                    None => format!("{} unknown", r.name),
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
    let mut out = String::new();
    root(&mut out, width, height, "gpu-speeds", &label, &[]);
    text_at(
        &mut out,
        16.0,
        20.0,
        13.0,
        "start",
        "title",
        &format!(
            "One GPU's speed on each type, relative to a{} {}",
            if base.label().starts_with(['A', 'R']) {
                "n"
            } else {
                ""
            },
            base.label()
        ),
    );
    // The legend: each type's swatch and name.
    let mut lx = 16.0;
    for g in gpus {
        titled_group(
            &mut out,
            "legend-entry",
            &[("data-gpu", &g.name())],
            g.label(),
            |out| {
                Tag::new(out, "rect")
                    .rect(Rect {
                        x: lx,
                        y: 30.0,
                        width: 12.0,
                        height: 10.0,
                    })
                    .attr("fill", gpu_type(*g))
                    .attr("stroke", "#222222")
                    .px("stroke-width", 0.6)
                    .close();
                text_at(
                    out,
                    lx + 16.0,
                    39.0,
                    11.0,
                    "start",
                    "legend-label",
                    g.label(),
                );
            },
        );
        lx += 16.0 + text_width(g.label(), 11.0) + 16.0;
    }
    // Grid and axis.
    let bottom = TOP + plot_h;
    for v in linear_ticks(0.0, hi, step) {
        let gx = x(v);
        Tag::new(&mut out, "line")
            .ends(gx, TOP, gx, bottom)
            .attr("stroke", "#e4e4e4")
            .close();
        Tag::new(&mut out, "line")
            .ends(gx, bottom, gx, bottom + 4.0)
            .attr("stroke", INK)
            .close();
        text_at(
            &mut out,
            gx,
            bottom + 16.0,
            FONT,
            "middle",
            "tick-label",
            &format!("{}×", fmt_tick(v, step)),
        );
    }
    Tag::new(&mut out, "line")
        .ends(left, bottom, left + plot_w, bottom)
        .attr("stroke", INK)
        .close();
    text_at(
        &mut out,
        left + plot_w / 2.0,
        bottom + 34.0,
        11.0,
        "middle",
        "axis-title",
        &format!(
            "samples per second on one GPU, as a multiple of the {}'s",
            base.label()
        ),
    );
    // 1× (the first type's speed), under the bars and their labels.
    let one = x(1.0);
    Tag::new(&mut out, "line")
        .attr("class", "baseline")
        .ends(one, TOP - 4.0, one, bottom)
        .attr("stroke", INK)
        .attr("stroke-dasharray", "4 3")
        .close();
    // The blocks.
    for (i, row) in rows.iter().enumerate() {
        let top = TOP + i as f64 * block;
        Tag::new(&mut out, "g")
            .attr("class", "speeds")
            .attr("data-app", &row.name)
            .open();
        Tag::new(&mut out, "text")
            .attr("class", "app-name")
            .px("x", 16.0)
            .px("y", top + 12.0)
            .px("font-size", 12.0)
            .attr("font-weight", "bold")
            .attr("fill", "#222222")
            .text("text", &row.name);
        for (k, g) in gpus.iter().enumerate() {
            let y = top + HEAD + k as f64 * PITCH;
            text_at(
                &mut out,
                left - 6.0,
                y + BAR - 1.5,
                FONT,
                "end",
                "gpu-name",
                g.label(),
            );
            let speed = row.speeds.get(k).copied().unwrap_or(f64::NAN);
            let rel = relative(row, k);
            let said = match rel {
                Some(r) => format!("{} samples/s · {}×", readable(speed, 3), sig(r, 2)),
                None => "unknown".to_owned(),
            };
            let tip = format!("{} on one {}: {said}", row.name, g.label());
            let end_x = rel.map_or(left, x);
            titled_group(&mut out, "bar", &[("data-gpu", &g.name())], &tip, |out| {
                Tag::new(out, "rect")
                    .attr("class", "speed")
                    .rect(Rect {
                        x: left,
                        y,
                        width: end_x - left,
                        height: BAR,
                    })
                    .attr("fill", gpu_type(*g))
                    .attr("stroke", "#222222")
                    .px("stroke-width", 0.6)
                    .attr("data-gpu", g.name())
                    .attr("data-speed", if speed.is_finite() { speed } else { 0.0 })
                    .attr("data-relative", rel.unwrap_or(0.0))
                    .close();
                // A white halo keeps the label readable across the 1× line.
                text_tag(out, "speed-label", end_x + 4.0, y + BAR - 1.5, FONT)
                    .attr("fill", "#222222")
                    .attr("stroke", "#ffffff")
                    .px("stroke-width", 3.0)
                    .attr("paint-order", "stroke")
                    .text("text", &said);
            });
        }
        end(&mut out, "g");
    }
    end(&mut out, "svg");
    out
}
