//! What to buy, in the Sweep view (`smd_sweep`'s mix sweep, run on the page's pool of
//! workers): the form (the grid of mixes, the metric, the policy, a goal, a budget, what
//! to minimise, every mix), progress with Cancel, then the answer in words, the map of the
//! grid and the frontier (`smd-charts`), a table of the mixes, the exports and a link that
//! reopens the answer.

use super::capacity::metric_term;
use crate::components::apps::{input, select};
use crate::components::chart::ChartDownloads;
use crate::components::views::bar::{link_to, save};
use crate::components::glossary::Term;
use crate::components::use_app;
use crate::solver::now_ms;
use crate::solver::pool::{hardware_concurrency, pool_size};
use crate::state::link::BuyLink;
use crate::state::{Action, Bought, SweepAction, View};
use smd_sim::SimPolicy;
use smd_charts::{mix_frontier_svg, mix_map_svg, BuyOptions};
use smd_sweep::{mix_words, Metric, Minimize};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The "What to buy" section.
#[function_component]
pub fn BuyPanel() -> Html {
    let state = use_app();
    let b = &state.sweep.buy;
    let f = &b.form;
    let draft = &state.draft.scenario;
    let on = |field: &'static str| {
        let d = state.dispatcher();
        Callback::from(move |v: String| d.dispatch(Action::Sweep(SweepAction::BuyField(field, v))))
    };
    let err = |field: &str| {
        f.error
            .as_ref()
            .filter(|(k, _)| *k == field)
            .map(|(_, m)| m)
    };
    let workers = state
        .sweep
        .form
        .workers
        .unwrap_or_else(|| pool_size(hardware_concurrency()));
    let run = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Sweep(SweepAction::BuyStart(workers, now_ms()))))
    };
    // A link asked for the answer: run it once the page is up and the pool free (after
    // the capacity sweep the same link may run).
    {
        let d = state.dispatcher();
        let go = b.run_on_open
            && state.view.tab == View::Sweep
            && !state.view.run_on_open
            && !state.sweep.busy();
        use_effect_with(go, move |&go| {
            if go {
                d.dispatch(Action::Sweep(SweepAction::BuyStart(workers, now_ms())));
            }
        });
    }
    let grid = f.grid_text(draft);
    // The policies that apply on the grid's largest mix: worked out again only when the
    // grid or the draft changes.
    let offered = {
        let (grid, draft) = (grid.clone(), draft.clone());
        use_memo((grid, draft), |(grid, draft)| {
            crate::state::BuyForm {
                grid: Some(grid.clone()),
                ..Default::default()
            }
            .policies(draft)
        })
    };
    let metric = f.metric();
    let metrics: Vec<(String, String)> = Metric::ALL
        .iter()
        .map(|m| (m.name().to_owned(), m.words().to_owned()))
        .collect();
    let chosen = f.policy_for(&offered);
    let policies = policy_choices(&offered, chosen);
    let minimize = vec![
        ("cost".to_owned(), "cheapest meeting the goal".to_owned()),
        ("metric".to_owned(), "best within the budget".to_owned()),
    ];
    let every = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            d.dispatch(Action::Sweep(SweepAction::BuyField(
                "every",
                on.to_string(),
            )))
        })
    };
    let grid_input = grid_input(grid.clone(), err("mix"), on("grid"));
    let goal_hint = match metric {
        Metric::MeanJct | Metric::P95Jct | Metric::MeanQueue => "e.g. 30min",
        Metric::Cost | Metric::CostPerJob => "e.g. 40 (US dollars)",
        _ => "e.g. 100",
    };
    let busy = state.sweep.busy();
    html! {
        <section class="card buy" id="buy" data-testid="buy">
            <h2>{"What to buy"}</h2>
            <p class="note">{"Which mix of machine types runs the draft's jobs well for the least money? Give counts of each type — machine types of the catalog or the draft's machine groups — and every mix of them is the draft's jobs simulated over time under one policy, each mix a task for the same pool of workers as the sweep. Ask for the cheapest mix that meets a goal — the cheapest mixes run first and the search stops once the answer cannot change (check every mix for the whole frontier) — or for the best mix, within a budget if you give one."}</p>
            <div class="row form">
                { grid_input }
                { select("buy.metric", "judged by", metrics, metric.name(), on("metric")) }
                <Term term={metric_term(metric)} />
                { select("buy.policy", "under policy", policies, chosen.map_or("", |p| p.name()), on("policy")) }
            </div>
            <div class="row form">
                { input("buy.goal", if metric.lower_is_better() { "goal: at most" } else { "goal: at least" }, f.goal.clone(), err("goal"), goal_hint.to_owned(), on("goal")) }
                { input("buy.budget", "budget, $ per hour", f.budget.clone(), err("budget"), "e.g. 60/h".to_owned(), on("budget")) }
                { select("buy.minimize", "find", minimize, if f.minimize == Minimize::Cost { "cost" } else { "metric" }, on("minimize")) }
                <label class="cap">
                    <input type="checkbox" checked={f.every} onchange={every} data-field="buy.every" />
                    {" every mix (the whole frontier)"}
                </label>
            </div>
            { for ["policy", "metric", "source"].iter().filter_map(|k| err(k).map(|m| (k, m))).map(|(k, m)| html! {
                <p class="msg" data-testid="error" data-error-field={k.to_string()} role="alert">{ format!("{}: {m}", if *k == "source" { "draft" } else { k }) }</p>
            }) }
            <div class="buttons">
                <button onclick={run} disabled={busy} data-testid="buy-run"
                    title={if busy { "The pool of workers is busy: wait for it, or cancel" } else { "Evaluate the mixes on the pool of workers" }}>{"Run"}</button>
            </div>
            { progress(&state) }
            { match &b.run.finished {
                None => html! {},
                Some(Err(m)) => html! { <p class="bad" data-testid="buy-error">{ m }</p> },
                Some(Ok(r)) => html! { <BuyResults bought={r.clone()} /> },
            } }
        </section>
    }
}

/// The policies to choose from: those that apply on the grid, and a chosen one that no
/// longer applies, on show (the search says why).
fn policy_choices(offered: &[SimPolicy], chosen: Option<SimPolicy>) -> Vec<(String, String)> {
    let mut policies: Vec<(String, String)> = offered
        .iter()
        .map(|p| (p.name().to_owned(), p.name().to_owned()))
        .collect();
    if let Some(p) = chosen.filter(|p| !offered.contains(p)) {
        policies.push((
            p.name().to_owned(),
            format!("{} (does not apply)", p.name()),
        ));
    }
    policies
}

/// The grid of mixes as typed, with its problem.
fn grid_input(grid: String, bad: Option<&String>, on: Callback<String>) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        on.emit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    html! {
        <label class={classes!("field", "grid", bad.is_some().then_some("invalid"))}>
            <span class="label">{"mixes: type=from:to:step, …"}</span>
            <input type="text" value={grid} {oninput} spellcheck="false"
                placeholder={crate::state::sweep::buy::DEFAULT_GRID}
                aria-invalid={bad.is_some().to_string()} data-field="buy.grid" />
            if let Some(m) = bad { <span class="msg" data-testid="error" role="alert">{ m }</span> }
        </label>
    }
}

/// The running search's progress, with Cancel; or that the last one was cancelled.
fn progress(state: &crate::components::AppState) -> Html {
    let b = &state.sweep.buy;
    let (Some(r), Some((done, total))) = (&b.run.running, b.progress()) else {
        return match b.cancelled {
            Some((done, total)) => html! {
                <p class="no" data-testid="buy-cancelled">
                    { format!("What to buy cancelled after {done} of {total} mixes; nothing of it is shown{}.",
                        if matches!(b.run.finished, Some(Ok(_))) { " (below: the answer before it)" } else { "" }) }
                </p>
            },
            None => html! {},
        };
    };
    let cancel = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Sweep(SweepAction::BuyCancel)))
    };
    let w = r.request.workers;
    html! {
        <div class="progress" data-testid="buy-progress" data-done={done.to_string()} data-total={total.to_string()}>
            <span>{ format!("Evaluating {} on {w} worker{}: {done} of {}{total} mixes", r.request.label, if w == 1 { "" } else { "s" }, if b.may_stop_early() { "at most " } else { "" }) }</span>
            <progress max={total.max(1).to_string()} value={done.to_string()}></progress>
            <button onclick={cancel} data-testid="buy-cancel">{"Cancel"}</button>
        </div>
    }
}

/// What [`BuyResults`] shows.
#[derive(Properties, PartialEq)]
struct ResultsProps {
    bought: Rc<Bought>,
}

/// The answer: the sentence, the map, the frontier, the exports and link, the table. A
/// component of its own so that the charts are drawn again only when the answer changes.
#[function_component]
fn BuyResults(p: &ResultsProps) -> Html {
    let state = use_app();
    let b = &p.bought;
    let r = &b.report;
    let stale = *b.base != *state.draft.scenario;
    let map = {
        let (r, spec) = (r.clone(), b.search.spec.clone());
        use_memo(b.clone(), move |_| {
            AttrValue::from(mix_map_svg(
                &r,
                &spec,
                &BuyOptions {
                    width: 900.0,
                    height: 440.0,
                },
            ))
        })
    };
    let frontier = {
        let r = r.clone();
        use_memo(b.clone(), move |_| {
            AttrValue::from(mix_frontier_svg(
                &r,
                &BuyOptions {
                    width: 900.0,
                    height: 400.0,
                },
            ))
        })
    };
    let link = use_state(|| None::<String>);
    let export = |json: bool| {
        let (state, b) = (state.clone(), b.clone());
        Callback::from(move |_: MouseEvent| {
            let (csv, js) = crate::export::buy(&b);
            save(&state, if json { js } else { csv });
        })
    };
    let copy = {
        let (state, link) = (state.clone(), link.clone());
        Callback::from(move |_: MouseEvent| {
            let url = link_to(&state, View::Sweep, BuyLink::answer_link(&state));
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&url);
            }
            link.set(Some(url));
        })
    };
    let types = b.search.spec.axes.len();
    html! {
        <div class="buy-results" data-testid="buy-results">
            <p data-testid="buy-summary" data-ms={format!("{:.0}", b.ms)}>
                { format!(
                    "{}: the draft's {} jobs on {} worker{}, answered in {} s.",
                    b.label,
                    b.base.jobs.len(),
                    b.workers,
                    if b.workers == 1 { "" } else { "s" },
                    smd_format::sig(b.ms / 1000.0, 3)
                ) }
                if stale {
                    <span class="no" data-testid="buy-stale">{" The draft has changed since: Run again to answer for it."}</span>
                }
            </p>
            <p class="answer" data-testid="buy-answer" data-best={r.best.as_ref().map_or(String::new(), |p| p.index.to_string())}>{ &r.answer }</p>
            <div class="buttons" role="toolbar" aria-label="Export and share the answer">
                <button onclick={export(false)} data-testid="buy-export-csv" title="Download a row per mix of the grid as CSV">{"Export mixes CSV"}</button>
                <button onclick={export(true)} data-testid="buy-export-json" title="Download the answer, the frontier and every mix evaluated as JSON (what smd sweep --mix --json writes)">{"Export mixes JSON"}</button>
                <button onclick={copy} data-testid="buy-link" title="Copy a link that reopens this form with the scenario and answers again">{"Copy link to this answer"}</button>
            </div>
            if let Some(url) = &*link {
                <label class="share">
                    <span class="label">{"Link copied (where the browser allows):"}</span>
                    <input type="text" readonly=true value={url.clone()} data-testid="buy-link-text" />
                </label>
            }
            <div class="buy-charts">
                if types <= 2 {
                    <div class="chart">
                        { Html::from_html_unchecked((*map).clone()) }
                        <ChartDownloads svg={(*map).clone()} name="what-to-buy-map" />
                    </div>
                } else {
                    <p class="note" data-testid="buy-map-note">{ format!("The map shows grids of one or two types; this grid has {types}: read the frontier and the table.") }</p>
                }
                <div class="chart">
                    { Html::from_html_unchecked((*frontier).clone()) }
                    <ChartDownloads svg={(*frontier).clone()} name="what-to-buy-frontier" />
                </div>
            </div>
            { table(b) }
        </div>
    }
}

/// Every mix evaluated, a row each (collapsed at first): its price, the metric, the jobs
/// finished, the cost per job, on the frontier, the answer.
fn table(b: &Bought) -> Html {
    let r = &b.report;
    let m = r.question.metric;
    let yes = |on: bool| if on { "yes" } else { "" };
    let rows = r.points.iter().map(|p| {
        let run = p.run.as_ref();
        let front = r.frontier.iter().any(|f| f.index == p.index);
        let best = r.best.as_ref().is_some_and(|x| x.index == p.index);
        html! {
            <tr data-index={p.index.to_string()} data-value={p.value.map_or(String::new(), |v| v.to_string())} class={classes!(best.then_some("best"))}>
                <td>{ mix_words(&p.mix) }</td>
                <td class="num">{ p.usd_per_hour.map_or("—".to_owned(), |u| format!("{}/h", smd_format::usd(u))) }</td>
                <td class="num">{ p.value.map_or_else(|| p.note.clone().unwrap_or_else(|| "—".into()), |v| m.show(v)) }</td>
                <td class="num">{ run.map_or("—".to_owned(), |o| format!("{} of {}", o.finished, o.finished + o.unfinished)) }</td>
                <td class="num">{ run.and_then(|o| o.cost_per_job_usd).map_or("—".to_owned(), smd_format::usd) }</td>
                <td>{ yes(front) }</td>
                <td>{ if best { "the answer" } else { "" } }</td>
            </tr>
        }
    });
    html! {
        <details class="sweep-table" data-testid="buy-table">
            <summary>{ format!("The numbers: {} of the {} mixes evaluated{}", m.words(), r.evaluated, if r.skipped > 0 { format!(" ({} not evaluated)", r.skipped) } else { String::new() }) }</summary>
            if let Some(rule) = &r.rule {
                <p class="note">{ rule }</p>
            }
            <div class="scroll">
                <table class="compare">
                    <thead><tr>
                        <th>{"mix"}</th>
                        <th class="num">{"price"}</th>
                        <th class="num">{ m.words() }</th>
                        <th class="num">{"jobs finished"}</th>
                        <th class="num">{"cost per job"}</th>
                        <th>{"on the frontier"}</th>
                        <th>{"answer"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </details>
    }
}
