//! ρ on machines whose local rates differ (docs/PLACEMENT.md §4).
//!
//! `smd_core::locality::factor` takes one β for the whole job. On machine h the co-located
//! pairs move at that machine's local rate, so the link of machine h is loaded
//! `((w − w_h) + β_h·w_h) / w` (sync, a PS's link) or `((p − p_h) + β_h·p_h) / p` (async, a
//! worker's link) with `β_h = B / local_gbps_h`, and ρ is the largest over the machines that
//! have such a link. With one β for all machines this is the core's formula exactly.
//!
//! Rather than write the formula a second time, this module evaluates the core's `factor`
//! once per distinct β, on the shares with the other machines masked so that they count in
//! the totals but cannot be the maximum: sync keeps their workers and drops their PSs
//! (ρ's maximum runs over machines with PSs; the total w is unchanged and the sync terms do
//! not depend on p), async keeps their PSs and drops their workers. The largest of those is
//! ρ with per-machine β.

use crate::input::{Job, Machine};
use crate::output::Share;
use smd_core::locality::{beta, factor};
use smd_core::scenario::Mode;

/// ρ of a job whose share `i` (`(w_h, p_h)`) sits on a machine with `betas[i]`
/// (`β_h = B / local_gbps_h`, 0 where co-located transfer is free). Equal to
/// `smd_core::locality::factor` when every β is the same; 1 when the job has no worker or
/// no PS. `betas` shorter than `shares` counts the missing ones as 0.
pub fn locality_factor(mode: Mode, shares: &[(f64, f64)], betas: &[f64]) -> f64 {
    let beta_of = |i: usize| betas.get(i).copied().unwrap_or(0.0);
    let first = beta_of(0);
    if (0..shares.len()).all(|i| beta_of(i).to_bits() == first.to_bits()) {
        return factor(mode, shares, first);
    }
    let w: f64 = shares.iter().map(|s| s.0).sum();
    let p: f64 = shares.iter().map(|s| s.1).sum();
    if w <= 0.0 || p <= 0.0 {
        return factor(mode, shares, 0.0); // nothing is exchanged: the core's convention
    }
    let mut distinct: Vec<f64> = (0..shares.len()).map(beta_of).collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup_by(|a, b| a.to_bits() == b.to_bits());
    let mut rho = f64::NEG_INFINITY;
    let mut masked = Vec::with_capacity(shares.len());
    for b in distinct {
        masked.clear();
        masked.extend(shares.iter().enumerate().map(|(i, &(wh, ph))| {
            let mine = beta_of(i).to_bits() == b.to_bits();
            match (mode, mine) {
                (_, true) => (wh, ph),
                (Mode::Sync, false) => (wh, 0.0),
                (Mode::Async, false) => (0.0, ph),
            }
        }));
        // A group without the links ρ measures has no term (the core would answer 1).
        let has_link = masked.iter().any(|&(wh, ph)| match mode {
            Mode::Sync => ph > 0.0,
            Mode::Async => wh > 0.0,
        });
        if has_link {
            rho = rho.max(factor(mode, &masked, b));
        }
    }
    rho
}

/// The shares as `smd_core::locality` takes them, and each one's machine β.
pub(crate) fn shares_and_betas(
    machines: &[Machine],
    job: &Job,
    shares: &[Share],
) -> (Vec<(f64, f64)>, Vec<f64>) {
    shares
        .iter()
        .map(|s| {
            let local = machines.get(s.machine).and_then(|m| m.local_gbps);
            (
                (s.workers as f64, s.ps as f64),
                beta(job.bandwidth_gbps, local),
            )
        })
        .unzip()
}

#[cfg(test)]
mod tests;
