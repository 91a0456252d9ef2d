//! The paper's experiments (`smd_reproduce`), run in the solver worker: progress with
//! cancel, then per experiment the claim, the findings, the chart and its CSV.

use super::{io, use_app};
use crate::solver::{ClaimLine, Experiment};
use crate::state::{Action, Notice};
use crate::state::{ReproduceAction, ViewAction};
use yew::prelude::*;

/// The "Reproduce the paper" section.
#[function_component]
pub fn ReproducePanel() -> Html {
    let state = use_app();
    let start = |quick: bool| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Reproduce(ReproduceAction::Start(quick))))
    };
    let cancel = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Reproduce(ReproduceAction::Cancel)))
    };
    let busy = state.reproduction.running.is_some();
    let progress = state.reproduction.running.as_ref().map(|r| {
        let p = r.progress.unwrap_or_default();
        let (done, total) = p.scenarios;
        let scale = if r.request.quick { "quick" } else { "full" };
        // The bar follows the work (after each policy of a scenario), the text the scenarios.
        let permille = (p.share() * 1000.0).round() as u32;
        html! {
            <div class="progress" data-testid="reproduce-progress">
                <span>{ if total == 0 {
                    format!("Reproducing ({scale}): starting…")
                } else {
                    format!(
                        "Reproducing ({scale}): {} · {done} of {total} scenarios",
                        smd_format::percent(p.work.0 as f64, p.work.1 as f64)
                    )
                } }</span>
                <progress max="1000" value={permille.to_string()}></progress>
                <button onclick={cancel} data-action="reproduce-cancel">{"Cancel"}</button>
            </div>
        }
    });
    let results = match &state.reproduction.finished {
        None => html! {},
        Some(Err(m)) => html! { <p class="bad" data-testid="reproduce-error">{ m }</p> },
        Some(Ok(r)) => {
            let failed: usize = r.experiments.iter().map(|e| e.failures.len()).sum();
            let scale = if r.quick { "quick" } else { "full" };
            html! {
                <>
                    <p data-testid="reproduce-summary">
                        { format!("{} experiments ({scale} run) in {:.1} s; ", r.experiments.len(), r.ms / 1000.0) }
                        if failed == 0 {
                            <span class="ok">{"all invariant checks passed."}</span>
                        } else {
                            <span class="bad">{ format!("{failed} invariant checks failed.") }</span>
                        }
                    </p>
                    { verdicts(&r.verdicts, r.quick) }
                    { for r.experiments.iter().map(|e| experiment(&state, e)) }
                </>
            }
        }
    };
    html! {
        <section class="card reproduce" id="reproduce" data-testid="reproduce">
            <h2>{"Reproduce the paper"}</h2>
            <p class="hint">{"Runs the paper's experiments (utility against units and jobs, ratio to the optimum, resource share, ε and M_δ) in the solver worker, with generated scenarios and several seeds per point."}</p>
            <div class="buttons">
                <button onclick={start(true)} disabled={busy} data-testid="reproduce-run">{"Run quick (≈15 s)"}</button>
                <button onclick={start(false)} disabled={busy} data-testid="reproduce-run-full">{"Run full (≈1–2 min)"}</button>
            </div>
            { for progress }
            { results }
        </section>
    }
}

/// The paper's claims with their verdicts on this run (`smd_reproduce::verdict`, the rules
/// docs/REPRODUCTION.md's table states for the full run).
fn verdicts(lines: &[ClaimLine], quick: bool) -> Html {
    if lines.is_empty() {
        return html! {};
    }
    html! {
        <div class="verdict-list">
            <table class="verdicts" data-testid="reproduce-verdicts">
                <caption>{ if quick {
                    "The paper's claims on this quick run (3 seeds a point; the report's verdicts are the full run's)"
                } else {
                    "The paper's claims on this full run (docs/REPRODUCTION.md gives the same verdicts)"
                } }</caption>
                <thead><tr><th>{"#"}</th><th>{"the paper's claim"}</th><th>{"verdict"}</th><th>{"the numbers behind it"}</th></tr></thead>
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

fn experiment(state: &super::AppState, e: &Experiment) -> Html {
    let download = {
        let d = state.dispatcher();
        let (name, csv) = (format!("{}.csv", e.id), e.csv.clone());
        Callback::from(move |_| {
            if let Err(m) = io::download(&name, "text/csv", &csv) {
                d.dispatch(Action::View(ViewAction::Notify(Notice {
                    warning: true,
                    text: format!("Could not save {name}: {m}"),
                })))
            }
        })
    };
    html! {
        <article class="experiment" data-testid="experiment" data-id={e.id.clone()}>
            <h3>{ &e.title }</h3>
            <p><em>{"Paper's claim: "}</em>{ &e.claim }</p>
            <div class="chart">{ Html::from_html_unchecked(AttrValue::from(e.svg.clone())) }</div>
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
