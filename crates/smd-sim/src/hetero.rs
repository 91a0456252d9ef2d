//! The heterogeneity-aware policies over time (docs/MODEL.md §24): a scenario's measured
//! jobs on its machine groups, each group's GPUs at their type's measured speed, run by
//! `smd-hetero`'s loop (the Sia artifact's time semantics); the run comes back in the
//! over-time output's shape, with the policy's decision times.

use crate::hetero_input::{input, GAVEL_ROUND_S, TICK_S};
use crate::options::{Options, Progress, SimError, SimPolicy};
use crate::output::{cut_while_running, horizon_before_it_ran};
use crate::output::{DecisionStats, JobRun, Metrics, Run, Segment, SlotUse, Spread};
use smd_core::model::JobModel;
use smd_core::plan::PlacedShare;
use smd_core::scenario::Resources;
use smd_core::{Error, Scenario};
use smd_hetero::engine::{self, Outcome, RunError, Stretch};
use smd_hetero::job::Rules;

/// The loop's tick under the heterogeneity-aware `policy`, s: Gavel's round, else
/// [`TICK_S`]; the run carries it as its `slot_s`.
fn interval_s(policy: SimPolicy) -> f64 {
    if policy == SimPolicy::Gavel {
        GAVEL_ROUND_S
    } else {
        TICK_S
    }
}

/// Runs `s` under the heterogeneity-aware `policy`.
pub(crate) fn run(s: &Scenario, policy: SimPolicy, opts: &mut Options) -> Result<Run, SimError> {
    let (cluster, names, specs) = input(s, &policy, policy == SimPolicy::Gavel)?;
    let interval = interval_s(policy);
    let rules = match policy {
        SimPolicy::Gavel => Rules {
            fixed_batch: true,
            merged_profile: false,
        },
        SimPolicy::PolluxUnaware => Rules {
            fixed_batch: false,
            merged_profile: true,
        },
        _ => Rules::default(),
    };
    let mut decide: Box<dyn engine::Policy> = match policy {
        SimPolicy::Sia => Box::new(smd_hetero::sia::Sia::new()),
        SimPolicy::Gavel => Box::new(smd_hetero::gavel::Gavel::new(interval)),
        SimPolicy::PolluxUnaware => Box::new(crate::policy::unaware::Unaware::new()),
        other => {
            return Err(SimError::Invalid(Error::field(
                None,
                "policy",
                format!("{other} is not a heterogeneity-aware policy"),
            )))
        }
    };
    let jobs = specs.len();
    let progress = opts.progress.as_mut();
    let mut tick = 0usize;
    let mut report = progress.map(|p| {
        move |time_s: f64, finished: usize| {
            tick += 1;
            p(Progress {
                policy,
                slots: tick,
                time_s,
                finished,
                jobs,
            })
        }
    });
    let mut eopts = engine::Options {
        clock: opts.clock,
        progress: report.as_mut().map(|r| r as &mut dyn FnMut(f64, usize)),
        cancel: opts.cancel,
        max_ticks: 0,
        horizon_s: Some(s.horizon_s()),
    };
    let out =
        engine::run(&specs, &cluster, &mut *decide, interval, rules, &mut eopts).map_err(|e| {
            match e {
                RunError::Cancelled => SimError::Cancelled,
                RunError::Invalid(m) => SimError::Invalid(Error::Solver(format!("{policy}: {m}"))),
            }
        })?;
    Ok(to_run(s, policy, &out, &names))
}

/// A job's stretches as segments on named machines. A stretch spent wholly restoring
/// (moved or preempted before its restore was done) made no progress: no segment, whose
/// start would read as progress; the others start after the checkpoint-restore left, a moved
/// restoring job's included. A segment after a restart left out pays the rest of that
/// restart's restore: it does not continue the one before.
fn segments_of(stretches: &[Stretch], names: &[Vec<String>]) -> Vec<Segment> {
    let mut restarted = false;
    stretches
        .iter()
        .filter_map(|st| {
            restarted |= st.restarted;
            let kept = st.share > 0.0 || st.start_s + st.restore_s < st.end_s;
            kept.then(|| (st, std::mem::take(&mut restarted)))
        })
        .map(|(st, restarted)| {
            let placement: Vec<PlacedShare> = st
                .per_node
                .iter()
                .enumerate()
                .filter(|(_, &g)| g > 0)
                .map(|(n, &g)| PlacedShare {
                    machine: names[st.kind].get(n).cloned().unwrap_or_default(),
                    workers: u64::from(g),
                    ps: 0,
                })
                .collect();
            Segment {
                start_s: (st.start_s + st.restore_s).min(st.end_s),
                end_s: st.end_s,
                workers: st.per_node.iter().map(|&g| u64::from(g)).sum(),
                ps: 0,
                placement: Some(placement),
                locality_factor: 1.0,
                iterations: st.share,
                slowdown: None,
                continues: !restarted,
            }
        })
        .collect()
}

/// Why a job of a typed run did not finish: only the horizon leaves one unfinished (the
/// loop runs every job that fits some type; one that fits none is refused before).
fn unfinished_reason(s: &Scenario, out: &Outcome, segments: &[Segment]) -> String {
    let h = s.horizon_s();
    let done = 100.0 * segments.iter().map(|g| g.iterations).sum::<f64>();
    let running = out
        .cut_s
        .is_some_and(|c| segments.last().is_some_and(|g| g.end_s >= c));
    if segments.is_empty() {
        horizon_before_it_ran(h)
    } else if running {
        cut_while_running(h, done)
    } else {
        format!("waiting, {done:.1}% done; then the horizon ({h} s) came")
    }
}

/// The loop's outcome as a run: jobs with their stretches as segments on named machines,
/// the GPUs in use per tick, the metrics and the decision times.
fn to_run(s: &Scenario, policy: SimPolicy, out: &Outcome, names: &[Vec<String>]) -> Run {
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let jobs: Vec<JobRun> = out
        .jobs
        .iter()
        .zip(&s.jobs)
        .zip(&models)
        .map(|((o, j), m)| {
            let segments = segments_of(&o.segments, names);
            let done = o.completion_s.is_finite().then_some(o.completion_s);
            let jct = done.map(|c| c - o.arrival_s);
            let waiting = done.is_none().then(|| unfinished_reason(s, out, &segments));
            JobRun {
                id: j.id.clone(),
                arrival_s: o.arrival_s,
                first_start_s: segments.first().map(|g| g.start_s),
                completion_s: done,
                jct_s: jct,
                utility: jct.map_or(0.0, |t| m.mu(m.pi(t))),
                restarts: u64::from(o.restarts),
                segments,
                waiting,
            }
        })
        .collect();
    // No schedule beats every job finishing at once: μ(π(0)) each (a loose bound; the
    // slot loop's `bound` plans at the T4's speed, so it is not this cluster's).
    let bound: f64 = models.iter().map(|m| m.mu(m.pi(0.0))).sum();
    // The loop records one more tick once every job has finished, with none left: the run,
    // and the cluster's rent, end with the tick before it (MODEL.md §25.1).
    let busy = out
        .contention
        .iter()
        .rposition(|&c| c > 0)
        .map_or(0, |k| k + 1);
    let slots = out
        .used
        .iter()
        .zip(&out.tick_s)
        .take(busy)
        .map(|(&g, &t)| SlotUse {
            start_s: t,
            used: Resources {
                gpu: f64::from(g),
                vcpu: 0.0,
                memory_gb: 0.0,
                storage_gb: 0.0,
            },
            gpus: None,
        })
        .collect();
    let mut ms = out.decision_ms.clone();
    ms.sort_by(f64::total_cmp);
    let rank = |q: f64| {
        let k = ((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len());
        ms[k - 1]
    };
    let ticks = (out.contention.len() as f64 + out.idle_ticks as f64).max(1.0);
    let stats = DecisionStats {
        allocated_gpu_hours: out.jobs.iter().map(|j| j.gpu_seconds).sum::<f64>() / 3600.0,
        contention_mean: out.contention.iter().map(|&c| f64::from(c)).sum::<f64>() / ticks,
        contention_max: out.contention.iter().copied().max().map_or(0, u64::from),
        decisions: out.decisions,
        proven: out.proven,
        decision_ms: (!ms.is_empty()).then(|| Spread {
            median: rank(0.5),
            p95: rank(0.95),
            max: ms[ms.len() - 1],
        }),
    };
    Run {
        policy,
        metrics: Metrics::of(&jobs, bound, 0.0, None),
        jobs,
        slots,
        slot_s: interval_s(policy),
        stats: Some(stats),
        cost: None,
    }
}
