//! The solver, off the page's thread: the messages between page and worker, the worker's
//! side, and the page's handle that spawns, feeds, cancels (terminates) and restarts it.
//!
//! The page talks to a plain dedicated `Worker` built by Trunk (`data-type="worker"` with a
//! loader shim) with JSON messages. gloo-worker's bridge was not used because it can
//! neither terminate a worker that is busy solving (cancel) nor report that it died.
//! Tests, where the runner serves no worker script, use [`SolverMode::InThread`]: the same
//! [`handle`] runs on the page's thread and its replies take the same path.

use serde::{Deserialize, Serialize};
use smd_core::{Plan, Policy, Scenario};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Page → worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    /// Plan `scenario` with every policy.
    Solve {
        /// The page's run id; every reply carries it.
        run: u64,
        /// A valid scenario.
        scenario: Scenario,
    },
    /// The objective landscape of job `job`.
    Landscape {
        /// Request id.
        run: u64,
        /// A valid scenario.
        scenario: Scenario,
        /// Job index.
        job: usize,
        /// Samples per axis.
        resolution: usize,
        /// Plans whose points to mark.
        plans: Vec<Plan>,
    },
    /// Run the paper-reproduction experiments (`smd_reproduce`).
    Reproduce {
        /// Run id.
        run: u64,
        /// The quick scale (else the full one).
        quick: bool,
    },
}

/// One reproduced experiment, as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    /// File stem (`e1-utility-vs-units`, …).
    pub id: String,
    /// Title.
    pub title: String,
    /// The paper's claim.
    pub claim: String,
    /// What was measured, one sentence each.
    pub findings: Vec<String>,
    /// The table, as CSV.
    pub csv: String,
    /// The figure, a standalone SVG document.
    pub svg: String,
    /// Failed invariant checks (empty when all hold).
    pub failures: Vec<String>,
}

impl From<&smd_reproduce::Outcome> for Experiment {
    fn from(o: &smd_reproduce::Outcome) -> Experiment {
        Experiment {
            id: o.id.into(),
            title: o.title.into(),
            claim: o.claim.into(),
            findings: o.findings.clone(),
            csv: o.table.to_csv(),
            svg: o.svg.clone(),
            failures: o.violations.clone(),
        }
    }
}

/// Worker → page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has loaded and listens.
    Ready,
    /// A policy finished another job's allocation.
    Progress {
        /// Run id.
        run: u64,
        /// Index of the policy in [`Policy::ALL`].
        policy: usize,
        /// Jobs done for this policy.
        done: usize,
        /// Jobs in the scenario.
        total: usize,
    },
    /// One policy's plan.
    Planned {
        /// Run id.
        run: u64,
        /// The plan.
        plan: Box<Plan>,
    },
    /// One policy failed (the others still run).
    PolicyFailed {
        /// Run id.
        run: u64,
        /// Policy name.
        policy: String,
        /// What went wrong.
        message: String,
    },
    /// Every policy is done.
    Solved {
        /// Run id.
        run: u64,
        /// Wall time of the whole run, ms.
        ms: f64,
    },
    /// A landscape, as JSON (`smd_core::Landscape` round-trips through serde).
    Landscape {
        /// Request id.
        run: u64,
        /// The landscape's JSON.
        json: String,
    },
    /// The landscape could not be computed.
    LandscapeFailed {
        /// Request id.
        run: u64,
        /// What went wrong.
        message: String,
    },
    /// Scenarios of a reproduction planned so far.
    ReproduceProgress {
        /// Run id.
        run: u64,
        /// Scenarios planned.
        done: usize,
        /// Scenarios in the run.
        total: usize,
    },
    /// A finished reproduction.
    Reproduced {
        /// Run id.
        run: u64,
        /// One per experiment, in order.
        experiments: Vec<Experiment>,
        /// Wall time, ms.
        ms: f64,
    },
    /// The reproduction could not run.
    ReproduceFailed {
        /// Run id.
        run: u64,
        /// What went wrong.
        message: String,
    },
    /// The worker panicked; it is dead after this message.
    Panicked {
        /// The panic message.
        message: String,
    },
}

/// Milliseconds from the page's (or worker's) `performance` clock.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
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

/// Least time between two progress messages of one policy, ms.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

thread_local! {
    /// SMD allocations of the jobs the last plans saw: after an edit of one job, only that
    /// job's Algorithm 1 runs again (plans are identical with or without it).
    static CACHE: RefCell<smd_core::Cache> = RefCell::new(smd_core::Cache::new());
}

/// Answers one request: the worker's whole job, also run in-thread by tests.
pub fn handle(req: Request, post: &mut dyn FnMut(Reply)) {
    match req {
        Request::Solve { run, scenario } => {
            let t0 = now_ms();
            CACHE.with(|c| c.borrow_mut().retain_used());
            for (index, policy) in Policy::ALL.into_iter().enumerate() {
                let clock = now_ms;
                // At most one progress message per PROGRESS_EVERY_MS (and the last one): each
                // makes the page render again.
                let mut last = f64::NEG_INFINITY;
                let mut progress = |p: smd_core::Progress| {
                    let now = now_ms();
                    if now - last >= PROGRESS_EVERY_MS || p.jobs_done == p.jobs_total {
                        last = now;
                        post(Reply::Progress {
                            run,
                            policy: index,
                            done: p.jobs_done,
                            total: p.jobs_total,
                        })
                    }
                };
                let result = CACHE.with(|cache| {
                    let mut cache = cache.borrow_mut();
                    smd_core::plan_with(
                        &scenario,
                        policy,
                        &mut smd_core::Options {
                            clock: Some(&clock),
                            progress: Some(&mut progress),
                            cache: Some(&mut cache),
                            ..Default::default()
                        },
                    )
                });
                match result {
                    Ok(plan) => post(Reply::Planned {
                        run,
                        plan: Box::new(plan),
                    }),
                    Err(e) => post(Reply::PolicyFailed {
                        run,
                        policy: policy.name().into(),
                        message: e.to_string(),
                    }),
                }
            }
            post(Reply::Solved {
                run,
                ms: now_ms() - t0,
            });
        }
        Request::Landscape {
            run,
            scenario,
            job,
            resolution,
            plans,
        } => match smd_core::landscape(&scenario, job, resolution, &plans) {
            Ok(l) => post(Reply::Landscape {
                run,
                json: serde_json::to_string(&l).expect("a landscape always serialises"),
            }),
            Err(e) => post(Reply::LandscapeFailed {
                run,
                message: e.to_string(),
            }),
        },
        Request::Reproduce { run, quick } => {
            let scale = if quick {
                smd_reproduce::Scale::Quick
            } else {
                smd_reproduce::Scale::Full
            };
            reproduce(run, smd_reproduce::Runner::new(scale), post);
        }
    }
}

/// Runs a reproduction case by case, with throttled progress (in scenarios).
pub fn reproduce(run: u64, mut runner: smd_reproduce::Runner, post: &mut dyn FnMut(Reply)) {
    let t0 = now_ms();
    let total = runner.cases();
    if total == 0 {
        post(Reply::ReproduceFailed {
            run,
            message: "no experiment to run".into(),
        });
        return;
    }
    post(Reply::ReproduceProgress {
        run,
        done: 0,
        total,
    });
    let mut last = now_ms();
    while runner.step(&now_ms) {
        let now = now_ms();
        if now - last >= PROGRESS_EVERY_MS {
            last = now;
            post(Reply::ReproduceProgress {
                run,
                done: runner.cases_done(),
                total,
            });
        }
    }
    post(Reply::ReproduceProgress {
        run,
        done: total,
        total,
    });
    let ms = now_ms() - t0;
    let report = runner.report(ms);
    post(Reply::Reproduced {
        run,
        experiments: report.outcomes.iter().map(Experiment::from).collect(),
        ms,
    });
}

/// The worker binary's `main`: listen for requests, answer with [`handle`].
pub fn worker_main() {
    #[cfg(target_arch = "wasm32")]
    {
        use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let post_scope = scope.clone();
        let post = move |r: Reply| {
            let text = serde_json::to_string(&r).expect("replies serialise");
            let _ = post_scope.post_message(&JsValue::from_str(&text));
        };
        let panic_post = post.clone();
        std::panic::set_hook(Box::new(move |info| {
            panic_post(Reply::Panicked {
                message: info.to_string(),
            })
        }));
        let mut post_for_handle = post.clone();
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            match serde_json::from_str::<Request>(&text) {
                Ok(req) => handle(req, &mut post_for_handle),
                Err(err) => post_for_handle(Reply::Panicked {
                    message: format!("the worker could not read a request: {err}"),
                }),
            }
        });
        scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        onmessage.forget();
        post(Reply::Ready);
    }
}

/// Where the solver runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverMode {
    /// In a Web Worker loaded from this script URL (relative to the page).
    Worker(String),
    /// On the page's thread (tests).
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
        let SolverMode::Worker(url) = &self.mode else {
            let on_reply = self.on_reply.clone();
            wasm_bindgen_futures::spawn_local(async move { on_reply(Reply::Ready) });
            return;
        };
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

#[cfg(test)]
mod cache_tests {
    use super::*;

    /// A re-plan after an edit of one job solves that job's Algorithm 1 only.
    #[test]
    fn replan_after_one_edit_solves_one_job() {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 5,
            seed: 2,
            ..Default::default()
        });
        let solve = |s: &Scenario, run: u64| {
            let mut plans = Vec::new();
            handle(
                Request::Solve {
                    run,
                    scenario: s.clone(),
                },
                &mut |r| {
                    if let Reply::Planned { plan, .. } = r {
                        plans.push(*plan)
                    }
                },
            );
            plans
        };
        let plans = solve(&s, 1);
        let misses = CACHE.with(|c| c.borrow().misses());
        let feasible = plans[0].jobs.iter().filter(|j| j.workers.is_some()).count() as u64;
        assert_eq!(misses, feasible);
        let k = plans[0]
            .jobs
            .iter()
            .position(|j| j.workers.is_some())
            .unwrap();
        s.jobs[k].iterations += 3.0;
        solve(&s, 2);
        assert_eq!(CACHE.with(|c| c.borrow().misses()), misses + 1);
        assert_eq!(CACHE.with(|c| c.borrow().hits()), feasible - 1);
    }
}
