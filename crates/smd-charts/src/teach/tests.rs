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
