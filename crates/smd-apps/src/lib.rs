//! # smd-apps — real applications for the SMD planner
//!
//! Turns the measurements of the Pollux artifact (Qiao et al., OSDI 2021; its workloads are
//! sampled from Microsoft's Philly trace, Jeon et al., ATC 2019), bundled in `data/pollux/`,
//! into what the planner reads:
//!
//! - [`app`]: the six applications and their measured facts;
//! - [`preset`]: a job of docs/MODEL.md §1 from an application and a global batch;
//! - [`machines`]: a catalog of real machine types;
//! - [`trace`]: arrival traces read into scenarios (the bundled workloads included);
//! - [`calibrate`]: the speed model against every measured placement, with a fit of its
//!   free parameters ([`calibrated`] holds the fitted values the presets use);
//! - [`gpu`]: a preset worker's estimated GPU memory profile and compute intensity (GPU
//!   sharing);
//! - [`measured`]: jobs as they were measured (data-parallel all-reduce, docs/MODEL.md
//!   §21): step and sync times of a placement, batch splits, gradient statistics, epoch
//!   targets and the time to the target, from the artifact's files;
//! - [`csv`]: the project's one CSV reader.
//!
//! ```
//! use smd_apps::{app::App, preset::{preset, PresetOptions}};
//! let job = preset(App::Bert, &PresetOptions::batch(384.0)).unwrap();
//! assert_eq!(job.iterations, 480.0); // measured at K = 384
//! ```
//!
//! Pure: no clock, file system or thread; builds for `wasm32-unknown-unknown`.

#![warn(missing_docs)]

pub use smd_measured::{app, csv, measured};
pub mod calibrate;
pub mod calibrated;

pub mod gpu;
pub mod machines;
pub mod preset;
pub mod trace;
