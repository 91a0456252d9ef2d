//! What the planning subcommands share: the common flags (`Common`), loading the scenario
//! they name (read, `--set` and flag overrides, validation) and planning it with a policy.

use crate::failure::Failure;
use crate::read::read_input;
use clap::builder::TypedValueParser;
use clap::Args;
use smd_core::scenario::{Outer, Placement};
use smd_core::{InnerSolver, Options, Plan, Policy, Scenario};
use std::io::{self, Write};
use std::path::PathBuf;

/// Options shared by `plan` and `compare`: output format, parameter overrides, input.
#[derive(Args, Debug)]
pub(crate) struct Common {
    /// Print JSON (the plan file of SCENARIO.md; for compare, an array of plans).
    #[arg(long)]
    pub(crate) json: bool,
    /// Override params.epsilon, Algorithm 1's grid ε in (0, 1]; 0.1 is much faster than 0.01.
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub(crate) epsilon: Option<f64>,
    /// Override params.ptas_depth, the Frieze–Clarke depth q (0 … 3).
    #[arg(long, value_name = "Q", allow_negative_numbers = true)]
    pub(crate) ptas_depth: Option<u32>,
    /// Override params.outer, the admission method.
    #[arg(long, value_parser = named::<Outer>(&Outer::NAMES))]
    pub(crate) outer: Option<Outer>,
    /// Override params.seed, the seed of the rounding streams.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub(crate) seed: Option<u64>,
    /// Wall-clock budget of a plan, in seconds (for `plan`, from the command's start): when
    /// it ends, global reports the best plan found with its bound and gap
    /// (`admission.gap`); the other policies' admission stops with its best selection, and
    /// smd's jobs not allocated by then take the equal split (the admission method says how
    /// many).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    pub(crate) global_budget: f64,
    /// On machines: how admitted jobs are placed (overrides params.placement; default
    /// locality).
    #[arg(long, value_parser = named::<Placement>(&Placement::NAMES))]
    pub(crate) placement: Option<Placement>,
    /// How Algorithm 1 solves its grid points: `fast` (exact closed form with pruning) or
    /// `reference` (one LP-crate solve per grid point, the paper's method; slow at small ε).
    #[arg(long, value_parser = named::<InnerSolver>(&InnerSolver::NAMES), default_value = "fast")]
    pub(crate) inner_solver: InnerSolver,
    /// Override any params field, e.g. `--set polish=true --set rounding=best_corner
    /// --set m_delta=2` (VALUE is read as JSON, else as a string).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) set: Vec<String>,
    /// Scenario file, or `-` to read it from stdin.
    #[arg(value_name = "FILE|-")]
    pub(crate) file: PathBuf,
}

/// A value parser for one of smd-core's named enums: its names are the accepted values
/// (listed in `--help`), parsed by the enum's own `FromStr`.
pub(crate) fn named<T>(
    names: &'static [&'static str],
) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
{
    clap::builder::PossibleValuesParser::new(names)
        .try_map(|s: String| s.parse::<T>().map_err(|_| format!("unknown value {s:?}")))
}

/// `warning: …` on stderr for what is valid but probably not meant (`Scenario::warnings`).
pub(crate) fn warn(scenario: &Scenario) {
    print_warnings(scenario.warnings());
}

/// The most warnings printed one by one: a trace read onto a small cluster can warn on
/// every row, and the first few say what the rest are.
const MAX_WARNINGS: usize = 5;

/// `warning: …` on stderr for each of `warnings`, the first [`MAX_WARNINGS`] whole and the
/// rest counted.
pub(crate) fn print_warnings<W: std::fmt::Display>(warnings: impl IntoIterator<Item = W>) {
    let mut err = io::stderr().lock();
    let mut n = 0;
    for w in warnings {
        if n < MAX_WARNINGS {
            let _ = writeln!(err, "warning: {w}");
        }
        n += 1;
    }
    if n > MAX_WARNINGS {
        let _ = writeln!(err, "warning: … and {} more", n - MAX_WARNINGS);
    }
}

/// Runs one policy; a panic inside the solver becomes a solver failure (exit 1), not exit 101.
pub(crate) fn solve(scenario: &Scenario, which: Policy, c: &Common) -> Result<Plan, Failure> {
    solve_since(scenario, which, c, std::time::Instant::now())
}

/// [`solve`] with the budget counted from `since` (e.g. the command's start, so that
/// reading and checking a large scenario count in `--global-budget` as a user's clock
/// counts them).
pub(crate) fn solve_since(
    scenario: &Scenario,
    which: Policy,
    c: &Common,
    since: std::time::Instant,
) -> Result<Plan, Failure> {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let spent_ms = t0.duration_since(since).as_secs_f64() * 1000.0;
    let policy = which.name();
    // Progress on stderr once the plan passes a few seconds (progress.rs).
    let ticker = crate::progress::Ticker::start(&format!("smd: planning {policy}"));
    let status = ticker.status();
    let mut on_progress = |p: smd_core::Progress| {
        if let Ok(mut s) = status.lock() {
            *s = crate::progress::plan_status(&p);
        }
    };
    let mut opts = Options {
        clock: Some(&clock),
        progress: Some(&mut on_progress),
        inner: c.inner_solver,
        time_budget_ms: Some((c.global_budget * 1000.0 - spent_ms).max(0.0)),
        ..Options::default()
    };
    // On machines the admitted jobs are placed (docs/MODEL.md §15); a pool plans as ever.
    let run = || smd_place::plan_placed(scenario, which, &mut opts);
    Ok(crate::failure::guarded(
        &format!(
            "solver failure: policy {policy} stopped on an internal error (a bug in smd-core)"
        ),
        run,
    )??)
}

/// Reads, parses, overrides and validates the scenario named by `c.file`. The overrides
/// are applied before validation, so that an override can correct a bad value in the file.
pub(crate) fn load(c: &Common) -> Result<Scenario, Failure> {
    if !(c.global_budget.is_finite() && c.global_budget > 0.0) {
        return Err(Failure::Invalid(format!(
            "--global-budget must be a number of seconds > 0 (got {})",
            smd_format::num(c.global_budget)
        )));
    }
    let (name, text) = read_input(&c.file)?;
    if text.trim().is_empty() {
        return Err(Failure::Invalid(format!(
            "{name} is empty: expected a scenario in JSON (see SCENARIO.md)"
        )));
    }
    let mut scenario = Scenario::parse(&text)?;
    drop(text);
    apply_sets(&mut scenario, &c.set)?;
    let p = &mut scenario.params;
    if let Some(e) = c.epsilon {
        p.epsilon = e;
    }
    if let Some(q) = c.ptas_depth {
        p.ptas_depth = q;
    }
    if let Some(o) = c.outer {
        p.outer = o;
    }
    if let Some(s) = c.seed {
        p.seed = s;
    }
    if let Some(pl) = c.placement {
        if !scenario.cluster.has_machines() {
            return Err(Failure::Invalid(
                "--placement needs a cluster of machines (version 2); this one is a pool of units"
                    .into(),
            ));
        }
        scenario.params.placement = Some(pl);
    }
    scenario.validate()?;
    warn(&scenario);
    Ok(scenario)
}

/// `--set KEY=VALUE`: VALUE is read as JSON, else as a string, into `params.KEY` with the
/// file's own rules (an unknown key or a wrong type names `--set KEY`).
pub(crate) fn apply_sets(scenario: &mut Scenario, sets: &[String]) -> Result<(), Failure> {
    if sets.is_empty() {
        return Ok(());
    }
    let mut params = serde_json::to_value(&scenario.params)
        .map_err(|e| Failure::Solver(format!("cannot read the params back: {e}")))?;
    for kv in sets {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(Failure::Invalid(format!(
                "--set {:?}: expected KEY=VALUE, e.g. --set polish=true",
                smd_core::error::cut(kv)
            )));
        };
        let v = serde_json::from_str(v).unwrap_or_else(|_| serde_json::Value::from(v));
        params[k] = v;
        // serde's message echoes the key or value whole: cut like every echo.
        scenario.params = serde_json::from_value(params.clone()).map_err(|e| {
            Failure::Invalid(format!(
                "params.{} (from --set): {}",
                smd_core::error::cut(k),
                smd_core::error::cut_quoted(&e.to_string())
            ))
        })?;
    }
    Ok(())
}
