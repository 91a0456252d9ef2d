use super::*;
use crate::codec::Draft;
use crate::solver::worker;
use crate::state::link::{BuyLink, ViewLink};
use crate::state::{Action, State, SweepAction, View};
use yew::Reducible;

/// The first 30 jobs of the bundled Philly workload on one t4x4 machine: a grid of a few
/// mixes runs in seconds.
fn base() -> Scenario {
    smd_apps::trace::workload_on_mix("philly-1", 30, "t4x4=1").unwrap()
}

fn state_of(s: Scenario) -> Rc<State> {
    Rc::new(State::new(Draft::of(s)))
}

/// The replies of a worker to `req`, as the page gets them (through JSON).
fn perform(req: Request) -> Vec<Reply> {
    let mut replies = Vec::new();
    worker::handle(req, &mut |r| {
        let text = serde_json::to_string(&r).unwrap();
        replies.push(serde_json::from_str::<Reply>(&text).unwrap())
    });
    replies
}

/// A report without its wall times (the only numbers that differ between runs).
fn untimed(mut r: MixReport) -> MixReport {
    let strip = |p: &mut MixPoint| {
        if let Some(o) = p.run.as_mut() {
            o.run_ms = 0.0;
        }
    };
    r.points.iter_mut().for_each(strip);
    r.frontier.iter_mut().for_each(strip);
    r.best.iter_mut().for_each(strip);
    r
}

fn field(s: Rc<State>, name: &'static str, text: &str) -> Rc<State> {
    s.reduce(Action::Sweep(SweepAction::BuyField(name, text.into())))
}

#[test]
fn the_default_grid_suits_the_draft() {
    let mut s = base();
    assert_eq!(BuyForm::default_grid(&s), "t4x4=0:4");
    s = smd_apps::trace::workload_on_mix("philly-1", 5, "t4x4=4,a100x8=1").unwrap();
    assert_eq!(BuyForm::default_grid(&s), "t4x4=0:8,a100x8=0:4");
    s = smd_apps::trace::workload_on_mix("philly-1", 5, "t4x4=16,a100x8=2").unwrap();
    assert_eq!(BuyForm::default_grid(&s), "t4x4=0:32:4,a100x8=0:4");
    let pool = crate::defaults::default_scenario();
    assert_eq!(BuyForm::default_grid(&pool), DEFAULT_GRID);
    // Many groups: fewer counts each, within the most mixes a grid may have.
    s = smd_apps::trace::workload_on_mix(
        "philly-1",
        5,
        "t4x4=4,a100x8=1,rtx2080tix8=3,rtx6000x4=2,v100x8=2",
    )
    .unwrap();
    let spec = MixSpec::parse(&BuyForm::default_grid(&s)).unwrap();
    assert!(spec.len() <= MAX_MIXES && spec.len() > 1, "{spec:?}");
    // The policies offered: those that plan the jobs on the largest mix, never bound;
    // sia by default.
    let f = BuyForm::default();
    let offered = f.policies(&base());
    assert!(offered.contains(&SimPolicy::Sia), "{offered:?}");
    assert!(!offered.contains(&SimPolicy::Bound));
    assert_eq!(f.policy_for(&offered), Some(SimPolicy::Sia));
}

/// The page's search, its mixes done by the worker in the search's order, stops once the
/// answer is settled and gives the native report (and the native sentence).
#[test]
fn a_search_stops_when_settled_and_equals_the_native_run() {
    let b = base();
    let s = state_of(b.clone());
    let s = field(s, "grid", "t4x4=0:4:2,a100x8=0:2");
    let s = field(s, "goal", "2h");
    let s = s.reduce(Action::Sweep(SweepAction::BuyStart(2, 1000.0)));
    assert_eq!(s.sweep.buy.form.error, None);
    let run = s.sweep.buy.run.running.as_ref().expect("running");
    let search = run.request.search.clone();
    assert_eq!(search.question.policy, SimPolicy::Sia);
    assert_eq!(search.question.minimize, Minimize::Cost);
    assert_eq!(search.question.goal, Some(7200.0));
    let ids = s.sweep.tasks();
    assert_eq!(ids.len(), 9);
    assert!(s.tasks().is_empty(), "the pool's, not the page's solver's");
    // Sent in the search's order: cheapest first.
    let indices: Vec<usize> = run.progress.tasks.iter().map(|t| t.1).collect();
    assert_eq!(indices, search.order());
    let native = search.run(&b, &mut smd_sweep::Options::default()).unwrap();
    assert!(
        native.skipped > 0,
        "the goal lets the search skip: {}",
        native.answer
    );
    // A pool of two: the first two out, then one more as each comes back.
    let mut s = s;
    let mut sent = 0;
    while let Some(id) = s.sweep.tasks().first().copied() {
        let replies = perform(s.sweep.request(id).unwrap());
        sent += 1;
        for r in replies {
            s = s.reduce(Action::Sweep(SweepAction::Reply(r, 3000.0)));
        }
        if let Some((done, total)) = s.sweep.buy.progress() {
            assert_eq!((done, total), (sent, 9));
        }
    }
    assert!(sent < 9, "the rest were dropped once settled ({sent} run)");
    assert!(s.sweep.buy.run.running.is_none());
    let Some(Ok(done)) = &s.sweep.buy.run.finished else {
        panic!("{:?}", s.sweep.buy.run.finished)
    };
    assert_eq!(done.ms, 2000.0);
    assert_eq!(untimed(done.report.clone()), untimed(native.clone()));
    assert_eq!(done.report.answer, native.answer);
    // The exports: a row per mix of the grid, the JSON the report itself.
    let (csv, json) = crate::export::buy(done);
    assert_eq!(csv.text.lines().count(), 1 + 9);
    let back: MixReport = serde_json::from_str(&json.text).unwrap();
    assert_eq!(back, done.report);
}

#[test]
fn errors_name_their_field_and_keep_the_text() {
    let s = state_of(base());
    for (name, text, at, says) in [
        ("grid", "t4x4=0:4,", "mix", "an entry is empty"),
        ("grid", "h100x8=1", "mix", "unknown machine type"),
        ("goal", "soon", "goal", "is not a goal"),
        ("budget", "-3/h", "budget", "is not a budget"),
        ("policy", "fifo", "policy", "fifo cannot plan"),
    ] {
        let s = field(s.clone(), "goal", "2h");
        let s = field(s, "grid", "t4x4=0:2,a100x8=0:1");
        let s = field(s, name, text);
        let s = s.reduce(Action::Sweep(SweepAction::BuyStart(2, 0.0)));
        let (wrong, message) = s.sweep.buy.form.error.clone().expect(text);
        assert_eq!(wrong, at, "{text}: {message}");
        assert!(message.contains(says), "{text}: {message}");
        assert!(s.sweep.buy.run.running.is_none());
        assert!(s.sweep.tasks().is_empty());
        // The text stays as typed.
        let f = &s.sweep.buy.form;
        let kept = match name {
            "grid" => f.grid.clone().unwrap(),
            "goal" => f.goal.clone(),
            "budget" => f.budget.clone(),
            _ => f.policy.clone(),
        };
        assert_eq!(kept, text);
        // The next edit clears the message.
        let s = field(s, name, text);
        assert_eq!(s.sweep.buy.form.error, None);
    }
    // The cheapest mix needs a goal.
    let s = s.reduce(Action::Sweep(SweepAction::BuyStart(2, 0.0)));
    assert_eq!(s.sweep.buy.form.error.as_ref().map(|e| e.0), Some("goal"));
}

/// The form survives the link, which runs it on open; the answer's own link carries the
/// form only.
#[test]
fn the_form_round_trips_through_the_link_and_runs_on_open() {
    let s = state_of(base());
    let s = field(s, "grid", "t4x4=0:4:2,a100x8=0:1");
    let s = field(s, "metric", "p95_jct");
    let s = field(s, "policy", "sia");
    let s = field(s, "goal", "3h");
    let s = field(s, "budget", "$40/h");
    let s = field(s, "minimize", "metric");
    let s = field(s, "every", "true");
    for link in [ViewLink::of(&s, View::Sweep), BuyLink::answer_link(&s)] {
        let hash = crate::route::with_view(&link.fragment(), View::Sweep);
        let back = ViewLink::parse(&hash).unwrap().unwrap();
        assert_eq!(back, link);
        let mut fresh = (*state_of(base())).clone();
        back.apply(&mut fresh);
        assert_eq!(fresh.sweep.buy.form, s.sweep.buy.form);
        assert_eq!(
            fresh.sweep.buy.run_on_open,
            link.buy.as_ref().unwrap().run,
            "{link:?}"
        );
    }
    assert!(BuyLink::answer_link(&s).buy.unwrap().run);
    assert!(BuyLink::answer_link(&s).sweep.is_none());
    // Opened and run: the search starts with the form's question.
    let mut fresh = (*state_of(base())).clone();
    BuyLink::answer_link(&s).apply(&mut fresh);
    let fresh = Rc::new(fresh).reduce(Action::Sweep(SweepAction::BuyStart(2, 0.0)));
    let q = &fresh
        .sweep
        .buy
        .run
        .running
        .as_ref()
        .unwrap()
        .request
        .search
        .question;
    assert_eq!(q.metric, Metric::P95Jct);
    assert_eq!(q.policy, SimPolicy::Sia);
    assert_eq!((q.goal, q.budget), (Some(10800.0), Some(40.0)));
    assert!(q.every);
    assert!(!fresh.sweep.buy.run_on_open);
}

/// Cancel drops every mix still out; a late reply changes nothing; the capacity sweep
/// waits for the pool.
#[test]
fn cancel_drops_the_tasks_and_the_pool_runs_one_search_at_a_time() {
    let s = state_of(base());
    let s = field(s, "grid", "t4x4=0:4,a100x8=0:1");
    let s = field(s, "minimize", "metric");
    let s = s.reduce(Action::Sweep(SweepAction::BuyStart(1, 0.0)));
    let ids = s.sweep.tasks();
    assert_eq!(ids.len(), 10);
    assert_eq!(s.sweep.workers(), Some(1));
    let first = perform(s.sweep.request(ids[0]).unwrap());
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(s.sweep.run.running.is_none(), "one at a time");
    let s = s.reduce(Action::Sweep(SweepAction::BuyCancel));
    assert!(s.sweep.tasks().is_empty());
    assert_eq!(s.sweep.buy.cancelled, Some((0, 10)));
    let mut s = s;
    for r in first {
        s = s.reduce(Action::Sweep(SweepAction::Reply(r, 1.0)));
    }
    assert!(s.sweep.buy.run.finished.is_none());
}
