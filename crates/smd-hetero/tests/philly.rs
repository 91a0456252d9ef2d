//! A whole Philly workload under Sia (ignored: a measurement, run by hand with
//! `cargo test -p smd-hetero --test philly -- --ignored --nocapture`).

use smd_hetero::cluster::Cluster;
use smd_hetero::engine::{run, Options};
use smd_hetero::job::{Rules, Spec};
use smd_hetero::sia::Sia;
use smd_measured::app::App;
use smd_measured::gpu::Gpu;

fn workload(text: &str) -> Vec<Spec> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            let app = match c[2] {
                "cifar10" => App::Cifar10,
                "imagenet" => App::Imagenet,
                "bert" => App::Bert,
                "deepspeech2" => App::Deepspeech2,
                "yolov3" => App::Yolov3,
                _ => App::Ncf,
            };
            Spec {
                name: c[0].into(),
                app,
                arrival_s: c[1].parse().unwrap(),
                gpus: c[3].parse().unwrap(),
                batch: c[4].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
#[ignore]
fn philly_workload_1_under_sia() {
    let specs = workload(include_str!(
        "../../../data/sia/workloads/philly/workload-1.csv"
    ));
    let cluster = Cluster::of(&[(Gpu::T4, 6), (Gpu::A100, 2), (Gpu::Rtx2080ti, 3)]).unwrap();
    let t0 = std::time::Instant::now();
    let clock = || t0.elapsed().as_secs_f64() * 1000.0;
    let mut opts = Options {
        clock: Some(&clock),
        ..Options::default()
    };
    let out = run(
        &specs,
        &cluster,
        &mut Sia::new(),
        60.0,
        Rules::default(),
        &mut opts,
    )
    .unwrap();
    let mean = out.jobs.iter().map(|j| j.jct_s).sum::<f64>() / out.jobs.len() as f64;
    let mut ms = out.decision_ms.clone();
    ms.sort_by(f64::total_cmp);
    println!(
        "sia philly-1: mean JCT {:.3} h, makespan {:.1} h, {} decisions, median {:.2} ms, p95 {:.2} ms, wall {:.1} s",
        mean / 3600.0,
        out.jobs.iter().map(|j| j.completion_s).fold(0.0, f64::max) / 3600.0,
        out.decisions,
        ms[ms.len() / 2],
        ms[ms.len() * 95 / 100],
        t0.elapsed().as_secs_f64()
    );
}
