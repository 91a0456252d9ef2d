use super::*;
use smd_hetero::engine::{run, Options, Outcome};
use smd_hetero::job::{Rules, Spec};

/// The paper's heterogeneous cluster (MODEL.md §24.1): 6 T4 nodes, 2 A100, 3 RTX 2080 Ti.
fn default_cluster() -> Cluster {
    Cluster::of(&[(Gpu::T4, 6), (Gpu::A100, 2), (Gpu::Rtx2080ti, 3)]).unwrap()
}

const RULES: Rules = Rules {
    fixed_batch: false,
    merged_profile: true,
};

/// the Sia artifact's values, MODEL.md §24's map: vnodes 0–5 the T4 nodes 0–5; 6,7 A100 node 0; 8,9 A100 node 1;
/// 10,11 / 12,13 / 14,15 RTX nodes 0 / 1 / 2; and the cluster-wide cap 16 (the A100s').
#[test]
fn virtual_nodes_of_the_default_cluster() {
    let c = default_cluster();
    let (gpus, map) = vnodes(&c);
    assert_eq!(gpus, 4);
    let shown: Vec<(usize, u32)> = map.iter().map(|v| (v.kind, v.node)).collect();
    let mut want: Vec<(usize, u32)> = (0..6).map(|n| (0, n)).collect();
    want.extend([(1, 0), (1, 0), (1, 1), (1, 1)]);
    want.extend([(2, 0), (2, 0), (2, 1), (2, 1), (2, 2), (2, 2)]);
    assert_eq!(shown, want);
    assert_eq!(clusterwide_max(&c), 16);
    // Only 4-GPU types: one virtual node per node.
    let t4 = Cluster::of(&[(Gpu::T4, 3), (Gpu::Rtx6000, 1)]).unwrap();
    assert_eq!(vnodes(&t4).1.len(), 4);
    assert_eq!(clusterwide_max(&t4), 4);
}

fn row(entries: &[(usize, u32)], len: usize) -> Vec<u32> {
    let mut r = vec![0; len];
    for &(v, g) in entries {
        r[v] = g;
    }
    r
}

/// the Sia artifact's values, MODEL.md §24's repairs: 4 T4 + 4 RTX is a tie, the RTX kept (preference 3 < 4) and the
/// T4s dropped; 4 A100 + 4 RTX keeps the A100s. A majority wins whatever the preference,
/// one type is kept as it is, and an empty row stays empty.
#[test]
fn the_type_fix_keeps_the_majority_then_the_preferred() {
    let c = default_cluster();
    let (_, map) = vnodes(&c);
    let mut r = row(&[(0, 4), (10, 4)], 16);
    fix_type(&mut r, &map, &c);
    assert_eq!(r, row(&[(10, 4)], 16));
    assert_eq!(placement_of(&r, &map, &c), Some((2, vec![4])));
    let mut r = row(&[(6, 4), (10, 4)], 16);
    fix_type(&mut r, &map, &c);
    assert_eq!(r, row(&[(6, 4)], 16));
    let mut r = row(&[(0, 4), (1, 4), (6, 4)], 16);
    fix_type(&mut r, &map, &c);
    assert_eq!(r, row(&[(0, 4), (1, 4)], 16));
    let mut r = row(&[(3, 2), (4, 1)], 16);
    fix_type(&mut r, &map, &c);
    assert_eq!(r, row(&[(3, 2), (4, 1)], 16));
    let mut r = vec![0; 16];
    fix_type(&mut r, &map, &c);
    assert_eq!(kept_type(&r, &map, &c), None);
    assert_eq!(placement_of(&r, &map, &c), None);
}

/// §6.4's order on equal counts: the types as first met along the virtual nodes, and only
/// the first two compared — with the types in the order T4, RTX, A100 and 4 GPUs of each,
/// the RTX is kept (preferred to the T4), not the A100 (preferred to both but third).
#[test]
fn on_equal_counts_only_the_first_two_met_are_compared() {
    let c = Cluster::of(&[(Gpu::T4, 1), (Gpu::Rtx2080ti, 1), (Gpu::A100, 1)]).unwrap();
    let (_, map) = vnodes(&c);
    assert_eq!(map.len(), 5);
    let mut r = vec![4, 4, 0, 4, 0];
    fix_type(&mut r, &map, &c);
    assert_eq!(r, vec![0, 4, 0, 0, 0]);
    // The A100 first met: it is kept.
    let c2 = Cluster::of(&[(Gpu::A100, 1), (Gpu::T4, 1), (Gpu::Rtx2080ti, 1)]).unwrap();
    let (_, map2) = vnodes(&c2);
    let mut r = vec![4, 0, 4, 4, 0];
    fix_type(&mut r, &map2, &c2);
    assert_eq!(r, vec![4, 0, 0, 0, 0]);
}

/// Virtual nodes to real ones, GPUs by node index: two virtual nodes of one 8-GPU node are
/// that node's count. Over more nodes than the type's measurements cover (an A100 cluster
/// of 3 nodes, measured on 2, beside a T4), spread again ⌈R/2⌉ per node on the two nodes
/// with the most room.
#[test]
fn virtual_rows_map_to_gpus_per_real_node() {
    let c = default_cluster();
    let (_, map) = vnodes(&c);
    assert_eq!(
        placement_of(&row(&[(10, 4), (11, 4)], 16), &map, &c),
        Some((2, vec![8]))
    );
    assert_eq!(
        placement_of(&row(&[(12, 2), (15, 3)], 16), &map, &c),
        Some((2, vec![0, 2, 3]))
    );
    assert_eq!(
        placement_of(&row(&[(2, 1), (4, 4), (5, 2)], 16), &map, &c),
        Some((0, vec![0, 0, 1, 0, 4, 2]))
    );
    let big = Cluster::of(&[(Gpu::T4, 1), (Gpu::A100, 3)]).unwrap();
    let (_, map) = vnodes(&big);
    let wide = placement_of(&[0, 1, 0, 1, 0, 1, 0], &map, &big);
    assert_eq!(wide, Some((1, vec![1, 1, 1])));
    let mut alloc = vec![(0, wide.clone()), (1, Some((1, vec![7])))];
    respread(&mut alloc, &big);
    assert_eq!(alloc[0].1, Some((1, vec![0, 2, 1])));
    assert_eq!(alloc[1].1, Some((1, vec![7])));
    // Within the measured nodes: unchanged.
    let mut alloc = vec![(0, Some((1, vec![0, 8, 8])))];
    respread(&mut alloc, &big);
    assert_eq!(alloc[0].1, Some((1, vec![0, 8, 8])));
}

/// The fix on random rows: what is left is on one type, all of that type's GPUs of the row
/// are kept, and no type had more.
#[test]
fn the_type_fix_leaves_one_type_with_its_gpus() {
    let c = default_cluster();
    let (_, map) = vnodes(&c);
    let mut rng = smd_core::rng::Stream::new(11, smd_core::rng::stream_of("unaware"));
    for case in 0..500 {
        let r0: Vec<u32> = (0..16)
            .map(|_| {
                if rng.unit() < 0.3 {
                    rng.int(1, 4) as u32
                } else {
                    0
                }
            })
            .collect();
        let mut r = r0.clone();
        fix_type(&mut r, &map, &c);
        let by_type = |row: &[u32]| {
            let mut t = [0u32; 3];
            for (v, &g) in row.iter().enumerate() {
                t[map[v].kind] += g;
            }
            t
        };
        let (before, after) = (by_type(&r0), by_type(&r));
        let kept: Vec<usize> = (0..3).filter(|&k| after[k] > 0).collect();
        assert!(kept.len() <= 1, "case {case}: {r:?}");
        if let Some(&k) = kept.first() {
            assert_eq!(after[k], before[k], "case {case}");
            assert!(before.iter().all(|&g| g <= before[k]), "case {case}");
        } else {
            assert!(r0.iter().all(|&g| g == 0), "case {case}");
        }
    }
}

/// A job's side of the problem (§6.2–§6.3): a bert job aged 600 s with 2 restarts, before
/// its first step, alone on the default cluster: at most 1 GPU, speedup R / R_f with R_f =
/// 64 (the 16 virtual nodes' GPUs over one job), scaled by 16/64, and the restart factor of
/// the scheduler's 30 s estimate, (600 − 60)/(600 + 30) — not bert's simulated 120 s, which
/// would give 0.5.
#[test]
fn a_new_jobs_costs_use_the_30_s_restart_estimate() {
    let c = default_cluster();
    let mut job = Job::new(spec("bert-0", App::Bert, 0.0), RULES);
    job.restarts = Some(2);
    let jobs = vec![job];
    let view = View {
        now: 600.0,
        jobs: &jobs,
        active: &[0],
        cluster: &c,
    };
    let mut p = Unaware::new();
    let d = p.decide(&view).unwrap();
    assert_eq!(d.alloc, vec![(0, Some((0, vec![1])))]);
    let costs = &p.problem.jobs[0];
    assert_eq!(costs.max, 1);
    assert_eq!(costs.base, vec![0; 16]);
    let factor = (600.0 - 60.0) / (600.0 + 30.0);
    let s = 1.0 / 64.0;
    let want = 1.0 / (factor * s * (16.0 / 64.0) + 0.001) - 1e-9 * s;
    assert_eq!(costs.one[1], want);
}

/// The policy, its every decision checked: each job on one type, within the type's nodes
/// and the nodes measured, each job within its cap (twice the most it
/// has run on, one before it has run; the cluster-wide cap), no node over-filled; the
/// fixed rows single-typed.
struct Checked(Unaware);

impl Policy for Checked {
    fn decide(&mut self, view: &View) -> Result<Decision, String> {
        let d = self.0.decide(view)?;
        let c = view.cluster;
        let mut on_node: Vec<Vec<u32>> =
            c.types.iter().map(|&(_, n)| vec![0; n as usize]).collect();
        for (i, a) in &d.alloc {
            assert!(view.active.contains(i));
            let Some((k, p)) = a else { continue };
            let (g, nodes) = c.types[*k];
            assert!(p.len() <= nodes as usize, "{p:?} on {nodes} nodes");
            assert!(p.iter().filter(|&&x| x > 0).count() <= g.measured_nodes() as usize);
            for (n, &x) in p.iter().enumerate() {
                on_node[*k][n] += x;
                assert!(
                    on_node[*k][n] <= g.per_node(),
                    "type {k} node {n} over-filled"
                );
            }
            let r: u32 = p.iter().sum();
            assert!(r >= 1);
            let seen = view.jobs[*i].learner(Gpu::T4).max_replicas();
            assert!(r <= (2 * seen).max(1), "{r} GPUs after at most {seen}");
            assert!(r <= clusterwide_max(c));
            let fixed = &self.0.rows[*i];
            assert!(fixed
                .iter()
                .enumerate()
                .all(|(v, &x)| x == 0 || self.0.map[v].kind == *k));
        }
        assert_eq!(d.proven, None);
        Ok(d)
    }
}

fn spec(name: &str, app: App, arrival_s: f64) -> Spec {
    Spec {
        name: name.into(),
        app,
        arrival_s,
        gpus: 4,
        batch: 1024.0,
    }
}

fn mixed_run() -> Outcome {
    // 2 T4 nodes, one A100 node, one RTX node: 8 GPUs each, 6 virtual nodes.
    let c = Cluster::of(&[(Gpu::T4, 2), (Gpu::A100, 1), (Gpu::Rtx2080ti, 1)]).unwrap();
    let specs = vec![
        spec("cifar10-0", App::Cifar10, 0.0),
        spec("deepspeech2-1", App::Deepspeech2, 30.0),
        spec("cifar10-2", App::Cifar10, 200.0),
        spec("yolov3-3", App::Yolov3, 400.0),
        spec("bert-4", App::Bert, 400.0),
        spec("cifar10-5", App::Cifar10, 900.0),
        spec("deepspeech2-6", App::Deepspeech2, 1500.0),
        spec("cifar10-7", App::Cifar10, 3000.0),
    ];
    let mut policy = Checked(Unaware::new());
    run(
        &specs,
        &c,
        &mut policy,
        60.0,
        RULES,
        &mut Options::default(),
    )
    .unwrap()
}

/// A whole run on a mixed cluster: every decision within the rules ([`Checked`]), every
/// job finishes, several types are used, and a second run is the same (deterministic).
#[test]
fn a_mixed_cluster_run_finishes_every_job_and_repeats() {
    let out = mixed_run();
    assert!(out
        .jobs
        .iter()
        .all(|j| j.jct_s.is_finite() && j.jct_s > 0.0));
    let types_used = (0..5)
        .filter(|&t| out.jobs.iter().any(|j| j.gpu_seconds_by_type[t] > 0.0))
        .count();
    assert!(types_used >= 2, "{:?}", out.jobs);
    assert_eq!(out.proven, 0);
    assert_eq!(out, mixed_run(), "deterministic");
}

/// The first Philly workload of the Sia artifact on its heterogeneous cluster at 60 s
/// ticks (MODEL.md §24.6, §7.1): prints its mean JCT and the run's wall time (the paper's Pollux
/// average over the 8 Philly workloads: 1.0 h). Slow: `cargo test -p smd-sim --release
/// philly -- --ignored --nocapture`.
#[test]
#[ignore]
fn philly_workload_1() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/sia/workloads/philly/workload-1.csv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let rows = smd_measured::csv::records(&text).unwrap();
    let specs: Vec<Spec> = rows[1..]
        .iter()
        .map(|r| Spec {
            name: r.cells[0].clone(),
            arrival_s: r.cells[1].parse().unwrap(),
            app: r.cells[2].parse().unwrap(),
            gpus: r.cells[3].parse().unwrap(),
            batch: r.cells[4].parse().unwrap(),
        })
        .collect();
    assert_eq!(specs.len(), 160);
    let c = default_cluster();
    let start = std::time::Instant::now();
    let mut policy = Checked(Unaware::new());
    let out = run(
        &specs,
        &c,
        &mut policy,
        60.0,
        RULES,
        &mut Options::default(),
    )
    .unwrap();
    let wall = start.elapsed().as_secs_f64();
    let n = out.jobs.len() as f64;
    let mean_h = out.jobs.iter().map(|j| j.jct_s).sum::<f64>() / n / 3600.0;
    let restarts = out.jobs.iter().map(|j| f64::from(j.restarts)).sum::<f64>() / n;
    let gpu_h = out.jobs.iter().map(|j| j.gpu_seconds).sum::<f64>() / n / 3600.0;
    let mut jcts: Vec<f64> = out.jobs.iter().map(|j| j.jct_s).collect();
    jcts.sort_by(f64::total_cmp);
    // MODEL.md §24.2: the element at ⌊0.99 n⌋ of the sorted JCTs.
    let p99_h = jcts[(0.99 * n) as usize] / 3600.0;
    let contention =
        out.contention.iter().map(|&c| f64::from(c)).sum::<f64>() / out.contention.len() as f64;
    let most = out.contention.iter().max().copied().unwrap_or(0);
    let makespan = out.jobs.iter().map(|j| j.completion_s).fold(0.0, f64::max) / 3600.0;
    let by_type: Vec<String> = Gpu::ALL
        .iter()
        .enumerate()
        .map(|(t, g)| {
            let s: f64 = out.jobs.iter().map(|j| j.gpu_seconds_by_type[t]).sum();
            format!("{} {:.1} GPU-h", g.name(), s / 3600.0)
        })
        .collect();
    println!(
        "philly workload-1, unaware pollux: mean JCT {mean_h:.3} h, p99 {p99_h:.2} h, last \
         completion {makespan:.2} h, contention {contention:.2} ({most}), restarts/job {restarts:.2}, GPU-h/job {gpu_h:.2}, {}; \
         {} decisions, wall {wall:.1} s",
        by_type.join(", "),
        out.decisions
    );
    assert!(out.jobs.iter().all(|j| j.jct_s.is_finite()));
}
