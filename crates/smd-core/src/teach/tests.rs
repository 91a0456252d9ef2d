use super::*;
use crate::scenario::{Outer, Rounding};
use crate::{generate, plan_with, GenerateOptions, Mode};

/// `jobs` generated jobs of `seed` on `units` cluster units at ε.
fn scenario(jobs: usize, seed: u64, mode: Mode, units: f64, epsilon: f64) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed,
        mode,
        units,
    });
    s.params.epsilon = epsilon;
    s
}

/// The scenarios the tests walk: both modes, a cluster that binds and one that does not,
/// Frieze–Clarke at q = 0…3 and branch and bound, both rounding rules, polish.
fn scenarios() -> Vec<Scenario> {
    let mut out = Vec::new();
    for (seed, mode, units) in [
        (1, Mode::Sync, 0.2),
        (2, Mode::Async, 0.3),
        (3, Mode::Sync, 1.0),
        (4, Mode::Async, 0.15),
    ] {
        out.push(scenario(8, seed, mode, units, 0.1));
    }
    let mut s = scenario(7, 5, Mode::Sync, 0.2, 0.2);
    s.params.outer = Outer::Exact;
    out.push(s);
    let mut s = scenario(7, 6, Mode::Async, 0.2, 0.05);
    s.params.polish = true;
    s.params.rounding = Rounding::BestCorner;
    s.params.ptas_depth = 3;
    out.push(s);
    let mut s = scenario(6, 7, Mode::Sync, 0.25, 0.2);
    s.params.m_delta = 2.5;
    s.params.ptas_depth = 0;
    out.push(s);
    out
}

fn smd_plan(s: &Scenario, inner: InnerSolver) -> Plan {
    plan_with(
        s,
        Policy::Smd,
        &mut Options {
            inner,
            ..Options::default()
        },
    )
    .unwrap()
}

fn big() -> TraceOptions {
    TraceOptions {
        max_grid_steps: usize::MAX / 4,
        max_draws: usize::MAX / 4,
        max_admission_steps: usize::MAX / 4,
        ..TraceOptions::default()
    }
}

/// The trace's plan is `plan_with`'s, bit for bit (the recorder changes nothing), and its
/// last steps for the job are the plan line: x̄ and T(x̄), (w, p), T, utility; its admission
/// is the plan's.
#[test]
fn the_trace_ends_with_the_normal_plan() {
    for s in scenarios() {
        let want = smd_plan(&s, InnerSolver::Fast);
        for job in 0..s.jobs.len() {
            let t = trace(&s, job, &TraceOptions::default()).unwrap();
            assert_eq!(t.plan.to_json(), want.to_json(), "job {job}");
            assert_eq!(t.plan, want);
            assert_eq!((t.index, t.job.as_str()), (job, s.jobs[job].id.as_str()));
            let line = &want.jobs[job];
            let relaxed = t.steps.iter().rev().find_map(|e| match e {
                Event::Relaxed { x, t, .. } => Some((*x, *t)),
                _ => None,
            });
            let allocated = t.steps.iter().rev().find_map(|e| match e {
                Event::Allocated {
                    w, p, t, utility, ..
                } => Some((*w, *p, *t, *utility)),
                _ => None,
            });
            match (relaxed, allocated) {
                (Some((x, tx)), Some((w, p, tw, u))) => {
                    assert_eq!(line.relaxed_workers, Some(x[0]));
                    assert_eq!(line.relaxed_ps, Some(x[1]));
                    assert_eq!(line.relaxed_completion_time_s, Some(tx));
                    assert_eq!((line.workers, line.ps), (Some(w), Some(p)));
                    assert_eq!(line.completion_time_s, Some(tw));
                    assert_eq!(line.utility, u);
                }
                (None, None) => assert_eq!(line.workers, None, "only an infeasible job"),
                other => panic!("job {job}: {other:?}"),
            }
            let Some(Event::Admitted {
                chosen,
                value,
                guarantee,
                proven_optimal,
                gap,
                ..
            }) = t.steps.last()
            else {
                panic!("the last step is the admission's decision")
            };
            let admitted: Vec<usize> = (0..want.jobs.len())
                .filter(|&i| want.jobs[i].admitted)
                .collect();
            assert_eq!(chosen, &admitted);
            assert_eq!(*guarantee, want.admission.guarantee);
            assert_eq!(*proven_optimal, want.admission.proven_optimal);
            assert_eq!(*gap, want.admission.gap);
            assert!((value - want.total_utility).abs() <= 1e-9 * value.abs().max(1.0));
        }
    }
}

/// The reference solver traces every grid point, and its plan is the reference plan.
#[test]
fn the_reference_solver_traces_every_grid_point() {
    let s = scenario(3, 8, Mode::Sync, 0.5, 0.3);
    let want = smd_plan(&s, InnerSolver::Reference);
    for job in 0..s.jobs.len() {
        let opts = TraceOptions {
            inner: InnerSolver::Reference,
            ..big()
        };
        let t = trace(&s, job, &opts).unwrap();
        assert_eq!(t.plan, want);
        let points = t
            .steps
            .iter()
            .filter(|e| matches!(e, Event::Point { .. }))
            .count() as u64;
        assert!(!t.steps.iter().any(|e| matches!(e, Event::Pruned { .. })));
        if let Some(Event::Relaxed {
            grid_points,
            solved,
            omitted,
            ..
        }) = t.steps.iter().find(|e| matches!(e, Event::Relaxed { .. }))
        {
            assert_eq!((*solved, points, *omitted), (*grid_points, *grid_points, 0));
        }
    }
}

/// The stages come in order, each present where it applies: (a)–(d) for a feasible job,
/// (a) and (d) for an infeasible one; Frieze–Clarke shows subsets, branch and bound nodes.
#[test]
fn each_stage_is_present_in_order() {
    for s in scenarios() {
        let exact = s.params.outer == Outer::Exact;
        for job in 0..s.jobs.len() {
            let t = trace(&s, job, &TraceOptions::default()).unwrap();
            let stages: Vec<Stage> = t.steps.iter().map(Event::stage).collect();
            assert!(stages.windows(2).all(|w| w[0] <= w[1]), "{stages:?}");
            for stage in Stage::ALL {
                assert!(t.first_of(stage).is_some(), "job {job}: no {stage:?}");
            }
            assert!(matches!(t.steps[0], Event::Summand { index: 0, .. }));
            assert!(t
                .steps
                .iter()
                .any(|e| matches!(e, Event::Free { .. } | Event::Constant { .. })));
            let a = t.first_of(Stage::Admission).unwrap();
            assert!(
                matches!(t.steps[a], Event::Candidates { depth, .. } if depth.is_none() == exact)
            );
            let subsets = t.steps.iter().any(|e| matches!(e, Event::Subset { .. }));
            let nodes = t.steps.iter().any(|e| matches!(e, Event::Node { .. }));
            assert_eq!((subsets, nodes), (!exact, exact), "job {job}");
        }
    }
    // An infeasible job: (a) says so, there is no grid and no rounding, (d) as for any job.
    let mut s = scenario(4, 9, Mode::Sync, 0.2, 0.2);
    s.jobs[1].worker.gpu = 4.0 * s.jobs[1].limit_instances + 1.0;
    let t = trace(&s, 1, &TraceOptions::default()).unwrap();
    assert_eq!(t.plan.jobs[1].workers, None);
    assert_eq!(t.steps[0], Event::Infeasible);
    assert_eq!(t.first_of(Stage::Grid), None);
    assert_eq!(t.first_of(Stage::Rounding), None);
    assert_eq!(t.first_of(Stage::Admission), Some(1));
}

/// The fast path's grid steps account for every grid point: each is solved or lies in a
/// pruned block. New best points only ever lower T, and the last is x̄.
#[test]
fn grid_steps_cover_the_grid_and_the_best_falls_to_x_bar() {
    for s in scenarios() {
        for job in 0..s.jobs.len() {
            let t = trace(&s, job, &big()).unwrap();
            let Some(Event::Relaxed {
                x,
                t: tx,
                grid_points,
                solved,
                pruned_blocks,
                pruned_points,
                omitted,
                ..
            }) = t
                .steps
                .iter()
                .find(|e| matches!(e, Event::Relaxed { .. }))
                .cloned()
            else {
                continue;
            };
            let mut points = 0;
            let (mut blocks, mut in_blocks) = (0, 0);
            let mut best: Option<([f64; 2], f64)> = None;
            for e in &t.steps {
                match e {
                    Event::Point {
                        x: Some(x),
                        t: Some(t),
                        best: true,
                        ..
                    } => {
                        assert!(best.is_none_or(|b| *t <= b.1));
                        best = Some((*x, *t));
                        points += 1;
                    }
                    Event::Point { best: b, x, .. } => {
                        assert!(!*b || x.is_some());
                        points += 1;
                    }
                    Event::Pruned {
                        points: n,
                        bound,
                        incumbent,
                        ..
                    } => {
                        blocks += 1;
                        in_blocks += n;
                        // A block is pruned by its bound, or because it is empty.
                        if let (Some(b), Some(i)) = (bound, incumbent) {
                            assert!(*b >= i * (1.0 - 1e-9), "{b} < {i}");
                        }
                    }
                    _ => {}
                }
            }
            assert_eq!(omitted, 0);
            assert_eq!(
                (points, blocks, in_blocks),
                (solved, pruned_blocks, pruned_points)
            );
            assert_eq!(solved + pruned_points, grid_points, "job {job}");
            assert_eq!(best, Some((x, tx)), "job {job}");
        }
    }
}

/// The caps bound the trace and say what they left out; the plan is unchanged.
#[test]
fn the_caps_keep_the_trace_short_and_count_the_rest() {
    let mut s = scenario(30, 11, Mode::Sync, 0.3, 0.02);
    s.params.m_delta = 1.0;
    let want = smd_plan(&s, InnerSolver::Fast);
    let opts = TraceOptions {
        max_grid_steps: 5,
        max_draws: 1,
        max_admission_steps: 4,
        ..TraceOptions::default()
    };
    let mut cut_grid = false;
    for job in 0..s.jobs.len() {
        let full = trace(&s, job, &big()).unwrap();
        let t = trace(&s, job, &opts).unwrap();
        assert_eq!(t.plan, want);
        let count = |t: &Trace, f: &dyn Fn(&Event) -> bool| t.steps.iter().filter(|e| f(e)).count();
        let grid = |e: &Event| matches!(e, Event::Point { .. } | Event::Pruned { .. });
        let (kept, all) = (count(&t, &grid), count(&full, &grid));
        assert!(kept <= 10, "{kept}");
        if let Some(Event::Relaxed {
            omitted,
            solved,
            pruned_blocks,
            ..
        }) = t.steps.iter().find(|e| matches!(e, Event::Relaxed { .. }))
        {
            assert_eq!(kept as u64 + omitted, solved + pruned_blocks);
            assert_eq!(all as u64, solved + pruned_blocks);
            cut_grid |= *omitted > 0;
        }
        let draws = |e: &Event| matches!(e, Event::Draw { .. });
        assert!(count(&t, &draws) <= 2);
        if let Some(Event::Rounded {
            omitted, attempts, ..
        }) = t.steps.iter().find(|e| matches!(e, Event::Rounded { .. }))
        {
            assert_eq!(count(&t, &draws) as u32 + omitted, *attempts.min(&1000));
        }
        let subsets = |e: &Event| matches!(e, Event::Subset { .. });
        let Some(Event::Admitted { omitted, .. }) = t.steps.last() else {
            panic!("no decision")
        };
        assert!(count(&t, &subsets) <= 8);
        assert_eq!(
            count(&t, &subsets) as u64 + omitted,
            count(&full, &subsets) as u64
        );
        assert!(*omitted > 0, "30 jobs at q = 2 reach more than 8 subsets");
    }
    assert!(cut_grid, "some job's grid is longer than 5 steps");
}

/// Every draw of the paper's rule follows its coins, and the first inside Ω is taken;
/// branch and bound's incumbent only grows and stays below the open bound.
#[test]
fn draws_follow_their_coins_and_the_incumbent_only_grows() {
    for s in scenarios() {
        for job in 0..s.jobs.len() {
            let t = trace(&s, job, &big()).unwrap();
            let scaled = t.steps.iter().find_map(|e| match e {
                Event::Scaled { scaled, .. } => Some(*scaled),
                _ => None,
            });
            let mut taken = None;
            for e in &t.steps {
                if let Event::Draw {
                    coins,
                    up,
                    w,
                    p,
                    inside,
                    ..
                } = e
                {
                    let xt = scaled.expect("x̃ comes first");
                    assert!(taken.is_none(), "no draw after one is taken");
                    for i in 0..2 {
                        assert_eq!(up[i], coins[i] < xt[i] - xt[i].floor());
                    }
                    let fl = xt.map(f64::floor);
                    assert_eq!(
                        (*w, *p),
                        (
                            fl[0] as u64 + u64::from(up[0]),
                            fl[1] as u64 + u64::from(up[1])
                        )
                    );
                    if *inside {
                        taken = Some((*w, *p));
                    }
                }
            }
            if let (Some(wp), Some(Event::Rounded { w, p, .. })) = (
                taken,
                t.steps.iter().find(|e| matches!(e, Event::Rounded { .. })),
            ) {
                assert_eq!(wp, (*w, *p));
            }
            let mut last = 0.0;
            for e in &t.steps {
                if let Event::Node {
                    incumbent,
                    open_bound,
                    bound,
                    ..
                } = e
                {
                    assert!(*incumbent >= last);
                    assert!(*open_bound >= *incumbent);
                    assert!(bound.is_none_or(f64::is_finite));
                    last = *incumbent;
                }
            }
        }
    }
}

/// A trace survives JSON (the page's worker sends it so) exactly.
#[test]
fn a_trace_round_trips_through_json() {
    for s in scenarios().into_iter().take(5) {
        let t = trace(&s, 0, &TraceOptions::default()).unwrap();
        let json = serde_json::to_string(&t).unwrap();
        let back: Trace = serde_json::from_str(&json).unwrap();
        assert_eq!(back, t);
    }
}

/// Bad input is an error naming its field, never a panic.
#[test]
fn bad_input_names_the_field() {
    let s = scenario(3, 1, Mode::Sync, 1.0, 0.2);
    match trace(&s, 3, &TraceOptions::default()) {
        Err(Error::Invalid(e)) => {
            assert_eq!(e[0].field, "job");
            assert!(e[0].message.contains("0 to 2 (got 3)"), "{}", e[0].message);
        }
        other => panic!("{other:?}"),
    }
    let mut bad = s.clone();
    bad.params.epsilon = 0.0;
    match trace(&bad, 0, &TraceOptions::default()) {
        Err(Error::Invalid(e)) => assert_eq!(e[0].field, "params.epsilon"),
        other => panic!("{other:?}"),
    }
    let mut empty = s;
    empty.jobs.clear();
    assert!(trace(&empty, 0, &TraceOptions::default()).is_err());
}
