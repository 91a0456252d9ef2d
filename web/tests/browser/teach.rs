//! Step through (a part of `browser.rs`, with its helpers): SMD for one job, step by step —
//! every stage reachable with Next, Previous going back, the last step the plan's decision,
//! Play advancing and Stop stopping; the lesson of the default scenario in at most 40 key
//! steps with the keyboard, ending on the decision in words.

use super::*;
use smd_core::teach::{trace, Stage, TraceOptions};

/// The step on screen: its number (from 1), the number of steps, its stage's name.
fn step(m: &Mounted) -> (usize, usize, String) {
    let el = m.one("[data-testid=teach-step]");
    let num = |a: &str| {
        el.get_attribute(a)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (
        num("data-step"),
        num("data-steps"),
        el.get_attribute("data-stage").unwrap_or_default(),
    )
}

/// Clicks a stepper button and waits for step `to`.
async fn click_to(m: &Mounted, button: &str, to: usize) {
    m.click(&format!("[data-testid={button}]"));
    m.until(&format!("step {to}"), |m| step(m).0 == to).await;
}

fn disabled(m: &Mounted, button: &str) -> bool {
    m.one(&format!("[data-testid={button}]"))
        .has_attribute("disabled")
}

#[wasm_bindgen_test]
async fn the_stepper_reaches_every_stage_and_ends_with_the_plan() {
    let s = scenario(4, 3);
    let want = smd_core::plan_with(&s, Policy::Smd, &mut smd_core::Options::default()).unwrap();
    // Of the jobs Algorithms 1 and 2 run for (every stage applies), the shortest trace.
    let (job, native) = (0..s.jobs.len())
        .filter(|&i| want.jobs[i].workers.is_some())
        .map(|i| (i, trace(&s, i, &TraceOptions::default()).unwrap()))
        .min_by_key(|(_, t)| t.steps.len())
        .expect("a feasible job");
    let id = s.jobs[job].id.clone();
    assert!(native.steps.len() < 100, "a short trace for a test");

    let m = Mounted::new(props(Some(s.clone())));
    m.planned(4).await;
    // The plan table's line of the job (smd's plan is the one shown).
    let row = m.all("[data-testid=plan-row]")[job].clone();
    let cells: Vec<String> = (0..row.children().length())
        .filter_map(|i| row.children().item(i)?.text_content())
        .collect();
    m.click("[role=tab][data-view=teach]");
    m.until("the stepper", |m| m.count("[data-testid=teach-step]") == 1)
        .await;
    m.select("[data-testid=teach-job]", &id);
    let n = native.steps.len();
    // The whole trace rather than the lesson.
    m.until("the job's trace", |m| {
        m.count("[data-testid=teach-step]") == 1
            && m.text("label:has([data-testid=teach-lesson])")
                .contains(&format!("all {n} steps"))
    })
    .await;
    m.click("[data-testid=teach-lesson]");
    m.until("the whole trace", |m| step(m).1 == n).await;
    assert_eq!(step(&m), (1, n, "bounds".into()));
    assert!(m
        .text("[data-testid=teach-counter]")
        .starts_with(&format!("Step 1 of {n}")));
    assert!(disabled(&m, "teach-prev") && !disabled(&m, "teach-next"));

    // Next, step by step, through every stage in order; each sentence is the solver's.
    let mut stages = vec![step(&m).2];
    let mut texts = vec![m.text("[data-testid=teach-text]")];
    for k in 2..=n {
        click_to(&m, "teach-next", k).await;
        let (_, _, stage) = step(&m);
        if stages.last() != Some(&stage) {
            stages.push(stage);
        }
        texts.push(m.text("[data-testid=teach-text]"));
        if k == n / 3 {
            // The landscape carries the step's marks (every stage but (a) has some).
            m.until("the landscape", |m| {
                m.count("[data-testid=teach-landscape] svg") == 1
            })
            .await;
        }
    }
    let names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(stages, names, "each stage reached by Next, in order");
    for (k, text) in texts.iter().enumerate() {
        assert_eq!(
            text,
            &smd_charts::teach::sentence(&native, k),
            "step {}",
            k + 1
        );
    }
    assert!(disabled(&m, "teach-next") && disabled(&m, "teach-last"));
    // In the admission: its chart and its last steps; both pictures download.
    assert_eq!(m.count("[data-testid=teach-admission] svg"), 1);
    for chart in ["teach-admission", "teach-landscape"] {
        for kind in ["svg", "png"] {
            let button = format!("[data-testid={chart}] [data-action=chart-{kind}]");
            assert_eq!(m.count(&button), 1, "{button}");
        }
    }

    // The last step is the plan's decision: the job's (w, p) and admission, as the plan
    // table shows them and as smd_core::plan_with computes them.
    let line = &want.jobs[job];
    let last = m.one("[data-testid=teach-step]");
    let attr = |a: &str| last.get_attribute(a).unwrap_or_default();
    assert_eq!(attr("data-w"), line.workers.unwrap().to_string());
    assert_eq!(attr("data-p"), line.ps.unwrap().to_string());
    assert_eq!(attr("data-admitted"), line.admitted.to_string());
    assert_eq!(cells[2], attr("data-w"), "the plan table's w");
    assert_eq!(cells[3], attr("data-p"), "the plan table's p");
    assert_eq!(cells[1].starts_with('✓'), line.admitted, "{:?}", cells[1]);
    let text = m.text("[data-testid=teach-text]");
    assert!(
        text.contains(&format!(
            "(w, p) = ({}, {})",
            line.workers.unwrap(),
            line.ps.unwrap()
        )),
        "{text}"
    );
    assert_eq!(text.contains(" is admitted"), line.admitted, "{text}");

    // Previous goes back one step, to its sentence; a stage button jumps to its first step.
    click_to(&m, "teach-prev", n - 1).await;
    assert_eq!(m.text("[data-testid=teach-text]"), texts[n - 2]);
    let grid = native.first_of(Stage::Grid).unwrap() + 1;
    click_to(&m, "teach-stage-grid", grid).await;
    assert_eq!(step(&m).2, "grid");
    m.until("the grid step's marks", |m| {
        m.count("[data-testid=teach-landscape] svg .overlay") == 1
    })
    .await;
    click_to(&m, "teach-first", 1).await;

    // Play advances on its own, Stop stops it.
    m.click("[data-testid=teach-play]");
    m.until("Play to advance", |m| step(m).0 >= 3).await;
    assert!(m.text("[data-testid=teach-play]").contains("Stop"));
    m.click("[data-testid=teach-play]");
    m.until("Stop", |m| {
        m.text("[data-testid=teach-play]").contains("Play")
    })
    .await;
    let stopped = step(&m).0;
    yew::platform::time::sleep(Duration::from_millis(1600)).await;
    assert_eq!(step(&m).0, stopped, "stopped");
    assert_eq!(m.count("[data-testid=error]"), 0);
}

/// The lesson of the page's default scenario: it opens on the first job SMD admits, walks
/// every stage in at most 40 key steps by the keyboard (→, ←, Home, End, space), draws the
/// admission's chart from its first step, and ends with the decision in words — the
/// explanation `smd_charts::teach::explain` writes for the plan the page shows.
#[wasm_bindgen_test]
async fn the_lesson_runs_by_keyboard_and_ends_on_the_decision_in_words() {
    let s = smd_web::defaults::default_scenario();
    let want = smd_core::plan_with(&s, Policy::Smd, &mut smd_core::Options::default()).unwrap();
    let job = want
        .jobs
        .iter()
        .position(|l| l.admitted)
        .expect("an admitted job");
    assert!(!want.jobs[0].admitted, "the first job is not the lesson's");
    let native = trace(&s, job, &TraceOptions::default()).unwrap();
    let keys = smd_charts::teach::lesson(&native);
    assert!(keys.len() <= 40 && native.steps.len() > 1000);

    let m = Mounted::new(props(None));
    m.planned(s.jobs.len()).await;
    m.click("[role=tab][data-view=teach]");
    m.until("the lesson", |m| {
        m.count("[data-testid=teach-step]") == 1 && step(m).1 == keys.len()
    })
    .await;
    let picker = m.one("[data-testid=teach-job]");
    let picked = picker
        .dyn_ref::<web_sys::HtmlSelectElement>()
        .unwrap()
        .value();
    assert_eq!(picked, s.jobs[job].id, "opens on the first admitted job");
    assert!(m
        .one("[data-testid=teach-lesson]")
        .dyn_ref::<web_sys::HtmlInputElement>()
        .unwrap()
        .checked());
    assert!(m.text("[data-testid=teach-counter]").starts_with(&format!(
        "Step 1 of {} (trace step 1 of {})",
        keys.len(),
        native.steps.len()
    )));

    // → through the lesson: every stage in order, each step the trace step the lesson names.
    let body = document().body().unwrap();
    let mut stages = vec![step(&m).2];
    for k in 2..=keys.len() {
        keyboard::press(&body, "ArrowRight");
        m.until(&format!("key step {k}"), |m| step(m).0 == k).await;
        let el = m.one("[data-testid=teach-step]");
        let at = el.get_attribute("data-trace-step").unwrap_or_default();
        assert_eq!(at, (keys[k - 1].at + 1).to_string());
        let stage = step(&m).2;
        if stages.last() != Some(&stage) {
            stages.push(stage);
        }
        if native.steps[keys[k - 1].at].stage() == Stage::Admission {
            assert_eq!(m.count("[data-testid=teach-admission] svg"), 1);
            assert_eq!(
                m.count("[data-testid=teach-admission] .no-data"),
                0,
                "never empty"
            );
            // A line to see from the first admission step on (not a lone point).
            let lines = m
                .all("[data-testid=teach-admission] g.series")
                .iter()
                .filter(|s| s.query_selector_all("g.point").unwrap().length() >= 2)
                .count();
            assert!(lines >= 1, "key step {k}: no line in the admission's chart");
        }
    }
    let names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(stages, names, "every stage, in order");
    // The last step: the plan's decision, and in words why.
    let line = &want.jobs[job];
    let last = m.one("[data-testid=teach-step]");
    assert_eq!(
        last.get_attribute("data-w"),
        line.workers.map(|w| w.to_string())
    );
    assert_eq!(last.get_attribute("data-p"), line.ps.map(|p| p.to_string()));
    assert_eq!(last.get_attribute("data-admitted"), Some("true".into()));
    let why = m.text("[data-testid=teach-decision]");
    let explained = smd_charts::teach::explain(&native).unwrap();
    assert!(why.ends_with(&explained), "{why}");
    assert!(why.contains(&format!(
        "(w, p) = ({}, {})",
        line.workers.unwrap(),
        line.ps.unwrap()
    )));
    assert!(why.contains("It is admitted"), "{why}");

    // ←, Home, End; space plays at the chosen speed to the end and stops.
    keyboard::press(&body, "ArrowLeft");
    m.until("one back", |m| step(m).0 == keys.len() - 1).await;
    keyboard::press(&body, "Home");
    m.until("the first", |m| step(m).0 == 1).await;
    keyboard::press(&body, "End");
    m.until("the last", |m| step(m).0 == keys.len()).await;
    m.select("[data-testid=teach-speed]", "100");
    keyboard::press(&body, " ");
    m.until("Play from the first", |m| {
        m.text("[data-testid=teach-play]").contains("Stop")
    })
    .await;
    m.until("Play to reach the end", |m| {
        step(m).0 == keys.len() && m.text("[data-testid=teach-play]").contains("Play")
    })
    .await;
    assert_eq!(m.count("[data-testid=error]"), 0);
}

/// Sets the address's hash without a history entry (`""`: none).
fn set_hash(hash: &str) {
    let w = web_sys::window().unwrap();
    let path = w.location().pathname().unwrap();
    let url = if hash.is_empty() {
        path
    } else {
        format!("{path}#{hash}")
    };
    w.history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        .unwrap();
}

/// The address's hash, with its `#`.
fn hash() -> String {
    web_sys::window().unwrap().location().hash().unwrap()
}

/// A click of the pointer on `el`, as a browser makes it: a `mousedown`, which gives the
/// focus to the focusable element pressed unless a handler cancels it, then the `click`.
/// Returns whether the click was let through (not cancelled).
fn pointer_click(el: &Element) -> bool {
    let f = js_sys::Function::new_with_args(
        "el",
        "const down = new MouseEvent('mousedown', { bubbles: true, cancelable: true, detail: 1 });
         if (el.dispatchEvent(down)) {
           const f = el.closest('button, a, [tabindex], select, input');
           if (f) f.focus();
         }
         return el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));",
    );
    f.call1(&wasm_bindgen::JsValue::NULL, el)
        .unwrap()
        .as_bool()
        .unwrap()
}

/// A key pressed where the focus is, with the browser's own part: space or Enter on a
/// focused button, not taken by a handler, presses it.
fn key_at_focus(key: &str) {
    let f = js_sys::Function::new_with_args(
        "key",
        "const el = document.activeElement || document.body;
         const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
         if (el.dispatchEvent(e) && el.tagName === 'BUTTON' && (key === ' ' || key === 'Enter')) el.click();",
    );
    f.call1(&wasm_bindgen::JsValue::NULL, &key.into()).unwrap();
}

/// The view whose tab is selected.
fn selected_view(m: &Mounted) -> String {
    m.one("[role=tab][aria-selected=true]")
        .get_attribute("data-view")
        .unwrap_or_default()
}

/// How it works: a stage of the pipeline figure, clicked, scrolls its paragraph to the top
/// of the window in the same view, gives it the focus and leaves the address alone (its
/// link's hash named no view: the page went to the Plan).
#[wasm_bindgen_test]
async fn a_pipeline_stage_scrolls_to_its_paragraph_in_how_it_works() {
    set_hash("view=how-it-works");
    let m = Mounted::new(AppProps {
        read_link: true,
        ..props(Some(scenario(4, 3)))
    });
    m.until("the pipeline", |m| {
        m.count("[data-testid=help-pipeline] a") > 0
    })
    .await;
    for id in ["how-region", "how-placement", "how-smd"] {
        let link = m.one(&format!("[data-testid=help-pipeline] a[href='#{id}']"));
        assert!(!pointer_click(&link), "{id}: the link does not navigate");
        let target = document().get_element_by_id(id).unwrap();
        m.until(&format!("{id} at the top"), |_| {
            target.get_bounding_client_rect().top().abs() < 1.0
        })
        .await;
        assert_eq!(selected_view(&m), "how-it-works");
        assert_eq!(hash(), "#view=how-it-works");
        assert_eq!(document().active_element(), Some(target));
    }
    drop(m);
    set_hash("");
}

/// Step through's keys after clicks: a click on its tab leaves → to the stepper (not to the
/// tab list, whose arrows change the view), and space after a click on Next ▶ plays rather
/// than pressing Next again; on the tab list, reached by the keyboard, the arrows still
/// change the view.
#[wasm_bindgen_test]
async fn after_clicks_the_keys_step_and_space_plays() {
    let m = Mounted::new(props(Some(scenario(4, 3))));
    m.planned(4).await;
    assert!(pointer_click(&m.one("[role=tab][data-view=teach]")));
    let focused = || {
        document()
            .active_element()
            .and_then(|e| e.get_attribute("role"))
            .unwrap_or_default()
    };
    assert_eq!(
        focused(),
        "tabpanel",
        "the click put the focus in the panel"
    );
    // The lesson's job, once the plan is complete, and its trace.
    let s = scenario(4, 3);
    let want = smd_core::plan_with(&s, Policy::Smd, &mut smd_core::Options::default()).unwrap();
    let job = &s.jobs[want.jobs.iter().position(|l| l.admitted).unwrap()].id;
    m.until("the lesson", |m| {
        m.count("[data-testid=teach-step]") == 1
            && step(m).1 >= 4
            && m.value("[data-testid=teach-job]") == *job
    })
    .await;
    assert_eq!(step(&m).0, 1);
    assert_eq!(focused(), "tabpanel");
    key_at_focus("ArrowRight");
    m.until("step 2 by →", |m| step(m).0 == 2).await;
    assert_eq!(
        selected_view(&m),
        "teach",
        "→ stepped, not changed the view"
    );
    key_at_focus("ArrowLeft");
    m.until("step 1 by ←", |m| step(m).0 == 1).await;
    // Next ▶ by the pointer, then space: Play (slowly, so the step stays), not Next again.
    m.select("[data-testid=teach-speed]", "3000");
    assert!(pointer_click(&m.one("[data-testid=teach-next]")));
    m.until("step 2 by Next", |m| step(m).0 == 2).await;
    key_at_focus(" ");
    m.until("Play", |m| {
        m.text("[data-testid=teach-play]").contains("Stop")
    })
    .await;
    assert_eq!(step(&m).0, 2, "space played; it did not press Next again");
    key_at_focus(" ");
    m.until("Stop", |m| {
        m.text("[data-testid=teach-play]").contains("Play")
    })
    .await;
    // The keys are said where they apply.
    assert!(m
        .text("[data-testid=teach-keys]")
        .contains("On the tab list the arrows change the view"));
    // On the tab list (the focus on the selected tab), ← changes the view.
    let tab = m.one("[role=tab][data-view=teach]");
    tab.dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
    key_at_focus("ArrowLeft");
    m.until("How it works by ←", |m| {
        selected_view(m) == "how-it-works"
    })
    .await;
}

/// The step is in the address: `#view=teach&step=3` opens step 3, a move writes its step,
/// a step typed into the address is shown, and another view drops it.
#[wasm_bindgen_test]
async fn the_step_is_in_the_address() {
    set_hash("view=teach&step=3");
    let m = Mounted::new(AppProps {
        read_link: true,
        ..props(Some(scenario(4, 3)))
    });
    m.until("step 3", |m| {
        m.count("[data-testid=teach-step]") == 1 && step(m).0 == 3
    })
    .await;
    assert!(step(&m).1 >= 5, "a lesson long enough for this test");
    m.until("the address's step", |_| hash().contains("step=3"))
        .await;
    let body = document().body().unwrap();
    keyboard::press(&body, "ArrowRight");
    m.until("step 4", |m| step(m).0 == 4).await;
    m.until("step 4 in the address", |_| hash() == "#view=teach&step=4")
        .await;
    // Typed into the address (a hashchange).
    web_sys::window()
        .unwrap()
        .location()
        .set_hash("view=teach&step=2")
        .unwrap();
    m.until("step 2 from the address", |m| step(m).0 == 2).await;
    m.click("[role=tab][data-view=plan]");
    m.until("the Plan, without a step", |_| hash() == "#view=plan")
        .await;
    drop(m);
    set_hash("");
}

/// At a laptop's 1024 px the picture of the step sits beside its words, and the landscape
/// ends within the first screen (768 px) of the page.
#[wasm_bindgen_test]
async fn the_landscape_is_on_the_first_screen_at_1024_px() {
    // The page's stylesheet, as index.html links it.
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../../style.css")));
    document().head().unwrap().append_child(&style).unwrap();
    let m = Mounted::new(props(Some(scenario(4, 3))));
    m.root.set_attribute("style", "width: 1024px").unwrap();
    m.planned(4).await;
    m.click("[role=tab][data-view=teach]");
    m.until("the landscape", |m| {
        m.count("[data-testid=teach-landscape] svg") == 1
    })
    .await;
    let top = m.root.get_bounding_client_rect().top();
    let picture = m
        .one("[data-testid=teach-landscape] svg")
        .get_bounding_client_rect();
    let words = m.one("[data-testid=teach-step]").get_bounding_client_rect();
    assert!(
        picture.left() > words.right() - 1.0,
        "beside the words: {} ≤ {}",
        picture.left(),
        words.right()
    );
    assert!(
        picture.bottom() - top <= 768.0,
        "ends at {} px",
        picture.bottom() - top
    );
    drop(m);
    style.remove();
}

/// How it works says why a job prefers a GPU type: a paragraph (a job on one type only)
/// and the figure of every application's one-GPU speed on each type, relative to a T4 —
/// the measured throughputs, every type named in the legend and beside its bar.
#[wasm_bindgen_test]
async fn how_it_works_shows_why_a_job_prefers_a_gpu_type() {
    use smd_apps::measured::Measured;
    use smd_core::scenario::Gpu;
    let m = Mounted::new(props(Some(scenario(2, 1))));
    m.until("the tabs", |m| {
        m.count("[role=tab][data-view=how-it-works]") == 1
    })
    .await;
    m.click("[role=tab][data-view=how-it-works]");
    m.until("the figure of speeds", |m| {
        m.count("[data-testid=help-gpu-speeds] svg.gpu-speeds") == 1
    })
    .await;
    let said = m.text("[data-testid=help-gpu-types]");
    for part in ["sia", "one type only", "A100", "T4"] {
        assert!(said.contains(part), "{part}: {said}");
    }
    let speeds = Measured::speeds_by_type();
    let fig = "[data-testid=help-gpu-speeds] svg.gpu-speeds";
    assert_eq!(m.count(&format!("{fig} g.speeds")), speeds.len());
    assert_eq!(
        m.count(&format!("{fig} rect.speed")),
        speeds.len() * Gpu::ALL.len()
    );
    let legend: Vec<String> = m
        .all(&format!("{fig} g.legend-entry"))
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    for g in Gpu::ALL {
        assert!(
            legend.iter().any(|l| l.contains(g.label())),
            "{g}: {legend:?}"
        );
    }
    for (app, row) in &speeds {
        let bars = m.all(&format!(
            "{fig} g.speeds[data-app='{}'] rect.speed",
            app.label()
        ));
        assert_eq!(bars.len(), Gpu::ALL.len(), "{app:?}");
        for (bar, (g, v)) in bars.iter().zip(Gpu::ALL.iter().zip(row)) {
            assert_eq!(bar.get_attribute("data-gpu").as_deref(), Some(g.name()));
            let rel: f64 = bar.get_attribute("data-relative").unwrap().parse().unwrap();
            assert_eq!(rel, v / row[0], "{app:?} {g}");
        }
    }
    // BERT gains most from an A100, and the caption says its measured speeds.
    let caption = m.text("[data-testid=help-gpu-speeds] figcaption");
    assert!(
        caption.contains("BERT: 13 samples/s on a T4, 140 on an A100"),
        "{caption}"
    );
    assert_eq!(m.count("[data-testid=error]"), 0);
}
