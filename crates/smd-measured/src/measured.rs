//! Jobs as they were measured (docs/MODEL.md §21, `../shared/POLLUX-SIM.md` §1.4–§2.4):
//! data-parallel training with all-reduce, its step and sync times read off the artifact's
//! measurements, its progress counted in scale-invariant iterations with statistical
//! efficiency from the measured gradient statistics.
//!
//! What this module answers, per application:
//! - [`Measured::step`]: the step and sync time of one iteration for a placement (GPUs per
//!   node) and local batch — on 1–4 nodes the measured rows of that placement (any
//!   rotation of it names the same row set), interpolated linearly in the local batch; on
//!   5–16 nodes [`wide`]'s rule;
//! - [`Measured::batch_config`]: how a fixed total batch splits into replicas × atomic
//!   batch × accumulation steps;
//! - [`Measured::grad_stats`], [`Measured::epoch_target`]: the gradient statistics at a
//!   batch and epoch, and the progress P(e) at the end of epoch e;
//! - [`Measured::epoch_seconds`], [`Measured::time_to_target`]: how long each epoch takes
//!   on a fixed placement, and the time to the application's target with the reference's
//!   per-epoch rounding (restart delays not included);
//! - [`fit`]: the reference's seven-parameter throughput model (POLLUX-SIM.md §3.1) fitted
//!   on all of an application's measurements ([`fitted`], [`Throughput::step_time`]), for
//!   where the tables do not reach and for planners that search allocations smoothly.
//!
//! Placements over 5–16 nodes are not measured row by row (the artifact's `scalability`
//! files sample 6, 8, 12 and 16 nodes); [`Measured::step`] reads them with the project's
//! own deterministic interpolation over (nodes, GPUs per node, local batch) of
//! [`wide`]'s rule (docs/MODEL.md §21, with its measured error). Over 16 nodes is refused.

use crate::app::App;
use crate::csv;
use crate::files::{step_tables, VALIDATION};
use crate::gpu::Gpu;
use smd_format::num;
use std::collections::BTreeMap;
use std::sync::OnceLock;

mod candidate;
pub mod fit;
pub mod goodput;
mod memo;
pub mod wide;

pub use fit::{
    fit_throughput, fit_throughput_from, fitted, fitted_on, observations, observations_on,
    Observation, Throughput,
};
pub use goodput::{Candidate, Candidates, Learner};
pub use wide::MAX_NODES;

/// Total batches tried per allocation when the batch is chosen (POLLUX-SIM.md §3.4's 50,
/// geometrically spaced: numpy's `geomspace` default).
pub const CANDIDATES: usize = 50;

/// Where a step time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A measured row, exactly.
    Measured,
    /// Linear interpolation between measured rows: of the same placement on 1–4 nodes,
    /// of the neighbouring measured layers on 5–16 nodes.
    Interpolated,
    /// The 5–16-node rule with a part extrapolated beyond a layer's measured local batches
    /// ([`wide`]).
    Model,
}

impl Source {
    /// Its name in outputs: `measured`, `interpolated`, `model`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Measured => "measured",
            Source::Interpolated => "interpolated",
            Source::Model => "model",
        }
    }
}

/// One iteration's time at a placement and local batch, seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The whole step (compute and synchronisation).
    pub step_s: f64,
    /// Its synchronisation part (the all-reduce not hidden behind compute).
    pub sync_s: f64,
    /// Where the numbers come from.
    pub source: Source,
}

/// How a total batch runs on R replicas (POLLUX-SIM.md §2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchConfig {
    /// Replicas (GPUs).
    pub replicas: u32,
    /// The batch each replica computes per micro-step.
    pub atomic: u32,
    /// Accumulation steps before each synchronising step.
    pub accum: u32,
}

impl BatchConfig {
    /// The batch one iteration takes: R · atomic · (accum + 1) (it can be a little above
    /// the batch asked for).
    pub fn effective(&self) -> f64 {
        f64::from(self.replicas) * f64::from(self.atomic) * f64::from(self.accum + 1)
    }
}

/// Why a measured quantity cannot be given.
#[derive(Clone, Debug, PartialEq)]
pub enum MeasuredError {
    /// A bundled measurement file does not read (a bug in the bundled data).
    Data(String),
    /// The placement is empty, or has a node with more GPUs than the type's measured node.
    Placement(String),
    /// The placement spans more nodes than were measured (over [`MAX_NODES`]), or, on 1–4
    /// nodes, names no measured row set.
    NotMeasured(String),
    /// A local or total batch outside what was measured.
    OutOfRange(String),
}

impl std::fmt::Display for MeasuredError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MeasuredError::Data(m)
            | MeasuredError::Placement(m)
            | MeasuredError::NotMeasured(m)
            | MeasuredError::OutOfRange(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MeasuredError {}

/// One measured row of a placement: local batch, step and sync time.
#[derive(Clone, Copy, Debug)]
struct Row {
    local: f64,
    step: f64,
    sync: f64,
}

/// One epoch's row of a validation file.
#[derive(Clone, Copy, Debug)]
struct Epoch {
    progress: f64,
    iteration: f64,
    grad_sqr: f64,
    grad_var: f64,
}

/// An application's measurements, read once.
#[derive(Debug)]
pub struct Measured {
    app: App,
    /// The GPU type measured (docs/MODEL.md §24).
    gpu: Gpu,
    /// Types other than the T4: every measured row by (nodes, replicas) — the placements'
    /// rows (averaged where placements of equal size share a local batch) and the
    /// scalability file's — sorted by local batch: what a placement without rows of its
    /// own is read from (§24).
    layers: BTreeMap<(u32, u32), Vec<Row>>,
    /// The smallest and largest local batch of the type's placement table, as the Sia
    /// artifact reads them (its app-wide memory limit; deepspeech2 on the RTX 2080 Ti held
    /// at 57, MODEL.md §24.1).
    table_local: [f64; 2],
    /// The largest local batch among the placement table's rows of each replica count
    /// (the Sia artifact's memory correction, MODEL.md §24.1 step 3).
    by_replicas: BTreeMap<u32, f64>,
    /// (nodes, replicas, largest local batch) of each scalability layer (MODEL.md §24.1).
    scalability_max: Vec<(u32, u32, f64)>,
    /// Rows by placement id (the smallest rotation's digits), sorted by local batch.
    placements: BTreeMap<String, Vec<Row>>,
    /// The layers of 4–16 nodes that 5–16-node placements are read from.
    wide: wide::Wide,
    /// `(B, epochs)` per validation file, B increasing.
    validation: Vec<(f64, Vec<Epoch>)>,
    /// The smallest and largest measured local batch (yolov3's largest is 8: §2.1).
    local: [f64; 2],
    /// Epochs of the run: the job is done at P(max_epochs).
    max_epochs: usize,
    /// [`Measured::batch_candidates`] per replica count 0…64, made once.
    candidates: Vec<OnceLock<Vec<f64>>>,
}

impl Measured {
    /// The application's measurements (read from the embedded files on first use).
    pub fn of(app: App) -> Result<&'static Measured, MeasuredError> {
        Measured::on(app, Gpu::T4)
    }

    /// The application's measurements on GPU type `gpu` (docs/MODEL.md §24): the T4's are
    /// the Pollux artifact's, the others the Sia artifact's; progress (validation files)
    /// is the same on every type.
    pub fn on(app: App, gpu: Gpu) -> Result<&'static Measured, MeasuredError> {
        type All = Vec<Result<Measured, MeasuredError>>;
        static ALL: [OnceLock<All>; 5] = [const { OnceLock::new() }; 5];
        let t = gpu.index();
        let all = ALL[t].get_or_init(|| App::ALL.iter().map(|&a| read(a, gpu)).collect());
        all[app as usize].as_ref().map_err(Clone::clone)
    }

    /// Why a job prefers a GPU type: the five applications of the Sia artifact's workloads
    /// (all but NCF, which none of them runs), with the one-GPU throughput on each type
    /// ([`Measured::one_gpu_throughput`], samples per second), in [`App::ALL`]'s and
    /// [`Gpu::ALL`]'s orders. An application missing on a type is left out.
    pub fn speeds_by_type() -> Vec<(App, [f64; 5])> {
        App::ALL
            .into_iter()
            .filter(|&app| app != App::Ncf)
            .filter_map(|app| {
                let mut row = [0.0; 5];
                for (v, gpu) in row.iter_mut().zip(Gpu::ALL) {
                    *v = Measured::on(app, gpu).ok()?.one_gpu_throughput();
                }
                row.iter().all(|v| *v > 0.0).then_some((app, row))
            })
            .collect()
    }

    /// The GPU type measured.
    pub fn gpu(&self) -> Gpu {
        self.gpu
    }

    /// The smallest and largest local batch of the type's placement table: the Sia
    /// artifact's app-wide memory limit (MODEL.md §24.1; the T4's yolov3 is 16 here, where
    /// [`Measured::local_range`] keeps the Pollux artifact's 8).
    pub fn table_local_range(&self) -> [f64; 2] {
        self.table_local
    }

    /// The largest local batch a replica of `placement` fits (MODEL.md §24.1): the largest
    /// measured for the placement itself, else the largest of the scalability layers of
    /// at least its nodes and GPUs (`None` when none is).
    pub fn max_local_at(&self, placement: &[u32]) -> Option<f64> {
        if let Ok(id) = id_of(placement, self.gpu.per_node()) {
            if let Some(rows) = self.placements.get(&id) {
                return rows.last().map(|r| r.local);
            }
        }
        let nodes = placement.iter().filter(|&&g| g > 0).count() as u32;
        let replicas: u32 = placement.iter().sum();
        self.scalability_max
            .iter()
            .filter(|&&(n, r, _)| n >= nodes && r >= replicas)
            .map(|&(_, _, l)| l)
            .reduce(f64::max)
    }

    /// One GPU's throughput as the Sia artifact projects across types (MODEL.md §24.1):
    /// the largest local batch of the one-GPU rows over their largest step time, examples
    /// per second (the two may come from different rows).
    pub fn one_gpu_throughput(&self) -> f64 {
        let rows = self.placements.get("1").map_or(&[][..], Vec::as_slice);
        let batch = rows.iter().map(|r| r.local).fold(0.0, f64::max);
        let step = rows.iter().map(|r| r.step).fold(0.0, f64::max);
        if step > 0.0 {
            batch / step
        } else {
            0.0
        }
    }

    /// The largest local batch among the placement table's rows on `replicas` GPUs, on any
    /// split over nodes (MODEL.md §24.1's memory correction; `None` when no row has them).
    pub fn max_local_on(&self, replicas: u32) -> Option<f64> {
        self.by_replicas.get(&replicas).copied()
    }

    /// The application.
    pub fn app(&self) -> App {
        self.app
    }

    /// The smallest total batch (the initial one, M0) and the largest.
    pub fn batch_range(&self) -> [f64; 2] {
        [
            self.validation[0].0,
            self.validation[self.validation.len() - 1].0,
        ]
    }

    /// The smallest and largest local batch a replica may compute at once.
    pub fn local_range(&self) -> [f64; 2] {
        self.local
    }

    /// Epochs of the run.
    pub fn max_epochs(&self) -> usize {
        self.max_epochs
    }

    /// Step and sync time of one iteration on `placement` (GPUs per node, in any order of
    /// nodes; zero entries ignored) at local batch `local`: on 1–4 nodes the placement's
    /// measured rows (POLLUX-SIM.md §2.2); on 5–16 nodes [`wide`]'s rule over (nodes, GPUs
    /// per node, local batch) within the application's local batch range.
    pub fn step(&self, placement: &[u32], local: f64) -> Result<Step, MeasuredError> {
        if self.gpu != Gpu::T4 {
            return self.typed_step(placement, local);
        }
        // Too many nodes is refused before the rotations are built (their cost grows with
        // the square of the nodes).
        let nodes = placement.iter().filter(|&&g| g > 0).count();
        let measured_nodes = placement.iter().all(|&g| g <= 4);
        if nodes > MAX_NODES as usize && measured_nodes {
            return Err(MeasuredError::NotMeasured(format!(
                "{}: placement {} spans {nodes} nodes; the measurements and the project's \
                 model cover 1–{MAX_NODES} nodes",
                self.app.name(),
                display(placement),
            )));
        }
        // 5–16 nodes of 1–4 GPUs take no rows, so no id: building one costs the square of
        // the nodes, and a bound asks for every node count at every batch.
        if nodes > 4 && measured_nodes {
            return self.wide_step(placement, local);
        }
        let id = placement_id(placement)?;
        let Some(rows) = self.placements.get(&id) else {
            return Err(MeasuredError::NotMeasured(format!(
                "{}: placement {} names no measured row set",
                self.app.name(),
                display(placement),
            )));
        };
        along(rows, local).ok_or_else(|| self.outside(rows, local, placement))
    }

    /// The error of a local batch outside a row set's measured range.
    fn outside(&self, rows: &[Row], local: f64, placement: &[u32]) -> MeasuredError {
        MeasuredError::OutOfRange(format!(
            "{}: local batch {} outside the measured {}…{} of placement {}{}",
            self.app.name(),
            num(local),
            num(rows[0].local),
            num(rows[rows.len() - 1].local),
            display(placement),
            self.on_type(),
        ))
    }

    /// ` on the A100` for types other than the T4 (messages).
    fn on_type(&self) -> String {
        if self.gpu == Gpu::T4 {
            String::new()
        } else {
            format!(" on the {}", self.gpu.label())
        }
    }

    /// [`Measured::step`] on a type other than the T4 (docs/MODEL.md §24): the
    /// placement's own rows (nodes of up to the type's GPUs per node, any rotation); else
    /// the rows of its (nodes, GPUs) layer; else, between the two layers of its nodes
    /// around its GPUs, linear in the GPUs. Beyond the type's measured nodes is refused.
    fn typed_step(&self, placement: &[u32], local: f64) -> Result<Step, MeasuredError> {
        let id = id_of(placement, self.gpu.per_node())?;
        let nodes = id.len() as u32;
        if nodes > self.gpu.measured_nodes() {
            return Err(MeasuredError::NotMeasured(format!(
                "{}: placement {} spans {nodes} nodes; the {} was measured on at most {}",
                self.app.name(),
                display(placement),
                self.gpu.label(),
                self.gpu.measured_nodes()
            )));
        }
        if let Some(rows) = self.placements.get(&id) {
            return along(rows, local).ok_or_else(|| self.outside(rows, local, placement));
        }
        let replicas: u32 = placement.iter().sum();
        if let Some(rows) = self.layers.get(&(nodes, replicas)) {
            return along(rows, local)
                .map(|s| Step {
                    source: Source::Interpolated,
                    ..s
                })
                .ok_or_else(|| self.outside(rows, local, placement));
        }
        let below = self.layers.range((nodes, 0)..(nodes, replicas)).next_back();
        let above = self.layers.range((nodes, replicas)..(nodes + 1, 0)).next();
        let (Some((&(_, r0), lo)), Some((&(_, r1), hi))) = (below, above) else {
            return Err(MeasuredError::NotMeasured(format!(
                "{}: no measurements of {nodes} nodes around {replicas} GPUs{}",
                self.app.name(),
                self.on_type()
            )));
        };
        let (Some(a), Some(b)) = (along(lo, local), along(hi, local)) else {
            return Err(self.outside(lo, local, placement));
        };
        let t = f64::from(replicas - r0) / f64::from(r1 - r0);
        Ok(Step {
            step_s: a.step_s + t * (b.step_s - a.step_s),
            sync_s: a.sync_s + t * (b.sync_s - a.sync_s),
            source: Source::Interpolated,
        })
    }

    /// [`Measured::step`] on any number of nodes. Beyond [`MAX_NODES`], where the tables do
    /// not reach, source [`Source::Model`]: the step of the placement's [`MAX_NODES`]
    /// largest nodes, plus what the fitted throughput model ([`fitted`], POLLUX-SIM.md
    /// §3.1) adds for the GPUs on the other nodes, all of it synchronisation (MODEL.md §21).
    /// The fitted model read alone would jump at the switch (imagenet on 16 one-GPU nodes
    /// 0.634 s, on 17 0.498 s); read so, a step beyond 16 nodes meets the 16-node one and
    /// never falls when a GPU is added outside the 16 largest nodes.
    pub fn step_any(&self, placement: &[u32], local: f64) -> Result<Step, MeasuredError> {
        let nodes = placement.iter().filter(|&&g| g > 0).count();
        if self.gpu != Gpu::T4 || nodes <= MAX_NODES as usize || placement.iter().any(|&g| g > 4) {
            return self.step(placement, local);
        }
        let [lo, hi] = self.local;
        if !(lo..=hi).contains(&local) {
            return Err(MeasuredError::OutOfRange(format!(
                "{}: local batch {} outside the measured {}…{}",
                self.app.name(),
                num(local),
                num(lo),
                num(hi)
            )));
        }
        let mut largest: Vec<u32> = placement.iter().copied().filter(|&g| g > 0).collect();
        largest.sort_unstable_by(|a, b| b.cmp(a));
        let replicas: u32 = largest.iter().sum();
        largest.truncate(MAX_NODES as usize);
        let inner = self.step(&largest, local)?;
        let fit = fitted(self.app);
        let (at_inner, _) = fit.step_time(MAX_NODES, largest.iter().sum(), local, 0);
        let (at_all, _) = fit.step_time(nodes as u32, replicas, local, 0);
        // More GPUs never shorten the fitted model's all-reduce (β_n ≥ 0); max() keeps
        // rounding from doing it.
        let extra = (at_all - at_inner).max(0.0);
        Ok(Step {
            step_s: inner.step_s + extra,
            sync_s: inner.sync_s + extra,
            source: Source::Model,
        })
    }

    /// A placement of 5–16 nodes (checked by [`Measured::step`]): the layers read at
    /// (nodes, replicas, local) per [`wide`]'s rule.
    fn wide_step(&self, placement: &[u32], local: f64) -> Result<Step, MeasuredError> {
        // At most 16 nodes of at most 4 GPUs here (checked by the caller): no overflow.
        let nodes = placement.iter().filter(|&&g| g > 0).count() as u32;
        let replicas: u32 = placement.iter().sum();
        let [lo, hi] = self.local;
        if !(lo..=hi).contains(&local) {
            return Err(MeasuredError::OutOfRange(format!(
                "{}: local batch {} outside the measured {}…{}",
                self.app.name(),
                num(local),
                num(lo),
                num(hi)
            )));
        }
        self.wide
            .step(nodes, replicas, local, wide::Rule::CHOSEN)
            .ok_or_else(|| {
                MeasuredError::Data(format!(
                    "{}: the 4–16-node measurements do not bracket placement {}",
                    self.app.name(),
                    display(placement)
                ))
            })
    }

    /// POLLUX-SIM.md §3.4's candidate total batches on `replicas` GPUs: [`CANDIDATES`]
    /// spaced geometrically from max(initial, smallest local · R) to the largest batch
    /// (none when the first exceeds the last). `libm`'s log and exp, as in [`fit`]: the
    /// same bits natively and in wasm.
    pub fn batch_candidates(&self, replicas: u32) -> std::borrow::Cow<'_, [f64]> {
        match self.candidates.get(replicas as usize) {
            Some(once) => once.get_or_init(|| self.make_candidates(replicas)).into(),
            None => self.make_candidates(replicas).into(),
        }
    }

    fn make_candidates(&self, replicas: u32) -> Vec<f64> {
        self.batch_candidates_up_to(replicas, self.batch_range()[1], self.local[0])
    }

    /// [`Measured::batch_candidates`] from max(initial, `smallest` · R) up to `max` (the
    /// Sia artifact's estimate caps them at the job's own batch, MODEL.md §24.3).
    pub fn batch_candidates_up_to(&self, replicas: u32, max: f64, smallest: f64) -> Vec<f64> {
        let init = self.batch_range()[0];
        let lo = init.max(smallest * f64::from(replicas));
        if lo > max {
            return Vec::new();
        }
        let n = CANDIDATES;
        let ratio = libm::log(max / lo) / (n - 1) as f64;
        (0..n)
            .map(|k| {
                if k + 1 == n {
                    max
                } else {
                    lo * libm::exp(ratio * k as f64)
                }
            })
            .collect()
    }

    /// How a total batch `batch` runs on `placement` under the Sia artifact's rules
    /// (MODEL.md §24.1 steps 2–4): split into accumulation steps of at most the placement's
    /// largest local batch ([`Measured::max_local_at`]; at least one on a single GPU above
    /// the initial batch), then [`Measured::memory_corrected`].
    pub fn sia_batch_config(&self, placement: &[u32], batch: f64) -> BatchConfig {
        const EPS: f64 = 1e-8;
        let replicas: u32 = placement.iter().sum::<u32>().max(1);
        let r = f64::from(replicas);
        let mlb = self
            .max_local_at(placement)
            .unwrap_or(self.table_local[1])
            .max(1.0);
        let local = (batch / r - EPS).ceil();
        let mut accum = (local / mlb - EPS).ceil() - 1.0;
        if replicas == 1 && batch > self.batch_range()[0] {
            accum = accum.max(1.0);
        }
        let accum = accum.max(0.0);
        let atomic = (local / (accum + 1.0) - EPS).ceil();
        self.memory_corrected(BatchConfig {
            replicas,
            atomic: atomic.clamp(1.0, f64::from(u32::MAX)) as u32,
            accum: accum.min(f64::from(u32::MAX)) as u32,
        })
    }

    /// MODEL.md §24.1 steps 3–4: the atomic batch held to the largest local batch measured
    /// on as many GPUs, and to the largest total batch over R · (accum + 1).
    pub fn memory_corrected(&self, c: BatchConfig) -> BatchConfig {
        let mut atomic = f64::from(c.atomic);
        if let Some(cap) = self.max_local_on(c.replicas) {
            atomic = atomic.min(cap);
        }
        let r = f64::from(c.replicas.max(1));
        let clamp = (self.batch_range()[1] / (r * f64::from(c.accum + 1))).floor();
        BatchConfig {
            atomic: atomic.min(clamp).max(1.0) as u32,
            ..c
        }
    }

    /// How a total batch `batch` runs on `replicas` GPUs (POLLUX-SIM.md §2.4): the local
    /// batch split into accumulation steps of at most the largest local batch (at least
    /// one on a single GPU above the initial batch), clamped to the largest total batch.
    pub fn batch_config(&self, replicas: u32, batch: f64) -> BatchConfig {
        const EPS: f64 = 1e-8;
        let r = f64::from(replicas.max(1));
        let local = (batch / r - EPS).ceil();
        let mut accum = (local / self.local[1] - EPS).ceil() - 1.0;
        if replicas <= 1 && batch > self.batch_range()[0] {
            accum = accum.max(1.0);
        }
        let accum = accum.max(0.0);
        let atomic = (local / (accum + 1.0) - EPS).ceil();
        let cap = (self.batch_range()[1] / (r * (accum + 1.0))).floor();
        BatchConfig {
            replicas: replicas.max(1),
            atomic: atomic.min(cap).max(1.0) as u32,
            accum: accum as u32,
        }
    }

    /// The gradient statistics (grad_sqr, grad_var) at total batch `batch` in epoch
    /// `epoch` (0-based): linear in the batch between the two validated batches around
    /// it (POLLUX-SIM.md §2.3).
    pub fn grad_stats(&self, batch: f64, epoch: usize) -> Result<(f64, f64), MeasuredError> {
        let sqr = self.at(batch, epoch, |e| e.grad_sqr)?;
        let var = self.at(batch, epoch, |e| e.grad_var)?;
        Ok((sqr, var))
    }

    /// The cumulative iterations at the end of epoch `row + 1` at total batch `batch`
    /// (validation column `iteration`, interpolated as [`Measured::grad_stats`]).
    pub fn iteration(&self, batch: f64, row: usize) -> Result<f64, MeasuredError> {
        self.at(batch, row, |e| e.iteration)
    }

    /// P(e): the scale-invariant progress at the end of epoch e, the least over every
    /// validation file of its row e − 1 (P(0) = 0; POLLUX-SIM.md §1.5).
    pub fn epoch_target(&self, e: usize) -> f64 {
        if e == 0 {
            return 0.0;
        }
        self.validation
            .iter()
            .filter_map(|(_, rows)| rows.get(e - 1).map(|r| r.progress))
            .fold(f64::INFINITY, f64::min)
    }

    /// The job's target: P(max_epochs).
    pub fn target(&self) -> f64 {
        self.epoch_target(self.max_epochs)
    }

    /// Seconds each epoch takes on `placement` (any number of nodes: [`Measured::step_any`])
    /// at total batch `batch`, unrounded: epoch e
    /// needs P(e+1) − P(e) scale-invariant iterations at goodput g = gain / (step +
    /// accum · (step − sync)), gain = (var + sqr) / (var/scale + sqr), scale = B / M0,
    /// with B the effective batch and the gradient statistics of epoch e (§1.4).
    pub fn epoch_seconds(&self, placement: &[u32], batch: f64) -> Result<Vec<f64>, MeasuredError> {
        let [lo, hi] = self.batch_range();
        if !(lo..=hi).contains(&batch) {
            return Err(MeasuredError::OutOfRange(format!(
                "{}: total batch {} outside {}…{}",
                self.app.name(),
                num(batch),
                num(lo),
                num(hi)
            )));
        }
        let replicas: u32 = placement.iter().sum();
        let c = self.batch_config(replicas, batch);
        let b = c.effective();
        let s = self.step_any(placement, f64::from(c.atomic))?;
        let seconds_per_iteration = s.step_s + f64::from(c.accum) * (s.step_s - s.sync_s);
        let scale = b / lo;
        (0..self.max_epochs)
            .map(|e| {
                let (sqr, var) = self.grad_stats(b, e)?;
                let den = var / scale + sqr;
                let gain = if den > 0.0 { (var + sqr) / den } else { 1.0 };
                let work = self.epoch_target(e + 1) - self.epoch_target(e);
                Ok(work * seconds_per_iteration / gain)
            })
            .collect()
    }

    /// Seconds from the first step to the target on `placement` at `batch`, each epoch
    /// rounded half to even as the reference does (its times are whole seconds, §1.4);
    /// restart delays and waiting are not included.
    pub fn time_to_target(&self, placement: &[u32], batch: f64) -> Result<f64, MeasuredError> {
        Ok(rounded_total(&self.epoch_seconds(placement, batch)?))
    }

    /// Adds `runs` (placement, total batch) to `fastest`; runs the measurements cannot
    /// answer are skipped.
    pub fn add_runs<'p>(
        &self,
        fastest: &mut Fastest,
        runs: impl IntoIterator<Item = (&'p [u32], f64)>,
    ) {
        for (placement, batch) in runs {
            if let Ok(rate) = self.rate(placement, batch) {
                fastest.add(rate, placement.iter().sum());
            }
        }
    }

    /// The least seconds to the target over runs that may change configuration at any
    /// time: each epoch at the fastest of the runs (placement, total batch) gathered in
    /// `fastest` ([`Measured::add_runs`]) for that epoch's gradient statistics, rounded half
    /// to even as [`Measured::time_to_target`] rounds it. With the run's times whole
    /// seconds at every change (the simulation's are: slots, restarts and epoch ends are),
    /// no run switching among them reaches the target sooner. Returns the seconds and the
    /// most GPUs an epoch's fastest run uses (`None` when no run was gathered).
    pub fn least_time_over(&self, fastest: &Fastest) -> Option<(f64, u32)> {
        let (mut epochs, mut widest) = (Vec::with_capacity(self.max_epochs), 0);
        for e in 0..self.max_epochs {
            let work = self.epoch_target(e + 1) - self.epoch_target(e);
            let fastest = fastest
                .0
                .values()
                .filter_map(|(r, w)| {
                    let (sqr, var) = self.grad_stats(r.batch, e).ok()?;
                    Some((work * r.iteration_s / goodput::gain(sqr, var, r.scale), *w))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))?;
            epochs.push(fastest.0);
            widest = widest.max(fastest.1);
        }
        Some((rounded_total(&epochs), widest))
    }

    /// A validation column at `batch`, row `row`, linear between the validated batches.
    fn at(&self, batch: f64, row: usize, x: impl Fn(&Epoch) -> f64) -> Result<f64, MeasuredError> {
        let [lo_b, hi_b] = self.batch_range();
        if !(lo_b..=hi_b).contains(&batch) {
            return Err(MeasuredError::OutOfRange(format!(
                "{}: total batch {} outside the validated {}…{}",
                self.app.name(),
                num(batch),
                num(lo_b),
                num(hi_b)
            )));
        }
        let value = |k: usize| {
            let (b, rows) = &self.validation[k];
            rows.get(row).map(&x).ok_or_else(|| {
                MeasuredError::OutOfRange(format!(
                    "{}: epoch {row} past the {} rows of validation-{b}",
                    self.app.name(),
                    rows.len()
                ))
            })
        };
        let k = self.validation.partition_point(|(b, _)| *b < batch);
        let hi = self.validation[k].0;
        if hi == batch || k == 0 {
            return value(k);
        }
        let lo = self.validation[k - 1].0;
        Ok(((batch - lo) * value(k)? + (hi - batch) * value(k - 1)?) / (hi - lo))
    }
}

/// Where a run is (POLLUX-SIM.md §1.4): its scale-invariant progress and the epochs it has
/// completed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Scale-invariant iterations done (iterations at the initial batch).
    pub progress: f64,
    /// Epochs completed; the run is done at [`Measured::max_epochs`].
    pub epoch: usize,
}

/// A run's rate on one placement at one total batch (POLLUX-SIM.md §1.4): what
/// [`Measured::run_for`] reads from the measurements before it steps — the same while the
/// placement lasts, so a simulation keeps it from slot to slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Seconds per iteration: step + accum · (step − sync), unslowed.
    iteration_s: f64,
    /// The effective total batch.
    batch: f64,
    /// The batch over the initial one (the statistical efficiency's scale).
    scale: f64,
}

/// The fastest iteration per effective batch among runs, and the GPUs it uses: all that
/// [`Measured::least_time_over`] needs of them (an epoch's time depends on the batch's
/// statistics and the iteration only). Gathered by [`Measured::add_runs`], so that runs
/// shared by many questions are read once and merged.
#[derive(Clone, Debug, Default)]
pub struct Fastest(BTreeMap<u64, (Rate, u32)>);

impl Fastest {
    /// Keeps `rate` on `replicas` GPUs if it is the first or the fastest at its batch.
    pub fn add(&mut self, rate: Rate, replicas: u32) {
        let kept = self
            .0
            .entry(rate.batch.to_bits())
            .or_insert((rate, replicas));
        if rate.iteration_s < kept.0.iteration_s {
            *kept = (rate, replicas);
        }
    }

    /// Adds every run kept in `other`, as if its runs came after this one's.
    pub fn merge(&mut self, other: &Fastest) {
        for &(rate, replicas) in other.0.values() {
            self.add(rate, replicas);
        }
    }
}

impl Measured {
    /// Runs `seconds` on `placement` at total batch `batch` from `at`, each second of work
    /// taking `pace` seconds (≥ 1: a slowdown), as the reference steps a job through one
    /// interval (POLLUX-SIM.md §1.4): epoch by epoch at the goodput of the epoch's gradient
    /// statistics, an epoch's end at its rounded (half to even) whole seconds. Returns the
    /// seconds from the start to the target when the run reaches it within `seconds`.
    /// A crossed epoch's rounding may take it a fraction of a second past `seconds`.
    pub fn run_for(
        &self,
        at: &mut Progress,
        placement: &[u32],
        batch: f64,
        seconds: f64,
        pace: f64,
    ) -> Result<Option<f64>, MeasuredError> {
        let rate = self.rate(placement, batch)?;
        self.run_at(at, &rate, seconds, pace)
    }

    /// The rate [`Measured::run_for`] runs at on `placement` at total batch `batch`.
    pub fn rate(&self, placement: &[u32], batch: f64) -> Result<Rate, MeasuredError> {
        let replicas: u32 = placement.iter().sum();
        let c = self.batch_config(replicas, batch);
        let b = c.effective();
        let s = self.step_any(placement, f64::from(c.atomic))?;
        Ok(Rate {
            iteration_s: s.step_s + f64::from(c.accum) * (s.step_s - s.sync_s),
            batch: b,
            scale: b / self.batch_range()[0],
        })
    }

    /// [`Measured::run_for`] at a rate read before ([`Measured::rate`]).
    pub fn run_at(
        &self,
        at: &mut Progress,
        rate: &Rate,
        seconds: f64,
        pace: f64,
    ) -> Result<Option<f64>, MeasuredError> {
        let iteration_s = rate.iteration_s * pace;
        let (mut left, mut used) = (seconds, 0.0);
        while left > 0.0 && at.epoch < self.max_epochs {
            let (sqr, var) = self.grad_stats(rate.batch, at.epoch)?;
            let den = var / rate.scale + sqr;
            let gain = if den > 0.0 { (var + sqr) / den } else { 1.0 };
            match self.stride(at, gain / iteration_s, &mut left, &mut used) {
                Stride::Within => return Ok(None),
                Stride::Target => return Ok(Some(used)),
                Stride::Epoch => {}
            }
        }
        Ok(None)
    }

    /// Runs at goodput `g` from `at` for at most `left` seconds, up to the end of the
    /// current epoch (§1.4): the epoch's end at its whole seconds rounded half to even,
    /// progress snapped to it. `left` and `used` (seconds so far) move with it.
    pub(crate) fn stride(
        &self,
        at: &mut Progress,
        g: f64,
        left: &mut f64,
        used: &mut f64,
    ) -> Stride {
        let next = self.epoch_target(at.epoch + 1);
        if at.progress + g * *left < next {
            at.progress += g * *left;
            *left = 0.0;
            return Stride::Within;
        }
        let d = ((next - at.progress) / g).round_ties_even();
        at.epoch += 1;
        at.progress = next;
        *used += d;
        *left -= d;
        if at.epoch == self.max_epochs {
            Stride::Target
        } else {
            Stride::Epoch
        }
    }

    /// Optimus+Oracle's predicted seconds per iteration on `placement` at total batch
    /// `batch` (POLLUX-SIM.md §4.1): §2.4's split with accumulation forced to at least 1 on
    /// one GPU, then step + accum·(step − sync) from the measurements.
    pub fn oracle_iteration(&self, placement: &[u32], batch: f64) -> Result<f64, MeasuredError> {
        let replicas: u32 = placement.iter().sum();
        let mut c = self.batch_config(replicas, batch);
        if replicas == 1 && c.accum == 0 {
            // The reference's prediction forces an accumulation step on one GPU.
            const EPS: f64 = 1e-8;
            let local = (batch - EPS).ceil();
            let atomic = (local / 2.0 - EPS).ceil();
            let cap = (self.batch_range()[1] / 2.0).floor();
            c.accum = 1;
            c.atomic = atomic.min(cap).max(1.0) as u32;
        }
        let s = self.step_any(placement, f64::from(c.atomic))?;
        Ok(s.step_s + f64::from(c.accum) * (s.step_s - s.sync_s))
    }

    /// Optimus+Oracle's remaining work at `at` for total batch `batch` (POLLUX-SIM.md
    /// §4.1): iter(B, e*) − iter(B, epoch) with e* = max_epochs − 1, or 1 once the epoch
    /// reaches e* (the reference's quirk leaves one epoch out).
    pub fn oracle_remaining(&self, at: &Progress, batch: f64) -> Result<f64, MeasuredError> {
        let last = self.max_epochs.saturating_sub(1);
        if last <= at.epoch {
            return Ok(1.0);
        }
        Ok(self.iteration(batch, last)? - self.iteration(batch, at.epoch)?)
    }

    /// The share of the target `at` has reached, in [0, 1].
    pub fn share_done(&self, at: &Progress) -> f64 {
        if at.epoch >= self.max_epochs {
            1.0
        } else {
            (at.progress / self.target()).clamp(0.0, 1.0)
        }
    }
}

/// Where a stretch of a run ended ([`Measured::stride`]).
pub(crate) enum Stride {
    /// Inside the epoch: the time ran out.
    Within,
    /// At the end of an epoch, the target not reached.
    Epoch,
    /// At the target.
    Target,
}

/// The whole seconds a run of these epochs takes: each epoch rounded half to even, as the
/// reference rounds them (POLLUX-SIM.md §1.4), then summed.
pub fn rounded_total(epoch_seconds: &[f64]) -> f64 {
    epoch_seconds
        .iter()
        .copied()
        .map(f64::round_ties_even)
        .sum()
}

/// A placement's row id: its nodes' GPU counts without zeros, in the lexicographically
/// smallest rotation, as digits (`(4, 2)` and `(2, 4)` are `24`; `(1, 3, 2)` is `132`,
/// `(1, 2, 3)` is `123`: rotation, not sorting).
pub fn placement_id(placement: &[u32]) -> Result<String, MeasuredError> {
    id_of(placement, 4)
}

/// [`placement_id`] on nodes of up to `per_node` GPUs (at most 9: one digit each).
fn id_of(placement: &[u32], per_node: u32) -> Result<String, MeasuredError> {
    let nodes: Vec<u32> = placement.iter().copied().filter(|&g| g > 0).collect();
    if nodes.is_empty() {
        return Err(MeasuredError::Placement("a placement needs a GPU".into()));
    }
    if let Some(g) = nodes.iter().find(|&&g| g > per_node.min(9)) {
        return Err(MeasuredError::Placement(format!(
            "placement {}: a node has {g} GPUs, at most {per_node} were measured",
            display(placement)
        )));
    }
    // The rotations compared in place and the digits written once: every step of a
    // simulation asks for an id, so no vector or string per rotation.
    let n = nodes.len();
    let nodes = &nodes;
    let rotation = |k: usize| (0..n).map(move |i| nodes[(k + i) % n]);
    let best = (1..n).fold(0, |b, k| if rotation(k).lt(rotation(b)) { k } else { b });
    // Each count is 1…9 (checked above): one digit.
    Ok(rotation(best).map(|g| char::from(b'0' + g as u8)).collect())
}

/// A placement as people write it, `4,4,2`; past [`MAX_NODES`] machines its first eight
/// and the count (`5,1,1,1,1,1,1,1,… (30001 machines)`), so that a message stays a line.
fn display(placement: &[u32]) -> String {
    let shown = if placement.len() > MAX_NODES as usize {
        &placement[..8]
    } else {
        placement
    };
    let text = shown
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    if shown.len() < placement.len() {
        format!("{text},… ({} machines)", placement.len())
    } else {
        text
    }
}

/// The rows at `local` of a row set sorted by local batch: measured, or linear between
/// the two around it; `None` outside its range.
fn along(rows: &[Row], local: f64) -> Option<Step> {
    let (first, last) = (rows.first()?.local, rows.last()?.local);
    if !(first..=last).contains(&local) {
        return None;
    }
    let k = rows.partition_point(|r| r.local < local);
    let hi = rows[k];
    if hi.local == local {
        return Some(Step {
            step_s: hi.step,
            sync_s: hi.sync,
            source: Source::Measured,
        });
    }
    let lo = rows[k - 1];
    let t = (local - lo.local) / (hi.local - lo.local);
    Some(Step {
        step_s: lo.step + t * (hi.step - lo.step),
        sync_s: lo.sync + t * (hi.sync - lo.sync),
        source: Source::Interpolated,
    })
}

/// Reads one application's placements, scalability and validation files on `gpu`.
fn read(app: App, gpu: Gpu) -> Result<Measured, MeasuredError> {
    let i = app as usize;
    let name = app.name();
    let [(placements_file, placements_text), (scalability_file, scalability_text)] =
        step_tables(app, gpu);
    let fail = |file: String, m: String| MeasuredError::Data(format!("{file}: {m}"));
    let table = |file: String, text: &str, cols: &[&str]| -> Result<Vec<Vec<f64>>, MeasuredError> {
        let rows = csv::columns(text, cols).map_err(|m| fail(file.clone(), m))?;
        rows.iter()
            .map(|(line, cells)| {
                cells
                    .iter()
                    .map(|cell| {
                        cell.parse::<f64>().map_err(|_| {
                            fail(
                                file.clone(),
                                format!("line {line}: {cell:?} is not a number"),
                            )
                        })
                    })
                    .collect()
            })
            .collect()
    };
    let mut placements: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let file = placements_file;
    let cols = ["placement", "local_bsz", "step_time", "sync_time"];
    for r in table(file.clone(), placements_text, &cols)? {
        let digits = format!("{}", r[0] as u64);
        let nodes: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(10)).collect();
        let id = id_of(&nodes, gpu.per_node()).map_err(|e| fail(file.clone(), e.to_string()))?;
        placements.entry(id).or_default().push(Row {
            local: r[1],
            step: r[2],
            sync: r[3],
        });
    }
    for rows in placements.values_mut() {
        rows.sort_by(|a, b| a.local.total_cmp(&b.local));
    }
    let locals = placements.values().flatten().map(|r| r.local);
    let min = locals.clone().fold(f64::INFINITY, f64::min);
    let mut max = locals.fold(0.0, f64::max);
    let table_local = [
        min,
        if app == App::Deepspeech2 && gpu == Gpu::Rtx2080ti {
            // The Sia artifact holds deepspeech2 on the RTX 2080 Ti at 57 (MODEL.md §24.1).
            57.0
        } else {
            max
        },
    ];
    let mut by_replicas: BTreeMap<u32, f64> = BTreeMap::new();
    for (id, rows) in &placements {
        let replicas: u32 = id.chars().filter_map(|c| c.to_digit(10)).sum();
        let top = rows.iter().map(|r| r.local).fold(0.0, f64::max);
        let kept = by_replicas.entry(replicas).or_insert(top);
        *kept = kept.max(top);
    }
    if app == App::Yolov3 && gpu == Gpu::T4 {
        // The reference caps yolov3's local batch at 8 (POLLUX-SIM.md §2.1).
        max = max.min(8.0);
    }
    let mut validation = Vec::new();
    for &(b, text) in VALIDATION[i] {
        let file = format!("validation/{name}/validation-{b}.csv");
        let cols = ["progress", "iteration", "grad_sqr", "grad_var"];
        let rows = table(file, text, &cols)?
            .into_iter()
            .map(|r| Epoch {
                progress: r[0],
                iteration: r[1],
                grad_sqr: r[2],
                grad_var: r[3],
            })
            .collect();
        validation.push((f64::from(b), rows));
    }
    let file = scalability_file;
    let cols = [
        "num_nodes",
        "num_replicas",
        "local_bsz",
        "step_time",
        "sync_time",
    ];
    let scalability: Vec<[f64; 5]> = table(file, scalability_text, &cols)?
        .into_iter()
        .map(|r| [r[0], r[1], r[2], r[3], r[4]])
        .collect();
    let four_nodes = placements
        .iter()
        .filter(|(id, _)| id.len() == 4)
        .flat_map(|(id, rows)| {
            let replicas: u32 = id.chars().filter_map(|c| c.to_digit(10)).sum();
            rows.iter().map(move |r| (replicas, r))
        });
    let wide = wide::Wide::build(four_nodes, &scalability);
    let mut scalability_max: Vec<(u32, u32, f64)> = Vec::new();
    for r in &scalability {
        let (n, g) = (r[0] as u32, r[1] as u32);
        match scalability_max.iter_mut().find(|x| x.0 == n && x.1 == g) {
            Some(x) => x.2 = x.2.max(r[2]),
            None => scalability_max.push((n, g, r[2])),
        }
    }
    let layers = if gpu == Gpu::T4 {
        BTreeMap::new()
    } else {
        layers_of(&placements, &scalability)
    };
    if placements.is_empty() || validation.is_empty() {
        return Err(MeasuredError::Data(format!("{name}: no measurements")));
    }
    Ok(Measured {
        app,
        gpu,
        layers,
        table_local,
        by_replicas,
        scalability_max,
        placements,
        wide,
        validation,
        local: [min, max],
        max_epochs: app.facts().epochs as usize,
        candidates: (0..=64).map(|_| OnceLock::new()).collect(),
    })
}

/// Every row by (nodes, replicas): the placements' (their rows at equal local batches
/// averaged over placements of equal size) and the scalability file's, each sorted by
/// local batch.
fn layers_of(
    placements: &BTreeMap<String, Vec<Row>>,
    scalability: &[[f64; 5]],
) -> BTreeMap<(u32, u32), Vec<Row>> {
    let mut sums: BTreeMap<(u32, u32, u64), (f64, f64, f64)> = BTreeMap::new();
    let rows = placements
        .iter()
        .flat_map(|(id, rows)| {
            let replicas: u32 = id.chars().filter_map(|c| c.to_digit(10)).sum();
            rows.iter().map(move |r| (id.len() as u32, replicas, *r))
        })
        .chain(scalability.iter().map(|r| {
            let row = Row {
                local: r[2],
                step: r[3],
                sync: r[4],
            };
            (r[0] as u32, r[1] as u32, row)
        }));
    for (n, g, r) in rows {
        let e = sums.entry((n, g, r.local.to_bits())).or_default();
        *e = (e.0 + r.step, e.1 + r.sync, e.2 + 1.0);
    }
    let mut layers: BTreeMap<(u32, u32), Vec<Row>> = BTreeMap::new();
    for ((n, g, local), (step, sync, k)) in sums {
        layers.entry((n, g)).or_default().push(Row {
            local: f64::from_bits(local),
            step: step / k,
            sync: sync / k,
        });
    }
    for rows in layers.values_mut() {
        rows.sort_by(|a, b| a.local.total_cmp(&b.local));
    }
    layers
}

#[cfg(test)]
pub(crate) mod tests;
