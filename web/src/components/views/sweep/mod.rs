//! The capacity sweep: the draft at many cluster sizes with every policy (`smd-sweep`, on
//! the page's pool of workers), the knee in words and the charts; and What to buy, the
//! cheapest (or best) mix of machine types on the same pool.

pub mod buy;
pub mod capacity;

use buy::BuyPanel;
use capacity::SweepPanel;
use yew::prelude::*;

/// The "Sweep" view.
#[function_component]
pub fn SweepView() -> Html {
    html! { <><SweepPanel /><BuyPanel /></> }
}
