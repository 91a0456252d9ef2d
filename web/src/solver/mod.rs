//! The solver, off the page's thread:
//!
//! - [`protocol`]: the messages between page and worker — one [`Task`] type for every kind
//!   of work, and the [`Event`]s a task reports under its id;
//! - [`worker`]: what runs in the worker, a request dispatched to `smd_core` (and
//!   `smd_reproduce`);
//! - [`page`]: the page's handle that spawns the worker, feeds it, cancels (terminates) and
//!   restarts it;
//! - [`pool`]: several such workers for independent tasks (a capacity sweep's sizes).

pub mod page;
pub mod pool;
pub mod protocol;
pub mod worker;

pub use page::{Handler, Solver, SolverMode, WORKER_URL};
pub use protocol::{
    page_policies, ClaimLine, Event, Experiment, FgdMap, FgdOutput, FgdPolicy, FgdTask, Output,
    Partial, Reply, Request, Task,
};
pub use worker::{handle, worker_main};

/// A `performance.mark` named `name` on the page's timeline (the load benchmark reads the
/// first of each: `scripts/page.mjs bench`).
pub fn mark(name: &str) {
    // Natively (the page rendered at build time) there is no timeline.
    #[cfg(not(target_arch = "wasm32"))]
    let _ = name;
    #[cfg(target_arch = "wasm32")]
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Milliseconds from the page's (or worker's) `performance` clock.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::{JsCast, JsValue};
        let global = js_sys::global();
        js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
            .ok()
            .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
            .map(|p| p.now())
            .unwrap_or_else(js_sys::Date::now)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::time::{SystemTime, UNIX_EPOCH};
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0)
    }
}
