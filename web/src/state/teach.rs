//! The "Step through" view's state: the teaching trace of the selected job (a task of the
//! worker, keyed by the results and the job it was made for), the step on screen, whether
//! the stepper walks the lesson's key steps or the whole trace, and whether Play is
//! advancing it and how fast.

use super::background::{Keyed, News, Pending, Work, WorkerTask};
use super::{State, View, ViewAction};
use crate::solver::{Event, Output, Task};
use smd_charts::teach::{lesson, LessonStep};
use smd_core::teach::{Stage, Trace};
use smd_core::{Policy, Scenario};
use std::rc::Rc;

/// Time between two steps while playing, ms (the default speed).
pub const PLAY_MS: u32 = 1500;

/// Play's speeds: a label and the time between two steps, ms.
pub const SPEEDS: [(&str, u32); 4] = [
    ("slow (3 s a step)", 3000),
    ("1.5 s a step", PLAY_MS),
    ("fast (0.5 s)", 500),
    ("very fast (0.1 s)", 100),
];

/// The teaching trace of one job of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Tracing {
    /// The solved scenario.
    pub scenario: Rc<Scenario>,
    /// The job's index in it.
    pub job: usize,
}

impl Work for Tracing {
    type Progress = ();
    type Done = Trace;
    const NAME: &'static str = "trace";

    /// The worker's message as it is.
    fn failed(message: &str) -> String {
        message.to_owned()
    }

    /// Said rather than asked again: the trace may be what killed the worker.
    fn stopped(why: &str) -> String {
        format!("the trace was lost: {why}")
    }
}

impl WorkerTask for Tracing {
    fn task(&self) -> Task {
        Task::Teach {
            scenario: (*self.scenario).clone(),
            job: self.job,
        }
    }

    fn finish(&self, _: &(), output: Output, _: f64) -> Option<Result<Trace, String>> {
        let Output::Trace { json } = output else {
            return None;
        };
        Some(serde_json::from_str(&json).map_err(|e| e.to_string()))
    }
}

/// The trace of one job of one set of results.
pub type TraceView = Keyed<Tracing>;

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
#[derive(Clone, Debug, PartialEq)]
pub struct TeachState {
    /// The trace on screen (or being computed).
    pub trace: Option<TraceView>,
    /// The trace's key steps ([`lesson`]), once it is ready.
    pub keys: Rc<Vec<LessonStep>>,
    /// The step on screen: its index in the trace, from 0.
    pub step: usize,
    /// Whether the stepper walks the lesson's key steps (else every step of the trace).
    pub lesson: bool,
    /// Whether Play advances the step.
    pub playing: bool,
    /// Time between two steps while playing, ms.
    pub play_ms: u32,
    /// A stage to show once the trace is ready (a link from How it works).
    pub want: Option<Stage>,
    /// The step the address names (`#step=…`, from 1), shown once a trace is ready and
    /// kept for the trace that follows until the user moves the stepper (the lesson may
    /// pick its job after the first trace is asked for).
    pub want_step: Option<usize>,
}

impl Default for TeachState {
    fn default() -> TeachState {
        TeachState {
            trace: None,
            keys: Rc::default(),
            step: 0,
            lesson: true,
            playing: false,
            play_ms: PLAY_MS,
            want: None,
            want_step: None,
        }
    }
}

impl TeachState {
    /// The finished trace, if there is one.
    pub fn ready(&self) -> Option<&Rc<Trace>> {
        self.trace.as_ref()?.task.finished.as_ref()?.as_ref().ok()
    }

    /// Steps of the finished trace (0 without one).
    pub fn len(&self) -> usize {
        self.ready().map_or(0, |t| t.steps.len())
    }

    /// Whether there is no step to show.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key steps the stepper walks in the lesson (`None` for the whole trace).
    fn walked(&self) -> Option<&[LessonStep]> {
        (self.lesson && !self.keys.is_empty()).then_some(self.keys.as_slice())
    }

    /// The lesson step the trace's step `k` belongs to (the one standing for it).
    pub fn key_of(&self, k: usize) -> Option<usize> {
        self.keys.iter().position(|s| s.from <= k && k <= s.at)
    }

    /// The step on screen as the stepper counts: (its number from 1, how many there are) —
    /// among the lesson's key steps, or the trace's.
    pub fn position(&self) -> (usize, usize) {
        match self.walked() {
            Some(keys) => (self.key_of(self.step).map_or(1, |i| i + 1), keys.len()),
            None => (self.step + 1, self.len()),
        }
    }

    /// The lesson step on screen, in the lesson (what it stands for).
    pub fn lesson_step(&self) -> Option<LessonStep> {
        self.walked()?;
        self.keys.get(self.key_of(self.step)?).copied()
    }

    /// The step after `k` the stepper walks to, if any.
    fn after(&self, k: usize) -> Option<usize> {
        match self.walked() {
            Some(keys) => keys.iter().map(|s| s.at).find(|&a| a > k),
            None => (k + 1 < self.len()).then_some(k + 1),
        }
    }

    /// The step before `k` the stepper walks to, if any.
    fn before(&self, k: usize) -> Option<usize> {
        match self.walked() {
            Some(keys) => keys.iter().map(|s| s.at).rev().find(|&a| a < k),
            None => k.checked_sub(1),
        }
    }

    /// The stepper's first and last steps.
    fn ends(&self) -> Option<(usize, usize)> {
        match self.walked() {
            Some(keys) => Some((keys.first()?.at, keys.last()?.at)),
            None => (!self.is_empty()).then(|| (0, self.len() - 1)),
        }
    }

    /// The lesson (`true`) or the whole trace; in the lesson the step moves to the key step
    /// standing for it. Returns whether anything changed.
    pub fn set_lesson(&mut self, on: bool) -> bool {
        if self.lesson == on {
            return false;
        }
        self.lesson = on;
        if let Some(s) = self.lesson_step() {
            self.step = s.at;
        }
        true
    }

    /// A trace is wanted for `key`, computed by `request` as task `id` (none: its results
    /// are gone); returns whether it is a new request.
    pub fn request(&mut self, key: (u64, u64), request: Option<(u64, Tracing)>) -> bool {
        if self.trace.as_ref().is_some_and(|t| t.key == key) {
            return false;
        }
        self.trace = Some(Keyed::new(key, request));
        self.keys = Rc::default();
        self.step = 0;
        self.playing = false;
        true
    }

    /// The task this part waits for.
    pub fn pending(&self) -> Option<u64> {
        self.trace.as_ref()?.id()
    }

    /// The trace came back: the lesson's key steps, and the step to show.
    fn arrived(&mut self) {
        self.keys = Rc::new(self.ready().map(|t| lesson(t)).unwrap_or_default());
        self.step = self.ends().map_or(0, |(first, _)| first);
        if let Some(n) = self.want_step {
            self.to(n);
        }
        if let Some(stage) = self.want.take() {
            self.go(TeachMove::Stage(stage));
        }
    }

    /// Moves the stepper; returns whether the step changed.
    pub fn go(&mut self, m: TeachMove) -> bool {
        let Some((first, last)) = self.ends() else {
            return false;
        };
        let k = self.step;
        let to = match m {
            TeachMove::First => first,
            TeachMove::Previous => self.before(k).unwrap_or(k),
            TeachMove::Next => self.after(k).unwrap_or(k),
            TeachMove::Last => last,
            // Each stage's first step is a key step of the lesson (smd_charts::teach::lesson).
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

    /// The trace step the stepper numbers `n` (from 1; past the last, the last): in the
    /// lesson its `n`-th key step, else the trace's step `n`.
    fn step_numbered(&self, n: usize) -> Option<usize> {
        let i = n.checked_sub(1)?;
        match self.walked() {
            Some(keys) => keys.get(i).or(keys.last()).map(|s| s.at),
            None => self.len().checked_sub(1).map(|last| i.min(last)),
        }
    }

    /// Shows the step the stepper numbers `n` (an address's step), Play stopped; returns
    /// whether anything changed.
    fn to(&mut self, n: usize) -> bool {
        let before = (self.step, self.playing);
        if let Some(k) = self.step_numbered(n) {
            self.step = k;
            self.playing = false;
        }
        (self.step, self.playing) != before
    }

    /// Play (`true`) or stop; Play at the last step starts again from the first.
    pub fn play(&mut self, on: bool) -> bool {
        let before = (self.step, self.playing);
        let Some((first, last)) = self.ends().filter(|(f, l)| f < l) else {
            self.playing = false;
            return (self.step, self.playing) != before;
        };
        if on && self.step >= last {
            self.step = first;
        }
        self.playing = on;
        (self.step, self.playing) != before
    }

    /// Play's timer ticked: one step on, stopping at the last.
    pub fn tick(&mut self) -> bool {
        if !self.playing {
            return false;
        }
        if let Some(k) = self.after(self.step) {
            self.step = k;
        }
        // Play pauses on the last step.
        self.playing = self.after(self.step).is_some();
        true
    }
}

/// The trace is a task of the background worker.
impl Pending for TeachState {
    fn task_ids(&self) -> Vec<u64> {
        self.trace.iter().flat_map(Keyed::task_ids).collect()
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.trace.as_ref()?.task_for(id)
    }

    fn owns_task(&self, task: u64) -> bool {
        self.trace.as_ref().is_some_and(|t| t.owns_task(task))
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        let Some(t) = self.trace.as_mut() else {
            return false;
        };
        let news = if t.task.owns(task) {
            t.task.on_event(event)
        } else {
            News::None
        };
        if matches!(news, News::Done | News::Failed) {
            self.arrived();
        }
        news.changed()
    }

    /// The worker died while the trace was computed: say so rather than ask again (the
    /// trace may be what killed it).
    fn lose(&mut self, why: &str) {
        if let Some(t) = self.trace.as_mut() {
            t.task.lost(why);
        }
        self.playing = false;
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        if let Some(t) = self.trace.as_mut() {
            t.task.restarted(why, new_id);
        }
    }
}

impl State {
    /// On Step through, until the user picks a job: the first parameter-server job SMD's
    /// plan admits, if the selected one is not such a job — a lesson that ends on an
    /// admitted job (the default scenario's first job is not). Called after every action.
    pub(super) fn lesson_job(&mut self) {
        if self.view.tab != View::Teach || self.view.picked {
            return;
        }
        let Some(r) = self.solving.results.as_ref().filter(|r| r.complete) else {
            return;
        };
        let Some(plan) = r.plan(Policy::Smd) else {
            return;
        };
        // Admitted, and a parameter-server job (a measured job has no steps to teach).
        let teachable = |i: usize| {
            plan.jobs.get(i).is_some_and(|l| l.admitted)
                && r.scenario.jobs.get(i).is_some_and(|j| j.measured.is_none())
        };
        let selected = self
            .view
            .selected
            .and_then(|uid| r.uids.iter().position(|&u| u == uid));
        if selected.is_some_and(teachable) {
            return;
        }
        if let Some(i) = (0..plan.jobs.len()).find(|&i| teachable(i)) {
            self.view.selected = r.uids.get(i).copied().or(self.view.selected);
        }
    }

    /// A trace is wanted for `(results revision, uid)`; returns whether it is a new request.
    pub(super) fn request_trace(&mut self, key: (u64, u64)) -> bool {
        if self.teach.trace.as_ref().is_some_and(|t| t.key == key) {
            return false;
        }
        let id = self.solving.new_task_id();
        let request = self
            .solving
            .results
            .as_ref()
            .filter(|r| r.revision == key.0)
            .and_then(|r| {
                let job = r.uids.iter().position(|&u| u == key.1)?;
                Some(Tracing {
                    scenario: r.scenario.clone(),
                    job,
                })
            });
        self.teach.request(key, request.map(|r| (id, r)))
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
    /// Play if stopped, stop if playing (the space bar).
    Toggle,
    /// The lesson's key steps (`true`) or the whole trace.
    Lesson(bool),
    /// Time between two steps while playing, ms.
    Speed(u32),
    /// Show Step through at this stage's first step (now, or once its trace is ready).
    Open(Stage),
    /// The address names step `n` (from 1): show it now, or once the trace is ready.
    Address(usize),
}

impl TeachAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        // A move by the user replaces the step the address named.
        if !matches!(
            self,
            TeachAction::RequestTrace(_) | TeachAction::Tick | TeachAction::Address(_)
        ) {
            s.teach.want_step = None;
        }
        match self {
            TeachAction::RequestTrace(key) => s.request_trace(key),
            TeachAction::Address(n) => {
                s.teach.want_step = Some(n);
                s.teach.to(n)
            }
            TeachAction::Go(m) => s.teach.go(m),
            TeachAction::Play(on) => s.teach.play(on),
            TeachAction::Tick => s.teach.tick(),
            TeachAction::Toggle => {
                let on = !s.teach.playing;
                s.teach.play(on)
            }
            TeachAction::Lesson(on) => s.teach.set_lesson(on),
            TeachAction::Open(stage) => {
                ViewAction::Show(View::Teach).reduce(s);
                s.lesson_job();
                let current = s.wanted_landscape().map(|(rev, uid, _)| (rev, uid));
                let ready =
                    s.teach.ready().is_some() && s.teach.trace.as_ref().map(|t| t.key) == current;
                if ready {
                    s.teach.want = None;
                    s.teach.go(TeachMove::Stage(stage));
                } else {
                    s.teach.want = Some(stage);
                }
                true
            }
            TeachAction::Speed(ms) => {
                let changed = s.teach.play_ms != ms;
                s.teach.play_ms = ms;
                changed
            }
        }
    }
}

#[cfg(test)]
mod tests;
