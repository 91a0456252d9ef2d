//! Presets: what each field is derived from (docs/APPLICATIONS.md §2), checked against the
//! facts, and every preset plans with every policy.

use smd_apps::app::App;
use smd_apps::preset::{iterations, limit_for, preset, PresetOptions, PS, WORKER};
use smd_core::model::JobModel;
use smd_core::scenario::{Cluster, Params, Resources, Scenario};
use smd_core::{plan, Policy};

#[test]
fn measured_batches_give_measured_iterations_and_others_a_power_law() {
    for app in App::ALL {
        let table = app.facts().iterations;
        for &(k, e) in table {
            assert_eq!(
                iterations(app, k as f64).unwrap(),
                e as f64,
                "{app} K = {k}"
            );
        }
        for w in table.windows(2) {
            let ((k0, e0), (k1, e1)) = (w[0], w[1]);
            // The geometric middle of two batches needs the geometric mean of their E.
            let mid = ((k0 as f64) * (k1 as f64)).sqrt();
            let want = ((e0 as f64) * (e1 as f64)).sqrt().round();
            assert_eq!(iterations(app, mid).unwrap(), want, "{app} K = {mid}");
            let e = iterations(app, (k0 + k1) as f64 / 2.0).unwrap();
            assert!(e < e0 as f64 && e > e1 as f64, "{app}");
        }
        let f = app.facts();
        for k in [
            f.initial_batch as f64 - 1.0,
            f.max_batch as f64 + 1.0,
            f64::NAN,
        ] {
            let err = iterations(app, k).unwrap_err();
            assert_eq!(err.field, "global_batch");
            assert!(err.message.contains(app.name()), "{}", err.message);
        }
    }
}

#[test]
fn a_preset_reproduces_the_single_gpu_fit_at_every_local_batch() {
    let mut checked = 0;
    for app in App::ALL {
        let f = app.facts();
        for &(k, _) in f.iterations {
            let job = preset(app, &PresetOptions::batch(k as f64)).unwrap();
            assert_eq!(job.model_size_mb, app.model_size_mb());
            assert_eq!(job.layers.len(), app.groups().len());
            let m = JobModel::new(&job, &Resources::DEFAULT_INSTANCE, None);
            // The compute of one iteration on w workers (θ3 + θ5/w over E) is the fit's
            // a + slope·(K/w) whenever the overlap leaves compute exposed (η1 = η2 = 1).
            if m.eta.eta1 == 1.0 && m.eta.eta2 == 1.0 {
                for w in [1.0, 2.0, 4.0] {
                    let e = job.iterations;
                    let model_ms = (m.theta[2] + m.theta[4] / w) / e * 1000.0;
                    let fit_ms = f.step_ms[0] + f.step_ms[1] * k as f64 / w;
                    assert!((model_ms / fit_ms - 1.0).abs() < 1e-3, "{app} K {k} w {w}");
                    checked += 1;
                }
            }
            // The profile's sum is τ = 2G/B, and its shape the parameter shares.
            let comm: f64 = job.layers.iter().map(|l| l.comm_ms).sum();
            let tau_ms = 2.0 * 8.0 * job.model_size_mb / job.ps_bandwidth_gbps;
            assert!((comm / tau_ms - 1.0).abs() < 1e-3, "{app}");
            assert_eq!((job.worker, job.ps), (WORKER, PS));
            assert!(job.minibatch <= k as f64 && job.minibatch <= f.local_batch[1] as f64);
        }
    }
    // At the calibrated B, 19 of the 40 presets leave compute exposed (so the check above
    // is not vacuous).
    assert!(checked >= 3 * 15, "{checked}");
}

#[test]
fn options_are_checked_and_named() {
    let bad = |o: PresetOptions| preset(App::Bert, &o).unwrap_err().field;
    let base = PresetOptions::batch(48.0);
    assert_eq!(
        bad(PresetOptions {
            minibatch: Some(49.0),
            ..base.clone()
        }),
        "minibatch"
    );
    assert_eq!(
        bad(PresetOptions {
            minibatch: Some(0.5),
            ..base.clone()
        }),
        "minibatch"
    );
    assert_eq!(
        bad(PresetOptions {
            limit_instances: Some(0.0),
            ..base.clone()
        }),
        "limit_instances"
    );
    let cpu_only = Resources {
        gpu: 0.0,
        ..Resources::DEFAULT_INSTANCE
    };
    assert_eq!(
        bad(PresetOptions {
            instance: cpu_only,
            ..base.clone()
        }),
        "instance"
    );
    let j = preset(
        App::Bert,
        &PresetOptions {
            id: Some("x".into()),
            minibatch: Some(6.0),
            ..base
        },
    )
    .unwrap();
    assert_eq!((j.id.as_str(), j.minibatch), ("x", 6.0));
}

#[test]
fn the_default_limit_is_the_smallest_that_holds_the_tasks() {
    let t4 = smd_apps::machines::machine_type("t4x4").unwrap().capacity;
    for workers in [1, 3, 16, 64] {
        for inst in [Resources::DEFAULT_INSTANCE, t4] {
            let l = limit_for(workers, &inst).unwrap();
            let fits = |theta: f64| {
                let need = WORKER.scale(workers as f64).to_array();
                let ps = PS.scale(workers as f64).to_array();
                let cap = inst.scale(theta).to_array();
                (0..4).all(|r| need[r] + ps[r] <= cap[r])
            };
            assert!(fits(l) && (l == 1.0 || !fits(l - 1.0)), "{workers} {l}");
        }
    }
}

#[test]
fn every_preset_plans_with_every_policy() {
    // Each application at its smallest and largest batch on 16 artifact nodes.
    let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
    let cluster: Cluster = smd_apps::machines::pool(t4, 16.0);
    let jobs = App::ALL
        .iter()
        .flat_map(|&app| {
            let f = app.facts();
            [f.initial_batch, f.max_batch].map(|k| {
                let opts = PresetOptions {
                    instance: cluster.instance,
                    ..PresetOptions::batch(k as f64)
                };
                preset(app, &opts).unwrap()
            })
        })
        .collect();
    // The presets' GPU profiles (docs/APPLICATIONS.md §6) make them version-2 jobs.
    let s = Scenario {
        version: 2,
        cluster,
        params: Params {
            epsilon: 0.05,
            ..Params::default()
        },
        jobs,
    };
    s.validate().unwrap();
    for policy in Policy::ALL {
        let p = plan(&s, policy).unwrap_or_else(|e| panic!("{policy}: {e}"));
        assert_eq!(p.jobs.len(), 12);
        assert!(p.admitted >= 1, "{policy}: nothing admitted");
        let used = p.resources.used.to_array();
        let cap = p.resources.capacity.to_array();
        assert!((0..4).all(|r| used[r] <= cap[r] * (1.0 + 1e-9)), "{policy}");
    }
}
