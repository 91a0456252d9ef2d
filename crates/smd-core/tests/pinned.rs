//! `plan_on`: planning on leftover capacity with some jobs pinned (the entry point the
//! online simulation drives).

// Re-deriving resource use indexes parallel arrays.
#![allow(clippy::needless_range_loop)]

mod common;

use smd_core::{
    generate, plan_global, plan_on, plan_with, Capacity, Error, GenerateOptions, Options, Pin,
    Plan, Policy, Scenario,
};

fn scenario() -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 12,
        seed: 8,
        units: 0.4,
        ..Default::default()
    });
    s.params.epsilon = 0.1;
    s
}

/// Plans compared without their timings.
fn same(a: &Plan, b: &Plan) -> bool {
    let strip = |p: &Plan| {
        let mut p = p.clone();
        p.stats.solve_ms = 0.0;
        p.stats.inner_ms = 0.0;
        p.stats.rounding_ms = 0.0;
        p.stats.outer_ms = 0.0;
        p
    };
    strip(a) == strip(b)
}

#[test]
fn without_pins_it_is_the_plain_plan() {
    let s = scenario();
    for policy in Policy::ALL {
        let direct = plan_with(&s, policy, &mut Options::default()).unwrap();
        let on = plan_on(&s, &Capacity::of(&s), &[], |sub| {
            plan_with(sub, policy, &mut Options::default())
        })
        .unwrap();
        assert!(same(&direct, &on), "{policy}");
    }
    let direct = plan_global(&s, &mut Options::default(), 50_000).unwrap();
    let on = plan_on(&s, &Capacity::of(&s), &[], |sub| {
        plan_global(sub, &mut Options::default(), 50_000)
    })
    .unwrap();
    assert!(same(&direct, &on), "global");
}

#[test]
fn pinned_jobs_are_admitted_as_given_and_the_rest_fit_what_is_left() {
    pinned_jobs_fit(&scenario());
}

#[test]
fn on_machines_the_rest_fit_what_is_left_too() {
    // The same jobs on 4 machines holding the same total: the leftover is still a pool
    // (admission's view), and the pinned jobs' use must not be counted twice.
    let mut s = scenario();
    let quarter = s.cluster.capacity().scale(0.25);
    s.version = 2;
    s.cluster = smd_core::scenario::Cluster::of_machines(
        vec![smd_core::scenario::MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "m".into(),
            count: 4.0,
            capacity: quarter,
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: None,
        }],
        s.cluster.instance,
    );
    pinned_jobs_fit(&s);
}

/// Every policy on `s` with two jobs pinned: the pins as given, the rest within what is
/// left, use and totals as reported.
fn pinned_jobs_fit(s: &Scenario) {
    let s = s.clone();
    let pins = [
        Pin {
            job: 3,
            workers: 2,
            ps: 1,
        },
        Pin {
            job: 0,
            workers: 1,
            ps: 2,
        },
    ];
    let cap = s.cluster.capacity().to_array();
    for policy in Policy::ALL {
        let p = plan_on(&s, &Capacity::of(&s), &pins, |sub| {
            plan_with(sub, policy, &mut Options::default())
        })
        .unwrap();
        assert_eq!(p.jobs.len(), s.jobs.len());
        for (line, job) in p.jobs.iter().zip(&s.jobs) {
            assert_eq!(line.id, job.id, "scenario order kept");
        }
        for pin in &pins {
            let line = &p.jobs[pin.job];
            assert!(line.admitted);
            assert_eq!((line.workers, line.ps), (Some(pin.workers), Some(pin.ps)));
        }
        // Re-derive the use of every admitted job: within the capacity, and as reported.
        let used = common::admitted_use(&p, &s);
        let total: f64 = p
            .jobs
            .iter()
            .filter(|l| l.admitted)
            .map(|l| l.utility)
            .sum();
        for r in 0..4 {
            assert!(used[r] <= cap[r] * (1.0 + 1e-9), "{policy}: resource {r}");
            let reported = p.resources.used.to_array()[r];
            assert!(
                (used[r] - reported).abs() <= 1e-9 * cap[r].max(1.0),
                "{policy}: used"
            );
        }
        assert!(
            (total - p.total_utility).abs() <= 1e-9 * total.max(1.0),
            "{policy}: total"
        );
        assert_eq!(p.admitted, p.jobs.iter().filter(|l| l.admitted).count());
    }
}

#[test]
fn impossible_pins_are_errors_naming_the_job() {
    let s = scenario();
    let smd = |sub: &Scenario| plan_with(sub, Policy::Smd, &mut Options::default());
    let name = |e: Error| match e {
        Error::Invalid(v) => (v[0].job.clone(), v[0].message.clone()),
        other => panic!("{other:?}"),
    };
    let (job, msg) = name(
        plan_on(
            &s,
            &Capacity::of(&s),
            &[Pin {
                job: 2,
                workers: 0,
                ps: 1,
            }],
            smd,
        )
        .unwrap_err(),
    );
    assert_eq!(job.as_deref(), Some(s.jobs[2].id.as_str()));
    assert!(msg.contains("region"), "{msg}");
    let twice = [
        Pin {
            job: 1,
            workers: 1,
            ps: 1,
        },
        Pin {
            job: 1,
            workers: 1,
            ps: 1,
        },
    ];
    let (_, msg) = name(plan_on(&s, &Capacity::of(&s), &twice, smd).unwrap_err());
    assert!(msg.contains("twice"), "{msg}");
    let tiny = Capacity::Pool(s.cluster.capacity().scale(1e-3));
    let (job, msg) = name(
        plan_on(
            &s,
            &tiny,
            &[Pin {
                job: 4,
                workers: 1,
                ps: 1,
            }],
            smd,
        )
        .unwrap_err(),
    );
    assert_eq!(job.as_deref(), Some(s.jobs[4].id.as_str()));
    assert!(msg.contains("capacity"), "{msg}");
}
