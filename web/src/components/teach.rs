//! Step through: SMD for the selected job of the plan on screen, step by step — a stepper
//! (First, Previous, Play/Stop, Next, Last, a jump per stage), the step's sentence in
//! docs/MODEL.md's symbols, and its picture: the job's landscape with the step's marks and,
//! in the admission, its progress. The trace comes from the solver worker
//! (`smd_core::teach`); sentences, marks and charts from `smd_charts::teach`.

use super::use_app;
use crate::state::TeachAction;
use crate::state::{Action, TeachMove};
use smd_charts::teach::{admission_chart, admission_rows, overlay, sentence, stage_title};
use smd_charts::{landscape_overlay_svg, line_chart_svg, LandscapeOptions, Value};
use smd_core::teach::{Event as TraceEvent, Stage, Trace};
use smd_core::Landscape;
use std::rc::Rc;
use yew::prelude::*;

/// Admission steps listed under the chart.
const ROWS: usize = 6;

/// An `Rc` compared by address: a memo over it recomputes only for another value.
#[derive(Clone)]
struct Same<T>(Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The landscape with step `k`'s marks, as SVG.
fn picture(l: &Landscape, t: &Trace, k: usize) -> AttrValue {
    let opts = LandscapeOptions {
        width: 660.0,
        height: 470.0,
        value: Value::Time,
        id_prefix: "teach-landscape".into(),
    };
    AttrValue::from(landscape_overlay_svg(l, &opts, &overlay(t, k)))
}

/// The job picker, the stepper and the step with its picture.
#[function_component]
pub fn TeachPanel() -> Html {
    let state = use_app();
    let teach = &state.teach;
    let results = state.solving.results.clone();
    let trace = teach.ready().cloned();
    let step = teach.step;
    // The selected job's landscape, once it is the one of the trace's results and job.
    let landscape = state
        .solving
        .landscape
        .as_ref()
        .filter(|l| Some(l.key) == teach.trace.as_ref().map(|t| t.key))
        .and_then(|l| l.data.clone())
        .and_then(Result::ok);
    let svg = use_memo(
        (landscape.clone().map(Same), trace.clone().map(Same), step),
        |(l, t, k)| match (l, t) {
            (Some(l), Some(t)) => Some(picture(&l.0, &t.0, *k)),
            _ => None,
        },
    );
    let chart = use_memo((trace.clone().map(Same), step), |(t, k)| {
        t.as_ref()
            .and_then(|t| admission_chart(&t.0, *k))
            .map(|c| AttrValue::from(line_chart_svg(&c)))
    });

    let Some(results) = results else {
        return card(
            None,
            html! { <p class="note">{"Waiting for the first plan…"}</p> },
        );
    };
    let selected_index = state.wanted_landscape().map(|(_, _, i)| i);
    let on_job = super::landscape::select_job(state.dispatcher(), results.uids.clone());
    let picker = html! {
        <select onchange={on_job} aria-label="job" data-testid="teach-job">
            { for results.scenario.jobs.iter().enumerate().map(|(i, j)| html! {
                <option selected={Some(i) == selected_index}>{ &j.id }</option>
            }) }
        </select>
    };
    let body = match (&teach.trace, trace) {
        (None, _) | (Some(crate::state::TraceView { data: None, .. }), _) => {
            html! { <p class="note" data-testid="teach-loading">{"Tracing SMD for this job…"}</p> }
        }
        (
            Some(crate::state::TraceView {
                data: Some(Err(e)), ..
            }),
            _,
        ) => {
            html! { <p class="bad" data-testid="teach-error">{ format!("No trace: {e}") }</p> }
        }
        (_, Some(t)) => stepper(&state, &t, step, (*svg).clone(), (*chart).clone()),
        (_, None) => html! {},
    };
    let machines = results.scenario.cluster.has_machines().then(|| html! {
        <p class="note">{"On machines the plan table shows the placed plan; this trace follows SMD to its admission on the machines' total capacity (the placement after it is not traced)."}</p>
    });
    card(Some(picker), html! { <>{ for machines }{ body }</> })
}

/// The view's card around its title's job picker (once there is a plan) and its body.
fn card(picker: Option<Html>, body: Html) -> Html {
    let title = match picker {
        Some(p) => html! { <h2>{"Step through SMD for "}{ p }</h2> },
        None => html! { <h2>{"Step through SMD"}</h2> },
    };
    html! {
        <section class="card teach" id="teach" data-testid="teach">
            { title }
            <p class="note">{"The plan on screen, replayed for one job with the smd policy: (a) the bounds l_j, φ_j of the summands ζ_j of T and the free summand J; (b) Algorithm 1's ε-grid — the grid points solved and the blocks the fast path pruned, with the best ν so far; (c) Algorithm 2 — x̃ and its draws; (d) the admission of every job. Long searches are cut (the summaries say how many steps were left out)."}</p>
            { body }
        </section>
    }
}

/// The stepper, the step and its picture.
fn stepper(
    state: &super::AppState,
    t: &Rc<Trace>,
    k: usize,
    svg: Option<AttrValue>,
    chart: Option<AttrValue>,
) -> Html {
    let n = t.steps.len();
    let Some(e) = t.steps.get(k) else {
        return html! { <p class="note">{"This trace has no steps."}</p> };
    };
    let go = |m: TeachMove| {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Teach(TeachAction::Go(m))))
    };
    let playing = state.teach.playing;
    let play = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Teach(TeachAction::Play(!playing))))
    };
    let stage = e.stage();
    let stages = Stage::ALL.iter().filter_map(|&s| {
        let first = t.first_of(s)?;
        let on = s == stage;
        Some(html! {
            <button class={classes!("toggle", on.then_some("on"))} aria-pressed={on.to_string()}
                onclick={go(TeachMove::Stage(s))} data-testid={format!("teach-stage-{}", s.name())}
                title={format!("step {}", first + 1)}>
                { stage_title(s) }
            </button>
        })
    });
    // The last step is the decision: its job's allocation and admission, for outside checks.
    let line = t.plan.jobs.get(t.index);
    let decision = matches!(e, TraceEvent::Admitted { .. })
        .then_some(line)
        .flatten();
    let text = sentence(t, k);
    let table = (stage == Stage::Admission).then(|| {
        let rows = admission_rows(t, k, ROWS);
        (!rows.is_empty()).then(|| html! {
            <table class="teach-admission-table" data-testid="teach-admission-table">
                <thead><tr><th class="num">{"step"}</th><th>{"weighed"}</th><th class="num">{"value"}</th><th>{"outcome"}</th></tr></thead>
                <tbody>{ for rows.into_iter().map(|r| html! {
                    <tr><td class="num">{ &r[0] }</td><td>{ &r[1] }</td><td class="num">{ &r[2] }</td><td>{ &r[3] }</td></tr>
                }) }</tbody>
            </table>
        })
    });
    html! {
        <>
            <div class="buttons teach-controls" role="toolbar" aria-label="Step through">
                <button onclick={go(TeachMove::First)} disabled={k == 0} data-testid="teach-first">{"« First"}</button>
                <button onclick={go(TeachMove::Previous)} disabled={k == 0} data-testid="teach-prev">{"◀ Previous"}</button>
                <button onclick={play} disabled={n < 2} aria-pressed={playing.to_string()} data-testid="teach-play">
                    { if playing { "■ Stop" } else { "▶ Play" } }
                </button>
                <button onclick={go(TeachMove::Next)} disabled={k + 1 >= n} data-testid="teach-next">{"Next ▶"}</button>
                <button onclick={go(TeachMove::Last)} disabled={k + 1 >= n} data-testid="teach-last">{"Last »"}</button>
            </div>
            <div class="switch teach-stages">{ for stages }</div>
            <div class="teach-step" data-testid="teach-step" aria-live="polite"
                data-step={(k + 1).to_string()} data-steps={n.to_string()} data-stage={stage.name()}
                data-w={decision.and_then(|l| l.workers).map(|w| w.to_string())}
                data-p={decision.and_then(|l| l.ps).map(|p| p.to_string())}
                data-admitted={decision.map(|l| l.admitted.to_string())}>
                <p class="teach-counter" data-testid="teach-counter">{ format!("Step {} of {n} · ", k + 1) }
                    <strong data-testid="teach-stage">{ stage_title(stage) }</strong></p>
                <p class="teach-text" data-testid="teach-text">{ text }</p>
            </div>
            if stage == Stage::Admission {
                { for chart.map(|svg| html! {
                    <div class="chart teach-admission" data-testid="teach-admission">{ Html::from_html_unchecked(svg) }</div>
                }) }
                { for table.flatten() }
            }
            { match svg {
                Some(svg) => html! { <div class="chart" data-testid="teach-landscape">{ Html::from_html_unchecked(svg) }</div> },
                None => html! { <p class="note chart-placeholder">{"Computing the landscape…"}</p> },
            } }
        </>
    }
}
