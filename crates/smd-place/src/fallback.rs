//! When a job's allocation cannot be placed: the largest smaller allocation that can
//! (docs/MODEL.md §17, "Liveness"). Ω is a down-set (every demand grows with w and p), so
//! every allocation below one in Ω is in Ω too.

use crate::cluster::TOLERANCE;
use crate::input::Options;
use crate::input::{Job, Machine};
use crate::output::{JobPlacement, Outcome, Placement};
use crate::place::place;
use crate::policy::Policy;
use smd_core::scenario::Resources;
use smd_core::Error;

/// The allocations below `(w, p)`, largest first, ending at (1, 1): w halved at each step
/// with p scaled alike (at least 1); once w is 1, p halved. Empty for (1, 1). A job without
/// parameter servers (p = 0, a measured all-reduce job) keeps p = 0: w halved down to 1.
pub fn smaller(w: u64, p: u64) -> Vec<(u64, u64)> {
    if p == 0 {
        let mut w = w.max(1);
        let mut out = Vec::new();
        while w > 1 {
            w /= 2;
            out.push((w, 0));
        }
        return out;
    }
    let (mut w, mut p) = (w.max(1), p.max(1));
    let mut out = Vec::new();
    while (w, p) != (1, 1) {
        if w > 1 {
            let w2 = w / 2;
            // p·w2/w rounded up, so a job keeps its share of PSs as it shrinks.
            p = ((u128::from(p) * u128::from(w2)).div_ceil(u128::from(w)) as u64).max(1);
            w = w2;
        } else {
            p /= 2;
        }
        out.push((w, p));
    }
    out
}

/// `machines` less what `placement` (a placement on them) uses: capacity and NIC.
pub fn remaining(machines: &[Machine], placement: &Placement) -> Vec<Machine> {
    machines
        .iter()
        .enumerate()
        .map(|(h, m)| {
            let mut m = m.clone();
            let used = placement.used.get(h).copied().unwrap_or_default();
            m.capacity = minus(m.capacity, used);
            if let (Some(nic), Some(u)) = (m.nic_gbps.as_mut(), placement.nic_used_gbps.get(h)) {
                *nic = (*nic - u).max(0.0);
            }
            m
        })
        .collect()
}

/// `a − b` per resource, never below 0.
pub(crate) fn minus(a: Resources, b: Resources) -> Resources {
    let (a, b) = (a.to_array(), b.to_array());
    Resources::from_array(std::array::from_fn(|r| (a[r] - b[r]).max(0.0)))
}

/// The first of [`smaller`]`(job.workers, job.ps)` that `policy` places on `machines` on its
/// own, with its placement; `machines` then lose what it takes. `None` if not even (1, 1)
/// fits. A candidate whose demand exceeds what is left in total is skipped unplaced.
pub fn place_smaller(
    machines: &mut Vec<Machine>,
    job: &Job,
    policy: Policy,
    options: &Options,
) -> Result<Option<(Job, JobPlacement)>, Error> {
    let total = machines.iter().fold([0.0; 4], |acc, m| {
        let c = m.capacity.to_array();
        std::array::from_fn(|r| acc[r] + c[r])
    });
    for (w, p) in smaller(u64::from(job.workers), u64::from(job.ps)) {
        let candidate = Job {
            workers: w as u32,
            ps: p as u32,
            ..job.clone()
        };
        let (dw, dp) = (
            candidate.worker_demand.scale(w as f64).to_array(),
            candidate.ps_demand.scale(p as f64).to_array(),
        );
        let d: [f64; 4] = std::array::from_fn(|r| dw[r] + dp[r]);
        if (0..4).any(|r| d[r] > total[r] + TOLERANCE * total[r].abs().max(1.0)) {
            continue;
        }
        let placed = place(machines, std::slice::from_ref(&candidate), policy, options)?;
        if let Outcome::Placed(jp) = &placed.jobs[0] {
            *machines = remaining(machines, &placed);
            return Ok(Some((candidate, jp.clone())));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_halves_down_to_one_one_inside_the_box() {
        assert_eq!(smaller(1, 1), vec![]);
        assert_eq!(smaller(8, 3), vec![(4, 2), (2, 1), (1, 1)]);
        assert_eq!(smaller(1, 5), vec![(1, 2), (1, 1)]);
        assert_eq!(
            smaller(50, 20),
            vec![(25, 10), (12, 5), (6, 3), (3, 2), (1, 1)]
        );
        for (w, p) in [(1000u64, 7u64), (3, 900), (u64::MAX, u64::MAX)] {
            let s = smaller(w, p);
            let mut prev = (w, p);
            for &x in &s {
                // Strictly smaller in one coordinate, never larger in the other.
                assert!(
                    x.0 <= prev.0 && x.1 <= prev.1 && x != prev,
                    "{prev:?} -> {x:?}"
                );
                assert!(x.0 >= 1 && x.1 >= 1);
                prev = x;
            }
            assert_eq!(s.last(), Some(&(1, 1)));
            assert!(s.len() <= 130, "{}", s.len());
        }
    }
}
