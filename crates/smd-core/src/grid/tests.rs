//! Algorithm 1's grid in closed form (issue 8's findings): the grid the solver searches is
//! the one `grid_size` predicts, λ meets its definition without looping, and every generated
//! job allows the page's smallest ε within [`GRID_BUDGET`].

use super::{grid_size, lambda, GRID_BUDGET};
use crate::generate;
use crate::inner::solve;
use crate::scenario::Mode;
use crate::testutil::{generated, model};

#[test]
fn the_closed_form_grid_is_the_grid_the_solver_searches() {
    for i in 0..40 {
        let m = generated(21, i, if i % 2 == 0 { Mode::Sync } else { Mode::Async });
        if !m.feasible() {
            continue;
        }
        for eps in [0.3, 0.05, 0.01] {
            let sol = solve(&m, eps).unwrap();
            assert_eq!(
                grid_size(&m, eps),
                sol.stats.grid_points as f64,
                "job {i} ε {eps}"
            );
        }
    }
}

#[test]
fn lambda_meets_its_definition_and_never_loops() {
    let mut x = 0.123_f64;
    let mut next = || {
        x = (x * 9301.0 + 49297.0) % 233280.0;
        x / 233280.0
    };
    for _ in 0..2000 {
        let l = 10f64.powf(-6.0 + 12.0 * next());
        let phi = l * 10f64.powf(8.0 * next());
        let eps = 10f64.powf(-6.0 * next());
        let n = lambda(l, phi, eps);
        assert!(n < 1 << 31);
        let step = 1.0 + eps;
        assert!(
            l * step.powi(n as i32) <= phi,
            "l {l} φ {phi} ε {eps} λ {n}"
        );
        assert!(
            l * step.powi(n as i32 + 1) > phi,
            "l {l} φ {phi} ε {eps} λ {n}"
        );
    }
    // The cases that used to spin: they return at once, saturated.
    for eps in [1e-9, 1e-15, 1e-300, f64::MIN_POSITIVE] {
        assert!(lambda(1.0, 1e3, eps) >= 1 << 31 || eps >= 1e-9);
    }
}

#[test]
fn every_generated_job_allows_the_pages_smallest_epsilon() {
    // The page's ε slider starts at 0.005: no generated job may need more.
    for i in 0..300 {
        let m = model(&generate::job(
            5,
            i,
            if i % 3 == 0 { Mode::Async } else { Mode::Sync },
        ));
        assert!(grid_size(&m, 0.005) <= GRID_BUDGET, "job {i}");
    }
}
