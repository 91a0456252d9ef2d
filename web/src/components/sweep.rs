//! The capacity sweep of the draft (`smd_sweep`, run on the page's pool of workers): the
//! form (what varies, the sizes, the policies, over time, the workers), progress with
//! Cancel, then the knee in words, the charts of `smd-charts` and a table of the numbers.

use super::apps::{input, machine_choices, select};
use super::format::{duration, sig};
use super::use_app;
use crate::solver::now_ms;
use crate::solver::pool::{hardware_concurrency, pool_size, MAX_WORKERS};
use crate::state::sweep::has_arrivals;
use crate::state::SweepAction;
use crate::state::{Action, Swept};
use smd_charts::{sweep_svg, use_resource, SweepMetric, SweepOptions};
use smd_core::scenario::Resource;
use smd_sim::SimPolicy;
use smd_sweep::Axis;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The "Sweep" section.
#[function_component]
pub fn SweepPanel() -> Html {
    let state = use_app();
    let sw = &state.sweep;
    let f = &sw.form;
    let draft = &state.draft.scenario;
    let on = field_callback(&state);
    let err = |field: &str| {
        f.error
            .as_ref()
            .filter(|(k, _)| *k == field)
            .map(|(_, m)| m)
    };
    let auto = pool_size(hardware_concurrency());
    let workers = f.workers.unwrap_or(auto);
    let run = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Sweep(SweepAction::Start(workers, now_ms()))))
    };
    let worker_choices: Vec<(String, String)> =
        std::iter::once((String::new(), format!("as many as cores ({auto})")))
            .chain((1..=MAX_WORKERS).map(|n| (n.to_string(), n.to_string())))
            .collect();
    let busy = sw.run.running.is_some();
    html! {
        <section class="card sweep" id="sweep" data-testid="sweep">
            <h2>{"Capacity sweep"}</h2>
            <p class="note">{"How much cluster do the draft's jobs need? The same jobs, parameters and limits planned by every policy on a cluster of each size — more units, more machines of a type or of one of the draft's groups, or more of one resource alone — each size a task for a pool of Web Workers. The knee is where the best policy reaches 95% of the utility it has at the largest size (docs/MODEL.md §19)."}</p>
            <div class="row form">
                <SweepWhat />
                { input("sweep.range", "sizes (start:stop:step)", f.range_text(draft), err("range"), String::new(), on("range")) }
                { select("sweep.workers", "workers", worker_choices, &f.workers.map_or(String::new(), |n| n.to_string()), on("workers")) }
            </div>
            { for ["axis", "type", "group", "resource", "source"].iter().filter_map(|k| err(k)).map(|m| html! {
                <p class="msg" data-testid="error" role="alert">{ m }</p>
            }) }
            <SweepPolicies />
            if let Some(m) = err("policies") {
                <p class="msg" data-testid="error" role="alert">{ m }</p>
            }
            <div class="buttons">
                <button onclick={run} disabled={busy} data-testid="sweep-run">{"Run"}</button>
            </div>
            { progress(&state) }
            { results(&state) }
        </section>
    }
}

/// A callback that sets a field of the sweep form.
fn field_callback(state: &super::AppState) -> impl Fn(&'static str) -> Callback<String> + '_ {
    move |field: &'static str| {
        let d = state.dispatcher();
        Callback::from(move |v: String| d.dispatch(Action::Sweep(SweepAction::Field(field, v))))
    }
}

/// What varies: a group of the draft's machines, or units or a catalog type's machines on
/// a pool; and which resources.
#[function_component]
fn SweepWhat() -> Html {
    let state = use_app();
    let f = &state.sweep.form;
    let draft = &state.draft.scenario;
    let on = field_callback(&state);
    let machines = draft.cluster.has_machines();
    let axis = f.axis_for(draft);
    let what = if machines {
        let groups: Vec<(String, String)> = draft
            .cluster
            .machines
            .iter()
            .map(|g| {
                (
                    g.name.clone(),
                    format!("{} ({} machines)", g.name, sig(g.count, 6)),
                )
            })
            .collect();
        select(
            "sweep.group",
            "machines of the group",
            groups,
            f.group_for(draft).unwrap_or_default(),
            on("group"),
        )
    } else {
        let axes = vec![
            ("units".to_owned(), "cluster units".to_owned()),
            (
                "machines".to_owned(),
                "machines of a catalog type".to_owned(),
            ),
        ];
        html! {
            <>
                { select("sweep.axis", "what varies", axes, axis.name(), on("axis")) }
                if axis == Axis::Machines {
                    { select("sweep.type", "of type", machine_choices(), f.machine_type.name, on("type")) }
                }
            </>
        }
    };
    let resource = f.resource_allowed(draft).then(|| {
        let mut choices = vec![(String::new(), "every resource".to_owned())];
        choices.extend(
            Resource::ALL
                .iter()
                .map(|r| (r.name().to_owned(), format!("only {}", r.title()))),
        );
        let selected = f.resource.map_or("", |r| r.name());
        select(
            "sweep.resource",
            "resources",
            choices,
            selected,
            on("resource"),
        )
    });
    html! {
        <>
            { what }
            { for resource }
        </>
    }
}

/// The policies to sweep: the static ones offered for the draft, and over time when its
/// jobs have arrivals.
#[function_component]
fn SweepPolicies() -> Html {
    let state = use_app();
    let f = &state.sweep.form;
    let draft = &state.draft.scenario;
    let planners = f.listed(draft).iter().map(|&p| {
        let d = state.dispatcher();
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::Sweep(SweepAction::TogglePolicy(p, on)))
        });
        html! {
            <label class="cap">
                <input type="checkbox" checked={!f.off.contains(&p)} {onchange}
                    data-sweep-policy={p.name()} />
                { format!(" {}", p.name()) }
            </label>
        }
    });
    let arrivals = has_arrivals(draft);
    let over_time = arrivals.then(|| {
        let d = state.dispatcher();
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::Sweep(SweepAction::Field("over_time", on.to_string())))
        });
        let sims = SimPolicy::ALL.iter().map(|&p| {
            let d = state.dispatcher();
            let onchange = Callback::from(move |e: Event| {
                let on = e.target_unchecked_into::<HtmlInputElement>().checked();
                d.dispatch(Action::Sweep(SweepAction::ToggleSimPolicy(p, on)))
            });
            html! {
                <label class="cap">
                    <input type="checkbox" checked={!f.sim_off.contains(&p)} {onchange}
                        data-sweep-sim-policy={p.name()} />
                    { format!(" {}", p.name()) }
                </label>
            }
        });
        html! {
            <div class="row">
                <label class="cap">
                    <input type="checkbox" checked={f.over_time} {onchange} data-field="sweep.over_time" />
                    {" also over time (the jobs' arrivals, smd-sim): "}
                </label>
                if f.over_time { { for sims } }
            </div>
        }
    });
    html! {
        <>
            <div class="row">
                <span class="label">{"policies: "}</span>
                { for planners }
            </div>
            { for over_time }
        </>
    }
}

/// The running sweep's progress, with Cancel; or that the last one was cancelled.
fn progress(state: &super::AppState) -> Html {
    let sw = &state.sweep;
    let (Some(r), Some(((done, total), (units, all)))) = (&sw.run.running, sw.progress()) else {
        return match sw.cancelled {
            Some((done, total)) => html! {
                <p class="no" data-testid="sweep-cancelled">
                    { format!("Sweep cancelled after {done} of {total} sizes; nothing of it is shown{}.",
                        if matches!(sw.run.finished, Some(Ok(_))) { " (below: the sweep before it)" } else { "" }) }
                </p>
            },
            None => html! {},
        };
    };
    let cancel = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Sweep(SweepAction::Cancel)))
    };
    html! {
        <div class="progress" data-testid="sweep-progress" data-done={done.to_string()} data-total={total.to_string()}>
            <span>{ format!("Sweeping {} on {} worker{}: {done} of {total} sizes", r.request.label, r.request.workers, if r.request.workers == 1 { "" } else { "s" }) }</span>
            <progress max={all.max(1).to_string()} value={units.to_string()}></progress>
            <button onclick={cancel} data-testid="sweep-cancel">{"Cancel"}</button>
        </div>
    }
}

/// The last sweep: the answer, the charts and the table; or why it stopped.
fn results(state: &super::AppState) -> Html {
    match &state.sweep.run.finished {
        None => html! {},
        Some(Err(m)) => html! { <p class="bad" data-testid="sweep-error">{ m }</p> },
        Some(Ok(r)) => {
            let stale = *r.base != *state.draft.scenario;
            let shown = state
                .sweep
                .chart_resource
                .unwrap_or_else(|| use_resource(&r.report));
            let resources: Vec<(String, String)> = std::iter::once((
                String::new(),
                format!("the most used ({})", use_resource(&r.report).title()),
            ))
            .chain(
                Resource::ALL
                    .iter()
                    .map(|r| (r.name().to_owned(), r.title().to_owned())),
            )
            .collect();
            let chart_resource = {
                let d = state.dispatcher();
                Callback::from(move |v: String| {
                    d.dispatch(Action::Sweep(SweepAction::Field("chart_resource", v)))
                })
            };
            html! {
                <>
                    <p data-testid="sweep-summary" data-ms={format!("{:.0}", r.ms)}>
                        { format!("{} of the draft ({} jobs) on {} worker{} in {:.2} s.", r.label, r.base.jobs.len(), r.workers, if r.workers == 1 { "" } else { "s" }, r.ms / 1000.0) }
                        if stale {
                            <span class="no" data-testid="sweep-stale">{" The draft has changed since: Run again to sweep it."}</span>
                        }
                    </p>
                    <p class="answer" data-testid="sweep-answer">{ &r.report.knee.answer }</p>
                    <div class="row form">
                        { select("sweep.chart_resource", "resource use of", resources, state.sweep.chart_resource.map_or("", |r| r.name()), chart_resource) }
                    </div>
                    <SweepCharts swept={r.clone()} {shown} />
                </>
            }
        }
    }
}

/// What [`SweepCharts`] draws.
#[derive(Properties, PartialEq)]
struct ChartsProps {
    swept: Rc<Swept>,
    /// The resource whose use is charted.
    shown: Resource,
}

/// The charts and the table of a finished sweep. A component of its own so that they are
/// drawn again only when the sweep or the resource shown changes, not at every progress
/// report of the next sweep (drawing them takes the page's thread a few ms each).
#[function_component]
fn SweepCharts(p: &ChartsProps) -> Html {
    let r = &p.swept;
    let svg = |metric: SweepMetric, wide: bool| {
        let opts = if wide {
            SweepOptions {
                width: 760.0,
                height: 400.0,
            }
        } else {
            SweepOptions {
                width: 520.0,
                height: 300.0,
            }
        };
        Html::from_html_unchecked(AttrValue::from(sweep_svg(&r.report, metric, &opts)))
    };
    html! {
        <>
            <div class="chart sweep-main">{ svg(SweepMetric::Utility, true) }</div>
            <div class="sweep-charts">
                <div class="chart">{ svg(SweepMetric::Admitted, false) }</div>
                <div class="chart">{ svg(SweepMetric::Use(Some(p.shown)), false) }</div>
            </div>
            if let Some(k) = &r.report.over_time_knee {
                <p class="answer" data-testid="sweep-answer-over-time">{ format!("Over time: {}", k.answer) }</p>
                <div class="sweep-charts">
                    <div class="chart">{ svg(SweepMetric::OverTimeUtility, false) }</div>
                    <div class="chart">{ svg(SweepMetric::MeanJct, false) }</div>
                    <div class="chart">{ svg(SweepMetric::MeanQueue, false) }</div>
                </div>
            }
            { table(r, p.shown) }
        </>
    }
}

/// The numbers, a row per size (collapsed at first): each policy's total utility,
/// admitted jobs and use of the charted resource; over time, each policy's utility, mean
/// JCT and mean queueing.
fn table(r: &Swept, res: Resource) -> Html {
    let report = &r.report;
    let one = report.points.first().and_then(|p| p.resource);
    let time = |v: Option<f64>| v.map_or("—".to_owned(), duration);
    let rows = report.points.iter().map(|p| {
        let size = p.size.value();
        let cells = p.policies.iter().map(|(q, o)| {
            let cap = p.capacity[res];
            let share = if cap > 0.0 { format!("{:.0}%", 100.0 * o.used[res] / cap) } else { "—".into() };
            html! {
                <td class="num" data-policy={q.name()} data-utility={o.total_utility.to_string()} data-admitted={o.admitted.to_string()}>
                    { format!("{:.1} ({}) {share}", o.total_utility, o.admitted) }
                </td>
            }
        });
        let sims = p.over_time.iter().map(|(q, o)| html! {
            <td class="num" data-sim-policy={q.name()} data-utility={o.total_utility.to_string()}>
                { format!("{:.1} · {} · {}", o.total_utility, time(o.mean_jct_s), time(o.mean_queue_s)) }
            </td>
        });
        html! {
            <tr data-size={size.to_string()}>
                <td class="num">{ smd_core::error::num(size) }</td>
                if let Some(rr) = one { <td class="num">{ sig(p.capacity[rr], 6) }</td> }
                { for cells }
                { for sims }
            </tr>
        }
    });
    let first = report.points.first();
    let heads = first
        .into_iter()
        .flat_map(|p| p.policies.iter().map(|(q, _)| q.name()));
    let sim_heads = first
        .into_iter()
        .flat_map(|p| p.over_time.iter().map(|(q, _)| q.name()));
    html! {
        <details class="sweep-table" data-testid="sweep-table">
            <summary>{ format!("The numbers: {} sizes", report.points.len()) }</summary>
            <p class="note">{ format!("Each static policy: total utility (admitted jobs) and {} in use, % of capacity; over time: total utility · mean JCT · mean queue.", res.title()) }</p>
            <div class="scroll">
                <table class="compare">
                    <thead><tr>
                        <th class="num">{ report.knee.axis.name() }</th>
                        if let Some(rr) = one { <th class="num">{ format!("{} ({})", rr.title(), rr.unit()) }</th> }
                        { for heads.map(|h| html! { <th class="num">{ h }</th> }) }
                        { for sim_heads.map(|h| html! { <th class="num">{ format!("{h} over time") }</th> }) }
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </details>
    }
}
