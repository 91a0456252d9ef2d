//! Data: where the measurements, traces and published results the planner uses come from,
//! under which licence, what each is used for, and whom to cite.
//!
//! The applications, GPU types, workloads and published policies it counts and names come
//! from the crates that read the data, so the view cannot name one the planner does not
//! have; the trace's sizes and seeds are as its README states them.

use smd_apps::trace::{SIA_WORKLOADS, WORKLOADS};
use smd_apps::app::App;
use smd_core::scenario::Gpu;
use yew::prelude::*;

/// One bundled data set.
struct Source {
    /// Its name, and the `data/` folder of the repository that holds it.
    name: &'static str,
    folder: &'static str,
    /// What it is.
    what: String,
    /// Where it was published, and its licence.
    source: &'static str,
    url: &'static str,
    licence: &'static str,
    /// What the planner does with it.
    used_for: &'static str,
    /// The papers to cite.
    cite: &'static str,
    /// A notice its licence asks to be reproduced with it.
    notice: Option<&'static str>,
}

fn labels<T: Copy>(all: &[T], label: fn(T) -> &'static str) -> String {
    all.iter().map(|&x| label(x)).collect::<Vec<_>>().join(", ")
}

fn sources() -> Vec<Source> {
    let t4_apps: Vec<App> = App::ALL.to_vec();
    let typed_apps: Vec<App> = App::ALL.into_iter().filter(|&a| a != App::Ncf).collect();
    vec![
        Source {
            name: "Pollux: applications measured on T4 nodes",
            folder: "data/pollux",
            what: format!(
                "Step times by placement and batch size, training progress by batch size and \
                 parameter counts of {} applications ({}) on nodes of 4 × T4; {} workloads of \
                 jobs sampled from Microsoft's Philly trace; the artifact's published results.",
                t4_apps.len(),
                labels(&t4_apps, App::label),
                WORKLOADS.len(),
            ),
            source: "the artifact of Pollux (petuum/adaptdl, branch osdi21-artifact)",
            url: "https://github.com/petuum/adaptdl/tree/osdi21-artifact",
            licence: "Apache-2.0 (the repository's main branch)",
            used_for: "measured jobs (Plan), planning over time and its reference policies \
                       (Over time), the fidelity studies (Reproduce the paper)",
            cite: "Qiao et al., Pollux, OSDI 2021; Jeon et al., ATC 2019 (the Philly trace)",
            notice: None,
        },
        Source {
            name: "Sia: the same applications on several GPU types",
            folder: "data/sia",
            what: format!(
                "Step times of {} applications ({}) on {} GPU types ({}); {} workloads sampled \
                 from the Philly and Helios traces.",
                typed_apps.len(),
                labels(&typed_apps, App::label),
                Gpu::ALL.len(),
                labels(&Gpu::ALL, Gpu::label),
                SIA_WORKLOADS.len(),
            ),
            source: "the artifact of Sia (siasosp23/artifacts, folder sia-simulator)",
            url: "https://github.com/siasosp23/artifacts",
            licence: "no licence file; redistributed as published research data, with \
                      attribution",
            used_for: "clusters that mix GPU types and the heterogeneity-aware policies \
                       (Over time), what to buy (Sweep)",
            cite: "Jayaram Subramanya et al., Sia, SOSP 2023; Jeon et al., ATC 2019; Hu et al., \
                   SC 2021 (the Helios trace)",
            notice: None,
        },
        Source {
            name: "Alibaba openb: a production GPU-sharing cluster",
            folder: "data/openb",
            what: format!(
                "The 1 213 GPU nodes and 8 152 pods of the default pod list, and the published \
                 results of the fragmentation experiment ({} policies, seeds 42–51).",
                smd_fgd::Policy::PUBLISHED.len(),
            ),
            source: "alibaba/clusterdata (cluster-trace-gpu-v2023); results from \
                     hkust-adsl/kubernetes-scheduler-simulator",
            url: "https://github.com/alibaba/clusterdata",
            licence: "Apache-2.0",
            used_for: "GPU sharing in a production cluster (GPU sharing)",
            cite: "Weng et al., Beware of Fragmentation, USENIX ATC 2023",
            notice: None,
        },
        Source {
            name: "Go's math/rand seeding table",
            folder: "crates/smd-fgd/src/gorand_table.rs",
            what: "The 607 values Go's math/rand mixes into every seeded state.".to_owned(),
            source: "the Go distribution (src/math/rand/rng.go)",
            url: "https://github.com/golang/go/blob/master/src/math/rand/rng.go",
            licence: "BSD-3-Clause (its notice below)",
            used_for: "the GPU-sharing experiment's random draws, made as the published runs \
                       made them (GPU sharing)",
            cite: "—",
            notice: Some(smd_fgd::gorand_table::NOTICE),
        },
    ]
}

/// The view: a card per data set.
#[function_component]
pub fn DataView() -> Html {
    let cards = sources().into_iter().map(|s| {
        html! {
            <section class="card data-source" data-testid="data-source">
                <h2>{ s.name }<span class="muted">{" — "}<code>{ s.folder }</code></span></h2>
                <dl>
                    <dt>{"What"}</dt><dd>{ s.what }</dd>
                    <dt>{"Published by"}</dt>
                    <dd><a href={s.url} target="_blank" rel="noopener">{ s.source }</a></dd>
                    <dt>{"Licence"}</dt><dd>{ s.licence }</dd>
                    <dt>{"Used for"}</dt><dd>{ s.used_for }</dd>
                    <dt>{"Cite"}</dt><dd>{ s.cite }</dd>
                </dl>
                if let Some(notice) = s.notice {
                    <details>
                        <summary>{"The licence's notice"}</summary>
                        <pre class="notice-text">{ notice }</pre>
                    </details>
                }
            </section>
        }
    });
    html! {
        <div class="data-sources">
            <p>{"The planner carries the measurements, traces and published results below: \
                 byte-exact copies of public research artifacts, each folder with a README \
                 that describes its files. Synthetic jobs (the default scenario) use none of \
                 them. Cite the papers where your numbers rest on the data."}</p>
            { for cards }
        </div>
    }
}

/// What the page needs of the view: no results to export.
pub struct Spec;

impl super::ViewSpec for Spec {
    fn body(&self) -> Html {
        html! { <DataView /> }
    }

    fn has_exports(&self) -> bool {
        false
    }
}
