//! `enumerate::integer_optimum` against a full brute force over Ω's integer bounding box.
//!
//! The brute force evaluates every integer (w, p) of the box that `omega.contains`, with its
//! own T from θ (MODEL.md §3), and relies on no convexity argument.

use smd_core::enumerate::integer_optimum;
use smd_core::generate;
use smd_core::model::JobModel;
use smd_core::scenario::{Job, Layer, Mode, Overlap, Resources, Utility};

fn t_of(m: &JobModel, w: f64, p: f64) -> f64 {
    let th = m.theta;
    match m.mode {
        Mode::Sync => th[0] * w + th[1] * p + th[2] + th[3] * w / p + th[4] / w,
        Mode::Async => th[0] + th[1] * p / w + th[2] / w + th[3] / p,
    }
}

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
            let job = generate::job(seed, i, mode);
            let m = JobModel::new(&job, &Resources::DEFAULT_INSTANCE, None);
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

fn base_job(mode: Mode) -> Job {
    Job {
        id: "edge".into(),
        mode,
        overlap: Overlap::Sequential,
        iterations: 100.0,
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
        ps_bandwidth_gbps: 10.0,
        worker_overhead_s: 3.5,
        ps_overhead_s: 0.005,
        async_comm_factor: 0.6,
        worker: Resources {
            gpu: 1.0,
            vcpu: 4.0,
            memory_gb: 8.0,
            storage_gb: 5.0,
        },
        ps: Resources {
            gpu: 0.0,
            vcpu: 2.0,
            memory_gb: 4.0,
            storage_gb: 5.0,
        },
        limit_instances: 4.0,
        utility: Utility {
            gamma1: 10.0,
            gamma2: 5.0,
            gamma3: 4.0,
        },
    }
}

fn model(job: &Job) -> JobModel {
    JobModel::new(job, &Resources::DEFAULT_INSTANCE, None)
}

#[test]
fn single_point_omega() {
    for mode in [Mode::Sync, Mode::Async] {
        let mut job = base_job(mode);
        job.worker = Resources {
            gpu: 4.0,
            vcpu: 20.0,
            memory_gb: 30.0,
            storage_gb: 50.0,
        };
        job.ps = Resources {
            gpu: 0.0,
            vcpu: 16.0,
            memory_gb: 30.0,
            storage_gb: 50.0,
        };
        job.limit_instances = 1.0;
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
        let mut job = base_job(mode);
        job.worker = Resources {
            gpu: 0.0,
            vcpu: 1.0,
            memory_gb: 2.0,
            storage_gb: 5.0,
        };
        job.ps = Resources {
            gpu: 0.0,
            vcpu: 1.0,
            memory_gb: 2.0,
            storage_gb: 900.0,
        };
        job.limit_instances = 20.0;
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
        let mut job = base_job(mode);
        job.worker = Resources {
            gpu: 0.0,
            vcpu: 1.0,
            memory_gb: 2.0,
            storage_gb: 5.0,
        };
        job.ps = Resources {
            gpu: 0.0,
            vcpu: 1.0,
            memory_gb: 2.0,
            storage_gb: 5.0,
        };
        job.limit_instances = 20.0;
        for beta1 in [0.0001, 0.01, 1.0] {
            job.worker_overhead_s = beta1;
            let m = model(&job);
            assert!(brute_force(&m).points > 70_000);
            check(&m, &format!("big box {mode:?} β1 = {beta1}"));
        }
        // Tall: one worker, many PS.
        let mut job = base_job(mode);
        job.worker = Resources {
            gpu: 4.0,
            vcpu: 10.0,
            memory_gb: 2.0,
            storage_gb: 5.0,
        };
        job.ps = Resources {
            gpu: 0.0,
            vcpu: 1.0,
            memory_gb: 0.5,
            storage_gb: 1.0,
        };
        job.limit_instances = 1.0;
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
    let mut job = base_job(Mode::Sync);
    job.worker = Resources {
        gpu: 0.0,
        vcpu: 0.3,
        memory_gb: 0.7,
        storage_gb: 0.1,
    };
    job.ps = Resources {
        gpu: 0.0,
        vcpu: 0.9,
        memory_gb: 0.1,
        storage_gb: 0.7,
    };
    job.limit_instances = 0.1;
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
    job.worker = Resources {
        gpu: 0.0,
        vcpu: 1.0,
        memory_gb: 0.001,
        storage_gb: 0.001,
    };
    job.ps = Resources {
        gpu: 0.0,
        vcpu: 997.000_000_5,
        memory_gb: 0.001,
        storage_gb: 0.001,
    };
    job.limit_instances = 1.0;
    job.worker_overhead_s = 0.001;
    let instance = Resources {
        gpu: 4.0,
        vcpu: 1000.0,
        memory_gb: 1e6,
        storage_gb: 1e6,
    };
    let m = JobModel::new(&job, &instance, None);
    assert!(
        m.omega.contains(3.0, 1.0),
        "the premise: (3, 1) is in Ω by `contains`"
    );
    assert!(
        t_of(&m, 3.0, 1.0) < t_of(&m, 2.0, 1.0),
        "the premise: T falls in w"
    );
    check(&m, "w_max_int vs contains tolerance");
}

/// BUG (smd-core), the mirror image of the test above for p: 997.0000005·w + p ≤ 1000 gives
/// p_max(1) = 2.9999995 and `p_max_int(1)` = 2, yet `contains(1, 3)` is true; T falls in p
/// (β2 = 0), so the brute force finds (1, 3) and `integer_optimum` returns (1, 2).
#[test]
fn tolerance_of_p_max_int_matches_contains() {
    let mut job = base_job(Mode::Sync);
    job.worker = Resources {
        gpu: 0.0,
        vcpu: 997.000_000_5,
        memory_gb: 0.001,
        storage_gb: 0.001,
    };
    job.ps = Resources {
        gpu: 0.0,
        vcpu: 1.0,
        memory_gb: 0.001,
        storage_gb: 0.001,
    };
    job.limit_instances = 1.0;
    job.ps_overhead_s = 0.0;
    let instance = Resources {
        gpu: 4.0,
        vcpu: 1000.0,
        memory_gb: 1e6,
        storage_gb: 1e6,
    };
    let m = JobModel::new(&job, &instance, None);
    assert!(
        m.omega.contains(1.0, 3.0),
        "the premise: (1, 3) is in Ω by `contains`"
    );
    assert!(
        t_of(&m, 1.0, 3.0) < t_of(&m, 1.0, 2.0),
        "the premise: T falls in p"
    );
    check(&m, "p_max_int vs contains tolerance");
}
