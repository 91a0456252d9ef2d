//! Charnes–Cooper bounds (docs/MODEL.md §6 step 1) against an independent vertex enumeration.
//!
//! A linear-fractional ζ with a positive denominator is quasi-linear, so its extremes over
//! the polygon Ω sit at vertices. The test builds Ω's constraint lines from the job's
//! demands and limit itself, intersects every pair, keeps the feasible intersections and
//! takes the min / max of ζ there; a dense grid of feasible points must stay in [l, φ].

use crate::charnes_cooper::extreme;
use crate::generate;
use crate::lp::Sense;
use crate::model::{JobModel, Ratio};
use crate::scenario::{Layer, Mode, Overlap, Resources, Utility};
use crate::testutil;
use crate::testutil::{close, inside, intersections, lines, res, Line};

/// Every feasible pairwise intersection of the constraint lines, without repeats.
fn vertices(ls: &[Line]) -> Vec<[f64; 2]> {
    intersections(ls, 1e-9, true)
}

/// Checks one summand of one job; returns (l, φ).
fn check_summand(m: &JobModel, r: &Ratio, what: &str) -> (f64, f64) {
    let ls = lines(m);
    let vs = vertices(&ls);
    assert!(!vs.is_empty(), "{what}: a feasible job has vertices");
    let planes = m.omega.half_planes();
    let lo = extreme(r, &planes, Sense::Min)
        .expect("LP")
        .expect("Ω not empty");
    let hi = extreme(r, &planes, Sense::Max)
        .expect("LP")
        .expect("Ω not empty");
    assert!(
        m.omega.contains(lo[0], lo[1]),
        "{what} {}: argmin {lo:?} outside Ω",
        r.name
    );
    assert!(
        m.omega.contains(hi[0], hi[1]),
        "{what} {}: argmax {hi:?} outside Ω",
        r.name
    );
    let (l, phi) = (r.eval(lo[0], lo[1]), r.eval(hi[0], hi[1]));
    let vmin = vs
        .iter()
        .map(|v| r.eval(v[0], v[1]))
        .fold(f64::INFINITY, f64::min);
    let vmax = vs
        .iter()
        .map(|v| r.eval(v[0], v[1]))
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        close(l, vmin, 1e-7),
        "{what} {}: Charnes–Cooper min {l} at {lo:?}, vertex min {vmin} (vertices {vs:?})",
        r.name
    );
    assert!(
        close(phi, vmax, 1e-7),
        "{what} {}: Charnes–Cooper max {phi} at {hi:?}, vertex max {vmax} (vertices {vs:?})",
        r.name
    );
    // A 60×60 grid over the bounding box; every feasible point stays within [l, φ].
    let wmax = vs.iter().map(|v| v[0]).fold(1.0, f64::max);
    let pmax = vs.iter().map(|v| v[1]).fold(1.0, f64::max);
    let mut seen = 0;
    for i in 0..60 {
        for k in 0..60 {
            let x = [
                1.0 + (wmax - 1.0) * i as f64 / 59.0,
                1.0 + (pmax - 1.0) * k as f64 / 59.0,
            ];
            if !inside(&ls, x, 0.0) {
                continue;
            }
            seen += 1;
            let z = r.eval(x[0], x[1]);
            let slack = 1e-9 * l.abs().max(phi.abs());
            assert!(
                z >= l - slack,
                "{what} {}: ζ{x:?} = {z} below l = {l}",
                r.name
            );
            assert!(
                z <= phi + slack,
                "{what} {}: ζ{x:?} = {z} above φ = {phi}",
                r.name
            );
        }
    }
    assert!(seen >= 1, "{what}: (1,1) at least is on the grid");
    (l, phi)
}

fn check_job(m: &JobModel, what: &str) -> usize {
    let (_, ratios) = m.split();
    for r in &ratios {
        check_summand(m, r, what);
    }
    ratios.len()
}

#[test]
fn generated_jobs_sync_and_async() {
    let mut feasible = 0;
    let mut summands = 0;
    for (seed, mode) in [(11, Mode::Sync), (12, Mode::Async)] {
        for i in 0..60 {
            let m = testutil::generated(seed, i, mode);
            let what = format!("seed {seed} job {i} ({mode:?})");
            if !m.feasible() {
                // Ω is empty: no vertex, and the LP says so.
                assert!(vertices(&lines(&m)).is_empty(), "{what}");
                let (_, ratios) = m.split();
                let planes = m.omega.half_planes();
                assert_eq!(
                    extreme(&ratios[0], &planes, Sense::Min).expect("LP"),
                    None,
                    "{what}"
                );
                continue;
            }
            feasible += 1;
            summands += check_job(&m, &what);
        }
    }
    assert!(feasible >= 100, "only {feasible} feasible jobs");
    assert_eq!(summands, 3 * feasible);
}

fn shaped_model(worker: Resources, ps: Resources, limit_instances: f64) -> JobModel {
    let mut job = generate::job(5, 0, Mode::Sync);
    job.overlap = Overlap::Sequential;
    job.layers = vec![
        Layer {
            forward_ms: 100.0,
            backward_ms: 50.0,
            comm_ms: 1.0
        };
        3
    ];
    job.worker = worker;
    job.ps = ps;
    job.limit_instances = limit_instances;
    job.utility = Utility {
        gamma1: 1.0,
        gamma2: 5.0,
        gamma3: 4.0,
    };
    testutil::model(&job)
}

#[test]
fn single_point_omega() {
    // (1,1) uses the whole instance: Ω = {(1,1)}, so l = φ = ζ(1,1).
    let m = shaped_model(res(4.0, 20.0, 30.0, 50.0), res(0.0, 16.0, 30.0, 50.0), 1.0);
    assert!(m.feasible());
    let (_, ratios) = m.split();
    for r in &ratios {
        let (l, phi) = check_summand(&m, r, "single point");
        assert!(close(l, r.eval(1.0, 1.0), 1e-7) && close(phi, r.eval(1.0, 1.0), 1e-7));
    }
}

#[test]
fn thin_and_wide_regions() {
    // Wide: many workers, at most 2 PS. Tall: one worker at most, many PS. Slanted: a
    // slanted face only (one resource binds everything).
    for (what, worker, ps, limit_instances) in [
        (
            "wide",
            res(0.0, 1.0, 2.0, 5.0),
            res(0.0, 1.0, 2.0, 900.0),
            20.0,
        ),
        (
            "tall",
            res(4.0, 10.0, 2.0, 5.0),
            res(0.0, 1.0, 2.0, 5.0),
            1.0,
        ),
        (
            "slanted",
            res(0.0, 3.0, 0.0, 0.0),
            res(0.0, 7.0, 0.0, 0.0),
            10.0,
        ),
    ] {
        check_job(&shaped_model(worker, ps, limit_instances), what);
    }
}
