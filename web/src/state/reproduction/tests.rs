use super::*;
use crate::solver::{worker, Reply};
use crate::state::tests::state;
use crate::state::Action;
use crate::state::{ReproduceAction, SolveAction};
use yew::Reducible;

fn reply(task: u64, event: Event) -> Action {
    Action::Solve(SolveAction::Reply(Reply::Event { task, event }))
}

#[test]
fn reproduce_replies_fill_the_state_and_cancel_keeps_the_solve() {
    let s = state(2);
    let s = s.reduce(Action::Reproduce(ReproduceAction::Start(
        Study::Paper,
        true,
    )));
    let id = s.reproduction.running.as_ref().unwrap().id;
    assert!(s.reproduction.running.as_ref().unwrap().request.quick);
    assert_eq!(s.tasks(), vec![id]);
    assert!(matches!(
        s.request(id).unwrap().task,
        Task::Reproduce { quick: true }
    ));
    let restarts = s.solving.restarts;
    let s = s.reduce(reply(
        id,
        Event::Reproducing {
            scenarios: (3, 10),
            work: (450, 1000),
        },
    ));
    let p = s.reproduction.running.as_ref().unwrap().progress.unwrap();
    assert_eq!(p.scenarios, (3, 10));
    assert_eq!(p.share(), 0.45);
    let exp = Experiment {
        id: "e9".into(),
        title: "T".into(),
        claim: "C".into(),
        findings: vec!["f".into()],
        csv: "a,b\n1,2\n".into(),
        svg: "<svg/>".into(),
        failures: Vec::new(),
    };
    let done = |experiments| Event::Done {
        output: Output::Reproduced {
            experiments,
            verdicts: Vec::new(),
        },
        ms: 1.0,
    };
    // A stale reply changes nothing.
    let s = s.reduce(reply(id + 100, done(vec![exp.clone()])));
    assert!(s.reproduction.running.is_some() && s.reproduction.finished.is_none());
    let s = s.reduce(reply(id, done(vec![exp.clone()])));
    assert!(s.reproduction.running.is_none());
    let finished = s.reproduction.finished.clone().unwrap().unwrap();
    assert_eq!(finished.experiments, vec![exp]);
    assert_eq!(s.solving.restarts, restarts);

    // Cancel terminates the worker and re-sends the solve it was also to run.
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let s = s.reduce(Action::Reproduce(ReproduceAction::Start(
        Study::Paper,
        false,
    )));
    let solve = s.solving.run().unwrap().id;
    let s = s.reduce(Action::Reproduce(ReproduceAction::Cancel(Study::Paper)));
    assert!(s.reproduction.running.is_none());
    assert_eq!(s.solving.restarts, restarts + 1);
    assert!(s.solving.run().unwrap().id > solve);
    assert!(
        s.reproduction.finished.as_ref().unwrap().is_ok(),
        "the last results stay"
    );
}

#[test]
fn a_small_reproduction_round_trips_through_the_protocol() {
    let mut replies = Vec::new();
    let nothing = smd_reproduce::Runner::only(smd_reproduce::Scale::Quick, &[]);
    worker::run(7, &mut |r| replies.push(r), |ctx| {
        worker::reproduce(nothing, ctx)
    });
    assert!(matches!(
        replies[..],
        [Reply::Event {
            task: 7,
            event: Event::Failed { .. }
        }]
    ));

    let one = smd_reproduce::Runner::only(smd_reproduce::Scale::Quick, &["e4-resource-share"]);
    let mut replies = Vec::new();
    worker::run(8, &mut |r| replies.push(r), |ctx| {
        worker::reproduce(one, ctx)
    });
    let s = state(1).reduce(Action::Reproduce(ReproduceAction::Start(
        Study::Paper,
        true,
    )));
    let id = s.reproduction.running.as_ref().unwrap().id;
    let mut s = s;
    let mut work = Vec::new();
    let mut last_scenarios = (0, 0);
    for r in replies {
        // Replies travel as JSON between worker and page.
        let text = serde_json::to_string(&r).unwrap();
        let event = match serde_json::from_str::<Reply>(&text).unwrap() {
            Reply::Event {
                task: 8,
                event: e @ (Event::Reproducing { .. } | Event::Done { .. }),
            } => e,
            other => panic!("unexpected {other:?}"),
        };
        if let Event::Reproducing { work: w, scenarios } = event {
            work.push(w);
            last_scenarios = scenarios;
        }
        s = s.reduce(reply(id, event));
    }
    // The work reported only grows, from none to all of it.
    assert_eq!(work.first().map(|w| w.0), Some(0));
    assert!(work
        .windows(2)
        .all(|w| w[0].0 <= w[1].0 && w[0].1 == w[1].1));
    let (done, all) = *work.last().unwrap();
    assert!(all > 0 && done == all, "{work:?}");
    // The last report counts every scenario planned.
    assert!(
        last_scenarios.1 > 0 && last_scenarios.0 == last_scenarios.1,
        "{last_scenarios:?}"
    );
    let done = s.reproduction.finished.clone().unwrap().unwrap();
    assert_eq!(done.experiments.len(), 1);
    let e = &done.experiments[0];
    assert_eq!(e.id, "e4-resource-share");
    assert!(
        e.svg.starts_with("<svg") || e.svg.starts_with("<?xml"),
        "{}",
        &e.svg[..40]
    );
    assert!(e.csv.lines().count() > 1 && !e.findings.is_empty());
    assert!(e.failures.is_empty(), "{:?}", e.failures);
}

/// The fidelity study runs as its own part of the state through the same protocol: one
/// experiment per policy with its runs' CSV and scatter, and the verdicts the native rules
/// give on the same runs; the paper's part is untouched.
#[test]
fn the_fidelity_study_round_trips_beside_the_papers() {
    use smd_reproduce::fidelity::{compare, table, Size};
    let mut replies = Vec::new();
    worker::run(9, &mut |r| replies.push(r), |ctx| {
        worker::fidelity(true, ctx)
    });
    let s = state(1).reduce(Action::Reproduce(ReproduceAction::Start(
        Study::Fidelity,
        true,
    )));
    let id = s.fidelity.running.as_ref().unwrap().id;
    assert!(matches!(
        s.request(id).unwrap().task,
        Task::Fidelity { quick: true }
    ));
    assert!(s.reproduction.running.is_none());
    let mut s = s;
    for r in replies {
        let text = serde_json::to_string(&r).unwrap();
        let Reply::Event { event, .. } = serde_json::from_str::<Reply>(&text).unwrap() else {
            panic!("an event")
        };
        s = s.reduce(reply(id, event));
    }
    let done = s.fidelity.finished.clone().unwrap().unwrap();
    assert!(s.reproduction.finished.is_none());
    let ids: Vec<&str> = done.experiments.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "fidelity-tiresias",
            "fidelity-optimus_oracle",
            "fidelity-pollux"
        ]
    );
    for e in &done.experiments {
        assert_eq!(e.csv.lines().count(), 2, "one run each: {}", e.csv);
        assert!(
            e.svg.contains("<svg") && e.findings.len() == 1,
            "{:?}",
            e.findings
        );
    }
    let native =
        smd_reproduce::verdict::fidelity(&table(&compare(Size::Quick, &mut |_, _| {}).unwrap()));
    let got: Vec<(&str, &str)> = done
        .verdicts
        .iter()
        .map(|v| (v.id.as_str(), v.verdict.as_str()))
        .collect();
    let want: Vec<(&str, &str)> = native.iter().map(|v| (v.id, v.verdict.words())).collect();
    assert_eq!(got, want);
    assert_eq!(got.len(), 3);
}
