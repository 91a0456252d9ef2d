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
    let id = s.solving.run().unwrap().id;
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
    let (rev, uid, index) = s.wanted_landscape().unwrap();
    let s = s.reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    let again = s
        .clone()
        .reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    assert!(Rc::ptr_eq(&s, &again), "asked once");
    let id = s.teach.pending().unwrap();
    assert_eq!(s.tasks(), vec![id]);
    let req = s.request(id).unwrap();
    assert!(matches!(req.task, Task::Teach { job, .. } if job == index));
    let mut replies = Vec::new();
    handle(req, &mut |r| replies.push(r));
    let s = replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))));
    assert!(s.tasks().is_empty());
    assert!(s.teach.lesson, "the lesson is the default");
    // The whole trace, step by step.
    let s = s.reduce(Action::Teach(TeachAction::Lesson(false)));
    let n = s.teach.len();
    assert!(n > 5, "{n}");
    assert_eq!(s.teach.step, 0);
    assert_eq!(s.teach.position(), (1, n));
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
    let id = s.teach.pending().unwrap();
    let s = s.reduce(Action::Solve(SolveAction::WorkerDied("boom".into())));
    let Some(Err(why)) = &s.teach.trace.as_ref().unwrap().data() else {
        panic!("no message")
    };
    assert!(why.contains("boom"), "{why}");
    assert!(s.teach.pending().is_none());
    // A late reply to it changes nothing.
    let late = Reply::Event {
        task: id + 1000,
        event: Event::Failed {
            message: "late".into(),
        },
    };
    let before = s.clone();
    let s = s.reduce(Action::Solve(SolveAction::Reply(late)));
    assert!(Rc::ptr_eq(&before, &s));
}

/// The lesson walks only its key steps — by Next, Previous, First, Last, Play and the stage
/// jumps — counts them, and keeps the step when switched to the whole trace and back; the
/// space bar's toggle plays and stops; the speed is Play's interval.
#[test]
fn the_lesson_walks_its_key_steps() {
    let mut sc = smd_core::generate(&smd_core::GenerateOptions {
        jobs: 8,
        ..Default::default()
    });
    sc.params.epsilon = 0.05;
    let s = solved(Rc::new(State::new(crate::state::Draft::of(sc))));
    let s = s.reduce(Action::View(ViewAction::Show(View::Teach)));
    let (rev, uid, _) = s.wanted_landscape().unwrap();
    let s = s.reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    let id = s.teach.pending().unwrap();
    let mut replies = Vec::new();
    handle(s.request(id).unwrap(), &mut |r| replies.push(r));
    let mut s = replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))));
    let t = s.teach.ready().unwrap().clone();
    let keys: Vec<usize> = smd_charts::teach::lesson(&t).iter().map(|k| k.at).collect();
    assert!(
        keys.len() < t.steps.len(),
        "the lesson is shorter than the trace"
    );
    assert_eq!(s.teach.position(), (1, keys.len()));
    // Next visits exactly the key steps, in order, and stops at the last.
    let mut seen = vec![s.teach.step];
    for _ in 0..keys.len() + 2 {
        s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Next)));
        if seen.last() != Some(&s.teach.step) {
            seen.push(s.teach.step);
        }
    }
    assert_eq!(seen, keys);
    assert_eq!(s.teach.position(), (keys.len(), keys.len()));
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Previous)));
    assert_eq!(s.teach.step, keys[keys.len() - 2]);
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Stage(
        Stage::Rounding,
    ))));
    assert_eq!(s.teach.step, t.first_of(Stage::Rounding).unwrap());
    assert!(keys.contains(&s.teach.step));
    // The whole trace from there: Next is the trace's next step; back in the lesson, the
    // key step standing for it.
    let s = s.reduce(Action::Teach(TeachAction::Lesson(false)));
    let r = s.teach.step;
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Next)));
    assert_eq!(s.teach.step, r + 1);
    let s = s.reduce(Action::Teach(TeachAction::Lesson(true)));
    assert!(keys.contains(&s.teach.step) && s.teach.step > r);
    // Play (the space bar) from the last step starts at the first and walks the keys.
    let s = s.reduce(Action::Teach(TeachAction::Go(TeachMove::Last)));
    let s = s.reduce(Action::Teach(TeachAction::Toggle));
    assert!(s.teach.playing);
    assert_eq!(s.teach.step, keys[0]);
    let s = s.reduce(Action::Teach(TeachAction::Tick));
    assert_eq!(s.teach.step, keys[1]);
    let s = s.reduce(Action::Teach(TeachAction::Toggle));
    assert!(!s.teach.playing);
    let s = s.reduce(Action::Teach(TeachAction::Speed(500)));
    assert_eq!(s.teach.play_ms, 500);
}

/// Step through opens on a job SMD admits (the default scenario's first job is not) until
/// the user picks one; a job the user picks stays.
#[test]
fn step_through_opens_on_an_admitted_job_until_one_is_picked() {
    let s = solved(Rc::new(State::new(crate::state::Draft::of(
        crate::defaults::default_scenario(),
    ))));
    let plan = s
        .solving
        .results
        .as_ref()
        .unwrap()
        .plan(smd_core::Policy::Smd)
        .unwrap()
        .clone();
    let uids = s.solving.results.as_ref().unwrap().uids.clone();
    assert!(
        !plan.jobs[0].admitted,
        "the default's first job is not admitted"
    );
    assert_eq!(
        s.view.selected,
        Some(uids[0]),
        "the Plan view keeps the first job"
    );
    let s = s.reduce(Action::View(ViewAction::Show(View::Teach)));
    let first = plan.jobs.iter().position(|l| l.admitted).unwrap();
    assert_eq!(s.view.selected, Some(uids[first]));
    // Picked by the user: kept, admitted or not.
    let s = s.reduce(Action::View(ViewAction::SelectJob(uids[0])));
    let s = s.reduce(Action::View(ViewAction::Show(View::Plan)));
    let s = s.reduce(Action::View(ViewAction::Show(View::Teach)));
    assert_eq!(s.view.selected, Some(uids[0]));
}

/// A link from How it works opens Step through at a stage: kept until the trace is ready,
/// then the stage's first step; at once when the trace is already there.
#[test]
fn a_link_opens_step_through_at_a_stage() {
    let s = solved(state(3));
    let s = s.reduce(Action::Teach(TeachAction::Open(Stage::Grid)));
    assert_eq!(s.view.tab, View::Teach);
    assert_eq!(s.teach.want, Some(Stage::Grid));
    let (rev, uid, _) = s.wanted_landscape().unwrap();
    let s = s.reduce(Action::Teach(TeachAction::RequestTrace((rev, uid))));
    let id = s.teach.pending().unwrap();
    let mut replies = Vec::new();
    handle(s.request(id).unwrap(), &mut |r| replies.push(r));
    let s = replies
        .into_iter()
        .fold(s, |s, r| s.reduce(Action::Solve(SolveAction::Reply(r))));
    let t = s.teach.ready().unwrap().clone();
    assert_eq!(s.teach.step, t.first_of(Stage::Grid).unwrap());
    assert_eq!(s.teach.want, None);
    let s = s.reduce(Action::View(ViewAction::Show(View::HowItWorks)));
    let s = s.reduce(Action::Teach(TeachAction::Open(Stage::Admission)));
    assert_eq!(s.view.tab, View::Teach);
    assert_eq!(s.teach.step, t.first_of(Stage::Admission).unwrap());
    assert_eq!(s.teach.want, None);
}
