//! GPU sharing's packing speed (docs/MODEL.md §18, docs/BENCHMARKS.md §9): each algorithm's
//! time against the number of workers, so that its complexity is measured, not only
//! claimed (`cargo run --release -p smd-bench --bin share`).

use smd_core::rng::Stream;
use smd_place::share::{pack, Algorithm, Online, Rules, Worker};

/// n seeded workers: mean memory 0.5–6 GB, sd up to 1 GB, util 0.05–0.6, min performance
/// 0.5–0.95 (light jobs, so that several share a 16 GB GPU).
pub fn workers(n: usize, seed: u64) -> Vec<Worker> {
    let mut s = Stream::new(seed, 7);
    (0..n)
        .map(|i| Worker {
            job: i,
            index: 0,
            mem_mean_gb: s.uniform(0.5, 6.0),
            mem_sd_gb: s.uniform(0.0, 1.0),
            util: s.uniform(0.05, 0.6),
            min_performance: s.uniform(0.5, 0.95),
        })
        .collect()
}

/// One measured packing.
#[derive(Clone, Debug)]
pub struct ShareRow {
    /// The algorithm (`online`: every worker arrives, then half depart).
    pub algorithm: &'static str,
    /// Workers.
    pub n: usize,
    /// Wall time, ms.
    pub ms: f64,
    /// GPUs used.
    pub gpus: usize,
    /// `exact` only: proven.
    pub proven: Option<bool>,
}

/// Every algorithm on `sizes` workers (`exact` only up to 14), timed with `clock` (ms).
pub fn run_share(clock: &dyn Fn() -> f64, sizes: &[usize]) -> Vec<ShareRow> {
    let rules = Rules::default();
    let mut rows = Vec::new();
    for &n in sizes {
        let ws = workers(n, 1);
        for (name, a) in [
            ("greedy", Algorithm::Greedy),
            ("heuristic", Algorithm::Heuristic),
            ("exact", Algorithm::Exact),
        ] {
            if a == Algorithm::Exact && n > 14 {
                continue;
            }
            let t0 = clock();
            let p = pack(&ws, &rules, a).expect("valid workers");
            rows.push(ShareRow {
                algorithm: name,
                n,
                ms: clock() - t0,
                gpus: p.gpus.len(),
                proven: p.proven,
            });
        }
        let t0 = clock();
        let mut o = Online::new(rules).expect("valid rules");
        let ids: Vec<Option<usize>> = ws.iter().map(|w| o.arrive(*w).expect("valid")).collect();
        for id in ids.iter().step_by(2).flatten() {
            o.depart(*id);
        }
        rows.push(ShareRow {
            algorithm: "online",
            n,
            ms: clock() - t0,
            gpus: o.packing().gpus.len(),
            proven: None,
        });
    }
    rows
}

/// The rows as a Markdown table with the time ratio to the previous size of the same
/// algorithm (the measured growth).
pub fn share_table(rows: &[ShareRow]) -> String {
    let mut out = String::from(
        "| algorithm | workers | ms | × previous size | GPUs | proven |\n|---|---:|---:|---:|---:|---|\n",
    );
    for (k, r) in rows.iter().enumerate() {
        let prev = rows[..k].iter().rev().find(|p| p.algorithm == r.algorithm);
        let growth = match prev {
            Some(p) if p.ms > 0.0 => {
                format!("{:.1} (n ×{:.0})", r.ms / p.ms, r.n as f64 / p.n as f64)
            }
            _ => String::new(),
        };
        let proven = match r.proven {
            Some(true) => "yes",
            Some(false) => "no",
            None => "",
        };
        out += &format!(
            "| {} | {} | {:.2} | {} | {} | {} |\n",
            r.algorithm, r.n, r.ms, growth, r.gpus, proven
        );
    }
    out
}

/// One simulation of the sharing benchmark.
#[derive(Clone, Debug)]
pub struct SimShareRow {
    /// "presets" (the trace's estimated profiles) or "light" (every job 2 ± 0.5 GB, u 0.2).
    pub profiles: &'static str,
    /// The sharing algorithm (`off` or `heuristic`).
    pub sharing: smd_core::scenario::GpuSharing,
    /// The policy.
    pub policy: smd_sim::SimPolicy,
    /// Wall time, ms.
    pub ms: f64,
    /// Total utility.
    pub total_utility: f64,
    /// GPU-hours in use and exclusive (sharing on), or GPU-hours of the demand (off).
    pub gpu_hours: (f64, f64),
}

/// The simulation benchmark's headline case (workload-1 on 16 × t4x4, 10-minute slots)
/// with sharing off and on, with the presets' profiles and with light ones, every policy
/// over time but `bound`.
pub fn run_sim_sharing(clock: &dyn Fn() -> f64) -> Vec<SimShareRow> {
    use smd_core::scenario::GpuSharing;
    let base = crate::sim::instance(crate::sim::CASES[0]);
    let mut rows = Vec::new();
    for profiles in ["presets", "light"] {
        for sharing in [GpuSharing::Off, GpuSharing::Heuristic] {
            let mut s = base.clone();
            s.params.gpu_sharing = Some(sharing);
            if profiles == "light" {
                for j in &mut s.jobs {
                    j.gpu_mem_mean_gb = Some(2.0);
                    j.gpu_mem_sd_gb = Some(0.5);
                    j.gpu_util = Some(0.2);
                }
            }
            let delta_h = s.params.interval_s.unwrap_or(600.0) / 3600.0;
            for policy in smd_sim::SimPolicy::all_for(&s) {
                if policy == smd_sim::SimPolicy::Bound {
                    continue;
                }
                let t0 = clock();
                let run = smd_sim::simulate(&s, policy, &mut smd_sim::Options::default())
                    .expect("the runs succeed");
                let ms = clock() - t0;
                let gpu_hours = match &run.metrics.sharing {
                    Some(m) => (m.gpu_hours, m.exclusive_gpu_hours),
                    None => {
                        let h: f64 = run.slots.iter().map(|x| x.used.gpu * delta_h).sum();
                        (h, h)
                    }
                };
                rows.push(SimShareRow {
                    profiles,
                    sharing,
                    policy,
                    ms,
                    total_utility: run.metrics.total_utility,
                    gpu_hours,
                });
            }
        }
    }
    rows
}

/// The rows as a Markdown table.
pub fn sim_share_table(rows: &[SimShareRow]) -> String {
    let mut out = String::from(
        "| profiles | sharing | policy | ms | total utility | GPU-hours | exclusive GPU-hours |\n|---|---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {:.0} | {:.1} | {:.1} | {:.1} |\n",
            r.profiles, r.sharing, r.policy, r.ms, r.total_utility, r.gpu_hours.0, r.gpu_hours.1
        );
    }
    out
}
