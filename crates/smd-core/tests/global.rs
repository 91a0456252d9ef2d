//! Policy `global` (the joint optimum) against brute force over every combination of
//! allocations on tiny instances, and against every other policy on generated ones.

use smd_core::model::JobModel;
use smd_core::rng::Stream;
use smd_core::scenario::Resources;
use smd_core::{generate, plan, plan_global, GenerateOptions, Mode, Options, Policy, Scenario};

/// Every integer point of Ω, by scanning its bounding box with `contains`.
fn points(m: &JobModel) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for w in 1..=60u64 {
        for p in 1..=60u64 {
            if m.omega.contains(w as f64, p as f64) {
                out.push((w, p));
            }
        }
    }
    out
}

/// The best total utility over all choices (none, or any point of Ω) per job.
fn brute_force(s: &Scenario) -> f64 {
    let cap = s.cluster.capacity().to_array();
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let opts: Vec<Vec<(f64, [f64; 4])>> = models
        .iter()
        .map(|m| {
            let mut o = vec![(0.0, [0.0; 4])];
            for (w, p) in points(m) {
                o.push((
                    m.utility_at(w as f64, p as f64),
                    m.demand(w as f64, p as f64),
                ));
            }
            o
        })
        .collect();
    fn rec(i: usize, opts: &[Vec<(f64, [f64; 4])>], used: [f64; 4], cap: &[f64; 4]) -> f64 {
        if i == opts.len() {
            return 0.0;
        }
        let mut best = 0.0_f64;
        for (u, d) in &opts[i] {
            let nu: [f64; 4] = std::array::from_fn(|r| used[r] + d[r]);
            if (0..4).all(|r| nu[r] <= cap[r] * (1.0 + 1e-9)) {
                best = best.max(u + rec(i + 1, opts, nu, cap));
            }
        }
        best
    }
    rec(0, &opts, [0.0; 4], &cap)
}

fn tiny(seed: u64) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 3,
        seed,
        mode: Mode::Sync,
        units: 1.0,
    });
    let mut r = Stream::new(seed, 99);
    for j in &mut s.jobs {
        j.limit_instances = r.int(1, 2) as f64;
        j.worker = Resources {
            gpu: r.int(0, 2) as f64,
            vcpu: r.int(4, 12) as f64,
            memory_gb: 8.0,
            storage_gb: 5.0,
        };
        j.ps = Resources {
            gpu: 0.0,
            vcpu: r.int(4, 12) as f64,
            memory_gb: 8.0,
            storage_gb: 5.0,
        };
        // Deadlines that bite: utility changes across the small box.
        j.utility.gamma3 = r.uniform(6.0, 15.0);
    }
    // A cluster that fits only part of the demand.
    s.cluster.units = r.uniform(0.005, 0.03);
    s.params.epsilon = 0.1;
    s
}

#[test]
fn equals_brute_force_on_tiny_instances() {
    let mut checked = 0;
    for seed in 1..=40 {
        let s = tiny(seed);
        let g = plan_global(&s, &mut Options::default(), 2_000_000).unwrap();
        assert!(
            g.admission.proven_optimal,
            "seed {seed}: tiny instances are proven"
        );
        let want = brute_force(&s);
        assert!(
            (g.total_utility - want).abs() <= 1e-9 * want.max(1e-12),
            "seed {seed}: global {} brute force {want}",
            g.total_utility
        );
        checked += usize::from(want > 0.0);
    }
    assert!(
        checked >= 20,
        "enough instances with something admitted: {checked}"
    );
}

#[test]
fn never_below_exact_or_smd_and_always_feasible() {
    for (seed, mode, units) in [
        (1, Mode::Sync, 1.0),
        (2, Mode::Async, 1.0),
        (3, Mode::Sync, 0.3),
    ] {
        let mut s = generate(&GenerateOptions {
            jobs: 12,
            seed,
            mode,
            units,
        });
        s.params.epsilon = 0.05;
        let g = plan_global(&s, &mut Options::default(), 500_000).unwrap();
        for p in Policy::ALL.into_iter().filter(|p| *p != Policy::Global) {
            let other = plan(&s, p).unwrap();
            assert!(
                g.total_utility >= other.total_utility * (1.0 - 1e-12),
                "seed {seed}: global {} < {p} {}",
                g.total_utility,
                other.total_utility
            );
        }
        let cap = s.cluster.capacity().to_array();
        let mut used = [0.0; 4];
        for (line, job) in g.jobs.iter().zip(&s.jobs) {
            let m = JobModel::of(job, &s.cluster, None);
            if line.admitted {
                let (w, p) = (line.workers.unwrap() as f64, line.ps.unwrap() as f64);
                assert!(m.omega.contains(w, p));
                let d = m.demand(w, p);
                (0..4).for_each(|r| used[r] += d[r]);
            }
        }
        assert!((0..4).all(|r| used[r] <= cap[r] * (1.0 + 1e-9)));
        assert_eq!(g.policy, smd_core::Policy::Global);
        if let Some(gap) = g.admission.gap {
            assert!(gap > 0.0 && gap <= 1.0);
        }
    }
}

/// A generated scenario with every other job switched to async SGD.
fn mixed(jobs: usize, seed: u64, units: f64) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed,
        mode: Mode::Sync,
        units,
    });
    for j in s.jobs.iter_mut().skip(1).step_by(2) {
        j.mode = Mode::Async;
    }
    s
}

#[test]
fn never_below_any_policy_on_larger_mixed_scenarios() {
    for (jobs, seed, units) in [(40, 4, 1.0), (60, 5, 3.0), (80, 6, 0.5)] {
        let mut s = mixed(jobs, seed, units);
        s.params.epsilon = 0.05;
        let g = plan_global(&s, &mut Options::default(), 5_000_000).unwrap();
        assert!(g.admission.proven_optimal, "{jobs} jobs: {:?}", g.admission);
        for p in Policy::ALL.into_iter().filter(|p| *p != Policy::Global) {
            let other = plan(&s, p).unwrap();
            assert!(
                g.total_utility >= other.total_utility * (1.0 - 1e-12),
                "{jobs} jobs: global {} < {p} {}",
                g.total_utility,
                other.total_utility
            );
        }
    }
}

#[test]
fn a_thousand_jobs_with_options_set_aside_are_proven() {
    // 1000 jobs share the search's room for options (4000 each here): the jobs with more
    // Pareto options set the rest aside, and the proof must still hold for every option.
    // Seeds 4 and 6 once stopped at a gap of 3·10⁻³ and 2.5·10⁻⁴ (their set-aside
    // options' bound was relaxed to (most utility, least demand)), though their value was
    // the optimum.
    for seed in [4, 6] {
        let mut s = mixed(1000, seed, 3.0);
        s.params.epsilon = 0.05;
        let g = plan(&s, Policy::Global).unwrap();
        assert!(g.admission.proven_optimal, "seed {seed}: {:?}", g.admission);
        let smd = plan(&s, Policy::Smd).unwrap();
        assert!(g.total_utility >= smd.total_utility * (1.0 - 1e-12));
    }
}

#[test]
fn a_tiny_budget_reports_a_gap_that_holds_the_optimum() {
    // The proven optimum must lie in [value, value / (1 − gap)] of every stopped search.
    let mut stopped = 0;
    for (jobs, seed, units) in [(30, 11, 0.4), (50, 12, 1.0), (80, 13, 3.0), (40, 14, 0.2)] {
        let s = mixed(jobs, seed, units);
        let full = plan_global(&s, &mut Options::default(), u64::MAX).unwrap();
        assert!(full.admission.proven_optimal);
        let opt = full.total_utility;
        for nodes in [1, 10, 100] {
            let g = plan_global(&s, &mut Options::default(), nodes).unwrap();
            let a = &g.admission;
            assert!(g.total_utility <= opt * (1.0 + 1e-12), "above the optimum");
            match a.gap {
                Some(gap) => {
                    stopped += 1;
                    assert!(!a.proven_optimal && gap > 0.0 && gap < 1.0, "{a:?}");
                    let bound = g.total_utility / (1.0 - gap);
                    assert!(
                        bound >= opt * (1.0 - 1e-9),
                        "{jobs} jobs, {nodes} nodes: bound {bound} below the optimum {opt}"
                    );
                }
                None => {
                    assert!(a.proven_optimal);
                    assert!(
                        (g.total_utility - opt).abs() <= 1e-9 * opt,
                        "proven but not optimal"
                    );
                }
            }
        }
    }
    assert!(stopped >= 3, "some searches stopped early: {stopped}");
}

#[test]
fn progress_reports_the_search_with_a_clock() {
    // A clock that advances 60 ms per reading, so the search reports (every ~100 ms).
    let s = mixed(200, 21, 1.0);
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 60.0);
        t.get()
    };
    let mut seen = Vec::new();
    let mut cb = |p: smd_core::Progress| seen.push(p);
    let g = plan_global(
        &s,
        &mut Options {
            clock: Some(&clock),
            progress: Some(&mut cb),
            time_budget_ms: Some(1e12),
            ..Options::default()
        },
        u64::MAX,
    )
    .unwrap();
    let per_job = seen.iter().filter(|p| p.search.is_none()).count();
    assert_eq!(per_job, 200, "one report per job's options");
    let searched: Vec<_> = seen.iter().filter_map(|p| p.search).collect();
    assert!(
        !searched.is_empty(),
        "{} nodes, no search report",
        g.stats.outer_nodes
    );
    for p in searched {
        assert!(
            p.best <= g.total_utility * (1.0 + 1e-12) && p.bound >= g.total_utility * (1.0 - 1e-9),
            "{p:?}"
        );
        assert!((0.0..1.0).contains(&p.gap()));
    }
}

#[test]
fn near_copies_with_degenerate_prices_reach_the_mip_optimum() {
    // 60 jobs, each a near-copy of one of four (iterations × (1 + 10⁻³·i)): at the LP's
    // prices every job's best reduced value is 0, a tie the first plan must admit and
    // repair rather than read as "admit nothing" (which left global at 438, 40% below).
    // The optimum was computed by HiGHS 1.16 (scripts/bench-highs.py) on the same knapsack.
    let mut s = generate(&GenerateOptions {
        jobs: 60,
        seed: 3,
        mode: Mode::Sync,
        units: 0.5,
    });
    let base: Vec<_> = s.jobs[..4].to_vec();
    for (i, j) in s.jobs.iter_mut().enumerate() {
        let id = j.id.clone();
        *j = base[i % 4].clone();
        j.id = id;
        j.iterations *= 1.0 + 1e-3 * i as f64;
    }
    let g = plan_global(&s, &mut Options::default(), 1_000_000).unwrap();
    assert!(g.admission.proven_optimal, "{:?}", g.admission);
    let highs = 733.182_897_241_845_5;
    assert!(
        (g.total_utility - highs).abs() <= 1e-7 * highs,
        "global {} vs HiGHS {highs}",
        g.total_utility
    );
}
