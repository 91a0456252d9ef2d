//! Planning with GPU sharing (docs/MODEL.md §18): off changes nothing; on, every GPU obeys
//! both rules (re-checked from the jobs' fields), every admitted worker is on one GPU, each
//! machine's GPUs hold the packed and the exclusive ones, slowdowns, T and totals re-derived.

use smd_core::model::JobModel;
use smd_core::scenario::{Cluster, GpuSharing, MachineGroup, Mode, Resources};
use smd_core::{generate, GenerateOptions, Options, Policy, Scenario};
use smd_place::plan_placed;

fn scenario(seed: u64, light: bool) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 14,
        seed,
        ..Default::default()
    });
    s.version = 2;
    s.params.epsilon = 0.2;
    s.cluster = Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "n".into(),
            count: 4.0,
            capacity: Resources {
                gpu: 4.0,
                vcpu: 96.0,
                memory_gb: 768.0,
                storage_gb: 2000.0,
            },
            gpu_memory_gb: Some(16.0),
            nic_gbps: None,
            local_gbps: Some(40.0),
        }],
        Resources::DEFAULT_INSTANCE,
    );
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.worker = Resources {
            gpu: 1.0,
            vcpu: 2.0,
            memory_gb: 8.0,
            storage_gb: 10.0,
        };
        j.ps = Resources {
            gpu: 0.0,
            vcpu: 2.0,
            memory_gb: 8.0,
            storage_gb: 10.0,
        };
        j.limit_instances = 3.0;
        // Every third job keeps its GPUs to itself (no memory profile).
        if i % 3 != 2 {
            j.gpu_mem_mean_gb = Some(if light { 1.0 + (i % 4) as f64 } else { 9.0 });
            j.gpu_mem_sd_gb = Some(0.3 * (i % 3) as f64);
            j.gpu_util = Some(if light {
                0.1 + 0.1 * (i % 3) as f64
            } else {
                0.9
            });
            j.min_performance = Some(0.8);
        }
        if i % 5 == 0 {
            j.mode = Mode::Async;
        }
    }
    s
}

#[test]
fn sharing_off_changes_no_plan() {
    for seed in 1..=3 {
        let s = scenario(seed, true);
        let mut off = s.clone();
        off.params.gpu_sharing = Some(GpuSharing::Off);
        for policy in [Policy::Smd, Policy::Optimus, Policy::Exact] {
            let a = plan_placed(&s, policy, &mut Options::default()).unwrap();
            let b = plan_placed(&off, policy, &mut Options::default()).unwrap();
            assert_eq!(a, b, "{policy}");
            assert!(a.sharing.is_none());
        }
    }
}

#[test]
fn shared_plans_keep_every_rule_and_rederive() {
    let z = smd_place::share::normal_quantile(0.99);
    let mut saved = 0;
    let mut alone = 0;
    for seed in 1..=4 {
        for light in [true, false] {
            for algorithm in [GpuSharing::Greedy, GpuSharing::Heuristic, GpuSharing::Exact] {
                let mut s = scenario(seed, light);
                s.params.gpu_sharing = Some(algorithm);
                // Job 0 breaks the memory rule even alone (13 + 2.33·2 > 16): it is not
                // shared but keeps a GPU per worker.
                s.jobs[0].gpu_mem_mean_gb = Some(13.0);
                s.jobs[0].gpu_mem_sd_gb = Some(2.0);
                let machines = s.cluster.machine_list();
                for policy in [Policy::Smd, Policy::Optimus, Policy::Global] {
                    let p = plan_placed(&s, policy, &mut Options::default()).unwrap();
                    let sh = p.sharing.as_ref().expect("a sharing summary");
                    assert_eq!(sh.algorithm, algorithm);
                    let job = |id: &str| s.jobs.iter().position(|j| j.id == id).unwrap();
                    // Both rules on every GPU; slowdowns as defined.
                    let mut seen = vec![0u64; s.jobs.len()];
                    let mut gpu_s: Vec<Vec<f64>> = vec![Vec::new(); s.jobs.len()];
                    let mut packed_on = vec![0.0; machines.len()];
                    for g in &sh.gpus {
                        let js: Vec<usize> = g.workers.iter().map(|w| job(&w.job)).collect();
                        let mean: f64 =
                            js.iter().map(|&i| s.jobs[i].gpu_mem_mean_gb.unwrap()).sum();
                        let var: f64 = js
                            .iter()
                            .map(|&i| s.jobs[i].gpu_mem_sd_gb.unwrap().powi(2))
                            .sum();
                        assert!(mean + z * var.sqrt() <= 16.0 * (1.0 + 1e-6), "memory rule");
                        assert!((g.mem_sd_gb - var.sqrt()).abs() < 1e-9, "the GPU's spread");
                        let util: f64 = js.iter().map(|&i| s.jobs[i].gpu_util.unwrap()).sum();
                        let slow = util.max(1.0) * (1.0 + 0.02 * (js.len() as f64 - 1.0));
                        assert!(1.0 / slow >= 0.8 - 1e-9, "performance rule");
                        for &i in &js {
                            seen[i] += 1;
                            gpu_s[i].push(slow);
                        }
                        let h = machines.iter().position(|m| m.name == g.machine).unwrap();
                        packed_on[h] += 1.0;
                    }
                    let mut whole_on = vec![0.0; machines.len()];
                    let mut total = 0.0;
                    for (i, (j, line)) in s.jobs.iter().zip(&p.jobs).enumerate() {
                        if !line.admitted {
                            assert_eq!(seen[i], 0, "{}: not admitted but packed", j.id);
                            continue;
                        }
                        total += line.utility;
                        let w = line.workers.unwrap();
                        let shareable = j.gpu_mem_mean_gb.is_some() && i != 0;
                        if shareable {
                            assert_eq!(seen[i], w, "{}: each worker on one GPU", j.id);
                        } else {
                            assert_eq!(seen[i], 0);
                            for x in line.placement.as_ref().unwrap() {
                                let h = machines.iter().position(|m| m.name == x.machine).unwrap();
                                whole_on[h] += x.workers as f64;
                            }
                        }
                        // T = T(w, p, ρ) × slowdown, μ from it.
                        let m = JobModel::of(j, &s.cluster, None);
                        let slowdown = if !shareable {
                            None
                        } else if j.mode == Mode::Sync {
                            Some(gpu_s[i].iter().copied().fold(1.0, f64::max))
                        } else {
                            Some(gpu_s[i].iter().sum::<f64>() / gpu_s[i].len() as f64)
                        };
                        assert_eq!(line.slowdown.is_some(), slowdown.is_some(), "{}", j.id);
                        let t = m.t_placed(
                            w as f64,
                            line.ps.unwrap() as f64,
                            line.locality_factor.unwrap(),
                        ) * slowdown.unwrap_or(1.0);
                        let got = line.completion_time_s.unwrap();
                        assert!((got - t).abs() <= 1e-9 * t, "{}: T {got} vs {t}", j.id);
                        assert!((line.utility - m.mu(m.pi(t))).abs() < 1e-9);
                    }
                    for (h, mm) in machines.iter().enumerate() {
                        assert!(
                            packed_on[h] + whole_on[h] <= mm.capacity.gpu + 1e-9,
                            "{}: {} packed + {} whole GPUs",
                            mm.name,
                            packed_on[h],
                            whole_on[h]
                        );
                    }
                    assert!((p.total_utility - total).abs() <= 1e-9 * total.max(1.0));
                    assert!(sh.gpus_used <= sh.exclusive_gpus);
                    alone += usize::from(p.jobs[0].admitted);
                    saved += usize::from(sh.gpus_used < sh.exclusive_gpus);
                }
            }
        }
    }
    assert!(saved > 20, "sharing saved GPUs in only {saved} plans");
    assert!(
        alone > 10,
        "the unshareable job admitted in only {alone} plans"
    );
}
