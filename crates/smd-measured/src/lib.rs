//! # smd-measured — the applications as they were measured
//!
//! The Pollux artifact's measurements (Qiao et al., OSDI 2021; `data/pollux/`, see its
//! README for origin and licence) of six deep-learning applications trained data-parallel
//! with ring all-reduce, and the job model read off them (docs/MODEL.md §21):
//!
//! - [`app`]: the six applications and their measured facts;
//! - [`measured`]: step and sync times of a placement, batch splits, gradient statistics,
//!   epoch targets and the time to the target; [`measured::fit`], the seven-parameter
//!   throughput model fitted per application;
//! - [`files`]: the artifact's files, embedded once;
//! - [`csv`]: the project's one CSV reader;
//! - [`memo`]: the bounded memo of a pure function its callers share.
//!
//! It sits beneath the solver (`smd-core` plans measured jobs with it) and depends on no
//! other crate of the workspace but `smd-format` (its messages' numbers). Pure: no clock, file system or thread; builds for
//! `wasm32-unknown-unknown`.

#![warn(missing_docs)]

pub mod app;
pub mod csv;
pub mod files;
pub mod gpu;
pub mod measured;
pub mod memo;
