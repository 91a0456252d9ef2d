use super::*;
use crate::measured::tests::percentile;

/// |a/b − 1| ≤ rel.
fn close(a: f64, b: f64, rel: f64) -> bool {
    (a / b - 1.0).abs() <= rel
}

/// |predicted/measured − 1| of the step time of `rows`, split into 1–4 nodes and 6–16.
fn errors(t: &Throughput, rows: &[Observation]) -> (Vec<f64>, Vec<f64>) {
    let (mut near, mut far) = (Vec::new(), Vec::new());
    for o in rows {
        let e = (t.step_time(o.nodes, o.replicas, o.local, 0).0 / o.step - 1.0).abs();
        if o.nodes <= 4 {
            near.push(e);
        } else {
            far.push(e);
        }
    }
    (near, far)
}

/// The ~80 % split: every fifth row (file order) held out.
fn split(obs: &[Observation]) -> (Vec<Observation>, Vec<Observation>) {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (k, o) in obs.iter().enumerate() {
        if k % 5 == 4 {
            test.push(*o);
        } else {
            train.push(*o);
        }
    }
    (train, test)
}

#[test]
fn the_single_point_test_vector_is_reproduced() {
    let point = Observation {
        nodes: 1,
        replicas: 1,
        local: 128.0,
        step: 0.1031153,
        sync: 0.000525336,
    };
    let t = fit_throughput(&[point]).unwrap();
    // POLLUX-SIM.md §3.2: (0.051295, 4.0264e-4, 1.1e-8, 1.1e-8, 1e-8, 1e-8, 1.001).
    assert!(close(t.alpha_c, 0.051295, 1e-4), "{t:?}");
    assert!(close(t.beta_c, 4.0264e-4, 1e-3), "{t:?}");
    assert!(close(t.alpha_n, 1.1e-8, 1e-9), "{t:?}");
    assert!(close(t.beta_n, 1.1e-8, 1e-9), "{t:?}");
    assert_eq!((t.alpha_r, t.beta_r), (1e-8, 1e-8), "{t:?}");
    assert!(close(t.gamma, 1.001, 1e-3), "{t:?}");
}

#[test]
fn the_gradient_is_the_objectives() {
    let obs = observations(App::Bert).unwrap();
    let rows: Vec<Observation> = obs.iter().step_by(7).copied().collect();
    let problem = Problem::new(&rows, [None; 7]);
    let x = [-2.0, -5.0, -1.5, -4.0, -2.5, -6.0, 1.7];
    let (_, g) = problem.eval(&x);
    for k in 0..7 {
        let h = 1e-6;
        let (mut a, mut b) = (x, x);
        a[k] += h;
        b[k] -= h;
        let fd = (problem.eval(&a).0 - problem.eval(&b).0) / (2.0 * h);
        assert!(
            (fd - g[k]).abs() <= 1e-6 * (1.0 + fd.abs()),
            "{k}: {fd} {}",
            g[k]
        );
    }
}

#[test]
fn step_time_follows_the_model() {
    let t = Throughput::from_array([0.05, 0.001, 0.2, 0.01, 0.1, 0.005, 2.0]);
    let tc: f64 = 0.05 + 0.001 * 64.0;
    // Two nodes, 8 replicas: T_net = α_n + β_n·6.
    let tn: f64 = 0.2 + 0.01 * 6.0;
    let ts = (tc * tc + tn * tn).sqrt();
    let (step, sync) = t.step_time(2, 8, 64.0, 3);
    assert!(close(step, 3.0 * tc + ts, 1e-12));
    assert!(close(sync, ts - tc, 1e-12));
    // One node, 2 replicas: α_r + β_r·1e-8; one replica: ≈ 1e-8, so T_s ≈ T_c.
    assert!(close(t.network_time(1, 2), 0.1 + 0.005 * 1e-8, 1e-15));
    let (step, sync) = t.step_time(1, 1, 64.0, 0);
    assert!(close(step, tc, 1e-12) && sync.abs() < 1e-12);
}

#[test]
fn bad_observations_are_refused() {
    assert!(fit_throughput(&[]).is_err());
    let bad = Observation {
        nodes: 1,
        replicas: 1,
        local: 8.0,
        step: 0.1,
        sync: 0.2,
    };
    assert!(fit_throughput(&[bad]).is_err());
}

#[test]
fn the_fit_is_deterministic() {
    let obs = observations(App::Yolov3).unwrap();
    let a = fit_throughput(&obs).unwrap().to_array();
    let b = fit_throughput(&obs).unwrap().to_array();
    assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits));
    assert_eq!(
        fitted(App::Yolov3).to_array().map(f64::to_bits),
        a.map(f64::to_bits)
    );
}

/// The held-out error measured per application (docs/MODEL.md §21), 1–4 nodes then 6–16
/// nodes, (median, p90) of |predicted/measured − 1| of the step time; the test allows 25 %
/// more. The goal (median ≤ 6 %, p90 ≤ 15 %) is not met, so these are the bounds.
const HELD_OUT: [(App, [f64; 4]); 6] = [
    (App::Cifar10, [0.057, 0.141, 0.059, 0.189]),
    (App::Imagenet, [0.047, 0.152, 0.062, 0.195]),
    (App::Bert, [0.040, 0.184, 0.024, 0.064]),
    (App::Deepspeech2, [0.075, 0.169, 0.063, 0.179]),
    (App::Yolov3, [0.058, 0.220, 0.076, 0.147]),
    (App::Ncf, [0.067, 0.207, 0.089, 0.221]),
];

#[test]
fn held_out_step_times_stay_within_the_measured_error() {
    for (app, measured) in HELD_OUT {
        let obs = observations(app).unwrap();
        let (train, test) = split(&obs);
        let t = fit_throughput(&train).unwrap();
        let (near, far) = errors(&t, &test);
        let got = [
            percentile(&near, 0.5),
            percentile(&near, 0.9),
            percentile(&far, 0.5),
            percentile(&far, 0.9),
        ];
        for k in 0..4 {
            assert!(
                got[k] <= 1.25 * measured[k],
                "{}: {got:?} against {measured:?}",
                app.name()
            );
        }
    }
}

#[test]
#[ignore = "prints the tables of docs/MODEL.md §21; run with --nocapture"]
fn print_fit_errors() {
    let pct = |v: &[f64]| {
        format!(
            "{:.1} / {:.1} %",
            100.0 * percentile(v, 0.5),
            100.0 * percentile(v, 0.9)
        )
    };
    let (mut pooled_near, mut pooled_far, mut all_near, mut all_far) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    eprintln!(
        "| app | held out 1–4 nodes | held out 6–16 | all rows, fit on all: 1–4 | 6–16 | θ |"
    );
    for app in App::ALL {
        let obs = observations(app).unwrap();
        let (train, test) = split(&obs);
        let start = std::time::Instant::now();
        let t = fit_throughput(&train).unwrap();
        let took = start.elapsed();
        let (near, far) = errors(&t, &test);
        let full = fitted(app);
        let (an, af) = errors(&full, &obs);
        eprintln!(
            "| {} | {} | {} | {} | {} | {:?} | {took:?} |",
            app.name(),
            pct(&near),
            pct(&far),
            pct(&an),
            pct(&af),
            full.to_array()
        );
        pooled_near.extend(near);
        pooled_far.extend(far);
        all_near.extend(an);
        all_far.extend(af);
    }
    eprintln!(
        "| pooled | {} | {} | {} | {} |",
        pct(&pooled_near),
        pct(&pooled_far),
        pct(&all_near),
        pct(&all_far)
    );
}

#[test]
#[ignore = "compares the fit with tighter and restarted fits"]
fn print_convergence() {
    for app in App::ALL {
        let obs = observations(app).unwrap();
        let problem = Problem::new(&obs, [None; 7]);
        let x = |p: [f64; 7]| -> [f64; 7] {
            std::array::from_fn(|k| if k < 6 { p[k].ln() } else { p[k] })
        };
        let base = fitted(app).to_array();
        let f0 = problem.eval(&x(base)).0;
        let tight = minimise_from(&problem, START, 1e-12, 0.0);
        let mut line = format!(
            "{} default {f0:.8} tight {:.8}",
            app.name(),
            problem.eval(&x(tight)).0
        );
        for start in [
            [1.0, 0.1, 1.0, 0.1, 1.0, 0.1, 2.0],
            [0.01, 0.001, 0.01, 0.001, 0.01, 0.001, 5.0],
            [0.1, 0.001, 0.5, 0.01, 0.1, 0.001, 1.5],
        ] {
            let p = minimise_from(&problem, start, 1e-12, 0.0);
            line += &format!(" {:.8}", problem.eval(&x(p)).0);
        }
        eprintln!("{line}");
    }
}

/// The stored fits ([`FITTED`]) are §3.2's fit of the bundled measurements, bit for bit:
/// a change to the data or to the fit fails here and prints the table to store.
#[test]
fn stored_fits_are_the_fit() {
    let fresh: Vec<[u64; 7]> = App::ALL
        .iter()
        .map(|&a| {
            let t = fit_throughput(&observations(a).unwrap()).unwrap();
            t.to_array().map(f64::to_bits)
        })
        .collect();
    let table: String = fresh
        .iter()
        .map(|bits| {
            let row: Vec<String> = bits.iter().map(|b| format!("{b:#018x}")).collect();
            format!("    [{}],\n", row.join(", "))
        })
        .collect();
    assert_eq!(
        FITTED.as_slice(),
        fresh.as_slice(),
        "store this as FITTED:\n{table}"
    );
}
