//! `smd calibrate`: the speed model against the Pollux artifact's measured steps
//! (docs/CALIBRATION.md). The fit and the report are `smd_apps::calibrate`'s; this file
//! only reads the flags, prints the report and draws the figure.
//!
//! Regenerate the committed figure with
//! `cargo run --release -p smd-cli -- calibrate --figure docs/calibration/model-vs-measured.svg`.

use crate::failure::Failure;
use crate::table::Table;
use clap::Args;
use smd_apps::app::App;
use smd_apps::calibrate::{calibrate, CalibrateError, Cells, Errors, Options, Params, Report};
use smd_charts::{scatter_svg, ScatterChart, ScatterSeries};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub(crate) struct CalibrateArgs {
    /// Print the report as JSON (with every held-out point) instead of tables.
    #[arg(long)]
    json: bool,
    /// Seed of the train/test split.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Share of each application's measured rows to fit on, strictly between 0 and 1; the
    /// rest are held out and reported.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.5,
        allow_negative_numbers = true
    )]
    train_share: f64,
    /// Also write the figure of the held-out points (model against measured time per
    /// iteration, log–log, SVG) to PATH.
    #[arg(long, value_name = "PATH")]
    figure: Option<PathBuf>,
}

/// Runs the calibration and prints its report; writes the figure when asked.
pub(crate) fn run(a: &CalibrateArgs, out: &mut impl Write) -> Result<(), Failure> {
    let options = Options {
        seed: a.seed,
        train_share: a.train_share,
        per_app: true,
    };
    let report = calibrate(&options).map_err(|e| match e {
        CalibrateError::Options {
            field: "train_share",
            message,
        } => Failure::Invalid(format!("--train-share {message}")),
        CalibrateError::Options { .. } => Failure::Invalid(e.to_string()),
        other => Failure::Solver(other.to_string()),
    })?;
    // The report first: a figure path that cannot be written must not lose it.
    let written = a
        .figure
        .as_ref()
        .map(|path| std::fs::write(path, figure(&report)).map_err(|e| (path, e)))
        .transpose();
    if a.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| Failure::Solver(format!("cannot write the report as JSON: {e}")))?;
        writeln!(out, "{text}")?;
    } else {
        write_report(&report, out)?;
        if let (Some(path), Ok(_)) = (&a.figure, &written) {
            writeln!(out, "\nfigure: {}", path.display())?;
        }
    }
    written.map_err(|(path, e)| crate::failure::unwritable("--figure", path, &e))?;
    Ok(())
}

/// `median / p90` of an error cell, in %, or `-` when it holds no point.
fn cell(e: &Errors) -> String {
    match (e.median_ape_pct, e.p90_ape_pct) {
        (Some(m), Some(p)) => format!("{m:.1} / {p:.1}"),
        _ => "-".into(),
    }
}

fn signed(e: &Errors) -> String {
    e.median_error_pct
        .map_or_else(|| "-".into(), |v| format!("{v:+.1}"))
}

/// `B, local, β1` in Gbps, Gbps and ms.
fn params(p: &Params) -> String {
    format!(
        "{:.2}, {:.1}, {:.2}",
        p.cross_gbps,
        p.local_gbps,
        p.worker_overhead_s * 1000.0
    )
}

fn write_report(r: &Report, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "Speed model against the Pollux artifact's measured steps (docs/CALIBRATION.md)"
    )?;
    writeln!(
        out,
        "{} measured rows: {} fitted on (seed {}, {}% of each application), {} held out",
        r.measured,
        r.train,
        r.options.seed,
        r.options.train_share * 100.0,
        r.held_out
    )?;
    writeln!(out, "\nfitted parameters (global, on the training part)")?;
    let p = &r.fit.params;
    let mut t = Table::new(&[("parameter", false), ("value", true)]);
    t.row(vec![
        "B: cross-machine bandwidth of a PS".into(),
        format!("{:.3} Gbps", p.cross_gbps),
    ]);
    t.row(vec![
        "local_gbps: rate on one machine".into(),
        format!("{:.3} Gbps", p.local_gbps),
    ]);
    t.row(vec![
        "β1: per worker per iteration".into(),
        format!("{:.4} ms", p.worker_overhead_s * 1000.0),
    ]);
    t.row(vec![
        "rms relative error (training part)".into(),
        format!("{:.1}%", r.fit.rms_pct),
    ]);
    t.write(out)?;
    if !r.fit.at_bound.is_empty() {
        writeln!(
            out,
            "at the edge of their range (only bounded by the data): {}",
            r.fit.at_bound.join(", ")
        )?;
    }
    writeln!(
        out,
        "\nheld-out absolute percentage error, median / p90 in % (bias: median signed error, \
         + = model slower)"
    )?;
    let mut t = Table::new(&[
        ("app", false),
        ("held out", true),
        ("single machine", true),
        ("across machines", true),
        ("all", true),
        ("bias", true),
        ("own fit: B, local, β1 ms", true),
        ("own fit: all", true),
    ]);
    let row = |name: &str, c: &Cells, own: Option<(&Params, &Cells)>| {
        vec![
            name.to_owned(),
            c.all.count.to_string(),
            cell(&c.single),
            cell(&c.across),
            cell(&c.all),
            signed(&c.all),
            own.map_or_else(|| "-".into(), |(p, _)| params(p)),
            own.map_or_else(|| "-".into(), |(_, c)| cell(&c.all)),
        ]
    };
    for a in &r.apps {
        let own = a.own_fit.as_ref().zip(a.own.as_ref());
        t.row(row(a.app, &a.held_out, own.map(|(f, c)| (&f.params, c))));
    }
    let mut all = row("all", &r.overall, None);
    if let Some(own) = &r.overall_own {
        all[7] = cell(&own.all);
    }
    t.row(all);
    t.write(out)?;
    writeln!(out, "\nworst held-out points")?;
    let mut t = Table::new(&[
        ("app", false),
        ("file", false),
        ("line", true),
        ("placement", false),
        ("b", true),
        ("measured s", true),
        ("model s", true),
        ("error", true),
    ]);
    for e in &r.worst {
        t.row(vec![
            e.app.into(),
            e.source.name().into(),
            e.line.to_string(),
            e.placement.clone(),
            format!("{}", e.local_batch),
            format!("{:.4}", e.measured_s),
            format!("{:.4}", e.model_s),
            format!("{:+.1}%", e.error_pct),
        ]);
    }
    t.write(out)
}

/// The held-out points, model against measured, one series per application.
fn figure(r: &Report) -> String {
    let series = App::ALL
        .iter()
        .map(|app| ScatterSeries {
            name: app.name().into(),
            points: r
                .points
                .iter()
                .filter(|e| e.app == app.name())
                .map(|e| (e.measured_s, e.model_s))
                .collect(),
        })
        .collect();
    scatter_svg(&ScatterChart {
        title: format!(
            "Model vs measured time per iteration ({} held-out runs, seed {})",
            r.held_out, r.options.seed
        ),
        x_label: "measured step time (s)".into(),
        y_label: "model: T_placed / E (s)".into(),
        series,
        log: true,
        identity: true,
        guides: vec![0.5, 2.0],
        ..ScatterChart::default()
    })
}
