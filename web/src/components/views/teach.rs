//! Step through: SMD for one job and one plan, step by step (docs/MODEL.md §20), in the
//! solver worker's trace.

use crate::components::teach::TeachPanel;
use yew::prelude::*;

/// The "Step through" view.
#[function_component]
pub fn TeachView() -> Html {
    html! { <TeachPanel /> }
}
