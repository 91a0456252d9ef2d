//! `fifo`: arrival order, each job at its requested allocation (`requested_workers`,
//! `requested_ps`, default (1, 1), clamped into its Ω), no backfilling; a running job keeps
//! its allocation until it finishes.

use super::{fits, Decide, Decision};
use crate::engine::Slot;
use smd_core::Error;

pub(crate) struct Fifo;

/// The job's requested allocation, rounded and clamped into Ω (whose (1, 1) may itself not
/// fit: then (1, 1), which the engine's check refuses only if the job is ever started).
pub(crate) fn requested(slot: &Slot, i: usize) -> (u64, u64) {
    let job = &slot.world.s.jobs[i];
    let m = &slot.world.models[i];
    let ask = |v: Option<f64>| v.map_or(1, |x| x.round().max(1.0) as u64);
    let w = ask(job.requested_workers).min(m.omega.w_max_int()).max(1);
    let p = ask(job.requested_ps).min(m.omega.p_max_int(w)).max(1);
    (w, p)
}

impl Decide for Fifo {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let w = slot.world;
        let mut d = Decision::none(w.s.jobs.len());
        let mut used = [0.0; 4];
        for &i in slot.active {
            if let Some((wk, p)) = slot.state.current[i] {
                d.alloc[i] = Some((wk, p));
                let dm = w.models[i].demand(wk as f64, p as f64);
                (0..4).for_each(|r| used[r] += dm[r]);
            }
        }
        let mut blocked = false;
        for &i in slot.active {
            if d.alloc[i].is_some() {
                continue;
            }
            if blocked {
                d.why[i] = Some("queued behind an earlier job (fifo does not backfill)".into());
                continue;
            }
            let m = &w.models[i];
            let (wk, p) = requested(slot, i);
            let dm = m.demand(wk as f64, p as f64);
            let after: [f64; 4] = std::array::from_fn(|r| used[r] + dm[r]);
            if m.feasible() && fits(&after, &w.cap) {
                d.alloc[i] = Some((wk, p));
                used = after;
            } else {
                blocked = true;
                d.why[i] = Some(if m.feasible() {
                    format!("no capacity for its requested ({wk}, {p})")
                } else {
                    "its (1, 1) exceeds its limit".into()
                });
            }
        }
        Ok(d)
    }
}
