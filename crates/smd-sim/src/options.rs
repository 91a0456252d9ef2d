//! What a simulation is asked and answers besides its run: the policy over time, the
//! options (progress, cancel), the progress report and the error.

use smd_core::Error;

/// A policy over time (CLUSTER.md §4, docs/MODEL.md §17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimPolicy {
    /// Arrival order at each job's requested allocation, no backfilling.
    Fifo,
    /// Each slot: (1, 1) in arrival order, then Optimus' greedy on remaining time.
    Optimus,
    /// Each slot: the SMD pipeline on the active jobs' remaining work.
    Smd,
    /// At arrival: the job's whole schedule against rising resource prices (OASiS).
    Oasis,
    /// Each slot: a packing–covering LP over co-located or spread configurations,
    /// randomized rounding, repair (seed 004).
    Locality,
    /// An upper bound: every job alone on the empty cluster from its arrival.
    Bound,
    /// The reference simulator's Tiresias (POLLUX-SIM.md §4.2): two queues by attained
    /// GPU-service, whole requests, preemption; measured jobs only.
    Tiresias,
    /// The reference simulator's Optimus+Oracle (POLLUX-SIM.md §4.1): a GPU each, then
    /// GPUs by marginal gain on the exact remaining work; measured jobs only.
    OptimusOracle,
    /// The reference simulator's Pollux (POLLUX-SIM.md §4.3): GPUs per machine for the
    /// fairest speedups each job's learned goodput model predicts, batches chosen for
    /// goodput; measured jobs only. Searched by the project's own optimiser (MODEL §23).
    Pollux,
    /// Sia (SOSP 2023; docs/MODEL.md §24): every minute, each job's goodput on every GPU
    /// type and size from what it has learned, and the allocation of the most goodput
    /// (p = −0.5), solved exactly with a proof; measured jobs on machines of any types.
    Sia,
    /// Gavel with tuned jobs (docs/MODEL.md §24): each job at its requested GPUs and
    /// batch; rounds of 6 minutes share the types by an LP of the most total throughput.
    Gavel,
    /// Pollux unaware of GPU types (docs/MODEL.md §24): Pollux on 4-GPU virtual nodes,
    /// then each job kept on its majority type.
    PolluxUnaware,
}

smd_core::named!(SimPolicy, "simulation policy" {
    Fifo => "fifo",
    Optimus => "optimus",
    Smd => "smd",
    Oasis => "oasis",
    Locality => "locality",
    Bound => "bound",
    Tiresias => "tiresias",
    OptimusOracle => "optimus_oracle",
    Pollux => "pollux",
    Sia => "sia",
    Gavel => "gavel",
    PolluxUnaware => "pollux_unaware",
});

impl SimPolicy {
    /// Whether the policy schedules `scenario`: the reference's policies (`tiresias`,
    /// `optimus_oracle`, `pollux`) schedule measured all-reduce jobs only; the
    /// heterogeneity-aware ones measured jobs on machines of measured GPU types (`gavel`
    /// only when every job's requested GPUs fit one type); the others any job.
    pub fn applies_to(self, scenario: &smd_core::Scenario) -> bool {
        if self.is_hetero() {
            return scenario.all_measured()
                && crate::hetero_input::input(scenario, &self, self == SimPolicy::Gavel).is_ok();
        }
        scenario.t4_only(self.name()).is_ok() && (!self.is_reference() || scenario.all_measured())
    }

    /// One of the heterogeneity-aware policies (`sia`, `gavel`, `pollux_unaware`): they
    /// plan each job on one GPU type at its measured speed (docs/MODEL.md §24).
    pub fn is_hetero(self) -> bool {
        matches!(
            self,
            SimPolicy::Sia | SimPolicy::Gavel | SimPolicy::PolluxUnaware
        )
    }

    /// One of the reference simulator's policies (POLLUX-SIM.md §4).
    pub fn is_reference(self) -> bool {
        matches!(
            self,
            SimPolicy::Tiresias | SimPolicy::OptimusOracle | SimPolicy::Pollux
        )
    }

    /// Whether the policy chooses its jobs' batches as it learns them (`pollux`: a trace's
    /// tuned batch is then ignored, as the reference ignores it, POLLUX-SIM.md §2.5).
    pub fn learns(self) -> bool {
        matches!(
            self,
            SimPolicy::Pollux | SimPolicy::Sia | SimPolicy::PolluxUnaware
        )
    }

    /// What the policy does, in a planner's words (the page's tooltips).
    pub fn description(self) -> &'static str {
        match self {
            SimPolicy::Fifo => "first come, first served at each job's requested GPUs; a job waits until it fits and blocks those behind it",
            SimPolicy::Optimus => "every slot, one worker each, then more where they shorten jobs most per resource (the paper's Optimus on the remaining work)",
            SimPolicy::Smd => "every slot, the SMD planner on the remaining work: each job's size, then which jobs to run for the most utility",
            SimPolicy::Oasis => "at arrival, a job's whole schedule is booked against rising resource prices, and it runs only if it is worth the price",
            SimPolicy::Locality => "every slot, an LP over co-located and spread configurations, rounded at random and repaired",
            SimPolicy::Bound => "not a schedule: every job alone on the empty cluster from its arrival, so no policy's utility can be higher",
            SimPolicy::Tiresias => "the reference simulator's Tiresias: jobs get their requested GPUs or wait; jobs that have used under 16 GPU-hours come first, and a job that loses its place is preempted",
            SimPolicy::OptimusOracle => "the reference simulator's Optimus+Oracle: one GPU each in arrival order, then GPUs where they save the most time on the exact remaining work",
            SimPolicy::Pollux => "the reference simulator's Pollux: every minute, GPUs go where each job's learned speedup makes the sharing fairest, and each job picks the batch size that trains fastest on what it got",
            SimPolicy::Sia => "Sia: every minute, each job's learned goodput on every GPU type and size, and the allocation that trains most, with a penalty for restarts; solved exactly",
            SimPolicy::Gavel => "Gavel with tuned jobs: each job at its requested GPUs and batch; every 6 minutes the GPU types are shared for the most total throughput, in rounds",
            SimPolicy::PolluxUnaware => "Pollux unaware of GPU types: it plans as if every GPU were alike, then keeps each job on the type most of its GPUs are of",
        }
    }

    /// The policies that schedule `scenario`, in [`SimPolicy::ALL`]'s order.
    pub fn all_for(scenario: &smd_core::Scenario) -> Vec<SimPolicy> {
        SimPolicy::ALL
            .into_iter()
            .filter(|p| p.applies_to(scenario))
            .collect()
    }
}

/// Where a run is: reported after every slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The policy running.
    pub policy: SimPolicy,
    /// Slots simulated.
    pub slots: usize,
    /// Simulated time reached, s.
    pub time_s: f64,
    /// Jobs finished.
    pub finished: usize,
    /// Jobs in the scenario.
    pub jobs: usize,
}

/// How to run a simulation.
#[derive(Default)]
pub struct Options<'a> {
    /// Called after every slot.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// Checked after every slot: `true` stops the run with [`SimError::Cancelled`].
    pub cancel: Option<&'a dyn Fn() -> bool>,
    /// With GPU sharing: record every slot's shared GPUs in [`SlotUse::gpus`](crate::SlotUse::gpus) (for checks;
    /// large).
    pub gpus: bool,
    /// A clock in ms that times the heterogeneity-aware policies' decisions (`None`: not
    /// timed; times never change a run).
    pub clock: Option<&'a dyn Fn() -> f64>,
}

/// Why a simulation returned no run.
#[derive(Debug, PartialEq)]
pub enum SimError {
    /// The scenario is invalid, or a planner failed.
    Invalid(Error),
    /// The cancel callback said stop.
    Cancelled,
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Invalid(e) => e.fmt(f),
            SimError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<Error> for SimError {
    fn from(e: Error) -> SimError {
        SimError::Invalid(e)
    }
}
