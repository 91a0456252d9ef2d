//! Charts comparing simulated runs (`smd_sim::Run`, one per policy): resource use over
//! time, the JCT distribution, and total utility against the bound. Each policy keeps its
//! colour and dash pattern (its place in `SimPolicy::ALL`) across the charts.

use crate::axes::{framed_axes, scale_ticks, y_title, Axis};
use crate::format::{duration, fmt_sig, plain_sig};
use crate::legend::{column_width, line_key, plot_beside, Legend};
use crate::palette::series_style;
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{end, group, root, text_at, text_width, Px, Tag};
use crate::timeline::{last_slot_end, run_end, time_ticks, time_unit};
use smd_core::scenario::Resources;
use smd_sim::{Run, SimPolicy};

/// Size of the charts of this module.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverTimeOptions {
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
}

impl Default for OverTimeOptions {
    fn default() -> Self {
        OverTimeOptions {
            width: 640.0,
            height: 320.0,
        }
    }
}

/// A policy's colour and dash pattern (`none`: solid), the same in every chart.
pub fn policy_style(p: SimPolicy) -> (&'static str, &'static str) {
    let k = SimPolicy::ALL.iter().position(|&q| q == p).unwrap_or(0);
    let (colour, dash, _) = series_style(k);
    (colour, dash)
}

/// One policy's step function: `(x, y)` holds from x to the next point's x, the last to
/// `end`.
struct Steps {
    policy: SimPolicy,
    points: Vec<(f64, f64)>,
    end: f64,
    tip: String,
    data: Vec<(&'static str, String)>,
}

/// How many times as far as the next run a run must reach for the time axes to leave it
/// off: past 1.5 the others would keep less than two thirds of the width. (The bundled
/// workload-1 with 80 arrivals of workload-2, 240 jobs on 16 × t4x4: oasis runs to 86 h,
/// the next, smd, to 51 h.)
const OFF_CHART_FACTOR: f64 = 1.5;

/// The time axis of runs reaching `reach` (a policy and how far its curve goes, s): its
/// end, and the runs it leaves off with their reach. One run far past the others (oasis'
/// refused jobs, run one at a time when the cluster is otherwise idle, can take it several
/// times as far) would squeeze every other curve into the left of the plot. So the
/// farthest run is left off while it reaches more than [`OFF_CHART_FACTOR`] times as far
/// as the next and most runs stay on the chart; the axis ends at the farthest run kept,
/// and a note names the others, "oasis runs to 112 h, off the chart". A log axis was the
/// other choice: it keeps every curve whole but squeezes the hours the near runs differ
/// by, which is what the chart is read for; the timeline still shows the far run whole.
fn time_axis(reach: &[(SimPolicy, f64)]) -> (f64, Vec<(SimPolicy, f64)>) {
    let mut ends: Vec<f64> = reach
        .iter()
        .map(|r| r.1)
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    ends.sort_by(f64::total_cmp);
    let mut kept = ends.len();
    while kept >= 2
        && ends[kept - 1] > OFF_CHART_FACTOR * ends[kept - 2]
        && kept - 1 > ends.len() - (kept - 1)
    {
        kept -= 1;
    }
    let axis = if kept == 0 { 0.0 } else { ends[kept - 1] };
    let off = reach
        .iter()
        .filter(|r| r.1.is_finite() && r.1 > axis)
        .copied()
        .collect();
    (axis, off)
}

/// What a step chart shows.
struct StepChart<'a> {
    testid: &'a str,
    class: &'a str,
    title: &'a str,
    y_label: &'a str,
    /// Upper end of the y axis (the lower is 0).
    y_max: f64,
    /// Upper end of the time axis, s (the lower is 0).
    t_max: f64,
    /// The x axis's title, before its unit.
    x_label: &'a str,
    /// The runs left off the time axis, with how far they reach, s ([`time_axis`]).
    off: &'a [(SimPolicy, f64)],
    /// What the note says of a run off the chart, after its name and before its reach:
    /// "runs to", "has JCTs up to".
    off_words: &'a str,
}

/// The plot area of a chart of `opts`, with room for a legend of `names` at the right.
fn plot_area(opts: &OverTimeOptions, names: &[&str]) -> (f64, f64, Rect) {
    let (width, height) = (opts.width.max(320.0), opts.height.max(200.0));
    (width, height, plot_beside(width, height, names, 62.0, 48.0))
}

/// A chart of step functions against simulated time, one per policy.
fn step_chart(chart: &StepChart, series: &[Steps], opts: &OverTimeOptions) -> String {
    let names: Vec<&str> = series.iter().map(|s| s.policy.name()).collect();
    let (width, height, plot) = plot_area(opts, &names);
    let xs = Scale {
        lo: 0.0,
        hi: if chart.t_max > 0.0 { chart.t_max } else { 1.0 },
        px: (plot.x, plot.right()),
        log: false,
    };
    let ys = Scale {
        lo: 0.0,
        hi: if chart.y_max > 0.0 { chart.y_max } else { 1.0 },
        px: (plot.bottom(), plot.y),
        log: false,
    };
    let mut out = String::with_capacity(8 * 1024);
    root(
        &mut out,
        width,
        height,
        chart.class,
        chart.title,
        &[("data-testid", chart.testid.into())],
    );
    text_at(&mut out, plot.x, 22.0, 14.0, "start", "title", chart.title);
    if !chart.off.is_empty() {
        let note: Vec<String> = chart
            .off
            .iter()
            .map(|(p, t)| format!("{} {} {}", p.name(), chart.off_words, duration(*t)))
            .collect();
        text_at(
            &mut out,
            plot.x + text_width(chart.title, 14.0) + 14.0,
            22.0,
            11.0,
            "start",
            "off-chart",
            &format!("{}, off the chart", note.join("; ")),
        );
    }
    let y_ticks = scale_ticks(&ys, (plot.height / 40.0) as usize);
    let (unit, per_unit) = time_unit(xs.hi);
    let x_ticks = time_ticks(&xs, (plot.width / 70.0) as usize, per_unit);
    framed_axes(
        &mut out,
        plot,
        height,
        (&y_ticks, &x_ticks),
        (&format!("{} ({unit})", chart.x_label), chart.y_label),
    );
    if series.iter().all(|s| s.points.is_empty()) {
        centre_note(&mut out, &plot, "no data");
    }
    for s in series {
        let (colour, dash) = policy_style(s.policy);
        let mut g = Tag::new(&mut out, "g")
            .attr("class", "series")
            .attr("data-policy", s.policy.name());
        if chart.off.iter().any(|o| o.0 == s.policy) {
            g = g.attr("data-off-chart", "true");
        }
        for (k, v) in &s.data {
            g = g.attr(k, v);
        }
        let out = g.open();
        crate::svg::title(out, &s.tip);
        if let Some(&(x0, y0)) = s.points.first() {
            // A run past the axis is drawn to its end: what lies beyond is off the chart.
            let mut d = format!("M{},{}", Px(xs.to_px(x0.min(xs.hi))), Px(ys.to_px(y0)));
            for w in s.points.windows(2) {
                let ((_, _), (x, y)) = (w[0], w[1]);
                if x > xs.hi {
                    break;
                }
                d.push_str(&format!("H{}V{}", Px(xs.to_px(x)), Px(ys.to_px(y))));
            }
            d.push_str(&format!("H{}", Px(xs.to_px(s.end.min(xs.hi)))));
            let mut t = Tag::new(out, "path")
                .attr("class", "line")
                .attr("d", d)
                .attr("fill", "none")
                .attr("stroke", colour)
                .px("stroke-width", 1.8)
                .attr("stroke-linejoin", "round");
            if dash != "none" {
                t = t.attr("stroke-dasharray", dash);
            }
            t.close();
        }
        end(out, "g");
    }
    legend(
        &mut out,
        series.iter().map(|s| s.policy),
        width,
        &names,
        plot.y,
    );
    end(&mut out, "svg");
    out
}

/// The policies' legend at the right, from `top`.
fn legend(
    out: &mut String,
    policies: impl Iterator<Item = SimPolicy>,
    width: f64,
    names: &[&str],
    top: f64,
) {
    group(out, "legend");
    let mut legend = Legend::column(width - column_width(names), top + 8.0, 20.0).key_width(34.0);
    for p in policies {
        let (colour, dash) = policy_style(p);
        let key = legend.key();
        line_key(
            out,
            key,
            28.0,
            colour,
            2.0,
            (dash != "none").then_some(dash),
        );
        legend.label(out, p.name());
    }
    end(out, "g");
}

/// The resource a usage chart shows for `capacity`: GPUs, or vCPUs on a cluster without.
fn usage_resource(capacity: &Resources) -> (&'static str, fn(&Resources) -> f64) {
    if capacity.gpu > 0.0 {
        ("GPU", |r| r.gpu)
    } else {
        ("vCPU", |r| r.vcpu)
    }
}

/// Resource use over time: per run with slots (`bound` has none), the share of the
/// cluster's `capacity` in use in each slot — GPUs, or vCPUs when the cluster has no GPU —
/// as a step line.
///
/// Stable hooks: the root carries `data-testid="usage-chart"` and `data-resource`; each
/// policy is a `g.series` with `data-policy`, `data-slots`, `data-mean` (the mean share,
/// 0–1, over the run's time from 0 to the end of its last slot) holding one `path.line`.
pub fn usage_svg(runs: &[Run], capacity: &Resources, opts: &OverTimeOptions) -> String {
    let (resource, of) = usage_resource(capacity);
    let cap = of(capacity);
    let share = |r: &Resources| if cap > 0.0 { of(r) / cap } else { 0.0 };
    // `bound` has no slots and no line here.
    let reach: Vec<(SimPolicy, f64)> = runs
        .iter()
        .filter(|r| !r.slots.is_empty())
        .map(|r| (r.policy, run_end(r)))
        .collect();
    let (t_max, off) = time_axis(&reach);
    let series: Vec<Steps> = runs
        .iter()
        .filter(|r| !r.slots.is_empty())
        .map(|r| {
            let points: Vec<(f64, f64)> = r
                .slots
                .iter()
                .map(|s| (s.start_s, 100.0 * share(&s.used)))
                .collect();
            let end = last_slot_end(r);
            // Over the run's time, from 0 to its end: the typed policies' runs leave their
            // idle ticks out of the slots, and those count as unused.
            let mean = if end > 0.0 {
                r.slots.iter().map(|s| share(&s.used)).sum::<f64>() * r.slot_s / end
            } else {
                0.0
            };
            Steps {
                policy: r.policy,
                points,
                end,
                tip: format!(
                    "{}: {} slots, mean {resource} use {}%",
                    r.policy.name(),
                    r.slots.len(),
                    fmt_sig(100.0 * mean, 3)
                ),
                data: vec![
                    ("data-slots", r.slots.len().to_string()),
                    ("data-mean", mean.to_string()),
                ],
            }
        })
        .collect();
    let y_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(100.0_f64, f64::max);
    let title = format!("{resource} in use over time");
    let y_label = format!("{resource} in use (% of capacity)");
    let svg = step_chart(
        &StepChart {
            testid: "usage-chart",
            class: "smd-usage",
            title: &title,
            y_label: &y_label,
            y_max,
            t_max,
            x_label: "simulated time",
            off: &off,
            off_words: "runs to",
        },
        &series,
        opts,
    );
    svg.replacen(
        "data-testid=\"usage-chart\"",
        &format!("data-testid=\"usage-chart\" data-resource=\"{resource}\""),
        1,
    )
}

/// The JCT distribution per run: the share of *all* jobs finished within each JCT (a job
/// unfinished at the end keeps its run's curve below 100%).
///
/// Stable hooks: the root carries `data-testid="jct-cdf"`; each policy is a `g.series`
/// with `data-policy`, `data-finished`, `data-jobs` holding one `path.line` (none when no
/// job finished).
pub fn jct_cdf_svg(runs: &[Run], opts: &OverTimeOptions) -> String {
    let reach: Vec<(SimPolicy, f64)> = runs
        .iter()
        .map(|r| {
            let last = r
                .jobs
                .iter()
                .filter_map(|j| j.jct_s)
                .filter(|v| v.is_finite())
                .fold(0.0_f64, f64::max);
            (r.policy, last)
        })
        .collect();
    let (t_max, off) = time_axis(&reach);
    let series: Vec<Steps> = runs
        .iter()
        .map(|r| {
            let mut jct: Vec<f64> = r
                .jobs
                .iter()
                .filter_map(|j| j.jct_s)
                .filter(|v| v.is_finite())
                .collect();
            jct.sort_by(f64::total_cmp);
            let n = r.jobs.len().max(1) as f64;
            let points: Vec<(f64, f64)> = if jct.is_empty() {
                Vec::new()
            } else {
                std::iter::once((0.0, 0.0))
                    .chain(
                        jct.iter()
                            .enumerate()
                            .map(|(i, &t)| (t, 100.0 * (i + 1) as f64 / n)),
                    )
                    .collect()
            };
            Steps {
                policy: r.policy,
                points,
                end: t_max * 1.02,
                tip: format!(
                    "{}: {} of {} jobs finished, median JCT {}",
                    r.policy.name(),
                    jct.len(),
                    r.jobs.len(),
                    r.metrics.median_jct_s.map_or("—".into(), duration)
                ),
                data: vec![
                    ("data-finished", jct.len().to_string()),
                    ("data-jobs", r.jobs.len().to_string()),
                ],
            }
        })
        .collect();
    step_chart(
        &StepChart {
            testid: "jct-cdf",
            class: "smd-jct-cdf",
            title: "Job completion times (JCT)",
            y_label: "jobs finished within (%)",
            y_max: 100.0,
            t_max: t_max * 1.02,
            x_label: "JCT",
            off: &off,
            off_words: "has JCTs up to",
        },
        &series,
        opts,
    )
}

/// Total utility per run as bars, with the bound (the runs' `metrics.bound`) marked by a
/// dashed line across; each bar is labelled with its share of the bound.
///
/// Stable hooks: the root carries `data-testid="utility-bound"` and `data-bound`; each
/// run is a `rect.bar` with `data-policy`, `data-utility` and a `<title>`; the bound is a
/// `line.bound` with `data-bound`.
pub fn utility_bound_svg(runs: &[Run], opts: &OverTimeOptions) -> String {
    let bound = runs
        .iter()
        .map(|r| r.metrics.bound)
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let (width, height) = (opts.width.max(320.0), opts.height.max(200.0));
    let plot = Rect {
        x: 62.0,
        y: 36.0,
        width: width - 62.0 - 16.0,
        height: height - 36.0 - 40.0,
    };
    let top = runs
        .iter()
        .map(|r| r.metrics.total_utility)
        .filter(|v| v.is_finite())
        .fold(bound, f64::max);
    let ys = Scale {
        lo: 0.0,
        hi: if top > 0.0 { top * 1.1 } else { 1.0 },
        px: (plot.bottom(), plot.y),
        log: false,
    };
    let mut out = String::with_capacity(4 * 1024);
    let title = "Total utility against the bound";
    root(
        &mut out,
        width,
        height,
        "smd-utility-bound",
        title,
        &[
            ("data-testid", "utility-bound".into()),
            ("data-bound", bound.to_string()),
        ],
    );
    text_at(&mut out, plot.x, 22.0, 14.0, "start", "title", title);
    group(&mut out, "axes");
    let ticks = scale_ticks(&ys, (plot.height / 40.0) as usize);
    Axis::left(plot.x)
        .gap(7.0)
        .grid(plot.right())
        .draw(&mut out, &ticks);
    Axis::bottom(plot.bottom())
        .line(plot.x, plot.right())
        .draw(&mut out, &[]);
    y_title(&mut out, 16.0, plot.y + plot.height / 2.0, "total utility");
    end(&mut out, "g");
    let n = runs.len().max(1) as f64;
    let slot = plot.width / n;
    let bar_w = (slot * 0.6).min(80.0);
    // Names wider than their slot (nine policies in a narrow chart) alternate between two
    // rows, so that neighbours never run into each other.
    let staggered = runs
        .iter()
        .any(|r| text_width(r.policy.name(), 11.0) > slot - 4.0);
    for (i, r) in runs.iter().enumerate() {
        let (colour, _) = policy_style(r.policy);
        let u = r.metrics.total_utility;
        let cx = plot.x + slot * (i as f64 + 0.5);
        let y = ys.to_px(u.max(0.0));
        let share = if bound > 0.0 {
            format!("{}%", fmt_sig(100.0 * u / bound, 3))
        } else {
            "—".into()
        };
        Tag::new(&mut out, "rect")
            .attr("class", "utility-bar")
            .attr("data-policy", r.policy.name())
            .attr("data-utility", u)
            .rect(Rect {
                x: cx - bar_w / 2.0,
                y,
                width: bar_w,
                height: (plot.bottom() - y).max(0.0),
            })
            .attr("fill", colour)
            .titled(
                "rect",
                &format!(
                    "{}: total utility {} ({share} of the bound {})",
                    r.policy.name(),
                    plain_sig(u, 4),
                    plain_sig(bound, 4)
                ),
            );
        text_at(
            &mut out,
            cx,
            y - 5.0,
            10.5,
            "middle",
            "utility-bar-value",
            &share,
        );
        text_at(
            &mut out,
            cx,
            plot.bottom() + if staggered && i % 2 == 1 { 30.0 } else { 16.0 },
            11.0,
            "middle",
            "utility-bar-label",
            r.policy.name(),
        );
    }
    if bound > 0.0 {
        bound_line(&mut out, &plot, &ys, bound);
    }
    if runs.is_empty() {
        centre_note(&mut out, &plot, "no runs");
    }
    end(&mut out, "svg");
    out
}

/// The bound as a dashed line across the plot at its height, with its key at the top right.
fn bound_line(out: &mut String, plot: &Rect, ys: &Scale, bound: f64) {
    let y = ys.to_px(bound);
    Tag::new(out, "line")
        .attr("class", "bound")
        .attr("data-bound", bound)
        .ends(plot.x, y, plot.right(), y)
        .attr("stroke", "#222222")
        .px("stroke-width", 1.5)
        .attr("stroke-dasharray", "6 3")
        .titled("line", &format!("bound: {}", plain_sig(bound, 4)));
    // Its key at the top right, clear of the bars' labels.
    let text = format!("bound {}", plain_sig(bound, 4));
    let x = plot.right() - text_width(&text, 11.0) - 4.0;
    line_key(out, (x - 34.0, 18.0), 28.0, "#222222", 1.5, Some("6 3"));
    text_at(out, x, 22.0, 11.0, "start", "bound-label", &text);
}

/// A note in the middle of an empty plot.
fn centre_note(out: &mut String, plot: &Rect, text: &str) {
    text_at(
        out,
        plot.x + plot.width / 2.0,
        plot.y + plot.height / 2.0,
        13.0,
        "middle",
        "no-data",
        text,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::tests::fixture;

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).expect("the SVG parses")
    }

    fn with_class<'a>(
        doc: &'a roxmltree::Document<'a>,
        class: &'a str,
    ) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect()
    }

    fn runs() -> Vec<Run> {
        let mut bound = fixture(SimPolicy::Bound);
        bound.slots.clear();
        bound.metrics.total_utility = 3.0;
        vec![fixture(SimPolicy::Fifo), fixture(SimPolicy::Smd), bound]
    }

    /// A typed policy's run leaves idle ticks out of its slots: its mean use is over its
    /// time, the ticks left out (and those before its first slot) unused.
    #[test]
    fn usage_means_over_the_run_s_time() {
        let mut run = fixture(SimPolicy::Sia);
        // Ticks of 1800 s at 1800 s (9 of 12 GPUs) and 7200 s (3 of 12): the run ends at
        // 9000 s, the GPUs used for 9 × 1800 + 3 × 1800 GPU-seconds.
        run.slots.remove(2);
        run.slots.remove(0);
        run.slots[1].start_s = 7200.0;
        run.slots[1].used.gpu = 3.0;
        let cap = Resources {
            gpu: 12.0,
            ..Resources::default()
        };
        let doc_svg = usage_svg(&[run], &cap, &OverTimeOptions::default());
        let doc = parse(&doc_svg);
        let series = with_class(&doc, "series");
        let mean: f64 = series[0].attribute("data-mean").unwrap().parse().unwrap();
        let want = (9.0 + 3.0) * 1800.0 / (12.0 * 9000.0);
        assert!((mean - want).abs() < 1e-12, "{mean}, want {want}");
    }

    #[test]
    fn usage_has_a_line_per_run_with_slots() {
        let cap = Resources {
            gpu: 12.0,
            vcpu: 100.0,
            ..Resources::default()
        };
        let svg = usage_svg(&runs(), &cap, &OverTimeOptions::default());
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("data-testid"), Some("usage-chart"));
        assert_eq!(root.attribute("data-resource"), Some("GPU"));
        let series = with_class(&doc, "series");
        assert_eq!(series.len(), 2, "bound has no slots");
        assert_eq!(series[0].attribute("data-policy"), Some("fifo"));
        assert_eq!(series[0].attribute("data-slots"), Some("4"));
        let mean: f64 = series[0].attribute("data-mean").unwrap().parse().unwrap();
        assert!((mean - 13.0 / 48.0).abs() < 1e-12, "{mean}");
        assert_eq!(with_class(&doc, "line").len(), 2);
        // The policies keep their colours across charts.
        let stroke = with_class(&doc, "line")[1].attribute("stroke").unwrap();
        assert_eq!(stroke, policy_style(SimPolicy::Smd).0);
        // Without GPUs: vCPUs.
        let svg = usage_svg(&runs(), &Resources::default(), &OverTimeOptions::default());
        assert!(svg.contains("data-resource=\"vCPU\""));
    }

    #[test]
    fn the_cdf_counts_finished_jobs_of_all() {
        let svg = jct_cdf_svg(&runs(), &OverTimeOptions::default());
        let doc = parse(&svg);
        assert_eq!(doc.root_element().attribute("data-testid"), Some("jct-cdf"));
        let series = with_class(&doc, "series");
        assert_eq!(series.len(), 3);
        assert_eq!(series[0].attribute("data-finished"), Some("2"));
        assert_eq!(series[0].attribute("data-jobs"), Some("3"));
        // (0, 0), then two steps: M, then H…V twice, then the final H.
        let d = with_class(&doc, "line")[0].attribute("d").unwrap();
        assert_eq!(d.matches('V').count(), 2, "{d}");
        // A run where nothing finished has no line.
        let mut none = fixture(SimPolicy::Oasis);
        for j in &mut none.jobs {
            j.jct_s = None;
        }
        let svg = jct_cdf_svg(&[none], &OverTimeOptions::default());
        let doc = parse(&svg);
        assert_eq!(with_class(&doc, "line").len(), 0);
        assert_eq!(with_class(&doc, "no-data").len(), 1);
    }

    #[test]
    fn a_bar_per_run_and_the_bound_marked() {
        let svg = utility_bound_svg(&runs(), &OverTimeOptions::default());
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("data-testid"), Some("utility-bound"));
        assert_eq!(root.attribute("data-bound"), Some("3"));
        let bars = with_class(&doc, "utility-bar");
        assert_eq!(bars.len(), 3);
        assert_eq!(bars[2].attribute("data-policy"), Some("bound"));
        assert_eq!(with_class(&doc, "bound").len(), 1);
        let values: Vec<_> = with_class(&doc, "utility-bar-value")
            .iter()
            .map(|n| n.text().unwrap().to_owned())
            .collect();
        assert_eq!(values, ["66.7%", "66.7%", "100%"]);
        // The bound is the line at the bound policy's bar top.
        let line = with_class(&doc, "bound")[0];
        assert_eq!(line.attribute("y1"), bars[2].attribute("y"));
        let empty = utility_bound_svg(&[], &OverTimeOptions::default());
        assert_eq!(with_class(&parse(&empty), "no-data").len(), 1);
    }

    /// Every policy in a narrow chart: names in rows, and no two names on a row overlap
    /// (by the same width estimate the chart lays them out with).
    #[test]
    fn every_bar_keeps_its_name_apart() {
        let runs: Vec<Run> = SimPolicy::ALL.iter().map(|&p| fixture(p)).collect();
        let opts = OverTimeOptions {
            width: 520.0,
            ..OverTimeOptions::default()
        };
        let svg = utility_bound_svg(&runs, &opts);
        let doc = parse(&svg);
        let labels: Vec<(f64, f64, String)> = with_class(&doc, "utility-bar-label")
            .iter()
            .map(|n| {
                let x: f64 = n.attribute("x").unwrap().parse().unwrap();
                let y: f64 = n.attribute("y").unwrap().parse().unwrap();
                (x, y, n.text().unwrap().to_owned())
            })
            .collect();
        assert_eq!(labels.len(), SimPolicy::ALL.len());
        for (i, a) in labels.iter().enumerate() {
            for b in &labels[i + 1..] {
                if a.1 == b.1 {
                    let gap = (b.0 - a.0).abs();
                    let need = (text_width(&a.2, 11.0) + text_width(&b.2, 11.0)) / 2.0;
                    assert!(gap >= need, "{} and {} overlap", a.2, b.2);
                }
            }
        }
    }

    /// `policy`'s fixture with every time stretched `k` times.
    fn stretched(policy: SimPolicy, k: f64) -> Run {
        let mut r = fixture(policy);
        r.slot_s *= k;
        for s in &mut r.slots {
            s.start_s *= k;
        }
        for j in &mut r.jobs {
            j.arrival_s *= k;
            j.first_start_s = j.first_start_s.map(|v| v * k);
            j.completion_s = j.completion_s.map(|v| v * k);
            j.jct_s = j.jct_s.map(|v| v * k);
            for s in &mut j.segments {
                s.start_s *= k;
                s.end_s *= k;
            }
        }
        r
    }

    /// The right end of a series' line, px (its path's last `H`).
    fn line_end(doc: &roxmltree::Document, policy: &str) -> f64 {
        let g = with_class(doc, "series")
            .into_iter()
            .find(|g| g.attribute("data-policy") == Some(policy))
            .unwrap();
        let d = g
            .descendants()
            .find(|n| n.attribute("class") == Some("line"))
            .unwrap()
            .attribute("d")
            .unwrap();
        d.rsplit('H').next().unwrap().parse().unwrap()
    }

    /// One run twenty times as long as the others: the time axes end at the others'
    /// reach, so their lines span the plot, and a note says the far run is off the chart.
    #[test]
    fn a_far_run_is_left_off_the_time_axis_and_named() {
        let runs = vec![
            fixture(SimPolicy::Fifo),
            fixture(SimPolicy::Smd),
            stretched(SimPolicy::Oasis, 20.0),
        ];
        let cap = Resources {
            gpu: 12.0,
            ..Resources::default()
        };
        let opts = OverTimeOptions::default();
        for (svg, words) in [
            (
                usage_svg(&runs, &cap, &opts),
                "oasis runs to 40.00 h, off the chart",
            ),
            (
                jct_cdf_svg(&runs, &opts),
                "oasis has JCTs up to 28.33 h, off the chart",
            ),
        ] {
            let doc = parse(&svg);
            let note: Vec<_> = with_class(&doc, "off-chart")
                .iter()
                .map(|n| n.text().unwrap().to_owned())
                .collect();
            assert_eq!(note, [words]);
            let off: Vec<_> = with_class(&doc, "series")
                .iter()
                .filter(|g| g.attribute("data-off-chart").is_some())
                .map(|g| g.attribute("data-policy").unwrap())
                .collect();
            assert_eq!(off, ["oasis"]);
            // fifo's line ends at the plot's right edge, where oasis' is cut.
            let (fifo, oasis) = (line_end(&doc, "fifo"), line_end(&doc, "oasis"));
            assert!(
                (fifo - oasis).abs() < 1.0,
                "fifo ends at {fifo}, oasis at {oasis}"
            );
        }
        // Runs alike stay whole: no note.
        let near = vec![
            fixture(SimPolicy::Fifo),
            fixture(SimPolicy::Smd),
            stretched(SimPolicy::Oasis, 1.4),
        ];
        let svg = usage_svg(&near, &cap, &opts);
        let doc = parse(&svg);
        assert!(with_class(&doc, "off-chart").is_empty());
        // Two runs: neither is left off, however far apart.
        let two = vec![fixture(SimPolicy::Fifo), stretched(SimPolicy::Oasis, 20.0)];
        let svg = jct_cdf_svg(&two, &opts);
        let doc = parse(&svg);
        assert!(with_class(&doc, "off-chart").is_empty());
    }

    #[test]
    fn charts_of_no_runs_parse() {
        for svg in [
            usage_svg(&[], &Resources::default(), &OverTimeOptions::default()),
            jct_cdf_svg(&[], &OverTimeOptions::default()),
        ] {
            let doc = parse(&svg);
            assert_eq!(with_class(&doc, "series").len(), 0);
        }
    }
}
