use super::*;
use smd_core::teach::{trace, TraceOptions};

fn scenario(outer: smd_core::scenario::Outer) -> smd_core::Scenario {
    let mut s = smd_core::generate(&smd_core::GenerateOptions {
        jobs: 6,
        seed: 3,
        units: 0.2,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    s.params.outer = outer;
    s
}

fn traced(outer: smd_core::scenario::Outer, job: usize) -> Trace {
    trace(&scenario(outer), job, &TraceOptions::default()).unwrap()
}

/// Every step has a sentence in MODEL.md's symbols; the last names the job's (w, p) and
/// whether it is admitted, as the plan says.
#[test]
fn every_step_has_a_sentence_and_the_last_one_the_decision() {
    for outer in [
        smd_core::scenario::Outer::Ptas,
        smd_core::scenario::Outer::Exact,
    ] {
        for job in 0..6 {
            let t = traced(outer, job);
            for k in 0..t.steps.len() {
                let s = sentence(&t, k);
                assert!(s.len() > 20 && s.ends_with('.'), "step {k}: {s:?}");
                assert!(!s.contains("NaN") && !s.contains('∞'), "{s}");
            }
            let last = sentence(&t, t.steps.len() - 1);
            let line = &t.plan.jobs[job];
            assert!(last.starts_with("Decision: "), "{last}");
            if let (Some(w), Some(p)) = (line.workers, line.ps) {
                assert!(last.contains(&format!("(w, p) = ({w}, {p})")), "{last}");
            }
            assert_eq!(last.contains(" is admitted"), line.admitted, "{last}");
            assert!(sentence(&t, t.steps.len()).is_empty());
        }
    }
}

/// Grid steps mark the level lines and the best point; rounding steps x̄ and x̃; the
/// admission's chart has the incumbent or the best selection.
#[test]
fn overlays_and_the_admission_chart_follow_the_stage() {
    let t = traced(smd_core::scenario::Outer::Exact, 0);
    let g = t
        .steps
        .iter()
        .position(|e| matches!(e, Event::Point { x: Some(_), .. }))
        .unwrap();
    let r = t.first_of(Stage::Rounding).unwrap();
    let a = t.first_of(Stage::Admission).unwrap();
    assert!(overlay(&t, 0).points.is_empty());
    let o = overlay(&t, g);
    assert!(o
        .points
        .iter()
        .any(|p| matches!(p.mark, Mark::Best | Mark::GridPoint)));
    assert!(o
        .lines
        .iter()
        .all(|l| matches!(l.mark, Mark::Level | Mark::BestLevel)));
    let svg = crate::landscape_overlay_svg(
        &smd_core::landscape(
            &scenario(smd_core::scenario::Outer::Exact),
            0,
            12,
            std::slice::from_ref(&t.plan),
        )
        .unwrap(),
        &crate::LandscapeOptions::default(),
        &o,
    );
    assert!(svg.contains("overlay-best") || svg.contains("overlay-grid-point"));
    assert!(
        !svg.contains("marker-smd"),
        "the policies' points give way to the overlay"
    );
    let o = overlay(&t, r);
    assert!(o.points.iter().any(|p| p.mark == Mark::Scaled));
    assert!(o.points.iter().any(|p| p.mark == Mark::Relaxed));
    assert!(admission_chart(&t, a - 1).is_none());
    let c = admission_chart(&t, t.steps.len() - 1).unwrap();
    assert_eq!(c.series[0].name, "incumbent");
    assert!(!c.series[0].points.is_empty());
    let rows = admission_rows(&t, t.steps.len() - 1, 3);
    assert!(!rows.is_empty() && rows.len() <= 3);
    assert!(rows.iter().all(|r| r[1].starts_with("node ")));
    assert!(
        admission_rows(&t, a, 3).is_empty(),
        "the candidates are no row"
    );
    let t = traced(smd_core::scenario::Outer::Ptas, 0);
    let c = admission_chart(&t, t.steps.len() - 1).unwrap();
    assert_eq!(c.series[1].name, "best selection");
    let rows = admission_rows(&t, t.steps.len() - 1, 100);
    assert!(rows.iter().all(|r| r[1].starts_with("S = ")));
}

/// The page's default scenario (30 generated jobs, seed 1, ε = 0.01): its traces are
/// thousands of steps long.
fn default_scenario() -> smd_core::Scenario {
    smd_core::generate(&smd_core::GenerateOptions {
        jobs: 30,
        seed: 1,
        ..Default::default()
    })
}

/// A lesson has at most 40 steps, partitions the trace (each step stands for the steps since
/// the previous one), opens every stage the trace has, keeps each stage's first step and
/// every best grid point while there is room, and ends on the decision — on the default
/// scenario's long traces and on both admissions.
#[test]
fn a_lesson_is_at_most_forty_steps_covering_the_trace() {
    let mut traces: Vec<Trace> = (0..30)
        .step_by(4)
        .map(|j| trace(&default_scenario(), j, &TraceOptions::default()).unwrap())
        .collect();
    for outer in [
        smd_core::scenario::Outer::Ptas,
        smd_core::scenario::Outer::Exact,
    ] {
        traces.extend((0..6).map(|j| traced(outer, j)));
    }
    let mut long = 0;
    for t in &traces {
        let l = lesson(t);
        let n = t.steps.len();
        assert!(!l.is_empty() && l.len() <= LESSON_MAX, "{} steps", l.len());
        long += usize::from(n > 1000);
        assert_eq!(l[0].from, 0);
        assert_eq!(l.last().unwrap().at, n - 1);
        for w in l.windows(2) {
            assert_eq!(w[1].from, w[0].at + 1, "the steps partition the trace");
        }
        for s in &l {
            assert!(s.from <= s.at);
            match skipped(t, s) {
                None => assert_eq!(s.from, s.at),
                Some(text) => {
                    assert!(s.from < s.at && text.ends_with('.'), "{text}");
                    let range = format!("Steps {}–{}, in brief: ", s.from + 1, s.at);
                    let one = format!("Step {}, in brief: ", s.from + 1);
                    assert!(text.starts_with(&range) || text.starts_with(&one), "{text}");
                }
            }
        }
        let shown: Vec<usize> = l.iter().map(|s| s.at).collect();
        for stage in Stage::ALL {
            if let Some(first) = t.first_of(stage) {
                assert!(shown.contains(&first), "{stage:?} opens at step {first}");
            }
        }
        assert!(matches!(t.steps[n - 1], Event::Admitted { .. }));
        let bests = (0..n)
            .filter(|&i| matches!(t.steps[i], Event::Point { best: true, .. }))
            .collect::<Vec<_>>();
        if l.len() < LESSON_MAX {
            assert!(bests.iter().all(|b| shown.contains(b)), "every best point");
        }
    }
    assert!(long >= 5, "the default scenario's traces are long: {long}");
}

/// The lesson's explanation says the plan's decision — (w, p) and admitted or not — and,
/// when SMD's allocation is not the integer optimum, names the optimum with both times
/// (the optimum no slower); PS padding is named exactly when p is more than one PS above
/// the T-minimising p at its w.
#[test]
fn the_explanation_says_the_plans_decision_and_why() {
    let s = default_scenario();
    let exact = smd_core::plan_with(&s, smd_core::Policy::Exact, &mut Default::default()).unwrap();
    let mut differs = 0;
    for j in (0..30).step_by(3) {
        let t = trace(&s, j, &TraceOptions::default()).unwrap();
        let text = explain(&t).unwrap();
        let line = &t.plan.jobs[j];
        let (w, p) = (line.workers.unwrap(), line.ps.unwrap());
        assert!(text.contains(&format!("(w, p) = ({w}, {p})")), "{text}");
        assert_eq!(text.contains("It is admitted"), line.admitted, "{text}");
        assert_eq!(
            text.contains("It is not admitted"),
            !line.admitted,
            "{text}"
        );
        // The reference is the exact policy's allocation, computed apart.
        let e = &exact.jobs[j];
        let (ow, op, ot) = t.reference.integer_optimum.unwrap();
        assert_eq!((Some(ow), Some(op)), (e.workers, e.ps));
        assert!(ot <= line.completion_time_s.unwrap() * (1.0 + 1e-12));
        if (ow, op) != (w, p) {
            differs += 1;
            assert!(
                text.contains(&format!("integer optimum ({ow}, {op})")),
                "{text}"
            );
        }
        let (bp, _) = t.reference.best_p.unwrap();
        assert_eq!(
            text.contains("PS padding"),
            (ow, op) != (w, p) && p as f64 > bp + 1.0,
            "{text}"
        );
        assert!(!text.contains("NaN") && text.ends_with('.'), "{text}");
    }
    assert!(
        differs >= 3,
        "the default scenario shows SMD off the optimum: {differs}"
    );
}

/// The admission's chart is drawn from its first step on (the empty selection at the
/// candidates, and the candidates' LP bound across to the decision), and its x values are
/// the step numbers the table lists (and the decision's).
#[test]
fn the_admission_chart_counts_the_tables_steps() {
    for outer in [
        smd_core::scenario::Outer::Ptas,
        smd_core::scenario::Outer::Exact,
    ] {
        let t = traced(outer, 1);
        let a = t.first_of(Stage::Admission).unwrap();
        let c = admission_chart(&t, a).unwrap();
        let pts: Vec<f64> = c
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.x))
            .collect();
        let decision = t.steps.len() - 1;
        assert_eq!(
            pts,
            vec![(a + 1) as f64, (a + 1) as f64, (decision + 1) as f64],
            "∅ and the LP bound at the candidates' step"
        );
        assert!(crate::line_chart_svg(&c).contains("data-x"));
        let end = t.steps.len() - 1;
        let rows = admission_rows(&t, end, usize::MAX);
        let mut listed: Vec<f64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
        listed.extend([(a + 1) as f64, (end + 1) as f64]);
        let c = admission_chart(&t, end).unwrap();
        for p in c.series.iter().flat_map(|s| &s.points) {
            assert!(listed.contains(&p.x), "x = {} is a step of the table", p.x);
        }
    }
}

/// From the admission's first step (the candidates, before any subset or node) the chart
/// has a line to show — the candidates' LP bound across the whole admission, above the
/// empty selection's 0 — and its x axis spans more than that one step. No selection, and
/// the decision, is worth more than the bound.
#[test]
fn the_admission_chart_has_a_line_from_its_first_step() {
    for outer in [
        smd_core::scenario::Outer::Ptas,
        smd_core::scenario::Outer::Exact,
    ] {
        for job in 0..6 {
            let t = traced(outer, job);
            let a = t.first_of(Stage::Admission).unwrap();
            let Some(Event::Candidates { bound, items, .. }) = t.steps.get(a) else {
                panic!("the admission starts with its candidates");
            };
            assert!(items.is_empty() || *bound > 0.0, "job {job}: {bound}");
            let c = admission_chart(&t, a).unwrap();
            let line = c
                .series
                .iter()
                .find(|s| s.points.len() >= 2)
                .unwrap_or_else(|| panic!("job {job}: no line at the candidates' step"));
            assert!(line.points.iter().all(|p| p.mean == *bound && p.mean > 0.0));
            let xs: Vec<f64> = c
                .series
                .iter()
                .flat_map(|s| &s.points)
                .map(|p| p.x)
                .collect();
            let (lo, hi) = xs
                .iter()
                .fold((f64::INFINITY, 0.0_f64), |(l, h), &x| (l.min(x), h.max(x)));
            assert!(hi > lo, "job {job}: one step wide");
            let last = t.steps.len() - 1;
            let end = admission_chart(&t, last).unwrap();
            for p in end.series.iter().flat_map(|s| &s.points) {
                assert!(p.x <= (last + 1) as f64 && p.x >= (a + 1) as f64);
            }
            // Frieze–Clarke's selections: each below the bound.
            for p in end.series[..2].iter().flat_map(|s| &s.points) {
                if outer == smd_core::scenario::Outer::Ptas {
                    assert!(
                        p.mean <= bound * (1.0 + 1e-9),
                        "job {job}: {} > {bound}",
                        p.mean
                    );
                }
            }
            let Some(Event::Admitted { value, .. }) = t.steps.last() else {
                panic!("the trace ends with the decision");
            };
            assert!(
                *value <= bound * (1.0 + 1e-9),
                "job {job}: {value} > {bound}"
            );
        }
    }
}
