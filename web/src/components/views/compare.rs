//! Side by side: save the draft under a name, pick two scenarios (or one and the draft),
//! plan both in the worker and see their policies, their best plans and what differs
//! between their inputs next to each other; simulate both over time with one policy for
//! their JCTs; export, import and share both.

use crate::components::apps::{input, select};
use crate::components::format::{duration, percent, sig};
use crate::components::use_app;
use crate::state::compare::{Compared, Side, DRAFT};
use crate::state::Action;
use crate::state::CompareAction;
use crate::state::{Background, Simulation};
use smd_core::Plan;
use smd_sim::SimPolicy;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;
use super::done;
use crate::export::{self, Export};
use crate::state::State;

/// The "Side by side" view.
#[function_component]
pub fn CompareView() -> Html {
    let state = use_app();
    let c = &state.compare;
    let on = |field: &'static str| {
        let d = state.dispatcher();
        Callback::from(move |v: String| d.dispatch(Action::Compare(CompareAction::Field(field, v))))
    };
    let act = |a: Action| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(a.clone()))
    };
    let err = |field: &str| {
        c.error
            .as_ref()
            .filter(|(k, _)| *k == field)
            .map(|(_, m)| m)
    };
    let mut choices: Vec<(String, String)> = vec![(DRAFT.into(), "the draft".into())];
    choices.extend(c.saved.iter().map(|s| (s.name.clone(), s.name.clone())));
    let saved = c.saved.iter().map(|s| {
        let delete = act(Action::Compare(CompareAction::DeleteSaved(s.name.clone())));
        html! {
            <li data-saved={s.name.clone()}>
                <strong>{ &s.name }</strong>
                { format!(" — {} jobs, {}", s.scenario.jobs.len(), cluster_words(&s.scenario)) }
                <button class="small" onclick={delete} title="delete this saved scenario">{"delete"}</button>
            </li>
        }
    });
    let ontext = {
        let d = state.dispatcher();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            d.dispatch(Action::Compare(CompareAction::Field("text", v)))
        })
    };
    let busy = c.run.running.is_some();
    let progress = c.run.running.as_ref().map(|r| {
        let (side, done, total) = r.progress.unwrap_or((0, 0, 1));
        let name = if side == 0 {
            &r.request.a.label
        } else {
            &r.request.b.label
        };
        format!("Planning {name}: {done} of {total} policies…")
    });
    html! {
        <section id="side-by-side" class="card">
            <h2>{"Scenarios side by side"}</h2>
            <p class="note">{"Save the draft under a name (kept in this browser), pick two scenarios — or one and the draft — and compare their plans with every policy and what differs between their inputs. Export writes every saved scenario as one file; a share link carries both scenarios of a comparison."}</p>
            <div class="form-row">
                { input("compare.name", "save the draft as", c.name.clone(), err("name"), "a name, e.g. 16 machines".into(), on("name")) }
                <button onclick={act(Action::Compare(CompareAction::Save))} data-testid="save-scenario">{"Save"}</button>
            </div>
            if !c.saved.is_empty() {
                <ul class="saved" data-testid="saved-scenarios">{ for saved }</ul>
            }
            <div class="form-row">
                { select("compare.a", "A", choices.clone(), &c.a, on("a")) }
                { select("compare.b", "B", choices, &c.b, on("b")) }
                if busy {
                    <button onclick={act(Action::Compare(CompareAction::Cancel))} data-testid="compare-cancel">{"Cancel"}</button>
                } else {
                    <button class="primary" onclick={act(Action::Compare(CompareAction::Start))} data-testid="compare-run">{"Compare"}</button>
                }
            </div>
            { for ["a", "b"].iter().filter_map(|f| err(f)).map(|m| html! {
                <p class="msg" data-testid="error" role="alert">{ m }</p>
            }) }
            if let Some(p) = progress {
                <p class="status" data-testid="compare-progress">{ p }</p>
            }
            { match &c.run.finished {
                Some(Ok(r)) => results(&state, r),
                Some(Err(m)) => html! { <p class="msg" role="alert">{ m }</p> },
                None => html! {},
            } }
            { over_time(&state) }
            <details class="io">
                <summary>{"Export, import"}</summary>
                <div class="form-row">
                    <button onclick={act(Action::Compare(CompareAction::ExportSaved))} data-testid="export-saved">{"Export all"}</button>
                    <button onclick={act(Action::Compare(CompareAction::ImportSaved))} data-testid="import-saved">{"Import"}</button>
                </div>
                <label class="field">
                    <span class="label">{"Saved scenarios as JSON: Export all writes them here; paste a file's text, then Import"}</span>
                    <textarea rows="6" value={c.text.clone()} oninput={ontext} data-field="compare.text"
                        placeholder="{\"scenarios\": [{\"name\": …, \"scenario\": …}]}" />
                </label>
                if let Some(m) = err("text") {
                    <p class="msg" data-testid="error" role="alert">{ m }</p>
                }
            </details>
        </section>
    }
}

/// What the page needs of the "Side by side" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <CompareView /> }
    }

    fn noun(&self) -> &'static str {
        "comparison"
    }

    fn ready(&self, state: &State) -> bool {
        done(&state.compare.run.finished).is_some()
    }

    fn exports(&self, state: &State) -> Option<(Export, Export)> {
        done(&state.compare.run.finished).map(export::compare)
    }

    fn run(&self, _: &State, d: &UseReducerDispatcher<State>) {
        d.dispatch(Action::Compare(CompareAction::Start));
    }
}

/// `pool of 2 units` or `16 × t4x4`.
fn cluster_words(s: &smd_core::Scenario) -> String {
    if s.cluster.has_machines() {
        s.cluster
            .machines
            .iter()
            .map(|g| format!("{} × {}", sig(g.count, 4), g.name))
            .collect::<Vec<_>>()
            .join(" + ")
    } else {
        let units = s.cluster.units;
        let plural = if units == 1.0 { "" } else { "s" };
        format!("a pool of {} unit{plural}", sig(units, 4))
    }
}

/// The plan with the most utility of a side, if any policy planned it.
fn best(side: &Side) -> Option<&Plan> {
    side.plans
        .iter()
        .filter_map(|p| p.as_ref().ok())
        .max_by(|a, b| a.total_utility.total_cmp(&b.total_utility))
}

/// The two sides, B against A policy by policy, and what differs in their inputs.
fn results(state: &crate::components::AppState, r: &Compared) -> Html {
    // The view's own link: both scenarios with their names, compared again on open.
    let link = crate::components::views::bar::view_link(state, crate::state::View::Compare);
    let share = {
        let d = state.dispatcher();
        let link = link.clone();
        let names = format!("A “{}” and B “{}”", r.a.label, r.b.label);
        Callback::from(move |_: MouseEvent| {
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&link);
            }
            d.dispatch(Action::View(crate::state::ViewAction::Notify(
                crate::state::Notice::info(format!(
                    "Link copied: it opens {names} and compares them again."
                )),
            )));
        })
    };
    html! {
        <div data-testid="compare-side-by-side" class="side-by-side">
            { delta(r) }
            <div class="sides">
                { side(&r.a, "a") }
                { side(&r.b, "b") }
            </div>
            { differences(r) }
            <p class="note">
                { format!("Planned in {}. ", duration(r.ms / 1000.0)) }
                <button onclick={share} data-testid="compare-link" data-link={link}
                    title="Copy a link that opens both scenarios, with their names, and compares them again">{"Share both"}</button>
            </p>
        </div>
    }
}

/// B against A for every policy both sides planned: total utility, admitted jobs and GPU
/// use, each with B − A (and % of A for the utility).
fn delta(r: &Compared) -> Html {
    let rows = r.a.plans.iter().filter_map(|a| {
        let a = a.as_ref().ok()?;
        let b = r
            .b
            .plans
            .iter()
            .filter_map(|p| p.as_ref().ok())
            .find(|p| p.policy == a.policy)?;
        let du = b.total_utility - a.total_utility;
        let gpu = |p: &Plan| p.resources.used.gpu;
        let signed = |v: f64, digits: usize| {
            if v > 0.0 {
                format!("+{}", sig(v, digits))
            } else {
                sig(v, digits)
            }
        };
        let share = if a.total_utility.abs() > 0.0 {
            let pct = 100.0 * du / a.total_utility.abs();
            format!("{}%", signed(pct, 3))
        } else {
            "—".into()
        };
        let da = b.admitted as i64 - a.admitted as i64;
        Some(html! {
            <tr data-policy={a.policy.name()}>
                <td>{ a.policy.name() }</td>
                <td class="num">{ format!("{:.3}", a.total_utility) }</td>
                <td class="num">{ format!("{:.3}", b.total_utility) }</td>
                <td class="num" data-testid="delta-utility" data-value={du.to_string()}>{ signed(du, 4) }</td>
                <td class="num" data-testid="delta-percent">{ share }</td>
                <td class="num">{ a.admitted }</td>
                <td class="num">{ b.admitted }</td>
                <td class="num" data-testid="delta-admitted">{ if da > 0 { format!("+{da}") } else { da.to_string() } }</td>
                <td class="num" data-testid="delta-gpu">{ signed(gpu(b) - gpu(a), 4) }</td>
            </tr>
        })
    });
    html! {
        <>
            <h3>{"B against A, policy by policy"}</h3>
            <div class="scroll"><table class="compare delta" data-testid="compare-delta">
                <thead><tr>
                    <th>{"policy"}</th>
                    <th class="num">{"utility A"}</th><th class="num">{"utility B"}</th>
                    <th class="num">{"B − A"}</th><th class="num">{"% of A"}</th>
                    <th class="num">{"admitted A"}</th><th class="num">{"admitted B"}</th><th class="num">{"B − A"}</th>
                    <th class="num">{"GPUs used B − A"}</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table></div>
        </>
    }
}

/// One side: its policies' totals and its best plan's jobs.
fn side(s: &Side, which: &'static str) -> Html {
    let n = s.scenario.jobs.len();
    let rows = s.plans.iter().map(|p| match p {
        Ok(p) => {
            let used = p.resources.used.to_array();
            let cap = p.resources.capacity.to_array();
            html! {
                <tr data-policy={p.policy.name()}>
                    <td>{ p.policy.name() }</td>
                    <td class="num" data-testid="side-utility">{ format!("{:.3}", p.total_utility) }</td>
                    <td class="num">{ format!("{}/{n}", p.admitted) }</td>
                    <td class="num">{ percent(used[0], cap[0]) }</td>
                </tr>
            }
        }
        Err(m) => html! { <tr><td colspan="4" class="msg">{ m }</td></tr> },
    });
    let jobs = best(s).map(|p| {
        let rows = p.jobs.iter().map(|j| {
            html! {
                <tr class={classes!((!j.admitted).then_some("rejected"))}>
                    <td>{ &j.id }</td>
                    <td>{ if j.admitted { "✓" } else { "✗" } }</td>
                    <td class="num">{ j.workers.map(|v| v.to_string()).unwrap_or_else(|| "—".into()) }</td>
                    <td class="num">{ j.ps.map(|v| v.to_string()).unwrap_or_else(|| "—".into()) }</td>
                    <td class="num">{ j.completion_time_s.map(duration).unwrap_or_else(|| "—".into()) }</td>
                    <td class="num">{ sig(j.utility, 4) }</td>
                </tr>
            }
        });
        html! {
            <>
                <h4>{ format!("best plan: {}", p.policy.name()) }</h4>
                <div class="scroll"><table class="plan compact">
                    <thead><tr><th>{"job"}</th><th data-testid="admitted-header">{"admitted"}</th><th class="num">{"w"}</th><th class="num">{"p"}</th><th class="num">{"T"}</th><th class="num">{"μ"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table></div>
            </>
        }
    });
    html! {
        <div class="side" data-side={which}>
            <h3>{ format!("{} — {}", which.to_uppercase(), s.label) }</h3>
            <p class="note">{ format!("{n} jobs on {}, ε = {}", cluster_words(&s.scenario), sig(s.scenario.params.epsilon, 3)) }</p>
            <table class="compare">
                <thead><tr><th>{"policy"}</th><th class="num">{"total utility"}</th><th class="num">{"admitted"}</th><th class="num">{"GPU"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            { jobs.unwrap_or_default() }
        </div>
    }
}

/// Both chosen scenarios simulated over time with one policy — each as the Over time view
/// simulates it —: mean JCT, p95 JCT and mean wait of each, and B − A.
fn over_time(state: &crate::components::AppState) -> Html {
    let c = &state.compare;
    let policy = state.compare_sim_policy();
    let d = state.dispatcher();
    let onpolicy = Callback::from(move |v: String| {
        d.dispatch(Action::Compare(CompareAction::Field("policy", v)))
    });
    let act = |a: Action| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(a.clone()))
    };
    let choices: Vec<(String, String)> = SimPolicy::ALL
        .iter()
        .filter(|&&p| p != SimPolicy::Bound)
        .map(|p| (p.name().to_owned(), p.name().to_owned()))
        .collect();
    let busy = c.over_time.iter().any(|b| b.is_running());
    let progress = c.over_time.iter().filter_map(|b| {
        let r = b.running.as_ref()?;
        let text = match r.progress {
            None => format!("Simulating {} over time: waiting…", r.request.label),
            Some(p) => format!(
                "Simulating {} over time: slot {}, t = {}, {} of {} finished",
                r.request.label,
                p.slots,
                duration(p.time_s),
                p.finished,
                p.jobs
            ),
        };
        Some(html! { <p class="status" data-testid="compare-over-time-progress">{ text }</p> })
    });
    let time = |v: Option<f64>| v.map_or("—".to_owned(), duration);
    let value = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    let metrics = |b: &Background<Simulation>| match &b.finished {
        Some(Ok(r)) => r
            .runs
            .first()
            .map(|run| Ok((r.label.clone(), run.policy, run.metrics.clone()))),
        Some(Err(m)) => Some(Err(m.clone())),
        None => None,
    };
    let sides: Vec<_> = c.over_time.iter().map(metrics).collect();
    let rows = sides.iter().zip(["a", "b"]).filter_map(|(m, which)| {
        Some(match m.as_ref()? {
            Ok((label, p, m)) => html! {
                <tr data-side={which}>
                    <td>{ format!("{} — {label}", which.to_uppercase()) }</td>
                    <td>{ p.name() }</td>
                    <td class="num" data-testid="mean-jct" data-value={value(m.mean_jct_s)}>{ time(m.mean_jct_s) }</td>
                    <td class="num" data-testid="p95-jct" data-value={value(m.p95_jct_s)}>{ time(m.p95_jct_s) }</td>
                    <td class="num" data-testid="mean-wait" data-value={value(m.mean_queue_s)}>{ time(m.mean_queue_s) }</td>
                </tr>
            },
            Err(e) => html! {
                <tr data-side={which}><td>{ which.to_uppercase() }</td><td colspan="4" class="msg">{ e }</td></tr>
            },
        })
    });
    // B − A once both ran with the same policy.
    let delta = match (&sides[0], &sides[1]) {
        (Some(Ok((_, pa, a))), Some(Ok((_, pb, b)))) if pa == pb => {
            let diff = |x: Option<f64>, y: Option<f64>| match (x, y) {
                (Some(x), Some(y)) if y >= x => format!("+{}", duration(y - x)),
                (Some(x), Some(y)) => format!("−{}", duration(x - y)),
                _ => "—".into(),
            };
            html! {
                <tr data-side="delta">
                    <td>{"B − A"}</td><td></td>
                    <td class="num">{ diff(a.mean_jct_s, b.mean_jct_s) }</td>
                    <td class="num">{ diff(a.p95_jct_s, b.p95_jct_s) }</td>
                    <td class="num">{ diff(a.mean_queue_s, b.mean_queue_s) }</td>
                </tr>
            }
        }
        _ => html! {},
    };
    let any = sides.iter().any(|s| s.is_some());
    html! {
        <div class="compare-over-time" data-testid="compare-over-time">
            <h3>{"Over time"}</h3>
            <p class="note">{"Both scenarios simulated slot by slot with one policy, as the Over time view simulates them (each with its own parameters): how long their jobs take and wait — e.g. whether 24 machines shorten the JCTs of 16."}</p>
            <div class="form-row">
                { select("compare.policy", "policy over time", choices, policy.name(), onpolicy) }
                if busy {
                    <button onclick={act(Action::Compare(CompareAction::CancelOverTime))} data-testid="compare-over-time-cancel">{"Cancel"}</button>
                } else {
                    <button onclick={act(Action::Compare(CompareAction::StartOverTime))} data-testid="compare-over-time-run">{"Simulate both"}</button>
                }
            </div>
            { for progress }
            if any {
                <div class="scroll"><table class="compare" data-testid="compare-over-time-table">
                    <thead><tr>
                        <th>{"scenario"}</th><th>{"policy"}</th>
                        <th class="num">{"mean JCT"}</th><th class="num">{"p95 JCT"}</th>
                        <th class="num" title="first start − arrival, mean over the jobs that started">{"mean wait"}</th>
                    </tr></thead>
                    <tbody>{ for rows }{ delta }</tbody>
                </table></div>
            }
        </div>
    }
}

/// What differs between the two inputs.
fn differences(r: &Compared) -> Html {
    if r.diff.is_empty() {
        return html! { <p class="note" data-testid="compare-diff">{"The two scenarios have the same inputs."}</p> };
    }
    let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(absent)".into());
    let rows = r.diff.iter().map(|d| {
        html! {
            <tr data-path={d.path.clone()}>
                <td class="id">{ &d.path }</td>
                <td class="value">{ show(&d.a) }</td>
                <td class="value">{ show(&d.b) }</td>
            </tr>
        }
    });
    html! {
        <>
            <h3 data-testid="compare-diff-title">{ format!("What differs ({} input{})", r.diff.len(), if r.diff.len() == 1 { "" } else { "s" }) }</h3>
            <div class="scroll"><table class="diff" data-testid="compare-diff">
                <thead><tr><th>{"input"}</th><th>{"A"}</th><th>{"B"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table></div>
        </>
    }
}
