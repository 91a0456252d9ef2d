//! The page's side: spawns the worker, posts it requests, terminates and restarts it.
//!
//! The page talks to a plain dedicated `Worker` built by Trunk (`data-type="worker"` with a
//! loader shim) with JSON messages. gloo-worker's bridge was not used because it can
//! neither terminate a worker that is busy solving (cancel) nor report that it died.
//! Tests, where the runner serves no worker script, use `SolverMode::InThread` (feature
//! `in-thread`, which only the tests enable): the same `handle` runs on the page's thread
//! and its replies take the same path. Without the feature the page's wasm holds no
//! solver at all — it only lives in the worker's (docs/BENCHMARKS.md, the page's size).

use super::protocol::{Reply, Request};
#[cfg(feature = "in-thread")]
use super::worker::handle;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Where the solver runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverMode {
    /// In a Web Worker loaded from this script URL (relative to the page).
    Worker(String),
    /// On the page's thread (tests).
    #[cfg(feature = "in-thread")]
    InThread,
}

/// The script Trunk emits for the worker binary (relative, so `dist/` works from any path).
pub const WORKER_URL: &str = "./smd-worker_loader.js";

type ReplyFn = Rc<dyn Fn(Reply)>;
type DeathFn = Rc<dyn Fn(String)>;

/// The page's handle on the solver.
pub struct Solver {
    mode: SolverMode,
    on_reply: ReplyFn,
    on_death: DeathFn,
    worker: Option<web_sys::Worker>,
    /// Requests sent before the worker said [`Reply::Ready`]: a message that arrives while
    /// the worker's wasm is still loading would find no listener and be lost.
    pending: Rc<RefCell<Option<Vec<String>>>>,
    _handlers: Vec<Closure<dyn FnMut(JsValue)>>,
    /// In-thread runs are cancelled by bumping this.
    generation: Rc<RefCell<u64>>,
}

impl Solver {
    /// Starts the solver; replies and deaths are reported through the callbacks.
    pub fn new(mode: SolverMode, on_reply: ReplyFn, on_death: DeathFn) -> Solver {
        let mut s = Solver {
            mode,
            on_reply,
            on_death,
            worker: None,
            pending: Rc::new(RefCell::new(Some(Vec::new()))),
            _handlers: Vec::new(),
            generation: Rc::new(RefCell::new(0)),
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let url = match &self.mode {
            SolverMode::Worker(url) => url.clone(),
            #[cfg(feature = "in-thread")]
            SolverMode::InThread => {
                let on_reply = self.on_reply.clone();
                wasm_bindgen_futures::spawn_local(async move { on_reply(Reply::Ready) });
                return;
            }
        };
        let url = url.as_str();
        let worker = match web_sys::Worker::new(url) {
            Ok(w) => w,
            Err(e) => {
                let on_death = self.on_death.clone();
                let msg = format!("could not start the solver worker ({url}): {e:?}");
                wasm_bindgen_futures::spawn_local(async move { on_death(msg) });
                return;
            }
        };
        let on_reply = self.on_reply.clone();
        *self.pending.borrow_mut() = Some(Vec::new());
        let pending = self.pending.clone();
        let ready_worker = worker.clone();
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            let Ok(e) = e.dyn_into::<web_sys::MessageEvent>() else {
                return;
            };
            let text = e.data().as_string().unwrap_or_default();
            if let Ok(reply) = serde_json::from_str::<Reply>(&text) {
                if matches!(reply, Reply::Ready) {
                    let queued = pending.borrow_mut().take().unwrap_or_default();
                    for msg in queued {
                        let _ = ready_worker.post_message(&JsValue::from_str(&msg));
                    }
                }
                on_reply(reply);
            }
        });
        let on_death = self.on_death.clone();
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            let msg = e
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "the worker script failed to load or crashed".into());
            on_death(msg);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self._handlers = vec![on_message, on_error];
        self.worker = Some(worker);
    }

    /// Sends a request.
    pub fn send(&self, req: Request) {
        match &self.worker {
            Some(w) => {
                let text = serde_json::to_string(&req).expect("requests serialise");
                if let Some(queue) = self.pending.borrow_mut().as_mut() {
                    queue.push(text);
                    return;
                }
                if let Err(e) = w.post_message(&JsValue::from_str(&text)) {
                    (self.on_death)(format!("could not reach the solver worker: {e:?}"));
                }
            }
            #[cfg(feature = "in-thread")]
            None if self.mode == SolverMode::InThread => {
                let on_reply = self.on_reply.clone();
                let generation = self.generation.clone();
                let mine = *generation.borrow();
                wasm_bindgen_futures::spawn_local(async move {
                    // Let the page render first, as it would with a worker.
                    yew::platform::time::sleep(std::time::Duration::ZERO).await;
                    if *generation.borrow() == mine {
                        handle(req, &mut |r| on_reply(r));
                    }
                });
            }
            None => (self.on_death)("the solver worker is not running".into()),
        }
    }

    /// Stops whatever the solver is doing (terminates the worker) and starts a fresh one.
    pub fn restart(&mut self) {
        *self.generation.borrow_mut() += 1;
        if let Some(w) = self.worker.take() {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
        self._handlers.clear();
        self.spawn();
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
    }
}
