//! The layer schedule of the selected job (smd-charts' SVG from smd-core's simulation).

use crate::components::use_app;
use smd_charts::{schedule_svg, ScheduleOptions, TimeUnit};
use smd_core::scenario::{Job, Layer, Overlap};
use std::rc::Rc;
use yew::prelude::*;

/// τ of docs/MODEL.md §1 (communication time of one iteration at w = p, s), from smd-core's
/// model of the job.
pub fn tau_of(job: &Job, instance: &smd_core::scenario::Resources) -> f64 {
    smd_core::model::JobModel::new(job, instance, None).tau
}

/// Sequential vs WFBP vs pipelined for the selected job of the draft.
#[function_component]
pub fn SchedulePanel() -> Html {
    let state = use_app();
    let Some(i) = state.view.selected.and_then(|u| state.draft.index_of(u)) else {
        return html! {};
    };
    let job = &state.draft.scenario.jobs[i];
    if job.measured.is_some() {
        return html! {
            <section class="card" id="schedule" data-testid="schedule">
                <h2>{ format!("Layer schedule of {}", job.id) }</h2>
                <p class="note">{"A measured job has no layer schedule: its step and sync times are the measurements' (docs/MODEL.md §21); the job editor shows its seconds per iteration over GPUs."}</p>
            </section>
        };
    }
    let has_layer_errors = state.view.selected.is_some_and(|u| {
        state
            .draft
            .errors
            .iter()
            .any(|e| e.key.as_ref().is_some_and(|k| k.job == Some(u)))
    });
    let tau = tau_of(job, &state.draft.scenario.cluster.instance);
    let drawable = !job.layers.is_empty() && tau.is_finite() && !has_layer_errors;
    let body = if !drawable {
        html! { <p class="note">{"Fix this job's inputs to see its schedule."}</p> }
    } else {
        html! { <ScheduleChart layers={Rc::new(job.layers.clone())} {tau} overlap={job.overlap} /> }
    };
    html! {
        <section class="card" id="schedule" data-testid="schedule">
            <h2>{ format!("Layer schedule of {} (one iteration, w = p)", job.id) }</h2>
            <p class="note">{ format!("Forward f_j (layers 1→N), backward b_j (N→1) and gradient sends r_j rescaled so that Σr_j = τ = {:.3} s. The job's own model ({}) is highlighted; its η1, η2, η3 scale the θ of T.", tau, job.overlap.name()) }</p>
            { body }
        </section>
    }
}

/// Properties of [`ScheduleChart`].
#[derive(Properties, PartialEq)]
pub struct ScheduleChartProps {
    /// The job's layers.
    pub layers: Rc<Vec<Layer>>,
    /// τ, s.
    pub tau: f64,
    /// The job's overlap model (highlighted).
    pub overlap: Overlap,
}

/// The schedule's SVG (drawn again only when its inputs change).
#[function_component]
pub fn ScheduleChart(props: &ScheduleChartProps) -> Html {
    let svg = schedule_svg(
        &props.layers,
        props.tau,
        props.overlap,
        &ScheduleOptions {
            width: 660.0,
            height: 400.0,
            unit: TimeUnit::Auto,
        },
    );
    html! {
        <>
            <div class="chart" data-testid="schedule-chart">{ Html::from_html_unchecked(AttrValue::from(svg.clone())) }</div>
            <crate::components::chart::ChartDownloads {svg} name="schedule" />
        </>
    }
}
