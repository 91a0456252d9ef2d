//! `fifo`: arrival order, each job at its requested allocation (`requested_workers`,
//! `requested_ps`, default (1, 1), clamped into its Ω), no backfilling; a running job keeps
//! its allocation until it finishes. A request the empty cluster cannot hold is cut to what
//! the job gets alone (docs/MODEL.md §17, "Liveness"), and a job that can never run is
//! skipped with its reason, so that neither blocks the queue forever.

use super::Decide;
use crate::settle::alone;
use crate::world::{fits, Decision, Slot};
use smd_core::Error;

pub(crate) struct Fifo;

impl Decide for Fifo {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let w = slot.world;
        let mut d = slot.decision();
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
            // Its request, or what it gets alone if the empty cluster cannot hold that.
            let (wk, p) = match alone(w, i)? {
                Ok(a) => a,
                Err(why) => {
                    d.why[i] = Some(format!("skipped by fifo: it can never run: {why}").into());
                    continue;
                }
            };
            let dm = w.models[i].demand(wk as f64, p as f64);
            let after: [f64; 4] = std::array::from_fn(|r| used[r] + dm[r]);
            if fits(&after, &w.cap) {
                d.alloc[i] = Some((wk, p));
                used = after;
            } else {
                blocked = true;
                d.why[i] = Some(format!("no capacity for its requested ({wk}, {p})").into());
            }
        }
        Ok(d)
    }
}
