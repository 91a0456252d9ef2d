//! The worker and what it solves: the run in progress (progress, `global`'s search,
//! elapsed time, cancel), the last results and the recommended plan among them, the
//! selected job's landscape, the worker's health and restarts, and the smallest ε the
//! draft's jobs allow (the hint beside ε).

use super::background::{Background, Keyed, News, Pending, Running, Work, Worker, WorkerTask};
use super::draft::DraftState;
use super::{Notice, State};
pub use crate::solver::page_policies;
use crate::solver::{Event, Output, Partial, Reply, Task};
use smd_core::{Plan, Policy, Scenario, SearchProgress};
use std::rc::Rc;

/// A solve running this long, s, is called out in the status line (with its Cancel).
pub const SLOW_SOLVE_S: u32 = 3;

/// Total utilities this close (relative) are the same for choosing the recommended plan.
pub const SAME_TOTAL: f64 = 1e-9;

/// Samples per axis of a landscape.
pub const LANDSCAPE_RESOLUTION: usize = 40;

/// The plans of one solved scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The draft revision they answer.
    pub revision: u64,
    /// The scenario that was solved.
    pub scenario: Rc<Scenario>,
    /// Job uids of that scenario, in order.
    pub uids: Vec<u64>,
    /// One plan per policy that succeeded, in [`page_policies`] order.
    pub plans: Vec<Plan>,
    /// Policies that failed, with the message.
    pub failures: Vec<(String, String)>,
    /// Wall time of the run, ms (0 while it runs).
    pub ms: f64,
    /// Every policy has answered. Until then these are the plans of a running solve, shown
    /// as they arrive ([`Solving::shown`]): the rest are still solving, and nothing is
    /// recommended yet.
    pub complete: bool,
    /// Solved when the page was built, not in this browser (the default scenario's first
    /// plan, [`crate::first_plan`]); its times are the build's.
    pub prebuilt: bool,
}

impl Results {
    /// The plan of `policy`, if it succeeded.
    pub fn plan(&self, policy: Policy) -> Option<&Plan> {
        self.plans.iter().find(|p| p.policy == policy)
    }

    /// The policies the page shows for this scenario's cluster ([`page_policies`]).
    pub fn policies(&self) -> &'static [Policy] {
        page_policies(&self.scenario.cluster)
    }

    /// The plans of [`Results::policies`], in order.
    pub fn shown(&self) -> impl Iterator<Item = &Plan> + Clone {
        self.plans
            .iter()
            .filter(|p| self.policies().contains(&p.policy))
    }

    /// The recommended plan: the one of the best total utility. Totals within
    /// [`SAME_TOTAL`] (relative) of the best count as the best — sums of the same utilities
    /// in another order differ in the last bits — and among them `global`'s is recommended
    /// (it is never below the others), else the first in [`page_policies`] order.
    pub fn recommended(&self) -> Option<&Plan> {
        if !self.complete {
            return None;
        }
        let best = self
            .shown()
            .map(|p| p.total_utility)
            .fold(f64::NEG_INFINITY, f64::max);
        let tied = |p: &&Plan| p.total_utility >= best - SAME_TOTAL * best.abs().max(1.0);
        let mut tied = self.shown().filter(tied);
        let first = tied.clone().next();
        tied.find(|p| p.policy == Policy::Global).or(first)
    }
}

/// A solve: the draft it solves.
#[derive(Clone, Debug, PartialEq)]
pub struct Solve {
    /// The draft revision being solved.
    pub revision: u64,
    /// The scenario being solved.
    pub scenario: Rc<Scenario>,
    /// Its job uids.
    pub uids: Vec<u64>,
    /// `global`'s time budget for this solve, ms.
    pub global_budget_ms: f64,
}

/// Where a solve is: its progress, and the plans as each policy answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolveProgress {
    /// `(policy index, jobs done, jobs total)` of the latest progress report.
    pub jobs: Option<(usize, usize, usize)>,
    /// Where `global`'s search is, once it searches (cleared by the next job progress).
    pub search: Option<SearchProgress>,
    /// Plans received so far.
    pub plans: Vec<Plan>,
    /// Failures so far.
    pub failures: Vec<(String, String)>,
    /// Whole seconds since it started, from the page's clock
    /// ([`SolveAction::Elapsed`]).
    pub elapsed_s: u32,
    /// Its plans so far as results (incomplete), shown once the solve is slow to finish —
    /// `global` searching or a second gone — and a policy has answered. A fast solve
    /// renders once, at the end: a render per answering policy cost the default scenario
    /// ~100 ms of its first plan (docs/BENCHMARKS.md, "One module").
    pub shown: Option<Rc<Results>>,
}

impl Solve {
    /// Publishes the plans so far when the solve is slow and any have come.
    fn show_so_far(&self, p: &mut SolveProgress) {
        let slow = p.search.is_some() || p.elapsed_s >= 1;
        if slow && !(p.plans.is_empty() && p.failures.is_empty()) {
            p.shown = Some(Rc::new(self.results(p, 0.0, false)));
        }
    }

    /// What it has, as results (`complete` once every policy has answered).
    fn results(&self, p: &SolveProgress, ms: f64, complete: bool) -> Results {
        Results {
            revision: self.revision,
            scenario: self.scenario.clone(),
            uids: self.uids.clone(),
            plans: p.plans.clone(),
            failures: p.failures.clone(),
            ms,
            complete,
            prebuilt: false,
        }
    }
}

impl Work for Solve {
    type Progress = SolveProgress;
    type Done = Results;
    const NAME: &'static str = "solve";
}

/// A solve is a task of the plan's worker whose progress gathers the plans as each policy
/// answers.
impl WorkerTask for Solve {
    fn task(&self) -> Task {
        Task::Solve {
            scenario: (*self.scenario).clone(),
            global_budget_ms: self.global_budget_ms,
        }
    }

    fn advance(&self, p: &mut SolveProgress, event: Event) -> bool {
        match event {
            Event::Progress { step, done, total } => {
                p.jobs = Some((step, done, total));
                p.search = None;
            }
            Event::Search { step, search } => {
                let total = self.scenario.jobs.len();
                p.jobs = Some((step, total, total));
                p.search = Some(search);
                if p.shown.is_none() {
                    self.show_so_far(p);
                }
            }
            Event::Partial(Partial::Planned(plan)) => {
                p.plans.push(*plan);
                self.show_so_far(p);
            }
            Event::Partial(Partial::PolicyFailed { policy, message }) => {
                p.failures.push((policy, message));
                self.show_so_far(p);
            }
            _ => return false,
        }
        true
    }

    fn finish(
        &self,
        p: &SolveProgress,
        output: Output,
        ms: f64,
    ) -> Option<Result<Results, String>> {
        matches!(output, Output::Solved).then(|| Ok(self.results(p, ms, true)))
    }
}

/// A solve in progress.
pub type Run = Running<Solve>;

impl Run {
    /// Whether it has run long enough for the status line to say so.
    pub fn slow(&self) -> bool {
        self.progress.elapsed_s >= SLOW_SOLVE_S
    }
}

/// The landscape of one job of one set of results.
#[derive(Clone, Debug, PartialEq)]
pub struct LandscapeOf {
    /// The results.
    pub results: Rc<Results>,
    /// The job's index in them.
    pub job: usize,
}

impl Work for LandscapeOf {
    type Progress = ();
    type Done = smd_core::Landscape;
    const NAME: &'static str = "landscape";

    /// The worker's message as it is.
    fn failed(message: &str) -> String {
        message.to_owned()
    }
}

impl WorkerTask for LandscapeOf {
    fn task(&self) -> Task {
        let r = &self.results;
        Task::Landscape {
            scenario: (*r.scenario).clone(),
            job: self.job,
            resolution: LANDSCAPE_RESOLUTION,
            plans: r.plans.clone(),
        }
    }

    fn finish(
        &self,
        _: &(),
        output: Output,
        _: f64,
    ) -> Option<Result<smd_core::Landscape, String>> {
        let Output::Landscape { json } = output else {
            return None;
        };
        Some(serde_json::from_str(&json).map_err(|e| e.to_string()))
    }
}

/// The landscape of the selected job, keyed by the results and the job it was made for.
pub type LandscapeView = Keyed<LandscapeOf>;

/// What the worker is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerStatus {
    /// Spawned, not yet listening.
    Starting,
    /// Listening.
    Ready,
    /// Died with this message (and is being restarted).
    Died(String),
}

/// The solving part of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Solving {
    /// The last finished plans.
    pub results: Option<Rc<Results>>,
    /// The solve in progress (its result moves to [`Solving::results`]: a solve does not
    /// fail as a whole, each policy reports its own failure).
    pub solve: Background<Solve>,
    /// The selected job's landscape.
    pub landscape: Option<LandscapeView>,
    /// The worker's status.
    pub worker: WorkerStatus,
    /// Bumped whenever the worker must be terminated and respawned.
    pub restarts: u64,
    /// Deaths since the last finished solve (stops a crash loop).
    pub deaths_in_row: u32,
    /// The draft revision whose solve was cancelled: its plans stay the previous ones until
    /// the input changes.
    pub cancelled: Option<u64>,
    /// The smallest ε the draft's jobs allow under Algorithm 1's work budget, with the id of
    /// the job that sets it (`smd_core::budget::smallest_epsilon`). `None` when every ε in
    /// (0, 1] is allowed, or while a field other than ε has a problem (the limit is only
    /// meaningful for valid jobs). Derived from the draft after every change of it.
    pub epsilon_floor: Option<(f64, String)>,
    /// The draft `epsilon_floor` was computed for: it does not depend on ε, so moving ε
    /// alone (the slider) reuses it.
    floor_of: Option<Rc<Scenario>>,
    /// The next task id (solves, landscapes and reproductions share them).
    next_task: u64,
}

impl Default for Solving {
    fn default() -> Solving {
        Solving {
            results: None,
            solve: Background::default(),
            landscape: None,
            worker: WorkerStatus::Starting,
            restarts: 0,
            deaths_in_row: 0,
            cancelled: None,
            epsilon_floor: None,
            floor_of: None,
            next_task: 1,
        }
    }
}

impl Solving {
    /// A fresh id for a task of the worker.
    pub fn new_task_id(&mut self) -> u64 {
        let id = self.next_task;
        self.next_task += 1;
        id
    }

    /// The solve in progress.
    pub fn run(&self) -> Option<&Run> {
        self.solve.running.as_ref()
    }

    /// The plans on screen: the running solve's as they arrive (incomplete), else the last
    /// finished ones. A cancelled or failed run leaves the last finished ones.
    pub fn shown(&self) -> Option<Rc<Results>> {
        self.run()
            .and_then(|r| r.progress.shown.clone())
            .or_else(|| self.results.clone())
    }

    /// The worker must be terminated and respawned: what it was computing is lost.
    pub fn restart(&mut self) {
        self.restarts += 1;
        self.landscape = None;
    }

    /// A task id for a background run, the worker respawned first if it died.
    pub fn background_id(&mut self) -> u64 {
        if matches!(self.worker, WorkerStatus::Died(_)) {
            self.restart();
        }
        self.new_task_id()
    }

    /// Recomputes [`Solving::epsilon_floor`] after a change of the draft.
    pub fn follow_draft(&mut self, draft: &DraftState) {
        if !draft.only_epsilon_wrong {
            self.epsilon_floor = None;
            self.floor_of = None;
            return;
        }
        let same = self.floor_of.as_ref().is_some_and(|old| {
            Rc::ptr_eq(old, &draft.scenario) || same_but_epsilon(old, &draft.scenario)
        });
        if !same {
            self.epsilon_floor = smd_core::budget::smallest_epsilon(&draft.scenario);
            self.floor_of = Some(draft.scenario.clone());
        }
    }

    /// Starts solving `draft` (terminating a worker that is busy or dead first); returns
    /// whether the worker restarts.
    pub fn start(&mut self, draft: &DraftState) -> bool {
        let restart = self.solve.is_running() || matches!(self.worker, WorkerStatus::Died(_));
        if restart {
            // The worker is busy with an older draft (stop it), or dead (respawn it).
            self.restart();
        }
        let id = self.new_task_id();
        self.solve.start(
            id,
            Solve {
                revision: draft.revision,
                scenario: draft.scenario.clone(),
                uids: draft.uids.clone(),
                global_budget_ms: 1000.0 * draft.settings.global_budget_s,
            },
        );
        restart
    }

    /// Stops the running solve; returns whether there was one.
    pub fn cancel(&mut self) -> bool {
        let running = self.solve.cancel().is_some();
        if running {
            self.restart();
        }
        running
    }

    /// Solves the running draft again under a new id (in a fresh worker), from scratch.
    pub fn rerun(&mut self) {
        let id = &mut self.next_task;
        self.solve.rerun(|| {
            *id += 1;
            *id - 1
        });
    }

    /// The running solve's clock ticked; returns whether anything changed.
    pub fn elapsed(&mut self, run: u64, seconds: u32) -> bool {
        match self.solve.running.as_mut() {
            Some(r) if r.id == run && r.progress.elapsed_s != seconds => {
                r.progress.elapsed_s = seconds;
                if r.progress.shown.is_none() {
                    r.request.show_so_far(&mut r.progress);
                }
                true
            }
            _ => false,
        }
    }

    /// The worker died: it is respawned and the solve sent again, unless it died three
    /// times in a row (then the solve is dropped). Returns whether it is retried.
    pub fn died(&mut self, message: String) -> bool {
        self.deaths_in_row += 1;
        self.worker = WorkerStatus::Died(message);
        self.landscape = None;
        let retry = self.deaths_in_row < 3;
        if retry {
            self.restarts += 1;
            // Solve the same draft again in the fresh worker.
            self.rerun();
        } else {
            self.solve.cancel();
        }
        retry
    }

    /// A landscape is wanted for `(results revision, uid)`; returns whether it is a new
    /// request.
    pub fn request_landscape(&mut self, key: (u64, u64)) -> bool {
        if self.landscape.as_ref().is_some_and(|l| l.key == key) {
            return false;
        }
        let id = self.new_task_id();
        let request = self
            .results
            .as_ref()
            .filter(|r| r.revision == key.0)
            .and_then(|r| {
                let job = r.uids.iter().position(|&u| u == key.1)?;
                Some(LandscapeOf {
                    results: r.clone(),
                    job,
                })
            });
        self.landscape = Some(Keyed::new(key, request.map(|r| (id, r))));
        true
    }
}

/// The solve and the landscape are the plan's worker's part. Its death is the solving
/// part's own news ([`Solving::died`]: the solve is sent again, up to three times).
impl Pending for Solving {
    fn worker(&self) -> Worker {
        Worker::Plan
    }

    fn task_ids(&self) -> Vec<u64> {
        let mut ids = self.solve.task_ids();
        ids.extend(self.landscape.iter().flat_map(Keyed::task_ids));
        ids
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.solve
            .task_for(id)
            .or_else(|| self.landscape.as_ref()?.task_for(id))
    }

    fn owns_task(&self, task: u64) -> bool {
        self.solve.owns(task) || self.landscape.as_ref().is_some_and(|l| l.owns_task(task))
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        if self.solve.owns(task) {
            // A solve does not fail as a whole: each policy reports its own failure.
            if matches!(event, Event::Failed { .. }) {
                return false;
            }
            let news = self.solve.on_event(event);
            if news == News::Done {
                if let Some(Ok(results)) = self.solve.finished.take() {
                    self.results = Some(results);
                }
                self.deaths_in_row = 0;
            }
            return news.changed();
        }
        self.landscape
            .as_mut()
            .is_some_and(|l| l.on_worker_event(task, event))
    }

    fn lose(&mut self, _why: &str) {
        self.landscape = None;
    }

    fn restarted(&mut self, _why: &str, new_id: &mut dyn FnMut() -> u64) {
        self.landscape = None;
        self.solve.rerun(new_id);
    }
}

/// Whether two scenarios differ at most in ε.
fn same_but_epsilon(a: &Scenario, b: &Scenario) -> bool {
    let params = smd_core::scenario::Params {
        epsilon: a.params.epsilon,
        ..b.params.clone()
    };
    a.params == params && a.cluster == b.cluster && a.jobs == b.jobs
}

/// What the worker's life means for the rest of the page.
impl State {
    /// The debounce timer fired for `revision`: solve it, if it is still the draft's and
    /// valid. Returns whether anything changed.
    pub(super) fn start_solve(&mut self, revision: u64) -> bool {
        if revision != self.draft.revision || !self.draft.valid {
            return false;
        }
        if self.solving.start(&self.draft) {
            self.restart_background("the solver restarted for an edited scenario");
        }
        true
    }

    /// Stops the running solve; the previous plans stay.
    pub(super) fn cancel_solve(&mut self) {
        if self.solving.cancel() {
            self.solving.cancelled = Some(self.draft.revision);
            self.restart_background("the solve was cancelled");
            self.view.notice = Some(Notice::info(
                "Solve cancelled; the plans shown are the previous ones.",
            ));
        }
    }

    /// The worker restarts for another reason (`why`): each of its runs starts again in
    /// the fresh worker under a new id, or is lost ([`WorkerTask::RESUMES`]).
    pub(super) fn restart_background(&mut self, why: &str) {
        let mut next = self.solving.next_task;
        let mut new_id = || {
            next += 1;
            next - 1
        };
        for p in self.worker_parts() {
            p.restarted(why, &mut new_id);
        }
        self.solving.next_task = next;
    }

    /// The worker died with `message`.
    pub(super) fn worker_died(&mut self, message: String) {
        let why = format!("the solver stopped ({message})");
        for p in self.worker_parts() {
            p.lose(&why);
        }
        let text = if self.solving.died(message.clone()) {
            format!("The solver stopped ({message}). It was restarted; your input is kept.")
        } else {
            format!("The solver stopped again ({message}); not retrying this scenario. Your input is kept — change it to try again.")
        };
        self.view.notice = Some(Notice::warning(text));
    }

    /// A reply from the worker, to the part whose task it is; returns whether anything
    /// changed.
    pub(super) fn on_reply(&mut self, reply: Reply) -> bool {
        match reply {
            Reply::Ready => self.solving.worker = WorkerStatus::Ready,
            Reply::Panicked { message } => self.worker_died(message),
            Reply::Event { task, event } => {
                return self
                    .worker_parts()
                    .into_iter()
                    .find(|p| p.owns_task(task))
                    .is_some_and(|p| p.on_worker_event(task, event))
            }
        }
        true
    }
}

/// The worker and what it solves: start, cancel, the solve's clock, the worker's replies
/// and death, a landscape wanted.
#[derive(Clone, Debug)]
pub enum SolveAction {
    /// The debounce timer fired for this revision: solve it.
    Start(u64),
    /// Stop the running solve.
    Cancel,
    /// The running solve's clock ticked: its run id and whole seconds since it started.
    Elapsed(u64, u32),
    /// A reply from the solver.
    Reply(crate::solver::Reply),
    /// The worker died with this message.
    WorkerDied(String),
    /// The landscape of `(results revision, uid)` is wanted.
    RequestLandscape((u64, u64)),
}

impl SolveAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            SolveAction::Start(revision) => s.start_solve(revision),
            SolveAction::Cancel => {
                s.cancel_solve();
                true
            }
            SolveAction::Elapsed(run, seconds) => s.solving.elapsed(run, seconds),
            SolveAction::Reply(reply) => s.on_reply(reply),
            SolveAction::WorkerDied(message) => {
                s.worker_died(message);
                true
            }
            SolveAction::RequestLandscape(key) => s.solving.request_landscape(key),
        }
    }
}

#[cfg(test)]
mod tests;
