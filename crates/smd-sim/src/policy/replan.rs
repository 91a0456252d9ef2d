//! `smd` and `optimus` over time: each slot, the static planner of `smd-core` on the active
//! jobs' remaining work (docs/MODEL.md §17), with the utility of the completion time
//! predicted if the allocation were kept: `JCT = (now − arrival) + restart + T_rem`,
//! `T_rem = k·T` with `k = rem / E` (every θ of MODEL.md §3 is proportional to E). The
//! planner's π of an allocation is `16·T / T(1,1)` whether it is given E or the remaining
//! iterations (both scale alike), and the predicted π is `c + k·π_planner` with
//! `c = 16·(now − arrival + restart) / T(1,1)`, so `γ2' = k·γ2`, `γ3' = (γ3 − c)/k` keep μ
//! exact (with a time unit u: `c = (now − arrival + restart)/u`, and the scale is k when the
//! planner sees E, 1 when it sees the remaining iterations). Optimus sees the remaining
//! iterations (its greedy compares remaining times); SMD sees E, so its allocations, which
//! depend on neither E's scale nor μ, come from the cache after a job's first slot.
//!
//! Both then backfill: jobs the plan does not admit (their predicted utility is 0, e.g.
//! after a long wait) start at (1, 1) in arrival order on what the plan leaves, so the
//! cluster does not idle while jobs wait (without it, smd finished 3 of workload-1's 160
//! jobs on a pool: every job that waited past its utility's fall was never run again; the
//! static `optimus` likewise skips zero-utility jobs, which its online form of CLUSTER.md
//! §4 starts at (1, 1) like any other).

use super::Decide;
use crate::world::{fits, Decision, Slot, Why};
use smd_core::model::RELATIVE_PI_AT_11;
use smd_core::plan::Reason;
use smd_core::{plan_with, Cache, Error, Options, Policy, Scenario};

/// Most jobs waiting or running at once that `smd` and `optimus` replan (docs/MODEL.md
/// §17, *Limits*): every slot re-plans every active job (a scenario of them, its models and
/// an admission), so a run costs about slots × active jobs — 1000 simultaneous arrivals
/// take seconds, 10^4 hours. Beyond this the run stops with an error naming the limit.
pub const MAX_ACTIVE: usize = 2000;

/// Frieze–Clarke's LP work per slot (items summed over its LPs; the static default is
/// `smd_core::FC_WORK_LIMIT`): a deterministic bound, so a slot's admission takes at most
/// about a second whatever the machine, and the run stays reproducible. The bundled
/// workloads need < 10^6.
pub const SLOT_ADMISSION_WORK: u64 = 10_000_000;

/// A slot's admission stops once it is within this much utility (a millionth of one job's
/// full utility) of the LP relaxation's, an upper bound on the best admission (docs/MODEL.md
/// §17, *Limits*): when every waiting job is far past its deadline their utilities are
/// ~10⁻⁹ and the rest of Frieze–Clarke's enumeration could not add a visible digit (1000
/// measured jobs arriving at once: minutes of it, slot after slot).
pub const SLOT_ADMISSION_SLACK: f64 = 1e-6;

pub(crate) struct Replan {
    policy: Policy,
    cache: Cache,
    /// Each job's last reason for waiting (the plan's, whether the backfill could not
    /// start it) and its text: a job refused alike slot after slot is told so without
    /// formatting it again.
    said: Vec<Option<(Option<Reason>, bool, Why)>>,
}

impl Replan {
    /// The policy for a run of `n` jobs.
    pub fn new(policy: Policy, n: usize) -> Replan {
        Replan {
            policy,
            cache: Cache::default(),
            said: vec![None; n],
        }
    }

    /// Why job `i` waits: the plan's `reason`, and with `unfilled` why the backfill did
    /// not start it either.
    fn why(&mut self, i: usize, reason: Option<&Reason>, unfilled: bool) -> Why {
        if let Some((r, u, text)) = &self.said[i] {
            if r.as_ref() == reason && *u == unfilled {
                return text.clone();
            }
        }
        let mut text = match reason {
            Some(r) => format!("{}: {r}", self.policy),
            None => format!("not admitted by {}", self.policy),
        };
        if unfilled {
            text.push_str("; (1, 1) did not fit beside the jobs it admitted");
        }
        let text = Why::from(text);
        self.said[i] = Some((reason.cloned(), unfilled, text.clone()));
        text
    }
}

/// The active jobs' remaining work as a scenario of its own (in `slot.active` order). With
/// `keep_e` the jobs keep their E and the utility alone carries the remaining share
/// (`π = c + k·π_full` with `π_full = 16·T / T(1,1)`: the same γ2', γ3'), so that SMD's
/// allocations (which minimise T, whatever E and μ) come from the cache after the first
/// slot; Optimus' greedy needs the remaining times themselves.
pub(crate) fn remaining(slot: &Slot, keep_e: bool) -> Scenario {
    let w = slot.world;
    // Field by field: `..w.s.clone()` would clone every job of the run each slot.
    let mut s = Scenario {
        version: w.s.version,
        cluster: w.s.cluster.clone(),
        params: w.s.params.clone(),
        jobs: Vec::with_capacity(slot.active.len()),
    };
    for &i in slot.active {
        let mut job = w.s.jobs[i].clone();
        let m = &w.models[i];
        let rem = slot.state.remaining[i].max(f64::MIN_POSITIVE);
        let elapsed = slot.now - w.arrival[i] + w.restart;
        // π of the predicted completion = c + scale·π as the planner computes it.
        let k = rem / job.work();
        // A measured job's remaining work is carried by its utility alone (its times come
        // from measurements of the whole run), in its model's unit, hours.
        let keep = keep_e || m.is_measured();
        let (c, scale) = match m.time_unit_s {
            Some(unit) => (elapsed / unit, if keep { k } else { 1.0 }),
            None => (RELATIVE_PI_AT_11 * elapsed / m.t11, k),
        };
        let u = &mut job.utility;
        u.gamma2 *= scale;
        u.gamma3 = (u.gamma3 - c) / scale;
        if !keep {
            job.iterations = rem;
        }
        job.arrival_s = None;
        s.jobs.push(job);
    }
    s
}

impl Decide for Replan {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        if slot.active.len() > MAX_ACTIVE {
            let name = self.policy.to_string();
            return Err(super::too_many(&name, slot, MAX_ACTIVE, "fifo or oasis"));
        }
        let s = remaining(slot, self.policy == Policy::Smd);
        let plan = plan_with(
            &s,
            self.policy,
            &mut Options {
                cache: Some(&mut self.cache),
                admission_work: Some(SLOT_ADMISSION_WORK),
                admission_slack: Some(SLOT_ADMISSION_SLACK),
                ..Options::default()
            },
        )?;
        self.cache.retain_used();
        let world = slot.world;
        let mut d = slot.decision();
        let mut used = [0.0; 4];
        // Per line: whether the plan refused it (`Some`), and then whether the backfill
        // could not start it either (`true`).
        let mut refused: Vec<Option<bool>> = vec![None; slot.active.len()];
        for (k, (line, &i)) in plan.jobs.iter().zip(slot.active).enumerate() {
            if line.admitted {
                d.alloc[i] = line.workers.zip(line.ps);
                let (w, p) = d.alloc[i].unwrap_or((0, 0));
                let dm = world.models[i].demand(w as f64, p as f64);
                (0..4).for_each(|r| used[r] += dm[r]);
            } else {
                refused[k] = Some(false);
            }
        }
        for (k, &i) in slot.active.iter().enumerate() {
            let m = &world.models[i];
            if d.alloc[i].is_some() || !m.feasible() {
                continue;
            }
            let least = m.least();
            let dm = m.demand(least.0 as f64, least.1 as f64);
            let after: [f64; 4] = std::array::from_fn(|r| used[r] + dm[r]);
            if fits(&after, &world.cap) {
                d.alloc[i] = Some(least);
                used = after;
            } else if let Some(unfilled) = refused[k].as_mut() {
                *unfilled = true;
            }
        }
        for (k, unfilled) in refused.into_iter().enumerate() {
            let i = slot.active[k];
            if let (Some(unfilled), None) = (unfilled, d.alloc[i]) {
                // The whole reason: the plan's, and why the backfill did not start it.
                d.why[i] = Some(self.why(i, plan.jobs[k].reason.as_ref(), unfilled));
            }
        }
        Ok(d)
    }
}
