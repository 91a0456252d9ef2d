//! The plan (under the bar with "Share link" and the exports, `views::render`): the scenario's inputs on the left (cluster,
//! parameters with the algorithm's settings folded, jobs, import/export), its plans on the
//! right (the policies, the selected plan, the selected job's landscape and layer
//! schedule), every current problem above both. At a laptop's 1024 px both columns stay
//! side by side, so that the policies are on the first screen.

pub mod jobs;
pub mod landscape;
pub mod results;
pub mod schedule;

use crate::components::{inputs, io, status};
use yew::prelude::*;
use crate::export::{self, Export};
use crate::state::State;

/// The "Plan" view.
#[function_component]
pub fn PlanView() -> Html {
    let all = !crate::components::use_first_screen();
    html! {
        <>
            <status::ErrorSummary />
            <div class="columns">
                <div class="col col-inputs">
                    <inputs::ClusterPanel />
                    <inputs::ParamsPanel />
                    <jobs::JobsTable />
                    if all { <io::ImportExport /> }
                </div>
                <div class="col col-results">
                    <results::PolicyCompare />
                    <results::PlanDetails />
                    if all {
                        <landscape::LandscapePanel />
                        <schedule::SchedulePanel />
                    }
                </div>
            </div>
        </>
    }
}

/// What the page needs of the "Plan" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <PlanView /> }
    }

    fn noun(&self) -> &'static str {
        "plans"
    }

    fn ready(&self, state: &State) -> bool {
        state.solving.results.is_some()
    }

    fn exports(&self, state: &State) -> Option<(Export, Export)> {
        state.solving.results.as_deref().map(export::plan)
    }
}
