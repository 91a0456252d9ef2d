//! The rules of GPU sharing (docs/MODEL.md §18) checked on a shared plan's packing.

use smd_core::plan::SharingSummary;
use smd_core::{Plan, Scenario};

use crate::close;

/// The rules of MODEL §18 on every shared GPU, each admitted shareable worker on one GPU
/// (or alone on its own when it breaks the memory rule even alone), each job's slowdown;
/// returns the GPUs really in use.
pub(crate) fn check_sharing(
    s: &Scenario,
    plan: &Plan,
    sh: &SharingSummary,
    errs: &mut Vec<String>,
) -> f64 {
    let rules = smd_place::share::rules_of(s);
    let z = smd_place::share::normal_quantile(1.0 - rules.collision_prob);
    let n = s.jobs.len();
    let mut on_gpus = vec![0u64; n];
    let mut slow: Vec<Vec<f64>> = vec![Vec::new(); n];
    for g in &sh.gpus {
        let members: Vec<usize> = g
            .workers
            .iter()
            .filter_map(|w| s.jobs.iter().position(|j| j.id == w.job))
            .collect();
        if members.len() != g.workers.len() {
            errs.push(format!("GPU {}/{}: an unknown job", g.machine, g.gpu));
            continue;
        }
        let profile = |i: usize| {
            let w = smd_place::worker_of(&s.jobs[i], i, 0);
            (w.mem_mean_gb, w.mem_sd_gb, w.util, w.min_performance)
        };
        let mean: f64 = members.iter().map(|&i| profile(i).0).sum();
        let var: f64 = members.iter().map(|&i| profile(i).1.powi(2)).sum();
        if mean + z * var.sqrt() > rules.gpu_memory_gb * (1.0 + 1e-9) {
            errs.push(format!("GPU {}/{}: memory rule broken", g.machine, g.gpu));
        }
        let util: f64 = members.iter().map(|&i| profile(i).2).sum();
        let sd = util.max(1.0) * (1.0 + rules.share_overhead * (members.len() as f64 - 1.0));
        for (&i, &got) in members.iter().zip(&g.slowdowns) {
            if !close(got, sd) || 1.0 / sd < profile(i).3 - 1e-9 {
                errs.push(format!(
                    "GPU {}/{}: slowdown {got}, rule gives {sd}",
                    g.machine, g.gpu
                ));
            }
            on_gpus[i] += 1;
            slow[i].push(sd);
        }
    }
    let mut gpus = sh.gpus.len() as f64;
    let mut alone_workers = 0;
    for (i, (job, line)) in s.jobs.iter().zip(&plan.jobs).enumerate() {
        if !line.admitted {
            if on_gpus[i] > 0 {
                errs.push(format!("job {}: not admitted but on a shared GPU", job.id));
            }
            continue;
        }
        let w = line.workers.unwrap_or(0);
        if !smd_place::shareable(job) {
            gpus += w as f64 * job.worker.gpu;
            continue;
        }
        let alone = smd_place::worker_of(job, i, 0);
        let breaks = alone.mem_mean_gb + z * alone.mem_sd_gb > rules.gpu_memory_gb;
        let want = if breaks { 0 } else { w };
        if breaks {
            alone_workers += w as usize;
        }
        if on_gpus[i] != want {
            errs.push(format!(
                "job {}: {} of its {w} workers on shared GPUs",
                job.id, on_gpus[i]
            ));
        }
        gpus += (w - on_gpus[i].min(w)) as f64;
        let s_job = smd_place::job_slowdown(job.mode, &slow[i]);
        if !slow[i].is_empty() && !line.slowdown.is_some_and(|x| close(x, s_job)) {
            errs.push(format!(
                "job {}: slowdown {:?}, its GPUs give {s_job}",
                job.id, line.slowdown
            ));
        }
    }
    if alone_workers != sh.alone {
        errs.push(format!(
            "{} workers too big to share, the plan says {}",
            alone_workers, sh.alone
        ));
    }
    gpus
}
