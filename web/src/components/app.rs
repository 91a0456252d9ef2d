//! The app: builds the state, provides it to every component, and runs the side effects
//! (the solver, the debounce timer, saving to localStorage, reading a share link).

use super::{
    help::Help, inputs, io, jobs, landscape, reproduce, results, schedule, status, AppState,
};
use crate::codec::{self, Draft};
use crate::defaults;
use crate::solver::{Request, Solver, SolverMode, WORKER_URL};
use crate::state::{Action, Notice, State};
use gloo_timers::callback::{Interval, Timeout};
use smd_core::Scenario;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// localStorage key of the saved draft.
pub const STORAGE_KEY: &str = "smd-planner/draft-v1";
/// Quiet time after an edit before the solver starts, ms.
pub const DEBOUNCE_MS: u32 = 350;

/// How the app is mounted (the page uses the defaults; tests change them).
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// Where the solver runs.
    #[prop_or(SolverMode::Worker(WORKER_URL.into()))]
    pub solver: SolverMode,
    /// localStorage key for the draft; `None` keeps nothing.
    #[prop_or(Some(AttrValue::Static(STORAGE_KEY)))]
    pub storage_key: Option<AttrValue>,
    /// The scenario to open when neither a link nor a saved draft gives one.
    #[prop_or_default]
    pub initial: Option<Rc<Scenario>>,
    /// Whether to read a scenario from the address's `#s=…`.
    #[prop_or(true)]
    pub read_link: bool,
    /// Debounce of re-solves, ms.
    #[prop_or(DEBOUNCE_MS)]
    pub debounce_ms: u32,
}

impl AppProps {
    /// The page's own settings: the worker, localStorage, the share link.
    pub fn default_page() -> AppProps {
        AppProps {
            solver: SolverMode::Worker(WORKER_URL.into()),
            storage_key: Some(AttrValue::Static(STORAGE_KEY)),
            initial: None,
            read_link: true,
            debounce_ms: DEBOUNCE_MS,
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The state the page opens with: a share link, else the saved draft, else the default.
pub fn initial_state(props: &AppProps) -> State {
    let mut warning = None;
    if props.read_link {
        let location = web_sys::window().map(|w| w.location());
        let hash = location
            .as_ref()
            .and_then(|l| l.hash().ok())
            .unwrap_or_default();
        if hash.contains(codec::SHARE_PARAM) {
            match codec::parse_share_fragment(&hash) {
                Ok(scenario) => {
                    forget_hash();
                    let n = scenario.jobs.len();
                    let mut s = State::new(Draft {
                        scenario,
                        raw: Vec::new(),
                    });
                    s.notice = Some(Notice {
                        warning: false,
                        text: format!("Opened the scenario of the link ({n} jobs)."),
                    });
                    return s;
                }
                Err(e) => warning = Some(format!("The link's scenario could not be opened: {e}")),
            }
        }
    }
    let saved = props
        .storage_key
        .as_ref()
        .and_then(|k| storage()?.get_item(k).ok().flatten())
        .and_then(|text| Draft::from_json(&text).ok());
    let mut s = match saved {
        Some(d) => State::new(d),
        None => State::new(Draft {
            scenario: props
                .initial
                .as_ref()
                .map(|s| (**s).clone())
                .unwrap_or_else(defaults::default_scenario),
            raw: Vec::new(),
        }),
    };
    if let Some(w) = warning {
        s.notice = Some(Notice {
            warning: true,
            text: w,
        });
    }
    s
}

/// Drops `#s=…` from the address bar, so a reload opens the saved (possibly edited) draft.
fn forget_hash() {
    if let Some(w) = web_sys::window() {
        let l = w.location();
        let url = format!(
            "{}{}",
            l.pathname().unwrap_or_default(),
            l.search().unwrap_or_default()
        );
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}

/// Sets `data-first-plan-ms` on `<html>` once: the time from navigation start to the first
/// plan on screen (read by `scripts/bench-web`).
fn mark_first_plan() {
    let Some(w) = web_sys::window() else { return };
    let Some(root) = w.document().and_then(|d| d.document_element()) else {
        return;
    };
    if root.has_attribute("data-first-plan-ms") {
        return;
    }
    if let Some(p) = w.performance() {
        let _ = root.set_attribute("data-first-plan-ms", &format!("{:.0}", p.now()));
    }
}

/// The page.
#[function_component]
pub fn App(props: &AppProps) -> Html {
    let state: AppState = {
        let props = props.clone();
        use_reducer(move || initial_state(&props))
    };
    let solver: Rc<RefCell<Option<Solver>>> = use_mut_ref(|| None);
    let landscape_ids = use_mut_ref(|| 0u64);

    // The solver lives as long as the page.
    {
        let solver = solver.clone();
        let d = state.dispatcher();
        let mode = props.solver.clone();
        use_effect_with((), move |_| {
            let (d1, d2) = (d.clone(), d);
            *solver.borrow_mut() = Some(Solver::new(
                mode,
                Rc::new(move |r| d1.dispatch(Action::Reply(r))),
                Rc::new(move |m| d2.dispatch(Action::WorkerDied(m))),
            ));
            move || drop(solver.borrow_mut().take())
        });
    }
    // Cancel, supersede and death all terminate the worker and start a fresh one.
    {
        let solver = solver.clone();
        use_effect_with(state.restarts, move |r| {
            if *r > 0 {
                if let Some(s) = solver.borrow_mut().as_mut() {
                    s.restart();
                }
            }
        });
    }
    // A new run goes to the solver.
    {
        let solver = solver.clone();
        let run = state.run.as_ref().map(|r| (r.id, r.scenario.clone()));
        use_effect_with(run.as_ref().map(|r| r.0), move |_| {
            if let (Some((id, scenario)), Some(s)) = (run, solver.borrow().as_ref()) {
                s.send(Request::Solve {
                    run: id,
                    scenario: (*scenario).clone(),
                });
            }
        });
    }
    // A running solve's clock (the status line calls out a slow one): whole seconds since
    // it started, ticking on the page's thread while the worker solves.
    {
        let d = state.dispatcher();
        let run = state.run.as_ref().map(|r| r.id);
        use_effect_with(run, move |run| {
            let timer = run.map(|id| {
                let t0 = crate::solver::now_ms();
                Interval::new(1000, move || {
                    let s = (crate::solver::now_ms() - t0) / 1000.0;
                    d.dispatch(Action::Elapsed(id, s as u32))
                })
            });
            move || drop(timer)
        });
    }
    // A new reproduction goes to the solver.
    {
        let solver = solver.clone();
        let run = state.reproduce.as_ref().map(|r| (r.id, r.quick));
        use_effect_with(run.map(|r| r.0), move |_| {
            if let (Some((id, quick)), Some(s)) = (run, solver.borrow().as_ref()) {
                s.send(Request::Reproduce { run: id, quick });
            }
        });
    }
    // Debounced re-solve of a valid draft.
    {
        let d = state.dispatcher();
        let revision = state.revision;
        let need = state.valid
            && state.run.as_ref().map(|r| r.revision) != Some(revision)
            && state.results.as_ref().map(|r| r.revision) != Some(revision);
        let delay = if state.results.is_none() && state.run.is_none() {
            0
        } else {
            props.debounce_ms
        };
        use_effect_with(revision, move |_| {
            let timer =
                need.then(|| Timeout::new(delay, move || d.dispatch(Action::StartSolve(revision))));
            move || drop(timer)
        });
    }
    // The selected job's landscape.
    {
        let wanted = state.wanted_landscape();
        let have = state.landscape.as_ref().map(|l| l.key);
        let results = state.results.clone();
        let solver = solver.clone();
        let d = state.dispatcher();
        use_effect_with((wanted, state.restarts), move |(wanted, _)| {
            if let (Some((rev, uid, index)), Some(r)) = (*wanted, results) {
                if have != Some((rev, uid)) {
                    let id = {
                        let mut n = landscape_ids.borrow_mut();
                        *n += 1;
                        *n
                    };
                    d.dispatch(Action::LandscapeRequested((rev, uid), id));
                    if let Some(s) = solver.borrow().as_ref() {
                        s.send(Request::Landscape {
                            run: id,
                            scenario: (*r.scenario).clone(),
                            job: index,
                            resolution: landscape::RESOLUTION,
                            plans: r.plans.clone(),
                        });
                    }
                }
            }
        });
    }
    // Keep the draft (with everything typed) in localStorage: at once for a small draft,
    // after a quiet moment for a large one (serialising a thousand jobs takes a while).
    {
        let key = props.storage_key.clone();
        let st = state.clone();
        let delay = if state.draft.jobs.len() > 200 { 500 } else { 0 };
        use_effect_with(state.edits, move |_| {
            let save = move || {
                if let (Some(k), Some(store)) = (key, storage()) {
                    if store.set_item(&k, &st.to_draft().to_json()).is_err() {
                        st.dispatch(Action::Notify(Notice {
                            warning: true,
                            text: "This scenario is too large for the browser's storage: export it to keep it.".into(),
                        }));
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

    // For benchmarks: when the first plan reached the page (ms since navigation start).
    use_effect_with(state.results.is_some(), |has| {
        if *has {
            mark_first_plan();
        }
    });

    html! {
        <ContextProvider<AppState> context={state}>
            <div class="app">
                <header>
                    <h1>{"SMD planner"}</h1>
                    <span class="tagline">{"which deep-learning jobs to admit, and how many workers w and parameter servers p each"}</span>
                    <Help />
                </header>
                <status::StatusBar />
                <status::ErrorSummary />
                <main class="columns">
                    <div class="col col-inputs">
                        <inputs::ClusterPanel />
                        <inputs::ParamsPanel />
                        <jobs::JobsTable />
                        <io::ImportExport />
                    </div>
                    <div class="col col-results">
                        <results::PolicyCompare />
                        <results::PlanDetails />
                        <landscape::LandscapePanel />
                        <schedule::SchedulePanel />
                    </div>
                </main>
                <reproduce::ReproducePanel />
            </div>
        </ContextProvider<AppState>>
    }
}
