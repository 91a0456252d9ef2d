//! The simulation's speed natively: `cargo run --release -p smd-bench --bin sim`
//! (docs/BENCHMARKS.md §8).
fn main() {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let rows = smd_bench::sim::run_sim(&clock, &smd_bench::sim::CASES);
    print!("{}", smd_bench::sim::sim_table(&rows, "native"));
}
