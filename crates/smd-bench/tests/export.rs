//! The export of `scripts/bench-highs.py` round-trips: `joint_problem` is the knapsack that
//! `global` solves (public API only; no timing here — speed goals live in the benchmark).
#![cfg(not(target_arch = "wasm32"))]

use smd_bench::joint::{Case, Mix};
use smd_core::{joint_problem, plan_global, Mode, Options};

#[test]
fn mixed_instances_alternate_modes() {
    let s = Case {
        jobs: 6,
        units: 1.0,
        mix: Mix::Mixed,
    }
    .scenario();
    let modes: Vec<Mode> = s.jobs.iter().map(|j| j.mode).collect();
    assert_eq!(
        modes,
        [Mode::Sync, Mode::Async].repeat(3),
        "every other job async"
    );
}

#[test]
fn the_exported_problem_is_the_one_global_solves() {
    for mix in [Mix::Sync, Mix::Mixed] {
        let s = Case {
            jobs: 5,
            units: 1.0,
            mix,
        }
        .scenario();
        let problem = joint_problem(&s).expect("exports");
        let json = serde_json::to_value(&problem).expect("serialises");
        assert_eq!(json["jobs"].as_array().map(Vec::len), Some(5));
        assert_eq!(problem.jobs.len(), 5);
        assert!(problem.complete, "no box thinned at 5 jobs");
        let cap = problem.capacity;
        for o in problem.jobs.iter().flatten() {
            for (r, (d, c)) in o.demand.iter().zip(&cap).enumerate() {
                assert!(
                    *d <= c * (1.0 + 1e-9),
                    "{mix:?}: option ({}, {}) needs {d} > {c} of resource {r}",
                    o.workers,
                    o.ps,
                );
            }
        }

        let plan = plan_global(&s, &mut Options::default(), 10_000_000).expect("plans");
        assert!(plan.admission.proven_optimal);
        let mut value = 0.0;
        let mut used = [0.0; 4];
        for (job, opts) in plan.jobs.iter().zip(&problem.jobs) {
            if !job.admitted {
                continue;
            }
            let (w, p) = (job.workers.expect("workers"), job.ps.expect("ps"));
            let o = opts
                .iter()
                .find(|o| (o.workers, o.ps) == (w, p))
                .unwrap_or_else(|| panic!("{mix:?}: {} at ({w}, {p}) is not exported", job.id));
            value += o.utility;
            for (u, d) in used.iter_mut().zip(&o.demand) {
                *u += d;
            }
        }
        assert!(plan.admitted > 0);
        assert!(
            (value - plan.total_utility).abs() <= 1e-9 * plan.total_utility.abs().max(1.0),
            "{mix:?}: exported value {value} vs plan {}",
            plan.total_utility
        );
        assert!(used.iter().zip(&cap).all(|(u, c)| *u <= c * (1.0 + 1e-9)));
    }
}
