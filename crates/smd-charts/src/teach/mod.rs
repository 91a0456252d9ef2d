//! A teaching trace ([`smd_core::teach::Trace`]) for people: one or two sentences per step
//! in docs/MODEL.md's symbols ([`sentence`]), the marks a step puts on the job's landscape
//! ([`overlay`], drawn by [`landscape_overlay_svg`](crate::landscape_overlay_svg)) and the
//! admission's progress as a line chart ([`admission_chart`]). The page and the CLI both
//! take their text from here, so it is written once.

use crate::format::{fmt_sig, plain_sig};
use crate::landscape::{Mark, Overlay, OverlayLine, OverlayPoint};
use crate::line::{LineChart, Point, Series};
use smd_core::teach::{Event, NodeOutcome, Stage, SubsetOutcome, Trace};

mod admission;
mod lesson;
mod overlay;
mod sentence;
#[cfg(test)]
mod tests;

pub use admission::{admission_chart, admission_rows};
pub use lesson::{explain, lesson, skipped, LessonStep, LESSON_MAX};
pub use overlay::overlay;
pub use sentence::sentence;

/// A stage's title, with its letter: `(b) The ε-grid`.
pub fn stage_title(stage: Stage) -> &'static str {
    match stage {
        Stage::Bounds => "(a) Bounds and the free summand J",
        Stage::Grid => "(b) The ε-grid",
        Stage::Rounding => "(c) Algorithm 2: rounding",
        Stage::Admission => "(d) Admission",
    }
}

/// Subscript digits of n (ζ₁, l₂, ν₃).
fn sub(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(0x2080 + (c as u32 - '0' as u32)).unwrap_or(c),
            c => c,
        })
        .collect()
}

/// A number with 4 significant digits, thousands grouped and never an exponent.
fn n4(v: f64) -> String {
    plain_sig(v, 4)
}

/// A time T in seconds, with enough digits to tell close values apart, thousands grouped
/// and never an exponent.
fn secs(t: f64) -> String {
    format!("{} s", plain_sig(t, 6))
}

/// Two times in seconds with the digits it takes to tell them apart (up to 12).
fn secs2(a: f64, b: f64) -> (String, String) {
    for digits in 6..=12 {
        let (x, y) = (plain_sig(a, digits), plain_sig(b, digits));
        if x != y || digits == 12 {
            return (format!("{x} s"), format!("{y} s"));
        }
    }
    unreachable!("the loop returns at 12 digits")
}

/// `n thing` or `n things`.
fn plural(n: impl Into<u64>, thing: &str) -> String {
    let n = n.into();
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// A point (w, p) of reals.
fn pt(x: [f64; 2]) -> String {
    format!("({}, {})", n4(x[0]), n4(x[1]))
}

/// A set of jobs by id: `{job-001, job-004}`, `∅`; long sets are cut after six names.
fn set(t: &Trace, jobs: &[usize]) -> String {
    if jobs.is_empty() {
        return "∅".into();
    }
    let names: Vec<&str> = jobs
        .iter()
        .take(6)
        .map(|&i| t.ids.get(i).map_or("?", String::as_str))
        .collect();
    let more = if jobs.len() > 6 {
        format!(", … ({} in all)", jobs.len())
    } else {
        String::new()
    };
    format!("{{{}{more}}}", names.join(", "))
}

/// The traced job's grid: the gridded summands' indices and ε (from its `Free` step).
fn grid_of(t: &Trace) -> (Vec<usize>, f64) {
    t.steps
        .iter()
        .find_map(|e| match e {
            Event::Free {
                gridded, epsilon, ..
            } => Some((gridded.clone(), *epsilon)),
            _ => None,
        })
        .unwrap_or_default()
}

/// `ν₁ = a, ν₃ = b` for a grid point's ν (in the gridded summands' order).
fn nus(gridded: &[usize], nu: &[f64]) -> String {
    gridded
        .iter()
        .zip(nu)
        .map(|(&j, v)| format!("ν{} = {}", sub(j + 1), n4(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The best grid point before step `k`, within the grid stage (a point is best only when
/// solved, so it has its x and T).
fn best_point_before(t: &Trace, k: usize) -> Option<&Event> {
    t.steps[..k.min(t.steps.len())]
        .iter()
        .rev()
        .take_while(|e| e.stage() == Stage::Grid)
        .find(|e| matches!(e, Event::Point { best: true, .. }))
}

/// The x and T of the best grid point before step `k`.
fn best_before(t: &Trace, k: usize) -> Option<([f64; 2], f64)> {
    match best_point_before(t, k)? {
        Event::Point {
            x: Some(x),
            t: Some(tt),
            ..
        } => Some((*x, *tt)),
        _ => None,
    }
}

/// The level lines of the best grid point before step `k`.
fn best_levels_before(t: &Trace, k: usize) -> Vec<[f64; 3]> {
    match best_point_before(t, k) {
        Some(Event::Point { levels, .. }) => levels.clone(),
        _ => Vec::new(),
    }
}
