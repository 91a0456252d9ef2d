//! The page's side effects, one hook each, over the state's counters and task ids: the
//! solver (spawn, restart, send every task the state waits for), the sweep's pool of
//! workers (sized, fed, and told which tasks are still wanted), the running solve's
//! clock, the debounced re-solve, the selected job's landscape and (on the "Step through"
//! view) its teaching trace, the saved draft, the address (`#view=…`) and the first-plan
//! mark. The reducer only records what should
//! happen; these make it happen.

use super::AppState;
use crate::route;
use crate::solver::pool::{hardware_concurrency, pool_size, Pool};
use crate::solver::{now_ms, Reply, Solver, SolverMode};
use crate::state::{Action, Notice, View, Worker};
use crate::state::{SolveAction, SweepAction, TeachAction, ViewAction};
use gloo_timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The solver, as long as the page lives: two workers — one for the draft's plan (its
/// solve and landscape), one for the background runs (over time, side by side, the paper's
/// experiments, the lesson's trace), started at the first of them — so that a run never
/// waits behind the plan of the same jobs (seconds on a large trace). Both are terminated
/// and respawned whenever the state counts a restart, and sent each task the state waits
/// for ([`State::tasks`]) once — again after a restart, as a fresh worker knows nothing.
///
/// [`State::tasks`]: crate::state::State::tasks
#[hook]
pub fn use_solver(state: &AppState, mode: SolverMode) {
    let plan: Rc<RefCell<Option<Solver>>> = use_mut_ref(|| None);
    let background: Rc<RefCell<Option<Solver>>> = use_mut_ref(|| None);
    let d = state.dispatcher();
    // A worker's replies and death, as the state takes them; only the plan's worker tells
    // the status line that the solver is ready.
    let start = move |reports_ready: bool| {
        let (d1, d2) = (d.clone(), d.clone());
        Solver::new(
            mode.clone(),
            Rc::new(move |r| {
                if reports_ready || !matches!(r, Reply::Ready) {
                    d1.dispatch(Action::Solve(SolveAction::Reply(r)))
                }
            }),
            Rc::new(move |m| d2.dispatch(Action::Solve(SolveAction::WorkerDied(m)))),
        )
    };
    {
        let (plan, background, start) = (plan.clone(), background.clone(), start.clone());
        use_effect_with((), move |_| {
            *plan.borrow_mut() = Some(start(true));
            move || {
                drop(plan.borrow_mut().take());
                drop(background.borrow_mut().take());
            }
        });
    }
    // Cancel, supersede and death all terminate the workers and start fresh ones.
    {
        let (plan, background) = (plan.clone(), background.clone());
        use_effect_with(state.solving.restarts, move |r| {
            if *r > 0 {
                for w in [&plan, &background] {
                    if let Some(s) = w.borrow_mut().as_mut() {
                        s.restart();
                    }
                }
            }
        });
    }
    // `(restarts, ids)`: the tasks sent to the workers of that restart.
    let sent = use_mut_ref(|| (0u64, Vec::<u64>::new()));
    let st = state.clone();
    use_effect_with(
        (state.tasks(), state.solving.restarts),
        move |(tasks, restarts)| {
            let mut sent = sent.borrow_mut();
            if sent.0 != *restarts {
                *sent = (*restarts, Vec::new());
            }
            sent.1.retain(|id| tasks.contains(id));
            for &id in tasks {
                if sent.1.contains(&id) {
                    continue;
                }
                let Some(req) = st.request(id) else { continue };
                let mut worker = if st.tasks_for(Worker::Plan).contains(&id) {
                    plan.borrow_mut()
                } else {
                    let mut w = background.borrow_mut();
                    if w.is_none() {
                        *w = Some(start(false));
                    }
                    w
                };
                if let Some(s) = worker.as_mut() {
                    s.send(req);
                    sent.1.push(id);
                }
            }
        },
    );
}

/// The capacity sweep's pool of workers: started when the Sweep or the Over time view
/// first shows (its workers load, and warm the simulations up — [`Pool::warm_up`] —,
/// while the form is read, so the first Run waits for neither) or at the first sweep, with
/// the size the form asks for (resized for a sweep that asks for
/// another); sent each size once, and told after every change which sizes are still
/// wanted — a cancelled sweep's queued sizes are dropped and its busy workers terminated
/// and respawned.
#[hook]
pub fn use_sweep_pool(state: &AppState, mode: SolverMode) {
    let pool: Rc<RefCell<Option<Pool>>> = use_mut_ref(|| None);
    {
        let pool = pool.clone();
        use_effect_with((), move |_| move || drop(pool.borrow_mut().take()));
    }
    let sent = use_mut_ref(Vec::<u64>::new);
    let st = state.clone();
    use_effect_with(
        (
            state.tasks_for(Worker::Pool),
            state.sweep.workers(),
            matches!(state.view.tab, View::Sweep | View::OverTime),
            state.sweep.form.workers,
        ),
        move |(tasks, workers, shown, chosen)| {
            let mut sent = sent.borrow_mut();
            sent.retain(|id| tasks.contains(id));
            let mut pool = pool.borrow_mut();
            if let Some(p) = pool.as_ref() {
                p.retain(|id| tasks.contains(&id));
            }
            let n = match (*workers, *shown, pool.is_none()) {
                (Some(n), _, _) => n,
                (None, true, true) => chosen.unwrap_or_else(|| pool_size(hardware_concurrency())),
                _ => return,
            };
            match pool.as_ref() {
                Some(p) if p.size() != n => p.resize(n),
                Some(_) => {}
                None => {
                    let (d1, d2) = (st.dispatcher(), st.dispatcher());
                    let fresh = Pool::new(
                        mode.clone(),
                        n,
                        Rc::new(move |r| {
                            // A worker's "ready" concerns the pool only.
                            if !matches!(r, Reply::Ready) {
                                d1.dispatch(Action::Sweep(SweepAction::Reply(r, now_ms())))
                            }
                        }),
                        Rc::new(move |task, m| {
                            d2.dispatch(Action::Sweep(SweepAction::WorkerDied(task, m)))
                        }),
                    );
                    fresh.warm_up();
                    *pool = Some(fresh);
                }
            }
            let Some(p) = pool.as_ref() else { return };
            for &id in tasks {
                if sent.contains(&id) {
                    continue;
                }
                if let Some(req) = st.request_for(Worker::Pool, id) {
                    p.send(req);
                    sent.push(id);
                }
            }
        },
    );
}

/// A running solve's clock (the status line calls out a slow one): whole seconds since it
/// started, ticking on the page's thread while the worker solves.
#[hook]
pub fn use_solve_clock(state: &AppState) {
    let d = state.dispatcher();
    let run = state.solving.run().map(|r| r.id);
    use_effect_with(run, move |run| {
        let timer = run.map(|id| {
            let t0 = now_ms();
            Interval::new(1000, move || {
                let s = (now_ms() - t0) / 1000.0;
                d.dispatch(Action::Solve(SolveAction::Elapsed(id, s as u32)))
            })
        });
        move || drop(timer)
    });
}

/// The re-solve of a valid draft, `debounce_ms` after its last edit (at once when nothing
/// was solved yet).
#[hook]
pub fn use_debounced_solve(state: &AppState, debounce_ms: u32) {
    let d = state.dispatcher();
    let revision = state.draft.revision;
    let solving = &state.solving;
    let need = state.draft.valid
        && solving.run().map(|r| r.request.revision) != Some(revision)
        && solving.results.as_ref().map(|r| r.revision) != Some(revision);
    let delay = if solving.results.is_none() && solving.run().is_none() {
        0
    } else {
        debounce_ms
    };
    use_effect_with(revision, move |_| {
        let timer = need.then(|| {
            Timeout::new(delay, move || {
                d.dispatch(Action::Solve(SolveAction::Start(revision)))
            })
        });
        move || drop(timer)
    });
}

/// Asks for the selected job's landscape when the results, the job or the worker change.
#[hook]
pub fn use_landscape(state: &AppState) {
    let wanted = state.wanted_landscape();
    let have = state.solving.landscape.as_ref().map(|l| l.key);
    let d = state.dispatcher();
    use_effect_with((wanted, state.solving.restarts), move |(wanted, _)| {
        if let Some((rev, uid, _)) = *wanted {
            if have != Some((rev, uid)) {
                d.dispatch(Action::Solve(SolveAction::RequestLandscape((rev, uid))));
            }
        }
    });
}

/// On the "Step through" view, asks for the selected job's teaching trace when the results
/// or the job change (a trace is computed only when someone looks at it).
#[hook]
pub fn use_trace(state: &AppState) {
    let wanted = (state.view.tab == View::Teach)
        .then(|| state.wanted_landscape())
        .flatten();
    let have = state.teach.trace.as_ref().map(|t| t.key);
    let d = state.dispatcher();
    use_effect_with(wanted, move |wanted| {
        if let Some((rev, uid, _)) = *wanted {
            if have != Some((rev, uid)) {
                d.dispatch(Action::Teach(TeachAction::RequestTrace((rev, uid))));
            }
        }
    });
}

/// While Play is on, one step on every `play_ms` (the speed chosen).
#[hook]
pub fn use_teach_player(state: &AppState) {
    let d = state.dispatcher();
    use_effect_with(
        (state.teach.playing, state.teach.play_ms),
        move |&(playing, ms)| {
            let timer = playing
                .then(|| Interval::new(ms, move || d.dispatch(Action::Teach(TeachAction::Tick))));
            move || drop(timer)
        },
    );
}

/// The browser's localStorage, if the page may use it.
pub fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Keeps the draft (with everything typed) in localStorage under `key`: at once for a
/// small draft, after a quiet moment for a large one (serialising a thousand jobs takes a
/// while).
#[hook]
pub fn use_saved_draft(state: &AppState, key: Option<AttrValue>) {
    let st = state.clone();
    let delay = if state.draft.scenario.jobs.len() > 200 {
        500
    } else {
        0
    };
    use_effect_with(state.draft.edits, move |_| {
        let save = move || {
            if let (Some(k), Some(store)) = (key, storage()) {
                let draft = st.draft.to_saved();
                let kept = if draft.is_default() {
                    store.remove_item(&k)
                } else {
                    store.set_item(&k, &draft.to_json())
                };
                if kept.is_err() {
                    st.dispatch(Action::View(ViewAction::Notify(Notice::warning(
                        "This scenario is too large for the browser's storage: export it to keep it.",
                    ))));
                }
            }
        };
        let timer = if delay == 0 {
            save();
            None
        } else {
            Some(Timeout::new(delay, save))
        };
        move || drop(timer)
    });
}

/// The localStorage key of the saved scenarios, beside the draft's `key`.
fn saved_key(key: &str) -> String {
    format!("{key}/saved-scenarios")
}

/// The saved scenarios kept beside the draft under `key`, if any.
pub fn load_saved_scenarios(key: &str) -> Option<Vec<crate::state::Saved>> {
    let text = storage()?.get_item(&saved_key(key)).ok().flatten()?;
    serde_json::from_str::<crate::state::compare::SavedFile>(&text)
        .ok()
        .map(|f| f.scenarios)
}

/// Keeps the saved scenarios (the side-by-side view's) in localStorage beside the draft.
#[hook]
pub fn use_saved_scenarios(state: &AppState, key: Option<AttrValue>) {
    let st = state.clone();
    use_effect_with(state.compare.saves, move |&saves| {
        // Nothing to write before the first change (the page opened with what is stored).
        if saves > 0 {
            if let (Some(k), Some(store)) = (key, storage()) {
                if store
                    .set_item(&saved_key(&k), &st.compare.export())
                    .is_err()
                {
                    st.dispatch(Action::View(ViewAction::Notify(Notice::warning(
                        "The saved scenarios are too large for the browser's storage: export them to keep them.",
                    ))));
                }
            }
        }
    });
}

/// The address's hash, with its `#` (empty without one).
pub fn hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Replaces the address's hash (given without `#`; empty drops it) without a reload or a
/// history entry.
pub fn replace_hash(hash: &str) {
    let Some(w) = web_sys::window() else { return };
    let l = w.location();
    let mut url = format!(
        "{}{}",
        l.pathname().unwrap_or_default(),
        l.search().unwrap_or_default()
    );
    if !hash.is_empty() {
        url = format!("{url}#{hash}");
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// When `enabled`: the view on screen is kept in the address (`view=…`) and, in Step
/// through, its step (`step=…`, once its trace is there; dropped in other views) — the
/// hash's other parts untouched — and a hash changed by hand (or by a link on the page)
/// shows its view and step.
#[hook]
pub fn use_address(state: &AppState, enabled: bool) {
    let tab = state.view.tab;
    let step =
        (tab == View::Teach && state.teach.ready().is_some()).then(|| state.teach.position().0);
    use_effect_with((tab, step), move |&(tab, step)| {
        let hash = hash();
        let named = route::step_of(&hash);
        let want = if tab == View::Teach {
            step.or(named)
        } else {
            None
        };
        if enabled && (route::view_of(&hash) != tab || named != want) {
            replace_hash(&route::with_step(&route::with_view(&hash, tab), want));
        }
    });
    let d = state.dispatcher();
    use_effect_with(enabled, move |enabled| {
        let listener = enabled.then(|| {
            web_sys::window().map(|w| {
                Listener::new(w.into(), "hashchange", move |_| {
                    let h = hash();
                    let view = route::view_of(&h);
                    d.dispatch(Action::View(ViewAction::Show(view)));
                    if let (View::Teach, Some(n)) = (view, route::step_of(&h)) {
                        d.dispatch(Action::Teach(TeachAction::Address(n)));
                    }
                })
            })
        });
        move || drop(listener)
    });
}

/// An event listener on a target (the window, the document), removed when dropped — a
/// hook's cleanup drops it.
pub struct Listener {
    target: web_sys::EventTarget,
    kind: &'static str,
    f: Closure<dyn FnMut(web_sys::Event)>,
}

impl Listener {
    /// Listens to `kind` events on `target` with `f`.
    pub fn new(
        target: web_sys::EventTarget,
        kind: &'static str,
        f: impl FnMut(web_sys::Event) + 'static,
    ) -> Listener {
        let f = Closure::<dyn FnMut(web_sys::Event)>::new(f);
        let _ = target.add_event_listener_with_callback(kind, f.as_ref().unchecked_ref());
        Listener { target, kind, f }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.f.as_ref().unchecked_ref());
    }
}

/// Sets `data-first-plan-ms` on `<html>` once: the time from navigation start to the first
/// plan on screen (read by `scripts/bench-web`).
#[hook]
pub fn use_first_plan_mark(state: &AppState) {
    use_effect_with(state.solving.results.is_some(), |has| {
        if *has {
            mark_first_plan();
        }
    });
}

fn mark_first_plan() {
    let Some(w) = web_sys::window() else { return };
    let Some(root) = w.document().and_then(|d| d.document_element()) else {
        return;
    };
    if root.has_attribute("data-first-plan-ms") {
        return;
    }
    crate::solver::mark("smd-first-plan");
    if let Some(p) = w.performance() {
        let _ = root.set_attribute("data-first-plan-ms", &format!("{:.0}", p.now()));
    }
}
