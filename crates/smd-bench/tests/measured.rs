//! Planning workload-1 as measured jobs in wasm, in headless Chromium (docs/BENCHMARKS.md
//! §11): `cargo test --release -p smd-bench --target wasm32-unknown-unknown --test measured
//! -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn measured_jobs_in_the_browser() {
    let rows = smd_bench::measured::run(&now);
    console_log!("{}", smd_bench::measured::table(&rows, "wasm"));
    // The goal is read, not asserted; every policy admits some job.
    assert!(rows.iter().all(|r| r.ms.is_finite() && r.admitted > 0));
}
