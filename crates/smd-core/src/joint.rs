//! docs/MODEL.md §16: a job's configurations on machines, for the joint planners
//! (`smd_locality`, and `global` on machines).
//!
//! On a pool a job has one configuration: spread, ρ = 1 (docs/MODEL.md §3). On machines it
//! may also run *co-located*: every task on one machine of a kind, Ω limited to that
//! machine and the communication term at ρ = β ([`JobModel::colocated`]). An allocation
//! (w, p) takes the fastest configuration it fits: co-located where one machine holds it,
//! spread otherwise. This is the candidate set of CLUSTER.md §3, not every placement: a
//! partly co-located spread placement (ρ between β and 1) is not modelled, the NIC rule is
//! left to placement, and whether a machine of the kind is *free* is only known when the
//! placement stage runs.

use crate::locality::beta;
use crate::model::JobModel;
use crate::scenario::{Resources, Scenario};

/// Per job, its co-located configurations: one model per distinct machine kind (capacity
/// and local rate) that holds the job's (1, 1). Empty on a pool.
pub fn colocated_models(scenario: &Scenario, models: &[JobModel]) -> Vec<Vec<JobModel>> {
    let mut kinds: Vec<(Resources, Option<f64>)> = Vec::new();
    for g in &scenario.cluster.machines {
        let kind = (g.capacity, g.local_gbps);
        if g.machine_count() > 0 && !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    scenario
        .jobs
        .iter()
        .zip(models)
        .map(|(job, m)| {
            if m.is_measured() {
                // Its machines act through its measured times at the placement (§21).
                return Vec::new();
            }
            kinds
                .iter()
                .map(|(cap, local)| m.colocated(cap, beta(job.ps_bandwidth_gbps, *local)))
                .filter(JobModel::feasible)
                .collect()
        })
        .collect()
}

/// `(T, ρ)` of (w, p) in its fastest configuration: `m` spread (ρ = 1), or any of
/// `colocated` whose Ω holds (w, p) (ρ = its β). Ties keep the spread one.
pub fn best_t(m: &JobModel, colocated: &[JobModel], w: u64, p: u64) -> (f64, f64) {
    let (w, p) = (w as f64, p as f64);
    let spread = (m.t(w, p), 1.0);
    colocated
        .iter()
        .filter(|c| c.omega.contains(w, p))
        .map(|c| (c.t(w, p), c.rho))
        .fold(spread, |best, c| if c.0 < best.0 { c } else { best })
}

/// μ of (w, p) in its fastest configuration ([`best_t`]).
pub fn best_utility(m: &JobModel, colocated: &[JobModel], w: u64, p: u64) -> f64 {
    m.mu(m.pi(best_t(m, colocated, w, p).0))
}
