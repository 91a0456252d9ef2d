//! The checks pass the plans every policy makes and catch each kind of broken plan: a check
//! that cannot fail is no check.

use smd_check::check_plan;
use smd_core::model::JobModel;
use smd_core::{generate, plan, GenerateOptions, Plan, Policy, Scenario};

fn scenario(seed: u64) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 10,
        seed,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    s
}

fn models(s: &Scenario) -> Vec<JobModel> {
    s.jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect()
}

#[test]
fn every_policy_s_plan_passes() {
    for seed in 1..=3 {
        let s = scenario(seed);
        for p in Policy::POOL {
            let plan = plan(&s, p).unwrap();
            assert_eq!(
                check_plan(&s, &models(&s), &plan),
                Vec::<String>::new(),
                "{p}"
            );
        }
    }
}

/// A way to break a plan at its job `i`.
type Break = fn(&mut Plan, usize);

#[test]
fn each_broken_plan_is_named() {
    let s = scenario(1);
    let m = models(&s);
    let good = plan(&s, Policy::Smd).unwrap();
    let first = good
        .jobs
        .iter()
        .position(|j| j.admitted)
        .expect("an admitted job");
    let broken: [(&str, Break); 4] = [
        ("total utility", |p, _| p.total_utility += 1.0),
        ("admitted =", |p, _| p.admitted += 1),
        ("utility", |p, i| p.jobs[i].utility *= 2.0),
        ("not in Ω", |p, i| p.jobs[i].workers = Some(1_000_000)),
    ];
    for (words, breaks) in broken {
        let mut p = good.clone();
        breaks(&mut p, first);
        let errs = check_plan(&s, &m, &p);
        assert!(errs.iter().any(|e| e.contains(words)), "{words}: {errs:?}");
    }
}
