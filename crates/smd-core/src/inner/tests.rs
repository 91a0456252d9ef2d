//! Algorithm 1 (docs/MODEL.md §6) against a continuous optimum found another way.
//!
//! The reference minimises T over Ω without any LP: it builds Ω's polygon from the job's
//! demands itself, samples it densely (an 80×80 grid over the bounding box, the vertices,
//! points along every edge, and the exact best p on 400 vertical lines), then refines the
//! best samples with a projected pattern search whose step shrinks until it is negligible.
//! Algorithm 1 must land within (1+ε) of that reference, and not far below it either.

use crate::grid::DROP;
use crate::inner::{solve, InnerSolution};
use crate::model::JobModel;
use crate::scenario::Mode;
use crate::testutil;
use crate::testutil::{inside, intersections, lines, t_of, Line};

/// Ω's vertices in counter-clockwise order (pairwise intersections that are feasible).
fn polygon(ls: &[Line]) -> Vec<[f64; 2]> {
    let mut vs = intersections(ls, 1e-12, true);
    let n = vs.len().max(1) as f64;
    let cx = vs.iter().map(|v| v[0]).sum::<f64>() / n;
    let cy = vs.iter().map(|v| v[1]).sum::<f64>() / n;
    vs.sort_by(|a, b| {
        (a[1] - cy)
            .atan2(a[0] - cx)
            .total_cmp(&(b[1] - cy).atan2(b[0] - cx))
    });
    vs
}

/// The closest point of the convex polygon `vs` to x (x itself if it is inside).
fn project(ls: &[Line], vs: &[[f64; 2]], x: [f64; 2]) -> [f64; 2] {
    if inside(ls, x, 0.0) || vs.len() == 1 {
        return if vs.len() == 1 { vs[0] } else { x };
    }
    let mut best = (f64::INFINITY, x);
    for i in 0..vs.len() {
        let (a, b) = (vs[i], vs[(i + 1) % vs.len()]);
        let d = [b[0] - a[0], b[1] - a[1]];
        let len2 = d[0] * d[0] + d[1] * d[1];
        let t = if len2 > 0.0 {
            (((x[0] - a[0]) * d[0] + (x[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let y = [a[0] + t * d[0], a[1] + t * d[1]];
        let dist = (y[0] - x[0]).powi(2) + (y[1] - x[1]).powi(2);
        if dist < best.0 {
            best = (dist, y);
        }
    }
    best.1
}

/// T at x, by `testutil::t_of` (own evaluation from θ).
fn t_at(m: &JobModel, x: [f64; 2]) -> f64 {
    t_of(m, x[0], x[1])
}

/// The reference continuous optimum: (x, T).
fn reference_optimum(m: &JobModel) -> ([f64; 2], f64) {
    let ls = lines(m);
    let vs = polygon(&ls);
    assert!(!vs.is_empty());
    let wmax = vs.iter().map(|v| v[0]).fold(1.0, f64::max);
    let pmax = vs.iter().map(|v| v[1]).fold(1.0, f64::max);
    let mut cand: Vec<[f64; 2]> = vs.clone();
    for i in 0..80 {
        for k in 0..80 {
            let x = [
                1.0 + (wmax - 1.0) * i as f64 / 79.0,
                1.0 + (pmax - 1.0) * k as f64 / 79.0,
            ];
            if inside(&ls, x, 0.0) {
                cand.push(x);
            }
        }
    }
    for i in 0..vs.len() {
        let (a, b) = (vs[i], vs[(i + 1) % vs.len()]);
        for s in 1..200 {
            let t = s as f64 / 200.0;
            cand.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
    }
    // The exact best p on vertical lines w = const (T is convex in p for fixed w).
    let th = m.theta;
    for i in 0..400 {
        let w = 1.0 + (wmax - 1.0) * i as f64 / 399.0;
        let p_top = ls
            .iter()
            .filter(|(a, _)| a[1] > 0.0)
            .map(|(a, b)| (b - a[0] * w) / a[1])
            .fold(f64::INFINITY, f64::min);
        if p_top < 1.0 {
            continue;
        }
        let p_star = if th[1] > 0.0 {
            (th[3] * w / th[1]).sqrt()
        } else {
            f64::INFINITY
        };
        let x = [w, p_star.clamp(1.0, p_top)];
        if inside(&ls, x, 0.0) {
            cand.push(x);
        }
    }
    cand.sort_by(|a, b| t_at(m, *a).total_cmp(&t_at(m, *b)));
    let span = (wmax - 1.0).max(pmax - 1.0).max(1e-6);
    let dirs: Vec<[f64; 2]> = (0..16)
        .map(|k| {
            let a = k as f64 * std::f64::consts::PI / 8.0;
            [a.cos(), a.sin()]
        })
        .collect();
    let mut best = (cand[0], t_at(m, cand[0]));
    for &start in cand.iter().take(8) {
        let mut x = start;
        let mut tx = t_at(m, x);
        let mut step = span / 40.0;
        let mut iters = 0;
        while step > 1e-11 * span.max(1.0) && iters < 20_000 {
            iters += 1;
            let mut moved = false;
            for d in &dirs {
                let y = project(&ls, &vs, [x[0] + step * d[0], x[1] + step * d[1]]);
                if !inside(&ls, y, 1e-12) {
                    continue;
                }
                let ty = t_at(m, y);
                if ty < tx {
                    (x, tx, moved) = (y, ty, true);
                    break;
                }
            }
            if !moved {
                step *= 0.5;
            } else {
                step *= 1.5;
            }
        }
        if tx < best.1 {
            best = (x, tx);
        }
    }
    best
}

/// Everything the brief asks of one solve; returns (T(x̄)/T_ref, grid points).
fn check(m: &JobModel, eps: f64, what: &str) -> (f64, InnerSolution) {
    let sol = solve(m, eps).unwrap_or_else(|e| panic!("{what}: solve failed: {e}"));
    let x = sol.x;
    assert!(
        m.omega.contains(x[0], x[1]),
        "{what}: x̄ = {x:?} is outside Ω"
    );
    let t = t_at(m, x);
    assert!(
        (sol.t - t).abs() <= 1e-12 * t,
        "{what}: reported T {} vs T(x̄) {t}",
        sol.t
    );
    let (x_ref, t_ref) = reference_optimum(m);
    assert!(
        t <= (1.0 + eps) * t_ref * (1.0 + 1e-9),
        "{what}: T(x̄) = {t} at {x:?} exceeds (1+ε)·T_ref = (1+{eps})·{t_ref} (reference at {x_ref:?})"
    );
    assert!(
        t >= t_ref * (1.0 - 1e-3),
        "{what}: T(x̄) = {t} at {x:?} is far below the reference {t_ref} at {x_ref:?}"
    );
    check_search(m, eps, &sol, what);
    (t / t_ref, sol)
}

fn check_search(m: &JobModel, eps: f64, sol: &InnerSolution, what: &str) {
    let s = &sol.search;
    assert_eq!(s.epsilon, eps, "{what}");
    assert_eq!(s.summands.len(), 3, "{what}");
    let (constant, ratios) = m.split();
    assert_eq!(s.constant, constant, "{what}");
    let threshold = DROP * m.t11;
    // Bounds against Ω's vertices (quasi-linear summands peak at vertices).
    let vs = polygon(&lines(m));
    for (j, sm) in s.summands.iter().enumerate() {
        let vmin = vs
            .iter()
            .map(|v| ratios[j].eval(v[0], v[1]))
            .fold(f64::INFINITY, f64::min);
        let vmax = vs
            .iter()
            .map(|v| ratios[j].eval(v[0], v[1]))
            .fold(f64::NEG_INFINITY, f64::max);
        let tol = 1e-7 * vmax.abs().max(threshold);
        assert!(
            (sm.upper - vmax).abs() <= tol,
            "{what} {}: φ {} vs {vmax}",
            sm.name,
            sm.upper
        );
        assert_eq!(
            sm.dropped,
            sm.upper < threshold,
            "{what} {}: dropped flag",
            sm.name
        );
        if !sm.dropped {
            let want = vmin.max(threshold);
            assert!(
                (sm.lower - want).abs() <= tol,
                "{what} {}: l {} vs {want}",
                sm.name,
                sm.lower
            );
        }
    }
    let kept: Vec<usize> = (0..3).filter(|&j| !s.summands[j].dropped).collect();
    if kept.is_empty() {
        assert_eq!(s.free, None, "{what}");
        assert_eq!(sol.stats.grid_points, 0, "{what}");
        return;
    }
    let free = s.free.unwrap_or_else(|| panic!("{what}: no free summand"));
    assert!(
        kept.contains(&free),
        "{what}: the free summand {free} was dropped"
    );
    let spread = |j: usize| s.summands[j].upper / s.summands[j].lower;
    for &j in &kept {
        assert!(
            spread(free) >= spread(j),
            "{what}: free = {free} (φ/l = {}) but summand {j} has φ/l = {}",
            spread(free),
            spread(j)
        );
    }
    let mut product = 1u64;
    for (j, sm) in s.summands.iter().enumerate() {
        if j == free || sm.dropped {
            assert_eq!(sm.grid_size, None, "{what}: summand {j} has a grid");
            assert_eq!(s.winning_nu[j], None, "{what}: summand {j} has a ν");
            continue;
        }
        let size = sm
            .grid_size
            .unwrap_or_else(|| panic!("{what}: summand {j} has no grid"));
        assert!(size >= 1, "{what}");
        let lam = (size - 1) as i32;
        let (l, phi) = (sm.lower, sm.upper);
        assert!(
            l * (1.0 + eps).powi(lam) <= phi || lam == 0,
            "{what} {}: l(1+ε)^λ = {} > φ = {phi}",
            sm.name,
            l * (1.0 + eps).powi(lam)
        );
        assert!(
            phi < l * (1.0 + eps).powi(lam + 1),
            "{what} {}: φ = {phi} ≥ l(1+ε)^(λ+1) = {}: λ = {lam} too small",
            sm.name,
            l * (1.0 + eps).powi(lam + 1)
        );
        product *= size;
        // The winning ν is a grid value and x̄ sits below (1+ε)ν.
        let nu = s.winning_nu[j].unwrap_or_else(|| panic!("{what}: no winning ν for {j}"));
        let k = ((nu / l).ln() / (1.0 + eps).ln()).round();
        assert!(
            k >= 0.0 && k <= f64::from(lam),
            "{what}: ν = {nu} is off the grid"
        );
        assert!(
            (nu - l * (1.0 + eps).powi(k as i32)).abs() <= 1e-9 * nu,
            "{what}: ν = {nu} off grid"
        );
        let z = ratios[j].eval(sol.x[0], sol.x[1]);
        assert!(
            z <= (1.0 + eps) * nu * (1.0 + 1e-6),
            "{what}: ζ_{j}(x̄) = {z} > (1+ε)ν = {}",
            (1.0 + eps) * nu
        );
    }
    assert_eq!(
        sol.stats.grid_points, product,
        "{what}: grid points vs product of grid sizes"
    );
    assert!(
        sol.stats.infeasible_grid_points < sol.stats.grid_points,
        "{what}"
    );
}

/// Runs `count` feasible jobs of `mode`, taking job i of every seed in turn; returns the
/// worst T(x̄)/T_ref.
fn run(mode: Mode, eps: f64, count: usize, seeds: &[u64]) -> f64 {
    let t0 = std::time::Instant::now();
    let mut done = 0;
    let mut worst: f64 = 0.0;
    let mut grid = 0;
    'outer: for i in 0.. {
        for &seed in seeds {
            if done == count {
                break 'outer;
            }
            let m = testutil::generated(seed, i, mode);
            if !m.feasible() {
                continue;
            }
            let (r, sol) = check(
                &m,
                eps,
                &format!("seed {seed} job {i} ({mode:?}, ε = {eps})"),
            );
            worst = worst.max(r);
            grid += sol.stats.grid_points;
            done += 1;
        }
    }
    eprintln!(
        "{mode:?} ε = {eps}: {done} jobs, worst T(x̄)/T_ref = {worst:.6}, {grid} grid points, {:.2} s",
        t0.elapsed().as_secs_f64()
    );
    worst
}

// 200 jobs at ε = 0.1 (100 sync, 100 async) and 50 more at ε = 0.05 (25 + 25), all distinct.

#[test]
fn sync_eps_0_1() {
    run(Mode::Sync, 0.1, 100, &[1, 2, 3, 4]);
}

#[test]
fn async_eps_0_1() {
    run(Mode::Async, 0.1, 100, &[5, 6, 7, 8]);
}

#[test]
fn sync_eps_0_05() {
    run(Mode::Sync, 0.05, 25, &[9, 10]);
}

#[test]
fn async_eps_0_05() {
    run(Mode::Async, 0.05, 25, &[11, 12]);
}

/// ε = 0.01 on three jobs: a sync WFBP job with a two-dimensional grid (~3·10^4 points), an
/// async WFBP job with a two-dimensional grid (~6·10^4 points) and a sync pipelined job
/// whose θ4 vanishes (one-dimensional grid). Jobs with grids of 10^5 points take ~10 s each.
#[test]
fn eps_0_01() {
    let t0 = std::time::Instant::now();
    for (seed, i, mode) in [
        (21, 2, Mode::Sync),
        (22, 10, Mode::Async),
        (21, 0, Mode::Sync),
    ] {
        let m = testutil::generated(seed, i, mode);
        assert!(m.feasible());
        let (r, sol) = check(
            &m,
            0.01,
            &format!("seed {seed} job {i} ({mode:?}, ε = 0.01)"),
        );
        eprintln!(
            "ε = 0.01 seed {seed} job {i}: T(x̄)/T_ref = {r:.6}, {} grid points",
            sol.stats.grid_points
        );
    }
    eprintln!("ε = 0.01: {:.2} s", t0.elapsed().as_secs_f64());
}
