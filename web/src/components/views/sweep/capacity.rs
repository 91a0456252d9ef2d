//! The capacity sweep of the draft (`smd_sweep`, run on the page's pool of workers): the
//! form (what varies, the sizes, the policies, over time, the workers), progress with
//! Cancel, then the knee in words, the charts of `smd-charts` and a table of the numbers.

use crate::components::apps::{input, machine_choices, select};
use crate::components::format::{duration, sig};
use crate::components::glossary::Term;
use crate::components::use_app;
use crate::solver::now_ms;
use crate::solver::pool::{hardware_concurrency, pool_size, MAX_WORKERS};
use crate::state::sweep::has_arrivals;
use crate::state::SweepAction;
use crate::state::{Action, Swept};
use smd_charts::{sweep_svg, use_resource, SweepMetric, SweepOptions};
use smd_core::scenario::Resource;
use smd_sim::SimPolicy;
use smd_sweep::{Axis, Metric};
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
    // One search at a time on the pool: a sweep, or What to buy's.
    let busy = sw.busy();
    html! {
        <section class="card sweep" id="sweep" data-testid="sweep">
            <h2>{"Capacity sweep"}</h2>
            <p class="note">{"How much cluster do the draft's jobs need? The same jobs, parameters and limits on a cluster of each size — more units, more machines of a type or of one of the draft's groups, or more of one resource alone — each size a task for a pool of Web Workers. Choose what you want to know (mean JCT, p95 JCT, queueing, jobs finished, GPU-hours or the cost in dollars over time, when the jobs have arrival times; total utility of the static plan) and under which policy: the answer says how many more machines halve it, reach the most, or cost the least (docs/MODEL.md §19.1)."}</p>
            <SweepQuestion />
            <div class="row form">
                <SweepWhat />
                { input("sweep.range", "sizes (start:stop:step)", f.range_text(draft), err("range"), String::new(), on("range")) }
                { select("sweep.workers", "workers", worker_choices, &f.workers.map_or(String::new(), |n| n.to_string()), on("workers")) }
            </div>
            { for ["metric", "axis", "type", "group", "resource", "source"].iter().filter_map(|k| err(k)).map(|m| html! {
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

/// The question: the metric, the policy the answer assumes, and a goal.
#[function_component]
fn SweepQuestion() -> Html {
    let state = use_app();
    let f = &state.sweep.form;
    let draft = &state.draft.scenario;
    let on = field_callback(&state);
    let arrivals = has_arrivals(draft);
    let metric = f.metric_for(draft);
    let metrics: Vec<(String, String)> = Metric::ALL
        .iter()
        .filter(|m| arrivals || !m.over_time())
        .map(|m| (m.name().to_owned(), metric_label(*m).to_owned()))
        .collect();
    // The policies that can answer: those the form runs for this metric.
    let names: Vec<&'static str> = if metric.over_time() {
        f.sim_policies(draft)
            .into_iter()
            .filter(|p| *p != SimPolicy::Bound)
            .map(|p| p.name())
            .collect()
    } else {
        f.planners(draft).into_iter().map(|p| p.name()).collect()
    };
    let policies: Vec<(String, String)> =
        std::iter::once((String::new(), "the best at the current size".to_owned()))
            .chain(names.iter().map(|n| (n.to_string(), n.to_string())))
            .collect();
    let goal_hint = if metric.over_time() && metric != Metric::Finished {
        "e.g. 2h".to_owned()
    } else {
        "e.g. 100".to_owned()
    };
    html! {
        <div class="row form question" data-testid="sweep-question">
            { select("sweep.metric", "what to answer", metrics, metric.name(), on("metric")) }
            { select("sweep.answer_policy", "under policy", policies, &f.answer_policy, on("answer_policy")) }
            <Term term={metric_term(metric)} />
            { input("sweep.goal", if metric.lower_is_better() { "goal: at most" } else { "goal: at least" }, f.goal.clone(), None, goal_hint, on("goal")) }
        </div>
    }
}

/// The glossary's entry for a metric.
pub(crate) fn metric_term(m: Metric) -> &'static str {
    match m {
        Metric::MeanJct => "JCT",
        Metric::P95Jct => "p95 JCT",
        Metric::MeanQueue => "queueing",
        Metric::Finished => "admitted",
        Metric::GpuHours => "GPU-hours",
        Metric::Utility => "utility",
        Metric::Cost | Metric::CostPerJob => "cost",
    }
}

/// A metric in the picker, with its unit.
fn metric_label(m: Metric) -> &'static str {
    match m {
        Metric::MeanJct => "mean JCT (time, over time)",
        Metric::P95Jct => "p95 JCT (time, over time)",
        Metric::MeanQueue => "mean queueing (time, over time)",
        Metric::Finished => "jobs finished (over time)",
        Metric::GpuHours => "GPU-hours (over time)",
        Metric::Cost => "cost in USD (over time, priced machines)",
        Metric::CostPerJob => "cost per job in USD (over time, priced machines)",
        Metric::Utility => "total utility (static plan)",
    }
}

/// A callback that sets a field of the sweep form.
fn field_callback(
    state: &crate::components::AppState,
) -> impl Fn(&'static str) -> Callback<String> + '_ {
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
    let metric = f.metric_for(draft);
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
    if metric.over_time() {
        return html! {
            <div class="row">
                <span class="label">{"policies over time: "}</span>
                { for sims }
            </div>
        };
    }
    let over_time = arrivals.then(|| {
        let d = state.dispatcher();
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::Sweep(SweepAction::Field("over_time", on.to_string())))
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
fn progress(state: &crate::components::AppState) -> Html {
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
fn results(state: &crate::components::AppState) -> Html {
    match &state.sweep.run.finished {
        None => html! {},
        Some(Err(m)) => html! { <p class="bad" data-testid="sweep-error">{ m }</p> },
        Some(Ok(r)) => {
            let stale = *r.base != *state.draft.scenario;
            let f = &state.sweep.form;
            let metric = f.metric_for(&r.base);
            let answer = r.answer(metric, &f.answer_policy);
            let goal = answer.as_ref().ok().and_then(|a| r.goal(a, &f.goal));
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
            let statics = r
                .report
                .points
                .first()
                .is_some_and(|p| !p.policies.is_empty());
            html! {
                <>
                    <p data-testid="sweep-summary" data-ms={format!("{:.0}", r.ms)}>
                        { format!("{} of the draft ({} jobs) on {} worker{} in {:.2} s.", r.label, r.base.jobs.len(), r.workers, if r.workers == 1 { "" } else { "s" }, r.ms / 1000.0) }
                        if stale {
                            <span class="no" data-testid="sweep-stale">{" The draft has changed since: Run again to sweep it."}</span>
                        }
                    </p>
                    { match &answer {
                        Ok(a) => html! {
                            <p class="answer" data-testid="sweep-answer" data-metric={a.metric.name()} data-policy={a.policy.clone()}>{ &a.answer }</p>
                        },
                        Err(m) => html! { <p class="no" data-testid="sweep-answer-missing">{ m }</p> },
                    } }
                    { match goal {
                        Some(Ok(g)) => html! { <p class="answer" data-testid="sweep-goal-answer" data-found={g.found.map_or(String::new(), |p| p.size.to_string())}>{ g.answer }</p> },
                        Some(Err(m)) => html! { <p class="msg" data-testid="error" role="alert">{ format!("goal: {m}") }</p> },
                        None => html! {},
                    } }
                    if statics {
                        <div class="note"><span data-testid="sweep-knee">{ format!("Knee of utility: {}", r.report.knee.answer) }</span><Term term="knee" /></div>
                        <div class="row form">
                            { select("sweep.chart_resource", "resource use of", resources, state.sweep.chart_resource.map_or("", |r| r.name()), chart_resource) }
                        </div>
                    }
                    <SweepCharts swept={r.clone()} {shown} {metric} />
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
    /// The metric asked about: its chart first, wide, and its values in the table.
    metric: Metric,
}

/// The charts and the table of a finished sweep. A component of its own so that they are
/// drawn again only when the sweep, the metric or the resource shown changes, not at
/// every progress report of the next sweep (drawing them takes the page's thread a few ms
/// each).
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
        let svg = AttrValue::from(sweep_svg(&r.report, metric, &opts));
        html! {
            <>
                { Html::from_html_unchecked(svg.clone()) }
                <crate::components::chart::ChartDownloads {svg} name={metric.testid()} />
            </>
        }
    };
    let first = r.report.points.first();
    let statics = first.is_some_and(|p| !p.policies.is_empty());
    let over_time = first.is_some_and(|p| !p.over_time.is_empty());
    let main = SweepMetric::of(p.metric);
    // The other over-time charts, beside the one asked about.
    let others: Vec<SweepMetric> = [
        SweepMetric::MeanJct,
        SweepMetric::MeanQueue,
        SweepMetric::OverTimeUtility,
    ]
    .into_iter()
    .filter(|m| *m != main)
    .collect();
    html! {
        <>
            if statics || over_time {
                <div class="chart sweep-main">{ svg(main, true) }</div>
            }
            if statics {
                <div class="sweep-charts">
                    if main != SweepMetric::Utility {
                        <div class="chart">{ svg(SweepMetric::Utility, false) }</div>
                    }
                    <div class="chart">{ svg(SweepMetric::Admitted, false) }</div>
                    <div class="chart">{ svg(SweepMetric::Use(Some(p.shown)), false) }</div>
                </div>
            }
            if over_time {
                if let Some(k) = &r.report.over_time_knee {
                    <p class="note" data-testid="sweep-answer-over-time">{ format!("Knee over time: {}", k.answer) }</p>
                }
                <div class="sweep-charts">
                    { for others.into_iter().map(|m| html! { <div class="chart">{ svg(m, false) }</div> }) }
                </div>
            }
            { table(r, p.metric) }
        </>
    }
}

/// The numbers, a row per size (collapsed at first), one value per cell: the metric
/// asked about under each policy that has it, with its unit in the header.
fn table(r: &Swept, metric: Metric) -> Html {
    let report = &r.report;
    let one = report.points.first().and_then(|p| p.resource);
    let over_time =
        metric.over_time() || report.points.first().is_some_and(|p| p.policies.is_empty());
    let show = |v: Option<f64>| v.map_or("—".to_owned(), |v| cell(metric, v));
    // The bound has no JCT, queueing or GPU-hours of its own: no column for those.
    let column =
        |q: SimPolicy| q != SimPolicy::Bound || !metric.over_time() || metric == Metric::Finished;
    let rows = report.points.iter().map(|p| {
        let size = p.size.value();
        let cells = (!over_time).then(|| p.policies.iter().map(|(q, o)| html! {
            <td class="num" data-policy={q.name()} data-utility={o.total_utility.to_string()} data-admitted={o.admitted.to_string()}>
                { show(Some(o.total_utility)) }
            </td>
        }).collect::<Html>());
        let sims = over_time.then(|| p.over_time.iter().filter(|(q, _)| column(*q)).map(|(q, o)| html! {
            <td class="num" data-sim-policy={q.name()} data-utility={o.total_utility.to_string()} data-value={metric.of_run(o).map_or(String::new(), |v| v.to_string())}>
                { show(metric.of_run(o)) }
            </td>
        }).collect::<Html>());
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
    let heads: Vec<&str> = match first {
        Some(p) if over_time => p
            .over_time
            .iter()
            .filter(|(q, _)| column(*q))
            .map(|(q, _)| q.name())
            .collect(),
        Some(p) => p.policies.iter().map(|(q, _)| q.name()).collect(),
        None => Vec::new(),
    };
    html! {
        <details class="sweep-table" data-testid="sweep-table">
            <summary>{ format!("The numbers: {} of every policy at {} sizes", metric.words(), report.points.len()) }</summary>
            <p class="note">{ format!("Each cell: the {} ({}) of the policy in its column at the size in its row.", metric.words(), unit(metric)) }</p>
            <div class="scroll">
                <table class="compare">
                    <thead><tr>
                        <th class="num">{ report.knee.axis.name() }</th>
                        if let Some(rr) = one { <th class="num">{ format!("{} ({})", rr.title(), rr.unit()) }</th> }
                        { for heads.into_iter().map(|h| html! { <th class="num">{ h }</th> }) }
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </details>
    }
}

/// A metric's value in a table cell: times in their best unit, counts whole, amounts
/// with separators.
fn cell(metric: Metric, v: f64) -> String {
    match metric {
        Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue => duration(v),
        Metric::Finished => format!("{}", v.round()),
        Metric::Utility | Metric::GpuHours => smd_format::amount(v),
        Metric::Cost | Metric::CostPerJob => smd_format::usd(v),
    }
}

/// A metric's unit, in words.
fn unit(metric: Metric) -> &'static str {
    match metric {
        Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue => "a time",
        Metric::Finished => "jobs",
        Metric::Utility => "utility: the sum of the admitted jobs' utility values, no unit",
        Metric::GpuHours => "GPU-hours",
        Metric::Cost => "US dollars for renting the cluster until the jobs are done",
        Metric::CostPerJob => {
            "US dollars: the GPU-hours each job ran on each type × its price per GPU-hour"
        }
    }
}
