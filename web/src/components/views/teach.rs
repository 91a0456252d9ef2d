//! Step through: SMD for one job and one plan, step by step (docs/MODEL.md §20), in the
//! solver worker's trace.
//!
//! Step through: SMD for the selected job of the plan on screen, step by step — a stepper
//! (First, Previous, Play/Stop, Next, Last, a jump per stage), the step's sentence in
//! docs/MODEL.md's symbols, and its picture: the job's landscape with the step's marks and,
//! in the admission, its progress. The trace comes from the solver worker
//! (`smd_core::teach`); sentences, marks and charts from `smd_charts::teach`.

use crate::components::hooks::Listener;
use crate::components::use_app;
use crate::state::{Action, TeachMove, View, SPEEDS};
use crate::state::{TeachAction, TeachState};
use smd_charts::teach::{
    admission_chart, admission_rows, explain, overlay, sentence, skipped, stage_title,
};
use smd_charts::{landscape_overlay_svg, line_chart_svg, LandscapeOptions, Value};
use smd_core::teach::{Event as TraceEvent, Stage, Trace};
use smd_core::Landscape;
use std::rc::Rc;
use wasm_bindgen::JsCast;
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

/// The stepper's keys, anywhere on the page while Step through is on screen: ← and → a
/// step, Home and End the first and last, space Play/Stop. Keys typed into a field, on the
/// tab list (whose arrows change the view) or — space — on a button (which presses it) are
/// theirs. A click on the view's tab or on a stepper button leaves the focus in the view's
/// panel ([`focus_panel`]), never on the tab list or the button, so the keys that follow
/// step (and space plays) rather than change the view or press the button again.
fn on_key(e: &web_sys::KeyboardEvent) -> Option<TeachAction> {
    if e.ctrl_key() || e.alt_key() || e.meta_key() || e.default_prevented() {
        return None;
    }
    let target = e.target()?.dyn_into::<web_sys::Element>().ok();
    let tag = target.as_ref().map(|t| t.tag_name()).unwrap_or_default();
    if matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        || target
            .as_ref()
            .and_then(|t| t.closest("[role=tablist]").ok().flatten())
            .is_some()
    {
        return None;
    }
    Some(match e.key().as_str() {
        "ArrowLeft" => TeachAction::Go(TeachMove::Previous),
        "ArrowRight" => TeachAction::Go(TeachMove::Next),
        "Home" => TeachAction::Go(TeachMove::First),
        "End" => TeachAction::Go(TeachMove::Last),
        " " if tag != "BUTTON" => TeachAction::Toggle,
        _ => return None,
    })
}

/// Puts the focus in the view's panel (the page's `tabpanel`).
pub fn focus_panel() {
    let panel = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[role=tabpanel]").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(p) = panel {
        let _ = p.focus();
    }
}

/// A press of the pointer on a stepper button: the button does not take the focus (its
/// click still comes), the panel does — so space, after a click on Next, plays rather than
/// pressing Next again.
fn keep_focus(e: MouseEvent) {
    let on_button = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("button").ok().flatten())
        .is_some();
    if on_button {
        e.prevent_default();
        focus_panel();
    }
}

/// Listens to the stepper's keys on the document while the view is on screen.
#[hook]
fn use_teach_keys(state: &crate::components::AppState) {
    let d = state.dispatcher();
    let on = state.view.tab == View::Teach;
    use_effect_with(on, move |&on| {
        let listener = on.then(|| {
            let doc = web_sys::window().and_then(|w| w.document())?;
            Some(Listener::new(doc.into(), "keydown", move |e| {
                let action = e.dyn_ref::<web_sys::KeyboardEvent>().and_then(on_key);
                if let Some(a) = action {
                    e.prevent_default();
                    d.dispatch(Action::Teach(a));
                }
            }))
        });
        move || drop(listener)
    });
}

/// The job picker, the stepper and the step with its picture.
#[function_component]
pub fn TeachPanel() -> Html {
    let state = use_app();
    use_teach_keys(&state);
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
        .and_then(|l| l.data())
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
    let picker = super::plan::landscape::job_picker(
        state.dispatcher(),
        &results,
        selected_index,
        None,
        Some("teach-job"),
    );
    // A measured job: what applies instead of steps (docs/MODEL.md §21.1).
    let measured = selected_index
        .and_then(|i| results.scenario.jobs.get(i))
        .filter(|j| j.measured.is_some());
    let data = teach.trace.as_ref().map(|t| t.data());
    let body = match (&data, trace) {
        _ if measured.is_some() => html! {
            <p class="note" data-testid="teach-measured">{ format!(
                "{} is a measured all-reduce job: SMD sizes it by trying every w from 1 to its cap (its region is one-dimensional, p = 0) and takes the least T — there are no bounds, grid or rounding to step through (docs/MODEL.md §21.1). Pick a parameter-server job to follow SMD step by step.",
                measured.map_or("", |j| j.id.as_str())
            ) }</p>
        },
        (None, _) | (Some(None), _) => {
            html! { <p class="note" data-testid="teach-loading">{"Tracing SMD for this job…"}</p> }
        }
        (Some(Some(Err(e))), _) => {
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
            <details class="note teach-about"><summary>{"What this view shows"}</summary>{"The plan on screen, replayed for one job with the smd policy: (a) the bounds l_j, φ_j of the summands ζ_j of T and the free summand J; (b) Algorithm 1's ε-grid — the grid points solved and the blocks the fast path pruned, with the best ν so far; (c) Algorithm 2 — x̃ and its draws; (d) the admission of every job. The lesson walks the key steps — each says in brief what it passes over — and ends with the decision in words; uncheck it for every step. Long searches are cut (the summaries say how many steps were left out)."}</details>
            { body }
        </section>
    }
}

/// The stepper, the step and its picture.
fn stepper(
    state: &crate::components::AppState,
    t: &Rc<Trace>,
    k: usize,
    svg: Option<AttrValue>,
    chart: Option<AttrValue>,
) -> Html {
    let teach: &TeachState = &state.teach;
    let Some(e) = t.steps.get(k) else {
        return html! { <p class="note">{"This trace has no steps."}</p> };
    };
    let (at, of) = teach.position();
    let brief = teach.lesson_step().and_then(|s| skipped(t, &s));
    let stage = e.stage();
    // The last step is the decision: its job's allocation and admission, for outside checks.
    let line = t.plan.jobs.get(t.index);
    let decision = matches!(e, TraceEvent::Admitted { .. })
        .then_some(line)
        .flatten();
    let why = decision.and_then(|_| explain(t));
    let text = sentence(t, k);
    let n = t.steps.len();
    let counter = if teach.lesson {
        format!("Step {at} of {of} (trace step {} of {n}) · ", k + 1)
    } else {
        format!("Step {at} of {of} · ")
    };
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
            { controls(state, t, stage) }
            <div class="teach-body">
                <div class="teach-words">
                    <div class="teach-step" data-testid="teach-step" aria-live="polite"
                        data-step={at.to_string()} data-steps={of.to_string()} data-stage={stage.name()}
                        data-trace-step={(k + 1).to_string()}
                        data-w={decision.and_then(|l| l.workers).map(|w| w.to_string())}
                        data-p={decision.and_then(|l| l.ps).map(|p| p.to_string())}
                        data-admitted={decision.map(|l| l.admitted.to_string())}>
                        <p class="teach-counter" data-testid="teach-counter">{ counter }
                            <strong data-testid="teach-stage">{ stage_title(stage) }</strong></p>
                        { for brief.map(|b| html! { <p class="note teach-skipped" data-testid="teach-skipped">{ b }</p> }) }
                        <p class="teach-text" data-testid="teach-text">{ text }</p>
                        { for why.map(|w| html! {
                            <p class="teach-why" data-testid="teach-decision"><strong>{"The decision in words. "}</strong>{ w }</p>
                        }) }
                    </div>
                    if stage == Stage::Admission {
                        { for chart.map(|svg| html! {
                            <div class="chart teach-admission" data-testid="teach-admission">
                                { Html::from_html_unchecked(svg.clone()) }
                                <crate::components::chart::ChartDownloads {svg} name="step-admission" />
                            </div>
                        }) }
                        { for table.flatten() }
                    }
                </div>
                <div class="teach-picture">
                    { match svg {
                        Some(svg) => html! {
                            <div class="chart" data-testid="teach-landscape">
                                { Html::from_html_unchecked(svg.clone()) }
                                <crate::components::chart::ChartDownloads {svg} name="step-landscape" />
                            </div>
                        },
                        None => html! { <p class="note chart-placeholder">{"Computing the landscape…"}</p> },
                    } }
                </div>
            </div>
        </>
    }
}

/// The stepper's buttons, the lesson and speed options, the stage jumps.
fn controls(state: &crate::components::AppState, t: &Rc<Trace>, stage: Stage) -> Html {
    let teach: &TeachState = &state.teach;
    let (at, of) = teach.position();
    let n = t.steps.len();
    let (first, last) = (at <= 1, at >= of);
    let go = |m: TeachMove| {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Teach(TeachAction::Go(m))))
    };
    let playing = teach.playing;
    let play = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Teach(TeachAction::Play(!playing))))
    };
    let on_lesson = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let on = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .is_some_and(|i| i.checked());
            d.dispatch(Action::Teach(TeachAction::Lesson(on)));
        })
    };
    let on_speed = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            if let Some(ms) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| s.value().parse().ok())
            {
                d.dispatch(Action::Teach(TeachAction::Speed(ms)));
            }
        })
    };
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
    html! {
        <>
            <div class="buttons teach-controls" role="toolbar" aria-label="Step through" onmousedown={keep_focus}>
                <button onclick={go(TeachMove::First)} disabled={first} data-testid="teach-first" aria-keyshortcuts="Home">{"« First"}</button>
                <button onclick={go(TeachMove::Previous)} disabled={first} data-testid="teach-prev" aria-keyshortcuts="ArrowLeft">{"◀ Previous"}</button>
                <button onclick={play} disabled={of < 2} aria-pressed={playing.to_string()} data-testid="teach-play" aria-keyshortcuts="Space">
                    { if playing { "■ Stop" } else { "▶ Play" } }
                </button>
                <button onclick={go(TeachMove::Next)} disabled={last} data-testid="teach-next" aria-keyshortcuts="ArrowRight">{"Next ▶"}</button>
                <button onclick={go(TeachMove::Last)} disabled={last} data-testid="teach-last" aria-keyshortcuts="End">{"Last »"}</button>
            </div>
            <div class="teach-options">
                <label class="check">
                    <input type="checkbox" checked={teach.lesson} onchange={on_lesson} data-testid="teach-lesson" />
                    { format!(" Lesson: the {} key steps (off: all {n} steps of the trace)", teach.keys.len()) }
                </label>
                <label>{"Play speed "}
                    <select onchange={on_speed} data-testid="teach-speed">
                        { for SPEEDS.iter().map(|&(label, ms)| html! {
                            <option value={ms.to_string()} selected={ms == teach.play_ms}>{ label }</option>
                        }) }
                    </select>
                </label>
                <span class="note" data-testid="teach-keys">{"Keys, anywhere in this view (a click on it puts them here): ← → a step · Home / End · space Play / Stop. On the tab list the arrows change the view."}</span>
            </div>
            <div class="switch teach-stages" onmousedown={keep_focus}>{ for stages }</div>
        </>
    }
}

/// The "Step through" view.
#[function_component]
pub fn TeachView() -> Html {
    html! { <TeachPanel /> }
}

/// What the page needs of the "Step through" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <TeachView /> }
    }

    fn has_exports(&self) -> bool {
        false
    }
}
