//! The page's components. Each reads the one [`State`] from context
//! and changes it only by dispatching [`Action`](crate::state::Action)s.
//!
//! [`app::App`] holds the state and lays out the header, the [`tabs`], the status line and
//! the view on screen ([`views`]: each view in one place, its file or folder, from the one
//! table of views); the modules here are the widgets views share, and [`hooks`] run the
//! side effects.

pub mod app;
pub mod apps;
pub mod chart;
pub mod field;
pub mod format;
pub mod glossary;
pub mod hooks;
pub mod inputs;
pub mod io;
pub mod status;
pub mod tabs;
pub mod views;

use crate::state::State;
use yew::prelude::*;

/// The state handle every component reads.
pub type AppState = UseReducerHandle<State>;

/// The state from context (every component sits under [`app::App`]).
#[hook]
pub fn use_app() -> AppState {
    use_context::<AppState>().expect("components are mounted under App")
}

/// Whether this render is the first screen only ([`app::AppProps::first_screen`]): the
/// build's prerendered first plan, which leaves the parts below the first screen to the
/// live page.
#[derive(Clone, Copy, PartialEq)]
pub struct FirstScreen(pub bool);

/// [`FirstScreen`] from context: `true` only in the build's prerendered first plan.
#[hook]
pub fn use_first_screen() -> bool {
    use_context::<FirstScreen>().is_some_and(|f| f.0)
}

/// A focusable row's (`tabindex="0"`) two handlers, `(onclick, onkeydown)`: a click, or
/// Enter or Space, does `act`; the keys on a control inside the row (a button, an input)
/// stay that control's.
pub fn on_activate(act: Callback<()>) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let click = act.clone();
    let onclick = Callback::from(move |_: MouseEvent| click.emit(()));
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        // (Yew delegates events from its root, so the target is what tells.)
        let on_control = e
            .target_dyn_into::<web_sys::Element>()
            .and_then(|t| {
                t.closest("button, input, select, textarea, a")
                    .ok()
                    .flatten()
            })
            .is_some();
        if !on_control && matches!(e.key().as_str(), "Enter" | " " | "Spacebar") {
            e.prevent_default();
            act.emit(());
        }
    });
    (onclick, onkeydown)
}
