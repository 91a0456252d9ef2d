//! The capacity sweep on the page (a part of `browser.rs`, with its helpers): a units sweep
//! of the default scenario equal to `smd_sweep` natively, Cancel, and a bad range.

use super::*;
use smd_sweep::{Axis, Options, Policies, Range, Spec};

impl Mounted {
    /// Opens the sweep view.
    async fn sweep_view(&self) {
        self.click("[role=tab][data-view=sweep]");
        self.until("the sweep view", |m| m.count("[data-testid=sweep]") == 1)
            .await;
    }

    /// `policy`'s total utility at each size of the table, ascending.
    fn sweep_utilities(&self, policy: &str) -> Vec<(f64, f64)> {
        self.all("[data-testid=sweep-table] tbody tr")
            .iter()
            .map(|row| {
                let size = row.get_attribute("data-size").unwrap().parse().unwrap();
                let cell = row
                    .query_selector(&format!("td[data-policy={policy}]"))
                    .unwrap()
                    .unwrap();
                let u = cell.get_attribute("data-utility").unwrap().parse().unwrap();
                (size, u)
            })
            .collect()
    }
}

fn units(range: &str) -> Spec {
    Spec {
        axis: Axis::Units,
        range: Range::parse(range).unwrap(),
        resource: None,
        machine_type: None,
        group: None,
    }
}

#[wasm_bindgen_test]
async fn a_units_sweep_of_the_default_scenario_is_monotone_and_native() {
    let m = Mounted::new(props(None));
    let default = smd_web::defaults::default_scenario();
    m.planned(default.jobs.len()).await;
    m.sweep_view().await;
    // The default sizes suit the draft: 20 around its one unit.
    assert_eq!(m.value("[data-field='sweep.range']"), "0.25:5:0.25");
    assert_eq!(
        m.count("[data-sweep-policy]"),
        Policy::for_cluster(&default.cluster).len()
    );
    assert_eq!(m.count("[data-field='sweep.over_time']"), 0, "no arrivals");
    m.type_into("[data-field='sweep.range']", "0.5:5:0.5");
    let t0 = smd_web::solver::now_ms();
    m.click("[data-testid=sweep-run]");
    m.until("the sweep's chart", |m| {
        m.count("svg[data-testid=sweep-chart]") == 1
    })
    .await;
    console_log!(
        "10 sizes × 5 policies of the default scenario in-thread: {:.2} s",
        (smd_web::solver::now_ms() - t0) / 1000.0
    );
    assert_eq!(m.count("[data-testid=sweep-progress]"), 0);
    assert_eq!(m.count("[data-testid=sweep-table] tbody tr"), 10);
    // global's utility never falls as the cluster grows (docs/MODEL.md §19).
    let global = m.sweep_utilities("global");
    let sizes: Vec<f64> = global.iter().map(|g| g.0).collect();
    assert_eq!(sizes, Range::parse("0.5:5:0.5").unwrap().values().unwrap());
    for w in global.windows(2) {
        assert!(
            w[1].1 >= w[0].1,
            "global falls from {:?} to {:?}",
            w[0],
            w[1]
        );
    }
    // Every number is smd_sweep's, computed here natively; so is the sentence.
    let spec = units("0.5:5:0.5");
    let policies = Policies::all(&default.cluster, false);
    let native = smd_sweep::sweep(&default, &spec, &policies, &mut Options::default()).unwrap();
    for k in [0, 3, 9] {
        let (_, o) = native.points[k]
            .policies
            .iter()
            .find(|(p, _)| *p == Policy::Global)
            .unwrap();
        assert_eq!(global[k].1, o.total_utility, "global at {}", sizes[k]);
    }
    let points = smd_sweep::points(&default, &spec).unwrap();
    let at = smd_sweep::scenario_at(&default, &points[3]).unwrap();
    let one = smd_sweep::evaluate(&points[3], &at, &policies, &mut Options::default()).unwrap();
    for (p, o) in &one.policies {
        assert_eq!(m.sweep_utilities(p.name())[3].1, o.total_utility, "{p}");
    }
    let answer = smd_sweep::answer(&native.knee);
    assert_eq!(
        m.text("[data-testid=sweep-knee]"),
        format!("Knee of utility: {answer}")
    );
    // The answer: total utility (no arrivals) under the best policy at the draft's 1 unit.
    let metric = smd_sweep::metric_answer(
        &native.points,
        smd_sweep::Metric::Utility,
        None,
        Some(1.0),
        false,
    )
    .unwrap();
    assert_eq!(m.text("[data-testid=sweep-answer]"), metric.answer);
    let chart = m.one("svg[data-testid=sweep-chart]");
    assert_eq!(
        chart.get_attribute("data-knee"),
        native.knee.size.map(|s| s.to_string())
    );
    assert_eq!(
        chart.get_attribute("data-best-policy").as_deref(),
        Some("global")
    );
    assert_eq!(m.count("svg[data-testid=sweep-chart] line.knee"), 1);
    for id in ["sweep-admitted", "sweep-use"] {
        assert_eq!(m.count(&format!("svg[data-testid={id}]")), 1, "{id}");
    }
    assert_eq!(m.count("[data-testid=error]"), 0);
}

#[wasm_bindgen_test]
async fn cancel_stops_a_long_sweep_and_the_page_still_plans() {
    let s = scenario(8, 2);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(8).await;
    m.sweep_view().await;
    // 200 sizes: far longer than the test waits.
    m.type_into("[data-field='sweep.range']", "0.05:10:0.05");
    m.click("[data-testid=sweep-run]");
    m.until("a size done", |m| {
        m.all("[data-testid=sweep-progress]")
            .first()
            .and_then(|p| p.get_attribute("data-done"))
            .is_some_and(|d| d != "0")
    })
    .await;
    assert!(m.one("[data-testid=sweep-run]").has_attribute("disabled"));
    m.click("[data-testid=sweep-cancel]");
    m.until("the sweep stopped", |m| {
        m.count("[data-testid=sweep-progress]") == 0
    })
    .await;
    assert!(m.text("[data-testid=notice]").contains("Sweep cancelled"));
    let cancelled = m.text("[data-testid=sweep-cancelled]");
    assert!(cancelled.contains("of 200 sizes"), "{cancelled}");
    assert!(!m.one("[data-testid=sweep-run]").has_attribute("disabled"));
    // Nothing of the partial sweep, now or later.
    yew::platform::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(m.count("svg[data-testid=sweep-chart]"), 0);
    assert_eq!(m.count("[data-testid=sweep-answer]"), 0);
    assert_eq!(m.text("[data-testid=sweep-cancelled]"), cancelled);
    // The page still plans: an edit in the Plan view is solved.
    m.click("[role=tab][data-view=plan]");
    m.until("the plan view", |m| {
        m.count("[data-field='cluster.units']") == 1
    })
    .await;
    let mut smaller = s.clone();
    smaller.cluster.units = 0.3;
    let expected = smd_total(&smaller);
    m.type_into("[data-field='cluster.units']", "0.3");
    m.until("the re-solved plan", |m| {
        m.text("[data-testid=total-utility]") == expected
    })
    .await;
    // And sweeps again: two sizes to the end.
    m.sweep_view().await;
    m.type_into("[data-field='sweep.range']", "0.5:1:0.5");
    m.click("[data-testid=sweep-run]");
    m.until("the sweep's chart", |m| {
        m.count("svg[data-testid=sweep-chart]") == 1
    })
    .await;
    assert_eq!(m.count("[data-testid=sweep-table] tbody tr"), 2);
    assert_eq!(m.count("[data-testid=sweep-cancelled]"), 0);
}

#[wasm_bindgen_test]
async fn a_bad_range_keeps_the_typed_text_with_its_message() {
    let m = Mounted::new(props(Some(scenario(3, 1))));
    m.planned(3).await;
    m.sweep_view().await;
    m.type_into("[data-field='sweep.range']", "5:1:1");
    m.click("[data-testid=sweep-run]");
    m.until("the message", |m| {
        m.text("#sweep [data-testid=error]") == "the stop (1) is below the start (5)"
    })
    .await;
    assert_eq!(m.value("[data-field='sweep.range']"), "5:1:1");
    assert_eq!(m.count("[data-testid=sweep-progress]"), 0);
    assert_eq!(
        m.one("[data-field='sweep.range']")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    // Machines must be whole: smd_sweep's own message.
    m.select("[data-field='sweep.axis']", "machines");
    m.until("the machines' default sizes", |m| {
        m.value("[data-field='sweep.range']") != "5:1:1"
    })
    .await;
    m.type_into("[data-field='sweep.range']", "1.5:4:1");
    m.click("[data-testid=sweep-run]");
    m.until("the message", |m| {
        m.text("#sweep [data-testid=error]")
            .contains("a machine count must be a whole number ≥ 1 (got 1.5)")
    })
    .await;
    assert_eq!(m.value("[data-field='sweep.range']"), "1.5:4:1");
}

#[wasm_bindgen_test]
async fn over_time_adds_its_charts_and_its_knee() {
    let mut s = scenario(3, 1);
    s.version = 2;
    s.params.epsilon = 0.1;
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.arrival_s = Some(600.0 * i as f64);
    }
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(3).await;
    m.sweep_view().await;
    // Jobs with arrivals ask about the mean JCT by default; total utility runs the static
    // plans, and over time beside them when asked.
    assert_eq!(m.value("[data-field='sweep.metric']"), "mean_jct");
    m.select("[data-field='sweep.metric']", "utility");
    m.until("the over-time box", |m| {
        m.count("[data-field='sweep.over_time']") == 1
    })
    .await;
    m.click("[data-field='sweep.over_time']");
    m.until("the policies over time", |m| {
        m.count("[data-sweep-sim-policy]") == smd_sim::SimPolicy::ALL.len()
    })
    .await;
    for p in ["optimus", "oasis", "locality"] {
        m.click(&format!("[data-sweep-sim-policy={p}]"));
    }
    m.type_into("[data-field='sweep.range']", "0.5:1:0.5");
    m.click("[data-testid=sweep-run]");
    m.until("the charts over time", |m| {
        m.count("svg[data-testid=sweep-over-time-chart]") == 1
    })
    .await;
    for id in ["sweep-chart", "sweep-jct", "sweep-queue"] {
        assert_eq!(m.count(&format!("svg[data-testid={id}]")), 1, "{id}");
    }
    use smd_sim::SimPolicy;
    let policies = Policies {
        planners: Policy::for_cluster(&s.cluster).to_vec(),
        over_time: vec![SimPolicy::Fifo, SimPolicy::Smd, SimPolicy::Bound],
    };
    let native =
        smd_sweep::sweep(&s, &units("0.5:1:0.5"), &policies, &mut Options::default()).unwrap();
    let k = native.over_time_knee.expect("a knee over time");
    assert_eq!(
        m.text("[data-testid=sweep-answer-over-time]"),
        format!("Knee over time: {}", smd_sweep::answer(&k))
    );
    assert_eq!(
        m.text("[data-testid=sweep-knee]"),
        format!("Knee of utility: {}", native.knee.answer)
    );
}

/// A range that leaves the draft's own size out: the answer names the size it compares
/// with (never silently the first swept), and every chart has its SVG and PNG downloads —
/// the SVG the chart itself, the PNG a picture the canvas encoded.
#[wasm_bindgen_test]
async fn the_answer_names_its_base_and_every_chart_downloads() {
    let mut s = scenario(4, 3);
    s.cluster.units = 1.0;
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(4).await;
    m.sweep_view().await;
    // The draft has 1 unit; the sweep starts at 2.
    m.type_into("[data-field='sweep.range']", "2:4:1");
    m.click("[data-testid=sweep-run]");
    m.until("the sweep's chart", |m| {
        m.count("svg[data-testid=sweep-chart]") == 1
    })
    .await;
    let answer = m.text("[data-testid=sweep-answer]");
    assert!(
        answer.ends_with(
            "The comparison is with 2 units, the smallest size swept: the sizes swept leave out your cluster's 1 unit."
        ),
        "{answer}"
    );
    let charts = m.count("#sweep svg.smd-sweep");
    assert!(charts >= 3, "{charts} charts");
    assert_eq!(m.count("#sweep [data-action=chart-svg]"), charts);
    assert_eq!(m.count("#sweep [data-action=chart-png]"), charts);
    let files: Vec<String> = m
        .all("#sweep [data-action=chart-svg]")
        .iter()
        .map(|b| b.get_attribute("data-file").unwrap())
        .collect();
    assert!(files.contains(&"sweep-chart.svg".to_owned()), "{files:?}");
    let svg = m.one("svg[data-testid=sweep-chart]").outer_html();
    let png = smd_web::components::chart::png_of(&svg).await.unwrap();
    assert_eq!(png.type_(), "image/png");
    assert!(png.size() > 1000.0, "{} bytes", png.size());
}
