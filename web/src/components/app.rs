//! The app: builds the state, provides it to every component, runs the side effects
//! ([`hooks`]), and lays out the header, the status line, the tabs and the
//! view on screen.

use super::{hooks, status, tabs, views, AppState};
use crate::codec::{self, Draft};
use crate::defaults;
use crate::route;
use crate::solver::{SolverMode, WORKER_URL};
use crate::state::{Notice, State};
use smd_core::Scenario;
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
    /// Whether the page uses its address: opens the scenario of `#s=…` and the view of
    /// `#view=…`, and keeps the view on screen in `#view=…`.
    #[prop_or(true)]
    pub read_link: bool,
    /// Debounce of re-solves, ms.
    #[prop_or(DEBOUNCE_MS)]
    pub debounce_ms: u32,
    /// Render the first screen only ([`super::FirstScreen`]): how the build renders the
    /// prerendered first plan. The parts below the first screen (the jobs table and
    /// editor, the trace loader, import/export, the landscape and the layer schedule) are
    /// left to the live page, so the browser parses and lays out less before the live page
    /// mounts: its first render was done sooner in 30 of 40 paired loads
    /// (docs/BENCHMARKS.md), the first paint no later.
    #[prop_or(false)]
    pub first_screen: bool,
}

impl AppProps {
    /// The page's own settings: the worker, localStorage, the address.
    pub fn default_page() -> AppProps {
        AppProps {
            solver: SolverMode::Worker(WORKER_URL.into()),
            storage_key: Some(AttrValue::Static(STORAGE_KEY)),
            initial: None,
            read_link: true,
            debounce_ms: DEBOUNCE_MS,
            first_screen: false,
        }
    }
}

/// The state the page opens with: the scenario of a share link, else the saved draft, else
/// the default; the view the address names.
pub fn initial_state(props: &AppProps) -> State {
    let hash = if props.read_link {
        hooks::hash()
    } else {
        String::new()
    };
    let mut s = initial_scenario(props, &hash);
    s.view.tab = route::view_of(&hash);
    if s.view.tab == crate::state::View::Teach {
        s.teach.want_step = route::step_of(&hash);
    }
    if let Some(key) = &props.storage_key {
        if let Some(saved) = hooks::load_saved_scenarios(key) {
            s.compare.saved = saved;
        }
    }
    // A side-by-side link: its second scenario is saved and compared with the draft.
    match codec::parse_compare_fragment(&hash) {
        Some(Ok(b)) => {
            s = (*Rc::new(s).reduce(crate::state::Action::Compare(
                crate::state::CompareAction::With("from the link".into(), Box::new(b)),
            )))
            .clone();
        }
        Some(Err(e)) => {
            s.view.notice = Some(Notice::warning(format!(
                "The link's second scenario could not be opened: {e}"
            )))
        }
        None => {}
    }
    // A view's link: its settings into the forms, and its run once the page is up.
    match crate::state::link::ViewLink::parse(&hash) {
        Some(Ok(link)) => {
            link.apply(&mut s);
            s.view.run_on_open = link.run;
        }
        Some(Err(e)) => s.view.notice = Some(Notice::warning(format!("{e}."))),
        None => {}
    }
    // The default scenario opens with its plans, solved when the page was built.
    crate::first_plan::replay(s)
}

fn initial_scenario(props: &AppProps, hash: &str) -> State {
    let saved = props
        .storage_key
        .as_ref()
        .and_then(|k| hooks::storage()?.get_item(k).ok().flatten())
        .and_then(|text| Draft::from_json(&text).ok());
    let mut warning = None;
    if route::has_share(hash) {
        match codec::parse_share_fragment(hash) {
            Ok(scenario) => {
                // A reload then opens the saved (possibly edited) draft; the view stays.
                hooks::replace_hash(&route::without_share(hash));
                let n = scenario.jobs.len();
                // A link carries a scenario, not the page's settings: those stay.
                let mut s = State::new(Draft {
                    settings: saved.map(|d| d.settings).unwrap_or_default(),
                    ..Draft::of(scenario)
                });
                s.view.notice = Some(Notice::info(format!(
                    "Opened the scenario of the link ({n} jobs)."
                )));
                return s;
            }
            Err(e) => warning = Some(format!("The link's scenario could not be opened: {e}")),
        }
    }
    let mut s = State::new(saved.unwrap_or_else(|| {
        Draft::of(
            props
                .initial
                .as_ref()
                .map(|s| (**s).clone())
                .unwrap_or_else(defaults::default_scenario),
        )
    }));
    if let Some(w) = warning {
        s.view.notice = Some(Notice::warning(w));
    }
    s
}

/// The page.
#[function_component]
pub fn App(props: &AppProps) -> Html {
    let state: AppState = {
        let props = props.clone();
        use_reducer(move || {
            let s = initial_state(&props);
            crate::solver::mark("smd-state-ready");
            s
        })
    };
    hooks::use_solver(&state, props.solver.clone());
    hooks::use_sweep_pool(&state, props.solver.clone());
    hooks::use_solve_clock(&state);
    hooks::use_debounced_solve(&state, props.debounce_ms);
    hooks::use_landscape(&state);
    hooks::use_trace(&state);
    hooks::use_teach_player(&state);
    hooks::use_saved_draft(&state, props.storage_key.clone());
    hooks::use_saved_scenarios(&state, props.storage_key.clone());
    hooks::use_address(&state, props.read_link);
    hooks::use_first_plan_mark(&state);
    use_effect_with((), |_| {
        crate::solver::mark("smd-first-render");
        crate::first_plan::drop_prerender();
    });

    let view = state.view.tab;
    html! {
        <ContextProvider<super::FirstScreen> context={super::FirstScreen(props.first_screen)}>
        <ContextProvider<AppState> context={state}>
            <div class="app">
                <header>
                    <h1>{"SMD planner"}</h1>
                    <span class="tagline">{"which deep-learning jobs to admit, and how many workers w and parameter servers p each"}</span>
                </header>
                <tabs::TabBar />
                <main>
                    <status::StatusBar />
                    <div class="view" role="tabpanel" id={tabs::panel_id(view)} tabindex="-1"
                        aria-labelledby={tabs::tab_id(view)} data-view={view.name()}>
                        { views::render(view) }
                    </div>
                </main>
            </div>
        </ContextProvider<AppState>>
        </ContextProvider<super::FirstScreen>>
    }
}
