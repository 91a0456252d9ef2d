//! The placement stage's speed natively: `cargo run --release -p smd-bench --bin place
//! [-- --exact-max-nodes N]` (docs/PLACEMENT.md §13).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut options = smd_place::Options::default();
    if let Some(i) = args.iter().position(|a| a == "--exact-max-nodes") {
        match args.get(i + 1).and_then(|v| v.parse().ok()) {
            Some(n) => options.exact_max_nodes = n,
            None => {
                eprintln!("--exact-max-nodes needs a whole number");
                std::process::exit(2);
            }
        }
    }
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let rows = smd_bench::place::run_place(&clock, 11, &options);
    print!("{}", smd_bench::place::place_table(&rows, "native"));
}
