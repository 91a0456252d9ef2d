//! The planner's question of issue 27, performed on the page: "we have 16 machines of 4
//! T4 and a day of jobs like workload-1: how long will jobs wait, and how many more
//! machines would halve the mean JCT?" — one cluster from the trace to the sweep, the
//! answer in words equal to `smd_sweep`'s, a goal, the exports equal to the view's numbers,
//! and a link that reopens the sweep and runs it again.

use super::*;
use smd_apps::machines;
use smd_sim::SimPolicy;
use smd_sweep::{Axis, Metric, Options, Policies, Range, Spec};
use wasm_bindgen_futures::JsFuture;

/// Keeps every Blob the page turns into a download URL, so a test can read what a
/// download button wrote (`window.__smdBlobs`).
fn capture_downloads() {
    js_sys::eval(
        "if (!window.__smdBlobs) { window.__smdBlobs = []; const make = URL.createObjectURL; \
         URL.createObjectURL = function (b) { window.__smdBlobs.push(b); return make.call(URL, b); }; }",
    )
    .unwrap();
}

/// The text of the last download.
async fn last_download() -> String {
    let blobs = js_sys::eval("window.__smdBlobs").unwrap();
    let blobs: js_sys::Array = blobs.dyn_into().unwrap();
    let blob: web_sys::Blob = blobs.get(blobs.length() - 1).dyn_into().unwrap();
    JsFuture::from(blob.text())
        .await
        .unwrap()
        .as_string()
        .unwrap()
}

/// The cells of CSV `text`, header first.
fn csv(text: &str) -> Vec<Vec<String>> {
    smd_apps::csv::records(text)
        .unwrap()
        .into_iter()
        .map(|r| r.cells)
        .collect()
}

impl Mounted {
    /// Clicks every checkbox of `attr` whose value is not in `keep` and is checked.
    fn keep_only(&self, attr: &str, keep: &[&str]) {
        for el in self.all(&format!("[{attr}]")) {
            let name = el.get_attribute(attr).unwrap();
            let checked = el.dyn_ref::<HtmlInputElement>().unwrap().checked();
            if checked != keep.contains(&name.as_str()) {
                el.dyn_ref::<HtmlElement>().unwrap().click();
            }
        }
    }
}

#[wasm_bindgen_test]
async fn the_planners_question_from_trace_to_a_shared_sweep() {
    capture_downloads();
    let m = Mounted::new(props(None));
    m.planned(smd_web::defaults::default_scenario().jobs.len())
        .await;
    // One cluster: the trace's 16 × t4x4 machines, said once on the cluster card.
    m.click("[data-action=load-trace]");
    m.until("the trace's jobs", |m| {
        m.count("[data-testid=job-row]") == 160
    })
    .await;
    assert!(m
        .text("[data-testid=cluster-in-force]")
        .starts_with("In force: 16 × t4x4 machines — 64 GPUs"));
    m.planned(160).await;

    // Over time plans the same cluster: the draft's.
    m.click("[role=tab][data-view=over-time]");
    m.until("the over-time view", |m| {
        m.count("[data-testid=over-time]") == 1
    })
    .await;
    assert!(m
        .text("[data-testid=over-time-cluster]")
        .contains("160 jobs on 16 × t4x4 machines"));
    m.keep_only("data-sim-policy", &["fifo", "pollux"]);
    m.click("[data-testid=over-time-run]");
    m.until("the runs", |m| {
        m.count("[data-testid=over-time-metrics] tbody tr") == 2
    })
    .await;
    // Its export: the metrics as shown, one number per cell.
    m.click("[data-testid=export-csv]");
    m.until("the export note", |m| {
        m.text("[data-testid=notice]")
            .contains("Exported over-time.csv")
    })
    .await;
    let rows = csv(&last_download().await);
    for (name, cell) in [("mean_jct_s", "mean-jct"), ("p95_queue_s", "p95-queue")] {
        let col = rows[0].iter().position(|c| c == name).unwrap();
        for row in &rows[1..] {
            let shown = m
                .one(&format!(
                    "[data-testid=over-time-metrics] tr[data-policy={}] [data-testid={cell}]",
                    row[0]
                ))
                .get_attribute("data-value")
                .unwrap();
            assert_eq!(
                row[col].parse::<f64>().unwrap(),
                shown.parse::<f64>().unwrap(),
                "{name} of {}",
                row[0]
            );
        }
    }

    // The sweep: mean JCT by default (the jobs arrive), under pollux, with a goal.
    m.click("[role=tab][data-view=sweep]");
    m.until("the sweep view", |m| m.count("[data-testid=sweep]") == 1)
        .await;
    assert_eq!(m.value("[data-field='sweep.metric']"), "mean_jct");
    assert_eq!(
        m.count("[data-sweep-policy]"),
        0,
        "no static plan for a JCT"
    );
    m.keep_only("data-sweep-sim-policy", &["fifo", "pollux", "bound"]);
    m.type_into("[data-field='sweep.range']", "8:32:8");
    m.select("[data-field='sweep.answer_policy']", "pollux");
    m.type_into("[data-field='sweep.goal']", "1h");
    m.click("[data-testid=sweep-run]");
    m.until("the answer", |m| m.count("[data-testid=sweep-answer]") == 1)
        .await;
    let sentence = m.text("[data-testid=sweep-answer]");
    assert!(sentence.contains("under pollux"), "{sentence}");
    // The link carries the scenario and the sweep's settings; its scenario is the draft.
    m.click("[data-testid=view-link]");
    m.until("the link", |m| m.count("[data-testid=view-link-text]") == 1)
        .await;
    let link = m.value("[data-testid=view-link-text]");
    let link_hash = link.split_once('#').unwrap().1.to_owned();
    let draft = smd_web::codec::parse_share_fragment(&link_hash).unwrap();
    let t4 = machines::machine_type("t4x4").unwrap();
    assert_eq!(draft.cluster, machines::cluster(t4, 16.0, t4.capacity));
    let settings = smd_web::state::link::ViewLink::parse(&link_hash)
        .unwrap()
        .unwrap();
    assert!(settings.run);
    let sw = settings.sweep.unwrap();
    assert_eq!(
        (
            sw.range.as_deref(),
            sw.answer_policy.as_str(),
            sw.goal.as_str()
        ),
        (Some("8:32:8"), "pollux", "1h")
    );
    // The same sweep natively: the same sentence and goal.
    let spec = Spec {
        axis: Axis::Machines,
        range: Range::parse("8:32:8").unwrap(),
        resource: None,
        machine_type: None,
        group: Some("t4x4".into()),
    };
    let policies = Policies {
        planners: Vec::new(),
        over_time: vec![SimPolicy::Fifo, SimPolicy::Pollux, SimPolicy::Bound],
    };
    let native = smd_sweep::sweep(&draft, &spec, &policies, &mut Options::default()).unwrap();
    let want = smd_sweep::metric_answer(
        &native.points,
        Metric::MeanJct,
        Some("pollux"),
        Some(16.0),
        false,
    )
    .unwrap();
    assert_eq!(sentence, want.answer);
    let goal = smd_sweep::goal_in(&native.points, &want, 3600.0);
    assert_eq!(m.text("[data-testid=sweep-goal-answer]"), goal.answer);
    // One value per cell, the table's numbers equal the export's.
    m.click("[data-testid=export-json]");
    m.until("the JSON export", |m| {
        m.text("[data-testid=notice]")
            .contains("Exported sweep.json")
    })
    .await;
    let json: serde_json::Value = serde_json::from_str(&last_download().await).unwrap();
    assert_eq!(json["answer"].as_str(), Some(want.answer.as_str()));
    assert_eq!(json["goal"]["answer"].as_str(), Some(goal.answer.as_str()));
    m.click("[data-testid=export-csv]");
    m.until("the CSV export", |m| {
        m.text("[data-testid=notice]")
            .contains("Exported sweep.csv")
    })
    .await;
    let rows = csv(&last_download().await);
    let jct = rows[0].iter().position(|c| c == "mean_jct_s").unwrap();
    for cell in m.all("[data-testid=sweep-table] td[data-sim-policy=pollux]") {
        let row = cell.parent_element().unwrap();
        let size = row.get_attribute("data-size").unwrap();
        let exported = rows
            .iter()
            .find(|r| r[0] == size && r[1] == "pollux")
            .unwrap();
        assert_eq!(
            exported[jct].parse::<f64>().unwrap(),
            cell.get_attribute("data-value")
                .unwrap()
                .parse::<f64>()
                .unwrap()
        );
    }
    // The cost of the same runs (t4x4 carries its hourly price): read from the report
    // without running again, the cheapest size in words, the export's column the runs'.
    let cost = rows[0].iter().position(|c| c == "cost_usd").unwrap();
    for p in &native.points {
        let (_, o) = p
            .over_time
            .iter()
            .find(|(q, _)| *q == SimPolicy::Pollux)
            .unwrap();
        let row = rows
            .iter()
            .find(|r| r[0] == p.size.value().to_string() && r[1] == "pollux")
            .unwrap();
        assert_eq!(row[cost].parse::<f64>().ok(), o.cost_usd);
    }
    m.select("[data-field='sweep.metric']", "cost");
    let priced = smd_sweep::metric_answer(
        &native.points,
        Metric::Cost,
        Some("pollux"),
        Some(16.0),
        false,
    )
    .unwrap();
    m.until("the cost's answer", |m| {
        m.text("[data-testid=sweep-answer]") == priced.answer
    })
    .await;
    assert!(
        priced.answer.contains("until the jobs are done"),
        "{}",
        priced.answer
    );
    drop(m);

    // The link reopens the sweep with its settings and runs it again.
    set_hash(&format!("#{link_hash}"));
    let again = Mounted::new(AppProps {
        read_link: true,
        ..props(None)
    });
    again
        .until("the sweep reopened and run", |m| {
            m.count("[data-testid=sweep-answer]") == 1
        })
        .await;
    assert_eq!(again.value("[data-field='sweep.range']"), "8:32:8");
    assert_eq!(again.text("[data-testid=sweep-answer]"), want.answer);
    assert_eq!(again.text("[data-testid=sweep-goal-answer]"), goal.answer);
    assert!(!hash().contains("v="), "the link's settings are consumed");
    drop(again);
    set_hash("");
}
