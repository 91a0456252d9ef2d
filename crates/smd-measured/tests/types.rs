//! The measurements per GPU type against the Sia artifact's test vectors (the Sia artifact's values, MODEL.md §24,
//! computed independently from its CSV files).

use smd_measured::app::App;
use smd_measured::gpu::Gpu;
use smd_measured::measured::{Measured, Source};

fn on(app: App, gpu: Gpu) -> &'static Measured {
    Measured::on(app, gpu).unwrap()
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs()
}

type Row = (App, Gpu, &'static [u32], f64, f64, f64);

/// §9.1: raw rows read exactly, by header, whatever the file's column order.
#[test]
fn raw_rows_are_read_exactly() {
    let rows: [Row; 7] = [
        (
            App::Cifar10,
            Gpu::Rtx2080ti,
            &[1],
            1024.0,
            0.3097095489501953,
            0.0002873400039970875,
        ),
        (
            App::Cifar10,
            Gpu::A100,
            &[1],
            4096.0,
            0.4070537771497454,
            0.0002993005684443882,
        ),
        (
            App::Bert,
            Gpu::A100,
            &[8],
            48.0,
            0.34398116171360016,
            0.019626111865043643,
        ),
        (
            App::Bert,
            Gpu::Rtx2080ti,
            &[8, 8],
            12.0,
            0.9991360157728195,
            0.5555332717895508,
        ),
        (
            App::Imagenet,
            Gpu::T4,
            &[4],
            200.0,
            1.0050264596939087,
            0.0075231265068054195,
        ),
        (
            App::Deepspeech2,
            Gpu::Rtx2080ti,
            &[1],
            57.0,
            1.0754915475845337,
            0.0007463860064744949,
        ),
        (
            App::Yolov3,
            Gpu::Rtx2080ti,
            &[2],
            8.0,
            0.6373366415500641,
            0.14679359102249145,
        ),
    ];
    for (app, gpu, p, local, step, sync) in rows {
        let s = on(app, gpu).step(p, local).unwrap();
        assert_eq!(
            (s.step_s, s.sync_s, s.source),
            (step, sync, Source::Measured),
            "{app:?} {gpu} {p:?}"
        );
    }
}

/// §9.2: one-dimensional interpolation in the local batch, per type.
#[test]
fn interpolated_steps_match_the_vectors() {
    let cases: [Row; 6] = [
        (
            App::Cifar10,
            Gpu::Rtx2080ti,
            &[1],
            128.0,
            0.0743036,
            0.000288802,
        ),
        (App::Cifar10, Gpu::T4, &[1], 128.0, 0.1031153, 0.000525336),
        (App::Cifar10, Gpu::A100, &[2], 1000.0, 0.1144782, 0.00163703),
        (App::Bert, Gpu::A100, &[8], 12.0, 0.1721083, 0.0200343),
        (
            App::Imagenet,
            Gpu::Rtx2080ti,
            &[8, 8],
            100.0,
            0.4089271,
            0.1032785,
        ),
        (App::Cifar10, Gpu::T4, &[4, 2], 342.0, 0.2687774, 0.0200761),
    ];
    for (app, gpu, p, local, step, sync) in cases {
        let s = on(app, gpu).step(p, local).unwrap();
        assert!(
            close(s.step_s, step, 1e-6) && close(s.sync_s, sync, 1e-5),
            "{app:?} {gpu} {p:?}: {s:?}"
        );
    }
}

/// §9.3: the memory limits — app-wide per type, and per placement.
#[test]
fn memory_limits_per_type_and_placement() {
    assert_eq!(on(App::Bert, Gpu::T4).table_local_range()[1], 12.0);
    assert_eq!(on(App::Bert, Gpu::A100).table_local_range()[1], 48.0);
    assert_eq!(on(App::Yolov3, Gpu::Rtx2080ti).table_local_range()[1], 8.0);
    assert_eq!(on(App::Yolov3, Gpu::A100).table_local_range()[1], 32.0);
    // The T4's yolov3: 16 in its table, 8 under the Pollux artifact's rule.
    assert_eq!(on(App::Yolov3, Gpu::T4).table_local_range()[1], 16.0);
    assert_eq!(on(App::Yolov3, Gpu::T4).local_range()[1], 8.0);
    let ds2_rtx = on(App::Deepspeech2, Gpu::Rtx2080ti);
    assert_eq!(ds2_rtx.table_local_range()[1], 57.0);
    assert_eq!(ds2_rtx.max_local_at(&[1]), Some(80.0));
    assert_eq!(ds2_rtx.max_local_at(&[8, 8, 8]), Some(28.0));
    assert_eq!(
        on(App::Cifar10, Gpu::Rtx2080ti).max_local_at(&[8, 8, 8]),
        Some(257.0)
    );
    let ds2_a100 = on(App::Deepspeech2, Gpu::A100);
    assert_eq!(ds2_a100.max_local_at(&[8]), Some(81.0));
    assert_eq!(ds2_a100.max_local_at(&[1]), Some(320.0));
    assert_eq!(on(App::Cifar10, Gpu::A100).max_local_at(&[8]), Some(1025.0));
    // Every type's table starts at the application's smallest local batch.
    for app in App::ALL {
        let lo = on(app, Gpu::T4).table_local_range()[0];
        for gpu in Gpu::ALL {
            assert_eq!(on(app, gpu).table_local_range()[0], lo, "{app:?} {gpu}");
        }
    }
}

/// §9.6: one-GPU throughputs (examples/s) per type.
#[test]
fn one_gpu_throughputs_match_the_vectors() {
    let table: [(App, [f64; 5]); 5] = [
        // t4, v100, a100, rtx2080ti, rtx6000 (Gpu::ALL's order)
        (App::Bert, [13.022, 41.5837, 140.442, 26.8507, 37.4384]),
        (App::Cifar10, [1458.50, 4714.74, 10062.6, 3306.32, 3740.15]),
        (
            App::Deepspeech2,
            [31.4883, 71.8235, 77.5046, 52.5122, 48.6518],
        ),
        (App::Imagenet, [216.560, 673.237, 1034.01, 395.224, 414.941]),
        (App::Yolov3, [27.9423, 42.4959, 56.7053, 11.7242, 50.5933]),
    ];
    for (app, want) in table {
        for (gpu, w) in Gpu::ALL.into_iter().zip(want) {
            let got = on(app, gpu).one_gpu_throughput();
            assert!(close(got, w, 1e-4), "{app:?} {gpu}: {got} vs {w}");
        }
    }
}

/// The speeds by type are the one-GPU throughputs, for the five applications of the Sia
/// artifact's workloads (the figure of How it works).
#[test]
fn speeds_by_type_are_the_one_gpu_throughputs() {
    let rows = Measured::speeds_by_type();
    let apps: Vec<App> = rows.iter().map(|(a, _)| *a).collect();
    assert_eq!(
        apps,
        [
            App::Cifar10,
            App::Imagenet,
            App::Bert,
            App::Deepspeech2,
            App::Yolov3
        ]
    );
    for (app, row) in rows {
        for (gpu, v) in Gpu::ALL.into_iter().zip(row) {
            assert_eq!(v, on(app, gpu).one_gpu_throughput(), "{app:?} {gpu}");
        }
    }
}

/// Placements without rows of their own: a layer of their size, or linear in the GPUs
/// between the layers of their nodes around them; beyond the measured nodes, refused.
#[test]
fn unlisted_placements_read_their_layers() {
    let rtx = on(App::Cifar10, Gpu::Rtx2080ti);
    // (8, 8, 8) is a scalability layer of 3 nodes × 24 GPUs.
    let s = rtx.step(&[8, 8, 8], 128.0).unwrap();
    assert_eq!(s.source, Source::Interpolated);
    // cifar10 on the RTX lacks placement 78: its 2-node, 15-GPU rows are the layer's.
    let mid = rtx.step(&[7, 8], 64.0).unwrap();
    assert!(mid.step_s > 0.0 && mid.sync_s >= 0.0);
    // Four RTX nodes were never measured; nine GPUs on one node do not exist.
    assert!(rtx.step(&[8, 8, 8, 8], 128.0).is_err());
    assert!(rtx.step(&[9], 128.0).is_err());
    assert!(on(App::Bert, Gpu::Rtx6000).step(&[4, 4], 8.0).is_err());
    // Every one- and two-node placement of every type reads at the smallest local batch.
    for app in App::ALL {
        for gpu in Gpu::ALL {
            let m = on(app, gpu);
            let lo = m.table_local_range()[0];
            let n = gpu.per_node();
            for a in 1..=n {
                assert!(m.step(&[a], lo).is_ok(), "{app:?} {gpu} {a}");
                if gpu.measured_nodes() >= 2 {
                    for b in a..=n {
                        let r = m.step(&[a, b], lo);
                        assert!(r.is_ok(), "{app:?} {gpu} {a},{b}: {r:?}");
                    }
                }
            }
        }
    }
}

/// One model for every type: the seven-parameter throughput model fitted on each type's
/// own measurements (every row read, by header) follows them — the median error of its
/// step time over the type's rows is small — and a type's fit is not the T4's.
#[test]
fn each_type_has_its_own_fit_that_follows_its_rows() {
    use smd_measured::measured::{fitted_on, observations_on};
    for app in App::ALL {
        let t4 = fitted_on(app, Gpu::T4).unwrap();
        for gpu in Gpu::ALL {
            let obs = observations_on(app, gpu).unwrap();
            assert!(obs.len() > 10, "{app:?} {gpu}: {} rows", obs.len());
            let fit = fitted_on(app, gpu).unwrap();
            let mut err: Vec<f64> = obs
                .iter()
                .map(|o| {
                    let (step, _) = fit.step_time(o.nodes, o.replicas, o.local, 0);
                    (step / o.step).ln().abs()
                })
                .collect();
            err.sort_by(f64::total_cmp);
            let median = err[err.len() / 2];
            // Measured (MODEL.md §24.1): 0.02–0.07 on the T4, up to 0.25 elsewhere.
            assert!(median < 0.3, "{app:?} {gpu}: median |ln error| {median}");
            if gpu != Gpu::T4 {
                assert_ne!(fit.to_array(), t4.to_array(), "{app:?} {gpu}");
            }
        }
    }
}
