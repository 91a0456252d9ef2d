//! The status line: solver state, progress with cancel (and where `global`'s search is),
//! notices and the error summary.

use super::format::{count, percent_sig, sig};
use super::use_app;
use crate::state::{page_policies, Action, Run, WorkerStatus};
use crate::state::{AppsAction, SolveAction, ViewAction};
use smd_core::SearchProgress;
use yew::prelude::*;

/// Where `global`'s search is: "searching — best 1234.5, bound 1235 (gap 0.04%), 1.2 M
/// nodes".
pub fn search_text(s: &SearchProgress) -> String {
    format!(
        "searching — best {}, bound {} (gap {}), {} nodes",
        sig(s.best, 6),
        sig(s.bound, 6),
        percent_sig(s.gap(), 2),
        count(s.nodes)
    )
}

/// The progress of a run: "Solving 30 jobs: exact 12/30 (policy 4 of 5)", or while
/// `global` searches, "Solving 30 jobs: global: searching — … (policy 5 of 5)".
pub fn progress_text(run: &Run) -> String {
    let jobs = run.request.scenario.jobs.len();
    let (policy, done, total) = run.progress.jobs.unwrap_or((0, 0, jobs));
    let policies = page_policies(&run.request.scenario.cluster);
    let name = policies.get(policy).map(|p| p.name()).unwrap_or("");
    let what = match &run.progress.search {
        Some(s) => format!("{name}: {}", search_text(s)),
        None => format!("{name} {done}/{total}"),
    };
    format!(
        "Solving {jobs} jobs: {what} (policy {} of {})",
        policy + 1,
        policies.len()
    )
}

/// Progress, worker status and the notice.
#[function_component]
pub fn StatusBar() -> Html {
    let state = use_app();
    let cancel = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Solve(SolveAction::Cancel)))
    };
    let dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::View(ViewAction::DismissNotice)))
    };
    let undo = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Apps(AppsAction::Undo)))
    };
    let progress = state.solving.run().map(|run| {
        let scenario = &run.request.scenario;
        let (policy, done, total) = run.progress.jobs.unwrap_or((0, 0, scenario.jobs.len()));
        // Every policy over every job: overall fraction for the bar; none while `global`
        // searches (its end is the proof or the time budget, not a count).
        let whole = (page_policies(&scenario.cluster).len() * total.max(1)) as f64;
        let frac = (policy as f64 * total as f64 + done as f64) / whole;
        let value = run
            .progress
            .search
            .is_none()
            .then(|| format!("{:.0}", 1000.0 * frac));
        html! {
            <div class="progress" data-testid="progress">
                <span data-testid="progress-text">{ progress_text(run) }</span>
                <progress max="1000" {value}></progress>
                if run.slow() {
                    <span class="pill warn" data-testid="slow-solve">{ format!("{} s — still solving; Cancel stops it", run.progress.elapsed_s) }</span>
                }
                <button onclick={cancel} data-action="cancel">{"Cancel"}</button>
            </div>
        }
    });
    let worker = match &state.solving.worker {
        WorkerStatus::Starting => html! { <span class="pill">{"solver starting…"}</span> },
        WorkerStatus::Ready => html! { <span class="pill ok">{"solver ready"}</span> },
        WorkerStatus::Died(m) => {
            html! { <span class="pill bad" title={m.clone()}>{"solver restarted"}</span> }
        }
    };
    let stale = state.results_stale().then(|| {
        let why = if state.draft.valid && state.solve_cancelled() {
            "its solve was cancelled — change any input to plan it again".to_string()
        } else if state.draft.valid {
            "the current input is being solved".to_string()
        } else {
            format!("the current input has {} — fix it to re-plan", problems(state.draft.errors.len()))
        };
        html! { <span class="pill warn" data-testid="stale">{ format!("showing the previous plan: {why}") }</span> }
    });
    html! {
        <div class="status" data-testid="status">
            { worker }
            { for stale }
            { for progress }
            if let Some(n) = &state.view.notice {
                <div class={classes!("notice", n.warning.then_some("warning"))} data-testid="notice" role="status">
                    <span>{ &n.text }</span>
                    if let Some(u) = state.notice_undo() {
                        <button class="small" onclick={undo} data-action="undo" title={format!("Undo {}", u.what)}>{"Undo"}</button>
                    }
                    <button class="icon" onclick={dismiss} aria-label="dismiss">{"✕"}</button>
                </div>
            }
        </div>
    }
}

/// Every current problem in one list (errors of jobs not open in the editor show here too).
#[function_component]
pub fn ErrorSummary() -> Html {
    let state = use_app();
    if state.draft.errors.is_empty() {
        return html! {};
    }
    let items = state.draft.errors.iter().map(|e| {
        let d = state.dispatcher();
        let job = e.key.as_ref().and_then(|k| k.job);
        let show = Callback::from(move |()| {
            if let Some(uid) = job {
                d.dispatch(Action::View(ViewAction::SelectJob(uid)))
            }
        });
        let (onclick, onkeydown) = super::on_activate(show);
        // A message whose input is not on screen carries the test hook here instead.
        let testid = (!state.shown_inline(e)).then_some("error");
        html! {
            <li {onclick} onkeydown={job.is_some().then_some(onkeydown)} tabindex={job.is_some().then_some("0")}
                class={classes!(job.is_some().then_some("link"))}>
                <code>{ &e.place }</code>{" "}<span data-testid={testid}>{ &e.message }</span>
            </li>
        }
    });
    html! {
        <section class="card errors" data-testid="error-summary">
            <h2>{ format!("{} — the plans shown are for the last valid input", problems(state.draft.errors.len())) }</h2>
            <ul>{ for items }</ul>
        </section>
    }
}

fn problems(n: usize) -> String {
    if n == 1 {
        "1 problem".into()
    } else {
        format!("{n} problems")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::tests::state;
    use crate::state::Action;
    use crate::state::SolveAction;
    use yew::Reducible;

    #[test]
    fn the_status_says_where_globals_search_is() {
        let search = SearchProgress {
            nodes: 1_200_000,
            best: 1234.5,
            bound: 1235.0,
        };
        assert_eq!(
            search_text(&search),
            "searching — best 1234.5, bound 1235 (gap 0.04%), 1.2 M nodes"
        );
        let s = state(2);
        let r = s.draft.revision;
        let s = s.reduce(Action::Solve(SolveAction::Start(r)));
        let mut run = s.solving.run().cloned().unwrap();
        assert_eq!(
            progress_text(&run),
            "Solving 2 jobs: smd 0/2 (policy 1 of 5)"
        );
        run.progress.jobs = Some((4, 2, 2));
        assert_eq!(
            progress_text(&run),
            "Solving 2 jobs: global 2/2 (policy 5 of 5)"
        );
        run.progress.search = Some(search);
        assert_eq!(
            progress_text(&run),
            format!(
                "Solving 2 jobs: global: {} (policy 5 of 5)",
                search_text(&search)
            )
        );
    }
}
