//! One type for work that runs in the background — the draft's solve, its landscape and
//! teaching trace, a comparison, a simulation, the paper's experiments, a sweep, and the
//! views to come; every task the page runs in a worker goes through one: [`Background`]
//! keeps the run in progress (its id, its request, its progress) and the last result or
//! why it stopped, and owns the lifecycle every such part shares: start, progress, finish,
//! fail, cancel, lost with the worker, started again in a fresh worker.
//!
//! A part says what its work is by implementing [`Work`] on its request (its progress, its
//! result, its name in messages); work done by the solver worker as one task also
//! implements [`WorkerTask`] (the task to send, and how its events read), which gives it
//! [`Background::task`] and [`Background::on_event`] and lets the page treat every such
//! part alike ([`Pending`]): the state lists its parts in one place (`State::parts`),
//! which sends, routes, restarts and loses them all.

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

    /// What a failed run says: `The {NAME} failed: {message}`.
    fn failed(message: &str) -> String {
        format!("The {} failed: {message}", Self::NAME)
    }

    /// What a run lost with the worker says: `The {NAME} stopped: {why}.`
    fn stopped(why: &str) -> String {
        format!("The {} stopped: {why}.", Self::NAME)
    }
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

    /// The run failed ([`Work::failed`]).
    pub fn fail(&mut self, message: &str) {
        self.stop(W::failed(message));
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
    /// ([`Work::stopped`]). Returns whether there was one.
    pub fn lost(&mut self, why: &str) -> bool {
        if self.running.take().is_none() {
            return false;
        }
        self.finished = Some(Err(W::stopped(why)));
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
    fn read_progress(&self, _event: &Event) -> Option<Self::Progress> {
        None
    }
    /// Folds an event into the run's progress; returns whether it moved. By default the
    /// progress an event reports ([`WorkerTask::read_progress`]) replaces the last; work
    /// whose progress gathers what comes (a solve's plans, policy by policy) folds it in.
    fn advance(&self, progress: &mut Self::Progress, event: Event) -> bool {
        match self.read_progress(&event) {
            Some(p) => {
                *progress = p;
                true
            }
            None => false,
        }
    }
    /// The result of a finished run, if `output` is this work's.
    fn done(&self, _output: Output, _ms: f64) -> Option<Self::Done> {
        None
    }
    /// The result of a finished run from what it gathered and its `output`, or why the
    /// output cannot be read; `None` if `output` is not this work's. By default
    /// [`WorkerTask::done`].
    fn finish(
        &self,
        _progress: &Self::Progress,
        output: Output,
        ms: f64,
    ) -> Option<Result<Self::Done, String>> {
        self.done(output, ms).map(Ok)
    }
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
            Event::Done { output, ms } => match r.request.finish(&r.progress, output, ms) {
                Some(Ok(done)) => {
                    self.finish(done);
                    News::Done
                }
                Some(Err(message)) => {
                    self.stop(message);
                    News::Failed
                }
                None => News::None,
            },
            Event::Failed { message } => {
                self.fail(&message);
                News::Failed
            }
            e => match r.request.advance(&mut r.progress, e) {
                true => News::Progress,
                false => News::None,
            },
        }
    }

    /// The worker restarted for another reason (`why`): the run starts again under a new
    /// id, or is lost ([`WorkerTask::RESUMES`]).
    pub fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        if W::RESUMES {
            self.rerun(new_id);
        } else {
            self.lost(why);
        }
    }
}

/// A background task made for one key — a job of one set of results: the selected job's
/// landscape, the lesson's trace. A new key is a new task; the key stays with the result.
#[derive(Debug, PartialEq)]
pub struct Keyed<W: Work> {
    /// `(results revision, job uid)`.
    pub key: (u64, u64),
    /// The task, and its result once it is back.
    pub task: Background<W>,
}

// Not derived: a derive would ask `W::Done: Clone` (a result is shared, not copied).
impl<W: Work> Clone for Keyed<W>
where
    Background<W>: Clone,
{
    fn clone(&self) -> Self {
        Keyed {
            key: self.key,
            task: self.task.clone(),
        }
    }
}

impl<W: WorkerTask> Keyed<W> {
    /// `request` for `key` as task `id`; without a request (its results are gone), a key
    /// with nothing to compute.
    pub fn new(key: (u64, u64), request: Option<(u64, W)>) -> Keyed<W> {
        let mut task = Background::default();
        if let Some((id, request)) = request {
            task.start(id, request);
        }
        Keyed { key, task }
    }

    /// The task's id while it is computed.
    pub fn id(&self) -> Option<u64> {
        self.task.running.as_ref().map(|r| r.id)
    }

    /// Its result, or why there is none; `None` while it is computed.
    pub fn data(&self) -> Option<Result<Rc<W::Done>, String>> {
        self.task.finished.clone()
    }
}

/// Which of the page's workers a background part's tasks go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worker {
    /// The worker of the draft's plan (its solve and landscape).
    Plan,
    /// The worker of every other run (started at the first).
    Background,
    /// The pool of workers of the capacity sweep and What to buy, each task on its own
    /// worker (their replies and deaths come as the sweep's own actions).
    Pool,
}

/// A background part, whatever its work: what the page needs to send its tasks, route
/// their replies and restart or lose them with the worker. [`State::parts`] lists them all.
///
/// [`State::parts`]: crate::state::State::parts
pub trait Pending {
    /// The workers its tasks go to.
    fn worker(&self) -> Worker {
        Worker::Background
    }
    /// Ids of the tasks to send, in the order to send them.
    fn task_ids(&self) -> Vec<u64>;
    /// Task `id`, if it is one to send.
    fn task_for(&self, id: u64) -> Option<Task>;
    /// Whether task `task` is one of its own.
    fn owns_task(&self, task: u64) -> bool;
    /// News of its task `task`; returns whether anything changed.
    fn on_worker_event(&mut self, task: u64, event: Event) -> bool;
    /// The worker is terminated: its runs, if any, are lost (`why`).
    fn lose(&mut self, why: &str);
    /// The worker restarted for another reason (`why`): its runs start again under new
    /// ids, or are lost ([`WorkerTask::RESUMES`]).
    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64);
}

impl<W: WorkerTask> Pending for Background<W> {
    fn task_ids(&self) -> Vec<u64> {
        self.running.iter().map(|r| r.id).collect()
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.task().filter(|t| t.0 == id).map(|t| t.1)
    }

    fn owns_task(&self, task: u64) -> bool {
        self.owns(task)
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        self.owns(task) && self.on_event(event).changed()
    }

    fn lose(&mut self, why: &str) {
        self.lost(why);
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        Background::restarted(self, why, new_id);
    }
}

impl<W: WorkerTask> Pending for Keyed<W> {
    fn task_ids(&self) -> Vec<u64> {
        self.task.task_ids()
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.task.task_for(id)
    }

    fn owns_task(&self, task: u64) -> bool {
        self.task.owns(task)
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        self.task.on_worker_event(task, event)
    }

    fn lose(&mut self, why: &str) {
        self.task.lost(why);
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        self.task.restarted(why, new_id);
    }
}

/// Several parts of one kind (side by side's two simulations), in order.
impl<P: Pending, const N: usize> Pending for [P; N] {
    fn worker(&self) -> Worker {
        self.first().map_or(Worker::Background, P::worker)
    }

    fn task_ids(&self) -> Vec<u64> {
        self.iter().flat_map(P::task_ids).collect()
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.iter().find_map(|p| p.task_for(id))
    }

    fn owns_task(&self, task: u64) -> bool {
        self.iter().any(|p| p.owns_task(task))
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        self.iter_mut()
            .find(|p| p.owns_task(task))
            .is_some_and(|p| p.on_worker_event(task, event))
    }

    fn lose(&mut self, why: &str) {
        self.iter_mut().for_each(|p| p.lose(why));
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        for p in self.iter_mut() {
            p.restarted(why, new_id);
        }
    }
}
