use smd_hetero::milp::{sample, solve, Limits};
fn main() {
    let k: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let lim: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    for seed in std::env::args().skip(3).map(|s| s.parse::<u64>().unwrap()) {
        let inst = sample::realistic(seed, k);
        let t = std::time::Instant::now();
        let a0 = solve(&inst.problem(), &Limits { nodes: 0 }).unwrap();
        let a = solve(&inst.problem(), &Limits { nodes: lim }).unwrap();
        println!(
            "seed {seed}: bound0 {} greedy {} best {} bound {} proven {} nodes {} {:?}",
            a0.bound,
            a0.value,
            a.value,
            a.bound,
            a.proven,
            a.nodes,
            t.elapsed()
        );
    }
}
