//! Planning measured jobs (docs/BENCHMARKS.md §11, docs/MODEL.md §21): the bundled
//! workload-1 (160 jobs) as measured all-reduce jobs on 16 × t4x4, placed, with every
//! policy — natively (`cargo run --release -p smd-bench --bin measured`) and in headless
//! Chromium (`cargo test --release -p smd-bench --target wasm32-unknown-unknown --test
//! measured -- --nocapture`). The first pass pays for reading the measurements and each
//! job's curve (memoised in `smd_core::allreduce`); the second is what a re-plan costs.

use smd_apps::machines::{cluster, machine_type};
use smd_apps::trace::{parse, scenario, workload};
use smd_core::{Options, Policy, Scenario};

/// One policy's plan in one pass.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1: cold (the first pass), 2: warm.
    pub pass: u32,
    /// The policy.
    pub policy: Policy,
    /// Wall time of `plan_placed`, ms.
    pub ms: f64,
    /// Jobs admitted.
    pub admitted: usize,
    /// Total utility (jobs done within their 8-hour deadline).
    pub utility: f64,
}

/// Workload-1 on 16 × t4x4, measured (what `smd trace --workload workload-1` writes).
pub fn workload_1() -> Scenario {
    let t4 = machine_type("t4x4").expect("t4x4");
    let arrivals = parse(workload("workload-1").expect("bundled")).expect("bundled");
    scenario(&arrivals, cluster(t4, 16.0, t4.capacity)).expect("bundled")
}

/// Two passes of every policy on [`workload_1`], timed with `now` (ms).
pub fn run(now: &dyn Fn() -> f64) -> Vec<Row> {
    let mut rows = Vec::new();
    let t0 = now();
    let s = workload_1();
    let read_ms = now() - t0;
    for pass in 1..=2 {
        for policy in Policy::ALL {
            let t = now();
            let plan = smd_place::plan_placed(&s, policy, &mut Options::default())
                .expect("workload-1 plans");
            rows.push(Row {
                pass,
                policy,
                ms: now() - t
                    + if pass == 1 && policy == Policy::ALL[0] {
                        read_ms
                    } else {
                        0.0
                    },
                admitted: plan.admitted,
                utility: plan.total_utility,
            });
        }
    }
    rows
}

/// The rows as a Markdown table, with each pass's total.
pub fn table(rows: &[Row], platform: &str) -> String {
    let mut out = format!(
        "| {platform} | pass | ms | admitted | utility (jobs) |\n|---|---:|---:|---:|---:|\n"
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {:.1} | {} | {:.3} |\n",
            r.policy, r.pass, r.ms, r.admitted, r.utility
        );
    }
    for pass in [1, 2] {
        let total: f64 = rows.iter().filter(|r| r.pass == pass).map(|r| r.ms).sum();
        out += &format!("| **every policy** | {pass} | **{total:.1}** | | |\n");
    }
    out
}
