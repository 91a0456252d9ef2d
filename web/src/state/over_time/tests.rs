use super::*;
use crate::fields::FieldKey;
use crate::solver::{worker, Reply};
use crate::state::tests::state;
use crate::state::{Action, View};
use crate::state::{AppsAction, DraftAction, OverTimeAction, SolveAction, ViewAction};
use yew::Reducible;

fn reply(task: u64, event: Event) -> Action {
    Action::Solve(SolveAction::Reply(Reply::Event { task, event }))
}

/// The replies of the worker to `task`, as the page gets them (through JSON).
fn perform(task: Task, id: u64) -> Vec<Reply> {
    let mut replies = Vec::new();
    worker::handle(crate::solver::Request { id, task }, &mut |r| {
        let text = serde_json::to_string(&r).unwrap();
        replies.push(serde_json::from_str::<Reply>(&text).unwrap())
    });
    replies
}

fn with_arrivals(n: usize) -> Rc<State> {
    let s = state(n);
    let mut sc = (*s.draft.scenario).clone();
    sc.version = 2;
    for (i, j) in sc.jobs.iter_mut().enumerate() {
        j.arrival_s = Some(900.0 * i as f64);
    }
    s.reduce(Action::Draft(DraftAction::Load(
        Box::new(sc),
        String::new(),
    )))
}

#[test]
fn the_draft_is_simulated_with_the_chosen_policies() {
    let s = with_arrivals(4);
    let s = s.reduce(Action::View(ViewAction::Show(View::OverTime)));
    let s = s.reduce(Action::OverTime(OverTimeAction::TogglePolicy(
        SimPolicy::Oasis,
        false,
    )));
    let s = s.reduce(Action::OverTime(OverTimeAction::TogglePolicy(
        SimPolicy::Optimus,
        false,
    )));
    assert_eq!(
        s.over_time.form.policies,
        [
            SimPolicy::Fifo,
            SimPolicy::Smd,
            SimPolicy::Locality,
            SimPolicy::Bound,
            SimPolicy::Tiresias,
            SimPolicy::OptimusOracle,
            SimPolicy::Pollux,
            SimPolicy::Sia,
            SimPolicy::Gavel,
            SimPolicy::PolluxUnaware
        ]
    );
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    let id = s.over_time.run.running.as_ref().unwrap().id;
    assert!(s.tasks().contains(&id));
    let task = s.request(id).unwrap().task;
    let Task::Simulate { scenario, policies } = task.clone() else {
        panic!("{task:?}")
    };
    assert_eq!(scenario, *s.draft.scenario);
    // The draft's jobs are the paper's: the reference's policies are left out.
    assert_eq!(
        policies,
        [
            SimPolicy::Fifo,
            SimPolicy::Smd,
            SimPolicy::Locality,
            SimPolicy::Bound
        ]
    );
    let mut s = s;
    for r in perform(task, id) {
        s = s.reduce(Action::Solve(SolveAction::Reply(r)));
    }
    assert!(s.over_time.run.running.is_none());
    let done = s.over_time.run.finished.clone().unwrap().unwrap();
    assert_eq!(done.runs.len(), 4);
    for (run, &p) in done.runs.iter().zip(&policies) {
        let native = smd_sim::simulate(&scenario, p, &mut smd_sim::Options::default()).unwrap();
        assert_eq!(*run, native, "{}", p.name());
    }
    assert_eq!(s.over_time.timeline, Some(SimPolicy::Smd));
    assert_eq!(
        s.over_time.job.as_deref(),
        Some(scenario.jobs[0].id.as_str())
    );

    // A change of the draft's cluster simulates it again while the view is shown.
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("cluster.units"),
        "0.5".into(),
    )));
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    let again = s.over_time.run.running.as_ref().expect("a re-run");
    assert_eq!(again.request.policies, policies);
    assert_eq!(again.request.scenario.cluster, s.draft.scenario.cluster);
    // Another edit (not the cluster) does not.
    let s = s.reduce(Action::OverTime(OverTimeAction::Cancel));
    assert!(s.over_time.run.running.is_none());
    assert!(
        s.over_time.run.finished.as_ref().unwrap().is_ok(),
        "the last runs stay"
    );
}

#[test]
fn a_workload_is_read_with_its_first_arrivals_and_errors_stay_at_their_input() {
    let s = state(2).reduce(Action::View(ViewAction::Show(View::OverTime)));
    let s = s.reduce(Action::OverTime(OverTimeAction::Field(
        "source",
        "workload".into(),
    )));
    let s = s.reduce(Action::OverTime(OverTimeAction::Field(
        "count",
        "many".into(),
    )));
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    assert!(s.over_time.run.running.is_none());
    assert!(matches!(s.over_time.form.error, Some(("count", _))));
    assert_eq!(s.over_time.form.count, "many", "what was typed stays");
    let s = s.reduce(Action::OverTime(OverTimeAction::Field("count", "4".into())));
    assert!(s.over_time.form.error.is_none());
    let s = s.reduce(Action::OverTime(OverTimeAction::Field(
        "arrivals",
        "0".into(),
    )));
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    assert!(matches!(s.over_time.form.error, Some(("arrivals", _))));
    let s = s.reduce(Action::OverTime(OverTimeAction::Field(
        "arrivals",
        "20".into(),
    )));
    let before = s.draft.to_saved();
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    let r = s.over_time.run.running.as_ref().unwrap();
    assert_eq!(r.request.scenario.jobs.len(), 20);
    assert_eq!(r.request.scenario.cluster.machine_list().len(), 4);
    assert_eq!(r.request.scenario.params, s.draft.scenario.params);
    // The workload is loaded into the draft (one cluster for every view), with Undo.
    assert!(Rc::ptr_eq(&r.request.scenario, &s.draft.scenario));
    assert_eq!(
        r.request.label,
        "the draft: 20 jobs on 4 × t4x4 machines — 16 GPUs, 192 vCPUs, 768 GB memory, 3,600 GB storage"
    );
    assert_eq!(s.over_time.form.source, SimSource::Draft);
    assert!(s
        .view
        .notice
        .as_ref()
        .unwrap()
        .text
        .contains("Loaded workload-1: 20 jobs"));
    // Every policy but gavel, which runs jobs at their request: imagenet-11 asks for 32
    // GPUs of the 16 here.
    let all_but_gavel: Vec<SimPolicy> = SimPolicy::ALL
        .into_iter()
        .filter(|&p| p != SimPolicy::Gavel)
        .collect();
    assert_eq!(r.request.policies, all_but_gavel);
    let undone = s
        .clone()
        .reduce(Action::OverTime(OverTimeAction::Cancel))
        .reduce(Action::Apps(AppsAction::Undo));
    assert_eq!(undone.draft.to_saved(), before);
    // No policy: said at the checkboxes.
    let mut s = s.reduce(Action::OverTime(OverTimeAction::Cancel));
    for p in SimPolicy::ALL {
        s = s.reduce(Action::OverTime(OverTimeAction::TogglePolicy(p, false)));
    }
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    assert!(matches!(s.over_time.form.error, Some(("policies", _))));
}

#[test]
fn cancel_restarts_the_worker_and_resends_the_solve() {
    let s = with_arrivals(2);
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let solve = s.solving.run().unwrap().id;
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    assert_eq!(s.tasks().len(), 2);
    let restarts = s.solving.restarts;
    let s = s.reduce(Action::OverTime(OverTimeAction::Cancel));
    assert!(s.over_time.run.running.is_none());
    assert_eq!(s.solving.restarts, restarts + 1);
    assert!(s.solving.run().unwrap().id > solve);
    assert_eq!(
        s.view.notice.as_ref().unwrap().text,
        "Simulation cancelled."
    );
    // A failure is said; a stale reply changes nothing.
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    let id = s.over_time.run.running.as_ref().unwrap().id;
    let failed = Event::Failed {
        message: "boom".into(),
    };
    let s = s.reduce(reply(id + 50, failed.clone()));
    assert!(s.over_time.run.running.is_some());
    let s = s.reduce(reply(id, failed));
    let why = s.over_time.run.finished.clone().unwrap().unwrap_err();
    assert!(why.contains("boom"), "{why}");
    // A superseding solve restarts the worker: the simulation is sent again.
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    let id = s.over_time.run.running.as_ref().unwrap().id;
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.seed"),
        "9".into(),
    )));
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.seed"),
        "10".into(),
    )));
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let again = s.over_time.run.running.as_ref().unwrap().id;
    assert!(again > id);
    assert!(s.tasks().contains(&again));
}

/// The sentence under the table names the policies the table's own numbers single out
/// (the bound, no schedule, is left out; a tie goes to the first in the table).
#[test]
fn the_verdict_names_the_shortest_jct_and_the_longest_wait() {
    let scenario = smd_core::generate::generate(&smd_core::generate::GenerateOptions {
        jobs: 3,
        ..Default::default()
    });
    let policies = [
        SimPolicy::Fifo,
        SimPolicy::Smd,
        SimPolicy::Bound,
        SimPolicy::Locality,
    ];
    let mut runs: Vec<smd_sim::Run> = policies
        .iter()
        .map(|&p| smd_sim::simulate(&scenario, p, &mut smd_sim::Options::default()).unwrap())
        .collect();
    // (mean JCT, p95 JCT, mean queue, p95 queue), s.
    let set = [
        (Some(3000.0), Some(7200.0), Some(2100.0), Some(3600.0)),
        (Some(1284.0), Some(4320.0), Some(60.0), Some(9000.0)),
        (Some(10.0), Some(10.0), Some(99999.0), Some(99999.0)),
        (Some(1284.0), None, Some(2100.0), None),
    ];
    for (run, (mean, p95, queue, p95_queue)) in runs.iter_mut().zip(set) {
        run.metrics.mean_jct_s = mean;
        run.metrics.p95_jct_s = p95;
        run.metrics.mean_queue_s = queue;
        run.metrics.p95_queue_s = p95_queue;
    }
    let mut r = crate::state::Simulated {
        scenario: Rc::new(scenario),
        runs,
        reference: Vec::new(),
        label: "the draft".into(),
        ms: 1.0,
    };
    assert_eq!(
        r.verdict().as_deref(),
        Some("Shortest mean JCT: smd (21.4 min); shortest p95 JCT: smd (72.0 min); longest mean wait: fifo (35.0 min); longest p95 wait: smd (2.50 h).")
    );
    // Nothing finished: nothing to compare.
    for run in &mut r.runs {
        run.metrics.mean_jct_s = None;
        run.metrics.p95_jct_s = None;
        run.metrics.mean_queue_s = None;
        run.metrics.p95_queue_s = None;
    }
    assert_eq!(r.verdict(), None);
}

/// Side by side simulates both chosen scenarios with the policy Over time shows, each as
/// Over time's own task; their runs are Over time's; Cancel stops both.
#[test]
fn side_by_side_simulates_both_scenarios_as_over_time_does() {
    use crate::state::CompareAction;
    let s = with_arrivals(3).reduce(Action::View(ViewAction::Show(View::OverTime)));
    let s = s.reduce(Action::OverTime(OverTimeAction::Start));
    let id = s.over_time.run.running.as_ref().unwrap().id;
    let mut s = s;
    for r in perform(s.request(id).unwrap().task, id) {
        s = s.reduce(Action::Solve(SolveAction::Reply(r)));
    }
    let shown = s.over_time.run.finished.clone().unwrap().unwrap();
    // Over time shows fifo's timeline: Side by side follows, until a policy is chosen.
    let s = s.reduce(Action::OverTime(OverTimeAction::ShowTimeline(
        SimPolicy::Fifo,
    )));
    assert_eq!(s.compare_sim_policy(), SimPolicy::Fifo);
    let s = s.reduce(Action::Compare(CompareAction::StartOverTime));
    let ids: Vec<u64> = s
        .compare
        .over_time
        .iter()
        .map(|b| b.running.as_ref().expect("both sides run").id)
        .collect();
    assert!(ids.iter().all(|i| s.tasks().contains(i)));
    // Cancel stops both; the form is kept.
    let s = s.reduce(Action::Compare(CompareAction::CancelOverTime));
    assert!(s.compare.over_time.iter().all(|b| !b.is_running()));
    assert!(!s.tasks().iter().any(|t| ids.contains(t)));
    let s = s.reduce(Action::Compare(CompareAction::StartOverTime));
    let mut s = s;
    for k in 0..2 {
        let id = s.compare.over_time[k].running.as_ref().unwrap().id;
        let task = s.request(id).unwrap().task;
        let Task::Simulate { policies, .. } = &task else {
            panic!("{task:?}")
        };
        assert_eq!(*policies, [SimPolicy::Fifo]);
        for r in perform(task, id) {
            s = s.reduce(Action::Solve(SolveAction::Reply(r)));
        }
        let done = s.compare.over_time[k].finished.clone().unwrap().unwrap();
        assert_eq!(done.runs.len(), 1);
        assert_eq!(Some(&done.runs[0]), shown.run(SimPolicy::Fifo), "side {k}");
    }
    // A policy of its own.
    let s = s.reduce(Action::Compare(CompareAction::Field(
        "policy",
        "oasis".into(),
    )));
    assert_eq!(s.compare_sim_policy(), SimPolicy::Oasis);
}
