//! The speed budgets of the planner (issue: interactive speed), as one function that both the
//! native binary (`cargo run --release -p smd-bench`) and the wasm test in headless Chromium
//! (`cargo test --release -p smd-bench --target wasm32-unknown-unknown -- --nocapture`) run,
//! so the two columns of `docs/BENCHMARKS.md` measure the same work. [`joint`] does the same
//! for the joint optimum `global` (§5), [`place`] for the placement stage
//! (docs/PLACEMENT.md §13), [`sim`] for the simulation (§8), [`measured`] for planning
//! measured jobs (§11) and [`sweep`] for a capacity
//! sweep (§10).

pub mod joint;
pub mod measured;
pub mod place;
pub mod reference;
pub mod share;
pub mod sim;
pub mod sweep;

use smd_core::{
    generate, plan_with, Cache, GenerateOptions, InnerSolver, Mode, Options, Policy, Scenario,
};

/// One measured line.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was measured.
    pub what: String,
    /// Jobs I.
    pub jobs: usize,
    /// ε.
    pub epsilon: f64,
    /// Median wall time over the repetitions, ms.
    pub ms: f64,
    /// Polygon solves (fast) or LPs (reference) of Algorithm 1, plus the admission's LPs.
    pub solves: u64,
    /// Algorithm 1's grid points (what the reference path solves one LP each for).
    pub grid_points: u64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The generated sync scenario both measurements plan: `jobs` jobs, seed 1, one unit, ε.
fn scenario(jobs: usize, eps: f64) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed: 1,
        mode: Mode::Sync,
        units: 1.0,
    });
    s.params.epsilon = eps;
    s
}

/// Times `plan_with` on a generated sync scenario, `reps` times; the median.
fn time_plan(
    clock: &dyn Fn() -> f64,
    jobs: usize,
    eps: f64,
    inner: InnerSolver,
    reps: usize,
) -> Row {
    let mut s = scenario(jobs, eps);
    s.params.ptas_depth = 2;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let t0 = clock();
        let p = plan_with(
            &s,
            Policy::Smd,
            &mut Options {
                inner,
                ..Options::default()
            },
        )
        .expect("generated scenarios plan");
        times.push(clock() - t0);
        last = Some(p);
    }
    let p = last.expect("reps ≥ 1");
    let what = match inner {
        InnerSolver::Fast => "smd plan, fast path",
        InnerSolver::Reference => "smd plan, reference (LP crate)",
    };
    Row {
        what: what.into(),
        jobs,
        epsilon: eps,
        ms: median(times),
        solves: p.stats.lp_solves,
        grid_points: p.stats.grid_points,
    }
}

/// Re-plan after editing one job, with the allocation cache warm.
fn time_replan(clock: &dyn Fn() -> f64, jobs: usize, eps: f64, reps: usize) -> Row {
    let mut s = scenario(jobs, eps);
    let mut cache = Cache::new();
    let mut opts = Options {
        cache: Some(&mut cache),
        ..Options::default()
    };
    plan_with(&s, Policy::Smd, &mut opts).expect("plans");
    let mut times = Vec::new();
    let mut solves = 0;
    for r in 0..reps {
        s.jobs[0].iterations = 100.0 + r as f64; // an edit of one job
        let t0 = clock();
        let before = opts.cache.as_ref().map_or(0, |c| c.misses());
        let p = plan_with(&s, Policy::Smd, &mut opts).expect("plans");
        times.push(clock() - t0);
        solves = opts.cache.as_ref().map_or(0, |c| c.misses()) - before;
        let _ = p;
    }
    Row {
        what: format!("re-plan after editing one job ({solves} job re-solved)"),
        jobs,
        epsilon: eps,
        ms: median(times),
        solves,
        grid_points: 0,
    }
}

/// Every budget row. `quick` trims repetitions (for a smoke run).
pub fn run(clock: &dyn Fn() -> f64, quick: bool) -> Vec<Row> {
    let reps = if quick { 1 } else { 5 };
    vec![
        time_plan(clock, 50, 0.01, InnerSolver::Fast, reps),
        time_plan(
            clock,
            1000,
            0.01,
            InnerSolver::Fast,
            if quick { 1 } else { 3 },
        ),
        time_plan(clock, 20, 0.1, InnerSolver::Fast, reps),
        time_plan(clock, 20, 0.1, InnerSolver::Reference, 1),
        time_replan(clock, 50, 0.01, reps),
    ]
}

/// The rows as a Markdown table, with the fast/reference speed-up measured in this run.
pub fn table(rows: &[Row], column: &str) -> String {
    let mut out = format!(
        "| measurement | I | ε | {column} ms | solves | grid points |\n|---|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {:.1} | {} | {} |\n",
            r.what, r.jobs, r.epsilon, r.ms, r.solves, r.grid_points
        );
    }
    let fast = rows
        .iter()
        .find(|r| r.what.contains("fast") && r.epsilon == 0.1);
    let reference = rows.iter().find(|r| r.what.contains("reference"));
    if let (Some(f), Some(r)) = (fast, reference) {
        out += &format!(
            "\nfast path vs reference on the same 20 jobs at ε = 0.1, one run: {:.0}× faster ({:.1} ms vs {:.1} ms)\n",
            r.ms / f.ms,
            f.ms,
            r.ms
        );
    }
    out
}

/// The browser's clock in ms (`performance.now()`), for the wasm measurements; it works in
/// a page and in a worker.
#[cfg(target_arch = "wasm32")]
pub fn browser_now() -> f64 {
    use wasm_bindgen::JsCast;
    let perf = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).expect("performance");
    let f: js_sys::Function = js_sys::Reflect::get(&perf, &"now".into())
        .expect("now")
        .dyn_into()
        .expect("function");
    f.call0(&perf).expect("call").as_f64().expect("number")
}
