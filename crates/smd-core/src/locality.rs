//! docs/MODEL.md §14 (CLUSTER.md §3): how a placement's locality changes a job's communication.
//!
//! Parameters are sharded evenly over the p PSs; every (worker, PS) pair exchanges `2G/p`
//! gigabits per iteration, at the job's bandwidth B across machines and at the machine's
//! local rate on the same machine. With `β = B / local_gbps` (0 when co-located transfer is
//! free) the busiest link gives the *locality factor* ρ that scales T's communication term
//! ([`crate::model::JobModel::t_placed`]); ρ = 1 when no worker shares a machine with a PS of
//! its job, which is exactly the pool model of docs/MODEL.md.

use crate::scenario::Mode;

/// A job's tasks on one machine: `(workers, ps)`.
pub type Share = (f64, f64);

/// β = B / local_gbps, or 0 when `local_gbps` is unset (co-located transfer is free).
pub fn beta(bandwidth_gbps: f64, local_gbps: Option<f64>) -> f64 {
    match local_gbps {
        Some(l) if l > 0.0 => bandwidth_gbps / l,
        _ => 0.0,
    }
}

/// ρ of a placement given as one [`Share`] per machine the job uses.
///
/// Sync: the PS link is the bottleneck, `ρ = max_{h: p_h>0} ((w − w_h) + β·w_h) / w`;
/// async: a worker's link, `ρ = max_{h: w_h>0} ((p − p_h) + β·p_h) / p`. A placement with
/// no worker or no PS has nothing to exchange: ρ = 1 by convention.
pub fn factor(mode: Mode, shares: &[Share], beta: f64) -> f64 {
    let w: f64 = shares.iter().map(|s| s.0).sum();
    let p: f64 = shares.iter().map(|s| s.1).sum();
    if w <= 0.0 || p <= 0.0 {
        return 1.0;
    }
    // The link's load relative to a fully remote placement.
    let load = |total: f64, here: f64| ((total - here) + beta * here) / total;
    let worst = shares.iter().filter_map(|&(wh, ph)| match mode {
        Mode::Sync => (ph > 0.0).then(|| load(w, wh)),
        Mode::Async => (wh > 0.0).then(|| load(p, ph)),
    });
    worst.fold(f64::NEG_INFINITY, f64::max).max(0.0)
}

/// X: gigabits a job moves across machines per iteration, `(2G/p)·(w·p − Σ_h w_h·p_h)`
/// (seed 003's metric), for a gradient of `g_gbit` gigabits.
pub fn cross_traffic_gbit(g_gbit: f64, shares: &[Share]) -> f64 {
    let w: f64 = shares.iter().map(|s| s.0).sum();
    let p: f64 = shares.iter().map(|s| s.1).sum();
    if p <= 0.0 {
        return 0.0;
    }
    let local: f64 = shares.iter().map(|&(wh, ph)| wh * ph).sum();
    2.0 * g_gbit / p * (w * p - local)
}

#[cfg(test)]
mod tests;
