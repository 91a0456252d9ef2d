//! How it works: the model and the algorithm, in docs/MODEL.md's symbols.

use crate::components::help::Help;
use yew::prelude::*;

/// The "How it works" view.
#[function_component]
pub fn HowItWorksView() -> Html {
    html! { <Help /> }
}
