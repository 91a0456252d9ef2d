//! What a run costs (docs/MODEL.md §25.1): the cluster's price per hour, renting it for the
//! run, and each job's share — the GPU-hours it ran on each machine × that machine's price
//! per GPU-hour (its group's `hourly_usd` / its GPUs).

use crate::output::{Run, RunCost, SlotUse};
use smd_core::Scenario;

/// Each of `run`'s slots with its length, s: `slot_s`, the last cut where the scenario's
/// horizon ends the run.
fn slot_spans<'r>(scenario: &Scenario, run: &'r Run) -> impl Iterator<Item = (&'r SlotUse, f64)> {
    let horizon = scenario.horizon_s();
    run.slots.iter().map(move |s| {
        let end = (s.start_s + run.slot_s).min(horizon);
        (s, (end - s.start_s).max(0.0))
    })
}

/// The end of `run`'s last slot, s (0 without slots): the run's length, which its cost
/// rents the cluster for.
pub fn run_end_s(scenario: &Scenario, run: &Run) -> f64 {
    slot_spans(scenario, run)
        .last()
        .map_or(0.0, |(s, l)| s.start_s + l)
}

/// The GPU-hours `run` holds: Σ over its slots of the GPUs in use × the slot's length.
pub fn gpu_hours(scenario: &Scenario, run: &Run) -> f64 {
    slot_spans(scenario, run)
        .map(|(s, l)| s.used.gpu * l)
        .sum::<f64>()
        / 3600.0
}

/// What `run` of `scenario` costs. The error says what has no price: a pool, or the
/// first group without `hourly_usd`.
pub fn run_cost(scenario: &Scenario, run: &Run) -> Result<RunCost, String> {
    let usd_per_hour = scenario.cluster.hourly_usd()?;
    let end_s = run_end_s(scenario, run);
    let jobs_usd = job_costs(scenario, run)?;
    let ran: Vec<f64> = run
        .jobs
        .iter()
        .zip(&jobs_usd)
        .filter(|(j, _)| j.first_start_s.is_some())
        .map(|(_, &c)| c)
        .collect();
    Ok(RunCost {
        usd_per_hour,
        run_usd: usd_per_hour * end_s / 3600.0,
        mean_job_usd: (!ran.is_empty()).then(|| ran.iter().sum::<f64>() / ran.len() as f64),
        jobs_usd,
    })
}

/// Each job's cost in US dollars, in the run's job order: Σ over its segments and their
/// shares of (workers × the job's GPUs per worker + PSs × per PS; the GPUs themselves for
/// the heterogeneity-aware policies, which place GPUs) × the segment's running
/// time (restarts not counted: the GPUs then make no progress, and the run's cost counts
/// every hour anyway) × the machine's price per GPU-hour. Shares on machines without GPUs
/// cost nothing here. The error says what has no price: a pool, a group without
/// `hourly_usd`, or a segment with no placement.
pub fn job_costs(scenario: &Scenario, run: &Run) -> Result<Vec<f64>, String> {
    let cluster = &scenario.cluster;
    cluster.hourly_usd()?;
    run.jobs
        .iter()
        .zip(&scenario.jobs)
        .map(|(jr, job)| {
            let mut usd = 0.0;
            for seg in &jr.segments {
                let hours = (seg.end_s - seg.start_s).max(0.0) / 3600.0;
                let Some(shares) = &seg.placement else {
                    return Err(format!(
                        "job {:?} ran with no placement: no machine to price",
                        jr.id
                    ));
                };
                for share in shares {
                    let group = cluster.group_of(&share.machine).ok_or_else(|| {
                        format!(
                            "job {:?} ran on {:?}, no machine of the cluster",
                            jr.id, share.machine
                        )
                    })?;
                    if group.capacity.gpu <= 0.0 {
                        continue;
                    }
                    // `hourly_usd()` above checked that every group has a price.
                    let per_gpu_hour = group.hourly_usd.unwrap_or(0.0) / group.capacity.gpu;
                    let gpus = if run.policy.is_hetero() {
                        // §24's runs place GPUs, not tasks: a share's workers are its GPUs.
                        share.workers as f64
                    } else {
                        share.workers as f64 * job.worker.gpu + share.ps as f64 * job.ps.gpu
                    };
                    usd += gpus * hours * per_gpu_hour;
                }
            }
            Ok(usd)
        })
        .collect()
}
