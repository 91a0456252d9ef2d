//! `smd`: the command-line front end of the SMD planner.
//!
//! Commands reading and writing the files of `SCENARIO.md`: `generate` writes a seeded
//! scenario, `check` reads and validates one, `plan` plans one with one policy, `compare`
//! plans it with every policy; `reproduce` runs the paper's experiments (crate
//! `smd-reproduce`) and writes their tables and figures. Real applications (crate
//! `smd-apps`, `apps.rs` and `calibrate.rs`): `apps` and `machines` list the catalogs, `job`
//! writes a preset job, `trace` reads an arrival trace into a scenario, `calibrate` checks
//! the speed model against the measurements. `sweep` (crate `smd-sweep`, `sweep.rs`) plans a
//! scenario at many cluster sizes and finds the knee; `teach` steps through SMD for one job
//! (`teach.rs`). Exit status: 0 on success, 2 on invalid input (the message names the
//! job and field), 1 on a solver failure or an output error. A closed stdout (`smd generate |
//! head`) ends the program quietly with status 0.

mod apps;
mod calibrate;
mod diff;
mod progress;
mod share;
mod simulate;
mod study;
mod sweep;
mod teach;

use clap::builder::TypedValueParser;
use clap::{Args, Parser, Subcommand};
use smd_core::scenario::{Outer, Placement, Resource};
use smd_core::{Error, GenerateOptions, InnerSolver, Mode, Options, Plan, Policy, Scenario};
use std::io::{self, BufWriter, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The largest `--jobs` accepted: beyond it the scenario file alone runs to gigabytes.
const MAX_JOBS: usize = 10_000;

const AFTER_HELP: &str = "\
Exit status: 0 on success, 2 on invalid input (the message names the job and field),
1 on a solver failure.

Speed: Algorithm 1 runs its exact fast path by default (about a millisecond per job at
ε = 0.01). `--inner-solver reference` solves one LP per grid point as the paper writes it:
the same answers, but seconds per job at ε = 0.01, so pair it with e.g. `--epsilon 0.1`:
  smd generate --jobs 8 --seed 1 | smd compare --inner-solver reference --epsilon 0.1 -";

/// SMD planner: sizes and admits deep-learning training jobs (workers and parameter
/// servers) on a GPU/CPU cluster.
#[derive(Parser, Debug)]
#[command(name = "smd", version, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write a seeded random scenario (the paper's workload ranges) as JSON to stdout.
    Generate(GenerateArgs),
    /// Plan a scenario with one policy and print the plan as a table (or JSON with --json).
    #[command(after_help = AFTER_HELP)]
    Plan(PlanArgs),
    /// Plan a scenario with every policy (smd, esw, optimus, exact, global; on machines also
    /// smd_locality) and print them side by side.
    #[command(after_help = AFTER_HELP)]
    Compare(CompareArgs),
    /// Read and validate a scenario without planning: "valid: N jobs …" and the smallest ε
    /// the jobs allow, or every problem (exit 2).
    Check(CheckArgs),
    /// Run the paper's experiments (docs/REPRODUCTION.md): writes DIR/<id>.csv, DIR/<id>.svg
    /// and DIR/summary.md; exit 1 if an invariant check fails.
    Reproduce(ReproduceArgs),
    /// List the measured applications (Pollux artifact) a job can be made from.
    Apps(apps::AppsArgs),
    /// List the machine types of the catalog.
    Machines(apps::MachinesArgs),
    /// Write one job made from an application and a global batch (a scenario's `jobs[]`
    /// element) as JSON.
    Job(apps::JobArgs),
    /// Read an arrival trace (CSV) into a scenario: one preset job per row, with its arrival
    /// time and requested workers.
    Trace(apps::TraceArgs),
    /// Fit the speed model to the Pollux artifact's measured steps and report its errors on
    /// held-out runs (docs/CALIBRATION.md).
    Calibrate(calibrate::CalibrateArgs),
    /// Phase 2's measurements (docs/REPRODUCTION.md): `locality` (DLTAP's claim and joint
    /// locality on machines) or `time` (the policies over time on the bundled workloads);
    /// prints a Markdown table.
    Study(study::StudyArgs),
    /// Simulate the scenario's jobs over time (arrivals, slots, restarts; docs/MODEL.md §17)
    /// with one policy or all, and print their metrics (or the runs as JSON).
    Simulate(simulate::SimulateArgs),
    /// Plan the scenario at many cluster sizes (units, machines, or one resource) with every
    /// policy, and say where the utility levels off (the knee; docs/MODEL.md §19); --json
    /// prints docs/SCENARIO.md's "Sweep output".
    #[command(after_help = AFTER_HELP)]
    Sweep(sweep::SweepArgs),
    /// Pack a plan's admitted one-GPU workers on shared GPUs (CLUSTER.md §5): every GPU's
    /// occupants, collision probability and slowdown; GPUs used against one each.
    Share(share::ShareArgs),
    /// What differs between two scenarios' inputs: params, cluster, jobs matched by id (a
    /// table, or JSON with --json).
    Diff(diff::DiffArgs),
    /// Step through SMD for one job of the plan (docs/MODEL.md §20): the bounds l_j, φ_j and
    /// J, the ε-grid, Algorithm 2's draws, the admission — a sentence per step, or JSON.
    #[command(after_help = AFTER_HELP)]
    Teach(teach::TeachArgs),
}

#[derive(Args, Debug)]
struct ReproduceArgs {
    /// 3 seeds instead of 10 and fewer points: about 10 s instead of about 40 s (release build).
    #[arg(long)]
    quick: bool,
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR", default_value = "reproduction-out")]
    out: PathBuf,
    /// Run only the experiment with this id (repeatable): the full id, e.g.
    /// `--only e3-ratio-to-optimum`, or the short one the docs use, e.g. `--only e3`
    /// (case-insensitive).
    #[arg(long, value_name = "ID")]
    only: Vec<String>,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// Number of jobs (at most 10000).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 50,
        allow_negative_numbers = true
    )]
    jobs: usize,
    /// Seed of the generator (also written to params.seed).
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    seed: u64,
    /// SGD mode of every job.
    #[arg(long, value_parser = named::<Mode>(&Mode::NAMES), default_value = "sync")]
    mode: Mode,
    /// Cluster units (the capacity is units × one cluster unit).
    #[arg(
        long,
        value_name = "U",
        default_value_t = 1.0,
        allow_negative_numbers = true,
        conflicts_with = "machines"
    )]
    units: f64,
    /// Plan on N machines instead of a pool (a version-2 scenario; with --machine-type).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    machines: Option<f64>,
    /// The machines' type from the catalog (`smd machines`; default t4x4).
    #[arg(long, value_name = "NAME", requires = "machines")]
    machine_type: Option<String>,
}

#[derive(Args, Debug)]
struct PlanArgs {
    /// Planning policy.
    #[arg(long, value_parser = named::<Policy>(&Policy::NAMES), default_value = "smd")]
    policy: Policy,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Scenario file, or `-` to read it from stdin.
    #[arg(value_name = "FILE|-")]
    file: PathBuf,
}

#[derive(Args, Debug)]
struct CompareArgs {
    #[command(flatten)]
    common: Common,
}

/// Options shared by `plan` and `compare`: output format, parameter overrides, input.
#[derive(Args, Debug)]
struct Common {
    /// Print JSON (the plan file of SCENARIO.md; for compare, an array of plans).
    #[arg(long)]
    json: bool,
    /// Override params.epsilon, Algorithm 1's grid ε in (0, 1]; 0.1 is much faster than 0.01.
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    epsilon: Option<f64>,
    /// Override params.ptas_depth, the Frieze–Clarke depth q (0 … 3).
    #[arg(long, value_name = "Q", allow_negative_numbers = true)]
    ptas_depth: Option<u32>,
    /// Override params.outer, the admission method.
    #[arg(long, value_parser = named::<Outer>(&Outer::NAMES))]
    outer: Option<Outer>,
    /// Override params.seed, the seed of the rounding streams.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Wall-clock budget of the `global` policy's search, in seconds: when it ends, global
    /// reports the best plan found with its bound and gap (`admission.gap`).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    global_budget: f64,
    /// On machines: how admitted jobs are placed (overrides params.placement; default
    /// locality).
    #[arg(long, value_parser = named::<Placement>(&Placement::NAMES))]
    placement: Option<Placement>,
    /// How Algorithm 1 solves its grid points: `fast` (exact closed form with pruning) or
    /// `reference` (one LP-crate solve per grid point, the paper's method; slow at small ε).
    #[arg(long, value_parser = named::<InnerSolver>(&InnerSolver::NAMES), default_value = "fast")]
    inner_solver: InnerSolver,
    /// Override any params field, e.g. `--set polish=true --set rounding=best_corner
    /// --set m_delta=2` (VALUE is read as JSON, else as a string).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Scenario file, or `-` to read it from stdin.
    #[arg(value_name = "FILE|-")]
    file: PathBuf,
}

/// A value parser for one of smd-core's named enums: its names are the accepted values
/// (listed in `--help`), parsed by the enum's own `FromStr`.
fn named<T>(names: &'static [&'static str]) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
{
    clap::builder::PossibleValuesParser::new(names)
        .try_map(|s: String| s.parse::<T>().map_err(|_| format!("unknown value {s:?}")))
}

/// Why the program stops early.
#[derive(Debug)]
enum Failure {
    /// Invalid input: exit 2.
    Invalid(String),
    /// The solver failed: exit 1.
    Solver(String),
    /// Writing the output failed (a broken pipe is a quiet exit 0).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        match e {
            Error::Parse(_) | Error::Invalid(_) => Failure::Invalid(e.to_string()),
            Error::Solver(_) => Failure::Solver(e.to_string()),
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout, usage errors to stderr; a closed stream is fine.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = run(cli, &mut out);
    // Flush whatever was written, also before reporting a failure that followed output.
    let flushed = out.flush();
    let result = match (result, flushed) {
        (Ok(()), Err(e)) => Err(Failure::Output(e)),
        (r, _) => r,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            report(&format!("cannot write the output: {e}"));
            ExitCode::from(1)
        }
        Err(Failure::Invalid(m)) => {
            report(&m);
            ExitCode::from(2)
        }
        Err(Failure::Solver(m)) => {
            report(&m);
            ExitCode::from(1)
        }
    }
}

/// Writes `error: <line>` to stderr for each line of `message`, never panicking.
fn report(message: &str) {
    let mut err = io::stderr().lock();
    for line in message.lines() {
        let _ = writeln!(err, "error: {line}");
    }
}

fn run(cli: Cli, out: &mut impl Write) -> Result<(), Failure> {
    match cli.command {
        Command::Generate(a) => generate(&a, out),
        Command::Plan(a) => plan(&a, out),
        Command::Compare(a) => compare(&a, out),
        Command::Check(a) => check(&a, out),
        Command::Reproduce(a) => reproduce(&a, out),
        Command::Apps(a) => apps::apps(&a, out),
        Command::Machines(a) => apps::machines(&a, out),
        Command::Job(a) => apps::job(&a, out),
        Command::Trace(a) => apps::trace(&a, out),
        Command::Calibrate(a) => calibrate::run(&a, out),
        Command::Study(a) => study::run(&a, out),
        Command::Simulate(a) => simulate::run(&a, out),
        Command::Share(a) => share::run(&a, out),
        Command::Diff(a) => diff::run(&a, out),
        Command::Sweep(a) => sweep::run(&a, out),
        Command::Teach(a) => teach::run(&a, out),
    }
}

/// `smd reproduce`: runs the experiments with a progress line on stderr and writes their
/// tables, figures and a summary.
fn reproduce(a: &ReproduceArgs, out: &mut impl Write) -> Result<(), Failure> {
    use smd_reproduce::{Runner, Scale};
    use std::io::IsTerminal;
    let scale = if a.quick { Scale::Quick } else { Scale::Full };
    let ids = a
        .only
        .iter()
        .map(|id| smd_reproduce::resolve_id(id))
        .collect::<Result<Vec<&str>, _>>()
        .map_err(|e| Failure::Invalid(format!("--only: {e}")))?;
    let runner = if ids.is_empty() {
        Runner::new(scale)
    } else {
        Runner::only(scale, &ids)
    };
    std::fs::create_dir_all(&a.out).map_err(|e| {
        Failure::Invalid(format!(
            "cannot create the directory {}: {e}",
            a.out.display()
        ))
    })?;
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let tty = io::stderr().is_terminal();
    let cases = runner.cases();
    let mut last_shown = -1.0_f64;
    let mut progress = |done: u64, total: u64| {
        let pct = 100.0 * done as f64 / total.max(1) as f64;
        // A terminal gets a live line; a log gets a line every 10%.
        let step = if tty { 0.5 } else { 10.0 };
        if pct - last_shown < step && done < total {
            return;
        }
        last_shown = pct;
        let secs = clock() / 1000.0;
        let mut err = io::stderr().lock();
        let line = format!(
            "reproduce ({}, {cases} scenarios): {pct:5.1}%  {secs:6.1} s",
            scale.name()
        );
        let _ = if tty {
            write!(err, "\r{line}")
        } else {
            writeln!(err, "{line}")
        };
        if tty && done >= total {
            let _ = writeln!(err);
        }
    };
    let run = || smd_reproduce::run_with(runner, &clock, &mut progress, &|| false);
    let report = match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => return Err(Failure::Solver("reproduce: cancelled".into())),
        Err(_) => {
            return Err(Failure::Solver(
                "reproduce stopped on an internal error (a bug in smd-core or smd-reproduce)"
                    .into(),
            ))
        }
    };
    let write = |name: String, text: &str| -> Result<PathBuf, Failure> {
        let path = a.out.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Failure::Solver(format!("cannot write {}: {e}", path.display())))?;
        Ok(path)
    };
    for o in &report.outcomes {
        let csv = write(format!("{}.csv", o.id), &o.table.to_csv())?;
        let svg = write(format!("{}.svg", o.id), &o.svg)?;
        writeln!(out, "{}  {}  {}", o.id, csv.display(), svg.display())?;
    }
    let summary = write("summary.md".into(), &report.summary_markdown())?;
    writeln!(
        out,
        "summary  {}   ({} scenarios, {:.1} s)",
        summary.display(),
        report.cases,
        report.elapsed_ms / 1000.0
    )?;
    let violations = report.violations();
    if violations.is_empty() {
        writeln!(out, "all invariant checks passed")?;
        Ok(())
    } else {
        Err(Failure::Solver(format!(
            "{} invariant checks failed:\n{}",
            violations.len(),
            violations.join("\n")
        )))
    }
}

fn generate(a: &GenerateArgs, out: &mut impl Write) -> Result<(), Failure> {
    if a.jobs > MAX_JOBS {
        return Err(Failure::Invalid(format!(
            "--jobs must be at most {MAX_JOBS} (got {})",
            a.jobs
        )));
    }
    let mut scenario = smd_core::generate(&GenerateOptions {
        jobs: a.jobs,
        seed: a.seed,
        mode: a.mode,
        units: a.units,
    });
    if let Some(n) = a.machines {
        let m = apps::machine_count(n, a.machine_type.as_deref())?;
        smd_apps::machines::move_to_machines(&mut scenario, m, n);
    }
    // `--units -1` would write a file that no command accepts: refuse it here.
    scenario.validate()?;
    writeln!(out, "{}", scenario.to_json())?;
    Ok(())
}

fn plan(a: &PlanArgs, out: &mut impl Write) -> Result<(), Failure> {
    let scenario = load(&a.common)?;
    let plan = solve(&scenario, a.policy, &a.common)?;
    if a.common.json {
        writeln!(out, "{}", plan.to_json())?;
    } else {
        write_plan_table(&plan, out)?;
    }
    Ok(())
}

fn check(a: &CheckArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (name, text) = read_input(&a.file)?;
    let scenario = Scenario::from_json(&text)?;
    drop(text);
    let floor = match smd_core::budget::smallest_epsilon(&scenario) {
        Some((e, job)) => format!(
            "; the smallest ε these jobs allow is {e} (job {:?})",
            smd_core::error::cut(&job)
        ),
        None => "; every ε in (0, 1] is within the work budget".into(),
    };
    writeln!(
        out,
        "{name}: valid, {} job{}, ε {}{floor}",
        scenario.jobs.len(),
        if scenario.jobs.len() == 1 { "" } else { "s" },
        scenario.params.epsilon
    )?;
    warn(&scenario);
    Ok(())
}

/// `warning: …` on stderr for what is valid but probably not meant (`Scenario::warnings`).
fn warn(scenario: &Scenario) {
    let mut err = io::stderr().lock();
    for w in scenario.warnings() {
        let _ = writeln!(err, "warning: {w}");
    }
}

fn compare(a: &CompareArgs, out: &mut impl Write) -> Result<(), Failure> {
    let scenario = load(&a.common)?;
    let mut results: Vec<(&'static str, Result<Plan, String>)> = Vec::new();
    for &policy in Policy::for_cluster(&scenario.cluster) {
        let policy_name = policy.name();
        match solve(&scenario, policy, &a.common) {
            Ok(p) => results.push((policy_name, Ok(p))),
            Err(Failure::Solver(m)) => results.push((policy_name, Err(m))),
            Err(other) => return Err(other),
        }
    }
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(p, r)| r.as_ref().err().map(|m| format!("policy {p}: {m}")))
        .collect();
    if a.common.json {
        // Every policy that succeeded is printed; one that failed is an element
        // `{"policy", "error"}` in its place (SCENARIO.md), and the exit status is 1.
        #[derive(serde::Serialize)]
        #[serde(untagged)]
        enum Item<'a> {
            Plan(&'a Plan),
            Failed { policy: &'a str, error: &'a str },
        }
        let items: Vec<Item> = results
            .iter()
            .map(|(name, r)| match r {
                Ok(p) => Item::Plan(p),
                Err(m) => Item::Failed {
                    policy: name,
                    error: m,
                },
            })
            .collect();
        let text = serde_json::to_string_pretty(&items)
            .map_err(|e| Failure::Solver(format!("cannot serialise the plans: {e}")))?;
        writeln!(out, "{text}")?;
        return if failures.is_empty() {
            Ok(())
        } else {
            Err(Failure::Solver(failures.join("\n")))
        };
    }
    write_compare_table(&scenario, &results, out)?;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failure::Solver(failures.join("\n")))
    }
}

/// Runs one policy; a panic inside the solver becomes a solver failure (exit 1), not exit 101.
fn solve(scenario: &Scenario, which: Policy, c: &Common) -> Result<Plan, Failure> {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let policy = which.name();
    // Progress on stderr once the plan passes a few seconds (progress.rs).
    let ticker = progress::Ticker::start(&format!("smd: planning {policy}"));
    let status = ticker.status();
    let mut on_progress = |p: smd_core::Progress| {
        if let Ok(mut s) = status.lock() {
            *s = progress::plan_status(&p);
        }
    };
    let mut opts = Options {
        clock: Some(&clock),
        progress: Some(&mut on_progress),
        inner: c.inner_solver,
        time_budget_ms: Some(c.global_budget * 1000.0),
        ..Options::default()
    };
    // On machines the admitted jobs are placed (docs/MODEL.md §15); a pool plans as ever.
    let run = || smd_place::plan_placed(scenario, which, &mut opts);
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(plan)) => Ok(plan),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => Err(Failure::Solver(format!(
            "solver failure: policy {policy} stopped on an internal error (a bug in smd-core)"
        ))),
    }
}

/// Reads, parses, overrides and validates the scenario named by `c.file`. The overrides
/// are applied before validation, so that an override can correct a bad value in the file.
fn load(c: &Common) -> Result<Scenario, Failure> {
    if !(c.global_budget.is_finite() && c.global_budget > 0.0) {
        return Err(Failure::Invalid(format!(
            "--global-budget must be a number of seconds > 0 (got {})",
            c.global_budget
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
fn apply_sets(scenario: &mut Scenario, sets: &[String]) -> Result<(), Failure> {
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
        scenario.params = serde_json::from_value(params.clone()).map_err(|e| {
            Failure::Invalid(format!(
                "params.{} (from --set): {e}",
                smd_core::error::cut(k)
            ))
        })?;
    }
    Ok(())
}

/// The input's display name and its text; `-` is stdin.
fn read_input(file: &Path) -> Result<(String, String), Failure> {
    read_named(file, "scenario file")
}

/// A file named by `flag` that cannot be written: the user's path, so invalid input (exit 2)
/// naming the flag; whatever was printed before stays.
pub(crate) fn unwritable(flag: &str, path: &Path, e: &io::Error) -> Failure {
    Failure::Invalid(format!("{flag}: cannot write {}: {e}", path.display()))
}

/// The most any command reads from one `FILE|-` (1 GiB): the largest scenario any command
/// can plan is far smaller, and a larger input (or `/dev/zero`) fails at once instead of
/// costing its size in memory first.
pub(crate) const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads `file` (or stdin for `-`), a `what` (e.g. "trace file"): its name for messages and
/// its text. The one reader of every `FILE|-` argument: capped at [`MAX_INPUT_BYTES`].
fn read_named(file: &Path, what: &str) -> Result<(String, String), Failure> {
    if file.as_os_str() == "-" {
        let name = "stdin".to_owned();
        let text = read_text(io::stdin().lock(), MAX_INPUT_BYTES, 0)
            .map_err(|e| Failure::Invalid(format!("cannot read the {what} from stdin: {e}")))?;
        Ok((name, text))
    } else {
        let name = format!("{what} \"{}\"", file.display());
        let failed = |e: String| Failure::Invalid(format!("cannot read {name}: {e}"));
        let f = std::fs::File::open(file).map_err(|e| failed(e.to_string()))?;
        // A regular file says its size: refuse it before reading a byte, else read it into
        // a buffer of that size (no doubling on the way).
        let size = match f.metadata() {
            Ok(m) if m.is_file() => m.len(),
            _ => 0,
        };
        if size > MAX_INPUT_BYTES {
            return Err(failed(too_large(MAX_INPUT_BYTES)));
        }
        let text = read_text(f, MAX_INPUT_BYTES, size as usize).map_err(failed)?;
        Ok((name, text))
    }
}

fn too_large(limit: u64) -> String {
    let size = if limit % (1 << 30) == 0 {
        format!("{} GiB", limit >> 30)
    } else {
        format!("{limit} bytes")
    };
    format!("it is larger than {size}, the most a command reads")
}

/// Reads `r` as UTF-8 text of at most `limit` bytes, in chunks: a NUL byte, bytes that are
/// not UTF-8 (with their line) or more than `limit` bytes stop it where they are found, so
/// binary input costs no more memory than the text read before it. `expected`: the size
/// to make room for at once (0 if unknown).
fn read_text(r: impl Read, limit: u64, expected: usize) -> Result<String, String> {
    let mut r = r.take(limit + 1);
    let mut buf: Vec<u8> = Vec::with_capacity(expected);
    let mut chunk = vec![0u8; 64 * 1024];
    // `checked`: how much of `buf` is known to be UTF-8 (a sequence cut by a chunk's end
    // is checked with the next chunk).
    let mut checked = 0;
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.to_string()),
        };
        if buf.len() as u64 + n as u64 > limit {
            return Err(too_large(limit));
        }
        let line = |buf: &[u8], at: usize| buf[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        if let Some(i) = chunk[..n].iter().position(|&b| b == 0) {
            buf.extend_from_slice(&chunk[..i]);
            let at = buf.len();
            return Err(format!(
                "line {}: a NUL byte (at byte {}): not a text file",
                line(&buf, at),
                at + 1
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
        match std::str::from_utf8(&buf[checked..]) {
            Ok(_) => checked = buf.len(),
            Err(e) if e.error_len().is_none() => checked += e.valid_up_to(),
            Err(e) => {
                let at = checked + e.valid_up_to();
                return Err(format!(
                    "line {}: bytes that are not UTF-8 (at byte {})",
                    line(&buf, at),
                    at + 1
                ));
            }
        }
    }
    String::from_utf8(buf).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!(
            "line {line}: the text ends inside a UTF-8 character (at byte {})",
            at + 1
        )
    })
}

// ---------------------------------------------------------------------------------------
// Tables

/// A plain text table with per-column alignment.
struct Table {
    headers: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(columns: &[(&str, bool)]) -> Table {
        Table {
            headers: columns.iter().map(|c| c.0.to_owned()).collect(),
            right: columns.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; every cell is [`printable`], so user text (a job id with an ANSI escape
    /// or a line break) cannot rewrite the terminal or break the table's lines.
    fn row(&mut self, cells: Vec<String>) {
        self.rows.push(
            cells
                .into_iter()
                .map(|c| match printable(&c) {
                    std::borrow::Cow::Borrowed(_) => c,
                    std::borrow::Cow::Owned(e) => e,
                })
                .collect(),
        );
    }

    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut width: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in width.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let header = &self.headers;
        let rule: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
        for row in std::iter::once(header)
            .chain(std::iter::once(&rule))
            .chain(&self.rows)
        {
            let mut line = String::new();
            for (i, (&w, &right)) in width.iter().zip(&self.right).enumerate() {
                let cell = row.get(i).map(String::as_str).unwrap_or("");
                let pad = std::iter::repeat_n(' ', w.saturating_sub(cell.chars().count()));
                if i > 0 {
                    line.push_str("  ");
                }
                if right {
                    line.extend(pad);
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.extend(pad);
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// `s` with control characters (ESC, CR, LF, tab, C1 controls) and the bidirectional
/// overrides escaped as `\u{1b}`-style text: the one rule for user text in what the CLI
/// prints as text (tables, headings).
pub(crate) fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    let bad =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !s.chars().any(bad) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A resource amount: integers without decimals, others with two.
fn amount(v: f64) -> String {
    if v.is_finite() && (v - v.round()).abs() < 1e-9 {
        format!("{:.0}", v.round())
    } else {
        format!("{v:.2}")
    }
}

/// `used` as a percentage of `capacity`, or `-` when there is no capacity.
fn percent(used: f64, capacity: f64) -> String {
    if capacity > 0.0 && capacity.is_finite() {
        format!("{:.1}%", 100.0 * used / capacity)
    } else {
        "-".to_owned()
    }
}

fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| "-".to_owned())
}

fn write_plan_table(plan: &Plan, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "policy {}   total utility {:.3}   admitted {}/{}   solve {:.1} ms   time unit {}",
        plan.policy,
        plan.total_utility,
        plan.admitted,
        plan.jobs.len(),
        plan.stats.solve_ms,
        plan.time_unit
    )?;
    let a = &plan.admission;
    let depth = a.depth.map(|q| format!(" (q = {q})")).unwrap_or_default();
    let gap = a.gap.map(|g| format!(", gap {g:.3}")).unwrap_or_default();
    writeln!(
        out,
        "admission {}{}   guarantee {:.3}   proven optimal {}{}",
        a.method,
        depth,
        a.guarantee,
        if a.proven_optimal { "yes" } else { "no" },
        gap
    )?;
    if let Some(pl) = &plan.placement {
        writeln!(
            out,
            "placement {}   cross traffic {:.1} Gbit per iteration   machines used {}/{}   not placed {}{}",
            pl.policy,
            pl.total_cross_traffic_gbit,
            pl.machines_used,
            pl.machines.len(),
            pl.not_placed,
            match pl.proven {
                Some(true) => "   proven",
                Some(false) => "   not proven (node limit)",
                None => "",
            }
        )?;
    }
    writeln!(out)?;
    let placed = plan.placement.is_some();
    let mut columns = vec![
        ("id", false),
        ("admitted", false),
        ("workers", true),
        ("ps", true),
        ("T (s)", true),
        ("π", true),
        ("utility", true),
    ];
    if placed {
        columns.extend([("ρ", true), ("X Gbit", true), ("machines", false)]);
    }
    columns.push(("reason", false));
    let mut jobs = Table::new(&columns);
    for j in &plan.jobs {
        let mut row = vec![
            smd_core::error::cut(&j.id).into_owned(),
            if j.admitted { "yes" } else { "no" }.to_owned(),
            opt(j.workers, |v| v.to_string()),
            opt(j.ps, |v| v.to_string()),
            opt(j.completion_time_s, |v| format!("{v:.1}")),
            opt(j.completion_time, |v| format!("{v:.3}")),
            format!("{:.3}", j.utility),
        ];
        if placed {
            row.push(opt(j.locality_factor, |v| format!("{v:.3}")));
            row.push(opt(j.cross_traffic_gbit, |v| format!("{v:.1}")));
            row.push(opt(j.placement.as_ref(), |shares| {
                let cells: Vec<String> = shares
                    .iter()
                    .map(|s| format!("{} {}w{}p", s.machine, s.workers, s.ps))
                    .collect();
                cells.join(", ")
            }));
        }
        row.push(
            j.reason
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        );
        jobs.row(row);
    }
    jobs.write(out)?;
    writeln!(out)?;
    let r = &plan.resources;
    let (used, cap, req) = (
        r.used.to_array(),
        r.capacity.to_array(),
        r.requested.to_array(),
    );
    let mut res = Table::new(&[
        ("resource", false),
        ("used", true),
        ("capacity", true),
        ("used %", true),
        ("requested", true),
        ("requested %", true),
    ]);
    for r in Resource::ALL {
        let i = r.index();
        res.row(vec![
            r.name().to_owned(),
            amount(used[i]),
            amount(cap[i]),
            percent(used[i], cap[i]),
            amount(req[i]),
            percent(req[i], cap[i]),
        ]);
    }
    res.write(out)?;
    if let Some(sh) = &plan.sharing {
        writeln!(out)?;
        writeln!(
            out,
            "GPU sharing ({}): {} (`smd share` lists every GPU)",
            sh.algorithm,
            smd_charts::sharing_headline(sh)
        )?;
    }
    Ok(())
}

fn write_compare_table(
    scenario: &Scenario,
    results: &[(&'static str, Result<Plan, String>)],
    out: &mut impl Write,
) -> io::Result<()> {
    let cap = scenario.cluster.capacity().to_array();
    writeln!(
        out,
        "{} jobs   ε {}   q {}   outer {}   seed {}",
        scenario.jobs.len(),
        scenario.params.epsilon,
        scenario.params.ptas_depth,
        match scenario.params.outer {
            Outer::Ptas => "ptas",
            Outer::Exact => "exact",
        },
        scenario.params.seed
    )?;
    writeln!(out)?;
    let shares: Vec<String> = Resource::ALL
        .iter()
        .map(|r| format!("{}%", r.title()))
        .collect();
    let mut columns = vec![
        ("policy", false),
        ("total utility", true),
        ("admitted", true),
    ];
    columns.extend(shares.iter().map(|h| (h.as_str(), true)));
    let machines = scenario.cluster.has_machines();
    if machines {
        columns.extend([
            ("cross Gbit", true),
            ("machines", true),
            ("not placed", true),
        ]);
    }
    columns.push(("solve ms", true));
    let mut t = Table::new(&columns);
    for (policy, r) in results {
        match r {
            Ok(p) => {
                let used = p.resources.used.to_array();
                let mut row = vec![
                    (*policy).to_owned(),
                    format!("{:.3}", p.total_utility),
                    format!("{}/{}", p.admitted, p.jobs.len()),
                ];
                row.extend(Resource::ALL.map(|r| percent(used[r.index()], cap[r.index()])));
                if let Some(pl) = p.placement.as_ref().filter(|_| machines) {
                    row.push(format!("{:.1}", pl.total_cross_traffic_gbit));
                    row.push(format!("{}/{}", pl.machines_used, pl.machines.len()));
                    row.push(pl.not_placed.to_string());
                }
                row.push(format!("{:.1}", p.stats.solve_ms));
                t.row(row);
            }
            Err(_) => {
                let mut row = vec![(*policy).to_owned(), "failed".to_owned()];
                let extra = if machines { 3 } else { 0 };
                row.extend(std::iter::repeat_n(
                    "-".to_owned(),
                    Resource::ALL.len() + 2 + extra,
                ));
                t.row(row);
            }
        }
    }
    t.write(out)?;
    let total = |want: &str| {
        results
            .iter()
            .find(|(p, _)| *p == want)
            .and_then(|(_, r)| r.as_ref().ok())
            .map(|p| p.total_utility)
    };
    writeln!(out)?;
    for other in ["exact", "global"] {
        match (total("smd"), total(other)) {
            (Some(s), Some(e)) if e > 0.0 => {
                writeln!(out, "smd / {other} total utility: {:.4}", s / e)?
            }
            (Some(_), Some(_)) => writeln!(
                out,
                "smd / {other} total utility: n/a ({other}'s total utility is 0)"
            )?,
            _ => writeln!(out, "smd / {other} total utility: n/a (a policy failed)")?,
        }
    }
    if let Some(Ok(g)) = results.iter().find(|(p, _)| *p == "global").map(|(_, r)| r) {
        match g.admission.gap {
            _ if g.admission.proven_optimal => {}
            Some(gap) => writeln!(
                out,
                "global: not proven within its node and time limits (--global-budget) (gap {:.3}%)",
                100.0 * gap
            )?,
            // On machines (or with GPU sharing): docs/MODEL.md §15.
            None => writeln!(
                out,
                "global: the best placed plan of every policy ({}); no proof after placement",
                g.admission.method
            )?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_stops_past_the_limit_without_reading_on() {
        // An endless input of spaces: refused once past the limit, having read only it.
        let e = read_text(io::repeat(b' '), 1000, 0).unwrap_err();
        assert_eq!(e, "it is larger than 1000 bytes, the most a command reads");
        assert!(too_large(MAX_INPUT_BYTES).contains("1 GiB"));
        // Exactly the limit is fine.
        assert_eq!(read_text(&b"abc"[..], 3, 0).unwrap(), "abc");
        assert!(read_text(&b"abcd"[..], 3, 0).is_err());
    }

    #[test]
    fn binary_input_names_its_line_and_a_character_split_across_chunks_is_fine() {
        // A NUL from an endless source stops at once.
        let e = read_text(io::repeat(0), MAX_INPUT_BYTES, 0).unwrap_err();
        assert_eq!(e, "line 1: a NUL byte (at byte 1): not a text file");
        let e = read_text(&b"a\nb\n\xff"[..], 100, 0).unwrap_err();
        assert_eq!(e, "line 3: bytes that are not UTF-8 (at byte 5)");
        let e = read_text(&b"a\n\xc3"[..], 100, 0).unwrap_err();
        assert!(
            e.starts_with("line 2: the text ends inside a UTF-8 character"),
            "{e}"
        );
        // "é" split by the 64 KiB chunk boundary reads whole.
        let mut text = "x".repeat(64 * 1024 - 1);
        text.push_str("é\n");
        assert_eq!(
            read_text(text.as_bytes(), MAX_INPUT_BYTES, 0).unwrap(),
            text
        );
    }

    #[test]
    fn printable_escapes_controls_and_bidi_overrides_only() {
        assert_eq!(printable("job-1 é ✓"), "job-1 é ✓");
        assert_eq!(
            printable("a\u{1b}[31mb\r\n\tc\u{202e}d\u{85}"),
            "a\\u{1b}[31mb\\u{d}\\u{a}\\u{9}c\\u{202e}d\\u{85}"
        );
    }
}
