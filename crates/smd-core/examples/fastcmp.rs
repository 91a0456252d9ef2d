use smd_core::inner::{solve_with, InnerSolver};
use smd_core::model::JobModel;
use smd_core::*;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(20);
    let eps: f64 = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(0.1);
    let reference = std::env::args().nth(3).is_none();
    let (mut tf, mut tr, mut worst) = (0.0, 0.0, 0.0f64);
    let (mut lf, mut lr, mut same) = (0u64, 0u64, 0);
    let mut cnt = 0;
    for mode in [Mode::Sync, Mode::Async] {
        for i in 0..n {
            let job = generate::job(7, i, mode);
            let m = JobModel::new(&job, &scenario::Resources::DEFAULT_INSTANCE, None);
            if !m.feasible() {
                continue;
            }
            cnt += 1;
            let t0 = std::time::Instant::now();
            let f = solve_with(&m, eps, InnerSolver::Fast).unwrap();
            tf += t0.elapsed().as_secs_f64();
            lf += f.stats.lp_solves;
            if reference {
                let t0 = std::time::Instant::now();
                let r = solve_with(&m, eps, InnerSolver::Reference).unwrap();
                tr += t0.elapsed().as_secs_f64();
                lr += r.stats.lp_solves;
                let rel = (f.t - r.t) / r.t;
                worst = worst.max(rel.abs());
                if f.x == r.x {
                    same += 1;
                } else {
                    let dx =
                        ((f.x[0] - r.x[0]).abs() / r.x[0]).max((f.x[1] - r.x[1]).abs() / r.x[1]);
                    if dx > 1e-12 {
                        println!(
                            "{mode:?} {i}: x differs {:?} vs {:?} (T {} {})",
                            f.x, r.x, f.t, r.t
                        );
                    }
                }
                if rel.abs() > 1e-9 {
                    println!(
                        "{mode:?} {i}: fast {:?} {} ref {:?} {} rel {rel:e} grid {}",
                        f.x, f.t, r.x, r.t, r.stats.grid_points
                    );
                }
            }
        }
    }
    println!("jobs {cnt} eps {eps}: fast {:.3} ms/job ({lf} solves), ref {:.1} ms/job ({lr} LPs), speedup {:.0}x, worst rel {worst:e}, same x {same}", tf*1e3/cnt as f64, tr*1e3/cnt as f64, tr/tf);
}
