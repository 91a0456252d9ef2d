//! Whether a heterogeneity-aware policy (`sia`, `gavel`, `pollux_unaware`, docs/MODEL.md
//! §24) can run a scenario, and its input as `smd-hetero`'s loop takes it: the cluster of
//! the machine groups by GPU type and the jobs. Beneath both the policy names, which ask
//! it whether such a policy applies, and the run itself (`hetero`). A policy is named only
//! for the messages (`policy`), and `gavel` says the jobs run at their request.

use smd_core::{Error, Scenario};
use smd_hetero::cluster::Cluster;
use smd_hetero::job::Spec;
use smd_measured::gpu::Gpu;
use std::fmt::Display;

/// Sia's and the unaware Pollux's tick, s (the reference's `--interval=60`).
pub const TICK_S: f64 = 60.0;
/// Gavel's round, s (the reference runs Gavel with `--interval=360`).
pub const GAVEL_ROUND_S: f64 = 360.0;

/// The cluster of `s`'s machine groups by GPU type, and each type's machine names in node
/// order; or the error saying why `policy` cannot plan it.
pub(crate) fn cluster_of(
    s: &Scenario,
    policy: &dyn Display,
) -> Result<(Cluster, Vec<Vec<String>>), Error> {
    if !s.cluster.has_machines() {
        return Err(Error::field(
            None,
            "cluster.machines",
            format!(
                "are needed: {policy} gives each job GPUs of one type on machines (a pool of \
                 units has no GPU type)"
            ),
        ));
    }
    let mut groups: Vec<(Gpu, u32)> = Vec::new();
    let mut names: Vec<(Gpu, Vec<String>)> = Vec::new();
    for g in &s.cluster.machines {
        let Some(gpu) = g.gpu_type() else {
            continue;
        };
        let per = g.capacity.gpu;
        if per != f64::from(gpu.per_node()) {
            return Err(Error::field(
                None,
                format!("cluster.machines[{}].capacity.gpu", g.name),
                format!(
                    "is {}: {policy} plans whole nodes of {} {} GPUs, as the type was measured",
                    smd_core::error::num(per),
                    gpu.per_node(),
                    gpu.label()
                ),
            ));
        }
        let count = g.count.clamp(0.0, f64::from(u32::MAX)) as u32;
        groups.push((gpu, count));
        let list = match names.iter_mut().find(|(t, _)| *t == gpu) {
            Some((_, l)) => l,
            None => {
                names.push((gpu, Vec::new()));
                &mut names.last_mut().expect("pushed").1
            }
        };
        list.extend((0..count).map(|k| format!("{}-{k}", g.name)));
    }
    let cluster = Cluster::of(&groups).map_err(|m| {
        Error::field(
            None,
            "cluster.machines",
            format!("{m}: {policy} needs GPUs"),
        )
    })?;
    let names = cluster
        .types
        .iter()
        .map(|(t, _)| {
            names
                .iter()
                .find(|(g, _)| g == t)
                .map(|(_, l)| l.clone())
                .unwrap_or_default()
        })
        .collect();
    Ok((cluster, names))
}

/// The error of job `id`, of the parameter-server kind, under a `policy` that schedules
/// measured all-reduce jobs only (the rule of docs/MODEL.md `section`).
pub(crate) fn measured_only(id: &str, policy: &dyn Display, section: &str) -> Error {
    Error::field(
        Some(id),
        "architecture",
        format!(
            "is the parameter-server kind: {policy} schedules measured all-reduce jobs only \
             (docs/MODEL.md {section})"
        ),
    )
}

/// Each job of `s` as the loop takes it: its application, arrival, requested GPUs and
/// batch (the application's largest when the file leaves it free).
fn specs_of(s: &Scenario, policy: &dyn Display) -> Result<Vec<Spec>, Error> {
    s.jobs
        .iter()
        .map(|j| {
            let m = j
                .measured
                .as_ref()
                .ok_or_else(|| measured_only(&j.id, policy, "§24"))?;
            let measured = smd_measured::measured::Measured::of(m.app)
                .map_err(|e| Error::Solver(e.to_string()))?;
            let [init, top] = measured.batch_range();
            let batch = m.batch_size.unwrap_or(top).clamp(init, top);
            let gpus = j.requested_workers.unwrap_or(1.0).clamp(1.0, 1e6) as u32;
            Ok(Spec {
                name: j.id.clone(),
                app: m.app,
                arrival_s: j.arrival_s.unwrap_or(0.0),
                gpus,
                batch,
            })
        })
        .collect()
}

/// A typed policy's input: the cluster, each type's machine names in node order, the jobs.
pub(crate) type Input = (Cluster, Vec<Vec<String>>, Vec<Spec>);

/// Whether `policy` can run `s`, with the cluster and the jobs as its loop takes them; else
/// the error saying why: it needs measured jobs on machine groups of whole measured nodes,
/// no GPU sharing (it gives each job whole GPUs), and for `gavel`, which runs each job at
/// its request, every request within some type's largest configuration.
pub(crate) fn input(s: &Scenario, policy: &dyn Display, gavel: bool) -> Result<Input, Error> {
    if smd_core::sharing::sharing_on(s) {
        return Err(Error::field(
            None,
            "params.gpu_sharing",
            format!("is on: {policy} gives each job whole GPUs of one type; turn sharing off"),
        ));
    }
    let (cluster, names) = cluster_of(s, policy)?;
    let specs = specs_of(s, policy)?;
    if gavel {
        let unplaceable = s.jobs.iter().zip(&specs).find(|(_, spec)| {
            !(0..cluster.types.len()).any(|t| smd_hetero::gavel::placeable_on(spec, &cluster, t))
        });
        if let Some((j, spec)) = unplaceable {
            let largest = cluster.configs().iter().map(|c| c.gpus).max().unwrap_or(0);
            return Err(Error::field(
                Some(&j.id),
                "requested_workers",
                format!(
                    "is {}: gavel runs each job at its request on one GPU type, and the most \
                     GPUs of one type a job may take here is {largest}",
                    spec.gpus
                ),
            ));
        }
    }
    Ok((cluster, names, specs))
}
