//! The marks a step puts on the job's landscape.

use super::*;

/// The marks step `k` puts on the job's landscape: (b) the grid point's level lines and its
/// answer, the best point so far and its level lines; (c) x̄, x̃, the draw or corner, the
/// integer point; (d) the job's candidate. (a) marks nothing (the landscape's Ω and its
/// search panel show the bounds). One arm per stage and kind of step, read whole as the
/// vocabulary of marks.
pub fn overlay(t: &Trace, k: usize) -> Overlay {
    let mut o = Overlay::default();
    let Some(e) = t.steps.get(k) else {
        return o;
    };
    let line = |a: [f64; 3], mark: Mark, label: String| OverlayLine {
        a: [a[0], a[1]],
        b: a[2],
        mark,
        label,
    };
    let point = |w: f64, p: f64, mark: Mark, label: String| OverlayPoint { w, p, mark, label };
    let (gridded, _) = grid_of(t);
    let level_label = |i: usize| match gridded.get(i) {
        Some(&j) => format!("ζ{} = (1+ε)·ν{}", sub(j + 1), sub(j + 1)),
        None => "level".into(),
    };
    match e.stage() {
        Stage::Bounds => {}
        Stage::Grid => {
            let (best, best_levels) = match e {
                Event::Point {
                    x: Some(x),
                    t: Some(tt),
                    best: true,
                    levels,
                    ..
                } => (Some((*x, *tt)), levels.clone()),
                _ => (best_before(t, k), best_levels_before(t, k)),
            };
            if let Event::Point { levels, x, .. } = e {
                for (i, a) in levels.iter().enumerate() {
                    o.lines.push(line(*a, Mark::Level, level_label(i)));
                }
                if let (Some(x), false) = (x, best.is_some_and(|b| Some(b.0) == *x)) {
                    o.points.push(point(
                        x[0],
                        x[1],
                        Mark::GridPoint,
                        "this grid point's answer".into(),
                    ));
                }
            }
            if !matches!(e, Event::Relaxed { .. }) {
                for (i, a) in best_levels.iter().enumerate() {
                    if !matches!(e, Event::Point { best: true, .. }) {
                        o.lines.push(line(
                            *a,
                            Mark::BestLevel,
                            format!("best: {}", level_label(i)),
                        ));
                    }
                }
            }
            match e {
                Event::Relaxed { x, t: tt, .. } => o.points.push(point(
                    x[0],
                    x[1],
                    Mark::Relaxed,
                    format!("x̄, T = {}", secs(*tt)),
                )),
                _ => {
                    if let Some((x, tt)) = best {
                        o.points.push(point(
                            x[0],
                            x[1],
                            Mark::Best,
                            format!("best so far, T = {}", secs(tt)),
                        ));
                    }
                }
            }
        }
        Stage::Rounding => {
            let before = &t.steps[..=k];
            let relaxed = t.steps.iter().find_map(|e| match e {
                Event::Relaxed { x, .. } => Some(*x),
                _ => None,
            });
            let scaled = before.iter().rev().find_map(|e| match e {
                Event::Scaled { x, scaled, .. } => Some((*x, *scaled)),
                _ => None,
            });
            if let Some(x) = scaled.map(|s| s.0).or(relaxed) {
                o.points
                    .push(point(x[0], x[1], Mark::Relaxed, format!("x̄ = {}", pt(x))));
            }
            if let Event::Polish { x, p, .. } = e {
                o.points
                    .push(point(x[0], *p, Mark::Scaled, "polished (w̄, p)".into()));
            }
            if let Some((_, xt)) = scaled {
                o.points
                    .push(point(xt[0], xt[1], Mark::Scaled, format!("x̃ = {}", pt(xt))));
            }
            match e {
                Event::Draw { w, p, inside, .. } | Event::Corner { w, p, inside, .. } => {
                    let (mark, label) = if *inside {
                        (Mark::Inside, format!("({w}, {p}) in Ω"))
                    } else {
                        (Mark::Outside, format!("({w}, {p}) outside Ω"))
                    };
                    o.points.push(point(*w as f64, *p as f64, mark, label));
                }
                Event::Rounded { w, p, .. } | Event::Allocated { w, p, .. } => {
                    o.points.push(point(
                        *w as f64,
                        *p as f64,
                        Mark::Rounded,
                        format!("integer point ({w}, {p})"),
                    ))
                }
                _ => {}
            }
        }
        Stage::Admission => {
            if let Some(l) = t.plan.jobs.get(t.index) {
                if let (Some(w), Some(p)) = (l.workers, l.ps) {
                    let label = format!("candidate ({w}, {p})");
                    o.points
                        .push(point(w as f64, p as f64, Mark::Rounded, label));
                }
            }
        }
    }
    o
}
