//! The presets' GPU profiles (docs/APPLICATIONS.md §6): re-derived from the artifact's facts
//! by hand, inside a T4 alone at every measured local batch, carried by every preset.

use smd_apps::app::App;
use smd_apps::gpu::{constant_gb, profile, CONTEXT_GB, MIN_UTIL, PEAK_AT_LARGEST_GB};
use smd_apps::preset::{preset, PresetOptions};

#[test]
fn the_constant_part_by_hand() {
    // BERT-base: 109,483,778 parameters, weights + gradients + two Adam moments in fp32.
    let want = 0.75 + 4.0 * 4.0 * 109_483_778.0 / 1e9;
    assert!((constant_gb(App::Bert) - want).abs() < 1e-12);
    // ResNet-18: weights + gradients + one momentum buffer.
    let want = 0.75 + 3.0 * 4.0 * 11_173_962.0 / 1e9;
    assert!((constant_gb(App::Cifar10) - want).abs() < 1e-12);
    assert_eq!(CONTEXT_GB, 0.75);
}

#[test]
fn each_profile_is_a_uniform_activation_sweep_that_fits_a_t4_alone() {
    // z of a 1% collision probability (Φ(2.3263) = 0.99).
    let z = 2.326_347_874;
    for app in App::ALL {
        let f = app.facts();
        let c = constant_gb(app);
        let [lo, hi] = f.local_batch;
        let mut last = None;
        for m in [lo, (lo + hi) / 2, hi] {
            let p = profile(app, m as f64);
            // Activations sweep 0 … a·m uniformly: mean c + a·m/2, sd a·m/√12.
            let act = p.mem_peak_gb - c;
            assert!(act >= 0.0);
            assert!((p.mem_mean_gb - (c + act / 2.0)).abs() < 1e-9, "{app} mean");
            assert!((p.mem_sd_gb - act / 12f64.sqrt()).abs() < 1e-9, "{app} sd");
            assert!(p.mem_peak_gb <= PEAK_AT_LARGEST_GB + 1e-9, "{app} at {m}");
            // It fits a T4 in fact (its peak); the Gaussian rule, which does not know the
            // sweep is bounded, may refuse it alone at large batches (then it is not shared).
            assert!(p.mem_peak_gb <= 16.0, "{app} at {m}");
            let alone = p.mem_mean_gb + z * p.mem_sd_gb <= 16.0;
            if m == lo {
                assert!(alone, "{app} at its smallest local batch is shareable");
            }
            // u: the batch-proportional share of the measured step time.
            let [a0, slope] = f.step_ms;
            let u = (slope * m as f64 / (a0 + slope * m as f64)).max(MIN_UTIL);
            assert!((p.util - u).abs() < 1e-12, "{app} util");
            if let Some((mean, util)) = last {
                assert!(
                    p.mem_mean_gb >= mean && p.util >= util,
                    "{app}: grows with m"
                );
            }
            last = Some((p.mem_mean_gb, p.util));
        }
        // Calibrated on the largest measured local batch.
        assert!((profile(app, hi as f64).mem_peak_gb - PEAK_AT_LARGEST_GB).abs() < 1e-9);
    }
}

#[test]
fn every_preset_carries_its_profile() {
    for app in App::ALL {
        let k = app.facts().initial_batch as f64;
        let job = preset(app, &PresetOptions::batch(k)).unwrap();
        let p = profile(app, job.minibatch);
        let near = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() <= 5e-4;
        assert!(near(job.gpu_mem_mean_gb, p.mem_mean_gb), "{app}");
        assert!(near(job.gpu_mem_sd_gb, p.mem_sd_gb), "{app}");
        assert!(near(job.gpu_util, p.util), "{app}");
        assert_eq!(job.min_performance, None, "the scenario's default applies");
        assert_eq!(job.version2_fields().len(), 3);
    }
}
