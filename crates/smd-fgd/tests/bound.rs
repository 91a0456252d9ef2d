//! The bound (docs/MODEL.md §26.10) against the runs: never below any policy's allocation
//! at any column, never above the arrived GPU or the capacity, and tighter than both where
//! the cluster's classes bind.

use smd_fgd::bound::{bound, mean_bound};
use smd_fgd::study::bundled;
use smd_fgd::{parse_nodes, parse_pods, Policy, Prepared};

fn prepared() -> Prepared {
    let nodes = parse_nodes(bundled::NODES).unwrap();
    let pods = parse_pods(bundled::PODS).unwrap();
    Prepared::new(&nodes, &pods)
}

#[test]
fn no_policy_allocates_more_than_the_bound() {
    let p = prepared();
    for seed in [42, 47] {
        let b = bound(&p, seed, bundled::TARGET).unwrap();
        assert_eq!(b.len(), 131, "a point per column");
        for policy in Policy::ALL {
            let run = p
                .run(policy, seed, bundled::TARGET, &mut |_, _| true)
                .unwrap();
            for pt in &run.points {
                let at = b.iter().find(|q| q.x == pt.x).unwrap();
                // The table's allocation is a mean of records rounded to 2 decimals, then
                // rounded again: up to 0.01 above the exact mean.
                assert!(
                    pt.allocation_pct <= at.allocation_pct + 0.01 + 1e-9,
                    "{policy:?} seed {seed} x {}: {} > bound {}",
                    pt.x,
                    pt.allocation_pct,
                    at.allocation_pct
                );
            }
        }
        // Never above the capacity, nor the arrived GPU (within the column's width).
        for q in &b {
            assert!(q.allocation_pct <= 100.0 + 1e-9);
            assert!(
                q.allocation_pct <= q.x as f64 + 1.5,
                "x {}: {}",
                q.x,
                q.allocation_pct
            );
        }
    }
}

/// Where a class' CPU binds, the bound is the LP's, below both the arrived GPU and the
/// capacity: two 4-GPU nodes of 10 cores, eight one-GPU pods of 5 cores — at most two
/// pods per node, 4 of the 8 GPUs.
#[test]
fn a_binding_cpu_lowers_the_bound_to_what_fits() {
    let nodes = parse_nodes(
        "sn,cpu_milli,memory_mib,gpu,model\nn0,10000,65536,4,T4\nn1,10000,65536,4,T4\n",
    )
    .unwrap();
    let mut pods = String::from("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n");
    for i in 0..8 {
        pods.push_str(&format!("p{i},5000,1024,1,1000,\n"));
    }
    let pods = parse_pods(&pods).unwrap();
    let p = Prepared::new(&nodes, &pods);
    let b = bound(&p, 1, 1.0).unwrap();
    let end = b.last().unwrap();
    assert_eq!(end.x, 100);
    assert!(
        (end.allocation_pct - 50.0).abs() < 1e-6,
        "{}",
        end.allocation_pct
    );
    for policy in Policy::ALL {
        let run = p.run(policy, 1, 1.0, &mut |_, _| true).unwrap();
        assert_eq!(
            run.points.last().unwrap().allocation_pct,
            50.0,
            "{policy:?}"
        );
    }
}

#[test]
fn the_mean_bound_is_the_mean_of_the_seeds() {
    let p = prepared();
    let a = bound(&p, 42, 1.3).unwrap();
    let b = bound(&p, 43, 1.3).unwrap();
    let m = mean_bound(&p, &[42, 43], 1.3).unwrap();
    for q in &m {
        let (x, y) = (
            a.iter().find(|r| r.x == q.x).unwrap().allocation_pct,
            b.iter().find(|r| r.x == q.x).unwrap().allocation_pct,
        );
        assert!((q.allocation_pct - (x + y) / 2.0).abs() < 1e-9);
    }
}

/// A moment of a run: the nodes after the first k pods hold exactly the GPU the k-th
/// record says is allocated, and the run so far is the full run's first k records.
#[test]
fn the_state_after_k_pods_is_the_records() {
    let p = prepared();
    let full = p.run(Policy::Fgd, 42, 1.3, &mut |_, _| true).unwrap();
    for k in [1, 5000, full.records.len(), full.records.len() + 10] {
        let (part, nodes) = p.state_after(Policy::Fgd, 42, 1.3, k).unwrap();
        let k = k.min(full.records.len());
        assert_eq!(part.records, full.records[..k]);
        let used: i64 = nodes
            .iter()
            .map(|n| n.free.len() as i64 * 1000 - n.free_total())
            .sum();
        assert_eq!(used, full.records[k - 1].used_milli);
    }
}
