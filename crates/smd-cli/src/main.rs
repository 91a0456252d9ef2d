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
mod buy;
mod calibrate;
mod common;
mod diff;
mod failure;
mod fgd;
mod progress;
mod read;
mod share;
mod simulate;
mod speed;
mod study;
mod sweep;
mod table;
mod teach;

use common::{load, named, solve, warn, Common};
use failure::Failure;
use read::read_input;
use table::{write_compare_table, write_plan_table};

use clap::{Args, Parser, Subcommand};
use smd_core::{GenerateOptions, Mode, Plan, Policy, Scenario};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
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
    /// What the measured all-reduce model predicts for an application (docs/MODEL.md §21):
    /// one iteration's step and sync time at a placement and local batch, or the time to its
    /// target and goodput at W GPUs (4 per machine) and a total batch
    Speed(speed::SpeedArgs),
    /// A study of the model against a published claim or measurement (docs/REPRODUCTION.md,
    /// docs/FIDELITY.md): `locality` (DLTAP's claim and joint locality on machines), `time`
    /// (the policies over time on the bundled workloads), `sharing`, `fidelity`,
    /// `pollux-search`, `sia` or `fgd` (GPU sharing in a production cluster); prints a
    /// Markdown table.
    Study(study::StudyArgs),
    /// Simulate the scenario's jobs over time (arrivals, slots, restarts; docs/MODEL.md §17)
    /// with one policy or all, and print their metrics (or the runs as JSON).
    Simulate(simulate::SimulateArgs),
    /// Plan the scenario at many cluster sizes (units, machines, or one resource) with every
    /// policy, and say where the utility levels off (the knee; docs/MODEL.md §19); --json
    /// prints docs/SCENARIO.md's "Sweep output". With --mix: what to buy, the mixes of
    /// machine types of a grid (docs/MODEL.md §25; "Mix sweep output").
    #[command(after_help = AFTER_HELP)]
    Sweep(Box<sweep::SweepArgs>),
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
        Command::Speed(a) => speed::speed(&a, out),
        Command::Trace(a) => apps::trace(&a, out),
        Command::Calibrate(a) => calibrate::run(&a, out),
        Command::Study(a) => study::run(&a, out),
        Command::Simulate(a) => simulate::run(&a, out),
        Command::Share(a) => share::run(&a, out),
        Command::Diff(a) => diff::run(&a, out),
        Command::Sweep(a) => match &a.mix {
            Some(mix) => buy::run(&a, mix, out),
            None => sweep::run(&a, out),
        },
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
    let report = failure::guarded(
        "reproduce stopped on an internal error (a bug in smd-core or smd-reproduce)",
        run,
    )?
    .map_err(|_| Failure::Solver("reproduce: cancelled".into()))?;
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
    let started = std::time::Instant::now();
    let scenario = load(&a.common)?;
    let plan = common::solve_since(&scenario, a.policy, &a.common, started)?;
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
