//! The page's views, each in one place: a file (or a folder) here with its component and
//! what the page needs of it ([`ViewSpec`]: its exports, what starts it when a link asks).
//! The modules and the dispatch from a [`View`] (a tab) to its [`ViewSpec`] are made from
//! the one table of views (`crate::state::view::views!`): a new view is a row there and
//! a module here, with `pub struct Spec` implementing [`ViewSpec`].

use crate::export::Export;
use crate::state::{State, View};
use std::rc::Rc;
use yew::prelude::*;

/// What the page needs of a view, beside its tab (name and title: the table of views).
pub trait ViewSpec {
    /// The view's own component.
    fn body(&self) -> Html;

    /// Whether its bar exports results and copies a link to it (else the bar holds only
    /// the glossary).
    fn has_exports(&self) -> bool {
        true
    }

    /// What its results are, on the export buttons (`Export {noun} CSV`).
    fn noun(&self) -> &'static str {
        "results"
    }

    /// Whether it has results to export (cheap: what the buttons' state needs).
    fn ready(&self, _state: &State) -> bool {
        false
    }

    /// Its exports, if it has results: (CSV, JSON). Made on demand (a click).
    fn exports(&self, _state: &State) -> Option<(Export, Export)> {
        None
    }

    /// Starts its run: a link asked for it to run when the page opens.
    fn run(&self, _state: &State, _d: &UseReducerDispatcher<State>) {}
}

pub mod bar;

/// A background part's finished result, if it finished well.
pub fn done<T>(finished: &Option<Result<Rc<T>, String>>) -> Option<&T> {
    finished.as_ref()?.as_deref().ok()
}

/// Makes the view modules and [`spec`] from the table of views.
macro_rules! view_modules {
    ($($(#[$doc:meta])* $view:ident: $module:ident, $name:literal, $title:literal, $scenario:literal;)+) => {
        $(pub mod $module;)+

        /// What the page needs of `view`.
        pub fn spec(view: View) -> &'static dyn ViewSpec {
            match view {
                $(View::$view => &$module::Spec,)+
            }
        }
    };
}

crate::state::view::views!(view_modules);

/// The component of a view, under its export bar (Export CSV, Export JSON, Copy link).
pub fn render(view: View) -> Html {
    html! {
        <>
            <bar::ViewBar {view} />
            { spec(view).body() }
        </>
    }
}
