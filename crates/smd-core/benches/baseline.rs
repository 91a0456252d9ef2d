//! Baseline benchmark (issue: solver core): time per phase and LP counts of each policy for
//! generated scenarios, with the LP-crate path of Algorithm 1. Prints a Markdown table.
//!
//! `cargo bench -p smd-core --bench baseline` (add `--features minilp` for the other LP crate;
//! `-- --jobs 20` for a smaller run). Each row is one run; timings are wall clock.

use smd_core::{generate, plan, GenerateOptions, Mode, Policy};

fn arg(name: &str, default: f64) -> f64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let jobs = arg("--jobs", 50.0) as usize;
    println!(
        "LP backend: {}; I = {jobs}, seed 1, 1 cluster unit, q = 2\n",
        smd_core::LP_BACKEND
    );
    println!("| mode | policy | ε | total ms | inner ms | rounding ms | outer ms | LPs (inner) | LPs (outer) | grid points | infeasible | ms per job (inner) | utility | admitted |");
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for mode in [Mode::Sync, Mode::Async] {
        let base = generate(&GenerateOptions {
            jobs,
            seed: 1,
            mode,
            units: 1.0,
        });
        let runs: Vec<(Policy, f64)> = vec![
            (Policy::Smd, 0.1),
            (Policy::Smd, 0.05),
            (Policy::Esw, 0.1),
            (Policy::Optimus, 0.1),
            (Policy::Exact, 0.1),
        ];
        for (policy, eps) in runs {
            let mut sc = base.clone();
            sc.params.epsilon = eps;
            let p = plan(&sc, policy).expect("generated scenarios plan");
            let s = &p.stats;
            let eps_col = if policy == Policy::Smd {
                format!("{eps}")
            } else {
                "–".into()
            };
            println!(
                "| {:?} | {} | {} | {:.1} | {:.1} | {:.2} | {:.1} | {} | {} | {} | {} | {:.2} | {:.2} | {} |",
                mode,
                policy,
                eps_col,
                s.solve_ms,
                s.inner_ms,
                s.rounding_ms,
                s.outer_ms,
                s.lp_solves - s.outer_lp_solves,
                s.outer_lp_solves,
                s.grid_points,
                s.infeasible_grid_points,
                s.inner_ms / jobs.max(1) as f64,
                p.total_utility,
                p.admitted
            );
        }
    }
}
