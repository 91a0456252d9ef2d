//! The page's side: spawns the worker, posts it requests, terminates and restarts it.
//!
//! The page talks to a plain dedicated module `Worker` (web/solver-worker.js) with JSON
//! messages. The worker runs the page's own wasm: its first message is the page's JS glue
//! URL and the `WebAssembly.Module` the page already compiled, so a worker costs neither a
//! download nor a compile (docs/BENCHMARKS.md, "One module"). gloo-worker's bridge was not
//! used because it can neither terminate a worker that is busy solving (cancel) nor report
//! that it died. Tests, where the runner serves no worker script, use
//! `SolverMode::InThread`: the same `handle` runs on the page's thread and its replies take
//! the same path.

use super::protocol::{Reply, Request};
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
    InThread,
}

/// The worker's script, copied by Trunk (relative, so `dist/` works from any path).
pub const WORKER_URL: &str = "./solver-worker.js";

type ReplyFn = Rc<dyn Fn(Reply)>;
type DeathFn = Rc<dyn Fn(String)>;

/// The page's handle on the solver.
pub struct Solver {
    mode: SolverMode,
    on_reply: ReplyFn,
    on_death: DeathFn,
    worker: Option<web_sys::Worker>,
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
            _handlers: Vec::new(),
            generation: Rc::new(RefCell::new(0)),
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let url = match &self.mode {
            SolverMode::Worker(url) => url.clone(),
            SolverMode::InThread => {
                let on_reply = self.on_reply.clone();
                wasm_bindgen_futures::spawn_local(async move { on_reply(Reply::Ready) });
                return;
            }
        };
        let url = url.as_str();
        let worker = match start_worker(url) {
            Ok(w) => w,
            Err(msg) => {
                let on_death = self.on_death.clone();
                wasm_bindgen_futures::spawn_local(async move { on_death(msg) });
                return;
            }
        };
        let on_reply = self.on_reply.clone();
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            let Ok(e) = e.dyn_into::<web_sys::MessageEvent>() else {
                return;
            };
            let text = e.data().as_string().unwrap_or_default();
            if let Ok(reply) = serde_json::from_str::<Reply>(&text) {
                if matches!(reply, Reply::Ready) {
                    super::mark("smd-worker-ready");
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
                // Posted at once, even while the worker's wasm loads: its script holds
                // requests until the solver listens (web/solver-worker.js).
                let text = serde_json::to_string(&req).expect("requests serialise");
                if let Err(e) = w.post_message(&JsValue::from_str(&text)) {
                    (self.on_death)(format!("could not reach the solver worker: {e:?}"));
                }
            }
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

/// A module worker from `url`, sent this module and its glue (web/solver-worker.js).
fn start_worker(url: &str) -> Result<web_sys::Worker, String> {
    let fail = |e: JsValue| format!("could not start the solver worker ({url}): {e:?}");
    let glue = glue_url().ok_or_else(|| {
        format!("could not start the solver worker ({url}): the page names no module script")
    })?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(url, &options).map_err(fail)?;
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"glue".into(), &glue.into()).map_err(fail)?;
    js_sys::Reflect::set(&init, &"module".into(), &wasm_bindgen::module()).map_err(fail)?;
    worker.post_message(&init).map_err(fail)?;
    super::mark("smd-worker-spawned");
    Ok(worker)
}

/// The absolute URL of the page's JS glue: Trunk preloads it with
/// `<link rel="modulepreload">` in the built `index.html`.
fn glue_url() -> Option<String> {
    let link = web_sys::window()?
        .document()?
        .query_selector("link[rel=modulepreload][href$='.js']")
        .ok()??;
    link.dyn_into::<web_sys::HtmlLinkElement>()
        .ok()
        .map(|l| l.href())
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
    }
}
