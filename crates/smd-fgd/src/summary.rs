//! What a page (or any caller without threads) shows of a study: every policy with every
//! seed run one after the other, each policy's mean and verdict, the bound; the distance
//! of a policy to the bound in GPUs; and for a map of one moment, the GPU models' names
//! and how many pods had arrived at a given x.

use crate::bound::{mean_bound, BoundPoint};
use crate::data::Node;
use crate::experiment::{Point, Prepared, Record, RunError};
use crate::policy::Policy;
use crate::published::parse_published;
use crate::study::{group_runs, verdict, Published, Verdict};

/// One policy's part of a study.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicySummary {
    /// The policy.
    pub policy: Policy,
    /// The mean over the seeds, per x.
    pub mean: Vec<Point>,
    /// How it compares with the published tables, when they apply and cover it.
    pub verdict: Option<Verdict>,
}

/// A study: each policy's mean and verdict, and the mean bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// One per policy, in the order asked.
    pub policies: Vec<PolicySummary>,
    /// The bound, mean over the seeds.
    pub bound: Vec<BoundPoint>,
    /// The cluster's GPUs.
    pub gpus: i64,
}

/// The published tables from their three texts (allocation, amount, ratio).
pub fn published_from(texts: [&str; 3]) -> Result<Published, crate::data::DataError> {
    Ok(Published {
        tables: [
            parse_published(texts[0])?,
            parse_published(texts[1])?,
            parse_published(texts[2])?,
        ],
    })
}

/// Every policy with every seed, one run after the other, then the bound.
/// `progress(run, done, total)` reports the pods placed of run `run` (policies × seeds in
/// order); returning `false` cancels.
pub fn summarize(
    prepared: &Prepared,
    policies: &[Policy],
    seeds: &[i64],
    target: f64,
    published: Option<&Published>,
    progress: &mut dyn FnMut(usize, usize, usize) -> bool,
) -> Result<Summary, RunError> {
    let mut runs = Vec::with_capacity(policies.len() * seeds.len());
    for &policy in policies {
        for &seed in seeds {
            let k = runs.len();
            let mut run = prepared.run(policy, seed, target, &mut |d, t| progress(k, d, t))?;
            // The pods' records are long and no part of what is shown.
            run.records = Vec::new();
            runs.push(run);
        }
    }
    let results = group_runs(policies, runs);
    let bound = mean_bound(prepared, seeds, target)?;
    Ok(Summary {
        policies: results
            .iter()
            .map(|r| PolicySummary {
                policy: r.policy,
                mean: r.mean.clone(),
                verdict: published.and_then(|p| verdict(r, p)),
            })
            .collect(),
        bound,
        gpus: prepared.gpus,
    })
}

/// How many GPUs a policy at `allocation_pct` leaves unallocated that an offline packing at
/// `bound_pct` might allocate, on a cluster of `gpus` GPUs; at least 0, since the tables
/// round an allocation to 2 decimals and may put it a hair above its bound.
pub fn distance_gpus(bound_pct: f64, allocation_pct: f64, gpus: i64) -> f64 {
    ((bound_pct - allocation_pct) / 100.0 * gpus as f64).max(0.0)
}

/// The GPU models of `nodes`, in the order [`crate::policy::NodeState::model`] numbers
/// them (first seen first).
pub fn model_names(nodes: &[Node]) -> Vec<String> {
    let mut models: Vec<String> = Vec::new();
    for n in nodes {
        if !models.contains(&n.model) {
            models.push(n.model.clone());
        }
    }
    models
}

/// How many pods of a run had arrived when the arrived workload first reached `x` % of
/// the cluster's `gpus`, exactly (all of them when it never did): the middle of the
/// tables' column x, whose records round to x.
pub fn pods_at(records: &[Record], gpus: i64, x: u32) -> usize {
    let milli = i64::from(x).saturating_mul(gpus.max(1)).saturating_mul(10);
    records
        .iter()
        .position(|r| r.arrived_milli >= milli)
        .map_or(records.len(), |k| k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{parse_nodes, parse_pods};

    const NODES: &str = "sn,cpu_milli,memory_mib,gpu,model\n\
        n1,32000,131072,2,V100M16\nn2,32000,131072,1,T4\nn3,32000,131072,1,V100M16\n";
    const PODS: &str = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n\
        p1,1000,1024,1,500,\np2,1000,1024,1,1000,\np3,1000,1024,0,0,\np4,1000,1024,1,250,\n";

    /// The models in the order the node states number them; the pods at an x.
    #[test]
    fn models_and_pods_at() {
        let nodes = parse_nodes(NODES).unwrap();
        assert_eq!(model_names(&nodes), ["V100M16", "T4"]);
        let pods = parse_pods(PODS).unwrap();
        let prepared = Prepared::new(&nodes, &pods);
        let (run, states) = prepared.state_after(Policy::Fgd, 42, 1.3, 2).unwrap();
        assert_eq!(run.records.len(), 2);
        assert_eq!(states.len(), 3);
        let full = prepared
            .run(Policy::Fgd, 42, 1.3, &mut |_, _| true)
            .unwrap();
        let k = pods_at(&full.records, prepared.gpus, 50);
        assert!(k >= 1 && k <= full.records.len());
        // The first pod with half the GPUs' worth arrived: none before it had.
        let half = prepared.gpus * 1000 / 2;
        assert!(full.records[k - 1].arrived_milli >= half);
        assert!(full.records[..k - 1].iter().all(|r| r.arrived_milli < half));
        assert_eq!(
            pods_at(&full.records, prepared.gpus, 100_000),
            full.records.len()
        );
        let s = summarize(
            &prepared,
            &[Policy::Fgd, Policy::Random],
            &[42, 43],
            1.3,
            None,
            &mut |_, _, _| true,
        )
        .unwrap();
        assert_eq!(s.policies.len(), 2);
        assert!(s
            .policies
            .iter()
            .all(|p| !p.mean.is_empty() && p.verdict.is_none()));
        assert!(!s.bound.is_empty());
        assert_eq!(distance_gpus(90.0, 80.0, 10), 1.0);
        // An allocation rounded a hair above its bound is no distance.
        assert_eq!(distance_gpus(80.0, 80.004, 6212), 0.0);
    }
}
