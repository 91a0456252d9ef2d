//! Helpers shared by the tests: hand-made jobs, T evaluated from θ, and Ω's constraint lines
//! built from a job's own numbers (not from the crate's Ω).
//!
//! One file for both kinds of test: the unit tests beside the code reach it as
//! `crate::testutil`, the integration tests as `common` (tests/common/mod.rs includes this
//! file by path). It names the crate `smd_core` in both, which inside the crate's own test
//! build is an alias of `crate` (lib.rs). It uses the public API only.
//!
//! Each test uses a part of this module, so unused items are allowed.
#![allow(dead_code)]

use smd_core::generate;
use smd_core::model::JobModel;
use smd_core::scenario::{Job, Layer, Mode, Overlap, Resources, Utility};
use smd_core::{Plan, Scenario};

/// `a` and `b` agree to `rel` relative.
pub fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()) + 1e-300
}

/// A resource vector written in one line: GPU, vCPU, memory (GB), storage (GB).
pub fn res(gpu: f64, vcpu: f64, memory_gb: f64, storage_gb: f64) -> Resources {
    Resources {
        gpu,
        vcpu,
        memory_gb,
        storage_gb,
    }
}

/// The job's model on the default instance, relative time unit.
pub fn model(job: &Job) -> JobModel {
    JobModel::new(job, &Resources::DEFAULT_INSTANCE, None)
}

/// The model of generated job `i` of `seed`, as [`model`] builds it.
pub fn generated(seed: u64, i: usize, mode: Mode) -> JobModel {
    model(&generate::job(seed, i, mode))
}

/// E = 100 iterations; g = 125 MB → G = 8·125/1000 = 1 Gbit; B = 10 Gbps;
/// m = 10, K = 40; layers f = (100, 300) ms, b = (50, 150) ms, r = (100, 300) (profile);
/// β1 = 3.5 s, β2 = 0.005 s; ϑ = 2 instances.
///
/// t_f = (0.1 + 0.3)/10 = 0.04 s per sample, t_b = 0.05 + 0.15 = 0.2 s, F = 0.4, Bk = 0.2.
pub fn hand_job(mode: Mode, overlap: Overlap, alpha: f64) -> Job {
    Job {
        id: "hand".into(),
        mode,
        overlap,
        iterations: 100.0,
        model_size_mb: 125.0,
        minibatch: 10.0,
        global_batch: 40.0,
        layers: vec![
            Layer {
                forward_ms: 100.0,
                backward_ms: 50.0,
                comm_ms: 100.0,
            },
            Layer {
                forward_ms: 300.0,
                backward_ms: 150.0,
                comm_ms: 300.0,
            },
        ],
        ps_bandwidth_gbps: 10.0,
        worker_overhead_s: 3.5,
        ps_overhead_s: 0.005,
        async_comm_factor: alpha,
        worker: res(1.0, 4.0, 8.0, 5.0),
        ps: res(0.0, 2.0, 4.0, 5.0),
        limit_instances: 2.0,
        utility: Utility {
            gamma1: 10.0,
            gamma2: 5.0,
            gamma3: 4.0,
        },
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

/// Own evaluation of T from θ (docs/MODEL.md §3), not `JobModel::t`.
pub fn t_of(m: &JobModel, w: f64, p: f64) -> f64 {
    let th = m.theta;
    match m.mode {
        Mode::Sync => th[0] * w + th[1] * p + th[2] + th[3] * w / p + th[4] / w,
        Mode::Async => th[0] + th[1] * p / w + th[2] / w + th[3] / p,
    }
}

/// `a·x ≤ b`.
pub type Line = ([f64; 2], f64);

/// Ω's constraints from the job's numbers: w ≥ 1, p ≥ 1 and one row per demanded resource.
pub fn lines(m: &JobModel) -> Vec<Line> {
    let ow = m.worker.to_array();
    let op = m.ps.to_array();
    let lim = m.limit.to_array();
    let mut out = vec![([-1.0, 0.0], -1.0), ([0.0, -1.0], -1.0)];
    for r in 0..4 {
        if ow[r] != 0.0 || op[r] != 0.0 {
            out.push(([ow[r], op[r]], lim[r]));
        }
    }
    out
}

/// `x` satisfies every line, each with a slack of `tol` relative (absolute below 1).
pub fn inside(ls: &[Line], x: [f64; 2], tol: f64) -> bool {
    ls.iter()
        .all(|(a, b)| a[0] * x[0] + a[1] * x[1] <= b + tol * b.abs().max(1.0))
}

/// Every pairwise intersection of the lines (Cramer's rule) that is `inside` with `tol`, in
/// the order of the pairs; `distinct` drops the repeats (points within 1e-9 of an earlier one).
pub fn intersections(ls: &[Line], tol: f64, distinct: bool) -> Vec<[f64; 2]> {
    let mut out: Vec<[f64; 2]> = Vec::new();
    for i in 0..ls.len() {
        for j in i + 1..ls.len() {
            let ((a, b), (c, d)) = (ls[i], ls[j]);
            let det = a[0] * c[1] - a[1] * c[0];
            if det.abs() < 1e-14 * (a[0].abs() + a[1].abs()) * (c[0].abs() + c[1].abs()) {
                continue;
            }
            let x = [(b * c[1] - a[1] * d) / det, (a[0] * d - b * c[0]) / det];
            let repeat = || {
                out.iter()
                    .any(|v| (v[0] - x[0]).abs() + (v[1] - x[1]).abs() < 1e-9)
            };
            if inside(ls, x, tol) && !(distinct && repeat()) {
                out.push(x);
            }
        }
    }
    out
}

/// The documented tolerance of every capacity check: 1e-9 relative (absolute below 1).
pub fn fits(lhs: f64, rhs: f64) -> bool {
    lhs <= rhs + 1e-9 * rhs.abs().max(1.0)
}

/// GPU, vCPU, memory, storage.
pub fn arr(r: &Resources) -> [f64; 4] {
    [r.gpu, r.vcpu, r.memory_gb, r.storage_gb]
}

/// O^w·w + O^p·p, computed here from the job.
pub fn demand(job: &Job, w: u64, p: u64) -> [f64; 4] {
    let (ow, op) = (arr(&job.worker), arr(&job.ps));
    std::array::from_fn(|r| ow[r] * w as f64 + op[r] * p as f64)
}

/// L = ϑ · instance, computed here from the scenario.
pub fn limit(s: &Scenario, job: &Job) -> [f64; 4] {
    arr(&s.cluster.instance).map(|v| v * job.limit_instances)
}

/// The raw rule of Ω (docs/MODEL.md §5) for integers w, p ≥ 1.
pub fn in_omega(s: &Scenario, job: &Job, w: u64, p: u64) -> bool {
    let (d, l) = (demand(job, w, p), limit(s, job));
    w >= 1 && p >= 1 && (0..4).all(|r| fits(d[r], l[r]))
}

/// The demand of a plan's admitted jobs per resource, re-derived from the scenario's own
/// numbers (w·O^w + p·O^p), not from the plan's totals.
pub fn admitted_use(p: &Plan, s: &Scenario) -> [f64; 4] {
    let mut used = [0.0; 4];
    for (line, job) in p.jobs.iter().zip(&s.jobs).filter(|(l, _)| l.admitted) {
        let (w, q) = (line.workers.unwrap() as f64, line.ps.unwrap() as f64);
        let (ow, op) = (job.worker.to_array(), job.ps.to_array());
        for (r, u) in used.iter_mut().enumerate() {
            *u += w * ow[r] + q * op[r];
        }
    }
    used
}
