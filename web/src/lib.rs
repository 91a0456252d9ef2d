//! # smd-web — the SMD planner in the browser
//!
//! A Yew page over `smd_core`: edit a cluster, the solver's parameters and the jobs; the
//! page validates every field, solves in a Web Worker (every policy, `global` within a time
//! budget, with progress and cancel), and shows the comparison with the recommended plan,
//! the selected policy's plan, the objective landscape and the layer schedule of a job. Built with Trunk (see the repository's README).
//!
//! - [`state`]: the one `Reducible` state (a part per concern) and its named actions;
//! - [`components`]: the page, a tab per view, one component per panel, and the hooks
//!   that run the side effects;
//! - [`solver`]: the worker protocol, the worker's side and the page's handle on it;
//! - [`route`]: the address (`#s=…&view=…`);
//! - [`fields`], [`codec`], [`defaults`]: text ↔ values, links, CSV, drafts;
//! - [`export`]: what each result view exports, as CSV and JSON;
//! - [`first_plan`]: the default scenario's plans, solved when the page was built.

pub mod check;
pub mod codec;
pub mod components;
pub mod defaults;
pub mod export;
pub mod fields;
pub mod first_plan;
pub mod route;
pub mod solver;
pub mod state;

pub use components::app::{App, AppProps};

/// Mounts the page on `<body>`. Over a prerendered first plan ([`first_plan`]) it waits for
/// the next frame, so that the browser paints the plan before the mount holds the thread.
pub fn start() {
    solver::mark("smd-page-start");
    let mount = || {
        yew::Renderer::<App>::with_props(AppProps::default_page()).render();
    };
    match first_plan::after_paint(mount) {
        Ok(()) => {}
        Err(mount) => mount(),
    }
}
