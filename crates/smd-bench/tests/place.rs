//! The placement stage's speed in wasm, in headless Chromium (docs/PLACEMENT.md §13):
//! `cargo test --release -p smd-bench --target wasm32-unknown-unknown --test place -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn placement_in_the_browser() {
    let rows = smd_bench::place::run_place(&now, 11, &smd_place::Options::default());
    console_log!("{}", smd_bench::place::place_table(&rows, "wasm"));
    // A smoke check that the numbers are numbers; the goal is read, not asserted.
    assert!(rows.iter().all(|r| r.ms.is_finite() && r.ms >= 0.0));
}
