use super::*;
use crate::solver::{handle, Reply};
use crate::state::tests::state;
use crate::state::{Action, View};
use crate::state::{SolveAction, TeachAction, ViewAction};
use yew::Reducible;

/// Solves the state's draft, as the worker would.
fn solved(s: Rc<State>) -> Rc<State> {
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let id = s.solving.run.as_ref().unwrap().id;
    let mut replies = Vec::new();
    handle(s.request(id).unwrap(), &mut |r| replies.push(r));
    replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))))
}

/// The trace is a task like the landscape: asked for once per results and job, answered
/// under its id; then the stepper moves within it, by hand and by Play.
#[test]
fn a_trace_is_requested_once_and_stepped_through() {
    let s = solved(state(3)).reduce(Action::View(ViewAction::Show(View::Teach)));
    let (rev, uid, _) = s.wanted_landscape().unwrap();
    let s = s.reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    let again = s
        .clone()
        .reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    assert!(Rc::ptr_eq(&s, &again), "asked once");
    let id = s.teach.pending().unwrap();
    assert_eq!(s.tasks(), vec![id]);
    let req = s.request(id).unwrap();
    assert!(matches!(req.task, Task::Teach { job: 0, .. }));
    let mut replies = Vec::new();
    handle(req, &mut |r| replies.push(r));
    let s = replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))));
    assert!(s.tasks().is_empty());
    let n = s.teach.len();
    assert!(n > 5, "{n}");
    assert_eq!(s.teach.step, 0);
    // By hand: Previous stops at the first step, Next at the last; stages jump.
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Previous)));
    assert_eq!(s.teach.step, 0);
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Next)));
    assert_eq!(s.teach.step, 1);
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Stage(
        Stage::Admission,
    ))));
    let a = s.teach.ready().unwrap().first_of(Stage::Admission).unwrap();
    assert_eq!(s.teach.step, a);
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Last)));
    assert_eq!(s.teach.step, n - 1);
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Next)));
    assert_eq!(s.teach.step, n - 1);
    // Play from the last step starts again and stops at the end; a move stops it.
    let s = s.reduce(Action::Teach(TeachAction::Play(true)));
    assert!(s.teach.playing);
    assert_eq!(s.teach.step, 0);
    let s = s.reduce(Action::Teach(TeachAction::Tick));
    assert_eq!(s.teach.step, 1);
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Next)));
    assert!(!s.teach.playing);
    let before = s.clone();
    let s = s.reduce(Action::Teach(TeachAction::Tick));
    assert!(Rc::ptr_eq(&before, &s), "a late tick changes nothing");
    let mut s = s.reduce(Action::Teach(TeachAction::Play(true)));
    for _ in 0..n + 3 {
        s = s.reduce(Action::Teach(TeachAction::Tick));
    }
    assert_eq!(s.teach.step, n - 1);
    assert!(!s.teach.playing, "Play pauses at the end");
    // Leaving the view stops Play.
    let s = s.reduce(Action::Teach(TeachAction::Play(true)));
    let s = s.reduce(Action::View(ViewAction::Show(View::Plan)));
    assert!(!s.teach.playing);
}

/// A dead worker loses a pending trace with a message instead of asking again.
#[test]
fn a_dead_worker_loses_the_pending_trace() {
    let s = solved(state(2));
    let (rev, uid, _) = s.wanted_landscape().unwrap();
    let s = s.reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    let s = s.reduce(Action::Solve(SolveAction::WorkerDied("boom".into())));
    let Some(Err(why)) = &s.teach.trace.as_ref().unwrap().data else {
        panic!("no message")
    };
    assert!(why.contains("boom"), "{why}");
    assert!(s.teach.pending().is_none());
    // A late reply to it changes nothing.
    let late = Reply::Event {
        task: s.teach.trace.as_ref().unwrap().run + 1000,
        event: Event::Failed {
            message: "late".into(),
        },
    };
    let before = s.clone();
    let s = s.reduce(Action::Solve(SolveAction::Reply(late)));
    assert!(Rc::ptr_eq(&before, &s));
}
