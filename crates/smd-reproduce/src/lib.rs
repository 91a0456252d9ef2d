//! # smd-reproduce — the paper's experiments, as data
//!
//! Each experiment of docs/MODEL.md §11 (issue 5) is a [`Spec`]: an id, a title, a description,
//! the paper's claim, the generated cases it needs (scenario × policies × seeds), and a
//! function that turns the planned cases into a [`Table`] (CSV), a figure (SVG, drawn with
//! `smd-charts`), measured findings, and the invariant checks that failed.
//!
//! | id | what |
//! |---|---|
//! | `e1-utility-vs-units` | total utility of smd, esw, optimus, exact, global; I = 50, 1…5 units |
//! | `e2-utility-vs-jobs` | the same over I = 10…200 at 1 and 3 units |
//! | `e3-ratio-to-optimum` | smd / exact and smd / global, I = 10…50, 1000 instances and 1 unit |
//! | `e4-resource-share` | smd's used / requested resources, ε = 0.01, I = 40…200 |
//! | `e5-epsilon-mdelta` | ε and M_δ against utility, rounding attempts, solve time |
//!
//! Each also answers to its short id, `e1` … `e5`, as the docs call them ([`resolve_id`]).
//!
//! Every point is planned for several seeds ([`Grid::seeds`]: 10 in [`Scale::Full`], 3 in
//! [`Scale::Quick`]) and reported as mean ± sample standard deviation (with min and max in
//! the CSV). Cases shared by experiments are planned once; SMD allocations are reused across
//! cases through `smd_core::Cache` except where solve times are measured (E5).
//!
//! Invariants checked on every plan ([`case::check_plan`], from `smd-check`): each admitted (w, p) is an
//! integer point of the job's Ω; utilities, totals, used and requested resources agree with
//! the model; admitted demand ≤ capacity per resource. Across policies: `global` ≥ every
//! other policy, proven or not (it starts from the best of their plans); where every job
//! fits the cluster, `exact` admits every job of positive utility and `global` = `exact` ≥
//! `smd`. Per experiment: ratios against `global` in [0, 1], shares in [0, 1], every point
//! has all its seeds.
//!
//! The crate has no clock, file system or thread of its own (it builds for
//! `wasm32-unknown-unknown`): [`run`] takes a clock in milliseconds, a progress callback and
//! a cancel check; a page can instead drive a [`Runner`] one case at a time.
//!
//! ```
//! use smd_reproduce::{Runner, Scale};
//! let mut r = Runner::only(Scale::Quick, &["e5-epsilon-mdelta"]);
//! assert!(r.total_work() > 0);
//! // while r.step(&clock) {} ; let report = r.report(elapsed_ms);
//! ```

#![warn(missing_docs)]

pub mod case;
pub mod experiments;
pub mod fidelity;
pub mod figure;
pub mod locality;
pub mod sharing;
pub mod sia;
pub mod stats;
pub mod table;
pub mod time;
pub mod verdict;

pub use case::{Capacity, Case, Pols, Sample, Variant};
pub use experiments::{resolve_id, specs, Grid, Parts, Samples, Scale, Spec, UnknownExperiment};
pub use stats::Summary;
pub use table::{Cell, Table};

use std::collections::HashMap;
use std::fmt::Write;

/// One experiment's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// File stem of its outputs.
    pub id: &'static str,
    /// Title.
    pub title: &'static str,
    /// What was run.
    pub description: &'static str,
    /// The paper's claim.
    pub claim: &'static str,
    /// Seeds and spread, in words.
    pub setup: String,
    /// Cases (scenarios) it used.
    pub cases: usize,
    /// The table (see [`Table::to_csv`]).
    pub table: Table,
    /// The figure, a standalone SVG document.
    pub svg: String,
    /// What was measured, one sentence each.
    pub findings: Vec<String>,
    /// Failed invariants (empty when all hold).
    pub violations: Vec<String>,
}

/// A finished run.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Quick or full.
    pub scale: Scale,
    /// One per experiment, in order.
    pub outcomes: Vec<Outcome>,
    /// Distinct cases planned.
    pub cases: usize,
    /// Wall time of the run by the given clock, ms.
    pub elapsed_ms: f64,
}

impl Report {
    /// Every failed invariant, prefixed with its experiment's id.
    pub fn violations(&self) -> Vec<String> {
        self.outcomes
            .iter()
            .flat_map(|o| o.violations.iter().map(move |v| format!("{}: {v}", o.id)))
            .collect()
    }

    /// The paper's claims with their verdicts, from this run's tables ([`verdict`]).
    pub fn verdicts(&self) -> Vec<verdict::ClaimVerdict> {
        verdict::verdicts(|short| {
            self.outcomes
                .iter()
                .find(|o| o.id.split('-').next() == Some(short))
                .map(|o| &o.table)
        })
    }

    /// A Markdown summary: per experiment the claim, the findings and the checks.
    pub fn summary_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Reproduction summary ({} run)\n", self.scale.name());
        let _ = writeln!(
            s,
            "{} distinct scenarios planned in {:.1} s. {}.\n",
            self.cases,
            self.elapsed_ms / 1000.0,
            Grid::of(self.scale).seeds_text()
        );
        let v = self.violations();
        if v.is_empty() {
            let _ = writeln!(s, "All invariant checks passed.\n");
        } else {
            let _ = writeln!(
                s,
                "**{} invariant checks failed** (listed below).\n",
                v.len()
            );
        }
        for o in &self.outcomes {
            let _ = writeln!(s, "## {}\n", o.title);
            let _ = writeln!(s, "{}\n", o.description);
            let _ = writeln!(s, "*Paper's claim:* {}\n", o.claim);
            let _ = writeln!(
                s,
                "Files: `{id}.csv`, `{id}.svg` ({} scenarios; {}).\n",
                o.cases,
                o.setup,
                id = o.id
            );
            let _ = writeln!(s, "![{}]({}.svg)\n", o.title, o.id);
            let _ = writeln!(s, "Measured:\n");
            for f in &o.findings {
                let _ = writeln!(s, "- {f}");
            }
            let _ = writeln!(s);
            if o.violations.is_empty() {
                let _ = writeln!(s, "Checks: all passed.\n");
            } else {
                let _ = writeln!(s, "Checks: **{} failed**:\n", o.violations.len());
                for f in &o.violations {
                    let _ = writeln!(s, "- {f}");
                }
                let _ = writeln!(s);
            }
        }
        s
    }
}

/// The run was cancelled before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// Runs experiments one case at a time.
pub struct Runner {
    scale: Scale,
    grid: Grid,
    specs: Vec<Spec>,
    queue: Vec<(Case, Pols)>,
    next: usize,
    samples: Samples,
    cache: smd_core::Cache,
    done: u64,
    total: u64,
}

impl Runner {
    /// Every experiment at `scale`.
    pub fn new(scale: Scale) -> Runner {
        Runner::with_specs(scale, specs())
    }

    /// Only the experiments `ids` name, by full or short id (see [`resolve_id`]; an id that
    /// names none is left out), in their usual order.
    pub fn only(scale: Scale, ids: &[&str]) -> Runner {
        let wanted: Vec<&str> = ids.iter().filter_map(|id| resolve_id(id).ok()).collect();
        Runner::with_specs(
            scale,
            specs()
                .into_iter()
                .filter(|s| wanted.contains(&s.id))
                .collect(),
        )
    }

    fn with_specs(scale: Scale, specs: Vec<Spec>) -> Runner {
        let grid = Grid::of(scale);
        // Distinct cases in order of first request, each with the union of its policies.
        let mut index: HashMap<Case, usize> = HashMap::new();
        let mut queue: Vec<(Case, Pols)> = Vec::new();
        for s in &specs {
            for (c, p) in (s.cases)(&grid) {
                match index.get(&c) {
                    Some(&i) => queue[i].1 = queue[i].1.union(p),
                    None => {
                        index.insert(c, queue.len());
                        queue.push((c, p));
                    }
                }
            }
        }
        let total = queue.iter().map(|(c, p)| c.weight(*p)).sum();
        Runner {
            scale,
            grid,
            specs,
            queue,
            next: 0,
            samples: Samples::new(),
            cache: smd_core::Cache::new(),
            done: 0,
            total,
        }
    }

    /// The experiments this runner runs.
    pub fn specs(&self) -> &[Spec] {
        &self.specs
    }
    /// The grid of its scale.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    /// Work done so far, in the unit of [`Runner::total_work`].
    pub fn done_work(&self) -> u64 {
        self.done
    }
    /// Total work (a weighted count of planned jobs).
    pub fn total_work(&self) -> u64 {
        self.total
    }
    /// Distinct cases.
    pub fn cases(&self) -> usize {
        self.queue.len()
    }
    /// Cases planned so far.
    pub fn cases_done(&self) -> usize {
        self.next
    }
    /// Whether every case is planned.
    pub fn is_done(&self) -> bool {
        self.next >= self.queue.len()
    }

    /// Plans the next case; returns whether cases remain. `clock` is in milliseconds.
    pub fn step(&mut self, clock: &dyn Fn() -> f64) -> bool {
        self.step_observed(clock, &mut |_, _| {})
    }

    /// [`Runner::step`], telling `work` the cases planned and the work done (in
    /// [`Runner::total_work`]'s unit) after each policy of the case — progress that moves
    /// within a long case; the case counts as planned at its last policy.
    pub fn step_observed(
        &mut self,
        clock: &dyn Fn() -> f64,
        work: &mut dyn FnMut(usize, u64),
    ) -> bool {
        if let Some((c, p)) = self.queue.get(self.next).copied() {
            let (before, weight, next) = (self.done, c.weight(p), self.next);
            let mut within = 0;
            let sample = case::run(&c, p, clock, &mut self.cache, &mut |w| {
                within += w;
                work(next + usize::from(within >= weight), before + within);
            });
            self.samples.insert(c, sample);
            self.next += 1;
            self.done = before + c.weight(p);
        }
        !self.is_done()
    }

    /// The report from the cases planned (call when [`Runner::is_done`]; missing cases show
    /// up as violations). `elapsed_ms` is recorded as the run's wall time.
    pub fn report(&self, elapsed_ms: f64) -> Report {
        let outcomes = self
            .specs
            .iter()
            .map(|s| {
                let parts = (s.assemble)(&self.grid, &self.samples);
                let cases = (s.cases)(&self.grid);
                let mut violations = parts.violations;
                let mut seen = std::collections::HashSet::new();
                for (c, _) in &cases {
                    if !seen.insert(*c) {
                        continue;
                    }
                    if let Some(x) = self.samples.get(c) {
                        violations.extend(x.violations.iter().cloned());
                    }
                }
                Outcome {
                    id: s.id,
                    title: s.title,
                    description: s.description,
                    claim: s.claim,
                    setup: self.grid.seeds_text(),
                    cases: seen.len(),
                    table: parts.table,
                    svg: parts.svg,
                    findings: parts.findings,
                    violations,
                }
            })
            .collect();
        Report {
            scale: self.scale,
            outcomes,
            cases: self.queue.len(),
            elapsed_ms,
        }
    }
}

/// Runs every experiment at `scale`. `clock` gives milliseconds from any origin;
/// `progress(done, total)` is called after each case (in work units); `cancel()` is asked
/// before each case and stops the run with [`Cancelled`].
pub fn run(
    scale: Scale,
    clock: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(u64, u64),
    cancel: &dyn Fn() -> bool,
) -> Result<Report, Cancelled> {
    run_with(Runner::new(scale), clock, progress, cancel)
}

/// [`run`] with a prepared runner (e.g. [`Runner::only`]).
pub fn run_with(
    mut runner: Runner,
    clock: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(u64, u64),
    cancel: &dyn Fn() -> bool,
) -> Result<Report, Cancelled> {
    let t0 = clock();
    let total = runner.total_work();
    progress(0, total);
    while !runner.is_done() {
        if cancel() {
            return Err(Cancelled);
        }
        // After each policy of the case, not only after the case.
        runner.step_observed(clock, &mut |_, w| progress(w, total));
    }
    Ok(runner.report(clock() - t0))
}
