//! # smd-fgd — GPU sharing in a production cluster
//!
//! A re-implementation of the trace experiment of "Beware of Fragmentation: Scheduling
//! GPU-Sharing Workloads with Fragmentation Gradient Descent" (Weng et al., USENIX ATC
//! 2023) on Alibaba's openb trace (docs/MODEL.md §26): pods that ask for whole GPUs or a
//! share of one arrive one at a time, in a seeded random order, and never leave; one of six
//! node-scoring policies places each on a cluster of 1213 GPU nodes; after every pod the
//! run records the GPU allocation and the cluster's fragmentation against the target
//! workload. Seeded exactly as the reference (Go's `math/rand`, [`gorand`]), so its
//! published per-seed tables can be compared cell by cell.
//!
//! Pure: no clock, file system or thread; the lists are parsed from text handed in; builds
//! for `wasm32-unknown-unknown`; deterministic.

#![warn(missing_docs)]

pub mod bound;
pub mod data;
pub mod experiment;
pub mod frag;
pub mod gorand;
pub mod gorand_table;
pub mod policy;
pub mod published;
pub mod study;
pub mod summary;
pub mod workload;

pub use data::{parse_nodes, parse_pods, DataError, Node, Pod};
pub use experiment::{mean_points, Experiment, Point, Prepared, Record, RunError};
pub use policy::Policy;

/// One run: `policy` on `nodes` and `pods` with `seed`, the workload tuned to `target` ×
/// the cluster's GPU capacity. For several runs on the same lists, build a [`Prepared`]
/// once and call [`Prepared::run`].
pub fn run(
    nodes: &[Node],
    pods: &[Pod],
    policy: Policy,
    seed: i64,
    target: f64,
) -> Result<Experiment, RunError> {
    Prepared::new(nodes, pods).run(policy, seed, target, &mut |_, _| true)
}
