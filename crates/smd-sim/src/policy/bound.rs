//! `bound` (docs/MODEL.md §17, with its proof): an upper bound on every policy's total
//! utility. Job i cannot finish before
//! `JCT_lb = (⌈a_i/Δ⌉·Δ − a_i) + min(restart, Δ) + T_lb`: it starts at a slot boundary, its
//! first segment pays the restart, and then it runs at best at its fastest. For a
//! parameter-server job every iteration takes at least `T_lb / E`, where `T_lb` is the
//! least T over Ω's integer points with the communication term at the smallest locality
//! factor any placement can have (`β_min = min(1, min_k β_k)` over the machine kinds; 1 on
//! a pool, where this is the job's least T). For a measured job `T_lb` takes each epoch at
//! the fastest placement and batch any policy may run it at (`allreduce::least_time`:
//! `pollux` chooses its batches, and placements other than the packed one can be faster).
//! μ falls with π, so `μ(π(JCT_lb))` bounds its utility under any policy (an unfinished
//! job earns 0).

use crate::output::{JobRun, Segment};
use crate::world::World;
use smd_core::allreduce::least_time;
use smd_core::locality::beta;
use smd_core::scenario::Resources;

/// Every job alone on the empty cluster, from its arrival, at its least time.
pub(crate) fn jobs(world: &World) -> Vec<JobRun> {
    let s = world.s;
    let unbounded = Resources::from_array([f64::INFINITY; 4]);
    (0..s.jobs.len())
        .map(|i| {
            let m = &world.models[i];
            let job = &s.jobs[i];
            let (best, locality_factor) = match &job.measured {
                // ρ does not apply to a measured job (MODEL.md §21.1): 1, as it runs.
                Some(mj) => {
                    // The batch as given: under `pollux` the world's is freed (§23).
                    let given = world.given.jobs[i].measured.as_ref().unwrap_or(mj);
                    let mj = smd_core::scenario::MeasuredJob {
                        batch_size: given.batch_size,
                        ..mj.clone()
                    };
                    let least = least_time(&mj);
                    (least.map(|(t, w)| (u64::from(w), 0, t)), 1.0)
                }
                None => {
                    let beta_min = s
                        .cluster
                        .machines
                        .iter()
                        .map(|g| beta(job.ps_bandwidth_gbps, g.local_gbps))
                        .fold(1.0, f64::min);
                    let fastest = m.colocated(&unbounded, beta_min);
                    (fastest.integer_optimum(), beta_min)
                }
            };
            let arrival = world.arrival[i];
            let start = world.boundary_after(arrival) + world.restart;
            let (completion, segments) = match best {
                Some((w, p, t)) if start + t <= world.horizon => {
                    let seg = Segment {
                        start_s: start,
                        end_s: start + t,
                        workers: w,
                        ps: p,
                        placement: None,
                        locality_factor,
                        iterations: job.work(),
                        slowdown: None,
                        continues: false,
                    };
                    (Some(start + t), vec![seg])
                }
                _ => (None, Vec::new()),
            };
            let jct = completion.map(|c| c - arrival);
            JobRun {
                id: job.id.clone(),
                arrival_s: arrival,
                first_start_s: segments.first().map(|g| g.start_s),
                completion_s: completion,
                jct_s: jct,
                utility: jct.map_or(0.0, |j| m.mu(m.pi(j))),
                restarts: 0,
                segments,
                waiting: None,
            }
        })
        .collect()
}
