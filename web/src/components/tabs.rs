//! The tab bar: one tab per [`View`], in [`View::ALL`]'s order (WAI-ARIA tabs: the selected
//! tab is in the tab order, the arrow keys, Home and End move between tabs). A click of the
//! pointer on Step through's tab puts the focus in its panel, where those keys step
//! (`components::views::teach`); reached from the keyboard, the tab keeps it.

use super::use_app;
use crate::state::ViewAction;
use crate::state::{Action, View};
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// The `id` of a view's tab.
pub fn tab_id(v: View) -> String {
    format!("tab-{}", v.name())
}

/// The `id` of a view's panel.
pub fn panel_id(v: View) -> String {
    format!("view-{}", v.name())
}

/// The tab `key` moves to from tab `i` of `n`, if it is a key that moves.
fn moved(key: &str, i: usize, n: usize) -> Option<usize> {
    match key {
        "ArrowRight" => Some((i + 1) % n),
        "ArrowLeft" => Some((i + n - 1) % n),
        "Home" => Some(0),
        "End" => Some(n - 1),
        _ => None,
    }
}

/// The views, as tabs.
#[function_component]
pub fn TabBar() -> Html {
    let state = use_app();
    let refs = use_memo((), |_| {
        View::all()
            .iter()
            .map(|_| NodeRef::default())
            .collect::<Vec<_>>()
    });
    let current = state.view.tab;
    let tabs = View::all().iter().enumerate().map(|(i, &v)| {
        let selected = v == current;
        let onclick = {
            let d = state.dispatcher();
            Callback::from(move |e: MouseEvent| {
                d.dispatch(Action::View(ViewAction::Show(v)));
                // A pointer's click (detail > 0; Enter or space on the tab give 0).
                if v == View::Teach && e.detail() > 0 {
                    super::views::teach::focus_panel();
                }
            })
        };
        let onkeydown = {
            let d = state.dispatcher();
            let refs = refs.clone();
            Callback::from(move |e: KeyboardEvent| {
                if let Some(j) = moved(&e.key(), i, View::all().len()) {
                    e.prevent_default();
                    d.dispatch(Action::View(ViewAction::Show(View::all()[j])));
                    if let Some(el) = refs[j].cast::<HtmlElement>() {
                        let _ = el.focus();
                    }
                }
            })
        };
        html! {
            <button type="button" role="tab" id={tab_id(v)} ref={refs[i].clone()}
                class={classes!("tab", selected.then_some("selected"))}
                aria-selected={selected.to_string()}
                aria-controls={selected.then(|| panel_id(v))}
                tabindex={if selected { "0" } else { "-1" }}
                data-view={v.name()} {onclick} {onkeydown}>
                { v.title() }
            </button>
        }
    });
    html! {
        <nav class="tabs">
            <div role="tablist" aria-label="Views">{ for tabs }</div>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_keys_wrap_around_the_tabs() {
        assert_eq!(moved("ArrowRight", 0, 3), Some(1));
        assert_eq!(moved("ArrowRight", 2, 3), Some(0));
        assert_eq!(moved("ArrowLeft", 0, 3), Some(2));
        assert_eq!(moved("Home", 2, 3), Some(0));
        assert_eq!(moved("End", 0, 3), Some(2));
        assert_eq!(moved("Enter", 0, 3), None);
    }
}
