//! Scenarios side by side: scenarios saved under a name (kept in localStorage, exported and
//! imported together), two of them — or one and the draft — planned in the worker with
//! every policy, and what differs between their inputs (`smd_core::diff`); and both
//! simulated over time with one policy, each as the Over time view simulates it (the
//! same worker task, [`Simulation`]), for their JCTs side by side.

use super::background::{Background, Work, WorkerTask};
use super::over_time::Simulation;
use super::{Notice, State};
use crate::solver::{Event, Output, Task};
use serde::{Deserialize, Serialize};
use smd_core::diff::{diff, Difference};
use smd_core::{Plan, Scenario};
use smd_sim::SimPolicy;
use std::rc::Rc;

/// The name that stands for the draft in the two choices.
pub const DRAFT: &str = "";

/// Most scenarios kept (localStorage holds a few MB; a scenario is a few KB to a few
/// hundred).
pub const MAX_SAVED: usize = 50;

/// A scenario saved under a name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// Its name (unique among the saved).
    pub name: String,
    /// The scenario.
    pub scenario: Scenario,
}

/// The saved scenarios as a file: what "Export all" writes and "Import" reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedFile {
    /// Every saved scenario, in the order saved.
    pub scenarios: Vec<Saved>,
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// Its name (`the draft` for the draft).
    pub label: String,
    /// The scenario.
    pub scenario: Rc<Scenario>,
    /// One entry per policy of its cluster: the plan or why it failed.
    pub plans: Vec<Result<Plan, String>>,
}

/// A finished comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// The first scenario.
    pub a: Side,
    /// The second.
    pub b: Side,
    /// What differs between their inputs.
    pub diff: Vec<Difference>,
    /// Wall time, ms.
    pub ms: f64,
}

/// A comparison in the worker: the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparing {
    /// The two sides, without plans yet.
    pub a: Side,
    /// The second side.
    pub b: Side,
    /// `global`'s budget per scenario, ms (the draft's setting when it started).
    pub global_budget_ms: f64,
}

impl Work for Comparing {
    /// `(side, policies done, policies)` of the latest report.
    type Progress = Option<(usize, usize, usize)>;
    type Done = Compared;
    const NAME: &'static str = "comparison";
}

impl WorkerTask for Comparing {
    fn task(&self) -> Task {
        Task::Compare {
            a: Box::new((*self.a.scenario).clone()),
            b: Box::new((*self.b.scenario).clone()),
            global_budget_ms: self.global_budget_ms,
        }
    }

    fn read_progress(&self, event: &Event) -> Option<Self::Progress> {
        match *event {
            Event::Progress { step, done, total } => Some(Some((step, done, total))),
            _ => None,
        }
    }

    fn done(&self, output: Output, ms: f64) -> Option<Compared> {
        let Output::Compared { a, b } = output else {
            return None;
        };
        Some(Compared {
            a: Side {
                plans: a,
                ..self.a.clone()
            },
            b: Side {
                plans: b,
                ..self.b.clone()
            },
            diff: diff(&self.a.scenario, &self.b.scenario),
            ms,
        })
    }
}

/// The side-by-side part of the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompareState {
    /// The saved scenarios.
    pub saved: Vec<Saved>,
    /// Bumped on every change of `saved` (the hook that keeps localStorage watches it).
    pub saves: u64,
    /// The name typed for saving the draft.
    pub name: String,
    /// The first choice: a saved name, or [`DRAFT`].
    pub a: String,
    /// The second choice.
    pub b: String,
    /// The import/export text.
    pub text: String,
    /// The input at fault (`name`, `a`, `b`, `text`) and the message.
    pub error: Option<(&'static str, String)>,
    /// The comparison in progress and the last one, or why it stopped.
    pub run: Background<Comparing>,
    /// The policy both sides are simulated over time with; `None`: the one the Over time
    /// view shows ([`State::compare_sim_policy`]).
    pub sim_policy: Option<SimPolicy>,
    /// Each side simulated over time (A, then B): in progress, the last run, or why it
    /// stopped.
    pub over_time: [Background<Simulation>; 2],
}

impl CompareState {
    /// The saved scenario called `name`.
    pub fn get(&self, name: &str) -> Option<&Saved> {
        self.saved.iter().find(|s| s.name == name)
    }

    /// Saves `scenario` under the typed name (replacing one of that name). A name is needed.
    pub fn save(&mut self, scenario: &Scenario) -> Result<String, (&'static str, String)> {
        let name = self.name.trim().to_owned();
        if name.is_empty() {
            return Err(("name", "give the scenario a name".into()));
        }
        self.put(name.clone(), scenario.clone())?;
        self.name.clear();
        Ok(name)
    }

    /// Adds or replaces a saved scenario.
    pub fn put(&mut self, name: String, scenario: Scenario) -> Result<(), (&'static str, String)> {
        let full = self.saved.len() >= MAX_SAVED;
        match self.saved.iter_mut().find(|s| s.name == name) {
            Some(s) => s.scenario = scenario,
            None if full => {
                return Err((
                    "name",
                    format!("at most {MAX_SAVED} scenarios are kept: delete one first"),
                ))
            }
            None => self.saved.push(Saved { name, scenario }),
        }
        self.saves += 1;
        Ok(())
    }

    /// Deletes the saved scenario `name` (a choice of it falls back to the draft).
    pub fn delete(&mut self, name: &str) {
        let before = self.saved.len();
        self.saved.retain(|s| s.name != name);
        if self.saved.len() != before {
            self.saves += 1;
            for c in [&mut self.a, &mut self.b] {
                if c == name {
                    *c = DRAFT.into();
                }
            }
        }
    }

    /// The saved scenarios as JSON ([`SavedFile`]).
    pub fn export(&self) -> String {
        serde_json::to_string_pretty(&SavedFile {
            scenarios: self.saved.clone(),
        })
        .unwrap_or_default()
    }

    /// Reads a [`SavedFile`] (each scenario validated); adds or replaces by name. Returns
    /// how many were read.
    pub fn import(&mut self, text: &str) -> Result<usize, String> {
        let file: SavedFile = serde_json::from_str(text)
            .map_err(|e| format!("not a file of saved scenarios: {e}"))?;
        for s in &file.scenarios {
            s.scenario
                .validate()
                .map_err(|e| format!("scenario {:?}: {e}", s.name))?;
            if s.name.trim().is_empty() {
                return Err("a scenario without a name".into());
            }
        }
        let n = file.scenarios.len();
        for s in file.scenarios {
            self.put(s.name, s.scenario).map_err(|e| e.1)?;
        }
        Ok(n)
    }
}

impl State {
    /// The policy Side by side simulates over time: its own choice, else the one whose
    /// timeline the Over time view shows, else `smd` if Over time runs it, else its first
    /// (never `bound`).
    pub fn compare_sim_policy(&self) -> SimPolicy {
        let form = &self.over_time.form.policies;
        // `bound` is no schedule: no JCTs to compare.
        let schedule = |p: &SimPolicy| *p != SimPolicy::Bound;
        self.compare
            .sim_policy
            .filter(schedule)
            .or(self.over_time.timeline.filter(schedule))
            .or_else(|| form.iter().copied().find(|&p| p == SimPolicy::Smd))
            .or_else(|| form.iter().copied().find(schedule))
            .unwrap_or(SimPolicy::Smd)
    }

    /// Simulates the two chosen scenarios over time with [`State::compare_sim_policy`], each
    /// as its own worker task (the Over time view's).
    pub(super) fn start_compare_over_time(&mut self) -> bool {
        if self.compare.over_time.iter().any(|b| b.is_running()) {
            return false;
        }
        let policy = self.compare_sim_policy();
        let Some(sides) = self.chosen_sides(|scenario, label| {
            (!policy.applies_to(scenario)).then(|| {
                format!(
                    "{} schedules measured jobs only: {label} has others; choose another policy",
                    policy.name()
                )
            })
        }) else {
            return true;
        };
        // The worker respawned once (if dead), then a task per side.
        let ids = [self.solving.background_id(), self.solving.new_task_id()];
        for (k, (scenario, label)) in sides.into_iter().enumerate() {
            let id = ids[k];
            self.compare.over_time[k].start(
                id,
                Simulation {
                    scenario,
                    policies: vec![policy],
                    label,
                },
            );
        }
        true
    }

    /// Stops both sides' runs over time; returns whether one was running.
    pub(super) fn cancel_compare_over_time(&mut self) -> bool {
        let [a, b] = &mut self.compare.over_time;
        let (a, b) = (a.cancel(), b.cancel());
        if a.is_none() && b.is_none() {
            return false;
        }
        self.background_cancelled(
            "the simulation side by side was cancelled",
            "Simulation side by side cancelled.",
        );
        true
    }

    /// The two chosen scenarios with their labels, each also passed by `check` (a problem
    /// with a side, in words); else `None`, the first side's problem in the form (the
    /// form's error cleared when both are fine).
    fn chosen_sides(
        &mut self,
        check: impl Fn(&Scenario, &str) -> Option<String>,
    ) -> Option<[(Rc<Scenario>, String); 2]> {
        let mut sides = Vec::with_capacity(2);
        for (field, name) in [("a", self.compare.a.clone()), ("b", self.compare.b.clone())] {
            let problem = match self.chosen(&name) {
                Ok((scenario, label)) => match check(&scenario, &label) {
                    None => {
                        sides.push((scenario, label));
                        continue;
                    }
                    Some(m) => m,
                },
                Err(m) => m,
            };
            self.compare.error = Some((field, problem));
            return None;
        }
        self.compare.error = None;
        sides.try_into().ok()
    }

    /// The scenario of a choice: the draft (if valid) or a saved one, with its label.
    fn chosen(&self, name: &str) -> Result<(Rc<Scenario>, String), String> {
        if name == DRAFT {
            if !self.draft.valid {
                return Err("the draft has problems: fix them in the Plan view first".into());
            }
            return Ok((self.draft.scenario.clone(), "the draft".into()));
        }
        self.compare
            .get(name)
            .map(|s| (Rc::new(s.scenario.clone()), s.name.clone()))
            .ok_or_else(|| format!("no saved scenario is called {name:?}"))
    }

    /// Saves the draft under the typed name.
    pub(super) fn save_scenario(&mut self) -> bool {
        if !self.draft.valid {
            self.compare.error = Some((
                "name",
                "the draft has problems: fix them before saving it".into(),
            ));
            return true;
        }
        let scenario = (*self.draft.scenario).clone();
        match self.compare.save(&scenario) {
            Ok(name) => {
                self.compare.error = None;
                self.view.notice = Some(Notice::info(format!("Saved the draft as {name:?}.")));
            }
            Err(e) => self.compare.error = Some(e),
        }
        true
    }

    /// Plans the two chosen scenarios in the worker.
    pub(super) fn start_compare(&mut self) -> bool {
        if self.compare.run.is_running() {
            return false;
        }
        let Some([a, b]) = self.chosen_sides(|_, _| None) else {
            return true;
        };
        let id = self.solving.background_id();
        let side = |(scenario, label): (Rc<Scenario>, String)| Side {
            label,
            scenario,
            plans: Vec::new(),
        };
        self.compare.run.start(
            id,
            Comparing {
                a: side(a),
                b: side(b),
                global_budget_ms: 1000.0 * self.draft.settings.global_budget_s,
            },
        );
        true
    }

    /// Stops the running comparison (the worker restarts; what else it was doing starts
    /// again in the fresh one).
    pub(super) fn cancel_compare(&mut self) -> bool {
        if self.compare.run.cancel().is_none() {
            return false;
        }
        self.background_cancelled("the comparison was cancelled", "Comparison cancelled.");
        true
    }
}

/// Scenarios side by side: the form, saving, export and import, the comparison.
#[derive(Clone, Debug)]
pub enum CompareAction {
    /// A field of the compare view: `name`, `a`, `b`, `text` or `policy` (over time).
    Field(&'static str, String),
    /// Save the draft under the typed name.
    Save,
    /// Delete a saved scenario.
    DeleteSaved(String),
    /// Put every saved scenario's JSON into the compare view's text.
    ExportSaved,
    /// Read saved scenarios from the compare view's text.
    ImportSaved,
    /// Plan the two chosen scenarios.
    Start,
    /// Stop the running comparison.
    Cancel,
    /// Simulate the two chosen scenarios over time with the chosen policy.
    StartOverTime,
    /// Stop their simulation.
    CancelOverTime,
    /// A scenario of a share link to compare with the draft: saved under this name and
    /// chosen as the second.
    With(String, Box<Scenario>),
}

impl CompareAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            CompareAction::Field(field, text) => {
                let c = &mut s.compare;
                match field {
                    "name" => c.name = text,
                    "a" => c.a = text,
                    "b" => c.b = text,
                    "text" => c.text = text,
                    "policy" => c.sim_policy = text.parse().ok(),
                    _ => return false,
                }
                c.error = None;
                true
            }
            CompareAction::Save => s.save_scenario(),
            CompareAction::DeleteSaved(name) => {
                s.compare.delete(&name);
                true
            }
            CompareAction::ExportSaved => {
                s.compare.text = s.compare.export();
                s.compare.error = None;
                true
            }
            CompareAction::ImportSaved => {
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
            CompareAction::Start => s.start_compare(),
            CompareAction::Cancel => s.cancel_compare(),
            CompareAction::StartOverTime => s.start_compare_over_time(),
            CompareAction::CancelOverTime => s.cancel_compare_over_time(),
            CompareAction::With(name, scenario) => {
                match s.compare.put(name.clone(), *scenario) {
                    Ok(()) => {
                        s.compare.a = DRAFT.into();
                        s.compare.b = name;
                    }
                    Err(e) => s.compare.error = Some(e),
                }
                true
            }
        }
    }
}
