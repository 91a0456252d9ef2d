//! The GPU sharing stage, the pipeline's last (docs/MODEL.md §18: planning with
//! `params.gpu_sharing` on). Admission sees
//! each shareable worker's *effective* GPU demand — a conservative additive share of a GPU,
//! `g = max((μ + z·σ)/M, u)` clamped to [1/64, 1] — instead of its whole GPU; the placement
//! stage puts the tasks on machines with those fractional GPUs; then the shareable workers
//! of each machine are packed on its GPUs for real (what the non-shareable workers leave),
//! and jobs are dropped (`"not placed: …"`), last admitted first, until every machine's
//! packing fits. Each job's T is multiplied by its slowdown (sync: the largest of its
//! workers' GPUs, async: the mean) and the totals are re-derived.

use crate::share::{job_slowdown, normal_quantile, pack, rules_of, worker_of, Rules, Worker};
use crate::totals::rederive_totals;
use smd_core::model::JobModel;
use smd_core::plan::{Reason, SharedGpu, SharingSummary, WorkerRef};
use smd_core::scenario::GpuSharing;
use smd_core::sharing::{effective, shareable};
use smd_core::{Error, Plan, Scenario};

/// The GPU sharing stage of a scenario with `params.gpu_sharing` on (docs/MODEL.md §18).
pub(crate) struct SharingStage {
    /// The packing algorithm.
    algorithm: GpuSharing,
    /// The scenario's sharing rules.
    rules: Rules,
    /// The scenario admission and placement see: each shareable worker at its effective
    /// share of a GPU.
    pub effective: Scenario,
}

impl SharingStage {
    /// The stage of `scenario`, `None` when GPU sharing is off.
    pub fn of(scenario: &Scenario) -> Option<SharingStage> {
        let algorithm = scenario.params.gpu_sharing?;
        if algorithm == GpuSharing::Off {
            return None;
        }
        let rules = rules_of(scenario);
        let z = normal_quantile(1.0 - rules.collision_prob);
        let effective = effective(scenario, &rules, z);
        Some(SharingStage {
            algorithm,
            rules,
            effective,
        })
    }

    /// Shares GPUs in `plan`, a plan of the effective scenario admitted and placed: packs
    /// each site's workers, dropping jobs (last admitted first) until every packing fits,
    /// then each job's slowdown, T and utility, the totals and the sharing summary.
    pub fn share(&self, scenario: &Scenario, mut plan: Plan) -> Result<Plan, Error> {
        let (algorithm, rules, eff) = (self.algorithm, &self.rules, &self.effective);
        // Each "site" is a machine (or the pool) with its GPUs.
        let sites = crate::share::gpu_sites(scenario);
        let packed = loop {
            match pack_sites(scenario, &plan, &sites, rules, algorithm)? {
                Ok(p) => break p,
                Err((job, site)) => {
                    let line = &mut plan.jobs[job];
                    line.admitted = false;
                    line.placement = None;
                    line.reason = Some(Reason::NotPlaced(format!(
                        "GPU sharing: the GPUs of {site} cannot hold its workers beside the others"
                    )));
                }
            }
        };
        slow_down(scenario, &packed, &mut plan);
        let eff_models: Vec<JobModel> = eff
            .jobs
            .iter()
            .map(|j| JobModel::of(j, &eff.cluster, eff.params.time_unit_s))
            .collect();
        rederive_totals(&eff_models, &mut plan);
        summarise(algorithm, packed, &mut plan);
        Ok(plan)
    }
}

/// Each admitted job's slowdown from its packed workers' (MODEL §18), its T, π and μ.
fn slow_down(scenario: &Scenario, packed: &Packed, plan: &mut Plan) {
    let models: Vec<JobModel> = scenario
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &scenario.cluster, scenario.params.time_unit_s))
        .collect();
    let mut per_job: Vec<Vec<f64>> = vec![Vec::new(); scenario.jobs.len()];
    for (job, s) in &packed.worker_slowdowns {
        per_job[*job].push(*s);
    }
    for (i, line) in plan.jobs.iter_mut().enumerate() {
        if !line.admitted || per_job[i].is_empty() {
            continue;
        }
        let slowdown = job_slowdown(scenario.jobs[i].mode, &per_job[i]);
        let m = &models[i];
        if let Some(t) = line.completion_time_s.as_mut() {
            *t *= slowdown;
            line.completion_time = Some(m.pi(*t));
            line.utility = m.mu(m.pi(*t));
        }
        line.slowdown = Some(slowdown);
    }
}

/// The GPUs really in use (the shared ones plus the whole GPUs of the others), the count
/// of jobs not placed, and the plan's sharing summary.
fn summarise(algorithm: GpuSharing, packed: Packed, plan: &mut Plan) {
    let mut used = plan.resources.used;
    used.gpu = packed.gpus.len() as f64 + packed.exclusive_whole_gpus;
    plan.resources.used = used;
    if let Some(p) = plan.placement.as_mut() {
        p.not_placed = plan
            .jobs
            .iter()
            .filter(|l| matches!(l.reason, Some(Reason::NotPlaced(_))))
            .count();
    }
    let workers = packed.worker_slowdowns.len();
    plan.sharing = Some(SharingSummary {
        algorithm,
        gpus_used: packed.gpus.len(),
        exclusive_gpus: workers,
        mean_performance: if workers > 0 {
            packed
                .worker_slowdowns
                .iter()
                .map(|(_, s)| 1.0 / s)
                .sum::<f64>()
                / workers as f64
        } else {
            1.0
        },
        gpus: packed.gpus,
        alone: packed.alone,
    });
}

/// The packing of every site.
struct Packed {
    gpus: Vec<SharedGpu>,
    /// (job, slowdown) per packed worker.
    worker_slowdowns: Vec<(usize, f64)>,
    /// Whole GPUs of the non-shareable admitted workers (and of those too big to share).
    exclusive_whole_gpus: f64,
    /// Shareable workers that break the memory rule even alone.
    alone: usize,
}

/// Packs each site's shareable workers on the GPUs its other workers leave; `Err((job,
/// site))` names the last admitted shareable job of the first site that does not fit.
#[allow(clippy::type_complexity)]
fn pack_sites(
    s: &Scenario,
    plan: &Plan,
    sites: &[(String, f64)],
    rules: &Rules,
    algorithm: GpuSharing,
) -> Result<Result<Packed, (usize, String)>, Error> {
    let index = |name: &str| sites.iter().position(|(n, _)| n == name);
    let mut workers: Vec<Vec<Worker>> = vec![Vec::new(); sites.len()];
    let mut whole = vec![0.0; sites.len()];
    let mut next_index = vec![0u32; s.jobs.len()];
    for (i, (job, line)) in s.jobs.iter().zip(&plan.jobs).enumerate() {
        if !line.admitted {
            continue;
        }
        // Where its workers are: its placement on machines, else all on the pool.
        let shares: Vec<(usize, u64)> = match &line.placement {
            Some(sh) => sh
                .iter()
                .filter_map(|x| index(&x.machine).map(|h| (h, x.workers)))
                .collect(),
            None => vec![(0, line.workers.unwrap_or(0))],
        };
        for (h, w) in shares {
            if shareable(job) {
                for _ in 0..w {
                    workers[h].push(worker_of(job, i, next_index[i]));
                    next_index[i] += 1;
                }
            } else {
                whole[h] += w as f64 * job.worker.gpu;
            }
        }
    }
    let mut out = Packed {
        gpus: Vec::new(),
        worker_slowdowns: Vec::new(),
        exclusive_whole_gpus: whole.iter().sum(),
        alone: 0,
    };
    for (h, (name, gpus)) in sites.iter().enumerate() {
        if workers[h].is_empty() {
            continue;
        }
        let p = pack(&workers[h], rules, algorithm)?;
        // A worker whose memory breaks the rule even alone is not shared: it keeps a GPU
        // to itself, as without sharing (it ran alone on one when it was measured).
        let alone = p.unplaceable.len();
        let free = (gpus - whole[h]).max(0.0).floor() as usize;
        if p.gpus.len() + alone > free {
            let last = workers[h].iter().map(|w| w.job).max().unwrap_or(0);
            return Ok(Err((last, name.clone())));
        }
        out.exclusive_whole_gpus += alone as f64;
        out.alone += alone;
        let first = whole[h].ceil() as u32 + alone as u32;
        for (k, g) in p.gpus.iter().enumerate() {
            let members: Vec<WorkerRef> = g
                .workers
                .iter()
                .map(|&x| WorkerRef {
                    job: s.jobs[workers[h][x].job].id.clone(),
                    index: workers[h][x].index,
                })
                .collect();
            for &x in &g.workers {
                out.worker_slowdowns.push((workers[h][x].job, g.slowdown));
            }
            out.gpus.push(SharedGpu {
                machine: name.clone(),
                gpu: first + k as u32,
                slowdowns: vec![g.slowdown; members.len()],
                workers: members,
                mem_mean_gb: g.mem_mean_gb,
                mem_sd_gb: g.mem_sd_gb,
                collision_prob: g.collision_prob,
            });
        }
    }
    Ok(Ok(out))
}
