//! GPU sharing: a production cluster (a part of `browser.rs`, with its helpers): the study
//! of node-scoring policies on small hand-built lists chosen as files, its charts with the
//! bound, Cancel, a bad file named by row and column; and the bundled lists in wasm equal
//! to the native run.

use super::*;

/// Four nodes of two GPU models.
const NODES: &str = "sn,cpu_milli,memory_mib,gpu,model\n\
    n1,64000,262144,2,V100M16\nn2,64000,262144,2,V100M16\nn3,64000,262144,1,T4\nn4,32000,131072,4,P100\n";

/// Sixteen pods: whole GPUs, shares of one, a CPU-only pod.
fn pods() -> String {
    let mut s = String::from("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n");
    for i in 0..16 {
        let (num, milli) = match i % 4 {
            0 => (1, 1000),
            1 => (1, 500),
            2 => (1, 250),
            _ => (0, 0),
        };
        s.push_str(&format!("p{i},2000,4096,{num},{milli},\n"));
    }
    s
}

impl Mounted {
    /// Opens the GPU sharing view.
    async fn sharing_view(&self) {
        self.until("the tabs", |m| {
            m.count("[role=tab][data-view=gpu-sharing]") == 1
        })
        .await;
        self.click("[role=tab][data-view=gpu-sharing]");
        self.until("the GPU sharing view", |m| {
            m.count("[data-testid=sharing]") == 1
        })
        .await;
    }

    /// Chooses a file of `text` named `name` in the file input `selector`.
    fn choose_file(&self, selector: &str, name: &str, text: &str) {
        let input = self.one(selector);
        let choose = js_sys::Function::new_with_args(
            "input, name, text",
            "const dt = new DataTransfer(); dt.items.add(new File([text], name)); input.files = dt.files;",
        );
        choose
            .call3(
                &wasm_bindgen::JsValue::NULL,
                &input,
                &name.into(),
                &text.into(),
            )
            .unwrap();
        fire(&input, "change");
    }

    /// Chooses the hand-built lists.
    async fn small_lists(&self) {
        self.choose_file("[data-testid=sharing-nodes-file]", "nodes.csv", NODES);
        self.choose_file("[data-testid=sharing-pods-file]", "pods.csv", &pods());
        self.until("the lists chosen", |m| {
            m.text("[data-testid=sharing-lists]")
                .contains("Nodes: nodes.csv. Pods: pods.csv.")
        })
        .await;
    }
}

#[wasm_bindgen_test]
async fn the_study_draws_a_line_per_policy_and_the_bound() {
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.sharing_view().await;
    m.small_lists().await;
    m.type_into("[data-field='sharing.seeds']", "42–43");
    m.click("[data-testid=sharing-run]");
    m.until("the study", |m| {
        m.count("[data-testid=sharing-allocation] g.series") == smd_fgd::Policy::ALL.len()
    })
    .await;
    assert_eq!(
        m.count("[data-testid=sharing-allocation] [data-testid=fgd-bound]"),
        1
    );
    for p in smd_fgd::Policy::ALL {
        assert_eq!(
            m.count(&format!(
                "[data-testid=sharing-allocation] g.series[data-policy={}]",
                p.name()
            )),
            1
        );
    }
    assert_eq!(
        m.count("[data-testid=sharing-frag-ratio] g.series"),
        smd_fgd::Policy::ALL.len()
    );
    // Not the bundled lists: no comparison with the published tables.
    assert_eq!(m.count("[data-testid=sharing-no-verdict]"), 1);
    assert_eq!(
        m.count("[data-testid=sharing-table] tbody tr"),
        smd_fgd::Policy::ALL.len()
    );
    // Every policy on both seeds.
    let runs = format!("{} runs", 2 * smd_fgd::Policy::ALL.len());
    assert!(m.text("[data-testid=sharing-summary]").contains(&runs));
    // The map of one moment: a square per GPU, grouped by model.
    m.click("[data-testid=sharing-map-draw]");
    m.until("the map", |m| {
        m.count("[data-testid=fgd-map] rect.gpu") == 9
    })
    .await;
    assert_eq!(m.count("[data-testid=fgd-map] g.model"), 3);
}

#[wasm_bindgen_test]
async fn cancel_stops_the_study() {
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.sharing_view().await;
    m.small_lists().await;
    m.click("[data-testid=sharing-run]");
    // The in-thread run starts after a timer: Cancel before it.
    for _ in 0..50 {
        if m.count("[data-testid=sharing-cancel]") == 1 {
            break;
        }
        let p = js_sys::Promise::resolve(&wasm_bindgen::JsValue::NULL);
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
    assert_eq!(
        m.count("[data-testid=sharing-cancel]"),
        1,
        "the Cancel button"
    );
    assert!(m.one("[data-testid=sharing-run]").has_attribute("disabled"));
    m.click("[data-testid=sharing-cancel]");
    m.until("the run stopped", |m| {
        m.count("[data-testid=sharing-progress]") == 0
    })
    .await;
    assert!(m.text("[data-testid=notice]").contains("Study cancelled"));
    yew::platform::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(m.count("[data-testid=sharing-allocation]"), 0);
    // The page still works.
    m.click("[data-testid=sharing-run]");
    m.until("the study", |m| {
        m.count("[data-testid=sharing-allocation]") == 1
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_bad_file_names_its_row_and_column_and_keeps_the_list() {
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.sharing_view().await;
    m.small_lists().await;
    let bad = NODES.replace("n3,64000,", "n3,lots,");
    m.choose_file("[data-testid=sharing-nodes-file]", "broken.csv", &bad);
    m.until("the file's error", |m| {
        m.count("[data-testid=sharing-file-error]") == 1
    })
    .await;
    let e = m.text("[data-testid=sharing-file-error]");
    assert!(e.starts_with("broken.csv: "), "{e}");
    assert!(e.contains("row 4") && e.contains("cpu_milli"), "{e}");
    assert!(m
        .text("[data-testid=sharing-lists]")
        .contains("Nodes: nodes.csv."));
}

/// The bundled lists in wasm: fgd with seed 42 allocates what it does natively
/// (crates/smd-fgd/tests/wasm_pins.rs pins the same numbers).
#[wasm_bindgen_test]
fn the_bundled_lists_run_as_natively() {
    let nodes = smd_fgd::parse_nodes(include_str!(
        "../../../data/openb/openb_node_list_gpu_node.csv"
    ))
    .unwrap();
    let pods = smd_fgd::parse_pods(include_str!(
        "../../../data/openb/openb_pod_list_default.csv"
    ))
    .unwrap();
    let t0 = smd_web::solver::now_ms();
    let prepared = smd_fgd::Prepared::new(&nodes, &pods);
    let run = prepared
        .run(smd_fgd::Policy::Fgd, 42, 1.3, &mut |_, _| true)
        .unwrap();
    console_log!(
        "fgd, seed 42, the bundled lists in wasm: {:.2} s",
        (smd_web::solver::now_ms() - t0) / 1000.0
    );
    let at = |x: u32| run.points.iter().find(|p| p.x == x).unwrap().allocation_pct;
    assert_eq!(at(100), ALLOCATION_AT_100);
    assert_eq!(at(130), ALLOCATION_AT_130);
}

/// fgd, seed 42, target 1.3 on the bundled lists: `smd study fgd --policy fgd --seeds 42
/// --json`'s allocation at x = 100 and 130.
const ALLOCATION_AT_100: f64 = 95.14;
const ALLOCATION_AT_130: f64 = 95.29;
