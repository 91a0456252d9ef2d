use super::*;
use smd_core::eta::simulate;

/// Data rows of a CSV text: its non-blank lines less the header.
fn rows(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count() - 1
}

fn all() -> Vec<Point> {
    measurements().expect("the bundled measurements read")
}

fn refs(points: &[Point]) -> Vec<&Point> {
    points.iter().collect()
}

/// max/min of a positive quantity over a set of fits.
fn spread(values: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = values.collect();
    let (lo, hi) = v.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), &x| {
        (lo.min(x), hi.max(x))
    });
    hi / lo
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn every_row_is_read_as_written() {
    let points = all();
    let expected: usize = smd_measured::files::PLACEMENTS
        .iter()
        .chain(&smd_measured::files::SCALABILITY)
        .map(|t| rows(t))
        .sum();
    assert_eq!(points.len(), expected);
    assert_eq!(points.len(), 7103);
    for p in &points {
        let i = p.app as usize;
        let text = match p.source {
            Source::Placements => smd_measured::files::PLACEMENTS[i],
            Source::Scalability => smd_measured::files::SCALABILITY[i],
        };
        let line = text
            .lines()
            .nth(p.line - 1)
            .expect("the point's line exists");
        let cells: Vec<&str> = line.split(',').collect();
        match p.source {
            // The placement reads back as the file writes it.
            Source::Placements => assert_eq!(cells[0], p.placement(), "{p:?}"),
            // Every replica is placed, on at most num_nodes nodes, at most one apart.
            Source::Scalability => {
                assert_eq!(cells[1], p.workers().to_string(), "{p:?}");
                assert!(p.nodes.len() <= cells[0].parse::<usize>().unwrap());
                let (lo, hi) = (p.nodes.iter().min().unwrap(), p.nodes.iter().max().unwrap());
                assert!(hi - lo <= 1, "{p:?}");
            }
        }
        assert_eq!(cells[cells.len() - 2].parse::<f64>().unwrap(), p.step_s);
    }
}

#[test]
fn split_is_seeded_and_per_application() {
    let points = all();
    let a = split(&points, 7, 0.5);
    assert_eq!(a, split(&points, 7, 0.5));
    assert_ne!(a, split(&points, 8, 0.5));
    for share in [0.5, 0.2, 0.999] {
        let s = split(&points, 3, share);
        for app in App::ALL {
            let n = points.iter().filter(|p| p.app == app).count();
            let k = points
                .iter()
                .zip(&s)
                .filter(|(p, &t)| p.app == app && t)
                .count();
            // At least one point of every application is held out.
            let want = ((share * n as f64).round() as usize).clamp(1, n - 1);
            assert_eq!(k, want, "{app} at share {share}");
        }
    }
}

#[test]
fn the_report_accounts_for_every_row() {
    let r = calibrate(&Options::default()).unwrap();
    assert_eq!(r.measured, all().len());
    assert_eq!(r.train + r.held_out, r.measured);
    assert_eq!(r.points.len(), r.held_out);
    assert_eq!(r.overall.all.count, r.held_out);
    assert_eq!(r.overall.single.count + r.overall.across.count, r.held_out);
    let per_app: usize = r
        .apps
        .iter()
        .map(|a| a.held_out.single.count + a.held_out.across.count)
        .sum();
    assert_eq!(per_app, r.held_out);
    assert_eq!(r.apps.iter().map(|a| a.train).sum::<usize>(), r.train);
    for a in &r.apps {
        assert_eq!(a.held_out.all.count, a.own.unwrap().all.count);
        assert_eq!(a.own_fit.as_ref().unwrap().points, a.train);
    }
    assert_eq!(r.fit.points, r.train);
    assert_eq!(r.overall_own.unwrap().all.count, r.held_out);
    // The worst cases are the largest errors, in order.
    assert_eq!(r.worst.len(), WORST);
    let max = r.points.iter().map(Evaluated::ape_pct).fold(0.0, f64::max);
    assert_eq!(r.worst[0].ape_pct(), max);
    assert!(r.worst.windows(2).all(|w| w[0].ape_pct() >= w[1].ape_pct()));
    assert_eq!(r.overall.all.max_ape_pct, Some(max));
    // Percentiles are ordered.
    let c = r.overall.all;
    assert!(c.median_ape_pct.unwrap() <= c.p90_ape_pct.unwrap());
    assert!(c.p90_ape_pct.unwrap() <= c.max_ape_pct.unwrap());
}

#[test]
fn deterministic() {
    let opts = Options {
        seed: 11,
        train_share: 0.3,
        per_app: false,
    };
    let (a, b) = (calibrate(&opts).unwrap(), calibrate(&opts).unwrap());
    assert_eq!(a, b);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert!(a
        .apps
        .iter()
        .all(|x| x.own_fit.is_none() && x.own.is_none()));
}

#[test]
fn the_fit_agrees_with_the_model_and_its_overhead_is_least() {
    let points = all();
    let train: Vec<&Point> = points
        .iter()
        .zip(split(&points, 2, 0.5))
        .filter(|x| x.1)
        .map(|x| x.0)
        .collect();
    let f = fit(&train).unwrap();
    // The fit's shortcut (one job per (app, b, w), β1 in closed form) gives the loss that
    // the model evaluated point by point gives.
    let rms = |params: &Params| {
        let e = evaluate(&train, params).unwrap();
        (e.iter().map(|x| (x.error_pct / 100.0).powi(2)).sum::<f64>() / e.len() as f64).sqrt()
            * 100.0
    };
    assert!(rel(rms(&f.params), f.rms_pct) < 1e-9, "{f:?}");
    // No other β1, B or local rate does better (the closed form and the search are right).
    let at = |b: f64, l: f64, o: f64| Params {
        cross_gbps: f.params.cross_gbps * b,
        local_gbps: f.params.local_gbps * l,
        worker_overhead_s: f.params.worker_overhead_s * o,
    };
    for p in [
        at(1.0, 1.0, 0.9),
        at(1.0, 1.0, 1.1),
        at(1.01, 1.0, 1.0),
        at(0.99, 1.0, 1.0),
        at(1.0, 1.05, 1.0),
        at(1.0, 0.95, 1.0),
    ] {
        assert!(rms(&p) > f.rms_pct, "{p:?} beats {f:?}");
    }
}

#[test]
fn the_fit_recovers_parameters_that_generated_the_data() {
    // Step times made by the model itself at known parameters: the fit must find them.
    let truth = Params {
        cross_gbps: 8.0,
        local_gbps: 40.0,
        worker_overhead_s: 0.002,
    };
    let mut points = all();
    points.retain(|p| p.line % 7 == 0);
    for p in &mut points {
        p.step_s = iteration_time(p, &truth).unwrap();
    }
    let f = fit(&refs(&points)).unwrap();
    assert!(f.rms_pct < 1e-4, "{f:?}");
    assert!(rel(f.params.cross_gbps, truth.cross_gbps) < 1e-4, "{f:?}");
    assert!(rel(f.params.local_gbps, truth.local_gbps) < 1e-3, "{f:?}");
    assert!(
        rel(f.params.worker_overhead_s, truth.worker_overhead_s) < 1e-3,
        "{f:?}"
    );
    assert!(f.at_bound.is_empty());
}

#[test]
fn the_full_data_fit_gives_the_calibrated_constants() {
    // The constants have three significant digits; 1% also absorbs round-off in the search.
    let f = fit(&refs(&all())).unwrap();
    let c = Params::CALIBRATED;
    assert!(rel(f.params.cross_gbps, c.cross_gbps) < 0.01, "{f:?}");
    assert!(rel(f.params.local_gbps, c.local_gbps) < 0.01, "{f:?}");
    assert!(
        rel(f.params.worker_overhead_s, c.worker_overhead_s) < 0.01,
        "{f:?}"
    );
    assert!(f.at_bound.is_empty(), "{f:?}");
}

#[test]
fn fitted_parameters_are_stable_across_splits() {
    // Over seeds 1–8 at a 50% split the fits spread (max/min − 1) by 1.4% (B), 6.7% (β1)
    // and 13% (local): B and β1 are pinned by ~3 400 runs across machines, the local rate
    // mostly by the ~110 single-machine runs per half. Bounds with headroom over that (a
    // fit that moves more with the split than this is fitting noise).
    let points = all();
    let fits: Vec<Fit> = (1..=5)
        .map(|seed| {
            let train: Vec<&Point> = points
                .iter()
                .zip(split(&points, seed, 0.5))
                .filter(|x| x.1)
                .map(|x| x.0)
                .collect();
            fit(&train).unwrap()
        })
        .collect();
    let s = |f: fn(&Params) -> f64| spread(fits.iter().map(|x| f(&x.params)));
    assert!(s(|p| p.cross_gbps) < 1.05, "{fits:?}");
    assert!(s(|p| p.worker_overhead_s) < 1.10, "{fits:?}");
    assert!(s(|p| p.local_gbps) < 1.25, "{fits:?}");
}

#[test]
fn one_gpu_is_the_single_gpu_fit_plus_local_traffic() {
    let points = all();
    let single: Vec<&Point> = points.iter().filter(|p| p.nodes == [1]).collect();
    assert_eq!(single.len(), 57);
    let params = Params::CALIBRATED;
    let beta = params.cross_gbps / params.local_gbps;
    for p in &single {
        // One worker and its PS on one node: every transfer is local, ρ = β.
        assert!(rel(rho(p, &params), beta) < 1e-12);
        // The model is the simulated iteration (remote transfers, ρ = 1) with the
        // communication's exposed part scaled by β, plus β1: derived here from the layer
        // schedule, independently of the θ's.
        let job = job_at(p, &params).unwrap();
        let tau = 2.0 * 8.0 * job.model_size_mb / 1000.0 / job.ps_bandwidth_gbps;
        let s = simulate(&job.layers, job.overlap, tau);
        let compute = s.f + s.bk;
        let expected = params.worker_overhead_s
            + if s.c >= compute {
                // Communication-bound: the compute that does not overlap, then all of C.
                (s.t - s.c) + s.c * beta
            } else {
                compute + (s.t - compute) * beta
            };
        let got = iteration_time(p, &params).unwrap();
        assert!(rel(got, expected) < 1e-12, "{p:?}: {got} vs {expected}");
    }
    // With local transfer free and no overhead, a compute-bound step is the fit
    // `a + slope·b` (to the presets' rounding of each layer to 1 µs).
    let free = Params {
        local_gbps: 1e15,
        worker_overhead_s: 0.0,
        ..params
    };
    let mut checked = 0;
    for p in &single {
        let job = job_at(p, &free).unwrap();
        let tau = 2.0 * 8.0 * job.model_size_mb / 1000.0 / job.ps_bandwidth_gbps;
        let s = simulate(&job.layers, job.overlap, tau);
        if s.c >= s.f + s.bk {
            continue;
        }
        let [a, slope] = p.app.facts().step_ms;
        let fit_s = (a + slope * p.local_batch) / 1000.0;
        let tolerance = job.layers.len() as f64 * 1e-6;
        let got = iteration_time(p, &free).unwrap();
        assert!((got - fit_s).abs() <= tolerance, "{p:?}: {got} vs {fit_s}");
        checked += 1;
    }
    // 19 of the 57 at the calibrated B; the rest are communication-bound (module docs).
    assert!(
        checked >= 10,
        "only {checked} compute-bound single-GPU points"
    );
}

#[test]
fn bad_options_are_errors() {
    for share in [0.0, 1.0, -0.5, f64::NAN, f64::INFINITY] {
        let e = calibrate(&Options {
            train_share: share,
            ..Options::default()
        })
        .unwrap_err();
        assert!(matches!(
            e,
            CalibrateError::Options {
                field: "train_share",
                ..
            }
        ));
    }
    assert_eq!(fit(&[]).unwrap_err(), CalibrateError::NoPoints);
    let p = &all()[0];
    for bad in [
        Params {
            cross_gbps: 0.0,
            ..Params::CALIBRATED
        },
        Params {
            local_gbps: f64::NAN,
            ..Params::CALIBRATED
        },
        Params {
            worker_overhead_s: -1.0,
            ..Params::CALIBRATED
        },
    ] {
        assert!(iteration_time(p, &bad).is_err(), "{bad:?}");
    }
}

#[test]
fn quantiles_interpolate() {
    assert_eq!(quantile(&[], 0.5), None);
    assert_eq!(quantile(&[3.0], 0.9), Some(3.0));
    assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), Some(2.5));
    assert_eq!(quantile(&[0.0, 10.0], 0.9), Some(9.0));
}

/// docs/CALIBRATION.md §8's comparison by placement shape: the parameter-server mapping's
/// held-out errors (the default calibration: seed 1, half held out), by application and
/// number of nodes — `cargo test -p smd-apps --lib shapes -- --ignored --nocapture`.
#[test]
#[ignore = "prints a table of the documentation"]
fn print_ps_mapping_errors_by_shape() {
    let report = calibrate(&Options::default()).unwrap();
    let nodes = |e: &Evaluated| match e.placement.contains('+') {
        true => e.placement.split('+').count(),
        false => e.placement.len(),
    };
    // A shape: its name and whether a row (nodes, GPUs) is of it.
    type Shape = (&'static str, fn(usize, u32) -> bool);
    let classes: [Shape; 7] = [
        ("1 GPU", |n, w| n == 1 && w == 1),
        ("1 node", |n, _| n == 1),
        ("1 node, 2–4 GPUs", |n, w| n == 1 && w > 1),
        ("2 nodes", |n, _| n == 2),
        ("3 nodes", |n, _| n == 3),
        ("4 nodes", |n, _| n == 4),
        ("6–16 nodes", |n, _| n >= 5),
    ];
    let cell = |rows: Vec<f64>| {
        let mut v = rows;
        v.sort_by(f64::total_cmp);
        match (quantile(&v, 0.5), quantile(&v, 0.9)) {
            (Some(m), Some(p)) => format!("{m:.1} / {p:.1} ({})", v.len()),
            _ => "—".into(),
        }
    };
    print!("| app |");
    for (name, _) in classes {
        print!(" {name} |");
    }
    println!();
    let apps: Vec<&str> = App::ALL.iter().map(|a| a.name()).chain(["all"]).collect();
    for app in apps {
        print!("| {app} |");
        for (_, class) in classes {
            let rows = report
                .points
                .iter()
                .filter(|e| (app == "all" || e.app == app) && class(nodes(e), e.workers))
                .map(Evaluated::ape_pct)
                .collect();
            print!(" {} |", cell(rows));
        }
        println!();
    }
}
