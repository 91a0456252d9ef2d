//! The lesson (docs/MODEL.md §20, *lesson*): a trace in its key steps, each standing for
//! the steps since the previous one, and the job's decision explained in words.

use super::*;
use smd_core::plan::{JobPlan, Reason};
use smd_core::scenario::Resource;

/// Most steps of a lesson.
pub const LESSON_MAX: usize = 40;
/// Most steps of the admission between its candidates and its decision.
const ADMISSION_KEYS: usize = 8;

/// One step of a lesson: the trace's step `at`, standing for the steps `from..=at` (the
/// ones before `at` are summarised by [`skipped`]). A lesson's steps partition the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonStep {
    /// The first trace step it stands for.
    pub from: usize,
    /// The trace step it shows.
    pub at: usize,
}

/// The key steps of a trace, at most [`LESSON_MAX`] (fewer for a short trace): (a) every
/// bound and J; (b) the first grid step, each grid point that became the best, the
/// largest block the fast path pruned between two of those, and x̄; (c) every rounding
/// step but the draws between the first and the one taken; (d) the candidates, the steps
/// that improved the selection (at most eight) and the decision. The grid's steps are thinned
/// evenly to fit, the first and x̄ always kept.
pub fn lesson(t: &Trace) -> Vec<LessonStep> {
    let n = t.steps.len();
    let of = |s: Stage| -> Vec<usize> { (0..n).filter(|&i| t.steps[i].stage() == s).collect() };
    let mut keys = of(Stage::Bounds);
    let rounding: Vec<usize> = of(Stage::Rounding)
        .into_iter()
        .filter(|&i| match &t.steps[i] {
            Event::Draw {
                attempt, inside, ..
            } => *attempt == 1 || *inside,
            _ => true,
        })
        .collect();
    let admission = admission_keys(t, &of(Stage::Admission));
    let budget = LESSON_MAX.saturating_sub(keys.len() + rounding.len() + admission.len());
    keys.extend(grid_keys(t, &of(Stage::Grid), budget));
    keys.extend(rounding);
    keys.extend(admission);
    if n > 0 {
        // The decision closes every lesson, so that the steps cover the trace.
        keys.push(n - 1);
    }
    keys.sort_unstable();
    keys.dedup();
    let mut from = 0;
    keys.into_iter()
        .map(|at| {
            let s = LessonStep { from, at };
            from = at + 1;
            s
        })
        .collect()
}

/// At most `k` of `v`, evenly spread, the first and the last kept.
fn thin(v: Vec<usize>, k: usize) -> Vec<usize> {
    match k {
        _ if v.len() <= k => v,
        0 => Vec::new(),
        1 => v.last().copied().into_iter().collect(),
        _ => (0..k)
            .map(|j| v[(j * (v.len() - 1) + (k - 1) / 2) / (k - 1)])
            .collect(),
    }
}

/// (b)'s key steps, at most `budget`.
fn grid_keys(t: &Trace, idx: &[usize], budget: usize) -> Vec<usize> {
    let (Some(&first), Some(&last)) = (idx.first(), idx.last()) else {
        return Vec::new();
    };
    let bests: Vec<usize> = idx
        .iter()
        .copied()
        .filter(|&i| matches!(t.steps[i], Event::Point { best: true, .. }))
        .collect();
    // Between two anchors (the first step, each best point, x̄), the largest pruned block.
    let mut anchors = vec![first];
    anchors.extend(&bests);
    anchors.push(last);
    let mut mid = bests.clone();
    for w in anchors.windows(2) {
        let biggest = (w[0] + 1..w[1])
            .filter_map(|i| match t.steps[i] {
                Event::Pruned { points, .. } => Some((points, i)),
                _ => None,
            })
            // The largest; the earliest of equals.
            .max_by_key(|&(points, i)| (points, std::cmp::Reverse(i)));
        mid.extend(biggest.map(|(_, i)| i));
    }
    mid.sort_unstable();
    mid.dedup();
    mid.retain(|&i| i != first && i != last);
    let mut keys = vec![first];
    keys.extend(thin(mid, budget.saturating_sub(2)));
    keys.push(last);
    keys.dedup();
    keys
}

/// (d)'s key steps: the candidates, the improvements (at most [`ADMISSION_KEYS`], the last
/// kept), the decision.
fn admission_keys(t: &Trace, idx: &[usize]) -> Vec<usize> {
    let (Some(&first), Some(&last)) = (idx.first(), idx.last()) else {
        return Vec::new();
    };
    let mut incumbent = 0.0_f64;
    let better: Vec<usize> = idx
        .iter()
        .copied()
        .filter(|&i| match &t.steps[i] {
            Event::Subset {
                outcome: SubsetOutcome::Filled { best, .. },
                ..
            } => *best,
            Event::Node { incumbent: v, .. } => {
                let improves = *v > incumbent;
                incumbent = incumbent.max(*v);
                improves
            }
            _ => false,
        })
        .collect();
    let mut keys = vec![first];
    keys.extend(thin(better, ADMISSION_KEYS));
    keys.push(last);
    keys.dedup();
    keys
}

/// What the lesson step leaves out before its step — the trace's steps `from..at` — in one
/// sentence; `None` when it leaves nothing out.
pub fn skipped(t: &Trace, s: &LessonStep) -> Option<String> {
    let steps = t.steps.get(s.from..s.at.min(t.steps.len()))?;
    if steps.is_empty() {
        return None;
    }
    let (mut solved, mut empty, mut bests, mut blocks, mut pruned) = (0u64, 0u64, 0u64, 0u64, 0);
    let (mut draws, mut subsets, mut nodes, mut improved) = (0u64, 0u64, 0u64, 0u64);
    for e in steps {
        match e {
            Event::Point { x, best, .. } => {
                solved += 1;
                empty += u64::from(x.is_none());
                bests += u64::from(*best);
            }
            Event::Pruned { points, .. } => {
                blocks += 1;
                pruned += points;
            }
            Event::Draw { .. } => draws += 1,
            Event::Subset { outcome, .. } => {
                subsets += 1;
                improved += u64::from(matches!(outcome, SubsetOutcome::Filled { best: true, .. }));
            }
            Event::Node { .. } => nodes += 1,
            _ => {}
        }
    }
    let mut parts = Vec::new();
    if solved > 0 {
        let none = if empty > 0 {
            format!(", {empty} with P_ν empty")
        } else {
            String::new()
        };
        let better = match bests {
            0 => "none better than the best".to_string(),
            b => format!("{} new best", plural(b, "more")),
        };
        parts.push(format!(
            "Algorithm 1 solved {} ({better}{none})",
            plural(solved, "grid point")
        ));
    }
    if blocks > 0 {
        parts.push(format!(
            "the fast path pruned {} of {} by their bounds",
            plural(blocks, "block"),
            plural(pruned, "grid point")
        ));
    }
    if draws > 0 {
        parts.push(format!("{} fell outside Ω", plural(draws, "draw")));
    }
    if subsets > 0 {
        let how = match improved {
            0 => "none improving the best selection".to_string(),
            k => format!("{k} improving the best selection"),
        };
        parts.push(format!(
            "the admission weighed {} ({how})",
            plural(subsets, "subset")
        ));
    }
    if nodes > 0 {
        parts.push(format!(
            "branch and bound expanded {}",
            plural(nodes, "node")
        ));
    }
    if parts.is_empty() {
        parts.push(plural(steps.len() as u64, "step").to_string());
    }
    let range = if steps.len() == 1 {
        format!("Step {}", s.from + 1)
    } else {
        format!("Steps {}–{}", s.from + 1, s.at)
    };
    Some(format!("{range}, in brief: {}.", parts.join("; ")))
}

/// A demand or capacity in words: `66 vCPUs, 422.4 GB memory, 186 GB storage` (zero
/// amounts left out).
fn amounts(v: &[f64; 4]) -> String {
    let parts: Vec<String> = Resource::ALL
        .iter()
        .zip(v)
        .filter(|(_, &a)| a > 1e-9)
        .map(|(r, &a)| match r {
            Resource::Gpu | Resource::Vcpu => format!("{} {}", n4(a), r.unit()),
            _ => format!("{} {} {}", n4(a), r.unit(), r.title()),
        })
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// `0.18 %`: how much `a` is above `b`.
fn above(a: f64, b: f64) -> String {
    format!("{} %", fmt_sig(100.0 * (a / b - 1.0), 2))
}

/// The job's decision in words, for the lesson's last step: why SMD gave it its (w, p) —
/// the integer optimum beside it, what Algorithm 1's ε slack, the PS padding, *polish* and
/// the rounding did — and why the admission took it or not. `None` when the plan has no
/// line for the job.
pub fn explain(t: &Trace) -> Option<String> {
    let line = t.plan.jobs.get(t.index)?;
    let mut out = Vec::new();
    match (line.workers, line.ps, line.completion_time_s) {
        (Some(w), Some(p), Some(tt)) => out.push(allocation_why(t, w, p, tt)),
        _ => out.push(format!(
            "{} gets no allocation: (1, 1) is not in Ω, so Algorithms 1 and 2 do not run for it.",
            t.job
        )),
    }
    out.push(admission_why(t, line));
    Some(out.join(" "))
}

/// Why the job runs with (w, p).
fn allocation_why(t: &Trace, w: u64, p: u64, tt: f64) -> String {
    let find = |f: &dyn Fn(&Event) -> bool| t.steps.iter().find(|e| f(e));
    let relaxed = find(&|e| matches!(e, Event::Relaxed { .. }));
    let scaled = find(&|e| matches!(e, Event::Scaled { .. }));
    let polish = find(&|e| matches!(e, Event::Polish { .. }));
    let (_, epsilon) = grid_of(t);
    let mut s = String::new();
    let rounding = match (scaled, find(&|e| matches!(e, Event::Rounded { .. }))) {
        (
            Some(Event::Scaled {
                scaled, m_delta, ..
            }),
            Some(Event::Rounded {
                attempts, fallback, ..
            }),
        ) => {
            let how = if *fallback {
                format!("taking ⌊x̃⌋ after {}", plural(*attempts, "draw"))
            } else {
                format!("in {}", plural(*attempts, "draw"))
            };
            format!(
                " Algorithm 2 turned x̃ = 1 + (x̄ − 1)/M_δ = {} (M_δ = {}) into ({w}, {p}) {how}.",
                pt(*scaled),
                n4(*m_delta)
            )
        }
        _ => String::new(),
    };
    let relaxed_text = match relaxed {
        Some(Event::Relaxed { x, t: tx, .. }) => format!(
            "Algorithm 1's x̄ = {} (T(x̄) = {}) is only promised within (1+ε) of the least T over Ω, ε = {}",
            pt(*x),
            secs(*tx),
            n4(epsilon)
        ),
        _ => String::new(),
    };
    match t.reference.integer_optimum {
        Some((ow, op, _)) if (ow, op) == (w, p) => {
            s.push_str(&format!(
                "{} runs with (w, p) = ({w}, {p}), the integer optimum of T over Ω (T = {}).",
                t.job,
                secs(tt)
            ));
            if !relaxed_text.is_empty() {
                s.push_str(&format!(
                    " {relaxed_text}; here the rounding landed on the optimum."
                ));
            }
        }
        Some((ow, op, ot)) => {
            let (a, b) = secs2(tt, ot);
            s.push_str(&format!(
                "Why (w, p) = ({w}, {p}) and not the integer optimum ({ow}, {op})? It takes T = {a}, {} more than the optimum's {b}.",
                above(tt, ot)
            ));
            if !relaxed_text.is_empty() {
                s.push_str(&format!(" {relaxed_text}."));
            }
            if let Some((bp, bt)) = t.reference.best_p {
                if p as f64 > bp + 1.0 {
                    s.push_str(&format!(
                        " At w = {w}, T is least at p = {} (T = {}): the {} PS above it are PS padding — \
                         more PS shorten θ4·w/p about as much as they lengthen θ2·p, so T is \
                         nearly flat in p and the ε slack lets p̄ drift up (docs/MODEL.md §6).",
                        n4(bp),
                        secs(bt),
                        p - bp.ceil() as u64
                    ));
                    s.push_str(&match polish {
                        Some(Event::Polish { p: pp, applied: true, .. }) => format!(
                            " Polish moved p̄ to {} at w̄ before rounding.",
                            n4(*pp)
                        ),
                        Some(Event::Polish { p: pp, .. }) => format!(
                            " Polish tried p = {} at w̄ and kept p̄, as T would have risen.",
                            n4(*pp)
                        ),
                        _ => " Polish (params.polish, off here) would move p̄ to that p before rounding."
                            .to_string(),
                    });
                }
            }
            s.push_str(&rounding);
        }
        None => s.push_str(&format!("{} runs with (w, p) = ({w}, {p}).", t.job)),
    }
    s
}

/// Why the admission took the job or not.
fn admission_why(t: &Trace, line: &JobPlan) -> String {
    let candidates = t.steps.iter().find_map(|e| match e {
        Event::Candidates {
            items,
            capacity,
            depth,
            ..
        } => Some((items, capacity, depth.is_some())),
        _ => None,
    });
    let chosen = t.steps.iter().rev().find_map(|e| match e {
        Event::Admitted { chosen, value, .. } => Some((chosen, *value)),
        _ => None,
    });
    let mine = candidates.and_then(|(items, _, _)| items.iter().find(|i| i.job == t.index));
    if line.admitted {
        let sel = chosen.map_or(String::new(), |(c, v)| {
            format!(" ({}, Σu = {})", plural(c.len() as u64, "job"), n4(v))
        });
        let d = mine.map_or(String::new(), |m| {
            format!(
                ", u = {} for its demand D = {}",
                n4(m.value),
                amounts(&m.demand)
            )
        });
        return format!("It is admitted: the admission's selection{sel} includes it{d}.");
    }
    match (&line.reason, mine, candidates, chosen) {
        (Some(Reason::NotSelected), Some(m), Some((items, cap, fc)), Some((c, v))) => {
            let mut left = *cap;
            for i in items.iter().filter(|i| c.contains(&i.job)) {
                for (l, d) in left.iter_mut().zip(&i.demand) {
                    *l -= d;
                }
            }
            let short: Vec<String> = Resource::ALL
                .iter()
                .zip(m.demand.iter().zip(&left))
                .filter(|(_, (d, l))| **d > **l + 1e-9)
                .map(|(r, (d, l))| {
                    let u = r.unit();
                    format!(
                        "{} {} {u} needed, {} {u} left",
                        r.title(),
                        n4(*d),
                        n4(l.max(0.0))
                    )
                })
                .collect();
            if short.is_empty() {
                let why = if fc {
                    "Frieze–Clarke completes each subset with the LP's whole items and drops the \
                     fractional ones, so room can stay unused — its guarantee is a share of the \
                     optimum, not the optimum"
                } else {
                    "branch and bound stopped at its node limit before finding it"
                };
                format!(
                    "It is not admitted, though it would still fit in what the selection \
                     ({}, Σu = {}) leaves: adding it would raise Σu by u = {}. {why}.",
                    plural(c.len() as u64, "job"),
                    n4(v),
                    n4(m.value)
                )
            } else {
                format!(
                    "It is not admitted: with u = {} it does not make the selection ({}, Σu = \
                     {}), and it does not fit in what that selection leaves ({}).",
                    n4(m.value),
                    plural(c.len() as u64, "job"),
                    n4(v),
                    short.join("; ")
                )
            }
        }
        (Some(r), _, _, _) => format!("It is not admitted: {r}."),
        _ => "It is not admitted.".to_string(),
    }
}
