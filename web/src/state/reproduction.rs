//! The paper's experiments (`smd_reproduce`), run in the solver worker: the run in
//! progress and the last one's experiments (or why it stopped).

use super::background::{Background, Work, WorkerTask};
use super::{Notice, State};
use crate::solver::{Event, Experiment, Output, Task};

/// A reproduction of the paper's experiments: the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Reproduction {
    /// The quick scale (else the full one).
    pub quick: bool,
}

/// A finished reproduction.
#[derive(Clone, Debug, PartialEq)]
pub struct Reproduced {
    /// The quick scale (else the full one).
    pub quick: bool,
    /// One per experiment, in order.
    pub experiments: Vec<Experiment>,
    /// Wall time, ms.
    pub ms: f64,
}

impl Work for Reproduction {
    /// `(scenarios planned, scenarios)` of the latest progress report.
    type Progress = Option<(usize, usize)>;
    type Done = Reproduced;
    const NAME: &'static str = "reproduction";
}

impl WorkerTask for Reproduction {
    fn task(&self) -> Task {
        Task::Reproduce { quick: self.quick }
    }

    fn read_progress(&self, event: &Event) -> Option<Self::Progress> {
        match *event {
            Event::Progress { done, total, .. } => Some(Some((done, total))),
            _ => None,
        }
    }

    fn done(&self, output: Output, ms: f64) -> Option<Reproduced> {
        match output {
            Output::Reproduced { experiments } => Some(Reproduced {
                quick: self.quick,
                experiments,
                ms,
            }),
            _ => None,
        }
    }
}

/// The reproduction part of the state: the run in progress and the last one.
pub type ReproductionState = Background<Reproduction>;

/// What a reproduction means for the worker.
impl State {
    /// Runs the paper's experiments (quick or full); returns whether one was started.
    pub(super) fn start_reproduction(&mut self, quick: bool) -> bool {
        if self.reproduction.is_running() {
            return false;
        }
        if matches!(self.solving.worker, super::WorkerStatus::Died(_)) {
            self.solving.restart();
        }
        let id = self.solving.new_task_id();
        self.reproduction.start(id, Reproduction { quick });
        true
    }

    /// Stops the running reproduction (terminates the worker); returns whether there was
    /// one.
    pub(super) fn cancel_reproduction(&mut self) -> bool {
        if self.reproduction.cancel().is_none() {
            return false;
        }
        self.solving.restart();
        self.view.notice = Some(Notice::info("Reproduction cancelled."));
        // The terminated worker was also to solve this draft (and perhaps to simulate):
        // ask the fresh one.
        self.solving.rerun();
        self.rerun_background();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{worker, Reply};
    use crate::state::tests::state;
    use crate::state::Action;
    use yew::Reducible;

    fn reply(task: u64, event: Event) -> Action {
        Action::Reply(Reply::Event { task, event })
    }

    #[test]
    fn reproduce_replies_fill_the_state_and_cancel_keeps_the_solve() {
        let s = state(2);
        let s = s.reduce(Action::StartReproduce(true));
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
            Event::Progress {
                step: 0,
                done: 3,
                total: 10,
            },
        ));
        assert_eq!(
            s.reproduction.running.as_ref().unwrap().progress,
            Some((3, 10))
        );
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
            output: Output::Reproduced { experiments },
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
        let s = s.reduce(Action::StartSolve(r));
        let s = s.reduce(Action::StartReproduce(false));
        let solve = s.solving.run.as_ref().unwrap().id;
        let s = s.reduce(Action::CancelReproduce);
        assert!(s.reproduction.running.is_none());
        assert_eq!(s.solving.restarts, restarts + 1);
        assert!(s.solving.run.as_ref().unwrap().id > solve);
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
        let s = state(1).reduce(Action::StartReproduce(true));
        let id = s.reproduction.running.as_ref().unwrap().id;
        let mut s = s;
        for r in replies {
            // Replies travel as JSON between worker and page.
            let text = serde_json::to_string(&r).unwrap();
            let event = match serde_json::from_str::<Reply>(&text).unwrap() {
                Reply::Event {
                    task: 8,
                    event: e @ (Event::Progress { .. } | Event::Done { .. }),
                } => e,
                other => panic!("unexpected {other:?}"),
            };
            s = s.reduce(reply(id, event));
        }
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
}
