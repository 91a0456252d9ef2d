use super::*;
use crate::solver::worker;
use crate::state::tests::state;
use crate::state::{Action, State};
use crate::state::{DraftAction, SweepAction};
use std::rc::Rc;
use yew::Reducible;

/// The replies of a worker to `req`, as the page gets them (through JSON).
fn perform(req: Request) -> Vec<Reply> {
    let mut replies = Vec::new();
    worker::handle(req, &mut |r| {
        let text = serde_json::to_string(&r).unwrap();
        replies.push(serde_json::from_str::<Reply>(&text).unwrap())
    });
    replies
}

fn utilities(r: &Report, p: Policy) -> Vec<f64> {
    r.points
        .iter()
        .map(|x| {
            x.policies
                .iter()
                .find(|(q, _)| *q == p)
                .unwrap()
                .1
                .total_utility
        })
        .collect()
}

#[test]
fn default_sizes_suit_the_draft() {
    let default = crate::defaults::default_scenario();
    let f = SweepForm::default();
    assert_eq!(f.range_text(&default), "0.25:5:0.25");
    assert_eq!(f.default_range(&default).values().unwrap().len(), 20);
    let mut two = default.clone();
    two.cluster.units = 2.0;
    assert_eq!(f.range_text(&two), "0.5:10:0.5");
    // 16 × t4x4 as a group: up to 32 machines in steps of 2.
    let t4 = machines::machine_type("t4x4").unwrap();
    let mut groups = default.clone();
    machines::move_to_machines(&mut groups, t4, 16.0);
    assert_eq!(f.axis_for(&groups), Axis::Machines);
    assert_eq!(f.range_text(&groups), "2:32:2");
    assert_eq!(
        f.group_for(&groups),
        Some(groups.cluster.machines[0].name.as_str())
    );
    // A pool in catalog machines: as many as hold its capacity, here 150 t4x4 for the
    // default's 600 GPUs.
    let on_machines = SweepForm {
        axis: Axis::Machines,
        ..SweepForm::default()
    };
    assert_eq!(on_machines.range_text(&default), "10:150:10");
    assert!(on_machines.listed(&default).contains(&Policy::SmdLocality));
    assert!(!f.listed(&default).contains(&Policy::SmdLocality));
    assert!(!on_machines.resource_allowed(&default));
    assert_eq!(nice_step(0.3, false), 0.5);
    assert_eq!(nice_step(0.25, false), 0.25);
    assert_eq!(nice_step(0.4, true), 1.0);
    assert_eq!(nice_step(f64::NAN, false), 1.0);
}

/// The page's sweep, its points done by the worker in any order, is the native one.
#[test]
fn a_sweep_gathers_every_size_into_the_native_report() {
    let s = state(6);
    let s = s.reduce(Action::Sweep(SweepAction::Field(
        "range",
        "0.25:1.5:0.25".into(),
    )));
    let s = s.reduce(Action::Sweep(SweepAction::TogglePolicy(
        Policy::Exact,
        false,
    )));
    let s = s.reduce(Action::Sweep(SweepAction::Start(3, 1000.0)));
    let run = s.sweep.run.running.as_ref().expect("running");
    assert_eq!(run.request.points.len(), 6);
    assert_eq!(run.request.workers, 3);
    assert_eq!(
        run.request.policies.planners,
        [Policy::Smd, Policy::Esw, Policy::Optimus, Policy::Global]
    );
    assert!(run.request.policies.over_time.is_empty(), "no arrivals");
    assert_eq!(
        run.request.label,
        "6 sizes of cluster units (0.25:1.5:0.25) × 4 policies"
    );
    let ids = s.sweep.tasks();
    assert_eq!(ids.len(), 6);
    // The pool's, not the page's solver's.
    assert!(s.tasks().is_empty());
    let mut replies: Vec<Reply> = ids
        .iter()
        .rev()
        .flat_map(|&id| perform(s.sweep.request(id).unwrap()))
        .collect();
    // Out of order, as a pool returns them; a stale reply changes nothing.
    replies.rotate_left(5);
    let mut s: Rc<State> = s;
    let stale = Reply::Event {
        task: 999,
        event: Event::Failed {
            message: "old".into(),
        },
    };
    s = s.reduce(Action::Sweep(SweepAction::Reply(stale, 1100.0)));
    assert!(s.sweep.run.running.is_some());
    let mut progressed = false;
    for r in replies {
        s = s.reduce(Action::Sweep(SweepAction::Reply(r, 2500.0)));
        if let Some(((_, _), (done, total))) = s.sweep.progress() {
            progressed |= done > 0 && done < total;
        }
    }
    assert!(progressed, "policies done show before the sizes are back");
    assert!(s.sweep.run.running.is_none());
    let done = s.sweep.run.finished.clone().unwrap().unwrap();
    assert_eq!(done.ms, 1500.0);
    let native = smd_sweep::sweep(
        &s.draft.scenario,
        &done.spec,
        &done.policies,
        &mut smd_sweep::Options {
            global_budget_ms: Some(3000.0),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(done.report.knee, native.knee);
    for p in &done.policies.planners {
        assert_eq!(utilities(&done.report, *p), utilities(&native, *p), "{p}");
    }
    let sizes: Vec<f64> = done.report.points.iter().map(|p| p.size.value()).collect();
    assert_eq!(sizes, [0.25, 0.5, 0.75, 1.0, 1.25, 1.5]);
    assert!(s.sweep.tasks().is_empty());
}

#[test]
fn problems_stay_at_their_input_with_the_text_typed() {
    let s = state(3);
    let s = s.reduce(Action::Sweep(SweepAction::Field("range", "5:1:1".into())));
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(s.sweep.run.running.is_none());
    assert_eq!(
        s.sweep.form.error,
        Some(("range", "the stop (1) is below the start (5)".into()))
    );
    assert_eq!(s.sweep.form.range.as_deref(), Some("5:1:1"));
    let s = s.reduce(Action::Sweep(SweepAction::Field("range", "1:5".into())));
    assert!(s.sweep.form.error.is_none(), "an edit clears the message");
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(
        matches!(&s.sweep.form.error, Some(("range", m)) if m.starts_with("expected start:stop:step"))
    );
    // Machines must be whole: smd_sweep's message, at the sizes.
    let s = s.reduce(Action::Sweep(SweepAction::Field("axis", "machines".into())));
    assert_eq!(
        s.sweep.form.range, None,
        "another axis brings back the default"
    );
    let s = s.reduce(Action::Sweep(SweepAction::Field("range", "1.5:3:1".into())));
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(
        matches!(&s.sweep.form.error, Some(("range", m)) if m.contains("whole number")),
        "{:?}",
        s.sweep.form.error
    );
    // No policy at all.
    let mut s = s.reduce(Action::Sweep(SweepAction::Field("axis", "units".into())));
    for &p in Policy::ALL.iter() {
        s = s.reduce(Action::Sweep(SweepAction::TogglePolicy(p, false)));
    }
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(matches!(s.sweep.form.error, Some(("policies", _))));
    let s = s.reduce(Action::Sweep(SweepAction::TogglePolicy(Policy::Esw, true)));
    assert!(s.sweep.form.error.is_none());
    // An invalid draft is not swept.
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        crate::fields::FieldKey::top("cluster.units"),
        "-1".into(),
    )));
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(matches!(s.sweep.form.error, Some(("source", _))));
}

#[test]
fn cancel_and_a_dead_worker_stop_the_sweep_and_late_replies_do_nothing() {
    let s = state(3).reduce(Action::Sweep(SweepAction::Field(
        "range",
        "0.5:2:0.5".into(),
    )));
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    let ids = s.sweep.tasks();
    let first = perform(s.sweep.request(ids[0]).unwrap());
    let second = s.sweep.request(ids[1]).unwrap();
    let mut s = s;
    for r in first {
        s = s.reduce(Action::Sweep(SweepAction::Reply(r, 10.0)));
    }
    assert_eq!(s.sweep.progress().unwrap().0, (1, 4));
    let s = s.reduce(Action::Sweep(SweepAction::Cancel));
    assert!(s.sweep.run.running.is_none());
    assert!(s.sweep.tasks().is_empty());
    assert_eq!(s.sweep.cancelled, Some((1, 4)));
    assert!(s.sweep.run.finished.is_none(), "nothing of a partial sweep");
    assert_eq!(s.view.notice.as_ref().unwrap().text, "Sweep cancelled.");
    let late = perform(second);
    let mut after = s.clone();
    for r in late {
        after = after.reduce(Action::Sweep(SweepAction::Reply(r, 20.0)));
    }
    assert_eq!(after.sweep, s.sweep);
    // A worker that dies with a task of the sweep stops it; an idle one's death does not.
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(s.sweep.cancelled.is_none());
    let id = s.sweep.tasks()[0];
    let s2 = s
        .clone()
        .reduce(Action::Sweep(SweepAction::WorkerDied(None, "boom".into())));
    assert!(s2.sweep.run.running.is_some());
    let s = s.reduce(Action::Sweep(SweepAction::WorkerDied(
        Some(id),
        "boom".into(),
    )));
    assert!(s.sweep.run.running.is_none());
    let why = s.sweep.run.finished.clone().unwrap().unwrap_err();
    assert!(why.contains("boom"), "{why}");
}

#[test]
fn a_failed_size_fails_the_sweep_with_its_message() {
    let s = state(2).reduce(Action::Sweep(SweepAction::Field("range", "1:2:1".into())));
    let s = s.reduce(Action::Sweep(SweepAction::Start(1, 0.0)));
    let id = s.sweep.tasks()[1];
    let s = s.reduce(Action::Sweep(SweepAction::Reply(
        Reply::Event {
            task: id,
            event: Event::Failed {
                message: "at units 2, policy smd: no".into(),
            },
        },
        0.0,
    )));
    assert!(s.sweep.run.running.is_none());
    assert_eq!(
        s.sweep.run.finished.clone().unwrap().unwrap_err(),
        "The sweep failed: at units 2, policy smd: no"
    );
}

/// Runs every task of the running sweep through the worker; the state after.
fn run_all(s: Rc<State>) -> Rc<State> {
    let mut s = s;
    for id in s.sweep.tasks() {
        for r in perform(s.sweep.request(id).unwrap()) {
            s = s.reduce(Action::Sweep(SweepAction::Reply(r, 0.0)));
        }
    }
    s
}

/// A state of `n` generated jobs arriving 10 min apart (version 2).
fn arriving(n: usize) -> Rc<State> {
    let s = state(n);
    let mut sc = (*s.draft.scenario).clone();
    sc.version = 2;
    for (i, j) in sc.jobs.iter_mut().enumerate() {
        j.arrival_s = Some(600.0 * i as f64);
    }
    s.reduce(Action::Draft(DraftAction::Load(
        Box::new(sc),
        String::new(),
    )))
}

#[test]
fn over_time_and_machine_groups_are_swept_too() {
    // Jobs with arrivals: over time is offered, and runs the policies checked.
    let s = arriving(3);
    assert!(has_arrivals(&s.draft.scenario));
    let s = s.reduce(Action::Sweep(SweepAction::Field(
        "range",
        "0.5:1:0.5".into(),
    )));
    let s = s.reduce(Action::Sweep(SweepAction::Field(
        "over_time",
        "true".into(),
    )));
    let mut s = s;
    for p in [SimPolicy::Optimus, SimPolicy::Oasis, SimPolicy::Locality] {
        s = s.reduce(Action::Sweep(SweepAction::ToggleSimPolicy(p, false)));
    }
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    let run = s.sweep.run.running.as_ref().unwrap();
    assert_eq!(
        run.request.policies.over_time,
        [SimPolicy::Fifo, SimPolicy::Smd, SimPolicy::Bound]
    );
    let s = run_all(s);
    let done = s.sweep.run.finished.clone().unwrap().unwrap();
    let k = done
        .report
        .over_time_knee
        .as_ref()
        .expect("a knee over time");
    assert_ne!(k.best_policy.as_deref(), Some("bound"));
    assert_eq!(done.report.points[1].over_time.len(), 3);

    // A draft of machine groups sweeps a group's count; smd_locality is offered.
    let s = state(3);
    let mut sc = (*s.draft.scenario).clone();
    let t4 = machines::machine_type("t4x4").unwrap();
    machines::move_to_machines(&mut sc, t4, 2.0);
    let s = s.reduce(Action::Draft(DraftAction::Load(
        Box::new(sc),
        String::new(),
    )));
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    assert!(s
        .sweep
        .form
        .listed(&s.draft.scenario)
        .contains(&Policy::SmdLocality));
    let s = s.reduce(Action::Sweep(SweepAction::Field("range", "1:2:1".into())));
    let s = s.reduce(Action::Sweep(SweepAction::Field("resource", "gpu".into())));
    let s = s.reduce(Action::Sweep(SweepAction::TogglePolicy(
        Policy::Global,
        false,
    )));
    let s = s.reduce(Action::Sweep(SweepAction::Start(1, 0.0)));
    let spec = s.sweep.run.running.as_ref().unwrap().request.spec.clone();
    assert_eq!(spec.axis, Axis::Machines);
    assert_eq!(spec.resource, Some(Resource::Gpu));
    assert_eq!(
        spec.group.as_deref(),
        Some(s.draft.scenario.cluster.machines[0].name.as_str())
    );
    let s = run_all(s);
    let done = s.sweep.run.finished.clone().unwrap().unwrap();
    assert_eq!(done.report.points.len(), 2);
    assert_eq!(done.report.knee.resource, Some(Resource::Gpu));
}

/// A draft with arrivals asks about the mean JCT by default: the sweep simulates (no
/// static plan, which has no JCT), and the answer and the goal are smd_sweep's, read from
/// the report without running again; utility runs the static policies.
#[test]
fn the_metric_decides_what_runs_and_the_answer_is_smd_sweeps() {
    let s = arriving(3);
    assert_eq!(s.sweep.form.metric_for(&s.draft.scenario), Metric::MeanJct);
    let s = s.reduce(Action::Sweep(SweepAction::Field(
        "range",
        "0.5:1.5:0.5".into(),
    )));
    let mut s = s;
    for p in [SimPolicy::Optimus, SimPolicy::Oasis, SimPolicy::Locality] {
        s = s.reduce(Action::Sweep(SweepAction::ToggleSimPolicy(p, false)));
    }
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    let run = s.sweep.run.running.as_ref().unwrap();
    assert!(run.request.policies.planners.is_empty());
    let s = run_all(s);
    let done = s.sweep.run.finished.clone().unwrap().unwrap();
    assert_eq!(done.current, Some(1.0), "the draft's one unit");
    let a = done.answer(Metric::MeanJct, "").unwrap();
    let want =
        smd_sweep::metric_answer(&done.report.points, Metric::MeanJct, None, Some(1.0), false)
            .unwrap();
    assert_eq!(a, want);
    assert_ne!(a.policy, "bound");
    let fifo = done.answer(Metric::MeanJct, "fifo").unwrap();
    assert_eq!(fifo.policy, "fifo");
    assert!(done.answer(Metric::Utility, "").is_err(), "no static plans");
    // A goal every size meets: the smallest; a bad goal is refused with its text.
    let g = done.goal(&a, "1000h").unwrap().unwrap();
    assert_eq!(g.found.unwrap().size, 0.5);
    assert!(done.goal(&a, "soon").unwrap().unwrap_err().contains("soon"));
    assert!(done.goal(&a, " ").is_none());
    // Total utility: the static policies run again.
    let s = s.reduce(Action::Sweep(SweepAction::Field(
        "metric",
        "utility".into(),
    )));
    assert!(!s.sweep.form.planners(&s.draft.scenario).is_empty());
    assert!(s.sweep.form.sim_policies(&s.draft.scenario).is_empty());
}

/// The cost needs prices: on a pool the form says so at the metric and nothing runs; on
/// catalog machines (they carry one) the sweep starts.
#[test]
fn the_cost_needs_priced_machines() {
    let s = arriving(3);
    let s = s.reduce(Action::Sweep(SweepAction::Field("metric", "cost".into())));
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(s.sweep.run.running.is_none());
    assert!(
        matches!(&s.sweep.form.error, Some(("metric", m)) if m.contains("no price")),
        "{:?}",
        s.sweep.form.error
    );
    let mut sc = (*s.draft.scenario).clone();
    let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
    smd_apps::machines::move_to_machines(&mut sc, t4, 2.0);
    let s = s.reduce(Action::Draft(DraftAction::Load(
        Box::new(sc),
        String::new(),
    )));
    let s = s.reduce(Action::Sweep(SweepAction::Field("axis", "machines".into())));
    let s = s.reduce(Action::Sweep(SweepAction::Start(2, 0.0)));
    assert!(s.sweep.form.error.is_none(), "{:?}", s.sweep.form.error);
    assert!(s.sweep.run.running.is_some());
}
