//! The cluster of a scenario (docs/SCENARIO.md, docs/MODEL.md §1): the four resources and
//! their vectors, a pool of `units × unit` or machine groups (version 2). Below the rest of
//! the scenario so that the enums chosen per cluster (`choice.rs`) can ask what a cluster is
//! made of; re-exported by `scenario`, where the API names them.

use serde::{Deserialize, Serialize};
use smd_measured::gpu::Gpu;

/// R of docs/MODEL.md §1: the number of resources, the length of every demand and capacity
/// vector the algorithms handle.
pub(crate) const R: usize = Resource::ALL.len();

/// A vector over the four resources of the model (GPU, vCPU, memory, storage).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Resources {
    /// GPUs.
    pub gpu: f64,
    /// Virtual CPUs.
    pub vcpu: f64,
    /// Memory, GB.
    pub memory_gb: f64,
    /// Storage, GB.
    pub storage_gb: f64,
}

/// One of the model's four resources (docs/MODEL.md §1): the one owner of their order,
/// file names, units and titles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// GPUs.
    Gpu,
    /// Virtual CPUs.
    Vcpu,
    /// Memory, GB.
    MemoryGb,
    /// Storage, GB.
    StorageGb,
}

crate::names::named!(Resource, "resource" {
    Gpu => "gpu",
    Vcpu => "vcpu",
    MemoryGb => "memory_gb",
    StorageGb => "storage_gb",
});

impl Resource {
    /// Its position in [`Resources::to_array`].
    pub fn index(self) -> usize {
        self as usize
    }
    /// A short title for tables and charts: `GPU`, `vCPU`, `memory`, `storage`.
    pub const fn title(self) -> &'static str {
        match self {
            Resource::Gpu => "GPU",
            Resource::Vcpu => "vCPU",
            Resource::MemoryGb => "memory",
            Resource::StorageGb => "storage",
        }
    }
    /// The unit of an amount: `GPUs`, `vCPUs`, `GB`, `GB`.
    pub fn unit(self) -> &'static str {
        match self {
            Resource::Gpu => "GPUs",
            Resource::Vcpu => "vCPUs",
            Resource::MemoryGb | Resource::StorageGb => "GB",
        }
    }
}

/// Names of the resources in the order of [`Resources::to_array`] ([`Resource::NAMES`]).
pub const RESOURCE_NAMES: [&str; 4] = Resource::NAMES;

impl std::ops::Index<Resource> for Resources {
    type Output = f64;
    fn index(&self, r: Resource) -> &f64 {
        match r {
            Resource::Gpu => &self.gpu,
            Resource::Vcpu => &self.vcpu,
            Resource::MemoryGb => &self.memory_gb,
            Resource::StorageGb => &self.storage_gb,
        }
    }
}

impl Resources {
    /// The four values as an array, in the order of [`Resource::ALL`].
    pub fn to_array(self) -> [f64; 4] {
        [self.gpu, self.vcpu, self.memory_gb, self.storage_gb]
    }
    /// The inverse of [`Resources::to_array`].
    pub fn from_array(a: [f64; 4]) -> Self {
        Resources {
            gpu: a[0],
            vcpu: a[1],
            memory_gb: a[2],
            storage_gb: a[3],
        }
    }
    /// Every component multiplied by `k`.
    pub fn scale(self, k: f64) -> Self {
        Self::from_array(self.to_array().map(|v| v * k))
    }
    /// The paper's C4 instance with 4 GPUs (docs/MODEL.md §1).
    pub const DEFAULT_INSTANCE: Resources = Resources {
        gpu: 4.0,
        vcpu: 36.0,
        memory_gb: 60.0,
        storage_gb: 100.0,
    };
    /// One cluster unit (docs/MODEL.md §1).
    pub const DEFAULT_UNIT: Resources = Resources {
        gpu: 600.0,
        vcpu: 3400.0,
        memory_gb: 1400.0,
        storage_gb: 1200.0,
    };
}

/// The cluster: `units × unit` (a pool, version 1) or `machines` (version 2) is the
/// capacity; `instance` scales each job's limit ϑ.
///
/// In a file a cluster gives either `units` (with an optional `unit`) or `machines`, never
/// both (docs/SCENARIO.md). In memory a machine cluster keeps `units = 1` and `unit` = the
/// machines' total, so that code that reads a pool's capacity keeps working; but
/// [`Cluster::capacity`] and the file read the machines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ClusterFile", into = "ClusterFile")]
pub struct Cluster {
    /// Number of cluster units (the paper sweeps 1–5).
    pub units: f64,
    /// One cluster unit.
    pub unit: Resources,
    /// One instance; a job's limit is `L = ϑ · instance`.
    pub instance: Resources,
    /// Version 2: the machine groups (empty: a pool of `units × unit`).
    pub machines: Vec<MachineGroup>,
}

/// A group of identical machines (docs/SCENARIO.md, version 2). Its machines are named
/// `<name>-<index>`, index from 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineGroup {
    /// The group's name.
    pub name: String,
    /// How many machines, a whole number ≥ 1.
    pub count: f64,
    /// GPUs, vCPUs, memory and storage of one machine.
    pub capacity: Resources,
    /// The GPU type its GPUs are measured as (docs/MODEL.md §24; read it through
    /// [`MachineGroup::gpu_type`]). Unset on a group with GPUs means `t4`, what every file
    /// before GPU types meant; set only on a group with GPUs, with at most the type's
    /// measured node's GPUs per machine ([`Gpu::per_node`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<Gpu>,
    /// Memory of one GPU, GB (GPU sharing uses it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_memory_gb: Option<f64>,
    /// Network bandwidth of one machine, Gbps: its PSs' bandwidths B must fit in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic_gbps: Option<f64>,
    /// Transfer rate between two tasks on one machine, Gbps (unset: free; docs/MODEL.md §14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_gbps: Option<f64>,
    /// What one machine costs per hour, US dollars (unset: no price; the sweep's cost
    /// metric needs every group priced, docs/MODEL.md §19.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourly_usd: Option<f64>,
}

/// One machine of a [`Cluster`]'s groups.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Machine {
    /// `<group>-<index>`.
    pub name: String,
    /// Index of its group in `cluster.machines`.
    pub group: usize,
    /// Its capacity.
    pub capacity: Resources,
    /// Its group's `nic_gbps`.
    pub nic_gbps: Option<f64>,
    /// Its group's `local_gbps`.
    pub local_gbps: Option<f64>,
}

/// The cluster as written in a file: `units` or `machines`.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    units: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    unit: Option<Resources>,
    #[serde(default = "default_instance")]
    instance: Resources,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    machines: Option<Vec<MachineGroup>>,
}

impl TryFrom<ClusterFile> for Cluster {
    type Error = String;
    fn try_from(f: ClusterFile) -> Result<Cluster, String> {
        match (f.units, f.machines) {
            (Some(_), Some(_)) => Err("give `units` or `machines`, not both".into()),
            (None, None) => Err("missing field `units` (or `machines`, version 2)".into()),
            (None, Some(m)) if m.is_empty() => {
                Err("`machines` must list at least one group".into())
            }
            (None, Some(_)) if f.unit.is_some() => {
                Err("`unit` belongs to `units`: a cluster of `machines` has none".into())
            }
            (Some(units), None) => Ok(Cluster {
                units,
                unit: f.unit.unwrap_or(Resources::DEFAULT_UNIT),
                instance: f.instance,
                machines: Vec::new(),
            }),
            (None, Some(machines)) => Ok(Cluster::of_machines(machines, f.instance)),
        }
    }
}

impl From<Cluster> for ClusterFile {
    fn from(c: Cluster) -> ClusterFile {
        if c.machines.is_empty() {
            ClusterFile {
                units: Some(c.units),
                unit: Some(c.unit),
                instance: c.instance,
                machines: None,
            }
        } else {
            ClusterFile {
                units: None,
                unit: None,
                instance: c.instance,
                machines: Some(c.machines),
            }
        }
    }
}

fn default_instance() -> Resources {
    Resources::DEFAULT_INSTANCE
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            units: 1.0,
            unit: Resources::DEFAULT_UNIT,
            instance: Resources::DEFAULT_INSTANCE,
            machines: Vec::new(),
        }
    }
}

impl Cluster {
    /// A cluster of machine groups (version 2), with `instance` for the jobs' limits.
    pub fn of_machines(machines: Vec<MachineGroup>, instance: Resources) -> Cluster {
        Cluster {
            units: 1.0,
            unit: total_of(&machines),
            instance,
            machines,
        }
    }

    /// The cluster capacity: `units × unit`, or the sum over the machines.
    pub fn capacity(&self) -> Resources {
        if self.machines.is_empty() {
            self.unit.scale(self.units)
        } else {
            total_of(&self.machines)
        }
    }

    /// Whether the cluster is made of machines (version 2) rather than a pool.
    pub fn has_machines(&self) -> bool {
        !self.machines.is_empty()
    }

    /// What the whole cluster costs per hour, US dollars: Σ count × `hourly_usd` over the
    /// groups. An error names what has no price: a pool, or the first group without one.
    pub fn hourly_usd(&self) -> Result<f64, String> {
        if self.machines.is_empty() {
            return Err(
                "a pool of units has no price: cost needs machines, each group with \
                        its hourly_usd"
                    .into(),
            );
        }
        self.machines
            .iter()
            .try_fold(0.0, |sum, g| match g.hourly_usd {
                Some(p) => Ok(sum + g.count * p),
                None => Err(format!(
                    "machine group {:?} has no hourly price (hourly_usd): cost needs every group \
                 priced",
                    crate::error::cut(&g.name)
                )),
            })
    }

    /// The distinct GPU types of the groups that have GPUs ([`MachineGroup::gpu_type`]), in
    /// [`Gpu::ALL`]'s order; empty for a pool or a cluster without GPUs.
    pub fn gpu_types(&self) -> Vec<Gpu> {
        Gpu::ALL
            .into_iter()
            .filter(|&t| self.machines.iter().any(|g| g.gpu_type() == Some(t)))
            .collect()
    }

    /// The group of the machine named `machine` ([`Cluster::machine_list`]'s
    /// `<group>-<index>`): `None` for a name that is no machine of the cluster.
    pub fn group_of(&self, machine: &str) -> Option<&MachineGroup> {
        self.machines.iter().find(|g| {
            machine
                .strip_prefix(g.name.as_str())
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|k| k.parse::<usize>().ok().filter(|n| n.to_string() == k))
                .is_some_and(|k| k < g.machine_count())
        })
    }

    /// The GPU type of the machine named `machine` (its group's
    /// [`MachineGroup::gpu_type`]): `None` for a machine without GPUs or a name that is no
    /// machine of the cluster.
    pub fn gpu_type_of(&self, machine: &str) -> Option<Gpu> {
        self.group_of(machine).and_then(MachineGroup::gpu_type)
    }

    /// Every machine, group by group, named `<group>-<index>` (empty for a pool). Counts
    /// are whole numbers in a valid scenario; a fractional count is cut.
    pub fn machine_list(&self) -> Vec<Machine> {
        self.machines
            .iter()
            .enumerate()
            .flat_map(|(gi, g)| {
                (0..g.machine_count()).map(move |i| Machine {
                    name: format!("{}-{i}", g.name),
                    group: gi,
                    capacity: g.capacity,
                    nic_gbps: g.nic_gbps,
                    local_gbps: g.local_gbps,
                })
            })
            .collect()
    }
}

impl MachineGroup {
    /// The GPU type its GPUs are measured as: `None` for a group without GPUs, else its
    /// `gpu`, `t4` when unset.
    pub fn gpu_type(&self) -> Option<Gpu> {
        (self.capacity.gpu > 0.0).then(|| self.gpu.unwrap_or(Gpu::T4))
    }

    /// Its machines as [`Cluster::machine_list`] lists them: the count cut to a whole number
    /// (at most [`MAX_MACHINES`]; none for a count that is not positive).
    pub fn machine_count(&self) -> usize {
        if self.count.is_finite() && self.count > 0.0 {
            self.count.min(MAX_MACHINES as f64) as usize
        } else {
            0
        }
    }
}

/// Σ count · capacity over machine groups.
fn total_of(groups: &[MachineGroup]) -> Resources {
    let total = groups.iter().fold([0.0; 4], |acc, g| {
        let c = g.capacity.scale(g.count).to_array();
        std::array::from_fn(|r| acc[r] + c[r])
    });
    Resources::from_array(total)
}

/// Most machines a cluster may list (all groups together).
pub const MAX_MACHINES: usize = 100_000;
