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
    assert_eq!(
        a.answer,
        "Under fifo, 16 × t4x4 reach the most finished jobs swept, 10 jobs (8 jobs at 8 × t4x4)."
    );
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
