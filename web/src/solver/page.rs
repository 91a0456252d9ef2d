//! The page's side: spawns the worker, posts it requests, terminates and restarts it.
//!
//! The page talks to a plain dedicated module `Worker` (web/solver-worker.js) with JSON
//! messages. The worker runs the solver's own module (the `smd-solver` binary), which the
//! page never loads itself: the page fetches and compiles it once, after its first render,
//! and posts every worker that compiled `WebAssembly.Module` with the URL of its JS glue, so
//! a worker costs neither a download nor a compile (docs/BENCHMARKS.md, "Two modules").
//! gloo-worker's bridge was not used because it can neither terminate a worker that is busy
//! solving (cancel) nor report that it died. Tests, where the runner serves no worker
//! script, use `SolverMode::InThread` with the worker's `handle`: it runs on the page's
//! thread and its replies take the same path. The page's own code never names `handle`, so
//! the solver is not linked into the page's module.

use super::protocol::{Reply, Request};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Where the solver runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverMode {
    /// In a Web Worker loaded from this script URL (relative to the page).
    Worker(String),
    /// On the page's thread, by this handler (tests and the build-time render pass
    /// `solver::handle`).
    InThread(Handler),
}

/// What answers a request on the page's thread ([`SolverMode::InThread`]).
#[derive(Clone, Copy)]
pub struct Handler(pub fn(Request, &mut dyn FnMut(Reply)));

impl PartialEq for Handler {
    fn eq(&self, other: &Handler) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl Eq for Handler {}

impl std::fmt::Debug for Handler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Handler")
    }
}

/// The worker's script, copied by Trunk (relative, so `dist/` works from any path).
pub const WORKER_URL: &str = "./solver-worker.js";

/// Where the solver's module and its JS glue are, without the endings `.js` and `_bg.wasm`:
/// Trunk builds them from the `smd-solver` binary (index.html) and the build renames them
/// after their contents, writing the name in `<meta name="smd-solver">`
/// (web/solver-stamp.mjs). Only the workers need them; this is the name before renaming.
pub const SOLVER: &str = "./smd-solver";

/// The solver's files' address without its endings: the page's `<meta name="smd-solver">`,
/// else [`SOLVER`].
fn solver_base() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=smd-solver]").ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| SOLVER.to_owned())
}

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
            SolverMode::InThread(_) => {
                let on_reply = self.on_reply.clone();
                wasm_bindgen_futures::spawn_local(async move { on_reply(Reply::Ready) });
                return;
            }
        };
        let url = url.as_str();
        let worker = match start_worker(url, self.on_death.clone()) {
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
        match (&self.worker, &self.mode) {
            (Some(w), _) => {
                // Posted at once, even while the worker's wasm loads: its script holds
                // requests until the solver listens (web/solver-worker.js).
                let text = serde_json::to_string(&req).expect("requests serialise");
                if let Err(e) = w.post_message(&JsValue::from_str(&text)) {
                    (self.on_death)(format!("could not reach the solver worker: {e:?}"));
                }
            }
            (None, SolverMode::InThread(Handler(handle))) => {
                let handle = *handle;
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
            (None, SolverMode::Worker(_)) => {
                (self.on_death)("the solver worker is not running".into())
            }
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

/// A module worker from `url`, sent the solver's module and its glue
/// (web/solver-worker.js) once the page has compiled it ([`solver_module`]). Requests posted
/// before then wait in the worker's script.
fn start_worker(url: &str, on_death: DeathFn) -> Result<web_sys::Worker, String> {
    let fail = move |e: JsValue| format!("could not start the solver worker ({url}): {e:?}");
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(url, &options).map_err(&fail)?;
    let base = solver_base();
    let glue = absolute(&format!("{base}.js")).map_err(&fail)?;
    let module = solver_module(&base);
    let posted = worker.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let sent = async {
            let module = wasm_bindgen_futures::JsFuture::from(module).await?;
            let init = js_sys::Object::new();
            js_sys::Reflect::set(&init, &"glue".into(), &glue.into())?;
            js_sys::Reflect::set(&init, &"module".into(), &module)?;
            posted.post_message(&init)
        };
        if let Err(e) = sent.await {
            on_death(format!("the solver could not start: {}", describe(&e)));
        }
    });
    super::mark("smd-worker-spawned");
    Ok(worker)
}

thread_local! {
    /// The solver's module, compiled once for every worker of the page.
    static MODULE: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
}

/// The solver's `WebAssembly.Module` (`{base}_bg.wasm`): fetched and compiled while it
/// downloads (`WebAssembly.compileStreaming`) on the first call; later calls share it. A
/// failed fetch or compile is tried again on the next call (a restarted worker).
fn solver_module(base: &str) -> js_sys::Promise {
    use wasm_bindgen_futures::JsFuture;
    MODULE.with(|m| {
        let mut m = m.borrow_mut();
        if let Some(p) = m.as_ref() {
            return p.clone();
        }
        let url = format!("{base}_bg.wasm");
        let p = wasm_bindgen_futures::future_to_promise(async move {
            let compiled = async {
                let window = web_sys::window().ok_or("no window to fetch the solver from")?;
                let r: web_sys::Response = JsFuture::from(window.fetch_with_str(&url))
                    .await?
                    .dyn_into()?;
                if !r.ok() {
                    let why = format!("{} {} for {}", r.status(), r.status_text(), r.url());
                    return Err(JsValue::from(why));
                }
                let r = js_sys::Promise::resolve(&JsValue::from(r));
                JsFuture::from(js_sys::WebAssembly::compile_streaming(&r)).await
            };
            let compiled = compiled.await;
            if compiled.is_err() {
                MODULE.with(|m| *m.borrow_mut() = None);
            }
            compiled
        });
        *m = Some(p.clone());
        p
    })
}

/// `rel` resolved against the page's address (the worker's script lives elsewhere).
fn absolute(rel: &str) -> Result<String, JsValue> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or_else(|| JsValue::from_str("the page has no address"))?;
    Ok(web_sys::Url::new_with_base(rel, &base)?.href())
}

/// A rejection's message, for the page's error.
fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| e.message().into()))
        .unwrap_or_else(|| format!("{e:?}"))
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
    }
}
