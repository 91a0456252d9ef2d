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
