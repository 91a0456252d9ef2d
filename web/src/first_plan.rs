//! The default scenario's first plan, solved when the page was built: the solver's replies
//! to the page's own solve of that scenario, recorded natively by the same worker code
//! ([`record`]) and kept in `web/first-plan.json`. When the page opens on that scenario it
//! plays them into its state ([`replay`]) through the same reducer as a live solve, so the
//! first plan is on screen at the first render instead of after the solver's module has
//! loaded in a worker and solved. A test checks the file is what the solver gives today
//! (`first_plan_is_current`); `SMD_BLESS=1 cargo test -p smd-web --lib first_plan` writes it.
//! The next edit is solved live, as always.
//!
//! The same first render, made natively with Yew's server renderer, is kept in
//! `web/first-plan.html` and put into the built page by `web/prerender.mjs` (a Trunk hook):
//! the browser paints the first plan from the HTML alone, before the page's module has
//! loaded; the module replaces it with the live page at its first render
//! ([`PRERENDER_ID`]). Until then it is inert (nothing in it can be typed into or clicked),
//! and a page opened on a link or a saved draft hides it (index.html).

use crate::solver::{Event, Reply, Request, Task};
use crate::state::{Action, SolveAction, State};
use serde::{Deserialize, Serialize};
use smd_core::Scenario;
use std::rc::Rc;
use yew::Reducible;

/// The id of the element holding the prerendered first plan in the built page.
pub const PRERENDER_ID: &str = "prerender";

/// Removes the prerendered first plan, once the live page has rendered.
pub fn drop_prerender() {
    #[cfg(target_arch = "wasm32")]
    if let Some(e) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(PRERENDER_ID))
    {
        e.remove();
    }
}

/// Runs `f` after the browser's next paint if a prerendered first plan is on screen;
/// otherwise hands `f` back to run now.
pub fn after_paint<F: FnOnce() + 'static>(f: F) -> Result<(), F> {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::{closure::Closure, JsCast};
        let Some(w) = web_sys::window() else {
            return Err(f);
        };
        let shown = w.document().is_some_and(|d| {
            d.get_element_by_id(PRERENDER_ID)
                .is_some_and(|e| e.has_child_nodes())
                && !d
                    .document_element()
                    .is_some_and(|h| h.class_list().contains("no-prerender"))
        });
        if !shown {
            return Err(f);
        }
        // A frame, then a task: the paint happens between them.
        let w2 = w.clone();
        let frame = Closure::once_into_js(move || {
            let task = Closure::once_into_js(f);
            let _ = w2.set_timeout_with_callback(task.unchecked_ref());
        });
        let _ = w.request_animation_frame(frame.unchecked_ref());
        Ok(())
    }
    #[cfg(not(target_arch = "wasm32"))]
    Err(f)
}

/// The recorded file.
pub const RECORDED: &str = include_str!("../first-plan.json");

/// A solve of the default scenario, recorded. The scenario is not in the file: the page
/// checks its draft against [`default_scenario`](crate::defaults::default_scenario) itself,
/// which is cheaper than reading a copy (the file is read as the page starts), and
/// `first_plan_is_current` checks the events are the default scenario's.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Recorded {
    /// `global`'s time budget, ms.
    pub global_budget_ms: f64,
    /// The worker's events for the solve, in order (its last is `Done`).
    pub events: Vec<Event>,
}

/// Solves `scenario` as the page's worker does and records its events.
pub fn record(scenario: &Scenario, global_budget_ms: f64) -> Recorded {
    let mut events = Vec::new();
    crate::solver::worker::handle(
        Request {
            id: 1,
            task: Task::Solve {
                scenario: scenario.clone(),
                global_budget_ms,
            },
        },
        &mut |r| {
            if let Reply::Event { event, .. } = r {
                events.push(event);
            }
        },
    );
    Recorded {
        global_budget_ms,
        events,
    }
}

/// The recorded solve, if the file reads.
pub fn recorded() -> Option<Recorded> {
    serde_json::from_str(RECORDED).ok()
}

/// `state` with the recorded plans shown, if its draft is the default scenario with the
/// recorded budget and nothing was solved yet; else `state` as it is.
pub fn replay(state: State) -> State {
    let d = &state.draft;
    // The cheap checks first: a page opened on another scenario (a saved draft, a link) does
    // not parse the file (the recorded scenario is the default one: `first_plan_is_current`).
    if !d.valid
        || state.solving.results.is_some()
        || state.solving.run().is_some()
        || !crate::defaults::is_default_scenario(&d.scenario)
    {
        return state;
    }
    let fits =
        |r: &Recorded| (1000.0 * d.settings.global_budget_s - r.global_budget_ms).abs() < 1e-9;
    let Some(rec) = recorded().filter(fits) else {
        return state;
    };
    let revision = d.revision;
    let mut s = Rc::new(state).reduce(Action::Solve(SolveAction::Start(revision)));
    let Some(task) = s.solving.run().map(|r| r.id) else {
        return Rc::unwrap_or_clone(s);
    };
    for event in rec.events {
        s = s.reduce(Action::Solve(SolveAction::Reply(Reply::Event {
            task,
            event,
        })));
    }
    let mut s = Rc::unwrap_or_clone(s);
    if let Some(r) = s.solving.results.as_mut() {
        Rc::make_mut(r).prebuilt = true;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::Plan;

    /// A plan without its times (they are the build machine's).
    fn timeless(p: &Plan) -> Plan {
        let mut p = p.clone();
        let t = &mut p.stats;
        (t.solve_ms, t.inner_ms, t.rounding_ms, t.outer_ms) = (0.0, 0.0, 0.0, 0.0);
        p
    }

    fn plans(r: &Recorded) -> Vec<Plan> {
        r.events
            .iter()
            .filter_map(|e| match e {
                Event::Partial(crate::solver::Partial::Planned(p)) => Some(timeless(p)),
                _ => None,
            })
            .collect()
    }

    /// The recorded first plan is what the solver gives the page's default scenario today,
    /// at the page's default budget. `SMD_BLESS=1` writes the file instead.
    #[test]
    fn first_plan_is_current() {
        let scenario = crate::defaults::default_scenario();
        let budget = 1000.0 * crate::fields::Settings::default().global_budget_s;
        let fresh = record(&scenario, budget);
        let current = recorded().is_some_and(|rec| {
            // Nothing in the file but what the page reads (a field dropped stays out).
            serde_json::to_string(&rec).is_ok_and(|again| again == RECORDED)
                && rec.global_budget_ms == budget
                && !plans(&rec).is_empty()
                && plans(&rec) == plans(&fresh)
        });
        // Written only when the plans changed (not for new times), so that the prerendered
        // page, made from the compiled-in file, stays current: after a write, build and
        // bless once more for web/first-plan.html.
        if !current && std::env::var_os("SMD_BLESS").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/first-plan.json");
            std::fs::write(path, serde_json::to_string(&fresh).unwrap()).unwrap();
            return;
        }
        assert!(
            current,
            "web/first-plan.json is stale: re-record (SMD_BLESS=1, twice)"
        );
    }

    /// The page's first render, made natively: what `web/first-plan.html` holds.
    #[cfg(not(target_arch = "wasm32"))]
    fn prerender() -> String {
        let props = crate::AppProps {
            solver: crate::solver::SolverMode::InThread(crate::solver::Handler(
                crate::solver::handle,
            )),
            storage_key: None,
            initial: None,
            read_link: false,
            debounce_ms: 0,
            first_screen: true,
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let local = tokio::task::LocalSet::new();
        rt.block_on(
            local.run_until(
                yew::LocalServerRenderer::<crate::App>::with_props(props)
                    .hydratable(false)
                    .render(),
            ),
        )
    }

    /// The prerendered first plan is the page's first render today, with the plan in it.
    /// `SMD_BLESS=1` writes it instead.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn prerender_is_current() {
        let fresh = prerender();
        assert!(
            fresh.contains("data-testid=\"plan-row\""),
            "the plan is in it"
        );
        // The first screen only: what is below it is the live page's.
        for below in [
            "data-testid=\"jobs-table\"",
            "data-testid=\"job-editor\"",
            "data-testid=\"trace\"",
            "id=\"io\"",
            "data-testid=\"landscape\"",
            "data-testid=\"schedule\"",
        ] {
            assert!(!fresh.contains(below), "{below} is below the first screen");
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/first-plan.html");
        if std::env::var_os("SMD_BLESS").is_some() {
            std::fs::write(path, &fresh).unwrap();
            return;
        }
        let kept = std::fs::read_to_string(path).expect("web/first-plan.html");
        assert!(
            kept == fresh,
            "web/first-plan.html is stale: re-render (SMD_BLESS=1)"
        );
    }

    /// index.html hides the prerendered plan for a saved draft and for a link's scenario,
    /// settings, second scenario or view, by the page's own names for them.
    #[test]
    fn index_html_hides_the_prerender_by_the_page_s_names() {
        let index = include_str!("../../index.html");
        assert!(index.contains(&format!("'{}'", crate::components::app::STORAGE_KEY)));
        // The hash parameters the script tests for: `/(^|[#&])(a|b|…)=/`.
        let at = index.find("(^|[#&])(").expect("the hash test") + "(^|[#&])(".len();
        let listed = &index[at..at + index[at..].find(')').expect("its end")];
        let mut listed: Vec<&str> = listed.split('|').collect();
        let mut names: Vec<&str> = [
            crate::codec::SHARE_PARAM,
            crate::codec::COMPARE_PARAM,
            crate::state::link::VIEW_SETTINGS_PARAM,
            crate::route::VIEW_PARAM,
        ]
        .iter()
        .map(|p| p.trim_end_matches('='))
        .collect();
        listed.sort_unstable();
        names.sort_unstable();
        assert_eq!(listed, names);
        assert!(index.contains(&format!("<div id=\"{PRERENDER_ID}\" inert></div>")));
    }

    /// Opening on the default scenario shows every policy's plan at once, complete, with a
    /// recommendation and marked as solved when the page was built; any other scenario is
    /// left to the live solve.
    #[test]
    fn the_default_scenario_opens_with_its_plans() {
        let s = State::new(crate::codec::Draft::of(crate::defaults::default_scenario()));
        let s = replay(s);
        let r = s.solving.results.as_ref().expect("plans at once");
        assert!(r.complete && r.prebuilt);
        assert_eq!(r.plans.len() + r.failures.len(), r.policies().len());
        assert!(r.recommended().is_some());
        assert!(s.solving.run().is_none());
        assert_eq!(r.revision, s.draft.revision);
        let other = State::new(crate::codec::Draft::of(smd_core::generate(
            &Default::default(),
        )));
        assert!(replay(other).solving.results.is_none());
    }
}
