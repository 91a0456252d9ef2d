//! `smd sweep --mix`: what to buy — a grid of mixes of machine types, each simulated over
//! time under one policy (crate `smd-sweep`, docs/MODEL.md §25), the mixes on rayon's
//! threads; the answer in words with a table, or the JSON of docs/SCENARIO.md ("Mix sweep
//! output").

use crate::failure::Failure;
use crate::sweep::SweepArgs;
use crate::table::Table;
use smd_sim::SimPolicy;
use smd_sweep::{
    parse_budget, parse_goal, Metric, Minimize, MixReport, MixSearch, MixSpec, ParallelOptions,
    Question, SweepError,
};
use std::io::Write;

/// Reads the flags, runs the mixes the answer needs and prints it.
pub fn run(a: &SweepArgs, mix: &str, out: &mut impl Write) -> Result<(), Failure> {
    let invalid = |flag: &str, e: String| Failure::Invalid(format!("{flag}: {e}"));
    let spec = MixSpec::parse(mix).map_err(|e| invalid("--mix", e))?;
    let metric: Metric = match a.metric.as_deref() {
        Some(m) => m.trim().parse().map_err(|e| invalid("--metric", e))?,
        None => Metric::MeanJct,
    };
    let goal = a
        .goal
        .as_deref()
        .map(|g| parse_goal(g, metric))
        .transpose()
        .map_err(|e| invalid("--goal", e))?;
    let budget = a
        .budget
        .as_deref()
        .map(parse_budget)
        .transpose()
        .map_err(|e| invalid("--budget", e))?;
    let minimize = match a.minimize.as_deref() {
        Some(t) => Question::parse_minimize(t, metric).map_err(|e| invalid("--minimize", e))?,
        None => Minimize::Metric,
    };
    let base = crate::common::load(&a.common)?;
    let failure = |e: SweepError| failure_of(e);
    // The policy: --policy or --sim-policy naming one policy over time, else the default.
    let named = [a.policy.trim(), a.sim_policy.trim()]
        .into_iter()
        .find(|p| *p != "all")
        .map(|p| {
            p.parse::<SimPolicy>()
                .map_err(|e| invalid("--policy", format!("{e}: name one policy over time")))
        })
        .transpose()?;
    let policy = match named {
        Some(p) => p,
        None => MixSearch::default_policy(&base, &spec).map_err(failure)?,
    };
    let question = Question {
        metric,
        policy,
        goal,
        budget,
        minimize,
        every: a.every,
    };
    let search = MixSearch::new(&base, spec, question).map_err(failure)?;
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let opts = ParallelOptions {
        clock: Some(&clock),
        cancel: None,
        inner: a.common.inner_solver,
        global_budget_ms: None,
    };
    let ticker = crate::progress::Ticker::start(&format!(
        "smd: evaluating up to {} mixes",
        search.order().len()
    ));
    let status = ticker.status();
    let progress = move |done: usize, of: usize| {
        if let Ok(mut s) = status.lock() {
            *s = format!("{done} of at most {of} mixes evaluated");
        }
    };
    let run = || smd_sweep::run_mixes_parallel(&search, &base, opts, &progress);
    let report = crate::failure::guarded(
        "the mix sweep stopped on an internal error (a bug in smd-sim or smd-sweep)",
        run,
    )?
    .map_err(failure)?;
    drop(ticker);
    if a.common.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| Failure::Solver(format!("cannot serialise the mix sweep: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    write_text(&base, &report, clock(), out)?;
    Ok(())
}

/// A mix sweep's error as a failure naming the flag it came from.
fn failure_of(e: SweepError) -> Failure {
    match e {
        SweepError::Spec { field, message } => Failure::Invalid(format!(
            "{}: {message}",
            match field {
                "goal" => "--goal",
                "policy" => "--policy",
                "metric" => "--metric",
                _ => "--mix",
            }
        )),
        SweepError::Planner { ref error, .. } => match error {
            smd_core::Error::Solver(_) => Failure::Solver(e.to_string()),
            _ => Failure::Invalid(e.to_string()),
        },
        SweepError::Range { message, .. } => Failure::Invalid(format!("--mix: {message}")),
        SweepError::Cancelled => Failure::Solver("cancelled".into()),
    }
}

/// The headline, the answer, and one row per evaluated mix: its counts, price, the
/// metric, jobs finished, cost per job, and whether it is on the frontier or the answer.
fn write_text(
    base: &smd_core::Scenario,
    r: &MixReport,
    elapsed_ms: f64,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let q = &r.question;
    writeln!(
        out,
        "{} jobs   {} mixes of {}   {} evaluated under {} in {} ({} threads)",
        base.jobs.len(),
        r.grid,
        r.types.join(", "),
        r.evaluated,
        q.policy,
        smd_format::ms(elapsed_ms),
        smd_sweep::threads(),
    )?;
    writeln!(out)?;
    let mut columns: Vec<(&str, bool)> = r.types.iter().map(|t| (t.as_str(), true)).collect();
    let metric = q.metric.words();
    columns.extend([
        ("$/h", true),
        (metric, true),
        ("finished", true),
        ("cost per job", true),
        ("", false),
    ]);
    let mut t = Table::new(&columns);
    let money = |v: Option<f64>| v.map_or("-".to_owned(), smd_format::usd);
    for p in &r.points {
        let mut row: Vec<String> = p.mix.iter().map(|(_, c)| c.to_string()).collect();
        let mark = if r.best.as_ref().is_some_and(|b| b.index == p.index) {
            "answer"
        } else if r.frontier.iter().any(|f| f.index == p.index) {
            "frontier"
        } else {
            ""
        };
        row.extend([
            money(p.usd_per_hour),
            p.value.map_or_else(
                || p.note.clone().unwrap_or_else(|| "-".into()),
                |v| q.metric.show(v),
            ),
            p.run.as_ref().map_or("-".into(), |o| {
                format!("{}/{}", o.finished, o.finished + o.unfinished)
            }),
            money(p.run.as_ref().and_then(|o| o.cost_per_job_usd)),
            mark.to_owned(),
        ]);
        t.row(row);
    }
    t.write(out)?;
    writeln!(out)?;
    writeln!(out, "{}", crate::table::printable(&r.answer))
}
