//! The reference simulator's policies over time (docs/BENCHMARKS.md §12, issue 26): the
//! bundled workload-1 (160 measured jobs) on 16 × t4x4 with 60 s ticks, simulated with
//! `tiresias`, `optimus_oracle` and `pollux` — natively (`cargo run --release -p smd-bench
//! --bin reference`) and in headless Chromium (`cargo test --release -p smd-bench --target
//! wasm32-unknown-unknown --test reference -- --nocapture`). The first pass pays for
//! reading the measurements and every job's curve; the second is what a re-run costs.

use smd_sim::{simulate, Options, SimPolicy};

/// The reference's own cost per workload (POLLUX-SIM.md, its README), s: Tiresias 17 s,
/// Optimus 77 s, Pollux ~30 min of CPU.
pub const REFERENCE_S: [(SimPolicy, f64); 3] = [
    (SimPolicy::Tiresias, 17.0),
    (SimPolicy::OptimusOracle, 77.0),
    (SimPolicy::Pollux, 1800.0),
];

/// One policy's run in one pass.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1: cold, 2: warm.
    pub pass: u32,
    /// The policy.
    pub policy: SimPolicy,
    /// Wall time of `simulate`, ms.
    pub ms: f64,
    /// Mean JCT, s.
    pub mean_jct_s: f64,
}

/// Two passes of each of the reference's policies on workload-1, timed with `now` (ms).
pub fn run(now: &dyn Fn() -> f64) -> Vec<Row> {
    let mut rows = Vec::new();
    let t0 = now();
    let s = crate::measured::workload_1();
    let read_ms = now() - t0;
    for pass in 1..=2 {
        for (k, (policy, _)) in REFERENCE_S.into_iter().enumerate() {
            let t = now();
            let run = simulate(&s, policy, &mut Options::default()).expect("workload-1 runs");
            rows.push(Row {
                pass,
                policy,
                ms: now() - t + if pass == 1 && k == 0 { read_ms } else { 0.0 },
                mean_jct_s: run.metrics.mean_jct_s.unwrap_or(f64::NAN),
            });
        }
    }
    rows
}

/// The rows as a Markdown table with the ratio to the reference's time.
pub fn table(rows: &[Row], platform: &str) -> String {
    let mut out = format!(
        "| {platform} | pass | ms | mean JCT, s | the reference, s | ratio |\n|---|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        let theirs = REFERENCE_S
            .iter()
            .find(|(p, _)| *p == r.policy)
            .map_or(f64::NAN, |(_, s)| *s);
        out += &format!(
            "| {} | {} | {:.1} | {:.0} | {theirs:.0} | {:.0} × |\n",
            r.policy,
            r.pass,
            r.ms,
            r.mean_jct_s,
            theirs * 1000.0 / r.ms
        );
    }
    out
}
