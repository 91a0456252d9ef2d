//! The admission's table rows and chart, step by step.

use super::*;

/// The admission's last steps up to step `k` (at most `max`, oldest first) as table rows:
/// the step's number in the trace (from 1), what it weighed (a subset S or a node), its
/// value (`Σu` of the completed selection, `u(S)` of a subset not completed, or the node's
/// incumbent) and how it ended. Empty
/// before the admission.
pub fn admission_rows(t: &Trace, k: usize, max: usize) -> Vec<[String; 4]> {
    let Some(start) = t.first_of(Stage::Admission) else {
        return Vec::new();
    };
    let end = (k + 1).min(t.steps.len());
    if end <= start {
        return Vec::new();
    }
    let mut rows: Vec<[String; 4]> = Vec::new();
    for (i, e) in t.steps.iter().enumerate().take(end).skip(start) {
        let row = match e {
            Event::Subset {
                members,
                value,
                outcome,
            } => {
                let (v, how) = match outcome {
                    SubsetOutcome::TooBig => {
                        (format!("u(S) {}", n4(*value)), "does not fit".to_string())
                    }
                    SubsetOutcome::Hopeless { bound, .. } => (
                        format!("u(S) {}", n4(*value)),
                        format!("bound {} too low", n4(*bound)),
                    ),
                    SubsetOutcome::Filled {
                        fill, total, best, ..
                    } => (
                        format!("Σu {}", n4(*total)),
                        format!(
                            "LP adds {}{}",
                            set(t, fill),
                            if *best { " — best" } else { "" }
                        ),
                    ),
                };
                [
                    (i + 1).to_string(),
                    format!("S = {}", set(t, members)),
                    v,
                    how,
                ]
            }
            Event::Node {
                number,
                bound,
                incumbent,
                outcome,
                ..
            } => {
                let how = match outcome {
                    NodeOutcome::Leaf => "leaf".to_string(),
                    NodeOutcome::Pruned => "pruned".to_string(),
                    NodeOutcome::Integral => "LP integral".to_string(),
                    NodeOutcome::Branched { item } => {
                        format!("branch on {}", t.ids.get(*item).map_or("?", String::as_str))
                    }
                };
                let lp = bound.map_or(String::new(), |b| format!(" (LP {})", n4(b)));
                [
                    (i + 1).to_string(),
                    format!("node {number}{lp}"),
                    format!("incumbent {}", n4(*incumbent)),
                    how,
                ]
            }
            _ => continue,
        };
        rows.push(row);
    }
    let cut = rows.len().saturating_sub(max);
    rows.drain(..cut);
    rows
}

/// The admission's progress up to step `k` as a line chart, `None` before the admission.
/// Its x axis is the trace's step number, as in [`admission_rows`]' first column, over the
/// whole admission from its first step (the candidates) to its decision, whatever the step:
/// Frieze–Clarke — each completed subset's Σu and the best so far; branch and bound — the
/// incumbent and the best bound over the open nodes; both — the candidates' LP bound, which
/// no selection exceeds, as a line across. The chart is never empty: at the candidates'
/// step it has that line and the best selection (or incumbent) ∅, with Σu = 0.
pub fn admission_chart(t: &Trace, k: usize) -> Option<LineChart> {
    let start = t.first_of(Stage::Admission)?;
    if k < start {
        return None;
    }
    let end = (k + 1).min(t.steps.len());
    // The admission's last step (its decision, or the trace's last step).
    let last = (start..t.steps.len())
        .take_while(|&i| t.steps[i].stage() == Stage::Admission)
        .last()
        .unwrap_or(start);
    let bound = match t.steps.get(start) {
        Some(Event::Candidates { bound, .. }) if bound.is_finite() && *bound > 0.0 => Some(*bound),
        _ => None,
    };
    // x: the step's number, from 1.
    let at = |i: usize, y: f64| Point::exact((i + 1) as f64, y);
    let nodes = matches!(
        t.steps.get(start),
        Some(Event::Candidates { depth: None, .. })
    );
    let mut first = Series::default();
    let mut second = Series::default();
    // ∅ at the candidates' step.
    if nodes { &mut first } else { &mut second }
        .points
        .push(at(start, 0.0));
    let mut best = 0.0_f64;
    for (i, e) in t.steps.iter().enumerate().take(end).skip(start) {
        match e {
            Event::Subset {
                outcome: SubsetOutcome::Filled { total, .. },
                ..
            } => {
                best = best.max(*total);
                first.points.push(at(i, *total));
                second.points.push(at(i, best));
            }
            Event::Node {
                incumbent,
                open_bound,
                ..
            } => {
                first.points.push(at(i, *incumbent));
                second.points.push(at(i, *open_bound));
            }
            _ => {}
        }
    }
    let (title, a, b) = if nodes {
        ("Branch and bound", "incumbent", "best open bound")
    } else {
        (
            "Frieze–Clarke",
            "Σu of subset S completed",
            "best selection",
        )
    };
    first.name = a.into();
    second.name = b.into();
    let mut series = vec![first, second];
    if let Some(b) = bound {
        series.push(Series {
            name: "LP bound of the candidates".into(),
            points: vec![at(start, b), at(last.max(start + 1), b)],
        });
    }
    Some(LineChart {
        title: title.into(),
        x_label: "step (as in the table)".into(),
        y_label: "total utility Σu".into(),
        series,
        width: 480.0,
        height: 240.0,
        dodge: 0.0,
        // Σu ≥ 0, and the empty selection's 0 is a point of the chart.
        y_zero: true,
        ..LineChart::default()
    })
}
