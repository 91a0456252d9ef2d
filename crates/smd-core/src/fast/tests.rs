//! The fast path of Algorithm 1 against the reference (one LP crate solve per grid point):
//! the same T(x̄) to 1e-9 relative on every job, the same x̄ unless two points tie in T.
//!
//! 400 jobs at ε = 0.1, 100 at ε = 0.05 (half sync, half async), and 20 jobs at ε = 0.01 —
//! the first 20 generated jobs whose grid has at most 20 000 points, since the reference
//! needs seconds per job there.

use crate::choice::InnerSolver;
use crate::inner::{solve_with, InnerSolution};
use crate::model::JobModel;
use crate::testutil::generated;
use crate::Mode;

fn agree(m: &JobModel, f: &InnerSolution, r: &InnerSolution, what: &str) {
    assert!(
        (f.t - r.t).abs() <= 1e-9 * r.t,
        "{what}: fast T {} at {:?}, reference T {} at {:?}",
        f.t,
        f.x,
        r.t,
        r.x
    );
    assert!(
        m.omega.contains(f.x[0], f.x[1]),
        "{what}: fast x̄ {:?} outside Ω",
        f.x
    );
    assert_eq!(
        f.stats.grid_points, r.stats.grid_points,
        "{what}: same grid"
    );
    assert_eq!(f.search.free, r.search.free, "{what}: same free summand");
    let dx = (0..2)
        .map(|i| (f.x[i] - r.x[i]).abs() / r.x[i])
        .fold(0.0, f64::max);
    if dx > 1e-9 {
        // Different points are allowed only where T ties (the minimiser is not unique).
        assert!(
            (m.t(f.x[0], f.x[1]) - m.t(r.x[0], r.x[1])).abs() <= 1e-9 * r.t,
            "{what}"
        );
    }
}

fn compare(seed: u64, jobs: usize, eps: f64) -> usize {
    let mut n = 0;
    for mode in [Mode::Sync, Mode::Async] {
        for i in 0..jobs {
            let m = generated(seed, i, mode);
            if !m.feasible() {
                continue;
            }
            let f = solve_with(&m, eps, InnerSolver::Fast).unwrap();
            let r = solve_with(&m, eps, InnerSolver::Reference).unwrap();
            agree(&m, &f, &r, &format!("seed {seed} job {i} {mode:?} ε {eps}"));
            n += 1;
        }
    }
    n
}

#[test]
fn agree_at_eps_0_1_part_1() {
    assert!(compare(101, 100, 0.1) >= 190);
}

#[test]
fn agree_at_eps_0_1_part_2() {
    assert!(compare(102, 100, 0.1) >= 190);
}

#[test]
fn agree_at_eps_0_05() {
    assert!(compare(103, 50, 0.05) >= 95);
}

#[test]
fn agree_at_eps_0_01_on_twenty_jobs() {
    let mut n = 0;
    'outer: for seed in 104..200 {
        for (i, mode) in (0..10).flat_map(|i| [(i, Mode::Sync), (i, Mode::Async)]) {
            let m = generated(seed, i, mode);
            if !m.feasible() {
                continue;
            }
            let f = solve_with(&m, 0.01, InnerSolver::Fast).unwrap();
            if f.stats.grid_points > 20_000 {
                continue;
            }
            let r = solve_with(&m, 0.01, InnerSolver::Reference).unwrap();
            agree(&m, &f, &r, &format!("seed {seed} job {i} {mode:?} ε 0.01"));
            n += 1;
            if n == 20 {
                break 'outer;
            }
        }
    }
    assert_eq!(n, 20);
}

/// The pruning is what makes the fast path fast: far fewer polygon solves than grid points.
#[test]
fn fast_path_examines_a_fraction_of_the_grid() {
    let (mut solves, mut grid) = (0u64, 0u64);
    for i in 0..40 {
        let m = generated(105, i, Mode::Sync);
        if m.feasible() {
            let f = solve_with(&m, 0.01, InnerSolver::Fast).unwrap();
            solves += f.stats.lp_solves;
            grid += f.stats.grid_points;
        }
    }
    assert!(solves * 10 < grid, "{solves} solves for {grid} grid points");
}
