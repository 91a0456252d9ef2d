//! The "Step through" view's state: the teaching trace of the selected job (a task of the
//! worker, keyed by the results and the job it was made for), the step on screen, and
//! whether Play is advancing it.

use super::State;
use crate::solver::{Event, Output, Task};
use smd_core::teach::{Stage, Trace};
use std::rc::Rc;

/// Time between two steps while playing, ms.
pub const PLAY_MS: u32 = 700;

/// The trace of one job of one set of results.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceView {
    /// `(results revision, job uid)`.
    pub key: (u64, u64),
    /// Task id.
    pub run: u64,
    /// `None` while it is computed.
    pub data: Option<Result<Rc<Trace>, String>>,
}

/// A move of the stepper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeachMove {
    /// The first step.
    First,
    /// One step back.
    Previous,
    /// One step on.
    Next,
    /// The last step.
    Last,
    /// The first step of a stage.
    Stage(Stage),
}

/// The teaching part of the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TeachState {
    /// The trace on screen (or being computed).
    pub trace: Option<TraceView>,
    /// The step on screen, from 0.
    pub step: usize,
    /// Whether Play advances the step.
    pub playing: bool,
}

impl TeachState {
    /// The finished trace, if there is one.
    pub fn ready(&self) -> Option<&Rc<Trace>> {
        self.trace.as_ref()?.data.as_ref()?.as_ref().ok()
    }

    /// Steps of the finished trace (0 without one).
    pub fn len(&self) -> usize {
        self.ready().map_or(0, |t| t.steps.len())
    }

    /// Whether there is no step to show.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A trace is wanted for `key` under task id `run`; returns whether it is a new request.
    pub fn request(&mut self, key: (u64, u64), run: u64) -> bool {
        if self.trace.as_ref().is_some_and(|t| t.key == key) {
            return false;
        }
        self.trace = Some(TraceView {
            key,
            run,
            data: None,
        });
        self.step = 0;
        self.playing = false;
        true
    }

    /// Whether task `task` is this part's.
    pub fn owns(&self, task: u64) -> bool {
        self.trace.as_ref().is_some_and(|t| t.run == task)
    }

    /// The task this part waits for.
    pub fn pending(&self) -> Option<u64> {
        self.trace
            .as_ref()
            .filter(|t| t.data.is_none())
            .map(|t| t.run)
    }

    /// News of this part's task; returns whether anything changed.
    pub fn on_event(&mut self, task: u64, event: Event) -> bool {
        let Some(t) = self.trace.as_mut().filter(|t| t.run == task) else {
            return false;
        };
        t.data = Some(match event {
            Event::Done {
                output: Output::Trace { json },
                ..
            } => serde_json::from_str::<Trace>(&json)
                .map_err(|e| e.to_string())
                .map(Rc::new),
            Event::Failed { message } => Err(message),
            _ => return false,
        });
        self.step = 0;
        true
    }

    /// The worker died while the trace was computed: say so rather than ask again (the trace
    /// may be what killed it).
    pub fn lost(&mut self, why: &str) {
        if let Some(t) = self.trace.as_mut().filter(|t| t.data.is_none()) {
            t.data = Some(Err(format!("the trace was lost: {why}")));
        }
        self.playing = false;
    }

    /// Moves the stepper; returns whether the step changed.
    pub fn go(&mut self, m: TeachMove) -> bool {
        let n = self.len();
        if n == 0 {
            return false;
        }
        let to = match m {
            TeachMove::First => 0,
            TeachMove::Previous => self.step.saturating_sub(1),
            TeachMove::Next => (self.step + 1).min(n - 1),
            TeachMove::Last => n - 1,
            TeachMove::Stage(s) => match self.ready().and_then(|t| t.first_of(s)) {
                Some(k) => k,
                None => return false,
            },
        };
        // A move by hand stops Play.
        let changed = to != self.step || self.playing;
        self.step = to;
        self.playing = false;
        changed
    }

    /// Play (`true`) or stop; Play at the last step starts again from the first.
    pub fn play(&mut self, on: bool) -> bool {
        let before = (self.step, self.playing);
        let n = self.len();
        if on && n > 1 && self.step + 1 >= n {
            self.step = 0;
        }
        self.playing = on && n > 1;
        (self.step, self.playing) != before
    }

    /// Play's timer ticked: one step on, stopping at the last.
    pub fn tick(&mut self) -> bool {
        if !self.playing {
            return false;
        }
        let n = self.len();
        if self.step + 1 < n {
            self.step += 1;
        }
        if self.step + 1 >= n {
            self.playing = false;
        }
        true
    }
}

impl State {
    /// The request of the trace task `id`, if it is the one this part waits for and its
    /// results are still the ones on screen.
    pub(super) fn teach_task(&self, id: u64) -> Option<Task> {
        let t = self
            .teach
            .trace
            .as_ref()
            .filter(|t| t.run == id && t.data.is_none())?;
        let r = self
            .solving
            .results
            .as_ref()
            .filter(|r| r.revision == t.key.0)?;
        let job = r.uids.iter().position(|&u| u == t.key.1)?;
        Some(Task::Teach {
            scenario: (*r.scenario).clone(),
            job,
        })
    }

    /// A trace is wanted for `(results revision, uid)`; returns whether it is a new request.
    pub(super) fn request_trace(&mut self, key: (u64, u64)) -> bool {
        if self.teach.trace.as_ref().is_some_and(|t| t.key == key) {
            return false;
        }
        let id = self.solving.new_task_id();
        self.teach.request(key, id)
    }
}

/// The "Step through" view: the trace wanted, the stepper, Play.
#[derive(Clone, Debug)]
pub enum TeachAction {
    /// The teaching trace of `(results revision, uid)` is wanted.
    RequestTrace((u64, u64)),
    /// Move the stepper (stops Play).
    Go(TeachMove),
    /// Play (`true`) or stop.
    Play(bool),
    /// Play's timer ticked.
    Tick,
}

impl TeachAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            TeachAction::RequestTrace(key) => s.request_trace(key),
            TeachAction::Go(m) => s.teach.go(m),
            TeachAction::Play(on) => s.teach.play(on),
            TeachAction::Tick => s.teach.tick(),
        }
    }
}

#[cfg(test)]
mod tests;
