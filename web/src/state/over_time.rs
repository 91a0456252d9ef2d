//! Planning over time (`smd_sim`, docs/MODEL.md §17), run in the solver worker: the form
//! (the source — the draft's jobs with their arrivals, or a bundled workload on N catalog
//! machines —, the policies), the run in progress and the last runs (or why they stopped),
//! the job whose history is shown and the policy of the timeline.
//!
//! The form keeps its text as typed; a problem stays at its input. `smd-apps` makes the
//! workload's scenario and `smd-sim` every run; this module only says what to run.

use super::apps::{parse_count, trace_message, TRACE_MACHINES};
use super::background::{Background, News, Pending, Work, WorkerTask};
use super::draft::DraftState;
use super::State;
use crate::fields;
use crate::solver::{Event, Output, Task};
use smd_apps::machines::{self, MachineType, CATALOG};
use smd_apps::trace;
use smd_core::Scenario;
use smd_sim::{Run, SimPolicy};
use std::rc::Rc;

/// Where the simulated jobs come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SimSource {
    /// The draft's jobs (their `arrival_s`; none is 0) on the draft's cluster.
    #[default]
    Draft,
    /// A bundled workload on N machines of a catalog type.
    Workload,
}

impl SimSource {
    /// Its name in the form.
    pub fn name(self) -> &'static str {
        match self {
            SimSource::Draft => "draft",
            SimSource::Workload => "workload",
        }
    }
}

/// The over-time form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SimForm {
    /// Where the jobs come from.
    pub source: SimSource,
    /// The bundled workload's name.
    pub workload: &'static str,
    /// The machine type of the workload's cluster.
    pub machine: &'static MachineType,
    /// How many machines, as typed.
    pub count: String,
    /// Only the first N arrivals of the workload, as typed (empty: all).
    pub arrivals: String,
    /// The policies to run, in [`SimPolicy::ALL`]'s order.
    pub policies: Vec<SimPolicy>,
    /// The input at fault (`count`, `arrivals`, `policies` or `source`) and the message.
    pub error: Option<(&'static str, String)>,
}

impl Default for SimForm {
    fn default() -> SimForm {
        let (name, count) = TRACE_MACHINES;
        SimForm {
            source: SimSource::Draft,
            workload: trace::WORKLOADS[0].0,
            machine: machines::machine_type(name).unwrap_or(&CATALOG[0]),
            count: count.to_string(),
            arrivals: String::new(),
            policies: SimPolicy::ALL.to_vec(),
            error: None,
        }
    }
}

/// Where a running simulation is (its latest report).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimProgress {
    /// The policy's index in the run's list.
    pub step: usize,
    /// Slots simulated.
    pub slots: usize,
    /// Simulated time reached, s.
    pub time_s: f64,
    /// Jobs finished.
    pub finished: usize,
    /// Jobs in the scenario.
    pub jobs: usize,
}

/// A simulation: the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    /// The scenario simulated.
    pub scenario: Rc<Scenario>,
    /// The policies, in order.
    pub policies: Vec<SimPolicy>,
    /// What it is, in words (`the draft: 160 jobs on 16 × t4x4 machines — …`).
    pub label: String,
}

impl Work for Simulation {
    /// The latest report.
    type Progress = Option<SimProgress>;
    type Done = Simulated;
    const NAME: &'static str = "simulation";
}

impl WorkerTask for Simulation {
    fn task(&self) -> Task {
        Task::Simulate {
            scenario: (*self.scenario).clone(),
            policies: self.policies.clone(),
        }
    }

    fn read_progress(&self, event: &Event) -> Option<Self::Progress> {
        match *event {
            Event::Simulating {
                step,
                slots,
                time_s,
                finished,
                jobs,
            } => Some(Some(SimProgress {
                step,
                slots,
                time_s,
                finished,
                jobs,
            })),
            _ => None,
        }
    }

    fn done(&self, output: Output, ms: f64) -> Option<Simulated> {
        let Output::Simulated { runs, reference } = output else {
            return None;
        };
        Some(Simulated {
            scenario: self.scenario.clone(),
            runs,
            reference,
            label: self.label.clone(),
            ms,
        })
    }
}

/// Finished runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulated {
    /// The scenario simulated.
    pub scenario: Rc<Scenario>,
    /// One run per policy, in order.
    pub runs: Vec<Run>,
    /// The reference simulator's published mean JCT, s, per policy, when the scenario is a
    /// bundled workload as the reference ran it; empty otherwise.
    pub reference: Vec<(String, f64)>,
    /// What it is, in words.
    pub label: String,
    /// Wall time, ms.
    pub ms: f64,
}

impl Simulated {
    /// The run of `policy`, if it was simulated.
    pub fn run(&self, policy: SimPolicy) -> Option<&Run> {
        self.runs.iter().find(|r| r.policy == policy)
    }

    /// The table's answer in words, from its numbers: "Shortest mean JCT: pollux (21.4
    /// min); shortest p95 JCT: tiresias (1.20 h); longest mean wait: fifo (35.0 min);
    /// longest p95 wait: fifo (2.50 h)."
    /// `None` when no policy has a number to compare.
    pub fn verdict(&self) -> Option<String> {
        // The bound is no schedule: no policy to choose.
        let runs = || self.runs.iter().filter(|r| r.policy != SimPolicy::Bound);
        // The first run whose value `better` beats every earlier one's.
        let pick = |value: fn(&smd_sim::Metrics) -> Option<f64>, better: fn(f64, f64) -> bool| {
            runs()
                .filter_map(|r| Some((r.policy.name(), value(&r.metrics)?)))
                .reduce(|best, x| if better(x.1, best.1) { x } else { best })
                .map(|(name, v)| format!("{name} ({})", smd_format::duration(v)))
        };
        let shorter = |a: f64, b: f64| a < b;
        let parts: Vec<String> = [
            ("Shortest mean JCT", pick(|m| m.mean_jct_s, shorter)),
            ("shortest p95 JCT", pick(|m| m.p95_jct_s, shorter)),
            ("longest mean wait", pick(|m| m.mean_queue_s, |a, b| a > b)),
            ("longest p95 wait", pick(|m| m.p95_queue_s, |a, b| a > b)),
        ]
        .into_iter()
        .filter_map(|(what, p)| Some(format!("{what}: {}", p?)))
        .collect();
        (!parts.is_empty()).then(|| format!("{}.", parts.join("; ")))
    }
}

/// A bundled workload as the form asks for it: its name, the machine type, how many
/// machines, and how many of its first arrivals (`None`: all).
pub type WorkloadAsked = (&'static str, &'static MachineType, f64, Option<usize>);

/// The over-time part of the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverTimeState {
    /// The form.
    pub form: SimForm,
    /// The simulation in progress and the last runs, or why they stopped.
    pub run: Background<Simulation>,
    /// The job whose history is shown (its id).
    pub job: Option<String>,
    /// The policy whose timeline and job histories are shown.
    pub timeline: Option<SimPolicy>,
}

impl OverTimeState {
    /// A field of the form changed: `source`, `workload`, `type`, `count` or `arrivals`.
    pub fn field(&mut self, field: &str, text: String) {
        let f = &mut self.form;
        match field {
            "source" => {
                f.source = if text == "workload" {
                    SimSource::Workload
                } else {
                    SimSource::Draft
                }
            }
            "workload" => {
                if let Some((name, _)) = trace::WORKLOADS.iter().find(|(n, _)| *n == text) {
                    f.workload = name;
                }
            }
            "type" => f.machine = machines::machine_type(&text).unwrap_or(f.machine),
            "count" => f.count = text,
            "arrivals" => f.arrivals = text,
            _ => return,
        }
        f.error = None;
    }

    /// Checks (`on`) or unchecks a policy.
    pub fn toggle(&mut self, policy: SimPolicy, on: bool) {
        let mut set: Vec<SimPolicy> = self.form.policies.clone();
        set.retain(|&p| p != policy);
        if on {
            set.push(policy);
        }
        self.form.policies = SimPolicy::ALL
            .iter()
            .copied()
            .filter(|p| set.contains(p))
            .collect();
        if matches!(self.form.error, Some(("policies", _))) {
            self.form.error = None;
        }
    }

    /// The bundled workload the form asks for — its name, machine type, count and how
    /// many arrivals (all if `None`) — or the input at fault and why.
    pub fn workload(&self) -> Result<WorkloadAsked, (&'static str, String)> {
        let f = &self.form;
        let n = parse_count(&f.count).map_err(|m| ("count", m))?;
        let take = match f.arrivals.trim() {
            "" => None,
            t => {
                let v = fields::parse_number(t).map_err(|m| ("arrivals", m))?;
                if !(v.is_finite() && v.fract() == 0.0 && v >= 1.0) {
                    return Err((
                        "arrivals",
                        format!("must be a whole number of at least 1 (got {t:?})"),
                    ));
                }
                Some(v as usize)
            }
        };
        Ok((f.workload, f.machine, n, take))
    }

    /// The scenario simulated: the draft, with its label, or why it cannot be. A bundled
    /// workload is loaded into the draft first ([`State::start_simulation`]): the page
    /// plans one cluster in every view.
    pub fn scenario(draft: &DraftState) -> Result<(Rc<Scenario>, String), (&'static str, String)> {
        if !draft.valid {
            return Err((
                "source",
                "the draft has problems: fix them in the Plan view first".into(),
            ));
        }
        let s = &draft.scenario;
        let label = format!(
            "the draft: {} jobs on {}",
            s.jobs.len(),
            smd_apps::machines::describe(&s.cluster)
        );
        Ok((s.clone(), label))
    }

    /// News of the running simulation; returns whether anything changed. Finished runs
    /// keep the job and the timeline shown if they are in them, else show the first job and
    /// `smd`'s timeline (or the first policy's).
    pub fn on_event(&mut self, event: Event) -> bool {
        let Some(r) = self.run.running.as_ref().map(|r| r.request.clone()) else {
            return false;
        };
        let news = self.run.on_event(event);
        if news == News::Done {
            if !self
                .job
                .as_ref()
                .is_some_and(|id| r.scenario.jobs.iter().any(|j| &j.id == id))
            {
                self.job = r.scenario.jobs.first().map(|j| j.id.clone());
            }
            if !self.timeline.is_some_and(|p| r.policies.contains(&p)) {
                self.timeline = r
                    .policies
                    .iter()
                    .copied()
                    .find(|&p| p == SimPolicy::Smd)
                    .or_else(|| r.policies.first().copied());
            }
        }
        news.changed()
    }

    /// The last runs, if the draft's cluster has changed since (every run is of the draft).
    fn draft_cluster_changed(&self, draft: &DraftState) -> bool {
        matches!(&self.run.finished, Some(Ok(r)) if r.scenario.cluster != draft.scenario.cluster)
    }
}

/// Over time is a background part of the worker like the others, but reads its own news
/// ([`OverTimeState::on_event`]: the job and timeline shown follow finished runs).
impl Pending for OverTimeState {
    fn task_ids(&self) -> Vec<u64> {
        self.run.task_ids()
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.run.task_for(id)
    }

    fn owns_task(&self, task: u64) -> bool {
        self.run.owns(task)
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        self.run.owns(task) && self.on_event(event)
    }

    fn lose(&mut self, why: &str) {
        self.run.lost(why);
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        self.run.restarted(why, new_id);
    }
}

/// What a simulation means for the worker.
impl State {
    /// Runs the form's simulation; returns whether anything changed. A bundled workload
    /// is loaded into the draft (with Undo, as "Load a trace" does) and the draft is
    /// simulated: Plan, Over time and Sweep then speak of the same jobs and machines.
    pub(super) fn start_simulation(&mut self) -> bool {
        if self.over_time.run.is_running() {
            return false;
        }
        if self.over_time.form.policies.is_empty() {
            self.over_time.form.error = Some(("policies", "choose at least one policy".into()));
            return true;
        }
        if self.over_time.form.source == SimSource::Workload {
            let loaded = self.over_time.workload().and_then(|(name, m, n, take)| {
                let text = trace::pollux_workload(name).map_err(|m| ("source", m))?;
                self.draft
                    .load_arrivals(name, text, m, n, take)
                    .map_err(|e| ("source", trace_message(&e)))
            });
            match loaded {
                Ok(note) => {
                    self.draft_replaced(note, false);
                    self.over_time.form.source = SimSource::Draft;
                }
                Err(e) => {
                    self.over_time.form.error = Some(e);
                    return true;
                }
            }
        }
        let (scenario, label) = match OverTimeState::scenario(&self.draft) {
            Ok(s) => s,
            Err(e) => {
                self.over_time.form.error = Some(e);
                return true;
            }
        };
        // The reference's policies schedule measured jobs only: the others' scenarios
        // run without them.
        let policies: Vec<SimPolicy> = self
            .over_time
            .form
            .policies
            .iter()
            .copied()
            .filter(|p| p.applies_to(&scenario))
            .collect();
        self.run_simulation(scenario, label, policies);
        true
    }

    fn run_simulation(&mut self, scenario: Rc<Scenario>, label: String, policies: Vec<SimPolicy>) {
        let id = self.solving.background_id();
        self.over_time.form.error = None;
        self.over_time.run.start(
            id,
            Simulation {
                scenario,
                policies,
                label,
            },
        );
    }

    /// Stops the running simulation (terminates the worker); returns whether there was
    /// one.
    pub(super) fn cancel_simulation(&mut self) -> bool {
        if self.over_time.run.cancel().is_none() {
            return false;
        }
        self.background_cancelled("the simulation was cancelled", "Simulation cancelled.");
        true
    }

    /// Shown results of the draft whose cluster has changed are simulated again (with the
    /// same policies), while the over-time view is on screen and the draft is valid.
    pub(super) fn follow_draft_over_time(&mut self) {
        if self.view.tab != super::View::OverTime
            || self.over_time.run.is_running()
            || !self.draft.valid
            || !self.over_time.draft_cluster_changed(&self.draft)
        {
            return;
        }
        let policies = match &self.over_time.run.finished {
            Some(Ok(r)) => r.runs.iter().map(|r| r.policy).collect(),
            _ => return,
        };
        let Ok((scenario, label)) = OverTimeState::scenario(&self.draft) else {
            return;
        };
        self.run_simulation(scenario, label, policies);
    }
}

/// Planning over time: the form, the run, what is shown of its results.
#[derive(Clone, Debug)]
pub enum OverTimeAction {
    /// A field of the over-time form: `source`, `workload`, `type`, `count` or `arrivals`.
    Field(&'static str, String),
    /// Check (`true`) or uncheck a policy to simulate.
    TogglePolicy(smd_sim::SimPolicy, bool),
    /// Simulate the form's source with its policies.
    Start,
    /// Stop the running simulation.
    Cancel,
    /// Show this job's history (its id).
    SelectJob(String),
    /// Show this policy's timeline and job histories.
    ShowTimeline(smd_sim::SimPolicy),
}

impl OverTimeAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            OverTimeAction::Field(field, text) => {
                s.over_time.field(field, text);
                true
            }
            OverTimeAction::TogglePolicy(p, on) => {
                s.over_time.toggle(p, on);
                true
            }
            OverTimeAction::Start => s.start_simulation(),
            OverTimeAction::Cancel => s.cancel_simulation(),
            OverTimeAction::SelectJob(id) => {
                s.over_time.job = Some(id);
                true
            }
            OverTimeAction::ShowTimeline(p) => {
                s.over_time.timeline = Some(p);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests;
