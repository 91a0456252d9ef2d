//! Measured all-reduce jobs (docs/MODEL.md §21–§22) through every planner and the
//! simulation: plans feasible and re-derived (`smd_check::check_plan`), every admitted job
//! within its GPU cap (computed here from the reference's rule), no parameter servers, a
//! job's time equal to its per-epoch sum computed here, `global` equal to brute force on a
//! small case, and every simulation policy finishing a bundled workload within the caps.

use smd_apps::app::App;
use smd_apps::machines;
use smd_apps::measured::Measured;
use smd_apps::preset::{self, MeasuredOptions, PresetOptions};
use smd_apps::trace;
use smd_core::model::JobModel;
use smd_core::plan::Reason;
use smd_core::scenario::{Architecture, Job, Scenario};
use smd_core::{Options, Policy};
use smd_sim::{simulate, Options as SimOptions, SimPolicy};

fn models(s: &Scenario) -> Vec<JobModel> {
    s.jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect()
}

/// A bundled workload on 16 × t4x4, its jobs measured (the default of `smd trace`).
fn workload(name: &str) -> Scenario {
    let text = trace::workload(name).unwrap();
    let arrivals = trace::parse(text).unwrap();
    let t4 = machines::machine_type("t4x4").unwrap();
    let s = trace::scenario(&arrivals, machines::cluster(t4, 16.0, t4.capacity)).unwrap();
    s.validate().unwrap();
    s
}

/// The reference's GPU cap (POLLUX-SIM.md §2.5), written out here: ⌊batch / smallest local
/// batch⌋, ncf 1, at most the 64 GPUs of the cluster; under a policy that chooses the
/// batch (`pollux`), the largest batch's (§4.3).
fn reference_cap(job: &Job, policy: SimPolicy) -> u64 {
    let m = job.measured.as_ref().unwrap();
    if policy == SimPolicy::Gavel {
        // Gavel runs each job at its requested GPUs (MODEL.md §24.5).
        return job.requested_workers.unwrap() as u64;
    }
    if m.app == App::Ncf && !policy.is_hetero() {
        return 1;
    }
    let b_min = m.app.facts().local_batch[0] as f64;
    let batch = if policy.learns() {
        Measured::of(m.app).unwrap().batch_range()[1]
    } else {
        m.batch_size.unwrap()
    };
    ((batch / b_min).floor() as u64).min(64)
}

#[test]
fn workload_1_plans_with_every_policy_feasibly_within_each_jobs_cap() {
    let s = workload("workload-1");
    assert!(s
        .jobs
        .iter()
        .all(|j| j.architecture() == Architecture::Allreduce));
    let ms = models(&s);
    for policy in Policy::ALL {
        let plan = smd_place::plan_placed(&s, policy, &mut Options::default()).unwrap();
        let errs = smd_check::check_plan(&s, &ms, &plan);
        assert!(errs.is_empty(), "{policy}: {errs:?}");
        assert!(plan.admitted > 0, "{policy} admits no job");
        for (line, job) in plan.jobs.iter().zip(&s.jobs) {
            // Every job fits the cluster the trace was made for.
            assert_ne!(
                line.reason,
                Some(Reason::NeedsMoreThanCluster),
                "{policy} {}",
                job.id
            );
            if let Some(w) = line.workers {
                assert_eq!(
                    line.ps,
                    Some(0),
                    "{policy} {}: a measured job has no PS",
                    job.id
                );
                assert!(
                    (1..=reference_cap(job, SimPolicy::Fifo)).contains(&w),
                    "{policy} {}: {w} GPUs, cap {}",
                    job.id,
                    reference_cap(job, SimPolicy::Fifo)
                );
            }
        }
        assert!(plan.resources.used.gpu <= 64.0 + 1e-9, "{policy}");
    }
}

/// §1.4 written out: epoch e needs P(e+1) − P(e) scale-invariant iterations at
/// gain = (var + sqr)/(var/s + sqr), s = B/M0, each iteration step + accum·(step − sync),
/// each epoch rounded half to even.
fn epoch_sum(app: App, placement: &[u32], batch: f64) -> f64 {
    let m = Measured::of(app).unwrap();
    let replicas: u32 = placement.iter().sum();
    let c = m.batch_config(replicas, batch);
    let b = f64::from(c.replicas * c.atomic * (c.accum + 1));
    let step = m.step(placement, f64::from(c.atomic)).unwrap();
    let per_iter = step.step_s + f64::from(c.accum) * (step.step_s - step.sync_s);
    let m0 = m.batch_range()[0];
    (0..m.max_epochs())
        .map(|e| {
            let (sqr, var) = m.grad_stats(b, e).unwrap();
            let gain = (var + sqr) / (var / (b / m0) + sqr);
            let work = m.epoch_target(e + 1) - m.epoch_target(e);
            (work * per_iter / gain).round_ties_even()
        })
        .sum()
}

#[test]
fn a_measured_jobs_time_is_its_per_epoch_sum_on_its_packed_placement() {
    let t4 = machines::machine_type("t4x4").unwrap();
    let cluster = machines::cluster(t4, 16.0, t4.capacity);
    for (app, batch, w, placement) in [
        (App::Cifar10, 2048.0, 6, vec![4, 2]),
        (App::Bert, 384.0, 9, vec![4, 4, 1]),
        (App::Deepspeech2, 320.0, 4, vec![4]),
        (App::Ncf, 32768.0, 1, vec![1]),
    ] {
        let opts = MeasuredOptions {
            batch_size: Some(batch),
            ..MeasuredOptions::default()
        };
        let job = preset::measured(app, &opts).unwrap();
        let m = JobModel::of(&job, &cluster, None);
        let want = epoch_sum(app, &placement, batch);
        assert_eq!(m.t(f64::from(w), 0.0), want, "{app} at {w} GPUs");
        // On machines the placement's own measured time: the same rows, another order.
        let rotated: Vec<u32> = placement.iter().rev().copied().collect();
        assert_eq!(
            m.t_on(f64::from(w), 0.0, 1.0, &rotated),
            want,
            "{app} rotated"
        );
    }
    // POLLUX-SIM.md §1.7: ncf-6 of workload-6 runs 47 s on its one GPU.
    let text = trace::workload("workload-6").unwrap();
    let s = trace::scenario(&trace::parse(text).unwrap(), cluster.clone()).unwrap();
    let ncf6 = s.jobs.iter().find(|j| j.id == "ncf-6").unwrap();
    assert_eq!(JobModel::of(ncf6, &s.cluster, None).t(1.0, 0.0), 47.0);
}

#[test]
fn a_measured_job_writes_and_reads_back_equal_and_refuses_ps_fields() {
    let job = preset::measured(App::Cifar10, &MeasuredOptions::default()).unwrap();
    let text = serde_json::to_string(&job).unwrap();
    assert!(text.contains("\"architecture\":\"allreduce\"") && !text.contains("layers"));
    assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), job);
    let with_ps = text.replacen('{', "{\"layers\":[],", 1);
    let err = serde_json::from_str::<Job>(&with_ps)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`layers` is a parameter-server field"),
        "{err}"
    );
    let no_app = text.replace("\"app\":\"cifar10\",", "");
    let err = serde_json::from_str::<Job>(&no_app)
        .unwrap_err()
        .to_string();
    assert!(err.contains("missing field `app`"), "{err}");
    // A parameter-server preset is written as before: no architecture, every PS field.
    let ps = preset::preset(App::Bert, &PresetOptions::batch(384.0)).unwrap();
    let text = serde_json::to_string(&ps).unwrap();
    assert!(!text.contains("architecture") && text.contains("\"layers\""));
    assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), ps);
}

/// Every assignment of 0…cap GPUs to each job within the pool's capacity: the most total
/// utility (0 GPUs: not admitted).
fn brute_force(s: &Scenario, ms: &[JobModel]) -> f64 {
    let cap = s.cluster.capacity().to_array();
    let mut best = 0.0f64;
    let caps: Vec<u64> = ms.iter().map(|m| m.w_max_int()).collect();
    let mut w = vec![0u64; ms.len()];
    loop {
        let mut used = [0.0; 4];
        let mut total = 0.0;
        for (m, &wi) in ms.iter().zip(&w) {
            if wi > 0 {
                let d = m.demand(wi as f64, 0.0);
                (0..4).for_each(|r| used[r] += d[r]);
                total += m.utility_at(wi as f64, 0.0);
            }
        }
        if (0..4).all(|r| used[r] <= cap[r] + 1e-9) {
            best = best.max(total);
        }
        let mut k = 0;
        while k < w.len() && w[k] == caps[k] {
            w[k] = 0;
            k += 1;
        }
        if k == w.len() {
            return best;
        }
        w[k] += 1;
    }
}

#[test]
fn global_equals_brute_force_on_measured_jobs_and_bounds_every_policy() {
    // Four jobs that compete for 8 GPUs on a pool, with deadlines that make GPUs matter.
    let t4 = machines::machine_type("t4x4").unwrap();
    let mut s = Scenario {
        version: 2,
        cluster: machines::pool(t4, 2.0),
        params: Default::default(),
        jobs: Vec::new(),
    };
    for (app, batch, deadline_h) in [
        (App::Cifar10, 1024.0, 0.15),
        (App::Deepspeech2, 320.0, 0.5),
        (App::Bert, 192.0, 0.25),
        (App::Yolov3, 64.0, 3.0),
    ] {
        let opts = MeasuredOptions {
            batch_size: Some(batch),
            max_workers: Some(6.0),
            ..MeasuredOptions::default()
        };
        let mut job = preset::measured(app, &opts).unwrap();
        job.utility.gamma3 = deadline_h;
        job.utility.gamma2 = 20.0;
        s.jobs.push(job);
    }
    s.validate().unwrap();
    let ms = models(&s);
    let want = brute_force(&s, &ms);
    let global = smd_core::plan_with(&s, Policy::Global, &mut Options::default()).unwrap();
    assert!(global.admission.proven_optimal);
    assert!(
        (global.total_utility - want).abs() <= 1e-9 * want.max(1.0),
        "{} vs {want}",
        global.total_utility
    );
    for policy in Policy::ALL {
        let plan = smd_core::plan_with(&s, policy, &mut Options::default()).unwrap();
        assert!(smd_check::check_plan(&s, &ms, &plan).is_empty(), "{policy}");
        assert!(
            plan.total_utility <= want + 1e-9,
            "{policy} beats the optimum"
        );
    }
}

#[test]
fn a_mixed_scenario_of_both_kinds_plans_with_every_policy() {
    let t4 = machines::machine_type("t4x4").unwrap();
    let mut s = Scenario {
        version: 2,
        cluster: machines::cluster(t4, 4.0, t4.capacity),
        params: Default::default(),
        jobs: vec![
            preset::measured(App::Cifar10, &MeasuredOptions::default()).unwrap(),
            preset::preset(
                App::Bert,
                &PresetOptions {
                    instance: t4.capacity,
                    ..PresetOptions::batch(384.0)
                },
            )
            .unwrap(),
        ],
    };
    s.jobs[1].limit_instances = 2.0;
    s.validate().unwrap();
    let ms = models(&s);
    for policy in Policy::ALL {
        let plan = smd_place::plan_placed(&s, policy, &mut Options::default()).unwrap();
        assert!(smd_check::check_plan(&s, &ms, &plan).is_empty(), "{policy}");
        assert_eq!(plan.jobs[0].ps.unwrap_or(0), 0, "{policy}");
        if plan.jobs[1].admitted {
            assert!(plan.jobs[1].ps.unwrap() >= 1, "{policy}");
        }
    }
}

#[test]
fn every_simulation_policy_finishes_a_measured_workload_within_the_caps() {
    let s = workload("workload-1-half");
    for policy in SimPolicy::ALL {
        let run = simulate(&s, policy, &mut SimOptions::default()).unwrap();
        assert_eq!(run.metrics.unfinished, 0, "{policy}");
        // `bound` takes each job at the fastest any policy may run it, `pollux`'s included.
        let cap_of = if policy == SimPolicy::Bound {
            SimPolicy::Pollux
        } else {
            policy
        };
        for (r, job) in run.jobs.iter().zip(&s.jobs) {
            for g in &r.segments {
                assert_eq!(g.ps, 0, "{policy} {}", job.id);
                assert!(
                    (1..=reference_cap(job, cap_of)).contains(&g.workers),
                    "{policy} {}",
                    job.id
                );
            }
            if cap_of.learns() {
                // Its batch changes as it learns (MODEL.md §23): no fixed-batch bound.
                continue;
            }
            // Run alone at one allocation a job takes its T: no job beats its fastest.
            let m = JobModel::of(job, &s.cluster, None);
            let fastest = m.integer_optimum().unwrap().2;
            let jct = r.jct_s.unwrap();
            assert!(
                jct + 1e-6 >= fastest,
                "{policy} {}: {jct} < {fastest}",
                job.id
            );
        }
    }
}

/// A measured job's progress re-derived from its record: stepping `Curve::run_for` slot by
/// slot over each segment, on that segment's own machines, gives the segment's share of the
/// target and the job's completion. The engine reads a job's rate once per placement and
/// keeps it while the placement lasts: a rate kept past a change would show here. On 3 ×
/// t4x4 `optimus` moves jobs between allocations (checked: many jobs run on several).
#[test]
fn each_segment_progresses_at_its_own_placements_rate() {
    let text = trace::workload("workload-1-half").unwrap();
    let arrivals = trace::parse(text).unwrap();
    let t4 = machines::machine_type("t4x4").unwrap();
    let s = trace::scenario(&arrivals, machines::cluster(t4, 3.0, t4.capacity)).unwrap();
    let delta = s.interval_s();
    let run = simulate(&s, SimPolicy::Optimus, &mut SimOptions::default()).unwrap();
    let mut moved = 0;
    for (r, job) in run.jobs.iter().zip(&s.jobs) {
        let c = JobModel::of(job, &s.cluster, None).measured.unwrap();
        let mut at = smd_core::allreduce::Progress::default();
        let placements: std::collections::HashSet<String> = r
            .segments
            .iter()
            .map(|g| format!("{:?}", (g.workers, &g.placement)))
            .collect();
        moved += usize::from(placements.len() > 1);
        for (k, g) in r.segments.iter().enumerate() {
            let ctx = format!("{} segment {k}", job.id);
            let per = smd_core::plan::workers_per_machine(g.placement.as_deref());
            let (mut t, mut share) = (g.start_s, 0.0);
            while t < g.end_s {
                // The slot this stretch is in ends at the next boundary.
                let slot_end = ((t / delta).floor() + 1.0) * delta;
                let before = c.share_done(&at);
                let done = c.run_for(&mut at, g.workers as u32, &per, slot_end - t, 1.0);
                if let Some(d) = done {
                    share += 1.0 - before;
                    assert_eq!(r.completion_s, Some(t + d), "{ctx}: its completion");
                    break;
                }
                share += c.share_done(&at) - before;
                t = slot_end;
            }
            assert!(
                (share - g.iterations).abs() <= 1e-9,
                "{ctx}: {share} of the target re-derived, {} recorded",
                g.iterations
            );
        }
    }
    assert!(
        moved >= 10,
        "only {moved} jobs ran on more than one allocation"
    );
}

#[test]
fn the_reference_worked_example_runs_112_s_under_every_policy() {
    // POLLUX-SIM.md §1.7: ncf-6 of workload-6 arrives at 1585, is first seen at the tick
    // at 1620, restarts 30 s and runs ten epochs rounded to 47 s: JCT 112 s.
    let s = workload("workload-6");
    assert_eq!(
        s.interval_s(),
        60.0,
        "the reference's interval for measured jobs"
    );
    // The heterogeneity-aware policies run with the Sia artifact's time semantics (ncf's
    // own restart delay and calibration, MODEL.md §24.2), not this example's.
    for policy in SimPolicy::ALL.into_iter().filter(|p| !p.is_hetero()) {
        let run = simulate(&s, policy, &mut SimOptions::default()).unwrap();
        let ncf6 = run.jobs.iter().find(|j| j.id == "ncf-6").unwrap();
        assert_eq!(ncf6.jct_s, Some(112.0), "{policy}");
        assert_eq!(
            ncf6.first_start_s,
            Some(1650.0),
            "{policy}: 1620 + 30 s restart"
        );
    }
}

#[test]
fn a_job_arriving_at_0_is_first_seen_at_the_first_tick() {
    let t4 = machines::machine_type("t4x4").unwrap();
    let mut job = preset::measured(
        App::Ncf,
        &MeasuredOptions {
            batch_size: Some(32768.0),
            ..MeasuredOptions::default()
        },
    )
    .unwrap();
    job.arrival_s = Some(0.0);
    let s = Scenario {
        version: 2,
        cluster: machines::cluster(t4, 1.0, t4.capacity),
        params: Default::default(),
        jobs: vec![job],
    };
    let run = simulate(&s, SimPolicy::Fifo, &mut SimOptions::default()).unwrap();
    // Seen at 60 (not 0), 30 s restart, 47 s of epochs.
    assert_eq!(run.jobs[0].jct_s, Some(137.0));
}

/// Pollux (MODEL.md §23) on a workload: every slot's allocation fits the machines (the
/// engine checks), no machine holds two jobs spread over several machines, every job gets
/// at most twice the GPUs it has run on (one before it has run), runs are deterministic,
/// and a learning job changes its batch (its segments' GPUs, restarts and JCTs repeat).
#[test]
fn pollux_allocates_within_its_rules_and_repeats() {
    let s = workload("workload-1-half");
    let run = simulate(&s, SimPolicy::Pollux, &mut SimOptions::default()).unwrap();
    assert_eq!(run.metrics.unfinished, 0);
    let again = simulate(&s, SimPolicy::Pollux, &mut SimOptions::default()).unwrap();
    assert_eq!(run.jobs, again.jobs, "deterministic");
    // Interference avoidance, slot by slot: at most one spread job per machine.
    let mut ticks: Vec<f64> = run
        .jobs
        .iter()
        .flat_map(|j| j.segments.iter().map(|g| g.start_s))
        .collect();
    ticks.sort_by(f64::total_cmp);
    ticks.dedup();
    for t in ticks {
        let mut spread_on: std::collections::HashMap<String, usize> = Default::default();
        for j in &run.jobs {
            for g in j.segments.iter().filter(|g| g.start_s <= t && t < g.end_s) {
                let sh = g.placement.as_ref().unwrap();
                if sh.len() > 1 {
                    for m in sh {
                        *spread_on.entry(m.machine.clone()).or_default() += 1;
                    }
                }
            }
        }
        assert!(
            spread_on.values().all(|&k| k <= 1),
            "t = {t}: {spread_on:?}"
        );
    }
    // Growth: a job's first segment has 1 GPU, and each later one at most twice the most
    // it has had.
    for j in &run.jobs {
        let mut most = 0;
        for (k, g) in j.segments.iter().enumerate() {
            if k == 0 {
                assert_eq!(g.workers, 1, "{}", j.id);
            } else {
                assert!(
                    g.workers <= 2 * most,
                    "{}: {} after {most}",
                    j.id,
                    g.workers
                );
            }
            most = most.max(g.workers);
        }
    }
}

/// The project's search against NSGA-II as the reference specifies it, on identical
/// problems: ours is proven optimal (at its knapsack bound) on most ticks, and never far
/// from fitter on average (docs/FIDELITY.md, *Pollux's search*).
#[test]
fn pollux_search_is_mostly_proven_optimal_and_as_fit_as_nsga2() {
    let mut s = workload("workload-1-half");
    // The first 10 jobs: NSGA-II's 10⁴ children per tick take time.
    s.jobs.truncate(10);
    let (run, st) =
        smd_sim::simulate_pollux(&s, smd_sim::Search::Own, true, &mut SimOptions::default())
            .unwrap();
    assert_eq!(run.metrics.unfinished, 0);
    assert!(st.ticks > 10, "{st:?}");
    assert!(st.optimal * 10 >= st.ticks * 8, "{st:?}");
    assert!(st.max_gap < 0.25 && st.mean_gap < 0.02, "{st:?}");
    assert!(st.mean_fitness_ratio > 0.99, "{st:?}");
}

/// Pollux is the same run natively and in wasm (docs/MODEL.md §23: its maths is `libm`'s):
/// the first 20 jobs of workload-1 on 4 × t4x4 sum to these JCTs here and in the browser
/// test `over_time::pollux_runs_the_same_in_the_browser` (web/tests/browser/over_time.rs).
#[test]
fn pollux_sums_to_the_same_jcts_as_in_wasm() {
    let text = trace::workload("workload-1").unwrap();
    let mut arrivals = trace::parse(text).unwrap();
    arrivals.truncate(20);
    let t4 = machines::machine_type("t4x4").unwrap();
    let s = trace::scenario(&arrivals, machines::cluster(t4, 4.0, t4.capacity)).unwrap();
    let run = simulate(&s, SimPolicy::Pollux, &mut SimOptions::default()).unwrap();
    let total: f64 = run.jobs.iter().filter_map(|j| j.jct_s).sum();
    assert_eq!(total, 81_421.0);
}

/// The first 12 jobs of the Sia artifact's philly-1 on a mix of GPU types (4 × t4x4,
/// 1 × a100x8, 1 × rtx2080tix8: Gavel needs a type with 16 GPUs for the largest): the scenario of the heterogeneity-aware policies' determinism checks.
fn small_mix() -> Scenario {
    trace::workload_on_mix("philly-1", 12, "t4x4=4,a100x8=1,rtx2080tix8=1").unwrap()
}

/// Sia and Gavel are the same runs natively and in wasm: on [`small_mix`] their JCTs sum
/// to these here and in the browser test `over_time::sia_and_gavel_run_the_same_in_the_browser`
/// (web/tests/browser/over_time.rs).
#[test]
fn sia_and_gavel_sum_to_the_same_jcts_as_in_wasm() {
    let s = small_mix();
    let sums: Vec<f64> = [SimPolicy::Sia, SimPolicy::Gavel]
        .into_iter()
        .map(|p| {
            let run = simulate(&s, p, &mut SimOptions::default()).unwrap();
            assert!(run.jobs.iter().all(|j| j.jct_s.is_some()), "{p}");
            run.jobs.iter().filter_map(|j| j.jct_s).sum()
        })
        .collect();
    assert_eq!(sums, [42_729.0, 128_758.0]);
}

/// Gavel runs each job at its requested GPUs on one type: where a job asks for more GPUs
/// than any type has (workload-1's imagenet-11, 32, on 4 × t4x4), it is not among the
/// policies that apply — Over time's "every policy" then runs the others instead of
/// failing — while Sia, which sizes jobs itself, still applies; on the small mix it does.
#[test]
fn gavel_applies_only_where_every_job_fits_one_type() {
    let text = trace::workload("workload-1").unwrap();
    let mut arrivals = trace::parse(text).unwrap();
    arrivals.truncate(20);
    let t4 = machines::machine_type("t4x4").unwrap();
    let s = trace::scenario(&arrivals, machines::cluster(t4, 4.0, t4.capacity)).unwrap();
    assert!(simulate(&s, SimPolicy::Gavel, &mut SimOptions::default()).is_err());
    assert!(!SimPolicy::Gavel.applies_to(&s));
    let all = SimPolicy::all_for(&s);
    assert!(!all.contains(&SimPolicy::Gavel), "{all:?}");
    assert!(all.contains(&SimPolicy::Sia) && all.contains(&SimPolicy::PolluxUnaware));
    for p in all {
        simulate(&s, p, &mut SimOptions::default()).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
    assert!(SimPolicy::Gavel.applies_to(&small_mix()));
}

/// `bound` bounds every policy on measured jobs (MODEL.md §17): on workload-1 at 16 × t4x4
/// every job's JCT under every policy — `pollux`, which chooses its batches, and the
/// reference's `tiresias` and `optimus_oracle` among them — is at least the bound's JCT of
/// the job, every policy's utility at most the bound's, the bound's total the same for
/// every policy, and the bound's runs at locality factor 1, as measured jobs run.
#[test]
fn the_bound_bounds_every_policy_on_a_measured_workload() {
    let plain = workload("workload-1");
    // With GPU sharing a machine holds more of a job's workers than it has GPUs.
    let mut shared = plain.clone();
    shared.params.gpu_sharing = Some(smd_core::scenario::GpuSharing::Heuristic);
    for s in [plain, shared] {
        bound_bounds(&s);
    }
}

fn bound_bounds(s: &Scenario) {
    let bound = simulate(s, SimPolicy::Bound, &mut SimOptions::default()).unwrap();
    for (r, job) in bound.jobs.iter().zip(&s.jobs) {
        for g in &r.segments {
            assert_eq!(g.locality_factor, 1.0, "{}", r.id);
        }
        // Never above the job alone packed at its fixed batch or at its best batch.
        let mut free = job.clone();
        if let Some(m) = free.measured.as_mut().filter(|m| m.app != App::Ncf) {
            m.batch_size = None;
        }
        let alone = [job, &free]
            .iter()
            .filter_map(|j| JobModel::of(j, &s.cluster, None).integer_optimum())
            .map(|(_, _, t)| t)
            .fold(f64::INFINITY, f64::min);
        let t = r.completion_s.unwrap() - r.first_start_s.unwrap();
        assert!(t <= alone, "{}: {t} above {alone}", r.id);
    }
    // The heterogeneity-aware policies carry their own (looser) bound: MODEL.md §24.2.
    for policy in SimPolicy::ALL.into_iter().filter(|p| !p.is_hetero()) {
        if policy == SimPolicy::Bound {
            continue;
        }
        let run = simulate(s, policy, &mut SimOptions::default()).unwrap();
        assert_eq!(run.metrics.bound, bound.metrics.total_utility, "{policy}");
        for (r, b) in run.jobs.iter().zip(&bound.jobs) {
            let Some(jct) = r.jct_s else { continue };
            let lb = b.jct_s.expect("the bound finishes every job that runs");
            assert!(
                jct >= lb,
                "{policy} {}: JCT {jct} below the bound's {lb}",
                r.id
            );
            assert!(r.utility <= b.utility, "{policy} {}", r.id);
            for g in &r.segments {
                assert_eq!(g.locality_factor, 1.0, "{policy} {}", r.id);
            }
        }
    }
}
