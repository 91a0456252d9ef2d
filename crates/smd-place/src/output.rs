//! What placement answers: per job its shares with ρ and X, or why it was not placed; per
//! machine what it uses; the totals.

use crate::input::Machine;
use serde::Serialize;
use smd_core::scenario::Resources;

/// A job's tasks on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Share {
    /// The machine's index in the machine list.
    pub machine: usize,
    /// Workers w_h of the job on it.
    pub workers: u32,
    /// PSs p_h of the job on it.
    pub ps: u32,
}

/// Where a placed job's tasks are and what that does to its communication.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobPlacement {
    /// One share per machine the job uses, by machine index.
    pub shares: Vec<Share>,
    /// ρ (CLUSTER.md §3; per-machine β, docs/PLACEMENT.md §4): T's communication term is
    /// scaled by it; 1 when no worker shares a machine with a PS of its job.
    pub locality_factor: f64,
    /// X: gigabits the job moves across machines per iteration.
    pub cross_traffic_gbit: f64,
}

/// One job's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every task of the job is on a machine.
    Placed(JobPlacement),
    /// The job takes nothing; the reason says what did not fit. It is the text after
    /// `"not placed: "`, as `smd_core::plan::Reason::NotPlaced` holds it (its `Display` adds
    /// the prefix).
    NotPlaced(String),
}

impl JobPlacement {
    /// Its shares as a plan file names them (`{machine, workers, ps}`), `machines` being the
    /// list it was placed on.
    pub fn named_shares(&self, machines: &[Machine]) -> Vec<smd_core::plan::PlacedShare> {
        self.shares
            .iter()
            .map(|s| smd_core::plan::PlacedShare {
                machine: machines[s.machine].name.clone(),
                workers: u64::from(s.workers),
                ps: u64::from(s.ps),
            })
            .collect()
    }
}

impl Outcome {
    /// The placement, if the job was placed.
    pub fn placed(&self) -> Option<&JobPlacement> {
        match self {
            Outcome::Placed(p) => Some(p),
            Outcome::NotPlaced(_) => None,
        }
    }
}

/// The placement of every job.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placement {
    /// One outcome per job, in the order of the jobs given.
    pub jobs: Vec<Outcome>,
    /// What the placed jobs use on each machine, in the order of the machines given.
    pub used: Vec<Resources>,
    /// The NIC bandwidth the placed jobs' PSs reserve on each machine, Gbps.
    pub nic_used_gbps: Vec<f64>,
    /// Σ X over the placed jobs, gigabits per iteration (each job's own iteration).
    pub total_cross_traffic_gbit: f64,
    /// Machines with at least one task.
    pub machines_used: usize,
    /// `exact` only: whether the search finished, so that the placement is proven optimal
    /// in the order of docs/PLACEMENT.md §10; `None` for the other policies.
    pub proven: Option<bool>,
}

impl Placement {
    /// Jobs placed.
    pub fn placed(&self) -> usize {
        self.jobs.iter().filter(|o| o.placed().is_some()).count()
    }
}
