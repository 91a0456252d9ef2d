//! The reference's test vectors (POLLUX-SIM.md §8), its worked example (§1.7), and
//! properties re-derived from the files independently of the module's code.

use super::*;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}

fn m(app: App) -> &'static Measured {
    Measured::of(app).unwrap()
}

#[test]
fn step_times_match_the_reference_on_one_to_four_nodes() {
    let c = m(App::Cifar10);
    // (4, 2) at 342 is the row set of "24": rotation, §8.
    for p in [[4, 2], [2, 4]] {
        let s = c.step(&p, 342.0).unwrap();
        assert!(close(s.step_s, 0.268777, 1e-5), "{s:?}");
        assert!(close(s.sync_s, 0.020076, 1e-4), "{s:?}");
    }
    let s = c.step(&[1, 3, 2], 100.0).unwrap();
    assert!(
        close(s.step_s, 0.148152, 1e-5) && close(s.sync_s, 0.068059, 1e-4),
        "{s:?}"
    );
    let s = c.step(&[1, 2, 3], 100.0).unwrap();
    assert!(
        close(s.step_s, 0.150871, 1e-5) && close(s.sync_s, 0.070046, 1e-4),
        "{s:?}"
    );
    // Zeros are no node.
    assert_eq!(c.step(&[0, 4, 0, 2], 342.0), c.step(&[4, 2], 342.0));
}

#[test]
fn every_measured_row_is_returned_exactly() {
    // Independently of the module: read each placements file with the CSV reader and ask
    // for every row; its own rotation and the smallest one give the same numbers.
    for app in App::ALL {
        let text = PLACEMENTS[app as usize];
        let records = csv::records(text).unwrap();
        let mut rows = 0;
        for r in &records[1..] {
            let digits: Vec<u32> = r.cells[0].chars().filter_map(|c| c.to_digit(10)).collect();
            let local: f64 = r.cells[1].parse().unwrap();
            let (step, sync): (f64, f64) =
                (r.cells[2].parse().unwrap(), r.cells[3].parse().unwrap());
            let mut rotated = digits.clone();
            rotated.rotate_left(1);
            for p in [&digits, &rotated] {
                let s = m(app).step(p, local).unwrap();
                assert_eq!(
                    (s.step_s, s.sync_s, s.source),
                    (step, sync, Source::Measured)
                );
            }
            rows += 1;
        }
        assert!(rows > 100, "{}: {rows} rows", app.name());
    }
}

#[test]
fn interpolation_lies_between_its_rows_and_refuses_what_was_not_measured() {
    let c = m(App::Cifar10);
    let a = c.step(&[1], 32.0).unwrap();
    let b = c.step(&[1], 45.0).unwrap();
    let mid = c.step(&[1], 38.5).unwrap();
    assert_eq!(mid.source, Source::Interpolated);
    assert!(close(mid.step_s, (a.step_s + b.step_s) / 2.0, 1e-12));
    assert!(matches!(
        c.step(&[1], 31.0),
        Err(MeasuredError::OutOfRange(_))
    ));
    assert!(matches!(
        c.step(&[4, 4, 4, 4, 4], 100.0),
        Err(MeasuredError::NotMeasured(_))
    ));
    assert!(matches!(
        c.step(&[8], 100.0),
        Err(MeasuredError::Placement(_))
    ));
    assert!(matches!(
        c.step(&[0, 0], 100.0),
        Err(MeasuredError::Placement(_))
    ));
}

#[test]
fn gradient_statistics_iterations_and_targets_match_the_reference() {
    let c = m(App::Cifar10);
    let (sqr, var) = c.grad_stats(2052.0, 0).unwrap();
    assert!(
        close(sqr, 10.740173, 1e-6) && close(var, 5.498315, 1e-6),
        "{sqr} {var}"
    );
    assert_eq!(c.iteration(2048.0, 99).unwrap(), 3178.0);
    assert_eq!(c.iteration(2048.0, 0).unwrap(), 112.0);
    let p1 = [
        (App::Cifar10, 390.7144),
        (App::Imagenet, 6405.927),
        (App::Bert, 7387.0),
        (App::Ncf, 19417.59),
        (App::Deepspeech2, 356.727),
        (App::Yolov3, 2068.973),
    ];
    for (app, want) in p1 {
        // The reference prints 7 significant digits.
        let got = m(app).epoch_target(1);
        assert!(close(got, want, 2e-6), "{}: {got}", app.name());
    }
    let targets = [
        (App::Bert, 14774.0),
        (App::Cifar10, 39062.908),
        (App::Ncf, 194174.0),
        (App::Imagenet, 576525.59),
        (App::Deepspeech2, 28536.0),
        (App::Yolov3, 103443.98),
    ];
    for (app, want) in targets {
        assert!(close(m(app).target(), want, 1e-6), "{}", app.name());
    }
}

#[test]
fn batches_split_as_the_reference_splits_them() {
    // ncf 32768 on one GPU: one accumulation step of 16384 (§1.7).
    let c = m(App::Ncf).batch_config(1, 32768.0);
    assert_eq!((c.atomic, c.accum), (16384, 1));
    // cifar10 2048 on 6 GPUs runs at 2052 (§2.4).
    let c = m(App::Cifar10).batch_config(6, 2048.0);
    assert_eq!(c.effective(), 2052.0);
    // Never more than the largest local batch per micro-step, never above the largest total.
    for app in App::ALL {
        let me = m(app);
        let [lo, hi] = me.batch_range();
        for r in [1, 2, 3, 4, 7, 16] {
            for b in [lo, (lo * hi).sqrt().round(), hi] {
                let c = me.batch_config(r, b);
                assert!(
                    f64::from(c.atomic) <= me.local_range()[1],
                    "{} {r} {b}",
                    app.name()
                );
                assert!(c.effective() <= hi + 1e-9, "{} {r} {b}: {c:?}", app.name());
            }
        }
    }
}

#[test]
fn the_worked_example_takes_47_seconds() {
    // POLLUX-SIM.md §1.7: ncf at 32768 on one GPU; per-epoch durations 5.19, 4.57, 4.58,
    // 4.58, 4.52, 4.51, 4.51, 4.49, 4.49, 4.49 s, 47 s rounded epoch by epoch, 45.9 s not.
    let ncf = m(App::Ncf);
    let epochs = ncf.epoch_seconds(&[1], 32768.0).unwrap();
    let want = [5.19, 4.57, 4.58, 4.58, 4.52, 4.51, 4.51, 4.49, 4.49, 4.49];
    assert_eq!(epochs.len(), want.len());
    for (got, want) in epochs.iter().zip(want) {
        assert!((got - want).abs() < 0.006, "{epochs:?}");
    }
    let unrounded: f64 = epochs.iter().sum();
    assert!((unrounded - 45.9).abs() < 0.05, "{unrounded}");
    assert_eq!(ncf.time_to_target(&[1], 32768.0).unwrap(), 47.0);
}

#[test]
fn time_to_target_is_the_sum_of_its_epochs_recomputed_by_hand() {
    // cifar10 at 1024 on (4, 4): every epoch's seconds from the formulas of §1.4, written
    // out here without the module's helpers beyond the table lookups.
    let c = m(App::Cifar10);
    let cfg = c.batch_config(8, 1024.0);
    assert_eq!((cfg.atomic, cfg.accum), (128, 0));
    let s = c.step(&[4, 4], 128.0).unwrap();
    let mut total = 0.0;
    for e in 0..100 {
        let (sqr, var) = c.grad_stats(1024.0, e).unwrap();
        let scale = 1024.0 / 128.0;
        let gain = (var + sqr) / (var / scale + sqr);
        let work = c.epoch_target(e + 1) - c.epoch_target(e);
        total += (work * s.step_s / gain).round_ties_even();
    }
    assert_eq!(c.time_to_target(&[4, 4], 1024.0).unwrap(), total);
    assert!(total > 0.0);
}
