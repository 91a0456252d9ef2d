use smd_core::*;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(10);
    let eps: f64 = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(0.1);
    let mut sc = generate(&GenerateOptions {
        jobs: n,
        ..Default::default()
    });
    sc.params.epsilon = eps;
    for pol in Policy::ALL {
        let p = plan(&sc, pol).unwrap();
        println!("{:8} U={:10.3} adm={:3} lp={:8} grid={:8} inf={:6} att={:5} ms={:9.1} inner={:9.1} outer={:8.1}",
            p.policy, p.total_utility, p.admitted, p.stats.lp_solves, p.stats.grid_points, p.stats.infeasible_grid_points, p.stats.rounding_attempts, p.stats.solve_ms, p.stats.inner_ms, p.stats.outer_ms);
    }
}
