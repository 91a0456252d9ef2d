//! `smd simulate`: a scenario's jobs over time (crate `smd-sim`, docs/MODEL.md §17), one
//! policy or all, as a table of metrics or the JSON of docs/SCENARIO.md ("Simulation").

use crate::common::{load, Common};
use crate::failure::Failure;
use crate::table::Table;
use clap::Args;
use smd_format::duration;
use smd_sim::{simulate, Options, Run, SimError, SimPolicy};
use std::io::Write;

/// Arguments of `smd simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// A policy (fifo, optimus, smd, oasis, locality, bound; for measured jobs also the
    /// reference simulator's tiresias, optimus_oracle and pollux, and on mixed GPU types
    /// sia, gavel and pollux_unaware) or `all` (those that apply).
    #[arg(long, value_name = "P|all", default_value = "all")]
    policy: String,
    #[command(flatten)]
    common: Common,
}

/// Runs the simulation(s) and prints them.
pub fn run(a: &SimulateArgs, out: &mut impl Write) -> Result<(), Failure> {
    // A bad policy name is refused before the file is read.
    let one: Option<SimPolicy> = match a.policy.as_str() {
        "all" => None,
        name => Some(
            name.parse::<SimPolicy>()
                .map_err(|e| Failure::Invalid(format!("--policy: {e} or all")))?,
        ),
    };
    let scenario = load(&a.common)?;
    let policies: Vec<SimPolicy> = match one {
        Some(p) => vec![p],
        None => SimPolicy::all_for(&scenario),
    };
    let mut runs: Vec<(Run, f64)> = Vec::new();
    for &p in &policies {
        let t0 = std::time::Instant::now();
        let ticker = crate::progress::Ticker::start(&format!("smd: simulating {p}"));
        let status = ticker.status();
        let mut on_progress = |g: smd_sim::Progress| {
            if let Ok(mut s) = status.lock() {
                *s = format!(
                    "slot {}, t = {}, {} of {} finished",
                    g.slots,
                    duration(g.time_s),
                    g.finished,
                    g.jobs
                );
            }
        };
        let clock = || t0.elapsed().as_secs_f64() * 1000.0;
        let mut opts = Options {
            progress: Some(&mut on_progress),
            clock: Some(&clock),
            ..Options::default()
        };
        let run = simulate(&scenario, p, &mut opts).map_err(|e| match e {
            SimError::Invalid(e) => Failure::from(e),
            SimError::Cancelled => Failure::Solver("cancelled".into()),
        })?;
        runs.push((run, t0.elapsed().as_secs_f64() * 1000.0));
    }
    if a.common.json {
        let text = if runs.len() == 1 {
            serde_json::to_string_pretty(&runs[0].0)
        } else {
            serde_json::to_string_pretty(&runs.iter().map(|r| &r.0).collect::<Vec<_>>())
        }
        .map_err(|e| Failure::Solver(format!("cannot serialise the runs: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    write_table(&scenario, &runs, out)
}

/// The text output: the slot and restart, then one row of metrics per policy.
fn write_table(
    scenario: &smd_core::Scenario,
    runs: &[(Run, f64)],
    out: &mut impl Write,
) -> Result<(), Failure> {
    // The slot and restart are the slot loop's; the typed policies' own line follows.
    if runs.iter().all(|r| r.0.policy.is_hetero()) {
        writeln!(out, "{} jobs", scenario.jobs.len())?;
    } else {
        writeln!(
            out,
            "{} jobs   slot {}   restart {}",
            scenario.jobs.len(),
            duration(scenario.interval_s()),
            duration(
                scenario
                    .params
                    .restart_s
                    .unwrap_or(smd_core::scenario::DEFAULT_RESTART_S)
            ),
        )?;
    }
    let sharing = runs.iter().any(|r| r.0.metrics.sharing.is_some());
    if sharing {
        writeln!(
            out,
            "GPU sharing on (online packing per machine; docs/MODEL.md §18): GPU-hours in use \
             against the same workers' exclusive GPUs"
        )?;
    }
    let typed = runs.iter().any(|r| r.0.stats.is_some());
    if typed {
        writeln!(
            out,
            "sia, gavel and pollux_unaware: each job on GPUs of one type at that type's \
             measured speed, every {} (gavel: rounds of {}), each restart the application's \
             measured checkpoint-restore delay",
            duration(smd_sim::HETERO_TICK_S),
            duration(smd_sim::GAVEL_ROUND_S)
        )?;
    }
    writeln!(out)?;
    let mut columns = vec![
        ("policy", false),
        ("total utility", true),
        ("of bound", true),
        ("finished", true),
        ("mean JCT", true),
        ("median JCT", true),
        ("p95 JCT", true),
        ("mean queue", true),
        ("p95 queue", true),
        ("makespan", true),
        ("restarts", true),
        ("cross Gbit", true),
    ];
    if sharing {
        columns.extend([("GPU-h", true), ("exclusive GPU-h", true), ("perf", true)]);
    }
    if typed {
        columns.extend([("decision ms p95", true), ("proven", true)]);
    }
    let priced = runs.iter().any(|r| r.0.cost.is_some());
    if priced {
        columns.extend([("run cost", true), ("cost/job", true)]);
    }
    columns.push(("run ms", true));
    let mut t = Table::new(&columns);
    let time = |v: Option<f64>| v.map_or("-".to_owned(), duration);
    for (r, ms) in runs {
        let m = &r.metrics;
        let n = r.jobs.len();
        let mut row = vec![
            r.policy.name().to_owned(),
            format!("{:.3}", m.total_utility),
            if m.bound > 0.0 {
                format!("{:.1}%", 100.0 * m.total_utility / m.bound)
            } else {
                "-".into()
            },
            format!("{}/{n}", n - m.unfinished),
            time(m.mean_jct_s),
            time(m.median_jct_s),
            time(m.p95_jct_s),
            time(m.mean_queue_s),
            time(m.p95_queue_s),
            time(m.makespan_s),
            m.restarts.to_string(),
            format!("{:.1}", m.cross_traffic_gbit),
        ];
        if sharing {
            match &m.sharing {
                Some(s) => row.extend([
                    format!("{:.1}", s.gpu_hours),
                    format!("{:.1}", s.exclusive_gpu_hours),
                    format!("{:.1}%", 100.0 * s.mean_performance),
                ]),
                None => row.extend(["-".into(), "-".into(), "-".into()]),
            }
        }
        if typed {
            match &r.stats {
                Some(s) => row.extend([
                    s.decision_ms
                        .map_or("-".into(), |d| smd_format::sig(d.p95, 3)),
                    if r.policy == SimPolicy::Sia {
                        format!("{}/{}", s.proven, s.decisions)
                    } else {
                        "-".into()
                    },
                ]),
                None => row.extend(["-".into(), "-".into()]),
            }
        }
        if priced {
            let money = |v: Option<f64>| v.map_or("-".to_owned(), smd_format::usd);
            row.extend([
                money(r.cost.as_ref().map(|c| c.run_usd)),
                money(r.cost.as_ref().and_then(|c| c.mean_job_usd)),
            ]);
        }
        row.push(format!("{ms:.1}"));
        t.row(row);
    }
    t.write(out)?;
    // The cluster's price, or why there is none (the other metrics stand either way).
    match scenario.cluster.hourly_usd() {
        Ok(usd) => writeln!(
            out,
            "cost: the cluster at {}/h until the run's last slot; cost/job: the GPU-hours \
             each job ran on each type × that type's price per GPU-hour, mean over the jobs \
             that ran",
            smd_format::usd(usd)
        )?,
        Err(e) => writeln!(out, "no cost: {e}")?,
    }
    Ok(())
}
