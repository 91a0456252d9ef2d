//! The exact knapsack on an outside benchmark: the 30 OR-Library instances 5.100 (100 items,
//! 5 constraints) of Chu & Beasley, each with a time limit, beside the known optimum.
//!
//! `cargo bench -p smd-core --features internals --bench orlib --
//! [--file PATH] [--limit-s 60] [--only K]` (default file: the shared data folder next to the
//! repository). Prints a Markdown table. The feature `internals` gives it the private exact
//! knapsack and the OR-Library reader (`smd_core::internals`).

use smd_core::internals::{branch_and_bound_with, parse_orlib, Limits};
use std::time::Instant;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let default = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/orlib/mknapcb1.txt"
    );
    let file = arg("--file").unwrap_or_else(|| default.to_string());
    let limit_s: f64 = arg("--limit-s")
        .and_then(|v| v.parse().ok())
        .unwrap_or(60.0);
    let only: Option<usize> = arg("--only").and_then(|v| v.parse().ok());
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let instances = parse_orlib(&text).expect("OR-Library file parses");
    println!(
        "OR-Library {file}: {} instances, limit {limit_s} s each\n",
        instances.len()
    );
    println!("| instance | known optimum | found | proven | gap | within 0.5% | time s | nodes |");
    println!("|---|---:|---:|---|---:|---|---:|---:|");
    let (mut proven, mut within, mut total_s) = (0, 0, 0.0);
    for (k, inst) in instances.iter().enumerate() {
        if only.is_some_and(|o| o != k) {
            continue;
        }
        let (items, cap) = inst.items::<5>().expect("5 constraints");
        let t0 = Instant::now();
        let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
        let limits = Limits {
            nodes: u64::MAX,
            time_ms: Some(limit_s * 1000.0),
            clock: Some(&clock),
        };
        let sel = branch_and_bound_with(&items, &cap, &limits).expect("solves");
        let secs = t0.elapsed().as_secs_f64();
        total_s += secs;
        let close = sel.value >= 0.995 * inst.optimum;
        proven += usize::from(sel.proven_optimal);
        within += usize::from(close);
        println!(
            "| 5.100-{k:02} | {} | {} | {} | {} | {} | {secs:.2} | {} |",
            inst.optimum,
            sel.value,
            if sel.proven_optimal { "yes" } else { "no" },
            sel.gap.map_or("–".into(), |g| format!("{:.3}%", 100.0 * g)),
            if close { "yes" } else { "NO" },
            sel.nodes
        );
    }
    println!("\nproven optimal: {proven}; within 0.5% of the known optimum: {within}; total {total_s:.1} s");
}
