//! A capacity sweep's speed natively, serial and on rayon's threads: `cargo run --release
//! -p smd-bench --bin sweep` (docs/BENCHMARKS.md §10).
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let reps = 5;
    let serial = smd_bench::sweep::run_serial(&clock, reps);
    let parallel = smd_bench::sweep::run_parallel(&clock, reps);
    print!(
        "{}",
        smd_bench::sweep::sweep_table(&[serial, parallel], "native")
    );
}

// wasm runs the serial sweep from `tests/sweep.rs` in the browser; it has no rayon threads.
#[cfg(target_arch = "wasm32")]
fn main() {}
