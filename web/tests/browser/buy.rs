//! What to buy on the page (a part of `browser.rs`, with its helpers): a grid of mixes of
//! the first jobs of the Philly workload answered as `smd_sweep` answers it natively, its
//! map with a cell per mix, the link that reopens and answers again, Cancel, a bad grid.

use super::*;
use smd_sim::SimPolicy;
use smd_sweep::{Metric, Minimize, MixSearch, MixSpec, Options, Question};

/// The first `n` jobs of the bundled Philly workload on one t4x4 machine.
fn philly(n: usize) -> Scenario {
    smd_apps::trace::workload_on_mix("philly-1", n, "t4x4=1").unwrap()
}

impl Mounted {
    /// Opens the sweep view, where What to buy is.
    async fn buy_view(&self) {
        self.until("the tabs", |m| m.count("[role=tab][data-view=sweep]") == 1)
            .await;
        self.click("[role=tab][data-view=sweep]");
        self.until("What to buy", |m| m.count("[data-testid=buy]") == 1)
            .await;
    }
}

const GRID: &str = "t4x4=0:4:2,a100x8=0:2";

#[wasm_bindgen_test]
async fn what_to_buy_answers_as_smd_sweep_does_and_its_link_answers_again() {
    let s = philly(24);
    let m = Mounted::new(props(Some(s.clone())));
    m.buy_view().await;
    // The default grid: the draft's one group, from none to 4 machines.
    assert_eq!(m.value("[data-field='buy.grid']"), "t4x4=0:4");
    assert_eq!(m.value("[data-field='buy.policy']"), "sia");
    assert_eq!(m.value("[data-field='buy.minimize']"), "cost");
    m.type_into("[data-field='buy.grid']", GRID);
    m.type_into("[data-field='buy.goal']", "2h");
    let t0 = smd_web::solver::now_ms();
    m.click("[data-testid=buy-run]");
    m.until("the answer", |m| m.count("[data-testid=buy-answer]") == 1)
        .await;
    console_log!(
        "What to buy, 9 mixes of 24 jobs in-thread: {:.2} s",
        (smd_web::solver::now_ms() - t0) / 1000.0
    );
    assert_eq!(m.count("[data-testid=buy-progress]"), 0);
    // The sentence is smd_sweep's, computed here natively on the same input.
    let question = Question {
        metric: Metric::MeanJct,
        policy: SimPolicy::Sia,
        goal: Some(7200.0),
        budget: None,
        minimize: Minimize::Cost,
        every: false,
    };
    let search = MixSearch::new(&s, MixSpec::parse(GRID).unwrap(), question).unwrap();
    let native = search.run(&s, &mut Options::default()).unwrap();
    assert_eq!(m.text("[data-testid=buy-answer]"), native.answer);
    assert!(native.best.is_some(), "{}", native.answer);
    // The map: a cell per mix of the grid, the skipped ones labelled, the answer once.
    assert_eq!(m.count("svg[data-testid=mix-map] g.mix-cell"), 9);
    assert_eq!(
        m.count("svg[data-testid=mix-map] g.mix-cell[data-state=skipped]"),
        native.skipped
    );
    assert_eq!(m.count("svg[data-testid=mix-map] g.best"), 1);
    let best = native.best.as_ref().unwrap().index.to_string();
    assert_eq!(
        m.one("svg[data-testid=mix-map] g.best")
            .get_attribute("data-index"),
        Some(best.clone())
    );
    for p in &native.points {
        let cell = m.one(&format!(
            "svg[data-testid=mix-map] g.mix-cell[data-index='{}']",
            p.index
        ));
        assert_eq!(
            cell.get_attribute("data-value")
                .unwrap()
                .parse::<f64>()
                .ok(),
            p.value
        );
    }
    // The frontier: its points joined, the answer marked.
    let line = m.one("svg[data-testid=mix-frontier] polyline.frontier");
    assert_eq!(
        line.get_attribute("data-points"),
        Some(native.frontier.len().to_string())
    );
    assert_eq!(m.count("svg[data-testid=mix-frontier] g.best"), 1);
    // The table: a row per mix evaluated.
    assert_eq!(
        m.count("[data-testid=buy-table] tbody tr"),
        native.evaluated
    );
    assert_eq!(m.count("#buy [data-testid=error]"), 0);

    // The answer's link reopens the form and answers again.
    m.click("[data-testid=buy-link]");
    m.until("the link", |m| m.count("[data-testid=buy-link-text]") == 1)
        .await;
    let url = m.value("[data-testid=buy-link-text]");
    let link_hash = url.split_once('#').unwrap().1.to_owned();
    drop(m);
    set_hash(&format!("#{link_hash}"));
    let again = Mounted::new(AppProps {
        read_link: true,
        ..props(None)
    });
    again
        .until("the answer again", |m| {
            m.count("[data-testid=buy-answer]") == 1
        })
        .await;
    assert_eq!(again.value("[data-field='buy.grid']"), GRID);
    assert_eq!(again.value("[data-field='buy.goal']"), "2h");
    assert_eq!(again.text("[data-testid=buy-answer]"), native.answer);
    assert!(!hash().contains("v="), "the link's settings are consumed");
    drop(again);
    set_hash("");
}

#[wasm_bindgen_test]
async fn cancel_stops_what_to_buy() {
    let m = Mounted::new(props(Some(philly(24))));
    m.buy_view().await;
    // 85 mixes, every one: far longer than the test waits.
    m.type_into("[data-field='buy.grid']", "t4x4=0:16,a100x8=0:4");
    m.select("[data-field='buy.minimize']", "metric");
    m.click("[data-field='buy.every']");
    m.click("[data-testid=buy-run]");
    m.until("a mix done", |m| {
        m.all("[data-testid=buy-progress]")
            .first()
            .and_then(|p| p.get_attribute("data-done"))
            .is_some_and(|d| d != "0")
    })
    .await;
    assert!(m.one("[data-testid=buy-run]").has_attribute("disabled"));
    assert!(
        m.one("[data-testid=sweep-run]").has_attribute("disabled"),
        "one search at a time on the pool"
    );
    m.click("[data-testid=buy-cancel]");
    m.until("the search stopped", |m| {
        m.count("[data-testid=buy-progress]") == 0
    })
    .await;
    assert!(m
        .text("[data-testid=notice]")
        .contains("What to buy cancelled"));
    let cancelled = m.text("[data-testid=buy-cancelled]");
    assert!(cancelled.contains("of 85 mixes"), "{cancelled}");
    assert!(!m.one("[data-testid=buy-run]").has_attribute("disabled"));
    yew::platform::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(m.count("[data-testid=buy-answer]"), 0);
    assert_eq!(m.text("[data-testid=buy-cancelled]"), cancelled);
}

#[wasm_bindgen_test]
async fn a_bad_grid_keeps_the_typed_text_with_its_message() {
    let s = philly(6);
    let m = Mounted::new(props(Some(s.clone())));
    m.buy_view().await;
    m.type_into("[data-field='buy.grid']", "t4x4=0:4,,a100x8=1");
    m.type_into("[data-field='buy.goal']", "2h");
    m.click("[data-testid=buy-run]");
    m.until("the message", |m| {
        m.text("#buy [data-testid=error]")
            .contains("an entry is empty")
    })
    .await;
    assert_eq!(m.value("[data-field='buy.grid']"), "t4x4=0:4,,a100x8=1");
    assert_eq!(
        m.one("[data-field='buy.grid']")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(m.count("[data-testid=buy-progress]"), 0);
    // A type that is neither in the catalog nor a group of the draft.
    m.type_into("[data-field='buy.grid']", "h100x8=0:2");
    m.click("[data-testid=buy-run]");
    m.until("the message", |m| {
        m.text("#buy [data-testid=error]")
            .contains("unknown machine type")
    })
    .await;
    assert_eq!(m.value("[data-field='buy.grid']"), "h100x8=0:2");
    // The cheapest mix without a goal: the goal's message, at the goal.
    m.type_into("[data-field='buy.grid']", GRID);
    m.type_into("[data-field='buy.goal']", "");
    m.click("[data-testid=buy-run]");
    m.until("the goal's message", |m| {
        m.one("[data-field='buy.goal']")
            .get_attribute("aria-invalid")
            .as_deref()
            == Some("true")
    })
    .await;
    assert!(m.text("#buy [data-testid=error]").contains("needs a goal"));
    // The draft is untouched.
    m.click("[role=tab][data-view=plan]");
    m.until("the plan view", |m| m.count("[data-testid=job-row]") == 6)
        .await;
}

/// The same answer natively and in wasm: the first 12 jobs of philly-1 on the grid
/// `t4x4=0:2,a100x8=0:1` under sia answer here what
/// `crates/smd-sweep/tests/mix.rs::the_answer_is_the_same_as_in_wasm` pins natively.
#[wasm_bindgen_test]
fn what_to_buy_answers_as_natively() {
    let s = philly(12);
    let question = Question {
        metric: Metric::MeanJct,
        policy: SimPolicy::Sia,
        goal: Some(7200.0),
        budget: None,
        minimize: Minimize::Cost,
        every: true,
    };
    let r = MixSearch::new(&s, MixSpec::parse("t4x4=0:2,a100x8=0:1").unwrap(), question)
        .unwrap()
        .run(&s, &mut Options::default())
        .unwrap();
    assert_eq!(
        r.answer,
        "The cheapest mix with mean JCT ≤ 2.00 h under sia: 1 × a100x8 at $21.96/h (mean JCT 71.6 min). t4x4 alone does not qualify up to 2 machines. 5 of the 6 evaluated are on the cost–mean JCT frontier (no other is both cheaper and better), from 1 × t4x4 at $3.91/h (mean JCT 9.80 h) to 2 × t4x4 + 1 × a100x8 at $29.78/h (mean JCT 59.9 min). Evaluated 6 of 6 mixes."
    );
}
