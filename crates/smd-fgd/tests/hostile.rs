//! Hostile and odd inputs: the readers and the runs never panic, and small random clusters
//! keep the run's invariants.

use smd_fgd::published::parse_published;
use smd_fgd::{parse_nodes, parse_pods, Policy, Prepared};

/// A small deterministic generator (PCG-like), so the cases are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const PIECES: [&str; 24] = [
    "sn",
    "name",
    "cpu_milli",
    "memory_mib",
    "gpu",
    "num_gpu",
    "gpu_milli",
    "gpu_spec",
    "model",
    ",",
    ",",
    "\n",
    "\r\n",
    "\"",
    "1000",
    "-3",
    "NaN",
    "1e400",
    "99999999999999999999",
    "T4|",
    "|",
    "0",
    "8",
    "x",
];

#[test]
fn garbage_never_panics() {
    let mut r = Lcg(7);
    for _ in 0..3000 {
        let mut text = String::new();
        if r.below(2) == 0 {
            text.push_str("sn,cpu_milli,memory_mib,gpu,model\n");
        } else {
            text.push_str("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n");
        }
        for _ in 0..r.below(40) {
            text.push_str(PIECES[r.below(PIECES.len() as u64) as usize]);
        }
        let _ = parse_nodes(&text);
        let _ = parse_pods(&text);
        let _ = parse_published(&text);
    }
}

#[test]
fn random_small_clusters_keep_the_invariants() {
    let mut r = Lcg(11);
    for case in 0..40 {
        let mut nodes = String::from("sn,cpu_milli,memory_mib,gpu,model\n");
        for i in 0..1 + r.below(12) {
            let model = ["T4", "G2", "P100", ""][r.below(4) as usize];
            let gpus = [0, 1, 2, 4, 8][r.below(5) as usize];
            nodes += &format!(
                "n{i},{},{},{gpus},{model}\n",
                1000 * (1 + r.below(96)),
                1024 * (1 + r.below(64))
            );
        }
        let mut pods = String::from("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n");
        for i in 0..1 + r.below(60) {
            let num = [0, 1, 1, 1, 2, 4, 8][r.below(7) as usize];
            let milli = if num == 1 {
                50 * (1 + r.below(20))
            } else {
                1000
            };
            let spec = ["", "", "T4", "G2|P100", "V100M32"][r.below(5) as usize];
            pods += &format!(
                "p{i},{},{},{num},{milli},{spec}\n",
                500 * r.below(40),
                512 * r.below(8)
            );
        }
        let (nodes, pods) = (parse_nodes(&nodes).unwrap(), parse_pods(&pods).unwrap());
        let prepared = Prepared::new(&nodes, &pods);
        let capacity: i64 = nodes.iter().map(|n| n.gpus as i64 * 1000).sum();
        for policy in Policy::ALL {
            let target = [0.3, 1.0, 1.3][case % 3];
            match prepared.run(policy, case as i64, target, &mut |_, _| true) {
                Ok(run) => {
                    for rec in &run.records {
                        assert!(rec.used_milli >= 0 && rec.used_milli <= capacity);
                        assert!(rec.frag_ratio_pct >= 0.0 && rec.frag_ratio_pct <= 100.0 + 1e-9);
                        assert!(rec.frag_milli >= 0.0);
                    }
                    assert!(run.points.iter().all(|p| p.allocation_pct.is_finite()));
                }
                // Lists without GPU requests or clusters without GPUs are errors.
                Err(e) => assert!(matches!(e, smd_fgd::RunError::Workload(_)), "{e}"),
            }
        }
    }
}
