//! Keyboard and names (a part of `browser.rs`, with its helpers): a policy row and a plan
//! row are reached with Tab and chosen with Enter or Space; every input of the Plan view has
//! an accessible name of its own ("cluster unit GPU", "instance GPU"), the Side by side
//! import text area too.

use super::*;

/// A key pressed on `el` (a `keydown` that bubbles, as a browser sends it).
pub(super) fn press(el: &Element, key: &str) {
    let f = js_sys::Function::new_with_args(
        "el, key",
        "el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))",
    );
    f.call2(&wasm_bindgen::JsValue::NULL, el, &key.into())
        .unwrap();
}

/// Focuses `el` and says whether it has the focus.
fn focus(el: &Element) -> bool {
    // (An SVG element is no HtmlElement: focus() through JS serves both.)
    js_sys::Function::new_with_args("el", "el.focus()")
        .call1(&wasm_bindgen::JsValue::NULL, el)
        .unwrap();
    document().active_element().as_ref() == Some(el)
}

#[wasm_bindgen_test]
async fn enter_or_space_on_a_focused_policy_row_shows_its_plan() {
    let s = scenario(6, 3);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(6).await;
    let row = |p: &str| m.one(&format!("[data-testid=policy-compare] tr[data-policy={p}]"));
    for p in ["smd", "esw", "exact", "global"] {
        assert_eq!(
            row(p).get_attribute("tabindex").as_deref(),
            Some("0"),
            "{p}"
        );
    }
    assert_eq!(
        row("smd").get_attribute("aria-selected").as_deref(),
        Some("true")
    );
    assert_eq!(
        row("esw").get_attribute("aria-selected").as_deref(),
        Some("false")
    );
    // Enter on esw's row: its plan.
    assert!(focus(&row("esw")), "esw's row takes the focus");
    press(&row("esw"), "Enter");
    let esw = total(&s, Policy::Esw);
    m.until("esw's plan", |m| {
        m.text("[data-testid=total-utility]") == esw
    })
    .await;
    assert_eq!(
        row("esw").get_attribute("aria-selected").as_deref(),
        Some("true")
    );
    assert_eq!(
        row("smd").get_attribute("aria-selected").as_deref(),
        Some("false")
    );
    // Space on exact's row.
    assert!(focus(&row("exact")));
    press(&row("exact"), " ");
    let exact = total(&s, Policy::Exact);
    m.until("exact's plan", |m| {
        m.text("[data-testid=total-utility]") == exact
    })
    .await;
    // Another key does nothing.
    press(&row("global"), "a");
    yew::platform::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(m.text("[data-testid=total-utility]"), exact);
    // A plan row: Enter selects its job.
    let rows = m.all("[data-testid=plan-row]");
    assert_eq!(rows[2].get_attribute("tabindex").as_deref(), Some("0"));
    assert!(focus(&rows[2]));
    press(&rows[2], "Enter");
    m.until("the third job selected", |m| {
        m.all("[data-testid=plan-row]")[2]
            .get_attribute("aria-selected")
            .as_deref()
            == Some("true")
    })
    .await;
    assert_eq!(
        m.all("[data-testid=plan-row]")[0]
            .get_attribute("aria-selected")
            .as_deref(),
        Some("false")
    );
}

/// An input's accessible name as the page gives it: its `aria-label`, else the text of
/// the label around it.
fn name_of(el: &Element) -> String {
    if let Some(n) = el.get_attribute("aria-label") {
        return n;
    }
    el.closest("label")
        .unwrap()
        .and_then(|l| l.query_selector(".label").unwrap().or(Some(l)))
        .and_then(|l| l.text_content())
        .unwrap_or_default()
        .trim()
        .to_owned()
}

#[wasm_bindgen_test]
async fn every_input_has_a_name_of_its_own() {
    let m = Mounted::new(props(Some(scenario(6, 3))));
    m.planned(6).await;
    let named = |f: &str| name_of(&m.one(&format!("[data-field='{f}']")));
    assert_eq!(named("cluster.unit.gpu"), "cluster unit GPU");
    assert_eq!(named("cluster.instance.gpu"), "instance GPU");
    assert_eq!(named("cluster.unit.vcpu"), "cluster unit vCPU");
    assert_eq!(named("cluster.instance.vcpu"), "instance vCPU");
    // Every input, select and text area of the Plan view, the folded algorithm settings
    // among them: a name, and no two alike.
    let mut names: Vec<(String, String)> = m
        .all("input:not([type=radio]):not([type=file]), select, textarea")
        .iter()
        .map(|e| {
            (
                name_of(e),
                e.get_attribute("data-field").unwrap_or_default(),
            )
        })
        .collect();
    assert!(names.len() > 20, "{names:?}");
    for (n, f) in &names {
        assert!(!n.is_empty(), "{f} has no name");
    }
    names.sort();
    let twice: Vec<_> = names
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| format!("{:?} ({} and {})", w[0].0, w[0].1, w[1].1))
        .collect();
    assert!(twice.is_empty(), "named alike: {twice:?}");
    // The algorithm's knobs are folded under "Algorithm settings", still on the page.
    let settings = m.one("[data-testid=algorithm-settings]");
    assert!(!settings.has_attribute("open"));
    assert!(settings
        .query_selector("[data-field='params.epsilon']")
        .unwrap()
        .is_some());
    // Side by side: the import text area has a label.
    m.click("[role=tab][data-view=compare]");
    m.until("Side by side", |m| {
        m.count("[data-field='compare.text']") == 1
    })
    .await;
    assert!(
        named("compare.text").starts_with("Saved scenarios as JSON"),
        "{}",
        named("compare.text")
    );
}

#[wasm_bindgen_test]
async fn a_jobs_mark_on_the_machine_map_is_chosen_with_enter() {
    use smd_core::scenario::{Cluster, MachineGroup, Placement};
    // As machines.rs's fixture: 5 jobs on 6 machines of half a cluster unit each.
    let mut s = scenario(5, 1);
    let unit = s.cluster.unit.scale(0.5);
    s.version = 2;
    s.cluster = Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "m".into(),
            count: 6.0,
            capacity: unit,
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: None,
        }],
        s.cluster.instance,
    );
    s.params.placement = Some(Placement::Locality);
    let m = Mounted::new(props(Some(s)));
    m.planned(5).await;
    m.click("[data-testid=policy-compare] tr[data-policy=esw]");
    m.until("the machine map's tab stops", |m| {
        m.count("[data-testid=machine-map] g.task[tabindex='0']") > 0
    })
    .await;
    let marks = m.all("[data-testid=machine-map] g.task[tabindex='0']");
    let jobs: Vec<String> = marks
        .iter()
        .map(|g| g.get_attribute("data-job").unwrap())
        .collect();
    let mut distinct = jobs.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), jobs.len(), "one tab stop per job: {jobs:?}");
    let last = marks.last().unwrap();
    assert_eq!(
        last.get_attribute("aria-label"),
        Some(format!("job {}: show it in the plan", jobs.last().unwrap()))
    );
    assert!(focus(last));
    press(last, "Enter");
    let want = jobs.last().unwrap().clone();
    m.until("the job selected in the plan", |m| {
        m.all("[data-testid=plan-row][aria-selected=true] td.id")
            .first()
            .and_then(|td| td.text_content())
            .is_some_and(|t| t.ends_with(&want))
    })
    .await;
}
