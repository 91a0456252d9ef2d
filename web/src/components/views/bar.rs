//! The bar above every result view: Export CSV and Export JSON of what the view shows
//! ([`crate::export`]), and Copy link — the scenario, the view and its settings, run
//! again when the link opens ([`ViewLink`]) — and the glossary. It also starts a view a
//! link asked to run.

use super::spec;
use crate::codec;
use crate::components::io::{download, link_with};
use crate::components::use_app;
use crate::export::Export;
use crate::state::link::ViewLink;
use crate::state::{Action, Notice, State};
use crate::state::{View, ViewAction};
use yew::prelude::*;

/// The view's exports, if it has results: (CSV, JSON). Made on demand (a click), not at
/// every render.
pub fn exports(state: &State, view: View) -> Option<(Export, Export)> {
    spec(view).exports(state)
}

/// The address that reopens `view` of `state`: the scenario, the view, its settings.
pub fn view_link(state: &State, view: View) -> String {
    link_to(state, view, ViewLink::of(state, view))
}

/// The address of `view` with `settings` (and the draft, where the view needs it).
pub fn link_to(state: &State, view: View, settings: ViewLink) -> String {
    let parts = if view.needs_scenario() {
        format!(
            "{}&{}",
            codec::share_fragment(&state.draft.scenario),
            settings.fragment()
        )
    } else {
        settings.fragment()
    };
    link_with(&crate::route::with_view(&parts, view))
}

/// Downloads `e`, saying so (or why not) at the top of the page.
pub fn save(state: &crate::components::AppState, e: Export) {
    let note = match download(&e.name, e.mime, &e.text) {
        Ok(()) => Notice::info(format!("Exported {} ({} bytes).", e.name, e.text.len())),
        Err(m) => Notice::warning(format!("Download failed: {m}")),
    };
    state.dispatch(Action::View(ViewAction::Notify(note)));
}

/// What the bar is for.
#[derive(Properties, PartialEq)]
pub struct BarProps {
    /// The view it exports.
    pub view: View,
}

/// Export CSV · Export JSON · Copy link, for the view on screen.
#[function_component]
pub fn ViewBar(p: &BarProps) -> Html {
    let state = use_app();
    let view = p.view;
    let link = use_state(|| None::<String>);
    // A link asked for this view to run: start it once, now that the page is up.
    {
        let d = state.dispatcher();
        let run = state.view.run_on_open && state.view.tab == view;
        let st = state.clone();
        use_effect_with(run, move |&run| {
            if run {
                d.dispatch(Action::View(ViewAction::RanOnOpen));
                spec(view).run(&st, &d);
            }
        });
    }
    if !spec(view).has_exports() {
        return html! {
            <div class="view-bar" data-testid="view-bar"><crate::components::glossary::Glossary /></div>
        };
    }
    let ready = spec(view).ready(&state);
    let save = |json: bool| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let Some((csv, js)) = exports(&state, view) else {
                return;
            };
            save(&state, if json { js } else { csv });
        })
    };
    let copy = {
        let state = state.clone();
        let link = link.clone();
        Callback::from(move |_: MouseEvent| {
            let url = view_link(&state, view);
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&url);
            }
            link.set(Some(url));
        })
    };
    // What the view's results are, on its buttons (the Plan view also exports its inputs).
    let noun = spec(view).noun();
    let what = if ready {
        "what this view shows"
    } else {
        "nothing yet: run the view first"
    };
    html! {
        <div class="view-bar" data-testid="view-bar" role="toolbar" aria-label="Export and share this view">
            <button onclick={save(false)} disabled={!ready} data-testid="export-csv"
                title={format!("Download {what} as CSV (one number per cell)")}>{ format!("Export {noun} CSV") }</button>
            <button onclick={save(true)} disabled={!ready} data-testid="export-json"
                title={format!("Download {what} as JSON (the file contracts of docs/SCENARIO.md)")}>{ format!("Export {noun} JSON") }</button>
            if view == View::Plan {
                <crate::components::io::ShareLink />
            } else {
                <button onclick={copy} data-testid="view-link"
                    title="Copy a link that reopens this view with the scenario and its settings, and runs it again">{"Copy link to this view"}</button>
            }
            <crate::components::glossary::Glossary />
            if let Some(url) = &*link {
                <label class="share">
                    <span class="label">{"Link copied (where the browser allows):"}</span>
                    <input type="text" readonly=true value={url.clone()} data-testid="view-link-text" />
                </label>
            }
        </div>
    }
}
