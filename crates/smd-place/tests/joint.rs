//! Joint planning on machines (docs/MODEL.md §16): `smd_locality` and `global` with the
//! co-located configurations, checked against T re-derived from its formula and against a
//! brute force over every allocation and admitted set of tiny instances.

use smd_core::model::JobModel;
use smd_core::scenario::{Cluster, MachineGroup, Resources};
use smd_core::{generate, plan_with, GenerateOptions, Options, Policy, Scenario};
use smd_place::plan_placed;

fn node() -> Resources {
    Resources {
        gpu: 4.0,
        vcpu: 48.0,
        memory_gb: 192.0,
        storage_gb: 900.0,
    }
}

fn machines(count: f64, capacity: Resources, local: Option<f64>) -> Cluster {
    Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "n".into(),
            count,
            capacity,
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: local,
        }],
        Resources::DEFAULT_INSTANCE,
    )
}

fn scenario(jobs: usize, seed: u64, cluster: Cluster) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed,
        ..Default::default()
    });
    s.params.epsilon = 0.1;
    s.version = 2;
    s.cluster = cluster;
    s
}

/// T of (w, p) re-derived: co-located (ρ = β) when the tasks fit one machine and the
/// job's limit, spread (ρ = 1) otherwise.
fn expected_t(s: &Scenario, i: usize, w: u64, p: u64, local: Option<f64>) -> f64 {
    let job = &s.jobs[i];
    let m = JobModel::of(job, &s.cluster, None);
    let d = m.demand(w as f64, p as f64);
    let machine = s.cluster.machines[0].capacity;
    let (cap, lim) = (machine.to_array(), m.limit.to_array());
    let fits = (0..4).all(|r| d[r] <= cap[r].min(lim[r]) * (1.0 + 1e-9));
    let beta = local.map_or(0.0, |l| job.ps_bandwidth_gbps / l);
    let spread = m.t(w as f64, p as f64);
    if fits {
        spread.min(m.t_placed(w as f64, p as f64, beta))
    } else {
        spread
    }
}

#[test]
fn on_a_pool_smd_locality_is_smd() {
    for seed in 1..=3 {
        let s = generate(&GenerateOptions {
            jobs: 15,
            seed,
            ..Default::default()
        });
        let a = plan_with(&s, Policy::Smd, &mut Options::default()).unwrap();
        let mut b = plan_with(&s, Policy::SmdLocality, &mut Options::default()).unwrap();
        assert_eq!(b.policy, Policy::SmdLocality);
        b.policy = Policy::Smd;
        b.stats = a.stats.clone();
        assert_eq!(a, b, "seed {seed}");
    }
}

#[test]
fn smd_locality_prices_each_job_in_its_fastest_configuration() {
    for local in [None, Some(40.0)] {
        for seed in 1..=4 {
            let s = scenario(20, seed, machines(24.0, node(), local));
            let smd = plan_with(&s, Policy::Smd, &mut Options::default()).unwrap();
            let joint = plan_with(&s, Policy::SmdLocality, &mut Options::default()).unwrap();
            let cap = s.cluster.capacity().to_array();
            let (mut colocated, mut total) = (0, 0.0);
            for (i, (a, b)) in smd.jobs.iter().zip(&joint.jobs).enumerate() {
                let (Some(w), Some(p)) = (b.workers, b.ps) else {
                    continue;
                };
                let t = expected_t(&s, i, w, p, local);
                let got = b.completion_time_s.unwrap();
                assert!(
                    (got - t).abs() <= 1e-9 * t,
                    "seed {seed} job {i}: {got} vs {t}"
                );
                let m = JobModel::new(&s.jobs[i], &s.cluster.instance, None);
                colocated += usize::from(t < m.t(w as f64, p as f64));
                // The kept allocation is worth at least smd's per dominant share, smd's
                // re-priced in its fastest configuration too.
                let per_share = |w: u64, p: u64, t: f64| {
                    let d = m.demand(w as f64, p as f64);
                    let share = (0..4).map(|r| d[r] / cap[r]).fold(0.0, f64::max);
                    m.mu(m.pi(t)) / share
                };
                let (sw, sp) = (a.workers.unwrap(), a.ps.unwrap());
                let smd_best = per_share(sw, sp, expected_t(&s, i, sw, sp, local));
                assert!(
                    per_share(w, p, t) >= smd_best * (1.0 - 1e-12),
                    "seed {seed} job {i}"
                );
                if b.admitted {
                    total += b.utility;
                }
            }
            assert!(colocated > 0, "some job runs co-located (seed {seed})");
            assert!((joint.total_utility - total).abs() <= 1e-9 * total.max(1.0));
        }
    }
}

/// The best total utility over every allocation of every job (or none) that fits the
/// cluster's total capacity, each priced in its fastest configuration.
fn brute_force(s: &Scenario, local: Option<f64>, colocate: bool) -> f64 {
    let cap = s.cluster.capacity().to_array();
    let options: Vec<Vec<(f64, [f64; 4])>> = (0..s.jobs.len())
        .map(|i| {
            let m = JobModel::new(&s.jobs[i], &s.cluster.instance, None);
            let mut v = vec![(0.0, [0.0; 4])];
            for w in 1..=m.omega.w_max_int() {
                for p in 1..=m.omega.p_max_int(w) {
                    let t = if colocate {
                        expected_t(s, i, w, p, local)
                    } else {
                        m.t(w as f64, p as f64)
                    };
                    v.push((m.mu(m.pi(t)), m.demand(w as f64, p as f64)));
                }
            }
            v
        })
        .collect();
    fn go(i: usize, used: [f64; 4], opts: &[Vec<(f64, [f64; 4])>], cap: &[f64; 4]) -> f64 {
        if i == opts.len() {
            return 0.0;
        }
        let mut best = 0.0f64;
        for (u, d) in &opts[i] {
            let next: [f64; 4] = std::array::from_fn(|r| used[r] + d[r]);
            if (0..4).all(|r| next[r] <= cap[r] * (1.0 + 1e-9)) {
                best = best.max(u + go(i + 1, next, opts, cap));
            }
        }
        best
    }
    go(0, [0.0; 4], &options, &cap)
}

#[test]
fn global_on_machines_equals_brute_force_on_tiny_instances() {
    // Small machines keep every job's Ω box small enough to enumerate.
    let small = Resources {
        gpu: 3.0,
        vcpu: 12.0,
        memory_gb: 48.0,
        storage_gb: 200.0,
    };
    let (mut checked, mut gained) = (0, 0);
    for local in [None, Some(25.0)] {
        for seed in 1..=6 {
            let mut s = scenario(3, seed, machines(3.0, small, local));
            for j in &mut s.jobs {
                j.worker.gpu = 1.0;
                j.worker.vcpu = 2.0;
                j.worker.memory_gb = 8.0;
                j.worker.storage_gb = 10.0;
                j.ps.gpu = 0.0;
                j.ps.vcpu = 2.0;
                j.ps.memory_gb = 8.0;
                j.ps.storage_gb = 10.0;
                j.limit_instances = 10.0;
            }
            let g = plan_with(&s, Policy::Global, &mut Options::default()).unwrap();
            assert!(g.admission.proven_optimal, "seed {seed}");
            let want = brute_force(&s, local, true);
            // Co-location changes the optimum somewhere, or the test proves nothing new.
            gained += usize::from(want > brute_force(&s, local, false) * (1.0 + 1e-9));
            assert!(
                (g.total_utility - want).abs() <= 1e-9 * want.max(1.0),
                "seed {seed} local {local:?}: global {} vs brute force {want}",
                g.total_utility
            );
            let smd_loc = plan_with(&s, Policy::SmdLocality, &mut Options::default()).unwrap();
            assert!(smd_loc.total_utility <= g.total_utility * (1.0 + 1e-12));
            checked += 1;
        }
    }
    assert_eq!(checked, 12);
    assert!(
        gained >= 6,
        "co-location raised the optimum in only {gained} of 12"
    );
}

#[test]
fn joint_plans_on_machines_are_placed_feasibly() {
    // Re-derived capacity per machine and totals for the joint planners after placement
    // (the other policies are checked in pipeline.rs).
    for seed in 1..=3 {
        let s = scenario(12, seed, machines(8.0, node(), Some(40.0)));
        let list = s.cluster.machine_list();
        for policy in [Policy::SmdLocality, Policy::Global] {
            let p = plan_placed(&s, policy, &mut Options::default()).unwrap();
            let mut used = vec![[0.0; 4]; list.len()];
            let mut total = 0.0;
            for (job, line) in s.jobs.iter().zip(&p.jobs) {
                if !line.admitted {
                    continue;
                }
                total += line.utility;
                for sh in line.placement.as_ref().expect("placed") {
                    let h = list.iter().position(|m| m.name == sh.machine).unwrap();
                    let d = job.worker.scale(sh.workers as f64).to_array();
                    let e = job.ps.scale(sh.ps as f64).to_array();
                    for r in 0..4 {
                        used[h][r] += d[r] + e[r];
                    }
                }
            }
            for (h, m) in list.iter().enumerate() {
                let cap = m.capacity.to_array();
                assert!(
                    (0..4).all(|r| used[h][r] <= cap[r] * (1.0 + 1e-9)),
                    "{policy} {}",
                    m.name
                );
            }
            assert!((p.total_utility - total).abs() <= 1e-9 * total.max(1.0));
        }
    }
}
