//! The joint optimum `global` in wasm, in headless Chromium (docs/BENCHMARKS.md §5):
//! `cargo test --release -p smd-bench --target wasm32-unknown-unknown --test joint -- --nocapture`.
//! `SMD_JOINT_ONLY=NAME` at build time keeps the instances whose name contains NAME, and
//! `SMD_JOINT_QUICK=1` keeps I ≤ 200 with one run each (the browser cannot read the
//! environment at run time). Every instance is proven in well under a second today; one
//! that ran into the 60 s budget would need a higher runner limit, e.g.
//! `WASM_BINDGEN_TEST_TIMEOUT=3600`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn joint_optimum_in_the_browser() {
    let quick = option_env!("SMD_JOINT_QUICK").is_some_and(|v| v == "1");
    let only = option_env!("SMD_JOINT_ONLY");
    let rows = smd_bench::joint::run_joint(&now, quick, only, &mut |row, _| {
        // Each row as it is measured (the runner shows the log when the test ends).
        console_log!("{}", smd_bench::joint::joint_line(row).trim_end());
    });
    console_log!("\n{}", smd_bench::joint::joint_table(&rows, "wasm"));
    // A smoke check that the numbers are numbers; the goals are read, not asserted.
    assert!(rows.iter().all(|r| r.ms.is_finite() && r.ms >= 0.0));
}
