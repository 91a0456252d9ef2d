//! docs/APPLICATIONS.md §3: a catalog of real machine types with their public specs, usable
//! by name wherever a cluster is described.

use crate::calibrated;
use smd_core::scenario::Resources;

/// A machine type (serialised as `smd machines --json` prints it).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct MachineType {
    /// Its name in files and on the command line.
    pub name: &'static str,
    /// What it is, with the source of its numbers.
    pub description: &'static str,
    /// GPUs, vCPUs, memory and local storage of one machine.
    pub capacity: Resources,
    /// Memory of one GPU, GB (0: no GPU).
    pub gpu_memory_gb: f64,
    /// Network bandwidth of one machine, Gbps.
    pub nic_gbps: f64,
    /// Transfer rate between two tasks on the machine, Gbps (docs/MODEL.md §14).
    pub local_gbps: Option<f64>,
    /// On-demand price of one machine per hour, US dollars ([`PRICE_SOURCE`]).
    pub hourly_usd: f64,
}

/// Where the catalog's prices come from. Prices change; a scenario states its own per
/// machine group (`hourly_usd`), and these are only what a catalog group starts with.
pub const PRICE_SOURCE: &str = "AWS EC2 On-Demand pricing, Linux, US East (N. Virginia) \
     (https://aws.amazon.com/ec2/pricing/on-demand/), as listed in 2026";

/// The catalog. GPU machines are AWS instance types (their published specs); compute speed
/// is not part of a machine type: presets carry the artifact's T4 timings wherever they run.
pub const CATALOG: [MachineType; 4] = [
    MachineType {
        name: "t4x4",
        description: "AWS g4dn.12xlarge, the Pollux artifact's node: 4 × NVIDIA T4 (16 GB), \
                      48 vCPU, 192 GB, 900 GB NVMe, 50 Gbps; local rate calibrated",
        capacity: Resources {
            gpu: 4.0,
            vcpu: 48.0,
            memory_gb: 192.0,
            storage_gb: 900.0,
        },
        gpu_memory_gb: 16.0,
        nic_gbps: 50.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: 3.912,
    },
    MachineType {
        name: "v100x8",
        description: "AWS p3dn.24xlarge: 8 × NVIDIA V100 (32 GB, NVLink), 96 vCPU, 768 GB, \
                      1800 GB NVMe, 100 Gbps; local rate as t4x4's (not measured)",
        capacity: Resources {
            gpu: 8.0,
            vcpu: 96.0,
            memory_gb: 768.0,
            storage_gb: 1800.0,
        },
        gpu_memory_gb: 32.0,
        nic_gbps: 100.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: 31.212,
    },
    MachineType {
        name: "a100x8",
        description: "AWS p4d.24xlarge: 8 × NVIDIA A100 (40 GB, NVSwitch), 96 vCPU, 1152 GB, \
                      8000 GB NVMe, 400 Gbps; local rate as t4x4's (not measured)",
        capacity: Resources {
            gpu: 8.0,
            vcpu: 96.0,
            memory_gb: 1152.0,
            storage_gb: 8000.0,
        },
        gpu_memory_gb: 40.0,
        nic_gbps: 400.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: 21.95764,
    },
    MachineType {
        name: "c4.8xlarge",
        description: "AWS c4.8xlarge, the SMD paper's instance: no GPU, 36 vCPU, 60 GB, \
                      100 GB of EBS storage (the planner's default instance size), 10 Gbps",
        capacity: Resources {
            gpu: 0.0,
            vcpu: 36.0,
            memory_gb: 60.0,
            storage_gb: 100.0,
        },
        gpu_memory_gb: 0.0,
        nic_gbps: 10.0,
        local_gbps: None,
        hourly_usd: 1.591,
    },
];

/// The machine type named `name`, or a message listing the catalog.
pub fn machine_type(name: &str) -> Result<&'static MachineType, String> {
    CATALOG
        .iter()
        .find(|m| m.name == name.trim())
        .ok_or_else(|| {
            let names: Vec<&str> = CATALOG.iter().map(|m| m.name).collect();
            format!(
                "unknown machine type {:?} (expected {})",
                smd_core::error::cut(name),
                names.join(", ")
            )
        })
}

/// The pool of `count` machines of type `m` (docs/MODEL.md's cluster, until machines are
/// planned one by one): `count` units of one machine each, and one machine as the instance
/// a job's limit ϑ counts in.
pub fn pool(m: &MachineType, count: f64) -> smd_core::scenario::Cluster {
    smd_core::scenario::Cluster {
        units: count,
        unit: m.capacity,
        instance: m.capacity,
        machines: Vec::new(),
    }
}

/// A version-2 machine group of `count` machines of type `m`, named after the type.
pub fn group(m: &MachineType, count: f64) -> smd_core::scenario::MachineGroup {
    smd_core::scenario::MachineGroup {
        name: m.name.to_owned(),
        count,
        capacity: m.capacity,
        gpu_memory_gb: (m.gpu_memory_gb > 0.0).then_some(m.gpu_memory_gb),
        nic_gbps: Some(m.nic_gbps),
        local_gbps: m.local_gbps,
        hourly_usd: Some(m.hourly_usd),
    }
}

/// `count` machines of type `m` as a version-2 cluster (one group, [`group`]), with
/// `instance` the size a job's limit ϑ counts in.
pub fn cluster(m: &MachineType, count: f64, instance: Resources) -> smd_core::scenario::Cluster {
    smd_core::scenario::Cluster::of_machines(vec![group(m, count)], instance)
}

/// Moves `scenario` from its cluster onto `count` machines of type `m`: the one owner of
/// "this scenario on N catalog machines" (`smd generate --machines`, `smd sweep --machines`
/// on a pool). The instance is kept, so every job's limit ϑ·instance stays what the
/// scenario said; the file becomes version 2, the version that has machines.
pub fn move_to_machines(scenario: &mut smd_core::Scenario, m: &MachineType, count: f64) {
    scenario.cluster = cluster(m, count, scenario.cluster.instance);
    scenario.version = scenario.version.max(2);
}

/// The cluster in force, in one line for people: its machines by group (`16 × t4x4
/// machines`) or
/// the pool (`a pool of 600 units`, or `16 × t4x4 as a pool of units` when it is a catalog
/// pool), then its capacity (`64 GPUs, 768 vCPUs, …`). Every view plans this cluster, so
/// the page states it once, in these words.
pub fn describe(cluster: &smd_core::scenario::Cluster) -> String {
    use smd_core::scenario::Resource;
    let what = if cluster.has_machines() {
        let groups: Vec<String> = cluster
            .machines
            .iter()
            .map(|g| format!("{} × {}", smd_format::amount(g.count), g.name))
            .collect();
        format!("{} machines", groups.join(" + "))
    } else if let Some(m) = CATALOG.iter().find(|m| *cluster == pool(m, cluster.units)) {
        format!(
            "{} × {} as a pool of units (no machines: nothing is placed)",
            smd_format::amount(cluster.units),
            m.name
        )
    } else {
        format!(
            "a pool of {} units (no machines: nothing is placed)",
            smd_format::sig(cluster.units, 6)
        )
    };
    let cap = cluster.capacity();
    let amounts: Vec<String> = [
        Resource::Gpu,
        Resource::Vcpu,
        Resource::MemoryGb,
        Resource::StorageGb,
    ]
    .into_iter()
    .filter(|&r| cap[r] > 0.0)
    .map(|r| match r {
        Resource::Gpu | Resource::Vcpu => format!("{} {}", smd_format::amount(cap[r]), r.unit()),
        _ => format!("{} {} {}", smd_format::amount(cap[r]), r.unit(), r.title()),
    })
    .collect();
    format!("{what} — {}", amounts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_moved_to_machines_keeps_its_jobs_limits() {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            ..Default::default()
        });
        let instance = s.cluster.instance;
        let t4 = machine_type("t4x4").unwrap();
        move_to_machines(&mut s, t4, 5.0);
        assert_eq!(s.version, 2);
        assert_eq!(s.cluster.instance, instance);
        assert_eq!(s.cluster.machines.len(), 1);
        assert_eq!(s.cluster.capacity(), t4.capacity.scale(5.0));
        assert!(s.validate().is_ok());
    }

    /// The one-line cluster: machines by group, a catalog pool named as such, totals with
    /// their units re-derived from the capacity.
    #[test]
    fn a_cluster_in_one_line() {
        let t4 = machine_type("t4x4").unwrap();
        let on = cluster(t4, 16.0, t4.capacity);
        let line = describe(&on);
        assert!(line.starts_with("16 × t4x4 machines — "), "{line}");
        let gpus = on.capacity().gpu;
        assert!(
            line.contains(&format!("{} GPUs", smd_format::amount(gpus))),
            "{line}"
        );
        assert!(describe(&pool(t4, 16.0)).starts_with("16 × t4x4 as a pool of units"));
        let s = smd_core::generate(&smd_core::GenerateOptions::default());
        assert!(
            describe(&s.cluster).starts_with("a pool of "),
            "{}",
            describe(&s.cluster)
        );
    }
}
