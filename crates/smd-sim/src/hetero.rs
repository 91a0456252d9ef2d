//! The heterogeneity-aware policies over time (docs/MODEL.md §24): a scenario's measured
//! jobs on its machine groups, each group's GPUs at their type's measured speed, run by
//! `smd-hetero`'s loop (the Sia artifact's time semantics); the run comes back in the
//! over-time output's shape, with the policy's decision times.

use crate::options::{Options, Progress, SimError, SimPolicy};
use crate::output::{DecisionStats, JobRun, Metrics, Run, Segment, SlotUse, Spread};
use smd_core::model::JobModel;
use smd_core::plan::PlacedShare;
use smd_core::scenario::Resources;
use smd_core::{Error, Scenario};
use smd_hetero::cluster::Cluster;
use smd_hetero::engine::{self, Outcome, RunError};
use smd_hetero::job::{Rules, Spec};
use smd_measured::gpu::Gpu;

/// Sia's and the unaware Pollux's tick, s (the reference's `--interval=60`).
pub const TICK_S: f64 = 60.0;
/// Gavel's round, s (the reference runs Gavel with `--interval=360`).
pub const GAVEL_ROUND_S: f64 = 360.0;

/// The cluster of `s`'s machine groups by GPU type, and each type's machine names in node
/// order; or the error saying why `policy` cannot plan it.
pub(crate) fn cluster_of(
    s: &Scenario,
    policy: SimPolicy,
) -> Result<(Cluster, Vec<Vec<String>>), Error> {
    if !s.cluster.has_machines() {
        return Err(Error::field(
            None,
            "cluster.machines",
            format!(
                "are needed: {policy} gives each job GPUs of one type on machines (a pool of \
                 units has no GPU type)"
            ),
        ));
    }
    let mut groups: Vec<(Gpu, u32)> = Vec::new();
    let mut names: Vec<(Gpu, Vec<String>)> = Vec::new();
    for g in &s.cluster.machines {
        let Some(gpu) = g.gpu_type() else {
            continue;
        };
        let per = g.capacity.gpu;
        if per != f64::from(gpu.per_node()) {
            return Err(Error::field(
                None,
                format!("cluster.machines[{}].capacity.gpu", g.name),
                format!(
                    "is {}: {policy} plans whole nodes of {} {} GPUs, as the type was measured",
                    smd_core::error::num(per),
                    gpu.per_node(),
                    gpu.label()
                ),
            ));
        }
        let count = g.count.clamp(0.0, f64::from(u32::MAX)) as u32;
        groups.push((gpu, count));
        let list = match names.iter_mut().find(|(t, _)| *t == gpu) {
            Some((_, l)) => l,
            None => {
                names.push((gpu, Vec::new()));
                &mut names.last_mut().expect("pushed").1
            }
        };
        list.extend((0..count).map(|k| format!("{}-{k}", g.name)));
    }
    let cluster = Cluster::of(&groups).map_err(|m| {
        Error::field(
            None,
            "cluster.machines",
            format!("{m}: {policy} needs GPUs"),
        )
    })?;
    let names = cluster
        .types
        .iter()
        .map(|(t, _)| {
            names
                .iter()
                .find(|(g, _)| g == t)
                .map(|(_, l)| l.clone())
                .unwrap_or_default()
        })
        .collect();
    Ok((cluster, names))
}

/// Each job of `s` as the loop takes it: its application, arrival, requested GPUs and
/// batch (the application's largest when the file leaves it free).
fn specs_of(s: &Scenario, policy: SimPolicy) -> Result<Vec<Spec>, Error> {
    s.jobs
        .iter()
        .map(|j| {
            let m = j.measured.as_ref().ok_or_else(|| {
                Error::field(
                    Some(&j.id),
                    "architecture",
                    format!(
                        "is the parameter-server kind: {policy} schedules measured all-reduce \
                         jobs only (docs/MODEL.md §24)"
                    ),
                )
            })?;
            let measured = smd_measured::measured::Measured::of(m.app)
                .map_err(|e| Error::Solver(e.to_string()))?;
            let [init, top] = measured.batch_range();
            let batch = m.batch_size.unwrap_or(top).clamp(init, top);
            let gpus = j.requested_workers.unwrap_or(1.0).clamp(1.0, 1e6) as u32;
            Ok(Spec {
                name: j.id.clone(),
                app: m.app,
                arrival_s: j.arrival_s.unwrap_or(0.0),
                gpus,
                batch,
            })
        })
        .collect()
}

/// A typed policy's input: the cluster, each type's machine names in node order, the jobs.
pub(crate) type Input = (Cluster, Vec<Vec<String>>, Vec<Spec>);

/// Whether `policy` can run `s`, with the cluster and the jobs as its loop takes them; else
/// the error saying why: it needs measured jobs on machine groups of whole measured nodes,
/// no GPU sharing (it gives each job whole GPUs), and for `gavel`, which runs each job at
/// its request, every request within some type's largest configuration.
pub(crate) fn input(s: &Scenario, policy: SimPolicy) -> Result<Input, Error> {
    if smd_core::sharing::sharing_on(s) {
        return Err(Error::field(
            None,
            "params.gpu_sharing",
            format!("is on: {policy} gives each job whole GPUs of one type; turn sharing off"),
        ));
    }
    let (cluster, names) = cluster_of(s, policy)?;
    let specs = specs_of(s, policy)?;
    if policy == SimPolicy::Gavel {
        let unplaceable = s.jobs.iter().zip(&specs).find(|(_, spec)| {
            !(0..cluster.types.len()).any(|t| smd_hetero::gavel::placeable_on(spec, &cluster, t))
        });
        if let Some((j, spec)) = unplaceable {
            let largest = cluster.configs().iter().map(|c| c.gpus).max().unwrap_or(0);
            return Err(Error::field(
                Some(&j.id),
                "requested_workers",
                format!(
                    "is {}: gavel runs each job at its request on one GPU type, and the most \
                     GPUs of one type a job may take here is {largest}",
                    spec.gpus
                ),
            ));
        }
    }
    Ok((cluster, names, specs))
}

/// Runs `s` under the heterogeneity-aware `policy`.
pub(crate) fn run(s: &Scenario, policy: SimPolicy, opts: &mut Options) -> Result<Run, SimError> {
    let (cluster, names, specs) = input(s, policy)?;
    let (interval, rules): (f64, Rules) = match policy {
        SimPolicy::Gavel => (
            GAVEL_ROUND_S,
            Rules {
                fixed_batch: true,
                merged_profile: false,
            },
        ),
        SimPolicy::PolluxUnaware => (
            TICK_S,
            Rules {
                fixed_batch: false,
                merged_profile: true,
            },
        ),
        _ => (TICK_S, Rules::default()),
    };
    let mut decide: Box<dyn engine::Policy> = match policy {
        SimPolicy::Sia => Box::new(smd_hetero::sia::Sia::new()),
        SimPolicy::Gavel => Box::new(smd_hetero::gavel::Gavel::new(GAVEL_ROUND_S)),
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
            let delay = j.measured.as_ref().map_or(0.0, |m| m.app.restart_delay_s());
            let segments: Vec<Segment> = o
                .segments
                .iter()
                .map(|st| {
                    let start = if st.restarted {
                        (st.start_s + delay).min(st.end_s)
                    } else {
                        st.start_s
                    };
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
                        start_s: start,
                        end_s: st.end_s,
                        workers: st.per_node.iter().map(|&g| u64::from(g)).sum(),
                        ps: 0,
                        placement: Some(placement),
                        locality_factor: 1.0,
                        iterations: st.share,
                        slowdown: None,
                        continues: !st.restarted,
                    }
                })
                .collect();
            let done = o.completion_s.is_finite().then_some(o.completion_s);
            let jct = done.map(|c| c - o.arrival_s);
            JobRun {
                id: j.id.clone(),
                arrival_s: o.arrival_s,
                first_start_s: segments.first().map(|g| g.start_s),
                completion_s: done,
                jct_s: jct,
                utility: jct.map_or(0.0, |t| m.mu(m.pi(t))),
                restarts: u64::from(o.restarts),
                segments,
                waiting: None,
            }
        })
        .collect();
    // No schedule beats every job finishing at once: μ(π(0)) each (a loose bound; the
    // slot loop's `bound` plans at the T4's speed, so it is not this cluster's).
    let bound: f64 = models.iter().map(|m| m.mu(m.pi(0.0))).sum();
    let slots = out
        .used
        .iter()
        .zip(&out.tick_s)
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
        stats: Some(stats),
        cost: None,
    }
}
