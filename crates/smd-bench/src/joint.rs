//! The joint optimum `global` (issue 10, item 4): one function that both the native binary
//! (`cargo run --release -p smd-bench --bin joint`) and the wasm test in headless Chromium
//! (`cargo test --release -p smd-bench --target wasm32-unknown-unknown --test joint -- --nocapture`)
//! run, so the two columns of `docs/BENCHMARKS.md` §5 measure the same work.

use smd_core::{
    generate, joint_problem, plan_global, GenerateOptions, JointProblem, Mode, Options, Plan,
    Scenario,
};

/// The jobs' modes of a generated instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// Every job sync.
    Sync,
    /// Every job async.
    Async,
    /// Generated sync, then every other job (the 2nd, 4th, …) made async.
    Mixed,
}

impl Mix {
    /// Its name in tables and file names.
    pub fn name(self) -> &'static str {
        match self {
            Mix::Sync => "sync",
            Mix::Async => "async",
            Mix::Mixed => "mixed",
        }
    }
}

/// One instance: I jobs, cluster units, modes (seed 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Case {
    /// Jobs I.
    pub jobs: usize,
    /// Cluster units.
    pub units: f64,
    /// The jobs' modes.
    pub mix: Mix,
}

impl Case {
    /// A file-name-safe name, e.g. `I1000-u3-mixed`.
    pub fn name(&self) -> String {
        format!("I{}-u{}-{}", self.jobs, self.units, self.mix.name())
    }

    /// The generated scenario (seed 1).
    pub fn scenario(&self) -> Scenario {
        let mode = match self.mix {
            Mix::Async => Mode::Async,
            Mix::Sync | Mix::Mixed => Mode::Sync,
        };
        let mut s = generate(&GenerateOptions {
            jobs: self.jobs,
            seed: 1,
            mode,
            units: self.units,
        });
        if self.mix == Mix::Mixed {
            for j in s.jobs.iter_mut().skip(1).step_by(2) {
                j.mode = Mode::Async;
            }
        }
        s
    }
}

/// Every instance of the table: I = 50, 200, 1000 × units 1, 3 × sync, async, mixed.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for jobs in [50, 200, 1000] {
        for units in [1.0, 3.0] {
            for mix in [Mix::Sync, Mix::Async, Mix::Mixed] {
                out.push(Case { jobs, units, mix });
            }
        }
    }
    out
}

/// One measured instance.
#[derive(Clone, Debug)]
pub struct JointRow {
    /// The instance.
    pub case: Case,
    /// Whether the plan's optimum is proven.
    pub proven: bool,
    /// Its relative gap when not proven.
    pub gap: Option<f64>,
    /// Median wall time of the whole plan over the runs, ms (`stats.solve_ms`).
    pub ms: f64,
    /// Option building (`stats.inner_ms`) of the median run, ms.
    pub inner_ms: f64,
    /// The search (`stats.outer_ms`) of the median run, ms.
    pub outer_ms: f64,
    /// Branch-and-bound nodes.
    pub nodes: u64,
    /// Options over all jobs in the exported problem (`joint_problem`).
    pub options: usize,
    /// Whether the exported problem is the whole one (no box thinned).
    pub complete: bool,
    /// The plan's total utility.
    pub utility: f64,
    /// Admitted jobs.
    pub admitted: usize,
    /// Runs the median is over.
    pub runs: usize,
    /// The plan's choice per job: `Some((workers, ps))` if admitted.
    pub chosen: Vec<Option<(u64, u64)>>,
}

/// The generous time budget of every run, ms.
pub const BUDGET_MS: f64 = 60_000.0;

/// A run slower than this is not repeated (ms): the median of 3 only where it is cheap.
pub const REPEAT_BELOW_MS: f64 = 5_000.0;

/// Plans `global` once with the clock and [`BUDGET_MS`].
pub fn plan_once(clock: &dyn Fn() -> f64, s: &Scenario) -> Plan {
    plan_global(
        s,
        &mut Options {
            clock: Some(clock),
            time_budget_ms: Some(BUDGET_MS),
            ..Options::default()
        },
        u64::MAX,
    )
    .expect("generated scenarios plan")
}

/// Measures one instance: one run, two more if it was cheap, the median run's figures.
/// Also returns the exported problem (built outside the timed runs).
pub fn measure(clock: &dyn Fn() -> f64, case: Case, reps: usize) -> (JointRow, JointProblem) {
    let s = case.scenario();
    let mut plans = vec![plan_once(clock, &s)];
    while plans.len() < reps && plans[0].stats.solve_ms < REPEAT_BELOW_MS {
        plans.push(plan_once(clock, &s));
    }
    let runs = plans.len();
    plans.sort_by(|a, b| a.stats.solve_ms.total_cmp(&b.stats.solve_ms));
    let p = &plans[runs / 2];
    let problem = joint_problem(&s).expect("generated scenarios export");
    let row = JointRow {
        case,
        proven: p.admission.proven_optimal,
        gap: p.admission.gap,
        ms: p.stats.solve_ms,
        inner_ms: p.stats.inner_ms,
        outer_ms: p.stats.outer_ms,
        nodes: p.stats.outer_nodes,
        options: problem.jobs.iter().map(Vec::len).sum(),
        complete: problem.complete,
        utility: p.total_utility,
        admitted: p.admitted,
        runs,
        chosen: p
            .jobs
            .iter()
            .map(|j| j.workers.zip(j.ps).filter(|_| j.admitted))
            .collect(),
    };
    (row, problem)
}

/// Every row, in [`cases`] order; `quick` keeps I ≤ 200 and one run each, `only` the
/// instances whose [`Case::name`] contains it. `each` sees each row and its exported problem
/// as soon as it is measured (the native binary prints and writes them out).
pub fn run_joint(
    clock: &dyn Fn() -> f64,
    quick: bool,
    only: Option<&str>,
    each: &mut dyn FnMut(&JointRow, &JointProblem),
) -> Vec<JointRow> {
    let reps = if quick { 1 } else { 3 };
    cases()
        .into_iter()
        .filter(|c| !quick || c.jobs <= 200)
        .filter(|c| only.is_none_or(|o| c.name().contains(o)))
        .map(|c| {
            let (row, problem) = measure(clock, c, reps);
            each(&row, &problem);
            row
        })
        .collect()
}

/// The header of [`joint_table`].
pub fn joint_header(column: &str) -> String {
    format!(
        "| I | units | mode | proven | gap | {column} ms | options ms | search ms | nodes | options | utility | admitted | runs |\n\
         |---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
}

/// One row of [`joint_table`].
pub fn joint_line(r: &JointRow) -> String {
    format!(
        "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {} | {}{} | {:.6} | {} | {} |\n",
        r.case.jobs,
        r.case.units,
        r.case.mix.name(),
        if r.proven { "yes" } else { "no" },
        r.gap.map_or("–".into(), |g| format!("{:.2e}", g)),
        r.ms,
        r.inner_ms,
        r.outer_ms,
        r.nodes,
        r.options,
        if r.complete { "" } else { " (thinned)" },
        r.utility,
        r.admitted,
        r.runs,
    )
}

/// The rows as a Markdown table.
pub fn joint_table(rows: &[JointRow], column: &str) -> String {
    let mut out = joint_header(column);
    for r in rows {
        out += &joint_line(r);
    }
    out
}
