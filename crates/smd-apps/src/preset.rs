//! docs/APPLICATIONS.md §2: a job of docs/MODEL.md §1 from an application and a global batch.
//!
//! - g: 4 bytes per parameter; N and the communication profile r_j: one layer per parameter
//!   group of `param_counts.json`, r_j proportional to the group's parameters (a gradient's
//!   transfer time is proportional to its size), scaled to the time at the preset's B;
//! - f_j, b_j: the single-GPU fit `step_ms = a + slope·b` split so that the model reproduces
//!   it at every local batch: T's forward term is the only one that grows with the local
//!   batch (θ5 = η1·E·K·t_f), so the slope is the per-sample forward time and the intercept
//!   the per-iteration backward time, spread evenly over the groups (the artifact gives no
//!   per-layer compute);
//! - E: the validation table, interpolated as a power law between measured batches
//!   (log E linear in log K), rounded to whole iterations;
//! - demands: a worker is the artifact's pod (1 GPU, 10 vCPU, 40 GB) with 10 GB of storage;
//!   a PS holds a shard of the parameters and the optimiser state in host memory ([`PS`]);
//! - B, β1, β2: the calibration's fitted values ([`crate::calibrated`]).

use crate::app::App;
use crate::calibrated::{self, Params};
use smd_core::scenario::{Job, Layer, MeasuredJob, Mode, Overlap, Resources, Utility};

/// One worker: the artifact's pod (1 GPU, 10 vCPU, 40 GB) and 10 GB of scratch storage.
pub const WORKER: Resources = Resources {
    gpu: 1.0,
    vcpu: 10.0,
    memory_gb: 40.0,
    storage_gb: 10.0,
};

/// One PS: no GPU, 4 vCPU, 16 GB of memory (the largest model's parameters and two optimiser
/// moments take 1.3 GB; the rest is the process and its buffers), 10 GB of storage. The
/// artifact has no PSs: this is the project's choice, shown and editable on every job.
pub const PS: Resources = Resources {
    gpu: 0.0,
    vcpu: 4.0,
    memory_gb: 16.0,
    storage_gb: 10.0,
};

/// Utility of a preset job (γ1, γ2, γ3): every job is worth the same, and half of it is
/// earned at a 2× speed-up over one worker and one PS (π = 8 in the relative unit).
pub const UTILITY: Utility = Utility {
    gamma1: 10.0,
    gamma2: 5.0,
    gamma3: 8.0,
};

/// At most this many workers by default: the artifact's cluster (16 nodes × 4 GPUs).
pub const MAX_WORKERS: u32 = 64;

/// How to make a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetOptions {
    /// K: the global batch, within the application's measured range.
    pub global_batch: f64,
    /// m: the per-worker batch; `None`: K, capped at the largest local batch measured on
    /// one GPU (what fits in a T4's memory).
    pub minibatch: Option<f64>,
    /// The job's id; `None`: the application's name and K, e.g. `bert-384`.
    pub id: Option<String>,
    /// ϑ; `None`: enough instances for [`default_workers`] workers and as many PSs.
    pub limit_instances: Option<f64>,
    /// The instance ϑ counts in (the scenario's `cluster.instance`).
    pub instance: Resources,
}

impl PresetOptions {
    /// Options for global batch `k` on the default instance.
    pub fn batch(k: f64) -> PresetOptions {
        PresetOptions {
            global_batch: k,
            minibatch: None,
            id: None,
            limit_instances: None,
            instance: Resources::DEFAULT_INSTANCE,
        }
    }
}

/// A preset's problem, naming the option (field) at fault.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetError {
    /// The option: `global_batch`, `minibatch`, `limit_instances` or `instance`.
    pub field: &'static str,
    /// What is wrong, with the value and the allowed range.
    pub message: String,
}

impl std::fmt::Display for PresetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for PresetError {}

fn fail(field: &'static str, message: String) -> PresetError {
    PresetError { field, message }
}

/// The iterations E the application needs at global batch `k`: the measured value at a
/// measured K, else a power law between the two measured batches around `k`
/// (`log E` linear in `log K`). `k` must lie within the measured range.
pub fn iterations(app: App, k: f64) -> Result<f64, PresetError> {
    let table = app.facts().iterations;
    let (lo, hi) = (table[0].0 as f64, table[table.len() - 1].0 as f64);
    if !(k.is_finite() && (lo..=hi).contains(&k)) {
        return Err(fail(
            "global_batch",
            format!(
                "must be between {lo} and {hi} for {app} (the batches the artifact measured; got {})",
                smd_core::error::num(k)
            ),
        ));
    }
    let at = table
        .windows(2)
        .find(|w| k <= w[1].0 as f64)
        .expect("k is within the table");
    let ((k0, e0), (k1, e1)) = (at[0], at[1]);
    let (k0, e0, k1, e1) = (k0 as f64, e0 as f64, k1 as f64, e1 as f64);
    let s = (k / k0).ln() / (k1 / k0).ln();
    Ok((e0.ln() + s * (e1 / e0).ln()).exp().round())
}

/// The largest number of workers worth giving a job at global batch `k` by default: one
/// per smallest measured local batch, at most [`MAX_WORKERS`].
pub fn default_workers(app: App, k: f64) -> u32 {
    let smallest = app.facts().local_batch[0] as f64;
    ((k / smallest).floor() as u32).clamp(1, MAX_WORKERS)
}

/// The smallest whole ϑ whose limit `ϑ·instance` holds `workers` workers and as many PSs.
pub fn limit_for(workers: u32, instance: &Resources) -> Result<f64, PresetError> {
    let need = WORKER.scale(workers as f64).to_array();
    let ps = PS.scale(workers as f64).to_array();
    let mut theta: f64 = 1.0;
    for ((r, n), (p, cap)) in need
        .iter()
        .enumerate()
        .zip(ps.iter().zip(instance.to_array()))
    {
        let n = n + p;
        if n > 0.0 {
            if cap <= 0.0 {
                let name = smd_core::scenario::Resource::ALL[r].name();
                return Err(fail(
                    "instance",
                    format!("has no {name}, which a preset's worker or PS needs"),
                ));
            }
            theta = theta.max((n / cap).ceil());
        }
    }
    Ok(theta)
}

/// Rounds to 3 decimals (1 µs of a time in ms, 1 MB of memory in GB): readable files, and
/// the value written is the value used.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A given id as a scenario would take it ([`smd_core::scenario::id_problem`]).
fn check_id(id: Option<&str>) -> Result<(), PresetError> {
    match id.and_then(smd_core::scenario::id_problem) {
        Some(m) => Err(fail("id", m)),
        None => Ok(()),
    }
}

/// The job of docs/MODEL.md §1 for `app` (module docs: how every field is derived).
pub fn preset(app: App, opts: &PresetOptions) -> Result<Job, PresetError> {
    check_id(opts.id.as_deref())?;
    let e = iterations(app, opts.global_batch)?;
    build(app, opts, e, &Params::CALIBRATED)
}

/// [`preset`] with the iterations `e` and the speed parameters given, and no check of the
/// global batch against the measured range: the calibration ([`crate::calibrate`]) builds
/// jobs at batches the validation table does not cover, where E does not matter because it
/// compares per-iteration times (T/E), and with candidate parameters of its fit.
pub(crate) fn build(
    app: App,
    opts: &PresetOptions,
    e: f64,
    speed: &Params,
) -> Result<Job, PresetError> {
    let f = app.facts();
    let k = opts.global_batch;
    let m = match opts.minibatch {
        None => k.min(f.local_batch[1] as f64),
        Some(m) if m.is_finite() && m >= 1.0 && m <= k => m,
        Some(m) => {
            return Err(fail(
                "minibatch",
                format!(
                    "must be between 1 and the global batch {} (got {})",
                    smd_core::error::num(k),
                    smd_core::error::num(m)
                ),
            ))
        }
    };
    let limit = match opts.limit_instances {
        None => limit_for(default_workers(app, k), &opts.instance)?,
        Some(l) if l.is_finite() && l > 0.0 => l,
        Some(l) => {
            return Err(fail(
                "limit_instances",
                format!("must be > 0 (got {})", smd_core::error::num(l)),
            ))
        }
    };
    let groups = app.groups();
    let n = groups.len() as f64;
    let total: u64 = groups.iter().map(|g| g.params).sum();
    let g_mb = app.model_size_mb();
    let b = speed.cross_gbps;
    // τ = 2G/B in ms: the profile's sum, so that r_j reads as the group's transfer time.
    let tau_ms = 2.0 * 8.0 * g_mb / 1000.0 / b * 1000.0;
    let [a, slope] = f.step_ms;
    let gpu = crate::gpu::profile(app, m);
    let layers = groups
        .iter()
        .map(|g| Layer {
            forward_ms: round3(slope * m / n),
            backward_ms: round3(a / n),
            comm_ms: round3(tau_ms * g.params as f64 / total as f64),
        })
        .collect();
    Ok(Job {
        id: opts
            .id
            .clone()
            .unwrap_or_else(|| format!("{}-{}", app.name(), smd_core::error::num(k))),
        mode: Mode::Sync,
        // PyTorch DDP, which the artifact measured, sends each gradient bucket as soon as
        // its backward pass ends: wait-free backpropagation.
        overlap: Overlap::Wfbp,
        iterations: e,
        model_size_mb: g_mb,
        minibatch: m,
        global_batch: k,
        layers,
        ps_bandwidth_gbps: b,
        worker_overhead_s: speed.worker_overhead_s,
        ps_overhead_s: calibrated::PS_OVERHEAD_S,
        async_comm_factor: 1.0,
        worker: WORKER,
        ps: PS,
        limit_instances: limit,
        utility: UTILITY,
        arrival_s: None,
        requested_workers: None,
        requested_ps: None,
        // Estimates (docs/APPLICATIONS.md §6); GPU sharing reads them, nothing else does.
        gpu_mem_mean_gb: Some(round3(gpu.mem_mean_gb)),
        gpu_mem_sd_gb: Some(round3(gpu.mem_sd_gb)),
        gpu_util: Some(round3(gpu.util)),
        min_performance: None,
        measured: None,
    })
}

/// A measured job's default utility (docs/MODEL.md §22), π in hours: worth 1 if it reaches
/// its target well within 8 hours of running, ½ at 8 h, under 0.02 after 10 h — so a
/// plan's total utility reads as "jobs done within a working day".
pub const DEADLINE_UTILITY: Utility = Utility {
    gamma1: 1.0,
    gamma2: 2.0,
    gamma3: 8.0,
};

/// How to make a measured (all-reduce) job.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MeasuredOptions {
    /// The job's id; `None`: the application's name, with its batch when fixed.
    pub id: Option<String>,
    /// The fixed total batch; `None`: the planner chooses it per allocation.
    pub batch_size: Option<f64>,
    /// The most GPUs; `None`: the reference's cap.
    pub max_workers: Option<f64>,
}

/// A data-parallel all-reduce job of `app` (docs/MODEL.md §21): workers of one GPU each
/// ([`WORKER`]), its speed from the measurements, the deadline utility
/// ([`DEADLINE_UTILITY`]) and, for GPU sharing, the memory profile estimated at its local
/// batch (docs/APPLICATIONS.md §6: an estimate, not a measurement).
pub fn measured(app: App, opts: &MeasuredOptions) -> Result<Job, PresetError> {
    check_id(opts.id.as_deref())?;
    let f = app.facts();
    if let Some(b) = opts.batch_size {
        let (lo, hi) = (f64::from(f.initial_batch), f64::from(f.max_batch));
        if !(b.is_finite() && (lo..=hi).contains(&b)) {
            return Err(fail(
                "batch_size",
                format!(
                    "must be between {lo} and {hi} for {} (the total batches the artifact measured; got {})",
                    app.name(),
                    smd_core::error::num(b)
                ),
            ));
        }
    }
    let local = opts
        .batch_size
        .unwrap_or(f64::from(f.initial_batch))
        .min(f64::from(f.local_batch[1]));
    let gpu = crate::gpu::profile(app, local);
    let id = opts.id.clone().unwrap_or_else(|| match opts.batch_size {
        Some(b) => format!("{}-{}", app.name(), smd_core::error::num(b)),
        None => app.name().to_owned(),
    });
    let mut job = Job::measured(
        id,
        MeasuredJob {
            app,
            batch_size: opts.batch_size,
            max_workers: opts.max_workers,
        },
        WORKER,
        DEADLINE_UTILITY,
    );
    job.gpu_mem_mean_gb = Some(round3(gpu.mem_mean_gb));
    job.gpu_mem_sd_gb = Some(round3(gpu.mem_sd_gb));
    job.gpu_util = Some(round3(gpu.util));
    Ok(job)
}
