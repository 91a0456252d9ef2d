//! docs/MODEL.md §10: the seeded workload generator, uniform over the paper's ranges (§1), one
//! random stream per job so that adding a job never changes the others.

use crate::rng::Stream;
use crate::scenario::{
    Cluster, Job, Layer, Mode, Overlap, Params, Resources, Scenario, Utility, VERSION,
};

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    /// Number of jobs I.
    pub jobs: usize,
    /// Seed.
    pub seed: u64,
    /// Mode of every job.
    pub mode: Mode,
    /// Cluster units.
    pub units: f64,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            jobs: 50,
            seed: 1,
            mode: Mode::Sync,
            units: 1.0,
        }
    }
}

/// Rounds to 2 decimals: readable files, and the value written is the value used.
fn r2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Generates a scenario with default parameters (ε = 0.01, q = 2, M_δ = 1, relative unit).
pub fn generate(opts: &GenerateOptions) -> Scenario {
    let jobs = (0..opts.jobs)
        .map(|i| job(opts.seed, i, opts.mode))
        .collect();
    Scenario {
        version: VERSION,
        cluster: Cluster {
            units: opts.units,
            ..Cluster::default()
        },
        params: Params {
            seed: opts.seed,
            ..Params::default()
        },
        jobs,
    }
}

/// Job number `i` (0-based) of `seed`.
pub fn job(seed: u64, i: usize, mode: Mode) -> Job {
    let mut s = Stream::new(seed, i as u64);
    let iterations = s.int(50, 200) as f64;
    let model_size_mb = r2(s.uniform(30.0, 575.0));
    let m = s.int(10, 100);
    let global_batch = (m * s.int(1, 100)) as f64;
    let n = s.int(10, 100) as usize;
    let layers = (0..n)
        .map(|_| Layer {
            forward_ms: r2(s.uniform(1.0, 500.0)),
            backward_ms: r2(s.uniform(1.0, 300.0)),
            comm_ms: r2(s.uniform(80.0, 500.0)),
        })
        .collect();
    let ps_bandwidth_gbps = r2(s.uniform(5.0, 20.0));
    let worker_overhead_s = r2(s.uniform(3.0, 4.0));
    let ps_overhead_s = (s.uniform(0.0, 0.01) * 1e5).round() / 1e5;
    let async_comm_factor = r2(s.uniform(0.0, 1.0));
    let worker = Resources {
        gpu: s.int(0, 4) as f64,
        vcpu: s.int(1, 10) as f64,
        memory_gb: r2(s.uniform(2.0, 32.0)),
        storage_gb: r2(s.uniform(5.0, 10.0)),
    };
    let ps = Resources {
        gpu: 0.0,
        vcpu: s.int(1, 10) as f64,
        memory_gb: r2(s.uniform(2.0, 32.0)),
        storage_gb: r2(s.uniform(5.0, 10.0)),
    };
    let limit_instances = s.int(1, 20) as f64;
    let utility = Utility {
        gamma1: r2(s.uniform(1.0, 100.0)),
        gamma2: r2(s.uniform(4.0, 6.0)),
        gamma3: r2(s.uniform(1.0, 15.0)),
    };
    let overlap = [Overlap::Sequential, Overlap::Wfbp, Overlap::Pipelined][s.int(0, 2) as usize];
    Job {
        id: format!("job-{:03}", i + 1),
        mode,
        overlap,
        iterations,
        model_size_mb,
        minibatch: m as f64,
        global_batch,
        layers,
        ps_bandwidth_gbps,
        worker_overhead_s,
        ps_overhead_s,
        async_comm_factor,
        worker,
        ps,
        limit_instances,
        utility,
        arrival_s: None,
        requested_workers: None,
        requested_ps: None,
        gpu_mem_mean_gb: None,
        gpu_mem_sd_gb: None,
        gpu_util: None,
        min_performance: None,
        measured: None,
    }
}
