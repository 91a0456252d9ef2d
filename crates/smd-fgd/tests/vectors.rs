//! The specification's test vectors (docs/MODEL.md §26): cluster and trace totals, the
//! target workload, the RNG draw order, F_n(M) and the policies' scores.

use smd_fgd::frag::{compile, fgd_score, node_buckets, node_frag};
use smd_fgd::gorand::GoRand;
use smd_fgd::policy::{
    bestfit_raw, clustering_score, dotprod_score, fgd_choice, normalize, packing_score, NodeState,
    PodReq,
};
use smd_fgd::workload::{arrivals, target_workload, TargetType, TaskType};
use smd_fgd::{parse_nodes, parse_pods, Node, Pod};

const NODES: &str = include_str!("../../../data/openb/openb_node_list_gpu_node.csv");
const PODS: &str = include_str!("../../../data/openb/openb_pod_list_default.csv");

fn lists() -> (Vec<Node>, Vec<Pod>) {
    (parse_nodes(NODES).unwrap(), parse_pods(PODS).unwrap())
}

#[test]
fn cluster_totals() {
    let (nodes, _) = lists();
    assert_eq!(nodes.len(), 1213);
    assert_eq!(nodes.iter().map(|n| n.gpus as i64).sum::<i64>(), 6212);
    assert_eq!(nodes.iter().map(|n| n.cpu_milli).sum::<i64>(), 107_018_000);
    assert_eq!(nodes.iter().map(|n| n.memory_mib).sum::<i64>(), 503_828_480);
    for (model, count, gpus) in [
        ("G2", 549, 4392),
        ("T4", 404, 842),
        ("G3", 39, 312),
        ("P100", 134, 265),
        ("V100M32", 30, 204),
        ("V100M16", 55, 195),
        ("A10", 2, 2),
    ] {
        let of: Vec<&Node> = nodes.iter().filter(|n| n.model == model).collect();
        assert_eq!(of.len(), count, "{model}");
        assert_eq!(of.iter().map(|n| n.gpus).sum::<u32>(), gpus, "{model}");
    }
}

#[test]
fn default_pod_list_totals() {
    let (_, pods) = lists();
    assert_eq!(pods.len(), 8152);
    let by = |k: u32| pods.iter().filter(|p| p.num_gpu == k).count();
    assert_eq!(
        [by(0), by(1), by(2), by(4), by(8)],
        [1088, 6989, 16, 15, 44]
    );
    assert_eq!(
        pods.iter()
            .filter(|p| p.num_gpu == 1 && p.gpu_milli < 1000)
            .count(),
        3078
    );
    assert_eq!(pods.iter().map(Pod::gpu_total).sum::<i64>(), 6_086_800);
    assert_eq!(pods.iter().map(|p| p.cpu_milli).sum::<i64>(), 85_436_012);
    let mut types: Vec<TaskType> = pods.iter().map(TaskType::of).collect();
    types.sort();
    types.dedup();
    assert_eq!(types.len(), 91);
}

#[test]
fn target_workload_of_the_default_list() {
    let (_, pods) = lists();
    let m = target_workload(&pods);
    let expected: [(i64, i64, u32, u64, f64); 35] = [
        (3152, 810, 1, 1047, 0.134818),
        (11300, 1000, 1, 874, 0.112542),
        (11400, 1000, 1, 599, 0.077131),
        (3152, 1000, 1, 470, 0.060520),
        (11908, 470, 1, 388, 0.049961),
        (12500, 0, 0, 366, 0.047129),
        (8000, 470, 1, 360, 0.046356),
        (12000, 1000, 1, 326, 0.041978),
        (32000, 0, 0, 290, 0.037342),
        (18708, 1000, 1, 255, 0.032835),
        (11908, 650, 1, 237, 0.030518),
        (4000, 320, 1, 232, 0.029874),
        (9810, 1000, 1, 195, 0.025109),
        (8000, 0, 0, 185, 0.023822),
        (8000, 1000, 1, 164, 0.021118),
        (4000, 1000, 1, 159, 0.020474),
        (15700, 1000, 1, 158, 0.020345),
        (11908, 1000, 1, 153, 0.019701),
        (16000, 1000, 1, 150, 0.019315),
        (4000, 230, 1, 122, 0.015710),
        (15400, 0, 0, 120, 0.015452),
        (6000, 460, 1, 120, 0.015452),
        (16500, 0, 0, 95, 0.012233),
        (14200, 1000, 1, 93, 0.011975),
        (24200, 1000, 1, 84, 0.010816),
        (3152, 590, 1, 75, 0.009657),
        (8000, 320, 1, 72, 0.009271),
        (4152, 550, 1, 72, 0.009271),
        (11900, 1000, 1, 55, 0.007082),
        (4000, 160, 1, 54, 0.006953),
        (4152, 370, 1, 45, 0.005794),
        (4000, 220, 1, 43, 0.005537),
        (8200, 1000, 1, 41, 0.005279),
        (15200, 1000, 1, 36, 0.004636),
        (4152, 810, 1, 31, 0.003992),
    ];
    assert_eq!(m.len(), 35);
    for (t, (cpu, milli, num, count, p)) in m.iter().zip(expected) {
        assert_eq!(
            (t.task.cpu_milli, t.task.gpu_milli, t.task.num_gpu, t.count),
            (cpu, milli, num, count)
        );
        assert!((t.p - p).abs() < 5e-7, "{t:?} vs {p}");
    }
    assert_eq!(m.iter().map(|t| t.count).sum::<u64>(), 7766);
    let cpu_share: f64 = m
        .iter()
        .filter(|t| t.task.gpu_milli == 0)
        .map(|t| t.p)
        .sum();
    assert!((cpu_share - 0.135978).abs() < 1e-6);
}

#[test]
fn rng_draw_order_reproduces_seed_42() {
    let (nodes, pods) = lists();
    let (a, _) = arrivals(&nodes, &pods, 42, 1.3).unwrap();
    let first: Vec<&str> = a.order[..5]
        .iter()
        .map(|&i| pods[a.sorted[i]].name.as_str())
        .collect();
    assert_eq!(
        first,
        [
            "openb-pod-0255",
            "openb-pod-1685",
            "openb-pod-6784",
            "openb-pod-4463",
            "openb-pod-0602"
        ]
    );
    assert_eq!(a.clones, 2714);
    assert_eq!(a.total_gpu_milli, 8_075_080);
    // The node rank: Perm(1213) over the name-sorted nodes (the list is sorted by name).
    let mut by_name: Vec<usize> = (0..nodes.len()).collect();
    by_name.sort_by(|&x, &y| nodes[x].name.cmp(&nodes[y].name));
    let head: Vec<usize> = by_name[..5].iter().map(|&n| a.rank[n]).collect();
    assert_eq!(head, [601, 815, 450, 13, 731]);
}

#[test]
fn the_rejected_clone_of_seed_42() {
    // Replay the draws by hand: Int, Shuffle, then Intn per clone; the draw after the
    // last clone is the rejected one.
    let (_, pods) = lists();
    let mut sorted: Vec<usize> = (0..pods.len()).collect();
    sorted.sort_by(|&x, &y| pods[x].name.cmp(&pods[y].name));
    let mut rng = GoRand::new(42);
    assert_eq!(rng.int(), 3440579354231278675);
    rng.shuffle(pods.len(), |_, _| {});
    for _ in 0..2714 {
        rng.intn(pods.len());
    }
    assert_eq!(pods[sorted[rng.intn(pods.len())]].name, "openb-pod-4840");
}

#[test]
fn clone_counts_of_seeds_43_to_51() {
    let (nodes, pods) = lists();
    let counts: Vec<usize> = (43..=51)
        .map(|s| arrivals(&nodes, &pods, s, 1.3).unwrap().0.clones)
        .collect();
    assert_eq!(
        counts,
        [2641, 2711, 2661, 2662, 2679, 2653, 2683, 2614, 2707]
    );
}

fn tt(cpu: i64, milli: i64, num: u32, p: f64) -> TargetType {
    TargetType {
        task: TaskType {
            cpu_milli: cpu,
            gpu_milli: milli,
            num_gpu: num,
            gpu_spec: String::new(),
        },
        count: 0,
        p,
    }
}

fn pod(cpu: i64, milli: i64, num: u32) -> PodReq {
    PodReq {
        cpu,
        mem: 0,
        num,
        milli,
        access: vec![true; 8],
        class: 0,
    }
}

fn node(cpu_left: i64, free: &[i64]) -> NodeState {
    NodeState {
        cpu_left,
        mem_left: 1 << 40,
        pods: 0,
        model: 0,
        free: free.to_vec(),
        tags: vec![],
    }
}

#[test]
fn toy_fragmentation_and_fgd_scores() {
    let m = compile(
        &[
            tt(4000, 500, 1, 0.5),
            tt(8000, 1000, 1, 0.3),
            tt(2000, 0, 0, 0.2),
        ],
        &["T4".into()],
    );
    let free = [1000, 700, 300, 0];
    let b = node_buckets(10000, &free, 0, &m);
    assert!((node_frag(10000, &free, 0, &m) - 850.0).abs() < 1e-9);
    assert!(
        (b[1] - 450.0).abs() < 1e-9 && (b[2] - 1150.0).abs() < 1e-9 && (b[4] - 400.0).abs() < 1e-9
    );
    let n = node(10000, &free);
    assert_eq!(fgd_choice(&n, &pod(2000, 250, 1), 850.0, &m), (56, vec![2]));
    assert_eq!(fgd_choice(&n, &pod(4000, 500, 1), 850.0, &m), (48, vec![0]));
    assert_eq!(fgd_choice(&n, &pod(2000, 1000, 1), 850.0, &m).0, 54);
    assert_eq!(fgd_choice(&n, &pod(9000, 0, 0), 850.0, &m).0, 24);
    assert_eq!(fgd_score(850.0, 1025.0), 45);
}

fn default_m() -> Vec<smd_fgd::frag::CompiledType> {
    let (_, pods) = lists();
    compile(&target_workload(&pods), &["any".into()])
}

#[test]
fn fragmentation_with_the_default_target_workload() {
    let m = default_m();
    let empty = |gpus: usize, cpu: i64| node_frag(cpu, &vec![1000; gpus], 0, &m);
    for (gpus, cpu, want) in [
        (8, 96000, 1087.8187),
        (8, 64000, 1087.8187),
        (2, 104000, 271.9547),
        (2, 64000, 271.9547),
        (4, 96000, 543.9093),
        (4, 32000, 543.9093),
        (2, 16000, 359.2583),
        (2, 8000, 1210.4043),
        (1, 8000, 605.2022),
        (1, 128000, 135.9773),
    ] {
        assert!(
            (empty(gpus, cpu) - want).abs() < 1e-3,
            "{gpus} {cpu}: {}",
            empty(gpus, cpu)
        );
    }
    let (nodes, _) = lists();
    let total: f64 = nodes
        .iter()
        .map(|n| empty(n.gpus as usize, n.cpu_milli))
        .sum();
    assert!((total - 866_232.55).abs() < 0.01, "{total}");
    assert!((100.0 * total / 6_212_000.0 - 13.9445).abs() < 1e-4);
    let free = [190, 530, 1000, 1000, 1000, 1000, 1000, 1000];
    let b = node_buckets(80940, &free, 0, &m);
    assert!((b[1] - 522.774).abs() < 1e-3 && (b[2] - 5283.459).abs() < 1e-3);
    assert!((b[4] - 913.768).abs() < 1e-3);
    let f0 = node_frag(80940, &free, 0, &m);
    assert!((f0 - 1436.541).abs() < 1e-3);
    assert_eq!(
        fgd_choice(&node(80940, &free), &pod(4000, 320, 1), f0, &m),
        (55, vec![1])
    );
}

#[test]
fn first_pod_fgd_scores_on_empty_nodes() {
    let m = default_m();
    let pods = [
        pod(3152, 810, 1),
        pod(11300, 1000, 1),
        pod(12500, 0, 0),
        pod(4000, 320, 1),
        pod(88000, 1000, 8),
    ];
    let rows: [((usize, i64), [i64; 5]); 7] = [
        ((8, 96000), [48, 53, 50, 40, 74]),
        ((8, 128000), [48, 53, 50, 40, 74]),
        ((2, 104000), [48, 53, 50, 40, -1]),
        ((2, 16000), [48, 41, 22, 40, -1]),
        ((1, 8000), [60, -1, -1, 49, -1]),
        ((2, 8000), [58, -1, -1, 46, -1]),
        ((4, 32000), [48, 52, 48, 40, -1]),
    ];
    for ((gpus, cpu), want) in rows {
        let n = node(cpu, &vec![1000; gpus]);
        let f0 = n.frag(&m);
        for (p, w) in pods.iter().zip(want) {
            let got = if n.feasible(p) {
                fgd_choice(&n, p, f0, &m).0
            } else {
                -1
            };
            assert_eq!(got, w, "node ({gpus}, {cpu}), pod {p:?}");
        }
    }
    let mut g2 = node(96000, &[1000; 8]);
    let p = pod(3152, 810, 1);
    let (s, gpu) = fgd_choice(&g2, &p, g2.frag(&m), &m);
    assert_eq!((s, gpu.clone()), (48, vec![0]));
    g2.bind(&p, &gpu);
    assert_eq!(fgd_choice(&g2, &p, g2.frag(&m), &m).1, vec![1]);
}

#[test]
fn packing_bestfit_dotprod_clustering_vectors() {
    let part = node(100000, &[200, 1000, 1000, 500]);
    assert_eq!(packing_score(&part, &pod(0, 1000, 2)), 48);
    assert_eq!(packing_score(&node(1, &[1000; 4]), &pod(0, 1000, 2)), 29);
    assert_eq!(packing_score(&node(1, &[1000; 8]), &pod(0, 1000, 2)), 25);
    assert_eq!(packing_score(&part, &pod(0, 200, 2)), 93);
    assert_eq!(
        packing_score(
            &node(1, &[190, 530, 1000, 1000, 1000, 1000, 1000, 1000]),
            &pod(0, 320, 1)
        ),
        95
    );
    let p = pod(11300, 1000, 1);
    let mut raw: Vec<i64> = [
        node(96000, &[1000; 8]),
        node(104000, &[1000; 2]),
        node(16000, &[1000; 2]),
    ]
    .iter()
    .map(|n| bestfit_raw(n, &p))
    .collect();
    assert_eq!(raw, [23, 57, 91]);
    normalize(&mut raw);
    assert_eq!(raw, [0, 50, 100]);
    assert_eq!(
        dotprod_score(&node(96000, &[1000; 8]), &pod(3152, 810, 1)),
        94
    );
    assert_eq!(
        dotprod_score(&node(96000, &[1000; 8]), &pod(12500, 0, 0)),
        96
    );
    let share = pod(1, 500, 1);
    assert_eq!(clustering_score(&node(1, &[1000; 8]), &share), 25);
    let mut shared = node(1, &[1000; 8]);
    shared.free = vec![0, 380, 1000, 1000, 1000, 1000, 1000, 1000];
    shared.tags = vec![(0, 3)];
    assert_eq!(clustering_score(&shared, &share), 80);
    assert_eq!(clustering_score(&node(1, &[1000; 2]), &pod(1, 1000, 1)), 43);
    assert_eq!(clustering_score(&node(1, &[1000; 2]), &pod(1, 0, 0)), 0);
}

/// A target workload written as (CPU, per-GPU milli, GPUs, model constraint, % of pods).
fn listed(
    types: &[(i64, i64, u32, &str, f64)],
    models: &[&str],
) -> Vec<smd_fgd::frag::CompiledType> {
    let m: Vec<TargetType> = types
        .iter()
        .map(|&(cpu, milli, num, spec, pct)| TargetType {
            task: TaskType {
                cpu_milli: cpu,
                gpu_milli: milli,
                num_gpu: num,
                gpu_spec: spec.into(),
            },
            count: 0,
            p: pct / 100.0,
        })
        .collect();
    compile(
        &m,
        &models.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    )
}

#[test]
fn the_reference_unit_tests_of_the_fragmentation_amount() {
    // The reference's own unit tests (TestNodeGpuShareFragAmountScore and
    // TestNodeGpuShareFragAmountWithNonGpu): their target workloads and expected amounts.
    let typical = listed(
        &[
            (6000, 465, 1, "", 9.33),
            (8000, 440, 1, "2080", 9.15),
            (8000, 475, 1, "T4", 8.76),
            (8000, 440, 1, "P100", 8.72),
            (2000, 465, 1, "", 8.68),
            (12000, 900, 1, "", 8.65),
            (4000, 900, 1, "", 8.43),
            (16000, 678, 1, "T4", 8.36),
            (8000, 500, 1, "", 8.29),
            (6000, 511, 1, "", 8.11),
            (14000, 1000, 2, "2080", 0.54),
            (4000, 1000, 1, "2080", 0.43),
            (32000, 1000, 2, "T4", 0.43),
            (16000, 1000, 1, "V100M16", 0.40),
            (64000, 1000, 2, "", 0.40),
            (10000, 1000, 2, "", 0.40),
            (11400, 1000, 1, "T4", 0.36),
            (16000, 1000, 1, "T4", 0.36),
            (4000, 1000, 2, "", 0.36),
            (14000, 1000, 2, "V100M16", 0.36),
            (8000, 1000, 4, "", 0.36),
            (16000, 1000, 2, "", 0.32),
            (2000, 1000, 1, "T4", 0.32),
            (6000, 1000, 1, "", 0.32),
            (4000, 1000, 1, "", 0.32),
            (5000, 1000, 1, "", 0.32),
            (32000, 1000, 4, "V100M16", 0.32),
            (32000, 1000, 2, "", 0.32),
            (24000, 1000, 8, "2080", 0.32),
            (40000, 1000, 4, "", 0.29),
            (32000, 1000, 8, "", 0.29),
            (32000, 1000, 1, "T4", 0.29),
            (16000, 1000, 1, "", 0.25),
            (7000, 1000, 1, "V100M16", 0.25),
            (24000, 1000, 1, "T4", 0.25),
        ],
        &["1080"],
    );
    let f = |cpu: i64, free: &[i64], m: &[smd_fgd::frag::CompiledType]| node_frag(cpu, free, 0, m);
    assert!((f(1000, &[200, 1000, 1000, 500], &typical) - 2566.62).abs() < 0.01);
    assert!((f(1000, &[1000; 4], &typical) - 3802.40).abs() < 0.01);
    assert!((f(1000, &[1000; 8], &typical) - 7604.80).abs() < 0.01);
    let one = listed(&[(6000, 465, 1, "", 9.33)], &["1080"]);
    assert!((f(1000, &[200, 1000, 1000, 500], &one) - 251.91).abs() < 0.01);
    let with_cpu = listed(
        &[
            (15700, 1000, 1, "", 28.69),
            (11900, 1000, 1, "", 18.93),
            (11400, 1000, 1, "", 12.27),
            (1000, 0, 0, "", 7.36),
            (18710, 1000, 1, "", 4.85),
            (8200, 1000, 1, "", 3.79),
            (16400, 1000, 1, "", 3.31),
            (9810, 1000, 1, "", 1.97),
            (15200, 1000, 1, "", 1.87),
            (11200, 1000, 1, "", 1.81),
            (14200, 1000, 1, "", 1.76),
            (12000, 0, 0, "", 1.65),
            (14900, 1000, 1, "", 1.39),
            (60200, 1000, 4, "", 1.23),
            (64200, 1000, 8, "", 1.07),
            (32200, 1000, 4, "", 1.01),
            (17400, 1000, 2, "", 0.91),
            (30200, 1000, 2, "", 0.69),
            (16000, 1000, 1, "", 0.64),
            (15000, 1000, 1, "", 0.59),
            (64000, 1000, 8, "", 0.53),
            (15000, 0, 0, "", 0.53),
            (11910, 1000, 1, "", 0.53),
            (120200, 1000, 8, "", 0.48),
            (11300, 1000, 1, "", 0.37),
            (30000, 1000, 2, "", 0.32),
            (9800, 1000, 1, "", 0.32),
            (8000, 1000, 1, "", 0.32),
            (2000, 1000, 1, "", 0.27),
            (2000, 80, 1, "", 0.27),
            (1000, 1000, 1, "", 0.27),
        ],
        &["P100"],
    );
    assert!((f(64000, &[1000; 8], &with_cpu) - 887.20).abs() < 0.01);
    assert!((f(32000, &[1000, 1000, 1000, 1000, 0, 0, 0, 0], &with_cpu) - 554.4).abs() < 0.01);
    assert!((f(0, &[1000, 1000, 1000, 1000, 0, 0, 0, 0], &with_cpu) - 4000.0).abs() < 0.01);
}

#[test]
fn runs_are_deterministic_per_seed_and_differ_across_seeds() {
    let (nodes, pods) = lists();
    let p = smd_fgd::Prepared::new(&nodes, &pods);
    let a = p
        .run(smd_fgd::Policy::Fgd, 42, 1.3, &mut |_, _| true)
        .unwrap();
    let b = p
        .run(smd_fgd::Policy::Fgd, 42, 1.3, &mut |_, _| true)
        .unwrap();
    assert_eq!(a, b);
    let c = p
        .run(smd_fgd::Policy::Fgd, 43, 1.3, &mut |_, _| true)
        .unwrap();
    assert_ne!(a.records, c.records);
    // The records: one per pod, arrival non-decreasing, allocation never above arrival.
    assert_eq!(a.records.len(), 8152 + 2714);
    assert!(a
        .records
        .windows(2)
        .all(|w| w[0].arrived_milli <= w[1].arrived_milli));
    assert!(a.records.iter().all(|r| r.used_milli <= r.arrived_milli));
    assert_eq!(a.failed, a.records.iter().filter(|r| !r.placed).count());
    assert_eq!(a.points.first().map(|q| q.x), Some(0));
    assert_eq!(a.points.last().map(|q| q.x), Some(130));
}

#[test]
fn cancelling_stops_a_run() {
    let (nodes, pods) = lists();
    let p = smd_fgd::Prepared::new(&nodes, &pods);
    let mut calls = 0;
    let r = p.run(smd_fgd::Policy::BestFit, 42, 1.3, &mut |done, total| {
        calls += 1;
        assert!(done <= total);
        done < 1000
    });
    assert_eq!(r, Err(smd_fgd::RunError::Cancelled));
    assert_eq!(calls, 5);
}

#[test]
fn tuning_down_removes_pods_until_the_target() {
    let (nodes, pods) = lists();
    let (a, _) = arrivals(&nodes, &pods, 42, 0.5).unwrap();
    assert!(a.removed > 0 && a.clones == 0);
    assert!(a.total_gpu_milli as f64 <= 0.5 * 6_212_000.0);
    assert_eq!(a.order.len(), 8152 - a.removed);
    // Bad targets and lists without GPUs are errors, not panics.
    assert!(arrivals(&nodes, &pods, 42, f64::NAN).is_err());
    assert!(arrivals(&nodes, &pods, 42, 0.0).is_err());
    let cpu_only: Vec<Pod> = pods.iter().filter(|p| p.num_gpu == 0).cloned().collect();
    assert!(arrivals(&nodes, &cpu_only, 42, 1.3).is_err());
}

/// The project's scores on hand-built nodes (docs/MODEL.md §26.11): `share_bestfit`
/// prefers the GPU a shared pod leaves least free, then the fuller node; a whole-GPU pod
/// the node it leaves fewest free GPUs; a CPU-only pod a node whose GPUs are all in use.
/// `fgd_bestfit` scores and places a shared pod at the tightest GPU, not FGD's.
#[test]
fn the_projects_scores_on_hand_built_nodes() {
    use smd_fgd::policy::{fgd_bestfit_choice, share_bestfit_score};
    let shared = pod(1000, 160, 1);
    let tight = node(64000, &[1000, 190, 1000]);
    let loose = node(64000, &[1000, 600, 1000]);
    assert!(share_bestfit_score(&tight, &shared) > share_bestfit_score(&loose, &shared));
    // Equal slices: the node with less free GPU in all.
    let fuller = node(64000, &[190, 0]);
    assert!(share_bestfit_score(&fuller, &shared) > share_bestfit_score(&tight, &shared));
    let whole = pod(1000, 1000, 1);
    let packed = node(64000, &[1000, 0, 0, 0]);
    let empty = node(64000, &[1000, 1000, 1000, 1000]);
    assert!(share_bestfit_score(&packed, &whole) > share_bestfit_score(&empty, &whole));
    let cpu = pod(8000, 0, 0);
    assert!(
        share_bestfit_score(&node(9000, &[0, 0]), &cpu)
            > share_bestfit_score(&node(96000, &[1000]), &cpu)
    );
    // fgd_bestfit: the GPU of best fit, GPU 1 (190 free), where FGD's own choice differs
    // or not — the GPU is the tightest either way, and the score is FGD's at that GPU.
    let m = compile(&[tt(4000, 500, 1, 1.0)], &["T4".into()]);
    let n = node(64000, &[1000, 190, 700]);
    let f0 = n.frag(&m);
    let (score, gpus) = fgd_bestfit_choice(&n, &shared, f0, &m);
    assert_eq!(gpus, vec![1]);
    let after = node(63000, &[1000, 30, 700]);
    assert_eq!(score, fgd_score(f0, after.frag(&m)));
}
