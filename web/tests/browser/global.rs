//! `global` on the page (a part of `browser.rs`, with its helpers): the recommended plan
//! with its proof status in the comparison, its plan and the landscape; its time budget.

use super::*;

/// What the page says of `global`'s plan: proven optimal, or within a gap of the optimum.
fn has_proof_status(text: &str) -> bool {
    text.contains("proven optimal") || text.contains("best found, within ")
}

#[wasm_bindgen_test]
async fn global_is_the_recommended_plan_with_its_proof_status() {
    let s = scenario(6, 3);
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(6).await;
    // In the comparison: the recommended plan, with its proof status and solve time.
    let badges = m.all("[data-testid=policy-compare] [data-testid=recommended-badge]");
    assert_eq!(badges.len(), 1);
    let row = badges[0].closest("tr").unwrap().unwrap();
    assert_eq!(row.get_attribute("data-policy").as_deref(), Some("global"));
    let line = m.text("[data-testid=recommended]");
    assert!(
        line.starts_with("Recommended plan: global — the best total utility ("),
        "{line}"
    );
    assert!(line.contains(", proven optimal; solved in "), "{line}");
    // Its plan, from the comparison's link: marked as the recommended plan.
    m.click("[data-action=show-recommended]");
    let global = total(&s, Policy::Global);
    m.until("global's plan", |m| {
        m.text("[data-testid=total-utility]") == global
    })
    .await;
    let mark = m.text("[data-testid=plan-recommended]");
    assert!(
        mark.contains("The recommended plan") && mark.contains("proven optimal"),
        "{mark}"
    );
    assert!(mark.contains("solved in"), "{mark}");
    assert_eq!(
        m.count("[data-action=show-recommended]"),
        0,
        "it is on screen"
    );
    // The landscape marks global's allocation of the selected job, like the others'.
    m.until("global's point in the landscape", |m| {
        m.count("[data-testid=landscape] svg .marker-global") >= 1
    })
    .await;
    // Another policy's plan points to the recommended one.
    m.click("[data-testid=policy-compare] tr[data-policy=esw]");
    m.until("esw's plan", |m| {
        m.text("[data-testid=plan-recommended]")
            .contains("The recommended plan is global's")
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_global_budget_rejects_bad_input_and_a_tiny_one_still_plans() {
    // 40 async jobs on 2 units, one of the ~1% of generated scenarios whose joint optimum
    // global's search does not prove within 20 s natively: the first solve ends at the
    // default 3 s budget, and a millisecond later still gives a plan with its gap.
    let mut s = generate(&GenerateOptions {
        jobs: 40,
        seed: 2,
        mode: smd_core::Mode::Async,
        units: 2.0,
    });
    s.params.epsilon = 0.2;
    let m = Mounted::new(props(Some(s.clone())));
    m.planned(40).await;
    assert!(has_proof_status(&m.text("[data-testid=recommended]")));
    let budget = "[data-field='page.global_budget_s']";
    assert_eq!(m.value(budget), "3", "3 s by default");
    let total = m.text("[data-testid=total-utility]");
    for (typed, why) in [("-1", "must be > 0 s"), ("three", "must be a number")] {
        m.type_into(budget, typed);
        m.until("the budget's message", |m| {
            m.text("#params [data-testid=error]").contains(why)
        })
        .await;
        assert_eq!(m.value(budget), typed, "what was typed stays");
        assert_eq!(
            m.one(budget).get_attribute("aria-invalid").as_deref(),
            Some("true")
        );
        assert_eq!(m.count("[data-testid=error]"), 1);
    }
    // Nothing is solved meanwhile: the previous plan stays, marked as such.
    yew::platform::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(m.count("[data-testid=progress]"), 0);
    assert_eq!(m.count("[data-testid=stale]"), 1);
    assert_eq!(m.text("[data-testid=total-utility]"), total);
    // A millisecond of search still gives global a plan: the best found, with its gap.
    m.type_into(budget, "0.001");
    m.until("a fresh plan", |m| {
        m.count("[data-testid=error]") == 0
            && m.count("[data-testid=stale]") == 0
            && m.count("[data-testid=progress]") == 0
    })
    .await;
    assert_eq!(m.value(budget), "0.001");
    let line = m.text("[data-testid=recommended]");
    assert!(line.starts_with("Recommended plan: global"), "{line}");
    assert!(
        line.contains(", best found, within ") && line.contains("% of the optimum; solved in "),
        "{line}"
    );
}
