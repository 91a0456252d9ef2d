//! What-ifs in a planner's terms (docs/MODEL.md §19.1, issue 27): a sweep read for one
//! metric under one policy — "24 t4x4 machines halve the mean JCT under pollux (1.14 h →
//! 0.55 h)" — instead of the knee of utility.
//!
//! A metric where less is better (JCT, queueing, GPU-hours) is answered by the fewest
//! sizes that halve it from the current size; one where more is better (finished jobs,
//! utility) by the fewest that reach the most the sweep saw. Either way the answer names
//! the policy it assumes (the one given, or the best for the metric at the current size)
//! and says where the metric moves the wrong way as the cluster grows.

use crate::evaluate::{PointResult, TimeOutcome};
use crate::point::Axis;
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
}

smd_core::named!(Metric, "metric" {
    MeanJct => "mean_jct",
    P95Jct => "p95_jct",
    MeanQueue => "mean_queue",
    Finished => "finished",
    Utility => "utility",
    GpuHours => "gpu_hours",
    Cost => "cost",
});

impl Metric {
    /// Whether less of it is better.
    pub fn lower_is_better(self) -> bool {
        matches!(
            self,
            Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue | Metric::GpuHours | Metric::Cost
        )
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
        }
    }

    /// A value with its unit.
    pub fn show(self, v: f64) -> String {
        match self {
            Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue => duration(v),
            Metric::Finished => format!("{} jobs", v.round()),
            Metric::Utility => smd_format::sig(v, 4),
            Metric::GpuHours => format!("{} GPU-hours", smd_format::sig(v, 3)),
            Metric::Cost => smd_format::usd(v),
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
        }
    }

    /// Whether `scenario` has what this metric needs beyond arrivals: the cost a price on
    /// every machine group. The error says what is missing.
    pub fn check(self, scenario: &smd_core::Scenario) -> Result<(), String> {
        if self == Metric::Cost {
            scenario
                .cluster
                .hourly_usd()
                .map_err(|e| format!("the cost cannot be reckoned: {e}"))?;
        }
        Ok(())
    }
}

/// A goal as a person types it: a number, with a time unit (`2h`, `90min`, `30s`) for the
/// time metrics; in the metric's own unit (seconds for times) otherwise.
pub fn parse_goal(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("min") {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v * scale),
        _ => Err(format!(
            "{:?} is not a goal: a number ≥ 0, times with a unit (2h, 90min, 30s)",
            smd_core::error::cut(t)
        )),
    }
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
    /// The size compared against: the current one, or the smallest swept below it.
    pub current: MetricPoint,
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
/// below the range: the smallest swept). Errors say why it cannot be answered: an
/// over-time metric of a static sweep, a policy not run, no value at the current size.
pub fn metric_answer(
    results: &[PointResult],
    metric: Metric,
    policy: Option<&str>,
    current: Option<f64>,
) -> Result<MetricAnswer, String> {
    let first = results.first().ok_or("nothing was swept")?;
    // The policies that have the metric, each with its value per point.
    // Utility is the static plan's unless the policy named only runs over time.
    let only_over_time = policy.is_some_and(|p| {
        first.over_time.iter().any(|(q, _)| q.name() == p)
            && !first.policies.iter().any(|(q, _)| q.name() == p)
    });
    let series = if metric.over_time() || only_over_time {
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
    let at = current
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
    let target = match current.value {
        // The cheapest size anywhere in the range: more machines cost more per hour and
        // may finish sooner, so the cost has no direction to halve in.
        Some(_) if metric == Metric::Cost => least(&values),
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
        if worse > tol && worse > largest && metric != Metric::Cost {
            against = Some((w[0], w[1]));
        }
    }
    let mut a = MetricAnswer {
        metric,
        policy: name,
        chosen,
        current,
        values,
        target,
        against,
        answer: String::new(),
    };
    a.answer = words(&a, first.size.axis(), first.machine.as_deref());
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
    let under = if a.chosen {
        format!("{} (the best at {})", a.policy, size(a.current.size))
    } else {
        a.policy.clone()
    };
    let Some(now) = a.current.value else {
        return format!(
            "Under {under}, there is no {} at {}.",
            m.words(),
            size(a.current.size)
        );
    };
    if m == Metric::Cost {
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
                "{} halve the {} under {under} ({} → {}).",
                size(t.size),
                m.words(),
                m.show(now),
                m.show(t.value.unwrap_or(now))
            ),
            None => {
                let least = least(&a.values).unwrap_or(a.current);
                if least.size == a.current.size {
                    return with_against(
                        a,
                        format!(
                            "No size swept halves the {} under {under} ({} at {}); none lowers it.",
                            m.words(),
                            m.show(now),
                            size(a.current.size)
                        ),
                        &size,
                    );
                }
                format!(
                    "No size swept halves the {} under {under} ({} at {}); the least is {} at {}.",
                    m.words(),
                    m.show(now),
                    size(a.current.size),
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
        let a = metric_answer(&r, Metric::MeanJct, None, Some(16.0)).unwrap();
        assert_eq!(a.policy, "pollux");
        assert!(a.chosen);
        assert_eq!(a.current.size, 16.0);
        assert_eq!(a.target.unwrap().size, 24.0);
        assert_eq!(
            a.answer,
            "24 × t4x4 halve the mean JCT under pollux (the best at 16 × t4x4) (68.4 min → 33.0 min)."
        );
        // Given a policy, the answer is its own: fifo's 4 h at 16 falls to 2.5 h at 24, not
        // half, so no size halves it and the least is named.
        let f = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(16.0)).unwrap();
        assert!(!f.chosen && f.target.is_none());
        assert!(f.answer.starts_with("No size swept halves the mean JCT under fifo (4.00 h at 16 × t4x4); the least is 2.50 h at 24 × t4x4"), "{}", f.answer);
        // A size below the range compares against the smallest.
        let low = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(2.0)).unwrap();
        assert_eq!(low.current.size, 8.0);
        assert_eq!(low.target.unwrap().size, 16.0);
    }

    #[test]
    fn more_is_better_names_the_fewest_that_reach_the_most_and_bound_is_never_chosen() {
        let r = sweep([9.0; 5], [4.0; 5], [1.0; 5]);
        let a = metric_answer(&r, Metric::Finished, Some("fifo"), Some(8.0)).unwrap();
        assert_eq!(a.target.unwrap().size, 16.0);
        assert_eq!(a.answer, "Under fifo, 16 × t4x4 reach the most finished jobs swept, 10 jobs (8 jobs at 8 × t4x4).");
        let best = metric_answer(&r, Metric::Finished, None, Some(8.0)).unwrap();
        assert_eq!(best.policy, "pollux");
        // Utility is the static plan's unless the policy only runs over time.
        let u = metric_answer(&r, Metric::Utility, None, Some(8.0)).unwrap();
        assert_eq!(u.policy, "smd");
        assert_eq!(u.target.unwrap().size, 24.0);
        let pu = metric_answer(&r, Metric::Utility, Some("pollux"), Some(8.0)).unwrap();
        assert_eq!(pu.values[0].value, Some(10.0));
    }

    #[test]
    fn a_move_the_wrong_way_is_said_and_errors_name_why() {
        let r = sweep([9.0; 5], [4.0; 5], [50.0, 40.0, 30.0, 59.0, 111.0]);
        let q = metric_answer(&r, Metric::MeanQueue, Some("pollux"), Some(16.0)).unwrap();
        let (x, y) = q.against.unwrap();
        assert_eq!((x.size, y.size), (20.0, 24.0));
        assert!(q.answer.contains("No size swept halves the mean queueing under pollux (30.0 min at 16 × t4x4); none lowers it. It is not monotone: 24 × t4x4 give 111.0 min, more than 59.0 min at 20 × t4x4 (on a larger cluster"), "{}", q.answer);
        let mut fixed = r.clone();
        for p in &mut fixed {
            p.over_time.clear();
        }
        assert!(metric_answer(&fixed, Metric::MeanJct, None, None)
            .unwrap_err()
            .contains("--over-time"));
        assert!(metric_answer(&r, Metric::MeanJct, Some("tiresias"), None)
            .unwrap_err()
            .contains("tiresias was not run in this sweep (run: fifo, pollux)"));
        assert_eq!("p95_jct".parse::<Metric>(), Ok(Metric::P95Jct));
    }

    /// The cost is answered by the cheapest size anywhere in the range (more machines cost
    /// more per hour and may finish sooner), never by "halving", and a rise is no surprise.
    #[test]
    fn the_cost_is_answered_by_the_cheapest_size() {
        // fifo: machines × JCT = 72, 72, 64, 60, 60 → the cheapest is 20 (the first of two).
        let r = sweep([9.0, 6.0, 4.0, 3.0, 2.5], [4.0; 5], [1.0; 5]);
        let a = metric_answer(&r, Metric::Cost, Some("fifo"), Some(16.0)).unwrap();
        assert_eq!(a.target.unwrap().size, 20.0);
        assert!(a.against.is_none());
        assert_eq!(
            a.answer,
            "20 × t4x4 cost the least under fifo: $352.08 until the jobs are done ($375.55 at 16 × t4x4)."
        );
        // pollux's constant JCT makes the smallest the cheapest.
        let p = metric_answer(&r, Metric::Cost, Some("pollux"), Some(8.0)).unwrap();
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
        let a = metric_answer(&r, Metric::MeanJct, Some("fifo"), Some(16.0)).unwrap();
        let g = goal_in(&r, &a, 3.5 * 3600.0);
        assert_eq!(g.found.unwrap().size, 20.0);
        assert!(g.monotone && g.evaluated.len() == 5);
        assert_eq!(
            g.answer,
            "The fewest for a mean JCT ≤ 3.50 h under fifo: 20 × t4x4 (3.00 h)."
        );
        let none = goal_in(&r, &a, 3600.0);
        assert!(none.found.is_none());
        assert!(
            none.answer.starts_with(
                "Not even 24 × t4x4 bring the mean JCT ≤ 60.0 min under fifo (2.50 h there)."
            ),
            "{}",
            none.answer
        );
        let q = metric_answer(&r, Metric::MeanQueue, Some("fifo"), Some(8.0)).unwrap();
        let g = goal_in(&r, &q, 45.0 * 60.0);
        assert_eq!(g.found.unwrap().size, 12.0);
        assert!(!g.monotone);
        assert!(g.answer.ends_with("The mean queueing is not monotone in the size: 20 × t4x4 miss the goal again (59.0 min)."), "{}", g.answer);
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
        let a = metric_answer(&full.points, Metric::MeanJct, Some("fifo"), None).unwrap();
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
            got.answer.starts_with("The fewest for a mean JCT ≤"),
            "{}",
            got.answer
        );
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
        assert_eq!(none.found, None);
        assert_eq!(none.evaluated.len(), 1);
        assert!(
            none.answer
                .starts_with("Not even 9 × t4x4 bring the mean JCT"),
            "{}",
            none.answer
        );
    }
}

/// A goal sought by bisection: the fewest sizes of a range at which a metric meets it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seek {
    /// The metric.
    pub metric: Metric,
    /// The policy it is read under.
    pub policy: String,
    /// The goal: at most this (less is better) or at least this (more is better).
    pub goal: f64,
    /// The fewest sizes that meet it, with the metric there (`None`: not even the largest).
    pub found: Option<MetricPoint>,
    /// Every size evaluated, ascending (about log₂ of the range's sizes).
    pub evaluated: Vec<MetricPoint>,
    /// Whether the evaluated sizes were monotone in the metric (bisection assumes it).
    pub monotone: bool,
    /// The sentence.
    pub answer: String,
}

/// The fewest sizes of `spec` at which `metric` under `policy` meets `goal`, by bisection
/// over the range's sizes: the largest is evaluated first (if it does not meet the goal,
/// nothing does), then halves, about log₂ of the sizes in all. Bisection assumes the
/// metric monotone in the size; the answer says when the evaluated sizes show it is not.
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
    let mut seen: Vec<(usize, Option<f64>)> = Vec::new();
    let mut value_at =
        |k: usize, opts: &mut crate::Options| -> Result<Option<f64>, crate::SweepError> {
            if let Some(&(_, v)) = seen.iter().find(|(j, _)| *j == k) {
                return Ok(v);
            }
            let s = crate::scenario_at(base, &pts[k])?;
            let r = crate::evaluate(&pts[k], &s, policies, opts)?;
            let v = metric_answer(std::slice::from_ref(&r), metric, Some(policy), None)
                .map_err(|message| crate::SweepError::Spec {
                    field: "metric",
                    message,
                })?
                .current
                .value;
            seen.push((k, v));
            Ok(v)
        };
    let ok = |v: Option<f64>| v.is_some_and(|v| meets(metric, v, goal));
    let last = pts.len() - 1;
    let mut found = None;
    if ok(value_at(last, opts)?) {
        let (mut lo, mut hi) = (None::<usize>, last);
        if ok(value_at(0, opts)?) {
            hi = 0;
        } else {
            lo = Some(0);
        }
        while let Some(l) = lo.filter(|&l| hi - l > 1) {
            let mid = l + (hi - l) / 2;
            if ok(value_at(mid, opts)?) {
                hi = mid;
            } else {
                lo = Some(mid);
            }
        }
        found = Some(hi);
    }
    seen.sort_by_key(|(k, _)| *k);
    let evaluated: Vec<MetricPoint> = seen
        .iter()
        .map(|&(k, value)| MetricPoint {
            size: pts[k].size,
            value,
        })
        .collect();
    let found = found.and_then(|k| evaluated.iter().find(|p| p.size == pts[k].size).copied());
    let p0 = &pts[0];
    Ok(sought(
        metric,
        policy,
        goal,
        found,
        evaluated,
        (p0.axis, p0.machine()),
        false,
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

/// A goal's answer from the sizes `evaluated` (ascending) and the one `found`; `every`:
/// they are every size of the range (a finished sweep), not bisection's.
fn sought(
    metric: Metric,
    policy: &str,
    goal: f64,
    found: Option<MetricPoint>,
    evaluated: Vec<MetricPoint>,
    (axis, machine): (Axis, Option<&str>),
    every: bool,
) -> Seek {
    let vals: Vec<f64> = evaluated.iter().filter_map(|p| p.value).collect();
    let monotone = vals.windows(2).all(|w| {
        if metric.lower_is_better() {
            w[1] <= w[0] * (1.0 + 1e-9)
        } else {
            w[1] >= w[0] * (1.0 - 1e-9)
        }
    });
    let size = |s: f64| size_words(axis, machine, s);
    let bound = if metric.lower_is_better() {
        "≤"
    } else {
        "≥"
    };
    let largest = evaluated.last().map_or(0.0, |p| p.size);
    let mut answer = match found {
        Some(f) => format!(
            "The fewest for a {} {bound} {} under {policy}: {} ({}).",
            metric.words(),
            metric.show(goal),
            size(f.size),
            metric.show(f.value.unwrap_or(goal))
        ),
        None => format!(
            "Not even {} bring the {} {bound} {} under {policy} ({} there).",
            size(largest),
            metric.words(),
            metric.show(goal),
            evaluated
                .last()
                .and_then(|p| p.value)
                .map_or("none".into(), |v| metric.show(v))
        ),
    };
    if !monotone {
        answer += &if every {
            let miss = found.and_then(|f| {
                evaluated
                    .iter()
                    .find(|p| p.size > f.size && !p.value.is_some_and(|v| meets(metric, v, goal)))
            });
            match miss {
                Some(p) => format!(
                    " The {} is not monotone in the size: {} miss the goal again ({}).",
                    metric.words(),
                    size(p.size),
                    p.value.map_or("none".into(), |v| metric.show(v))
                ),
                None => format!(" The {} is not monotone in the size.", metric.words()),
            }
        } else {
            format!(
                " The {} is not monotone in the size at the {} sizes evaluated, so a smaller size may also meet it: sweep the range to see.",
                metric.words(),
                evaluated.len()
            )
        };
    }
    Seek {
        metric,
        policy: policy.to_owned(),
        goal,
        found,
        evaluated,
        monotone,
        answer,
    }
}
