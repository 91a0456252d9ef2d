//! `enumerate::integer_optimum` against a full brute force over Ω's integer bounding box.
//!
//! The brute force evaluates every integer (w, p) of the box that `omega.contains`, with its
//! own T from θ (docs/MODEL.md §3), and relies on no convexity argument.

use crate::enumerate::integer_optimum;
use crate::model::JobModel;
use crate::scenario::{Job, Layer, Mode, Overlap, Resources};
use crate::testutil;
use crate::testutil::{hand_job, model, res, t_of};

/// Integer bounding box of Ω from the job's numbers: w ≤ min_r (L_r − O^p_r)/O^w_r and
/// p ≤ min_r (L_r − O^w_r)/O^p_r (the other variable at its least value 1), plus one.
fn bounding_box(m: &JobModel) -> (u64, u64) {
    let (ow, op, lim) = (m.worker.to_array(), m.ps.to_array(), m.limit.to_array());
    let mut wb = f64::INFINITY;
    let mut pb = f64::INFINITY;
    for r in 0..4 {
        if ow[r] > 0.0 {
            wb = wb.min((lim[r] - op[r]) / ow[r]);
        }
        if op[r] > 0.0 {
            pb = pb.min((lim[r] - ow[r]) / op[r]);
        }
    }
    assert!(wb.is_finite() && pb.is_finite(), "Ω must be bounded");
    (wb.max(0.0) as u64 + 1, pb.max(0.0) as u64 + 1)
}

struct Brute {
    best: Option<(u64, u64, f64)>,
    /// Whether the minimum is unique (no other point within 1e-12 relative).
    unique: bool,
    points: u64,
}

fn brute_force(m: &JobModel) -> Brute {
    let (wb, pb) = bounding_box(m);
    let mut best: Option<(u64, u64, f64)> = None;
    let mut second = f64::INFINITY;
    let mut points = 0;
    for w in 1..=wb {
        for p in 1..=pb {
            if !m.omega.contains(w as f64, p as f64) {
                continue;
            }
            points += 1;
            let t = t_of(m, w as f64, p as f64);
            match best {
                Some((_, _, bt)) if t >= bt => second = second.min(t),
                _ => {
                    if let Some((_, _, bt)) = best {
                        second = second.min(bt);
                    }
                    best = Some((w, p, t));
                }
            }
        }
    }
    let unique = best.is_some_and(|b| second > b.2 * (1.0 + 1e-12));
    Brute {
        best,
        unique,
        points,
    }
}

/// Compares and returns whether the point was compared (unique minimum).
fn check(m: &JobModel, what: &str) -> bool {
    let got = integer_optimum(m);
    let want = brute_force(m);
    match (got, want.best) {
        (None, None) => {
            assert!(!m.feasible(), "{what}: no integer point but (1,1) fits");
            false
        }
        (Some(g), None) => panic!("{what}: integer_optimum gave {g:?}, brute force found no point"),
        (None, Some(b)) => panic!("{what}: integer_optimum gave None, brute force found {b:?}"),
        (Some((w, p, t)), Some((bw, bp, bt))) => {
            assert!(
                m.omega.contains(w as f64, p as f64),
                "{what}: ({w}, {p}) outside Ω"
            );
            assert!(
                (t - t_of(m, w as f64, p as f64)).abs() <= 1e-12 * t,
                "{what}: reported T {t} is not T({w}, {p})"
            );
            assert!(
                (t - bt).abs() <= 1e-12 * bt,
                "{what}: integer_optimum ({w}, {p}) T = {t}; brute force ({bw}, {bp}) T = {bt} \
                 over {} points",
                want.points
            );
            if want.unique {
                assert_eq!(
                    (w, p),
                    (bw, bp),
                    "{what}: different point for a unique minimum"
                );
            }
            want.unique
        }
    }
}

#[test]
fn generated_jobs() {
    let mut feasible = 0;
    let mut unique = 0;
    let mut points = 0;
    for (seed, mode) in [
        (31, Mode::Sync),
        (32, Mode::Async),
        (33, Mode::Sync),
        (34, Mode::Async),
    ] {
        for i in 0..80 {
            let m = testutil::generated(seed, i, mode);
            feasible += usize::from(m.feasible());
            points += brute_force(&m).points;
            unique += usize::from(check(&m, &format!("seed {seed} job {i} ({mode:?})")));
        }
    }
    eprintln!(
        "{feasible} feasible jobs of 320 ({points} integer points), {unique} with a unique minimum"
    );
    assert!(feasible >= 280, "only {feasible} feasible");
    assert!(
        unique >= feasible / 2,
        "too few unique minima ({unique}) to compare points"
    );
}

/// The hand job of `common` made larger: 300 MB, m = 20, K = 400, ten equal layers, ϑ = 4.
fn base_job(mode: Mode) -> Job {
    Job {
        id: "edge".into(),
        model_size_mb: 300.0,
        minibatch: 20.0,
        global_batch: 400.0,
        layers: vec![
            Layer {
                forward_ms: 200.0,
                backward_ms: 100.0,
                comm_ms: 200.0
            };
            10
        ],
        limit_instances: 4.0,
        ..hand_job(mode, Overlap::Sequential, 0.6)
    }
}

/// `base_job` with other task demands and limit, which shape Ω.
fn shaped_job(mode: Mode, worker: Resources, ps: Resources, limit_instances: f64) -> Job {
    Job {
        worker,
        ps,
        limit_instances,
        ..base_job(mode)
    }
}

#[test]
fn single_point_omega() {
    for mode in [Mode::Sync, Mode::Async] {
        let job = shaped_job(
            mode,
            res(4.0, 20.0, 30.0, 50.0),
            res(0.0, 16.0, 30.0, 50.0),
            1.0,
        );
        let m = model(&job);
        assert_eq!(brute_force(&m).points, 1);
        check(&m, &format!("single point {mode:?}"));
        assert_eq!(integer_optimum(&m).map(|o| (o.0, o.1)), Some((1, 1)));
    }
}

#[test]
fn infeasible_job() {
    let mut job = base_job(Mode::Sync);
    job.worker.gpu = 5.0; // more than one instance carries
    job.limit_instances = 1.0;
    let m = model(&job);
    assert!(!m.feasible());
    assert_eq!(integer_optimum(&m), None);
    check(&m, "infeasible");
}

#[test]
fn zero_ps_overhead_t_decreases_in_p() {
    for mode in [Mode::Sync, Mode::Async] {
        for overlap in [Overlap::Sequential, Overlap::Wfbp] {
            let mut job = base_job(mode);
            job.overlap = overlap;
            job.ps_overhead_s = 0.0;
            let m = model(&job);
            assert_eq!(m.theta[1], 0.0);
            assert!(m.theta[3] > 0.0);
            assert!(t_of(&m, 3.0, 5.0) < t_of(&m, 3.0, 4.0));
            let what = format!("β2 = 0, {mode:?}, {overlap:?}");
            check(&m, &what);
            // With more PS always better, the optimum uses the most PS its w allows.
            let (w, p, _) = integer_optimum(&m).unwrap();
            assert!(
                !m.omega.contains(w as f64, p as f64 + 1.0),
                "{what}: ({w}, {p}) could add a PS"
            );
        }
    }
    // Both PS terms vanish (β2 = 0 and pipelined compute-bound): T does not depend on p.
    let mut job = base_job(Mode::Sync);
    job.ps_overhead_s = 0.0;
    job.overlap = Overlap::Pipelined;
    job.model_size_mb = 30.0;
    let m = model(&job);
    assert_eq!((m.theta[1], m.theta[3]), (0.0, 0.0));
    check(&m, "T flat in p");
}

#[test]
fn wide_flat_and_tall_boxes() {
    for mode in [Mode::Sync, Mode::Async] {
        // Wide: up to 220 workers (storage: 5w + 900p ≤ 2000), at most 2 PS.
        let mut job = shaped_job(
            mode,
            res(0.0, 1.0, 2.0, 5.0),
            res(0.0, 1.0, 2.0, 900.0),
            20.0,
        );
        job.worker_overhead_s = 0.001; // so that the optimum sits far out in w
        let m = model(&job);
        let (wb, pb) = bounding_box(&m);
        assert!(wb > 200 && pb <= 3, "box {wb}×{pb}");
        check(&m, &format!("wide {mode:?}"));
        // Flat: T barely changes across the box; many near-ties.
        job.worker_overhead_s = 0.0;
        job.ps_overhead_s = 0.0;
        job.model_size_mb = 0.01;
        let flat = model(&job);
        check(&flat, &format!("flat {mode:?}"));
        // Big: w + p ≤ 400 (storage), ~8·10^4 integer points; cheap workers push w* out.
        let mut job = shaped_job(mode, res(0.0, 1.0, 2.0, 5.0), res(0.0, 1.0, 2.0, 5.0), 20.0);
        for beta1 in [0.0001, 0.01, 1.0] {
            job.worker_overhead_s = beta1;
            let m = model(&job);
            assert!(brute_force(&m).points > 70_000);
            check(&m, &format!("big box {mode:?} β1 = {beta1}"));
        }
        // Tall: one worker, many PS.
        let mut job = shaped_job(mode, res(4.0, 10.0, 2.0, 5.0), res(0.0, 1.0, 0.5, 1.0), 1.0);
        job.ps_overhead_s = 0.0;
        let m = model(&job);
        let (wb, pb) = bounding_box(&m);
        assert!(wb <= 2 && pb > 20, "box {wb}×{pb}");
        check(&m, &format!("tall {mode:?}"));
    }
}

#[test]
fn boundary_written_in_decimals() {
    // Limits hit exactly by decimal demands: 0.1·w + 0.2·p ≤ 3.6 at the instance's vCPU… the
    // brute force and the enumeration must agree on which boundary points are in.
    let mut job = shaped_job(
        Mode::Sync,
        res(0.0, 0.3, 0.7, 0.1),
        res(0.0, 0.9, 0.1, 0.7),
        0.1,
    );
    job.ps_overhead_s = 0.0;
    job.worker_overhead_s = 0.01;
    check(&model(&job), "decimal boundary");
}

/// BUG (smd-core, enumerate.rs / omega.rs): `integer_optimum` only visits w ≤
/// `omega.w_max_int()` = ⌊w_max(1) + 1e-9·w_max(1)⌋, a tolerance in units of w, while
/// `omega.contains` accepts a resource overshoot of 1e-9·L, which in units of w is
/// 1e-9·L/O^w_r — much larger when the PS takes most of the resource. Here
/// w + 997.0000005·p ≤ 1000: w_max(1) = 2.9999995, so `w_max_int()` = 2, yet
/// `contains(3, 1)` is true (overshoot 5e-7 ≤ 1e-6 = 1e-9·1000). T falls in w, so the brute
/// force over `contains` finds (3, 1) and `integer_optimum` returns (2, 1).
/// (Same for `p_max_int` with the roles of w and p swapped.) Only reachable with a
/// boundary within 1e-9·L of an integer point; inputs with two decimals never hit it.
#[test]
fn tolerance_of_w_max_int_matches_contains() {
    let mut job = base_job(Mode::Sync);
    job.worker_overhead_s = 0.001;
    check_vcpu_edge(
        job,
        [1.0, 997.000_000_5],
        (3.0, 1.0),
        (2.0, 1.0),
        "w_max_int",
    );
}

/// BUG (smd-core), the mirror image of the test above for p: 997.0000005·w + p ≤ 1000 gives
/// p_max(1) = 2.9999995 and `p_max_int(1)` = 2, yet `contains(1, 3)` is true; T falls in p
/// (β2 = 0), so the brute force finds (1, 3) and `integer_optimum` returns (1, 2).
#[test]
fn tolerance_of_p_max_int_matches_contains() {
    let mut job = base_job(Mode::Sync);
    job.ps_overhead_s = 0.0;
    check_vcpu_edge(
        job,
        [997.000_000_5, 1.0],
        (1.0, 3.0),
        (1.0, 2.0),
        "p_max_int",
    );
}

/// `job` on a 1000-vCPU instance where vCPU alone binds: `vcpu[0]·w + vcpu[1]·p ≤ 1000`.
/// The premises: `outer` is in Ω by `contains` and has a lower T than its neighbour `inner`.
/// Then the brute force and `integer_optimum` are compared.
fn check_vcpu_edge(job: Job, vcpu: [f64; 2], outer: (f64, f64), inner: (f64, f64), bound: &str) {
    let job = Job {
        worker: res(0.0, vcpu[0], 0.001, 0.001),
        ps: res(0.0, vcpu[1], 0.001, 0.001),
        limit_instances: 1.0,
        ..job
    };
    let m = JobModel::new(&job, &res(4.0, 1000.0, 1e6, 1e6), None);
    assert!(
        m.omega.contains(outer.0, outer.1),
        "the premise: {outer:?} is in Ω by `contains`"
    );
    assert!(
        t_of(&m, outer.0, outer.1) < t_of(&m, inner.0, inner.1),
        "the premise: T falls from {inner:?} to {outer:?}"
    );
    check(&m, &format!("{bound} vs contains tolerance"));
}
