//! Sweeps over mixes of machine types (docs/MODEL.md §25): the answer against a brute-force
//! scan of the same grid, the frontier against the definition of dominance, the skip rule
//! against the whole grid, costs re-derived from the runs.

use smd_apps::trace::workload_on_mix;
use smd_sim::SimPolicy;
use smd_sweep::{
    frontier, parse_budget, Metric, Minimize, MixPoint, MixReport, MixSearch, MixSpec, Options,
    Question, SweepError,
};

/// The first 30 jobs of the bundled Philly workload: small enough that a grid runs in
/// seconds, long enough that the mix matters.
fn base() -> smd_core::Scenario {
    workload_on_mix("philly-1", 30, "t4x4=1").unwrap()
}

const GRID: &str = "t4x4=0:4,a100x8=0:2";

fn question(goal: Option<f64>, budget: Option<f64>, minimize: Minimize, every: bool) -> Question {
    Question {
        metric: Metric::MeanJct,
        policy: SimPolicy::Sia,
        goal,
        budget,
        minimize,
        every,
    }
}

fn run(q: Question) -> MixReport {
    let s = base();
    let search = MixSearch::new(&s, MixSpec::parse(GRID).unwrap(), q).unwrap();
    search.run(&s, &mut Options::default()).unwrap()
}

/// Better on the metric (less is better for the mean JCT).
fn dominates(a: &MixPoint, b: &MixPoint) -> bool {
    let (ua, va, ub, vb) = (
        a.usd_per_hour.unwrap(),
        a.value.unwrap(),
        b.usd_per_hour.unwrap(),
        b.value.unwrap(),
    );
    ua <= ub && va <= vb && (ua < ub || va < vb)
}

#[test]
fn the_cheapest_mix_is_the_brute_force_scans_and_skipping_loses_nothing() {
    let all = run(question(None, None, Minimize::Metric, true));
    assert_eq!(all.grid, 15);
    assert_eq!(all.evaluated, 15);
    assert_eq!(all.skipped, 0);
    let values: Vec<f64> = all.points.iter().filter_map(|p| p.value).collect();
    assert!(values.len() >= 10, "most mixes finish the jobs: {values:?}");
    // A goal between the best and the worst value, so that some mixes meet it and some not.
    let mut sorted = values.clone();
    sorted.sort_by(f64::total_cmp);
    for goal in [
        sorted[0],
        sorted[sorted.len() / 2],
        sorted[sorted.len() - 1],
        sorted[0] * 0.5,
    ] {
        let cheap = run(question(Some(goal), None, Minimize::Cost, false));
        // The scan: among every mix with a value at most the goal, the least price, then
        // the least value, then the first in the grid.
        let scan = all
            .points
            .iter()
            .filter(|p| p.value.is_some_and(|v| v <= goal))
            .min_by(|a, b| {
                a.usd_per_hour
                    .unwrap()
                    .total_cmp(&b.usd_per_hour.unwrap())
                    .then(a.value.unwrap().total_cmp(&b.value.unwrap()))
                    .then(a.index.cmp(&b.index))
            });
        assert_eq!(
            cheap.best.as_ref().map(|p| p.index),
            scan.map(|p| p.index),
            "goal {goal}"
        );
        // Every mix it evaluated gave the value the full grid gave.
        for p in &cheap.points {
            assert_eq!(Some(p), all.points.iter().find(|a| a.index == p.index));
        }
        match &cheap.best {
            Some(b) => {
                // Skipped exactly the mixes pricier than the answer.
                let c = b.usd_per_hour.unwrap();
                let pricier = all
                    .points
                    .iter()
                    .filter(|p| p.usd_per_hour.unwrap() > c)
                    .count();
                assert_eq!(cheap.skipped, pricier);
                assert_eq!(cheap.evaluated + cheap.skipped, 15);
                assert!(
                    cheap.answer.starts_with("The cheapest mix with mean JCT ≤"),
                    "{}",
                    cheap.answer
                );
                if pricier > 0 {
                    assert!(
                        cheap.answer.contains("cannot be cheaper"),
                        "{}",
                        cheap.answer
                    );
                }
            }
            None => {
                assert_eq!(cheap.skipped, 0);
                assert!(
                    cheap
                        .answer
                        .starts_with("No mix of the grid has mean JCT ≤"),
                    "{}",
                    cheap.answer
                );
            }
        }
    }
}

#[test]
fn the_best_within_a_budget_is_the_scans_and_only_over_budget_mixes_are_skipped() {
    let all = run(question(None, None, Minimize::Metric, true));
    let prices: Vec<f64> = all.points.iter().map(|p| p.usd_per_hour.unwrap()).collect();
    for budget in [0.0, prices[3], prices[8], 1e6] {
        let r = run(question(None, Some(budget), Minimize::Metric, false));
        let scan = all
            .points
            .iter()
            .filter(|p| p.usd_per_hour.unwrap() <= budget && p.value.is_some())
            .min_by(|a, b| {
                a.value
                    .unwrap()
                    .total_cmp(&b.value.unwrap())
                    .then(a.usd_per_hour.unwrap().total_cmp(&b.usd_per_hour.unwrap()))
                    .then(a.index.cmp(&b.index))
            });
        assert_eq!(
            r.best.as_ref().map(|p| p.index),
            scan.map(|p| p.index),
            "budget {budget}"
        );
        let over = prices.iter().filter(|&&u| u > budget).count();
        assert_eq!(r.skipped, over, "budget {budget}");
    }
}

/// A goal no mix meets within a budget: the answer names the best mix within the budget,
/// never a better one past it (which the whole grid's runs, with `every`, include).
#[test]
fn with_no_answer_the_best_named_is_within_the_budget() {
    let all = run(question(None, None, Minimize::Metric, true));
    let best = |budget: f64| {
        all.points
            .iter()
            .filter(|p| p.usd_per_hour.unwrap() <= budget && p.value.is_some())
            .min_by(|a, b| a.value.unwrap().total_cmp(&b.value.unwrap()))
            .unwrap()
    };
    let overall = best(f64::INFINITY);
    let budget = all
        .points
        .iter()
        .filter_map(|p| p.usd_per_hour)
        .filter(|&u| u > 0.0 && u < overall.usd_per_hour.unwrap())
        .fold(0.0, f64::max);
    let within = best(budget);
    assert!(within.value.unwrap() > overall.value.unwrap());
    let r = run(question(Some(1.0), Some(budget), Minimize::Cost, true));
    assert!(r.best.is_none());
    let price = |p: &MixPoint| format!("{}/h", smd_format::usd(p.usd_per_hour.unwrap()));
    // The first sentence; the frontier's, after it, spans the whole grid.
    let first = r.answer.split(").").next().unwrap();
    assert!(
        first.starts_with(&format!(
            "No mix of the grid within {}/h has mean JCT",
            smd_format::usd(budget)
        )) && first.contains(&price(within))
            && !first.contains(&price(overall)),
        "{}",
        r.answer
    );
}

#[test]
fn the_frontier_is_exactly_the_non_dominated_mixes() {
    let all = run(question(None, None, Minimize::Metric, true));
    let with: Vec<&MixPoint> = all.points.iter().filter(|p| p.value.is_some()).collect();
    let expected: Vec<usize> = with
        .iter()
        .filter(|p| !with.iter().any(|q| dominates(q, p)))
        .map(|p| p.index)
        .collect();
    let mut got: Vec<usize> = all.frontier.iter().map(|p| p.index).collect();
    got.sort();
    let mut expected = expected;
    expected.sort();
    assert_eq!(got, expected);
    assert!(got.len() >= 2);
    // Random clouds with ties, against the same definition.
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for _ in 0..300 {
        let n = 1 + next(12) as usize;
        let pts: Vec<MixPoint> = (0..n)
            .map(|i| MixPoint {
                index: i,
                mix: vec![("t4x4".into(), i as u32)],
                usd_per_hour: Some(next(5) as f64),
                value: (next(6) != 0).then(|| next(5) as f64),
                run: None,
                note: None,
            })
            .collect();
        let with: Vec<&MixPoint> = pts.iter().filter(|p| p.value.is_some()).collect();
        let mut expected: Vec<usize> = with
            .iter()
            .filter(|p| !with.iter().any(|q| dominates(q, p)))
            .map(|p| p.index)
            .collect();
        expected.sort();
        let mut got: Vec<usize> = frontier(&pts, Metric::MeanJct)
            .iter()
            .map(|p| p.index)
            .collect();
        got.sort();
        assert_eq!(got, expected, "{pts:?}");
        // More is better: the mirror image.
        let mut expected: Vec<usize> = with
            .iter()
            .filter(|p| {
                !with.iter().any(|q| {
                    let (uq, vq, up, vp) = (
                        q.usd_per_hour.unwrap(),
                        q.value.unwrap(),
                        p.usd_per_hour.unwrap(),
                        p.value.unwrap(),
                    );
                    uq <= up && vq >= vp && (uq < up || vq > vp)
                })
            })
            .map(|p| p.index)
            .collect();
        expected.sort();
        let mut got: Vec<usize> = frontier(&pts, Metric::Finished)
            .iter()
            .map(|p| p.index)
            .collect();
        got.sort();
        assert_eq!(got, expected, "{pts:?}");
    }
}

#[test]
fn costs_add_up_from_the_runs() {
    let all = run(question(None, None, Minimize::Metric, true));
    for p in all.points.iter().filter(|p| p.run.is_some()) {
        let r = p.run.as_ref().unwrap();
        // The price is Σ count × the catalog's price.
        let t4 = p.mix[0].1 as f64;
        let a100 = p.mix[1].1 as f64;
        let usd = |t: &str| {
            smd_apps::machines::machine_type(t)
                .unwrap()
                .hourly_usd
                .unwrap()
        };
        let price = t4 * usd("t4x4") + a100 * usd("a100x8");
        assert!((p.usd_per_hour.unwrap() - price).abs() < 1e-9, "{p:?}");
        assert_eq!(r.usd_per_hour, p.usd_per_hour);
        // The jobs' GPUs never cost more than renting the cluster for the run.
        let ran = r.finished as f64 + r.unfinished as f64;
        let jobs_cost = r.cost_per_job_usd.unwrap() * ran;
        assert!(
            jobs_cost <= r.cost_usd.unwrap() * (1.0 + 1e-9) + 1e-9,
            "{p:?}"
        );
        assert!(r.cost_per_job_usd.unwrap() > 0.0);
    }
    // No machines: no run, no value, price 0.
    assert_eq!(all.points[0].usd_per_hour, Some(0.0));
    assert_eq!(all.points[0].value, None);
    assert_eq!(all.points[0].note.as_deref(), Some("no machines"));
}

#[test]
fn refusals_name_what_is_missing() {
    let s = base();
    let e =
        |grid: &str, q: Question| MixSearch::new(&s, MixSpec::parse(grid).unwrap(), q).unwrap_err();
    let cost = question(Some(1800.0), None, Minimize::Cost, false);
    let SweepError::Spec { field, message } = e("t4x4=0:2,rtx2080tix8=0:2", cost.clone()) else {
        panic!()
    };
    assert_eq!(field, "mix");
    assert!(
        message.contains("rtx2080tix8 has no published price"),
        "{message}"
    );
    // A cost as the metric needs the prices as much as minimising cost does.
    for metric in [Metric::Cost, Metric::CostPerJob] {
        let q = Question {
            metric,
            ..question(None, None, Minimize::Metric, false)
        };
        let SweepError::Spec { field, message } = e("t4x4=0:2,rtx2080tix8=0:2", q) else {
            panic!()
        };
        assert_eq!(field, "mix");
        assert!(
            message.contains("no published price"),
            "{metric:?}: {message}"
        );
    }
    let SweepError::Spec { field, message } = e(GRID, question(None, None, Minimize::Cost, false))
    else {
        panic!()
    };
    assert_eq!(field, "goal");
    assert!(message.contains("needs a goal"), "{message}");
    let SweepError::Spec { field, message } = e("h100x8=1", cost.clone()) else {
        panic!()
    };
    assert_eq!(field, "mix");
    assert!(message.contains("unknown machine type"), "{message}");
    let SweepError::Spec { field, message } = e(
        GRID,
        Question {
            policy: SimPolicy::Fifo,
            ..cost.clone()
        },
    ) else {
        panic!()
    };
    assert_eq!(field, "policy");
    assert!(
        message.contains("fifo cannot plan") && message.contains("sia"),
        "{message}"
    );
    // Without a price the other metrics stay: the frontier's sentence says which type.
    let r = MixSearch::new(
        &s,
        MixSpec::parse("t4x4=0:1,rtx2080tix8=1").unwrap(),
        question(None, None, Minimize::Metric, false),
    )
    .unwrap()
    .run(&s, &mut Options::default())
    .unwrap();
    assert_eq!(r.unpriced, vec!["rtx2080tix8".to_owned()]);
    assert!(r
        .points
        .iter()
        .all(|p| p.usd_per_hour.is_none() && p.value.is_some()));
    assert!(r.answer.contains("rtx2080tix8 has none"), "{}", r.answer);
    assert_eq!(parse_budget("$60/h"), Ok(60.0));
    assert_eq!(parse_budget("60"), Ok(60.0));
    assert!(parse_budget("-1").is_err());
    assert!(parse_budget("NaN/h").is_err());
    assert!(parse_budget("1e13").unwrap_err().contains("too large"));
}

#[test]
fn seeded_runs_repeat() {
    let a = run(question(Some(3600.0), None, Minimize::Cost, false));
    let b = run(question(Some(3600.0), None, Minimize::Cost, false));
    let strip = |r: &MixReport| {
        let mut r = r.clone();
        for p in r.points.iter_mut() {
            if let Some(x) = p.run.as_mut() {
                x.run_ms = 0.0;
            }
        }
        r
    };
    assert_eq!(strip(&a), strip(&b));
}

/// The same answer natively and in wasm: on the first 12 jobs of philly-1, the grid
/// `t4x4=0:2,a100x8=0:1` under sia says this here and in the browser test
/// `sweep::what_to_buy_answers_as_natively` (web/tests/browser/sweep.rs).
#[test]
fn the_answer_is_the_same_as_in_wasm() {
    let s = workload_on_mix("philly-1", 12, "t4x4=1").unwrap();
    let q = question(Some(2.0 * 3600.0), None, Minimize::Cost, true);
    let r = MixSearch::new(&s, MixSpec::parse("t4x4=0:2,a100x8=0:1").unwrap(), q)
        .unwrap()
        .run(&s, &mut Options::default())
        .unwrap();
    let values: Vec<Option<f64>> = r.points.iter().map(|p| p.value).collect();
    assert_eq!(r.answer, WASM_ANSWER);
    assert_eq!(values.len(), 6);
}

/// What the browser test must say too.
const WASM_ANSWER: &str = "The cheapest mix with mean JCT ≤ 2.00 h under sia: 1 × a100x8 at $21.96/h (mean JCT 71.6 min). t4x4 alone does not qualify up to 2 machines. 5 of the 6 evaluated are on the cost–mean JCT frontier (no other is both cheaper and better), from 1 × t4x4 at $3.91/h (mean JCT 9.80 h) to 2 × t4x4 + 1 × a100x8 at $29.78/h (mean JCT 59.9 min). Evaluated 6 of 6 mixes.";
