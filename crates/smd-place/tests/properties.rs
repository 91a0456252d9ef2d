//! Every policy on random instances: every rule of CLUSTER.md §2–§3 holds when re-derived
//! from the shares (`common::check`), and the same input gives the same placement.

mod common;

use common::*;
use proptest::prelude::*;
use smd_place::{place, Options, Policy};

fn options() -> Options {
    Options {
        // Random instances are beyond a proof at times: the rules must hold anyway.
        exact_max_nodes: 20_000,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_policy_keeps_every_rule(
        machines in prop::collection::vec(machine_strategy(), 0..7),
        jobs in prop::collection::vec(job_strategy(7, 4), 0..7),
        lambda in 0.0f64..=1.0,
    ) {
        let options = Options { dltap_lambda: lambda, ..options() };
        for policy in Policy::ALL {
            let pl = place(&machines, &jobs, policy, &options).unwrap();
            check(&machines, &jobs, &pl);
            prop_assert_eq!(pl.proven.is_some(), policy == Policy::Exact);
            let again = place(&machines, &jobs, policy, &options).unwrap();
            prop_assert_eq!(&pl, &again, "{} is deterministic", policy);
        }
    }

    /// A job left out takes nothing: placing the same jobs without it changes no other
    /// job's shares (every heuristic places jobs in order, each on what earlier ones left).
    #[test]
    fn a_job_not_placed_takes_nothing(
        machines in prop::collection::vec(machine_strategy(), 1..6),
        jobs in prop::collection::vec(job_strategy(8, 4), 1..7),
    ) {
        for policy in smd_place::HEURISTICS {
            let pl = place(&machines, &jobs, policy, &options()).unwrap();
            let kept: Vec<usize> = (0..jobs.len()).filter(|&i| pl.jobs[i].placed().is_some()).collect();
            let subset: Vec<_> = kept.iter().map(|&i| jobs[i].clone()).collect();
            let alone = place(&machines, &subset, policy, &options()).unwrap();
            for (k, &i) in kept.iter().enumerate() {
                prop_assert_eq!(alone.jobs[k].placed(), pl.jobs[i].placed(), "{} job {}", policy, i);
            }
            prop_assert_eq!(&alone.used, &pl.used);
        }
    }

    /// On a big enough cluster every job is placed by every policy.
    #[test]
    fn room_for_all_places_all(
        jobs in prop::collection::vec(job_strategy(6, 3), 0..5),
    ) {
        let node = res(64.0, 256.0, 1024.0, 1024.0);
        let machines: Vec<_> = (0..3).map(|i| machine(&format!("big-{i}"), node)).collect();
        for policy in Policy::ALL {
            let pl = place(&machines, &jobs, policy, &options()).unwrap();
            prop_assert_eq!(pl.placed(), jobs.len(), "{}", policy);
            check(&machines, &jobs, &pl);
        }
    }

    /// docs/PLACEMENT.md §9 step 4: on the same machines `locality` places a job whenever
    /// `first_fit` does.
    #[test]
    fn locality_places_what_first_fit_places(
        machines in prop::collection::vec(machine_strategy(), 1..6),
        job in job_strategy(10, 4),
    ) {
        let jobs = [job];
        let ff = place(&machines, &jobs, Policy::FirstFit, &options()).unwrap();
        let lo = place(&machines, &jobs, Policy::Locality, &options()).unwrap();
        prop_assert!(lo.placed() >= ff.placed());
    }

    /// Hostile numbers and counts: an error naming fields, or a placement that keeps every
    /// rule; never a panic, never a long loop.
    #[test]
    fn hostile_inputs_never_panic(
        machines in prop::collection::vec(hostile_machine(), 0..5),
        jobs in prop::collection::vec(hostile_job(), 0..5),
    ) {
        for policy in Policy::ALL {
            match place(&machines, &jobs, policy, &options()) {
                Ok(pl) => check(&machines, &jobs, &pl),
                Err(smd_core::Error::Invalid(errors)) => prop_assert!(!errors.is_empty()),
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
        }
    }
}

/// Mostly valid extremes, sometimes anything at all (NaN, ∞, negative, subnormal).
fn hostile_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => prop::sample::select(vec![0.0, 1e-300, 1e-12, 0.1, 1.0, 3.0, 5e11, 1e12]),
        1 => any::<f64>(),
    ]
}

fn hostile_count() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => 0u32..4,
        1 => prop::sample::select(vec![u32::MAX, u32::MAX - 1, 1 << 31, 1_000_001]),
    ]
}

fn hostile_machine() -> impl Strategy<Value = smd_place::Machine> {
    (
        [
            hostile_number(),
            hostile_number(),
            hostile_number(),
            hostile_number(),
        ],
        prop::option::of(hostile_number()),
        prop::option::of(hostile_number()),
    )
        .prop_map(|([g, v, m, s], nic_gbps, local_gbps)| smd_place::Machine {
            name: "h".into(),
            capacity: res(g, v, m, s),
            nic_gbps,
            local_gbps,
        })
}

fn hostile_job() -> impl Strategy<Value = smd_place::Job> {
    (
        (hostile_count(), hostile_count()),
        [
            hostile_number(),
            hostile_number(),
            hostile_number(),
            hostile_number(),
        ],
        [hostile_number(), hostile_number()],
        (hostile_number(), hostile_number()),
    )
        .prop_map(
            |((w, p), [g, v, m, s], [pv, pm], (b, grad))| smd_place::Job {
                id: "h".into(),
                mode: smd_core::scenario::Mode::Async,
                workers: w,
                ps: p,
                worker_demand: res(g, v, m, s),
                ps_demand: res(0.0, pv, pm, s),
                bandwidth_gbps: b,
                gradient_gbit: grad,
            },
        )
}
