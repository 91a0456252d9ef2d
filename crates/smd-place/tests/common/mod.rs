//! Shared by the integration tests: random instances, and the independent check of a
//! placement (docs/PLACEMENT.md §12).
#![allow(dead_code)]

use proptest::prelude::*;
use smd_core::scenario::{Mode, Resources};
use smd_place::{Job, Machine, Outcome, Placement, TOLERANCE};

pub mod brute;
#[allow(unused_imports)]
pub use brute::{arr, brute_force, close, cross};

pub fn res(gpu: f64, vcpu: f64, memory_gb: f64, storage_gb: f64) -> Resources {
    Resources {
        gpu,
        vcpu,
        memory_gb,
        storage_gb,
    }
}

pub fn machine(name: &str, capacity: Resources) -> Machine {
    Machine::new(name, capacity)
}

pub fn job(id: &str, workers: u32, ps: u32, worker: Resources, ps_demand: Resources) -> Job {
    Job {
        id: id.into(),
        mode: Mode::Sync,
        workers,
        ps,
        worker_demand: worker,
        ps_demand,
        bandwidth_gbps: 10.0,
        gradient_gbit: 1.0,
    }
}

/// Machine types: dyadic numbers (sums are exact), including a machine with nothing, a
/// GPU-less one, NIC limits and local rates that differ.
pub fn machine_strategy() -> impl Strategy<Value = Machine> {
    (
        prop::sample::select(vec![0.0, 1.0, 2.0, 4.0, 8.0]),
        prop::sample::select(vec![0.0, 4.0, 8.0, 16.0]),
        prop::sample::select(vec![8.0, 32.0, 64.0]),
        prop::option::of(prop::sample::select(vec![0.0, 10.0, 20.0, 40.0])),
        prop::option::of(prop::sample::select(vec![20.0, 40.0, 80.0])),
    )
        .prop_map(|(gpu, vcpu, mem, nic_gbps, local_gbps)| Machine {
            name: format!("m{gpu}-{vcpu}"),
            capacity: res(gpu, vcpu, mem, 100.0),
            nic_gbps,
            local_gbps,
        })
}

pub fn job_strategy(max_workers: u32, max_ps: u32) -> impl Strategy<Value = Job> {
    (
        0..=max_workers,
        0..=max_ps,
        prop::sample::select(vec![0.0, 0.5, 1.0, 2.0]),
        prop::sample::select(vec![0.0, 1.0, 2.0, 4.0]),
        prop::sample::select(vec![0.0, 2.0, 8.0]),
        prop::sample::select(vec![0.0, 1.0, 4.0]),
        prop::sample::select(vec![0.0, 5.0, 10.0, 20.0]),
        prop::sample::select(vec![0.0, 0.5, 1.0, 3.0]),
        prop::bool::ANY,
    )
        .prop_map(|(w, p, wg, wc, wm, pc, b, g, sync)| Job {
            id: format!("j{w}-{p}"),
            mode: if sync { Mode::Sync } else { Mode::Async },
            workers: w,
            ps: p,
            worker_demand: res(wg, wc, wm, 1.0),
            ps_demand: res(0.0, pc, wm / 2.0, 1.0),
            bandwidth_gbps: b,
            gradient_gbit: g,
        })
}

/// ρ written out from CLUSTER.md §3 with each machine's own β (docs/PLACEMENT.md §4).
pub fn rho(machines: &[Machine], job: &Job, shares: &[(usize, u32, u32)]) -> f64 {
    let (w, p) = (job.workers as f64, job.ps as f64);
    if w == 0.0 || p == 0.0 {
        return 1.0;
    }
    let mut rho = f64::NEG_INFINITY;
    for &(h, wh, ph) in shares {
        let beta = match machines[h].local_gbps {
            Some(l) => job.bandwidth_gbps / l,
            None => 0.0,
        };
        let (wh, ph) = (wh as f64, ph as f64);
        match job.mode {
            Mode::Sync if ph > 0.0 => rho = rho.max(((w - wh) + beta * wh) / w),
            Mode::Async if wh > 0.0 => rho = rho.max(((p - ph) + beta * ph) / p),
            _ => {}
        }
    }
    rho
}

/// Every rule of CLUSTER.md §2–§3, re-derived from the shares alone: each machine's load
/// (summed job by job in order, `w·O^w + p·O^p`, as docs/PLACEMENT.md §3 states) within its
/// capacity and NIC; shares sum to (w, p); ρ and X; the totals; not-placed jobs take
/// nothing and say why.
pub fn check(machines: &[Machine], jobs: &[Job], pl: &Placement) {
    assert_eq!(pl.jobs.len(), jobs.len());
    assert_eq!(pl.used.len(), machines.len());
    assert_eq!(pl.nic_used_gbps.len(), machines.len());
    let m = machines.len();
    let mut load = vec![[0.0f64; 4]; m];
    let mut nic = vec![0.0f64; m];
    let mut occupied = vec![false; m];
    let mut total = 0.0;
    for (job, outcome) in jobs.iter().zip(&pl.jobs) {
        match outcome {
            Outcome::Placed(p) => {
                let shares: Vec<(usize, u32, u32)> = p
                    .shares
                    .iter()
                    .map(|s| (s.machine, s.workers, s.ps))
                    .collect();
                assert!(
                    shares.windows(2).all(|s| s[0].0 < s[1].0),
                    "by machine, once each"
                );
                assert!(
                    shares.iter().all(|s| s.0 < m && s.1 + s.2 > 0),
                    "{shares:?}"
                );
                let w: u64 = shares.iter().map(|s| s.1 as u64).sum();
                let q: u64 = shares.iter().map(|s| s.2 as u64).sum();
                assert_eq!((w, q), (job.workers as u64, job.ps as u64), "{}", job.id);
                let (dw, dp) = (arr(job.worker_demand), arr(job.ps_demand));
                for &(h, a, b) in &shares {
                    for r in 0..4 {
                        load[h][r] += a as f64 * dw[r] + b as f64 * dp[r];
                    }
                    nic[h] += a as f64 * 0.0 + b as f64 * job.bandwidth_gbps;
                    occupied[h] = true;
                }
                let x = cross(job, &shares);
                assert!(
                    close(p.cross_traffic_gbit, x),
                    "X {} vs {x}",
                    p.cross_traffic_gbit
                );
                let want = rho(machines, job, &shares);
                assert!(
                    close(p.locality_factor, want),
                    "ρ {} vs {want}",
                    p.locality_factor
                );
                if !shares.iter().any(|s| s.1 > 0 && s.2 > 0) {
                    assert_eq!(p.locality_factor, 1.0, "no worker beside a PS: ρ = 1");
                }
                total += x;
            }
            Outcome::NotPlaced(why) => {
                // The text after "not placed: " (smd_core::plan::Reason::NotPlaced).
                assert!(!why.is_empty() && !why.starts_with("not placed"), "{why}");
            }
        }
    }
    for h in 0..m {
        let cap = arr(machines[h].capacity);
        for r in 0..4 {
            assert!(
                load[h][r] <= cap[r] + TOLERANCE * cap[r],
                "machine {h} resource {r}: {} > {}",
                load[h][r],
                cap[r]
            );
        }
        if let Some(n) = machines[h].nic_gbps {
            assert!(
                nic[h] <= n + TOLERANCE * n,
                "machine {h} NIC {} > {n}",
                nic[h]
            );
        }
        // What the placement reports is the same sum.
        assert_eq!(arr(pl.used[h]), load[h], "machine {h}");
        assert_eq!(pl.nic_used_gbps[h], nic[h], "machine {h}");
    }
    assert!(close(pl.total_cross_traffic_gbit, total));
    assert_eq!(pl.machines_used, occupied.iter().filter(|&&o| o).count());
}

/// (placed, Σ X, machines used): exact's order (docs/PLACEMENT.md §10), compared with the
/// tolerance of `close`. `Less` is better.
pub fn compare(a: &Placement, b: &Placement) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (pa, pb) = (a.placed(), b.placed());
    if pa != pb {
        return pb.cmp(&pa);
    }
    let (xa, xb) = (a.total_cross_traffic_gbit, b.total_cross_traffic_gbit);
    if !close(xa, xb) {
        return xa.total_cmp(&xb);
    }
    let _ = Ordering::Equal;
    a.machines_used.cmp(&b.machines_used)
}
