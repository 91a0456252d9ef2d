use super::*;
use proptest::prelude::*;

fn w(mean: f64, sd: f64, util: f64, perf: f64) -> Worker {
    Worker {
        job: 0,
        index: 0,
        mem_mean_gb: mean,
        mem_sd_gb: sd,
        util,
        min_performance: perf,
    }
}

#[test]
fn normal_quantile_and_cdf_against_tables() {
    assert!((normal_quantile(0.99) - 2.326_347_874).abs() < 1e-6);
    assert!((normal_quantile(0.975) - 1.959_963_985).abs() < 1e-6);
    assert!((normal_quantile(0.5)).abs() < 1e-6);
    assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    assert!((normal_cdf(1.0) - 0.841_344_746).abs() < 2e-7);
    assert!((normal_cdf(-1.959_963_985) - 0.025).abs() < 2e-7);
}

#[test]
fn slowdown_and_collision_probability_by_hand() {
    // 5 ± 3 GB and 6 ± 4 GB on 16 GB: Σ mean 11, σ = 5, P = 1 − Φ(1) = 0.158655.
    // Their utils 0.6 + 0.7 saturate: s = 1.3·(1 + 0.02·1) = 1.326.
    let rules = Rules {
        gpu_memory_gb: 16.0,
        collision_prob: 0.2,
        share_overhead: 0.02,
    };
    let p = pack(
        &[w(5.0, 3.0, 0.6, 0.7), w(6.0, 4.0, 0.7, 0.7)],
        &rules,
        Algorithm::Greedy,
    )
    .unwrap();
    assert_eq!(p.gpus.len(), 1);
    let g = &p.gpus[0];
    assert!(
        (g.collision_prob - 0.158_655_254).abs() < 2e-7,
        "{}",
        g.collision_prob
    );
    assert!((g.slowdown - 1.326).abs() < 1e-12);
    assert_eq!(g.mem_mean_gb, 11.0);
    // At the default 1% the same pair collides too often (11 + 2.326·5 > 16): two GPUs.
    let p = pack(
        &[w(5.0, 3.0, 0.6, 0.7), w(6.0, 4.0, 0.7, 0.7)],
        &Rules::default(),
        Algorithm::Exact,
    )
    .unwrap();
    assert_eq!(p.gpus.len(), 2);
    assert_eq!(p.proven, Some(true));
    // A demanding co-runner: 1/1.326 = 0.754 < 0.8 keeps them apart.
    let p = pack(
        &[w(5.0, 3.0, 0.6, 0.8), w(6.0, 4.0, 0.7, 0.7)],
        &rules,
        Algorithm::Exact,
    )
    .unwrap();
    assert_eq!(p.gpus.len(), 2);
}

/// Both rules, re-checked from the definitions.
fn valid(workers: &[Worker], rules: &Rules, p: &Packing) -> Result<(), String> {
    let z = normal_quantile(1.0 - rules.collision_prob);
    let mut seen = vec![0; workers.len()];
    for g in &p.gpus {
        if g.workers.is_empty() {
            return Err("an empty GPU".into());
        }
        let mean: f64 = g.workers.iter().map(|&i| workers[i].mem_mean_gb).sum();
        let var: f64 = g
            .workers
            .iter()
            .map(|&i| workers[i].mem_sd_gb.powi(2))
            .sum();
        if mean + z * var.sqrt() > rules.gpu_memory_gb * (1.0 + 1e-9) {
            return Err(format!("memory rule broken: {mean} + {z}·{}", var.sqrt()));
        }
        let util: f64 = g.workers.iter().map(|&i| workers[i].util).sum();
        let s = util.max(1.0) * (1.0 + rules.share_overhead * (g.workers.len() - 1) as f64);
        for &i in &g.workers {
            if 1.0 / s < workers[i].min_performance - 1e-9 {
                return Err(format!("worker {i} slowed to {}", 1.0 / s));
            }
            seen[i] += 1;
        }
        if (g.slowdown - s).abs() > 1e-9 * s {
            return Err("slowdown misreported".into());
        }
    }
    for i in &p.unplaceable {
        seen[*i] += 1;
    }
    if seen.iter().any(|&c| c != 1) {
        return Err(format!("workers placed other than once: {seen:?}"));
    }
    Ok(())
}

/// The fewest GPUs by trying every set partition (tiny n).
fn brute_force(workers: &[Worker], rules: &Rules) -> usize {
    let z = normal_quantile(1.0 - rules.collision_prob);
    fn go(i: usize, ws: &[Worker], bins: &mut Vec<Load>, rules: &Rules, z: f64, best: &mut usize) {
        if bins.len() >= *best {
            return;
        }
        if i == ws.len() {
            *best = bins.len();
            return;
        }
        for b in 0..bins.len() {
            let next = bins[b].with(&ws[i]);
            if next.ok(rules, z) {
                let old = bins[b];
                bins[b] = next;
                go(i + 1, ws, bins, rules, z, best);
                bins[b] = old;
            }
        }
        bins.push(Load::default().with(&ws[i]));
        go(i + 1, ws, bins, rules, z, best);
        bins.pop();
    }
    let mut best = usize::MAX;
    go(0, workers, &mut Vec::new(), rules, z, &mut best);
    best
}

fn worker_strategy() -> impl Strategy<Value = Worker> {
    (0.5f64..9.0, 0.0f64..2.5, 0.05f64..1.0, 0.3f64..1.0).prop_map(|(m, s, u, p)| w(m, s, u, p))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn every_packing_is_valid_and_exact_is_least(
        workers in prop::collection::vec(worker_strategy(), 0..8),
        kappa in 0.0f64..0.1,
    ) {
        let rules = Rules { gpu_memory_gb: 16.0, collision_prob: 0.01, share_overhead: kappa };
        let g = pack(&workers, &rules, Algorithm::Greedy).unwrap();
        let h = pack(&workers, &rules, Algorithm::Heuristic).unwrap();
        let e = pack(&workers, &rules, Algorithm::Exact).unwrap();
        let o = pack(&workers, &rules, Algorithm::Off).unwrap();
        prop_assert_eq!(o.gpus.len() + o.unplaceable.len(), workers.len());
        prop_assert!(g.gpus.len() <= o.gpus.len());
        for p in [&g, &h, &e, &o] {
            prop_assert!(valid(&workers, &rules, p).is_ok(), "{:?}", valid(&workers, &rules, p));
        }
        prop_assert!(h.gpus.len() <= g.gpus.len());
        prop_assert!(e.gpus.len() <= h.gpus.len());
        prop_assert_eq!(e.proven, Some(true));
        prop_assert!(e.unplaceable.is_empty());
        prop_assert_eq!(e.gpus.len(), if workers.is_empty() { 0 } else { brute_force(&workers, &rules) });
    }

    #[test]
    fn online_stays_valid_through_arrivals_and_departures(
        workers in prop::collection::vec(worker_strategy(), 1..16),
        leave in prop::collection::vec(any::<bool>(), 16),
    ) {
        let rules = Rules::default();
        let mut o = Online::new(rules).unwrap();
        let mut ids = Vec::new();
        for x in &workers {
            ids.push(o.arrive(*x).unwrap());
        }
        let check = |o: &Online| {
            let p = o.packing();
            let all = o.all();
            // Departed workers are not on any GPU.
            for g in &p.gpus {
                for &i in &g.workers {
                    assert!(o.workers[i].is_some());
                }
            }
            let z = normal_quantile(0.99);
            for g in &p.gpus {
                let load = g.workers.iter().fold(Load::default(), |l, &i| l.with(&all[i]));
                assert!(load.ok(&rules, z));
            }
        };
        check(&o);
        for (k, id) in ids.iter().enumerate() {
            if leave[k] {
                if let Some(id) = id {
                    o.depart(*id);
                    check(&o);
                }
            }
        }
        for id in ids.iter().flatten() {
            o.depart(*id);
        }
        prop_assert!(o.packing().gpus.is_empty());
    }
}

#[test]
fn sharing_saves_gpus_on_light_workers_and_says_when_exact_is_cut() {
    // 12 light workers (2 ± 0.5 GB, util 0.2) fit four to a GPU... and more: exact proves
    // the least count.
    let ws: Vec<Worker> = (0..12).map(|_| w(2.0, 0.5, 0.2, 0.8)).collect();
    let p = pack(&ws, &Rules::default(), Algorithm::Exact).unwrap();
    assert!(p.gpus.len() < 12 / 2, "{}", p.gpus.len());
    // A worker too big for any GPU is reported, not placed.
    let p = pack(
        &[w(30.0, 0.0, 0.5, 0.5)],
        &Rules::default(),
        Algorithm::Greedy,
    )
    .unwrap();
    assert_eq!(p.unplaceable, vec![0]);
    assert!(p.gpus.is_empty());
    // Bad numbers are errors naming the field.
    let e = pack(
        &[w(1.0, 0.0, 0.0, 0.5)],
        &Rules::default(),
        Algorithm::Greedy,
    )
    .unwrap_err();
    assert!(e.to_string().contains("gpu_util"), "{e}");
}

#[test]
fn many_workers_are_packed_per_job_in_linear_time_and_obey_both_rules() {
    // Issue 23's soak: a job of ~7·10^5 shareable workers took minutes in best fit. Past
    // MIXING_LIMIT each job's workers share GPUs among themselves only.
    let rules = Rules::default();
    let jobs = [(2.0, 0.5, 0.1), (5.0, 0.0, 0.3), (1.0, 1.0, 0.05)];
    let mut workers = Vec::new();
    for k in 0..3 * MIXING_LIMIT {
        let (mean, sd, util) = jobs[k % 3];
        workers.push(Worker {
            job: k % 3,
            index: (k / 3) as u32,
            ..w(mean, sd, util, 0.9)
        });
    }
    for algorithm in [Algorithm::Greedy, Algorithm::Heuristic, Algorithm::Exact] {
        let p = pack(&workers, &rules, algorithm).unwrap();
        valid(&workers, &rules, &p).unwrap();
        // No GPU mixes jobs, and each job's GPUs are full but its last (next fit of
        // identical workers: the most the rules allow on every GPU but one).
        for g in &p.gpus {
            let job = workers[g.workers[0]].job;
            assert!(g.workers.iter().all(|&i| workers[i].job == job));
        }
        for job in 0..3 {
            let sizes: Vec<usize> = p
                .gpus
                .iter()
                .filter(|g| workers[g.workers[0]].job == job)
                .map(|g| g.workers.len())
                .collect();
            let most = *sizes.iter().max().unwrap();
            assert!(
                sizes.iter().filter(|&&n| n < most).count() <= 1,
                "{sizes:?}"
            );
            assert_eq!(sizes.iter().sum::<usize>(), MIXING_LIMIT);
        }
        assert_eq!(p.proven, (algorithm == Algorithm::Exact).then_some(false));
    }
}
