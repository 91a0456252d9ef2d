//! docs/CALIBRATION.md: the speed model against the step times the Pollux artifact measured
//! (Qiao et al., OSDI 2021; `data/pollux/README.md`), with a fit of its free parameters.
//!
//! **The mapping.** The artifact ran PyTorch DDP (ring all-reduce); the model has parameter
//! servers. A measured run with w GPUs becomes w workers and **one PS co-located with each
//! worker** (p = w, on the same node): a node with g GPUs holds the share (g, g). Its
//! locality factor ρ is [`smd_core::locality::factor`] (sync) with β = B / local_gbps, and
//! the model's time of one iteration is `T_placed(w, p, ρ) / E` ([`JobModel::t_placed`]) of
//! the application's preset ([`crate::preset`], one owner of the job's derivation) at the
//! global batch K = b·w with per-worker batch m = b. E cancels in T/E, so the job is built
//! with E = 1 and without the check that K lies in the validation table.
//!
//! Per iteration that is `β1·w + η2·t_b + η1·b·t_f + η3·(2G/B)·ρ` (β2 = 0: with p = w only
//! β1 + β2 is seen, [`crate::calibrated::PS_OVERHEAD_S`]). The η's come from the WFBP
//! simulation at τ = 2G/B, so they move with B.
//!
//! **The free parameters** are global, shared by the six applications: B (the cross-machine
//! Gbps of a PS), `local_gbps` (the rate between tasks on one node) and β1 (s per worker
//! per iteration, ≥ 0). Global, because they describe the machines and the network, not a
//! model; a planner needs them for applications that were never measured. [`calibrate`]
//! also fits them per application (the `own` columns of the report) to show how much of
//! the error is the model's shape rather than the parameters' values.
//!
//! **The fit** ([`fit`]) minimises Σ (model/measured − 1)² over a training part of the
//! points: a seeded split per application ([`split`]; one `smd_core::rng` stream per
//! application, so the split of one application never depends on another's data). β1
//! enters the model linearly, so for given (B, local) its best value ≥ 0 is closed-form;
//! (ln B, ln local) are searched by a coarse grid and then Nelder–Mead in a box (B in
//! 0.01–1000 Gbps, local in 0.01–10⁵ Gbps). Deterministic: the same seed gives the same
//! numbers on every platform.
//!
//! **The report** ([`Report`]): median and 90th-percentile absolute percentage error (APE)
//! on the held-out points, single machine vs across machines, per application and overall,
//! and the worst cases.

mod data;
mod search;

pub use crate::calibrated::Params;
pub use data::{measurements, parse, DataError, Source};

use crate::app::App;
use crate::preset::{self, PresetError, PresetOptions};
use serde::Serialize;
use smd_core::locality::{self, Share};
use smd_core::model::JobModel;
use smd_core::scenario::{Mode, Resources};
use std::collections::BTreeMap;

/// One measured step: an application, a placement, a local batch and what was timed.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The application.
    pub app: App,
    /// The file it comes from.
    pub source: Source,
    /// Its 1-based line in that file.
    pub line: usize,
    /// GPUs on each node the run used (a placement: `[2, 2, 2, 2]` is `2222`).
    pub nodes: Vec<u32>,
    /// b: the local (per-GPU) batch.
    pub local_batch: f64,
    /// The measured step time, s (it includes `sync_s`).
    pub step_s: f64,
    /// The measured non-overlapped tail of gradient synchronisation, s.
    pub sync_s: f64,
}

impl Point {
    /// w: the GPUs (workers) of the run.
    pub fn workers(&self) -> u32 {
        self.nodes.iter().sum()
    }

    /// Whether the run spans more than one machine.
    pub fn across(&self) -> bool {
        self.nodes.len() > 1
    }

    /// The placement as the artifact writes it (`2222`); counts above 9 separated by `+`.
    pub fn placement(&self) -> String {
        let sep = if self.nodes.iter().all(|&g| g <= 9) {
            ""
        } else {
            "+"
        };
        let parts: Vec<String> = self.nodes.iter().map(u32::to_string).collect();
        parts.join(sep)
    }

    /// The placement under the mapping: on every node as many PSs as workers.
    pub fn shares(&self) -> Vec<Share> {
        self.nodes.iter().map(|&g| (g as f64, g as f64)).collect()
    }
}

impl Params {
    fn check(&self) -> Result<(), CalibrateError> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if positive(self.cross_gbps)
            && positive(self.local_gbps)
            && self.worker_overhead_s.is_finite()
            && self.worker_overhead_s >= 0.0
        {
            Ok(())
        } else {
            Err(CalibrateError::Options {
                field: "params",
                message: format!(
                    "need cross_gbps > 0, local_gbps > 0 and worker_overhead_s ≥ 0, all finite \
                     (got {:?})",
                    self
                ),
            })
        }
    }
}

/// Why a calibration cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum CalibrateError {
    /// A measurement file does not read.
    Data(DataError),
    /// An option is out of range.
    Options {
        /// The option: `train_share` or `params`.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A point's job cannot be built.
    Preset(PresetError),
    /// There is nothing to fit.
    NoPoints,
}

impl std::fmt::Display for CalibrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CalibrateError::Data(e) => write!(f, "the bundled measurements: {e}"),
            CalibrateError::Options { field, message } => write!(f, "{field}: {message}"),
            CalibrateError::Preset(e) => write!(f, "a measured point's job: {e}"),
            CalibrateError::NoPoints => f.write_str("no measured points to fit"),
        }
    }
}

impl std::error::Error for CalibrateError {}

impl From<DataError> for CalibrateError {
    fn from(e: DataError) -> Self {
        CalibrateError::Data(e)
    }
}

impl From<PresetError> for CalibrateError {
    fn from(e: PresetError) -> Self {
        CalibrateError::Preset(e)
    }
}

/// The job the model sees at `point`: the preset at K = b·w with m = b, E = 1, and the
/// speed parameters `params`.
fn job_at(point: &Point, params: &Params) -> Result<smd_core::scenario::Job, PresetError> {
    let w = f64::from(point.workers());
    let opts = PresetOptions {
        minibatch: Some(point.local_batch),
        ..PresetOptions::batch(point.local_batch * w)
    };
    preset::build(point.app, &opts, 1.0, params)
}

/// The model's time of one iteration at `point`, s: `T_placed(w, w, ρ) / E` of its job
/// (module docs).
pub fn iteration_time(point: &Point, params: &Params) -> Result<f64, CalibrateError> {
    params.check()?;
    let job = job_at(point, params)?;
    let w = f64::from(point.workers());
    let model = JobModel::new(&job, &Resources::DEFAULT_INSTANCE, None);
    let rho = rho(point, params);
    Ok(model.t_placed(w, w, rho) / job.iterations)
}

/// ρ of the point's placement under the mapping.
fn rho(point: &Point, params: &Params) -> f64 {
    let beta = locality::beta(params.cross_gbps, Some(params.local_gbps));
    locality::factor(Mode::Sync, &point.shares(), beta)
}

/// The training part of a seeded split: `true` for a point to fit on, `false` for a point
/// held out. Per application, its points are shuffled (Fisher–Yates on stream `app` of
/// `seed`) and the first `round(share·n)` train, at least one and at most n − 1 when the
/// application has two points or more. `train_share` is clamped to [0, 1]; a non-finite
/// one counts as 0.5 ([`calibrate`] rejects both before splitting).
pub fn split(points: &[Point], seed: u64, train_share: f64) -> Vec<bool> {
    let mut train = vec![false; points.len()];
    for app in App::ALL {
        let mut idx: Vec<usize> = (0..points.len())
            .filter(|&i| points[i].app == app)
            .collect();
        let n = idx.len();
        if n == 0 {
            continue;
        }
        let mut rng = smd_core::rng::Stream::new(seed, app as u64);
        for i in (1..n).rev() {
            let j = rng.int(0, i as u64) as usize;
            idx.swap(i, j);
        }
        let share = if train_share.is_finite() {
            train_share.clamp(0.0, 1.0)
        } else {
            0.5
        };
        let k = if n == 1 {
            1
        } else {
            ((share * n as f64).round() as usize).clamp(1, n - 1)
        };
        for &i in &idx[..k] {
            train[i] = true;
        }
    }
    train
}

/// A fit of B, `local_gbps` and β1 to a set of points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// The fitted parameters.
    pub params: Params,
    /// Root mean square of the relative error (model/measured − 1) over the points fitted, %.
    pub rms_pct: f64,
    /// Points fitted.
    pub points: usize,
    /// Evaluations of the loss (each over every point fitted) the search spent.
    pub evaluations: usize,
    /// Parameters that ended on the edge of their range (`cross_gbps`, `local_gbps`,
    /// `worker_overhead_s`): the data only bound them from one side.
    pub at_bound: Vec<&'static str>,
}

/// The search box of (ln B, ln local_gbps): B in 0.01–1000 Gbps, local in 0.01–10⁵ Gbps,
/// wide enough that an edge means "not identified", never "cut off".
const BOX: search::Bounds<2> = search::Bounds {
    lo: [-4.605_170_185_988_091, -4.605_170_185_988_091],
    hi: [6.907_755_278_982_137, 11.512_925_464_970_229],
};

/// The points to fit, prepared once: one job model per distinct (application, b, w).
struct Prepared<'a> {
    points: Vec<&'a Point>,
    /// A representative point of each distinct job.
    jobs: Vec<&'a Point>,
    /// Per point: its job's index.
    job_of: Vec<usize>,
}

impl<'a> Prepared<'a> {
    fn new(points: &[&'a Point]) -> Prepared<'a> {
        let mut index: BTreeMap<(usize, u64, u32), usize> = BTreeMap::new();
        let mut jobs = Vec::new();
        let job_of = points
            .iter()
            .map(|p| {
                let key = (p.app as usize, p.local_batch.to_bits(), p.workers());
                *index.entry(key).or_insert_with(|| {
                    jobs.push(*p);
                    jobs.len() - 1
                })
            })
            .collect();
        Prepared {
            points: points.to_vec(),
            jobs,
            job_of,
        }
    }

    /// For B and local_gbps: the best β1 ≥ 0 and the sum of squared relative errors there.
    ///
    /// With β1 = 0 the model gives `base_i`; the full model is `base_i + β1·w_i`, so with
    /// `u_i = w_i/y_i` and `r_i = 1 − base_i/y_i` the loss `Σ (β1·u_i − r_i)²` is least at
    /// `β1 = Σ u_i·r_i / Σ u_i²`, or at 0 when that is negative (the loss is convex in β1).
    fn profile(&self, cross_gbps: f64, local_gbps: f64) -> Result<(f64, f64), PresetError> {
        let params = Params {
            cross_gbps,
            local_gbps,
            worker_overhead_s: 0.0,
        };
        let models = self
            .jobs
            .iter()
            .map(|p| {
                let job = job_at(p, &params)?;
                Ok((
                    JobModel::new(&job, &Resources::DEFAULT_INSTANCE, None),
                    job.iterations,
                ))
            })
            .collect::<Result<Vec<_>, PresetError>>()?;
        let base: Vec<(f64, f64, f64)> = self
            .points
            .iter()
            .zip(&self.job_of)
            .map(|(p, &j)| {
                let w = f64::from(p.workers());
                let (model, e) = &models[j];
                (model.t_placed(w, w, rho(p, &params)) / e, w, p.step_s)
            })
            .collect();
        let (mut ur, mut uu) = (0.0, 0.0);
        for &(b, w, y) in &base {
            let u = w / y;
            ur += u * (1.0 - b / y);
            uu += u * u;
        }
        let beta1 = if uu > 0.0 { (ur / uu).max(0.0) } else { 0.0 };
        let loss = base
            .iter()
            .map(|&(b, w, y)| ((b + beta1 * w) / y - 1.0).powi(2))
            .sum();
        Ok((beta1, loss))
    }
}

/// Fits B, local_gbps and β1 to `points` (module docs: the method).
pub fn fit(points: &[&Point]) -> Result<Fit, CalibrateError> {
    if points.is_empty() {
        return Err(CalibrateError::NoPoints);
    }
    let prepared = Prepared::new(points);
    // Every job is built before the search, so that a failure is reported, not searched
    // around as an infinite loss.
    prepared.profile(1.0, 1.0)?;
    let found = search::minimise(&BOX, |[ln_b, ln_l]| {
        prepared
            .profile(ln_b.exp(), ln_l.exp())
            .map_or(f64::INFINITY, |(_, loss)| loss)
    });
    let [ln_b, ln_l] = found.x;
    let (cross_gbps, local_gbps) = (ln_b.exp(), ln_l.exp());
    let (beta1, loss) = prepared.profile(cross_gbps, local_gbps)?;
    let edge = |v: f64, i: usize| (v - BOX.lo[i]).abs() < 1e-6 || (BOX.hi[i] - v).abs() < 1e-6;
    let mut at_bound = Vec::new();
    if edge(ln_b, 0) {
        at_bound.push("cross_gbps");
    }
    if edge(ln_l, 1) {
        at_bound.push("local_gbps");
    }
    if beta1 == 0.0 {
        at_bound.push("worker_overhead_s");
    }
    Ok(Fit {
        params: Params {
            cross_gbps,
            local_gbps,
            worker_overhead_s: beta1,
        },
        rms_pct: 100.0 * (loss / points.len() as f64).sqrt(),
        points: points.len(),
        evaluations: found.evaluations + 2,
        at_bound,
    })
}

/// One point with the model's time beside the measured one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluated {
    /// The application's name.
    pub app: &'static str,
    /// The file the point comes from.
    pub source: Source,
    /// Its line there.
    pub line: usize,
    /// The placement (`2222`).
    pub placement: String,
    /// w.
    pub workers: u32,
    /// Whether it spans machines.
    pub across: bool,
    /// b.
    pub local_batch: f64,
    /// The measured step time, s.
    pub measured_s: f64,
    /// The model's time of one iteration, s.
    pub model_s: f64,
    /// `100·(model/measured − 1)`: positive when the model is slower than the measurement.
    pub error_pct: f64,
}

impl Evaluated {
    /// The absolute percentage error.
    pub fn ape_pct(&self) -> f64 {
        self.error_pct.abs()
    }
}

/// The model at `params` beside every point.
pub fn evaluate(points: &[&Point], params: &Params) -> Result<Vec<Evaluated>, CalibrateError> {
    points
        .iter()
        .map(|p| {
            let model_s = iteration_time(p, params)?;
            Ok(Evaluated {
                app: p.app.name(),
                source: p.source,
                line: p.line,
                placement: p.placement(),
                workers: p.workers(),
                across: p.across(),
                local_batch: p.local_batch,
                measured_s: p.step_s,
                model_s,
                error_pct: 100.0 * (model_s / p.step_s - 1.0),
            })
        })
        .collect()
}

/// Error statistics of a set of evaluated points (`None` when the set is empty).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Errors {
    /// Points.
    pub count: usize,
    /// Median absolute percentage error, %.
    pub median_ape_pct: Option<f64>,
    /// 90th percentile of the absolute percentage error, %.
    pub p90_ape_pct: Option<f64>,
    /// Median signed error, %: negative when the model is mostly too fast.
    pub median_error_pct: Option<f64>,
    /// The largest absolute percentage error, %.
    pub max_ape_pct: Option<f64>,
}

impl Errors {
    /// The statistics of `evaluated`. Percentiles interpolate linearly between order
    /// statistics (the q-quantile of n sorted values sits at rank q·(n − 1)).
    pub fn of<'a>(evaluated: impl IntoIterator<Item = &'a Evaluated>) -> Errors {
        let mut ape: Vec<f64> = Vec::new();
        let mut signed: Vec<f64> = Vec::new();
        for e in evaluated {
            ape.push(e.ape_pct());
            signed.push(e.error_pct);
        }
        ape.sort_by(f64::total_cmp);
        signed.sort_by(f64::total_cmp);
        Errors {
            count: ape.len(),
            median_ape_pct: quantile(&ape, 0.5),
            p90_ape_pct: quantile(&ape, 0.9),
            median_error_pct: quantile(&signed, 0.5),
            max_ape_pct: ape.last().copied(),
        }
    }
}

/// The q-quantile of sorted values, linear between order statistics.
fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let at = q.clamp(0.0, 1.0) * last as f64;
    let (i, f) = (at.floor() as usize, at.fract());
    let hi = sorted[(i + 1).min(last)];
    Some(sorted[i] + f * (hi - sorted[i]))
}

/// Errors on one machine, across machines, and both.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cells {
    /// Runs on one machine.
    pub single: Errors,
    /// Runs across machines.
    pub across: Errors,
    /// All runs.
    pub all: Errors,
}

impl Cells {
    /// The cells of `evaluated`.
    pub fn of(evaluated: &[&Evaluated]) -> Cells {
        Cells {
            single: Errors::of(evaluated.iter().copied().filter(|e| !e.across)),
            across: Errors::of(evaluated.iter().copied().filter(|e| e.across)),
            all: Errors::of(evaluated.iter().copied()),
        }
    }
}

/// One application's part of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AppReport {
    /// The application's name.
    pub app: &'static str,
    /// Its points in the training part.
    pub train: usize,
    /// Held-out errors at the global fit.
    pub held_out: Cells,
    /// The parameters fitted to this application's training points alone (when asked).
    pub own_fit: Option<Fit>,
    /// Held-out errors at `own_fit`.
    pub own: Option<Cells>,
}

/// How to calibrate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Options {
    /// The seed of the train/test split.
    pub seed: u64,
    /// The share of each application's points to fit on, in (0, 1).
    pub train_share: f64,
    /// Also fit each application alone (the report's `own` columns).
    pub per_app: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 1,
            train_share: 0.5,
            per_app: true,
        }
    }
}

/// How many of the worst held-out points the report lists.
pub const WORST: usize = 10;

/// The calibration: a fit on the training part, errors on the held-out part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The options it ran with.
    pub options: Options,
    /// Measured rows (every data row of the twelve files).
    pub measured: usize,
    /// Rows fitted on.
    pub train: usize,
    /// Rows held out.
    pub held_out: usize,
    /// The global fit on the training part.
    pub fit: Fit,
    /// Held-out errors over all applications.
    pub overall: Cells,
    /// Held-out errors over all applications, each at its own fit (when asked).
    pub overall_own: Option<Cells>,
    /// Per application, in [`App::ALL`]'s order.
    pub apps: Vec<AppReport>,
    /// The [`WORST`] held-out points with the largest absolute error, worst first.
    pub worst: Vec<Evaluated>,
    /// Every held-out point at the global fit, in data order (the figure's points).
    pub points: Vec<Evaluated>,
}

/// Fits on a seeded training part of the bundled measurements and reports the held-out
/// errors (module docs).
pub fn calibrate(options: &Options) -> Result<Report, CalibrateError> {
    let share = options.train_share;
    if !(share.is_finite() && share > 0.0 && share < 1.0) {
        return Err(CalibrateError::Options {
            field: "train_share",
            message: format!(
                "must be strictly between 0 and 1 (got {})",
                smd_core::error::num(share)
            ),
        });
    }
    let all = measurements()?;
    let train_mask = split(&all, options.seed, share);
    let part = |keep: bool, app: Option<App>| -> Vec<&Point> {
        all.iter()
            .zip(&train_mask)
            .filter(|(p, &t)| t == keep && app.is_none_or(|a| p.app == a))
            .map(|(p, _)| p)
            .collect()
    };
    let (train, test) = (part(true, None), part(false, None));
    let global = fit(&train)?;
    let points = evaluate(&test, &global.params)?;
    let refs: Vec<&Evaluated> = points.iter().collect();
    let mut apps = Vec::new();
    let mut own_points = Vec::new();
    for app in App::ALL {
        let mine: Vec<&Evaluated> = refs
            .iter()
            .copied()
            .filter(|e| e.app == app.name())
            .collect();
        let app_train = part(true, Some(app));
        let (own_fit, own) = if options.per_app {
            let f = fit(&app_train)?;
            let own = evaluate(&part(false, Some(app)), &f.params)?;
            let cells = Cells::of(&own.iter().collect::<Vec<_>>());
            own_points.extend(own);
            (Some(f), Some(cells))
        } else {
            (None, None)
        };
        apps.push(AppReport {
            app: app.name(),
            train: app_train.len(),
            held_out: Cells::of(&mine),
            own_fit,
            own,
        });
    }
    let mut worst = points.clone();
    // Stable: equal errors stay in data order.
    worst.sort_by(|a, b| b.ape_pct().total_cmp(&a.ape_pct()));
    worst.truncate(WORST);
    Ok(Report {
        options: *options,
        measured: all.len(),
        train: train.len(),
        held_out: test.len(),
        overall: Cells::of(&refs),
        overall_own: options
            .per_app
            .then(|| Cells::of(&own_points.iter().collect::<Vec<_>>())),
        fit: global,
        apps,
        worst,
        points,
    })
}

#[cfg(test)]
mod tests;
