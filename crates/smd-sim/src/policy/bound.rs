//! `bound` (docs/MODEL.md §17, with its proof): an upper bound on every policy's total
//! utility. Job i cannot finish before
//! `JCT_lb = (⌈a_i/Δ⌉·Δ − a_i) + min(restart, Δ) + T_lb`: it starts at a slot boundary, its
//! first segment pays the restart, and every iteration takes at least `T_lb / E`, where
//! `T_lb` is the least T over Ω's integer points with the communication term at the
//! smallest locality factor any placement can have (`β_min = min(1, min_k β_k)` over the
//! machine kinds; 1 on a pool, where this is the job's least T). μ falls with π, so
//! `μ(π(JCT_lb))` bounds its utility under any policy (an unfinished job earns 0).

use crate::output::{JobRun, Segment};
use crate::world::World;
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
            let beta_min = s
                .cluster
                .machines
                .iter()
                .map(|g| beta(job.ps_bandwidth_gbps, g.local_gbps))
                .fold(1.0, f64::min);
            let fastest = m.colocated(&unbounded, beta_min);
            let best = fastest.integer_optimum();
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
                        locality_factor: beta_min,
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
