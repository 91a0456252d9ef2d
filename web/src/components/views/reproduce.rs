//! Reproducing the paper: its experiments run in the solver worker, each shown with its
//! claim, findings, chart and CSV.

use crate::components::reproduce::ReproducePanel;
use yew::prelude::*;

/// The "Reproduce the paper" view.
#[function_component]
pub fn ReproduceView() -> Html {
    html! { <ReproducePanel /> }
}
