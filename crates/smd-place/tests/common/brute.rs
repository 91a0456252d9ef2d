//! An independent reference for `exact` (docs/PLACEMENT.md §12): every assignment of every
//! task to every machine. Written without `smd_place`'s code; shared by the integration tests
//! (through `common`) and `src/exact/tests.rs` (through `#[path]`), which is why it names
//! `Job` and `Machine` through `super`.
#![allow(dead_code)]

use super::{Job, Machine};
use smd_core::scenario::Resources;

pub fn arr(r: Resources) -> [f64; 4] {
    [r.gpu, r.vcpu, r.memory_gb, r.storage_gb]
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// X written out from CLUSTER.md §3, for shares `(machine, w_h, p_h)`.
pub fn cross(job: &Job, shares: &[(usize, u32, u32)]) -> f64 {
    if job.ps == 0 {
        return 0.0;
    }
    let (w, p) = (job.workers as f64, job.ps as f64);
    let local: f64 = shares.iter().map(|&(_, a, b)| a as f64 * b as f64).sum();
    2.0 * job.gradient_gbit / p * (w * p - local)
}

/// The best (placed, Σ X, machines used) over every assignment of every task of every job
/// to every machine, each job placed whole or not at all — written without `smd_place`'s
/// code: loads summed job by job (`w_h·O^w + p_h·O^p`, CLUSTER.md §2), X from CLUSTER.md §3.
pub fn brute_force(machines: &[Machine], jobs: &[Job]) -> (usize, f64, usize) {
    struct Best(Option<(usize, f64, usize)>);
    fn better(a: (usize, f64, usize), b: (usize, f64, usize)) -> bool {
        if a.0 != b.0 {
            return a.0 > b.0;
        }
        if !close(a.1, b.1) {
            return a.1 < b.1;
        }
        a.2 < b.2
    }
    fn go(
        machines: &[Machine],
        jobs: &[Job],
        j: usize,
        load: &mut Vec<[f64; 5]>,
        used: &mut Vec<bool>,
        acc: (usize, f64),
        best: &mut Best,
    ) {
        if j == jobs.len() {
            let v = (acc.0, acc.1, used.iter().filter(|&&u| u).count());
            if best.0.is_none_or(|b| better(v, b)) {
                best.0 = Some(v);
            }
            return;
        }
        // Leave job j out.
        go(machines, jobs, j + 1, load, used, acc, best);
        let job = &jobs[j];
        let tasks = (job.workers + job.ps) as usize;
        let m = machines.len();
        if m == 0 && tasks > 0 {
            return;
        }
        let combos = if tasks == 0 { 1 } else { m.pow(tasks as u32) };
        for code in 0..combos {
            // Task t (workers first, then PSs) goes to machine (code / m^t) % m.
            let mut counts = vec![(0u32, 0u32); m];
            let mut c = code;
            for t in 0..tasks {
                let h = c % m;
                c /= m;
                if t < job.workers as usize {
                    counts[h].0 += 1;
                } else {
                    counts[h].1 += 1;
                }
            }
            let (dw, dp) = (arr(job.worker_demand), arr(job.ps_demand));
            let mut next = load.clone();
            let mut ok = true;
            for h in 0..m {
                let (a, b) = (counts[h].0 as f64, counts[h].1 as f64);
                let cap = arr(machines[h].capacity);
                for r in 0..4 {
                    next[h][r] += a * dw[r] + b * dp[r];
                    ok &= next[h][r] <= cap[r] + 1e-9 * cap[r];
                }
                next[h][4] += b * job.bandwidth_gbps;
                if let Some(n) = machines[h].nic_gbps {
                    ok &= next[h][4] <= n + 1e-9 * n;
                }
            }
            if !ok {
                continue;
            }
            let shares: Vec<(usize, u32, u32)> =
                (0..m).map(|h| (h, counts[h].0, counts[h].1)).collect();
            let mut now_used = used.clone();
            for h in 0..m {
                now_used[h] |= counts[h].0 + counts[h].1 > 0;
            }
            let mut next_used = now_used;
            go(
                machines,
                jobs,
                j + 1,
                &mut next,
                &mut next_used,
                (acc.0 + 1, acc.1 + cross(job, &shares)),
                best,
            );
        }
    }
    let mut best = Best(None);
    let m = machines.len();
    go(
        machines,
        jobs,
        0,
        &mut vec![[0.0; 5]; m],
        &mut vec![false; m],
        (0, 0.0),
        &mut best,
    );
    best.0.expect("leaving every job out is a placement")
}
