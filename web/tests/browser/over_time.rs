//! Over time on the page (a part of `browser.rs`, with its helpers): a bundled workload
//! simulated with every policy, its metrics and charts, a job's history, and Cancel.

use super::*;

/// A small draft at ε = 0.1 (the simulations take the draft's parameters; a coarse ε keeps
/// them fast).
fn coarse() -> Scenario {
    let mut s = scenario(2, 1);
    s.params.epsilon = 0.1;
    s
}

/// The first `n` arrivals of workload-1 on `machines` t4x4 machines, with `params`.
fn workload(n: usize, machines: f64, params: &smd_core::scenario::Params) -> Scenario {
    let text = smd_apps::trace::workload("workload-1").unwrap();
    let mut arrivals = smd_apps::trace::parse(text).unwrap();
    arrivals.truncate(n);
    let m = smd_apps::machines::machine_type("t4x4").unwrap();
    let cluster = smd_core::scenario::Cluster::of_machines(
        vec![smd_apps::machines::group(m, machines)],
        m.capacity,
    );
    let mut s = smd_apps::trace::scenario_as(&arrivals, cluster, smd_web::state::PAGE_ARCHITECTURE)
        .unwrap();
    s.params = params.clone();
    s
}

impl Mounted {
    /// Opens the over-time view and chooses the first `arrivals` of workload-1 on
    /// `machines` machines.
    async fn over_time_workload(&self, arrivals: &str, machines: &str) {
        self.click("[role=tab][data-view=over-time]");
        self.until("the over-time view", |m| {
            m.count("[data-testid=over-time]") == 1
        })
        .await;
        self.click("[data-field='over-time.source'][value=workload]");
        self.until("the workload form", |m| {
            m.count("[data-field='over-time.count']") == 1
        })
        .await;
        self.type_into("[data-field='over-time.arrivals']", arrivals);
        self.type_into("[data-field='over-time.count']", machines);
    }
}

/// Lets the page render (microtasks only: the in-thread solver waits for a timer).
async fn microtasks(k: usize) {
    for _ in 0..k {
        let p = js_sys::Promise::resolve(&wasm_bindgen::JsValue::NULL);
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
}

#[wasm_bindgen_test]
async fn a_workload_over_time_shows_the_metrics_and_charts_of_every_policy() {
    let draft = coarse();
    let m = Mounted::new(props(Some(draft.clone())));
    m.planned(2).await;
    m.over_time_workload("20", "4").await;
    assert_eq!(m.value("[data-field='over-time.arrivals']"), "20");
    let checked = m.all("[data-sim-policy]");
    assert_eq!(checked.len(), smd_sim::SimPolicy::ALL.len());
    // Every policy that applies: gavel does not, workload-1's imagenet-11 asking for more
    // GPUs (32) than the 16 T4s.
    let applies = smd_sim::SimPolicy::all_for(&workload(20, 4.0, &draft.params));
    assert!(!applies.contains(&smd_sim::SimPolicy::Gavel));
    let t0 = smd_web::solver::now_ms();
    m.click("[data-testid=over-time-run]");
    m.until("the runs", |m| {
        m.count("[data-testid=over-time-metrics] tbody tr") == applies.len()
    })
    .await;
    console_log!(
        "20 arrivals on 4 machines, {} policies in-thread: {:.1} s",
        applies.len(),
        (smd_web::solver::now_ms() - t0) / 1000.0
    );
    for p in smd_sim::SimPolicy::ALL {
        assert_eq!(
            m.count(&format!(
                "[data-testid=over-time-metrics] tr[data-policy={}]",
                p.name()
            )),
            usize::from(applies.contains(&p)),
            "{p}"
        );
    }
    // Every chart with its SVG and PNG downloads.
    assert_eq!(m.count("#over-time [data-action=chart-svg]"), 4);
    assert_eq!(m.count("#over-time [data-action=chart-png]"), 4);
    for id in ["timeline-chart", "usage-chart", "jct-cdf", "utility-bound"] {
        assert_eq!(m.count(&format!("svg[data-testid={id}]")), 1, "{id}");
    }
    // The table's answer in words, with the longest p95 wait, whose column the table has.
    let verdict = m.text("[data-testid=over-time-verdict]");
    assert!(verdict.starts_with("Shortest mean JCT: "), "{verdict}");
    assert!(verdict.contains("; longest p95 wait: "), "{verdict}");
    let heads: Vec<String> = m
        .all("[data-testid=over-time-metrics] thead th")
        .iter()
        .map(|h| h.text_content().unwrap_or_default())
        .collect();
    assert!(heads.iter().any(|h| h == "p95 queue"), "{heads:?}");
    assert_eq!(
        m.count("[data-testid=over-time-metrics] tbody td[data-testid=p95-queue]"),
        applies.len()
    );
    // An export after the workload's load changes nothing: its message offers no Undo.
    m.click("[data-testid=export-csv]");
    m.until("the export's message", |m| {
        let t = m.text("[data-testid=notice]");
        t.starts_with("Exported") || t.starts_with("Download failed")
    })
    .await;
    assert_eq!(
        m.count("[data-action=undo]"),
        0,
        "the export undoes nothing"
    );
    assert_eq!(m.count("[data-testid=over-time-progress]"), 0);
    // The page's fifo run is the native one.
    let s = workload(20, 4.0, &draft.params);
    let fifo = smd_sim::simulate(
        &s,
        smd_sim::SimPolicy::Fifo,
        &mut smd_sim::Options::default(),
    )
    .unwrap();
    assert_eq!(
        m.text("[data-testid=over-time-metrics] tr[data-policy=fifo] td.strong"),
        smd_format::amount(fifo.metrics.total_utility)
    );
    // The workload is the draft now: the summary says so, with its machines.
    assert!(m
        .text("[data-testid=over-time-summary]")
        .starts_with("the draft: 20 jobs on 4 × t4x4 machines"));
    // The timeline shows smd's run, a row per job; another policy's on request.
    let timeline = m.one("svg[data-testid=timeline-chart]");
    assert_eq!(
        timeline.get_attribute("data-policy").as_deref(),
        Some("smd")
    );
    assert_eq!(m.count("svg[data-testid=timeline-chart] g.job-row"), 20);
    m.select("[data-testid=timeline-policy]", "fifo");
    m.until("fifo's timeline", |m| {
        m.one("svg[data-testid=timeline-chart]")
            .get_attribute("data-policy")
            .as_deref()
            == Some("fifo")
    })
    .await;
    assert_eq!(
        m.count("svg[data-testid=timeline-chart] rect.segment"),
        fifo.jobs.iter().map(|j| j.segments.len()).sum::<usize>()
    );
    // Why is a job waiting: its history and reason.
    let last = &fifo.jobs[19];
    m.select("[data-testid=over-time-job]", &last.id);
    m.until("the job's history", |m| {
        m.one("[data-testid=over-time-history]")
            .get_attribute("data-job")
            .as_deref()
            == Some(last.id.as_str())
    })
    .await;
    if let Some(w) = &last.waiting {
        assert_eq!(&m.text("[data-testid=over-time-waiting]"), w);
    }
    assert_eq!(
        m.count("[data-testid=over-time-segments] tbody tr"),
        last.segments.len()
    );
    assert_eq!(
        m.count("svg[data-testid=timeline-chart] g.job-row.highlight"),
        1
    );
    assert_eq!(m.count("[data-testid=error]"), 0);
}

#[wasm_bindgen_test]
async fn a_bad_count_is_named_and_kept() {
    let m = Mounted::new(props(Some(coarse())));
    m.planned(2).await;
    m.over_time_workload("20", "lots").await;
    m.click("[data-testid=over-time-run]");
    m.until("the message", |m| {
        m.text("[data-testid=error]").contains("must be a number")
    })
    .await;
    assert_eq!(m.value("[data-field='over-time.count']"), "lots");
    assert_eq!(m.count("[data-testid=over-time-progress]"), 0);
}

#[wasm_bindgen_test]
async fn cancel_stops_a_simulation() {
    let m = Mounted::new(props(Some(coarse())));
    m.planned(2).await;
    m.over_time_workload("40", "4").await;
    m.click("[data-testid=over-time-run]");
    // The in-thread run starts after a timer: Cancel before it.
    for _ in 0..50 {
        if m.count("[data-testid=over-time-cancel]") == 1 {
            break;
        }
        microtasks(1).await;
    }
    assert_eq!(
        m.count("[data-testid=over-time-cancel]"),
        1,
        "the Cancel button"
    );
    assert!(m
        .one("[data-testid=over-time-run]")
        .has_attribute("disabled"));
    m.click("[data-testid=over-time-cancel]");
    m.until("the run stopped", |m| {
        m.count("[data-testid=over-time-progress]") == 0
    })
    .await;
    assert!(m
        .text("[data-testid=notice]")
        .contains("Simulation cancelled"));
    assert!(!m
        .one("[data-testid=over-time-run]")
        .has_attribute("disabled"));
    // Nothing arrives later: the cancelled run never ran.
    yew::platform::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(m.count("[data-testid=over-time-metrics]"), 0);
    assert_eq!(m.count("[data-testid=over-time-error]"), 0);
    // The workload was loaded into the draft (one cluster for every view), with Undo.
    assert_eq!(
        m.value("[data-field='over-time.source'][value=draft]"),
        "draft"
    );
    assert!(m
        .text("[data-testid=over-time-cluster]")
        .contains("40 jobs on 4 × t4x4 machines"));
    // The page still works: a small run after the cancel.
    m.click("[data-field='over-time.source'][value=workload]");
    m.until("the workload form", |m| {
        m.count("[data-field='over-time.arrivals']") == 1
    })
    .await;
    m.type_into("[data-field='over-time.arrivals']", "3");
    for p in smd_sim::SimPolicy::ALL {
        if !matches!(p, smd_sim::SimPolicy::Fifo | smd_sim::SimPolicy::Bound) {
            m.click(&format!("[data-sim-policy={}]", p.name()));
        }
    }
    m.click("[data-testid=over-time-run]");
    m.until("the runs", |m| {
        m.count("[data-testid=over-time-metrics] tbody tr") == 2
    })
    .await;
}

/// Pollux in wasm is the native run, bit for bit in its JCTs (docs/MODEL.md §23): the
/// native test `pollux_sums_to_the_same_jcts_as_in_wasm` (crates/smd-sim/tests/measured.rs)
/// asserts the same sum.
#[wasm_bindgen_test]
fn pollux_runs_the_same_in_the_browser() {
    let s = workload(20, 4.0, &Default::default());
    let run = smd_sim::simulate(
        &s,
        smd_sim::SimPolicy::Pollux,
        &mut smd_sim::Options::default(),
    )
    .unwrap();
    let total: f64 = run.jobs.iter().filter_map(|j| j.jct_s).sum();
    assert_eq!(total, 81_421.0);
}

/// Side by side simulates both scenarios over time with the policy Over time shows (smd):
/// their mean JCT, p95 JCT and mean wait are those of Over time's row for the same
/// scenario.
#[wasm_bindgen_test]
async fn side_by_side_over_time_shows_the_jcts_over_time_shows() {
    let m = Mounted::new(props(Some(coarse())));
    m.planned(2).await;
    m.over_time_workload("12", "4").await;
    for p in smd_sim::SimPolicy::ALL {
        if !matches!(p, smd_sim::SimPolicy::Smd | smd_sim::SimPolicy::Fifo) {
            m.click(&format!("[data-sim-policy={}]", p.name()));
        }
    }
    m.click("[data-testid=over-time-run]");
    m.until("the runs", |m| {
        m.count("[data-testid=over-time-metrics] tbody tr") == 2
    })
    .await;
    let row = "[data-testid=over-time-metrics] tr[data-policy=smd]";
    let want_mean = m
        .one(&format!("{row} [data-testid=mean-jct]"))
        .get_attribute("data-value")
        .unwrap();
    let want_p95 = m.text(&format!("{row} [data-testid=p95-jct]"));
    let want_wait = m.text(&format!("{row} [data-testid=mean-queue]"));
    assert!(!want_mean.is_empty());
    m.click("[role=tab][data-view=compare]");
    m.until("Side by side", |m| m.count("#side-by-side") == 1)
        .await;
    assert_eq!(m.value("[data-field='compare.policy']"), "smd");
    m.click("[data-testid=compare-over-time-run]");
    m.until("both sides over time", |m| {
        m.count("[data-testid=compare-over-time-table] tr[data-side] [data-testid=mean-jct]") == 2
    })
    .await;
    assert_eq!(m.count("[data-testid=compare-over-time-progress]"), 0);
    for side in ["a", "b"] {
        let tr = format!("[data-testid=compare-over-time-table] tr[data-side={side}]");
        assert_eq!(
            m.one(&format!("{tr} [data-testid=mean-jct]"))
                .get_attribute("data-value")
                .unwrap(),
            want_mean,
            "{side}"
        );
        assert_eq!(
            m.text(&format!("{tr} [data-testid=p95-jct]")),
            want_p95,
            "{side}"
        );
        assert_eq!(
            m.text(&format!("{tr} [data-testid=mean-wait]")),
            want_wait,
            "{side}"
        );
    }
    // The same scenario twice: B − A is nothing.
    assert_eq!(
        m.text("[data-testid=compare-over-time-table] tr[data-side=delta] td.num"),
        "+0.0 s"
    );
}

/// The first 12 jobs of the Sia artifact's philly-1 on 4 × t4x4, 1 × a100x8 and
/// 1 × rtx2080tix8: the scenario of the native check `sia_and_gavel_sum_to_the_same_jcts_as_in_wasm`
/// (crates/smd-sim/tests/measured.rs).
fn small_mix() -> Scenario {
    smd_apps::trace::workload_on_mix("philly-1", 12, "t4x4=4,a100x8=1,rtx2080tix8=1").unwrap()
}

/// Sia and Gavel are the same runs in wasm as natively: on the small mix their JCTs sum to
/// what the native test `sia_and_gavel_sum_to_the_same_jcts_as_in_wasm` asserts.
#[wasm_bindgen_test]
fn sia_and_gavel_run_the_same_in_the_browser() {
    let s = small_mix();
    let sums: Vec<f64> = [smd_sim::SimPolicy::Sia, smd_sim::SimPolicy::Gavel]
        .into_iter()
        .map(|p| {
            let run = smd_sim::simulate(&s, p, &mut smd_sim::Options::default()).unwrap();
            run.jobs.iter().filter_map(|j| j.jct_s).sum()
        })
        .collect();
    assert_eq!(sums, [42_729.0, 128_758.0]);
}

/// Over time on a mix of GPU types offers the heterogeneity-aware policies; under the
/// table each says how often it decided and how long its decisions took (sia also how
/// many it proved the best), and a job's segments — in its history and the timeline's
/// tooltips — name the GPUs by type and machine, `8 × A100 on a100x8-0`.
#[wasm_bindgen_test]
async fn over_time_on_a_mix_names_the_gpu_types_and_the_decision_times() {
    let s = small_mix();
    let m = Mounted::new(props(Some(s.clone())));
    m.until("the tabs", |m| {
        m.count("[role=tab][data-view=over-time]") == 1
    })
    .await;
    m.click("[role=tab][data-view=over-time]");
    m.until("the over-time view", |m| {
        m.count("[data-testid=over-time]") == 1
    })
    .await;
    let offered: Vec<String> = m
        .all("[data-sim-policy]")
        .iter()
        .filter_map(|e| e.get_attribute("data-sim-policy"))
        .collect();
    for p in ["sia", "gavel", "pollux_unaware"] {
        assert!(offered.iter().any(|o| o == p), "{p} in {offered:?}");
    }
    for p in smd_sim::SimPolicy::ALL {
        if !matches!(p, smd_sim::SimPolicy::Sia | smd_sim::SimPolicy::Gavel) {
            m.click(&format!("[data-sim-policy={}]", p.name()));
        }
    }
    m.click("[data-testid=over-time-run]");
    m.until("the runs", |m| {
        m.count("[data-testid=over-time-metrics] tbody tr") == 2
    })
    .await;
    // The decisions, in words, with their times through the page's formatter.
    let sia = m.text("[data-testid=over-time-decisions] li[data-policy=sia]");
    let gavel = m.text("[data-testid=over-time-decisions] li[data-policy=gavel]");
    assert!(sia.starts_with("sia decided "), "{sia}");
    for part in [
        "(median)",
        "(95th percentile)",
        "at most",
        "proven the best allocation",
    ] {
        assert!(sia.contains(part), "{part}: {sia}");
    }
    assert!(sia.contains(" ms"), "{sia}");
    assert!(
        gavel.starts_with("gavel decided ") && gavel.contains("(median)"),
        "{gavel}"
    );
    assert!(!gavel.contains("proven"), "{gavel}");
    // A job of sia's that ran on another type than the T4: its segments say where.
    let native = smd_sim::simulate(
        &s,
        smd_sim::SimPolicy::Sia,
        &mut smd_sim::Options::default(),
    )
    .unwrap();
    let on = |j: &smd_sim::JobRun, label: &str| {
        j.segments.iter().any(|g| {
            g.placement
                .iter()
                .flatten()
                .any(|p| s.cluster.gpu_type_of(&p.machine).map(|t| t.label()) == Some(label))
        })
    };
    let job = native
        .jobs
        .iter()
        .find(|j| on(j, "A100"))
        .or_else(|| native.jobs.iter().find(|j| on(j, "RTX 2080 Ti")))
        .expect("a job off the T4s");
    m.select("[data-testid=over-time-job]", &job.id);
    m.until("the job's history", |m| {
        m.one("[data-testid=over-time-history]")
            .get_attribute("data-job")
            .as_deref()
            == Some(job.id.as_str())
    })
    .await;
    let cells: Vec<String> = m
        .all("[data-testid=over-time-segments] tbody tr td:last-child")
        .iter()
        .map(|c| c.text_content().unwrap_or_default())
        .collect();
    let want: Vec<String> = job
        .segments
        .iter()
        .map(|g| smd_core::plan::placement_words(&s.cluster, g.placement.as_deref().unwrap(), 1.0))
        .collect();
    assert_eq!(cells, want);
    assert!(
        cells
            .iter()
            .any(|c| c.contains(" × A100 on a100x8-0")
                || c.contains(" × RTX 2080 Ti on rtx2080tix8-0")),
        "{cells:?}"
    );
    let tips: Vec<String> = m
        .all(&format!(
            "svg[data-testid=timeline-chart] g.job-row[data-job='{}'] rect.segment title",
            job.id
        ))
        .iter()
        .map(|t| t.text_content().unwrap_or_default())
        .collect();
    assert_eq!(tips.len(), want.len());
    for (tip, w) in tips.iter().zip(&want) {
        assert!(tip.starts_with(&format!("{}: {w} from ", job.id)), "{tip}");
    }
}
