//! Over time: the jobs arrive, run and finish slot by slot under each policy (`smd-sim`,
//! in the solver worker), with the metrics, the charts and why a job waits.
//!
//! Planning over time (`smd_sim`, run in the solver worker): the form (the source, the
//! policies), progress with Cancel, then the metrics per policy, the charts of
//! `smd-charts` (utility against the bound, GPU use, the JCT CDF, a policy's timeline) and
//! "why is job X waiting": a job's segments and its waiting reason.

use crate::components::apps::{input, machine_choices, select};
use crate::components::field::Field;
use crate::components::format::{count, duration, ms, percent, percent_sig, sig};
use crate::components::use_app;
use crate::fields::FieldKey;
use crate::state::OverTimeAction;
use crate::state::{Action, Running, SimSource, Simulated, Simulation};
use smd_apps::trace::WORKLOADS;
use smd_charts::{
    jct_cdf_svg, timeline_svg, usage_svg, utility_bound_svg, OverTimeOptions, TimelineOptions,
};
use smd_sim::{JobRun, Run, SimPolicy};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;
use super::done;
use crate::export::{self, Export};
use crate::state::State;

/// The "Over time" section.
#[function_component]
pub fn OverTimePanel() -> Html {
    let state = use_app();
    let ot = &state.over_time;
    let f = &ot.form;
    let on = |field: &'static str| {
        let d = state.dispatcher();
        Callback::from(move |v: String| {
            d.dispatch(Action::OverTime(OverTimeAction::Field(field, v)))
        })
    };
    let err = |field: &str| {
        f.error
            .as_ref()
            .filter(|(k, _)| *k == field)
            .map(|(_, m)| m)
    };
    let busy = ot.run.running.is_some();
    let run = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::OverTime(OverTimeAction::Start)))
    };
    let sources = [
        (
            SimSource::Draft,
            "the draft's jobs (their arrival times) on its cluster",
        ),
        (
            SimSource::Workload,
            "a bundled workload on catalog machines, loaded into the draft (Undo in the message)",
        ),
    ];
    let source_radios = sources.iter().map(|&(s, label)| {
        let d = state.dispatcher();
        let onchange = Callback::from(move |_: Event| {
            d.dispatch(Action::OverTime(OverTimeAction::Field(
                "source",
                s.name().into(),
            )))
        });
        html! {
            <label class="cap">
                <input type="radio" name="over-time-source" value={s.name()}
                    checked={f.source == s} {onchange} data-field="over-time.source" />
                { format!(" {label}") }
            </label>
        }
    });
    let workloads: Vec<(String, String)> = WORKLOADS
        .iter()
        .map(|(n, _)| (n.to_string(), n.to_string()))
        .collect();
    let policies = SimPolicy::ALL.iter().map(|&p| {
        let d = state.dispatcher();
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::OverTime(OverTimeAction::TogglePolicy(p, on)))
        });
        html! {
            <label class="cap" title={p.description()}>
                <input type="checkbox" checked={f.policies.contains(&p)} {onchange}
                    data-sim-policy={p.name()} />
                { format!(" {}", p.name()) }
            </label>
        }
    });
    html! {
        <section class="card over-time" id="over-time" data-testid="over-time">
            <h2>{"Over time"}</h2>
            <p class="note">{"Jobs arrive, wait, run, are resized and finish, slot by slot: at each slot boundary a policy decides every arrived job's allocation (fifo, optimus, smd, oasis, locality; for measured jobs also the reference simulator's tiresias, optimus_oracle and pollux, with its 60 s ticks), on machines the placement stage puts the new and changed jobs, and each job's utility is that of its completion time. bound is an upper bound on every policy's total utility. The runs use the draft's parameters (ε, seed, slot length, restart time, placement, GPU sharing)."}</p>
            <div class="row">{ for source_radios }</div>
            if let Some(m) = err("source") {
                <p class="msg" data-testid="error" role="alert">{ m }</p>
            }
            if f.source == SimSource::Workload {
                <div class="row">
                    { select("over-time.workload", "workload", workloads, f.workload, on("workload")) }
                    { input("over-time.arrivals", "first N arrivals", f.arrivals.clone(), err("arrivals"), "all".into(), on("arrivals")) }
                    { input("over-time.count", "on N machines", f.count.clone(), err("count"), String::new(), on("count")) }
                    { select("over-time.type", "of type", machine_choices(), f.machine.name, on("type")) }
                </div>
            }
            <p class="note" data-testid="over-time-cluster">{ format!("In force: {} jobs on {}.", state.draft.scenario.jobs.len(), smd_apps::machines::describe(&state.draft.scenario.cluster)) }</p>
            <div class="row form" data-testid="over-time-params">
                <Field k={FieldKey::top("params.interval_s")} symbol="Δ" label="slot length, s" placeholder="600" hint="How often the policy decides: every Δ seconds each arrived job's allocation is decided again (docs/MODEL.md §17); empty: 600 s (the reference's policies tick every 60 s)." />
                <Field k={FieldKey::top("params.restart_s")} label="restart time, s" placeholder="30" hint="Seconds without progress when a job starts or its allocation or placement changes; empty: 30 s, at most one slot." />
            </div>
            <div class="row">
                <span class="label">{"policies: "}</span>
                { for policies }
                <crate::components::glossary::Term term="bound" />
            </div>
            if let Some(m) = err("policies") {
                <p class="msg" data-testid="error" role="alert">{ m }</p>
            }
            <div class="buttons">
                <button onclick={run} disabled={busy} data-testid="over-time-run">{"Run"}</button>
            </div>
            { for ot.run.running.as_ref().map(|r| progress(&state, r)) }
            { results(&state) }
        </section>
    }
}

/// The running simulation's progress, with Cancel.
fn progress(state: &crate::components::AppState, running: &Running<Simulation>) -> Html {
    let r = &running.request;
    let cancel = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::OverTime(OverTimeAction::Cancel)))
    };
    let k = r.policies.len();
    let text = match running.progress {
        None => format!("Simulating {}: starting…", r.label),
        Some(p) => format!(
            "Simulating {}: {} ({} of {k}) — slot {}, t = {}, {} of {} finished",
            r.label,
            r.policies.get(p.step).map_or("?", |p| p.name()),
            p.step + 1,
            p.slots,
            duration(p.time_s),
            p.finished,
            p.jobs
        ),
    };
    let (done, total) = running.progress.map_or((0, 1), |p| {
        (p.step * p.jobs.max(1) + p.finished, k * p.jobs.max(1))
    });
    html! {
        <div class="progress" data-testid="over-time-progress">
            <span>{ text }</span>
            <progress max={total.max(1).to_string()} value={done.to_string()}></progress>
            <button onclick={cancel} data-testid="over-time-cancel">{"Cancel"}</button>
        </div>
    }
}

/// The last runs, or why they stopped.
fn results(state: &crate::components::AppState) -> Html {
    let ot = &state.over_time;
    match &ot.run.finished {
        None => html! {},
        Some(Err(m)) => html! { <p class="bad" data-testid="over-time-error">{ m }</p> },
        Some(Ok(r)) => {
            let stale = r.scenario.cluster != state.draft.scenario.cluster
                || r.scenario.jobs != state.draft.scenario.jobs;
            let capacity = r.scenario.cluster.capacity();
            let opts = OverTimeOptions::default();
            // Each chart with its downloads.
            let chart = |s: String, name: &'static str| {
                let svg = AttrValue::from(s);
                html! {
                    <div class="chart">
                        { Html::from_html_unchecked(svg.clone()) }
                        <crate::components::chart::ChartDownloads {svg} name={name} />
                    </div>
                }
            };
            let shown = ot.timeline.and_then(|p| r.run(p)).or(r.runs.first());
            html! {
                <>
                    <p data-testid="over-time-summary">
                        { format!("{}: {} policies in {:.1} s.", r.label, r.runs.len(), r.ms / 1000.0) }
                        if stale {
                            <span class="no" data-testid="over-time-stale">{" The draft has changed since: Run again to simulate it."}</span>
                        }
                    </p>
                    { metrics(r) }
                    { decisions(r) }
                    if let Some(v) = r.verdict() { <p data-testid="over-time-verdict">{ v }</p> }
                    { for r.runs.iter().map(refusals) }
                    { reference(r) }
                    <div class="over-time-charts">
                        { chart(utility_bound_svg(&r.runs, &opts), "over-time-utility") }
                        { chart(usage_svg(&r.runs, &capacity, &opts), "over-time-usage") }
                        { chart(jct_cdf_svg(&r.runs, &opts), "over-time-jct") }
                    </div>
                    { for shown.map(|run| timeline(state, r, run)) }
                </>
            }
        }
    }
}

/// Why a policy that refuses jobs (oasis) ends far past the others, when it refused any.
fn refusals(run: &Run) -> Html {
    let Some(r) = run.refusals() else {
        return html! {};
    };
    let time = |v: Option<f64>| v.map_or("—".to_owned(), duration);
    html! {
        <p class="note" data-testid="over-time-refusals" data-policy={run.policy.name()}>
            { format!(
                "{} refused {} of {} jobs: at the prices its reservations had raised, their resources cost more than the utility they could still earn — its admission control, by design, not a fault. They ran only when nothing else did, one at a time: the jobs it admitted were done by {}, the refused ones by {} (their utility: {}). docs/MODEL.md §17.",
                run.policy.name(),
                r.jobs,
                run.jobs.len(),
                time(r.admitted_makespan_s),
                time(run.metrics.makespan_s),
                smd_format::amount(r.utility),
            ) }
        </p>
    }
}

/// The reference simulator's published mean JCTs when the run is a bundled workload as
/// the reference ran it (docs/FIDELITY.md), so the agreement is in sight.
fn reference(r: &Simulated) -> Html {
    if r.reference.is_empty() {
        return html! {};
    }
    let words: Vec<String> = r
        .reference
        .iter()
        .map(|(name, mean)| {
            let name = match name.as_str() {
                "optimus" => "optimus_oracle",
                other => other,
            };
            format!("{name} {}", duration(*mean))
        })
        .collect();
    html! {
        <p class="note" data-testid="reference-figures">
            { format!("The reference simulator (the Pollux artifact's, published): mean JCT {}. Ours: the rows above; the agreement job by job is in docs/FIDELITY.md.", words.join(", ")) }
        </p>
    }
}

/// The metrics table, a row per policy.
fn metrics(r: &Simulated) -> Html {
    let time = |v: Option<f64>| v.map_or("—".to_owned(), duration);
    // With GPU sharing on: GPU-hours in use against the same workers' exclusive GPUs.
    let shared = r.runs.iter().any(|run| run.metrics.sharing.is_some());
    // Measured all-reduce jobs only: no parameter-server traffic to count.
    let all_reduce = r.scenario.jobs.iter().all(|j| j.measured.is_some());
    let rows = r.runs.iter().map(|run| {
        let m = &run.metrics;
        let n = run.jobs.len();
        html! {
            <tr data-policy={run.policy.name()}>
                <td class="policy" title={run.policy.description()}>{ run.policy.name() }</td>
                <td class="num strong" data-value={m.total_utility.to_string()}>{ smd_format::amount(m.total_utility) }</td>
                <td class="num">{ percent(m.total_utility, m.bound) }</td>
                <td class="num">{ format!("{}/{n}", n - m.unfinished) }</td>
                <td class="num" data-testid="mean-jct" data-value={m.mean_jct_s.map_or(String::new(), |v| v.to_string())}>{ time(m.mean_jct_s) }</td>
                <td class="num">{ time(m.median_jct_s) }</td>
                <td class="num" data-testid="p95-jct">{ time(m.p95_jct_s) }</td>
                <td class="num" data-testid="mean-queue">{ time(m.mean_queue_s) }</td>
                <td class="num" data-testid="p95-queue" data-value={m.p95_queue_s.map_or(String::new(), |v| v.to_string())}>{ time(m.p95_queue_s) }</td>
                <td class="num">{ time(m.makespan_s) }</td>
                <td class="num">{ m.restarts }</td>
                if all_reduce {
                    <td class="num" title="Cross-machine traffic is modelled for parameter-server jobs (docs/MODEL.md §14); an all-reduce job's ring traffic is in its measured step time.">{"—"}</td>
                } else {
                    <td class="num">{ format!("{} Gbit", smd_format::amount(m.cross_traffic_gbit)) }</td>
                }
                if shared {
                    if let Some(s) = &m.sharing {
                        <td class="num" data-testid="gpu-hours">{ format!("{} of {}", sig(s.gpu_hours, 3), sig(s.exclusive_gpu_hours, 3)) }</td>
                        <td class="num">{ percent_sig(s.mean_performance, 3) }</td>
                    } else {
                        <td class="num">{"—"}</td><td class="num">{"—"}</td>
                    }
                }
            </tr>
        }
    });
    html! {
        <div class="scroll">
            <table class="compare" data-testid="over-time-metrics">
                <thead><tr>
                    <th>{"policy"}</th><th class="num">{"total utility"}</th>
                    <th class="num" title="share of the bound: every policy's total utility is at most bound's">{"% of bound"}</th>
                    <th class="num">{"finished"}</th><th class="num">{"mean JCT"}</th>
                    <th class="num">{"median JCT"}</th><th class="num">{"p95 JCT"}</th>
                    <th class="num" title="first start − arrival, mean over the jobs that started">{"mean queue"}</th>
                    <th class="num" title="first start − arrival, 95th percentile over the jobs that started">{"p95 queue"}</th>
                    <th class="num">{"makespan"}</th><th class="num">{"restarts"}</th>
                    <th class="num" title="gigabits moved across machines over the run">{"cross traffic"}</th>
                    if shared {
                        <th class="num" title="GPU sharing: GPU-hours in use, of those the same workers would use with a GPU each">{"GPU-hours"}</th>
                        <th class="num" title="GPU sharing: mean share of standalone speed the shared workers kept">{"performance"}</th>
                    }
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// How long the heterogeneity-aware policies took to decide, under the table: per policy
/// with decision statistics, its decisions' median, 95th-percentile and longest times, and
/// for sia how many of its decisions were proven optimal.
fn decisions(r: &Simulated) -> Html {
    let lines: Vec<Html> = r
        .runs
        .iter()
        .filter_map(|run| Some((run, run.stats.as_ref()?)))
        .map(|(run, st)| {
            let n = st.decisions;
            let times = match st.decision_ms {
                Some(t) => format!(
                    ", each in {} (median), {} (95th percentile), {} at most",
                    short_ms(t.median),
                    short_ms(t.p95),
                    short_ms(t.max)
                ),
                None => String::new(),
            };
            let proven = if run.policy == SimPolicy::Sia {
                format!(
                    "; {} of them proven the best allocation possible",
                    count(st.proven)
                )
            } else {
                String::new()
            };
            html! {
                <li data-policy={run.policy.name()}>
                    { format!("{} decided {} time{}{times}{proven}.", run.policy.name(), count(n), if n == 1 { "" } else { "s" }) }
                </li>
            }
        })
        .collect();
    if lines.is_empty() {
        return html! {};
    }
    html! {
        <div class="note" data-testid="over-time-decisions">
            <span>{"Decision times of the policies that choose each job's GPU type (in this browser):"}</span>
            <ul>{ for lines }</ul>
        </div>
    }
}

/// A decision's time: `ms` from 0.1 ms, two significant digits below (a decision of
/// 0.02 ms is not `0.0 ms`).
fn short_ms(v: f64) -> String {
    if v < 0.1 {
        format!("{} ms", sig(v, 2))
    } else {
        ms(v)
    }
}

/// The timeline of `run` with its policy's choice, and the selected job's history.
fn timeline(state: &crate::components::AppState, r: &Simulated, run: &Run) -> Html {
    let ot = &state.over_time;
    let choose = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Ok(p) = v.parse::<SimPolicy>() {
                d.dispatch(Action::OverTime(OverTimeAction::ShowTimeline(p)))
            }
        })
    };
    let pick = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            d.dispatch(Action::OverTime(OverTimeAction::SelectJob(
                e.target_unchecked_into::<HtmlSelectElement>().value(),
            )))
        })
    };
    let job = ot
        .job
        .as_ref()
        .and_then(|id| run.jobs.iter().find(|j| &j.id == id));
    let opts = TimelineOptions {
        highlight: job.map(|j| j.id.clone()),
        scenario: Some(r.scenario.clone()),
        ..Default::default()
    };
    let svg = AttrValue::from(timeline_svg(run, &opts));
    html! {
        <>
            <h3>
                {"Timeline of "}
                <select onchange={choose} aria-label="the timeline's policy" data-testid="timeline-policy">
                    { for r.runs.iter().map(|x| {
                        let name = x.policy.name();
                        html! { <option value={name} selected={x.policy == run.policy}>{ name }</option> }
                    }) }
                </select>
            </h3>
            <div class="chart timeline-scroll" tabindex="0" role="region" aria-label="timeline">{ Html::from_html_unchecked(svg.clone()) }</div>
            <crate::components::chart::ChartDownloads {svg} name="over-time-timeline" />
            <h3>{"Why is job "}
                <select onchange={pick} aria-label="job" data-testid="over-time-job">
                    { for run.jobs.iter().map(|j| html! {
                        <option value={j.id.clone()} selected={job.is_some_and(|x| x.id == j.id)}>{ &j.id }</option>
                    }) }
                </select>
                { format!(" waiting under {}?", run.policy.name()) }
            </h3>
            { for job.map(|j| history(&r.scenario, j)) }
        </>
    }
}

/// One job's times, waiting reason and segments (where each ran: its GPUs by type and
/// machine, `8 × A100 on a100x8-0`).
fn history(scenario: &smd_core::Scenario, j: &JobRun) -> Html {
    let per_worker = scenario
        .jobs
        .iter()
        .find(|x| x.id == j.id)
        .map_or(1.0, |x| x.worker.gpu);
    let time = |v: Option<f64>| v.map_or("—".to_owned(), duration);
    let why = match (&j.waiting, j.first_start_s) {
        (Some(w), _) => w.clone(),
        (None, Some(_)) => {
            "it never waited: it started at the first slot boundary after its arrival.".into()
        }
        (None, None) => "it never ran.".into(),
    };
    let segments = j.segments.iter().map(|s| {
        let machines = s
            .placement
            .as_ref()
            .filter(|p| !p.is_empty())
            .map_or("—".to_owned(), |p| {
                smd_core::plan::placement_words(&scenario.cluster, p, per_worker)
            });
        html! {
            <tr>
                <td class="num">{ duration(s.start_s) }</td>
                <td class="num">{ duration(s.end_s) }</td>
                <td class="num">{ format!("({}, {})", s.workers, s.ps) }</td>
                <td class="num">{ sig(s.locality_factor, 3) }</td>
                <td class="num">{ sig(s.iterations, 4) }</td>
                <td>{ machines }</td>
            </tr>
        }
    });
    html! {
        <div class="job-history" data-testid="over-time-history" data-job={j.id.clone()}>
            <p>
                { format!("Arrived at {}, first started at {}, completed at {} (JCT {}), utility {}, {} restarts. ",
                    duration(j.arrival_s), time(j.first_start_s), time(j.completion_s), time(j.jct_s), sig(j.utility, 4), j.restarts) }
                // The reason is that of the job's last wait (MODEL §17): past, once it ran.
                <strong>{ if j.completion_s.is_some() { "Its last wait: " } else { "Waiting: " } }</strong>
                <span data-testid="over-time-waiting">{ why }</span>
            </p>
            if !j.segments.is_empty() {
                <div class="scroll segments-scroll" tabindex="0" role="region" aria-label="the job's segments">
                    <table class="segments" data-testid="over-time-segments">
                        <thead><tr>
                            <th class="num">{"from"}</th><th class="num">{"to"}</th>
                            <th class="num">{"(w, p)"}</th><th class="num" title="locality factor ρ of the placement">{"ρ"}</th>
                            <th class="num">{"iterations"}</th><th title="the GPUs, by type, and the machines the segment ran on">{"where"}</th>
                        </tr></thead>
                        <tbody>{ for segments }</tbody>
                    </table>
                </div>
            }
        </div>
    }
}

/// The "Over time" view.
#[function_component]
pub fn OverTimeView() -> Html {
    html! { <OverTimePanel /> }
}

/// What the page needs of the "Over time" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <OverTimeView /> }
    }

    fn noun(&self) -> &'static str {
        "runs"
    }

    fn ready(&self, state: &State) -> bool {
        done(&state.over_time.run.finished).is_some()
    }

    fn exports(&self, state: &State) -> Option<(Export, Export)> {
        done(&state.over_time.run.finished).map(export::over_time)
    }

    fn run(&self, _: &State, d: &UseReducerDispatcher<State>) {
        d.dispatch(Action::OverTime(OverTimeAction::Start));
    }
}
