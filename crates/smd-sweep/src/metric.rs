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
    // The largest move the wrong way between consecutive valued sizes.
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
        return match a.target {
            Some(t) if t.size == a.current.size => format!(
                "Under {under}, {} is the cheapest size swept: {} until the jobs are done.",
                size(t.size),
                m.show(now)
            ),
            Some(t) => format!(
                "{} cost the least under {under}: {} until the jobs are done ({} at {}).",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::{Outcome, Size};
    use smd_core::scenario::Resources;
    use smd_core::Policy;
    use smd_sim::SimPolicy;

    /// Machines 8, 12, 16, 20, 24 of t4x4; fifo's and pollux's mean JCT (h) and queueing.
    fn sweep(fifo: [f64; 5], pollux: [f64; 5], queue: [f64; 5]) -> Vec<PointResult> {
        [8.0, 12.0, 16.0, 20.0, 24.0]
            .into_iter()
            .enumerate()
            .map(|(k, m)| {
                let run = |jct_h: f64, finished: usize| TimeOutcome {
                    total_utility: finished as f64,
                    bound: 10.0,
                    finished,
                    unfinished: 10 - finished,
                    mean_jct_s: Some(jct_h * 3600.0),
                    mean_queue_s: Some(queue[k] * 60.0),
                    p95_jct_s: Some(2.0 * jct_h * 3600.0),
                    gpu_hours: 4.0 * m,
                    // $3.912 per machine-hour for a run 1.5 × the mean JCT long.
                    cost_usd: Some(3.912 * m * 1.5 * jct_h),
                    usd_per_hour: None,
                    cost_per_job_usd: None,
                    run_ms: 0.0,
                };
                PointResult {
                    size: Size::Machines(m),
                    resource: None,
                    machine: Some("t4x4".into()),
                    capacity: Resources::default(),
                    policies: vec![(
                        Policy::Smd,
                        Outcome {
                            total_utility: m,
                            admitted: 1,
                            used: Resources::default(),
                            solve_ms: 0.0,
                            gap: None,
                        },
                    )],
                    over_time: vec![
                        (SimPolicy::Fifo, run(fifo[k], 8 + k.min(2))),
                        (SimPolicy::Pollux, run(pollux[k], 10)),
                        (SimPolicy::Bound, run(0.01, 10)),
                    ],
                }
            })
            .collect()
    }

    #[test]
    fn the_best_policy_at_the_current_size_and_the_size_that_halves_it() {
        let r = sweep(
            [9.0, 6.0, 4.0, 3.0, 2.5],
            [4.0, 2.0, 1.14, 0.8, 0.55],
            [50.0, 40.0, 30.0, 20.0, 10.0],
        );
        let a = metric_answer(&r, Metric::MeanJct, None, Some(16.0), false).unwrap();
        assert_eq!(a.policy, "pollux");
        assert!(a.chosen);
        assert_eq!(a.current.size, 16.0);
        assert_eq!(a.target.unwrap().size, 24.0);
        assert_eq!(
            a.answer,
            "24 × t4x4 halve the mean JCT under pollux (the best at 16 × t4x4; 68.4 min → 33.0 min)."
        );
        assert_eq!(a.unswept, None);
        // Given a policy, the answer is its own: fifo's 4 h at 16 falls to 2.5 h at 24, not
        // half, so no size halves it and the least is named.
        let f = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(16.0), false).unwrap();
        assert!(!f.chosen && f.target.is_none());
        assert!(f.answer.starts_with("No size swept halves the mean JCT under fifo (4.00 h at 16 × t4x4); the least is 2.50 h at 24 × t4x4"), "{}", f.answer);
        // A size below the range compares against the smallest.
        let low = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(2.0), false).unwrap();
        assert_eq!(low.current.size, 8.0);
        assert_eq!(low.target.unwrap().size, 16.0);
    }

    /// A cluster the sweep leaves out: the answer names the size that stands in for it
    /// (the smallest swept, or the nearest below), never silently the first swept; the
    /// best policy and the figures share one parenthesis.
    #[test]
    fn the_answer_names_its_base_when_the_cluster_was_not_swept() {
        let r = sweep(
            [9.0, 6.0, 4.0, 3.0, 2.5],
            [4.0, 2.0, 1.14, 0.8, 0.55],
            [50.0, 40.0, 30.0, 20.0, 10.0],
        );
        let low = metric_answer(&r, Metric::MeanJct, None, Some(2.0), false).unwrap();
        assert_eq!((low.current.size, low.unswept), (8.0, Some(2.0)));
        assert_eq!(
            low.answer,
            "12 × t4x4 halve the mean JCT under pollux (the best at 8 × t4x4; 4.00 h → 2.00 h). The comparison is with 8 × t4x4, the smallest size swept: the sizes swept leave out your cluster's 2 × t4x4."
        );
        let mid = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(18.0), false).unwrap();
        assert_eq!((mid.current.size, mid.unswept), (16.0, Some(18.0)));
        assert!(
            mid.answer.ends_with(
                "The comparison is with 16 × t4x4, the nearest size swept below it: the sizes swept leave out your cluster's 18 × t4x4."
            ),
            "{}",
            mid.answer
        );
        // No doubled parenthesis where nothing halves it under the best policy.
        let flat = sweep([9.0; 5], [4.0; 5], [1.0; 5]);
        let f = metric_answer(&flat, Metric::MeanJct, None, Some(8.0), false).unwrap();
        assert_eq!(
            f.answer,
            "No size swept halves the mean JCT under pollux (the best at 8 × t4x4: 4.00 h); none lowers it."
        );
        assert!(!f.answer.contains(") ("), "{}", f.answer);
        // On a flat curve no size lowers it, wherever the cluster is: the smallest of equal
        // sizes is not named as if it were less.
        let f = metric_answer(&flat, Metric::MeanJct, None, Some(16.0), false).unwrap();
        assert_eq!(
            f.answer,
            "No size swept halves the mean JCT under pollux (the best at 16 × t4x4: 4.00 h); none lowers it."
        );
    }

    #[test]
    fn more_is_better_names_the_fewest_that_reach_the_most_and_bound_is_never_chosen() {
        let r = sweep([9.0; 5], [4.0; 5], [1.0; 5]);
        let a = metric_answer(&r, Metric::Finished, Some("fifo"), Some(8.0), false).unwrap();
        assert_eq!(a.target.unwrap().size, 16.0);
        assert_eq!(a.answer, "Under fifo, 16 × t4x4 reach the most finished jobs swept, 10 jobs (8 jobs at 8 × t4x4).");
        let best = metric_answer(&r, Metric::Finished, None, Some(8.0), false).unwrap();
        assert_eq!(best.policy, "pollux");
        // Utility is the static plans' unless read over time; then it is the simulation's
        // for every policy over time, one named or the best of several.
        let u = metric_answer(&r, Metric::Utility, None, Some(8.0), false).unwrap();
        assert_eq!(u.policy, "smd");
        assert_eq!(u.target.unwrap().size, 24.0);
        let t = metric_answer(&r, Metric::Utility, None, Some(8.0), true).unwrap();
        assert_eq!(
            (t.policy.as_str(), t.values[0].value),
            ("pollux", Some(10.0))
        );
        let pu = metric_answer(&r, Metric::Utility, Some("pollux"), Some(8.0), true).unwrap();
        assert_eq!(pu.values[0].value, Some(10.0));
        let fu = metric_answer(&r, Metric::Utility, Some("fifo"), Some(8.0), true).unwrap();
        assert_eq!(fu.values[0].value, Some(8.0));
        assert!(metric_answer(&r, Metric::Utility, Some("smd"), Some(8.0), true).is_err());
    }

    #[test]
    fn a_move_the_wrong_way_is_said_and_errors_name_why() {
        let r = sweep([9.0; 5], [4.0; 5], [50.0, 40.0, 30.0, 59.0, 111.0]);
        let q = metric_answer(&r, Metric::MeanQueue, Some("pollux"), Some(16.0), false).unwrap();
        let (x, y) = q.against.unwrap();
        assert_eq!((x.size, y.size), (20.0, 24.0));
        assert!(q.answer.contains("No size swept halves the mean queueing under pollux (30.0 min at 16 × t4x4); none lowers it. It is not monotone: 24 × t4x4 give 111.0 min, more than 59.0 min at 20 × t4x4 (on a larger cluster"), "{}", q.answer);
        let mut fixed = r.clone();
        for p in &mut fixed {
            p.over_time.clear();
        }
        assert!(metric_answer(&fixed, Metric::MeanJct, None, None, false)
            .unwrap_err()
            .contains("--over-time"));
        assert!(
            metric_answer(&r, Metric::MeanJct, Some("tiresias"), None, false)
                .unwrap_err()
                .contains("tiresias was not run in this sweep (run: fifo, pollux)")
        );
        assert_eq!("p95_jct".parse::<Metric>(), Ok(Metric::P95Jct));
    }

    /// The cost is answered by the cheapest size anywhere in the range (more machines cost
    /// more per hour and may finish sooner), never by "halving", and a rise is no surprise.
    #[test]
    fn the_cost_is_answered_by_the_cheapest_size() {
        // fifo: machines × JCT = 72, 72, 64, 60, 60 → the cheapest is 20 (the first of two).
        let r = sweep([9.0, 6.0, 4.0, 3.0, 2.5], [4.0; 5], [1.0; 5]);
        let a = metric_answer(&r, Metric::Cost, Some("fifo"), Some(16.0), false).unwrap();
        assert_eq!(a.target.unwrap().size, 20.0);
        assert!(a.against.is_none());
        assert_eq!(
            a.answer,
            "20 × t4x4 cost the least under fifo: $352.08 until the jobs are done ($375.55 at 16 × t4x4)."
        );
        // pollux's constant JCT makes the smallest the cheapest.
        let p = metric_answer(&r, Metric::Cost, Some("pollux"), Some(8.0), false).unwrap();
        assert_eq!(
            p.answer,
            "Under pollux, 8 × t4x4 is the cheapest size swept: $187.78 until the jobs are done."
        );
        // A goal on the cost: at most $360 → 20 machines.
        let g = goal_in(&r, &a, 360.0);
        assert_eq!(g.found.unwrap().size, 20.0);
        assert_eq!("cost".parse::<Metric>(), Ok(Metric::Cost));
    }

    /// A goal read from a finished sweep: the smallest size that meets it, its value;
    /// nothing meets it; a metric that turns back says which larger size misses again.
    #[test]
    fn a_goal_read_from_every_size_swept() {
        let r = sweep(
            [9.0, 6.0, 4.0, 3.0, 2.5],
            [4.0, 2.0, 1.14, 0.8, 0.55],
            [50.0, 40.0, 30.0, 59.0, 111.0],
        );
        let a = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(16.0), false).unwrap();
        let g = goal_in(&r, &a, 3.5 * 3600.0);
        assert_eq!(g.found.unwrap().size, 20.0);
        assert!(g.monotone && g.evaluated.len() == 5);
        assert_eq!(
            g.answer,
            "The fewest of the sizes swept for a mean JCT ≤ 3.50 h under fifo: 20 × t4x4 (3.00 h)."
        );
        let none = goal_in(&r, &a, 3600.0);
        assert!(none.found.is_none());
        assert_eq!(
            none.answer,
            "None of the sizes swept brings the mean JCT ≤ 60.0 min under fifo; the least is 2.50 h at 24 × t4x4."
        );
        let q = metric_answer(&r, Metric::MeanQueue, Some("fifo"), Some(8.0), false).unwrap();
        let g = goal_in(&r, &q, 45.0 * 60.0);
        assert_eq!(g.found.unwrap().size, 12.0);
        assert!(!g.monotone);
        assert!(g.answer.ends_with("The mean queueing is not monotone in the size: 20 × t4x4 miss the goal again (59.0 min)."), "{}", g.answer);
    }

    /// An on-premises catalog type has no price: the cost refuses a cluster with it, naming
    /// the group, and reckons once the scenario prices it.
    #[test]
    fn the_cost_names_an_unpriced_catalog_group() {
        use smd_apps::machines::{mix_cluster, parse_mix};
        let mix = parse_mix("t4x4=2,rtx2080tix8=1").unwrap();
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 2,
            ..Default::default()
        });
        s.version = 2;
        s.cluster = mix_cluster(&mix, s.cluster.instance);
        let e = Metric::Cost.check(&s).unwrap_err();
        assert!(
            e.contains("machine group \"rtx2080tix8\" has no hourly price")
                && e.contains("every group priced"),
            "{e}"
        );
        s.cluster.machines[1].hourly_usd = Some(5.0);
        assert_eq!(Metric::Cost.check(&s), Ok(()));
    }

    /// Bisection finds the size the full sweep's linear scan finds, evaluating fewer
    /// sizes; a goal nothing meets is said with the largest size's value.
    #[test]
    fn seeking_a_goal_by_bisection_agrees_with_the_full_sweep() {
        use crate::{points, sweep, Options, Policies, Range, Spec};
        let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
        let arrivals =
            smd_apps::trace::parse(smd_apps::trace::workload("workload-1").unwrap()).unwrap();
        let mut base =
            smd_apps::trace::scenario(&arrivals, smd_apps::machines::cluster(t4, 2.0, t4.capacity))
                .unwrap();
        base.jobs.truncate(24);
        let spec = Spec {
            axis: Axis::Machines,
            range: Range::parse("1:9:1").unwrap(),
            resource: None,
            machine_type: None,
            group: None,
        };
        let policies = Policies {
            planners: Vec::new(),
            over_time: vec![SimPolicy::Fifo],
        };
        let full = sweep(&base, &spec, &policies, &mut Options::default()).unwrap();
        let a = metric_answer(&full.points, Metric::MeanJct, Some("fifo"), None, false).unwrap();
        let vals: Vec<f64> = a.values.iter().map(|p| p.value.unwrap()).collect();
        assert!(
            vals.windows(2).all(|w| w[1] <= w[0]),
            "monotone here: {vals:?}"
        );
        // A goal between the smallest and the largest size's values.
        let goal = (vals[0] + vals[8]) / 2.0;
        let want = a.values.iter().find(|p| p.value.unwrap() <= goal).unwrap();
        let got = seek(
            &base,
            &spec,
            &policies,
            Metric::MeanJct,
            "fifo",
            goal,
            &mut Options::default(),
        )
        .unwrap();
        assert_eq!(got.found.unwrap(), *want);
        assert!(got.monotone);
        assert!(got.evaluated.len() < points(&base, &spec).unwrap().len());
        assert!(
            got.answer
                .starts_with("The fewest of the sizes swept for a mean JCT ≤"),
            "{}",
            got.answer
        );
        assert_eq!(got.swept, 9);
        assert!(got.exact || got.answer.contains(" of the 9 sizes swept"));
        let none = seek(
            &base,
            &spec,
            &policies,
            Metric::MeanJct,
            "fifo",
            vals[8] / 2.0,
            &mut Options::default(),
        )
        .unwrap();
        // Nothing meets it: the smallest, the largest and the middle evaluated, and the
        // answer says the others were not.
        assert_eq!(none.found, None);
        let sizes: Vec<f64> = none.evaluated.iter().map(|p| p.size).collect();
        assert_eq!(sizes, [1.0, 5.0, 9.0]);
        assert!(!none.exact && none.monotone);
        assert!(
            none.answer.starts_with("Not even 9 × t4x4 bring the mean JCT")
                && none.answer.contains(
                    "Bisection evaluated 3 of the 9 sizes swept, on the rule that the mean JCT does not rise as the size grows (it did not at those 3): a size not evaluated may also meet the goal."
                ),
            "{}",
            none.answer
        );
    }

    /// Goals: time units for the time metrics only; nothing negative, not a number or
    /// past the largest goal, each refused with why.
    #[test]
    fn a_goal_is_a_number_in_the_metrics_unit_within_range() {
        assert_eq!(parse_goal("30min", Metric::MeanJct), Ok(1800.0));
        assert_eq!(parse_goal(" 2h", Metric::P95Jct), Ok(7200.0));
        assert_eq!(parse_goal("90", Metric::MeanQueue), Ok(90.0));
        assert_eq!(parse_goal("120", Metric::Finished), Ok(120.0));
        assert_eq!(parse_goal("1e12", Metric::Cost), Ok(1e12));
        let err = |t: &str, m: Metric| parse_goal(t, m).unwrap_err();
        assert_eq!(
            err("30min", Metric::Finished),
            "\"30min\" is a time; a goal on the finished jobs is a plain number"
        );
        assert_eq!(
            err("5s", Metric::Utility),
            "\"5s\" is a time; a goal on the total utility is a plain number"
        );
        assert_eq!(
            err("-5", Metric::MeanJct),
            "\"-5\" is not a goal: a number ≥ 0, with a unit (2h, 90min, 30s)"
        );
        assert_eq!(
            err("-5", Metric::Finished),
            "\"-5\" is not a goal: a number ≥ 0"
        );
        assert_eq!(
            err("1e308h", Metric::MeanJct),
            "\"1e308h\" is too large: a goal is at most 1e12 s"
        );
        assert_eq!(
            err("1e308", Metric::Finished),
            "\"1e308\" is too large: a goal is at most 1e12"
        );
        for t in ["nan", "inf", "", "h", "soon"] {
            assert!(err(t, Metric::MeanJct).contains("is not a goal"), "{t}");
        }
    }

    /// A full scan's answer: the smallest size whose value meets the goal.
    fn scan(metric: Metric, curve: &[Option<f64>], goal: f64) -> Option<usize> {
        curve
            .iter()
            .position(|v| v.is_some_and(|v| meets(metric, v, goal)))
    }

    /// Sought over `curve` at sizes 1, 2, …, checking each value is asked at most once.
    fn seek_curve(metric: Metric, curve: &[Option<f64>], goal: f64) -> Seek {
        let sizes: Vec<f64> = (1..=curve.len()).map(|k| k as f64).collect();
        let mut asked = vec![false; curve.len()];
        let s = seek_in(
            &sizes,
            metric,
            "fifo",
            goal,
            (Axis::Machines, Some("t4x4")),
            |k| -> Result<Option<f64>, ()> {
                assert!(!asked[k], "size {k} evaluated twice");
                asked[k] = true;
                Ok(curve[k])
            },
        )
        .unwrap();
        assert_eq!(s.evaluated.len(), asked.iter().filter(|&&a| a).count());
        s
    }

    /// On random curves, monotone or not, with and without values: the goal-seek's answer
    /// is the full scan's, or it says it evaluated only some sizes and on what rule — and
    /// then the sizes it evaluated are monotone (it falls back to scanning when they are
    /// not), and only a curve that is not monotone makes it differ from the scan.
    #[test]
    fn a_sought_goal_is_a_full_scans_or_says_what_it_assumed() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut differed, mut scanned, mut assumed) = (0, 0, 0);
        for case in 0..20_000 {
            let metric = if case % 2 == 0 {
                Metric::MeanJct
            } else {
                Metric::Finished
            };
            let n = 1 + (rand() % 40) as usize;
            let shape = rand() % 3;
            let mut curve: Vec<Option<f64>> = Vec::with_capacity(n);
            let mut v = (rand() % 50) as f64;
            for _ in 0..n {
                // 0: monotone (never worse as the size grows); 1: any; 2: monotone but for
                // one bump. Small integers make ties and equal-to-goal values common.
                let step = (rand() % 4) as f64;
                let better = if metric.lower_is_better() {
                    -step
                } else {
                    step
                };
                v = match shape {
                    1 => (rand() % 50) as f64,
                    _ => v + better,
                };
                curve.push((rand() % 15 != 0 || shape == 0).then_some(v));
            }
            if shape == 2 && n > 2 {
                let k = (rand() as usize) % n;
                curve[k] = Some((rand() % 60) as f64);
            }
            let goal = (rand() % 50) as f64;
            let want = scan(metric, &curve, goal);
            let got = seek_curve(metric, &curve, goal);
            let found = got.found.map(|p| p.size as usize - 1);
            let whole_monotone = monotone(metric, &curve);
            // What it reports matches the curve.
            for p in &got.evaluated {
                assert_eq!(p.value, curve[p.size as usize - 1]);
            }
            if let (Some(f), Some(p)) = (found, got.found) {
                assert_eq!(p.value, curve[f]);
                assert!(meets(metric, p.value.unwrap(), goal));
            }
            let values: Vec<Option<f64>> = got.evaluated.iter().map(|p| p.value).collect();
            assert_eq!(got.monotone, monotone(metric, &values));
            assert_eq!(got.swept, n);
            let ctx = format!("{metric:?} goal {goal} curve {curve:?}: {got:?}");
            if got.exact {
                assert_eq!(found, want, "{ctx}");
                let k = found.unwrap_or(n);
                assert!((0..k).all(|i| got.evaluated.iter().any(|p| p.size as usize == i + 1)));
            } else {
                assumed += 1;
                assert!(got.monotone, "{ctx}");
                assert!(
                    got.answer.contains(&format!(
                        "Bisection evaluated {} of the {n} sizes swept, on the rule that the {} does not",
                        got.evaluated.len(),
                        metric.words()
                    )),
                    "{ctx}"
                );
            }
            if found != want {
                differed += 1;
                assert!(!got.exact && !whole_monotone, "{ctx}");
            }
            if whole_monotone {
                assert_eq!(found, want, "{ctx}");
            }
            if got.exact && got.evaluated.len() > 3 && !got.monotone {
                scanned += 1;
            }
        }
        // Every branch was taken.
        assert!(differed > 0 && scanned > 0 && assumed > 0);
    }

    /// A mean JCT that falls and then rises again on a large cluster (pollux's on 160 jobs,
    /// 1 to 500 machines in steps of 3): neither end meets 30 minutes, the middle shows the
    /// rise, and the scan finds the size that does.
    #[test]
    fn a_goal_met_only_in_the_middle_of_the_range_is_found() {
        let sizes: Vec<f64> = (0..168).map(|k| (1 + 3 * k).min(500) as f64).collect();
        // Minutes: 1966 at 1 machine, falling as 600/m + 5 to its least near 80 machines,
        // then rising by 0.27 per machine (117.9 at 500).
        let jct = |m: f64| 60.0 * (600.0 / m + 5.0 + (0.27 * (m - 80.0)).max(0.0));
        let curve: Vec<Option<f64>> = sizes.iter().map(|&m| Some(jct(m))).collect();
        let got = seek_in(
            &sizes,
            Metric::MeanJct,
            "pollux",
            1800.0,
            (Axis::Machines, Some("t4x4")),
            |k| -> Result<Option<f64>, ()> { Ok(curve[k]) },
        )
        .unwrap();
        let want = scan(Metric::MeanJct, &curve, 1800.0).unwrap();
        assert_eq!(got.found.unwrap().size, sizes[want]);
        assert!(got.exact && !got.monotone);
        assert!(
            got.answer.starts_with(&format!(
                "The fewest of the sizes swept for a mean JCT ≤ 30.0 min under pollux: {} × t4x4",
                sizes[want]
            )),
            "{}",
            got.answer
        );
    }
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
