//! `smd speed`: what the measured all-reduce job model (docs/MODEL.md §21,
//! `smd_apps::measured`) predicts for one application — one iteration's step and sync time
//! at a placement and local batch, or the time to the application's target at a number of
//! GPUs and a total batch. The JSON forms are a contract for outside checks
//! (docs/SCENARIO.md, "Speed query").

use crate::failure::Failure;
use clap::Args;
use serde::Serialize;
use smd_apps::app::App;
use smd_apps::measured::{self, Measured, MeasuredError};
use smd_core::allreduce::MAX_WORKERS;
use smd_format::num;
use std::io::Write;

#[derive(Args, Debug)]
pub struct SpeedArgs {
    /// The application (`smd apps` lists them).
    #[arg(long, value_name = "APP")]
    app: String,
    /// GPUs per machine, comma-separated in any order of machines, e.g. `4,4,2` (with
    /// --local-batch).
    #[arg(long, value_name = "G,G,…", requires = "local_batch", conflicts_with_all = ["gpus", "batch"])]
    placement: Option<String>,
    /// The batch each GPU computes at once (with --placement).
    #[arg(
        long,
        value_name = "B",
        allow_negative_numbers = true,
        requires = "placement"
    )]
    local_batch: Option<f64>,
    /// GPUs, packed 4 per machine (with --batch; at most 64): the time to the target and
    /// goodput.
    #[arg(long, value_name = "W", requires = "batch")]
    gpus: Option<u32>,
    /// The job's total batch K (with --gpus).
    #[arg(
        long,
        value_name = "K",
        allow_negative_numbers = true,
        requires = "gpus"
    )]
    batch: Option<f64>,
    /// The machine type from the catalog (`smd machines`; default t4x4): its GPU type's
    /// measurements answer.
    #[arg(long, value_name = "NAME")]
    machine_type: Option<String>,
    /// Print JSON: `{"step_time_s", "sync_time_s", "source", "gpu_type"}` or
    /// `{"time_to_target_s", "goodput", "placement", "gpu_type"}`.
    #[arg(long)]
    json: bool,
}

/// One iteration's prediction.
#[derive(Serialize)]
struct StepOut {
    step_time_s: f64,
    sync_time_s: f64,
    source: &'static str,
    gpu_type: &'static str,
}

/// A whole run's prediction.
#[derive(Serialize)]
struct RunOut {
    time_to_target_s: f64,
    goodput: f64,
    placement: Vec<u32>,
    gpu_type: &'static str,
}

/// Runs `smd speed`.
pub fn speed(a: &SpeedArgs, out: &mut impl Write) -> Result<(), Failure> {
    let app: App = a
        .app
        .parse()
        .map_err(|e| Failure::Invalid(format!("--app: {e}")))?;
    let machine = smd_apps::machines::machine_type(a.machine_type.as_deref().unwrap_or("t4x4"))
        .map_err(|m| Failure::Invalid(format!("--machine-type: {m}")))?;
    let Some(gpu) = machine.gpu else {
        return Err(Failure::Invalid(format!(
            "--machine-type {}: it has no GPU; measured applications train on GPUs",
            machine.name
        )));
    };
    let m = Measured::on(app, gpu).map_err(solver)?;
    match (&a.placement, a.local_batch, a.gpus, a.batch) {
        (Some(p), Some(b), None, None) => step(m, &parse_placement(p)?, b, a.json, out),
        (None, None, Some(w), Some(k)) => run(m, w, k, a.json, out),
        _ => Err(Failure::Invalid(
            "give --placement G,G,… with --local-batch B, or --gpus W with --batch K".into(),
        )),
    }
}

/// `--placement` as GPUs per machine.
fn parse_placement(text: &str) -> Result<Vec<u32>, Failure> {
    let gpus: Result<Vec<u32>, _> = text.split(',').map(|g| g.trim().parse::<u32>()).collect();
    match gpus {
        Ok(g) if g.iter().any(|&n| n > 0) => Ok(g),
        _ => Err(Failure::Invalid(format!(
            "--placement {:?}: GPUs per machine as whole numbers separated by commas, at \
             least one GPU (e.g. 4,4,2)",
            smd_core::error::cut(text)
        ))),
    }
}

/// The step and sync time at a placement: measured or interpolated on 1–16 machines, the
/// fitted throughput model beyond.
fn step(
    m: &Measured,
    placement: &[u32],
    local: f64,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let s = m.step_any(placement, local).map_err(invalid)?;
    let s = StepOut {
        step_time_s: s.step_s,
        sync_time_s: s.sync_s,
        source: s.source.name(),
        gpu_type: m.gpu().name(),
    };
    if json {
        return write_json(&s, out);
    }
    writeln!(
        out,
        "{} on {} {} GPUs per machine at a local batch of {}: step {:.6} s, sync {:.6} s ({})",
        m.app().name(),
        placement
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
        m.gpu().label(),
        num(local),
        s.step_time_s,
        s.sync_time_s,
        s.source
    )?;
    Ok(())
}

/// The time to the target on `gpus` GPUs packed 4 per machine at total batch `batch`, and
/// the run's mean goodput: M0 · P(max_epochs) over the unrounded run time, in examples of
/// the initial batch M0 per second (POLLUX-SIM.md §3.3).
fn run(
    m: &Measured,
    gpus: u32,
    batch: f64,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if gpus == 0 {
        return Err(Failure::Invalid("--gpus 0: a job needs a GPU".into()));
    }
    // Checked before the placement is built (one entry per machine): the planner's cap on
    // a measured job, as many machines as were measured.
    let gpu = m.gpu();
    let packed = gpu.per_node();
    let most = MAX_WORKERS.min(gpu.measured_nodes() * packed);
    if gpus > most {
        return Err(Failure::Invalid(format!(
            "--gpus {gpus}: at most {most} on the {} ({} of {packed}, as measured)",
            gpu.label(),
            match most / packed {
                1 => "1 machine".to_owned(),
                n => format!("{n} machines"),
            }
        )));
    }
    // A total batch split too thin is said in the flags' terms: the local batch is derived.
    let [lo, hi] = m.batch_range();
    let smallest = m.local_range()[0];
    let local = f64::from(m.batch_config(gpus, batch).atomic);
    if (lo..=hi).contains(&batch) && local < smallest {
        return Err(Failure::Invalid(format!(
            "--gpus {gpus} with --batch {}: {} examples per GPU, fewer than the {} {} was \
             measured at (fewer GPUs or a larger batch)",
            num(batch),
            num(local),
            num(smallest),
            m.app().name()
        )));
    }
    let placement: Vec<u32> = (0..gpus.div_ceil(packed))
        .map(|k| (gpus - k * packed).min(packed))
        .collect();
    let epochs = m.epoch_seconds(&placement, batch).map_err(invalid)?;
    let unrounded: f64 = epochs.iter().sum();
    // One pass over the epochs serves both the rounded time and the unrounded mean.
    let time = measured::rounded_total(&epochs);
    let goodput = m.batch_range()[0] * m.target() / unrounded;
    let r = RunOut {
        time_to_target_s: time,
        goodput,
        placement,
        gpu_type: gpu.name(),
    };
    if json {
        return write_json(&r, out);
    }
    writeln!(
        out,
        "{} at a total batch of {} on {gpus} {} GPUs ({} per machine): {time} s to its \
         target (restart delays not included), goodput {goodput:.1} examples/s",
        m.app().name(),
        num(batch),
        gpu.label(),
        r.placement
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    )?;
    Ok(())
}

fn write_json(v: &impl Serialize, out: &mut impl Write) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(v)
        .map_err(|e| Failure::Solver(format!("cannot serialise the answer: {e}")))?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// A query the measurements cannot answer is invalid input (exit 2) naming what is off.
fn invalid(e: MeasuredError) -> Failure {
    match e {
        MeasuredError::Data(m) => Failure::Solver(m),
        other => Failure::Invalid(other.to_string()),
    }
}

/// The bundled data not reading is the program's failure (exit 1).
fn solver(e: MeasuredError) -> Failure {
    Failure::Solver(e.to_string())
}
