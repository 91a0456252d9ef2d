//! The reference simulator's policies on workload-1 in wasm, in headless Chromium
//! (docs/BENCHMARKS.md §12): `cargo test --release -p smd-bench --target
//! wasm32-unknown-unknown --test reference -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_reference_policies_in_the_browser() {
    let rows = smd_bench::reference::run(&now);
    console_log!("{}", smd_bench::reference::table(&rows, "wasm"));
    // The goal is read, not asserted; every run finishes its jobs.
    assert!(rows.iter().all(|r| r.ms.is_finite() && r.mean_jct_s > 0.0));
}
