//! `smd teach`: SMD's steps for one job and one plan (docs/MODEL.md §20) — the bounds and
//! J, the ε-grid, the rounding, the admission — one sentence each, as text or JSON. The
//! sentences are `smd_charts::teach`'s, the page's too.

use crate::common::{load, Common};
use crate::failure::Failure;
use crate::table::printable;
use clap::Args;
use smd_charts::teach::{explain, lesson, sentence, skipped, stage_title, LessonStep};
use smd_core::teach::{trace, Event, Stage, TraceOptions};
use std::io::Write;

/// Arguments of `smd teach`.
#[derive(Args, Debug)]
pub struct TeachArgs {
    /// The job to follow, by its id.
    #[arg(long, value_name = "ID")]
    job: String,
    /// Only the key steps (at most 40; each says in brief what it passes over) and the
    /// decision explained in words: the page's lesson (docs/MODEL.md §20).
    #[arg(long)]
    lesson: bool,
    #[command(flatten)]
    common: Common,
}

/// One step in the JSON output: its stage, its sentence and its data; in a lesson, its
/// number in the trace (from 1) and what it passes over.
#[derive(serde::Serialize)]
struct Step<'a> {
    stage: Stage,
    text: String,
    event: &'a Event,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<String>,
}

/// Traces the job and prints its steps.
pub fn run(a: &TeachArgs, out: &mut impl Write) -> Result<(), Failure> {
    // Reading and tracing thousands of jobs takes seconds: progress on stderr past a few,
    // until the steps are written.
    let _ticker = crate::progress::Ticker::start(&format!(
        "smd: tracing job {}",
        printable(&smd_core::error::cut(&a.job))
    ));
    let scenario = load(&a.common)?;
    let Some(index) = scenario.jobs.iter().position(|j| j.id == a.job) else {
        let hint = match scenario.jobs.first() {
            Some(j) => format!("its first job is {:?}", smd_core::error::cut(&j.id)),
            None => "it has no jobs: there is nothing to step through".into(),
        };
        return Err(Failure::Invalid(format!(
            "--job: no job {:?} in the scenario ({hint})",
            smd_core::error::cut(&a.job),
        )));
    };
    let opts = TraceOptions {
        inner: a.common.inner_solver,
        ..TraceOptions::default()
    };
    let t = crate::failure::guarded(
        "solver failure: the trace stopped on an internal error (a bug in smd-core)",
        || trace(&scenario, index, &opts),
    )??;
    // The steps shown: every one, or the lesson's.
    let shown: Vec<LessonStep> = if a.lesson {
        lesson(&t)
    } else {
        (0..t.steps.len())
            .map(|k| LessonStep { from: k, at: k })
            .collect()
    };
    let steps = shown.iter().map(|s| Step {
        stage: t.steps[s.at].stage(),
        text: sentence(&t, s.at),
        event: &t.steps[s.at],
        step: a.lesson.then_some(s.at + 1),
        skipped: skipped(&t, s),
    });
    let explanation = a.lesson.then(|| explain(&t)).flatten();
    if a.common.json {
        let doc = serde_json::json!({
            "job": t.job,
            "index": t.index,
            "steps": steps.collect::<Vec<_>>(),
            "plan": t.plan,
            "explanation": explanation,
        });
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| Failure::Solver(format!("cannot serialise the trace: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    let p = &scenario.params;
    let admission = match p.outer {
        smd_core::scenario::Outer::Ptas => format!("Frieze–Clarke q = {}", p.ptas_depth),
        smd_core::scenario::Outer::Exact => "branch and bound".into(),
    };
    writeln!(
        out,
        "{} (job {} of {})   ε {}   M_δ {}   rounding {}   {admission}   {} steps{}",
        printable(&t.job),
        index + 1,
        scenario.jobs.len(),
        p.epsilon,
        p.m_delta,
        p.rounding,
        t.steps.len(),
        if a.lesson {
            format!(", the lesson's {}", shown.len())
        } else {
            String::new()
        }
    )?;
    if scenario.cluster.has_machines() {
        writeln!(
            out,
            "(machines: the admission is on their total capacity; the placement after it is not traced)"
        )?;
    }
    let width = t.steps.len().to_string().len();
    let mut stage = None;
    for (s, at) in steps.zip(&shown) {
        if stage != Some(s.stage) {
            stage = Some(s.stage);
            writeln!(out, "\n{}", stage_title(s.stage))?;
        }
        if let Some(brief) = &s.skipped {
            writeln!(out, "{:>width$}  ({})", "", printable(brief))?;
        }
        writeln!(out, "{:>width$}  {}", at.at + 1, printable(&s.text))?;
    }
    if let Some(e) = explanation {
        writeln!(
            out,
            "\nThe decision in words\n{:>width$}  {}",
            "",
            printable(&e)
        )?;
    }
    Ok(())
}
