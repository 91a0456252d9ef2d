//! Machines on the page (a part of `browser.rs`, with its helpers): the cluster as
//! version-2 machine groups, the placement policy, the machine map beside the plan.

use super::*;
use smd_core::scenario::{Cluster, MachineGroup, Placement};

/// `jobs` generated jobs on `count` machines of half a cluster unit each (every task fits
/// on one machine), version 2, placement `placement`.
fn on_machines(jobs: usize, count: f64, placement: Placement) -> Scenario {
    let mut s = scenario(jobs, 1);
    let unit = s.cluster.unit.scale(0.5);
    s.version = 2;
    s.cluster = Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "m".into(),
            count,
            capacity: unit,
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: None,
        }],
        s.cluster.instance,
    );
    s.params.placement = Some(placement);
    s
}

/// The native plan on machines of `policy`.
fn placed(s: &Scenario, policy: Policy) -> smd_core::Plan {
    smd_place::plan_placed(s, policy, &mut smd_core::Options::default()).unwrap()
}

fn tasks_of(p: &smd_core::Plan) -> (usize, usize) {
    let shares = p.jobs.iter().flat_map(|j| j.placement.iter().flatten());
    shares.fold((0, 0), |(w, ps), s| {
        (w + s.workers as usize, ps + s.ps as usize)
    })
}

impl Mounted {
    fn map_svg(&self) -> String {
        self.root
            .query_selector("[data-testid=machine-map] svg")
            .unwrap()
            .map(|e| e.outer_html())
            .unwrap_or_default()
    }

    /// Shows `policy`'s plan.
    async fn show(&self, policy: Policy) {
        self.click(&format!("[data-policy={}]", policy.name()));
        self.until("the selected policy", |m| {
            m.count(&format!(
                "[data-testid=policy-compare] tr.selected[data-policy={}]",
                policy.name()
            )) == 1
        })
        .await;
    }
}

#[wasm_bindgen_test]
async fn a_machine_scenario_shows_a_box_per_machine_and_a_mark_per_task() {
    let s = on_machines(5, 6.0, Placement::Locality);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(5).await;
    m.show(Policy::Esw).await;
    let want = placed(&s, Policy::Esw);
    assert_eq!(
        m.text("[data-testid=total-utility]"),
        format!("{:.3}", want.total_utility)
    );
    m.until("the machine map", |m| {
        m.count("[data-testid=machine-map] svg") == 1
    })
    .await;
    assert_eq!(m.count("[data-testid=machine-map] g.machine"), 6);
    let (w, ps) = tasks_of(&want);
    assert!(w > 0, "the fixture places some job");
    assert_eq!(m.count("[data-testid=machine-map] g.task.worker"), w);
    assert_eq!(m.count("[data-testid=machine-map] g.task.ps"), ps);
    let summary = want.placement.as_ref().unwrap();
    let svg = m.one("[data-testid=machine-map] svg");
    assert_eq!(
        svg.get_attribute("data-machines-used").unwrap(),
        summary.machines_used.to_string()
    );
    assert_eq!(
        svg.get_attribute("data-cross-traffic").unwrap(),
        summary.total_cross_traffic_gbit.to_string()
    );
    // The tables: cross traffic and machines used per policy, ρ and where each job runs.
    assert_eq!(
        m.count("[data-testid=policy-compare] [data-testid=machines-used]"),
        smd_core::Policy::ALL.len()
    );
    let runs_on: Vec<String> = m
        .all("[data-testid=runs-on]")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    let want_runs: Vec<String> = want
        .jobs
        .iter()
        .map(|j| {
            j.placement
                .as_deref()
                .map(smd_web::components::views::plan::results::placement_text)
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(runs_on, want_runs);
    assert_eq!(m.count("[data-testid=error]"), 0);
}

#[wasm_bindgen_test]
async fn changing_the_placement_policy_plans_again_and_changes_the_map() {
    let s = on_machines(6, 8.0, Placement::FirstFit);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(6).await;
    m.show(Policy::Esw).await;
    m.until("the machine map", |m| !m.map_svg().is_empty())
        .await;
    let before = m.map_svg();
    let first = placed(&s, Policy::Esw);
    m.select("[data-field='params.placement']", "spread");
    let mut spread = s.clone();
    spread.params.placement = Some(Placement::Spread);
    let want = placed(&spread, Policy::Esw);
    assert_ne!(
        first.placement, want.placement,
        "the fixture places differently under spread"
    );
    m.until("the map of spread", |m| {
        m.map_svg() != before && m.map_svg().contains(">spread: ")
    })
    .await;
    let svg = m.one("[data-testid=machine-map] svg");
    assert_eq!(
        svg.get_attribute("data-machines-used").unwrap(),
        want.placement.as_ref().unwrap().machines_used.to_string()
    );
    // λ is asked for dltap only.
    assert_eq!(m.count("[data-field='params.dltap_lambda']"), 0);
    m.select("[data-field='params.placement']", "dltap");
    m.until("λ", |m| m.count("[data-field='params.dltap_lambda']") == 1)
        .await;
    // A bad λ: its message at its field, which stays on a pool until fixed.
    let lambda = "[data-field='params.dltap_lambda']";
    m.type_into(lambda, "2");
    m.until("λ's message", |m| {
        m.text("#params label.invalid [data-testid=error]")
            .contains("2")
    })
    .await;
    m.click("[data-action=use-pool]");
    m.until("the pool", |m| m.count("[data-testid=machine-groups]") == 0)
        .await;
    assert_eq!(m.value(lambda), "2");
    m.type_into(lambda, "");
    m.until("no λ on a pool", |m| {
        m.count(lambda) == 0 && m.count("[data-testid=error]") == 0
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_pool_shows_no_map_and_plans_as_before() {
    let s = scenario(4, 2);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(4).await;
    assert_eq!(m.text("[data-testid=total-utility]"), smd_total(&s));
    assert_eq!(m.count("[data-testid=machine-map]"), 0);
    assert_eq!(m.count("[data-testid=runs-on]"), 0);
    assert_eq!(m.count("[data-field='params.placement']"), 0);
    assert_eq!(m.count("[data-testid=machines-used]"), 0);
}

#[wasm_bindgen_test]
async fn bad_machine_fields_show_messages_at_their_fields_and_keep_the_text() {
    let s = scenario(3, 1);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(3).await;
    m.type_into("[data-field='cluster.units']", "2x");
    m.click("[data-action=use-machines]");
    m.until("the machine groups", |m| {
        m.count("[data-testid=machine-groups] tr[data-group]") == 1
    })
    .await;
    assert_eq!(m.count("[data-field='params.placement']"), 1);
    let count = "[data-field='cluster.machines[0].count']";
    m.type_into(count, "2.5");
    m.until("the count's message", |m| {
        m.text("[data-testid=machine-groups] tr[data-group='0'] label.invalid [data-testid=error]")
            .contains("whole number")
    })
    .await;
    assert_eq!(m.value(count), "2.5");
    let gpu = "[data-field='cluster.machines[0].capacity.gpu']";
    m.type_into(gpu, "four");
    m.until("the GPU's message", |m| {
        m.all("[data-testid=machine-groups] label.invalid").len() == 2
    })
    .await;
    assert_eq!(m.value(gpu), "four");
    // A second group; the pool and back: every text as typed.
    m.click("[data-action=add-group]");
    m.until("two groups", |m| {
        m.count("[data-testid=machine-groups] tr[data-group]") == 2
    })
    .await;
    m.click("[data-action=use-pool]");
    m.until("the pool", |m| m.count("[data-testid=machine-groups]") == 0)
        .await;
    assert_eq!(m.value("[data-field='cluster.units']"), "2x");
    m.click("[data-action=use-machines]");
    m.until("the groups again", |m| {
        m.count("[data-testid=machine-groups] tr[data-group]") == 2
    })
    .await;
    assert_eq!(m.value(count), "2.5");
    assert_eq!(m.value(gpu), "four");
    // Fixed: it plans on machines.
    m.type_into(count, "3");
    m.type_into(gpu, "4");
    m.until("a plan on machines", |m| {
        m.count("[data-testid=machine-map] g.machine") == 3 + 16
            && m.count("[data-testid=error]") == 0
    })
    .await;
}

/// The groups' table shows each group's GPU type; a GPU count beyond the type's measured
/// node is refused at the GPUs, and a group added from the catalog carries its type.
#[wasm_bindgen_test]
async fn a_groups_gpu_type_is_shown_and_its_node_checked_at_its_gpus() {
    let mut s = on_machines(3, 2.0, Placement::Locality);
    let mut groups = s.cluster.machines.clone();
    groups[0].gpu = Some(smd_core::scenario::Gpu::A100);
    groups[0].capacity.gpu = 8.0;
    s.cluster = Cluster::of_machines(groups, s.cluster.instance);
    let m = Mounted::new(props(Some(s)));
    m.until("the groups", |m| {
        m.count("[data-testid=machine-groups] tr[data-group]") == 1
    })
    .await;
    assert_eq!(m.text("[data-testid=group-gpu]"), "A100");
    let gpu = "[data-field='cluster.machines[0].capacity.gpu']";
    m.type_into(gpu, "12");
    m.until("the node's message at the GPUs", |m| {
        m.text("[data-testid=machine-groups] tr[data-group='0'] label.invalid [data-testid=error]")
            .contains("A100 was measured in nodes of 8")
    })
    .await;
    assert_eq!(m.value(gpu), "12");
    m.select("[data-field='machines.type']", "rtx2080tix8");
    m.click("[data-action=add-group]");
    m.until("two groups", |m| {
        m.count("[data-testid=machine-groups] tr[data-group]") == 2
    })
    .await;
    assert_eq!(
        m.text("[data-testid=machine-groups] tr[data-group='1'] [data-testid=group-gpu]"),
        "RTX 2080 Ti"
    );
}
