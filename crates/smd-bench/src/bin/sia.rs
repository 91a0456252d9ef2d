//! Clusters that mix GPU types (docs/BENCHMARKS.md §15): Sia's decision times as the
//! cluster and its load grow together — the Sia paper's Figure 9 construction: Helios
//! workload 1 with each job issued k times at its arrival, on k × (6 t4x4 + 2 a100x8 +
//! 3 rtx2080tix8), k = 1 (64 GPUs) … 32 (2048 GPUs) — and a whole Philly workload under
//! each of the three typed policies. Prints each measure beside its goal.
//!
//! `cargo run --release -p smd-bench --bin sia [-- K …]` (default: 1 4 32).

use smd_apps::{machines, trace};
use smd_core::scenario::Scenario;
use smd_sim::{simulate, Options, SimPolicy};
use std::time::Instant;

/// Helios workload 1, each job `k` times at its arrival, on `k` times the paper's cluster.
fn scaled(k: u32) -> Scenario {
    let one = trace::parse(trace::workload("helios-1").expect("bundled")).expect("reads");
    let mut arrivals = Vec::with_capacity(one.len() * k as usize);
    for a in &one {
        for c in 0..k {
            let mut b = a.clone();
            b.name = format!("{}-{c}", a.name);
            arrivals.push(b);
        }
    }
    let mix = machines::parse_mix(&format!(
        "t4x4={},a100x8={},rtx2080tix8={}",
        6 * k,
        2 * k,
        3 * k
    ))
    .expect("a mix");
    let cluster = machines::mix_cluster(&mix, mix[0].0.capacity);
    trace::scenario(&arrivals, cluster).expect("a scenario")
}

fn main() {
    let ks: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let ks = if ks.is_empty() { vec![1, 4, 32] } else { ks };
    println!("Sia's decisions as cluster and load grow (Helios workload 1 × k on k × 64 GPUs)");
    println!("| GPUs | jobs | decisions | median ms | p95 ms | max ms | proven | run s | goal (median) |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for k in ks {
        let s = scaled(k);
        let t0 = Instant::now();
        let clock = || t0.elapsed().as_secs_f64() * 1000.0;
        let mut opts = Options {
            clock: Some(&clock),
            ..Options::default()
        };
        let run = simulate(&s, SimPolicy::Sia, &mut opts).expect("sia runs");
        let wall = t0.elapsed().as_secs_f64();
        let st = run.stats.expect("stats");
        let d = st.decision_ms.expect("timed");
        let gpus = 64 * k;
        let goal = if gpus <= 64 { 10.0 } else { 300.0 };
        println!(
            "| {gpus} | {} | {} | {:.2} | {:.2} | {:.1} | {}/{} | {wall:.1} | ≤ {goal} ms at {}: ratio {:.2} |",
            s.jobs.len(),
            st.decisions,
            d.median,
            d.p95,
            d.max,
            st.proven,
            st.decisions,
            if gpus <= 64 { 64 } else { 2048 },
            d.median / goal
        );
    }
    println!();
    println!("A whole Philly workload (philly-1, 160 jobs) on the 64-GPU cluster");
    let s = trace::workload_on_mix("philly-1", usize::MAX, "t4x4=6,a100x8=2,rtx2080tix8=3")
        .expect("a scenario");
    let mut total = 0.0;
    println!("| policy | mean JCT h | run s |");
    println!("|---|---|---|");
    for p in [SimPolicy::Sia, SimPolicy::PolluxUnaware, SimPolicy::Gavel] {
        let t0 = Instant::now();
        let run = simulate(&s, p, &mut Options::default()).expect("runs");
        let wall = t0.elapsed().as_secs_f64();
        total += wall;
        println!(
            "| {p} | {:.3} | {wall:.2} |",
            run.metrics.mean_jct_s.unwrap_or(f64::NAN) / 3600.0
        );
    }
    println!(
        "all three: {total:.2} s against the 5 s goal (ratio {:.2})",
        total / 5.0
    );
}
