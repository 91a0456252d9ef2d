//! How it works: the model and the algorithm, in docs/MODEL.md's symbols.
//!
//! A short explanation of the model and the algorithms (SMD, the baselines, `global`), in
//! docs/MODEL.md's symbols.

use crate::state::{Action, TeachAction};
use smd_charts::{landscape_svg, pipeline_svg, utility_curve_svg, LandscapeOptions};
use smd_charts::{PipelineOptions, Stage, Value};
use smd_core::teach::Stage as TeachStage;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The pipeline every plan goes through, each stage linked to its paragraph below.
fn stages() -> Vec<Stage> {
    let stage = |name: &str, makes: &str, href: Option<&str>| Stage {
        name: name.into(),
        makes: makes.into(),
        href: href.map(Into::into),
    };
    vec![
        stage("Scenario", "jobs, cluster, ε, M_δ", Some("#how-model")),
        stage(
            "Each job's region",
            "Ω: integer (w, p) within ϑ·instance",
            Some("#how-region"),
        ),
        stage(
            "Algorithm 1",
            "(w̄, p̄): min T over a (1+ε) grid",
            Some("#how-smd"),
        ),
        stage("Rounding", "x̃ = 1 + (x̄ − 1)/M_δ, into Ω", Some("#how-smd")),
        stage(
            "Admission",
            "max Σ μ, Σ demand ≤ capacity",
            Some("#how-smd"),
        ),
        stage(
            "Placement",
            "tasks on machines, locality ρ",
            Some("#how-placement"),
        ),
        stage("Plan", "admitted jobs: (w, p), T, μ", Some("#how-global")),
    ]
}

/// A click on a stage of the pipeline (a link `#how-…`): its paragraph is scrolled to the
/// top of the window and takes the focus, in this view — the address does not change (a
/// hash of its own would name no view, and the page would switch to the Plan).
fn on_stage_click(e: MouseEvent) {
    let Some(id) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("a").ok().flatten())
        .and_then(|a| a.get_attribute("href"))
        .and_then(|h| h.strip_prefix('#').map(str::to_owned))
    else {
        return;
    };
    e.prevent_default();
    let target = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&id));
    if let Some(el) = target {
        el.scroll_into_view_with_bool(true);
        if let Ok(h) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = h.set_attribute("tabindex", "-1");
            let _ = h.focus();
        }
    }
}

/// A link to Step through at `stage`'s first step, for the selected job.
fn step_link(state: &crate::components::AppState, stage: TeachStage) -> Html {
    let d = state.dispatcher();
    let onclick = Callback::from(move |_: MouseEvent| {
        d.dispatch(Action::Teach(TeachAction::Open(stage)));
        // The stepper's keys apply at once (this button leaves the page).
        super::teach::focus_panel();
    });
    html! {
        <button class="link-button" {onclick} data-testid={format!("how-step-{}", stage.name())}>
            { format!("Step through {} →", smd_charts::teach::stage_title(stage)) }
        </button>
    }
}

/// The model and the algorithm.
#[function_component]
pub fn Help() -> Html {
    let state = crate::components::use_app();
    // The selected job's T over its box with Ω, once the Plan's landscape is computed.
    let landscape = state
        .solving
        .landscape
        .as_ref()
        .filter(|l| Some(l.key) == state.wanted_landscape().map(|(r, u, _)| (r, u)))
        .and_then(|l| l.data())
        .and_then(Result::ok)
        .map(|l| {
            let opts = LandscapeOptions {
                width: 560.0,
                height: 400.0,
                value: Value::Time,
                id_prefix: "help-landscape".into(),
            };
            let svg = AttrValue::from(landscape_svg(&l, &opts));
            html! {
                <figure class="help-landscape" data-testid="help-landscape">
                    { Html::from_html_unchecked(svg.clone()) }
                    <crate::components::chart::ChartDownloads {svg} name="landscape" />
                    <figcaption class="note">{ format!(
                        "Job {}'s completion time T over its (w, p) box (the selected job; darker is faster, the colour saying how far T is above its minimum, on a log scale) with its region Ω outlined: the integer optimum, Algorithm 1's x̄ and each policy's point are marked. T falls steeply with the first workers and flattens in p — the reason the ε slack can let p grow.",
                        l.id
                    ) }</figcaption>
                </figure>
            }
        });
    // The draft's first job's utility, drawn: the sigmoid the paragraph describes.
    let curve = state.draft.scenario.jobs.first().map(|j| {
        let u = &j.utility;
        let svg = AttrValue::from(utility_curve_svg([u.gamma1, u.gamma2, u.gamma3], 520.0));
        html! {
            <figure class="utility-curve" data-testid="help-utility">
                { Html::from_html_unchecked(svg.clone()) }
                <crate::components::chart::ChartDownloads {svg} name="utility" />
                <figcaption class="note">{ format!(
                    "Job {}'s utility: γ1 = {}, γ2 = {}, γ3 = {}. Finishing a little faster than γ3 gains almost nothing; a little slower loses almost everything.",
                    j.id,
                    smd_format::readable(u.gamma1, 4),
                    smd_format::readable(u.gamma2, 4),
                    smd_format::readable(u.gamma3, 4)
                ) }</figcaption>
            </figure>
        }
    });
    html! {
        <section class="card help" id="help" data-testid="help">
            <h2>{"The model and the algorithm"}</h2>
            <figure class="pipeline" data-testid="help-pipeline" onclick={on_stage_click}>
                { Html::from_html_unchecked(AttrValue::from(pipeline_svg(&stages(), &PipelineOptions { width: 1000.0, per_row: 4 }))) }
                <figcaption class="note">{"Every plan goes through these stages, left to right (click one for its paragraph below). The Step through view shows stages 3–5 on one job, step by step."}</figcaption>
            </figure>
            <p id="how-model">{"Each training job j runs E iterations of a model of g MB on w workers and p parameter servers (PS). Its N layers have forward, backward and communication-profile times f_j, b_j, r_j; one PS has bandwidth B; β1, β2 are per-worker and per-PS overheads per iteration; α scales asynchronous communication."}</p>
            <p><b>{"Completion time. "}</b>{"Synchronous: T(w,p) = θ1·w + θ2·p + θ3 + θ4·w/p + θ5/w with θ1 = Eβ1, θ2 = Eβ2, θ3 = Eη2·t_b, θ4 = 2Eη3·G/B, θ5 = η1·E·K·t_f. Asynchronous: T = θ'1 + θ'2·p/w + θ'3/w + θ'4/p. The overlap model (sequential, wait-free backprop, pipelined) enters through the exposure factors η1, η2, η3 ∈ [0,1] from one simulated iteration (see the layer schedule)."}</p>
            <p><b>{"Utility. "}</b>{"μ(π) = γ1 / (1 + exp(γ2(π − γ3))), π = T in the planner's unit; by default π = 16·T/T(1,1), so γ3 asks for a speed-up of 16/γ3 over one worker and one PS."}</p>
            { curve.unwrap_or_default() }
            <p id="how-region"><b>{"Region. "}</b>{"Ω = { w ≥ 1, p ≥ 1, O^w_r·w + O^p_r·p ≤ L_r for each resource r }, with the job's limit L = ϑ·instance. The cluster's capacity is units × cluster unit (GPU, vCPU, memory, storage)."}</p>
            { landscape.unwrap_or_default() }
            <p id="how-smd"><b>{"SMD. "}</b>{"1) Algorithm 1 writes T = const + Σ ζ_j (ratios ζ_j), bounds each by l_j = min_Ω ζ_j and φ_j = max_Ω ζ_j, keeps the summand J with the widest φ_j/l_j free and walks a geometric grid ν_j = l_j(1+ε)^k over the others, solving min ζ_J s.t. ζ_j ≤ (1+ε)ν_j: the best point x̄ has T(x̄) ≤ (1+ε)·min_Ω T. "}
                { step_link(&state, TeachStage::Bounds) }{" "}{ step_link(&state, TeachStage::Grid) }
                {" 2) Algorithm 2 rounds x̃ = 1 + (x̄ − 1)/M_δ up or down at random (seeded) until the point is in Ω. "}
                { step_link(&state, TeachStage::Rounding) }
                {" 3) A knapsack over the four resources admits jobs: maximise Σ μ_i subject to Σ demand ≤ capacity, by Frieze–Clarke at depth q (guarantee q/(q+4)) or exactly. "}
                { step_link(&state, TeachStage::Admission) }</p>
            <p><b>{"Baselines. "}</b>{"ESW: w = p = k, the largest k in Ω, same knapsack. Optimus: admit at (1,1) in order, then add the worker or PS with the best utility gain per dominant share. Exact: each job's integer optimum of T, exact knapsack — the optimum of the decomposition, which SMD can beat by picking smaller allocations."}</p>
            <p id="how-placement"><b>{"Placement. "}</b>{"On machines, each admitted job's w workers and p PSs are put on machines whole (first fit, spread, DLTAP, locality or exact; docs/MODEL.md §15). Traffic between a worker and a PS on the same machine moves at the machine's local rate, so the placement's locality factor ρ scales T's communication term: 1 when no worker shares a machine with a PS of its job, β = B / local_gbps with every task on one machine. A job no placement fits, or whose ρ leaves it no utility, is not admitted."}</p>
            <p id="how-global" data-testid="help-global"><b>{"Global: sizes and admission together. "}</b>{"SMD decomposes the problem: first it sizes each job on its own — the allocation (w, p) that makes that job fastest — and only then decides which jobs to admit. Global chooses every job's size and the admitted set together: each job may take any integer (w, p) in Ω that no smaller allocation matches in utility, or not be admitted, and global picks the combination of the largest total utility that fits the cluster. It is the recommended plan: its total utility is never below any other policy's, proven optimal or not."}</p>
            <figure class="decomposition" data-testid="help-decomposition">
                { Html::from_html_unchecked(AttrValue::from(crate::defaults::DECOMPOSITION_SVG)) }
                <figcaption class="note">{"Two generated jobs (seed 4) on 0.2 cluster units, planned by smd and by global — drawn from their plans (a test keeps the figure current). A job's fastest size is rarely the only one that meets its deadline: a smaller one leaves room for another job."}</figcaption>
            </figure>
            <p><b>{"Why \"fast enough\" beats \"fastest\". "}</b>{"The utility μ(π) is a sigmoid, like a deadline: high while the job finishes in time, falling steeply after. Once a job meets its deadline, more workers and PS barely raise its utility — but the GPUs, vCPUs, memory and storage they take could admit another job, worth far more. So the best plan often gives each job just enough to be fast enough and fits more jobs in; sizing each job for speed alone cannot see that trade."}</p>
            <p><b>{"How global proves its plan optimal. "}</b>{"The LP relaxation of the problem (jobs may be admitted fractionally) gives a price for each of the four resources. At those prices no plan can be worth more than the capacity's value plus each job's best utility minus the price of what it uses: an upper bound. An option that cannot be part of a plan better than the best one found is discarded, which leaves few jobs with few options; a small search over them either finds a better plan or shows that none exists — then the plan is proven optimal. The search stops at the time budget (the field \"global time budget\"): the page then shows the best plan found and how far from the optimum it can be at most, (bound − best)/bound, as \"within X% of the optimum\"."}</p>
            <p id="how-apps" data-testid="help-apps"><b>{"Real applications and traces. "}</b>{"\"From an application\" (above the job table) makes a job from one of six applications measured in the Pollux artifact (Qiao et al., OSDI 2021) at a global batch K within the measured range: E from its training runs at that K, g and the layers' communication profile from the model's parameters, the layers' compute from its single-GPU step times; every field stays editable. The cluster can be N machines of a catalog type (one unit and the instance = one machine). \"Load a trace\" replaces the jobs by one of the artifact's workloads, sampled from Microsoft's Philly trace (160 or 80 jobs arriving over 8 hours), each its application's preset with its arrival time and requested workers kept. The plan takes every job at once, as if all had arrived; the Over time view plans over the arrivals, slot by slot, with each policy (docs/MODEL.md §17)."}</p>
            { gpu_types() }
            <p class="note">{"Everything is computed in your browser by the same Rust solver as the command-line tool (compiled to WebAssembly, running in a Web Worker)."}</p>
        </section>
    }
}

/// Why a job prefers a GPU type: a paragraph and the figure of each application's one-GPU
/// speed on every type, relative to a T4 (the measured throughputs, `smd-charts`'
/// `gpu_speeds_svg`).
fn gpu_types() -> Html {
    use smd_apps::measured::Measured;
    use smd_core::scenario::Gpu;
    let speeds = Measured::speeds_by_type();
    let rows: Vec<smd_charts::SpeedRow> = speeds
        .iter()
        .map(|(app, v)| smd_charts::SpeedRow {
            name: app.label().into(),
            speeds: v.to_vec(),
        })
        .collect();
    let svg = AttrValue::from(smd_charts::gpu_speeds_svg(&Gpu::ALL, &rows, 720.0));
    // Two applications' gains from a T4 to an A100, the largest and the smallest.
    let gains: Vec<(&str, f64)> = speeds
        .iter()
        .map(|(app, v)| (app.label(), v[Gpu::A100.index()] / v[Gpu::T4.index()]))
        .collect();
    let most = gains.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
    let least = gains.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
    let example = match (most, least) {
        (Some((a, x)), Some((b, y))) => format!(
            "from a T4 to an A100, {a} runs {}× as fast, {b} only {}×. ",
            smd_format::readable(x, 2),
            smd_format::readable(y, 2)
        ),
        _ => String::new(),
    };
    let caption = speeds
        .iter()
        .map(|(app, v)| {
            format!(
                "{}: {} samples/s on a T4, {} on an A100",
                app.label(),
                smd_format::readable(v[Gpu::T4.index()], 3),
                smd_format::readable(v[Gpu::A100.index()], 3)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    html! {
        <>
            <p id="how-gpu-types" data-testid="help-gpu-types"><b>{"Why a job prefers a GPU type. "}</b>
                { format!("A cluster may mix GPU types, and a job does not speed up by the same factor on each: {example}")}
                {"Over time, the policy sia gives each job the type where its goodput per GPU is highest relative to what the other jobs would gain there, so a faster GPU goes to the job that gains most from it. A job runs on one type only, never across types. gavel shares the types out by the same speeds for the most total throughput; pollux_unaware plans as if every GPU were alike, then keeps each job on the type most of its GPUs are of."}</p>
            <figure class="gpu-speeds" data-testid="help-gpu-speeds">
                { Html::from_html_unchecked(svg.clone()) }
                <crate::components::chart::ChartDownloads {svg} name="gpu-speeds" />
                <figcaption class="note">{ format!("One GPU of each type, measured: {caption}.") }</figcaption>
            </figure>
        </>
    }
}

/// The "How it works" view.
#[function_component]
pub fn HowItWorksView() -> Html {
    html! { <Help /> }
}

/// What the page needs of the "How it works" view.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <HowItWorksView /> }
    }

    fn has_exports(&self) -> bool {
        false
    }
}
