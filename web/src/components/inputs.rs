//! Cluster, parameters and the "generate N jobs" form.

use super::field::{Field, Messages};
use super::use_app;
use crate::fields::{self, resource_label, FieldKey, RESOURCES};
use crate::state::Action;
use crate::state::{AppsAction, DraftAction};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// ε slider range (log scale).
pub const EPSILON_RANGE: (f64, f64) = (0.005, 0.5);
const SLIDER_STEPS: f64 = 1000.0;

/// Slider position (0…1000) of ε on the log scale.
pub fn epsilon_to_slider(eps: f64) -> f64 {
    let (lo, hi) = EPSILON_RANGE;
    let t = (eps.clamp(lo, hi).ln() - lo.ln()) / (hi.ln() - lo.ln());
    (t * SLIDER_STEPS).round()
}

/// ε at a slider position, rounded to 2 significant digits.
pub fn slider_to_epsilon(pos: f64) -> String {
    let (lo, hi) = EPSILON_RANGE;
    let e = (lo.ln() + (hi.ln() - lo.ln()) * pos / SLIDER_STEPS).exp();
    let mag = e.log10().floor() as i32;
    let decimals = (1 - mag).max(0) as usize;
    let s = format!("{e:.decimals$}");
    s.parse::<f64>().map(|v| v.to_string()).unwrap_or(s)
}

/// The hint beside ε: the smallest ε the jobs allow and the job that sets it.
pub fn epsilon_floor_text(eps: f64, job: &str) -> String {
    format!(
        "smallest ε for these jobs: {} ({job})",
        super::format::sig(eps, 2)
    )
}

/// Capacity and instance shape.
#[function_component]
pub fn ClusterPanel() -> Html {
    let state = use_app();
    let units_key = FieldKey::top("cluster.units");
    let units_text = state.draft.text(&units_key);
    let on_slider = {
        let d = state.dispatcher();
        let k = units_key.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            d.dispatch(Action::Draft(DraftAction::Edit(k.clone(), v)));
        })
    };
    let cap = state.draft.scenario.cluster.capacity().to_array();
    // The paper sweeps 1–5 units; a pool of machines has as many units as machines.
    let slider_max = state
        .draft
        .scenario
        .cluster
        .units
        .clamp(10.0, 1000.0)
        .ceil()
        .to_string();
    let on_machines = state.draft.scenario.cluster.has_machines();
    // One line for the cluster every view plans (issue 27: one cluster, stated once).
    let in_force = html! {
        <p class="in-force" data-testid="cluster-in-force">
            <strong>{"In force: "}</strong>{ smd_apps::machines::describe(&state.draft.scenario.cluster) }
        </p>
    };
    let kind = |machines: bool, label: &'static str, hint: &'static str| {
        let d = state.dispatcher();
        let onchange = Callback::from(move |_: Event| {
            d.dispatch(Action::Apps(AppsAction::UseMachines(machines)))
        });
        html! {
            <label class="kind" title={hint}>
                <input type="radio" name="cluster-kind" checked={on_machines == machines} {onchange}
                    data-action={if machines { "use-machines" } else { "use-pool" }} />
                { label }
            </label>
        }
    };
    let instance = html! {
        <tr><th title="A job's limit is L = ϑ · instance.">{"instance"}</th>
            { for RESOURCES.into_iter().map(|r| html! {
                <td><Field k={FieldKey::top(&format!("cluster.instance.{}", r.name()))} label={AttrValue::from(resource_label(r))}
                    name={AttrValue::from(format!("instance {}", resource_label(r)))} /></td>
            }) }
        </tr>
    };
    let capacity = html! {
        <p class="note" data-testid="capacity">{ "Capacity: " }
            { for RESOURCES.into_iter().zip(cap).map(|(r, v)| html! {
                <span class="cap">{ format!("{} {}", super::format::sig(v, 4), resource_label(r)) }</span>
            }) }
        </p>
    };
    let kinds = html! {
        <div class="row kinds" data-testid="cluster-kind">
            { kind(false, "a pool of units", "Capacity = units × cluster unit (version 1; the paper's model).") }
            { kind(true, "machines (version 2)", "Groups of machines; a plan also says where each job's tasks run.") }
        </div>
    };
    if on_machines {
        return html! {
            <section class="card" id="cluster">
                <h2>{"Cluster"}</h2>
                { in_force }
                { kinds }
                <super::apps::MachinesRow />
                <super::apps::MachineGroups />
                { capacity }
                <table class="shape">
                    <thead><tr><th><span class="visually-hidden">{"per"}</span></th>{ for RESOURCES.into_iter().map(|r| html! { <th>{ resource_label(r) }</th> }) }</tr></thead>
                    <tbody>{ instance }</tbody>
                </table>
            </section>
        };
    }
    html! {
        <section class="card" id="cluster">
            <h2>{"Cluster"}</h2>
            { in_force }
            { kinds }
            <super::apps::MachinesRow />
            <div class="row units">
                <label class="field grow">
                    <span class="label">{"capacity, cluster units"}</span>
                    <input type="range" min="0.5" max={slider_max} step="0.5"
                        value={units_text.clone()} oninput={on_slider} aria-label="cluster units slider"
                        data-field="cluster.units.slider" />
                </label>
                <Field k={units_key.clone()} label="units" hint="Capacity = units × cluster unit (the paper sweeps 1–5)." />
            </div>
            { capacity }
            <table class="shape">
                <thead><tr><th><span class="visually-hidden">{"per"}</span></th>{ for RESOURCES.into_iter().map(|r| html! { <th>{ resource_label(r) }</th> }) }</tr></thead>
                <tbody>
                    <tr><th>{"cluster unit"}</th>
                        { for RESOURCES.into_iter().map(|r| html! {
                            <td><Field k={FieldKey::top(&format!("cluster.unit.{}", r.name()))} label={AttrValue::from(resource_label(r))}
                                name={AttrValue::from(format!("cluster unit {}", resource_label(r)))} /></td>
                        }) }
                    </tr>
                    { instance }
                </tbody>
            </table>
        </section>
    }
}

/// Solver parameters.
#[function_component]
pub fn ParamsPanel() -> Html {
    let state = use_app();
    let eps_key = FieldKey::top("params.epsilon");
    let on_eps = {
        let d = state.dispatcher();
        let k = eps_key.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(pos) = v.parse::<f64>() {
                d.dispatch(Action::Draft(DraftAction::Edit(
                    k.clone(),
                    slider_to_epsilon(pos),
                )));
            }
        })
    };
    let on_mdelta = {
        let d = state.dispatcher();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            d.dispatch(Action::Draft(DraftAction::Edit(
                FieldKey::top("params.m_delta"),
                v,
            )));
        })
    };
    // The placement fields are for machines; one with a problem stays shown wherever it is.
    let wrong = |f: &str| state.draft.errors_of(&FieldKey::top(f)).next().is_some();
    let on_machines = smd_core::scenario::Placement::used_on(&state.draft.scenario.cluster)
        || wrong("params.placement")
        || wrong("params.dltap_lambda")
        || wrong("params.gpu_sharing")
        || wrong("params.collision_prob")
        || wrong("params.share_overhead");
    let sharing = state
        .draft
        .scenario
        .params
        .gpu_sharing
        .is_some_and(|g| g != smd_core::scenario::GpuSharing::Off)
        || wrong("params.collision_prob")
        || wrong("params.share_overhead");
    let dltap = state.draft.scenario.params.placement == Some(smd_core::scenario::Placement::Dltap)
        || wrong("params.dltap_lambda");
    let unit = match state.draft.scenario.params.time_unit_s {
        None => "π is relative: π = 16·T/T(1,1), so γ3 asks for a speed-up of 16/γ3 over one worker and one PS.".to_string(),
        Some(u) => format!("π = T / {u} s."),
    };
    // The algorithm's knobs are folded away (a planner's plan does not need them); one
    // with a problem opens them, so that its message shows at its input.
    let knobs_wrong = ALGORITHM_FIELDS.iter().any(|f| wrong(f));
    let settings = use_node_ref();
    {
        let settings = settings.clone();
        use_effect_with(knobs_wrong, move |&wrong| {
            if wrong {
                if let Some(d) = settings.cast::<web_sys::Element>() {
                    let _ = d.set_attribute("open", "");
                }
            }
        });
    }
    html! {
        <section class="card" id="params">
            <h2>{"Parameters"}</h2>
            <div class="grid4">
                <Field k={FieldKey::top("params.time_unit_s")} label="time unit, s" placeholder="relative" hint="Empty: relative unit. Else π = T / unit." />
                if on_machines {
                    <Field k={FieldKey::top("params.placement")} label="placement" choices={fields::placement_choices()} hint="How admitted jobs' tasks are put on machines (docs/MODEL.md §15)." />
                    if dltap {
                        <Field k={FieldKey::top("params.dltap_lambda")} symbol="λ" label="dltap mix" placeholder="0.7" hint="dltap's mix of aggregation degree and free share, 0…1; empty: 0.7." />
                    }
                    <Field k={FieldKey::top("params.gpu_sharing")} label="GPU sharing" choices={fields::gpu_sharing_choices()} hint="Whether workers of different jobs share GPUs, and how they are packed (docs/MODEL.md §18): greedy best fit, heuristic (greedy, then empty the least-loaded GPUs) or exact (fewest GPUs, small cases). Only jobs with a GPU memory mean share." />
                    if sharing {
                        <Field k={FieldKey::top("params.collision_prob")} label="collision probability" placeholder="0.01" hint="The accepted probability that a GPU's occupants need more memory than it has, (0, 1); empty: 0.01." />
                        <Field k={FieldKey::top("params.share_overhead")} symbol="κ" label="sharing overhead" placeholder="0.02" hint="The slowdown each co-runner adds, ≥ 0; empty: 0.02." />
                    }
                }
            </div>
            <p class="note">{ unit }</p>
            <div class="note terms">{"What the symbols mean: "}
                { for ["ε", "M_δ", "q, outer depth", "Frieze–Clarke", "ϑ", "γ1, γ2, γ3"].into_iter().map(|t| html! {
                    <span class="term-name">{ t }<super::glossary::Term term={t} /></span>
                }) }
            </div>
            <details class="algorithm" data-testid="algorithm-settings" ref={settings}>
                <summary>{"Algorithm settings"}<span class="sub">{ format!(" — ε {}, M_δ {}, q {}, seed {}, global's budget {} s",
                    state.draft.text(&eps_key), state.draft.text(&FieldKey::top("params.m_delta")),
                    state.draft.text(&FieldKey::top("params.ptas_depth")), state.draft.text(&FieldKey::top("params.seed")),
                    state.draft.text(&FieldKey::top(fields::GLOBAL_BUDGET))) }</span></summary>
                <div class="row">
                    <label class="field grow">
                        <span class="label"><span class="sym">{"ε"}</span>{" inner accuracy (log scale 0.005–0.5)"}</span>
                        <input type="range" min="0" max="1000" step="1"
                            value={epsilon_to_slider(state.draft.scenario.params.epsilon).to_string()}
                            oninput={on_eps} aria-label="epsilon slider" data-field="params.epsilon.slider" />
                    </label>
                    <Field k={eps_key.clone()} symbol="ε" label="" name="ε, inner accuracy" hint="Algorithm 1 finds T within (1+ε) of its minimum over Ω." />
                </div>
                if let Some((eps, job)) = &state.solving.epsilon_floor {
                    <p class="note" data-testid="epsilon-floor"
                        title={format!("Algorithm 1's grid grows as ε shrinks: below this ε, job {job:?}'s grid would exceed the work budget of {:.0e} points.", smd_core::budget::GRID_BUDGET)}>
                        { epsilon_floor_text(*eps, job) }
                    </p>
                }
                <div class="row">
                    <label class="field grow">
                        <span class="label"><span class="sym">{"M_δ"}</span>{" rounding slack (1–4): 1 keeps x̄'s size, more leaves room"}</span>
                        <input type="range" min="1" max="4" step="0.25"
                            value={state.draft.text(&FieldKey::top("params.m_delta"))}
                            oninput={on_mdelta} aria-label="M_δ slider" data-field="params.m_delta.slider" />
                    </label>
                    <Field k={FieldKey::top("params.m_delta")} symbol="M_δ" label="" name="M_δ, rounding slack" hint="Algorithm 2 rounds 1 + (x̄ − 1)/M_δ; ≥ 1." />
                </div>
                <div class="grid4">
                    <Field k={FieldKey::top("params.ptas_depth")} symbol="q" label="outer depth" hint="Frieze–Clarke depth 0…3: guarantees q/(q+4) of the knapsack optimum." />
                    <Field k={FieldKey::top("params.outer")} label="outer method" choices={fields::outer_choices()} hint="Frieze–Clarke at depth q (the paper) or exact branch and bound." />
                    <Field k={FieldKey::top("params.rounding")} label="rounding" choices={fields::rounding_choices()} hint="Paper: randomized rounding (Algorithm 2). Improved: the best feasible floor/ceil corner." />
                    <Field k={FieldKey::top("params.polish")} label="polish p" choices={vec![("false", "off (paper)".to_owned()), ("true", "on".to_owned())]} hint="Replace p̄ by the exact best p for w̄ before rounding." />
                    <Field k={FieldKey::top("params.seed")} label="seed" name="rounding seed" hint="Seed of the rounding streams." />
                    <Field k={FieldKey::top("params.max_rounding_attempts")} label="rounding attempts" />
                    <Field k={FieldKey::top(fields::GLOBAL_BUDGET)} label="global time budget, s"
                        hint="How long the global policy's search may run (a positive number of seconds). When it ends, global shows the best plan found and how far from the optimum it can be at most. Not part of the scenario; kept with the page's draft." />
                </div>
            </details>
        </section>
    }
}

/// The fields under "Algorithm settings": the algorithm's knobs, not the scenario's model.
pub const ALGORITHM_FIELDS: [&str; 9] = [
    "params.epsilon",
    "params.m_delta",
    "params.ptas_depth",
    "params.outer",
    "params.rounding",
    "params.polish",
    "params.seed",
    "params.max_rounding_attempts",
    fields::GLOBAL_BUDGET,
];

/// "Generate N jobs" with a seed.
#[function_component]
pub fn GeneratePanel() -> Html {
    let state = use_app();
    let g = &state.draft.generate;
    // Named as what they generate: the editor and the algorithm have a mode and a seed too.
    let field = |name: &'static str, label: &'static str, value: String| {
        let d = state.dispatcher();
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            d.dispatch(Action::Draft(DraftAction::GenerateField(name, v)));
        });
        let err = g.error.as_ref().filter(|(f, _)| f == name);
        html! {
            <label class={classes!("field", err.is_some().then_some("invalid"))}>
                <span class="label">{ label }</span>
                <input type="text" inputmode="numeric" {value} {oninput} data-field={format!("generate.{name}")}
                    aria-label={if name == "jobs" { "jobs to generate, I".to_owned() } else { format!("generated jobs' {label}") }} />
                if let Some((_, m)) = err { <span class="msg" data-testid="error">{ m }</span> }
            </label>
        }
    };
    let on_mode = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            d.dispatch(Action::Draft(DraftAction::GenerateField("mode", v)));
        })
    };
    let generate = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Draft(DraftAction::Generate)))
    };
    let reset = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Draft(DraftAction::Reset)))
    };
    let sync = g.mode == smd_core::Mode::Sync;
    html! {
        <div class="row generate">
            { field("jobs", "jobs I", g.jobs.clone()) }
            { field("seed", "seed", g.seed.clone()) }
            <label class="field">
                <span class="label">{"mode"}</span>
                <select onchange={on_mode} data-field="generate.mode" aria-label="generated jobs' mode">
                    <option value="sync" selected={sync}>{"sync"}</option>
                    <option value="async" selected={!sync}>{"async"}</option>
                </select>
            </label>
            <button onclick={generate} data-action="generate">{"Generate jobs"}</button>
            <button class="quiet" onclick={reset} data-action="reset" title="The default scenario: 30 generated jobs, seed 1.">{"Reset"}</button>
            <Messages k={FieldKey::top("jobs")} />
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epsilon_slider_is_logarithmic() {
        assert_eq!(epsilon_to_slider(0.005), 0.0);
        assert_eq!(epsilon_to_slider(0.5), 1000.0);
        assert_eq!(epsilon_to_slider(0.05), 500.0);
        assert_eq!(slider_to_epsilon(500.0), "0.05");
        assert_eq!(slider_to_epsilon(0.0), "0.005");
        assert_eq!(slider_to_epsilon(1000.0), "0.5");
    }
}
