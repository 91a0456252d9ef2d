//! Sia's allocation MILP solved exactly (`smd_hetero::milp`), natively:
//! `cargo run --release -p smd-bench --bin milp [-- --instances N]` (docs/BENCHMARKS.md
//! §14). Two sizes of `smd_hetero::milp::sample::realistic`: the default cluster (≈30 jobs,
//! 19 configurations, 24/16/24 GPUs) and 32× it (≈1000 jobs, 40 configurations). Per size:
//! the solve time's median, p95 and max, how many answers were proven optimal, and the
//! search nodes (median, max).
use smd_hetero::milp::{sample, solve, Limits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut instances = 200u64;
    if let Some(i) = args.iter().position(|a| a == "--instances") {
        match args.get(i + 1).and_then(|v| v.parse().ok()) {
            Some(n) if n > 0 => instances = n,
            _ => {
                eprintln!("--instances needs a whole number ≥ 1");
                std::process::exit(2);
            }
        }
    }
    println!("| scale | jobs | configs | instances | median ms | p95 ms | max ms | proven | nodes median / max |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for k in [1u32, 32] {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        let mut proven = 0;
        let mut shape = (0, 0);
        for seed in 0..instances {
            let inst = sample::realistic(seed, k);
            shape = (inst.values.len(), inst.gpus.len());
            let t0 = std::time::Instant::now();
            let answer = match solve(&inst.problem(), &Limits::default()) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("scale {k}, seed {seed}: {e}");
                    std::process::exit(1);
                }
            };
            times.push(t0.elapsed().as_secs_f64() * 1000.0);
            nodes.push(answer.nodes);
            proven += u64::from(answer.proven);
        }
        times.sort_by(f64::total_cmp);
        nodes.sort_unstable();
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "| {k}× | {} | {} | {instances} | {:.2} | {:.2} | {:.2} | {proven} | {} / {} |",
            shape.0,
            shape.1,
            at(0.5),
            at(0.95),
            times[times.len() - 1],
            nodes[nodes.len() / 2],
            nodes[nodes.len() - 1],
        );
    }
}
