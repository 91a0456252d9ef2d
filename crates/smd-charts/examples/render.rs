//! Renders sample charts into a folder (default `/tmp/charts`) for a look by eye:
//! the landscape of one generated job (utility and time), its layer schedule, the
//! landscape of an infeasible job and a line chart.
//!
//! `cargo run -p smd-charts --example render -- [out_dir] [seed] [job_index]`

use smd_charts::{
    landscape_svg, line_chart_svg, schedule_svg, LandscapeOptions, LineChart, Point,
    ScheduleOptions, Series, Value,
};
use smd_core::{generate, landscape, plan, GenerateOptions, Policy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::PathBuf::from(args.first().map_or("/tmp/charts", |s| s.as_str()));
    let seed: u64 = args.get(1).map_or(Ok(1), |s| s.parse())?;
    let index: usize = args.get(2).map_or(Ok(0), |s| s.parse())?;
    std::fs::create_dir_all(&dir)?;

    let mut scenario = generate(&GenerateOptions {
        jobs: 12,
        seed,
        ..Default::default()
    });
    scenario.params.epsilon = 0.2;
    let plans = [Policy::Smd, Policy::Esw, Policy::Optimus, Policy::Exact]
        .into_iter()
        .map(|p| plan(&scenario, p))
        .collect::<Result<Vec<_>, _>>()?;
    let l = landscape(&scenario, index, 40, &plans)?;
    for (name, value) in [("utility", Value::Utility), ("time", Value::Time)] {
        let opts = LandscapeOptions {
            value,
            id_prefix: format!("l-{name}"),
            ..Default::default()
        };
        std::fs::write(
            dir.join(format!("landscape-{name}.svg")),
            landscape_svg(&l, &opts),
        )?;
    }
    let large = LandscapeOptions {
        width: 900.0,
        height: 700.0,
        value: Value::Utility,
        id_prefix: "l-large".into(),
    };
    std::fs::write(dir.join("landscape-large.svg"), landscape_svg(&l, &large))?;

    let job = &scenario.jobs[index];
    let tau = 2.0 * 8.0 * job.model_size_mb / 1000.0 / job.ps_bandwidth_gbps;
    std::fs::write(
        dir.join("schedule.svg"),
        schedule_svg(&job.layers, tau, job.overlap, &ScheduleOptions::default()),
    )?;

    // The same layers, communication-bound (τ × 40): the three models differ visibly.
    std::fs::write(
        dir.join("schedule-comm-bound.svg"),
        schedule_svg(
            &job.layers,
            40.0 * tau,
            job.overlap,
            &ScheduleOptions::default(),
        ),
    )?;

    // An infeasible job: a worker needing more GPUs than its limit allows.
    let mut bad = scenario.clone();
    bad.jobs[index].worker.gpu = 4.0;
    bad.jobs[index].limit_instances = 0.5;
    let li = landscape(&bad, index, 40, &[])?;
    std::fs::write(
        dir.join("landscape-infeasible.svg"),
        landscape_svg(&li, &LandscapeOptions::default()),
    )?;

    // A line chart: total utility against cluster units, per policy (a quick sweep).
    let mut series: Vec<Series> = ["smd", "esw", "optimus"]
        .iter()
        .map(|n| Series {
            name: n.to_string(),
            points: Vec::new(),
        })
        .collect();
    for units in [1.0, 2.0, 3.0] {
        let mut totals = vec![Vec::new(); series.len()];
        for s in 1..=3 {
            let mut sc = generate(&GenerateOptions {
                jobs: 12,
                seed: s,
                units: units * 0.05,
                ..Default::default()
            });
            sc.params.epsilon = 0.2;
            for (k, p) in [Policy::Smd, Policy::Esw, Policy::Optimus]
                .iter()
                .enumerate()
            {
                totals[k].push(plan(&sc, *p)?.total_utility);
            }
        }
        for (k, t) in totals.iter().enumerate() {
            let n = t.len() as f64;
            let mean = t.iter().sum::<f64>() / n;
            let sd = (t.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            series[k].points.push(Point {
                x: units * 0.05,
                mean,
                spread: sd,
            });
        }
    }
    let chart = LineChart {
        title: "Total utility <of admitted jobs> & \"its spread\"".into(),
        x_label: "cluster units".into(),
        y_label: "total utility".into(),
        series,
        ..Default::default()
    };
    std::fs::write(dir.join("line.svg"), line_chart_svg(&chart))?;
    println!("wrote charts for {} into {}", l.id, dir.display());
    Ok(())
}
