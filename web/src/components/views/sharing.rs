//! GPU sharing: a production cluster. Node-scoring policies place pods that ask for whole
//! GPUs or a share of one on the openb cluster (or lists the user chose), in the solver
//! worker (`smd-fgd`); the charts of GPU allocation and fragmentation with the bound, the
//! verdicts against the published tables, the distance to the bound, and a map of the GPUs
//! at one moment.

use crate::components::{use_app, AppState};
use crate::solver::{FgdOutput, FgdPolicy};
use crate::state::sharing::{Bundled, Studied, BUNDLED_FILES};
use crate::state::{Action, SharingAction};
use smd_charts::{fgd_lines_svg, fgd_map_svg, FgdChart, FgdLine, MapGroup};
use smd_fgd::summary::distance_gpus;
use smd_fgd::Policy;
use smd_format::{count, num};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;
use yew::prelude::*;
use super::done;
use crate::export::{self, Export};
use crate::state::State;

/// The columns of the table.
pub const SHOWN: [u32; 7] = [50, 80, 90, 100, 110, 120, 130];

/// Fetches a file beside the page as text.
async fn fetch_text(path: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|e| format!("{path}: {e:?}"))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| format!("{path}: no response"))?;
    if !resp.ok() {
        return Err(format!("{path}: HTTP {}", resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(|e| format!("{path}: {e:?}"))?)
        .await
        .map_err(|e| format!("{path}: {e:?}"))?;
    Ok(text.as_string().unwrap_or_default())
}

/// Fetches the bundled lists and tables.
pub async fn fetch_bundled() -> Result<Bundled, String> {
    let mut texts = Vec::with_capacity(BUNDLED_FILES.len());
    for f in BUNDLED_FILES {
        texts.push(fetch_text(f).await?);
    }
    let mut it = texts.into_iter();
    let mut next = || it.next().unwrap_or_default();
    Ok(Bundled {
        nodes: next(),
        pods: next(),
        published: [next(), next(), next()],
    })
}

/// Runs the form's study, fetching the bundled lists first if it needs them (the Run
/// button, and a link that asks for the view to run).
pub fn start(state: &crate::state::State, d: &UseReducerDispatcher<crate::state::State>) {
    let sh = &state.sharing;
    let need = sh.bundled.is_none() && !(sh.nodes.is_some() && sh.pods.is_some());
    d.dispatch(Action::Sharing(SharingAction::Start));
    if need {
        let d = d.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let r = fetch_bundled().await.map(Rc::new);
            d.dispatch(Action::Sharing(SharingAction::Fetched(r)));
        });
    }
}

/// The "GPU sharing" view.
#[function_component]
pub fn SharingView() -> Html {
    let state = use_app();
    let sh = &state.sharing;
    let d = state.dispatcher();
    let busy = sh.run.is_running();
    let run = {
        let d = d.clone();
        let state = state.clone();
        Callback::from(move |_: MouseEvent| start(&state, &d))
    };
    let err = |field: &str| {
        sh.form
            .error
            .as_ref()
            .filter(|e| e.0 == field)
            .map(|e| e.1.clone())
    };
    let field = |name: &'static str, label: &'static str, value: String| {
        let d = d.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            d.dispatch(Action::Sharing(SharingAction::Field(name, v)));
        });
        html! {
            <label>{ label }
                <input type="text" size="8" {value} {oninput} data-field={format!("sharing.{name}")} />
                if let Some(m) = err(name) { <span class="msg" data-testid="error" role="alert">{ m }</span> }
            </label>
        }
    };
    let policies = Policy::ALL.iter().map(|&p| {
        let d = d.clone();
        let on = sh.form.policies.contains(&p);
        let onchange = Callback::from(move |e: Event| {
            let c = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::Sharing(SharingAction::TogglePolicy(p, c)));
        });
        html! {
            <label><input type="checkbox" checked={on} {onchange} data-fgd-policy={p.name()} />{ p.name() }</label>
        }
    });
    let pick = |which: &'static str| {
        crate::components::io::read_picked_file(d.clone(), move |d, name, text| {
            d.dispatch(Action::Sharing(SharingAction::Choose(which, name, text)))
        })
    };
    let use_bundled = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Sharing(SharingAction::UseBundled)))
    };
    let list = |c: &Option<crate::state::sharing::Chosen>, bundled: &str| {
        c.as_ref().map_or(bundled.to_string(), |c| c.name.clone())
    };
    html! {
        <section class="sharing" data-testid="sharing">
            <h2>{"GPU sharing: a production cluster"}</h2>
            <p class="note">{"Pods that ask for whole GPUs or a share of one arrive one at a time and never leave; a node-scoring policy places each on a cluster of GPU nodes. After every pod the run records the share of GPUs allocated and how fragmented the free GPU shares are. The dashed line is what no policy can beat: an upper bound on any packing of the pods arrived, even one that knew them all in advance. The bundled lists are Alibaba's production trace (1,213 nodes, 6,212 GPUs, 8,152 pods); the published results are those of the FGD paper."}</p>
            <div class="row form">
                <span data-testid="sharing-lists">{ format!("Nodes: {}. Pods: {}.", list(&sh.nodes, "the openb cluster"), list(&sh.pods, "the default pod list")) }</span>
                <label>{"node list (CSV) "}<input type="file" accept=".csv,text/csv" onchange={pick("nodes")} data-testid="sharing-nodes-file" /></label>
                <label>{"pod list (CSV) "}<input type="file" accept=".csv,text/csv" onchange={pick("pods")} data-testid="sharing-pods-file" /></label>
                if !sh.uses_bundled() {
                    <button onclick={use_bundled} data-testid="sharing-use-bundled">{"Use the bundled lists"}</button>
                }
            </div>
            if let Some(m) = &sh.file_error {
                <p class="msg" data-testid="sharing-file-error" role="alert">{ m }</p>
            }
            if let Some(m) = &sh.fetch_error {
                <p class="bad" data-testid="sharing-fetch-error">{ format!("The bundled lists could not be loaded: {m}") }</p>
            }
            <div class="row form">
                { field("seeds", "seeds ", sh.form.seeds.clone()) }
                { field("target", "workload, × the cluster's GPUs ", sh.form.target.clone()) }
            </div>
            <div class="row">
                <span class="label">{"policies: "}</span>
                { for policies }
            </div>
            if let Some(m) = err("policies") {
                <p class="msg" data-testid="error" role="alert">{ m }</p>
            }
            <div class="buttons">
                <button onclick={run} disabled={busy} data-testid="sharing-run">{"Run"}</button>
            </div>
            { progress(&state) }
            { results(&state) }
        </section>
    }
}

/// What the page needs of the "GPU sharing" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <SharingView /> }
    }

    fn ready(&self, state: &State) -> bool {
        done(&state.sharing.run.finished).is_some()
    }

    fn exports(&self, state: &State) -> Option<(Export, Export)> {
        done(&state.sharing.run.finished).map(export::sharing)
    }

    fn run(&self, state: &State, d: &UseReducerDispatcher<State>) {
        start(state, d);
    }
}

/// The running study's progress, with Cancel.
fn progress(state: &AppState) -> Html {
    let sh = &state.sharing;
    let cancel = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Sharing(SharingAction::Cancel)))
    };
    let (text, done, total) = if let Some(r) = &sh.run.running {
        let t = &r.request.task;
        let runs = t.policies.len() * t.seeds.len();
        match r.progress {
            None => (format!("Running on {}: starting…", r.request.label), 0, 1),
            Some((k, d, n)) => (
                format!(
                    "Running on {}: {}, seed {} (run {} of {runs}) — {} of {} pods placed",
                    r.request.label,
                    t.policies
                        .get(k / t.seeds.len().max(1))
                        .map_or("?", |p| p.as_str()),
                    t.seeds
                        .get(k % t.seeds.len().max(1))
                        .copied()
                        .unwrap_or_default(),
                    k + 1,
                    count(d as u64),
                    count(n as u64),
                ),
                k * n.max(1) + d,
                runs * n.max(1),
            ),
        }
    } else if sh.start_when_fetched {
        ("Loading the bundled lists…".to_string(), 0, 1)
    } else if sh.map.is_running() {
        ("Drawing the map…".to_string(), 0, 1)
    } else {
        return html! {};
    };
    html! {
        <div class="progress" data-testid="sharing-progress">
            <span>{ text }</span>
            <progress max={total.max(1).to_string()} value={done.to_string()}></progress>
            <button onclick={cancel} data-testid="sharing-cancel">{"Cancel"}</button>
        </div>
    }
}

/// A chart of one quantity of every policy.
fn lines(
    out: &FgdOutput,
    testid: &str,
    title: &str,
    y_label: &str,
    value: fn(&smd_fgd::Point) -> f64,
    bound: bool,
) -> Html {
    let style = |p: &FgdPolicy| {
        Policy::ALL
            .iter()
            .position(|q| q.name() == p.policy)
            .unwrap_or(0)
    };
    let chart = FgdChart {
        testid: testid.into(),
        title: title.into(),
        y_label: y_label.into(),
        lines: out
            .policies
            .iter()
            .map(|p| FgdLine {
                name: p.policy.clone(),
                style: style(p),
                points: p.points.iter().map(|q| (q.x as f64, value(q))).collect(),
            })
            .collect(),
        bound: bound.then(|| {
            out.bound
                .iter()
                .map(|b| (b.x as f64, b.allocation_pct))
                .collect()
        }),
        width: 620.0,
        height: 340.0,
    };
    let svg = AttrValue::from(fgd_lines_svg(&chart));
    let name = AttrValue::from(testid.to_string());
    html! {
        <div class="chart">
            { Html::from_html_unchecked(svg.clone()) }
            <crate::components::chart::ChartDownloads {svg} {name} />
        </div>
    }
}

/// The last study, or why it stopped.
fn results(state: &AppState) -> Html {
    let sh = &state.sharing;
    match &sh.run.finished {
        None => html! {},
        Some(Err(m)) => html! { <p class="bad" data-testid="sharing-error">{ m }</p> },
        Some(Ok(r)) => {
            let out = &r.out;
            let runs = r.task.policies.len() * r.task.seeds.len();
            html! {
                <>
                    <p data-testid="sharing-summary">
                        { format!("{}: {} ({} pods, {} nodes, {} GPUs) in {}.", r.label, if runs == 1 { "1 run".to_string() } else { format!("{runs} runs") }, count(out.pods as u64), count(out.nodes as u64), count(out.gpus.max(0) as u64), smd_format::duration(r.ms / 1000.0)) }
                    </p>
                    { verdicts(r) }
                    <div class="over-time-charts">
                        { lines(out, "sharing-allocation", "GPUs allocated as the workload arrives", "GPUs allocated (%)", |p| p.allocation_pct, true) }
                        { lines(out, "sharing-frag-ratio", "Fragmentation ratio", "free GPU share fragmented (%)", |p| p.frag_ratio_pct, false) }
                        { lines(out, "sharing-frag-amount", "Fragmentation amount", "fragmented GPUs (% of the cluster)", |p| p.frag_amount_pct, false) }
                    </div>
                    { table(out) }
                    { map(state, r) }
                </>
            }
        }
    }
}

/// Each policy's verdict against the published tables, or why there is none.
fn verdicts(r: &Studied) -> Html {
    if r.task.published.is_none() {
        return html! {
            <p class="note" data-testid="sharing-no-verdict">{"The published results cover the bundled lists at a workload of 1.3 × the cluster's GPUs and seeds 42 to 51: these runs are not compared with them."}</p>
        };
    }
    html! {
        <ul data-testid="sharing-verdicts">
            { for r.out.policies.iter().map(|p| match &p.verdict {
                Some((ok, words)) => html! { <li class={if *ok { "yes" } else { "no" }} data-policy={p.policy.clone()}>{ words }</li> },
                None if Policy::from_name(&p.policy).is_some_and(|q| !q.is_published()) => html! { <li data-policy={p.policy.clone()}>{ format!("{}: the project's own policy; the published experiment did not run it", p.policy) }</li> },
                None => html! { <li data-policy={p.policy.clone()}>{ format!("{}: no published values to compare with", p.policy) }</li> },
            }) }
        </ul>
    }
}

/// Unallocated GPUs and the distance to the bound at the shown columns.
fn table(out: &FgdOutput) -> Html {
    let bound = |x: u32| {
        out.bound
            .iter()
            .find(|b| b.x == x)
            .map(|b| b.allocation_pct)
    };
    let cols: Vec<u32> = SHOWN
        .into_iter()
        .filter(|&x| {
            out.policies
                .iter()
                .any(|p| p.points.iter().any(|q| q.x == x))
        })
        .collect();
    html! {
        <table class="results" data-testid="sharing-table">
            <caption>{"Unallocated GPUs, and in brackets how many of them an offline packing of the same pods might allocate (the distance to the bound), as the workload arrives"}</caption>
            <thead><tr>
                <th>{"policy"}</th>
                { for cols.iter().map(|x| html! { <th>{ format!("{x} %") }</th> }) }
            </tr></thead>
            <tbody>
                { for out.policies.iter().map(|p| html! {
                    <tr data-policy={p.policy.clone()}>
                        <th>{ p.policy.clone() }</th>
                        { for cols.iter().map(|&x| {
                            let pt = p.points.iter().find(|q| q.x == x);
                            // A policy at the bound is 0 GPUs from it (the means are
                            // rounded: a hair past it would read "-0"; + 0.0 makes -0 a 0).
                            let cell = match (pt, bound(x)) {
                                (Some(q), Some(b)) => format!("{} ({})", num(q.unallocated_gpus.round()), num(distance_gpus(b, q.allocation_pct, out.gpus).round() + 0.0)),
                                (Some(q), None) => num(q.unallocated_gpus.round()),
                                _ => "–".into(),
                            };
                            html! { <td data-x={x.to_string()}>{ cell }</td> }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// The map of one moment: a policy, a seed and an arrived %, then the GPUs.
fn map(state: &AppState, r: &Studied) -> Html {
    let sh = &state.sharing;
    let shown = match &sh.map.finished {
        Some(Ok(m)) => Some(m.clone()),
        _ => None,
    };
    let (policy, seed, x) = shown.as_ref().map_or_else(
        || {
            let p = r
                .task
                .policies
                .iter()
                .find(|p| *p == "fgd")
                .or(r.task.policies.first())
                .cloned()
                .unwrap_or_default();
            (p, r.task.seeds.first().copied().unwrap_or(42), 100)
        },
        |m| (m.policy.clone(), m.seed, m.x),
    );
    let d = state.dispatcher();
    let ask = {
        let d = d.clone();
        move |p: &str, seed: i64, x: u32| {
            if let Some(p) = Policy::from_name(p) {
                d.dispatch(Action::Sharing(SharingAction::Map(p, seed, x)));
            }
        }
    };
    let on_policy = {
        let (ask, x) = (ask.clone(), x);
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            ask(&v, seed, x);
        })
    };
    let on_x = {
        let (ask, p) = (ask.clone(), policy.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            ask(&p, seed, v.parse().unwrap_or(100));
        })
    };
    let draw = {
        let p = policy.clone();
        Callback::from(move |_: MouseEvent| ask(&p, seed, x))
    };
    let xmax = (100.0 * r.task.target).round() as u32;
    let body = shown.map(|m| {
        let groups: Vec<MapGroup> = m
            .groups
            .iter()
            .map(|(model, nodes)| MapGroup {
                model: if model.is_empty() {
                    "any model".into()
                } else {
                    model.clone()
                },
                nodes: nodes.clone(),
            })
            .collect();
        let title = format!(
            "{}, seed {}, when {} % of the cluster's GPUs had arrived ({} pods): {} % allocated",
            m.policy,
            m.seed,
            m.x,
            count(m.pods as u64),
            num(m.allocation_pct)
        );
        let svg = AttrValue::from(fgd_map_svg(&groups, &title, 1180.0));
        html! {
            <div class="chart">
                { Html::from_html_unchecked(svg.clone()) }
                <crate::components::chart::ChartDownloads {svg} name={AttrValue::from("sharing-map")} />
            </div>
        }
    });
    html! {
        <div data-testid="sharing-map">
            <h3>{"The GPUs at one moment"}</h3>
            <div class="row form">
                <label>{"policy "}
                    <select onchange={on_policy} data-testid="sharing-map-policy">
                        { for r.task.policies.iter().map(|p| html! { <option value={p.clone()} selected={*p == policy}>{ p.clone() }</option> }) }
                    </select>
                </label>
                <label>{ format!("workload arrived: {x} % ") }
                    <input type="range" min="10" max={xmax.to_string()} step="10" value={x.to_string()} onchange={on_x} data-testid="sharing-map-x" />
                </label>
                <button onclick={draw} disabled={sh.map.is_running() || sh.run.is_running()} data-testid="sharing-map-draw">{"Draw the map"}</button>
            </div>
            { for body }
        </div>
    }
}
