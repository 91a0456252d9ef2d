//! docs/APPLICATIONS.md §3: a catalog of real machine types with their public specs, usable
//! by name wherever a cluster is described.

use crate::calibrated;
use smd_core::scenario::{Gpu, Resources};

/// A machine type (serialised as `smd machines --json` prints it).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct MachineType {
    /// Its name in files and on the command line.
    pub name: &'static str,
    /// What it is, with the source of its numbers.
    pub description: &'static str,
    /// GPUs, vCPUs, memory and local storage of one machine.
    pub capacity: Resources,
    /// The GPU type its GPUs are measured as (a group's `gpu`); `None` without GPUs.
    pub gpu: Option<Gpu>,
    /// Memory of one GPU, GB (0: no GPU).
    pub gpu_memory_gb: f64,
    /// Network bandwidth of one machine, Gbps.
    pub nic_gbps: f64,
    /// Transfer rate between two tasks on the machine, Gbps (docs/MODEL.md §14).
    pub local_gbps: Option<f64>,
    /// On-demand price of one machine per hour, US dollars, from [`MachineType::price_source`];
    /// `None`: on-premises, no published price ([`NO_PRICE`]).
    pub hourly_usd: Option<f64>,
    /// Where `hourly_usd` comes from (`None` with no price).
    pub price_source: Option<&'static str>,
}

/// What a type without a published price says instead of one: a scenario gives its group's
/// `hourly_usd` itself (the sweep's cost needs every group priced, docs/MODEL.md §19.1).
pub const NO_PRICE: &str =
    "on-premises: no published price; give the group's `hourly_usd` in the scenario";

/// The AWS types' price source. Prices change; a scenario states its own per machine group
/// (`hourly_usd`), and these are only what a catalog group starts with.
pub const AWS_PRICE_SOURCE: &str = "AWS EC2 On-Demand pricing, Linux, US East (N. Virginia) \
     (https://aws.amazon.com/ec2/pricing/on-demand/), as listed in 2026";

/// The Azure types' price source.
pub const AZURE_PRICE_SOURCE: &str =
    "Azure Virtual Machines pricing, pay-as-you-go, Linux, East US, as listed in 2026";

/// The catalog: the measured GPU types' nodes (docs/MODEL.md §24, the Pollux and Sia
/// artifacts' hardware) and the SMD paper's CPU instance, with their published specs. A
/// type's GPU type says which measurements its GPUs run at; its capacity is what plans and
/// placements count.
pub const CATALOG: [MachineType; 6] = [
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
        gpu: Some(Gpu::T4),
        gpu_memory_gb: 16.0,
        nic_gbps: 50.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: Some(3.912),
        price_source: Some(AWS_PRICE_SOURCE),
    },
    MachineType {
        name: "v100x8",
        description: "Azure ND40rs_v2, the Sia artifact's V100 node: 8 × NVIDIA V100 (32 GB, \
                      NVLink), 40 vCPU, 672 GB, 2948 GB temporary storage, 100 Gbps \
                      InfiniBand; local rate as t4x4's (not measured)",
        capacity: Resources {
            gpu: 8.0,
            vcpu: 40.0,
            memory_gb: 672.0,
            storage_gb: 2948.0,
        },
        gpu: Some(Gpu::V100),
        gpu_memory_gb: 32.0,
        nic_gbps: 100.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: Some(22.032),
        price_source: Some(AZURE_PRICE_SOURCE),
    },
    MachineType {
        name: "a100x8",
        description: "AWS p4d.24xlarge: 8 × NVIDIA A100 (40 GB, NVSwitch), 96 vCPU, 1152 GB, \
                      8000 GB NVMe, 400 Gbps; its GPUs run at the Sia artifact's DGX-A100 \
                      measurements (the same GPU, 8 per node); local rate as t4x4's (not \
                      measured)",
        capacity: Resources {
            gpu: 8.0,
            vcpu: 96.0,
            memory_gb: 1152.0,
            storage_gb: 8000.0,
        },
        gpu: Some(Gpu::A100),
        gpu_memory_gb: 40.0,
        nic_gbps: 400.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: Some(21.95764),
        price_source: Some(AWS_PRICE_SOURCE),
    },
    MachineType {
        name: "rtx2080tix8",
        description: "The Sia artifact's on-premises RTX node: 8 × NVIDIA GeForce RTX 2080 Ti \
                      (11 GB), 50 Gbps Ethernet; vCPU, memory and storage not published: \
                      assumed 32 vCPU, 384 GB, 2000 GB; local rate as t4x4's (not measured); \
                      no published price",
        capacity: Resources {
            gpu: 8.0,
            vcpu: 32.0,
            memory_gb: 384.0,
            storage_gb: 2000.0,
        },
        gpu: Some(Gpu::Rtx2080ti),
        gpu_memory_gb: 11.0,
        nic_gbps: 50.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: None,
        price_source: None,
    },
    MachineType {
        name: "rtx6000x4",
        description: "The Sia artifact's on-premises workstation: 4 × NVIDIA Quadro RTX 6000 \
                      (24 GB), 200 Gbps InfiniBand; vCPU, memory and storage not published: \
                      assumed 32 vCPU, 256 GB, 2000 GB; local rate as t4x4's (not measured); \
                      no published price",
        capacity: Resources {
            gpu: 4.0,
            vcpu: 32.0,
            memory_gb: 256.0,
            storage_gb: 2000.0,
        },
        gpu: Some(Gpu::Rtx6000),
        gpu_memory_gb: 24.0,
        nic_gbps: 200.0,
        local_gbps: Some(calibrated::LOCAL_GBPS),
        hourly_usd: None,
        price_source: None,
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
        gpu: None,
        gpu_memory_gb: 0.0,
        nic_gbps: 10.0,
        local_gbps: None,
        hourly_usd: Some(1.591),
        price_source: Some(AWS_PRICE_SOURCE),
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

/// A number of machines as a person gives it (`--machines N`, a count in `--mix`): a whole
/// number from 1 to [`MAX_MACHINES`](smd_core::scenario::MAX_MACHINES), or why not.
pub fn check_count(n: f64) -> Result<u32, String> {
    let most = smd_core::scenario::MAX_MACHINES;
    if n.is_finite() && n >= 1.0 && n.fract() == 0.0 && n <= most as f64 {
        Ok(n as u32)
    } else {
        Err(format!(
            "must be a whole number from 1 to {most} (got {})",
            smd_format::num(n)
        ))
    }
}

/// A mix of catalog types, `TYPE=COUNT,…` (`smd trace --mix t4x4=6,a100x8=2`): each type
/// once, in the order given, each count checked by [`check_count`] (0 is refused: leave the
/// type out), at most [`MAX_MACHINES`](smd_core::scenario::MAX_MACHINES) machines in all.
/// The one reader of such a list; the error says which entry and why.
pub fn parse_mix(text: &str) -> Result<Vec<(&'static MachineType, u32)>, String> {
    let most = smd_core::scenario::MAX_MACHINES;
    if text.trim().is_empty() {
        return Err("give machine types and counts, e.g. t4x4=6,a100x8=2".into());
    }
    let mut mix: Vec<(&'static MachineType, u32)> = Vec::new();
    let mut total = 0u64;
    for entry in text.split(',') {
        let entry = entry.trim();
        let shown = smd_core::error::cut(entry);
        let Some((name, count)) = entry.split_once('=') else {
            return Err(if entry.is_empty() {
                "an entry is empty (a comma too many?): give TYPE=COUNT, e.g. t4x4=6".into()
            } else {
                format!("{shown:?} is not TYPE=COUNT, e.g. t4x4=6")
            });
        };
        let m = machine_type(name)?;
        if mix.iter().any(|(other, _)| other.name == m.name) {
            return Err(format!("{} is given twice: give each type once", m.name));
        }
        let count = count.trim();
        let n: f64 = count.parse().map_err(|_| {
            format!(
                "{}: the count {:?} is not a number",
                m.name,
                smd_core::error::cut(count)
            )
        })?;
        if n == 0.0 {
            return Err(format!(
                "{}=0: a count must be at least 1 (leave the type out instead)",
                m.name
            ));
        }
        let n = check_count(n).map_err(|e| format!("{}: the count {e}", m.name))?;
        total += u64::from(n);
        mix.push((m, n));
    }
    if total > most as u64 {
        return Err(format!(
            "{total} machines in all, more than the {most} a cluster may list"
        ));
    }
    Ok(mix)
}

/// The cluster of a mix ([`parse_mix`]): one group per type, in the mix's order
/// ([`group`]), with `instance` the size a job's limit ϑ counts in.
pub fn mix_cluster(
    mix: &[(&MachineType, u32)],
    instance: Resources,
) -> smd_core::scenario::Cluster {
    let groups = mix.iter().map(|(m, n)| group(m, f64::from(*n))).collect();
    smd_core::scenario::Cluster::of_machines(groups, instance)
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
        gpu: m.gpu,
        gpu_memory_gb: (m.gpu_memory_gb > 0.0).then_some(m.gpu_memory_gb),
        nic_gbps: Some(m.nic_gbps),
        local_gbps: m.local_gbps,
        hourly_usd: m.hourly_usd,
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

    /// A catalog group carries its type's GPU, within the measured node, and validates.
    #[test]
    fn every_catalog_group_names_its_gpu_and_validates() {
        for m in &CATALOG {
            let g = group(m, 2.0);
            assert_eq!(g.gpu, m.gpu, "{}", m.name);
            assert_eq!(g.gpu_type(), m.gpu, "{}", m.name);
            assert_eq!(m.gpu.is_some(), m.capacity.gpu > 0.0, "{}", m.name);
            assert_eq!(g.hourly_usd, m.hourly_usd, "{}", m.name);
            assert_eq!(
                m.hourly_usd.is_some(),
                m.price_source.is_some(),
                "{}",
                m.name
            );
            if let Some(t) = m.gpu {
                assert!(m.capacity.gpu <= f64::from(t.per_node()), "{}", m.name);
            }
            let mut s = smd_core::generate(&smd_core::GenerateOptions {
                jobs: 2,
                ..Default::default()
            });
            move_to_machines(&mut s, m, 2.0);
            assert!(s.validate().is_ok(), "{}: {:?}", m.name, s.validate());
        }
        let gpus: Vec<Gpu> = CATALOG.iter().filter_map(|m| m.gpu).collect();
        assert_eq!(gpus, Gpu::ALL, "one catalog type per measured GPU type");
    }

    /// The catalog and docs/APPLICATIONS.md §3's table agree, row by row: GPU type, specs,
    /// price and its source (so neither drifts from the other).
    #[test]
    fn the_catalog_agrees_with_applications_md() {
        let doc = include_str!("../../../docs/APPLICATIONS.md");
        let section = &doc[doc.find("## 3. Machine types").unwrap()..];
        let section = &section[..section.find("\n## 4.").unwrap()];
        let rows: Vec<Vec<String>> = section
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| {
                l.trim()
                    .trim_matches('|')
                    .split(" | ")
                    .map(|c| c.trim().trim_matches('`').to_owned())
                    .collect()
            })
            .collect();
        assert_eq!(rows.len(), CATALOG.len(), "{rows:?}");
        let number = |cell: &str| -> f64 { cell.parse().unwrap_or(f64::NAN) };
        for (m, row) in CATALOG.iter().zip(&rows) {
            let [name, gpu, _what, gpus, vcpu, memory, storage, nic, usd, source] = &row[..] else {
                panic!("{} columns in {row:?}", row.len());
            };
            assert_eq!(name, m.name);
            assert_eq!(gpu, m.gpu.map_or("—", |g| g.name()), "{}", m.name);
            let c = m.capacity;
            assert_eq!(
                [gpus, vcpu, memory, storage, nic].map(|x| number(x)),
                [c.gpu, c.vcpu, c.memory_gb, c.storage_gb, m.nic_gbps],
                "{}",
                m.name
            );
            match m.hourly_usd {
                Some(p) => assert_eq!(number(usd), p, "{}", m.name),
                None => assert_eq!(usd, "on-premises", "{}", m.name),
            }
            assert_eq!(source, m.price_source.unwrap_or("—"), "{}", m.name);
        }
        assert!(
            section.contains(NO_PRICE),
            "§3 says what a type without a price means"
        );
    }

    fn t4_capacity() -> Resources {
        machine_type("t4x4").unwrap().capacity
    }

    #[test]
    fn a_mix_reads_in_order_and_refuses_what_is_not_one() {
        let mix = parse_mix(" t4x4=6, a100x8=2 ,rtx2080tix8=3").unwrap();
        let got: Vec<(&str, u32)> = mix.iter().map(|(m, n)| (m.name, *n)).collect();
        assert_eq!(got, [("t4x4", 6), ("a100x8", 2), ("rtx2080tix8", 3)]);
        let c = mix_cluster(&mix, mix[0].0.capacity);
        assert_eq!(c.gpu_types(), [Gpu::T4, Gpu::A100, Gpu::Rtx2080ti]);
        assert_eq!(c.capacity().gpu, 24.0 + 16.0 + 24.0);
        assert_eq!(c.machine_list().len(), 11);
        assert_eq!(parse_mix("v100x8=1").unwrap()[0].1, 1);
        // An on-premises type has no price: the cost names its group (MODEL.md §19.1).
        let e = mix_cluster(&parse_mix("t4x4=1,rtx2080tix8=1").unwrap(), t4_capacity())
            .hourly_usd()
            .unwrap_err();
        assert!(
            e.contains("\"rtx2080tix8\" has no hourly price") && e.contains("every group priced"),
            "{e}"
        );
        let priced = mix_cluster(&parse_mix("t4x4=2,v100x8=1").unwrap(), t4_capacity());
        assert!((priced.hourly_usd().unwrap() - (2.0 * 3.912 + 22.032)).abs() < 1e-9);
        let huge = format!("t4x4={}", smd_core::scenario::MAX_MACHINES + 1);
        let long = "x".repeat(5000);
        for (text, needle) in [
            ("", "give machine types and counts"),
            ("  ", "give machine types and counts"),
            ("t4x4=6,t4x4=2", "t4x4 is given twice"),
            ("t4x4=6, t4x4 =2", "t4x4 is given twice"),
            (
                "h100x8=2",
                "unknown machine type \"h100x8\" (expected t4x4, v100x8",
            ),
            ("t4x4=0", "t4x4=0: a count must be at least 1"),
            (
                "t4x4=-1",
                "t4x4: the count must be a whole number from 1 to 100000 (got -1)",
            ),
            ("t4x4=2.5", "must be a whole number"),
            ("t4x4=NaN", "must be a whole number"),
            ("t4x4=inf", "must be a whole number"),
            ("t4x4=1e300", "must be a whole number"),
            (huge.as_str(), "from 1 to 100000"),
            (
                "t4x4=60000,a100x8=60000",
                "120000 machines in all, more than the 100000",
            ),
            ("t4x4=two", "t4x4: the count \"two\" is not a number"),
            ("t4x4", "\"t4x4\" is not TYPE=COUNT"),
            ("t4x4=6,", "an entry is empty"),
            (",t4x4=6", "an entry is empty"),
            (
                "t4x4=6;a100x8=2",
                "the count \"6;a100x8=2\" is not a number",
            ),
            ("=3", "unknown machine type \"\""),
            ("t4x4==3", "is not a number"),
            (long.as_str(), "(5000 characters)\" is not TYPE=COUNT"),
        ] {
            let e = parse_mix(text).unwrap_err();
            let shown = smd_core::error::cut(text);
            assert!(e.contains(needle), "{shown:?}: {e}");
            assert!(e.len() < 400, "{shown:?}: the error echoes too much: {e}");
        }
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
