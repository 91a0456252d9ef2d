//! `first_fit` (docs/PLACEMENT.md §6) on one job's draft: the policy itself, and the
//! fallback of `locality` (§9, step 4), which is why it sits beneath both.

use crate::cluster::{Cluster, Demand, Draft, Kind};
use crate::input::Job;
use crate::reason;

/// One job's draft failed: why.
pub(crate) type Failed = String;

/// §6: PSs, then workers, each to the first machine (by index) with room. Filling a machine
/// with as many as fit before moving on is the same as placing them one at a time: a machine
/// that has no room for one task of a kind gets none later, as loads only grow.
pub(crate) fn first_fit(
    cluster: &Cluster,
    draft: &mut Draft,
    demand: &Demand,
    job: &Job,
) -> Result<(), Failed> {
    for (kind, n) in [(Kind::Ps, job.ps), (Kind::Worker, job.workers)] {
        let mut left = n;
        for h in 0..cluster.len() {
            if left == 0 {
                break;
            }
            let k = cluster.max_fit(h, demand, kind, draft.at(h), left);
            draft.add(h, kind, k);
            left -= k;
        }
        if left > 0 {
            return Err(reason::no_room(cluster, draft, demand, kind, n));
        }
    }
    Ok(())
}
