//! Over time: the jobs arrive, run and finish slot by slot under each policy (`smd-sim`,
//! in the solver worker), with the metrics, the charts and why a job waits.

use crate::components::over_time::OverTimePanel;
use yew::prelude::*;

/// The "Over time" view.
#[function_component]
pub fn OverTimeView() -> Html {
    html! { <OverTimePanel /> }
}
