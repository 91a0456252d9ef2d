//! The plans: the comparison of the four policies, the selected policy's job table and its
//! resource bars.

use super::format::{duration, ms, percent, sig};
use super::use_app;
use crate::fields::{resource_label, RESOURCES};
use crate::state::{Action, Results, State, PAGE_POLICIES};
use smd_core::{Plan, Policy};
use yew::prelude::*;

/// What a policy is, in a few words.
pub fn policy_blurb(p: Policy) -> &'static str {
    match p {
        Policy::Smd => "Algorithm 1 (ε-grid) → Algorithm 2 (rounding) → knapsack",
        Policy::Esw => "equal split w = p = k, then the same knapsack",
        Policy::Optimus => "admit at (1,1) in order, then greedy +1 worker/PS",
        Policy::Exact => "per-job integer optimum, exact knapsack",
        Policy::Global => "joint optimum over every job's Pareto set",
    }
}

/// The comparison of the policies.
#[function_component]
pub fn PolicyCompare() -> Html {
    let state = use_app();
    let Some(r) = state.solving.results.clone() else {
        return html! {
            <section class="card" id="compare"><h2>{"Policies"}</h2>
                <p class="note" data-testid="policy-compare-empty">{"No plan yet."}</p></section>
        };
    };
    let exact = r.plan(Policy::Exact).map(|p| p.total_utility);
    let rows = PAGE_POLICIES.into_iter().map(|policy| {
        let d = state.dispatcher();
        let onclick = Callback::from(move |_| d.dispatch(Action::SelectPolicy(policy)));
        let selected = state.view.policy == policy;
        let cls = classes!(selected.then_some("selected"));
        match r.plan(policy) {
            Some(p) => {
                let used = p.resources.used.to_array();
                let cap = p.resources.capacity.to_array();
                let ratio = match exact {
                    Some(e) if e > 0.0 => format!("{:.3}", p.total_utility / e),
                    _ => "—".into(),
                };
                html! {
                    <tr class={cls} {onclick} data-policy={policy.name()} title={policy_blurb(policy)}>
                        <td class="policy">{ if selected { "▸ " } else { "" } }{ policy.name() }</td>
                        <td class="num strong">{ format!("{:.3}", p.total_utility) }</td>
                        <td class="num">{ format!("{}/{}", p.admitted, p.jobs.len()) }</td>
                        { for (0..4).map(|i| html! { <td class="num">{ percent(used[i], cap[i]) }</td> }) }
                        <td class="num">{ ms(p.stats.solve_ms) }</td>
                        <td class="num">{ ratio }</td>
                    </tr>
                }
            }
            None => {
                let why = r
                    .failures
                    .iter()
                    .find(|(n, _)| n == policy.name())
                    .map(|(_, m)| m.clone())
                    .unwrap_or_else(|| "no plan".into());
                html! {
                    <tr class={cls} {onclick} data-policy={policy.name()}>
                        <td class="policy">{ policy.name() }</td>
                        <td colspan="8" class="bad">{ format!("failed: {why}") }</td>
                    </tr>
                }
            }
        }
    });
    let smd_ratio = match (r.plan(Policy::Smd), exact) {
        (Some(s), Some(e)) if e > 0.0 => format!("SMD / exact = {:.3}", s.total_utility / e),
        _ => String::new(),
    };
    html! {
        <section class="card" id="compare">
            <h2>{"Policies"}<span class="sub">{ format!("{} jobs · solved in {} · {}", r.scenario.jobs.len(), ms(r.ms), smd_ratio) }</span></h2>
            <table class="compare" data-testid="policy-compare">
                <thead><tr>
                    <th>{"policy"}</th><th class="num">{"total utility"}</th><th class="num">{"admitted"}</th>
                    { for RESOURCES.into_iter().map(|r| html! { <th class="num">{ format!("{} used", resource_label(r)) }</th> }) }
                    <th class="num">{"solve time"}</th><th class="num">{"÷ exact"}</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="note">{"Click a policy to see its plan. Resource use is the share of the cluster capacity the admitted jobs take. "}
                {"Exact is the optimum of the decomposition (per-job best T, exact knapsack); SMD can beat it by choosing smaller allocations."}</p>
        </section>
    }
}

/// The selected policy's plan: total, resource bars and the job table.
#[function_component]
pub fn PlanDetails() -> Html {
    let state = use_app();
    let Some(r) = state.solving.results.clone() else {
        return html! {};
    };
    let Some(plan) = r.plan(state.view.policy) else {
        return html! { <section class="card" id="plan"><h2>{ format!("Plan: {}", state.view.policy) }</h2><p class="bad">{"This policy failed."}</p></section> };
    };
    html! {
        <section class="card" id="plan">
            <h2>{ format!("Plan of {} ", state.view.policy) }
                <span class="sub">{"total utility "}<strong data-testid="total-utility">{ format!("{:.3}", plan.total_utility) }</strong>
                { format!(" · {} of {} jobs admitted · π unit: {} · admission: {}{}",
                    plan.admitted, plan.jobs.len(), plan.time_unit, plan.admission.method,
                    plan.admission.depth.map(|q| format!(" q={q} (guarantee {:.2})", plan.admission.guarantee)).unwrap_or_default()) }
                </span>
            </h2>
            <ResourceBars plan={plan.clone()} />
            <PlanTable results={r.clone()} policy={state.view.policy} selected={state.view.selected} dispatch={state.dispatcher()} />
        </section>
    }
}

/// Properties of [`ResourceBars`].
#[derive(Properties, PartialEq)]
pub struct BarsProps {
    /// The plan.
    pub plan: Plan,
}

/// Per resource: use and the admitted jobs' limits, against capacity.
#[function_component]
pub fn ResourceBars(props: &BarsProps) -> Html {
    let res = &props.plan.resources;
    let (used, cap, asked) = (
        res.used.to_array(),
        res.capacity.to_array(),
        res.requested.to_array(),
    );
    html! {
        <div class="bars" data-testid="resource-bars">
            { for (0..4).map(|i| {
                let u = if cap[i] > 0.0 { (used[i] / cap[i]).clamp(0.0, 1.0) } else { 0.0 };
                let a = if cap[i] > 0.0 { (asked[i] / cap[i]).clamp(0.0, 1.0) } else { 0.0 };
                html! {
                    <div class="bar-row">
                        <span class="bar-label">{ resource_label(RESOURCES[i]) }</span>
                        <div class="bar" role="img"
                            aria-label={format!("{} used {} of {}", resource_label(RESOURCES[i]), sig(used[i], 4), sig(cap[i], 4))}>
                            <div class="asked" style={format!("width:{:.2}%", 100.0 * a)}></div>
                            <div class="used" style={format!("width:{:.2}%", 100.0 * u)}></div>
                        </div>
                        <span class="bar-text">
                            { format!("used {} of {} ({}) · asked {} ({})", sig(used[i], 4), sig(cap[i], 4), percent(used[i], cap[i]),
                                sig(asked[i], 4), percent(asked[i], cap[i])) }
                        </span>
                    </div>
                }
            }) }
            <p class="legend"><span class="swatch used"></span>{" used by admitted jobs "}
                <span class="swatch asked"></span>{" asked: Σ limits L of admitted jobs (ϑ·instance) "}
                {"· 100% = capacity"}</p>
        </div>
    }
}

/// Properties of [`PlanTable`]: all it shows, so that it renders again only when these
/// change.
#[derive(Properties, PartialEq)]
pub struct PlanTableProps {
    /// The results.
    pub results: std::rc::Rc<Results>,
    /// Which policy.
    pub policy: Policy,
    /// The selected job.
    pub selected: Option<u64>,
    /// To change the state.
    pub dispatch: UseReducerDispatcher<State>,
}

/// One row per job.
#[function_component]
pub fn PlanTable(props: &PlanTableProps) -> Html {
    let Some(plan) = props.results.plan(props.policy) else {
        return html! {};
    };
    let rows = plan.jobs.iter().enumerate().map(|(i, j)| {
        let uid = props.results.uids.get(i).copied().unwrap_or(0);
        let d = props.dispatch.clone();
        let onclick = Callback::from(move |_| d.dispatch(Action::SelectJob(uid)));
        let selected = props.selected == Some(uid);
        let status = if j.admitted {
            html! { <span class="ok">{"✓ admitted"}</span> }
        } else {
            html! { <span class="no">{ format!("✗ {}", j.reason.as_ref().map(ToString::to_string).unwrap_or_default()) }</span> }
        };
        let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "—".into());
        html! {
            <tr key={uid} data-testid="plan-row" {onclick}
                class={classes!(selected.then_some("selected"), (!j.admitted).then_some("rejected"))}>
                <td class="id">{ if selected { "▸ " } else { "" } }{ &j.id }</td>
                <td>{ status }</td>
                <td class="num">{ opt(j.workers) }</td>
                <td class="num">{ opt(j.ps) }</td>
                <td class="num">{ j.completion_time_s.map(duration).unwrap_or_else(|| "—".into()) }</td>
                <td class="num">{ j.completion_time.map(|v| sig(v, 3)).unwrap_or_else(|| "—".into()) }</td>
                <td class="num">{ sig(j.utility, 4) }</td>
            </tr>
        }
    });
    html! {
        <div class="scroll plan-scroll">
            <table class="plan" data-testid="plan-table">
                <thead><tr>
                    <th>{"job"}</th><th>{"admitted / reason"}</th>
                    <th class="num" title="workers">{"w"}</th><th class="num" title="parameter servers">{"p"}</th>
                    <th class="num" title="completion time">{"T"}</th><th class="num" title="T in the planner's unit">{"π"}</th>
                    <th class="num" title="utility μ(π)">{"μ"}</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}
