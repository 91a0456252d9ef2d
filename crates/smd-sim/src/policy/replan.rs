//! `smd` and `optimus` over time: each slot, the static planner of `smd-core` on the active
//! jobs' remaining work (docs/MODEL.md §17). A job's remaining work is the job with
//! `iterations` = what is left (every θ of MODEL.md §3 is proportional to E, so T scales
//! with it), and its utility is that of the completion time predicted if the allocation
//! were kept: `JCT = (now − arrival) + restart + T_rem`. In the relative unit
//! `π = 16·JCT / T(1,1)` is affine in the planner's `π_rem = 16·T_rem / T_rem(1,1)`:
//! `π = c + k·π_rem` with `k = rem / E`, `c = 16·(now − arrival + restart) / T(1,1)`, so
//! `μ(π) = μ'(π_rem)` exactly with `γ2' = k·γ2`, `γ3' = (γ3 − c) / k`; with a time unit u,
//! `γ3' = γ3 − (now − arrival + restart) / u`.
//!
//! Both then backfill: jobs the plan does not admit (their predicted utility is 0, e.g.
//! after a long wait) start at (1, 1) in arrival order on what the plan leaves, so the
//! cluster does not idle while jobs wait (without it, smd finished 3 of workload-1's 160
//! jobs on a pool: every job that waited past its utility's fall was never run again; the
//! static `optimus` likewise skips zero-utility jobs, which its online form of CLUSTER.md
//! §4 starts at (1, 1) like any other).

use super::{fits, Decide, Decision};
use crate::engine::Slot;
use smd_core::model::RELATIVE_PI_AT_11;
use smd_core::{plan_with, Cache, Error, Options, Policy, Scenario};

pub(crate) struct Replan {
    policy: Policy,
    cache: Cache,
}

impl Replan {
    pub fn new(policy: Policy) -> Replan {
        Replan {
            policy,
            cache: Cache::default(),
        }
    }
}

/// The active jobs' remaining work as a scenario of its own (in `slot.active` order).
pub(crate) fn remaining(slot: &Slot) -> Scenario {
    let w = slot.world;
    let mut s = Scenario {
        jobs: Vec::with_capacity(slot.active.len()),
        ..w.s.clone()
    };
    s.jobs.clear();
    for &i in slot.active {
        let mut job = w.s.jobs[i].clone();
        let m = &w.models[i];
        let rem = slot.state.remaining[i].max(f64::MIN_POSITIVE);
        let elapsed = slot.now - w.arrival[i] + w.restart;
        let u = &mut job.utility;
        match w.s.params.time_unit_s {
            Some(unit) => u.gamma3 -= elapsed / unit,
            None => {
                let k = rem / job.iterations;
                let c = RELATIVE_PI_AT_11 * elapsed / m.t11;
                u.gamma2 *= k;
                u.gamma3 = (u.gamma3 - c) / k;
            }
        }
        job.iterations = rem;
        job.arrival_s = None;
        s.jobs.push(job);
    }
    s
}

impl Decide for Replan {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let s = remaining(slot);
        let plan = plan_with(
            &s,
            self.policy,
            &mut Options {
                cache: Some(&mut self.cache),
                ..Options::default()
            },
        )?;
        self.cache.retain_used();
        let world = slot.world;
        let mut d = Decision::none(world.s.jobs.len());
        let mut used = [0.0; 4];
        for (line, &i) in plan.jobs.iter().zip(slot.active) {
            if line.admitted {
                d.alloc[i] = line.workers.zip(line.ps);
                let (w, p) = d.alloc[i].unwrap_or((0, 0));
                let dm = world.models[i].demand(w as f64, p as f64);
                (0..4).for_each(|r| used[r] += dm[r]);
            } else {
                d.why[i] = Some(match &line.reason {
                    Some(r) => format!("{}: {r}", self.policy),
                    None => format!("not admitted by {}", self.policy),
                });
            }
        }
        for &i in slot.active {
            let m = &world.models[i];
            if d.alloc[i].is_some() || !m.feasible() {
                continue;
            }
            let dm = m.demand(1.0, 1.0);
            let after: [f64; 4] = std::array::from_fn(|r| used[r] + dm[r]);
            if fits(&after, &world.cap) {
                d.alloc[i] = Some((1, 1));
                d.why[i] = None;
                used = after;
            }
        }
        Ok(d)
    }
}
