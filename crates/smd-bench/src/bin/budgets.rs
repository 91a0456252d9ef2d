//! Native budgets: `cargo run --release -p smd-bench [-- --quick]`.
fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let rows = smd_bench::run(&clock, quick);
    print!("{}", smd_bench::table(&rows, "native"));
}
