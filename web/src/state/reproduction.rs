//! The paper's experiments (`smd_reproduce`), run in the solver worker: the run in
//! progress and the last one's experiments (or why it stopped).

use super::background::{Background, Work, WorkerTask};
use super::State;
use crate::solver::{ClaimLine, Event, Experiment, Output, Task};

/// Which study the Reproduce view runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Study {
    /// The paper's experiments (`smd_reproduce`).
    Paper,
    /// The over-time engine against the reference simulator (`smd_reproduce::fidelity`).
    Fidelity,
}

/// A run of a study: the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Reproduction {
    /// The quick scale (else the full one).
    pub quick: bool,
    /// The study.
    pub study: Study,
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
        match self.study {
            Study::Paper => Task::Reproduce { quick: self.quick },
            Study::Fidelity => Task::Fidelity { quick: self.quick },
        }
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

/// What a study run means for the worker.
impl State {
    /// A study's part of the state.
    pub fn study(&self, study: Study) -> &ReproductionState {
        match study {
            Study::Paper => &self.reproduction,
            Study::Fidelity => &self.fidelity,
        }
    }

    fn study_mut(&mut self, study: Study) -> &mut ReproductionState {
        match study {
            Study::Paper => &mut self.reproduction,
            Study::Fidelity => &mut self.fidelity,
        }
    }

    /// Runs a study (quick or full); returns whether one was started.
    pub(super) fn start_reproduction(&mut self, study: Study, quick: bool) -> bool {
        if self.study(study).is_running() {
            return false;
        }
        let id = self.solving.background_id();
        self.study_mut(study)
            .start(id, Reproduction { quick, study });
        true
    }

    /// Stops a running study (terminates the worker); returns whether there was one.
    pub(super) fn cancel_reproduction(&mut self, study: Study) -> bool {
        if self.study_mut(study).cancel().is_none() {
            return false;
        }
        let what = match study {
            Study::Paper => "reproduction",
            Study::Fidelity => "fidelity study",
        };
        self.background_cancelled(
            &format!("the {what} was cancelled"),
            &format!("The {what} was cancelled."),
        );
        true
    }
}

/// Running a study.
#[derive(Clone, Debug)]
pub enum ReproduceAction {
    /// Run a study: quick (else full) scale.
    Start(Study, bool),
    /// Stop a running study.
    Cancel(Study),
}

impl ReproduceAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            ReproduceAction::Start(study, quick) => s.start_reproduction(study, quick),
            ReproduceAction::Cancel(study) => s.cancel_reproduction(study),
        }
    }
}

#[cfg(test)]
mod tests;
