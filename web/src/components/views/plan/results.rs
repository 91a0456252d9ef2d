//! The plans: the comparison of the policies with the recommended plan (`global`'s, with
//! its proof status), the selected policy's job table and its resource bars.

use crate::components::format::{duration, ms, percent, percent_sig, sig};
use crate::components::use_app;
use crate::fields::{resource_label, RESOURCES};
use crate::state::ViewAction;
use crate::state::{Action, Results, State};
use smd_core::{Plan, Policy};
use yew::prelude::*;

/// How sure a plan is to be the joint optimum: for `global`, "proven optimal" or "best
/// found, within X% of the optimum" (when its time budget ended the search first); `None`
/// for the other policies, which do not search the joint problem.
pub fn proof_status(plan: &Plan) -> Option<String> {
    if plan.policy != Policy::Global {
        return None;
    }
    let a = &plan.admission;
    Some(match (a.proven_optimal, a.gap) {
        (true, _) => "proven optimal".into(),
        (false, Some(gap)) => format!("best found, within {} of the optimum", percent_sig(gap, 2)),
        // After placement or GPU packing the proof says nothing of the placed plan
        // (MODEL §15): the best placed plan of every policy is kept instead.
        (false, None) if plan.placement.is_some() || plan.sharing.is_some() => {
            "the best placed plan of every policy (no proof after placement)".into()
        }
        (false, None) => "best found".into(),
    })
}

/// The line about the recommended plan: its policy, total utility, proof status and solve
/// time.
pub fn recommended_text(plan: &Plan) -> String {
    let proof = proof_status(plan)
        .map(|p| format!(", {p}"))
        .unwrap_or_default();
    format!(
        "Recommended plan: {} — the best total utility ({}){proof}; solved in {}.",
        plan.policy,
        sig(plan.total_utility, 5),
        ms(plan.stats.solve_ms)
    )
}

/// One row of the comparison.
fn compare_row(
    state: &State,
    r: &Results,
    policy: Policy,
    dispatch: UseReducerDispatcher<State>,
) -> Html {
    let select =
        Callback::from(move |()| dispatch.dispatch(Action::View(ViewAction::SelectPolicy(policy))));
    let (onclick, onkeydown) = crate::components::on_activate(select);
    let selected = state.view.policy == policy;
    let aria_selected = selected.to_string();
    let recommended = r.recommended().is_some_and(|p| p.policy == policy);
    let cls = classes!(
        selected.then_some("selected"),
        recommended.then_some("recommended")
    );
    let Some(p) = r.plan(policy) else {
        let why = r.failures.iter().find(|(n, _)| n == policy.name());
        let span = if r.scenario.cluster.has_machines() {
            "10"
        } else {
            "8"
        };
        if why.is_none() && !r.complete {
            return html! {
                <tr class={cls} {onclick} {onkeydown} tabindex="0" aria-selected={aria_selected} data-policy={policy.name()} data-testid="policy-pending">
                    <td class="policy">{ policy.name() }</td>
                    <td colspan={span} class="note">{"solving…"}</td>
                </tr>
            };
        }
        let why = why
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| "no plan".into());
        return html! {
            <tr class={cls} {onclick} {onkeydown} tabindex="0" aria-selected={aria_selected} data-policy={policy.name()}>
                <td class="policy">{ policy.name() }</td>
                <td colspan={span} class="bad">{ format!("failed: {why}") }</td>
            </tr>
        };
    };
    let on_machines = r.scenario.cluster.has_machines();
    let used = p.resources.used.to_array();
    let cap = p.resources.capacity.to_array();
    let ratio = match r.plan(Policy::Exact).map(|e| e.total_utility) {
        Some(e) if e > 0.0 => format!("{:.3}", p.total_utility / e),
        _ => "—".into(),
    };
    let title = match proof_status(p) {
        Some(proof) => format!("{} — {proof}", policy.description()),
        None => policy.description().into(),
    };
    html! {
        <tr class={cls} {onclick} {onkeydown} tabindex="0" aria-selected={aria_selected} data-policy={policy.name()} {title}>
            <td class="policy">{ if selected { "▸ " } else { "" } }{ policy.name() }
                if recommended {
                    {" "}<span class="star" data-testid="recommended-badge" title="the recommended plan: the best total utility" aria-label="recommended">{"★"}</span>
                }
            </td>
            <td class="num strong">{ format!("{:.3}", p.total_utility) }</td>
            <td class="num">{ format!("{}/{}", p.admitted, p.jobs.len()) }</td>
            if on_machines {
                <td class="num" data-testid="cross-traffic">{ p.placement.as_ref().map(|x| sig(x.total_cross_traffic_gbit, 3)).unwrap_or_else(|| "—".into()) }</td>
                <td class="num" data-testid="machines-used">{ p.placement.as_ref().map(|x| format!("{}/{}", x.machines_used, x.machines.len())).unwrap_or_else(|| "—".into()) }</td>
            }
            { for (0..4).map(|i| html! { <td class="num">{ percent(used[i], cap[i]) }</td> }) }
            <td class="num">{ ms(p.stats.solve_ms) }</td>
            <td class="num">{ ratio }</td>
        </tr>
    }
}

/// Where a job's tasks run, compactly: `t4x4-0 ×3w1p, t4x4-1 ×1w`.
pub fn placement_text(shares: &[smd_core::plan::PlacedShare]) -> String {
    shares
        .iter()
        .map(|s| {
            let mut t = format!("{} ×", s.machine);
            if s.workers > 0 {
                t.push_str(&format!("{}w", s.workers));
            }
            if s.ps > 0 {
                t.push_str(&format!("{}p", s.ps));
            }
            t
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `"SMD / exact = 0.740 · SMD / global = 0.401"`, for the policies that planned.
fn smd_ratios(r: &Results) -> String {
    let Some(smd) = r.plan(Policy::Smd) else {
        return String::new();
    };
    [Policy::Exact, Policy::Global]
        .into_iter()
        .filter_map(|other| {
            let o = r.plan(other)?.total_utility;
            (o > 0.0).then(|| format!("SMD / {other} = {:.3}", smd.total_utility / o))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The comparison of the policies.
#[function_component]
pub fn PolicyCompare() -> Html {
    let state = use_app();
    let Some(r) = state.solving.shown() else {
        return html! {
            <section class="card" id="compare" data-testid="policies"><h2>{"Policies"}</h2>
                <p class="note" data-testid="policy-compare-empty">{"No plan yet."}</p></section>
        };
    };
    let rows = r
        .policies()
        .iter()
        .map(|&policy| compare_row(&state, &r, policy, state.dispatcher()));
    let recommended = r.recommended().map(|best| {
        let policy = best.policy;
        let d = state.dispatcher();
        let show = Callback::from(move |_| d.dispatch(Action::View(ViewAction::SelectPolicy(policy))));
        html! {
            <p class="recommend" data-testid="recommended">{ recommended_text(best) }
                if state.view.policy != policy {
                    {" "}<button class="quiet" onclick={show} data-action="show-recommended">{"Show it"}</button>
                }
            </p>
        }
    });
    html! {
        <section class="card" id="compare" data-testid="policies">
            <h2>{"Policies"}<crate::components::glossary::Term term="utility" /><span class="sub">{ if r.complete {
                let when = if r.prebuilt {
                    "solved when the page was built".to_string()
                } else {
                    format!("solved in {}", ms(r.ms))
                };
                format!("{} jobs · {when} · {}", r.scenario.jobs.len(), smd_ratios(&r))
            } else {
                format!("{} jobs · {} of {} policies so far", r.scenario.jobs.len(), r.plans.len() + r.failures.len(), r.policies().len())
            } }</span></h2>
            <div class="scroll">
            <table class="compare" data-testid="policy-compare">
                <thead><tr>
                    <th>{"policy"}</th><th class="num">{"total utility"}</th><th class="num">{"admitted"}</th>
                    if r.scenario.cluster.has_machines() {
                        <th class="num" title="cross traffic: Σ X, gigabits the placed jobs move across machines per iteration">{"Σ X, Gbit"}</th>
                        <th class="num" title="machines that run a task, of all">{"machines"}</th>
                    }
                    { for RESOURCES.into_iter().map(|r| html! { <th class="num" title={format!("{} used by the admitted jobs, share of the cluster's", resource_label(r))}>{ format!("{} %", r.title()) }</th> }) }
                    <th class="num">{"time"}</th><th class="num">{"÷ exact"}</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            </div>
            { for recommended }
            <p class="note">{"Click a policy (or focus it and press Enter) to see its plan. Resource use is the share of the cluster capacity the admitted jobs take. "}
                {"Exact is the optimum of the decomposition (per-job best T, exact knapsack); SMD can beat it by choosing smaller allocations. "}
                {"Global chooses every job's size and the admission together: the joint optimum, proven or within the gap shown (see How it works)."}</p>
        </section>
    }
}

/// Under the selected plan's title: that it is the recommended plan (with its proof status
/// and solve time), or which plan is.
fn recommendation(r: &Results, plan: &Plan, dispatch: UseReducerDispatcher<State>) -> Html {
    let Some(best) = r.recommended() else {
        return html! {};
    };
    if best.policy == plan.policy {
        let proof = proof_status(plan)
            .map(|p| format!(" · {p}"))
            .unwrap_or_default();
        return html! {
            <p class="recommend" data-testid="plan-recommended">
                { format!("The recommended plan: the best total utility of the policies compared{proof} · solved in {}", ms(plan.stats.solve_ms)) }
            </p>
        };
    }
    let policy = best.policy;
    let show =
        Callback::from(move |_| dispatch.dispatch(Action::View(ViewAction::SelectPolicy(policy))));
    let more = if plan.total_utility > 0.0 {
        format!(
            " ({} more total utility)",
            percent(best.total_utility - plan.total_utility, plan.total_utility)
        )
    } else {
        String::new()
    };
    html! {
        <p class="note" data-testid="plan-recommended">
            { format!("The recommended plan is {policy}'s{more}. ") }
            <button class="quiet" onclick={show}>{ format!("Show {policy}'s plan") }</button>
        </p>
    }
}

/// The selected policy's plan: total, resource bars and the job table.
#[function_component]
pub fn PlanDetails() -> Html {
    let state = use_app();
    let Some(r) = state.solving.shown() else {
        return html! {};
    };
    let Some(plan) = r.plan(state.view.policy) else {
        let failed = r.complete
            || r.failures
                .iter()
                .any(|(p, _)| p == state.view.policy.name());
        return html! { <section class="card" id="plan"><h2>{ format!("Plan: {}", state.view.policy) }</h2>
            if failed { <p class="bad">{"This policy failed."}</p> }
            else { <p class="note" data-testid="plan-pending">{"Still solving; the plans of the policies that have answered are above."}</p> }
        </section> };
    };
    html! {
        <>
        <section class="card" id="plan">
            <h2>{ format!("Plan of {} ", state.view.policy) }
                <span class="sub">{"total utility "}<strong data-testid="total-utility">{ format!("{:.3}", plan.total_utility) }</strong>
                { format!(" · {} of {} jobs admitted · π unit: {} · admission: {}{} · solved in {}",
                    plan.admitted, plan.jobs.len(), plan.time_unit, plan.admission.method,
                    plan.admission.depth.map(|q| format!(" q={q} (guarantee {:.2})", plan.admission.guarantee)).unwrap_or_default(),
                    ms(plan.stats.solve_ms)) }
                </span>
            </h2>
            { recommendation(&r, plan, state.dispatcher()) }
            <ResourceBars plan={plan.clone()} />
            <PlanTable results={r.clone()} policy={state.view.policy} selected={state.view.selected} dispatch={state.dispatcher()} />
            if r.scenario.cluster.has_machines() {
                <MachineMap results={r.clone()} policy={state.view.policy} />
            }
        </section>
        <SharingCard results={r.clone()} policy={state.view.policy} />
        </>
    }
}

/// The headline of a plan's GPU sharing ([`smd_charts::sharing_headline`]).
pub fn sharing_headline(s: &smd_core::plan::SharingSummary) -> String {
    smd_charts::sharing_headline(s)
}

/// Most shared GPUs the GPU map draws.
pub const MAX_MAP_GPUS: usize = 2000;

/// The selected plan's GPU sharing, when it has one: the headline and the GPU map
/// (`smd_charts::gpu_map_svg`).
#[function_component]
pub fn SharingCard(props: &MachineMapProps) -> Html {
    let Some(plan) = props.results.plan(props.policy) else {
        return html! {};
    };
    let Some(sharing) = plan.sharing.as_ref() else {
        return html! {};
    };
    let scenario = &props.results.scenario;
    let gpu_memory_gb = scenario
        .cluster
        .machines
        .iter()
        .filter_map(|g| g.gpu_memory_gb)
        .fold(0.0f64, f64::max);
    let svg = (sharing.gpus.len() <= MAX_MAP_GPUS).then(|| {
        let jobs = plan
            .jobs
            .iter()
            .filter(|j| j.placement.as_ref().is_some_and(|s| !s.is_empty()))
            .map(|j| j.id.clone())
            .collect();
        let job_memory_gb = scenario
            .jobs
            .iter()
            .filter_map(|j| j.gpu_mem_mean_gb.map(|m| (j.id.clone(), m)))
            .collect();
        smd_charts::gpu_map_svg(
            sharing,
            gpu_memory_gb,
            &smd_charts::GpuMapOptions {
                width: 660.0,
                jobs,
                job_memory_gb,
            },
        )
    });
    html! {
        <section class="card" id="sharing" data-testid="sharing">
            <h2>{"GPU sharing "}<span class="sub">{ format!("({})", sharing.algorithm.name()) }</span></h2>
            <p data-testid="sharing-headline"><strong>{ sharing_headline(sharing) }</strong></p>
            if let Some(svg) = svg {
                <div class="chart scroll">{ Html::from_html_unchecked(AttrValue::from(svg.clone())) }</div>
                <crate::components::chart::ChartDownloads {svg} name="gpu-sharing" />
            } else {
                <p class="note" data-testid="gpu-map-too-big">{ format!("{} shared GPUs are more than the map draws ({MAX_MAP_GPUS}).", sharing.gpus.len()) }</p>
            }
            <p class="note">{"Each bar is one GPU that workers share: its occupants' mean memory against the GPU's, one colour per job (as on the machine map). Hover a bar for its occupants, collision probability and slowdown. Mean performance is the mean of 1 / slowdown over the shareable workers; their jobs' T include the slowdown."}</p>
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
    let on_machines = props.results.scenario.cluster.has_machines();
    let shared = plan.sharing.is_some();
    let rows = plan.jobs.iter().enumerate().map(|(i, j)| {
        let uid = props.results.uids.get(i).copied().unwrap_or(0);
        let d = props.dispatch.clone();
        let select = Callback::from(move |()| d.dispatch(Action::View(ViewAction::SelectJob(uid))));
        let (onclick, onkeydown) = crate::components::on_activate(select);
        let selected = props.selected == Some(uid);
        let status = if j.admitted {
            html! { <span class="ok">{"✓ admitted"}</span> }
        } else {
            html! { <span class="no">{ format!("✗ {}", j.reason.as_ref().map(ToString::to_string).unwrap_or_default()) }</span> }
        };
        let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "—".into());
        html! {
            <tr key={uid} data-testid="plan-row" {onclick} {onkeydown} tabindex="0" aria-selected={selected.to_string()}
                class={classes!(selected.then_some("selected"), (!j.admitted).then_some("rejected"))}>
                <td class="id">{ if selected { "▸ " } else { "" } }{ &j.id }</td>
                <td class="status">{ status }</td>
                <td class="num">{ opt(j.workers) }</td>
                <td class="num">{ opt(j.ps) }</td>
                if on_machines {
                    <td class="num" title="ρ of the placement (docs/MODEL.md §14)">{ j.locality_factor.map(|v| sig(v, 3)).unwrap_or_else(|| "—".into()) }</td>
                    <td class="where" data-testid="runs-on" title={j.cross_traffic_gbit.map(|x| format!("X = {} Gbit per iteration", sig(x, 3))).unwrap_or_default()}>
                        { j.placement.as_deref().map(placement_text).unwrap_or_default() }</td>
                }
                if shared {
                    <td class="num" data-testid="slowdown">{ j.slowdown.map(|v| format!("×{}", sig(v, 3))).unwrap_or_else(|| "—".into()) }</td>
                }
                <td class="num">{ j.completion_time_s.map(duration).unwrap_or_else(|| "—".into()) }</td>
                <td class="num">{ j.completion_time.map(|v| sig(v, 3)).unwrap_or_else(|| "—".into()) }</td>
                <td class="num">{ sig(j.utility, 4) }</td>
            </tr>
        }
    });
    html! {
        <div class="scroll plan-scroll">
            <table class={classes!("plan", on_machines.then_some("on-machines"))} data-testid="plan-table">
                <thead><tr>
                    <th>{"job"}</th><th>{"admitted / reason"}</th>
                    <th class="num" title="workers">{"w"}</th><th class="num" title="parameter servers">{"p"}</th>
                    if on_machines {
                        <th class="num" title="ρ: the placement's locality factor; T includes it">{"ρ"}</th>
                        <th title="machine ×workers w, PSs p">{"runs on"}</th>
                    }
                    if shared {
                        <th class="num" title="GPU sharing: the slowdown its GPUs' co-runners cause (T includes it; — not shared)">{"slowdown"}</th>
                    }
                    <th class="num" title="completion time">{"T"}</th><th class="num" title="T in the planner's unit">{"π"}</th>
                    <th class="num" title="utility μ(π)">{"μ"}</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// Makes the first task mark of each job on the map under `root` a tab stop named by its
/// job (the chart is drawn by `smd-charts` as SVG text, so the page adds this after).
fn focusable_jobs(root: &web_sys::Element) {
    use wasm_bindgen::JsCast;
    let Ok(marks) = root.query_selector_all("g.task[data-job]") else {
        return;
    };
    // Controls inside: the picture is a group now, not an image (whose parts are hidden).
    if marks.length() > 0 {
        if let Ok(Some(svg)) = root.query_selector("svg") {
            let _ = svg.set_attribute("role", "group");
        }
    }
    let mut seen = std::collections::HashSet::new();
    for i in 0..marks.length() {
        let Some(mark) = marks
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let job = mark.get_attribute("data-job").unwrap_or_default();
        if seen.insert(job.clone()) {
            let _ = mark.set_attribute("tabindex", "0");
            let _ = mark.set_attribute("role", "button");
            let _ = mark.set_attribute("aria-label", &format!("job {job}: show it in the plan"));
        }
    }
}

/// Most machines the machine map draws.
pub const MAX_MAP_MACHINES: f64 = 2000.0;

/// Properties of [`MachineMap`].
#[derive(Properties, PartialEq)]
pub struct MachineMapProps {
    /// The results (their scenario's machines).
    pub results: std::rc::Rc<Results>,
    /// Which policy's plan.
    pub policy: Policy,
}

/// The selected plan on the machines: a box per machine, a mark per task
/// (`smd_charts::machine_map_svg`).
#[function_component]
pub fn MachineMap(props: &MachineMapProps) -> Html {
    let state = use_app();
    let map = use_node_ref();
    // The keyboard's way in: the first mark of each job is a tab stop (a button: Enter or
    // Space shows the job in the plan, as a click on any of its marks does).
    {
        let map = map.clone();
        use_effect(move || {
            if let Some(root) = map.cast::<web_sys::Element>() {
                focusable_jobs(&root);
            }
        });
    }
    let Some(plan) = props.results.plan(props.policy) else {
        return html! {};
    };
    let uids: Vec<(String, u64)> = plan
        .jobs
        .iter()
        .zip(props.results.uids.iter())
        .map(|(j, &u)| (j.id.clone(), u))
        .collect();
    let pick = std::rc::Rc::new({
        let d = state.dispatcher();
        move |target: Option<web_sys::Element>| -> bool {
            let job = target
                .and_then(|t| t.closest("[data-job]").ok().flatten())
                .and_then(|g| g.get_attribute("data-job"));
            match job.and_then(|id| uids.iter().find(|(j, _)| *j == id).map(|&(_, u)| u)) {
                Some(uid) => {
                    d.dispatch(Action::View(ViewAction::SelectJob(uid)));
                    true
                }
                None => false,
            }
        }
    });
    let onclick = {
        let pick = pick.clone();
        Callback::from(move |e: MouseEvent| {
            pick(e.target_dyn_into::<web_sys::Element>());
        })
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if matches!(e.key().as_str(), "Enter" | " ")
            && pick(e.target_dyn_into::<web_sys::Element>())
        {
            e.prevent_default();
        }
    });
    let cluster = &props.results.scenario.cluster;
    let machines: f64 = cluster.machines.iter().map(|g| g.count.max(0.0)).sum();
    // Past this many boxes the map stops being read (and costs the page): the tables
    // still say where each job runs.
    let svg = (machines <= MAX_MAP_MACHINES).then(|| {
        smd_charts::machine_map_svg(
            plan,
            cluster,
            &smd_charts::MachineMapOptions { width: 660.0 },
        )
    });
    let summary = plan.placement.as_ref().map(|p| {
        let proven = match p.proven {
            Some(true) => " (proven least)",
            Some(false) => " (not proven least)",
            None => "",
        };
        format!(
            "Placement {}: {} of {} machines used, total cross traffic {} Gbit per iteration{proven}{}.",
            p.policy,
            p.machines_used,
            p.machines.len(),
            sig(p.total_cross_traffic_gbit, 3),
            match p.not_placed {
                0 => String::new(),
                1 => "; 1 job the admission chose was not placed (see its reason)".into(),
                k => format!("; {k} jobs the admission chose were not placed (see their reasons)"),
            }
        )
    });
    html! {
        <div class="machine-map" data-testid="machine-map">
            <h3>{"On the machines"}</h3>
            if let Some(s) = summary { <p class="note" data-testid="placement-summary">{ s }</p> }
            if let Some(svg) = svg {
                <div class="chart scroll" ref={map} {onclick} {onkeydown}>{ Html::from_html_unchecked(AttrValue::from(svg.clone())) }</div>
                <crate::components::chart::ChartDownloads {svg} name="machine-map" />
            } else {
                <p class="note" data-testid="machine-map-too-big">{ format!("{} machines are more than the map draws ({MAX_MAP_MACHINES}); the plan table says where each job runs.", sig(machines, 6)) }</p>
            }
            <p class="note">{"Filled squares are workers, hollow diamonds PSs, one colour per job; bars show GPU, vCPU and memory used of each machine's capacity. Hover a mark for its job, ρ and X; click it (or Tab to a job's first mark and press Enter) to show the job in the plan."}</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(policy: Policy) -> Plan {
        let s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            ..Default::default()
        });
        smd_core::plan_with(&s, policy, &mut smd_core::Options::default()).unwrap()
    }

    #[test]
    fn placement_is_written_compactly() {
        use smd_core::plan::PlacedShare;
        let share = |m: &str, workers, ps| PlacedShare {
            machine: m.into(),
            workers,
            ps,
        };
        assert_eq!(
            placement_text(&[
                share("t4x4-0", 3, 1),
                share("t4x4-1", 1, 0),
                share("a-2", 0, 2)
            ]),
            "t4x4-0 ×3w1p, t4x4-1 ×1w, a-2 ×2p"
        );
        assert_eq!(placement_text(&[]), "");
    }

    /// `global`'s plan says whether it is proven optimal or how far from the optimum it can
    /// be; the other policies make no such claim.
    #[test]
    fn globals_proof_status_is_shown() {
        let mut g = planned(Policy::Global);
        assert!(g.admission.proven_optimal);
        assert_eq!(proof_status(&g).as_deref(), Some("proven optimal"));
        g.admission.proven_optimal = false;
        g.admission.gap = Some(0.0004);
        assert_eq!(
            proof_status(&g).as_deref(),
            Some("best found, within 0.04% of the optimum")
        );
        g.stats.solve_ms = 3001.0;
        let text = recommended_text(&g);
        assert!(
            text.starts_with("Recommended plan: global — the best total utility ("),
            "{text}"
        );
        assert!(
            text.ends_with(", best found, within 0.04% of the optimum; solved in 3.00 s."),
            "{text}"
        );
        let mut exact = planned(Policy::Exact);
        assert!(exact.admission.proven_optimal);
        assert_eq!(
            proof_status(&exact),
            None,
            "the decomposition's optimum is not the joint one"
        );
        exact.stats.solve_ms = 2.0;
        assert!(recommended_text(&exact).ends_with("; solved in 2.0 ms."));
    }

    #[test]
    fn the_sharing_headline_names_the_gpus_saved_and_the_performance() {
        let s = smd_core::plan::SharingSummary {
            algorithm: smd_core::scenario::GpuSharing::Heuristic,
            gpus: Vec::new(),
            gpus_used: 6,
            exclusive_gpus: 10,
            mean_performance: 0.9134,
            alone: 2,
        };
        assert_eq!(
            sharing_headline(&s),
            "6 GPUs instead of 10, mean performance 91.3%; 2 workers too big to share keep a GPU each"
        );
    }
}
