//! The same budgets in wasm, in headless Chromium:
//! `cargo test --release -p smd-bench --target wasm32-unknown-unknown -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use smd_bench::browser_now as now;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn budgets_in_the_browser() {
    let rows = smd_bench::run(&now, false);
    let table = smd_bench::table(&rows, "wasm");
    web_sys_log(&table);
    // A smoke check that the numbers are numbers; the budgets themselves are read, not asserted.
    assert!(rows.iter().all(|r| r.ms.is_finite() && r.ms >= 0.0));
}

fn web_sys_log(s: &str) {
    wasm_bindgen_test::console_log!("{}", s);
}
