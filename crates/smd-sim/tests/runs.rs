//! Every run checked independently of the engine (docs/MODEL.md §17): progress re-derived
//! from the segments, capacity in every slot (and on every machine), no run before arrival,
//! JCT at least the bound's, the bound above every policy, determinism — on generated
//! traces, on a pool and on machines, and over random small traces.

use proptest::prelude::*;
use smd_core::model::JobModel;
use smd_core::scenario::{Cluster, MachineGroup, Resources};
use smd_core::{generate, GenerateOptions, Scenario};
use smd_sim::{simulate, Options, Run, SimPolicy};

fn node() -> Resources {
    Resources {
        gpu: 4.0,
        vcpu: 48.0,
        memory_gb: 192.0,
        storage_gb: 900.0,
    }
}

/// `jobs` generated jobs arriving every `gap` s, on `machines` 4-GPU machines (0: a pool of
/// `units` units).
fn trace(jobs: usize, seed: u64, gap: f64, machines: usize, units: f64) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed,
        ..Default::default()
    });
    s.version = 2;
    s.params.epsilon = 0.2;
    s.params.interval_s = Some(600.0);
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.arrival_s = Some(gap * i as f64 + 7.0 * (i % 3) as f64);
        // Shorter jobs keep the runs to hours.
        j.iterations = (j.iterations / 50.0).max(1.0);
        j.requested_workers = Some(1.0 + (i % 3) as f64);
    }
    if machines > 0 {
        s.cluster = Cluster::of_machines(
            vec![MachineGroup {
                hourly_usd: None,
                gpu: None,
                name: "n".into(),
                count: machines as f64,
                capacity: node(),
                gpu_memory_gb: None,
                nic_gbps: None,
                local_gbps: Some(40.0),
            }],
            Resources::DEFAULT_INSTANCE,
        );
    } else {
        s.cluster.units = units;
    }
    s
}

/// Every property of a run that can be re-derived from its output and the scenario.
fn check(s: &Scenario, run: &Run) {
    let delta = s.params.interval_s.unwrap_or(600.0);
    let restart = s.params.restart_s.unwrap_or(30.0).min(delta);
    let bound = simulate(s, SimPolicy::Bound, &mut Options::default()).unwrap();
    let cap = s.cluster.capacity().to_array();
    let machines = s.cluster.machine_list();
    let slots = run.slots.len();
    let mut used = vec![[0.0f64; 4]; slots];
    let mut on_machine = vec![vec![[0.0f64; 4]; machines.len()]; slots];
    let mut total = 0.0;
    for (i, (job, jr)) in s.jobs.iter().zip(&run.jobs).enumerate() {
        let m = JobModel::of(job, &s.cluster, s.params.time_unit_s);
        let e = job.iterations;
        let mut done = 0.0;
        let mut last_end = f64::NEG_INFINITY;
        for seg in &jr.segments {
            assert!(
                seg.start_s >= jr.arrival_s,
                "{}: runs before it arrives",
                job.id
            );
            assert!(
                seg.start_s >= last_end - 1e-6,
                "{}: segments overlap",
                job.id
            );
            assert!(seg.end_s >= seg.start_s);
            last_end = seg.end_s;
            let (w, p) = (seg.workers as f64, seg.ps as f64);
            assert!(m.omega.contains(w, p), "{}: ({w}, {p}) outside Ω", job.id);
            // ρ from the placement's definition, on machines.
            let rho = match &seg.placement {
                Some(sh) => {
                    let f: Vec<(f64, f64)> =
                        sh.iter().map(|x| (x.workers as f64, x.ps as f64)).collect();
                    assert_eq!(f.iter().map(|x| x.0).sum::<f64>(), w);
                    assert_eq!(f.iter().map(|x| x.1).sum::<f64>(), p);
                    smd_core::locality::factor(job.mode, &f, job.ps_bandwidth_gbps / 40.0)
                }
                None => 1.0,
            };
            assert!((seg.locality_factor - rho).abs() < 1e-12, "{}: ρ", job.id);
            let per_iter = m.t_placed(w, p, rho) / e;
            let iters = (seg.end_s - seg.start_s) / per_iter;
            assert!(
                (iters - seg.iterations).abs() <= 1e-6 * e.max(1.0),
                "{}: segment says {} iterations, its times {iters}",
                job.id,
                seg.iterations
            );
            done += iters;
            // Every segment starts with a restart, at a slot boundary.
            let first = ((seg.start_s - restart) / delta).round() as usize;
            assert!(
                ((first as f64) * delta + restart - seg.start_s).abs() < 1e-6,
                "{}: segment start {} is not a boundary plus the restart",
                job.id,
                seg.start_s
            );
            let last = (((seg.end_s / delta) - 1e-9).ceil() as usize)
                .max(first + 1)
                .min(slots);
            let d = m.demand(w, p);
            for k in first..last {
                for r in 0..4 {
                    used[k][r] += d[r];
                }
                if let Some(sh) = &seg.placement {
                    for x in sh {
                        let h = machines.iter().position(|mm| mm.name == x.machine).unwrap();
                        let dw = job.worker.scale(x.workers as f64).to_array();
                        let dp = job.ps.scale(x.ps as f64).to_array();
                        for r in 0..4 {
                            on_machine[k][h][r] += dw[r] + dp[r];
                        }
                    }
                }
            }
        }
        match jr.completion_s {
            Some(c) => {
                assert!(
                    (done - e).abs() <= 1e-6 * e,
                    "{}: segments give {done} of {e} iterations",
                    job.id
                );
                assert!((c - last_end).abs() < 1e-6);
                let jct = c - jr.arrival_s;
                assert_eq!(jr.jct_s, Some(jct));
                assert!((jr.utility - m.mu(m.pi(jct))).abs() < 1e-9);
                let lb = bound.jobs[i]
                    .jct_s
                    .expect("the bound finishes every job that can");
                assert!(
                    jct >= lb * (1.0 - 1e-9),
                    "{}: JCT {jct} below the bound's {lb}",
                    job.id
                );
                assert!(jr.utility <= bound.jobs[i].utility + 1e-9);
            }
            None => {
                assert!(done <= e * (1.0 + 1e-9));
                assert_eq!(jr.utility, 0.0);
            }
        }
        assert_eq!(jr.restarts, jr.segments.len().saturating_sub(1) as u64);
        total += jr.utility;
    }
    assert_eq!(run.slot_s, delta, "{}: its slot length", run.policy);
    for (k, slot) in run.slots.iter().enumerate() {
        assert!((slot.start_s - k as f64 * delta).abs() < 1e-6);
        let got = slot.used.to_array();
        for r in 0..4 {
            assert!(
                used[k][r] <= cap[r] * (1.0 + 1e-9) + 1e-9,
                "slot {k} over capacity"
            );
            assert!(
                (got[r] - used[k][r]).abs() <= 1e-6 * (1.0 + cap[r]),
                "slot {k} use"
            );
        }
        for (h, mm) in machines.iter().enumerate() {
            let c = mm.capacity.to_array();
            for r in 0..4 {
                assert!(
                    on_machine[k][h][r] <= c[r] * (1.0 + 1e-9) + 1e-9,
                    "slot {k}: {} over capacity",
                    mm.name
                );
            }
        }
    }
    assert!((run.metrics.total_utility - total).abs() <= 1e-9 * total.max(1.0));
    assert!(
        run.metrics.total_utility <= run.metrics.bound * (1.0 + 1e-12),
        "{}: {} above the bound {}",
        run.policy,
        run.metrics.total_utility,
        run.metrics.bound
    );
    assert_eq!(run.metrics.bound, bound.metrics.total_utility);
}

#[test]
fn every_policy_on_a_pool_and_on_machines_passes_every_check() {
    for (machines, units) in [(0, 0.05), (6, 0.0)] {
        for seed in 1..=2 {
            let s = trace(14, seed, 400.0, machines, units);
            for policy in SimPolicy::all_for(&s) {
                let run = simulate(&s, policy, &mut Options::default()).unwrap();
                assert_eq!(run.policy, policy);
                if policy != SimPolicy::Bound {
                    check(&s, &run);
                    assert!(
                        run.metrics.unfinished < s.jobs.len(),
                        "{policy}: nothing finished"
                    );
                }
            }
        }
    }
}

/// The waiting metrics re-derived from the jobs' records (first start − arrival over the
/// jobs that started): the mean, and the 95th percentile by nearest rank — the smallest
/// wait with at least 95 % of the waits at or below it.
#[test]
fn waiting_metrics_are_re_derived_from_the_jobs() {
    // 30 jobs every 60 s on 2 machines: queues form.
    let s = trace(30, 5, 60.0, 2, 0.0);
    let mut waited = false;
    for policy in SimPolicy::all_for(&s) {
        if policy == SimPolicy::Bound {
            continue;
        }
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        let mut waits: Vec<f64> = run
            .jobs
            .iter()
            .filter_map(|j| Some(j.first_start_s? - j.arrival_s))
            .collect();
        assert!(!waits.is_empty(), "{policy}: nothing started");
        let mean = waits.iter().sum::<f64>() / waits.len() as f64;
        waits.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let n = waits.len();
        let p95 = *waits
            .iter()
            .find(|&&w| waits.iter().filter(|&&x| x <= w).count() * 100 >= 95 * n)
            .unwrap();
        let m = &run.metrics;
        assert!((m.mean_queue_s.unwrap() - mean).abs() <= 1e-9 * mean.max(1.0));
        assert_eq!(m.p95_queue_s, Some(p95), "{policy}");
        waited |= p95 > 0.0;
    }
    assert!(waited, "no policy made a job wait: the test says nothing");
}

#[test]
fn runs_are_deterministic() {
    let s = trace(10, 3, 300.0, 4, 0.0);
    for policy in SimPolicy::all_for(&s) {
        let a = simulate(&s, policy, &mut Options::default()).unwrap();
        let b = simulate(&s, policy, &mut Options::default()).unwrap();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
    }
}

#[test]
fn fifo_starts_jobs_in_arrival_order() {
    let s = trace(12, 2, 60.0, 0, 0.03);
    let run = simulate(&s, SimPolicy::Fifo, &mut Options::default()).unwrap();
    let starts: Vec<f64> = run.jobs.iter().filter_map(|j| j.first_start_s).collect();
    assert!(starts.len() >= 2);
    // Arrivals are increasing with the index here; no later job starts first.
    for (i, j) in run.jobs.iter().enumerate() {
        for k in &run.jobs[i + 1..] {
            if let (Some(a), Some(b)) = (j.first_start_s, k.first_start_s) {
                assert!(a <= b + 1e-9, "{} started after {}", j.id, k.id);
            }
        }
        assert_eq!(j.restarts, 0, "fifo never resizes");
    }
}

#[test]
fn progress_and_cancel() {
    let s = trace(10, 1, 300.0, 0, 0.05);
    let mut seen = Vec::new();
    let mut progress = |p: smd_sim::Progress| seen.push(p.slots);
    let run = simulate(
        &s,
        SimPolicy::Optimus,
        &mut Options {
            progress: Some(&mut progress),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(seen.last().copied(), Some(run.slots.len()));
    let stop = || true;
    let r = simulate(
        &s,
        SimPolicy::Smd,
        &mut Options {
            cancel: Some(&stop),
            ..Default::default()
        },
    );
    assert_eq!(r.unwrap_err(), smd_sim::SimError::Cancelled);
}

#[test]
fn invalid_time_parameters_are_named() {
    let mut s = trace(3, 1, 60.0, 0, 0.05);
    s.params.interval_s = Some(0.5);
    s.params.horizon_s = Some(-1.0);
    let e = simulate(&s, SimPolicy::Fifo, &mut Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("params.interval_s"), "{e}");
    assert!(e.contains("params.horizon_s"), "{e}");
}

#[test]
fn a_horizon_cuts_the_run() {
    let mut s = trace(8, 1, 600.0, 0, 0.02);
    s.params.horizon_s = Some(1800.0);
    for policy in SimPolicy::all_for(&s) {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        for j in &run.jobs {
            if let Some(c) = j.completion_s {
                assert!(
                    c <= 1800.0 + 1e-9,
                    "{policy}: {} ends after the horizon",
                    j.id
                );
            }
        }
        if policy != SimPolicy::Bound {
            assert!(run.slots.len() <= 3);
            check(&s, &run);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn random_small_traces_pass_every_check(
        seed in 1u64..500,
        jobs in 1usize..7,
        gap in 0.0f64..2000.0,
        delta in prop::sample::select(vec![60.0, 300.0, 600.0, 1800.0]),
        restart in prop::sample::select(vec![0.0, 30.0, 120.0, 900.0]),
        machines in prop::sample::select(vec![0usize, 2, 5]),
    ) {
        let mut s = trace(jobs, seed, gap, machines, 0.03);
        s.params.interval_s = Some(delta);
        s.params.restart_s = Some(restart);
        for policy in SimPolicy::all_for(&s) {
            let run = simulate(&s, policy, &mut Options::default()).unwrap();
            if policy != SimPolicy::Bound {
                check(&s, &run);
            }
        }
    }
}
