//! The capacity sweep: the draft at many cluster sizes with every policy (`smd-sweep`, on
//! the page's pool of workers), the knee in words and the charts; and What to buy, the
//! cheapest (or best) mix of machine types on the same pool.

pub mod buy;
pub mod capacity;

use buy::BuyPanel;
use capacity::SweepPanel;
use yew::prelude::*;
use super::done;
use crate::export::{self, Export};
use crate::solver::now_ms;
use crate::solver::pool::{hardware_concurrency, pool_size};
use crate::state::{Action, State, SweepAction};

/// The "Sweep" view.
#[function_component]
pub fn SweepView() -> Html {
    html! { <><SweepPanel /><BuyPanel /></> }
}

/// What the page needs of the "Sweep" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <SweepView /> }
    }

    fn noun(&self) -> &'static str {
        "sweep"
    }

    fn ready(&self, state: &State) -> bool {
        done(&state.sweep.run.finished).is_some()
    }

    fn exports(&self, state: &State) -> Option<(Export, Export)> {
        let r = done(&state.sweep.run.finished)?;
        let f = &state.sweep.form;
        Some(export::sweep(
            r,
            f.metric_for(&r.base),
            &f.answer_policy,
            &f.goal,
        ))
    }

    fn run(&self, _: &State, d: &UseReducerDispatcher<State>) {
        d.dispatch(Action::Sweep(SweepAction::Start(
            pool_size(hardware_concurrency()),
            now_ms(),
        )));
    }
}
