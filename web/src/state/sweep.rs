//! The capacity sweep (`smd_sweep`, docs/MODEL.md §19) of the draft: the form as typed —
//! what varies (cluster units, the machine count of a catalog type or of one of the
//! draft's groups, optionally one resource alone), the sizes, the policies, over time or
//! not, the workers —, the sweep in progress (one task per size, for the page's pool of
//! workers, and the results as they come back) and the last report, or why it stopped.
//!
//! `smd_sweep` makes the points, each point's scenario and numbers, the report and its
//! knee; this module only says what to run and gathers what comes back.

use super::background::{Background, Pending, Running, Work, Worker};
use super::draft::DraftState;
use super::{Notice, State};
use crate::solver::{Event, Output, Reply, Request, Task};
use smd_apps::machines::{self, MachineType, CATALOG};
use smd_core::scenario::Resource;
use smd_core::{Policy, Scenario};
use smd_sim::SimPolicy;
use smd_sweep::{
    Axis, Metric, MetricAnswer, Point, PointResult, Policies, Range, Report, Seek, Spec,
    SweepError, DEFAULT_MACHINE_TYPE,
};
use std::rc::Rc;

pub mod buy;
pub use buy::{Bought, BuyForm, BuyState, Buying};

/// The sweep form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepForm {
    /// On a pool: cluster units, or the machine count of a catalog type. A draft of
    /// machine groups always sweeps the count of one of its groups.
    pub axis: Axis,
    /// The catalog type counted on a pool.
    pub machine_type: &'static MachineType,
    /// The draft's machine group counted, by name (empty: the first).
    pub group: String,
    /// Only this resource varies (the others stay at the draft's).
    pub resource: Option<Resource>,
    /// The sizes as typed, `start:stop:step`; `None`: the draft's default
    /// ([`SweepForm::default_range`]), shown in the input until something is typed.
    pub range: Option<String>,
    /// Static policies left out (the others of the swept cluster's
    /// [`Policy::for_cluster`] run).
    pub off: Vec<Policy>,
    /// Also simulate every size over time (offered when the draft's jobs have arrivals).
    pub over_time: bool,
    /// Policies over time left out.
    pub sim_off: Vec<SimPolicy>,
    /// The metric the answer is about; `None`: mean JCT when the draft's jobs have arrival
    /// times, else total utility ([`SweepForm::metric_for`]).
    pub metric: Option<Metric>,
    /// The policy the answer assumes, by name; empty: the best for the metric at the
    /// current size.
    pub answer_policy: String,
    /// A goal for the metric as typed (`2h`, `90min`, a number); empty: none.
    pub goal: String,
    /// Workers; `None`: as many as the browser has logical processors, at most
    /// [`MAX_WORKERS`](crate::solver::pool::MAX_WORKERS).
    pub workers: Option<usize>,
    /// The input at fault (`range`, `resource`, `group`, `type`, `axis`, `policies` or
    /// `source`) and its message.
    pub error: Option<(&'static str, String)>,
}

impl Default for SweepForm {
    fn default() -> SweepForm {
        SweepForm {
            axis: Axis::Units,
            machine_type: machines::machine_type(DEFAULT_MACHINE_TYPE).unwrap_or(&CATALOG[0]),
            group: String::new(),
            resource: None,
            range: None,
            off: Vec::new(),
            over_time: false,
            sim_off: Vec::new(),
            metric: None,
            answer_policy: String::new(),
            goal: String::new(),
            workers: None,
            error: None,
        }
    }
}

/// Whether any of the scenario's jobs has an arrival time (then it can be swept over time).
pub fn has_arrivals(s: &Scenario) -> bool {
    s.jobs.iter().any(|j| j.arrival_s.is_some())
}

/// The smallest of 1, 2, 2.5 and 5 × 10^k (or 1, 2 and 5 × 10^k, `whole`: at least 1) not
/// below `raw`: a step that reads well.
fn nice_step(raw: f64, whole: bool) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let mut mag = 10f64.powf(raw.log10().floor());
    let ms: &[f64] = if whole {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0, 2.0, 2.5, 5.0]
    };
    loop {
        if let Some(m) = ms.iter().find(|&&m| m * mag >= raw * (1.0 - 1e-9)) {
            let step = m * mag;
            return if whole { step.max(1.0).round() } else { step };
        }
        mag *= 10.0;
    }
}

/// About 16–20 sizes `step, 2·step, …` up to `upto` (rounded up to a whole step).
fn range_up_to(upto: f64, sizes: f64, whole: bool) -> Range {
    let step = nice_step(upto / sizes, whole);
    let stop = (upto / step - 1e-9).ceil().max(1.0) * step;
    Range {
        start: step,
        stop,
        step,
    }
}

impl SweepForm {
    /// What varies for `draft`: the form's choice on a pool; a group's count on machines.
    pub fn axis_for(&self, draft: &Scenario) -> Axis {
        if draft.cluster.has_machines() {
            Axis::Machines
        } else {
            self.axis
        }
    }

    /// The machine group counted on a draft of machines: the one named, else the first.
    pub fn group_for<'a>(&'a self, draft: &'a Scenario) -> Option<&'a str> {
        let groups = &draft.cluster.machines;
        groups
            .iter()
            .find(|g| g.name == self.group)
            .or(groups.first())
            .map(|g| g.name.as_str())
    }

    /// Whether the form may vary one resource alone: on units, or on a draft's group (a
    /// pool swept in catalog machines has no count to keep).
    pub fn resource_allowed(&self, draft: &Scenario) -> bool {
        draft.cluster.has_machines() || self.axis == Axis::Units
    }

    /// Sizes that suit the draft: on units, 20 steps up to five times its units (the
    /// paper's 1–5 for one unit: `0.25:5:0.25`); on a group, up to twice its count (at
    /// least 8); on a pool in catalog machines, up to as many as hold the pool's capacity
    /// in every resource the type has (at least 8).
    pub fn default_range(&self, draft: &Scenario) -> Range {
        let c = &draft.cluster;
        match self.axis_for(draft) {
            Axis::Units => {
                let u = if c.units > 0.0 { c.units } else { 1.0 };
                range_up_to(5.0 * u, 20.0, false)
            }
            Axis::Machines => {
                let upto = match self.group_for(draft) {
                    Some(name) => {
                        let count = c
                            .machines
                            .iter()
                            .find(|g| g.name == name)
                            .map_or(1.0, |g| g.count);
                        2.0 * count
                    }
                    None => {
                        let (cap, per) = (c.capacity(), self.machine_type.capacity);
                        Resource::ALL
                            .iter()
                            .filter(|&&r| per[r] > 0.0)
                            .map(|&r| (cap[r] / per[r]).ceil())
                            .fold(0.0, f64::max)
                    }
                };
                let upto = upto.clamp(8.0, smd_core::scenario::MAX_MACHINES as f64);
                range_up_to(upto, 16.0, true)
            }
        }
    }

    /// The sizes' text: as typed, else the default.
    pub fn range_text(&self, draft: &Scenario) -> String {
        self.range
            .clone()
            .unwrap_or_else(|| self.default_range(draft).to_string())
    }

    /// The static policies offered for `draft`: what `smd compare` plans on the swept
    /// cluster (on machines also `smd_locality`).
    pub fn listed(&self, draft: &Scenario) -> &'static [Policy] {
        if self.axis_for(draft) == Axis::Machines && !draft.cluster.has_machines() {
            Policy::for_cluster(&machines::cluster(
                self.machine_type,
                1.0,
                draft.cluster.instance,
            ))
        } else {
            Policy::for_cluster(&draft.cluster)
        }
    }

    /// The metric the answer is about: the one chosen, else mean JCT when the draft's jobs
    /// arrive over time (the planner's question), else total utility. An over-time
    /// metric needs arrivals: without them it falls back to utility.
    pub fn metric_for(&self, draft: &Scenario) -> Metric {
        let arrivals = has_arrivals(draft);
        match self.metric {
            Some(m) if arrivals || !m.over_time() => m,
            _ if arrivals => Metric::MeanJct,
            _ => Metric::Utility,
        }
    }

    /// The static policies checked, in the listed order; none when the metric is over
    /// time (a static plan has no JCT: the sweep simulates instead).
    pub fn planners(&self, draft: &Scenario) -> Vec<Policy> {
        if self.metric_for(draft).over_time() {
            return Vec::new();
        }
        self.listed(draft)
            .iter()
            .copied()
            .filter(|p| !self.off.contains(p))
            .collect()
    }

    /// Whether the sweep simulates over time: when the metric is over time, or over time
    /// is checked; only when the draft has arrivals.
    pub fn runs_over_time(&self, draft: &Scenario) -> bool {
        has_arrivals(draft) && (self.over_time || self.metric_for(draft).over_time())
    }

    /// The policies over time to run: none unless the sweep runs over time.
    pub fn sim_policies(&self, draft: &Scenario) -> Vec<SimPolicy> {
        if !self.runs_over_time(draft) {
            return Vec::new();
        }
        SimPolicy::ALL
            .iter()
            .copied()
            .filter(|p| !self.sim_off.contains(p) && p.applies_to(draft))
            .collect()
    }

    /// The spec the form asks for on `draft`, or the input at fault and why (the range's
    /// own messages, `smd_sweep`'s).
    pub fn spec(&self, draft: &Scenario) -> Result<Spec, (&'static str, String)> {
        let range = Range::parse(&self.range_text(draft)).map_err(|m| ("range", m))?;
        let axis = self.axis_for(draft);
        let machines = draft.cluster.has_machines();
        Ok(Spec {
            axis,
            range,
            resource: self.resource.filter(|_| self.resource_allowed(draft)),
            machine_type: (axis == Axis::Machines && !machines)
                .then(|| self.machine_type.name.to_owned()),
            group: self.group_for(draft).map(str::to_owned),
        })
    }

    fn set_error(&mut self, field: &'static str, message: String) {
        self.error = Some((field, message));
    }
}

/// A sweep: the request (its tasks and what came back are its [`SweepProgress`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Sweeping {
    /// The scenario swept (the draft when it started).
    pub base: Rc<Scenario>,
    /// What varies.
    pub spec: Spec,
    /// The policies at every size.
    pub policies: Policies,
    /// `global`'s budget per size, ms (the draft's setting).
    pub global_budget_ms: f64,
    /// The pool's size.
    pub workers: usize,
    /// Every size.
    pub points: Vec<Point>,
    /// When it started, by the page's clock, ms.
    pub started_ms: f64,
    /// What it is, in words.
    pub label: String,
}

impl Sweeping {
    /// Policies per point.
    pub fn per_point(&self) -> usize {
        self.policies.planners.len() + self.policies.over_time.len()
    }
}

/// Where a sweep is: its tasks out at the page's pool and what came back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepProgress {
    /// The sizes still out: task id and the point's index.
    pub tasks: Vec<(u64, usize)>,
    /// Policies done at each point.
    pub done: Vec<usize>,
    /// The sizes back, in the order they came.
    pub results: Vec<PointResult>,
}

impl Work for Sweeping {
    type Progress = SweepProgress;
    type Done = Swept;
    const NAME: &'static str = "sweep";
}

/// A finished sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Swept {
    /// The scenario swept.
    pub base: Rc<Scenario>,
    /// What varied.
    pub spec: Spec,
    /// The policies.
    pub policies: Policies,
    /// Every size's numbers and the knee (`Report::new` of the results).
    pub report: Report,
    /// The pool's size.
    pub workers: usize,
    /// From Run to the last size back, by the page's clock, ms.
    pub ms: f64,
    /// What it was, in words.
    pub label: String,
    /// The draft's own size on the swept axis (`None`: a pool swept in catalog machines):
    /// the size the answer compares against.
    pub current: Option<f64>,
}

impl Swept {
    /// The answer for `metric` under `policy` (empty: the best for the metric at the
    /// current size) — `smd_sweep::metric_answer`, as `smd sweep --metric` gives it — or why
    /// there is none.
    pub fn answer(&self, metric: Metric, policy: &str) -> Result<MetricAnswer, String> {
        let first = self.report.points.first().ok_or("nothing was swept")?;
        if metric.over_time() && first.over_time.is_empty() {
            return Err(format!(
                "The {} needs the jobs simulated over time: Run the sweep again with this metric (the draft's jobs need arrival times).",
                metric.words()
            ));
        }
        let policy = (!policy.is_empty()).then_some(policy);
        smd_sweep::metric_answer(&self.report.points, metric, policy, self.current, false)
            .map_err(|e| format!("No answer: {e}."))
    }

    /// The fewest sizes swept that meet the goal typed in `goal` for `answer`'s metric
    /// (`None`: no goal typed), or why the goal cannot be read.
    pub fn goal(&self, answer: &MetricAnswer, goal: &str) -> Option<Result<Seek, String>> {
        if goal.trim().is_empty() {
            return None;
        }
        Some(
            smd_sweep::parse_goal(goal, answer.metric)
                .map(|g| smd_sweep::goal_in(&self.report.points, answer, g)),
        )
    }
}

/// The sweep part of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepState {
    /// The form.
    pub form: SweepForm,
    /// The sweep in progress and the last one, or why it stopped.
    pub run: Background<Sweeping>,
    /// The last sweep was cancelled after this many of so many sizes.
    pub cancelled: Option<(usize, usize)>,
    /// The resource whose use is charted; `None`: `smd_charts::use_resource`'s choice.
    pub chart_resource: Option<Resource>,
    /// What to buy: a grid of mixes of machine types, on the same pool of workers.
    pub buy: BuyState,
    /// The next task id (the pool's own: its replies come as their own action).
    next_task: u64,
}

impl Default for SweepState {
    fn default() -> SweepState {
        SweepState {
            form: SweepForm::default(),
            run: Background::default(),
            cancelled: None,
            chart_resource: None,
            buy: BuyState::default(),
            next_task: 1,
        }
    }
}

impl SweepState {
    /// A field of the form changed: `axis` (`units` or `machines`), `type`, `group`,
    /// `resource` (a name, or empty for all), `range`, `over_time` (`true`/`false`) or
    /// `workers` (a number, or empty for as many as the browser has cores); or, for the
    /// shown sweep, `chart_resource` (a name, or empty for the default). A change of what
    /// varies brings back the default sizes.
    pub fn field(&mut self, field: &str, text: String) {
        if field == "chart_resource" {
            self.chart_resource = text.parse::<Resource>().ok();
            return;
        }
        let f = &mut self.form;
        match field {
            "axis" => {
                let axis = if text == "machines" {
                    Axis::Machines
                } else {
                    Axis::Units
                };
                if axis != f.axis {
                    f.axis = axis;
                    f.range = None;
                }
            }
            "type" => {
                if let Ok(m) = machines::machine_type(&text) {
                    if m.name != f.machine_type.name {
                        f.machine_type = m;
                        f.range = None;
                    }
                }
            }
            "group" => {
                if text != f.group {
                    f.group = text;
                    f.range = None;
                }
            }
            "resource" => f.resource = text.parse::<Resource>().ok(),
            "range" => f.range = Some(text),
            "over_time" => f.over_time = text == "true",
            "metric" => f.metric = text.parse::<Metric>().ok(),
            "answer_policy" => f.answer_policy = text,
            "goal" => f.goal = text,
            "workers" => f.workers = text.parse::<usize>().ok().filter(|&n| n >= 1),
            _ => return,
        }
        f.error = None;
    }

    /// Checks (`on`) or unchecks a static policy.
    pub fn toggle(&mut self, policy: Policy, on: bool) {
        self.form.off.retain(|&p| p != policy);
        if !on {
            self.form.off.push(policy);
        }
        if matches!(self.form.error, Some(("policies", _))) {
            self.form.error = None;
        }
    }

    /// Checks (`on`) or unchecks a policy over time.
    pub fn toggle_sim(&mut self, policy: SimPolicy, on: bool) {
        self.form.sim_off.retain(|&p| p != policy);
        if !on {
            self.form.sim_off.push(policy);
        }
        if matches!(self.form.error, Some(("policies", _))) {
            self.form.error = None;
        }
    }

    /// Starts the form's sweep of the draft on `workers` workers at `now_ms`; a problem
    /// stays at its input. Returns whether anything changed.
    pub fn start(&mut self, draft: &DraftState, workers: usize, now_ms: f64) -> bool {
        if self.busy() {
            return false;
        }
        match self.plan(draft, workers, now_ms) {
            Ok((run, progress)) => {
                self.form.error = None;
                self.cancelled = None;
                // The pool's tasks carry their own ids: the run goes by its first.
                let id = progress.tasks.first().map_or(0, |t| t.0);
                self.run.start_at(id, run, progress);
            }
            Err((field, message)) => self.form.set_error(field, message),
        }
        true
    }

    /// The sweep the form asks for, its tasks numbered, or the input at fault.
    fn plan(
        &mut self,
        draft: &DraftState,
        workers: usize,
        now_ms: f64,
    ) -> Result<(Sweeping, SweepProgress), (&'static str, String)> {
        if !draft.valid {
            return Err((
                "source",
                "the draft has problems: fix them in the Plan view first".into(),
            ));
        }
        let base = draft.scenario.clone();
        let f = &self.form;
        let spec = f.spec(&base)?;
        let points = smd_sweep::points(&base, &spec).map_err(|e| match e {
            SweepError::Range { message, .. } => ("range", message),
            SweepError::Spec { field, message } => (
                match field {
                    "resource" => "resource",
                    "group" => "group",
                    "machine_type" => "type",
                    "axis" => "axis",
                    _ => "range",
                },
                message,
            ),
            other => ("range", other.to_string()),
        })?;
        // The metric asked about may need what the cluster lacks (the cost: prices).
        if let Some(first) = points.first() {
            let at = smd_sweep::scenario_at(&base, first).map_err(|e| ("range", e.to_string()))?;
            f.metric_for(&base).check(&at).map_err(|e| ("metric", e))?;
        }
        let planners = f.planners(&base);
        let over_time = f.sim_policies(&base);
        if planners.is_empty() && over_time.is_empty() {
            return Err(("policies", "choose at least one policy".into()));
        }
        let policies = Policies {
            planners,
            over_time,
        };
        let tasks = points
            .iter()
            .map(|p| {
                let id = self.next_task;
                self.next_task += 1;
                (id, p.index)
            })
            .collect();
        let label = label(&spec, &points, &policies);
        let progress = SweepProgress {
            tasks,
            done: vec![0; points.len()],
            results: Vec::new(),
        };
        let run = Sweeping {
            global_budget_ms: 1000.0 * draft.settings.global_budget_s,
            workers: workers.max(1),
            started_ms: now_ms,
            base,
            spec,
            policies,
            points,
            label,
        };
        Ok((run, progress))
    }

    /// Stops the running sweep (the pool terminates the workers busy with it); the last
    /// finished sweep stays. Returns whether there was one.
    pub fn cancel(&mut self) -> bool {
        let Some(r) = self.run.cancel() else {
            return false;
        };
        self.cancelled = Some((r.progress.results.len(), r.request.points.len()));
        true
    }

    /// Whether the pool is busy: with a sweep, or with a search of mixes (one at a time,
    /// each with its own number of workers).
    pub fn busy(&self) -> bool {
        self.run.is_running() || self.buy.run.is_running()
    }

    /// Starts What to buy's search of the draft on `workers` workers at `now_ms` (not while
    /// a sweep runs). Returns whether anything changed.
    pub fn start_buy(&mut self, draft: &DraftState, workers: usize, now_ms: f64) -> bool {
        if self.run.is_running() {
            return false;
        }
        self.buy.start(draft, workers, now_ms, &mut self.next_task)
    }

    /// The tasks the pool should be doing, in the order to send them: the sweep's, then
    /// the search of mixes'.
    pub fn tasks(&self) -> Vec<u64> {
        let mut tasks = self
            .run
            .running
            .as_ref()
            .map_or_else(Vec::new, |r| r.progress.tasks.iter().map(|t| t.0).collect());
        tasks.extend(self.buy.tasks());
        tasks
    }

    /// The pool's size for the running sweep or search of mixes.
    pub fn workers(&self) -> Option<usize> {
        self.run
            .running
            .as_ref()
            .map(|r| r.request.workers)
            .or(self.buy.workers())
    }

    /// The request of task `id`, if the pool should be doing it.
    pub fn request(&self, id: u64) -> Option<Request> {
        if self.buy.owns(id) {
            return self.buy.request(id);
        }
        let Running {
            request: r,
            progress,
            ..
        } = self.run.running.as_ref()?;
        let &(_, index) = progress.tasks.iter().find(|t| t.0 == id)?;
        Some(Request {
            id,
            task: Task::SweepPoint {
                scenario: (*r.base).clone(),
                point: r.points.get(index)?.clone(),
                policies: r.policies.clone(),
                global_budget_ms: r.global_budget_ms,
            },
        })
    }

    /// A reply of the pool at `now_ms`; returns whether anything changed. The last size
    /// back makes the report.
    pub fn on_reply(&mut self, reply: Reply, now_ms: f64) -> bool {
        if let Reply::Event { task, .. } = &reply {
            if self.buy.owns(*task) {
                return self.buy.on_reply(reply, now_ms);
            }
        }
        let Reply::Event { task, event } = reply else {
            return false;
        };
        let Some(Running {
            request: r,
            progress: p,
            ..
        }) = self.run.running.as_mut()
        else {
            return false;
        };
        let Some(at) = p.tasks.iter().position(|t| t.0 == task) else {
            return false;
        };
        let index = p.tasks[at].1;
        match event {
            Event::Progress { done, .. } => {
                if p.done[index] == done {
                    return false;
                }
                p.done[index] = done;
            }
            Event::Done {
                output: Output::SweepPoint(result),
                ..
            } => {
                p.tasks.remove(at);
                p.done[index] = r.per_point();
                p.results.push(*result);
                if p.tasks.is_empty() {
                    let Running {
                        request: r,
                        progress: p,
                        ..
                    } = self.run.cancel().expect("the sweep is there");
                    let current = r.points.first().and_then(|pt| pt.current_size(&r.base));
                    self.run.finish(Swept {
                        current,
                        report: Report::new(p.results),
                        ms: now_ms - r.started_ms,
                        base: r.base,
                        spec: r.spec,
                        policies: r.policies,
                        workers: r.workers,
                        label: r.label,
                    });
                }
            }
            Event::Failed { message } => self.run.fail(&message),
            _ => return false,
        }
        true
    }

    /// A worker of the pool died with `task` (if it had one of this sweep's): the sweep
    /// stops, saying why. Returns whether anything changed.
    pub fn died(&mut self, task: Option<u64>, message: &str) -> bool {
        if self.buy.died(task, message) {
            return true;
        }
        let ours = self
            .run
            .running
            .as_ref()
            .is_some_and(|r| task.is_some_and(|t| r.progress.tasks.iter().any(|x| x.0 == t)));
        if !ours {
            return false;
        }
        self.run.stop(format!(
            "The sweep stopped: a worker died ({message}). Run it again to retry."
        ));
        true
    }

    /// Points done and in all, and policies done and in all (for a finer bar).
    pub fn progress(&self) -> Option<((usize, usize), (usize, usize))> {
        let Running {
            request: r,
            progress: p,
            ..
        } = self.run.running.as_ref()?;
        let n = r.points.len();
        let per = r.per_point().max(1);
        Some((
            (p.results.len(), n),
            (p.done.iter().map(|&d| d.min(per)).sum(), n * per),
        ))
    }
}

/// The sweep and What to buy are the background part of the page's pool of workers. Their
/// replies come with the time they came ([`SweepAction::Reply`]), and a worker of the pool
/// dies alone, with its task ([`SweepAction::WorkerDied`]): the plan's and background
/// workers' restarts and deaths do not concern them.
impl Pending for SweepState {
    fn worker(&self) -> Worker {
        Worker::Pool
    }

    fn task_ids(&self) -> Vec<u64> {
        self.tasks()
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.request(id).map(|r| r.task)
    }

    fn owns_task(&self, task: u64) -> bool {
        self.tasks().contains(&task)
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        self.on_reply(Reply::Event { task, event }, crate::solver::now_ms())
    }

    fn lose(&mut self, _why: &str) {}

    fn restarted(&mut self, _why: &str, _new_id: &mut dyn FnMut() -> u64) {}
}

/// A sweep in words: `20 sizes of cluster units (0.25:5:0.25) × 5 policies`.
fn label(spec: &Spec, points: &[Point], policies: &Policies) -> String {
    let what = match (spec.axis, points.first().and_then(Point::machine)) {
        (Axis::Units, _) => "cluster units".to_owned(),
        (Axis::Machines, Some(m)) => format!("{m} machines"),
        (Axis::Machines, None) => "machines".to_owned(),
    };
    let only = spec
        .resource
        .map(|r| format!(", only {}", r.title()))
        .unwrap_or_default();
    let n = policies.planners.len() + policies.over_time.len();
    let over = if policies.over_time.is_empty() {
        String::new()
    } else {
        format!(" ({} over time)", policies.over_time.len())
    };
    format!(
        "{} sizes of {what} ({}{only}) × {n} policies{over}",
        points.len(),
        spec.range
    )
}

/// The capacity sweep: the form, the run, the replies of the page's pool of workers.
#[derive(Clone, Debug)]
pub enum SweepAction {
    /// A field of the sweep form: `axis`, `type`, `group`, `resource`, `range`,
    /// `over_time` or `workers`; or the resource charted, `chart_resource`.
    Field(&'static str, String),
    /// Check (`true`) or uncheck a static policy of the sweep.
    TogglePolicy(Policy, bool),
    /// Check (`true`) or uncheck a policy over time of the sweep.
    ToggleSimPolicy(smd_sim::SimPolicy, bool),
    /// Sweep the draft as the form says on this many workers, starting at this time (the
    /// page's clock, ms).
    Start(usize, f64),
    /// Stop the running sweep.
    Cancel,
    /// A reply from a worker of the sweep's pool, and when it came (the page's clock, ms).
    Reply(crate::solver::Reply, f64),
    /// A worker of the sweep's pool died: the task it had, and why.
    WorkerDied(Option<u64>, String),
    /// A field of the What to buy form: `grid`, `metric`, `policy`, `goal`, `budget`,
    /// `minimize` or `every`.
    BuyField(&'static str, String),
    /// Run What to buy's search of the draft on this many workers, starting at this time
    /// (the page's clock, ms).
    BuyStart(usize, f64),
    /// Stop the running search of mixes.
    BuyCancel,
}

impl SweepAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            SweepAction::Field(field, text) => {
                s.sweep.field(field, text);
                true
            }
            SweepAction::TogglePolicy(p, on) => {
                s.sweep.toggle(p, on);
                true
            }
            SweepAction::ToggleSimPolicy(p, on) => {
                s.sweep.toggle_sim(p, on);
                true
            }
            SweepAction::Start(workers, now) => s.sweep.start(&s.draft, workers, now),
            SweepAction::Cancel => {
                let cancelled = s.sweep.cancel();
                if cancelled {
                    s.view.notice = Some(Notice::info("Sweep cancelled."));
                }
                cancelled
            }
            SweepAction::Reply(reply, now) => s.sweep.on_reply(reply, now),
            SweepAction::WorkerDied(task, message) => s.sweep.died(task, &message),
            SweepAction::BuyField(field, text) => {
                s.sweep.buy.field(field, text);
                true
            }
            SweepAction::BuyStart(workers, now) => s.sweep.start_buy(&s.draft, workers, now),
            SweepAction::BuyCancel => {
                let cancelled = s.sweep.buy.cancel();
                if cancelled {
                    s.view.notice = Some(Notice::info("What to buy cancelled."));
                }
                cancelled
            }
        }
    }
}

#[cfg(test)]
mod tests;
