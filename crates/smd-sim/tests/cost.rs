//! What a run costs (docs/MODEL.md §25.1), re-derived from the run: the cluster's price ×
//! the run's length, each job's GPU-hours × its machines' price per GPU-hour, and the
//! unpriced case named.

use smd_apps::trace::workload_on_mix;
use smd_sim::{run_cost, simulate, Options, SimPolicy};

#[test]
fn a_runs_cost_adds_up_from_its_slots_and_segments() {
    for (mix, policy, worker_gpu) in [
        ("t4x4=2,a100x8=1", SimPolicy::Sia, 1.0),
        ("t4x4=4,a100x8=2", SimPolicy::Gavel, 1.0),
        // A typed policy gives whole GPUs whatever a worker asks for.
        ("t4x4=2,a100x8=1", SimPolicy::Sia, 0.5),
        ("t4x4=3", SimPolicy::Fifo, 1.0),
        ("t4x4=3", SimPolicy::Pollux, 1.0),
    ] {
        let mut s = workload_on_mix("philly-2", 24, mix).unwrap();
        for j in &mut s.jobs {
            j.worker.gpu = worker_gpu;
        }
        let run = simulate(&s, policy, &mut Options::default()).unwrap();
        let c = run
            .cost
            .clone()
            .unwrap_or_else(|| panic!("{mix} {policy}: priced"));
        assert_eq!(c, run_cost(&s, &run).unwrap());
        let price: f64 = s
            .cluster
            .machines
            .iter()
            .map(|g| g.count * g.hourly_usd.unwrap())
            .sum();
        assert!((c.usd_per_hour - price).abs() < 1e-9);
        // The run's length: from 0 to the end of its last slot, which holds the makespan
        // (Gavel's slots are its 360 s rounds, Sia's 60 s ticks, the others' Δ).
        let slot = match policy {
            SimPolicy::Gavel => 360.0,
            SimPolicy::Sia => 60.0,
            _ => s.interval_s(),
        };
        assert_eq!(run.slot_s, slot, "{mix} {policy}");
        let makespan = run.metrics.makespan_s.unwrap();
        let length_s = c.run_usd / price * 3600.0;
        assert!(
            length_s >= makespan - 1e-6 && length_s <= makespan + slot + 1e-6,
            "{mix} {policy}: the run is {length_s} s long, its last job ends at {makespan} s"
        );
        // Each job: its GPU-seconds on each group × the group's price per GPU-second.
        for (jr, usd) in run.jobs.iter().zip(&c.jobs_usd) {
            let mut want = 0.0;
            for seg in &jr.segments {
                for share in seg.placement.as_ref().unwrap() {
                    let g = s.cluster.group_of(&share.machine).unwrap();
                    want += share.workers as f64 * (seg.end_s - seg.start_s) / 3600.0
                        * g.hourly_usd.unwrap()
                        / g.capacity.gpu;
                }
            }
            assert!((usd - want).abs() <= 1e-9 * want.max(1.0), "{}", jr.id);
            assert!(*usd > 0.0, "every job ran");
        }
        // The jobs' GPUs never cost more than renting the cluster.
        assert!(c.jobs_usd.iter().sum::<f64>() <= c.run_usd);
        let mean = c.jobs_usd.iter().sum::<f64>() / c.jobs_usd.len() as f64;
        assert!((c.mean_job_usd.unwrap() - mean).abs() < 1e-9);
    }
}

#[test]
fn an_unpriced_type_is_named_and_the_other_metrics_stay() {
    let s = workload_on_mix("philly-2", 12, "t4x4=2,rtx2080tix8=1").unwrap();
    let run = simulate(&s, SimPolicy::Sia, &mut Options::default()).unwrap();
    assert_eq!(run.cost, None);
    assert_eq!(run.metrics.unfinished, 0);
    let e = run_cost(&s, &run).unwrap_err();
    assert!(e.contains("\"rtx2080tix8\" has no hourly price"), "{e}");
}

/// A horizon between two slot boundaries ends the run there: the cluster is rented, and
/// its GPUs held, until the horizon, not to the end of the slot it cut.
#[test]
fn a_horizon_ends_the_rent_where_it_cuts() {
    let mut s = workload_on_mix("philly-2", 24, "t4x4=3").unwrap();
    let delta = s.interval_s();
    let h = 40.5 * delta;
    s.params.horizon_s = Some(h);
    let run = simulate(&s, SimPolicy::Fifo, &mut Options::default()).unwrap();
    assert!(run.metrics.unfinished > 0, "the horizon cuts the run");
    assert_eq!(smd_sim::run_end_s(&s, &run), h);
    let c = run.cost.as_ref().unwrap();
    assert!(
        (c.run_usd - c.usd_per_hour * h / 3600.0).abs() < 1e-9,
        "{}",
        c.run_usd
    );
    let gpus = 3.0 * 4.0;
    let held = smd_sim::gpu_hours(&s, &run);
    assert!(held > 0.0 && held <= gpus * h / 3600.0 + 1e-9, "{held}");
}
