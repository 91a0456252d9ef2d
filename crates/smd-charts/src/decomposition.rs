//! Why `global` can beat SMD's decomposition, drawn on a small example (How it works;
//! docs/MODEL.md §9): SMD sizes each job for its least T and only then admits what fits;
//! `global` sizes and admits together, so it may give a job a smaller allocation that is
//! still fast enough and fit another job beside it.
//!
//! One bar per policy along the resource that binds (the one SMD's sizes overfill most):
//! each job's demand there as a segment — solid when admitted, dashed when not, the
//! capacity as a line — and the total utility Σu at the end. The numbers are the plans';
//! the figure computes nothing but the demands of their (w, p) (`JobModel::demand`).

use crate::format::{fmt_sig, plain_sig};
use crate::palette::categorical;
use crate::svg::{end, titled_group, Tag};
use smd_core::model::JobModel;
use smd_core::scenario::Resource;
use smd_core::{Plan, Scenario};

const ROW_H: f64 = 34.0;
const LEFT: f64 = 150.0;
const RIGHT: f64 = 150.0;
/// The sentences' font size, px.
const FONT: f64 = 12.0;

/// `text` in lines at most `width` px wide (at [`FONT`]), broken between words.
fn wrap(text: &str, width: f64) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || crate::svg::text_width(&longer, FONT) <= width {
            *line = longer;
        } else {
            lines.push(word.to_string());
        }
    }
    lines
}

/// Each job's demand at its plan's (w, p), per resource (zero without an allocation).
fn demands(models: &[JobModel], plan: &Plan) -> Vec<[f64; 4]> {
    models
        .iter()
        .zip(&plan.jobs)
        .map(|(m, line)| match (line.workers, line.ps) {
            (Some(w), Some(p)) => m.demand(w as f64, p as f64),
            _ => [0.0; 4],
        })
        .collect()
}

/// The figure for `scenario` planned by `smd` and by `global` (the two plans of its jobs,
/// in scenario order), `width` px wide, with two sentences under the bars saying what
/// differs. An SVG `role="img"` whose `aria-label` is those sentences.
pub fn decomposition_svg(s: &Scenario, smd: &Plan, global: &Plan, width: f64) -> String {
    let cap = s.cluster.capacity().to_array();
    let n = s.jobs.len().min(smd.jobs.len()).min(global.jobs.len());
    let models: Vec<JobModel> = s.jobs[..n]
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let (d_smd, d_global) = (demands(&models, smd), demands(&models, global));
    let sum = |d: &[[f64; 4]], r: usize| d.iter().map(|x| x[r]).sum::<f64>();
    // The binding resource: the one SMD's sizes (admitted or not) overfill most.
    let r = (0..4)
        .filter(|&r| cap[r] > 0.0)
        .max_by(|&a, &b| (sum(&d_smd, a) / cap[a]).total_cmp(&(sum(&d_smd, b) / cap[b])))
        .unwrap_or(0);
    let res = Resource::ALL[r];
    let span = sum(&d_smd, r).max(sum(&d_global, r)).max(cap[r]) * 1.04;
    let bar_w = width - LEFT - RIGHT;
    let x = |v: f64| LEFT + bar_w * v / span.max(1e-12);
    let said = words(s, smd, global, n);
    let sentences: Vec<String> = said.iter().flat_map(|t| wrap(t, width - 16.0)).collect();
    // Bars, labels under them, the capacity's label, then the sentences.
    let bottom = 30.0 + 2.0 * ROW_H + 22.0;
    let y0 = bottom + 52.0;
    let height = y0 + 18.0 * sentences.len() as f64;
    let mut out = String::new();
    crate::svg::root(
        &mut out,
        width,
        height,
        "smd-decomposition",
        &said.join(" "),
        &[("data-resource", res.name().to_string())],
    );
    Tag::new(&mut out, "text")
        .px("x", LEFT)
        .px("y", 16.0)
        .attr("font-size", 12.5)
        .attr("fill", "#3b4654")
        .text(
            "text",
            &format!(
                "{} demand against the capacity ({} {})",
                res.title(),
                plain_sig(cap[r], 4),
                res.unit()
            ),
        );
    let rows = [
        ("smd", "sizes, then admits", smd, &d_smd),
        ("global", "both at once", global, &d_global),
    ];
    for (k, (name, how, plan, demand)) in rows.iter().enumerate() {
        let y = 30.0 + k as f64 * (ROW_H + 22.0);
        Tag::new(&mut out, "g")
            .attr("class", "policy")
            .attr("data-policy", name)
            .attr("data-total", fmt_sig(plan.total_utility, 6))
            .open();
        Tag::new(&mut out, "text")
            .px("x", LEFT - 10.0)
            .px("y", y + 14.0)
            .attr("text-anchor", "end")
            .attr("font-size", 13)
            .attr("font-weight", 600)
            .attr("fill", "#1d2733")
            .text("text", name);
        Tag::new(&mut out, "text")
            .px("x", LEFT - 10.0)
            .px("y", y + 29.0)
            .attr("text-anchor", "end")
            .attr("font-size", 11)
            .attr("fill", "#5b6472")
            .text("text", how);
        let mut at = 0.0;
        // The admitted jobs first, within the capacity; the others after them, beyond it.
        let order = (0..n)
            .filter(|&i| plan.jobs[i].admitted)
            .chain((0..n).filter(|&i| !plan.jobs[i].admitted));
        for i in order {
            let d = demand[i][r];
            if d <= 0.0 {
                continue;
            }
            let line = &plan.jobs[i];
            let (x0, x1) = (x(at), x(at + d));
            at += d;
            let label = format!(
                "{} ({}, {})",
                line.id,
                line.workers.unwrap_or(0),
                line.ps.unwrap_or(0)
            );
            let tip = format!(
                "{label}: {} {} {}, u = {}, {}",
                plain_sig(d, 4),
                res.unit(),
                res.title(),
                plain_sig(line.utility, 4),
                if line.admitted {
                    "admitted"
                } else {
                    "not admitted"
                }
            );
            let colour = categorical(i);
            let text = if line.admitted {
                label
            } else {
                format!("{label}: not admitted")
            };
            let demand_attr = fmt_sig(d, 6);
            let attrs: [(&str, &dyn std::fmt::Display); 3] = [
                ("data-job", &line.id),
                ("data-admitted", &line.admitted),
                ("data-demand", &demand_attr),
            ];
            titled_group(&mut out, "job", &attrs, &tip, |out| {
                let rect = Tag::new(out, "rect")
                    .px("x", x0)
                    .px("y", y)
                    .px("width", (x1 - x0 - 1.0).max(1.0))
                    .px("height", ROW_H);
                if line.admitted {
                    rect.attr("fill", &colour)
                        .attr("fill-opacity", 0.85)
                        .close();
                } else {
                    rect.attr("fill", "#ffffff")
                        .attr("stroke", &colour)
                        .attr("stroke-width", 2)
                        .attr("stroke-dasharray", "5 3")
                        .close();
                }
                if crate::svg::text_width(&text, 11.5) < x1 - x0 - 8.0 {
                    Tag::new(out, "text")
                        .px("x", (x0 + x1) / 2.0)
                        .px("y", y + ROW_H / 2.0 + 4.0)
                        .attr("text-anchor", "middle")
                        .attr("font-size", 11.5)
                        .attr("fill", if line.admitted { "#ffffff" } else { "#1d2733" })
                        .text("text", &text);
                } else {
                    // Too narrow: under the segment, from its left edge.
                    Tag::new(out, "text")
                        .px("x", x0)
                        .px("y", y + ROW_H + 13.0)
                        .attr("font-size", 10.5)
                        .attr("fill", "#3b4654")
                        .text("text", &text);
                }
            });
        }
        Tag::new(&mut out, "text")
            .px("x", width - RIGHT + 10.0)
            .px("y", y + ROW_H / 2.0 + 5.0)
            .attr("font-size", 13)
            .attr("fill", "#1d2733")
            .text(
                "text",
                &format!("Σu = {}", plain_sig(plan.total_utility, 4)),
            );
        end(&mut out, "g");
    }
    // The capacity.
    let xc = x(cap[r]);
    Tag::new(&mut out, "line")
        .px("x1", xc)
        .px("x2", xc)
        .px("y1", 22.0)
        .px("y2", bottom + 20.0)
        .attr("stroke", "#b2182b")
        .attr("stroke-width", 2)
        .close();
    Tag::new(&mut out, "text")
        .px("x", xc)
        .px("y", bottom + 32.0)
        .attr("text-anchor", "middle")
        .attr("font-size", 11)
        .attr("fill", "#b2182b")
        .text("text", "capacity");
    for (k, line) in sentences.iter().enumerate() {
        Tag::new(&mut out, "text")
            .px("x", 8.0)
            .px("y", y0 + 18.0 * k as f64)
            .attr("font-size", FONT)
            .attr("fill", "#1d2733")
            .text("text", line);
    }
    end(&mut out, "svg");
    out
}

/// What differs, in two sentences: SMD's total and what it could not fit; global's sizes
/// that differ, and its total.
fn words(s: &Scenario, smd: &Plan, global: &Plan, n: usize) -> Vec<String> {
    let (ts, tg) = (smd.total_utility, global.total_utility);
    let admitted = |p: &Plan| p.jobs.iter().take(n).filter(|l| l.admitted).count();
    let left_out: Vec<&str> = smd
        .jobs
        .iter()
        .take(n)
        .filter(|l| !l.admitted && l.workers.is_some())
        .map(|l| l.id.as_str())
        .collect();
    let first = format!(
        "smd sizes each job for its least T (Algorithm 1), then admits {} of {n}{}: Σu = {}.",
        admitted(smd),
        if left_out.is_empty() {
            String::new()
        } else {
            format!(" — {} no longer fits", left_out.join(", "))
        },
        plain_sig(ts, 4)
    );
    let changed: Vec<String> = (0..n)
        .filter(|&i| {
            let (a, b) = (&smd.jobs[i], &global.jobs[i]);
            b.admitted && (a.workers, a.ps) != (b.workers, b.ps)
        })
        .map(|i| {
            let (a, b) = (&smd.jobs[i], &global.jobs[i]);
            let u = if (a.utility - b.utility).abs() <= 0.005 * a.utility.abs().max(1e-12) {
                format!("the same u = {}", plain_sig(b.utility, 4))
            } else {
                format!(
                    "u = {} against {}",
                    plain_sig(b.utility, 4),
                    plain_sig(a.utility, 4)
                )
            };
            format!(
                "{} at ({}, {}) rather than ({}, {}), {u}",
                s.jobs[i].id,
                b.workers.unwrap_or(0),
                b.ps.unwrap_or(0),
                a.workers.unwrap_or(0),
                a.ps.unwrap_or(0),
            )
        })
        .collect();
    let second = if changed.is_empty() {
        format!(
            "global admits {} of {n} at the same sizes: Σu = {}.",
            admitted(global),
            plain_sig(tg, 4)
        )
    } else {
        format!(
            "global sizes and admits together — {} — and admits {} of {n}: Σu = {}.",
            changed.join("; "),
            admitted(global),
            plain_sig(tg, 4)
        )
    };
    vec![first, second]
}
