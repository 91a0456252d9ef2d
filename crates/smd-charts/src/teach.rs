//! A teaching trace ([`smd_core::teach::Trace`]) for people: one or two sentences per step
//! in docs/MODEL.md's symbols ([`sentence`]), the marks a step puts on the job's landscape
//! ([`overlay`], drawn by [`landscape_overlay_svg`](crate::landscape_overlay_svg)) and the
//! admission's progress as a line chart ([`admission_chart`]). The page and the CLI both
//! take their text from here, so it is written once.

use crate::format::fmt_sig;
use crate::landscape::{Mark, Overlay, OverlayLine, OverlayPoint};
use crate::line::{LineChart, Point, Series};
use smd_core::teach::{Event, NodeOutcome, Stage, SubsetOutcome, Trace};

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

/// A number with 4 significant digits.
fn n4(v: f64) -> String {
    fmt_sig(v, 4)
}

/// A time T in seconds, with enough digits to tell close values apart.
fn secs(t: f64) -> String {
    format!("{} s", fmt_sig(t, 6))
}

/// Two times in seconds with the digits it takes to tell them apart (up to 12).
fn secs2(a: f64, b: f64) -> (String, String) {
    for digits in 6..=12 {
        let (x, y) = (fmt_sig(a, digits), fmt_sig(b, digits));
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

/// One or two sentences on step `k` of the trace, in docs/MODEL.md's symbols (empty past
/// the end).
pub fn sentence(t: &Trace, k: usize) -> String {
    let Some(e) = t.steps.get(k) else {
        return String::new();
    };
    match e {
        Event::Infeasible => format!(
            "(1, 1) is outside Ω: one worker and one PS already exceed {}'s limit L = ϑ·instance, \
             so the job is infeasible. Algorithms 1 and 2 do not run for it, and the admission \
             never takes it.",
            t.job
        ),
        Event::Summand {
            index,
            name,
            lower,
            upper,
            dropped,
            grid_size,
        } => {
            let j = sub(index + 1);
            let head = format!(
                "ζ{j} = {name}: over Ω it ranges from l{j} = {} to φ{j} = {} (s), read off Ω's vertices.",
                n4(*lower),
                n4(*upper)
            );
            let tail = if *dropped {
                " Its largest value is below 10⁻¹²·T(1, 1), so it is dropped: it cannot move T."
                    .to_string()
            } else if let Some(n) = grid_size {
                format!(" It gets a geometric grid of λ{j} + 1 = {n} values ν{j} = l{j}·(1+ε)^k.")
            } else {
                " It has the widest range φ/l of the summands kept: it will be J, the free summand."
                    .to_string()
            };
            head + &tail
        }
        Event::Constant { t: tt } => format!(
            "Every summand is dropped: T is constant on Ω ({}), so Algorithm 1 takes x̄ = (1, 1) \
             without a grid.",
            secs(*tt)
        ),
        Event::Free {
            index,
            name,
            lower,
            upper,
            gridded,
            lambdas,
            epsilon,
        } => {
            let j = sub(index + 1);
            let ratio = if *lower > 0.0 {
                upper / lower
            } else {
                f64::INFINITY
            };
            let head = format!(
                "J = ζ{j} ({name}) has the widest range, φ{j}/l{j} = {}, so it stays free: at each \
                 grid point Algorithm 1 minimises ζ{j} under the other summands' levels.",
                n4(ratio)
            );
            if gridded.is_empty() {
                return head + " No other summand is kept, so the grid has a single point.";
            }
            let sizes: Vec<String> = lambdas.iter().map(|l| (l + 1).to_string()).collect();
            let total: u64 = lambdas.iter().map(|&l| l + 1).product();
            let which: Vec<String> = gridded
                .iter()
                .map(|&g| format!("ζ{}", sub(g + 1)))
                .collect();
            if let [one] = gridded.as_slice() {
                let j = sub(one + 1);
                return format!(
                    "{head} With ε = {}, ζ{j} gets the grid: λ{j} + 1 = {total} grid points.",
                    n4(*epsilon)
                );
            }
            format!(
                "{head} With ε = {}, {} get grids: Π(λ_j + 1) = {} = {total} grid points.",
                n4(*epsilon),
                which.join(" and "),
                sizes.join(" × "),
            )
        }
        Event::Point {
            k: ks,
            nu,
            x,
            t: tt,
            best,
            ..
        } => {
            let (gridded, _) = grid_of(t);
            let at = if ks.is_empty() {
                "The single grid point".to_string()
            } else {
                format!(
                    "Grid point k = ({}), {}",
                    ks.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
                    nus(&gridded, nu)
                )
            };
            match (x, tt) {
                (Some(x), Some(tt)) => {
                    let (this, verdict) = match (best, best_before(t, k)) {
                        (true, None) => (secs(*tt), " — the best so far.".to_string()),
                        (true, Some((_, b))) => {
                            let (this, b) = secs2(*tt, b);
                            (this, format!(" — the best so far (it was {b})."))
                        }
                        (false, Some((_, b))) => {
                            let (this, b) = secs2(*tt, b);
                            (this, format!(" — not below the best T(x̄) = {b}."))
                        }
                        (false, None) => (secs(*tt), ".".to_string()),
                    };
                    format!(
                        "{at}: min ζ_J over P_ν = Ω ∩ {{ζ_j ≤ (1+ε)·ν_j}} is at x = {}, \
                         T(x) = {this}{verdict}",
                        pt(*x),
                    )
                }
                _ => format!(
                    "{at}: P_ν is empty — no point of Ω has every ζ_j ≤ (1+ε)·ν_j — so it is \
                     skipped."
                ),
            }
        }
        Event::Pruned {
            nu_lo,
            nu_hi,
            points,
            bound,
            incumbent,
            ..
        } => {
            let (gridded, _) = grid_of(t);
            let extent: Vec<String> = gridded
                .iter()
                .zip(nu_lo.iter().zip(nu_hi))
                .map(|(&j, (lo, hi))| format!("ν{} from {} to {}", sub(j + 1), n4(*lo), n4(*hi)))
                .collect();
            let block = format!(
                "The fast path drops a block of {} ({}) without solving them:",
                plural(*points, "grid point"),
                extent.join(", ")
            );
            match (bound, incumbent) {
                (None, _) => format!("{block} even at its largest ν every P_ν is empty."),
                (Some(b), Some(i)) if b > i => {
                    let (b, i) = secs2(*b, *i);
                    format!("{block} none can have T below {b}, above the best T(x̄) = {i}.")
                }
                (Some(b), Some(i)) => {
                    let (b, i) = secs2(*b, *i);
                    format!(
                        "{block} its bound {b} ties the best T(x̄) = {i}, and all its points come \
                         after the best in odometer order (ties go to the first)."
                    )
                }
                (Some(b), None) => format!("{block} its bound on T is {}.", secs(*b)),
            }
        }
        Event::Relaxed {
            x,
            t: tt,
            nu,
            grid_points,
            solved,
            pruned_blocks,
            pruned_points,
            omitted,
            ..
        } => {
            let (gridded, epsilon) = grid_of(t);
            let at = if nu.is_empty() {
                String::new()
            } else {
                format!(" at {}", nus(&gridded, nu))
            };
            let pruned = if *pruned_blocks > 0 {
                format!(
                    "; the other {pruned_points} lay in {} pruned by their bounds",
                    plural(*pruned_blocks, "block")
                )
            } else {
                String::new()
            };
            let cut = if *omitted > 0 {
                format!(" ({omitted} grid steps past the trace's cap are not shown.)")
            } else {
                String::new()
            };
            format!(
                "Algorithm 1's answer: x̄ = (w̄, p̄) = {}, T(x̄) = {}{at}, within (1+ε) = {} of \
                 min_Ω T. Of the grid's {grid_points} points {solved} were solved{pruned}.{cut}",
                pt(*x),
                secs(*tt),
                n4(1.0 + epsilon)
            )
        }
        Event::Polish {
            x,
            p,
            t_before,
            t_after,
            applied,
        } => {
            if *applied {
                format!(
                    "Polish: at w̄ = {}, T is least at p = {}; T = {} ≤ T(x̄) = {}, so p̄ becomes {}.",
                    n4(x[0]),
                    n4(*p),
                    secs(*t_after),
                    secs(*t_before),
                    n4(*p)
                )
            } else {
                format!(
                    "Polish: at w̄ = {} the best p = {} would give T = {} > T(x̄) = {}, so x̄ stays.",
                    n4(x[0]),
                    n4(*p),
                    secs(*t_after),
                    secs(*t_before)
                )
            }
        }
        Event::Scaled {
            x,
            m_delta,
            scaled,
            rule,
        } => {
            let head = format!(
                "Algorithm 2 scales x̄ = {} toward (1, 1): x̃ = 1 + (x̄ − 1)/M_δ = {} with M_δ = {}.",
                pt(*x),
                pt(*scaled),
                n4(*m_delta)
            );
            match rule {
                smd_core::scenario::Rounding::Paper => format!(
                    "{head} Each draw rounds w up with probability {} and p up with probability {} \
                     (their fractional parts); the first draw in Ω is taken.",
                    n4(scaled[0] - scaled[0].floor()),
                    n4(scaled[1] - scaled[1].floor())
                ),
                smd_core::scenario::Rounding::BestCorner => format!(
                    "{head} Best corner: of x̃'s floor and ceiling corners in Ω, the one of least T."
                ),
            }
        }
        Event::Draw {
            attempt,
            coins,
            up,
            w,
            p,
            inside,
        } => {
            let way = |u: bool| if u { "up" } else { "down" };
            format!(
                "Draw {attempt}: uniform coins {} and {} round w {} and p {}: (w, p) = ({w}, {p}) is {}.",
                n4(coins[0]),
                n4(coins[1]),
                way(up[0]),
                way(up[1]),
                if *inside {
                    "inside Ω — taken"
                } else {
                    "outside Ω — draw again"
                }
            )
        }
        Event::Corner {
            w,
            p,
            inside,
            t: tt,
        } => match tt {
            Some(tt) if *inside => format!("Corner ({w}, {p}) is inside Ω, T = {}.", secs(*tt)),
            _ => format!("Corner ({w}, {p}) is outside Ω."),
        },
        Event::Rounded {
            w,
            p,
            attempts,
            fallback,
            omitted,
        } => {
            let cut = if *omitted > 0 {
                format!(" ({omitted} draws past the trace's cap are not shown.)")
            } else {
                String::new()
            };
            if *fallback {
                format!(
                    "No draw of the {attempts} allowed fell in Ω, so ⌊x̃⌋ = ({w}, {p}) is taken: it \
                     is always in Ω.{cut}"
                )
            } else {
                format!(
                    "Algorithm 2's integer point: (w, p) = ({w}, {p}), after {}.{cut}",
                    plural(*attempts, "draw")
                )
            }
        }
        Event::Allocated {
            w,
            p,
            t: tt,
            pi,
            utility,
        } => format!(
            "{}'s candidate: (w, p) = ({w}, {p}), T = {}, π = {}, utility u = μ(π) = {} — what \
             the admission weighs against its demand D = w·O^w + p·O^p.",
            t.job,
            secs(*tt),
            n4(*pi),
            n4(*utility)
        ),
        Event::Candidates { items, depth, .. } => {
            let method = match depth {
                Some(q) => format!(
                    "Frieze–Clarke at depth q = {q}: every subset S of at most q candidates, \
                     completed by the LP relaxation rounded down (guarantee q/(q+R) = {})",
                    n4(f64::from(*q) / (f64::from(*q) + 4.0))
                ),
                None => "exact branch and bound with LP bounds".to_string(),
            };
            let mine = match items.iter().find(|i| i.job == t.index) {
                Some(i) => format!("{} is one, with u = {}.", t.job, n4(i.value)),
                None => format!(
                    "{} is not one (infeasible, of zero utility, or larger than the cluster).",
                    t.job
                ),
            };
            format!(
                "Admission: maximise Σ u_i·x_i subject to Σ D_i·x_i ≤ capacity over {}, by \
                 {method}. {mine}",
                plural(items.len() as u64, "candidate")
            )
        }
        Event::Subset {
            members,
            value,
            outcome,
        } => {
            let s = format!("S = {} (u(S) = {})", set(t, members), n4(*value));
            match outcome {
                SubsetOutcome::TooBig => {
                    format!("{s} does not fit the capacity, so no superset of it is tried.")
                }
                SubsetOutcome::Hopeless { bound, best } => format!(
                    "{s}: a bound on u(S) + LP is {}, not above the best selection's {}, so its LP \
                     is not solved.",
                    n4(*bound),
                    n4(*best)
                ),
                SubsetOutcome::Filled {
                    fill,
                    fractional,
                    total,
                    best,
                } => {
                    let frac = if fractional.is_empty() {
                        String::new()
                    } else {
                        let f: Vec<String> = fractional
                            .iter()
                            .map(|&(i, x)| {
                                format!("{} at {}", t.ids.get(i).map_or("?", String::as_str), n4(x))
                            })
                            .collect();
                        format!(" (rounded down: {})", f.join(", "))
                    };
                    format!(
                        "{s}: the LP over the candidates worth at most min_S u adds {}{frac}; Σu = \
                         {}{}",
                        set(t, fill),
                        n4(*total),
                        if *best {
                            " — the best selection so far."
                        } else {
                            ", not better than the best."
                        }
                    )
                }
            }
        }
        Event::Node {
            number,
            ones,
            zeros,
            bound,
            incumbent,
            open_bound,
            outcome,
        } => {
            let head = format!(
                "Node {number} ({} fixed in, {zeros} out)",
                plural(*ones as u64, "job")
            );
            let lp = bound.map_or(String::new(), |b| format!(", LP bound {}", n4(b)));
            let what = match outcome {
                NodeOutcome::Leaf => "every candidate is fixed: it is one selection".to_string(),
                NodeOutcome::Pruned => "pruned: its bound does not beat the incumbent".to_string(),
                NodeOutcome::Integral => "its LP optimum is integral: nothing to branch on".into(),
                NodeOutcome::Branched { item } => format!(
                    "branches on {} (first with it, then without)",
                    t.ids.get(*item).map_or("?", String::as_str)
                ),
            };
            format!(
                "{head}{lp}: {what}. Incumbent {}, best bound over the open nodes {}.",
                n4(*incumbent),
                n4(*open_bound)
            )
        }
        Event::Admitted {
            chosen,
            value,
            guarantee,
            proven_optimal,
            gap,
            nodes,
            omitted,
        } => {
            let fc = t
                .steps
                .iter()
                .any(|e| matches!(e, Event::Candidates { depth: Some(_), .. }));
            let how = if fc {
                format!(
                    "Frieze–Clarke weighed {} that fit; guaranteed ≥ {} of the optimum",
                    plural(*nodes, "subset"),
                    n4(*guarantee)
                )
            } else if *proven_optimal {
                format!(
                    "branch and bound: {}, proven optimal",
                    plural(*nodes, "node")
                )
            } else {
                let g = gap.unwrap_or(0.0);
                format!(
                    "branch and bound: {}, within {}% of the optimum",
                    plural(*nodes, "node"),
                    n4(100.0 * g)
                )
            };
            let cut = if *omitted > 0 {
                format!(" ({omitted} admission steps past the trace's cap are not shown.)")
            } else {
                String::new()
            };
            let line = t.plan.jobs.get(t.index);
            let mine = match line {
                Some(l) if l.admitted => format!(
                    "{} is admitted at (w, p) = ({}, {}), T = {}.",
                    t.job,
                    l.workers.unwrap_or(0),
                    l.ps.unwrap_or(0),
                    secs(l.completion_time_s.unwrap_or(f64::NAN))
                ),
                Some(l) => {
                    let at = match (l.workers, l.ps) {
                        (Some(w), Some(p)) => format!(" at (w, p) = ({w}, {p})"),
                        _ => String::new(),
                    };
                    let why = l
                        .reason
                        .as_ref()
                        .map_or(String::new(), |r| format!(": {r}"));
                    format!("{}{at} is not admitted{why}.", t.job)
                }
                None => String::new(),
            };
            format!(
                "Decision: {} of {} jobs admitted, Σu = {} ({how}). {mine}{cut}",
                chosen.len(),
                t.ids.len(),
                n4(*value)
            )
        }
    }
}

/// The marks step `k` puts on the job's landscape: (b) the grid point's level lines and its
/// answer, the best point so far and its level lines; (c) x̄, x̃, the draw or corner, the
/// integer point; (d) the job's candidate. (a) marks nothing (the landscape's Ω and its
/// search panel show the bounds).
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

/// The admission's progress up to step `k` as a line chart, `None` before the admission:
/// Frieze–Clarke — each completed subset's Σu and the best so far, by subset reached;
/// branch and bound — the incumbent and the best bound over the open nodes, by node.
pub fn admission_chart(t: &Trace, k: usize) -> Option<LineChart> {
    let start = t.first_of(Stage::Admission)?;
    if k < start {
        return None;
    }
    let end = (k + 1).min(t.steps.len());
    let at = |x: f64, y: f64| Point {
        x,
        mean: y,
        spread: 0.0,
    };
    let mut first = Series::default();
    let mut second = Series::default();
    let mut best = 0.0_f64;
    let mut nodes = false;
    for (n, e) in t.steps[start..end].iter().enumerate() {
        match e {
            Event::Subset {
                outcome: SubsetOutcome::Filled { total, .. },
                ..
            } => {
                best = best.max(*total);
                first.points.push(at(n as f64, *total));
                second.points.push(at(n as f64, best));
            }
            Event::Node {
                number,
                incumbent,
                open_bound,
                ..
            } => {
                nodes = true;
                first.points.push(at(*number as f64, *incumbent));
                second.points.push(at(*number as f64, *open_bound));
            }
            _ => {}
        }
    }
    let (title, x_label, a, b) = if nodes {
        ("Branch and bound", "node", "incumbent", "best open bound")
    } else {
        (
            "Frieze–Clarke",
            "step of the admission",
            "Σu of subset S completed",
            "best selection",
        )
    };
    first.name = a.into();
    second.name = b.into();
    Some(LineChart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: "total utility Σu".into(),
        series: vec![first, second],
        width: 480.0,
        height: 240.0,
        dodge: 0.0,
        y_zero: false,
        ..LineChart::default()
    })
}

#[cfg(test)]
mod tests {
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
}
