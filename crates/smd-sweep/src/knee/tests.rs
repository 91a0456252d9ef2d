use super::*;
use crate::evaluate::{Outcome, Size};
use smd_core::scenario::Resources;
use smd_core::Policy;

/// A point of size `size` (units) whose policies have the given utilities.
fn point(size: Size, utilities: &[(Policy, f64)]) -> PointResult {
    PointResult {
        size,
        resource: None,
        machine: None,
        capacity: Resources::DEFAULT_UNIT.scale(size.value()),
        policies: utilities
            .iter()
            .map(|&(p, u)| {
                (
                    p,
                    Outcome {
                        total_utility: u,
                        admitted: 0,
                        used: Resources::default(),
                        solve_ms: 0.0,
                        gap: None,
                    },
                )
            })
            .collect(),
        over_time: Vec::new(),
    }
}

/// Points at `sizes` units with series `a` (smd) and `b` (global).
fn series(sizes: &[f64], a: &[f64], b: &[f64]) -> Vec<PointResult> {
    sizes
        .iter()
        .zip(a.iter().zip(b))
        .map(|(&s, (&a, &b))| point(Size::Units(s), &[(Policy::Smd, a), (Policy::Global, b)]))
        .collect()
}

#[test]
fn the_knee_by_hand() {
    // smd ends highest (100): 95 is first reached at 4 units (96); the one step beyond
    // adds 4 per unit, 4% of 100.
    let r = series(
        &[1.0, 2.0, 3.0, 4.0, 5.0],
        &[10.0, 50.0, 90.0, 96.0, 100.0],
        &[20.0, 40.0, 60.0, 80.0, 99.0],
    );
    let k = knee(&r);
    assert_eq!(k.best_policy.as_deref(), Some("smd"));
    assert_eq!(k.size, Some(4.0));
    assert_eq!(k.utility, 96.0);
    assert_eq!(k.max_utility, 100.0);
    assert_eq!(k.fraction, Some(0.96));
    assert!((k.marginal_pct.unwrap() - 4.0).abs() < 1e-12);
    assert_eq!(
        k.answer,
        "4 units reach 95% of the achievable utility (smd's 100.0 at 5 units); beyond that each unit adds < 4.1%."
    );
}

#[test]
fn uneven_steps_count_per_unit_and_the_largest_later_step_counts() {
    // Knee at 2 units (97 ≥ 95); beyond it one step of 2 units adds 3: 1.5% per unit.
    let r = series(&[0.5, 1.0, 2.0, 4.0], &[50.0, 90.0, 97.0, 100.0], &[0.0; 4]);
    let k = knee(&r);
    assert_eq!(k.size, Some(2.0));
    assert!((k.marginal_pct.unwrap() - 1.5).abs() < 1e-12);
    assert!(k.answer.ends_with("each unit adds < 1.6%."), "{}", k.answer);
    // A dip after the knee that stays above 95%: the largest later step is what counts (+4
    // from 3 to 4), and the fall is said.
    let r = series(&[1.0, 2.0, 3.0, 4.0], &[10.0, 97.0, 96.0, 100.0], &[0.0; 4]);
    let k = knee(&r);
    assert_eq!(k.size, Some(2.0));
    assert!((k.marginal_pct.unwrap() - 4.0).abs() < 1e-12);
    assert!(
        k.answer.ends_with(
            "smd's utility is not monotone in the size: 3 units give 96.0, less than 97.0 at 2 units."
        ),
        "{}",
        k.answer
    );
}

#[test]
fn the_knee_is_where_the_curve_stays_above_the_share_and_small_steps_add_no_absurd_rate() {
    // Issue 23's sweep: 1.23 units reach 95%, 1.24 units fall below it again; steps of 0.01
    // unit, each of which adds up to 5.7% (570% "per unit" as a rate).
    let sizes = [1.20, 1.21, 1.22, 1.23, 1.24, 1.25, 1.26, 1.27];
    let u = [80.0, 85.0, 90.7, 96.0, 94.0, 99.5, 99.8, 100.0];
    let k = knee(&series(&sizes, &u, &[0.0; 8]));
    assert_eq!(k.size, Some(1.25), "{}", k.answer);
    // Beyond 1.25 units the whole rest adds 0.5: no stretch of one unit adds more.
    assert!((k.marginal_pct.unwrap() - 0.5).abs() < 1e-9, "{k:?}");
    assert!(
        k.answer.starts_with(
            "1.25 units reach 95% of the achievable utility (smd's 100.0 at 1.27 units); beyond that each unit adds < 0.51%."
        ),
        "{}",
        k.answer
    );
    assert!(
        k.answer.ends_with(
            "not monotone in the size: 1.24 units give 94.0, less than 96.0 at 1.23 units."
        ),
        "{}",
        k.answer
    );
    // A monotone curve says nothing about monotonicity; a knee at the last size says to
    // sweep further.
    let k = knee(&series(
        &[1.0, 2.0, 3.0, 4.0],
        &[10.0, 96.0, 80.0, 100.0],
        &[0.0; 4],
    ));
    assert_eq!(k.size, Some(4.0));
    assert!(
        k.answer
            .starts_with("Only 4 units, the largest size swept,"),
        "{}",
        k.answer
    );
    let k = knee(&series(&[1.0, 2.0, 3.0], &[10.0, 96.0, 100.0], &[0.0; 3]));
    assert!(!k.answer.contains("monotone"), "{}", k.answer);
}

#[test]
fn no_knee_without_utility() {
    let r = series(&[1.0, 2.0, 5.0], &[0.0; 3], &[0.0; 3]);
    let k = knee(&r);
    assert_eq!(
        (k.best_policy.clone(), k.size, k.fraction, k.marginal_pct),
        (None, None, None, None)
    );
    assert_eq!(
        k.answer,
        "No policy has any utility at 5 units: there is no knee."
    );
    let k = knee(&[]);
    assert_eq!(k.answer, "Nothing was swept: there is no knee.");
}

#[test]
fn the_edges_in_words() {
    // Still climbing at the end.
    let k = knee(&series(&[1.0, 2.0, 3.0], &[0.0, 10.0, 100.0], &[0.0; 3]));
    assert_eq!(k.size, Some(3.0));
    assert_eq!(k.marginal_pct, None);
    assert_eq!(
        k.answer,
        "Only 3 units, the largest size swept, reach 95% of the achievable utility (smd's 100.0): sweep further to see where it levels off."
    );
    // Flat from the start.
    let k = knee(&series(&[1.0, 2.0, 3.0], &[100.0; 3], &[0.0; 3]));
    assert_eq!(k.size, Some(1.0));
    assert_eq!(
        k.answer,
        "1 unit reaches 95% of the achievable utility (smd's 100.0 at 3 units); beyond that more units add nothing."
    );
    // One size.
    let k = knee(&series(&[2.0], &[5.0], &[1.0]));
    assert_eq!(
        k.answer,
        "2 units are the only size swept: sweep a range of sizes to find the knee."
    );
}

#[test]
fn among_equals_the_policy_that_gets_there_first() {
    let k = knee(&series(
        &[1.0, 2.0, 3.0],
        &[0.0, 0.0, 100.0],
        &[100.0, 100.0, 100.0],
    ));
    assert_eq!(k.best_policy.as_deref(), Some("global"));
    assert_eq!(k.size, Some(1.0));
}

#[test]
fn machines_and_one_resource_in_words() {
    let mut r = series(
        &[4.0, 8.0, 12.0, 16.0],
        &[10.0, 60.0, 97.0, 100.0],
        &[0.0; 4],
    );
    for p in &mut r {
        p.size = Size::Machines(p.size.value());
        p.machine = Some("t4x4".into());
    }
    let k = knee(&r);
    // 3 over 4 machines: 0.75 per machine, 0.75%.
    assert_eq!(
        k.answer,
        "12 t4x4 machines reach 95% of the achievable utility (smd's 100.0 at 16 t4x4 machines); beyond that each t4x4 machine adds < 0.76%."
    );
    for p in &mut r {
        p.resource = Some(Resource::Gpu);
        p.capacity.gpu = 4.0 * p.size.value();
    }
    let k = knee(&r);
    assert_eq!(k.amount, Some(48.0));
    assert_eq!(k.amount_step, Some(4.0));
    assert_eq!(
        k.answer,
        "48 GPUs reach 95% of the achievable utility (smd's 100.0 at 64 GPUs); beyond that each additional 4 GPUs add < 0.76%."
    );
    let mut r = series(&[0.5, 1.0, 1.5], &[10.0, 96.0, 100.0], &[0.0; 3]);
    for p in &mut r {
        p.resource = Some(Resource::MemoryGb);
    }
    let flat = {
        let mut f = r.clone();
        for p in &mut f {
            p.policies[0].1.total_utility = 100.0;
        }
        f
    };
    assert!(knee(&flat)
        .answer
        .ends_with("beyond that more memory adds nothing."));
    let k = knee(&r);
    // Steps of half a unit: the one unit beyond the knee that was swept (half of it) adds 4.
    assert_eq!(
        k.answer,
        "1400 GB of memory reaches 95% of the achievable utility (smd's 100.0 at 2100 GB of memory); beyond that each additional 1400 GB of memory adds < 4.1%."
    );
}

#[test]
fn over_time_leaves_the_bound_out() {
    use crate::evaluate::TimeOutcome;
    let t = |u: f64| TimeOutcome {
        total_utility: u,
        bound: 1000.0,
        finished: 1,
        unfinished: 0,
        mean_jct_s: Some(1.0),
        mean_queue_s: Some(0.0),
        p95_jct_s: Some(1.0),
        gpu_hours: 0.0,
        cost_usd: None,
        usd_per_hour: None,
        cost_per_job_usd: None,
        run_ms: 0.0,
    };
    let mut r = series(&[1.0, 2.0], &[1.0, 2.0], &[1.0, 2.0]);
    assert_eq!(knee_over_time(&r), None);
    for (p, (a, b)) in r.iter_mut().zip([(10.0, 500.0), (20.0, 1000.0)]) {
        p.over_time = vec![(SimPolicy::Fifo, t(a)), (SimPolicy::Bound, t(b))];
    }
    let k = knee_over_time(&r).unwrap();
    assert_eq!(k.best_policy.as_deref(), Some("fifo"));
    assert_eq!(k.max_utility, 20.0);
}

#[test]
fn small_utilities_keep_their_digits() {
    assert_eq!(utility_words(1149.44), "1149.4");
    assert_eq!(utility_words(12.34), "12.3");
    assert_eq!(utility_words(4.567), "4.57");
    assert_eq!(utility_words(0.000438), "0.000438");
    assert_eq!(utility_words(0.0), "0.0");
}

#[test]
fn above_is_strictly_above_with_two_digits() {
    assert_eq!(above(1.23), "1.3");
    assert_eq!(above(0.0456), "0.046");
    assert_eq!(above(1.3), "1.4");
    assert_eq!(above(12.3), "13");
    assert_eq!(above(4.0), "4.1");
    assert_eq!(above(150.0), "151");
    // Dust: still true, and readable.
    assert_eq!(above(2.2e-8), "0.01");
    assert_eq!(above(0.0099), "0.01");
    assert_eq!(above(0.01), "0.011");
}
