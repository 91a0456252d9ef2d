//! `exact` (docs/PLACEMENT.md §10) against brute force on tiny instances, and against every
//! heuristic on larger ones.

mod common;

use common::*;
use proptest::prelude::*;
use smd_place::{place, Job, Machine, Options, Policy};
use std::cmp::Ordering;

fn tiny_type() -> impl Strategy<Value = Machine> {
    (
        prop::sample::select(vec![0.0, 1.0, 2.0, 3.0]),
        prop::sample::select(vec![2.0, 4.0, 6.0]),
        prop::option::of(prop::sample::select(vec![10.0, 20.0])),
        prop::sample::select(vec![0usize, 1, 2]),
    )
        .prop_map(|(gpu, vcpu, nic_gbps, kind)| Machine {
            name: format!("t-{kind}"),
            capacity: res(gpu, vcpu, 16.0, 16.0),
            nic_gbps,
            local_gbps: [None, Some(20.0), Some(40.0)][kind],
        })
}

/// Up to 4 machines of at most 2 types, so that identical machines are common.
fn tiny_machines() -> impl Strategy<Value = Vec<Machine>> {
    (
        tiny_type(),
        tiny_type(),
        prop::collection::vec(prop::bool::ANY, 0..5),
    )
        .prop_map(|(a, b, pick)| {
            pick.into_iter()
                .map(|first| if first { a.clone() } else { b.clone() })
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn exact_equals_brute_force(
        machines in tiny_machines(),
        jobs in prop::collection::vec(job_strategy(2, 2), 0..4),
    ) {
        let pl = place(&machines, &jobs, Policy::Exact, &Options::default()).unwrap();
        check(&machines, &jobs, &pl);
        prop_assert_eq!(pl.proven, Some(true));
        let (placed, x, used) = brute_force(&machines, &jobs);
        prop_assert_eq!(pl.placed(), placed);
        prop_assert!(close(pl.total_cross_traffic_gbit, x), "X {} vs {x}", pl.total_cross_traffic_gbit);
        prop_assert_eq!(pl.machines_used, used);
    }

    #[test]
    fn exact_is_never_worse_than_a_heuristic(
        machines in prop::collection::vec(machine_strategy(), 1..8),
        jobs in prop::collection::vec(job_strategy(6, 3), 1..8),
        nodes in prop::sample::select(vec![1u64, 100, 5_000, 50_000]),
    ) {
        let options = Options { exact_max_nodes: nodes, ..Options::default() };
        let exact = place(&machines, &jobs, Policy::Exact, &options).unwrap();
        check(&machines, &jobs, &exact);
        for policy in smd_place::HEURISTICS {
            let h = place(&machines, &jobs, policy, &options).unwrap();
            prop_assert_ne!(compare(&exact, &h), Ordering::Greater, "{} is better", policy);
        }
    }
}

/// Twelve identical machines: symmetry leaves few distinct branches, so the search ends.
#[test]
fn identical_machines_are_proven_quickly() {
    let node = res(4.0, 16.0, 64.0, 100.0);
    let machines: Vec<Machine> = (0..12).map(|i| machine(&format!("n-{i}"), node)).collect();
    let worker = res(1.0, 2.0, 8.0, 1.0);
    let ps = res(0.0, 4.0, 8.0, 1.0);
    let jobs: Vec<Job> = [(3, 1), (6, 2), (2, 2), (5, 1), (1, 1), (4, 2)]
        .iter()
        .enumerate()
        .map(|(i, &(w, p))| job(&format!("j{i}"), w, p, worker, ps))
        .collect();
    let pl = place(&machines, &jobs, Policy::Exact, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    assert_eq!(pl.proven, Some(true));
    assert_eq!(pl.placed(), 6);
    // Every job with at most 4 workers fits on one node (X = 0). The 6-worker job spans two
    // at best as 4 workers + 2 PSs and 2 workers: X = (2·1/2)·(6·2 − 4·2) = 4; the 5-worker
    // one as 4 workers + 1 PS and 1 worker: X = (2·1/1)·(5·1 − 4·1) = 2. Σ X = 6.
    assert_eq!(pl.total_cross_traffic_gbit, 6.0);
}

/// At the node limit `exact` returns the best heuristic's placement, unproven.
#[test]
fn at_the_limit_the_best_heuristic_is_returned() {
    let node = res(4.0, 16.0, 64.0, 100.0);
    let machines: Vec<Machine> = (0..4).map(|i| machine(&format!("n-{i}"), node)).collect();
    let jobs = vec![job(
        "a",
        3,
        1,
        res(1.0, 2.0, 8.0, 1.0),
        res(0.0, 2.0, 8.0, 1.0),
    )];
    let options = Options {
        exact_max_nodes: 1,
        ..Options::default()
    };
    let pl = place(&machines, &jobs, Policy::Exact, &options).unwrap();
    assert_eq!(pl.proven, Some(false));
    let best = smd_place::HEURISTICS
        .iter()
        .map(|&p| place(&machines, &jobs, p, &options).unwrap())
        .min_by(compare)
        .unwrap();
    assert_eq!(compare(&pl, &best), Ordering::Equal);
}
