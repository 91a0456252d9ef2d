//! The page's whole state and every change to it, as one [`Reducible`] with named actions.
//!
//! The state is composed of one part per concern, each in its own module:
//!
//! - [`draft`]: the scenario being edited, field by field, checked by `smd_core`'s
//!   `validate` after every edit; import/export and the saved draft;
//! - [`apps`]: real applications in the draft (`smd-apps`): a job from an application,
//!   the cluster as catalog machines, a trace; undoing the last replacement;
//! - [`solving`]: the worker and what it solves — runs, progress, cancel, results, the
//!   landscape, the ε-floor hint, the slow-solve call-out;
//! - [`reproduction`]: the paper's experiments;
//! - [`over_time`]: planning over time (`smd-sim`): its form, the run in progress, the
//!   last runs;
//! - [`sweep`]: the capacity sweep of the draft (`smd-sweep`): its form, the sizes out at
//!   the page's pool of workers, the last report;
//! - [`teach`]: the "Step through" view — the selected job's teaching trace (a task of
//!   the worker) and the step on screen, Play;
//! - [`view`]: what is on screen — the view (tab), the selected job and policy, the
//!   message at the top.
//!
//! [`Action`] names every change; [`State::reduce`] hands each to the part it concerns
//! (and tells the other parts what they must know). Only a valid draft is solved, and the
//! last plans stay on screen while the draft is invalid. Side effects (talking to the
//! solver, saving, timers, the address) live in the components' hooks, which watch the
//! counters and task ids kept here.

pub mod apps;
pub mod background;
pub mod compare;
pub mod draft;
pub mod over_time;
pub mod reproduction;
pub mod solving;
pub mod sweep;
pub mod teach;
pub mod view;

pub use apps::{machines_in_force, MachineForm, PresetForm, TraceForm, Undo, TRACE_SOURCE};
pub use background::{Background, News, Pending, Running, Work, WorkerTask};
pub use compare::{CompareState, Compared, Saved};
pub use draft::{DraftState, GenerateForm, ShownError, MAX_GENERATED_JOBS};
pub use over_time::{OverTimeState, SimForm, SimProgress, SimSource, Simulated, Simulation};
pub use reproduction::{Reproduced, Reproduction, ReproductionState};
pub use solving::{
    page_policies, LandscapeView, Results, Run, Solving, WorkerStatus, LANDSCAPE_RESOLUTION,
    SLOW_SOLVE_S,
};
pub use sweep::{SweepForm, SweepState, Sweeping, Swept};
pub use teach::{TeachMove, TeachState, TraceView, PLAY_MS};
pub use view::{LandscapeValue, Notice, View, ViewState};

use crate::codec::Draft;
use crate::defaults;
use crate::fields::FieldKey;
use crate::solver::Request;
use smd_core::{Policy, Scenario};
use std::rc::Rc;
use yew::prelude::*;

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The scenario being edited.
    pub draft: DraftState,
    /// The worker and what it solves.
    pub solving: Solving,
    /// The paper's experiments.
    pub reproduction: ReproductionState,
    /// Planning over time.
    pub over_time: OverTimeState,
    /// The capacity sweep.
    pub sweep: SweepState,
    /// Scenarios saved and compared side by side.
    pub compare: CompareState,
    /// The "Step through" view.
    pub teach: TeachState,
    /// What is on screen.
    pub view: ViewState,
}

/// Every change the page can make.
#[derive(Clone, Debug)]
pub enum Action {
    // The draft.
    /// An input changed: its key and raw text.
    Edit(FieldKey, String),
    /// Append a generated job (and select it).
    AddJob,
    /// Copy a job (inserted after it, and selected).
    DuplicateJob(u64),
    /// Remove a job.
    DeleteJob(u64),
    /// A field of the generate form: `jobs`, `seed` or `mode`.
    GenerateField(&'static str, String),
    /// Replace the jobs with generated ones.
    Generate,
    /// Replace the whole draft (import, share link, reset), with a note for the user.
    Load(Box<Scenario>, String),
    /// Replace the jobs only (CSV import), with a note.
    LoadJobs(Vec<smd_core::scenario::Job>, String),
    /// Back to the default scenario.
    Reset,
    /// The import/export text changed.
    IoText(String),
    /// Import the text area as JSON.
    ImportJson,
    /// Import the text area as CSV.
    ImportCsv,
    /// Put the draft's JSON into the text area.
    ExportJson,
    /// Put the draft's CSV into the text area.
    ExportCsv,
    /// A share link was made.
    ShareLink(String),
    /// A field of the "from an application" form: `app`, `batch` or `minibatch`.
    PresetField(&'static str, String),
    /// Append a job made from the application form (and select it).
    AddFromApp,
    /// Fill every field of this job from the application form.
    FillFromApp(u64),
    /// A field of the machines form: `type` or `count`.
    MachinesField(&'static str, String),
    /// The cluster becomes N machines of the form's type (a pool, or one machine group).
    SetMachines,
    /// The cluster is a pool of units (`false`) or version-2 machines (`true`); what was
    /// typed into the other kind is kept.
    UseMachines(bool),
    /// Append a group of N machines of the machines form's type.
    AddMachineGroup,
    /// Remove machine group `i`.
    RemoveMachineGroup(usize),
    /// A field of the trace form: `workload`, `type` or `count`.
    TraceField(&'static str, String),
    /// Replace the jobs and the cluster with the trace form's bundled workload.
    LoadWorkload,
    /// Replace the jobs and the cluster with a trace the user opened: its name and text.
    LoadTraceFile(String, String),
    /// Back to the draft before the last replacement (generate, import, reset, a preset,
    /// machines, a trace).
    Undo,

    // Solving.
    /// The debounce timer fired for this revision: solve it.
    StartSolve(u64),
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

    // The reproduction.
    /// Run the paper's experiments: quick (else full) scale.
    StartReproduce(bool),
    /// Stop the running reproduction.
    CancelReproduce,

    // Over time.
    /// A field of the over-time form: `source`, `workload`, `type`, `count` or `arrivals`.
    OverTimeField(&'static str, String),
    /// Check (`true`) or uncheck a policy to simulate.
    ToggleSimPolicy(smd_sim::SimPolicy, bool),
    /// Simulate the form's source with its policies.
    StartSimulation,
    /// Stop the running simulation.
    CancelSimulation,
    /// Show this job's history (its id).
    SelectSimJob(String),
    /// Show this policy's timeline and job histories.
    ShowTimeline(smd_sim::SimPolicy),

    // The capacity sweep.
    /// A field of the sweep form: `axis`, `type`, `group`, `resource`, `range`,
    /// `over_time` or `workers`; or the resource charted, `chart_resource`.
    SweepField(&'static str, String),
    /// Check (`true`) or uncheck a static policy of the sweep.
    ToggleSweepPolicy(Policy, bool),
    /// Check (`true`) or uncheck a policy over time of the sweep.
    ToggleSweepSimPolicy(smd_sim::SimPolicy, bool),
    /// Sweep the draft as the form says on this many workers, starting at this time (the
    /// page's clock, ms).
    StartSweep(usize, f64),
    /// Stop the running sweep.
    CancelSweep,
    /// A reply from a worker of the sweep's pool, and when it came (the page's clock, ms).
    SweepReply(crate::solver::Reply, f64),
    /// A worker of the sweep's pool died: the task it had, and why.
    SweepWorkerDied(Option<u64>, String),
    // Side by side.
    /// A field of the compare view: `name`, `a`, `b` or `text`.
    CompareField(&'static str, String),
    /// Save the draft under the typed name.
    SaveScenario,
    /// Delete a saved scenario.
    DeleteSaved(String),
    /// Put every saved scenario's JSON into the compare view's text.
    ExportSaved,
    /// Read saved scenarios from the compare view's text.
    ImportSaved,
    /// Plan the two chosen scenarios.
    StartCompare,
    /// Stop the running comparison.
    CancelCompare,
    /// A scenario of a share link to compare with the draft: saved under this name and
    /// chosen as the second.
    CompareWith(String, Box<Scenario>),
    // Step through.
    /// The teaching trace of `(results revision, uid)` is wanted.
    RequestTrace((u64, u64)),
    /// Move the stepper (stops Play).
    TeachGo(TeachMove),
    /// Play (`true`) or stop.
    TeachPlay(bool),
    /// Play's timer ticked.
    TeachTick,

    // The view.
    /// Show this view (tab).
    ShowView(View),
    /// Select a job (editor, landscape, schedule).
    SelectJob(u64),
    /// Show this policy's plan.
    SelectPolicy(Policy),
    /// Heatmap quantity.
    SetValue(LandscapeValue),
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
}

impl State {
    /// The state for a scenario (valid or not) with the raw texts of a saved draft.
    pub fn new(saved: Draft) -> State {
        let draft = DraftState::new(saved);
        let mut solving = Solving::default();
        solving.follow_draft(&draft);
        let view = ViewState {
            selected: draft.uids.first().copied(),
            ..ViewState::default()
        };
        State {
            draft,
            solving,
            reproduction: ReproductionState::default(),
            over_time: OverTimeState::default(),
            sweep: SweepState::default(),
            compare: CompareState::default(),
            teach: TeachState::default(),
            view,
        }
    }

    /// Whether the current input's solve was cancelled (and nothing runs now).
    pub fn solve_cancelled(&self) -> bool {
        self.solving.run.is_none() && self.solving.cancelled == Some(self.draft.revision)
    }

    /// Whether the shown results answer an older draft than the current one.
    pub fn results_stale(&self) -> bool {
        self.solving
            .shown()
            .is_some_and(|r| r.revision != self.draft.revision || !self.draft.valid)
    }

    /// The `(results revision, uid, index)` whose landscape should be on screen.
    pub fn wanted_landscape(&self) -> Option<(u64, u64, usize)> {
        let r = self.solving.results.as_ref()?;
        let uid = self.view.selected?;
        let index = r.uids.iter().position(|&u| u == uid)?;
        Some((r.revision, uid, index))
    }

    /// Whether the page shows this error next to its input right now: cluster, params and
    /// settings inputs are always on screen, a job's only while the job is in the editor.
    pub fn shown_inline(&self, e: &ShownError) -> bool {
        match &e.key {
            Some(FieldKey { job: None, field }) => {
                field.starts_with("cluster.")
                    || field.starts_with("params.")
                    || crate::fields::is_setting(field)
            }
            Some(FieldKey { job: Some(u), .. }) => self.view.selected == Some(*u),
            None => false,
        }
    }

    /// The worker's background parts, in the order their tasks are sent. A new view whose
    /// work runs in the worker adds its part here and in [`State::background_mut`].
    pub fn background(&self) -> [&dyn Pending; 3] {
        [&self.reproduction, &self.over_time, &self.compare.run]
    }

    /// The worker's background parts, to route replies to and lose with the worker.
    pub fn background_mut(&mut self) -> [&mut dyn Pending; 3] {
        [
            &mut self.reproduction,
            &mut self.over_time,
            &mut self.compare.run,
        ]
    }

    /// Ids of the tasks the worker should be doing now, in the order to send them.
    pub fn tasks(&self) -> Vec<u64> {
        let background = self.background().map(|b| b.pending().map(|(id, _)| id));
        self.solving
            .tasks()
            .chain(background.into_iter().flatten())
            .chain(self.teach.pending())
            .collect()
    }

    /// The request of task `id`, if the worker should be doing it.
    pub fn request(&self, id: u64) -> Option<Request> {
        let task = self.solving.task(id).or_else(|| {
            self.background()
                .into_iter()
                .filter_map(|b| b.pending())
                .find(|(i, _)| *i == id)
                .map(|t| t.1)
                .or_else(|| self.teach_task(id))
        })?;
        Some(Request { id, task })
    }
}

impl Reducible for State {
    type Action = Action;

    /// Hands each action to the part it concerns. One arm per action: the whole table
    /// reads better in one place than split by part.
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        let (edits, tab) = (s.draft.edits, s.view.tab);
        let changed = match action {
            Action::Edit(key, text) => {
                s.draft.edit(key, text);
                true
            }
            Action::AddJob => {
                s.view.selected = Some(s.draft.add_job());
                true
            }
            Action::DuplicateJob(uid) => {
                let copy = s.draft.duplicate_job(uid);
                if copy.is_some() {
                    s.view.selected = copy;
                }
                copy.is_some()
            }
            Action::DeleteJob(uid) => match s.draft.delete_job(uid) {
                Some(next) => {
                    if s.view.selected == Some(uid) {
                        s.view.selected = next;
                    }
                    true
                }
                None => false,
            },
            Action::GenerateField(field, text) => {
                s.draft.generate_field(field, text);
                true
            }
            Action::Generate => {
                if let Some(note) = s.draft.generate() {
                    s.draft_replaced(note, false);
                }
                true
            }
            Action::Load(scenario, note) => {
                s.draft.load(*scenario);
                s.draft_replaced(note, true);
                true
            }
            Action::LoadJobs(jobs, note) => {
                s.draft.load_jobs(jobs);
                s.draft_replaced(note, true);
                true
            }
            Action::Reset => {
                s.draft.load(defaults::default_scenario());
                s.draft_replaced("Back to the default scenario.".into(), false);
                true
            }
            Action::IoText(text) => {
                s.draft.set_io_text(text);
                true
            }
            Action::ImportJson => {
                s.import_json();
                true
            }
            Action::ImportCsv => {
                s.import_csv();
                true
            }
            Action::ExportJson => {
                s.draft.export_json();
                true
            }
            Action::ExportCsv => {
                if let Some(n) = s.draft.export_csv() {
                    s.view.notice = Some(n);
                }
                true
            }
            Action::ShareLink(link) => {
                s.draft.share_link = Some(link);
                true
            }
            Action::PresetField(field, text) => {
                s.draft.preset_field(field, text);
                true
            }
            Action::AddFromApp => {
                s.add_from_app();
                true
            }
            Action::FillFromApp(uid) => {
                s.draft.fill_from_app(uid);
                true
            }
            Action::MachinesField(field, text) => {
                s.draft.machines_field(field, text);
                true
            }
            Action::SetMachines => {
                if let Some(note) = s.draft.set_machines() {
                    s.view.notice = Some(Notice::info(note));
                }
                true
            }
            Action::UseMachines(on) => {
                s.draft.use_machines(on);
                true
            }
            Action::AddMachineGroup => {
                s.draft.add_machine_group();
                true
            }
            Action::RemoveMachineGroup(i) => {
                s.draft.remove_machine_group(i);
                true
            }
            Action::TraceField(field, text) => {
                s.draft.trace_field(field, text);
                true
            }
            Action::LoadWorkload => {
                s.load_workload();
                true
            }
            Action::LoadTraceFile(name, text) => {
                s.load_trace_file(&name, &text);
                true
            }
            Action::Undo => {
                s.undo();
                true
            }
            Action::StartSolve(revision) => s.start_solve(revision),
            Action::Cancel => {
                s.cancel_solve();
                true
            }
            Action::Elapsed(run, seconds) => s.solving.elapsed(run, seconds),
            Action::Reply(reply) => s.on_reply(reply),
            Action::WorkerDied(message) => {
                s.worker_died(message);
                true
            }
            Action::RequestLandscape(key) => s.solving.request_landscape(key),
            Action::StartReproduce(quick) => s.start_reproduction(quick),
            Action::CancelReproduce => s.cancel_reproduction(),
            Action::OverTimeField(field, text) => {
                s.over_time.field(field, text);
                true
            }
            Action::ToggleSimPolicy(p, on) => {
                s.over_time.toggle(p, on);
                true
            }
            Action::StartSimulation => s.start_simulation(),
            Action::CancelSimulation => s.cancel_simulation(),
            Action::SelectSimJob(id) => {
                s.over_time.job = Some(id);
                true
            }
            Action::ShowTimeline(p) => {
                s.over_time.timeline = Some(p);
                true
            }
            Action::SweepField(field, text) => {
                s.sweep.field(field, text);
                true
            }
            Action::ToggleSweepPolicy(p, on) => {
                s.sweep.toggle(p, on);
                true
            }
            Action::ToggleSweepSimPolicy(p, on) => {
                s.sweep.toggle_sim(p, on);
                true
            }
            Action::StartSweep(workers, now) => s.sweep.start(&s.draft, workers, now),
            Action::CancelSweep => {
                let cancelled = s.sweep.cancel();
                if cancelled {
                    s.view.notice = Some(Notice::info("Sweep cancelled."));
                }
                cancelled
            }
            Action::SweepReply(reply, now) => s.sweep.on_reply(reply, now),
            Action::SweepWorkerDied(task, message) => s.sweep.died(task, &message),
            Action::CompareField(field, text) => {
                let c = &mut s.compare;
                match field {
                    "name" => c.name = text,
                    "a" => c.a = text,
                    "b" => c.b = text,
                    "text" => c.text = text,
                    _ => return self,
                }
                c.error = None;
                true
            }
            Action::SaveScenario => s.save_scenario(),
            Action::DeleteSaved(name) => {
                s.compare.delete(&name);
                true
            }
            Action::ExportSaved => {
                s.compare.text = s.compare.export();
                s.compare.error = None;
                true
            }
            Action::ImportSaved => {
                let text = s.compare.text.clone();
                match s.compare.import(&text) {
                    Ok(n) => {
                        s.compare.error = None;
                        s.view.notice = Some(Notice::info(format!(
                            "Read {n} saved scenario{}.",
                            if n == 1 { "" } else { "s" }
                        )));
                    }
                    Err(m) => s.compare.error = Some(("text", m)),
                }
                true
            }
            Action::StartCompare => s.start_compare(),
            Action::CancelCompare => s.cancel_compare(),
            Action::CompareWith(name, scenario) => {
                match s.compare.put(name.clone(), *scenario) {
                    Ok(()) => {
                        s.compare.a = compare::DRAFT.into();
                        s.compare.b = name;
                    }
                    Err(e) => s.compare.error = Some(e),
                }
                true
            }
            Action::RequestTrace(key) => s.request_trace(key),
            Action::TeachGo(m) => s.teach.go(m),
            Action::TeachPlay(on) => s.teach.play(on),
            Action::TeachTick => s.teach.tick(),
            Action::ShowView(view) => {
                let new = s.view.tab != view;
                s.view.tab = view;
                if view != View::Teach {
                    s.teach.playing = false;
                }
                new
            }
            Action::SelectJob(uid) => {
                s.view.selected = Some(uid);
                true
            }
            Action::SelectPolicy(p) => {
                s.view.policy = p;
                true
            }
            Action::SetValue(v) => {
                s.view.value = v;
                true
            }
            Action::Notify(n) => {
                s.view.notice = Some(n);
                true
            }
            Action::DismissNotice => {
                s.view.notice = None;
                true
            }
        };
        if !changed {
            return self;
        }
        if s.draft.edits != edits {
            s.solving.follow_draft(&s.draft);
        }
        if s.draft.edits != edits || s.view.tab != tab {
            s.follow_draft_over_time();
        }
        Rc::new(s)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use smd_core::{generate, GenerateOptions};

    /// A state of `n` generated jobs at ε = 0.2.
    pub(crate) fn state(n: usize) -> Rc<State> {
        let mut sc = generate(&GenerateOptions {
            jobs: n,
            ..Default::default()
        });
        sc.params.epsilon = 0.2;
        Rc::new(State::new(Draft::of(sc)))
    }

    /// A new state selects the first job and knows its ε floor.
    #[test]
    fn a_new_state_selects_the_first_job() {
        let s = state(3);
        assert_eq!(s.view.selected, Some(s.draft.uids[0]));
        assert_eq!(s.view.tab, View::Plan);
        assert_eq!(
            s.solving.epsilon_floor,
            smd_core::budget::smallest_epsilon(&s.draft.scenario)
        );
        assert!(s.tasks().is_empty());
    }

    /// A solve superseded while a reproduction runs: the worker restarts, the reproduction
    /// is lost (and says why), the new solve is the one task left.
    #[test]
    fn a_superseding_solve_restarts_the_worker_and_loses_the_reproduction() {
        let s = state(2);
        let r = s.draft.revision;
        let s = s.reduce(Action::StartSolve(r));
        let s = s.reduce(Action::StartReproduce(true));
        assert_eq!(s.tasks().len(), 2);
        let s = s.reduce(Action::Edit(FieldKey::top("params.seed"), "9".into()));
        let r = s.draft.revision;
        let restarts = s.solving.restarts;
        let s = s.reduce(Action::StartSolve(r));
        assert_eq!(s.solving.restarts, restarts + 1);
        assert!(s.reproduction.running.is_none());
        let why = s.reproduction.finished.clone().unwrap().unwrap_err();
        assert!(why.contains("restarted for an edited scenario"), "{why}");
        assert_eq!(s.tasks(), vec![s.solving.run.as_ref().unwrap().id]);
    }
}
