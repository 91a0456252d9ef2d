//! A capacity sweep's speed (docs/BENCHMARKS.md §10): the page's opening scenario (30
//! generated jobs, seed 1) at 20 sizes, 0.25 … 5 units, with the five pool policies —
//! one point after another (natively, and in headless Chromium as one Web Worker would:
//! `cargo test --release -p smd-bench --target wasm32-unknown-unknown --test sweep --
//! --nocapture`) and natively on rayon's threads as `smd sweep` runs it (`cargo run
//! --release -p smd-bench --bin sweep`).

use smd_core::{generate, GenerateOptions, Scenario};
use smd_sweep::{sweep, Axis, Options, Policies, Range, Report, Spec};

/// The sizes: 20 points.
pub const RANGE: &str = "0.25:5:0.25";

/// The page's opening scenario (`web/src/defaults.rs`: 30 jobs, seed 1, sync, 1 unit).
pub fn base() -> Scenario {
    generate(&GenerateOptions {
        jobs: 30,
        seed: 1,
        ..Default::default()
    })
}

/// The sweep: units over [`RANGE`].
pub fn spec() -> Spec {
    Spec {
        axis: Axis::Units,
        range: Range::parse(RANGE).expect("a valid range"),
        resource: None,
        machine_type: None,
        group: None,
    }
}

/// One measured way of running the sweep.
#[derive(Clone, Debug)]
pub struct SweepRow {
    /// `serial` or `rayon`.
    pub how: &'static str,
    /// Threads used.
    pub threads: usize,
    /// Median wall time of the whole sweep over the repetitions, ms.
    pub ms: f64,
    /// Σ of the policies' solve times over every point (the work), ms, of the median run.
    pub work_ms: f64,
    /// Points × policies.
    pub plans: usize,
    /// The knee in words (the same for every way of running).
    pub answer: String,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn row(how: &'static str, threads: usize, runs: Vec<(f64, Report)>) -> SweepRow {
    let ms = median(runs.iter().map(|r| r.0).collect());
    let (_, report) = runs
        .into_iter()
        .find(|r| r.0 == ms)
        .expect("the median is a run");
    SweepRow {
        how,
        threads,
        ms,
        work_ms: report
            .points
            .iter()
            .flat_map(|p| p.policies.iter().map(|(_, o)| o.solve_ms))
            .sum(),
        plans: report.points.iter().map(|p| p.policies.len()).sum(),
        answer: report.knee.answer,
    }
}

/// The sweep one point after another, `reps` times, timed with `clock` (ms).
pub fn run_serial(clock: &dyn Fn() -> f64, reps: usize) -> SweepRow {
    let (base, spec) = (base(), spec());
    let policies = Policies::all(&base.cluster, false);
    let runs = (0..reps.max(1))
        .map(|_| {
            let t0 = clock();
            let mut opts = Options {
                clock: Some(clock),
                ..Options::default()
            };
            let r = sweep(&base, &spec, &policies, &mut opts).expect("the sweep succeeds");
            (clock() - t0, r)
        })
        .collect();
    row("serial", 1, runs)
}

/// The sweep on rayon's threads, `reps` times (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn run_parallel(clock: &(dyn Fn() -> f64 + Sync), reps: usize) -> SweepRow {
    let (base, spec) = (base(), spec());
    let policies = Policies::all(&base.cluster, false);
    let runs = (0..reps.max(1))
        .map(|_| {
            let t0 = clock();
            let opts = smd_sweep::ParallelOptions {
                clock: Some(clock),
                ..Default::default()
            };
            let r = smd_sweep::sweep_parallel(&base, &spec, &policies, opts)
                .expect("the sweep succeeds");
            (clock() - t0, r)
        })
        .collect();
    row("rayon", smd_sweep::threads(), runs)
}

/// The rows as a Markdown table, the time column named `column` (e.g. "native"), and
/// each row's speed-up over the first.
pub fn sweep_table(rows: &[SweepRow], column: &str) -> String {
    let mut out = format!(
        "| run | threads | plans | {column} ms | Σ solve ms | speed-up |\n|---|---:|---:|---:|---:|---:|\n"
    );
    let first = rows.first().map_or(1.0, |r| r.ms);
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {:.0} | {:.0} | {:.2}× |\n",
            r.how,
            r.threads,
            r.plans,
            r.ms,
            r.work_ms,
            first / r.ms
        );
    }
    if let Some(r) = rows.first() {
        out += &format!("\n{}\n", r.answer);
    }
    out
}
