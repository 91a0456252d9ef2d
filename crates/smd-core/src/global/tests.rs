//! The joint search against brute force on random multiple-choice knapsacks: equal optimum,
//! honest proof status under tiny budgets, weak duality of the prices, and identical jobs.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use super::*;
use crate::rng::Stream;

/// A random instance: `n` jobs of 1–`k` options each (not Pareto-filtered: the search must
/// not rely on it), demands on `binding` of the four resources.
fn instance(seed: u64, n: usize, k: u64, twins: bool) -> (Vec<Vec<Option_>>, [f64; R]) {
    let mut s = Stream::new(seed, 7);
    let mut options: Vec<Vec<Option_>> = Vec::new();
    for i in 0..n {
        if twins && i % 2 == 1 {
            // Every other job repeats the previous one: symmetry breaking must stay exact.
            let prev = options[i - 1].clone();
            options.push(prev);
            continue;
        }
        let m = s.int(1, k);
        let opts = (0..m)
            .map(|j| Option_ {
                w: j + 1,
                p: 1,
                utility: s.uniform(0.1, 10.0),
                demand: std::array::from_fn(|r| if r < 3 { s.uniform(0.0, 10.0) } else { 0.0 }),
            })
            .collect();
        options.push(opts);
    }
    let cap = std::array::from_fn(|r| {
        if r < 3 {
            s.uniform(5.0, 10.0 * n as f64 / 3.0)
        } else {
            1.0
        }
    });
    (options, cap)
}

/// The optimum by enumerating every choice.
fn brute(options: &[Vec<Option_>], cap: &[f64; R]) -> f64 {
    fn rec(i: usize, o: &[Vec<Option_>], used: [f64; R], cap: &[f64; R]) -> f64 {
        if i == o.len() {
            return 0.0;
        }
        let mut best = rec(i + 1, o, used, cap);
        for opt in &o[i] {
            let u: [f64; R] = std::array::from_fn(|r| used[r] + opt.demand[r]);
            if crate::knapsack::fits_all(&u, cap) {
                best = best.max(opt.utility + rec(i + 1, o, u, cap));
            }
        }
        best
    }
    rec(0, options, [0.0; R], cap)
}

fn unlimited() -> Limits<'static> {
    Limits {
        nodes: u64::MAX,
        ..Limits::default()
    }
}

/// Checks a joint answer is feasible and its value is that of its choice.
fn check_feasible(options: &[Vec<Option_>], cap: &[f64; R], j: &Joint) {
    let mut used = [0.0; R];
    let mut value = 0.0;
    for (c, o) in j.chosen.iter().zip(options) {
        if let Some((w, p)) = c {
            let opt = o
                .iter()
                .find(|x| x.w == *w && x.p == *p)
                .expect("an option");
            for r in 0..R {
                used[r] += opt.demand[r];
            }
            value += opt.utility;
        }
    }
    assert!(crate::knapsack::fits_all(&used, cap), "{used:?} > {cap:?}");
    assert!((value - j.value).abs() <= 1e-9 * value.max(1.0));
}

#[test]
fn equals_brute_force_and_is_proven() {
    for seed in 0..300 {
        let twins = seed % 3 == 0;
        let (options, cap) = instance(seed, 1 + (seed % 8) as usize, 4, twins);
        let want = brute(&options, &cap);
        let j = solve(&options, &cap, None, &unlimited(), &mut |_| {});
        check_feasible(&options, &cap, &j);
        assert!(j.proven_optimal, "seed {seed}");
        assert!(
            (j.value - want).abs() <= 1e-9 * want.max(1.0),
            "seed {seed}: {} vs brute force {want}",
            j.value
        );
        // Weak duality: the prices bound the optimum; the cutting planes bound the prices.
        assert!(j.dual.value >= want - 1e-9 * want.max(1.0), "seed {seed}");
        assert!(j.dual.lower <= j.dual.value);
    }
}

#[test]
fn a_stopped_search_reports_a_true_bound() {
    let mut stopped = 0;
    for seed in 0..200 {
        let (options, cap) = instance(1000 + seed, 9, 5, seed % 2 == 0);
        let want = brute(&options, &cap);
        for nodes in [1, 2, 5, 20] {
            let limits = Limits {
                nodes,
                ..Limits::default()
            };
            let j = solve(&options, &cap, None, &limits, &mut |_| {});
            check_feasible(&options, &cap, &j);
            let tol = 1e-9 * want.max(1.0);
            assert!(j.value <= want + tol, "seed {seed}: above the optimum");
            assert!(
                j.bound >= want - tol,
                "seed {seed}, {nodes} nodes: bound {} below the optimum {want}",
                j.bound
            );
            if j.proven_optimal {
                assert!(
                    (j.value - want).abs() <= tol,
                    "seed {seed}: proven but not optimal"
                );
            } else {
                stopped += 1;
            }
        }
    }
    assert!(stopped > 50, "enough searches stopped early: {stopped}");
}

#[test]
fn any_prices_bound_the_optimum() {
    let mut s = Stream::new(3, 3);
    for seed in 0..100 {
        let (options, cap) = instance(5000 + seed, 6, 4, false);
        let want = brute(&options, &cap);
        let y: [f64; R] = std::array::from_fn(|_| s.uniform(0.0, 2.0));
        let (l, _) = lagrangian(&options, &cap, &y);
        assert!(
            l >= want - 1e-9 * want.max(1.0),
            "seed {seed}: L(y) {l} < {want}"
        );
        let d = dual::solve(&options, &cap, None);
        assert!(
            d.value <= l + 1e-9 * l.max(1.0),
            "the dual is no worse than random prices"
        );
    }
}

/// One job type: option k has utility `1 − 0.001·k²` and demand `1 − 0.1·k` (GPU).
fn copy_type() -> Vec<Option_> {
    (0..5u64)
        .map(|k| Option_ {
            w: 5 - k,
            p: 1,
            utility: 1.0 - 0.001 * (k * k) as f64,
            demand: [1.0 - 0.1 * k as f64, 0.0, 0.0, 0.0],
        })
        .collect()
}

/// The optimum over `n` copies of [`copy_type`] by enumerating how many copies take each
/// option (the copies are interchangeable).
fn best_by_counts(n: u64, cap: f64) -> f64 {
    let o = copy_type();
    let mut best = 0.0_f64;
    let mut counts = [0u64; 5];
    fn rec(k: usize, left: u64, counts: &mut [u64; 5], o: &[Option_], cap: f64, best: &mut f64) {
        if k == 5 {
            let d: f64 = (0..5).map(|j| counts[j] as f64 * o[j].demand[0]).sum();
            if d <= cap * (1.0 + 1e-9) {
                *best = best.max((0..5).map(|j| counts[j] as f64 * o[j].utility).sum());
            }
            return;
        }
        for c in 0..=left {
            counts[k] = c;
            rec(k + 1, left - c, counts, o, cap, best);
        }
        counts[k] = 0;
    }
    rec(0, n, &mut counts, &o, cap, &mut best);
    best
}

#[test]
fn many_identical_jobs_are_proven_with_few_nodes() {
    // 40 interchangeable jobs whose options differ by little: the LP leaves most of them
    // open, and without symmetry breaking the search would try every permutation.
    let n = 40;
    let options: Vec<Vec<Option_>> = (0..n).map(|_| copy_type()).collect();
    for cap in [27.35, 31.05, 36.55] {
        let limits = Limits {
            nodes: 200_000,
            ..Limits::default()
        };
        let j = solve(&options, &[cap, 1.0, 1.0, 1.0], None, &limits, &mut |_| {});
        check_feasible(&options, &[cap, 1.0, 1.0, 1.0], &j);
        assert!(
            j.proven_optimal,
            "cap {cap}: {} nodes, core {}",
            j.nodes, j.core
        );
        let want = best_by_counts(n as u64, cap);
        assert!(
            (j.value - want).abs() <= 1e-9 * want,
            "cap {cap}: {} vs {want}",
            j.value
        );
    }
}

#[test]
fn symmetry_breaking_counts_copies_once() {
    // Zero prices bound nothing, so every option of every copy stays open: 5^12 choices,
    // of which only C(16, 4) = 1820 differ in how many copies take each option.
    let n = 12;
    let options: Vec<Vec<Option_>> = (0..n).map(|_| copy_type()).collect();
    for cap in [5.35, 8.15, 11.0] {
        let cap4 = [cap, 1.0, 1.0, 1.0];
        let (l0, _) = lagrangian(&options, &cap4, &[0.0; R]);
        let zero = Dual {
            y: [0.0; R],
            value: l0,
            lower: 0.0,
        };
        let limits = Limits {
            nodes: 100_000,
            ..Limits::default()
        };
        let out = search::search(&options, &cap4, &zero, vec![None; n], &limits, &mut |_| {});
        assert!(out.proven, "cap {cap}: {} nodes", out.nodes);
        let want = best_by_counts(n as u64, cap);
        assert!(
            (out.value - want).abs() <= 1e-9 * want,
            "cap {cap}: {} vs {want}",
            out.value
        );
    }
}

#[test]
fn identical_jobs_equal_brute_force() {
    // Six copies of one random job (equal choices among copies are allowed and needed).
    for seed in 0..60 {
        let (one, cap) = instance(7000 + seed, 1, 3, false);
        let options: Vec<Vec<Option_>> = (0..6).map(|_| one[0].clone()).collect();
        let cap = cap.map(|c| c * 2.5);
        let want = brute(&options, &cap);
        let j = solve(&options, &cap, None, &unlimited(), &mut |_| {});
        assert!(j.proven_optimal);
        assert!(
            (j.value - want).abs() <= 1e-9 * want.max(1.0),
            "seed {seed}: {} vs {want}",
            j.value
        );
    }
}

#[test]
fn a_seed_start_is_never_lost() {
    for seed in 0..50 {
        let (mut options, cap) = instance(9000 + seed, 8, 4, false);
        // Like a Pareto set: more workers, more utility and more demand.
        for o in &mut options {
            o.sort_by(|a, b| a.utility.total_cmp(&b.utility));
            let mut acc = [0.0; R];
            for (j, x) in o.iter_mut().enumerate() {
                for r in 0..R {
                    acc[r] += x.demand[r] / 2.0;
                }
                x.demand = acc;
                x.w = j as u64 + 1;
            }
        }
        let want = brute(&options, &cap);
        // Start from the optimum itself, with a one-node budget: the answer keeps it.
        let full = solve(&options, &cap, None, &unlimited(), &mut |_| {});
        let limits = Limits {
            nodes: 1,
            ..Limits::default()
        };
        let j = solve(&options, &cap, Some(&full.chosen), &limits, &mut |_| {});
        assert!(
            (j.value - want).abs() <= 1e-9 * want.max(1.0),
            "seed {seed}"
        );
    }
}

#[test]
fn a_plan_better_by_a_hair_is_found_when_the_bound_is_loose() {
    // From the fuzzer: job a's tiny-utility allocation fits beside b's slightly smaller one;
    // a's big allocation makes L(y) about twice the optimum, and a tolerance of 1e-9·L
    // once hid the better plan (by 1.7e-9 of its value).
    let opt = |w: u64, utility: f64, memory: f64| Option_ {
        w,
        p: 1,
        utility,
        demand: [w as f64, 0.0, memory, 0.0],
    };
    let options = vec![
        vec![opt(1, 1.717e-7, 48.54), opt(2, 80.149, 78.26)],
        vec![
            opt(3, 91.149_999_984_7, 85.99),
            opt(5, 91.149_999_999_999_6, 134.0),
        ],
    ];
    let cap = [10.0, 1.0, 140.0, 1.0];
    let want = brute(&options, &cap);
    // Zero prices are valid and as loose as the fuzzed case's were: L = Σ max u ≈ 1.9·want.
    let (l0, _) = lagrangian(&options, &cap, &[0.0; R]);
    let d = Dual {
        y: [0.0; R],
        value: l0,
        lower: 0.0,
    };
    assert!(d.value > 1.5 * want, "a loose bound: {}", d.value);
    // The search starts where the fuzzed case's first plan stood: b alone, at its best.
    let out = search::search(
        &options,
        &cap,
        &d,
        vec![None, Some(1)],
        &unlimited(),
        &mut |_| {},
    );
    assert!(out.proven);
    assert!(
        (out.value - want).abs() <= 1e-12 * want,
        "{} vs brute force {want}",
        out.value
    );
}

#[test]
fn options_set_aside_are_searched_where_they_could_win_and_the_proof_holds() {
    // Each job keeps a few of its options; the rest are set aside. The answer must be the
    // brute force over every option, proven, whatever was set aside — and on some
    // instances the winner is a set-aside option.
    let mut joined = 0;
    for seed in 0..300 {
        let (options, cap) = instance(5000 + seed, 1 + (seed % 7) as usize, 6, seed % 4 == 0);
        let want = brute(&options, &cap);
        let keep = 1 + (seed % 3) as usize;
        let (kept, aside): (Vec<Vec<Option_>>, Vec<Vec<Option_>>) = options
            .iter()
            .map(|o| {
                (
                    o[..keep.min(o.len())].to_vec(),
                    o[keep.min(o.len())..].to_vec(),
                )
            })
            .unzip();
        let restricted = solve(&kept, &cap, None, &unlimited(), &mut |_| {});
        let (j, searched) = solve_set_aside(kept, aside, &cap, None, &unlimited(), &mut |_| {});
        check_feasible(&options, &cap, &j);
        assert!(j.proven_optimal, "seed {seed}");
        assert!(
            (j.value - want).abs() <= 1e-9 * want.max(1.0),
            "seed {seed}: {} vs brute force {want}",
            j.value
        );
        if restricted.value < want - 1e-9 * want.max(1.0) {
            joined += 1;
        }
        // What was searched is a subset of the options, each job's in (w, p) order.
        for (s, o) in searched.iter().zip(&options) {
            assert!(s.iter().all(|x| o.contains(x)));
            assert!(s.windows(2).all(|p| (p[0].w, p[0].p) < (p[1].w, p[1].p)));
        }
    }
    assert!(joined > 30, "set-aside options won on {joined} instances");
}
