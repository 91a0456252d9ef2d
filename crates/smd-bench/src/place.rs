//! The placement stage's speed (docs/PLACEMENT.md §13): 1000 admitted jobs on 250 machines,
//! every policy but `exact`, natively (`cargo run --release -p smd-bench --bin place`) and in
//! headless Chromium (`cargo test --release -p smd-bench --target wasm32-unknown-unknown
//! --test place -- --nocapture`).

use smd_apps::calibrated::LOCAL_GBPS;
use smd_core::rng::Stream;
use smd_core::scenario::{Mode, Resources};
use smd_place::{place, Job, Machine, Options, Policy};

/// One measured policy on one instance.
#[derive(Clone, Debug)]
pub struct PlaceRow {
    /// The policy.
    pub policy: Policy,
    /// Jobs in the instance.
    pub jobs: usize,
    /// Machines in the instance.
    pub machines: usize,
    /// Median wall time over the repetitions, ms.
    pub ms: f64,
    /// Jobs placed.
    pub placed: usize,
    /// Machines with a task.
    pub machines_used: usize,
    /// Σ X, gigabits per iteration.
    pub cross_traffic_gbit: f64,
    /// `exact` only: whether it proved its placement optimal.
    pub proven: Option<bool>,
}

/// Jobs in the instance.
pub const JOBS: usize = 1000;
/// Machines in the instance.
pub const MACHINES: usize = 250;

/// The instance: 125 machines like the catalog's `t4x4` (4 GPUs, 48 vCPUs, 192 GB, 900 GB,
/// 50 Gbps) and 125 like `v100x8` (8 GPUs, 96 vCPUs, 768 GB, 1800 GB, 100 Gbps), interleaved,
/// local rate as calibrated; 1000 jobs of seed 1: half GPU jobs (a worker: 1 GPU, 4 vCPUs,
/// 16 GB), half CPU jobs (6 vCPUs, 16 GB), sizes (w, p) = (1, 1) 60%, (2, 1) 20%, (4, 1) 12%,
/// (8, 2) 6%, (16, 4) 2%; a PS 4 vCPUs, 8 GB; B uniform in 5–20 Gbps; G from a 30–575 MB
/// model (the generator's range). It asks for about 76% of the GPUs, 91% of the vCPUs and
/// 83% of the NIC bandwidth: admitted in aggregate, tight per machine.
pub fn instance() -> (Vec<Machine>, Vec<Job>) {
    let machines = (0..MACHINES)
        .map(|i| {
            let (name, capacity, nic) = if i % 2 == 0 {
                ("t4x4", res(4.0, 48.0, 192.0, 900.0), 50.0)
            } else {
                ("v100x8", res(8.0, 96.0, 768.0, 1800.0), 100.0)
            };
            Machine {
                name: format!("{name}-{}", i / 2),
                capacity,
                nic_gbps: Some(nic),
                local_gbps: Some(LOCAL_GBPS),
            }
        })
        .collect();
    let mut s = Stream::new(1, 0);
    let jobs = (0..JOBS)
        .map(|i| {
            let u = s.unit();
            let (workers, ps) = match u {
                u if u < 0.60 => (1, 1),
                u if u < 0.80 => (2, 1),
                u if u < 0.92 => (4, 1),
                u if u < 0.98 => (8, 2),
                _ => (16, 4),
            };
            let gpu = s.unit() < 0.5;
            let worker_demand = if gpu {
                res(1.0, 4.0, 16.0, 10.0)
            } else {
                res(0.0, 6.0, 16.0, 10.0)
            };
            Job {
                id: format!("job-{i:04}"),
                mode: if s.unit() < 0.8 {
                    Mode::Sync
                } else {
                    Mode::Async
                },
                workers,
                ps,
                worker_demand,
                ps_demand: res(0.0, 4.0, 8.0, 10.0),
                bandwidth_gbps: s.uniform(5.0, 20.0),
                gradient_gbit: 8.0 * s.uniform(30.0, 575.0) / 1000.0,
            }
        })
        .collect();
    (machines, jobs)
}

fn res(gpu: f64, vcpu: f64, memory_gb: f64, storage_gb: f64) -> Resources {
    Resources {
        gpu,
        vcpu,
        memory_gb,
        storage_gb,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time(
    clock: &dyn Fn() -> f64,
    (machines, jobs): (&[Machine], &[Job]),
    policy: Policy,
    options: &Options,
    reps: usize,
) -> PlaceRow {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..reps.max(1) {
        let t0 = clock();
        let p = place(machines, jobs, policy, options).expect("a valid instance");
        times.push(clock() - t0);
        last = Some(p);
    }
    let p = last.expect("reps ≥ 1");
    PlaceRow {
        policy,
        jobs: jobs.len(),
        machines: machines.len(),
        ms: median(times),
        placed: p.placed(),
        machines_used: p.machines_used,
        cross_traffic_gbit: p.total_cross_traffic_gbit,
        proven: p.proven,
    }
}

/// Times every policy but `exact` on [`instance`], `reps` times each (the medians); then
/// `exact` and the others on slices of it (the first `k` jobs on the first `m` machines),
/// once each, to show how far `exact` reaches within its node limit (`options`).
pub fn run_place(clock: &dyn Fn() -> f64, reps: usize, options: &Options) -> Vec<PlaceRow> {
    let (machines, jobs) = instance();
    let mut rows: Vec<PlaceRow> = smd_place::HEURISTICS
        .iter()
        .map(|&policy| time(clock, (&machines, &jobs), policy, options, reps))
        .collect();
    for (k, m) in EXACT_SLICES {
        for policy in Policy::ALL {
            let slice = (&machines[..m], &jobs[..k]);
            rows.push(time(clock, slice, policy, options, 1));
        }
    }
    rows
}

/// (jobs, machines) of the slices `exact` is measured on.
pub const EXACT_SLICES: [(usize, usize); 4] = [(6, 4), (16, 8), (32, 16), (64, 32)];

/// The rows as a Markdown table.
pub fn place_table(rows: &[PlaceRow], column: &str) -> String {
    let mut out = format!(
        "| policy | jobs | machines | {column} ms | placed | machines used | Σ X Gbit | proven |\n|---|---:|---:|---:|---:|---:|---:|---|\n"
    );
    for r in rows {
        let proven = match r.proven {
            Some(true) => "yes",
            Some(false) => "no",
            None => "",
        };
        out += &format!(
            "| {} | {} | {} | {:.1} | {} | {} | {:.1} | {} |\n",
            r.policy,
            r.jobs,
            r.machines,
            r.ms,
            r.placed,
            r.machines_used,
            r.cross_traffic_gbit,
            proven
        );
    }
    out
}
