//! The facts in `app.rs` against the bundled files of `data/pollux/`, re-derived here
//! independently (own CSV splitting, own least squares), and against the data README's
//! numbers.

use smd_apps::app::App;
use std::path::PathBuf;

fn data(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/pollux")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Rows of a simple CSV (the artifact's files have no quoting) as maps column → cell.
fn rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_owned)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(str::to_owned))
                .collect()
        })
        .collect()
}

#[test]
fn parameters_and_sizes_match_the_readme() {
    // data/pollux/README.md's table: parameters and fp32 MB.
    let readme = [
        (App::Cifar10, 11_173_962, 44.7),
        (App::Imagenet, 25_557_032, 102.2),
        (App::Bert, 109_483_778, 437.9),
        (App::Deepspeech2, 41_187_968, 164.8),
        (App::Yolov3, 61_626_049, 246.5),
        (App::Ncf, 1_602_657, 6.4),
    ];
    for (app, params, mb) in readme {
        assert_eq!(app.facts().parameters, params, "{app}");
        let sum: u64 = app.groups().iter().map(|g| g.params).sum();
        assert_eq!(sum, params, "{app}: the groups add up to the total");
        assert!((app.model_size_mb() - mb).abs() < 0.05, "{app}");
    }
}

#[test]
fn iteration_tables_are_the_last_rows_of_the_validation_files() {
    // README: iterations needed at the initial batch.
    let initial = [39062, 576_525, 14774, 28536, 103_444, 194_174];
    for (app, e0) in App::ALL.into_iter().zip(initial) {
        let f = app.facts();
        assert_eq!(f.iterations[0], (f.initial_batch, e0), "{app}");
        assert_eq!(f.iterations.last().unwrap().0, f.max_batch, "{app}");
        for &(k, e) in f.iterations {
            let text = data(&format!("validation/{app}/validation-{k}.csv"));
            let last = rows(&text).pop().unwrap();
            assert_eq!(
                last["iteration"].parse::<u32>().unwrap(),
                e,
                "{app} K = {k}"
            );
        }
        assert!(f
            .iterations
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1));
    }
}

#[test]
fn step_fits_are_least_squares_over_the_single_gpu_rows() {
    for app in App::ALL {
        let f = app.facts();
        let pts: Vec<(f64, f64)> = rows(&data(&format!("placements/{app}.csv")))
            .into_iter()
            .filter(|r| r["placement"] == "1")
            .map(|r| {
                let b: f64 = r["local_bsz"].parse().unwrap();
                let t: f64 = r["step_time"].parse().unwrap();
                (b, t * 1000.0)
            })
            .collect();
        let n = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
        let (mx, my) = (sx / n, sy / n);
        let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
        let slope = sxy / sxx;
        let a = my - slope * mx;
        assert!((a - f.step_ms[0]).abs() < 1e-5 * a, "{app}: a {a}");
        assert!(
            (slope - f.step_ms[1]).abs() < 1e-5 * slope,
            "{app}: slope {slope}"
        );
        let (lo, hi) = pts
            .iter()
            .fold((f64::MAX, 0.0_f64), |(l, h), p| (l.min(p.0), h.max(p.0)));
        assert_eq!([lo as u32, hi as u32], f.local_batch, "{app}");
    }
}

#[test]
fn bundled_workloads_are_the_files() {
    for (name, text) in smd_apps::trace::WORKLOADS {
        let (dir, n) = match name.strip_suffix("-half") {
            Some(base) => ("workloads-0.5", base.trim_start_matches("workload-")),
            None => ("workloads", name.trim_start_matches("workload-")),
        };
        assert_eq!(text, data(&format!("{dir}/workload-{n}.csv")), "{name}");
    }
}

/// The Pollux-only lookup the page uses finds every Pollux workload as `workload` does, and
/// refuses the Sia artifact's names (their texts stay out of a program that only calls it).
#[test]
fn the_pollux_lookup_is_the_full_lookup_on_pollux_names() {
    use smd_apps::trace::{pollux_workload, workload, SIA_WORKLOADS, WORKLOADS};
    for (name, text) in WORKLOADS {
        assert_eq!(pollux_workload(name), Ok(text), "{name}");
        assert_eq!(
            pollux_workload(&format!(" {name} ")),
            workload(name),
            "{name}"
        );
    }
    for (name, _) in SIA_WORKLOADS {
        assert!(workload(name).is_ok(), "{name}");
        let e = pollux_workload(name).unwrap_err();
        assert!(e.contains(name) && e.contains("workload-8-half"), "{e}");
    }
    assert!(pollux_workload("").is_err());
}
