//! Liveness (docs/MODEL.md §17): under every policy, on pools and machines, with GPU
//! sharing on and off, a job that fits the empty cluster at some allocation of its region
//! eventually runs and finishes; a job that cannot is unfinished with a reason that says
//! so; every unfinished job has a reason. "Fits alone" is re-derived here from the jobs'
//! numbers (its (1, 1) on the empty machines), not from the engine.

use proptest::prelude::*;
use smd_core::model::JobModel;
use smd_core::scenario::{Cluster, GpuSharing, MachineGroup, Placement, Resources};
use smd_core::{generate, GenerateOptions, Scenario};
use smd_sim::{simulate, Options, Run, SimPolicy};

/// The policies that schedule (`bound` is no schedule).
const POLICIES: [SimPolicy; 5] = [
    SimPolicy::Fifo,
    SimPolicy::Optimus,
    SimPolicy::Smd,
    SimPolicy::Oasis,
    SimPolicy::Locality,
];

fn node(gpu: f64) -> Resources {
    Resources {
        gpu,
        vcpu: 48.0,
        memory_gb: 192.0,
        storage_gb: 900.0,
    }
}

fn machines(count: usize, gpu: f64) -> Cluster {
    Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "n".into(),
            count: count as f64,
            capacity: node(gpu),
            gpu_memory_gb: Some(16.0),
            nic_gbps: None,
            local_gbps: Some(40.0),
        }],
        Resources::DEFAULT_INSTANCE,
    )
}

/// Whether job `i`'s (1, 1) is in its region and fits the empty cluster: on a pool its
/// demand within capacity; on machines its worker on one machine and its PS on one (the
/// same machine holding both, or two machines).
fn fits_alone(s: &Scenario, i: usize) -> bool {
    let job = &s.jobs[i];
    let m = JobModel::of(job, &s.cluster, s.params.time_unit_s);
    if !m.feasible() {
        return false;
    }
    let le = |a: [f64; 4], b: [f64; 4]| (0..4).all(|r| a[r] <= b[r] * (1.0 + 1e-9) + 1e-9);
    let (w, p) = (job.worker.to_array(), job.ps.to_array());
    let both: [f64; 4] = std::array::from_fn(|r| w[r] + p[r]);
    if !s.cluster.has_machines() {
        return le(both, s.cluster.capacity().to_array());
    }
    let caps: Vec<[f64; 4]> = s
        .cluster
        .machine_list()
        .iter()
        .map(|x| x.capacity.to_array())
        .collect();
    caps.iter().any(|c| le(both, *c))
        || caps.iter().enumerate().any(|(a, ca)| {
            le(w, *ca) && caps.iter().enumerate().any(|(b, cb)| a != b && le(p, *cb))
        })
}

/// The liveness property of one run.
fn live(s: &Scenario, run: &Run, ctx: &str) {
    for (i, j) in run.jobs.iter().enumerate() {
        let why = j.waiting.as_deref().unwrap_or("");
        if fits_alone(s, i) {
            assert!(
                j.completion_s.is_some(),
                "{ctx}: {} fits the empty cluster but never finished ({why})",
                j.id
            );
        } else {
            assert!(j.completion_s.is_none(), "{ctx}: {} cannot run", j.id);
            assert!(
                why.starts_with("can never run: "),
                "{ctx}: {}: {why:?}",
                j.id
            );
        }
        if j.completion_s.is_none() {
            assert!(
                !why.is_empty(),
                "{ctx}: {} unfinished without a reason",
                j.id
            );
        }
    }
    let unfinished = (0..s.jobs.len()).filter(|&i| !fits_alone(s, i)).count();
    assert_eq!(run.metrics.unfinished, unfinished, "{ctx}");
}

/// `n` generated jobs arriving every `gap` s; some ask for more workers than the cluster
/// has GPUs; shareable with a light memory profile when `share`.
fn trace(n: usize, seed: u64, gap: f64, cluster: Cluster, share: bool) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: n,
        seed,
        ..Default::default()
    });
    s.version = 2;
    s.params.epsilon = 0.2;
    s.params.interval_s = Some(600.0);
    s.cluster = cluster;
    if share {
        s.params.gpu_sharing = Some(GpuSharing::Heuristic);
    }
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.arrival_s = Some(gap * i as f64);
        j.iterations = (j.iterations / 50.0).max(1.0);
        j.requested_workers = Some([1.0, 3.0, 65.0][i % 3]);
        if share && j.worker.gpu == 1.0 {
            j.gpu_mem_mean_gb = Some(2.0 + (i % 4) as f64);
            j.gpu_mem_sd_gb = Some(0.5);
            j.gpu_util = Some(0.3);
        }
    }
    s
}

#[test]
fn optimus_runs_a_job_whose_choice_cannot_be_placed() {
    // Issue 23 row 1: alone on 16 × t4x4, Optimus chose 50 workers that no placement holds,
    // slot after slot; the fallback places a smaller allocation.
    let s = workload("workload-1", 16.0, None);
    let big = s
        .jobs
        .iter()
        .position(|j| j.id == "imagenet-157")
        .expect("workload-1 has imagenet-157");
    let mut alone = s.clone();
    alone.jobs = vec![s.jobs[big].clone()];
    alone.jobs[0].arrival_s = Some(0.0);
    for policy in POLICIES {
        let run = simulate(&alone, policy, &mut Options::default()).unwrap();
        live(&alone, &run, &format!("{policy} alone"));
    }
}

#[test]
fn oasis_serves_its_reservations() {
    // Issue 23 row 2: the first three jobs of workload-1; a job reserved for later than the
    // last busy slot used to stay unrun when the run stopped.
    let mut s = workload("workload-1", 16.0, None);
    s.jobs.truncate(3);
    let run = simulate(&s, SimPolicy::Oasis, &mut Options::default()).unwrap();
    live(&s, &run, "oasis, 3 jobs");
    let s = workload("workload-1-half", 16.0, None);
    let run = simulate(&s, SimPolicy::Oasis, &mut Options::default()).unwrap();
    live(&s, &run, "oasis, workload-1-half");
}

#[test]
fn gpu_sharing_lets_a_lone_job_run() {
    // Issue 23 row 3: one preset job on an empty cluster with sharing on.
    let s = workload("workload-1", 16.0, Some(GpuSharing::Heuristic));
    for id in ["imagenet-157", "cifar10-0", "ncf-2"] {
        let Some(k) = s.jobs.iter().position(|j| j.id == id) else {
            continue;
        };
        let mut one = s.clone();
        one.jobs = vec![s.jobs[k].clone()];
        one.jobs[0].arrival_s = Some(0.0);
        for policy in POLICIES {
            let run = simulate(&one, policy, &mut Options::default()).unwrap();
            live(&one, &run, &format!("{policy} {id} shared"));
        }
    }
}

#[test]
fn fifo_skips_a_job_that_can_never_run() {
    // Issue 23 row 4: a worker of 8 GPUs on 4-GPU machines, then a request larger than the
    // cluster, at the head of the queue; the jobs behind them run.
    let mut s = trace(5, 3, 60.0, machines(4, 4.0), false);
    s.jobs[0].worker.gpu = 8.0;
    s.jobs[0].limit_instances = 16.0;
    s.jobs[1].requested_workers = Some(65.0);
    s.jobs[1].limit_instances = 100.0;
    let run = simulate(&s, SimPolicy::Fifo, &mut Options::default()).unwrap();
    live(&s, &run, "fifo");
    assert!(!fits_alone(&s, 0) && fits_alone(&s, 1));
    assert!(run.jobs[0]
        .waiting
        .as_deref()
        .is_some_and(|w| w.contains("GPU")));
    for policy in POLICIES {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        live(&s, &run, &format!("{policy}"));
    }
}

#[test]
fn jobs_the_horizon_cuts_say_so() {
    // Issue 23 row 12: a job arriving after the horizon, a slot longer than the horizon.
    let mut s = trace(3, 1, 60.0, machines(2, 4.0), false);
    s.jobs[2].arrival_s = Some(1e9);
    for policy in POLICIES {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        let w = run.jobs[2].waiting.as_deref().unwrap_or("");
        assert!(w.contains("horizon"), "{policy}: {w:?}");
        assert!(run.jobs[..2].iter().all(|j| j.completion_s.is_some()));
    }
    s.jobs[2].arrival_s = Some(100.0);
    s.params.interval_s = Some(30.0 * 86_400.0);
    s.params.restart_s = Some(30.0);
    for policy in POLICIES {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        let w = run.jobs[2].waiting.as_deref().unwrap_or("");
        assert!(
            run.jobs[2].completion_s.is_none() && w.contains("horizon"),
            "{policy}: {w:?}"
        );
    }
}

#[test]
fn a_wait_reason_agrees_with_the_run() {
    // Issue 23 row 13: a job smd did not admit but that ran later at (1, 1) must not read
    // "needs more than the whole cluster" alone: the reason says why the backfill waited.
    let s = workload("workload-1", 16.0, None);
    let run = simulate(&s, SimPolicy::Smd, &mut Options::default()).unwrap();
    live(&s, &run, "smd workload-1");
    for j in &run.jobs {
        let Some(w) = &j.waiting else { continue };
        if w.contains("needs more than the whole cluster") && j.completion_s.is_some() {
            assert!(w.contains("(1, 1) did not fit"), "{}: {w}", j.id);
        }
        assert!(
            !w.starts_with("can never run") || j.segments.is_empty(),
            "{}: {w}",
            j.id
        );
    }
}

/// A bundled workload on `count` t4x4 machines, optionally with GPU sharing.
fn workload(name: &str, count: f64, sharing: Option<GpuSharing>) -> Scenario {
    let text = smd_apps::trace::workload(name).unwrap();
    let arrivals = smd_apps::trace::parse(text).unwrap();
    let m = smd_apps::machines::machine_type("t4x4").unwrap();
    let mut s =
        smd_apps::trace::scenario(&arrivals, smd_apps::machines::cluster(m, count, m.capacity))
            .unwrap();
    s.params.gpu_sharing = sharing;
    s
}

#[test]
fn every_bundled_workload_finishes_under_every_policy_and_placement() {
    // 16 workloads × 5 policies, the placement policy and sharing varied so that every
    // policy meets every placement; every job of these workloads fits the empty cluster.
    let names: Vec<String> = (1..=8)
        .flat_map(|k| [format!("workload-{k}"), format!("workload-{k}-half")])
        .collect();
    for (w, name) in names.iter().enumerate() {
        for (k, policy) in POLICIES.into_iter().enumerate() {
            let sharing = ((w + k) % 4 == 0).then_some(GpuSharing::Heuristic);
            let mut s = workload(name, 16.0, sharing);
            s.params.placement = Some(Placement::ALL[(w + k) % Placement::ALL.len()]);
            if s.params.placement == Some(Placement::Exact) {
                // exact's search is for small cases; its first-found placement is kept.
                s.params.placement = Some(Placement::Locality);
            }
            let run = simulate(&s, policy, &mut Options::default()).unwrap();
            let ctx = format!("{name} {policy} {:?} {sharing:?}", s.params.placement);
            live(&s, &run, &ctx);
            assert_eq!(run.metrics.unfinished, 0, "{ctx}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
    #[test]
    fn random_traces_are_live(
        seed in 1u64..1000,
        n in 1usize..7,
        gap in 0.0f64..1500.0,
        count in prop::sample::select(vec![0usize, 1, 2, 5]),
        share in any::<bool>(),
        big in any::<bool>(),
        placement in 0usize..4,
    ) {
        let cluster = if count == 0 {
            Cluster { units: 0.05, ..Cluster::default() }
        } else {
            machines(count, 4.0)
        };
        let mut s = trace(n, seed, gap, cluster, share);
        if count > 0 {
            s.params.placement = Some(Placement::ALL[placement]);
        }
        if big {
            // One job that no machine holds (a worker of 8 GPUs).
            s.jobs[0].worker.gpu = 8.0;
            s.jobs[0].gpu_mem_mean_gb = None;
        }
        for policy in POLICIES {
            let run = simulate(&s, policy, &mut Options::default()).unwrap();
            live(&s, &run, &format!("{policy}"));
        }
    }
}
