//! The enums a user chooses from — in a scenario's `params` and jobs, on the CLI, in the
//! page's selects — each with one owner here: its values in display order (`ALL`), the name
//! used in files and on the CLI (`name()`, `Display`, `FromStr`, equal to serde's; written
//! by [`crate::named!`]), a short human `label()` and `description()` for the page, and, for
//! those that make sense only on some clusters, `applies_to(&Cluster)`.
//!
//! The scenario's and the planner's modules re-export them where their API has always named
//! them (`scenario::Placement`, `smd_core::Policy`, `smd_core::InnerSolver`, …).

use crate::cluster::Cluster;
use serde::{Deserialize, Serialize};

/// Synchronous or asynchronous SGD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Synchronous: T of the paper's (9).
    Sync,
    /// Asynchronous: T of the paper's (10).
    Async,
}

crate::names::named!(Mode, "mode" { Sync => "sync", Async => "async" });

impl Mode {
    /// The name capitalised, for titles and series: `"Sync"` or `"Async"`.
    pub fn title(self) -> &'static str {
        match self {
            Mode::Sync => "Sync",
            Mode::Async => "Async",
        }
    }
    /// Its label in a select: its name.
    pub fn label(self) -> &'static str {
        self.name()
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Mode::Sync => "synchronous SGD: T of the paper's (9)",
            Mode::Async => "asynchronous SGD: T of the paper's (10)",
        }
    }
}

/// How a job trains: the paper's parameter-server model, or data-parallel all-reduce as the
/// bundled applications were measured (docs/MODEL.md §21).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Architecture {
    /// Workers and parameter servers, T(w, p) of the paper (the default).
    #[default]
    Ps,
    /// w GPUs that synchronise by ring all-reduce; speed from the application's measurements.
    Allreduce,
}

crate::names::named!(Architecture, "architecture" { Ps => "ps", Allreduce => "allreduce" });

impl Architecture {
    /// Its label in a select.
    pub fn label(self) -> &'static str {
        match self {
            Architecture::Ps => "parameter servers",
            Architecture::Allreduce => "all-reduce (measured)",
        }
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Architecture::Ps => "workers and parameter servers: T(w, p) of the paper's model",
            Architecture::Allreduce => {
                "data-parallel GPUs with ring all-reduce: times from the application's measurements"
            }
        }
    }
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

crate::names::named!(Overlap, "overlap" {
    Sequential => "sequential",
    Wfbp => "wfbp",
    Pipelined => "pipelined",
});

impl Overlap {
    /// Its label in a select (`wfbp` is an acronym: `WFBP`).
    pub fn label(self) -> &'static str {
        match self {
            Overlap::Wfbp => "WFBP",
            o => o.name(),
        }
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Overlap::Sequential => "forward, backward, then all communication",
            Overlap::Wfbp => {
                "wait-free backpropagation: a layer's gradient is sent when its backward ends"
            }
            Overlap::Pipelined => {
                "communication of iteration k overlaps computation of iteration k+1"
            }
        }
    }
}

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

crate::names::named!(Rounding, "rounding" { Paper => "paper", BestCorner => "best_corner" });

impl Rounding {
    /// Its label in a select: `paper`, `best corner`.
    pub fn label(self) -> &'static str {
        match self {
            Rounding::BestCorner => "best corner",
            r => r.name(),
        }
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Rounding::Paper => "the paper's randomized rounding",
            Rounding::BestCorner => "the best feasible floor/ceil corner of x̃",
        }
    }
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

crate::names::named!(Outer, "admission method" { Ptas => "ptas", Exact => "exact" });

impl Outer {
    /// Its label in a select, by the method: `Frieze–Clarke`, `exact B&B`.
    pub fn label(self) -> &'static str {
        match self {
            Outer::Ptas => "Frieze–Clarke",
            Outer::Exact => "exact B&B",
        }
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Outer::Ptas => "Frieze–Clarke at depth ptas_depth (the paper)",
            Outer::Exact => "exact branch and bound",
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

crate::names::named!(Placement, "placement" {
    FirstFit => "first_fit",
    Spread => "spread",
    Dltap => "dltap",
    Locality => "locality",
    Exact => "exact",
});

impl Placement {
    /// Its label in a select: `first fit`, else its name.
    pub fn label(self) -> &'static str {
        match self {
            Placement::FirstFit => "first fit",
            p => p.name(),
        }
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Placement::FirstFit => {
                "tasks in job order, PSs then workers, each to the first machine with room"
            }
            Placement::Spread => "each task to the machine with the most free dominant share",
            Placement::Dltap => "the best mix of aggregation degree and free share",
            Placement::Locality => "a job on one machine if it fits, else spread in proportion",
            Placement::Exact => "the least total cross-machine traffic, proven (small cases)",
        }
    }
    /// Whether it means anything on `cluster`: placement puts tasks on machines, so only on
    /// machines (a pool's plan is not placed). The same for every placement: see
    /// [`Placement::used_on`].
    pub fn applies_to(self, cluster: &Cluster) -> bool {
        Placement::used_on(cluster)
    }
    /// Whether a scenario on `cluster` uses `params.placement` (and `dltap_lambda`) at all:
    /// only on machines (docs/MODEL.md §15).
    pub fn used_on(cluster: &Cluster) -> bool {
        cluster.has_machines()
    }
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

impl GpuSharing {
    /// Its label in a select: its name.
    pub fn label(self) -> &'static str {
        self.name()
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            GpuSharing::Off => "every worker has its GPUs to itself",
            GpuSharing::Greedy => "best fit by decreasing mean memory",
            GpuSharing::Heuristic => "greedy, then empty the least-loaded GPUs while possible",
            GpuSharing::Exact => "the fewest GPUs, proven by branch and bound (small cases)",
        }
    }
    /// Whether it means anything on `cluster`: always (a pool's GPUs are packed as one
    /// site, docs/SCENARIO.md "GPU sharing").
    pub fn applies_to(self, _cluster: &Cluster) -> bool {
        true
    }
}

/// How Algorithm 1's per-grid-point problems are solved. Both give the same x̄ (T to 1e-9).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum InnerSolver {
    /// Exact closed form over the polygon's vertices, with grid blocks pruned by bounds
    /// (the fast path, `fast.rs`).
    #[default]
    Fast,
    /// The paper's method as written: one Charnes–Cooper LP per grid point through the LP crate.
    Reference,
}

crate::names::named!(InnerSolver, "inner solver" { Fast => "fast", Reference => "reference" });

impl InnerSolver {
    /// Its label in a select: its name.
    pub fn label(self) -> &'static str {
        self.name()
    }
    /// What it is, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            InnerSolver::Fast => "exact closed form over Ω's vertices, grid blocks pruned",
            InnerSolver::Reference => "one Charnes–Cooper LP per grid point (the paper)",
        }
    }
}

/// A planning policy (docs/MODEL.md §9; run by [`crate::policy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Algorithm 1 → Algorithm 2 → Frieze–Clarke (or exact) admission.
    Smd,
    /// SMD aware of machines (docs/MODEL.md §16): per job the spread allocation (ρ = 1) and
    /// one co-located on a machine (ρ = β), the one with more utility per dominant share
    /// kept, then SMD's admission. On a pool it is `smd`.
    SmdLocality,
    /// Equal split w = p = k, then SMD's admission stage.
    Esw,
    /// The cluster-wide greedy of Optimus.
    Optimus,
    /// Per-job integer optimum, then the exact knapsack.
    Exact,
    /// The joint optimum over every job's Pareto set of allocations
    /// ([`crate::policy::plan_global`]), proven, or the best found when its time budget (or,
    /// without a clock, its node limit) ends.
    Global,
}

crate::names::named!(Policy, "policy" {
    Smd => "smd",
    SmdLocality => "smd_locality",
    Esw => "esw",
    Optimus => "optimus",
    Exact => "exact",
    Global => "global",
});

impl Policy {
    /// The policies that differ on a pool (`smd_locality` is `smd` there), in display order.
    pub const POOL: [Policy; 5] = [
        Policy::Smd,
        Policy::Esw,
        Policy::Optimus,
        Policy::Exact,
        Policy::Global,
    ];

    /// The policies worth comparing on `cluster`: [`Policy::ALL`] on machines,
    /// [`Policy::POOL`] on a pool (those of `ALL` that [`Policy::applies_to`] it).
    pub fn for_cluster(cluster: &Cluster) -> &'static [Policy] {
        if cluster.has_machines() {
            &Policy::ALL
        } else {
            &Policy::POOL
        }
    }

    /// Whether it is worth running on `cluster`: `smd_locality` only on machines (on a pool
    /// it is `smd`), every other policy anywhere.
    pub fn applies_to(self, cluster: &Cluster) -> bool {
        self != Policy::SmdLocality || cluster.has_machines()
    }

    /// Its label: its name.
    pub fn label(self) -> &'static str {
        self.name()
    }

    /// What it is, in a few words (the page's comparison shows it).
    pub fn description(self) -> &'static str {
        match self {
            Policy::Smd => "Algorithm 1 (ε-grid) → Algorithm 2 (rounding) → knapsack",
            Policy::SmdLocality => {
                "smd, each job also sized co-located on one machine; the better per share kept"
            }
            Policy::Esw => "equal split w = p = k, then the same knapsack",
            Policy::Optimus => "admit at (1,1) in order, then greedy +1 worker/PS",
            Policy::Exact => "per-job integer optimum, exact knapsack",
            Policy::Global => "joint optimum: every job's size and the admission chosen together",
        }
    }
}

#[cfg(test)]
mod tests;
