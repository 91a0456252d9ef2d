//! The scenario file of `SCENARIO.md`: types, parsing and strict validation.
//!
//! Parsing is the strict streaming reader of [`crate::json`] followed by a typed pass, so that
//! every problem is reported with the job it sits in and the field, not only a line and
//! column, and memory stays proportional to the text.

use crate::error::{cut, Error, FieldError};
use serde::{Deserialize, Serialize};

/// The scenario version of a phase-1 file (docs/SCENARIO.md), the one `generate` writes.
pub const VERSION: u32 = 1;
/// The newest version this crate reads: version 2 adds the optional fields of
/// docs/SCENARIO.md §"Version 2" (so far the online fields of a job).
pub const MAX_VERSION: u32 = 2;

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
    /// Memory of one GPU, GB (GPU sharing uses it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_memory_gb: Option<f64>,
    /// Network bandwidth of one machine, Gbps: its PSs' bandwidths B must fit in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic_gbps: Option<f64>,
    /// Transfer rate between two tasks on one machine, Gbps (unset: free; docs/MODEL.md §14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_gbps: Option<f64>,
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

/// Algorithm 2's rounding rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// The paper's randomized rounding (docs/MODEL.md §7).
    #[default]
    Paper,
    /// Improved: the best feasible floor/ceil corner of `x̃`.
    BestCorner,
}

/// The admission (outer knapsack) method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Outer {
    /// Frieze–Clarke at depth `ptas_depth` (the paper).
    #[default]
    Ptas,
    /// Exact branch and bound.
    Exact,
}

/// Solver parameters; every field is optional in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// ε of Algorithm 1's geometric grid, in (0, 1].
    pub epsilon: f64,
    /// Frieze–Clarke depth q, 0…3.
    pub ptas_depth: u32,
    /// M_δ ≥ 1 of Algorithm 2.
    pub m_delta: f64,
    /// Cap on Algorithm 2's draws.
    pub max_rounding_attempts: u32,
    /// Seed of the rounding streams.
    pub seed: u64,
    /// `None`: the relative unit (π = 16·T/T(1,1)); else seconds per unit of π.
    pub time_unit_s: Option<f64>,
    /// Improved option: re-optimise p for w̄ before rounding.
    pub polish: bool,
    /// Rounding rule.
    pub rounding: Rounding,
    /// Admission method.
    pub outer: Outer,
    /// Version 2: how admitted jobs are put on machines (`None`: the default,
    /// [`Placement::Locality`]; used only on machines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// Version 2: λ of the `dltap` placement, in [0, 1] (`None`: 0.7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dltap_lambda: Option<f64>,
    /// Version 2, planning over time: the slot length Δ, s (`None`: 600).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval_s: Option<f64>,
    /// Version 2, planning over time: seconds without progress when a job starts or its
    /// allocation or placement changes (`None`: 30).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart_s: Option<f64>,
    /// Version 2, planning over time: where the simulation stops, s after 0 (`None`:
    /// when every job has finished, at most 30 days).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizon_s: Option<f64>,
    /// Version 2, GPU sharing (CLUSTER.md §5): how workers share GPUs (`None`: off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_sharing: Option<GpuSharing>,
    /// Version 2, GPU sharing: the accepted memory-collision probability of a GPU, in
    /// (0, 1) (`None`: [`DEFAULT_COLLISION_PROB`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collision_prob: Option<f64>,
    /// Version 2, GPU sharing: κ, the slowdown each co-runner adds (`None`:
    /// [`DEFAULT_SHARE_OVERHEAD`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_overhead: Option<f64>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            epsilon: 0.01,
            ptas_depth: 2,
            m_delta: 1.0,
            max_rounding_attempts: 1000,
            seed: 1,
            time_unit_s: None,
            polish: false,
            rounding: Rounding::Paper,
            outer: Outer::Ptas,
            placement: None,
            dltap_lambda: None,
            interval_s: None,
            restart_s: None,
            horizon_s: None,
            gpu_sharing: None,
            collision_prob: None,
            share_overhead: None,
        }
    }
}

/// How admitted jobs' tasks are put on machines (docs/MODEL.md §15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Tasks in job order, PSs then workers, each to the first machine with room.
    FirstFit,
    /// Each task to the machine with the most free dominant share.
    Spread,
    /// Seed 003: the best mix of aggregation degree and free share.
    Dltap,
    /// Seed 004: a job on one machine if it fits, else spread in proportion.
    #[default]
    Locality,
    /// The least total cross-machine traffic, proven (small cases).
    Exact,
}

/// How workers of different jobs share GPUs (CLUSTER.md §5, docs/MODEL.md §18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum GpuSharing {
    /// Every worker has its GPUs to itself.
    #[default]
    Off,
    /// Best fit by decreasing mean memory.
    Greedy,
    /// Greedy, then empty the least-loaded GPUs while possible.
    Heuristic,
    /// The fewest GPUs, proven by branch and bound (small cases).
    Exact,
}

crate::names::named!(GpuSharing, "gpu sharing" {
    Off => "off",
    Greedy => "greedy",
    Heuristic => "heuristic",
    Exact => "exact",
});

/// A worker's `min_performance` when unset.
pub const DEFAULT_MIN_PERFORMANCE: f64 = 0.93;
/// `params.collision_prob` when unset.
pub const DEFAULT_COLLISION_PROB: f64 = 0.01;
/// `params.share_overhead` (κ) when unset.
pub const DEFAULT_SHARE_OVERHEAD: f64 = 0.02;

/// Slot length Δ, s, when `params.interval_s` is unset (CLUSTER.md §4).
pub const DEFAULT_INTERVAL_S: f64 = 600.0;
/// Restart time, s, when `params.restart_s` is unset.
pub const DEFAULT_RESTART_S: f64 = 30.0;
/// The longest simulation, s (30 days): the horizon when `params.horizon_s` is unset.
pub const MAX_HORIZON_S: f64 = 30.0 * 86_400.0;

/// λ of the `dltap` placement when `params.dltap_lambda` is unset.
pub const DEFAULT_DLTAP_LAMBDA: f64 = 0.7;

crate::names::named!(Placement, "placement" {
    FirstFit => "first_fit",
    Spread => "spread",
    Dltap => "dltap",
    Locality => "locality",
    Exact => "exact",
});

crate::names::named!(Rounding, "rounding" { Paper => "paper", BestCorner => "best_corner" });
crate::names::named!(Outer, "admission method" { Ptas => "ptas", Exact => "exact" });
crate::names::named!(Mode, "mode" { Sync => "sync", Async => "async" });

impl Mode {
    /// The name capitalised, for titles and series: `"Sync"` or `"Async"`.
    pub fn title(self) -> &'static str {
        match self {
            Mode::Sync => "Sync",
            Mode::Async => "Async",
        }
    }
}
crate::names::named!(Overlap, "overlap" {
    Sequential => "sequential",
    Wfbp => "wfbp",
    Pipelined => "pipelined",
});

/// Synchronous or asynchronous SGD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Synchronous: T of the paper's (9).
    Sync,
    /// Asynchronous: T of the paper's (10).
    Async,
}

/// How communication overlaps computation (docs/MODEL.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overlap {
    /// Forward, backward, then all communication.
    Sequential,
    /// Wait-free backpropagation: a layer's gradient is sent when its backward ends.
    Wfbp,
    /// Communication of iteration k overlaps computation of iteration k+1.
    Pipelined,
}

/// One layer's times for one mini-batch, ms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    /// f_j.
    pub forward_ms: f64,
    /// b_j.
    pub backward_ms: f64,
    /// r_j, a profile: only its shape is used.
    pub comm_ms: f64,
}

/// The sigmoid utility's parameters γ1, γ2, γ3.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Utility {
    /// γ1 > 0: the utility's height.
    pub gamma1: f64,
    /// γ2 > 0: its steepness.
    pub gamma2: f64,
    /// γ3: the π at which it is half of γ1.
    pub gamma3: f64,
}

/// One training job (docs/MODEL.md §1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Unique id.
    pub id: String,
    /// Sync or async SGD.
    pub mode: Mode,
    /// Overlap model.
    pub overlap: Overlap,
    /// E: iterations to run.
    pub iterations: f64,
    /// g: model size, MB.
    pub model_size_mb: f64,
    /// m: per-worker mini-batch.
    pub minibatch: f64,
    /// K: global batch per synchronous iteration.
    pub global_batch: f64,
    /// The layer schedule.
    pub layers: Vec<Layer>,
    /// B: bandwidth of one PS, Gbps.
    pub ps_bandwidth_gbps: f64,
    /// β1: per-worker overhead per iteration, s.
    pub worker_overhead_s: f64,
    /// β2: per-PS overhead per iteration, s.
    pub ps_overhead_s: f64,
    /// α: asynchronous communication factor.
    pub async_comm_factor: f64,
    /// O^w: demand of one worker.
    pub worker: Resources,
    /// O^p: demand of one PS.
    pub ps: Resources,
    /// ϑ: the job's limit, in instances.
    pub limit_instances: f64,
    /// γ1, γ2, γ3.
    pub utility: Utility,
    /// Version 2: arrival time, s from the start of the trace (the online view will use it;
    /// a static plan plans every job as if all had arrived).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival_s: Option<f64>,
    /// Version 2: the workers the job asked for (e.g. a trace's `num_replicas`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_workers: Option<f64>,
    /// Version 2: the PSs the job asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_ps: Option<f64>,
    /// Version 2, GPU sharing (CLUSTER.md §5): a worker's mean GPU memory over an
    /// iteration, GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_mem_mean_gb: Option<f64>,
    /// Version 2, GPU sharing: the standard deviation of that memory, GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_mem_sd_gb: Option<f64>,
    /// Version 2, GPU sharing: a worker's compute intensity in (0, 1].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_util: Option<f64>,
    /// Version 2, GPU sharing: the share of standalone speed each worker must keep, in
    /// (0, 1] (`None`: [`DEFAULT_MIN_PERFORMANCE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_performance: Option<f64>,
}

impl Job {
    /// The version-2 fields the job uses, by name (empty for a version-1 job).
    pub fn version2_fields(&self) -> Vec<&'static str> {
        [
            ("arrival_s", self.arrival_s.is_some()),
            ("requested_workers", self.requested_workers.is_some()),
            ("requested_ps", self.requested_ps.is_some()),
            ("gpu_mem_mean_gb", self.gpu_mem_mean_gb.is_some()),
            ("gpu_mem_sd_gb", self.gpu_mem_sd_gb.is_some()),
            ("gpu_util", self.gpu_util.is_some()),
            ("min_performance", self.min_performance.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, used)| used.then_some(name))
        .collect()
    }
}

/// Everything the planner needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Always [`VERSION`].
    #[serde(default = "default_version")]
    pub version: u32,
    /// The cluster.
    pub cluster: Cluster,
    /// Solver parameters.
    #[serde(default)]
    pub params: Params,
    /// The jobs.
    pub jobs: Vec<Job>,
}

fn default_version() -> u32 {
    VERSION
}

/// Largest integer box side a job may have; keeps exact enumeration and rounding bounded.
pub const MAX_ALLOCATION: f64 = 1.0e6;

impl Scenario {
    /// Parses and validates a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<Scenario, Error> {
        let scenario = Scenario::parse(text)?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Parses a scenario from JSON text without validating its values (the CLI applies its
    /// overrides in between). Strict: repeated keys, arrays for objects, deep nesting and
    /// numbers out of range are rejected naming where (see [`crate::json`]); type errors,
    /// unknown and missing fields name the job and field. Memory stays proportional to the
    /// text: no JSON tree is built.
    pub fn parse(text: &str) -> Result<Scenario, Error> {
        let scan = crate::json::scan(text);
        if let Some(p) = scan.problem {
            // A truncated text is the file's problem, not the field's where it happened to end.
            if p.truncated {
                let at = match place(&scan.ids, &p.path) {
                    (_, f) if f.is_empty() => String::new(),
                    (Some(job), field) => format!(", inside job {:?}: {field}", cut(&job)),
                    (None, field) => format!(", inside {field}"),
                };
                let msg = p.message.trim_start_matches("cannot be read: ");
                return Err(Error::Parse(format!("the text ends too early: {msg}{at}")));
            }
            return Err(located(&scan.ids, &p.path, p.message));
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = crate::json::describe(&e.into_inner().to_string());
            located(&scan.ids, &path, friendly(inner))
        })?;
        de.end()
            .map_err(|e| Error::Parse(crate::json::describe(&e.to_string())))?;
        Ok(scenario)
    }

    /// Pretty JSON, the file format of `SCENARIO.md`.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a scenario always serialises")
    }

    /// What is allowed but probably not meant (never an error): a machine group on which no
    /// job's worker fits, a `restart_s` longer than a slot (docs/SCENARIO.md, version 2).
    /// Each names the field and says why.
    pub fn warnings(&self) -> Vec<FieldError> {
        let mut out = Vec::new();
        // The simulation charges a restart within its slot, min(restart_s, Δ): a longer
        // restart is cut to Δ without a word unless said here (docs/SCENARIO.md, "Time").
        let delta = self.params.interval_s.unwrap_or(DEFAULT_INTERVAL_S);
        if let Some(r) = self.params.restart_s.filter(|r| *r > delta) {
            out.push(FieldError {
                job: None,
                field: "params.restart_s".into(),
                message: format!(
                    "is longer than a slot ({} s > interval_s {} s): a restart costs at most one slot, {} s",
                    crate::error::num(r),
                    crate::error::num(delta),
                    crate::error::num(delta)
                ),
            });
        }
        if self.jobs.is_empty() {
            return out;
        }
        for (i, g) in self.cluster.machines.iter().enumerate() {
            let cap = g.capacity.to_array();
            let fits = |d: &Resources| d.to_array().iter().zip(cap).all(|(d, c)| *d <= c);
            if self.jobs.iter().any(|j| fits(&j.worker)) {
                continue;
            }
            // The resource that rules out the most jobs says why.
            let short = Resource::ALL
                .into_iter()
                .max_by_key(|r| {
                    self.jobs
                        .iter()
                        .filter(|j| j.worker[*r] > cap[r.index()])
                        .count()
                })
                .unwrap_or(Resource::Gpu);
            let example = self
                .jobs
                .iter()
                .find(|j| j.worker[short] > cap[short.index()])
                .unwrap_or(&self.jobs[0]);
            out.push(FieldError {
                job: None,
                field: format!("cluster.machines[{i}]"),
                message: format!(
                    "fits no job's worker: a {:?} machine has {} {}, e.g. job {:?}'s worker needs {}",
                    cut(&g.name),
                    short.name(),
                    crate::error::num(cap[short.index()]),
                    cut(&example.id),
                    crate::error::num(example.worker[short])
                ),
            });
        }
        out
    }

    /// Checks every rule of `SCENARIO.md`; returns all violations at once.
    pub fn validate(&self) -> Result<(), Error> {
        let mut errs = Vec::new();
        let mut top = |field: &str, message: String| {
            errs.push(FieldError {
                job: None,
                field: field.to_owned(),
                message,
            })
        };
        if !(VERSION..=MAX_VERSION).contains(&self.version) {
            top(
                "version",
                format!("must be {VERSION} or {MAX_VERSION} (got {})", self.version),
            );
        }
        if self.cluster.has_machines() {
            validate_machines(&self.cluster.machines, self.version, &mut top);
        } else {
            check(&mut top, "cluster.units", self.cluster.units, Rule::NonNeg);
            for (name, v) in RESOURCE_NAMES.iter().zip(self.cluster.unit.to_array()) {
                check(&mut top, &format!("cluster.unit.{name}"), v, Rule::NonNeg);
            }
        }
        for (field, used) in [
            ("params.placement", self.params.placement.is_some()),
            ("params.dltap_lambda", self.params.dltap_lambda.is_some()),
            ("params.interval_s", self.params.interval_s.is_some()),
            ("params.restart_s", self.params.restart_s.is_some()),
            ("params.horizon_s", self.params.horizon_s.is_some()),
            ("params.gpu_sharing", self.params.gpu_sharing.is_some()),
            (
                "params.collision_prob",
                self.params.collision_prob.is_some(),
            ),
            (
                "params.share_overhead",
                self.params.share_overhead.is_some(),
            ),
        ] {
            if used && self.version < 2 {
                top(
                    field,
                    format!(
                        "is a version-2 field: the file must say \"version\": 2 (it says {})",
                        self.version
                    ),
                );
            }
        }
        if let Some(l) = self.params.dltap_lambda {
            check(&mut top, "params.dltap_lambda", l, Rule::Unit);
        }
        // The slot loop's work is horizon / Δ slots: Δ ≥ 1 s and a horizon ≤ 30 days bound it.
        if let Some(d) = self.params.interval_s {
            if !(d.is_finite() && (1.0..=MAX_HORIZON_S).contains(&d)) {
                top(
                    "params.interval_s",
                    format!(
                        "must be 1 … {} s (got {})",
                        MAX_HORIZON_S,
                        crate::error::num(d)
                    ),
                );
            }
        }
        if let Some(r) = self.params.restart_s {
            check(&mut top, "params.restart_s", r, Rule::NonNeg);
        }
        if let Some(c) = self.params.collision_prob {
            if !(c.is_finite() && c > 0.0 && c < 1.0) {
                top(
                    "params.collision_prob",
                    format!("must be in (0, 1) (got {})", crate::error::num(c)),
                );
            }
        }
        if let Some(k) = self.params.share_overhead {
            check(&mut top, "params.share_overhead", k, Rule::NonNeg);
        }
        // The same floor as every other number (MIN_MAGNITUDE): 1e-300 s is no horizon.
        if let Some(h) = self.params.horizon_s {
            if !(h.is_finite() && (MIN_MAGNITUDE..=MAX_HORIZON_S).contains(&h)) {
                top(
                    "params.horizon_s",
                    format!(
                        "must be in [1e-12, {MAX_HORIZON_S}] s (30 days; got {})",
                        crate::error::num(h)
                    ),
                );
            }
        }
        for (name, v) in RESOURCE_NAMES.iter().zip(self.cluster.instance.to_array()) {
            check(
                &mut top,
                &format!("cluster.instance.{name}"),
                v,
                Rule::NonNeg,
            );
        }
        let p = &self.params;
        if !(p.epsilon.is_finite() && p.epsilon > 0.0 && p.epsilon <= 1.0) {
            top(
                "params.epsilon",
                format!("must be in (0, 1] (got {})", crate::error::num(p.epsilon)),
            );
        }
        if p.ptas_depth > 3 {
            top(
                "params.ptas_depth",
                format!("must be 0 … 3 (got {})", p.ptas_depth),
            );
        }
        if !(p.m_delta.is_finite() && p.m_delta >= 1.0) {
            top("params.m_delta", format!("must be ≥ 1 (got {})", p.m_delta));
        }
        if p.max_rounding_attempts < 1 {
            top("params.max_rounding_attempts", "must be ≥ 1 (got 0)".into());
        }
        if let Some(u) = p.time_unit_s {
            check(&mut top, "params.time_unit_s", u, Rule::Pos);
        }
        let mut seen = std::collections::HashSet::new();
        for (i, job) in self.jobs.iter().enumerate() {
            if job.id.chars().count() > MAX_ID_CHARS {
                errs.push(FieldError {
                    job: Some(format!("#{}", i + 1)),
                    field: "id".into(),
                    message: format!(
                        "must be at most {MAX_ID_CHARS} characters (got {})",
                        job.id.chars().count()
                    ),
                });
            } else if job.id.trim().is_empty() {
                errs.push(FieldError {
                    job: Some(format!("#{}", i + 1)),
                    field: "id".into(),
                    message: "must not be empty".into(),
                });
            } else if !seen.insert(job.id.as_str()) {
                errs.push(FieldError {
                    job: Some(job.id.clone()),
                    field: "id".into(),
                    message: "is used by more than one job".into(),
                });
            }
            // A blank or over-long id cannot name the job: its position does.
            let name = if job.id.trim().is_empty() || job.id.chars().count() > MAX_ID_CHARS {
                format!("#{}", i + 1)
            } else {
                job.id.clone()
            };
            validate_job(job, &name, &self.cluster.instance, &mut errs);
            validate_version2(job, &name, self.version, &mut errs);
        }
        // The model rules (representable times, the work budget) need every job's model:
        // only once the fields are valid.
        if errs.is_empty() {
            errs.extend(crate::budget::check(self));
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid(errs))
        }
    }
}

/// Longest job id accepted, in characters (ids label table rows, charts and messages).
pub const MAX_ID_CHARS: usize = 200;

#[derive(Clone, Copy)]
enum Rule {
    Pos,
    NonNeg,
    AtLeastOne,
    Unit,
    PosUnit,
    Finite,
}

fn check(push: &mut impl FnMut(&str, String), field: &str, v: f64, rule: Rule) {
    let (ok, what) = match rule {
        Rule::Pos => (v.is_finite() && v > 0.0, "must be > 0"),
        Rule::NonNeg => (v.is_finite() && v >= 0.0, "must be ≥ 0"),
        Rule::AtLeastOne => (v.is_finite() && v >= 1.0, "must be ≥ 1"),
        Rule::Unit => (
            v.is_finite() && (0.0..=1.0).contains(&v),
            "must be in [0, 1]",
        ),
        Rule::PosUnit => (v.is_finite() && v > 0.0 && v <= 1.0, "must be in (0, 1]"),
        Rule::Finite => (v.is_finite(), "must be a finite number"),
    };
    if !ok {
        push(field, format!("{what} (got {})", crate::error::num(v)));
    } else if v != 0.0 && !(MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&v.abs()) {
        push(
            field,
            format!(
                "must be 0 or between 1e-12 and 1e12 in magnitude (got {})",
                crate::error::num(v)
            ),
        );
    }
}

/// Smallest non-zero magnitude of a number in a scenario: below it the LPs lose precision.
pub const MIN_MAGNITUDE: f64 = 1e-12;
/// Largest magnitude of a number in a scenario.
pub const MAX_MAGNITUDE: f64 = 1e12;

/// The machine groups of a version-2 cluster: names unique and not empty, whole counts,
/// capacities ≥ 0 and not all 0, rates > 0.
fn validate_machines(groups: &[MachineGroup], version: u32, top: &mut impl FnMut(&str, String)) {
    if version < 2 {
        top(
            "cluster.machines",
            format!("is a version-2 field: the file must say \"version\": 2 (it says {version})"),
        );
    }
    let mut seen = std::collections::HashSet::new();
    let mut total = 0.0;
    for (i, g) in groups.iter().enumerate() {
        let at = |f: &str| format!("cluster.machines[{i}].{f}");
        if g.name.trim().is_empty() || g.name.chars().count() > MAX_ID_CHARS {
            top(
                &at("name"),
                format!("must be 1 to {MAX_ID_CHARS} characters"),
            );
        } else if !seen.insert(g.name.as_str()) {
            top(
                &at("name"),
                format!("{:?} names an earlier group too", cut(&g.name)),
            );
        }
        check(top, &at("count"), g.count, Rule::AtLeastOne);
        if g.count.is_finite() && g.count.fract() != 0.0 {
            top(
                &at("count"),
                format!(
                    "must be a whole number (got {})",
                    crate::error::num(g.count)
                ),
            );
        }
        total += g.count.max(0.0);
        for (name, v) in RESOURCE_NAMES.iter().zip(g.capacity.to_array()) {
            check(top, &at(&format!("capacity.{name}")), v, Rule::NonNeg);
        }
        if g.capacity.to_array().iter().all(|v| *v == 0.0) {
            top(
                &at("capacity"),
                "must have some resource (all four are 0)".into(),
            );
        }
        for (f, v) in [
            ("gpu_memory_gb", g.gpu_memory_gb),
            ("nic_gbps", g.nic_gbps),
            ("local_gbps", g.local_gbps),
        ] {
            if let Some(v) = v {
                check(top, &at(f), v, Rule::Pos);
            }
        }
    }
    if total > MAX_MACHINES as f64 {
        top(
            "cluster.machines",
            format!(
                "must list at most {MAX_MACHINES} machines (got {})",
                crate::error::num(total)
            ),
        );
    }
}

/// The version-2 fields of a job (docs/SCENARIO.md §"Version 2"): only in a version-2 file,
/// an arrival ≥ 0, requested counts whole and ≥ 1.
fn validate_version2(job: &Job, name: &str, version: u32, errs: &mut Vec<FieldError>) {
    let mut push = |field: &str, message: String| {
        errs.push(FieldError {
            job: Some(name.to_owned()),
            field: field.to_owned(),
            message,
        })
    };
    if version < 2 {
        for field in job.version2_fields() {
            push(
                field,
                format!(
                    "is a version-2 field: the file must say \"version\": 2 (it says {version})"
                ),
            );
        }
        return;
    }
    if let Some(a) = job.arrival_s {
        check(&mut push, "arrival_s", a, Rule::NonNeg);
    }
    for (field, v) in [
        ("requested_workers", job.requested_workers),
        ("requested_ps", job.requested_ps),
    ] {
        if let Some(v) = v {
            check(&mut push, field, v, Rule::AtLeastOne);
            if v.is_finite() && v.fract() != 0.0 {
                push(
                    field,
                    format!("must be a whole number (got {})", crate::error::num(v)),
                );
            }
        }
    }
    for (field, v, rule) in [
        ("gpu_mem_mean_gb", job.gpu_mem_mean_gb, Rule::NonNeg),
        ("gpu_mem_sd_gb", job.gpu_mem_sd_gb, Rule::NonNeg),
        ("gpu_util", job.gpu_util, Rule::PosUnit),
        ("min_performance", job.min_performance, Rule::PosUnit),
    ] {
        if let Some(v) = v {
            check(&mut push, field, v, rule);
        }
    }
}

fn validate_job(job: &Job, name: &str, instance: &Resources, errs: &mut Vec<FieldError>) {
    let id = name.to_owned();
    let mut push = |field: &str, message: String| {
        errs.push(FieldError {
            job: Some(id.clone()),
            field: field.to_owned(),
            message,
        })
    };
    check(&mut push, "iterations", job.iterations, Rule::Pos);
    check(&mut push, "model_size_mb", job.model_size_mb, Rule::Pos);
    check(&mut push, "minibatch", job.minibatch, Rule::AtLeastOne);
    check(
        &mut push,
        "global_batch",
        job.global_batch,
        Rule::AtLeastOne,
    );
    check(
        &mut push,
        "ps_bandwidth_gbps",
        job.ps_bandwidth_gbps,
        Rule::Pos,
    );
    check(
        &mut push,
        "worker_overhead_s",
        job.worker_overhead_s,
        Rule::NonNeg,
    );
    check(&mut push, "ps_overhead_s", job.ps_overhead_s, Rule::NonNeg);
    check(
        &mut push,
        "async_comm_factor",
        job.async_comm_factor,
        Rule::Unit,
    );
    check(&mut push, "limit_instances", job.limit_instances, Rule::Pos);
    check(&mut push, "utility.gamma1", job.utility.gamma1, Rule::Pos);
    check(&mut push, "utility.gamma2", job.utility.gamma2, Rule::Pos);
    check(
        &mut push,
        "utility.gamma3",
        job.utility.gamma3,
        Rule::Finite,
    );
    if job.layers.is_empty() {
        push("layers", "must hold at least one layer (got 0)".into());
    }
    for (j, l) in job.layers.iter().enumerate() {
        check(
            &mut push,
            &format!("layers[{j}].forward_ms"),
            l.forward_ms,
            Rule::NonNeg,
        );
        check(
            &mut push,
            &format!("layers[{j}].backward_ms"),
            l.backward_ms,
            Rule::NonNeg,
        );
        check(
            &mut push,
            &format!("layers[{j}].comm_ms"),
            l.comm_ms,
            Rule::NonNeg,
        );
    }
    for (who, d) in [("worker", &job.worker), ("ps", &job.ps)] {
        for (name, v) in RESOURCE_NAMES.iter().zip(d.to_array()) {
            check(&mut push, &format!("{who}.{name}"), v, Rule::NonNeg);
        }
        // Decision (documented in the crate docs): a task that demands nothing would make Ω
        // unbounded, so at least one resource must be positive.
        if d.to_array().iter().all(|v| *v == 0.0) {
            push(
                who,
                "must demand some resource (all four are 0, so Ω would be unbounded)".into(),
            );
        }
    }
    // Bound the integer box so enumeration, rounding and the landscape stay finite.
    if job.limit_instances.is_finite() && job.limit_instances > 0.0 {
        let lim = instance.scale(job.limit_instances).to_array();
        for (who, d) in [("worker", &job.worker), ("ps", &job.ps)] {
            let side = d
                .to_array()
                .iter()
                .zip(lim)
                .filter(|(o, _)| **o > 0.0)
                .map(|(o, l)| l / o)
                .fold(f64::INFINITY, f64::min);
            if side.is_finite() && side > MAX_ALLOCATION {
                push(
                    "limit_instances",
                    format!(
                        "allows more than {MAX_ALLOCATION} {} (got {}); lower the limit or raise the demand",
                        if who == "ps" { "parameter servers" } else { "workers" },
                        job.limit_instances
                    ),
                );
            }
        }
    }
}

/// An error at `path`, naming the job by its id when the path is inside `jobs[i]`.
fn located(ids: &[Option<String>], path: &str, message: String) -> Error {
    match place(ids, path) {
        (None, field) if field.is_empty() || field == "." => Error::Parse(message),
        (job, field) => Error::field(job.as_deref(), field, message),
    }
}

/// (the job, by id or `#position`, and the field inside it) of a path; `(None, path)`
/// outside `jobs`.
fn place(ids: &[Option<String>], path: &str) -> (Option<String>, String) {
    if let Some((idx, field)) = path.strip_prefix("jobs[").and_then(|r| r.split_once(']')) {
        if let Ok(i) = idx.parse::<usize>() {
            // A blank id names nothing: the job's position does (as validation does).
            let id = ids
                .get(i)
                .cloned()
                .flatten()
                .filter(|id| !id.trim().is_empty())
                .unwrap_or_else(|| format!("#{}", i + 1));
            let field = field.trim_start_matches('.');
            let field = if field.is_empty() { "(job)" } else { field };
            return (Some(id), field.to_owned());
        }
    }
    (None, path.to_owned())
}

/// serde's "unknown field `x`, expected …" reads "is not a known field (expected …)": the path
/// already names x.
fn friendly(message: String) -> String {
    match message.strip_prefix("unknown field ") {
        Some(rest) => {
            let expected = rest.split_once(", ").map_or("", |(_, e)| e);
            format!("is not a known field ({expected})")
        }
        None => format!("cannot be read: {message}"),
    }
}
