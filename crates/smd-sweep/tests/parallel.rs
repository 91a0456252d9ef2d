//! rayon's points equal the serial ones, times aside (`--features parallel`).

use smd_core::{generate, GenerateOptions};
use smd_sweep::{
    sweep, sweep_parallel, Axis, Options, ParallelOptions, Policies, Range, Report, Spec,
};

fn untimed(mut r: Report) -> Report {
    for p in &mut r.points {
        for (_, o) in &mut p.policies {
            o.solve_ms = 0.0;
        }
        for (_, o) in &mut p.over_time {
            o.run_ms = 0.0;
        }
    }
    r
}

#[test]
fn parallel_equals_serial() {
    let base = generate(&GenerateOptions {
        jobs: 30,
        ..Default::default()
    });
    let spec = Spec {
        axis: Axis::Units,
        range: Range::parse("0.25:3:0.25").unwrap(),
        resource: None,
        machine_type: None,
        group: None,
    };
    let policies = Policies::all(&base.cluster, false);
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let serial = sweep(
        &base,
        &spec,
        &policies,
        &mut Options {
            clock: Some(&clock),
            ..Options::default()
        },
    )
    .unwrap();
    let parallel = sweep_parallel(
        &base,
        &spec,
        &policies,
        ParallelOptions {
            clock: Some(&clock),
            ..ParallelOptions::default()
        },
    )
    .unwrap();
    assert_eq!(parallel.points.len(), 12);
    assert!(parallel
        .points
        .iter()
        .all(|p| p.policies.iter().any(|(_, o)| o.solve_ms > 0.0)));
    assert_eq!(untimed(parallel), untimed(serial));
}

/// A mix sweep on rayon's threads gives the serial report, whichever extra mixes the
/// threads ran before the answer was settled.
#[test]
fn mixes_in_parallel_equal_serial() {
    use smd_sweep::{
        run_mixes_parallel, Metric, Minimize, MixReport, MixSearch, MixSpec, Question,
    };
    let base = smd_apps::trace::workload_on_mix("philly-1", 16, "t4x4=1").unwrap();
    let untimed = |mut r: MixReport| {
        for p in r
            .points
            .iter_mut()
            .chain(r.frontier.iter_mut())
            .chain(r.best.iter_mut())
        {
            if let Some(o) = p.run.as_mut() {
                o.run_ms = 0.0;
            }
        }
        r
    };
    for (goal, minimize) in [(Some(7200.0), Minimize::Cost), (None, Minimize::Metric)] {
        let q = Question {
            metric: Metric::MeanJct,
            policy: smd_sim::SimPolicy::Sia,
            goal,
            budget: None,
            minimize,
            every: false,
        };
        let search =
            MixSearch::new(&base, MixSpec::parse("t4x4=0:3,a100x8=0:1").unwrap(), q).unwrap();
        let serial = search.run(&base, &mut Options::default()).unwrap();
        let parallel =
            run_mixes_parallel(&search, &base, ParallelOptions::default(), &|_, _| {}).unwrap();
        assert_eq!(untimed(serial), untimed(parallel));
    }
}
