//! GPU sharing on the page (a part of `browser.rs`, with its helpers): the parameters, the
//! "GPU sharing" card under the plan with its headline and GPU map.

use super::*;
use smd_core::scenario::{Cluster, GpuSharing, MachineGroup};

/// `jobs` generated jobs whose worker takes one GPU, each with a memory profile, on 4
/// machines of 8 GPUs with 16 GB each; version 2, GPU sharing `heuristic`.
pub(crate) fn sharing_scenario(jobs: usize) -> Scenario {
    let mut s = scenario(jobs, 1);
    s.version = 2;
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.worker.gpu = 1.0;
        j.gpu_mem_mean_gb = Some(3.0 + i as f64);
        j.gpu_mem_sd_gb = Some(0.5);
        j.gpu_util = Some(0.3);
        j.min_performance = Some(0.8);
    }
    let mut capacity = s.cluster.unit;
    capacity.gpu = 8.0;
    capacity.vcpu = capacity.vcpu.max(64.0);
    capacity.memory_gb = capacity.memory_gb.max(256.0);
    s.cluster = Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "g".into(),
            count: 4.0,
            capacity,
            gpu_memory_gb: Some(16.0),
            nic_gbps: None,
            local_gbps: None,
        }],
        s.cluster.instance,
    );
    s.params.gpu_sharing = Some(GpuSharing::Heuristic);
    s
}

#[wasm_bindgen_test]
async fn gpu_sharing_shows_its_headline_and_map_and_off_removes_them() {
    let s = sharing_scenario(5);
    let want = smd_place::plan_placed(&s, Policy::Smd, &mut smd_core::Options::default()).unwrap();
    let sharing = want.sharing.clone().expect("the plan shares GPUs");
    assert!(!sharing.gpus.is_empty(), "the fixture shares some GPU");
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(5).await;
    // The parameters show the scenario's sharing and its two numbers (empty: defaults).
    assert_eq!(m.value("[data-field='params.gpu_sharing']"), "heuristic");
    assert_eq!(m.value("[data-field='params.collision_prob']"), "");
    assert_eq!(m.value("[data-field='params.share_overhead']"), "");
    m.until("the sharing card", |m| {
        m.count("[data-testid=sharing-headline]") == 1
    })
    .await;
    assert_eq!(
        m.text("[data-testid=sharing-headline]"),
        smd_web::components::views::plan::results::sharing_headline(&sharing)
    );
    assert!(m
        .text("[data-testid=sharing-headline]")
        .contains(" GPUs instead of "));
    assert_eq!(m.count("#sharing svg[data-testid=gpu-map]"), 1);
    assert_eq!(m.count("[data-testid=gpu-map] g.gpu"), sharing.gpus.len());
    // Each job's slowdown in the plan table, as the plan gives it.
    let cells: Vec<String> = m
        .all("[data-testid=slowdown]")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    let want_cells: Vec<String> = want
        .jobs
        .iter()
        .map(|j| {
            j.slowdown
                .map(|v| format!("×{}", smd_charts::format::sig(v, 3)))
                .unwrap_or_else(|| "—".into())
        })
        .collect();
    assert_eq!(cells, want_cells);
    assert!(cells.iter().any(|c| c.starts_with('×')), "{cells:?}");
    // The job editor has the four fields of the selected job.
    assert_eq!(m.value("[data-field='job.gpu_mem_mean_gb']"), "3");
    assert_eq!(m.value("[data-field='job.min_performance']"), "0.8");
    // A bad number is kept as typed, with its message at the field.
    m.type_into("[data-field='params.collision_prob']", "2");
    m.until("the collision message", |m| {
        m.text("#params label.invalid [data-testid=error]")
            .contains("(0, 1)")
    })
    .await;
    assert_eq!(m.value("[data-field='params.collision_prob']"), "2");
    m.type_into("[data-field='params.collision_prob']", "");
    m.until("no messages", |m| m.count("[data-testid=error]") == 0)
        .await;
    // Off: no sharing card, no map; the two numbers are not asked for.
    m.select("[data-field='params.gpu_sharing']", "off");
    m.until("no sharing card", |m| {
        m.count("[data-testid=sharing-headline]") == 0
            && m.count("[data-testid=gpu-map]") == 0
            && m.count("[data-testid=stale]") == 0
    })
    .await;
    assert_eq!(m.count("[data-field='params.collision_prob']"), 0);
    assert_eq!(m.count("[data-testid=error]"), 0);
}
