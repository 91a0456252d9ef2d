//! A placement's answer put together from each job's shares or reason: ρ and X per job,
//! each machine's use, the totals (docs/PLACEMENT.md §2–§3).

use crate::cluster::{Cluster, Demand, NIC};
use crate::input::{Job, Machine};
use crate::output::{JobPlacement, Outcome, Placement, Share};
use crate::rho;
use smd_core::scenario::Resources;

/// One job's placement from its shares (by machine index): ρ with each machine's β and X,
/// both by `smd_core::locality`.
pub(crate) fn job_placement(machines: &[Machine], job: &Job, shares: Vec<Share>) -> JobPlacement {
    let (f, betas) = rho::shares_and_betas(machines, job, &shares);
    JobPlacement {
        locality_factor: rho::locality_factor(job.mode, &f, &betas),
        cross_traffic_gbit: smd_core::locality::cross_traffic_gbit(job.gradient_gbit, &f),
        shares,
    }
}

/// The answer from each job's shares or reason. Machine loads are re-summed here, job by
/// job in order, exactly as the policies committed them.
pub(crate) fn assemble(
    machines: &[Machine],
    jobs: &[Job],
    decisions: Vec<Result<Vec<Share>, String>>,
    proven: Option<bool>,
) -> Placement {
    let mut cluster = Cluster::new(machines);
    let mut total = 0.0;
    let outcomes = jobs
        .iter()
        .zip(decisions)
        .map(|(job, d)| match d {
            Ok(shares) => {
                cluster.commit(&Demand::of(job), &shares);
                let p = job_placement(machines, job, shares);
                total += p.cross_traffic_gbit;
                Outcome::Placed(p)
            }
            Err(reason) => Outcome::NotPlaced(reason),
        })
        .collect();
    let h = 0..machines.len();
    Placement {
        jobs: outcomes,
        used: h
            .clone()
            .map(|h| {
                let u = cluster.used(h);
                Resources::from_array([u[0], u[1], u[2], u[3]])
            })
            .collect(),
        nic_used_gbps: h.clone().map(|h| cluster.used(h)[NIC]).collect(),
        total_cross_traffic_gbit: total,
        machines_used: h.filter(|&h| cluster.occupied(h)).count(),
        proven,
    }
}
