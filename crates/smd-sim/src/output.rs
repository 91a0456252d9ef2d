//! What a simulation returns (docs/SCENARIO.md, "Simulation output"): per job its segments
//! and times, per slot the resources in use, and the run's metrics.

use crate::options::SimPolicy;
use serde::{Deserialize, Serialize};
use smd_core::plan::PlacedShare;
use smd_core::scenario::Resources;

/// How the waiting reason of a job `oasis` refused begins (docs/MODEL.md §17).
pub const NOT_ADMITTED: &str = "not admitted by oasis";

/// The jobs `oasis` refused in a run, and what they did to it (docs/MODEL.md §17): they
/// run only when nothing else does, one at a time, so they end far past the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusals {
    /// How many jobs it refused.
    pub jobs: usize,
    /// Their utility, summed.
    pub utility: f64,
    /// The last completion of the jobs it admitted, s (`None`: none finished).
    pub admitted_makespan_s: Option<f64>,
}

impl Run {
    /// The jobs the policy refused (oasis' "not admitted"), if any.
    pub fn refusals(&self) -> Option<Refusals> {
        let (refused, admitted): (Vec<&JobRun>, Vec<&JobRun>) = self.jobs.iter().partition(|j| {
            j.waiting
                .as_deref()
                .is_some_and(|w| w.starts_with(NOT_ADMITTED))
        });
        (!refused.is_empty()).then(|| Refusals {
            jobs: refused.len(),
            utility: refused.iter().map(|j| j.utility).sum::<f64>() + 0.0,
            admitted_makespan_s: admitted
                .iter()
                .filter_map(|j| j.completion_s)
                .reduce(f64::max),
        })
    }
}

/// One simulated run of one policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The policy simulated.
    pub policy: SimPolicy,
    /// Every job of the scenario, in its order.
    pub jobs: Vec<JobRun>,
    /// Every slot from 0 to the end of the run (none for `bound`, which is no schedule); the
    /// runs of the heterogeneity-aware policies skip idle ticks, so there consecutive starts
    /// are whole multiples of `slot_s` apart.
    pub slots: Vec<SlotUse>,
    /// The length of a slot, s: the scenario's Δ, or the tick of the heterogeneity-aware
    /// policies (docs/MODEL.md §24.2; Gavel's round). GPU-hours and the run's end and cost
    /// read it.
    #[serde(default)]
    pub slot_s: f64,
    /// The run's summary.
    pub metrics: Metrics,
    /// The heterogeneity-aware policies' decisions: how many, how long, how many proven
    /// optimal (docs/MODEL.md §24).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<DecisionStats>,
    /// What the run costs (docs/MODEL.md §25.1; absent when some machine group has no
    /// price, or the cluster is a pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<RunCost>,
}

/// A run's cost in US dollars (a run's `cost`; absent when some machine group has no
/// price).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunCost {
    /// The cluster's price per hour: Σ count × `hourly_usd` over the groups.
    pub usd_per_hour: f64,
    /// Renting the cluster for the run: the price × the run's length, from 0 to the end
    /// of its last slot (every slot until the last job finishes, or the horizon).
    pub run_usd: f64,
    /// Each job's cost, in the run's job order ([`job_costs`](crate::job_costs)).
    pub jobs_usd: Vec<f64>,
    /// The mean of `jobs_usd` over the jobs that ran (`null`: none ran).
    pub mean_job_usd: Option<f64>,
}

/// A policy's decisions over a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionStats {
    /// Decisions made (one per tick with an active job).
    pub decisions: u64,
    /// Decisions proven optimal for their problem (Sia's; 0 for a policy that proves
    /// nothing).
    pub proven: u64,
    /// Each decision's time, ms (`None`: not timed).
    pub decision_ms: Option<Spread>,
    /// GPU-hours allocated: each tick's allocated GPUs of the unfinished jobs × the tick
    /// (a job's restarts and the rest of the tick it finishes in included, as the Sia
    /// artifact counts them).
    pub allocated_gpu_hours: f64,
    /// Mean over the ticks of the jobs arrived and unfinished (running or waiting).
    pub contention_mean: f64,
    /// The most at once.
    pub contention_max: u64,
}

/// The median, 95th percentile (nearest rank) and largest of some values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The 95th percentile.
    pub p95: f64,
    /// The largest.
    pub max: f64,
}

/// One job's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRun {
    /// The job's id.
    pub id: String,
    /// When it arrived, s.
    pub arrival_s: f64,
    /// When its first segment began (after its restart time), s; `None` if it never ran.
    pub first_start_s: Option<f64>,
    /// When it completed its iterations, s; `None` if unfinished at the horizon.
    pub completion_s: Option<f64>,
    /// `completion_s − arrival_s`.
    pub jct_s: Option<f64>,
    /// μ(π(JCT)); 0 if unfinished.
    pub utility: f64,
    /// Segments after the first (each cost a restart).
    pub restarts: u64,
    /// Maximal runs at one allocation and placement, in time order.
    pub segments: Vec<Segment>,
    /// Why the job is waiting at the end of the run, or waited longest (the page's "why is
    /// job X waiting"); `None` for a job that never waited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
}

/// A maximal run of a job at one allocation (and placement, on machines).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// When progress starts: the slot's start plus the restart time, s.
    pub start_s: f64,
    /// When it ends: the end of its last slot, or the job's completion, s.
    pub end_s: f64,
    /// Workers.
    pub workers: u64,
    /// Parameter servers.
    pub ps: u64,
    /// On machines: where its tasks are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Vec<PlacedShare>>,
    /// ρ of that placement (1 on a pool): one iteration takes `T(w, p, ρ) / E`.
    pub locality_factor: f64,
    /// Iterations completed in the segment, `(end − start)·E / (T(w, p, ρ)·slowdown)`.
    pub iterations: f64,
    /// With GPU sharing: the job's slowdown from its co-runners (MODEL §18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowdown: Option<f64>,
    /// The segment continues the previous one at another slowdown (a co-runner came or
    /// went): it starts at the slot boundary and cost no restart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continues: bool,
}

/// The resources in use during one slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlotUse {
    /// The slot's start, s.
    pub start_s: f64,
    /// Σ demand of the jobs running in it (with GPU sharing, `gpu` is the GPUs in use).
    pub used: Resources,
    /// With GPU sharing and [`crate::Options::gpus`]: every shared GPU and its occupants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpus: Option<Vec<smd_core::plan::SharedGpu>>,
}

/// GPU sharing over a run (docs/MODEL.md §18).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharingMetrics {
    /// GPU-hours in use: Σ over slots of the GPUs in use × the slot's length.
    pub gpu_hours: f64,
    /// GPU-hours the same workers would have used without sharing.
    pub exclusive_gpu_hours: f64,
    /// Mean of 1/slowdown over the shared workers' slots.
    pub mean_performance: f64,
}

/// A run's summary (CLUSTER.md §4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Σ utility of the jobs that finished.
    pub total_utility: f64,
    /// The upper bound of policy `bound` on the same scenario.
    pub bound: f64,
    /// Mean JCT of the finished jobs, s (`None`: none finished).
    pub mean_jct_s: Option<f64>,
    /// Median JCT, s.
    pub median_jct_s: Option<f64>,
    /// 95th percentile JCT (nearest rank), s.
    pub p95_jct_s: Option<f64>,
    /// Last completion, s.
    pub makespan_s: Option<f64>,
    /// Mean of first start − arrival over the jobs that started, s.
    pub mean_queue_s: Option<f64>,
    /// 95th percentile (nearest rank) of first start − arrival over the jobs that
    /// started, s.
    #[serde(default)]
    pub p95_queue_s: Option<f64>,
    /// Σ restarts.
    pub restarts: u64,
    /// Gigabits moved across machines over the run: Σ over segments of X·iterations.
    pub cross_traffic_gbit: f64,
    /// Jobs not finished at the horizon.
    pub unfinished: usize,
    /// With GPU sharing on: GPU-hours against the exclusive count, performance kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<SharingMetrics>,
}

impl Metrics {
    /// The metrics of `jobs`, with `bound` and the cross traffic given.
    pub(crate) fn of(
        jobs: &[JobRun],
        bound: f64,
        cross_traffic_gbit: f64,
        sharing: Option<SharingMetrics>,
    ) -> Metrics {
        let mut jct: Vec<f64> = jobs.iter().filter_map(|j| j.jct_s).collect();
        jct.sort_by(f64::total_cmp);
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        // Nearest rank over sorted values: the smallest value with at least q of the values
        // at or below it.
        let rank = |v: &[f64], q: f64| {
            (!v.is_empty()).then(|| {
                let k = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
                v[k - 1]
            })
        };
        let queue: Vec<f64> = jobs
            .iter()
            .filter_map(|j| j.first_start_s.map(|s| s - j.arrival_s))
            .collect();
        // Sorted apart: the mean sums in job order, as it always has.
        let mut queue_sorted = queue.clone();
        queue_sorted.sort_by(f64::total_cmp);
        // `+ 0.0`: an empty f64 sum is -0.0, which would print as "-0.0" (issue 23).
        Metrics {
            total_utility: jobs.iter().map(|j| j.utility).sum::<f64>() + 0.0,
            bound: bound + 0.0,
            mean_jct_s: mean(&jct),
            median_jct_s: rank(&jct, 0.5),
            p95_jct_s: rank(&jct, 0.95),
            makespan_s: jobs.iter().filter_map(|j| j.completion_s).reduce(f64::max),
            mean_queue_s: mean(&queue),
            p95_queue_s: rank(&queue_sorted, 0.95),
            restarts: jobs.iter().map(|j| j.restarts).sum(),
            cross_traffic_gbit,
            unfinished: jobs.iter().filter(|j| j.completion_s.is_none()).count(),
            sharing,
        }
    }
}

/// An unfinished job's reason: the horizon `h` (s) cut it while it ran, `done` % done.
pub(crate) fn cut_while_running(h: f64, done: f64) -> String {
    format!("cut by the horizon ({h} s) while running, {done:.1}% done")
}

/// An unfinished job's reason: the horizon `h` (s) came before it ran.
pub(crate) fn horizon_before_it_ran(h: f64) -> String {
    format!("the horizon ({h} s) came before it ran")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str, completion: f64, utility: f64, waiting: Option<&str>) -> JobRun {
        JobRun {
            id: id.into(),
            arrival_s: 0.0,
            first_start_s: Some(0.0),
            completion_s: Some(completion),
            jct_s: Some(completion),
            utility,
            restarts: 0,
            segments: Vec::new(),
            waiting: waiting.map(Into::into),
        }
    }

    /// Refused jobs are those whose last wait is oasis' refusal; the admitted ones' last
    /// completion is apart from the run's.
    #[test]
    fn refusals_count_the_jobs_oasis_did_not_admit() {
        let jobs = vec![
            job("a", 100.0, 1.0, None),
            job(
                "b",
                900.0,
                0.0,
                Some("not admitted by oasis: price too high (best payoff -1.175 ≤ 0)"),
            ),
            job("c", 300.0, 1.0, Some("reserved from 60 s")),
            job(
                "d",
                500.0,
                0.25,
                Some("not admitted by oasis: no schedule fits within 8 slots"),
            ),
        ];
        let run = Run {
            policy: SimPolicy::Oasis,
            metrics: Metrics::of(&jobs, 3.0, 0.0, None),
            jobs,
            slots: Vec::new(),
            slot_s: 300.0,
            stats: None,
            cost: None,
        };
        assert_eq!(
            run.refusals(),
            Some(Refusals {
                jobs: 2,
                utility: 0.25,
                admitted_makespan_s: Some(300.0)
            })
        );
        assert_eq!(run.metrics.makespan_s, Some(900.0));
        let none = Run {
            jobs: run.jobs[..1].to_vec(),
            ..run
        };
        assert_eq!(none.refusals(), None);
    }
}
