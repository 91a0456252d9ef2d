//! A capacity sweep's speed in wasm, one point after another as one Web Worker would run
//! it, in headless Chromium (docs/BENCHMARKS.md §10): `cargo test --release -p smd-bench
//! --target wasm32-unknown-unknown --test sweep -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn sweep_in_the_browser() {
    let row = smd_bench::sweep::run_serial(&now, 3);
    console_log!("{}", smd_bench::sweep::sweep_table(&[row.clone()], "wasm"));
    assert_eq!(row.plans, 100);
}
