//! The page's views, one component each over the shared state; [`render`] maps a
//! [`View`] (a tab) to its component.

pub mod compare;
pub mod how_it_works;
pub mod over_time;
pub mod plan;
pub mod reproduce;
pub mod sharing;
pub mod sweep;
pub mod teach;

use crate::state::View;
use yew::prelude::*;

/// The component of a view, under its export bar (Export CSV, Export JSON, Copy link).
pub fn render(view: View) -> Html {
    html! {
        <>
            <crate::components::export::ViewBar {view} />
            { body(view) }
        </>
    }
}

/// A view's own component.
fn body(view: View) -> Html {
    match view {
        View::Plan => html! { <plan::PlanView /> },
        View::OverTime => html! { <over_time::OverTimeView /> },
        View::Sweep => html! { <sweep::SweepView /> },
        View::Sharing => html! { <sharing::SharingView /> },
        View::Compare => html! { <compare::CompareView /> },
        View::Reproduce => html! { <reproduce::ReproduceView /> },
        View::HowItWorks => html! { <how_it_works::HowItWorksView /> },
        View::Teach => html! { <teach::TeachView /> },
    }
}
