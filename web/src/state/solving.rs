//! The worker and what it solves: the run in progress (progress, `global`'s search,
//! elapsed time, cancel), the last results and the recommended plan among them, the
//! selected job's landscape, the worker's health and restarts, and the smallest ε the
//! draft's jobs allow (the hint beside ε).

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

/// A solve in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Task id (replies carry it).
    pub id: u64,
    /// The draft revision being solved.
    pub revision: u64,
    /// The scenario being solved.
    pub scenario: Rc<Scenario>,
    /// Its job uids.
    pub uids: Vec<u64>,
    /// `global`'s time budget for this solve, ms.
    pub global_budget_ms: f64,
    /// `(policy index, jobs done, jobs total)` of the latest progress report.
    pub progress: Option<(usize, usize, usize)>,
    /// Where `global`'s search is, once it searches (cleared by the next job progress).
    pub search: Option<SearchProgress>,
    /// Plans received so far.
    pub plans: Vec<Plan>,
    /// Failures so far.
    pub failures: Vec<(String, String)>,
    /// Whole seconds since it started, from the page's clock
    /// ([`Action::Elapsed`](super::Action::Elapsed)).
    pub elapsed_s: u32,
    /// Its plans so far as results (incomplete), shown once the solve is slow to finish —
    /// `global` searching or a second gone — and a policy has answered. A fast solve
    /// renders once, at the end: a render per answering policy cost the default scenario
    /// ~100 ms of its first plan (docs/BENCHMARKS.md, "One module").
    pub shown: Option<Rc<Results>>,
}

impl Run {
    /// Publishes the plans so far when the solve is slow and any have come.
    fn show_so_far(&mut self) {
        let slow = self.search.is_some() || self.elapsed_s >= 1;
        if slow && !(self.plans.is_empty() && self.failures.is_empty()) {
            self.shown = Some(Rc::new(self.so_far()));
        }
    }

    /// What it has so far, as (incomplete) results.
    fn so_far(&self) -> Results {
        Results {
            revision: self.revision,
            scenario: self.scenario.clone(),
            uids: self.uids.clone(),
            plans: self.plans.clone(),
            failures: self.failures.clone(),
            ms: 0.0,
            complete: false,
        }
    }

    /// Whether it has run long enough for the status line to say so.
    pub fn slow(&self) -> bool {
        self.elapsed_s >= SLOW_SOLVE_S
    }
}

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

/// The landscape of the selected job, keyed by the results and the job it was made for.
#[derive(Clone, Debug, PartialEq)]
pub struct LandscapeView {
    /// `(results revision, job uid)`.
    pub key: (u64, u64),
    /// Task id.
    pub run: u64,
    /// `None` while it is computed.
    pub data: Option<Result<Rc<smd_core::Landscape>, String>>,
}

/// The solving part of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Solving {
    /// The last finished plans.
    pub results: Option<Rc<Results>>,
    /// The solve in progress.
    pub run: Option<Run>,
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
            run: None,
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

    /// The plans on screen: the running solve's as they arrive (incomplete), else the last
    /// finished ones. A cancelled or failed run leaves the last finished ones.
    pub fn shown(&self) -> Option<Rc<Results>> {
        self.run
            .as_ref()
            .and_then(|r| r.shown.clone())
            .or_else(|| self.results.clone())
    }

    /// The worker must be terminated and respawned: what it was computing is lost.
    pub fn restart(&mut self) {
        self.restarts += 1;
        self.landscape = None;
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
        let restart = self.run.is_some() || matches!(self.worker, WorkerStatus::Died(_));
        if restart {
            // The worker is busy with an older draft (stop it), or dead (respawn it).
            self.restart();
        }
        let id = self.new_task_id();
        self.run = Some(Run {
            id,
            revision: draft.revision,
            scenario: draft.scenario.clone(),
            uids: draft.uids.clone(),
            global_budget_ms: 1000.0 * draft.settings.global_budget_s,
            progress: None,
            search: None,
            plans: Vec::new(),
            failures: Vec::new(),
            elapsed_s: 0,
            shown: None,
        });
        restart
    }

    /// Stops the running solve; returns whether there was one.
    pub fn cancel(&mut self) -> bool {
        let running = self.run.take().is_some();
        if running {
            self.restart();
        }
        running
    }

    /// Solves the running draft again under a new id (in a fresh worker), from scratch.
    pub fn rerun(&mut self) {
        if let Some(r) = self.run.take() {
            let id = self.new_task_id();
            self.run = Some(Run {
                id,
                progress: None,
                search: None,
                plans: Vec::new(),
                failures: Vec::new(),
                elapsed_s: 0,
                shown: None,
                ..r
            });
        }
    }

    /// The running solve's clock ticked; returns whether anything changed.
    pub fn elapsed(&mut self, run: u64, seconds: u32) -> bool {
        match self.run.as_mut() {
            Some(r) if r.id == run && r.elapsed_s != seconds => {
                r.elapsed_s = seconds;
                if r.shown.is_none() {
                    r.show_so_far();
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
            self.run = None;
        }
        retry
    }

    /// A landscape is wanted for `(results revision, uid)`; returns whether it is a new
    /// request.
    pub fn request_landscape(&mut self, key: (u64, u64)) -> bool {
        if self.landscape.as_ref().is_some_and(|l| l.key == key) {
            return false;
        }
        let run = self.new_task_id();
        self.landscape = Some(LandscapeView {
            key,
            run,
            data: None,
        });
        true
    }

    /// Whether task `task` is a solve or a landscape of this part.
    pub fn owns(&self, task: u64) -> bool {
        self.run.as_ref().is_some_and(|r| r.id == task)
            || self.landscape.as_ref().is_some_and(|l| l.run == task)
    }

    /// Tasks this part waits for.
    pub fn tasks(&self) -> impl Iterator<Item = u64> + '_ {
        let run = self.run.as_ref().map(|r| r.id);
        let landscape = self
            .landscape
            .as_ref()
            .filter(|l| l.data.is_none())
            .map(|l| l.run);
        run.into_iter().chain(landscape)
    }

    /// The task to send for id `task`, if this part waits for it.
    pub fn task(&self, task: u64) -> Option<Task> {
        if let Some(r) = self.run.as_ref().filter(|r| r.id == task) {
            return Some(Task::Solve {
                scenario: (*r.scenario).clone(),
                global_budget_ms: r.global_budget_ms,
            });
        }
        let l = self
            .landscape
            .as_ref()
            .filter(|l| l.run == task && l.data.is_none())?;
        let r = self.results.as_ref().filter(|r| r.revision == l.key.0)?;
        let job = r.uids.iter().position(|&u| u == l.key.1)?;
        Some(Task::Landscape {
            scenario: (*r.scenario).clone(),
            job,
            resolution: LANDSCAPE_RESOLUTION,
            plans: r.plans.clone(),
        })
    }

    /// News of one of this part's tasks; returns whether anything changed.
    pub fn on_event(&mut self, task: u64, event: Event) -> bool {
        if let Some(r) = self.run.as_mut().filter(|r| r.id == task) {
            match event {
                Event::Progress { step, done, total } => {
                    r.progress = Some((step, done, total));
                    r.search = None;
                }
                Event::Search { step, search } => {
                    let total = r.scenario.jobs.len();
                    r.progress = Some((step, total, total));
                    r.search = Some(search);
                    if r.shown.is_none() {
                        r.show_so_far();
                    }
                }
                Event::Partial(Partial::Planned(plan)) => {
                    r.plans.push(*plan);
                    r.show_so_far();
                }
                Event::Partial(Partial::PolicyFailed { policy, message }) => {
                    r.failures.push((policy, message));
                    r.show_so_far();
                }
                Event::Done {
                    output: Output::Solved,
                    ms,
                } => {
                    let r = self.run.take().expect("the run is there");
                    self.results = Some(Rc::new(Results {
                        revision: r.revision,
                        scenario: r.scenario,
                        uids: r.uids,
                        plans: r.plans,
                        failures: r.failures,
                        ms,
                        complete: true,
                    }));
                    self.deaths_in_row = 0;
                }
                // A solve does not fail as a whole: each policy reports its own failure.
                _ => return false,
            }
            return true;
        }
        if let Some(l) = self.landscape.as_mut().filter(|l| l.run == task) {
            l.data = Some(match event {
                Event::Done {
                    output: Output::Landscape { json },
                    ..
                } => serde_json::from_str::<smd_core::Landscape>(&json)
                    .map_err(|e| e.to_string())
                    .map(Rc::new),
                Event::Failed { message } => Err(message),
                _ => return false,
            });
            return true;
        }
        false
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
            self.reproduction
                .lost("the solver restarted for an edited scenario");
            self.rerun_background();
        }
        true
    }

    /// Stops the running solve; the previous plans stay.
    pub(super) fn cancel_solve(&mut self) {
        if self.solving.cancel() {
            self.solving.cancelled = Some(self.draft.revision);
            self.reproduction.lost("the solve was cancelled");
            self.rerun_background();
            self.view.notice = Some(Notice::info(
                "Solve cancelled; the plans shown are the previous ones.",
            ));
        }
    }

    /// The worker died with `message`.
    pub(super) fn worker_died(&mut self, message: String) {
        let why = format!("the solver stopped ({message})");
        self.teach.lost(&why);
        for b in self.background_mut() {
            b.lose(&why);
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
            Reply::Event { task, event } if self.solving.owns(task) => {
                return self.solving.on_event(task, event)
            }
            Reply::Event { task, event } if self.teach.owns(task) => {
                return self.teach.on_event(task, event)
            }
            Reply::Event { task, event } => {
                return self
                    .background_mut()
                    .into_iter()
                    .find(|b| b.owns_task(task))
                    .is_some_and(|b| b.on_worker_event(event))
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::FieldKey;
    use crate::solver::{handle, Request};
    use crate::state::tests::state;
    use crate::state::Action;
    use yew::Reducible;

    /// A slow solve's plans show as each policy answers (a fast one's at the end, in one
    /// render); nothing is recommended until all have; a cancel mid-solve leaves the last
    /// finished results, a death the same until the re-run's first plan.
    #[test]
    fn plans_show_as_they_arrive_and_cancel_leaves_the_finished_ones() {
        let solve = |s: Rc<State>| -> (Rc<State>, Vec<Reply>) {
            let revision = s.draft.revision;
            let s = s.reduce(Action::StartSolve(revision));
            let id = s.solving.run.as_ref().unwrap().id;
            let mut replies = Vec::new();
            handle(s.request(id).unwrap(), &mut |r| replies.push(r));
            (s, replies)
        };
        let partials = |replies: &[Reply]| {
            replies
                .iter()
                .filter(|r| {
                    matches!(
                        r,
                        Reply::Event {
                            event: Event::Partial(_),
                            ..
                        }
                    )
                })
                .count()
        };
        // A first solve, slow (its clock has ticked a second), to the end.
        let (s, replies) = solve(state(2));
        let id = s.solving.run.as_ref().unwrap().id;
        let mut s = s.reduce(Action::Elapsed(id, 1));
        let n = partials(&replies);
        assert_eq!(n, page_policies(&s.draft.scenario.cluster).len());
        let mut seen = 0;
        for reply in replies {
            let (partial, done) = match &reply {
                Reply::Event { event, .. } => (
                    matches!(event, Event::Partial(_)),
                    matches!(event, Event::Done { .. }),
                ),
                _ => (false, false),
            };
            seen += usize::from(partial);
            s = s.reduce(Action::Reply(reply));
            let Some(shown) = s.solving.shown() else {
                assert_eq!(seen, 0, "plans on screen from the first partial on");
                continue;
            };
            if done {
                assert!(shown.complete && s.solving.results.is_some());
                assert_eq!(shown.plans.len(), n);
                assert!(shown.recommended().is_some());
            } else {
                // `seen` plans so far, none recommended, nothing finished yet.
                assert!(!shown.complete);
                assert_eq!(shown.plans.len() + shown.failures.len(), seen);
                assert!(shown.recommended().is_none());
                assert!(s.solving.results.is_none());
                assert!(!s.results_stale());
            }
        }
        let finished = s.solving.results.clone().unwrap();
        // An edit, a new solve, two policies answer, then Cancel: the finished plans again.
        let s = s.reduce(Action::Edit(FieldKey::top("params.seed"), "5".into()));
        let (mut s, replies) = solve(s);
        let mut partial = replies.into_iter().filter(|r| {
            matches!(
                r,
                Reply::Event {
                    event: Event::Partial(_),
                    ..
                }
            )
        });
        for _ in 0..2 {
            s = s.reduce(Action::Reply(partial.next().unwrap()));
        }
        // Fast so far: the finished plans stay on screen (marked stale) …
        assert!(Rc::ptr_eq(&s.solving.shown().unwrap(), &finished));
        // … until the solve has taken a second.
        let id = s.solving.run.as_ref().unwrap().id;
        let s = s.reduce(Action::Elapsed(id, 1));
        let shown = s.solving.shown().unwrap();
        assert_eq!((shown.plans.len(), shown.complete), (2, false));
        assert_eq!(shown.revision, s.draft.revision);
        let s = s.reduce(Action::Cancel);
        assert!(Rc::ptr_eq(&s.solving.shown().unwrap(), &finished));
        assert!(s.results_stale());
        // A worker that dies mid-solve: the re-run starts with nothing of its own.
        let s = s.reduce(Action::Edit(FieldKey::top("params.seed"), "6".into()));
        let (s, replies) = solve(s);
        let id = s.solving.run.as_ref().unwrap().id;
        let mut s = s.reduce(Action::Elapsed(id, 2));
        s = s.reduce(Action::Reply(
            replies
                .into_iter()
                .find(|r| {
                    matches!(
                        r,
                        Reply::Event {
                            event: Event::Partial(_),
                            ..
                        }
                    )
                })
                .unwrap(),
        ));
        assert!(!s.solving.shown().unwrap().complete);
        let s = s.reduce(Action::WorkerDied("boom".into()));
        assert!(Rc::ptr_eq(&s.solving.shown().unwrap(), &finished));
    }

    #[test]
    fn solve_replies_fill_results_and_stale_ones_are_ignored() {
        let s = state(2);
        let r = s.draft.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.solving.run.as_ref().unwrap().id;
        assert_eq!(s.tasks(), vec![id]);
        let Some(Request { task, .. }) = s.request(id) else {
            panic!("no request for the run")
        };
        let mut replies = Vec::new();
        handle(Request { id, task }, &mut |r| replies.push(r));
        let mut s = s.reduce(Action::Reply(Reply::Event {
            task: 999,
            event: Event::Done {
                output: Output::Solved,
                ms: 0.0,
            },
        }));
        assert!(s.solving.run.is_some());
        for r in replies {
            s = s.reduce(Action::Reply(r));
        }
        let r = s.solving.results.as_ref().unwrap();
        assert_eq!(r.plans.len(), page_policies(&r.scenario.cluster).len());
        // `global` is planned too, and it is the recommended plan.
        let global = r.plan(Policy::Global).expect("global planned");
        assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Global));
        for p in &r.plans {
            assert!(
                global.total_utility >= p.total_utility - 1e-9,
                "{}",
                p.policy
            );
        }
        assert!(s.solving.run.is_none());
        assert!(!s.results_stale());
        assert!(s.tasks().is_empty());
    }

    /// The recommended plan is the best total utility; `global` wins a tie, and another
    /// policy is recommended only without a `global` plan.
    #[test]
    fn the_recommended_plan_is_the_best_total_utility() {
        let s = state(2);
        let plan = |policy, total_utility| Plan {
            policy,
            total_utility,
            ..smd_core::plan_with(&s.draft.scenario, Policy::Esw, &mut Default::default()).unwrap()
        };
        let mut r = Results {
            revision: 1,
            scenario: s.draft.scenario.clone(),
            uids: s.draft.uids.clone(),
            plans: vec![plan(Policy::Smd, 5.0), plan(Policy::Exact, 7.0)],
            failures: Vec::new(),
            ms: 0.0,
            complete: true,
        };
        assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Exact));
        // A total a rounding error below the best is as good (the fixture's optimus and
        // global differ so: 260.4205629462304 and 260.4205629455367).
        r.plans.insert(1, plan(Policy::Global, 7.0 * (1.0 - 1e-12)));
        assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Global));
        r.plans[1].total_utility = 6.9;
        assert_eq!(r.recommended().map(|p| p.policy), Some(Policy::Exact));
        r.plans.clear();
        assert!(r.recommended().is_none());
    }

    /// The draft's time budget goes with the solve; `global`'s search reports show in the
    /// run until the solve ends, and Cancel stops a searching `global` like any solve.
    #[test]
    fn global_searches_within_the_budget_and_cancel_stops_it() {
        let s = state(2);
        let s = s.reduce(Action::Edit(
            FieldKey::top(crate::fields::GLOBAL_BUDGET),
            "0.25".into(),
        ));
        let r = s.draft.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.solving.run.as_ref().unwrap().id;
        let Some(Request {
            task: Task::Solve {
                global_budget_ms, ..
            },
            ..
        }) = s.request(id)
        else {
            panic!("no solve request")
        };
        assert_eq!(global_budget_ms, 250.0);
        let global = Policy::POOL
            .iter()
            .position(|&p| p == Policy::Global)
            .unwrap();
        let event = |event| Action::Reply(Reply::Event { task: id, event });
        let s = s.reduce(event(Event::Progress {
            step: global,
            done: 1,
            total: 2,
        }));
        assert_eq!(s.solving.run.as_ref().unwrap().search, None);
        let search = smd_core::SearchProgress {
            nodes: 1_200_000,
            best: 1234.5,
            bound: 1235.0,
        };
        let s = s.reduce(event(Event::Search {
            step: global,
            search,
        }));
        let run = s.solving.run.as_ref().unwrap();
        assert_eq!(run.progress, Some((global, 2, 2)));
        assert_eq!(run.search, Some(search));
        // Cancel: the worker is terminated (a restart), the previous plans stay.
        let restarts = s.solving.restarts;
        let s = s.reduce(Action::Cancel);
        assert!(s.solving.run.is_none());
        assert_eq!(s.solving.restarts, restarts + 1);
        assert!(s.solve_cancelled());
        // A late report of the cancelled solve changes nothing.
        let before = s.clone();
        let s = s.reduce(event(Event::Search {
            step: global,
            search,
        }));
        assert!(Rc::ptr_eq(&before, &s));
    }

    /// The selected job's landscape is a task like a solve: asked for once per results
    /// and job, answered under its id.
    #[test]
    fn a_landscape_is_requested_once_and_filled_by_its_reply() {
        let s = state(2);
        let r = s.draft.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.solving.run.as_ref().unwrap().id;
        let mut replies = Vec::new();
        handle(s.request(id).unwrap(), &mut |r| replies.push(r));
        let s = replies
            .into_iter()
            .fold(s, |s, r| s.reduce(Action::Reply(r)));
        let (rev, uid, index) = s.wanted_landscape().expect("a job is selected");
        assert_eq!(index, 0);
        let s = s.reduce(Action::RequestLandscape((rev, uid)));
        let again = s.clone().reduce(Action::RequestLandscape((rev, uid)));
        assert!(Rc::ptr_eq(&s, &again), "asked once");
        let l = s.solving.landscape.clone().unwrap();
        assert!(l.run > id && l.data.is_none());
        assert_eq!(s.tasks(), vec![l.run]);
        let req = s.request(l.run).unwrap();
        assert!(matches!(req.task, Task::Landscape { job: 0, .. }));
        let mut replies = Vec::new();
        handle(req, &mut |r| replies.push(r));
        let s = replies
            .into_iter()
            .fold(s, |s, r| s.reduce(Action::Reply(r)));
        assert!(matches!(
            s.solving.landscape.as_ref().unwrap().data,
            Some(Ok(_))
        ));
        assert!(s.tasks().is_empty());
    }

    #[test]
    fn too_small_an_epsilon_names_the_field_and_the_hint_gives_the_limit() {
        let s = state(6);
        assert!(s.draft.valid);
        let (floor, job) = smd_core::budget::smallest_epsilon(&s.draft.scenario).expect("a limit");
        assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));
        assert!(s.draft.scenario.jobs.iter().any(|j| j.id == job));
        assert!(floor < 0.2, "{floor}");

        let key = FieldKey::top("params.epsilon");
        let s = s.reduce(Action::Edit(key.clone(), format!("{}", floor / 10.0)));
        assert!(!s.draft.valid);
        let e: Vec<_> = s.draft.errors_of(&key).collect();
        assert_eq!(e.len(), 1, "{:?}", s.draft.errors);
        assert!(
            e[0].message
                .contains(&format!("the smallest ε this scenario allows is {floor}")),
            "{}",
            e[0].message
        );
        assert!(s.shown_inline(e[0]));
        assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));
        // The limit itself is allowed.
        let s = s.reduce(Action::Edit(key.clone(), floor.to_string()));
        assert!(s.draft.valid, "{:?}", s.draft.errors);
        assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));

        // Text that does not parse and an ε out of range keep the hint: the jobs are fine.
        let s = s.reduce(Action::Edit(key.clone(), "tiny".into()));
        assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));
        let s = s.reduce(Action::Edit(key.clone(), "0".into()));
        assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));

        // A problem in a job hides it (the limit needs valid jobs) until it is fixed.
        let b = FieldKey::job(s.draft.uids[0], "ps_bandwidth_gbps");
        let bandwidth = s.draft.text(&b);
        let s = s.reduce(Action::Edit(b.clone(), "0".into()));
        assert_eq!(s.solving.epsilon_floor, None);
        let s = s.reduce(Action::Edit(b.clone(), "x".into()));
        assert_eq!(s.solving.epsilon_floor, None);
        let s = s.reduce(Action::Edit(b, bandwidth));
        assert_eq!(s.solving.epsilon_floor, Some((floor, job.clone())));

        // It follows the jobs: fewer jobs, a limit of its own.
        let s = s.reduce(Action::Edit(key, "0.2".into()));
        let first = s.draft.uids[0];
        let s = s.reduce(Action::DeleteJob(first));
        assert!(s.draft.valid);
        assert_eq!(
            s.solving.epsilon_floor,
            smd_core::budget::smallest_epsilon(&s.draft.scenario)
        );
    }

    #[test]
    fn a_slow_solve_is_called_out_and_cancel_stops_it() {
        let s = state(2);
        let r = s.draft.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.solving.run.as_ref().unwrap().id;
        assert!(!s.solving.run.as_ref().unwrap().slow());
        let s = s.reduce(Action::Elapsed(id, 1));
        assert_eq!(s.solving.run.as_ref().unwrap().elapsed_s, 1);
        assert!(!s.solving.run.as_ref().unwrap().slow());
        // A tick of an older run changes nothing.
        let before = s.clone();
        let s = s.reduce(Action::Elapsed(id + 7, 9));
        assert!(Rc::ptr_eq(&before, &s));
        let s = s.reduce(Action::Elapsed(id, SLOW_SOLVE_S));
        assert!(s.solving.run.as_ref().unwrap().slow());
        // Cancel stops it: the worker is replaced and the previous plans stay.
        let restarts = s.solving.restarts;
        let s = s.reduce(Action::Cancel);
        assert!(s.solving.run.is_none());
        assert_eq!(s.solving.restarts, restarts + 1);
        assert!(s
            .view
            .notice
            .as_ref()
            .unwrap()
            .text
            .contains("Solve cancelled"));
        let s = s.reduce(Action::Elapsed(id, 5));
        assert!(s.solving.run.is_none());
        // The status says the shown plans are stale because the solve was cancelled (not
        // "being solved"), until the input changes.
        assert!(s.solve_cancelled());
        // A re-run (after the worker died) starts its clock again.
        let s = s.reduce(Action::Edit(FieldKey::top("params.seed"), "5".into()));
        assert!(!s.solve_cancelled());
        let r = s.draft.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.solving.run.as_ref().unwrap().id;
        let s = s.reduce(Action::Elapsed(id, 4));
        let s = s.reduce(Action::WorkerDied("boom".into()));
        assert_eq!(s.solving.run.as_ref().unwrap().elapsed_s, 0);
    }
}
