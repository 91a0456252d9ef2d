//! One type for work that runs in the background — a comparison, a simulation, the paper's
//! experiments, a sweep, and the views to come: [`Background`] keeps the run in progress
//! (its id, its request, its progress) and the last result or why it stopped, and owns the
//! lifecycle every such part shares: start, progress, finish, fail, cancel, lost with the
//! worker, started again in a fresh worker.
//!
//! A part says what its work is by implementing [`Work`] on its request (its progress, its
//! result, its name in messages); work done by the solver worker as one task also
//! implements [`WorkerTask`] (the task to send, and how its events read), which gives it
//! [`Background::task`] and [`Background::on_event`] and lets the page treat every such
//! part alike ([`Pending`]).

use crate::solver::{Event, Output, Task};
use std::fmt::Debug;
use std::rc::Rc;

/// What a background run is: its request (the implementing type), its progress, its
/// result.
pub trait Work: Clone + Debug + PartialEq {
    /// Where a run is; the default is "nothing reported yet".
    type Progress: Clone + Debug + PartialEq + Default;
    /// What a finished run gives.
    type Done: Debug + PartialEq;
    /// Its name in messages (`The {NAME} stopped: …`, `The {NAME} failed: …`).
    const NAME: &'static str;
}

/// A run in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Running<W: Work> {
    /// The task id its replies carry (a pool's run: the first of its tasks' ids; the
    /// request says which are still out).
    pub id: u64,
    /// What it was asked to do.
    pub request: W,
    /// Its latest progress.
    pub progress: W::Progress,
}

/// A background part: the run in progress and the last result, or why it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Background<W: Work> {
    /// The run in progress.
    pub running: Option<Running<W>>,
    /// The last run's result, or why it stopped.
    pub finished: Option<Result<Rc<W::Done>, String>>,
}

// Not derived: a derive would ask `W: Default` of the request.
impl<W: Work> Default for Background<W> {
    fn default() -> Self {
        Background {
            running: None,
            finished: None,
        }
    }
}

/// What an event did to a background run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum News {
    /// Nothing (not this run's, or not an event it reads).
    None,
    /// Its progress moved.
    Progress,
    /// It finished: [`Background::finished`] holds the result.
    Done,
    /// It failed: [`Background::finished`] says why.
    Failed,
}

impl News {
    /// Whether anything changed.
    pub fn changed(self) -> bool {
        self != News::None
    }
}

impl<W: Work> Background<W> {
    /// Whether a run is in progress.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts `request` as task `id` (the last result stays until it finishes).
    pub fn start(&mut self, id: u64, request: W) {
        self.start_at(id, request, W::Progress::default());
    }

    /// Starts `request` as task `id` with a progress of its own (a pool's tasks to send).
    pub fn start_at(&mut self, id: u64, request: W, progress: W::Progress) {
        self.running = Some(Running {
            id,
            request,
            progress,
        });
    }

    /// Whether task `task` is the run in progress.
    pub fn owns(&self, task: u64) -> bool {
        self.running.as_ref().is_some_and(|r| r.id == task)
    }

    /// The run's progress moved.
    pub fn progress(&mut self, progress: W::Progress) {
        if let Some(r) = self.running.as_mut() {
            r.progress = progress;
        }
    }

    /// The run finished with `done`.
    pub fn finish(&mut self, done: W::Done) {
        self.running = None;
        self.finished = Some(Ok(Rc::new(done)));
    }

    /// The run failed: `The {NAME} failed: {message}`.
    pub fn fail(&mut self, message: &str) {
        self.stop(format!("The {} failed: {message}", W::NAME));
    }

    /// The run stopped, for the reason `message` says in full.
    pub fn stop(&mut self, message: String) {
        self.running = None;
        self.finished = Some(Err(message));
    }

    /// Stops the run in progress (the last result stays); returns it, if there was one.
    pub fn cancel(&mut self) -> Option<Running<W>> {
        self.running.take()
    }

    /// The worker is being terminated for another reason: a run in progress is lost
    /// (`The {NAME} stopped: {why}.`). Returns whether there was one.
    pub fn lost(&mut self, why: &str) -> bool {
        if self.running.take().is_none() {
            return false;
        }
        self.finished = Some(Err(format!("The {} stopped: {why}.", W::NAME)));
        true
    }

    /// The worker restarted for another reason: the run in progress starts again in the
    /// fresh worker under a new id, with no progress.
    pub fn rerun(&mut self, new_id: impl FnOnce() -> u64) {
        if let Some(r) = self.running.as_mut() {
            r.id = new_id();
            r.progress = W::Progress::default();
        }
    }
}

/// Work done by the solver worker as one task.
pub trait WorkerTask: Work {
    /// Whether a run starts again in the fresh worker when the worker restarts for another
    /// reason (a solve of an edited draft, a cancel); else it is lost, saying why.
    const RESUMES: bool = true;
    /// The task to send the worker.
    fn task(&self) -> Task;
    /// The progress an event reports, if it is a progress report this work reads.
    fn read_progress(&self, event: &Event) -> Option<Self::Progress>;
    /// The result of a finished run, if `output` is this work's.
    fn done(&self, output: Output, ms: f64) -> Option<Self::Done>;
}

impl<W: WorkerTask> Background<W> {
    /// The task to send, if a run is in progress: `(id, task)`.
    pub fn task(&self) -> Option<(u64, Task)> {
        self.running.as_ref().map(|r| (r.id, r.request.task()))
    }

    /// News of the run in progress (the caller has checked the task is its own).
    pub fn on_event(&mut self, event: Event) -> News {
        let Some(r) = self.running.as_mut() else {
            return News::None;
        };
        match event {
            Event::Done { output, ms } => match r.request.done(output, ms) {
                Some(done) => {
                    self.finish(done);
                    News::Done
                }
                None => News::None,
            },
            Event::Failed { message } => {
                self.fail(&message);
                News::Failed
            }
            e => match r.request.read_progress(&e) {
                Some(p) => {
                    r.progress = p;
                    News::Progress
                }
                None => News::None,
            },
        }
    }
}

/// A background part of the solver worker, whatever its work: what the page needs to send
/// its task, route its replies and restart or lose it with the worker.
pub trait Pending {
    /// The task to send, if a run is in progress: `(id, task)`.
    fn pending(&self) -> Option<(u64, Task)>;
    /// Whether task `task` is its run.
    fn owns_task(&self, task: u64) -> bool;
    /// News of its run; returns whether anything changed.
    fn on_worker_event(&mut self, event: Event) -> bool;
    /// The worker is terminated: its run, if any, is lost (`why`).
    fn lose(&mut self, why: &str);
    /// The worker restarted for another reason (`why`): its run starts again under a new
    /// id, or is lost ([`WorkerTask::RESUMES`]).
    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64);
}

impl<W: WorkerTask> Pending for Background<W> {
    fn pending(&self) -> Option<(u64, Task)> {
        self.task()
    }

    fn owns_task(&self, task: u64) -> bool {
        self.owns(task)
    }

    fn on_worker_event(&mut self, event: Event) -> bool {
        self.on_event(event).changed()
    }

    fn lose(&mut self, why: &str) {
        self.lost(why);
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        if W::RESUMES {
            self.rerun(new_id);
        } else {
            self.lost(why);
        }
    }
}
