//! # smd-place — the placement stage
//!
//! After admission (docs/MODEL.md) every admitted job has w workers and p parameter servers
//! (PSs), each with its demand over the four resources. This crate puts each of those tasks
//! on one machine (CLUSTER.md §2) and reports what the placement implies for the job's
//! communication: its locality factor ρ and its cross-machine traffic X (CLUSTER.md §3,
//! docs/MODEL.md §14, computed by [`smd_core::locality`]).
//!
//! Five policies ([`Policy`]), specified in docs/PLACEMENT.md:
//! `first_fit` (locality-blind), `spread` (Kubernetes' least-allocated), `dltap` (seed 003's
//! aggregation degree), `locality` (seed 004's co-located or evenly spread configurations)
//! and `exact` (the least total X, proven by branch and bound, for small cases).
//!
//! ```
//! use smd_core::scenario::{Mode, Resources};
//! use smd_place::{place, Job, Machine, Options, Outcome, Policy};
//!
//! let node = Resources { gpu: 4.0, vcpu: 48.0, memory_gb: 192.0, storage_gb: 900.0 };
//! let machines: Vec<Machine> = (0..2).map(|i| Machine::new(format!("t4x4-{i}"), node)).collect();
//! let job = Job {
//!     id: "resnet".into(),
//!     mode: Mode::Sync,
//!     workers: 3,
//!     ps: 1,
//!     worker_demand: Resources { gpu: 1.0, vcpu: 4.0, memory_gb: 16.0, storage_gb: 10.0 },
//!     ps_demand: Resources { gpu: 0.0, vcpu: 4.0, memory_gb: 16.0, storage_gb: 10.0 },
//!     bandwidth_gbps: 10.0,
//!     gradient_gbit: 0.8,
//! };
//! let plan = place(&machines, &[job], Policy::Locality, &Options::default()).unwrap();
//! let Outcome::Placed(p) = &plan.jobs[0] else { panic!("it fits on one machine") };
//! assert_eq!(p.shares.len(), 1); // co-located: every task on one machine
//! assert_eq!(p.cross_traffic_gbit, 0.0);
//! assert_eq!(p.locality_factor, 0.0); // β = 0: no local rate given, local transfer is free
//! ```
//!
//! Every job is all or nothing: a job whose tasks do not all fit is [`Outcome::NotPlaced`]
//! with a reason that says what did not fit, and takes no capacity. Jobs are placed in the
//! order given (`exact` chooses freely, see [`Policy::Exact`]).
//!
//! Pure: no clock, file system or thread; builds for `wasm32-unknown-unknown`; never panics
//! on any input (invalid numbers are errors, oversized jobs are not placed).

#![warn(missing_docs)]

// Bottom-up: input, output, policy (what placement is asked and answers); cluster (machine
// loads), rho; reason, first_fit, colocate, greedy (the heuristics), assemble, exact;
// place (one placement); fallback; share (the GPU packing); totals; stage (the placement
// stage on a plan), shared (the GPU sharing stage on a placed plan); pipeline (admission,
// then the two stages, and global's comparison).
mod assemble;
mod cluster;
mod colocate;
mod exact;
pub mod fallback;
mod first_fit;
mod greedy;
mod input;
mod output;
mod pipeline;
mod place;
mod policy;
mod reason;
mod rho;
pub mod share;
mod shared;
mod stage;
mod totals;

pub use cluster::TOLERANCE;
pub use input::{Job, Machine, Options};
pub use output::{JobPlacement, Outcome, Placement, Share};
pub use pipeline::plan_placed;
pub use place::place;
pub use policy::{Policy, HEURISTICS};
pub use rho::locality_factor;
pub use share::{job_slowdown, worker_of};
pub use smd_core::sharing::{effective_scenario, effective_share, shareable, MIN_SHARE};
pub use stage::{machines_of, place_plan, placement_of};
