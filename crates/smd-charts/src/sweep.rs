//! Charts of a capacity sweep (`smd_sweep::Report`, docs/MODEL.md §19): a quantity of
//! every policy against the cluster's size, one line with markers per policy — total
//! utility with the knee marked, admitted jobs, the use of one resource, and over time
//! the simulated utility, mean JCT and mean queueing. A policy keeps its colour, dash and
//! marker across these charts (its place in `Policy::ALL`, or for a policy over time its
//! style in the simulation charts).

use crate::axes::{count_ticks, framed_axes, scale_ticks};
use crate::format::{duration, fmt_sig, plain_sig};
use crate::legend::{column_width, line_key, plot_beside, Legend};
use crate::marker::{self, Shape};
use crate::palette::series_style;
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{broken_line, end, group, root, text_at, text_width, titled_group, Px, Tag};
use smd_core::scenario::Resource;
use smd_core::Policy;
use smd_sim::SimPolicy;
use smd_sweep::{Axis as SizeAxis, Knee, PointResult, Report, KNEE_SHARE};
use std::fmt::Display;

/// What a sweep chart plots against the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepMetric {
    /// Each static policy's total utility, the knee marked (`data-testid="sweep-chart"`).
    Utility,
    /// Each static policy's admitted jobs (`sweep-admitted`).
    Admitted,
    /// Each static policy's use of a resource, % of the cluster's capacity at that size
    /// (`sweep-use`); `None`: [`use_resource`]'s.
    Use(Option<Resource>),
    /// Each policy over time: its simulated total utility, `bound` dashed in grey, the
    /// knee over time marked (`sweep-over-time-chart`).
    OverTimeUtility,
    /// Each policy over time: the mean JCT of its finished jobs (`sweep-jct`).
    MeanJct,
    /// Each policy over time: the mean wait before a job's first start (`sweep-queue`).
    MeanQueue,
    /// Each policy over time: the 95th percentile of its JCTs (`sweep-p95`).
    P95Jct,
    /// Each policy over time: jobs finished (`sweep-finished`).
    Finished,
    /// Each policy over time: GPU-hours held (`sweep-gpu-hours`).
    GpuHours,
    /// Each policy over time: what renting the cluster costs for the run (`sweep-cost`).
    Cost,
    /// Each policy over time: the mean cost of a job's GPUs (`sweep-cost-per-job`).
    CostPerJob,
}

impl SweepMetric {
    /// The chart's `data-testid`.
    pub fn testid(self) -> &'static str {
        match self {
            SweepMetric::Utility => "sweep-chart",
            SweepMetric::Admitted => "sweep-admitted",
            SweepMetric::Use(_) => "sweep-use",
            SweepMetric::OverTimeUtility => "sweep-over-time-chart",
            SweepMetric::MeanJct => "sweep-jct",
            SweepMetric::MeanQueue => "sweep-queue",
            SweepMetric::P95Jct => "sweep-p95",
            SweepMetric::Finished => "sweep-finished",
            SweepMetric::GpuHours => "sweep-gpu-hours",
            SweepMetric::Cost => "sweep-cost",
            SweepMetric::CostPerJob => "sweep-cost-per-job",
        }
    }

    /// The chart of a planner's metric (`smd_sweep::Metric`): utility is the static
    /// plans' chart, the others are over time.
    pub fn of(metric: smd_sweep::Metric) -> SweepMetric {
        use smd_sweep::Metric as M;
        match metric {
            M::MeanJct => SweepMetric::MeanJct,
            M::P95Jct => SweepMetric::P95Jct,
            M::MeanQueue => SweepMetric::MeanQueue,
            M::Finished => SweepMetric::Finished,
            M::Utility => SweepMetric::Utility,
            M::GpuHours => SweepMetric::GpuHours,
            M::Cost => SweepMetric::Cost,
            M::CostPerJob => SweepMetric::CostPerJob,
        }
    }
}

/// Size of a sweep chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepOptions {
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions {
            width: 640.0,
            height: 360.0,
        }
    }
}

/// The resource [`SweepMetric::Use`] shows by default: the one swept, else the one most
/// in use — the largest share of capacity summed over every size and policy, the
/// resource that binds — (GPUs when nothing is used).
pub fn use_resource(report: &Report) -> Resource {
    if let Some(r) = report.points.first().and_then(|p| p.resource) {
        return r;
    }
    let share = |r: Resource| -> f64 {
        report
            .points
            .iter()
            .filter(|p| p.capacity[r] > 0.0)
            .flat_map(|p| {
                p.policies
                    .iter()
                    .map(move |(_, o)| o.used[r] / p.capacity[r])
            })
            .filter(|v| v.is_finite())
            .sum()
    };
    Resource::ALL
        .iter()
        .copied()
        .map(|r| (r, share(r)))
        .fold(
            (Resource::Gpu, 0.0),
            |best, x| if x.1 > best.1 { x } else { best },
        )
        .0
}

/// A static policy's colour, dash pattern and marker: its place in [`Policy::ALL`].
pub fn planner_style(p: Policy) -> (&'static str, &'static str, Shape) {
    series_style(Policy::ALL.iter().position(|&q| q == p).unwrap_or(0))
}

/// A policy over time's style: as in the simulation charts, `bound` in dark grey.
fn sim_style(p: SimPolicy) -> (&'static str, &'static str, Shape) {
    if p == SimPolicy::Bound {
        return ("#555555", "6 3", Shape::Cross);
    }
    series_style(SimPolicy::ALL.iter().position(|&q| q == p).unwrap_or(0))
}

/// One policy's line: a value (or none, which breaks the line) per point.
struct Line {
    name: &'static str,
    style: (&'static str, &'static str, Shape),
    values: Vec<Option<f64>>,
    /// A point's tooltip after "name at size: ".
    tips: Vec<String>,
}

/// The lines of `metric`, the y axis' title and whether values are percentages.
fn lines(report: &Report, metric: SweepMetric) -> (Vec<Line>, String) {
    match metric {
        SweepMetric::Utility | SweepMetric::Admitted | SweepMetric::Use(_) => {
            static_lines(report, metric)
        }
        _ => time_lines(report, metric),
    }
}

/// The static policies' lines of `metric` (a static metric).
fn static_lines(report: &Report, metric: SweepMetric) -> (Vec<Line>, String) {
    let pts = &report.points;
    let planners: Vec<Policy> = pts
        .first()
        .map(|p| p.policies.iter().map(|(q, _)| *q).collect())
        .unwrap_or_default();
    let planner = |k: usize, f: &dyn Fn(&PointResult, &smd_sweep::Outcome) -> (f64, String)| {
        let p = planners[k];
        let (values, tips) = pts
            .iter()
            .map(|r| match r.policies.get(k) {
                Some((q, o)) if *q == p => {
                    let (v, tip) = f(r, o);
                    (Some(v).filter(|v| v.is_finite()), tip)
                }
                _ => (None, "—".into()),
            })
            .unzip();
        Line {
            name: p.name(),
            style: planner_style(p),
            values,
            tips,
        }
    };
    match metric {
        SweepMetric::Utility => (
            (0..planners.len())
                .map(|k| {
                    planner(k, &|_, o| {
                        let gap = o
                            .gap
                            .map(|g| format!(", not proven (gap {}%)", fmt_sig(100.0 * g, 2)))
                            .unwrap_or_default();
                        (
                            o.total_utility,
                            format!(
                                "total utility {}, {} admitted{gap}",
                                plain_sig(o.total_utility, 5),
                                o.admitted
                            ),
                        )
                    })
                })
                .collect(),
            "total utility".into(),
        ),
        SweepMetric::Admitted => (
            (0..planners.len())
                .map(|k| {
                    planner(k, &|_, o| {
                        (o.admitted as f64, format!("{} jobs admitted", o.admitted))
                    })
                })
                .collect(),
            "admitted jobs".into(),
        ),
        SweepMetric::Use(resource) => {
            let r = resource.unwrap_or_else(|| use_resource(report));
            (
                (0..planners.len())
                    .map(|k| {
                        planner(k, &|p, o| {
                            let cap = p.capacity[r];
                            let share = if cap > 0.0 {
                                100.0 * o.used[r] / cap
                            } else {
                                f64::NAN
                            };
                            (
                                share,
                                format!(
                                    "{} of {} {} in use ({}%)",
                                    plain_sig(o.used[r], 4),
                                    plain_sig(cap, 4),
                                    r.unit(),
                                    fmt_sig(share, 3)
                                ),
                            )
                        })
                    })
                    .collect(),
                format!("{} in use (% of capacity)", r.title()),
            )
        }
        // Over-time metrics are drawn by time_lines.
        _ => (Vec::new(), String::new()),
    }
}

/// The over-time policies' lines of `metric` (an over-time metric); the bound has no JCT.
fn time_lines(report: &Report, metric: SweepMetric) -> (Vec<Line>, String) {
    let pts = &report.points;
    let sims: Vec<SimPolicy> = pts
        .first()
        .map(|p| p.over_time.iter().map(|(q, _)| *q).collect())
        .unwrap_or_default();
    type TimeValue<'a> = &'a dyn Fn(&smd_sweep::TimeOutcome) -> (Option<f64>, String);
    let sim = |k: usize, f: TimeValue| {
        let p = sims[k];
        let (values, tips) = pts
            .iter()
            .map(|r| match r.over_time.get(k) {
                Some((q, o)) if *q == p => {
                    let (v, tip) = f(o);
                    (v.filter(|v| v.is_finite()), tip)
                }
                _ => (None, "—".into()),
            })
            .unzip();
        Line {
            name: p.name(),
            style: sim_style(p),
            values,
            tips,
        }
    };
    let no_bound = |k: &usize| sims[*k] != SimPolicy::Bound;
    // A duration per policy, in hours on the axis and in its best unit in the tooltip.
    let hours = |f: &dyn Fn(&smd_sweep::TimeOutcome) -> Option<f64>, what: &str| {
        (
            (0..sims.len())
                .filter(no_bound)
                .map(|k| {
                    sim(k, &|o| {
                        (
                            f(o).map(|s| s / 3600.0),
                            format!(
                                "{what} {} ({} finished)",
                                f(o).map_or("—".into(), duration),
                                o.finished
                            ),
                        )
                    })
                })
                .collect::<Vec<Line>>(),
            format!("{what} (h)"),
        )
    };
    match metric {
        SweepMetric::OverTimeUtility => (
            (0..sims.len())
                .map(|k| {
                    sim(k, &|o| {
                        (
                            Some(o.total_utility),
                            format!(
                                "total utility {} of the bound's {}, {} finished",
                                plain_sig(o.total_utility, 5),
                                plain_sig(o.bound, 5),
                                o.finished
                            ),
                        )
                    })
                })
                .collect(),
            "total utility over time".into(),
        ),
        SweepMetric::MeanJct => hours(&|o| o.mean_jct_s, "mean JCT"),
        SweepMetric::MeanQueue => hours(&|o| o.mean_queue_s, "mean queue"),
        SweepMetric::P95Jct => hours(&|o| o.p95_jct_s, "p95 JCT"),
        SweepMetric::Finished => (
            (0..sims.len())
                .filter(no_bound)
                .map(|k| {
                    sim(k, &|o| {
                        (
                            Some(o.finished as f64),
                            format!("{} jobs finished", o.finished),
                        )
                    })
                })
                .collect(),
            "jobs finished".into(),
        ),
        SweepMetric::GpuHours => (
            (0..sims.len())
                .filter(no_bound)
                .map(|k| {
                    sim(k, &|o| {
                        (
                            Some(o.gpu_hours),
                            format!("{} GPU-hours", plain_sig(o.gpu_hours, 4)),
                        )
                    })
                })
                .collect(),
            "GPU-hours".into(),
        ),
        SweepMetric::Cost => (
            (0..sims.len())
                .filter(no_bound)
                .map(|k| {
                    sim(k, &|o| {
                        (o.cost_usd, smd_format::usd(o.cost_usd.unwrap_or(f64::NAN)))
                    })
                })
                .collect(),
            "cost, USD".into(),
        ),
        SweepMetric::CostPerJob => (
            (0..sims.len())
                .filter(no_bound)
                .map(|k| {
                    sim(k, &|o| {
                        (
                            o.cost_per_job_usd,
                            smd_format::usd(o.cost_per_job_usd.unwrap_or(f64::NAN)),
                        )
                    })
                })
                .collect(),
            "cost per job, USD".into(),
        ),
        // Static metrics are drawn by static_lines.
        _ => (Vec::new(), String::new()),
    }
}

/// The chart's title.
fn title(metric: SweepMetric, report: &Report) -> String {
    let what = match metric {
        SweepMetric::Utility => "Total utility",
        SweepMetric::Admitted => "Admitted jobs",
        SweepMetric::Use(r) => {
            return format!(
                "Use of {} against {}",
                r.unwrap_or_else(|| use_resource(report)).title(),
                size_title(report)
            );
        }
        SweepMetric::OverTimeUtility => "Over time: total utility",
        SweepMetric::MeanJct => "Over time: mean JCT",
        SweepMetric::MeanQueue => "Over time: mean queueing",
        SweepMetric::P95Jct => "Over time: p95 JCT",
        SweepMetric::Finished => "Over time: jobs finished",
        SweepMetric::GpuHours => "Over time: GPU-hours",
        SweepMetric::Cost => "Over time: cost of the run (USD)",
        SweepMetric::CostPerJob => "Over time: cost per job (USD)",
    };
    format!("{what} against {}", size_title(report))
}

/// What the sizes count, for titles: `cluster units`, `t4x4 machines`, and with one
/// resource `GPUs (cluster units)`.
fn size_title(report: &Report) -> String {
    let k = &report.knee;
    let counted = match (k.axis, &k.machine) {
        (SizeAxis::Units, _) => "cluster units".to_owned(),
        (SizeAxis::Machines, Some(m)) => format!("{m} machines"),
        (SizeAxis::Machines, None) => "machines".to_owned(),
    };
    match k.resource {
        Some(r) => format!("{} ({counted})", r.unit()),
        None => counted,
    }
}

/// The x axis' title: the size, and with one resource how much of it a unit of size is.
fn x_label(report: &Report) -> String {
    let k = &report.knee;
    let counted = match (k.axis, &k.machine) {
        (SizeAxis::Units, _) => "cluster units".to_owned(),
        (SizeAxis::Machines, Some(m)) => format!("{m} machines"),
        (SizeAxis::Machines, None) => "machines".to_owned(),
    };
    match (k.resource, k.amount_step) {
        (Some(r), Some(a)) => format!(
            "{counted}, only {}: 1 = {} {}",
            r.title(),
            plain_sig(a, 4),
            r.unit()
        ),
        (Some(r), None) => format!("{counted}, only {}", r.title()),
        _ => counted,
    }
}

/// A size in words for a label: `2.5 units`, `8 t4x4 machines`.
fn size_words(report: &Report, size: f64) -> String {
    let k = &report.knee;
    let n = plain_sig(size, 6);
    let s = if size == 1.0 { "" } else { "s" };
    match (k.axis, &k.machine) {
        (SizeAxis::Units, _) => format!("{n} unit{s}"),
        (SizeAxis::Machines, Some(m)) => format!("{n} {m} machine{s}"),
        (SizeAxis::Machines, None) => format!("{n} machine{s}"),
    }
}

/// The knee a metric marks.
fn knee_of(report: &Report, metric: SweepMetric) -> Option<&Knee> {
    match metric {
        SweepMetric::Utility => Some(&report.knee),
        SweepMetric::OverTimeUtility => report.over_time_knee.as_ref(),
        _ => None,
    }
}

/// The chart of `metric` as a standalone SVG document.
///
/// Stable hooks: the root carries `data-testid` ([`SweepMetric::testid`]), `data-metric`,
/// `data-axis`, `data-points`, `data-log` (a logarithmic y axis, [`log_axis`]), and on the utility charts `data-knee` (the knee's size,
/// empty without one) and `data-best-policy`; each policy is a `g.series` with
/// `data-policy`, holding a `path.line` and one `g.point` per size with a value —
/// `data-size`, `data-value` (exactly as computed), `data-px` and `data-py` (where it is
/// drawn, px) and a
/// `<title>`; the knee is a `line.knee` with `data-size`, labelled by `text.knee-label`,
/// and the level of [`KNEE_SHARE`] of the achievable utility a `line.knee-share`.
pub fn sweep_svg(report: &Report, metric: SweepMetric, opts: &SweepOptions) -> String {
    let (lines, y_label) = lines(report, metric);
    let sizes: Vec<f64> = report.points.iter().map(|p| p.size.value()).collect();
    let names: Vec<&str> = lines.iter().map(|l| l.name).collect();
    let (width, height) = (opts.width.max(320.0), opts.height.max(200.0));
    let plot = plot_beside(width, height, &names, 66.0, 50.0);
    let (lo, hi) = match (sizes.first(), sizes.last()) {
        (Some(&a), Some(&b)) if b > a => {
            let pad = (b - a) * 0.03;
            (a - pad, b + pad)
        }
        (Some(&a), _) => (a - 0.5, a + 0.5),
        _ => (0.0, 1.0),
    };
    let xs = Scale {
        lo,
        hi,
        px: (plot.x, plot.right()),
        log: false,
    };
    let percent = matches!(metric, SweepMetric::Use(_));
    let top = lines
        .iter()
        .flat_map(|l| l.values.iter().flatten().copied())
        .fold(if percent { 100.0 } else { 0.0 }, f64::max);
    let least = lines
        .iter()
        .flat_map(|l| l.values.iter().flatten().copied())
        .filter(|v| *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let log = log_axis(metric, least, top);
    let ys = if log {
        Scale {
            lo: least / 1.25,
            hi: top * 1.25,
            px: (plot.bottom(), plot.y),
            log: true,
        }
    } else {
        Scale {
            lo: 0.0,
            hi: if top > 0.0 { top * 1.06 } else { 1.0 },
            px: (plot.bottom(), plot.y),
            log: false,
        }
    };
    let y_label = if log {
        format!("{y_label}, log scale")
    } else {
        y_label
    };
    let knee = knee_of(report, metric);
    let title = title(metric, report);
    let mut attrs: Vec<(&str, String)> = vec![
        ("data-testid", metric.testid().into()),
        ("data-metric", metric_name(metric).into()),
        ("data-axis", report.knee.axis.name().into()),
        ("data-points", sizes.len().to_string()),
        ("data-log", log.to_string()),
    ];
    if let Some(k) = knee {
        attrs.push(("data-knee", k.size.map_or(String::new(), |s| s.to_string())));
        attrs.push((
            "data-best-policy",
            k.best_policy.clone().unwrap_or_default(),
        ));
    }
    let mut out = String::with_capacity(16 * 1024);
    root(&mut out, width, height, "smd-sweep", &title, &attrs);
    text_at(&mut out, plot.x, 22.0, 14.0, "start", "title", &title);
    let y_ticks = scale_ticks(&ys, (plot.height / 40.0) as usize);
    let target = (plot.width / 70.0) as usize;
    let x_ticks = if report.knee.axis == SizeAxis::Machines {
        count_ticks(&sizes, target, |v| xs.to_px(v))
    } else {
        scale_ticks(&xs, target)
    };
    framed_axes(
        &mut out,
        plot,
        height,
        (&y_ticks, &x_ticks),
        (&x_label(report), &y_label),
    );
    if let Some(k) = knee {
        // The lines drawn, in px: the knee's label keeps clear of them.
        let drawn: Vec<Vec<Option<(f64, f64)>>> = lines
            .iter()
            .map(|l| {
                sizes
                    .iter()
                    .zip(&l.values)
                    .map(|(s, v)| v.map(|v| (xs.to_px(*s), ys.to_px(v))))
                    .collect()
            })
            .collect();
        knee_marks(&mut out, report, k, (&xs, &ys), &plot, &drawn);
    }
    if lines.iter().all(|l| l.values.iter().all(Option::is_none)) {
        text_at(
            &mut out,
            plot.x + plot.width / 2.0,
            plot.y + plot.height / 2.0,
            13.0,
            "middle",
            "no-data",
            "no data",
        );
    }
    for l in &lines {
        line(&mut out, report, l, &sizes, &xs, &ys);
    }
    group(&mut out, "legend");
    let mut legend =
        Legend::column(width - column_width(&names), plot.y + 8.0, 20.0).key_width(36.0);
    for l in &lines {
        let (colour, dash, shape) = l.style;
        let (x, y) = legend.key();
        line_key(
            &mut out,
            (x, y),
            30.0,
            colour,
            2.0,
            (dash != "none").then_some(dash),
        );
        marker::draw(&mut out, shape, x + 15.0, y, 4.0, colour, true);
        legend.label(&mut out, l.name);
    }
    end(&mut out, "g");
    end(&mut out, "svg");
    out
}

/// Whether the y axis is logarithmic: for the over-time quantities (times, GPU-hours)
/// whose positive values span more than ten times — one policy far off would flatten the
/// others on a linear axis (issue 27). Counts, shares and utilities stay linear.
pub fn log_axis(metric: SweepMetric, least: f64, most: f64) -> bool {
    matches!(
        metric,
        SweepMetric::MeanJct
            | SweepMetric::MeanQueue
            | SweepMetric::P95Jct
            | SweepMetric::GpuHours
            | SweepMetric::Cost
            | SweepMetric::CostPerJob
    ) && least.is_finite()
        && least > 0.0
        && most > 10.0 * least
}

/// The metric's name in `data-metric`.
fn metric_name(metric: SweepMetric) -> &'static str {
    match metric {
        SweepMetric::Utility => "utility",
        SweepMetric::Admitted => "admitted",
        SweepMetric::Use(_) => "use",
        SweepMetric::OverTimeUtility => "over-time-utility",
        SweepMetric::MeanJct => "mean-jct",
        SweepMetric::MeanQueue => "mean-queue",
        SweepMetric::P95Jct => "p95-jct",
        SweepMetric::Finished => "finished",
        SweepMetric::GpuHours => "gpu-hours",
        SweepMetric::Cost => "cost",
        SweepMetric::CostPerJob => "cost-per-job",
    }
}

/// The knee: a dashed vertical rule at its size with a label, and a dotted level at
/// [`KNEE_SHARE`] of the achievable utility. Nothing without a knee.
fn knee_marks(
    out: &mut String,
    report: &Report,
    k: &Knee,
    (xs, ys): (&Scale, &Scale),
    plot: &Rect,
    drawn: &[Vec<Option<(f64, f64)>>],
) {
    let (Some(size), Some(best)) = (k.size, &k.best_policy) else {
        return;
    };
    let x = xs.to_px(size);
    let level = ys.to_px(KNEE_SHARE * k.max_utility);
    Tag::new(out, "line")
        .attr("class", "knee-share")
        .ends(plot.x, level, plot.right(), level)
        .attr("stroke", "#888888")
        .attr("stroke-dasharray", "2 3")
        .titled(
            "line",
            &format!(
                "{:.0}% of {best}'s {} at the largest size",
                KNEE_SHARE * 100.0,
                plain_sig(k.max_utility, 5)
            ),
        );
    Tag::new(out, "line")
        .attr("class", "knee")
        .attr("data-size", size)
        .ends(x, plot.y, x, plot.bottom())
        .attr("stroke", "#222222")
        .px("stroke-width", 1.5)
        .attr("stroke-dasharray", "6 3")
        .titled("line", &k.answer);
    let label = format!("knee: {}", size_words(report, size));
    let level_line = [Some((plot.x, level)), Some((plot.right(), level))];
    let (lx, ly, anchor) = knee_label_at(x, text_width(&label, 11.0), plot, drawn, &level_line);
    text_at(out, lx, ly, 11.0, anchor, "knee-label", &label);
}

/// Where the knee's label goes (x, baseline y, anchor) beside the rule at `x`, `width`
/// wide: the highest place, right of the rule where it fits, else left, whose box no line
/// of `drawn` nor the `level` line crosses (the bound's line runs along the top); the
/// place crossed least when every place is.
fn knee_label_at(
    x: f64,
    width: f64,
    plot: &Rect,
    drawn: &[Vec<Option<(f64, f64)>>],
    level: &[Option<(f64, f64)>],
) -> (f64, f64, &'static str) {
    let mut sides = Vec::new();
    if plot.right() - x >= width + 8.0 {
        sides.push((x + 5.0, "start"));
    }
    if x - plot.x >= width + 8.0 || sides.is_empty() {
        sides.push((x - 5.0, "end"));
    }
    let mut best: Option<(usize, (f64, f64, &'static str))> = None;
    let mut y = plot.y + 14.0;
    while y <= plot.bottom() - 4.0 {
        for &(lx, anchor) in &sides {
            let r = label_box(lx, y, width, anchor);
            let hits = drawn
                .iter()
                .map(Vec::as_slice)
                .chain([level])
                .map(|l| polyline_hits(l, &r))
                .sum::<usize>();
            if hits == 0 {
                return (lx, y, anchor);
            }
            if best.is_none_or(|(h, _)| hits < h) {
                best = Some((hits, (lx, y, anchor)));
            }
        }
        y += 8.0;
    }
    best.map_or((sides[0].0, plot.y + 14.0, sides[0].1), |b| b.1)
}

/// The box of an 11 px label at baseline `y` (with 2 px to spare on each side).
fn label_box(x: f64, y: f64, width: f64, anchor: &str) -> Rect {
    let left = if anchor == "end" { x - width } else { x };
    Rect {
        x: left - 2.0,
        y: y - 11.0,
        width: width + 4.0,
        height: 15.0,
    }
}

/// How many segments of the polyline `points` (lifted over a `None`) cross `r`.
fn polyline_hits(points: &[Option<(f64, f64)>], r: &Rect) -> usize {
    points
        .windows(2)
        .filter(|w| match (w[0], w[1]) {
            (Some(a), Some(b)) => segment_crosses(a, b, r),
            _ => false,
        })
        .count()
}

/// Whether the segment `a`–`b` has a point inside `r` (Liang–Barsky clipping).
fn segment_crosses(a: (f64, f64), b: (f64, f64), r: &Rect) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r.x),
        (dx, r.right() - a.0),
        (-dy, a.1 - r.y),
        (dy, r.bottom() - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// One policy's line and markers.
fn line(out: &mut String, report: &Report, l: &Line, sizes: &[f64], xs: &Scale, ys: &Scale) {
    let (colour, dash, shape) = l.style;
    Tag::new(out, "g")
        .attr("class", "series")
        .attr("data-policy", l.name)
        .open();
    let points = sizes
        .iter()
        .zip(&l.values)
        .map(|(s, v)| v.map(|v| (xs.to_px(*s), ys.to_px(v))));
    broken_line(out, points, colour, dash, 1.8);
    for ((s, v), tip) in sizes.iter().zip(&l.values).zip(&l.tips) {
        let Some(v) = v else { continue };
        let (x, y) = (xs.to_px(*s), ys.to_px(*v));
        let (px, py) = (Px(x), Px(y));
        let data: [(&str, &dyn Display); 4] = [
            ("data-size", s),
            ("data-value", v),
            ("data-px", &px),
            ("data-py", &py),
        ];
        let tip = format!("{} at {}: {tip}", l.name, size_words(report, *s));
        titled_group(out, "point", &data, &tip, |out| {
            marker::draw(out, shape, x, y, 3.5, colour, true)
        });
    }
    end(out, "g");
}

#[cfg(test)]
mod tests;
