//! docs/APPLICATIONS.md §6: a preset worker's GPU memory profile and compute intensity, the
//! inputs of GPU sharing (CLUSTER.md §5, docs/MODEL.md §18). The artifact measured neither,
//! so both are *estimates*, built from what it did measure:
//!
//! - **Memory.** A constant part — the CUDA context and libraries ([`CONTEXT_GB`]) plus the
//!   fp32 weights, gradients and optimiser state, `copies × 4 bytes × parameters`
//!   ([`optimizer_copies`]) — and the activations, `a·m` for a local batch m, which are
//!   allocated during the forward pass and freed during the backward pass, so over an
//!   iteration they sweep 0 … a·m: modelled as uniform there, mean `a·m/2`, standard
//!   deviation `a·m/√12` (seed 002's observation that memory rises and falls in every
//!   iteration). The per-sample activation memory a is calibrated on the largest local
//!   batch the artifact ran on one T4: Pollux bounds a job's local batch by what fits in the
//!   GPU, so that batch's peak is taken as [`PEAK_AT_LARGEST_GB`], a T4's ~15 GB usable
//!   less a 1 GB margin. For NCF the bound (32768) is the artifact's batch range, not memory,
//!   so its a is an over-estimate — harmless: NCF's profile stays under 1 GB.
//! - **Compute intensity** u: the share of the measured single-GPU step time that grows with
//!   the local batch, `slope·m / (a₀ + slope·m)` of the fit `step_ms = a₀ + slope·m`; the
//!   intercept (launches, synchronisation, input) is counted as the GPU idle, at least
//!   [`MIN_UTIL`]. This under-estimates u for large models, whose fixed part includes real
//!   kernels (the weight update): a planner should read shared slowdowns of BERT and YOLOv3
//!   as optimistic.

use crate::app::App;

/// GPU memory every worker holds before its model: the CUDA context, cuDNN/cuBLAS
/// workspaces and the framework's allocator slack, GB.
pub const CONTEXT_GB: f64 = 0.75;

/// The peak memory taken at the largest local batch the artifact measured on one GPU
/// (a T4, 16 GB, ~15 GB usable), GB.
pub const PEAK_AT_LARGEST_GB: f64 = 14.0;

/// The smallest compute intensity given to a preset worker.
pub const MIN_UTIL: f64 = 0.05;

/// Copies of the parameters a worker keeps on its GPU: weights and gradients, plus one
/// momentum buffer (SGD: the vision and speech models) or two Adam moments (BERT, NCF). The
/// artifact does not say which optimiser each run used; these are the applications' usual
/// ones.
pub fn optimizer_copies(app: App) -> f64 {
    match app {
        App::Bert | App::Ncf => 4.0,
        App::Cifar10 | App::Imagenet | App::Deepspeech2 | App::Yolov3 => 3.0,
    }
}

/// A worker's estimated GPU profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Mean GPU memory over an iteration, GB.
    pub mem_mean_gb: f64,
    /// Its standard deviation over an iteration, GB.
    pub mem_sd_gb: f64,
    /// Its largest value (all activations held), GB.
    pub mem_peak_gb: f64,
    /// Compute intensity in (0, 1].
    pub util: f64,
}

/// GB held whatever the batch: context, weights, gradients and optimiser state.
pub fn constant_gb(app: App) -> f64 {
    CONTEXT_GB + optimizer_copies(app) * 4.0 * app.facts().parameters as f64 / 1e9
}

/// Activation memory per sample a, GB.
pub fn activations_per_sample_gb(app: App) -> f64 {
    let largest = app.facts().local_batch[1] as f64;
    (PEAK_AT_LARGEST_GB - constant_gb(app)).max(0.0) / largest
}

/// The profile of one worker of `app` at local batch `minibatch` (> 0).
pub fn profile(app: App, minibatch: f64) -> Profile {
    let c = constant_gb(app);
    let act = activations_per_sample_gb(app) * minibatch;
    let [a0, slope] = app.facts().step_ms;
    Profile {
        mem_mean_gb: c + act / 2.0,
        mem_sd_gb: act / 12f64.sqrt(),
        mem_peak_gb: c + act,
        util: (slope * minibatch / (a0 + slope * minibatch)).clamp(MIN_UTIL, 1.0),
    }
}
