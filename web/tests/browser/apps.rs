//! Real applications on the page (a part of `browser.rs`, with its helpers): a job from an
//! application, machines of a catalog type, loading a trace (bundled or a file).

use super::*;
use smd_apps::app::App;
use smd_apps::preset::{preset, PresetOptions};
use smd_apps::{machines, trace};
use smd_web::fields::{job_text, JOB_NUMBERS, RESOURCES};

impl Mounted {
    /// The draft as the page exports it (JSON), read back leniently.
    async fn exported(&self) -> Scenario {
        self.type_into("[data-field='io.text']", "");
        self.click("[data-action=export-json]");
        self.until("the exported JSON", |m| {
            !m.value("[data-field='io.text']").is_empty()
        })
        .await;
        smd_web::codec::parse_lenient(&self.value("[data-field='io.text']")).unwrap()
    }

    /// Opens `text` as the file `name` in the file input `selector` (as if picked).
    fn open_file(&self, selector: &str, name: &str, text: &str) {
        let set = js_sys::Function::new_with_args(
            "input, name, text",
            "const dt = new DataTransfer(); dt.items.add(new File([text], name, { type: 'text/csv' })); \
             input.files = dt.files; input.dispatchEvent(new Event('change', { bubbles: true }));",
        );
        set.call3(
            &wasm_bindgen::JsValue::NULL,
            &self.one(selector),
            &name.into(),
            &text.into(),
        )
        .unwrap();
    }
}

#[wasm_bindgen_test]
async fn an_application_fills_the_selected_job_and_adds_one() {
    let s = scenario(2, 1);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(2).await;
    m.select("[data-field='preset.architecture']", "ps");
    m.select("[data-field='preset.app']", "bert");
    m.until("bert's initial batch", |m| {
        m.value("[data-field='preset.batch']") == "12"
    })
    .await;
    assert!(m.text("[data-testid=app-facts]").contains("12–384"));
    m.type_into("[data-field='preset.batch']", "96");
    m.click("[data-action=fill-from-app]");
    let mut want = preset(
        App::Bert,
        &PresetOptions {
            id: Some("bert-96".into()),
            ..PresetOptions::batch(96.0)
        },
    )
    .unwrap();
    m.until("the filled job", |m| {
        m.value("[data-field='job.id']") == "bert-96"
    })
    .await;
    // Every field of the editor shows the preset's value…
    let demands = ["worker", "ps"]
        .into_iter()
        .flat_map(|who| RESOURCES.map(|r| format!("{who}.{}", r.name())));
    let numbers = JOB_NUMBERS.iter().map(|(f, _, _)| f.to_string());
    for f in numbers
        .chain(demands)
        .chain(["id".into(), "mode".into(), "overlap".into()])
    {
        assert_eq!(
            m.value(&format!("[data-field='job.{f}']")),
            job_text(&want, &f),
            "{f}"
        );
    }
    // …and the draft holds the preset's job exactly (layers included).
    let exported = m.exported().await;
    assert_eq!(exported.jobs[0], want);
    assert_eq!(exported.jobs[1], s.jobs[1]);
    // Everything stays editable.
    m.type_into("[data-field='job.iterations']", "1000");
    // Add: a new job with an id of its own, selected.
    m.click("[data-action=add-from-app]");
    m.until("the added job", |m| m.count("[data-testid=job-row]") == 3)
        .await;
    assert_eq!(m.value("[data-field='job.id']"), "bert-96-2");
    m.planned(3).await;
    let exported = m.exported().await;
    want.id = "bert-96-2".into();
    assert_eq!(exported.jobs[2], want);
    assert_eq!(exported.jobs[0].iterations, 1000.0);
    assert_eq!(m.count("[data-testid=error]"), 0);
}

#[wasm_bindgen_test]
async fn a_measured_job_shows_its_application_batch_gpus_curve_and_time() {
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.planned(2).await;
    assert_eq!(m.value("[data-field='preset.architecture']"), "allreduce");
    m.select("[data-field='preset.app']", "cifar10");
    m.type_into("[data-field='preset.batch']", "1024");
    m.click("[data-action=add-from-app]");
    m.until("the measured editor", |m| {
        m.count("[data-testid=job-editor][data-kind=allreduce]") == 1
    })
    .await;
    assert_eq!(m.value("[data-field='job.app']"), "cifar10");
    assert_eq!(m.value("[data-field='job.batch_size']"), "1024");
    // No parameter-server field, a curve with its measured rows, the time to target.
    for f in [
        "ps.gpu",
        "iterations",
        "limit_instances",
        "requested_ps",
        "mode",
    ] {
        assert_eq!(m.count(&format!("[data-field='job.{f}']")), 0, "{f}");
    }
    assert_eq!(m.count("[data-testid=step-curve] svg"), 1);
    assert!(m
        .text("[data-testid=time-to-target]")
        .contains("fastest on"));
    let exported = m.exported().await;
    let want = smd_apps::preset::measured(
        App::Cifar10,
        &smd_apps::preset::MeasuredOptions {
            id: Some("cifar10-1024".into()),
            batch_size: Some(1024.0),
            max_workers: None,
        },
    )
    .unwrap();
    assert_eq!(exported.jobs[2], want);
    // Edits land in the job; a batch out of range is named at its field.
    m.type_into("[data-field='job.batch_size']", "99999");
    m.until("the batch message", |m| {
        m.text("[data-testid=job-editor] [data-testid=error]")
            .contains("between 128 and 4096")
    })
    .await;
    m.type_into("[data-field='job.batch_size']", "");
    // The message goes once the cleared field is read again (asynchronously).
    m.until("the message gone", |m| m.count("[data-testid=error]") == 0)
        .await;
    m.planned(3).await;
    assert_eq!(
        m.exported().await.jobs[2]
            .measured
            .as_ref()
            .unwrap()
            .batch_size,
        None
    );
}

#[wasm_bindgen_test]
async fn a_batch_outside_the_measured_range_is_named_at_its_field() {
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.planned(2).await;
    assert_eq!(m.value("[data-field='preset.app']"), "cifar10");
    m.type_into("[data-field='preset.batch']", "5000");
    m.click("[data-action=add-from-app]");
    m.until("the message", |m| {
        m.text("[data-testid=from-app] [data-testid=error]")
            .contains("must be between 128 and 4096 for cifar10")
    })
    .await;
    let field = m.one("[data-field='preset.batch']");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(
        m.value("[data-field='preset.batch']"),
        "5000",
        "kept as typed"
    );
    assert_eq!(m.count("[data-testid=job-row]"), 2, "no job added");
    m.click("[data-action=fill-from-app]");
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(m.count("[data-testid=error]"), 1);
    assert_eq!(
        m.value("[data-field='job.id']"),
        "job-001",
        "the job is unchanged"
    );
    // Not a number, and (a parameter-server job) a per-worker batch above K: each at its
    // own field.
    m.type_into("[data-field='preset.batch']", "lots");
    m.click("[data-action=add-from-app]");
    m.until("the parse message", |m| {
        m.text("[data-testid=from-app] [data-testid=error]")
            .contains("must be a number")
    })
    .await;
    assert_eq!(m.value("[data-field='preset.batch']"), "lots");
    m.select("[data-field='preset.architecture']", "ps");
    m.until("the parameter-server form", |m| {
        m.count("[data-field='preset.minibatch']") == 1
    })
    .await;
    m.type_into("[data-field='preset.batch']", "256");
    m.type_into("[data-field='preset.minibatch']", "512");
    m.click("[data-action=add-from-app]");
    m.until("the minibatch message", |m| {
        m.one("[data-field='preset.minibatch']")
            .get_attribute("aria-invalid")
            .as_deref()
            == Some("true")
    })
    .await;
    assert!(m
        .text("[data-testid=from-app] [data-testid=error]")
        .contains("global batch 256"));
    assert_eq!(m.count("[data-testid=job-row]"), 2);
}

#[wasm_bindgen_test]
async fn a_machine_type_sets_the_capacity() {
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.planned(2).await;
    assert!(m
        .text("[data-testid=machines-in-force]")
        .contains("not a catalog pool"));
    m.select("[data-field='machines.type']", "v100x8");
    m.until("its description", |m| {
        m.text("[data-testid=machine-description]")
            .contains("ND40rs_v2")
    })
    .await;
    m.type_into("[data-field='machines.count']", "3");
    m.click("[data-action=set-machines]");
    m.until("the machines in force", |m| {
        m.text("[data-testid=machines-in-force]")
            .contains("In force: 3 × v100x8")
    })
    .await;
    let v100 = machines::machine_type("v100x8").unwrap();
    assert_eq!(m.exported().await.cluster, machines::pool(v100, 3.0));
    assert_eq!(m.value("[data-field='cluster.units']"), "3");
    assert_eq!(m.value("[data-field='cluster.unit.gpu']"), "8");
    assert_eq!(m.value("[data-field='cluster.instance.memory_gb']"), "672");
    assert!(
        m.text("[data-testid=capacity]").contains("24 GPU"),
        "capacity 3 × 8 GPUs"
    );
    // The raw numbers stay editable: more machines of the type, then a custom cluster.
    m.type_into("[data-field='cluster.units']", "4");
    m.until("four machines", |m| {
        m.text("[data-testid=machines-in-force]")
            .contains("In force: 4 × v100x8")
    })
    .await;
    m.type_into("[data-field='cluster.unit.gpu']", "7");
    m.until("a custom cluster", |m| {
        m.text("[data-testid=machines-in-force]")
            .contains("not a catalog pool")
    })
    .await;
    // A count that is not a whole number is refused at its field, as typed.
    m.type_into("[data-field='machines.count']", "2.5");
    m.click("[data-action=set-machines]");
    m.until("the count message", |m| {
        m.text("[data-testid=machines] [data-testid=error]")
            .contains("whole number")
    })
    .await;
    assert_eq!(m.value("[data-field='machines.count']"), "2.5");
    assert_eq!(m.value("[data-field='cluster.unit.gpu']"), "7");
}

#[wasm_bindgen_test]
async fn a_bundled_trace_loads_its_jobs_at_their_arrival_times() {
    let key = "smd-web-test/trace-draft";
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item(key).unwrap();
    let with_storage = || AppProps {
        storage_key: Some(AttrValue::Static(key)),
        ..props(Some(scenario(2, 1)))
    };
    let arrivals = trace::parse(trace::workload("workload-1").unwrap()).unwrap();
    let m = Mounted::new(with_storage());
    m.planned(2).await;
    assert_eq!(m.value("[data-field='trace.workload']"), "workload-1");
    assert_eq!(m.value("[data-field='trace.count']"), "16");
    assert_eq!(m.value("[data-field='trace.type']"), "t4x4");
    // The button says what it loads.
    assert_eq!(m.text("[data-action=load-trace]"), "Load workload-1");
    m.click("[data-action=load-trace]");
    m.until("the trace's jobs", |m| {
        m.count("[data-testid=job-row]") == 160
    })
    .await;
    assert!(m
        .text("[data-testid=notice]")
        .contains("Loaded workload-1: 160 jobs"));
    // What is loaded stays said under the buttons.
    assert_eq!(
        m.text("[data-testid=trace-loaded]"),
        "Loaded workload-1: 160 jobs"
    );
    // The arrival times are the CSV's, exactly, in the draft and on screen.
    let s = m.exported().await;
    assert_eq!(s.version, 2);
    assert_eq!(s.jobs.len(), 160);
    // As measured (docs/MODEL.md §21), as `smd trace` loads them.
    assert!(s.jobs.iter().all(|j| j.measured.is_some()));
    // One cluster, stated once: the trace's machines, on the card in one line.
    let t4 = &machines::CATALOG[0];
    assert_eq!(s.cluster, machines::cluster(t4, 16.0, t4.capacity));
    assert!(m
        .text("[data-testid=cluster-in-force]")
        .starts_with("In force: 16 × t4x4 machines — 64 GPUs"));
    for (j, a) in s.jobs.iter().zip(&arrivals) {
        assert_eq!(
            (j.id.as_str(), j.arrival_s),
            (a.name.as_str(), Some(a.time_s))
        );
        assert_eq!(j.requested_workers, Some(a.num_replicas as f64));
    }
    let shown: Vec<String> = m
        .all("[data-testid=arrives]")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    // In seconds, thousands grouped (the page's numbers never carry an exponent).
    let want: Vec<String> = arrivals
        .iter()
        .map(|a| smd_format::readable(a.time_s, 8))
        .collect();
    assert_eq!(shown, want);
    assert_eq!(
        m.value("[data-field='job.arrival_s']"),
        arrivals[0].time_s.to_string()
    );
    // Planned with every policy (in this test, on the page's own thread).
    m.planned(160).await;
    assert_eq!(m.count("[data-testid=error]"), 0);
    // The share link carries it.
    m.click("[data-action=share]");
    m.until("the link", |m| m.count("[data-testid=share-link]") == 1)
        .await;
    let link = m.value("[data-testid=share-link]");
    let hash = link.split_once('#').unwrap().1;
    assert_eq!(smd_web::codec::parse_share_fragment(hash).unwrap(), s);
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    drop(m);
    // So does the saved draft.
    let m = Mounted::new(with_storage());
    m.until("the saved trace", |m| {
        m.count("[data-testid=job-row]") == 160
    })
    .await;
    assert_eq!(m.exported().await, s);
    // Undo brings back the jobs the trace replaced.
    m.click("[data-action=load-trace]");
    m.until("the undo button", |m| m.count("[data-action=undo]") == 1)
        .await;
    m.click("[data-action=undo]");
    m.until("the notice", |m| {
        m.text("[data-testid=notice]")
            .starts_with("Undone: loading workload-1")
    })
    .await;
    assert_eq!(m.exported().await, s, "the draft before the second load");
    drop(m);
    storage.remove_item(key).unwrap();
}

#[wasm_bindgen_test]
async fn a_bad_trace_file_is_named_by_row_and_column() {
    let s = scenario(2, 1);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(2).await;
    let bad = "name,time,application,num_replicas,batch_size\n\
               a,0,bert,1,12\n\
               \n\
               b,10,bert,2,1000\n";
    m.open_file("[data-action=open-trace]", "mine.csv", bad);
    m.until("the message", |m| {
        m.text("[data-testid=trace] [data-testid=error]")
            .starts_with(
                "mine.csv: row 2 (line 4), column \"batch_size\": must be between 12 and 384",
            )
    })
    .await;
    assert_eq!(m.count("[data-testid=job-row]"), 2, "nothing changed");
    assert_eq!(m.exported().await, s);
    // A good file loads.
    let good = "name,time,application,num_replicas,batch_size\na,0,bert,1,12\nb,10.5,ncf,2,1024\n";
    m.open_file("[data-action=open-trace]", "mine.csv", good);
    m.planned(2).await;
    m.until("the loaded file", |m| {
        m.text("[data-testid=notice]")
            .contains("Loaded mine.csv: 2 jobs")
    })
    .await;
    let loaded = m.exported().await;
    assert_eq!(loaded.jobs[1].arrival_s, Some(10.5));
    assert_eq!(loaded.jobs[1].id, "b");
    assert_eq!(m.count("[data-testid=trace] [data-testid=error]"), 0);
}
