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
    /// Why a job is not admitted (`"infeasible: …"`, `"not selected…"`).
    pub reason: Option<String>,
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
    pub policy: crate::Policy,
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
    /// `"relative"` (π = 16·T/T(1,1)) or `"seconds/N"` for an absolute unit of N s.
    pub time_unit: String,
}

impl Plan {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a plan always serialises")
    }
}
