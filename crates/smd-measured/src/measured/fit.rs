//! The reference's seven-parameter throughput model (`../shared/POLLUX-SIM.md` §3.1) and
//! its fit on an application's measurements (§3.2), for where the tables do not reach and
//! for planners that search allocations smoothly (docs/MODEL.md §21).
//!
//! **The fit.** §3.2's objective, minimised within its bounds from its start point, with
//! its pinning rules. The reference uses scipy's L-BFGS-B; this module has its own
//! deterministic optimiser (no randomness, no hashing, a fixed sequence of floating-point
//! operations): a projected quasi-Newton method (BFGS on the variables not held at a
//! bound, Armijo backtracking along the projected path) on log α and log β (their scale
//! spans decades) and γ itself, with the analytic gradient. Where it differs from the
//! reference (docs/MODEL.md §21):
//! - each RMSE is `sqrt(mean(r²) + 1e-8)`: the objective is then smooth where a residual
//!   vanishes, and a single point (§3.2's test vector), whose objective is flat between
//!   its compute and step times, has one minimum (their geometric mean) instead of
//!   wherever a line search stops; on real data (RMSE ≥ 0.01) it moves the objective by
//!   under 1e-6;
//! - it stops by scipy's default rules (projected gradient in the parameters' own units
//!   ≤ 1e-5, or a relative decrease ≤ 2.2e-9), so it stops about where the reference
//!   would, not further (§3.2's vector: γ = 1.0003 against 1.001, its gradient ~1e-6).
//!
//! The network time of one replica is the reference's `1e-8 + 1e-8·1e-8`, kept as is.
//!
//! Logarithms and exponentials are `libm`'s, not the platform's: a Pollux run refits this
//! model thousands of times and chooses batches by its predictions, so a last-bit
//! difference between glibc and wasm's maths would grow into different runs. With `libm`
//! the same observations give the same bits natively and in wasm.

use super::MeasuredError;
use crate::app::App;
use crate::csv;
use crate::files::step_tables;
use crate::gpu::Gpu;

/// The lower bound of every α and β, and the value pinned ones take (POLLUX-SIM.md §3.2).
const FLOOR: f64 = 1e-8;
/// γ's bounds (§3.2).
const GAMMA: [f64; 2] = [1.0, 10.0];
/// The start point (§3.2).
const START: [f64; 7] = [0.1, 0.01, 0.1, 0.01, 0.1, 0.01, 1.001];
/// scipy's L-BFGS-B stopping rules: projected gradient, and factr · machine epsilon.
const PGTOL: f64 = 1e-5;
const FTOL: f64 = 1e7 * f64::EPSILON;
/// Smooths each RMSE at zero (module doc).
const SMOOTH: f64 = 1e-8;

/// The seven parameters θ = (α_c, β_c, α_n, β_n, α_r, β_r, γ) of POLLUX-SIM.md §3.1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Throughput {
    /// Compute time of a micro-step at local batch 0, seconds.
    pub alpha_c: f64,
    /// Compute time per example of the local batch, seconds.
    pub beta_c: f64,
    /// Network time over more than one node at 2 replicas, seconds.
    pub alpha_n: f64,
    /// Network time per replica beyond 2 over more than one node, seconds.
    pub beta_n: f64,
    /// Network time on one node at 2 replicas, seconds.
    pub alpha_r: f64,
    /// Network time per replica beyond 2 on one node, seconds.
    pub beta_r: f64,
    /// Overlap of compute and network: 1 none, large → max of the two.
    pub gamma: f64,
}

/// One measured step: where (nodes, replicas, local batch) and how long (step and sync).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    /// Nodes N (digit count of a placement id).
    pub nodes: u32,
    /// Replicas R (digit sum of a placement id).
    pub replicas: u32,
    /// Local (atomic) batch b.
    pub local: f64,
    /// Measured step time, seconds.
    pub step: f64,
    /// Measured sync time (the part not hidden behind compute), seconds.
    pub sync: f64,
}

impl Throughput {
    /// The parameters as an array in §3.1's order.
    pub fn to_array(self) -> [f64; 7] {
        [
            self.alpha_c,
            self.beta_c,
            self.alpha_n,
            self.beta_n,
            self.alpha_r,
            self.beta_r,
            self.gamma,
        ]
    }

    /// The parameters from an array in §3.1's order.
    pub fn from_array(p: [f64; 7]) -> Throughput {
        Throughput {
            alpha_c: p[0],
            beta_c: p[1],
            alpha_n: p[2],
            beta_n: p[3],
            alpha_r: p[4],
            beta_r: p[5],
            gamma: p[6],
        }
    }

    /// Compute time T_c = α_c + β_c·b of one micro-step at local batch `atomic_bsz`.
    pub fn compute_time(&self, atomic_bsz: f64) -> f64 {
        self.alpha_c + self.beta_c * atomic_bsz
    }

    /// Network time T_net of an all-reduce over `replicas` on `nodes` (§3.1).
    pub fn network_time(&self, nodes: u32, replicas: u32) -> f64 {
        let (a, b) = self.network_pair(nodes, replicas);
        a + b * retrogress(replicas)
    }

    fn network_pair(&self, nodes: u32, replicas: u32) -> (f64, f64) {
        if nodes > 1 {
            (self.alpha_n, self.beta_n)
        } else if replicas > 1 {
            (self.alpha_r, self.beta_r)
        } else {
            // One replica: the reference's default 1e-8 for both (§3.1: ≈ 1e-8).
            (FLOOR, FLOOR)
        }
    }

    /// One iteration on `nodes` nodes and `replicas` GPUs at local batch `atomic_bsz` with
    /// `accum` accumulation steps (POLLUX-SIM.md §3.1): `(step_s, sync_s)` with
    /// step_s = s·T_c + T_s, T_s = (T_c^γ + T_net^γ)^(1/γ), and sync_s = T_s − T_c, the part
    /// of the synchronising step not hidden behind compute — the reading that makes
    /// `accum = 0` comparable with a measured row (whose step − sync is its compute, §3.2).
    pub fn step_time(&self, nodes: u32, replicas: u32, atomic_bsz: f64, accum: u32) -> (f64, f64) {
        let (tc, ts) = self.sync_step(libm::log(self.network_time(nodes, replicas)), atomic_bsz);
        (iteration(f64::from(accum), tc, ts), ts - tc)
    }

    /// The compute time T_c of a micro-step at local batch `atomic_bsz` and the
    /// synchronising step's T_s, with ln T_net given (one per allocation, for the
    /// candidates of §3.4): `(T_c, T_s)`.
    pub(crate) fn sync_step(&self, ln_tn: f64, atomic_bsz: f64) -> (f64, f64) {
        let tc = self.compute_time(atomic_bsz);
        let ts = libm::exp(log_sync_step(libm::log(tc), ln_tn, self.gamma).0);
        (tc, ts)
    }
}

/// An iteration's seconds: `accum` accumulation micro-steps of T_c, then the synchronising
/// step T_s (§3.1's s·T_c + T_s).
pub(crate) fn iteration(accum: f64, tc: f64, ts: f64) -> f64 {
    accum * tc + ts
}

/// max(R − 2, 1e-8) (§3.1).
fn retrogress(replicas: u32) -> f64 {
    (f64::from(replicas) - 2.0).max(FLOOR)
}

/// T_s = (T_c^γ + T_n^γ)^(1/γ) in logs, from ln T_c and ln T_n (no overflow or underflow
/// of the powers): (ln T_s, w_c) with the weight w_c = T_c^γ / (T_c^γ + T_n^γ). One of
/// the two powers is 1 (the larger term factored out), so it costs one exp and one ln_1p.
fn log_sync_step(lc: f64, ln: f64, gamma: f64) -> (f64, f64) {
    let d = gamma * (lc - ln).abs();
    let e = libm::exp(-d);
    let log = lc.max(ln) + libm::log1p(e) / gamma;
    // w_c = T_c^γ / (T_c^γ + T_n^γ), from the same e.
    let wc = if lc >= ln {
        1.0 / (1.0 + e)
    } else {
        e / (1.0 + e)
    };
    (log, wc)
}

/// The observations of an application in file order: every row of its `placements` file
/// (N = the placement's digit count, R = its digit sum), then every row of its
/// `scalability` file (POLLUX-SIM.md §2.1, §3.2) — the T4's ([`observations_on`]).
pub fn observations(app: App) -> Result<Vec<Observation>, MeasuredError> {
    observations_on(app, Gpu::T4)
}

/// The observations of an application on GPU type `gpu` (docs/MODEL.md §24.1): its
/// placement file's rows, then its scalability file's, read by their headers (their column
/// orders differ between types).
pub fn observations_on(app: App, gpu: Gpu) -> Result<Vec<Observation>, MeasuredError> {
    let [(file, placements), (scalability_file, scalability)] = step_tables(app, gpu);
    let mut out = Vec::new();
    for r in by_header(
        &file,
        placements,
        &["placement", "local_bsz", "step_time", "sync_time"],
    )? {
        let digits: Vec<u32> = r[0].chars().filter_map(|c| c.to_digit(10)).collect();
        if digits.is_empty() || digits.len() != r[0].len() || digits.len() > 9 {
            return Err(MeasuredError::Data(format!(
                "{file}: placement {:?} is not a digit string",
                r[0]
            )));
        }
        // At most 9 digits of at most 9: no overflow.
        out.push(Observation {
            nodes: digits.len() as u32,
            replicas: digits.iter().sum(),
            local: number(&file, &r[1])?,
            step: number(&file, &r[2])?,
            sync: number(&file, &r[3])?,
        });
    }
    let file = scalability_file;
    let cols = [
        "num_nodes",
        "num_replicas",
        "local_bsz",
        "step_time",
        "sync_time",
    ];
    for r in by_header(&file, scalability, &cols)? {
        let count = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| MeasuredError::Data(format!("{file}: {s:?} is not a count")))
        };
        out.push(Observation {
            nodes: count(&r[0])?,
            replicas: count(&r[1])?,
            local: number(&file, &r[2])?,
            step: number(&file, &r[3])?,
            sync: number(&file, &r[4])?,
        });
    }
    Ok(out)
}

/// A file's data rows as the cells of `cols`, found by the header.
fn by_header(file: &str, text: &str, cols: &[&str]) -> Result<Vec<Vec<String>>, MeasuredError> {
    csv::columns(text, cols)
        .map(|rows| rows.into_iter().map(|(_, cells)| cells).collect())
        .map_err(|m| MeasuredError::Data(format!("{file}: {m}")))
}

/// The fitted model of an application on GPU type `gpu`: the T4's is [`fitted`]; another
/// type's is fitted on its [`observations_on`] at first use (a few ms) and kept.
pub fn fitted_on(app: App, gpu: Gpu) -> Result<Throughput, MeasuredError> {
    type Fits = Vec<Result<Throughput, MeasuredError>>;
    static TYPED_FITS: [std::sync::OnceLock<Fits>; 4] = [const { std::sync::OnceLock::new() }; 4];
    if gpu == Gpu::T4 {
        return Ok(fitted(app));
    }
    let all = TYPED_FITS[gpu.index() - 1].get_or_init(|| {
        App::ALL
            .iter()
            .map(|&a| fit_throughput(&observations_on(a, gpu)?))
            .collect()
    });
    all[app as usize].clone()
}

fn number(file: &str, s: &str) -> Result<f64, MeasuredError> {
    s.parse::<f64>()
        .map_err(|_| MeasuredError::Data(format!("{file}: {s:?} is not a number")))
}

/// The fitted model of an application on all its measurements: [`FITTED`], §3.2's fit of
/// the bundled measurements stored (a test re-fits them bit for bit), since fitting the six
/// applications takes ~0.2 s natively and longer in the page, once per process.
pub fn fitted(app: App) -> Throughput {
    Throughput::from_array(FITTED[app as usize].map(f64::from_bits))
}

/// [`fit_throughput`] of each application's [`observations`] ([`App::ALL`]'s order), as the
/// bits of [`Throughput::to_array`]; generated and checked by the test
/// `stored_fits_are_the_fit`.
const FITTED: [[u64; 7]; 6] = [
    [
        0x3f91d646f89de8f5,
        0x3f46f69696e69f10,
        0x3fbf4352913e90db,
        0x3f65a511cad12639,
        0x3fa0d1d05c0a12bf,
        0x3f4caf09a3c4a2b1,
        0x4000953bddf8caf7,
    ],
    [
        0x3fb0697ab57a8dce,
        0x3f725a8b1346cb4e,
        0x3fd32cdaa39a7ba6,
        0x3f7b30ab0e2040e6,
        0x3fb3ab9f4f6f0231,
        0x3f4130c7937d65fa,
        0x4003c8e33255987f,
    ],
    [
        0x3fc601fc26465af7,
        0x3fae0243df33dc8e,
        0x3ff62bcefa707025,
        0x3f8350c6e58ce5c6,
        0x3fd2339e556e98a6,
        0x3f83313dc0869607,
        0x3ffe6f3b24a4d66b,
    ],
    [
        0x3fd3e91d68f72bc3,
        0x3f986a84cbcdae76,
        0x3fdf2cdea1c918c9,
        0x3f841bf254338c73,
        0x3fb58401ce2280e0,
        0x3f564e44e439461d,
        0x3ff69be28e631c70,
    ],
    [
        0x3fc7f2855eef8c6c,
        0x3f99ff1faee1cf13,
        0x3fe7f98002c8b41a,
        0x3f85f20086971716,
        0x3fc06d38156d2995,
        0x3f91d995fa1b492c,
        0x3ff1ba132962c9ea,
    ],
    [
        0x3f7c7fc871323535,
        0x3ea5453cdcb86cd4,
        0x3f8dee4e6e1e775a,
        0x3f41b694181fa61e,
        0x3f7109199acfa155,
        0x3f16ce0fbc2e9880,
        0x3ff0000000000000,
    ],
];

/// What the data leave free, and the values of what they pin (§3.2).
struct Problem<'a> {
    obs: &'a [Observation],
    /// Per observation: ln(step − sync) and ln step, the targets (computed once).
    targets: Vec<(f64, f64)>,
    /// Per parameter: `Some(value)` if pinned.
    pinned: [Option<f64>; 7],
}

/// Fits θ to `obs` by POLLUX-SIM.md §3.2 (objective, bounds, start, pinning, and the
/// after-fit rule for α_n, β_n); deterministic: the same observations give the same bits.
/// Errors if there is no observation or a time is not positive and finite, or a step is
/// not longer than its sync.
pub fn fit_throughput(obs: &[Observation]) -> Result<Throughput, MeasuredError> {
    fit_throughput_from(obs, None)
}

/// [`fit_throughput`] from `start` instead of §3.2's start point (its pinned parameters
/// still pinned): a refit after one more observation starts where the last fit ended and
/// takes a fraction of the iterations (docs/MODEL.md §23 measures what it changes).
pub fn fit_throughput_from(
    obs: &[Observation],
    start: Option<&Throughput>,
) -> Result<Throughput, MeasuredError> {
    if obs.is_empty() {
        return Err(MeasuredError::OutOfRange(
            "the throughput fit needs at least one observation".into(),
        ));
    }
    if let Some(o) = obs.iter().find(|o| {
        !(o.step.is_finite()
            && o.sync.is_finite()
            && o.local.is_finite()
            && o.local >= 0.0
            && o.sync >= 0.0
            && o.step > o.sync
            && o.replicas >= 1
            && o.nodes >= 1)
    }) {
        return Err(MeasuredError::OutOfRange(format!(
            "the throughput fit needs step > sync ≥ 0, finite, on ≥ 1 node and replica: {o:?}"
        )));
    }
    let first_local = obs[0].local;
    let one_local = obs.iter().all(|o| o.local == first_local);
    let multi_node = obs.iter().any(|o| o.nodes > 1);
    let one_node_many = obs.iter().any(|o| o.nodes == 1 && o.replicas > 1);
    let over_two = obs.iter().any(|o| o.replicas > 2);
    let mut pinned = [None; 7];
    if one_local {
        let mean = obs.iter().map(|o| o.step - o.sync).sum::<f64>() / obs.len() as f64;
        pinned[0] = Some(mean / 2.0);
    }
    if !multi_node {
        pinned[2] = Some(FLOOR);
        pinned[3] = Some(FLOOR);
    }
    if !one_node_many {
        pinned[4] = Some(FLOOR);
        pinned[5] = Some(FLOOR);
    }
    if !over_two {
        pinned[3] = Some(FLOOR);
        pinned[5] = Some(FLOOR);
    }
    let problem = Problem::new(obs, pinned);
    let mut p = match start {
        Some(t) => minimise_from(&problem, t.to_array(), PGTOL, FTOL),
        None => minimise(&problem),
    };
    if !multi_node {
        p[2] = p[2].max(1.1 * p[4]);
        p[3] = p[3].max(1.1 * p[5]);
    }
    Ok(Throughput::from_array(p))
}

impl Problem<'_> {
    fn new(obs: &[Observation], pinned: [Option<f64>; 7]) -> Problem<'_> {
        let targets = obs
            .iter()
            .map(|o| (libm::log(o.step - o.sync), libm::log(o.step)))
            .collect();
        Problem {
            obs,
            targets,
            pinned,
        }
    }

    /// The objective and its gradient in the optimiser's variables x (x_k = ln p_k for the
    /// α and β, x_6 = γ).
    fn eval(&self, x: &[f64; 7]) -> (f64, [f64; 7]) {
        let p = params(x);
        let t = Throughput::from_array(p);
        let n = self.obs.len() as f64;
        // Σ r², and Σ r·∂r/∂p, of both residuals (the RMSE's factor applied at the end).
        let (mut s1, mut s2) = (0.0, 0.0);
        let mut g1 = [0.0; 7];
        let mut g2 = [0.0; 7];
        for (o, &(ln_compute, ln_step)) in self.obs.iter().zip(&self.targets) {
            let tc = t.compute_time(o.local);
            let (a, b) = t.network_pair(o.nodes, o.replicas);
            let m = retrogress(o.replicas);
            let tn = a + b * m;
            let (lc, ln) = (libm::log(tc), libm::log(tn));
            let (log_ts, wc) = log_sync_step(lc, ln, t.gamma);
            let r1 = lc - ln_compute;
            let r2 = log_ts - ln_step;
            s1 += r1 * r1;
            s2 += r2 * r2;
            // ∂ln T_c/∂(α_c, β_c) = (1, b)/T_c.
            g1[0] += r1 / tc;
            g1[1] += r1 * o.local / tc;
            // ∂ln T_s/∂T_c = w_c/T_c, ∂ln T_s/∂T_n = w_n/T_n, ∂ln T_s/∂γ as below.
            let dc = r2 * wc / tc;
            g2[0] += dc;
            g2[1] += dc * o.local;
            let dn = r2 * (1.0 - wc) / tn;
            if o.nodes > 1 {
                g2[2] += dn;
                g2[3] += dn * m;
            } else if o.replicas > 1 {
                g2[4] += dn;
                g2[5] += dn * m;
            }
            let mix = wc * lc + (1.0 - wc) * ln;
            g2[6] += r2 * (mix - log_ts) / t.gamma;
        }
        let e1 = (s1 / n + SMOOTH).sqrt();
        let e2 = (s2 / n + SMOOTH).sqrt();
        let (gm, rn, rr) = (t.gamma - 1.0, t.beta_n / t.alpha_n, t.beta_r / t.alpha_r);
        let f = e1 + e2 + 1e-3 * gm * gm + 1e-2 * (rn * rn + rr * rr);
        let mut g = [0.0; 7];
        for k in 0..7 {
            g[k] = g1[k] / (n * e1) + g2[k] / (n * e2);
        }
        g[2] -= 2e-2 * rn * rn / t.alpha_n;
        g[3] += 2e-2 * rn / t.alpha_n;
        g[4] -= 2e-2 * rr * rr / t.alpha_r;
        g[5] += 2e-2 * rr / t.alpha_r;
        g[6] += 2e-3 * gm;
        // Chain rule to x: ∂/∂ln p = p·∂/∂p; pinned variables do not move.
        for k in 0..7 {
            if k < 6 {
                g[k] *= p[k];
            }
            if self.pinned[k].is_some() {
                g[k] = 0.0;
            }
        }
        (f, g)
    }

    /// The bounds of x_k: [ln 1e-8, ∞) for α and β, [1, 10] for γ; a pinned one is held.
    fn bounds(&self, k: usize) -> (f64, f64) {
        match self.pinned[k] {
            Some(v) if k < 6 => (libm::log(v), libm::log(v)),
            Some(v) => (v, v),
            None if k < 6 => (libm::log(FLOOR), f64::INFINITY),
            None => (GAMMA[0], GAMMA[1]),
        }
    }

    fn project(&self, x: &mut [f64; 7]) {
        for (k, v) in x.iter_mut().enumerate() {
            let (lo, hi) = self.bounds(k);
            *v = v.clamp(lo, hi);
        }
    }
}

/// The parameters of optimiser variables x.
fn params(x: &[f64; 7]) -> [f64; 7] {
    let mut p = [0.0; 7];
    for k in 0..6 {
        // exp of a value clamped to ≥ ln 1e-8 can round just below 1e-8: keep the bound.
        p[k] = libm::exp(x[k]).max(FLOOR);
    }
    p[6] = x[6];
    p
}

/// Projected BFGS from §3.2's start point: returns the parameters (pinned ones exactly at
/// their pinned value).
fn minimise(problem: &Problem) -> [f64; 7] {
    minimise_from(problem, START, PGTOL, FTOL)
}

/// Projected BFGS from `start` with stopping rules `pgtol` and `ftol` ([`minimise`]).
fn minimise_from(problem: &Problem, start: [f64; 7], pgtol: f64, ftol: f64) -> [f64; 7] {
    const MAX_ITERATIONS: usize = 1000;
    // The most a log-parameter moves in one iteration (a factor e²): the first steps, with
    // no curvature known yet, would otherwise overshoot by decades onto a bound.
    const MAX_MOVE: f64 = 2.0;
    let mut x = [0.0; 7];
    for k in 0..7 {
        let v = problem.pinned[k].unwrap_or(start[k]);
        x[k] = if k < 6 { libm::log(v) } else { v };
    }
    problem.project(&mut x);
    let (mut f, mut g) = problem.eval(&x);
    let reset = |g: &[f64; 7]| {
        let norm = g.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let scale = 1.0 / norm.max(1.0);
        let mut h = [[0.0; 7]; 7];
        for (k, row) in h.iter_mut().enumerate() {
            row[k] = scale;
        }
        h
    };
    let mut h = reset(&g);
    let mut fresh = true;
    for _ in 0..MAX_ITERATIONS {
        // Variables held at a bound by the gradient do not move this iteration.
        let free: [bool; 7] = std::array::from_fn(|k| {
            let (lo, hi) = problem.bounds(k);
            !(lo == hi || (x[k] <= lo && g[k] > 0.0) || (x[k] >= hi && g[k] < 0.0))
        });
        // In the parameters' own units (∂f/∂p = ∂f/∂ln p / p), as scipy measures it.
        let p = params(&x);
        let projected = (0..7).filter(|&k| free[k]).fold(0.0f64, |a, k| {
            a.max(if k < 6 { g[k] / p[k] } else { g[k] }.abs())
        });
        if projected <= pgtol {
            break;
        }
        let mut d = [0.0; 7];
        for i in 0..7 {
            if free[i] {
                d[i] = -(0..7)
                    .filter(|&j| free[j])
                    .map(|j| h[i][j] * g[j])
                    .sum::<f64>();
            }
        }
        let mut slope: f64 = (0..7).map(|k| g[k] * d[k]).sum();
        if slope >= 0.0 {
            h = reset(&g);
            fresh = true;
            for k in 0..7 {
                d[k] = if free[k] { -h[k][k] * g[k] } else { 0.0 };
            }
            slope = (0..7).map(|k| g[k] * d[k]).sum();
        }
        let longest = d[..6].iter().fold(0.0f64, |a, v| a.max(v.abs()));
        if longest > MAX_MOVE {
            let shrink = MAX_MOVE / longest;
            d.iter_mut().for_each(|v| *v *= shrink);
            slope *= shrink;
        }
        // Armijo backtracking along the projected path.
        let mut step = 1.0;
        let mut accepted = None;
        for _ in 0..60 {
            let mut y = [0.0; 7];
            for k in 0..7 {
                y[k] = x[k] + step * d[k];
            }
            problem.project(&mut y);
            let moved: f64 = (0..7).map(|k| g[k] * (y[k] - x[k])).sum();
            let (fy, gy) = problem.eval(&y);
            if fy.is_finite() && fy <= f + 1e-4 * moved.min(0.0) {
                accepted = Some((y, fy, gy));
                break;
            }
            step *= 0.5;
        }
        let Some((y, fy, gy)) = accepted else {
            if fresh {
                break;
            }
            h = reset(&g);
            fresh = true;
            continue;
        };
        let s: [f64; 7] = std::array::from_fn(|k| y[k] - x[k]);
        let q: [f64; 7] = std::array::from_fn(|k| gy[k] - g[k]);
        let sq: f64 = (0..7).map(|k| s[k] * q[k]).sum();
        let s_norm = s.iter().map(|v| v * v).sum::<f64>().sqrt();
        let q_norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        if sq > 1e-12 * s_norm * q_norm {
            bfgs(&mut h, &s, &q, sq);
            fresh = false;
        }
        let drop = f - fy;
        let scale = f.abs().max(fy.abs()).max(1.0);
        x = y;
        f = fy;
        g = gy;
        if drop <= ftol * scale {
            break;
        }
    }
    let mut p = params(&x);
    for (v, pin) in p.iter_mut().zip(problem.pinned) {
        if let Some(pin) = pin {
            *v = pin;
        }
    }
    p
}

/// The BFGS update of the inverse Hessian H with step s, gradient change q, s·q = `sq`.
fn bfgs(h: &mut [[f64; 7]; 7], s: &[f64; 7], q: &[f64; 7], sq: f64) {
    let rho = 1.0 / sq;
    let hq: [f64; 7] = std::array::from_fn(|i| (0..7).map(|j| h[i][j] * q[j]).sum());
    let qhq: f64 = (0..7).map(|i| q[i] * hq[i]).sum();
    for i in 0..7 {
        for j in 0..7 {
            h[i][j] += -rho * (hq[i] * s[j] + s[i] * hq[j]) + (rho * rho * qhq + rho) * s[i] * s[j];
        }
    }
}

#[cfg(test)]
mod tests;
