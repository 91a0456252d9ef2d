//! GPU sharing's packing speed natively: `cargo run --release -p smd-bench --bin share`
//! and the simulation with sharing off and on (docs/BENCHMARKS.md §9).
fn main() {
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let rows = smd_bench::share::run_share(&clock, &[8, 12, 14, 1000, 2000, 4000, 8000]);
    print!("{}", smd_bench::share::share_table(&rows));
    println!();
    let sims = smd_bench::share::run_sim_sharing(&clock);
    print!("{}", smd_bench::share::sim_share_table(&sims));
}
