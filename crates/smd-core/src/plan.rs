//! The plan file of `SCENARIO.md`: what the planner answers.

use crate::scenario::Resources;
use serde::{Deserialize, Serialize};

/// One job's line of a plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobPlan {
    /// The job's id.
    pub id: String,
    /// Workers (every feasible job, admitted or not).
    pub workers: Option<u64>,
    /// Parameter servers.
    pub ps: Option<u64>,
    /// T at (workers, ps), s.
    pub completion_time_s: Option<f64>,
    /// π: T in the planner's time unit.
    pub completion_time: Option<f64>,
    /// μ(π) of this allocation (counted in `total_utility` only if admitted).
    pub utility: f64,
    /// Whether the job is admitted.
    pub admitted: bool,
    /// Why a job is not admitted (in files: `"infeasible: …"`, `"not selected…"`).
    pub reason: Option<Reason>,
    /// Algorithm 1's w̄ (policy `smd` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxed_workers: Option<f64>,
    /// Algorithm 1's p̄ (policy `smd` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxed_ps: Option<f64>,
    /// T(x̄), s (policy `smd` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxed_completion_time_s: Option<f64>,
    /// Algorithm 2's draws (policy `smd` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding_attempts: Option<u32>,
    /// On machines: where the admitted job's tasks run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Vec<PlacedShare>>,
    /// On machines: ρ of the placement (docs/MODEL.md §14); T, π and μ include it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locality_factor: Option<f64>,
    /// On machines: X, gigabits the job moves across machines per iteration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_traffic_gbit: Option<f64>,
    /// With GPU sharing: the factor its T includes for sharing its GPUs (sync: the largest
    /// slowdown of its workers' GPUs, async: the mean; 1 when it shares none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowdown: Option<f64>,
}

/// A worker as GPU sharing names it: its job's id and its index in the job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerRef {
    /// The job's id.
    pub job: String,
    /// The worker's index within the job, from 0.
    pub index: u32,
}

/// One GPU shared by workers (docs/SCENARIO.md, "GPU sharing").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedGpu {
    /// The machine (`pool` on a pool).
    pub machine: String,
    /// The GPU's index on it, from 0.
    pub gpu: u32,
    /// Its occupants.
    pub workers: Vec<WorkerRef>,
    /// Σ mean memory, GB.
    pub mem_mean_gb: f64,
    /// The spread of its memory, sqrt(Σ sd²), GB (the GPU map's band).
    #[serde(default)]
    pub mem_sd_gb: f64,
    /// P(Σ memory > the GPU's memory) under the Gaussian model.
    pub collision_prob: f64,
    /// Each occupant's slowdown (all equal: s of the GPU).
    pub slowdowns: Vec<f64>,
}

/// The GPU sharing of a plan (docs/MODEL.md §18).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharingSummary {
    /// The packing algorithm.
    pub algorithm: crate::scenario::GpuSharing,
    /// Every GPU the shareable workers use, with its occupants.
    pub gpus: Vec<SharedGpu>,
    /// How many.
    pub gpus_used: usize,
    /// GPUs those workers would use alone (one each).
    pub exclusive_gpus: usize,
    /// Mean over them of 1 / slowdown.
    pub mean_performance: f64,
    /// Admitted workers with a memory profile that breaks the memory rule even alone: each
    /// keeps a GPU to itself (counted in neither `gpus_used` nor `exclusive_gpus`).
    #[serde(default)]
    pub alone: usize,
}

/// A job's tasks on one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedShare {
    /// The machine, `<group>-<index>`.
    pub machine: String,
    /// Workers on it.
    pub workers: u64,
    /// PSs on it.
    pub ps: u64,
}

/// A job's workers on each machine of its placement, in its order (none on a pool): what
/// its time on the placement reads (`JobModel::t_on`, `allreduce::Curve::rate`).
pub fn workers_per_machine(placement: Option<&[PlacedShare]>) -> Vec<u32> {
    placement
        .into_iter()
        .flatten()
        .map(|s| s.workers as u32)
        .collect()
}

/// How the admitted jobs were put on machines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementSummary {
    /// The placement policy.
    pub policy: crate::scenario::Placement,
    /// Σ X over the placed jobs, gigabits per iteration of each.
    pub total_cross_traffic_gbit: f64,
    /// Machines that run at least one task.
    pub machines_used: usize,
    /// Every machine's use, in `cluster.machines` order.
    pub machines: Vec<MachineUse>,
    /// `exact` only: whether the least total X is proven.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proven: Option<bool>,
    /// Jobs the admission chose that no placement fitted (their reason says why).
    pub not_placed: usize,
}

/// One machine's use in a plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineUse {
    /// `<group>-<index>`.
    pub machine: String,
    /// What its tasks take.
    pub used: Resources,
    /// Its capacity.
    pub capacity: Resources,
}

/// Why a job is not admitted. In plan files it is its text (SCENARIO.md), which `Display`
/// writes and `FromStr` reads back.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// One worker and one PS exceed the job's own limit; which resources, e.g. `gpu 8 > 4`.
    Infeasible(String),
    /// Its allocation needs more than the whole cluster.
    NeedsMoreThanCluster,
    /// Its utility is 0 (docs/MODEL.md §12).
    ZeroUtility,
    /// Optimus: (1, 1) did not fit the capacity left when its turn came.
    NoRoomForOneOne,
    /// The admission chose other jobs.
    NotSelected,
    /// On machines: the admission chose it but no placement fitted (what did not fit).
    NotPlaced(String),
}

const INFEASIBLE: &str = "infeasible: one worker and one PS exceed the job's limit (";
const NOT_PLACED: &str = "not placed: ";

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Infeasible(over) => write!(f, "{INFEASIBLE}{over})"),
            Reason::NeedsMoreThanCluster => {
                f.write_str("not selected: needs more than the whole cluster")
            }
            Reason::ZeroUtility => f.write_str("not selected: zero utility"),
            Reason::NoRoomForOneOne => {
                f.write_str("not selected: (1, 1) did not fit the remaining capacity")
            }
            Reason::NotSelected => f.write_str("not selected"),
            Reason::NotPlaced(why) => write!(f, "{NOT_PLACED}{why}"),
        }
    }
}

impl std::str::FromStr for Reason {
    type Err = String;
    fn from_str(s: &str) -> Result<Reason, String> {
        if let Some(over) = s.strip_prefix(INFEASIBLE).and_then(|r| r.strip_suffix(')')) {
            return Ok(Reason::Infeasible(over.to_owned()));
        }
        if let Some(why) = s.strip_prefix(NOT_PLACED) {
            return Ok(Reason::NotPlaced(why.to_owned()));
        }
        [
            Reason::NeedsMoreThanCluster,
            Reason::ZeroUtility,
            Reason::NoRoomForOneOne,
            Reason::NotSelected,
        ]
        .into_iter()
        .find(|r| r.to_string() == s)
        .ok_or_else(|| format!("unknown reason {:?}", crate::error::cut(s)))
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Resource use of the admitted jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResourceUse {
    /// Σ D_i over admitted jobs.
    pub used: Resources,
    /// The cluster capacity.
    pub capacity: Resources,
    /// Σ L_i (the limits the admitted jobs asked for).
    pub requested: Resources,
}

/// How the admission was decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdmissionReport {
    /// `"ptas"`, `"exact"` or `"greedy"` (optimus).
    pub method: String,
    /// Frieze–Clarke depth q, if used.
    pub depth: Option<u32>,
    /// Proven lower bound on value / optimum of the knapsack (1 if proven optimal).
    pub guarantee: f64,
    /// Whether the knapsack's optimum is proven.
    pub proven_optimal: bool,
    /// Gap of the exact search when it stopped at its node limit.
    pub gap: Option<f64>,
}

/// Work counters and times.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// All LPs solved (inner and outer).
    pub lp_solves: u64,
    /// Algorithm 1's grid points.
    pub grid_points: u64,
    /// Grid points whose LP was infeasible.
    pub infeasible_grid_points: u64,
    /// Algorithm 2's draws, summed over jobs.
    pub rounding_attempts: u64,
    /// Wall time of the whole plan, ms (0 where no clock was given).
    pub solve_ms: f64,
    /// Time per job allocation (Algorithm 1 or its replacement), ms.
    #[serde(default)]
    pub inner_ms: f64,
    /// Time of rounding, ms.
    #[serde(default)]
    pub rounding_ms: f64,
    /// Time of admission, ms.
    #[serde(default)]
    pub outer_ms: f64,
    /// LPs of the admission stage.
    #[serde(default)]
    pub outer_lp_solves: u64,
    /// Branch-and-bound nodes or Frieze–Clarke subsets.
    #[serde(default)]
    pub outer_nodes: u64,
}

/// The planner's answer for one policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The policy (in files: `smd`, `esw`, `optimus`, `exact` or `global`).
    pub policy: crate::choice::Policy,
    /// Σ utility of admitted jobs.
    pub total_utility: f64,
    /// Number of admitted jobs.
    pub admitted: usize,
    /// One line per job, in scenario order.
    pub jobs: Vec<JobPlan>,
    /// Use of each resource.
    pub resources: ResourceUse,
    /// Work and time.
    pub stats: Stats,
    /// The admission stage.
    pub admission: AdmissionReport,
    /// `"relative"` (π = 16·T/T(1,1)) or `"seconds/N"` for an absolute unit of N s;
    /// `"hours"` when every job is measured (MODEL.md §22), `"…; measured jobs: hours"`
    /// when the scenario mixes both kinds.
    pub time_unit: String,
    /// On machines: the placement stage's summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementSummary>,
    /// With `params.gpu_sharing` on: the shared GPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<SharingSummary>,
}

impl Plan {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a plan always serialises")
    }
}

/// Where a job's share runs, in words for people: `8 × A100 on a100x8-0` — its GPUs
/// (`share.workers × gpus_per_worker`) and the machine's GPU type
/// ([`Cluster::gpu_type_of`](crate::cluster::Cluster::gpu_type_of)), then its parameter
/// servers if any (`, 1 PS`). A machine without GPUs, or a name that is no machine of the
/// cluster, is named with the share's workers (`2 workers on cpu-0`).
pub fn share_words(
    cluster: &crate::cluster::Cluster,
    share: &PlacedShare,
    gpus_per_worker: f64,
) -> String {
    let gpus = share.workers as f64 * gpus_per_worker;
    let mut words = match cluster.gpu_type_of(&share.machine) {
        Some(t) if gpus > 0.0 => format!(
            "{} × {} on {}",
            smd_format::num(gpus),
            t.label(),
            share.machine
        ),
        _ => format!(
            "{} worker{} on {}",
            share.workers,
            if share.workers == 1 { "" } else { "s" },
            share.machine
        ),
    };
    if share.ps > 0 {
        words.push_str(&format!(", {} PS", share.ps));
    }
    words
}

/// A job's placement in words: its shares' [`share_words`], joined by ` + `.
pub fn placement_words(
    cluster: &crate::cluster::Cluster,
    shares: &[PlacedShare],
    gpus_per_worker: f64,
) -> String {
    shares
        .iter()
        .map(|s| share_words(cluster, s, gpus_per_worker))
        .collect::<Vec<_>>()
        .join(" + ")
}
