//! Planning workload-1 as measured jobs, natively: `cargo run --release -p smd-bench --bin
//! measured` (docs/BENCHMARKS.md §11).
fn main() {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let rows = smd_bench::measured::run(&clock);
    print!("{}", smd_bench::measured::table(&rows, "native"));
}
