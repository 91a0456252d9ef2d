//! GPU sharing over time (docs/MODEL.md §18, "Over time"), checked from the run's output:
//! in every slot every shared GPU obeys both rules (re-derived from the jobs' fields), every
//! running shareable worker is on exactly one GPU of the machine its placement names, each
//! machine's GPUs hold the shared and the whole ones, each segment's slowdown is the one its
//! GPUs give, progress re-derived with it; sharing off changes nothing.

use smd_core::model::JobModel;
use smd_core::scenario::{Cluster, GpuSharing, MachineGroup, Mode, Resources};
use smd_core::{generate, GenerateOptions, Scenario};
use smd_place::share::normal_quantile;
use smd_sim::{simulate, Options, Run, SimPolicy};
use std::collections::HashMap;

const M_GB: f64 = 16.0;

/// 12 jobs arriving every `gap` s on 3 machines of 4 GPUs (16 GB each); two of every three
/// jobs give a memory profile (light: small and compute-light).
fn trace(seed: u64, light: bool, gap: f64, machines: bool) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 12,
        seed,
        ..Default::default()
    });
    s.version = 2;
    s.params.epsilon = 0.2;
    s.params.interval_s = Some(600.0);
    s.params.gpu_sharing = Some(GpuSharing::Heuristic);
    s.params.share_overhead = Some(0.05);
    let node = Resources {
        gpu: 4.0,
        vcpu: 96.0,
        memory_gb: 768.0,
        storage_gb: 2000.0,
    };
    s.cluster = Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "n".into(),
            count: 3.0,
            capacity: node,
            gpu_memory_gb: Some(M_GB),
            nic_gbps: None,
            local_gbps: Some(40.0),
        }],
        Resources::DEFAULT_INSTANCE,
    );
    if !machines {
        let mut pool = Cluster::default();
        pool.instance = s.cluster.instance;
        pool.units = 12.0 / pool.instance.gpu;
        s.cluster = pool;
    }
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.arrival_s = Some(gap * i as f64);
        j.iterations = (j.iterations / 50.0).max(1.0);
        j.requested_workers = Some(1.0 + (i % 3) as f64);
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
        j.limit_instances = 4.0;
        if i % 3 != 2 {
            j.gpu_mem_mean_gb = Some(if light { 1.0 + (i % 4) as f64 } else { 7.0 });
            j.gpu_mem_sd_gb = Some(0.3 * (i % 3) as f64);
            j.gpu_util = Some(if light {
                0.1 + 0.1 * (i % 3) as f64
            } else {
                0.6
            });
            j.min_performance = Some(0.7);
        }
        if i % 4 == 1 {
            j.mode = Mode::Async;
        }
        if i == 4 {
            // Breaks the memory rule even alone (13 + 2.33·2 > 16): keeps its own GPUs.
            j.gpu_mem_mean_gb = Some(13.0);
            j.gpu_mem_sd_gb = Some(2.0);
        }
    }
    s
}

fn run(s: &Scenario, policy: SimPolicy) -> Run {
    simulate(
        s,
        policy,
        &mut Options {
            gpus: true,
            ..Default::default()
        },
    )
    .unwrap()
}

/// Everything of a shared run that can be re-derived from its output and the scenario.
fn check(s: &Scenario, run: &Run) {
    let delta = s.params.interval_s.unwrap();
    let restart = s.params.restart_s.unwrap_or(30.0).min(delta);
    let kappa = s.params.share_overhead.unwrap();
    let p = s.params.collision_prob.unwrap_or(0.01);
    let z = normal_quantile(1.0 - p);
    let index: HashMap<&str, usize> = s
        .jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (j.id.as_str(), i))
        .collect();
    let sites = smd_place::share::gpu_sites(s);
    let shareable = |i: usize| s.jobs[i].gpu_mem_mean_gb.is_some();
    let alone = |i: usize| {
        let j = &s.jobs[i];
        j.gpu_mem_mean_gb.unwrap() + z * j.gpu_mem_sd_gb.unwrap() > M_GB
    };
    let mut shared_workers = 0usize;
    for (k, slot) in run.slots.iter().enumerate() {
        let t = slot.start_s;
        let gpus = slot.gpus.as_ref().expect("recorded");
        // Both rules on every GPU, and each worker's slowdown.
        let mut slow: Vec<Vec<f64>> = vec![Vec::new(); s.jobs.len()];
        let mut on_site: Vec<HashMap<usize, u64>> = vec![HashMap::new(); sites.len()];
        let mut shared_on_site = vec![0.0; sites.len()];
        let mut seen: HashMap<(usize, u32), ()> = HashMap::new();
        for g in gpus {
            let members: Vec<usize> = g.workers.iter().map(|w| index[w.job.as_str()]).collect();
            for w in &g.workers {
                assert!(
                    seen.insert((index[w.job.as_str()], w.index), ()).is_none(),
                    "slot {k}: {} worker {} on two GPUs",
                    w.job,
                    w.index
                );
            }
            let mean: f64 = members
                .iter()
                .map(|&i| s.jobs[i].gpu_mem_mean_gb.unwrap())
                .sum();
            let var: f64 = members
                .iter()
                .map(|&i| s.jobs[i].gpu_mem_sd_gb.unwrap().powi(2))
                .sum();
            assert!(
                mean + z * var.sqrt() <= M_GB * (1.0 + 1e-12),
                "slot {k}: memory rule"
            );
            assert!((g.mem_mean_gb - mean).abs() < 1e-9 && (g.mem_sd_gb - var.sqrt()).abs() < 1e-9);
            let util: f64 = members.iter().map(|&i| s.jobs[i].gpu_util.unwrap()).sum();
            let sd = util.max(1.0) * (1.0 + kappa * (members.len() as f64 - 1.0));
            for (&i, &got) in members.iter().zip(&g.slowdowns) {
                assert!((got - sd).abs() < 1e-12, "slot {k}: slowdown");
                assert!(1.0 / sd >= s.jobs[i].min_performance.unwrap() - 1e-12);
                slow[i].push(sd);
            }
            let h = sites.iter().position(|x| x.0 == g.machine).unwrap();
            shared_on_site[h] += 1.0;
            for &i in &members {
                *on_site[h].entry(i).or_default() += 1;
            }
            shared_workers += members.len();
        }
        // The jobs running in this slot, from their segments.
        let mut whole = vec![0.0; sites.len()];
        for (i, jr) in run.jobs.iter().enumerate() {
            let Some(seg) = jr
                .segments
                .iter()
                .find(|g| g.start_s < t + delta - 1e-9 && g.end_s > t + 1e-9)
            else {
                assert!(slow[i].is_empty(), "slot {k}: {} shares a GPU idle", jr.id);
                continue;
            };
            let spread: Vec<(usize, u64)> = match &seg.placement {
                Some(sh) => sh
                    .iter()
                    .map(|x| {
                        (
                            sites.iter().position(|y| y.0 == x.machine).unwrap(),
                            x.workers,
                        )
                    })
                    .collect(),
                None => vec![(0, seg.workers)],
            };
            if shareable(i) && alone(i) {
                assert!(slow[i].is_empty(), "{} shares a GPU it cannot", jr.id);
                for (h, w) in spread {
                    whole[h] += w as f64;
                }
                assert_eq!(seg.slowdown, Some(1.0));
            } else if shareable(i) {
                for (h, w) in spread {
                    assert_eq!(
                        on_site[h].get(&i).copied().unwrap_or(0),
                        w,
                        "slot {k}: {} workers on {}",
                        jr.id,
                        sites[h].0
                    );
                }
                let want = match s.jobs[i].mode {
                    Mode::Sync => slow[i].iter().copied().fold(1.0, f64::max),
                    Mode::Async => slow[i].iter().sum::<f64>() / slow[i].len() as f64,
                };
                let got = seg.slowdown.expect("a shared run gives slowdowns");
                assert!((got - want).abs() < 1e-12, "slot {k}: {} slowdown", jr.id);
            } else {
                for (h, w) in spread {
                    whole[h] += w as f64 * s.jobs[i].worker.gpu;
                }
            }
        }
        for (h, (name, cap)) in sites.iter().enumerate() {
            assert!(
                shared_on_site[h] + whole[h] <= cap + 1e-9,
                "slot {k}: {name} holds {} shared and {} whole GPUs of {cap}",
                shared_on_site[h],
                whole[h]
            );
        }
        let used: f64 = shared_on_site.iter().sum::<f64>() + whole.iter().sum::<f64>();
        assert!((slot.used.gpu - used).abs() < 1e-9, "slot {k}: GPUs in use");
    }
    assert!(shared_workers > 0, "the case shares no GPU");
    // Progress with the slowdown, and segments: a restart, or a continuation at a boundary.
    for (job, jr) in s.jobs.iter().zip(&run.jobs) {
        let m = JobModel::of(job, &s.cluster, s.params.time_unit_s);
        let mut done = 0.0;
        for seg in &jr.segments {
            let per_iter = m.t_placed(seg.workers as f64, seg.ps as f64, seg.locality_factor)
                * seg.slowdown.unwrap()
                / job.iterations;
            let iters = (seg.end_s - seg.start_s) / per_iter;
            assert!((iters - seg.iterations).abs() <= 1e-6 * job.iterations.max(1.0));
            done += iters;
            let offset = if seg.continues { 0.0 } else { restart };
            let slots = (seg.start_s - offset) / delta;
            assert!(
                (slots - slots.round()).abs() < 1e-9,
                "{}: segment start {}",
                job.id,
                seg.start_s
            );
        }
        if jr.completion_s.is_some() {
            assert!((done - job.iterations).abs() <= 1e-6 * job.iterations);
        }
        let restarts = jr.segments.iter().filter(|g| !g.continues).count();
        assert_eq!(jr.restarts, restarts.saturating_sub(1) as u64);
    }
    let sh = run.metrics.sharing.as_ref().expect("sharing metrics");
    assert!(sh.gpu_hours <= sh.exclusive_gpu_hours + 1e-9);
    assert!(sh.mean_performance > 0.0 && sh.mean_performance <= 1.0);
    assert!(run.metrics.total_utility <= run.metrics.bound * (1.0 + 1e-12));
}

#[test]
fn every_shared_slot_obeys_the_rules_on_machines_and_on_a_pool() {
    for machines in [true, false] {
        for (seed, light) in [(1, true), (2, false), (3, true)] {
            let s = trace(seed, light, 300.0, machines);
            for policy in [
                SimPolicy::Fifo,
                SimPolicy::Optimus,
                SimPolicy::Smd,
                SimPolicy::Oasis,
                SimPolicy::Locality,
            ] {
                let r = run(&s, policy);
                check(&s, &r);
                if policy == SimPolicy::Fifo {
                    assert!(!r.jobs[4].segments.is_empty(), "the unshareable job runs");
                }
                assert_eq!(r, run(&s, policy), "{policy}: deterministic");
            }
        }
    }
}

#[test]
fn sharing_saves_gpu_hours_on_light_jobs() {
    let s = trace(1, true, 120.0, true);
    let r = run(&s, SimPolicy::Fifo);
    let sh = r.metrics.sharing.unwrap();
    assert!(
        sh.gpu_hours < 0.9 * sh.exclusive_gpu_hours,
        "{} of {} GPU-hours",
        sh.gpu_hours,
        sh.exclusive_gpu_hours
    );
}

#[test]
fn sharing_off_changes_no_run() {
    for machines in [true, false] {
        let mut s = trace(1, true, 300.0, machines);
        s.params.gpu_sharing = Some(GpuSharing::Off);
        let mut none = s.clone();
        none.params.gpu_sharing = None;
        for policy in [SimPolicy::Fifo, SimPolicy::Smd, SimPolicy::Oasis] {
            let a = run(&s, policy);
            assert_eq!(a, run(&none, policy));
            assert!(a.metrics.sharing.is_none());
            assert!(a.slots.iter().all(|x| x.gpus.is_none()));
        }
    }
}
