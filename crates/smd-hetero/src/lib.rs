//! # smd-hetero — clusters that mix GPU types, over time
//!
//! The Sia artifact's simulation loop (docs/MODEL.md §24): jobs of the measured
//! applications arrive, and each tick a heterogeneity-aware policy gives each job GPUs of
//! one type, at that type's measured speed. Policies:
//!
//! - [`milp`]: Sia's allocation problem — each job at most one configuration (a GPU type
//!   and a size), each type's GPUs a capacity — solved exactly, with a proof of optimality.
//! - [`gavel`]: Gavel with TunedJobs — fixed sizes and batches, an LP's time shares turned
//!   into work-conserving rounds on worker ids.
//!
//! Pure: no clock, file system or thread (a clock for decision times is injected); builds
//! for `wasm32-unknown-unknown`; deterministic.

#![warn(missing_docs)]

pub mod cluster;
pub mod engine;
pub mod gavel;
pub mod job;
pub mod milp;
pub mod sia;
