//! The jobs: a table (add, duplicate, delete, select) and the editor of the selected job.

use crate::codec::{layer_totals, Profile};
use crate::components::field::{Field, Messages};
use crate::components::format::{duration, sig};
use crate::components::use_app;
use crate::fields::{self, FieldKey, JOB_NUMBERS};
use crate::state::{Action, State};
use crate::state::{DraftAction, ViewAction};
use smd_core::Scenario;
use std::rc::Rc;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// The jobs table.
#[function_component]
pub fn JobsTable() -> Html {
    let state = use_app();
    // The build's first screen ends with the application panel.
    let all = !crate::components::use_first_screen();
    let add = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Draft(DraftAction::AddJob)))
    };
    let error_counts: Vec<(u64, usize)> = state
        .draft
        .uids
        .iter()
        .map(|&u| (u, state.draft.job_error_count(u)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let arrivals = has_arrivals(&state.draft.scenario);
    // Headers name a measured job's columns when every job is one, both kinds' when mixed.
    let jobs = &state.draft.scenario.jobs;
    let measured = jobs.iter().filter(|j| j.measured.is_some()).count();
    let head = |ps: &'static str, mixed: &'static str, all: &'static str| match measured {
        0 => ps,
        n if n == jobs.len() => all,
        _ => mixed,
    };
    html! {
        <section class="card" id="jobs">
            <h2>{ format!("Jobs ({})", state.draft.scenario.jobs.len()) }
                <button class="small" onclick={add} data-action="add-job">{"+ add job"}</button>
            </h2>
            <crate::components::inputs::GeneratePanel />
            <crate::components::apps::ApplicationPanel />
            if all {
            <crate::components::apps::TracePanel />
            <div class="scroll jobs-scroll">
                <table class="jobs" data-testid="jobs-table">
                    <thead><tr>
                        <th>{"id"}</th><th>{ head("mode", "mode / kind", "kind") }</th><th>{ head("overlap", "overlap / app", "app") }</th>
                        <th class="num" title="iterations (a measured job: its total batch)">{ head("E", "E / batch", "batch") }</th>
                        <th class="num" title="limit in instances (a measured job: its most GPUs)">{ head("ϑ", "ϑ / GPUs", "GPUs") }</th>
                        <th class="num">{"γ1"}</th><th class="num">{"γ3"}</th>
                        <th class="num" title="layers">{"N"}</th>
                        if arrivals { <th class="num" title="arrival time, s from the start of the trace">{"arrives"}</th> }
                        <th><span class="visually-hidden">{"problems"}</span></th><th><span class="visually-hidden">{"actions"}</span></th>
                    </tr></thead>
                    <JobRows draft={state.draft.scenario.clone()} uids={Rc::new(state.draft.uids.clone())}
                        selected={state.view.selected} {error_counts} dispatch={state.dispatcher()} />
                </table>
            </div>
            <JobEditor />
            }
        </section>
    }
}

/// Whether any job has an arrival time (the table then shows it).
pub fn has_arrivals(s: &Scenario) -> bool {
    s.jobs.iter().any(|j| j.arrival_s.is_some())
}

/// Properties of [`JobRows`]: everything the rows show, so that they render again only
/// when one of these changes (not on every progress message of a large solve).
#[derive(Properties, PartialEq)]
pub struct JobRowsProps {
    /// The draft.
    pub draft: Rc<Scenario>,
    /// Its job uids.
    pub uids: Rc<Vec<u64>>,
    /// The selected job.
    pub selected: Option<u64>,
    /// Jobs with messages, and how many.
    pub error_counts: Vec<(u64, usize)>,
    /// To change the state.
    pub dispatch: UseReducerDispatcher<State>,
}

/// The rows of the jobs table.
#[function_component]
pub fn JobRows(props: &JobRowsProps) -> Html {
    let arrivals = has_arrivals(&props.draft);
    let rows = props.draft.jobs.iter().zip(props.uids.iter()).map(|(j, &uid)| {
        let d = props.dispatch.clone();
        let choose = Callback::from(move |()| d.dispatch(Action::View(ViewAction::SelectJob(uid))));
        let (select, onkeydown) = crate::components::on_activate(choose);
        let d = props.dispatch.clone();
        let dup = Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            d.dispatch(Action::Draft(DraftAction::DuplicateJob(uid)))
        });
        let d = props.dispatch.clone();
        let del = Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            d.dispatch(Action::Draft(DraftAction::DeleteJob(uid)))
        });
        let errors = props
            .error_counts
            .iter()
            .find(|(u, _)| *u == uid)
            .map(|(_, n)| *n)
            .unwrap_or(0);
        let selected = props.selected == Some(uid);
        let t = layer_totals(&j.layers);
        html! {
            <tr key={uid} class={classes!(selected.then_some("selected"), (errors > 0).then_some("invalid"))}
                onclick={select} {onkeydown} tabindex="0" aria-selected={selected.to_string()} data-testid="job-row">
                <td class="id">{ if selected { "▸ " } else { "" } }{ &j.id }</td>
                if let Some(m) = &j.measured {
                    <td title="data-parallel, ring all-reduce, as measured">{"all-reduce"}</td>
                    <td>{ m.app.name() }</td>
                    <td class="num" title="total batch" data-label="batch">{ m.batch_size.map(|b| sig(b, 5)).unwrap_or_else(|| "chosen".into()) }</td>
                    <td class="num" title="most GPUs" data-label="GPUs">{ m.max_workers.map(|w| sig(w, 3)).unwrap_or_else(|| "cap".into()) }</td>
                } else {
                    <td>{ j.mode.name() }</td>
                    <td>{ j.overlap.name() }</td>
                    <td class="num" data-label="E">{ sig(j.iterations, 4) }</td>
                    <td class="num" data-label="ϑ">{ sig(j.limit_instances, 3) }</td>
                }
                <td class="num" data-label="γ1">{ sig(j.utility.gamma1, 3) }</td>
                <td class="num" data-label="γ3">{ sig(j.utility.gamma3, 3) }</td>
                if j.measured.is_some() {
                    <td class="num no-layers" title="a measured job has no layers">{"—"}</td>
                } else {
                    <td class="num" data-label="N" title={format!("Σf = {} ms, Σb = {} ms, Σr = {} ms", sig(t[0], 4), sig(t[1], 4), sig(t[2], 4))}>{ j.layers.len() }</td>
                }
                if arrivals { <td class="num" data-testid="arrives" data-label="arrives">{ j.arrival_s.map(|a| sig(a, 8)).unwrap_or_else(|| "—".into()) }</td> }
                <td class="job-status">{ if errors > 0 { html!{ <span class="bad">{ format!("⚠ {errors}") }</span> } } else { html!{} } }</td>
                <td class="actions">
                    <button class="small" title="duplicate this job" onclick={dup} data-action="duplicate">{"copy"}</button>
                    <button class="small" title="delete this job" onclick={del} data-action="delete">{"del"}</button>
                </td>
            </tr>
        }
    });
    html! { <tbody>{ for rows }</tbody> }
}

/// Every field of the selected job.
#[function_component]
pub fn JobEditor() -> Html {
    let state = use_app();
    let Some(uid) = state
        .view
        .selected
        .filter(|u| state.draft.index_of(*u).is_some())
    else {
        return html! { <p class="note">{"No job selected."}</p> };
    };
    let k = |f: &str| FieldKey::job(uid, f);
    let numbers = |range: std::ops::Range<usize>| {
        JOB_NUMBERS[range]
            .iter()
            .map(|(f, sym, label)| {
                html! {
                    <Field k={k(f)} symbol={*sym} label={*label} />
                }
            })
            .collect::<Html>()
    };
    let i = state.draft.index_of(uid).expect("filtered above");
    if state.draft.scenario.jobs[i].measured.is_some() {
        return html! { <MeasuredEditor uid={uid} /> };
    }
    let demands = |who: &'static str, sym: &'static str| {
        fields::RESOURCES
            .into_iter()
            .map(|r| {
                html! {
                    <Field k={k(&format!("{who}.{}", r.name()))} symbol={sym} label={AttrValue::from(fields::resource_label(r))} />
                }
            })
            .collect::<Html>()
    };
    html! {
        <div class="editor" data-testid="job-editor">
            <h3>{"Edit job"}</h3>
            <div class="grid4">
                <Field k={k("id")} label="id" />
                <Field k={k("mode")} label="mode" choices={fields::mode_choices()} />
                <Field k={k("overlap")} label="overlap" choices={fields::overlap_choices()} />
                { numbers(0..4) }
                { numbers(4..8) }
                { numbers(8..12) }
            </div>
            <h4>{"Demand of one worker "}<span class="sym">{"Oʷ"}</span>{" and one PS "}<span class="sym">{"Oᵖ"}</span></h4>
            <div class="grid4">
                { demands("worker", "Oʷ") }
                { demands("ps", "Oᵖ") }
            </div>
            <h4>{"Arrival and request (scenario version 2)"}</h4>
            <div class="grid4">
                { for fields::JOB_ONLINE.iter().map(|(f, label)| html! {
                    <Field k={k(f)} label={*label} placeholder="none" />
                }) }
            </div>
            <p class="note">{"Optional; a value makes the scenario version 2 (docs/SCENARIO.md). The plan takes every job at once, as if all had arrived; the Over time view simulates the arrivals."}</p>
            <h4>{"GPU sharing (scenario version 2)"}</h4>
            <div class="grid4">
                { for fields::JOB_SHARING.iter().map(|(f, label, placeholder, hint)| html! {
                    <Field k={k(f)} label={*label} placeholder={*placeholder} hint={*hint} />
                }) }
            </div>
            <p class="note">{"Optional; a value makes the scenario version 2. With GPU sharing on (Parameters), workers of jobs with a memory mean may share a GPU when their memory fits at the accepted collision probability and each keeps its min. performance (docs/MODEL.md §18)."}</p>
            <LayerEditor uid={uid} />
        </div>
    }
}

/// Properties of [`MeasuredEditor`].
#[derive(Properties, PartialEq)]
pub struct MeasuredProps {
    /// The job.
    pub uid: u64,
}

/// The editor of a measured all-reduce job (docs/MODEL.md §21–§22): its application,
/// batch and GPUs — no parameter servers —, its utility in hours, its curve of seconds per
/// iteration over GPUs with the measured rows marked, and its time to the target.
#[function_component]
pub fn MeasuredEditor(props: &MeasuredProps) -> Html {
    let state = use_app();
    let Some(i) = state.draft.index_of(props.uid) else {
        return html! {};
    };
    let s = &state.draft.scenario;
    let job = &s.jobs[i];
    let k = |f: &str| FieldKey::job(props.uid, f);
    let model = smd_core::model::JobModel::of(job, &s.cluster, s.params.time_unit_s);
    let steps = model
        .measured
        .as_ref()
        .map(|c| c.steps())
        .unwrap_or_default();
    let fastest = model.integer_optimum();
    let summary = match (model.measured.as_ref(), fastest) {
        (Some(c), Some((w, _, t))) => {
            let at = |w: u32| {
                steps
                    .iter()
                    .find(|p| p.w == w)
                    .map(|p| {
                        format!(
                            "{} at a total batch of {}",
                            duration(p.t_s),
                            sig(p.batch, 5)
                        )
                    })
                    .unwrap_or_else(|| "—".into())
            };
            let asked = job
                .requested_workers
                .map(|r| (r.round() as u32).clamp(1, c.cap))
                .map(|r| format!("; at its {r} asked GPUs {}", at(r)))
                .unwrap_or_default();
            format!(
                "Time to its target alone: on 1 GPU {}; fastest on {w} GPUs, {}{asked}. At most {} GPUs (its cap on this cluster), packed {} to a machine.",
                at(1),
                duration(t),
                c.cap,
                c.per_machine
            )
        }
        _ => "It cannot run on this cluster: no GPU a worker fits, or its batch is out of range."
            .into(),
    };
    let width = 480.0;
    let svg = smd_charts::step_curve_svg(&steps, width);
    let demands = fields::RESOURCES
        .into_iter()
        .map(|r| {
            html! {
                <Field k={k(&format!("worker.{}", r.name()))} symbol="Oʷ" label={AttrValue::from(fields::resource_label(r))} />
            }
        })
        .collect::<Html>();
    html! {
        <div class="editor" data-testid="job-editor" data-kind="allreduce">
            <h3>{"Edit job — measured, data-parallel with all-reduce"}</h3>
            <p class="note">{"Its speed comes from its application's measurements (nodes of 4 × T4): w GPUs, one worker each, no parameter servers. Its utility is in hours: worth γ1 if it reaches its target well before γ3 hours, half at γ3 (docs/MODEL.md §21–§22)."}</p>
            <div class="grid4">
                <Field k={k("id")} label="id" />
                <Field k={k("app")} label="application" choices={fields::app_choices()} />
                { for fields::JOB_MEASURED.iter().map(|(f, label, placeholder)| html! {
                    <Field k={k(f)} label={*label} placeholder={*placeholder} />
                }) }
                <Field k={k("utility.gamma1")} symbol="γ1" label="worth when on time" />
                <Field k={k("utility.gamma2")} symbol="γ2" label="sharpness, per hour" />
                <Field k={k("utility.gamma3")} symbol="γ3" label="deadline, hours" />
            </div>
            <div class="measured-curve" data-testid="step-curve">
                <p class="summary" data-testid="time-to-target">{ summary }</p>
                { Html::from_html_unchecked(AttrValue::from(svg.clone())) }
                <crate::components::chart::ChartDownloads {svg} name="step-curve" />
            </div>
            <h4>{"Demand of one worker "}<span class="sym">{"Oʷ"}</span>{" (one GPU)"}</h4>
            <div class="grid4">{ demands }</div>
            <h4>{"Arrival and request"}</h4>
            <div class="grid4">
                <Field k={k("arrival_s")} label="arrives, s" placeholder="none" />
                <Field k={k("requested_workers")} label="asked GPUs" placeholder="none" />
            </div>
            <h4>{"GPU sharing"}</h4>
            <div class="grid4">
                { for fields::JOB_SHARING.iter().map(|(f, label, placeholder, hint)| html! {
                    <Field k={k(f)} label={*label} placeholder={*placeholder} hint={*hint} />
                }) }
            </div>
            <p class="note">{"The memory profile is an estimate at the job's local batch (docs/APPLICATIONS.md §6), not a measurement."}</p>
        </div>
    }
}

/// Properties of [`LayerEditor`].
#[derive(Properties, PartialEq)]
pub struct LayerProps {
    /// The job.
    pub uid: u64,
}

/// The per-layer profile: a summary and a text editor (one line per layer).
#[function_component]
pub fn LayerEditor(props: &LayerProps) -> Html {
    let state = use_app();
    let open = use_state(|| false);
    let Some(i) = state.draft.index_of(props.uid) else {
        return html! {};
    };
    let job = &state.draft.scenario.jobs[i];
    let key = FieldKey::job(props.uid, "layers");
    let t = layer_totals(&job.layers);
    let profile = Profile::of(&job.layers)
        .map(|p| p.name())
        .unwrap_or("custom");
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    let oninput = {
        let d = state.dispatcher();
        let key = key.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            d.dispatch(Action::Draft(DraftAction::Edit(key.clone(), v)));
        })
    };
    let invalid = state.draft.errors_of(&key).next().is_some();
    html! {
        <div class={classes!("layers", invalid.then_some("invalid"))}>
            <h4>{"Layers"}</h4>
            <p class="summary">
                { format!("N = {} layers · Σf = {} ms · Σb = {} ms · Σr = {} ms (profile: {profile}) ",
                    job.layers.len(), sig(t[0], 4), sig(t[1], 4), sig(t[2], 4)) }
                <button class="small" onclick={toggle} data-action="edit-layers">
                    { if *open { "close editor" } else { "edit per-layer profile" } }
                </button>
            </p>
            if *open || invalid {
                <label class="field">
                    <span class="label">{"one line per layer: forward_ms backward_ms comm_ms (comm is a profile: only its shape counts)"}</span>
                    <textarea rows="8" value={state.draft.text(&key)} {oninput} data-field="job.layers" />
                </label>
            }
            <Messages k={key} />
        </div>
    }
}
