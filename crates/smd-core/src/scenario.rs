//! The scenario file of `SCENARIO.md`: its types, defaults and strict reader (the cluster's
//! types come from `cluster.rs`, the enums chosen from `choice.rs`; validation, with
//! [`Scenario::validate`], is in `validate.rs`, above the work budgets it checks).
//!
//! Parsing is the strict streaming reader of `json.rs` followed by a typed pass, so that
//! every problem is reported with the job it sits in and the field, not only a line and
//! column, and memory stays proportional to the text.

use crate::error::{cut, Error};
use serde::{Deserialize, Serialize};

/// The scenario version of a phase-1 file (docs/SCENARIO.md), the one `generate` writes.
pub const VERSION: u32 = 1;
/// The newest version this crate reads: version 2 adds the optional fields of
/// docs/SCENARIO.md §"Version 2" (so far the online fields of a job).
pub const MAX_VERSION: u32 = 2;

pub use crate::choice::{Architecture, GpuSharing, Mode, Outer, Overlap, Placement, Rounding};
pub use crate::cluster::{
    Cluster, Machine, MachineGroup, Resource, Resources, MAX_MACHINES, RESOURCE_NAMES,
};
pub use smd_measured::app::App;
pub use smd_measured::gpu::Gpu;

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

/// A worker's `min_performance` when unset.
pub const DEFAULT_MIN_PERFORMANCE: f64 = 0.93;
/// `params.collision_prob` when unset.
pub const DEFAULT_COLLISION_PROB: f64 = 0.01;
/// `params.share_overhead` (κ) when unset.
pub const DEFAULT_SHARE_OVERHEAD: f64 = 0.02;

/// Slot length Δ, s, when `params.interval_s` is unset (CLUSTER.md §4).
pub const DEFAULT_INTERVAL_S: f64 = 600.0;
/// Slot length Δ, s, when `params.interval_s` is unset and every job is measured: the
/// reference simulator's scheduling interval (POLLUX-SIM.md §1.1).
pub const DEFAULT_MEASURED_INTERVAL_S: f64 = 60.0;
/// Restart time, s, when `params.restart_s` is unset.
pub const DEFAULT_RESTART_S: f64 = 30.0;
/// The longest simulation, s (30 days): the horizon when `params.horizon_s` is unset.
pub const MAX_HORIZON_S: f64 = 30.0 * 86_400.0;

/// Whether no simulation reaches an arrival: it is at or after [`MAX_HORIZON_S`].
pub fn unreachable(arrival_s: f64) -> bool {
    arrival_s >= MAX_HORIZON_S
}

/// Why an arrival no simulation reaches ([`unreachable`]) is probably not meant, or `None`,
/// with `others` more of them (`what`: "jobs", "rows") in the same warning, as Unix-epoch
/// times make every arrival one: the words for a scenario's job and a trace's row alike.
pub fn unreachable_arrival(arrival_s: f64, others: usize, what: &str) -> Option<String> {
    let also = if others > 0 {
        let what = if others == 1 {
            what.strip_suffix('s').unwrap_or(what)
        } else {
            what
        };
        format!(" ({others} more {what} too)")
    } else {
        String::new()
    };
    unreachable(arrival_s).then(|| {
        format!(
            "{} s is 30 days or more{also}: no simulation reaches it, so the job never runs; \
             arrival times count seconds from the start of the trace (for Unix-epoch times, \
             subtract the earliest)",
            crate::error::num(arrival_s)
        )
    })
}

/// λ of the `dltap` placement when `params.dltap_lambda` is unset.
pub const DEFAULT_DLTAP_LAMBDA: f64 = 0.7;

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

/// A data-parallel job's measured side (docs/MODEL.md §21): in the file, the job's
/// `architecture: "allreduce"` with `app`, `batch_size` and `max_workers`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredJob {
    /// The application whose measurements give the job's speed.
    pub app: App,
    /// The fixed total batch (a trace row's `batch_size`); `None`: the planner chooses it
    /// per allocation for the shortest time to the target (POLLUX-SIM.md §3.4).
    pub batch_size: Option<f64>,
    /// The most GPUs (workers) the job may use; `None`: the reference's cap
    /// (⌊batch / smallest local batch⌋, ncf 1). Never more than the cluster's GPUs.
    pub max_workers: Option<f64>,
}

/// One training job (docs/MODEL.md §1; a measured all-reduce job, §21).
///
/// A measured job (`measured` set) has no parameter-server fields in its file; here they
/// hold neutral values (zeros, `sync`, `sequential`, no layers) that nothing reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "JobFile", into = "JobFile")]
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
    /// Version 2: a data-parallel all-reduce job's application, batch and cap (`None`: a
    /// parameter-server job, the paper's model).
    pub measured: Option<MeasuredJob>,
}

impl Job {
    /// A measured all-reduce job (MODEL.md §21) with its parameter-server fields at the
    /// neutral values the file form reads them as, so that it writes and reads back equal.
    pub fn measured(id: String, measured: MeasuredJob, worker: Resources, utility: Utility) -> Job {
        Job {
            id,
            mode: Mode::Sync,
            overlap: Overlap::Sequential,
            iterations: 0.0,
            model_size_mb: 0.0,
            minibatch: 0.0,
            global_batch: 0.0,
            layers: Vec::new(),
            ps_bandwidth_gbps: 0.0,
            worker_overhead_s: 0.0,
            ps_overhead_s: 0.0,
            async_comm_factor: 0.0,
            worker,
            ps: Resources::default(),
            limit_instances: 0.0,
            utility,
            arrival_s: None,
            requested_workers: None,
            requested_ps: None,
            gpu_mem_mean_gb: None,
            gpu_mem_sd_gb: None,
            gpu_util: None,
            min_performance: None,
            measured: Some(measured),
        }
    }

    /// The job's work as the over-time engine counts it (MODEL.md §17): E iterations, or
    /// for a measured job 1, its target (its progress counts in shares of the target).
    pub fn work(&self) -> f64 {
        match self.measured {
            Some(_) => 1.0,
            None => self.iterations,
        }
    }

    /// How the job trains.
    pub fn architecture(&self) -> Architecture {
        match self.measured {
            Some(_) => Architecture::Allreduce,
            None => Architecture::Ps,
        }
    }

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
            ("architecture", self.measured.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, used)| used.then_some(name))
        .collect()
    }
}

/// A job as its file has it: the parameter-server fields optional, so that an all-reduce
/// job has none and a parameter-server job misses none (each missing one is named, as
/// serde names a missing field).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JobFile {
    id: String,
    #[serde(default, skip_serializing_if = "is_ps")]
    architecture: Architecture,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    app: Option<App>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    batch_size: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_workers: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mode: Option<Mode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    overlap: Option<Overlap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    iterations: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    model_size_mb: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    minibatch: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    global_batch: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layers: Option<Vec<Layer>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ps_bandwidth_gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    worker_overhead_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ps_overhead_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    async_comm_factor: Option<f64>,
    worker: Resources,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ps: Option<Resources>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limit_instances: Option<f64>,
    utility: Utility,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    arrival_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    requested_workers: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    requested_ps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gpu_mem_mean_gb: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gpu_mem_sd_gb: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gpu_util: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min_performance: Option<f64>,
}

fn is_ps(a: &Architecture) -> bool {
    *a == Architecture::Ps
}

impl TryFrom<JobFile> for Job {
    type Error = String;
    fn try_from(f: JobFile) -> Result<Job, String> {
        // The same words serde uses for a missing field, so messages read as before.
        fn need<T>(v: Option<T>, name: &str) -> Result<T, String> {
            v.ok_or_else(|| format!("missing field `{name}`"))
        }
        let ps_fields = [
            ("mode", f.mode.is_some()),
            ("overlap", f.overlap.is_some()),
            ("iterations", f.iterations.is_some()),
            ("model_size_mb", f.model_size_mb.is_some()),
            ("minibatch", f.minibatch.is_some()),
            ("global_batch", f.global_batch.is_some()),
            ("layers", f.layers.is_some()),
            ("ps_bandwidth_gbps", f.ps_bandwidth_gbps.is_some()),
            ("worker_overhead_s", f.worker_overhead_s.is_some()),
            ("ps_overhead_s", f.ps_overhead_s.is_some()),
            ("async_comm_factor", f.async_comm_factor.is_some()),
            ("ps", f.ps.is_some()),
            ("limit_instances", f.limit_instances.is_some()),
            ("requested_ps", f.requested_ps.is_some()),
        ];
        let measured = match f.architecture {
            Architecture::Allreduce => {
                if let Some((name, _)) = ps_fields.iter().find(|(_, set)| *set) {
                    return Err(format!(
                        "`{name}` is a parameter-server field: an all-reduce job has none"
                    ));
                }
                Some(MeasuredJob {
                    app: need(f.app, "app")?,
                    batch_size: f.batch_size,
                    max_workers: f.max_workers,
                })
            }
            Architecture::Ps => {
                for (name, set) in [
                    ("app", f.app.is_some()),
                    ("batch_size", f.batch_size.is_some()),
                    ("max_workers", f.max_workers.is_some()),
                ] {
                    if set {
                        return Err(format!(
                            "`{name}` is an all-reduce field: set \"architecture\": \"allreduce\" to use it"
                        ));
                    }
                }
                None
            }
        };
        if let Some(m) = measured {
            return Ok(Job {
                arrival_s: f.arrival_s,
                requested_workers: f.requested_workers,
                gpu_mem_mean_gb: f.gpu_mem_mean_gb,
                gpu_mem_sd_gb: f.gpu_mem_sd_gb,
                gpu_util: f.gpu_util,
                min_performance: f.min_performance,
                ..Job::measured(f.id, m, f.worker, f.utility)
            });
        }
        Ok(Job {
            id: f.id,
            mode: need(f.mode, "mode")?,
            overlap: need(f.overlap, "overlap")?,
            iterations: need(f.iterations, "iterations")?,
            model_size_mb: need(f.model_size_mb, "model_size_mb")?,
            minibatch: need(f.minibatch, "minibatch")?,
            global_batch: need(f.global_batch, "global_batch")?,
            layers: need(f.layers, "layers")?,
            ps_bandwidth_gbps: need(f.ps_bandwidth_gbps, "ps_bandwidth_gbps")?,
            worker_overhead_s: need(f.worker_overhead_s, "worker_overhead_s")?,
            ps_overhead_s: need(f.ps_overhead_s, "ps_overhead_s")?,
            async_comm_factor: need(f.async_comm_factor, "async_comm_factor")?,
            worker: f.worker,
            ps: need(f.ps, "ps")?,
            limit_instances: need(f.limit_instances, "limit_instances")?,
            utility: f.utility,
            arrival_s: f.arrival_s,
            requested_workers: f.requested_workers,
            requested_ps: f.requested_ps,
            gpu_mem_mean_gb: f.gpu_mem_mean_gb,
            gpu_mem_sd_gb: f.gpu_mem_sd_gb,
            gpu_util: f.gpu_util,
            min_performance: f.min_performance,
            measured: None,
        })
    }
}

impl From<Job> for JobFile {
    fn from(j: Job) -> JobFile {
        let ps = j.measured.is_none();
        let keep = |v: f64| ps.then_some(v);
        let (app, batch_size, max_workers) = match &j.measured {
            Some(m) => (Some(m.app), m.batch_size, m.max_workers),
            None => (None, None, None),
        };
        JobFile {
            id: j.id,
            architecture: j
                .measured
                .as_ref()
                .map_or(Architecture::Ps, |_| Architecture::Allreduce),
            app,
            batch_size,
            max_workers,
            mode: ps.then_some(j.mode),
            overlap: ps.then_some(j.overlap),
            iterations: keep(j.iterations),
            model_size_mb: keep(j.model_size_mb),
            minibatch: keep(j.minibatch),
            global_batch: keep(j.global_batch),
            layers: ps.then_some(j.layers),
            ps_bandwidth_gbps: keep(j.ps_bandwidth_gbps),
            worker_overhead_s: keep(j.worker_overhead_s),
            ps_overhead_s: keep(j.ps_overhead_s),
            async_comm_factor: keep(j.async_comm_factor),
            worker: j.worker,
            ps: ps.then_some(j.ps),
            limit_instances: keep(j.limit_instances),
            utility: j.utility,
            arrival_s: j.arrival_s,
            requested_workers: j.requested_workers,
            requested_ps: j.requested_ps,
            gpu_mem_mean_gb: j.gpu_mem_mean_gb,
            gpu_mem_sd_gb: j.gpu_mem_sd_gb,
            gpu_util: j.gpu_util,
            min_performance: j.min_performance,
        }
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
    /// Parses a scenario from JSON text without validating its values (the CLI applies its
    /// overrides in between). Strict: repeated keys, arrays for objects, deep nesting and
    /// numbers out of range are rejected naming where (see `json.rs`); type errors,
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

    /// Whether every job is a measured all-reduce job (and there is one): the simulation
    /// then keeps the reference simulator's time (MODEL.md §21.1).
    pub fn all_measured(&self) -> bool {
        !self.jobs.is_empty() && self.jobs.iter().all(|j| j.measured.is_some())
    }

    /// `Err` when `planner`, which gives measured jobs the T4's measured speed, would plan
    /// this scenario's measured jobs on GPUs of another type (docs/MODEL.md §24.7): the
    /// error names the first such group and the policies that run each job at its type's
    /// speed. `Ok` without a measured job or when every GPU group is of T4s.
    pub fn t4_only(&self, planner: &str) -> Result<(), Error> {
        if !self.jobs.iter().any(|j| j.measured.is_some()) {
            return Ok(());
        }
        let other = self.cluster.machines.iter().enumerate().find(|(_, g)| {
            g.gpu_type()
                .is_some_and(|t| t != smd_measured::gpu::Gpu::T4)
        });
        match other {
            None => Ok(()),
            Some((i, g)) => Err(Error::field(
                None,
                format!("cluster.machines[{i}].gpu"),
                format!(
                    "is {} (group {:?}): {planner} plans measured jobs at the T4's measured \
                     speed only; over time, sia, gavel and pollux_unaware run each job at its \
                     GPU type's speed",
                    g.gpu_type().map_or("none", |t| t.name()),
                    crate::error::cut(&g.name)
                ),
            )),
        }
    }

    /// The slot length Δ in force, s: `params.interval_s`, else
    /// [`DEFAULT_MEASURED_INTERVAL_S`] when every job is measured, else
    /// [`DEFAULT_INTERVAL_S`].
    pub fn interval_s(&self) -> f64 {
        self.params.interval_s.unwrap_or(if self.all_measured() {
            DEFAULT_MEASURED_INTERVAL_S
        } else {
            DEFAULT_INTERVAL_S
        })
    }

    /// The horizon in force, s: `params.horizon_s`, else [`MAX_HORIZON_S`] (30 days).
    pub fn horizon_s(&self) -> f64 {
        self.params.horizon_s.unwrap_or(MAX_HORIZON_S)
    }

    /// Pretty JSON, the file format of `SCENARIO.md`.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a scenario always serialises")
    }
}

/// Longest job id accepted, in characters (ids label table rows, charts and messages).
pub const MAX_ID_CHARS: usize = 200;

/// What is wrong with `id` as a job's id on its own (not blank, at most [`MAX_ID_CHARS`]
/// characters), if anything: one rule for scenarios and for the tools that make jobs.
pub fn id_problem(id: &str) -> Option<String> {
    let n = id.chars().count();
    if n > MAX_ID_CHARS {
        Some(format!(
            "must be at most {MAX_ID_CHARS} characters (got {n})"
        ))
    } else if id.trim().is_empty() {
        Some("must not be empty".into())
    } else {
        None
    }
}

/// Smallest non-zero magnitude of a number in a scenario: below it the LPs lose precision.
pub const MIN_MAGNITUDE: f64 = 1e-12;
/// Largest magnitude of a number in a scenario.
pub const MAX_MAGNITUDE: f64 = 1e12;

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
