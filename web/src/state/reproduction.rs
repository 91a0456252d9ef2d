//! The paper's experiments (`smd_reproduce`), run in the solver worker: the run in
//! progress and the last one's experiments (or why it stopped).

use super::background::{Background, Work, WorkerTask};
use super::{Notice, State};
use crate::solver::{ClaimLine, Event, Experiment, Output, Task};

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
    /// The paper's claims with their verdicts on this run.
    pub verdicts: Vec<ClaimLine>,
    /// Wall time, ms.
    pub ms: f64,
}

/// Where a running reproduction is (its latest report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReproProgress {
    /// (scenarios planned, scenarios).
    pub scenarios: (usize, usize),
    /// (work done, work): the bar, which moves within a long scenario.
    pub work: (u64, u64),
}

impl ReproProgress {
    /// The share done, 0 to 1 (0 before the first report).
    pub fn share(&self) -> f64 {
        match self.work {
            (_, 0) => 0.0,
            (done, all) => (done as f64 / all as f64).min(1.0),
        }
    }
}

impl Work for Reproduction {
    type Progress = Option<ReproProgress>;
    type Done = Reproduced;
    const NAME: &'static str = "reproduction";
}

impl WorkerTask for Reproduction {
    // Lost when the worker restarts for another reason, as it always was: it says so and
    // the user runs it again.
    const RESUMES: bool = false;

    fn task(&self) -> Task {
        Task::Reproduce { quick: self.quick }
    }

    fn read_progress(&self, event: &Event) -> Option<Self::Progress> {
        match *event {
            Event::Reproducing { scenarios, work } => Some(Some(ReproProgress { scenarios, work })),
            _ => None,
        }
    }

    fn done(&self, output: Output, ms: f64) -> Option<Reproduced> {
        match output {
            Output::Reproduced {
                experiments,
                verdicts,
            } => Some(Reproduced {
                quick: self.quick,
                experiments,
                verdicts,
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
        self.restart_background("the reproduction was cancelled");
        true
    }
}

/// Running the paper's experiments.
#[derive(Clone, Debug)]
pub enum ReproduceAction {
    /// Run the paper's experiments: quick (else full) scale.
    Start(bool),
    /// Stop the running reproduction.
    Cancel,
}

impl ReproduceAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            ReproduceAction::Start(quick) => s.start_reproduction(quick),
            ReproduceAction::Cancel => s.cancel_reproduction(),
        }
    }
}

#[cfg(test)]
mod tests;
