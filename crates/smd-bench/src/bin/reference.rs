//! The reference simulator's policies on workload-1, natively: `cargo run --release -p
//! smd-bench --bin reference` (docs/BENCHMARKS.md §12).
fn main() {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let rows = smd_bench::reference::run(&clock);
    print!("{}", smd_bench::reference::table(&rows, "native"));
}
