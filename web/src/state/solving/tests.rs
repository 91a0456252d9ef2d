use super::*;
use crate::fields::FieldKey;
use crate::solver::{handle, Request};
use crate::state::tests::state;
use crate::state::Action;
use crate::state::{DraftAction, SolveAction};
use yew::Reducible;

/// A slow solve's plans show as each policy answers (a fast one's at the end, in one
/// render); nothing is recommended until all have; a cancel mid-solve leaves the last
/// finished results, a death the same until the re-run's first plan.
#[test]
fn plans_show_as_they_arrive_and_cancel_leaves_the_finished_ones() {
    let solve = |s: Rc<State>| -> (Rc<State>, Vec<Reply>) {
        let revision = s.draft.revision;
        let s = s.reduce(Action::Solve(SolveAction::Start(revision)));
        let id = s.solving.run().unwrap().id;
        let mut replies = Vec::new();
        handle(s.request(id).unwrap(), &mut |r| replies.push(r));
        (s, replies)
    };
    let partials = |replies: &[Reply]| {
        replies
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    Reply::Event {
                        event: Event::Partial(_),
                        ..
                    }
                )
            })
            .count()
    };
    // A first solve, slow (its clock has ticked a second), to the end.
    let (s, replies) = solve(state(2));
    let id = s.solving.run().unwrap().id;
    let mut s = s.reduce(Action::Solve(SolveAction::Elapsed(id, 1)));
    let n = partials(&replies);
    assert_eq!(n, page_policies(&s.draft.scenario.cluster).len());
    let mut seen = 0;
    for reply in replies {
        let (partial, done) = match &reply {
            Reply::Event { event, .. } => (
                matches!(event, Event::Partial(_)),
                matches!(event, Event::Done { .. }),
            ),
            _ => (false, false),
        };
        seen += usize::from(partial);
        s = s.reduce(Action::Solve(SolveAction::Reply(reply)));
        let Some(shown) = s.solving.shown() else {
            assert_eq!(seen, 0, "plans on screen from the first partial on");
            continue;
        };
        if done {
            assert!(shown.complete && s.solving.results.is_some());
            assert_eq!(shown.plans.len(), n);
            assert!(shown.recommended().is_some());
        } else {
            // `seen` plans so far, none recommended, nothing finished yet.
            assert!(!shown.complete);
            assert_eq!(shown.plans.len() + shown.failures.len(), seen);
            assert!(shown.recommended().is_none());
            assert!(s.solving.results.is_none());
            assert!(!s.results_stale());
        }
    }
    let finished = s.solving.results.clone().unwrap();
    // An edit, a new solve, two policies answer, then Cancel: the finished plans again.
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.seed"),
        "5".into(),
    )));
    let (mut s, replies) = solve(s);
    let mut partial = replies.into_iter().filter(|r| {
        matches!(
            r,
            Reply::Event {
                event: Event::Partial(_),
                ..
            }
        )
    });
    for _ in 0..2 {
        s = s.reduce(Action::Solve(SolveAction::Reply(partial.next().unwrap())));
    }
    // Fast so far: the finished plans stay on screen (marked stale) …
    assert!(Rc::ptr_eq(&s.solving.shown().unwrap(), &finished));
    // … until the solve has taken a second.
    let id = s.solving.run().unwrap().id;
    let s = s.reduce(Action::Solve(SolveAction::Elapsed(id, 1)));
    let shown = s.solving.shown().unwrap();
    assert_eq!((shown.plans.len(), shown.complete), (2, false));
    assert_eq!(shown.revision, s.draft.revision);
    let s = s.reduce(Action::Solve(SolveAction::Cancel));
    assert!(Rc::ptr_eq(&s.solving.shown().unwrap(), &finished));
    assert!(s.results_stale());
    // A worker that dies mid-solve: the re-run starts with nothing of its own.
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.seed"),
        "6".into(),
    )));
    let (s, replies) = solve(s);
    let id = s.solving.run().unwrap().id;
    let mut s = s.reduce(Action::Solve(SolveAction::Elapsed(id, 2)));
    s = s.reduce(Action::Solve(SolveAction::Reply(
        replies
            .into_iter()
            .find(|r| {
                matches!(
                    r,
                    Reply::Event {
                        event: Event::Partial(_),
                        ..
                    }
                )
            })
            .unwrap(),
    )));
    assert!(!s.solving.shown().unwrap().complete);
    let s = s.reduce(Action::Solve(SolveAction::WorkerDied("boom".into())));
    assert!(Rc::ptr_eq(&s.solving.shown().unwrap(), &finished));
}

#[test]
fn solve_replies_fill_results_and_stale_ones_are_ignored() {
    let s = state(2);
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let id = s.solving.run().unwrap().id;
    assert_eq!(s.tasks(), vec![id]);
    let Some(Request { task, .. }) = s.request(id) else {
        panic!("no request for the run")
    };
    let mut replies = Vec::new();
    handle(Request { id, task }, &mut |r| replies.push(r));
    let mut s = s.reduce(Action::Solve(SolveAction::Reply(Reply::Event {
        task: 999,
        event: Event::Done {
            output: Output::Solved,
            ms: 0.0,
        },
    })));
    assert!(s.solving.run().is_some());
    for r in replies {
        s = s.reduce(Action::Solve(SolveAction::Reply(r)));
    }
    let r = s.solving.results.as_ref().unwrap();
    assert_eq!(r.plans.len(), page_policies(&r.scenario.cluster).len());
    // `global` is planned too, and it is the recommended plan.
    let global = r.plan(Policy::Global).expect("global planned");
    assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Global));
    for p in &r.plans {
        assert!(
            global.total_utility >= p.total_utility - 1e-9,
            "{}",
            p.policy
        );
    }
    assert!(s.solving.run().is_none());
    assert!(!s.results_stale());
    assert!(s.tasks().is_empty());
}

/// The recommended plan is the best total utility; `global` wins a tie, and another
/// policy is recommended only without a `global` plan.
#[test]
fn the_recommended_plan_is_the_best_total_utility() {
    let s = state(2);
    let plan = |policy, total_utility| Plan {
        policy,
        total_utility,
        ..smd_core::plan_with(&s.draft.scenario, Policy::Esw, &mut Default::default()).unwrap()
    };
    let mut r = Results {
        revision: 1,
        scenario: s.draft.scenario.clone(),
        uids: s.draft.uids.clone(),
        plans: vec![plan(Policy::Smd, 5.0), plan(Policy::Exact, 7.0)],
        failures: Vec::new(),
        ms: 0.0,
        complete: true,
        prebuilt: false,
    };
    assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Exact));
    // A total a rounding error below the best is as good (the fixture's optimus and
    // global differ so: 260.4205629462304 and 260.4205629455367).
    r.plans.insert(1, plan(Policy::Global, 7.0 * (1.0 - 1e-12)));
    assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Global));
    r.plans[1].total_utility = 6.9;
    assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Exact));
    r.plans.clear();
    assert!(r.recommended().is_none());
}

/// The draft's time budget goes with the solve; `global`'s search reports show in the
/// run until the solve ends, and Cancel stops a searching `global` like any solve.
#[test]
fn global_searches_within_the_budget_and_cancel_stops_it() {
    let s = state(2);
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top(crate::fields::GLOBAL_BUDGET),
        "0.25".into(),
    )));
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let id = s.solving.run().unwrap().id;
    let Some(Request {
        task: Task::Solve {
            global_budget_ms, ..
        },
        ..
    }) = s.request(id)
    else {
        panic!("no solve request")
    };
    assert_eq!(global_budget_ms, 250.0);
    let global = Policy::POOL
        .iter()
        .position(|&p| p == Policy::Global)
        .unwrap();
    let event = |event| Action::Solve(SolveAction::Reply(Reply::Event { task: id, event }));
    let s = s.reduce(event(Event::Progress {
        step: global,
        done: 1,
        total: 2,
    }));
    assert_eq!(s.solving.run().unwrap().progress.search, None);
    let search = smd_core::SearchProgress {
        nodes: 1_200_000,
        best: 1234.5,
        bound: 1235.0,
    };
    let s = s.reduce(event(Event::Search {
        step: global,
        search,
    }));
    let run = s.solving.run().unwrap();
    assert_eq!(run.progress.jobs, Some((global, 2, 2)));
    assert_eq!(run.progress.search, Some(search));
    // Cancel: the worker is terminated (a restart), the previous plans stay.
    let restarts = s.solving.restarts;
    let s = s.reduce(Action::Solve(SolveAction::Cancel));
    assert!(s.solving.run().is_none());
    assert_eq!(s.solving.restarts, restarts + 1);
    assert!(s.solve_cancelled());
    // A late report of the cancelled solve changes nothing.
    let before = s.clone();
    let s = s.reduce(event(Event::Search {
        step: global,
        search,
    }));
    assert!(Rc::ptr_eq(&before, &s));
}

/// The selected job's landscape is a task like a solve: asked for once per results
/// and job, answered under its id.
#[test]
fn a_landscape_is_requested_once_and_filled_by_its_reply() {
    let s = state(2);
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let id = s.solving.run().unwrap().id;
    let mut replies = Vec::new();
    handle(s.request(id).unwrap(), &mut |r| replies.push(r));
    let s = replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))));
    let (rev, uid, index) = s.wanted_landscape().expect("a job is selected");
    assert_eq!(index, 0);
    let s = s.reduce(Action::Solve(SolveAction::RequestLandscape((rev, uid))));
    let again = s
        .clone()
        .reduce(Action::Solve(SolveAction::RequestLandscape((rev, uid))));
    assert!(Rc::ptr_eq(&s, &again), "asked once");
    let l = s.solving.landscape.clone().unwrap();
    let run = l.id().unwrap();
    assert!(run > id && l.data().is_none());
    assert_eq!(s.tasks(), vec![run]);
    let req = s.request(run).unwrap();
    assert!(matches!(req.task, Task::Landscape { job: 0, .. }));
    let mut replies = Vec::new();
    handle(req, &mut |r| replies.push(r));
    let s = replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))));
    assert!(matches!(
        s.solving.landscape.as_ref().unwrap().data(),
        Some(Ok(_))
    ));
    assert!(s.tasks().is_empty());
}

#[test]
fn too_small_an_epsilon_names_the_field_and_the_hint_gives_the_limit() {
    let s = state(6);
    assert!(s.draft.valid);
    let (floor, job) = smd_core::budget::smallest_epsilon(&s.draft.scenario).expect("a limit");
    assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));
    assert!(s.draft.scenario.jobs.iter().any(|j| j.id == job));
    assert!(floor < 0.2, "{floor}");

    let key = FieldKey::top("params.epsilon");
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        key.clone(),
        format!("{}", floor / 10.0),
    )));
    assert!(!s.draft.valid);
    let e: Vec<_> = s.draft.errors_of(&key).collect();
    assert_eq!(e.len(), 1, "{:?}", s.draft.errors);
    assert!(
        e[0].message
            .contains(&format!("the smallest ε this scenario allows is {floor}")),
        "{}",
        e[0].message
    );
    assert!(s.shown_inline(e[0]));
    assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));
    // The limit itself is allowed.
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        key.clone(),
        floor.to_string(),
    )));
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));

    // Text that does not parse and an ε out of range keep the hint: the jobs are fine.
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "tiny".into())));
    assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "0".into())));
    assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));

    // A problem in a job hides it (the limit needs valid jobs) until it is fixed.
    let b = FieldKey::job(s.draft.uids[0], "ps_bandwidth_gbps");
    let bandwidth = s.draft.text(&b);
    let s = s.reduce(Action::Draft(DraftAction::Edit(b.clone(), "0".into())));
    assert_eq!(s.solving.epsilon_floor, None);
    let s = s.reduce(Action::Draft(DraftAction::Edit(b.clone(), "x".into())));
    assert_eq!(s.solving.epsilon_floor, None);
    let s = s.reduce(Action::Draft(DraftAction::Edit(b, bandwidth)));
    assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));

    // It follows the jobs: fewer jobs, a limit of its own.
    let s = s.reduce(Action::Draft(DraftAction::Edit(key, "0.2".into())));
    let first = s.draft.uids[0];
    let s = s.reduce(Action::Draft(DraftAction::DeleteJob(first)));
    assert!(s.draft.valid);
    assert_eq!(
        s.solving.epsilon_floor,
        smd_core::budget::smallest_epsilon(&s.draft.scenario)
    );
}

#[test]
fn a_slow_solve_is_called_out_and_cancel_stops_it() {
    let s = state(2);
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let id = s.solving.run().unwrap().id;
    assert!(!s.solving.run().unwrap().slow());
    let s = s.reduce(Action::Solve(SolveAction::Elapsed(id, 1)));
    assert_eq!(s.solving.run().unwrap().progress.elapsed_s, 1);
    assert!(!s.solving.run().unwrap().slow());
    // A tick of an older run changes nothing.
    let before = s.clone();
    let s = s.reduce(Action::Solve(SolveAction::Elapsed(id + 7, 9)));
    assert!(Rc::ptr_eq(&before, &s));
    let s = s.reduce(Action::Solve(SolveAction::Elapsed(id, SLOW_SOLVE_S)));
    assert!(s.solving.run().unwrap().slow());
    // Cancel stops it: the worker is replaced and the previous plans stay.
    let restarts = s.solving.restarts;
    let s = s.reduce(Action::Solve(SolveAction::Cancel));
    assert!(s.solving.run().is_none());
    assert_eq!(s.solving.restarts, restarts + 1);
    assert!(s
        .view
        .notice
        .as_ref()
        .unwrap()
        .text
        .contains("Solve cancelled"));
    let s = s.reduce(Action::Solve(SolveAction::Elapsed(id, 5)));
    assert!(s.solving.run().is_none());
    // The status says the shown plans are stale because the solve was cancelled (not
    // "being solved"), until the input changes.
    assert!(s.solve_cancelled());
    // A re-run (after the worker died) starts its clock again.
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.seed"),
        "5".into(),
    )));
    assert!(!s.solve_cancelled());
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let id = s.solving.run().unwrap().id;
    let s = s.reduce(Action::Solve(SolveAction::Elapsed(id, 4)));
    let s = s.reduce(Action::Solve(SolveAction::WorkerDied("boom".into())));
    assert_eq!(s.solving.run().unwrap().progress.elapsed_s, 0);
}
