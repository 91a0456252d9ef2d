//! Real applications (`smd-apps`): a job from an application, the cluster as machines of
//! a catalog type, and loading an arrival trace. Each form keeps its text as typed and
//! shows its problem at the input it belongs to.

use super::field::Field;
use super::format::sig;
use super::use_app;
use crate::fields::{
    machine_path, resource_label, FieldKey, GROUP_FIELDS, GROUP_OPTIONS, RESOURCES,
};
use crate::state::AppsAction;
use crate::state::{machines_in_force, Action, TRACE_SOURCE};
use smd_apps::app::App;
use smd_apps::machines::{MachineType, CATALOG};
use smd_apps::trace::WORKLOADS;
use smd_core::scenario::Architecture;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// One input of a form: its `data-field`, label, text, message and change handler.
pub(crate) fn input(
    field: &'static str,
    label: &'static str,
    value: String,
    error: Option<&String>,
    placeholder: String,
    oninput: Callback<String>,
) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        oninput.emit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    html! {
        <label class={classes!("field", error.is_some().then_some("invalid"))}>
            <span class="label">{ label }</span>
            <input type="text" inputmode="decimal" {value} {oninput} {placeholder}
                aria-invalid={error.is_some().to_string()} data-field={field} />
            if let Some(m) = error { <span class="msg" data-testid="error" role="alert">{ m }</span> }
        </label>
    }
}

/// A select of a form: its `data-field`, label, `(value, label)` choices, the selected
/// value and the change handler.
pub(crate) fn select(
    field: &'static str,
    label: &'static str,
    choices: Vec<(String, String)>,
    selected: &str,
    onchange: Callback<String>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        onchange.emit(e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    html! {
        <label class="field wide">
            <span class="label">{ label }</span>
            <select {onchange} data-field={field}>
                { for choices.into_iter().map(|(v, l)| {
                    let on = v == selected;
                    html! { <option selected={on} value={v}>{ l }</option> }
                }) }
            </select>
        </label>
    }
}

/// A machine type's specs: `4 GPU · 48 vCPU · 192 memory GB · 900 storage GB`.
pub fn machine_specs(m: &MachineType) -> String {
    RESOURCES
        .into_iter()
        .zip(m.capacity.to_array())
        .map(|(r, v)| format!("{} {}", sig(v, 4), resource_label(r)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A group's GPU type for people: `A100`, `T4` when it names none, `—` without GPUs.
fn gpu_label(g: &smd_core::scenario::MachineGroup) -> &'static str {
    g.gpu_type().map_or("—", |t| t.label())
}

pub(crate) fn machine_choices() -> Vec<(String, String)> {
    CATALOG
        .iter()
        .map(|m| {
            let gpus = match m.gpu {
                Some(t) if m.capacity.gpu > 0.0 => {
                    format!("{} × {}", sig(m.capacity.gpu, 3), t.label())
                }
                _ => "no GPU".into(),
            };
            (m.name.to_owned(), format!("{} ({gpus})", m.name))
        })
        .collect()
}

/// What the artifact measured of an application, in a line.
pub fn app_facts(app: App) -> String {
    let f = app.facts();
    let note = if f.fit_note.is_empty() {
        String::new()
    } else {
        format!(" (step time {})", f.fit_note)
    };
    format!(
        "{}: {} M parameters ({} MB), {} epochs. Global batch K measured {}–{} (initial {}); per-worker batch m up to {} measured on one T4{note}, by default min(K, {}).",
        f.model,
        sig(f.parameters as f64 / 1e6, 4),
        sig(app.model_size_mb(), 4),
        f.epochs,
        f.iterations[0].0,
        f.iterations[f.iterations.len() - 1].0,
        f.initial_batch,
        f.local_batch[1],
        f.local_batch[1],
    )
}

/// "From an application": an application and a global batch (and optionally the
/// per-worker batch) make a job — appended, or filling the selected job.
#[function_component]
pub fn ApplicationPanel() -> Html {
    let state = use_app();
    let f = &state.draft.preset;
    let d = state.dispatcher();
    let on = |name: &'static str| {
        let d = d.clone();
        Callback::from(move |v: String| d.dispatch(Action::Apps(AppsAction::PresetField(name, v))))
    };
    let err = |name: &str| f.error.as_ref().filter(|(n, _)| *n == name).map(|e| &e.1);
    let selected = state
        .view
        .selected
        .and_then(|u| Some((u, state.draft.index_of(u)?)));
    let add = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::Apps(AppsAction::AddFromApp)))
    };
    let fill = {
        let d = d.clone();
        Callback::from(move |_| {
            if let Some((u, _)) = selected {
                d.dispatch(Action::Apps(AppsAction::FillFromApp(u)))
            }
        })
    };
    let fill_label = match selected {
        Some((_, i)) => format!(
            "Fill job {:?}",
            smd_core::error::cut(&state.draft.scenario.jobs[i].id)
        ),
        None => "Fill the selected job".into(),
    };
    let apps = App::ALL
        .iter()
        .map(|a| {
            (
                a.name().to_owned(),
                format!("{} — {}", a.name(), a.facts().model),
            )
        })
        .collect();
    let architectures = Architecture::ALL
        .iter()
        .map(|a| (a.name().to_owned(), a.label().to_owned()))
        .collect();
    html! {
        <div class="apps" data-testid="from-app">
            <h3>{"From an application"}</h3>
            <div class="row form">
                { select("preset.app", "application", apps, f.app.name(), on("app")) }
                { select("preset.architecture", "trained as", architectures, f.architecture.name(), on("architecture")) }
                if f.architecture == Architecture::Allreduce {
                    { input("preset.batch", "total batch", f.batch.clone(), err("batch"), "planner's choice".into(), on("batch")) }
                    { input("preset.max_workers", "most GPUs", f.max_workers.clone(), err("max_workers"),
                        "the reference's cap".into(), on("max_workers")) }
                } else {
                    { input("preset.batch", "global batch K", f.batch.clone(), err("batch"), String::new(), on("batch")) }
                    { input("preset.minibatch", "per-worker m", f.minibatch.clone(), err("minibatch"),
                        "default".into(), on("minibatch")) }
                }
            </div>
            <div class="row buttons">
                <button onclick={add} data-action="add-from-app" title="Append a job made from this application at this batch.">{"Add job"}</button>
                <button onclick={fill} disabled={selected.is_none()} data-action="fill-from-app"
                    title="Replace every field of the selected job (its arrival and requests stay).">{ fill_label }</button>
            </div>
            if let Some(m) = err("app") { <p class="msg block" data-testid="error" role="alert">{ m }</p> }
            <p class="note" data-testid="app-facts">{ app_facts(f.app) }{" Measured in the Pollux artifact; every field stays editable below."}</p>
        </div>
    }
}

/// "N machines of type X" and which type is in force (in the cluster card).
#[function_component]
pub fn MachinesRow() -> Html {
    let state = use_app();
    let f = &state.draft.machines;
    let d = state.dispatcher();
    let on = |name: &'static str| {
        let d = d.clone();
        Callback::from(move |v: String| {
            d.dispatch(Action::Apps(AppsAction::MachinesField(name, v)))
        })
    };
    let set = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::Apps(AppsAction::SetMachines)))
    };
    let on_machines = state.draft.scenario.cluster.has_machines();
    let in_force = match machines_in_force(&state.draft.scenario.cluster) {
        _ if on_machines => "Set machines replaces the groups below with N machines of this type (and the instance with one machine); Add group appends them.".into(),
        Some((m, n)) => format!(
            "In force: {} × {} (one unit = one machine, and the instance too).",
            sig(n, 6),
            m.name
        ),
        None => "The cluster below is not a catalog pool (its numbers as typed).".into(),
    };
    html! {
        <div class="machines" data-testid="machines">
            <div class="row form">
                { input("machines.count", "machines N", f.count.clone(), f.error.as_ref(), String::new(), on("count")) }
                { select("machines.type", "of type", machine_choices(), f.machine.name, on("type")) }
                <button onclick={set} data-action="set-machines" title="Units = N, cluster unit = instance = one machine.">{ if on_machines { "Set machines" } else { "Set cluster" } }</button>
            </div>
            <p class="note" data-testid="machine-description">{ f.machine.description }{ format!(". One machine: {}.", machine_specs(f.machine)) }</p>
            <p class="note" data-testid="machines-in-force">{ in_force }</p>
        </div>
    }
}

/// The cluster's machine groups, one row each: name, count, capacity per machine and the
/// optional GPU memory, NIC and local rate; every cell a field (`cluster.machines[i].…`)
/// that shows its text as typed and its messages.
#[function_component]
pub fn MachineGroups() -> Html {
    let state = use_app();
    let groups = state.draft.scenario.cluster.machines.len();
    let d = state.dispatcher();
    let add = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::Apps(AppsAction::AddMachineGroup)))
    };
    let cell = |i: usize, part: &str, label: String| {
        let k = FieldKey::top(&machine_path(i, part));
        let name = AttrValue::from(format!("group {} {label}", i + 1));
        html! { <td><Field {k} label={AttrValue::from(label)} {name} /></td> }
    };
    // Counted, not listed: this renders on every edit.
    let machines: usize = state
        .draft
        .scenario
        .cluster
        .machines
        .iter()
        .map(|g| g.machine_count())
        .sum();
    html! {
        <div class="groups" data-testid="machine-groups">
            <table class="shape groups">
                <thead><tr>
                    { for GROUP_FIELDS.iter().map(|(_, l)| html! { <th>{ *l }</th> }) }
                    { for RESOURCES.into_iter().map(|r| html! { <th>{ resource_label(r) }</th> }) }
                    <th title="What the group's GPUs are measured as (a group that names none: T4).">{"GPU type"}</th>
                    { for GROUP_OPTIONS.iter().map(|(_, l)| html! { <th>{ *l }</th> }) }
                    <th><span class="visually-hidden">{"remove"}</span></th>
                </tr></thead>
                <tbody>
                    { for (0..groups).map(|i| {
                        let remove = {
                            let d = d.clone();
                            Callback::from(move |_| d.dispatch(Action::Apps(AppsAction::RemoveMachineGroup(i))))
                        };
                        html! {
                            <tr data-group={i.to_string()}>
                                { for GROUP_FIELDS.iter().map(|(p, l)| cell(i, p, l.to_string())) }
                                { for RESOURCES.into_iter().map(|r| cell(i, &format!("capacity.{}", r.name()), resource_label(r))) }
                                <td data-testid="group-gpu">{ gpu_label(&state.draft.scenario.cluster.machines[i]) }</td>
                                { for GROUP_OPTIONS.iter().map(|(p, l)| cell(i, p, l.to_string())) }
                                <td><button onclick={remove} disabled={groups <= 1} data-action="remove-group"
                                    title="Remove this group (a cluster of machines keeps at least one).">{"✕"}</button></td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <div class="row buttons">
                <button onclick={add} data-action="add-group" title="Append a group of N machines of the type above.">{"Add group"}</button>
            </div>
            <p class="note" data-testid="machines-count">{ format!("{machines} machines, named <group>-<index>. Capacities are per machine; GB per GPU, NIC and local rate are optional (empty: none).") }</p>
        </div>
    }
}

/// "Load a trace": a bundled workload (or a trace CSV the user opens) on N machines.
#[function_component]
pub fn TracePanel() -> Html {
    let state = use_app();
    let f = &state.draft.trace;
    let d = state.dispatcher();
    let on = |name: &'static str| {
        let d = d.clone();
        Callback::from(move |v: String| d.dispatch(Action::Apps(AppsAction::TraceField(name, v))))
    };
    let err = |name: &str| f.error.as_ref().filter(|(n, _)| *n == name).map(|e| &e.1);
    let load = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::Apps(AppsAction::LoadWorkload)))
    };
    let on_file = super::io::read_picked_file(d.clone(), |d, name, text| {
        d.dispatch(Action::Apps(AppsAction::LoadTraceFile(name, text)))
    });
    let workloads = WORKLOADS
        .iter()
        .map(|(n, _)| {
            let jobs = if n.ends_with("-half") { 80 } else { 160 };
            (n.to_string(), format!("{n} ({jobs} jobs)"))
        })
        .collect();
    html! {
        <div class="trace" data-testid="trace">
            <h3>{"Load a trace"}</h3>
            <div class="row form">
                { select("trace.workload", "workload", workloads, f.workload, on("workload")) }
                { input("trace.count", "on N machines", f.count.clone(), err("count"), String::new(), on("count")) }
                { select("trace.type", "of machine type", machine_choices(), f.machine.name, on("type")) }
            </div>
            <div class="row buttons">
                <button onclick={load} data-action="load-trace" title={format!("Replaces the jobs and the cluster with {} (Undo, in the message, brings them back).", f.workload)}>{ f.load_label() }</button>
                <label class="file" title="Columns name,time,application,num_replicas,batch_size (the artifact's format).">{"or open a trace CSV… "}<input type="file" accept=".csv,text/csv" onchange={on_file} data-action="open-trace" /></label>
            </div>
            if let Some(l) = &f.loaded { <p class="note" data-testid="trace-loaded">{ l }</p> }
            if let Some(m) = err("file") { <p class="msg block" data-testid="error" role="alert">{ m }</p> }
            <p class="note">{ TRACE_SOURCE }{" Loading replaces the jobs and the cluster (Undo, in the message, brings them back). Each job is its application as measured (data-parallel, all-reduce, docs/MODEL.md §21) at its batch, with the GPU cap the reference allows; its arrival time (column \"arrives\", in s) and requested GPUs are kept. The plan takes every job at once; the Over time view simulates them as they arrive."}</p>
        </div>
    }
}
