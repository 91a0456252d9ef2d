//! The words of each step, one function per stage (docs/MODEL.md §20), in the model's
//! symbols.

use super::*;

/// One or two sentences on step `k` of the trace, in docs/MODEL.md's symbols (empty past
/// the end).
pub fn sentence(t: &Trace, k: usize) -> String {
    let Some(e) = t.steps.get(k) else {
        return String::new();
    };
    match e.stage() {
        Stage::Bounds => bounds(t, e),
        Stage::Grid => grid(t, k, e),
        Stage::Rounding => rounding(t, e),
        Stage::Admission => admission(t, e),
    }
}

/// (a) Bounds and J: the infeasible job, each summand's range, a constant T, the free summand.
fn bounds(t: &Trace, e: &Event) -> String {
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
        // Other stages' steps are written by their own functions.
        _ => String::new(),
    }
}

/// (b) The ε-grid: a grid point's answer, a pruned block, the relaxed start. One arm per
/// kind of step, read whole as the stage's vocabulary.
fn grid(t: &Trace, k: usize, e: &Event) -> String {
    match e {
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
        // Other stages' steps are written by their own functions.
        _ => String::new(),
    }
}

/// (c) Rounding: polish, scaling, Algorithm 2's draws, the corner, the integer point, the
/// allocation. One arm per kind of step, read whole as the stage's vocabulary.
fn rounding(t: &Trace, e: &Event) -> String {
    match e {
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
        // Other stages' steps are written by their own functions.
        _ => String::new(),
    }
}

/// (d) Admission: the candidates, Frieze–Clarke subsets, branch-and-bound nodes, the decision.
fn admission(t: &Trace, e: &Event) -> String {
    match e {
        Event::Candidates {
            items,
            depth,
            bound,
            ..
        } => {
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
            let ceiling = if *bound > 0.0 {
                format!(
                    " Their LP relaxation is worth Σu = {}: no selection is worth more.",
                    n4(*bound)
                )
            } else {
                String::new()
            };
            format!(
                "Admission: maximise Σ u_i·x_i subject to Σ D_i·x_i ≤ capacity over {}, by \
                 {method}. {mine}{ceiling}",
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
        Event::Admitted { .. } => decision(t, e),
        // Other stages' steps are written by their own functions.
        _ => String::new(),
    }
}

/// The last step: how many jobs the admission took and how (Frieze–Clarke's guarantee or
/// branch and bound's proof or gap), then this job's decision as the plan states it.
fn decision(t: &Trace, e: &Event) -> String {
    let Event::Admitted {
        chosen,
        value,
        guarantee,
        proven_optimal,
        gap,
        nodes,
        omitted,
    } = e
    else {
        return String::new();
    };
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
