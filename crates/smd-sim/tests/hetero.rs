//! The heterogeneity-aware policies over time (docs/MODEL.md §24) on clusters that mix GPU
//! types, checked from their runs alone: every job finishes (liveness), each segment's GPUs
//! are of one type and within the job's rules, no machine holds more GPUs than it has at
//! any time, each job's progress adds up to its target, seeded runs repeat, and the
//! planners that give measured jobs the T4's speed refuse such clusters by name.

use smd_apps::{machines, trace};
use smd_core::scenario::Scenario;
use smd_sim::{simulate, Options, SimPolicy};
use std::collections::BTreeMap;

const TYPED: [SimPolicy; 3] = [SimPolicy::Sia, SimPolicy::Gavel, SimPolicy::PolluxUnaware];

/// The first `n` jobs of `workload` on the machines of `mix`.
fn scenario(workload: &str, n: usize, mix: &str) -> Scenario {
    let s = trace::workload_on_mix(workload, n, mix).unwrap();
    s.validate().unwrap();
    s
}

/// Each machine's GPU type and GPUs, by name.
fn machines_of(s: &Scenario) -> BTreeMap<String, (smd_core::scenario::Gpu, u64)> {
    let mut out = BTreeMap::new();
    for g in &s.cluster.machines {
        for k in 0..g.count as usize {
            out.insert(
                format!("{}-{k}", g.name),
                (g.gpu_type().unwrap(), g.capacity.gpu as u64),
            );
        }
    }
    out
}

#[test]
fn every_job_finishes_on_one_type_within_each_machine() {
    let s = scenario("philly-1", 40, "t4x4=4,a100x8=2,rtx2080tix8=2");
    let machines = machines_of(&s);
    for policy in TYPED {
        assert!(policy.applies_to(&s), "{policy}");
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        assert_eq!(run.metrics.unfinished, 0, "{policy}");
        let mut types_used = std::collections::BTreeSet::new();
        // (time, +/- GPUs) per machine, to check occupancy over time.
        let mut events: BTreeMap<&str, Vec<(f64, i64)>> = BTreeMap::new();
        for (r, job) in run.jobs.iter().zip(&s.jobs) {
            let mut share = 0.0;
            for g in &r.segments {
                let placed = g.placement.as_ref().expect("on machines");
                let types: std::collections::BTreeSet<_> =
                    placed.iter().map(|p| machines[&p.machine].0).collect();
                assert_eq!(types.len(), 1, "{policy} {}: a segment spans types", job.id);
                types_used.extend(types);
                assert_eq!(
                    placed.iter().map(|p| p.workers).sum::<u64>(),
                    g.workers,
                    "{policy} {}",
                    job.id
                );
                if policy == SimPolicy::Gavel {
                    assert_eq!(
                        g.workers as f64,
                        job.requested_workers.unwrap(),
                        "gavel runs a job at its request: {}",
                        job.id
                    );
                }
                assert!(g.start_s <= g.end_s, "{policy} {}", job.id);
                share += g.iterations;
            }
            assert!(
                (share - 1.0).abs() < 1e-9,
                "{policy} {}: progress adds to {share}",
                job.id
            );
            // Occupancy: from the decision that gave a stretch (its restart included) to
            // its end; a segment that continues another shares its decision boundary.
            for g in &r.segments {
                for p in g.placement.as_ref().unwrap() {
                    let list = events.entry(p.machine.as_str()).or_default();
                    let from = (g.start_s / 60.0).floor() * 60.0;
                    list.push((from, p.workers as i64));
                    list.push((g.end_s, -(p.workers as i64)));
                }
            }
            assert!(r.jct_s.unwrap() > 0.0);
        }
        for (m, mut list) in events {
            list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut on = 0;
            for (t, d) in list {
                on += d;
                assert!(
                    on <= machines[m].1 as i64,
                    "{policy}: {m} holds {on} GPUs at {t} s"
                );
            }
        }
        assert!(
            types_used.len() >= 2,
            "{policy} used only {types_used:?} on a mixed cluster"
        );
        let stats = run.stats.as_ref().unwrap();
        assert!(stats.decisions > 0 && stats.allocated_gpu_hours > 0.0);
        if policy == SimPolicy::Sia {
            assert_eq!(stats.proven, stats.decisions, "every Sia decision proven");
        } else {
            assert_eq!(stats.proven, 0);
        }
        assert!(run.metrics.total_utility <= run.metrics.bound + 1e-9);
        // Seeded and clockless: the same run again.
        assert_eq!(
            simulate(&s, policy, &mut Options::default()).unwrap(),
            run,
            "{policy}"
        );
    }
}

/// A job that fits no type at its request: Gavel, which runs jobs at their request, names
/// it; Sia and the unaware Pollux give it what a type has.
#[test]
fn a_job_no_type_can_hold_is_named_or_sized_down() {
    let s = scenario("philly-1", 40, "t4x4=2,a100x8=1,rtx2080tix8=1");
    let e = simulate(&s, SimPolicy::Gavel, &mut Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cifar10-2") && e.contains("requested_workers") && e.contains("is 16"),
        "{e}"
    );
    assert!(!SimPolicy::Gavel.applies_to(&s));
    for policy in [SimPolicy::Sia, SimPolicy::PolluxUnaware] {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        assert_eq!(run.metrics.unfinished, 0, "{policy}");
    }
}

/// The A100s make the same jobs finish sooner than as many T4 machines' worth of GPUs:
/// the speeds are the types' own (the T4-only cluster has as many GPUs).
#[test]
fn a100s_are_faster_than_as_many_t4s_under_every_typed_policy() {
    let a100 = scenario("philly-1", 30, "a100x8=4");
    let t4 = scenario("philly-1", 30, "t4x4=8");
    for policy in TYPED {
        let fast = simulate(&a100, policy, &mut Options::default()).unwrap();
        let slow = simulate(&t4, policy, &mut Options::default()).unwrap();
        let (f, s) = (
            fast.metrics.mean_jct_s.unwrap(),
            slow.metrics.mean_jct_s.unwrap(),
        );
        assert!(f < s, "{policy}: A100 {f} s, T4 {s} s");
    }
}

/// Planners that give measured jobs the T4's speed refuse a cluster with other types by
/// name; on T4s alone they still plan, and the typed policies need machines of whole
/// measured nodes.
#[test]
fn t4_speed_planners_refuse_other_types_by_name() {
    let s = scenario("philly-1", 10, "t4x4=2,a100x8=1");
    for policy in [SimPolicy::Tiresias, SimPolicy::Pollux, SimPolicy::Fifo] {
        assert!(!policy.applies_to(&s), "{policy}");
        let e = simulate(&s, policy, &mut Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(policy.name()) && e.contains("a100") && e.contains("sia"),
            "{e}"
        );
    }
    let e = smd_core::plan(&s, smd_core::Policy::Smd)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cluster.machines[1].gpu") && e.contains("smd plans"),
        "{e}"
    );
    // gavel runs each job at its request, and a job here asks more than a type holds.
    let all: Vec<SimPolicy> = SimPolicy::all_for(&s);
    assert_eq!(all, [SimPolicy::Sia, SimPolicy::PolluxUnaware]);
    let roomy = scenario("philly-1", 10, "t4x4=4,a100x8=2");
    assert_eq!(SimPolicy::all_for(&roomy), TYPED.to_vec());
    let only_t4 = scenario("philly-1", 10, "t4x4=2");
    assert!(SimPolicy::all_for(&only_t4).contains(&SimPolicy::Tiresias));
    // GPU sharing is not theirs: they give each job whole GPUs.
    let mut shared = only_t4.clone();
    shared.params.gpu_sharing = Some(smd_core::scenario::GpuSharing::Greedy);
    let e = simulate(&shared, SimPolicy::Sia, &mut Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("params.gpu_sharing"), "{e}");
    // A pool has no GPU type: the typed policies say so.
    let mut pool = only_t4.clone();
    pool.cluster = machines::pool(machines::machine_type("t4x4").unwrap(), 4.0);
    let e = simulate(&pool, SimPolicy::Sia, &mut Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("cluster.machines") && e.contains("sia"), "{e}");
}

/// Arrivals far apart cost no idle ticks one by one: the loop skips to the tick that first
/// sees the next job, and the run is what it is with the gap closed (shifted by whole
/// ticks).
#[test]
fn far_arrivals_skip_the_idle_ticks() {
    let near = scenario("philly-1", 6, "t4x4=4,a100x8=2");
    let mut far = near.clone();
    let shift = 20.0 * 86_400.0; // 20 days, a whole number of Sia's 60 s ticks
    for j in far.jobs.iter_mut() {
        j.arrival_s = Some(j.arrival_s.unwrap() + shift);
    }
    for policy in [SimPolicy::Sia, SimPolicy::PolluxUnaware] {
        let a = simulate(&near, policy, &mut Options::default()).unwrap();
        let b = simulate(&far, policy, &mut Options::default()).unwrap();
        let jct = |r: &smd_sim::Run| r.jobs.iter().map(|j| j.jct_s.unwrap()).collect::<Vec<_>>();
        assert_eq!(jct(&a), jct(&b), "{policy}");
        assert!(
            b.slots.len() < a.slots.len() + 5,
            "{policy}: idle ticks were recorded"
        );
    }
}

/// A run's slots are its policy's ticks (Gavel's 360 s rounds, the others' 60 s): the GPUs
/// in use per slot × `slot_s` add up to the loop's own count of allocated GPU-hours, and
/// the run's last slot ends no sooner than its last job (what its cost is charged to).
#[test]
fn each_run_s_slots_are_its_policy_s_ticks() {
    let s = scenario("philly-1", 12, "t4x4=4,a100x8=2");
    for policy in TYPED {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        let slot = run.slot_s;
        let tick = if policy == SimPolicy::Gavel {
            360.0
        } else {
            60.0
        };
        assert_eq!(slot, tick, "{policy}: the artifact's tick");
        for w in run.slots.windows(2) {
            let gap = (w[1].start_s - w[0].start_s) / slot;
            assert!(
                gap >= 1.0 - 1e-9 && (gap - gap.round()).abs() < 1e-9,
                "{policy}: slots {} s and {} s are not whole ticks of {slot} s apart",
                w[0].start_s,
                w[1].start_s
            );
        }
        let hours = run.slots.iter().map(|u| u.used.gpu).sum::<f64>() * slot / 3600.0;
        let counted = run.stats.as_ref().unwrap().allocated_gpu_hours;
        assert!(
            (hours - counted).abs() <= 1e-9 * counted.max(1.0),
            "{policy}: {hours} GPU-hours from the slots, {counted} counted by the loop"
        );
        let end = run.slots.last().unwrap().start_s + slot;
        let last = run
            .jobs
            .iter()
            .filter_map(|j| j.completion_s)
            .fold(0.0, f64::max);
        assert!(
            last <= end + 1e-9,
            "{policy}: a job ends at {last} s, the run at {end} s"
        );
    }
}

/// The horizon stops a typed run as it stops the others (docs/SCENARIO.md, `horizon_s`):
/// nothing runs past it, each job left unfinished says why, and the metrics count them.
#[test]
fn the_horizon_cuts_a_typed_run() {
    let mut s = scenario("philly-1", 40, "t4x4=4,a100x8=2");
    let whole: Vec<_> = TYPED
        .iter()
        .map(|&p| simulate(&s, p, &mut Options::default()).unwrap())
        .collect();
    let h = 2.0 * 3600.0;
    s.params.horizon_s = Some(h);
    for (policy, whole) in TYPED.into_iter().zip(whole) {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        assert!(
            whole.metrics.makespan_s.unwrap() > h,
            "{policy}: the cut matters"
        );
        let unfinished = run.jobs.iter().filter(|j| j.completion_s.is_none()).count();
        assert!(unfinished > 0, "{policy}");
        assert_eq!(run.metrics.unfinished, unfinished, "{policy}");
        for (j, w) in run.jobs.iter().zip(&whole.jobs) {
            for g in &j.segments {
                assert!(g.end_s <= h, "{policy} {}: runs to {} s", j.id, g.end_s);
            }
            match j.completion_s {
                // The same loop up to the cut: a job done by then is done as in the whole run.
                Some(c) => assert_eq!(Some(c), w.completion_s, "{policy} {}", j.id),
                None => {
                    let why = j.waiting.as_deref().unwrap_or_default();
                    assert!(
                        why.contains("the horizon (7200 s)"),
                        "{policy} {}: {why:?}",
                        j.id
                    );
                }
            }
        }
        let end = run.slots.last().unwrap().start_s + run.slot_s;
        assert!(end <= h, "{policy}: slots to {end} s");
        // The cost's length is the run's: renting stops at the cut.
        let c = run.cost.as_ref().unwrap();
        assert!((c.run_usd - c.usd_per_hour * end / 3600.0).abs() < 1e-9);
    }
}

/// A job makes no progress before its first checkpoint-restore is done: from the first
/// tick that sees it plus its application's delay at the earliest, even when a policy moves
/// it between nodes while it restores (no restart, the delay left carried over); and no
/// segment is only restoring (it would be a start before any progress).
#[test]
fn progress_starts_after_the_first_restore() {
    let s = scenario("philly-1", 40, "t4x4=4,a100x8=2,rtx2080tix8=2");
    for policy in TYPED {
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        let tick = run.slot_s;
        for (r, job) in run.jobs.iter().zip(&s.jobs) {
            let delay = job.measured.as_ref().unwrap().app.restart_delay_s();
            let seen = (r.arrival_s / tick).ceil() * tick;
            let first = r.first_start_s.unwrap();
            assert!(
                first >= seen + delay - 1e-9,
                "{policy} {}: progress from {first} s, first seen at {seen} s, delay {delay} s",
                job.id
            );
            for g in &r.segments {
                assert!(
                    g.end_s > g.start_s || g.iterations > 0.0,
                    "{policy} {}",
                    job.id
                );
            }
            // The first segment follows the first start's restore, and a segment that does
            // not continue the one before follows a restart (several, when the ones between
            // were spent wholly restoring).
            assert!(!r.segments[0].continues, "{policy} {}", job.id);
            let begun = r.segments.iter().filter(|g| !g.continues).count() as u64;
            assert!(begun <= r.restarts + 1, "{policy} {}", job.id);
            if policy == SimPolicy::Sia {
                // Sia restarts no job while it restores: one segment begun per restart.
                assert_eq!(begun, r.restarts + 1, "{policy} {}", job.id);
            }
        }
    }
}
