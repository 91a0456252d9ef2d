//! What-ifs in a planner's terms (docs/MODEL.md §19.1, issue 27): a sweep read for one
//! metric under one policy — "24 t4x4 machines halve the mean JCT under pollux (1.14 h →
//! 0.55 h)" — instead of the knee of utility.
//!
//! A metric where less is better (JCT, queueing, GPU-hours) is answered by the fewest
//! sizes that halve it from the current size; one where more is better (finished jobs,
//! utility) by the fewest that reach the most the sweep saw. Either way the answer names
//! the policy it assumes (the one given, or the best for the metric at the current size)
//! and says where the metric moves the wrong way as the cluster grows.

use crate::axis::Axis;
use crate::evaluate::{PointResult, TimeOutcome};
use serde::{Deserialize, Serialize};
use smd_format::duration;

/// A quantity a sweep can be asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Mean job completion time over the finished jobs (over time).
    MeanJct,
    /// 95th percentile of the JCTs (over time).
    P95Jct,
    /// Mean wait from arrival to first start (over time).
    MeanQueue,
    /// Jobs finished (over time).
    Finished,
    /// Total utility: of the static plan, or over time when the sweep runs over time.
    Utility,
    /// GPU-hours held over the run (over time): each slot's GPUs in use × its length.
    GpuHours,
    /// What renting the cluster costs until the jobs are done (over time; machines with
    /// an hourly price): its $/hour × the run's length.
    Cost,
    /// What each job's GPUs cost, on average over the jobs that ran (over time; machines
    /// with an hourly price): the GPU-hours it ran on each type × that type's price per
    /// GPU-hour (docs/MODEL.md §25.1).
    CostPerJob,
}

smd_core::named!(Metric, "metric" {
    MeanJct => "mean_jct",
    P95Jct => "p95_jct",
    MeanQueue => "mean_queue",
    Finished => "finished",
    Utility => "utility",
    GpuHours => "gpu_hours",
    Cost => "cost",
    CostPerJob => "cost_per_job",
});

impl Metric {
    /// Whether less of it is better.
    pub fn lower_is_better(self) -> bool {
        matches!(
            self,
            Metric::MeanJct
                | Metric::P95Jct
                | Metric::MeanQueue
                | Metric::GpuHours
                | Metric::Cost
                | Metric::CostPerJob
        )
    }

    /// Whether it is an amount of money: it has no direction to halve in (more machines
    /// cost more per hour and may finish sooner), so the answer is the cheapest size.
    pub fn is_cost(self) -> bool {
        matches!(self, Metric::Cost | Metric::CostPerJob)
    }

    /// Whether it needs the jobs simulated over time.
    pub fn over_time(self) -> bool {
        self != Metric::Utility
    }

    /// Its name in a sentence.
    pub fn words(self) -> &'static str {
        match self {
            Metric::MeanJct => "mean JCT",
            Metric::P95Jct => "p95 JCT",
            Metric::MeanQueue => "mean queueing",
            Metric::Finished => "finished jobs",
            Metric::Utility => "total utility",
            Metric::GpuHours => "GPU-hours",
            Metric::Cost => "cost",
            Metric::CostPerJob => "cost per job",
        }
    }

    /// A value with its unit.
    pub fn show(self, v: f64) -> String {
        match self {
            Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue => duration(v),
            Metric::Finished => format!("{} jobs", v.round()),
            Metric::Utility => smd_format::sig(v, 4),
            Metric::GpuHours => format!("{} GPU-hours", smd_format::sig(v, 3)),
            Metric::Cost | Metric::CostPerJob => smd_format::usd(v),
        }
    }

    /// Its value in a run over time (`None` where it has none, e.g. no job finished).
    pub fn of_run(self, o: &TimeOutcome) -> Option<f64> {
        match self {
            Metric::MeanJct => o.mean_jct_s,
            Metric::P95Jct => o.p95_jct_s,
            Metric::MeanQueue => o.mean_queue_s,
            Metric::Finished => Some(o.finished as f64),
            Metric::Utility => Some(o.total_utility),
            Metric::GpuHours => Some(o.gpu_hours),
            Metric::Cost => o.cost_usd,
            Metric::CostPerJob => o.cost_per_job_usd,
        }
    }

    /// Whether `scenario` has what this metric needs beyond arrivals: the cost a price on
    /// every machine group. The error says what is missing.
    pub fn check(self, scenario: &smd_core::Scenario) -> Result<(), String> {
        if self.is_cost() {
            scenario
                .cluster
                .hourly_usd()
                .map_err(|e| format!("the cost cannot be reckoned: {e}"))?;
        }
        Ok(())
    }
}

/// The largest goal a sweep answers, in the metric's unit (seconds for times: 32 000
/// years): beyond any run's numbers, and a number the answer prints as digits.
pub const MAX_GOAL: f64 = 1e12;

/// A goal as a person types it for `metric`: a number ≥ 0, with a time unit (`2h`, `90min`,
/// `30s`; a bare number is seconds) for the time metrics, in the metric's own unit
/// otherwise, at most [`MAX_GOAL`]. The error says why it is not one.
pub fn parse_goal(text: &str, metric: Metric) -> Result<f64, String> {
    let t = text.trim();
    let time = matches!(metric, Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue);
    let unit = [("min", 60.0), ("h", 3600.0), ("s", 1.0)]
        .into_iter()
        .find_map(|(u, scale)| t.strip_suffix(u).map(|n| (n, scale)));
    let shown = smd_core::error::cut(t);
    let (num, scale) = match unit {
        Some(_) if !time => {
            return Err(format!(
                "{shown:?} is a time; a goal on the {} is a plain number",
                metric.words()
            ))
        }
        Some(u) => u,
        None => (t, 1.0),
    };
    let v = match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => v * scale,
        _ if time => {
            return Err(format!(
                "{shown:?} is not a goal: a number ≥ 0, with a unit (2h, 90min, 30s)"
            ))
        }
        _ => return Err(format!("{shown:?} is not a goal: a number ≥ 0")),
    };
    if v > MAX_GOAL {
        return Err(format!(
            "{shown:?} is too large: a goal is at most {}{}",
            smd_format::fmt_sig(MAX_GOAL, 2),
            if time { " s" } else { "" }
        ));
    }
    Ok(v)
}

/// The metric at one size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricPoint {
    /// The size.
    pub size: f64,
    /// The value (`None`: the policy has none there).
    pub value: Option<f64>,
}

/// A sweep's answer for one metric under one policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricAnswer {
    /// The metric.
    pub metric: Metric,
    /// The policy the answer assumes.
    pub policy: String,
    /// Whether it was chosen as the best for the metric at the current size (else given).
    pub chosen: bool,
    /// The size compared against: the current one, or the largest swept below it (the
    /// smallest swept, when all are above it).
    pub current: MetricPoint,
    /// The scenario's own size when the sweep left it out (`current` then stands in for
    /// it, and the answer says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unswept: Option<f64>,
    /// The metric at every size, ascending.
    pub values: Vec<MetricPoint>,
    /// Less is better: the fewest sizes above the current that halve it. More is better:
    /// the fewest that reach the most the sweep saw.
    pub target: Option<MetricPoint>,
    /// The largest move the wrong way as the size grows: (the smaller size, the larger).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<(MetricPoint, MetricPoint)>,
    /// The sentence.
    pub answer: String,
}

/// The answer of `results` for `metric` under `policy` (`None`: the best for the metric
/// at the current size), compared against `current` (the scenario's own size; `None` or
/// below the range: the smallest swept). The total utility is read from the runs over time
/// when `utility_over_time` (the CLI's `--over-time`: each policy over time's simulated
/// utility), else from the static plans (the page's); every other metric always is. Errors
/// say why it cannot be answered: an over-time metric of a static sweep, a policy not run,
/// no value at the current size.
pub fn metric_answer(
    results: &[PointResult],
    metric: Metric,
    policy: Option<&str>,
    current: Option<f64>,
    utility_over_time: bool,
) -> Result<MetricAnswer, String> {
    let first = results.first().ok_or("nothing was swept")?;
    // The policies that have the metric, each with its value per point.
    let series = if metric.over_time() || utility_over_time {
        if first.over_time.is_empty() {
            return Err(format!(
                "the {} needs the jobs simulated over time: sweep with --over-time (the jobs need arrivals)",
                metric.words()
            ));
        }
        crate::knee::time_series(results, |o| metric.of_run(o))
    } else {
        crate::knee::static_series(results, |o| o.total_utility)
    };
    let sizes: Vec<f64> = results.iter().map(|r| r.size.value()).collect();
    // The current size: the one given if swept, else the largest swept below it, else the
    // smallest.
    let given = current.filter(|c| c.is_finite());
    let at = given
        .and_then(|c| sizes.iter().rposition(|&s| s <= c + 1e-9))
        .unwrap_or(0);
    let better = |a: f64, b: f64| {
        if metric.lower_is_better() {
            a < b
        } else {
            a > b
        }
    };
    let (name, values, chosen) = match policy {
        Some(p) => {
            let (n, v) = series.iter().find(|(n, _)| n == p).ok_or_else(|| {
                format!(
                    "{p} was not run in this sweep (run: {})",
                    series
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
            (n.clone(), v.clone(), false)
        }
        None => {
            let mut best: Option<&(String, Vec<Option<f64>>)> = None;
            for s in &series {
                let Some(v) = s.1[at] else { continue };
                if best.is_none_or(|b| b.1[at].is_none_or(|w| better(v, w))) {
                    best = Some(s);
                }
            }
            let (n, v) = best
                .ok_or_else(|| format!("no policy has a {} at the current size", metric.words()))?;
            (n.clone(), v.clone(), true)
        }
    };
    let values: Vec<MetricPoint> = sizes
        .iter()
        .zip(&values)
        .map(|(&size, &value)| MetricPoint { size, value })
        .collect();
    let current = values[at];
    let unswept = given.filter(|&c| (c - current.size).abs() > 1e-9 * c.abs().max(1.0));
    let target = match current.value {
        // The cheapest size anywhere in the range: more machines cost more per hour and
        // may finish sooner, so the cost has no direction to halve in.
        Some(_) if metric.is_cost() => least(&values),
        Some(c) if metric.lower_is_better() => values[at..]
            .iter()
            .find(|p| p.value.is_some_and(|v| v <= c / 2.0))
            .copied(),
        _ if !metric.lower_is_better() => {
            let most = values
                .iter()
                .filter_map(|p| p.value)
                .fold(f64::NEG_INFINITY, f64::max);
            values
                .iter()
                .find(|p| p.value.is_some_and(|v| v >= most - 1e-9 * most.abs()))
                .copied()
        }
        _ => None,
    };
    let against = largest_move_against(&values, metric);
    let mut a = MetricAnswer {
        metric,
        policy: name,
        chosen,
        current,
        unswept,
        values,
        target,
        against,
        answer: String::new(),
    };
    a.answer = words(&a, first.size.axis(), first.machine.as_deref());
    if let Some(c) = a.unswept {
        let size = |s: f64| size_words(first.size.axis(), first.machine.as_deref(), s);
        let which = if c < a.current.size {
            "the smallest size swept"
        } else {
            "the nearest size swept below it"
        };
        a.answer += &format!(
            " The comparison is with {}, {which}: the sizes swept leave out your cluster's {}.",
            size(a.current.size),
            size(c)
        );
    }
    Ok(a)
}

/// The largest move the wrong way between consecutive valued sizes (none for the cost,
/// which has no right way).
fn largest_move_against(
    values: &[MetricPoint],
    metric: Metric,
) -> Option<(MetricPoint, MetricPoint)> {
    let mut against: Option<(MetricPoint, MetricPoint)> = None;
    let valued: Vec<MetricPoint> = values
        .iter()
        .filter(|p| p.value.is_some())
        .copied()
        .collect();
    for w in valued.windows(2) {
        let (a, b) = (w[0].value.unwrap_or(0.0), w[1].value.unwrap_or(0.0));
        let worse = if metric.lower_is_better() {
            b - a
        } else {
            a - b
        };
        let tol = 1e-9 * a.abs().max(b.abs()).max(1.0);
        let largest = against.map_or(0.0, |(x, y)| {
            let (xa, yb) = (x.value.unwrap_or(0.0), y.value.unwrap_or(0.0));
            if metric.lower_is_better() {
                yb - xa
            } else {
                xa - yb
            }
        });
        if worse > tol && worse > largest && !metric.is_cost() {
            against = Some((w[0], w[1]));
        }
    }
    against
}

/// The size with the least value (the smallest of equals), if any has a value.
fn least(values: &[MetricPoint]) -> Option<MetricPoint> {
    values
        .iter()
        .filter(|p| p.value.is_some())
        .min_by(|x, y| x.value.unwrap_or(0.0).total_cmp(&y.value.unwrap_or(0.0)))
        .copied()
}

/// The size with the most value (the smallest of equals), if any has a value.
fn most(values: &[MetricPoint]) -> Option<MetricPoint> {
    values
        .iter()
        .filter(|p| p.value.is_some())
        .rev()
        .max_by(|x, y| x.value.unwrap_or(0.0).total_cmp(&y.value.unwrap_or(0.0)))
        .copied()
}

/// `n machines of m`, `n units`.
fn size_words(axis: Axis, machine: Option<&str>, size: f64) -> String {
    let n = smd_core::error::num(size);
    let s = if size == 1.0 { "" } else { "s" };
    match (axis, machine) {
        (Axis::Units, _) => format!("{n} unit{s}"),
        (Axis::Machines, Some(m)) => format!("{n} × {m}"),
        (Axis::Machines, None) => format!("{n} machine{s}"),
    }
}

/// The answer's sentence.
fn words(a: &MetricAnswer, axis: Axis, machine: Option<&str>) -> String {
    let m = a.metric;
    let size = |s: f64| size_words(axis, machine, s);
    let best = format!("the best at {}", size(a.current.size));
    let under = if a.chosen {
        format!("{} ({best})", a.policy)
    } else {
        a.policy.clone()
    };
    // The policy with figures in one parenthesis: `pollux (the best at 16 × t4x4; 68.4
    // min → 33.0 min)`, never two in a row.
    let under_with = |figures: String| {
        if a.chosen {
            format!("{} ({best}; {figures})", a.policy)
        } else {
            format!("{} ({figures})", a.policy)
        }
    };
    // The policy with its value at the current size: `pollux (the best at 16 × t4x4:
    // 4.00 h)`, `fifo (4.00 h at 16 × t4x4)`.
    let under_at = |value: String| {
        if a.chosen {
            format!("{} ({best}: {value})", a.policy)
        } else {
            format!("{} ({value} at {})", a.policy, size(a.current.size))
        }
    };
    let Some(now) = a.current.value else {
        return format!(
            "Under {under}, there is no {} at {}.",
            m.words(),
            size(a.current.size)
        );
    };
    if m.is_cost() {
        let what = match m {
            Metric::CostPerJob => "per job on average",
            _ => "until the jobs are done",
        };
        return match a.target {
            Some(t) if t.size == a.current.size => format!(
                "Under {under}, {} is the cheapest size swept: {} {what}.",
                size(t.size),
                m.show(now)
            ),
            Some(t) => format!(
                "{} cost the least under {under}: {} {what} ({} at {}).",
                size(t.size),
                m.show(t.value.unwrap_or(now)),
                m.show(now),
                size(a.current.size)
            ),
            None => format!("Under {under}, no size has a cost."),
        };
    }
    let out = if m.lower_is_better() {
        match a.target {
            Some(t) if t.size == a.current.size => format!(
                "Under {under}, the {} is {} at {}: nothing to halve.",
                m.words(),
                m.show(now),
                size(a.current.size)
            ),
            Some(t) => format!(
                "{} halve the {} under {}.",
                size(t.size),
                m.words(),
                under_with(format!(
                    "{} → {}",
                    m.show(now),
                    m.show(t.value.unwrap_or(now))
                ))
            ),
            None => {
                let least = least(&a.values).unwrap_or(a.current);
                // A size that only ties the current value does not lower it.
                if least.size == a.current.size || least.value.is_none_or(|v| v >= now) {
                    return with_against(
                        a,
                        format!(
                            "No size swept halves the {} under {}; none lowers it.",
                            m.words(),
                            under_at(m.show(now))
                        ),
                        &size,
                    );
                }
                format!(
                    "No size swept halves the {} under {}; the least is {} at {}.",
                    m.words(),
                    under_at(m.show(now)),
                    m.show(least.value.unwrap_or(now)),
                    size(least.size)
                )
            }
        }
    } else {
        match a.target {
            Some(t) => format!(
                "Under {under}, {} reach the most {} swept, {} ({} at {}).",
                size(t.size),
                m.words(),
                m.show(t.value.unwrap_or(now)),
                m.show(now),
                size(a.current.size)
            ),
            None => format!("Under {under}, no size has any {}.", m.words()),
        }
    };
    with_against(a, out, &size)
}

/// `out` with the sentence on the largest move the wrong way, if any.
fn with_against(a: &MetricAnswer, mut out: String, size: &dyn Fn(f64) -> String) -> String {
    let m = a.metric;
    if let Some((x, y)) = a.against {
        out += &format!(
            " It is not monotone: {} give {}, {} than {} at {}",
            size(y.size),
            m.show(y.value.unwrap_or(0.0)),
            if m.lower_is_better() { "more" } else { "less" },
            m.show(x.value.unwrap_or(0.0)),
            size(x.size)
        );
        out += if m == Metric::MeanQueue {
            " (on a larger cluster a policy may give each job more GPUs and start fewer at once)."
        } else {
            "."
        };
    }
    out
}

/// A goal sought over a range's sizes: the fewest at which a metric meets it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seek {
    /// The metric.
    pub metric: Metric,
    /// The policy it is read under.
    pub policy: String,
    /// The goal: at most this (less is better) or at least this (more is better).
    pub goal: f64,
    /// The fewest sizes that meet it, with the metric there (`None`: none found).
    pub found: Option<MetricPoint>,
    /// How many sizes the range has.
    #[serde(default)]
    pub swept: usize,
    /// Every size evaluated, ascending.
    pub evaluated: Vec<MetricPoint>,
    /// Whether the metric is monotone at the sizes evaluated: never worse at a larger one
    /// (no value, e.g. no job finished, counts as the worst).
    pub monotone: bool,
    /// Whether every size the answer depends on was evaluated — every size below `found`,
    /// or every size when none meets the goal — so that it is a full scan's answer.
    /// `false`: bisection relied on the metric being monotone between the sizes evaluated,
    /// and the answer says so.
    #[serde(default)]
    pub exact: bool,
    /// The sentence.
    pub answer: String,
}

/// The fewest sizes of `spec` at which `metric` under `policy` meets `goal`, running only
/// that policy (over time when the metric is measured over time or `policies` run over
/// time, as [`metric_answer`] reads it). By bisection: the smallest size, the largest,
/// then halves — or, when neither end meets the goal, the middle too. Bisection relies on
/// the metric being monotone in the size; when the sizes evaluated show it is not, every
/// size below the answer is evaluated instead, so the answer is a full scan's. Otherwise
/// the answer says how many sizes it evaluated and on what rule (docs/MODEL.md §19.1).
pub fn seek(
    base: &smd_core::Scenario,
    spec: &crate::Spec,
    policies: &crate::Policies,
    metric: Metric,
    policy: &str,
    goal: f64,
    opts: &mut crate::Options,
) -> Result<Seek, crate::SweepError> {
    let pts = crate::points(base, spec)?;
    let over_time = metric.over_time() || !policies.over_time.is_empty();
    // The other policies do not change this one's value: running them only costs time.
    let only = crate::Policies {
        planners: policies
            .planners
            .iter()
            .copied()
            .filter(|p| !over_time && p.name() == policy)
            .collect(),
        over_time: policies
            .over_time
            .iter()
            .copied()
            .filter(|p| over_time && p.name() == policy)
            .collect(),
    };
    // A policy not run: all of them, for metric_answer's error naming those that were.
    let run = if only.planners.is_empty() && only.over_time.is_empty() {
        policies
    } else {
        &only
    };
    let sizes: Vec<f64> = pts.iter().map(|p| p.size).collect();
    let p0 = &pts[0];
    seek_in(
        &sizes,
        metric,
        policy,
        goal,
        (p0.axis, p0.machine()),
        |k| -> Result<Option<f64>, crate::SweepError> {
            let s = crate::scenario_at(base, &pts[k])?;
            let r = crate::evaluate(&pts[k], &s, run, opts)?;
            metric_answer(
                std::slice::from_ref(&r),
                metric,
                Some(policy),
                None,
                over_time,
            )
            .map(|a| a.current.value)
            .map_err(|message| crate::SweepError::Spec {
                field: "metric",
                message,
            })
        },
    )
}

/// [`seek`]'s search over `sizes` (ascending), the metric at size `k` from `value_at(k)`,
/// each evaluated at most once.
fn seek_in<E>(
    sizes: &[f64],
    metric: Metric,
    policy: &str,
    goal: f64,
    axis: (Axis, Option<&str>),
    mut value_at: impl FnMut(usize) -> Result<Option<f64>, E>,
) -> Result<Seek, E> {
    let n = sizes.len();
    let mut seen: Vec<Option<Option<f64>>> = vec![None; n];
    let mut at = |seen: &mut Vec<Option<Option<f64>>>, k: usize| -> Result<Option<f64>, E> {
        if let Some(v) = seen[k] {
            return Ok(v);
        }
        let v = value_at(k)?;
        seen[k] = Some(v);
        Ok(v)
    };
    let ok = |v: Option<f64>| v.is_some_and(|v| meets(metric, v, goal));
    let Some(last) = n.checked_sub(1) else {
        return Ok(sought(
            metric,
            policy,
            goal,
            None,
            Vec::new(),
            axis,
            0,
            true,
        ));
    };
    let mut found = None;
    if ok(at(&mut seen, 0)?) {
        found = Some(0);
    } else if ok(at(&mut seen, last)?) {
        // `lo` misses the goal, `hi` meets it.
        let (mut lo, mut hi) = (0, last);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if ok(at(&mut seen, mid)?) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        found = Some(hi);
    } else if last > 1 {
        // Neither end meets it: "none does" then rests on three sizes, not two, so that a
        // metric that falls and rises again can show it.
        at(&mut seen, last / 2)?;
    }
    let values: Vec<Option<f64>> = seen.iter().flatten().copied().collect();
    if !monotone(metric, &values) {
        // Bisection's rule fails at the sizes evaluated: scan up from the smallest, so that
        // no size meeting the goal is skipped.
        for k in 1..found.unwrap_or(n) {
            if ok(at(&mut seen, k)?) {
                found = Some(k);
                break;
            }
        }
    }
    let exact = seen[..found.unwrap_or(n)].iter().all(Option::is_some);
    let evaluated: Vec<MetricPoint> = seen
        .iter()
        .zip(sizes)
        .filter_map(|(v, &size)| v.map(|value| MetricPoint { size, value }))
        .collect();
    let found = found.map(|k| MetricPoint {
        size: sizes[k],
        value: seen[k].flatten(),
    });
    Ok(sought(
        metric, policy, goal, found, evaluated, axis, n, exact,
    ))
}

/// The fewest sizes of a finished sweep at which `a`'s metric meets `goal` (the page's
/// goal, read from every size swept rather than bisected: the sweep already has them).
/// When the metric is not monotone in the size, the answer says so: a larger size may then
/// miss the goal again.
pub fn goal_in(results: &[PointResult], a: &MetricAnswer, goal: f64) -> Seek {
    let m = a.metric;
    let found = a
        .values
        .iter()
        .find(|p| p.value.is_some_and(|v| meets(m, v, goal)))
        .copied();
    let (axis, machine) = results.first().map_or((Axis::Units, None), |r| {
        (r.size.axis(), r.machine.as_deref())
    });
    sought(
        m,
        &a.policy,
        goal,
        found,
        a.values.clone(),
        (axis, machine),
        a.values.len(),
        true,
    )
}

/// Whether `v` meets `goal`: at most (less is better) or at least it.
fn meets(metric: Metric, v: f64, goal: f64) -> bool {
    if metric.lower_is_better() {
        v <= goal
    } else {
        v >= goal
    }
}

/// Whether `values` (by ascending size) never get worse as the size grows, within 1e-9
/// relative; no value (no job finished, none started) counts as the worst.
fn monotone(metric: Metric, values: &[Option<f64>]) -> bool {
    values.windows(2).all(|w| match (w[0], w[1]) {
        (_, None) => w[0].is_none(),
        (None, Some(_)) => true,
        (Some(a), Some(b)) => {
            let tol = 1e-9 * a.abs().max(b.abs());
            if metric.lower_is_better() {
                b <= a + tol
            } else {
                b >= a - tol
            }
        }
    })
}

/// A goal's answer from the sizes `evaluated` (ascending) and the one `found`, of `swept`
/// sizes in all; `exact`: every size the answer depends on was evaluated.
#[allow(clippy::too_many_arguments)]
fn sought(
    metric: Metric,
    policy: &str,
    goal: f64,
    found: Option<MetricPoint>,
    evaluated: Vec<MetricPoint>,
    (axis, machine): (Axis, Option<&str>),
    swept: usize,
    exact: bool,
) -> Seek {
    let values: Vec<Option<f64>> = evaluated.iter().map(|p| p.value).collect();
    let monotone = monotone(metric, &values);
    let size = |s: f64| size_words(axis, machine, s);
    let show = |v: Option<f64>| v.map_or("none".into(), |v| metric.show(v));
    let lower = metric.lower_is_better();
    let bound = if lower { "≤" } else { "≥" };
    let (what, goal_text) = (metric.words(), metric.show(goal));
    let mut answer = match found {
        Some(f) => format!(
            "The fewest of the sizes swept for a {what} {bound} {goal_text} under {policy}: {} ({}).",
            size(f.size),
            show(f.value)
        ),
        None if exact => {
            let best = if lower {
                least(&evaluated)
            } else {
                most(&evaluated)
            };
            match best {
                Some(b) => format!(
                    "None of the sizes swept brings the {what} {bound} {goal_text} under {policy}; the {} is {} at {}.",
                    if lower { "least" } else { "most" },
                    show(b.value),
                    size(b.size)
                ),
                None => format!(
                    "None of the sizes swept brings the {what} {bound} {goal_text} under {policy}: it has no value at any."
                ),
            }
        }
        None => {
            let largest = evaluated.last();
            format!(
                "Not even {} bring the {what} {bound} {goal_text} under {policy} ({} there).",
                size(largest.map_or(0.0, |p| p.size)),
                show(largest.and_then(|p| p.value))
            )
        }
    };
    let k = evaluated.len();
    if !exact {
        answer += &format!(
            " Bisection evaluated {k} of the {swept} sizes swept, on the rule that the {what} does not {} as the size grows (it did not at those {k}): {} not evaluated may also meet the goal.",
            if lower { "rise" } else { "fall" },
            if found.is_some() { "a smaller size" } else { "a size" }
        );
    } else if !monotone {
        let miss = found.and_then(|f| {
            evaluated
                .iter()
                .find(|p| p.size > f.size && !p.value.is_some_and(|v| meets(metric, v, goal)))
        });
        answer += &match miss {
            Some(p) => format!(
                " The {what} is not monotone in the size: {} miss the goal again ({}).",
                size(p.size),
                show(p.value)
            ),
            None => format!(" The {what} is not monotone in the size."),
        };
        if let Some(f) = found.filter(|_| k < swept) {
            answer += &format!(" Every size below {} was evaluated.", size(f.size));
        }
    }
    Seek {
        metric,
        policy: policy.to_owned(),
        goal,
        found,
        swept,
        evaluated,
        monotone,
        exact,
        answer,
    }
}

#[cfg(test)]
mod tests;
