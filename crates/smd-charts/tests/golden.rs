//! Every kind of chart, byte for byte, against SVGs kept in `tests/golden/`: a refactoring
//! (charts composed of the shared axes, legend and marker parts) must not move a pixel.
//!
//! A deliberate change of a chart's look is blessed with
//! `SMD_CHARTS_BLESS=1 cargo test -p smd-charts --test golden` (look at the rewritten files
//! and their diff before committing them). On a mismatch the new SVG is written beside the
//! test binary's scratch folder, and the message says where.

use smd_charts::{
    landscape_svg, line_chart_svg, schedule_svg, LandscapeOptions, LineChart, Point,
    ScheduleOptions, Series, TimeUnit, Value,
};
use smd_core::scenario::{Layer, Overlap};
use smd_core::{generate, landscape, plan, GenerateOptions, Policy};
use std::path::PathBuf;

/// The charts checked: name and SVG.
fn charts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut s = generate(&GenerateOptions {
        jobs: 6,
        seed: 1,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    let plans: Vec<_> = [Policy::Smd, Policy::Esw, Policy::Optimus, Policy::Exact]
        .into_iter()
        .map(|p| plan(&s, p).unwrap())
        .collect();
    // Job 2 shows all four policies, some of them not admitting it.
    let l = landscape(&s, 2, 8, &plans).unwrap();
    for (name, value, width, height) in [
        ("landscape-time", Value::Time, 640.0, 480.0),
        ("landscape-utility-small", Value::Utility, 320.0, 240.0),
    ] {
        let opts = LandscapeOptions {
            width,
            height,
            value,
            id_prefix: "g".into(),
        };
        out.push((name.into(), landscape_svg(&l, &opts)));
    }
    let mut bad = s.clone();
    bad.jobs[1].worker.gpu = 4.0;
    bad.jobs[1].limit_instances = 0.5;
    let li = landscape(&bad, 1, 6, &[]).unwrap();
    out.push((
        "landscape-infeasible".into(),
        landscape_svg(&li, &LandscapeOptions::default()),
    ));

    let layers: Vec<Layer> = (0..6)
        .map(|k| Layer {
            forward_ms: 3.0 + k as f64,
            backward_ms: 6.0 + 2.0 * k as f64,
            comm_ms: 20.0 + 5.0 * (k % 3) as f64,
        })
        .collect();
    out.push((
        "schedule-wfbp".into(),
        schedule_svg(&layers, 0.09, Overlap::Wfbp, &ScheduleOptions::default()),
    ));
    let opts = ScheduleOptions {
        width: 500.0,
        height: 300.0,
        unit: TimeUnit::Seconds,
    };
    out.push((
        "schedule-pipelined-seconds".into(),
        schedule_svg(&layers[..3], 2.5, Overlap::Pipelined, &opts),
    ));

    let series: Vec<Series> = (0..3)
        .map(|k| Series {
            name: format!("policy {k}"),
            points: (1..=4)
                .map(|i| Point {
                    x: i as f64 * 0.5,
                    mean: (i * (k + 2)) as f64 * 1.5,
                    spread: 0.3 * i as f64,
                })
                .collect(),
        })
        .collect();
    let chart = LineChart {
        title: "utility against units".into(),
        x_label: "units".into(),
        y_label: "utility".into(),
        series: series.clone(),
        ..Default::default()
    };
    out.push(("line-linear".into(), line_chart_svg(&chart)));
    let chart = LineChart {
        title: String::new(),
        x_log: true,
        y_log: true,
        y_zero: false,
        width: 500.0,
        height: 300.0,
        ..chart
    };
    out.push(("line-log".into(), line_chart_svg(&chart)));
    out.push(("line-empty".into(), line_chart_svg(&LineChart::default())));
    out.push(("gpu-speeds".into(), gpu_speeds()));
    out.extend(machine_charts());
    out.extend(teach_text());
    out
}

/// The charts of a plan on machines, with GPU sharing, over time and swept: eight
/// bundled-workload jobs on 16 × t4x4 (`machines-scenario.json`, from `smd trace`).
fn machine_charts() -> Vec<(String, String)> {
    use smd_sim::{simulate, SimPolicy};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let text = std::fs::read_to_string(dir.join("machines-scenario.json")).unwrap();
    let mut s = smd_core::Scenario::from_json(&text).unwrap();
    s.params.epsilon = 0.1;
    let mut out = Vec::new();
    let placed = smd_place::plan_placed(&s, Policy::Optimus, &mut smd_core::Options::default());
    let placed = placed.unwrap();
    out.push((
        "machines-map".into(),
        smd_charts::machine_map_svg(&placed, &s.cluster, &Default::default()),
    ));
    // The same jobs on a mix of GPU types: each machine striped in its type's colour.
    let mut mixed = s.clone();
    mixed.cluster.machines[0].count = 4.0;
    let mut a100 = mixed.cluster.machines[0].clone();
    a100.name = "a100x8".into();
    a100.count = 2.0;
    a100.gpu = Some(smd_core::scenario::Gpu::A100);
    a100.capacity.gpu = 8.0;
    mixed.cluster.machines.push(a100);
    let plan = smd_place::plan_placed(&mixed, Policy::Optimus, &mut Default::default()).unwrap();
    out.push((
        "machines-map-mixed".into(),
        smd_charts::machine_map_svg(&plan, &mixed.cluster, &Default::default()),
    ));
    let mut shared = s.clone();
    shared.params.gpu_sharing = Some(smd_core::scenario::GpuSharing::Heuristic);
    shared.params.collision_prob = Some(0.4);
    let plan = smd_place::plan_placed(&shared, Policy::Optimus, &mut Default::default()).unwrap();
    let sharing = plan.sharing.as_ref().expect("a plan with GPU sharing");
    let opts = smd_charts::GpuMapOptions {
        width: 660.0,
        jobs: shared.jobs.iter().map(|j| j.id.clone()).collect(),
        job_memory_gb: shared
            .jobs
            .iter()
            .filter_map(|j| Some((j.id.clone(), j.gpu_mem_mean_gb?)))
            .collect(),
    };
    out.push((
        "machines-gpu-map".into(),
        smd_charts::gpu_map_svg(sharing, 16.0, &opts),
    ));
    let runs: Vec<_> = [SimPolicy::Fifo, SimPolicy::Smd, SimPolicy::Bound]
        .into_iter()
        .map(|p| simulate(&s, p, &mut Default::default()).unwrap())
        .collect();
    out.push((
        "time-timeline".into(),
        smd_charts::timeline_svg(&runs[1], &Default::default()),
    ));
    let o = smd_charts::OverTimeOptions::default();
    let capacity = s.cluster.capacity();
    out.push((
        "time-usage".into(),
        smd_charts::usage_svg(&runs, &capacity, &o),
    ));
    out.push(("time-jct-cdf".into(), smd_charts::jct_cdf_svg(&runs, &o)));
    out.push((
        "time-utility".into(),
        smd_charts::utility_bound_svg(&runs, &o),
    ));
    let spec = smd_sweep::Spec {
        axis: smd_sweep::Axis::Machines,
        range: smd_sweep::Range::parse("4:16:6").unwrap(),
        resource: None,
        machine_type: None,
        group: None,
    };
    let policies = smd_sweep::Policies::all(&s.cluster, false);
    let report = smd_sweep::sweep(&s, &spec, &policies, &mut Default::default()).unwrap();
    for (name, metric) in [
        ("sweep-utility", smd_charts::SweepMetric::Utility),
        ("sweep-admitted", smd_charts::SweepMetric::Admitted),
    ] {
        let svg = smd_charts::sweep_svg(&report, metric, &Default::default());
        out.push((name.into(), svg));
    }
    out
}

/// The teaching trace's words, overlays, admission rows and chart for one job, step by
/// step (kept as a text file beside the SVGs).
fn teach_text() -> Vec<(String, String)> {
    use smd_charts::teach;
    let mut s = generate(&GenerateOptions {
        jobs: 6,
        seed: 1,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    let t = smd_core::teach::trace(&s, 1, &Default::default()).unwrap();
    let mut text = String::new();
    for k in 0..t.steps.len() {
        text.push_str(&format!("{k} {}\n", teach::sentence(&t, k)));
        text.push_str(&format!("  {:?}\n", teach::overlay(&t, k)));
        text.push_str(&format!("  {:?}\n", teach::admission_rows(&t, k, 6)));
        if let Some(c) = teach::admission_chart(&t, k) {
            text.push_str(&format!("  {}\n", line_chart_svg(&c)));
        }
    }
    vec![("teach-trace.txt".into(), text)]
}

#[test]
fn charts_match_the_golden_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("SMD_CHARTS_BLESS").is_some_and(|v| v == "1");
    let mut differ = Vec::new();
    for (name, svg) in charts() {
        let file = if name.contains('.') {
            name.clone()
        } else {
            format!("{name}.svg")
        };
        let path = dir.join(&file);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &svg).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (bless to create it)", path.display()));
        if want != svg {
            let at = want
                .bytes()
                .zip(svg.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(want.len().min(svg.len()));
            let got = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(&file);
            std::fs::write(&got, &svg).unwrap();
            let context = |s: &str| {
                let (mut from, mut to) = (at.saturating_sub(60), (at + 60).min(s.len()));
                while !s.is_char_boundary(from) {
                    from -= 1;
                }
                while !s.is_char_boundary(to) {
                    to += 1;
                }
                s[from..to].to_string()
            };
            differ.push(format!(
                "{name}: first difference at byte {at}\n  want …{}…\n  got  …{}…\n  \
                 new SVG: {}",
                context(&want),
                context(&svg),
                got.display()
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "charts differ from tests/golden (bless a deliberate change with SMD_CHARTS_BLESS=1):\n{}",
        differ.join("\n")
    );
}

/// How it works' figure of the five applications' one-GPU speeds on the five GPU types
/// (the measured throughputs, examples per second, in `Gpu::ALL`'s order), one of them
/// unknown on a type.
fn gpu_speeds() -> String {
    use smd_core::scenario::Gpu;
    let rows: Vec<smd_charts::SpeedRow> = [
        ("CIFAR-10", [1458.50, 4714.74, 10062.6, 3306.32, 3740.15]),
        ("ImageNet", [216.560, 673.237, 1034.01, 395.224, 414.941]),
        ("BERT", [13.022, 41.5837, 140.442, 26.8507, 37.4384]),
        (
            "DeepSpeech2",
            [31.4883, 71.8235, 77.5046, 52.5122, f64::NAN],
        ),
        ("YOLOv3", [27.9423, 42.4959, 56.7053, 11.7242, 50.5933]),
    ]
    .into_iter()
    .map(|(name, speeds)| smd_charts::SpeedRow {
        name: name.into(),
        speeds: speeds.to_vec(),
    })
    .collect();
    smd_charts::gpu_speeds_svg(&Gpu::ALL, &rows, 660.0)
}
