//! Scenarios side by side on the page (a part of `browser.rs`, with its helpers): save the
//! draft twice under names, compare them — each side's utilities equal native plans, the
//! differences name the edited input —, the saved list survives a reload, export and
//! import, and a share link carries both scenarios.

use super::*;

impl Mounted {
    async fn show_view(&self, view: &str) {
        self.click(&format!("[role=tab][data-view={view}]"));
        let probe = match view {
            "compare" => "#side-by-side",
            _ => "[data-testid=plan-table]",
        };
        self.until(view, |m| m.count(probe) == 1).await;
    }

    async fn save_as(&self, name: &str) {
        self.type_into("[data-field='compare.name']", name);
        self.click("[data-testid=save-scenario]");
        let sel = format!("[data-saved='{name}']");
        self.until("the saved scenario", |m| m.count(&sel) == 1)
            .await;
    }
}

#[wasm_bindgen_test]
async fn two_saved_scenarios_side_by_side_with_their_differences() {
    let key = format!("smd-test/compare-{}", smd_web::solver::now_ms());
    let mut p = props(Some(scenario(3, 1)));
    p.storage_key = Some(AttrValue::from(key.clone()));
    let m = Mounted::new(p.clone());
    m.planned(3).await;
    m.show_view("compare").await;
    // A name is needed.
    m.click("[data-testid=save-scenario]");
    m.until("the name message", |m| {
        m.text("#side-by-side [data-testid=error]").contains("name")
    })
    .await;
    m.save_as("first").await;
    m.show_view("plan").await;
    m.type_into("[data-field='params.epsilon']", "0.3");
    m.until("ε 0.3 planned", |m| {
        m.value("[data-field='params.epsilon']") == "0.3" && m.count("[data-testid=error]") == 0
    })
    .await;
    m.show_view("compare").await;
    m.save_as("second").await;
    m.select("[data-field='compare.a']", "first");
    m.select("[data-field='compare.b']", "second");
    m.click("[data-testid=compare-run]");
    m.until("the comparison", |m| {
        m.count("[data-testid=compare-side-by-side]") == 1
    })
    .await;
    // The best plan's admitted column has a header one sees.
    for side in ["a", "b"] {
        let th = m.one(&format!("[data-side={side}] [data-testid=admitted-header]"));
        assert_eq!(th.text_content().as_deref(), Some("admitted"));
        assert_eq!(th.query_selector(".visually-hidden").unwrap(), None);
    }
    // Each side's utility per policy is the native plan's.
    let first = scenario(3, 1);
    let mut second = first.clone();
    second.params.epsilon = 0.3;
    for (side, s) in [("a", &first), ("b", &second)] {
        for &policy in smd_web::state::page_policies(&s.cluster) {
            if policy == Policy::Global {
                continue; // its search has a wall-clock budget; the others are exact
            }
            let want = smd_core::plan_with(s, policy, &mut smd_core::Options::default()).unwrap();
            let got = m.text(&format!(
                "[data-side={side}] tr[data-policy={}] [data-testid=side-utility]",
                policy.name()
            ));
            assert_eq!(got, format!("{:.3}", want.total_utility), "{side} {policy}");
        }
    }
    // The differences: exactly ε.
    let paths: Vec<String> = m
        .all("[data-testid=compare-diff] tr[data-path]")
        .iter()
        .filter_map(|e| e.get_attribute("data-path"))
        .collect();
    assert_eq!(paths, ["params.epsilon"]);
    // B against A, policy by policy: B − A of the utility as planned natively.
    let plan = |s: &smd_core::Scenario| {
        smd_core::plan_with(s, Policy::Smd, &mut smd_core::Options::default()).unwrap()
    };
    let delta: f64 = m
        .one("[data-testid=compare-delta] tr[data-policy=smd] [data-testid=delta-utility]")
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        delta,
        plan(&second).total_utility - plan(&first).total_utility
    );
    assert_eq!(
        m.text("[data-testid=compare-diff-title]"),
        "What differs (1 input)"
    );
    // "Share both" copies the view's link — both scenarios with their names, run on open —
    // and says so.
    let shared = m
        .one("[data-testid=compare-link]")
        .get_attribute("data-link")
        .unwrap();
    let shared = smd_web::state::link::ViewLink::parse(shared.split_once('#').unwrap().1)
        .unwrap()
        .unwrap();
    assert!(shared.run);
    let pair = shared.compare.unwrap();
    assert_eq!(pair.a.map(|a| a.name), Some("first".to_owned()));
    assert_eq!(
        (pair.b.name.as_str(), &pair.b.scenario),
        ("second", &second)
    );
    m.click("[data-testid=compare-link]");
    m.until("the link's confirmation", |m| {
        m.text("[data-testid=notice]")
            .contains("Link copied: it opens A “first” and B “second”")
    })
    .await;
    // The view's link carries both with their names, and reopens the comparison run.
    m.click("[data-testid=view-link]");
    m.until("the view's link", |m| {
        m.count("[data-testid=view-link-text]") == 1
    })
    .await;
    let link = m.value("[data-testid=view-link-text]");
    let view_hash = link.split_once('#').unwrap().1.to_owned();
    let settings = smd_web::state::link::ViewLink::parse(&view_hash)
        .unwrap()
        .unwrap();
    let both = settings.compare.unwrap();
    assert_eq!(both.a.as_ref().map(|a| a.name.as_str()), Some("first"));
    assert_eq!(
        (both.b.name.as_str(), &both.b.scenario),
        ("second", &second)
    );
    assert!(settings.run);
    set_hash(&format!("#{view_hash}"));
    let reopened = Mounted::new(AppProps {
        read_link: true,
        ..props(None)
    });
    reopened
        .until("the comparison reopened and run", |m| {
            m.count("[data-testid=compare-side-by-side]") == 1
        })
        .await;
    let heads: Vec<String> = reopened
        .all("[data-side] h3")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert_eq!(heads, ["A — first", "B — second"]);
    assert_eq!(
        reopened.text("[data-side=b] tr[data-policy=smd] [data-testid=side-utility]"),
        m.text("[data-side=b] tr[data-policy=smd] [data-testid=side-utility]")
    );
    drop(reopened);
    set_hash("");
    // Export, delete, import.
    m.click("[data-testid=export-saved]");
    m.until("the export", |m| {
        !m.value("[data-field='compare.text']").is_empty()
    })
    .await;
    let text = m.value("[data-field='compare.text']");
    assert!(
        text.contains("\"first\"") && text.contains("\"second\""),
        "{text}"
    );
    m.click("[data-saved='first'] button");
    m.until("first deleted", |m| m.count("[data-saved='first']") == 0)
        .await;
    m.click("[data-testid=import-saved]");
    m.until("first imported", |m| m.count("[data-saved='first']") == 1)
        .await;
    // A bad import keeps the text with its message.
    m.type_into("[data-field='compare.text']", "{\"scenarios\": 3}");
    m.click("[data-testid=import-saved]");
    m.until("the import message", |m| {
        m.text("#side-by-side [data-testid=error]")
            .contains("not a file of saved scenarios")
    })
    .await;
    assert_eq!(m.value("[data-field='compare.text']"), "{\"scenarios\": 3}");
    drop(m);
    // The saved list survives a reload (localStorage beside the draft).
    let again = Mounted::new(p);
    again.planned(3).await;
    again.show_view("compare").await;
    assert_eq!(again.count("[data-saved]"), 2);
    drop(again);
    if let Some(store) = web_sys::window().unwrap().local_storage().unwrap() {
        let _ = store.remove_item(&key);
        let _ = store.remove_item(&format!("{key}/saved-scenarios"));
    }
}
