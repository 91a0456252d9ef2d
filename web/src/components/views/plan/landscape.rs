//! The objective landscape of the selected job (smd-charts' SVG) with a hover read-out.

use crate::components::format::{duration, sig};
use crate::components::use_app;
use crate::state::ViewAction;
use crate::state::{Action, LandscapeValue};
use smd_charts::{landscape_geometry, landscape_svg, LandscapeOptions, Value};
use web_sys::{Element, HtmlSelectElement};
use yew::prelude::*;

/// Size of the landscape chart (SVG user units; CSS scales it to the column).
pub const SIZE: (f64, f64) = (660.0, 470.0);
/// Samples per axis requested from the solver.
pub use crate::state::LANDSCAPE_RESOLUTION as RESOLUTION;

fn options(value: LandscapeValue) -> LandscapeOptions {
    LandscapeOptions {
        width: SIZE.0,
        height: SIZE.1,
        value: match value {
            LandscapeValue::Time => Value::Time,
            LandscapeValue::Utility => Value::Utility,
        },
        id_prefix: "page-landscape".into(),
    }
}

/// The read-out under the pointer.
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    w: f64,
    p: f64,
    t: f64,
    pi: f64,
    mu: f64,
    inside: bool,
}

/// Job picker, T/utility switch, the chart and the hover read-out.
#[function_component]
pub fn LandscapePanel() -> Html {
    let state = use_app();
    let hover = use_state(|| None::<Hover>);
    // Yew delegates events, so the event's current target is not the chart: measure this.
    let chart_ref = use_node_ref();
    // The SVG is made again only when the landscape or the quantity changes.
    let data = state.solving.landscape.as_ref().and_then(|l| l.data());
    let chart = use_memo(
        (data.clone(), state.view.value),
        |(data, value)| match data {
            Some(Ok(l)) => {
                let opts = options(*value);
                Some((
                    AttrValue::from(landscape_svg(l, &opts)),
                    landscape_geometry(l, &opts),
                ))
            }
            _ => None,
        },
    );
    let Some(results) = state.solving.results.clone() else {
        return html! {};
    };
    let switch = |v: LandscapeValue, label: &'static str| {
        let d = state.dispatcher();
        let on = state.view.value == v;
        html! {
            <button class={classes!("toggle", on.then_some("on"))} aria-pressed={on.to_string()}
                onclick={Callback::from(move |_| d.dispatch(Action::View(ViewAction::SetValue(v))))}
                data-action={format!("value-{}", if v == LandscapeValue::Time { "time" } else { "utility" })}>
                { label }
            </button>
        }
    };
    let selected_index = state.wanted_landscape().map(|(_, _, i)| i);
    let picker = job_picker(
        state.dispatcher(),
        &results,
        selected_index,
        Some("landscape.job"),
        None,
    );
    let measured = selected_index
        .and_then(|i| results.scenario.jobs.get(i))
        .is_some_and(|j| j.measured.is_some());
    let body = match (data, (*chart).clone()) {
        _ if measured => html! {
            <p class="note" data-testid="landscape-measured">{"A measured job (data-parallel, all-reduce) has a one-dimensional region, w = 1…cap GPUs and no parameter servers: there is no (w, p) landscape, and every policy's choice is an enumeration of w (docs/MODEL.md §21.1). Its seconds per iteration over GPUs are in the job editor."}</p>
        },
        (None, _) => html! { <p class="note chart-placeholder">{"Computing the landscape…"}</p> },
        (Some(Err(e)), _) => html! { <p class="bad">{ format!("No landscape: {e}") }</p> },
        (Some(Ok(_)), None) => html! {},
        (Some(Ok(l)), Some((svg, geometry))) => {
            let onmousemove = hover_at(&hover, &l, &chart_ref, geometry);
            let onmouseleave = {
                let hover = hover.clone();
                Callback::from(move |_| hover.set(None))
            };
            let readout = match &*hover {
                Some(h) => format!(
                    "w = {}, p = {}: T = {} · π = {} · μ = {}{}",
                    sig(h.w, 3),
                    sig(h.p, 3),
                    duration(h.t),
                    sig(h.pi, 3),
                    sig(h.mu, 4),
                    if h.inside { "" } else { " (outside Ω)" }
                ),
                None => "Point at the map to read T, π and μ.".into(),
            };
            let relaxed = l.relaxed.map(|(x, t)| {
                format!(
                    "SMD relaxed x̄ = ({}, {}), T(x̄) = {}",
                    sig(x[0], 4),
                    sig(x[1], 4),
                    duration(t)
                )
            });
            let opt = l
                .integer_optimum
                .map(|(w, p, t)| format!("integer optimum ({w}, {p}), T = {}", duration(t)));
            html! {
                <>
                    <div class="chart" ref={chart_ref.clone()} {onmousemove} {onmouseleave} data-testid="landscape-chart">
                        { Html::from_html_unchecked(svg.clone()) }
                    </div>
                    <crate::components::chart::ChartDownloads svg={svg.clone()} name="landscape" />
                    <p class="readout" data-testid="landscape-hover">{ readout }</p>
                    <p class="note">{ [relaxed, opt].into_iter().flatten().collect::<Vec<_>>().join(" · ") }</p>
                </>
            }
        }
    };
    html! {
        <section class="card" id="landscape" data-testid="landscape">
            <h2>{"Objective landscape of "}{ picker }
                <span class="switch">{ switch(LandscapeValue::Time, "T") }{ switch(LandscapeValue::Utility, "utility μ") }</span>
            </h2>
            <p class="note">{"Heatmap over the job's (w, p) box; the outline is its region Ω (resource limit L = ϑ·instance). Markers: each policy's allocation (hollow = not admitted), SMD's relaxed point x̄ and the integer optimum. The panel lists Algorithm 1's search: bounds l_j, φ_j of each summand ζ_j, the free summand J, grid sizes and the winning grid point ν."}</p>
            { body }
        </section>
    }
}

/// The chart's mouse-move handler: the landscape sample nearest the pointer, or nothing.
fn hover_at(
    hover: &UseStateHandle<Option<Hover>>,
    l: &std::rc::Rc<smd_core::Landscape>,
    chart_ref: &NodeRef,
    geometry: smd_charts::Geometry,
) -> Callback<MouseEvent> {
    let (hover, l, chart_ref) = (hover.clone(), l.clone(), chart_ref.clone());
    Callback::from(move |e: MouseEvent| {
        let Some(el) = chart_ref.cast::<Element>() else {
            return;
        };
        let r = el.get_bounding_client_rect();
        if r.width() <= 0.0 {
            return;
        }
        let scale = geometry.width / r.width();
        let x = (e.client_x() as f64 - r.left()) * scale;
        let y = (e.client_y() as f64 - r.top()) * scale;
        hover.set(geometry.nearest_sample(x, y).map(|(i, j)| Hover {
            w: l.w[i],
            p: l.p[j],
            t: l.t[j][i],
            pi: l.pi[j][i],
            mu: l.mu[j][i],
            inside: l.inside[j][i],
        }));
    })
}

/// The job picker of the landscape and of the stepper: the plan's jobs, `selected` chosen;
/// the job at the chosen option's index (in the plan's order) becomes the selected job.
/// `field` and `testid` name the element for links and tests.
pub(crate) fn job_picker(
    d: UseReducerDispatcher<crate::state::State>,
    results: &crate::state::Results,
    selected: Option<usize>,
    field: Option<&'static str>,
    testid: Option<&'static str>,
) -> Html {
    let uids = results.uids.clone();
    let on_job = Callback::from(move |e: Event| {
        let i = e
            .target_unchecked_into::<HtmlSelectElement>()
            .selected_index();
        if let Some(&u) = usize::try_from(i).ok().and_then(|i| uids.get(i)) {
            d.dispatch(Action::View(ViewAction::SelectJob(u)));
        }
    });
    html! {
        <select onchange={on_job} aria-label="job" data-field={field} data-testid={testid}>
            { for results.scenario.jobs.iter().enumerate().map(|(i, j)| html! {
                <option selected={Some(i) == selected}>{ &j.id }</option>
            }) }
        </select>
    }
}
