//! Reproducing the paper: its experiments run in the solver worker, each shown with its
//! claim, findings, chart and CSV.
//!
//! The Reproduce view's two studies, each run in the solver worker: the paper's experiments
//! (`smd_reproduce`) and the agreement with the reference simulator
//! (`smd_reproduce::fidelity`) — progress with cancel, then the verdicts, and per
//! experiment the claim (or goal), the findings, the chart and its CSV.

use crate::components::{io, use_app};
use crate::solver::{ClaimLine, Experiment};
use crate::state::{Action, Notice};
use crate::state::{ReproduceAction, Study, ViewAction};
use yew::prelude::*;
use super::done;
use crate::export::{self, Export};
use crate::state::State;

/// What the view says of each study.
struct Words {
    study: Study,
    /// Its id in test ids and anchors (`reproduce`, `fidelity`).
    key: &'static str,
    title: &'static str,
    hint: &'static str,
    quick: &'static str,
    full: &'static str,
    /// What the progress counts.
    units: &'static str,
    /// The label before an experiment's claim.
    claim: &'static str,
}

const PAPER: Words = Words {
    study: Study::Paper,
    key: "reproduce",
    title: "Reproduce the paper",
    hint: "Runs the paper's experiments (utility against units and jobs, ratio to the optimum, resource share, ε and M_δ) in the solver worker, with generated scenarios and several seeds per point.",
    quick: "Run quick (≈15 s)",
    full: "Run full (≈1–2 min)",
    units: "scenarios",
    claim: "Paper's claim: ",
};

const FIDELITY: Words = Words {
    study: Study::Fidelity,
    key: "fidelity",
    title: "Agreement with the reference simulator",
    hint: "Runs the bundled workloads as measured jobs on 16 × t4x4 with the reference simulator's time (Pollux's artifact: 60 s ticks, 30 s restarts) under tiresias, optimus_oracle and pollux, and compares every job's JCT with the JCT the artifact published (docs/FIDELITY.md).",
    quick: "Run quick (workload-1 at load 0.5, ≈1 s)",
    full: "Run full (8 workloads at 2 loads, ≈10 s)",
    units: "runs",
    claim: "Goal: ",
};

/// The Reproduce view: the paper's experiments, then the fidelity study.
#[function_component]
pub fn ReproducePanel() -> Html {
    let state = use_app();
    html! {
        <>
            { study(&state, &PAPER) }
            { study(&state, &FIDELITY) }
        </>
    }
}

/// One study's card: its buttons, its progress with Cancel, its verdicts and experiments.
fn study(state: &crate::components::AppState, w: &Words) -> Html {
    let part = state.study(w.study);
    let start = |quick: bool| {
        let d = state.dispatcher();
        let study = w.study;
        Callback::from(move |_| d.dispatch(Action::Reproduce(ReproduceAction::Start(study, quick))))
    };
    let cancel = {
        let d = state.dispatcher();
        let study = w.study;
        Callback::from(move |_| d.dispatch(Action::Reproduce(ReproduceAction::Cancel(study))))
    };
    let busy = part.running.is_some();
    let progress = part.running.as_ref().map(|r| {
        let p = r.progress.unwrap_or_default();
        let (done, total) = p.scenarios;
        let scale = if r.request.quick { "quick" } else { "full" };
        // The bar follows the work (after each policy of a scenario), the text the scenarios.
        let permille = (p.share() * 1000.0).round() as u32;
        html! {
            <div class="progress" data-testid={format!("{}-progress", w.key)}>
                <span>{ if total == 0 {
                    format!("Running ({scale}): starting…")
                } else {
                    format!(
                        "Running ({scale}): {} · {done} of {total} {}",
                        smd_format::percent(p.work.0 as f64, p.work.1 as f64),
                        w.units
                    )
                } }</span>
                <progress max="1000" value={permille.to_string()}></progress>
                <button onclick={cancel} data-action={format!("{}-cancel", w.key)}>{"Cancel"}</button>
            </div>
        }
    });
    let results = match &part.finished {
        None => html! {},
        Some(Err(m)) => html! { <p class="bad" data-testid={format!("{}-error", w.key)}>{ m }</p> },
        Some(Ok(r)) => {
            let failed: usize = r.experiments.iter().map(|e| e.failures.len()).sum();
            let scale = if r.quick { "quick" } else { "full" };
            html! {
                <>
                    <p data-testid={format!("{}-summary", w.key)}>
                        { format!("{} experiments ({scale} run) in {:.1} s", r.experiments.len(), r.ms / 1000.0) }
                        if w.study == Study::Paper {
                            {"; "}
                            if failed == 0 {
                                <span class="ok">{"all invariant checks passed."}</span>
                            } else {
                                <span class="bad">{ format!("{failed} invariant checks failed.") }</span>
                            }
                        } else {
                            {"."}
                        }
                    </p>
                    { verdicts(w, &r.verdicts, r.quick) }
                    { for r.experiments.iter().map(|e| experiment(state, w, e)) }
                </>
            }
        }
    };
    html! {
        <section class={classes!("card", "reproduce")} id={w.key} data-testid={w.key}>
            <h2>{ w.title }</h2>
            <p class="hint">{ w.hint }</p>
            <div class="buttons">
                <button onclick={start(true)} disabled={busy} data-testid={format!("{}-run", w.key)}>{ w.quick }</button>
                <button onclick={start(false)} disabled={busy} data-testid={format!("{}-run-full", w.key)}>{ w.full }</button>
            </div>
            { for progress }
            { results }
        </section>
    }
}

/// The paper's claims with their verdicts on this run (`smd_reproduce::verdict`, the rules
/// docs/REPRODUCTION.md's table states for the full run).
fn verdicts(w: &Words, lines: &[ClaimLine], quick: bool) -> Html {
    if lines.is_empty() {
        return html! {};
    }
    let caption = match (w.study, quick) {
        (Study::Paper, true) => "The paper's claims on this quick run (3 seeds a point; the report's verdicts are the full run's)",
        (Study::Paper, false) => "The paper's claims on this full run (docs/REPRODUCTION.md gives the same verdicts)",
        (Study::Fidelity, true) => "The goals on this quick run (one workload; docs/FIDELITY.md's verdicts are the full run's)",
        (Study::Fidelity, false) => "The goals on this full run (docs/FIDELITY.md gives the same verdicts)",
    };
    let what = match w.study {
        Study::Paper => "the paper's claim",
        Study::Fidelity => "agreement with the reference",
    };
    html! {
        <div class="verdict-list">
            <table class="verdicts" data-testid={format!("{}-verdicts", w.key)}>
                <caption>{ caption }</caption>
                <thead><tr><th>{"#"}</th><th>{ what }</th><th>{"verdict"}</th><th>{"the numbers behind it"}</th></tr></thead>
                <tbody>{ for lines.iter().map(|v| html! {
                    <tr data-claim={v.id.clone()} data-verdict={v.verdict.clone()}>
                        <td>{ &v.id }</td>
                        <td>{ &v.claim }</td>
                        <td><span class={classes!("verdict", v.verdict.replace(' ', "-"))}>{ &v.verdict }</span></td>
                        <td>{ &v.because }</td>
                    </tr>
                }) }</tbody>
            </table>
        </div>
    }
}

fn experiment(state: &crate::components::AppState, w: &Words, e: &Experiment) -> Html {
    let download = {
        let d = state.dispatcher();
        let (name, csv) = (format!("{}.csv", e.id), e.csv.clone());
        Callback::from(move |_| {
            if let Err(m) = io::download(&name, "text/csv", &csv) {
                d.dispatch(Action::View(ViewAction::Notify(Notice::warning(format!(
                    "Could not save {name}: {m}"
                )))))
            }
        })
    };
    html! {
        <article class="experiment" data-testid="experiment" data-id={e.id.clone()}>
            <h3>{ &e.title }</h3>
            <p><em>{ w.claim }</em>{ &e.claim }</p>
            <div class="chart">{ Html::from_html_unchecked(AttrValue::from(e.svg.clone())) }</div>
            <crate::components::chart::ChartDownloads svg={e.svg.clone()} name={e.id.clone()} />
            <ul class="findings">{ for e.findings.iter().map(|f| html! { <li>{ f }</li> }) }</ul>
            if !e.failures.is_empty() {
                <ul class="bad" data-testid="experiment-failures">
                    { for e.failures.iter().map(|f| html! { <li>{ f }</li> }) }
                </ul>
            }
            <button onclick={download} data-action="csv">{ format!("CSV ({}.csv)", e.id) }</button>
        </article>
    }
}

/// The "Reproduce the paper" view.
#[function_component]
pub fn ReproduceView() -> Html {
    html! { <ReproducePanel /> }
}

/// What the page needs of the "Reproduce the paper" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <ReproduceView /> }
    }

    fn ready(&self, state: &State) -> bool {
        !studies(state).is_empty()
    }

    fn exports(&self, state: &State) -> Option<(Export, Export)> {
        let studies = studies(state);
        (!studies.is_empty()).then(|| export::reproduce(&studies))
    }
}

/// The studies that finished: the paper's, the fidelity study's.
fn studies(state: &State) -> Vec<&crate::state::Reproduced> {
    [&state.reproduction.finished, &state.fidelity.finished]
        .into_iter()
        .filter_map(done)
        .collect()
}
