//! The simulation's speed in wasm, in headless Chromium (docs/BENCHMARKS.md §8):
//! `cargo test --release -p smd-bench --target wasm32-unknown-unknown --test sim -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn simulation_in_the_browser() {
    let rows = smd_bench::sim::run_sim(&now, &smd_bench::sim::CASES);
    console_log!("{}", smd_bench::sim::sim_table(&rows, "wasm"));
    // A smoke check that the numbers are numbers; the goal is read, not asserted.
    assert!(rows.iter().all(|r| r.ms.is_finite() && r.ms >= 0.0));
}
