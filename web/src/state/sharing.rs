//! GPU sharing in a production cluster (`smd_fgd`, the "GPU sharing" view): the lists —
//! the bundled openb cluster and pod list, fetched when the view first runs, or files the
//! user chose —, the form (policies, seeds, target), the study in the solver worker and
//! its last result, and the map of one moment of one run.
//!
//! `smd-fgd` runs everything; this module only says what to run and keeps what came back.

use super::background::{Background, Pending, Work, WorkerTask};
use super::State;
use crate::solver::{Event, FgdMap, FgdOutput, FgdTask, Output, Task};
use smd_fgd::Policy;
use std::rc::Rc;

/// The bundled lists and the published tables, as fetched.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundled {
    /// The node list.
    pub nodes: String,
    /// The pod list.
    pub pods: String,
    /// The published tables: allocation, amount, ratio.
    pub published: [String; 3],
}

/// Where the bundled lists are, beside the page.
pub const BUNDLED_FILES: [&str; 5] = [
    "openb/openb_node_list_gpu_node.csv",
    "openb/openb_pod_list_default.csv",
    "openb/results/analysis_allo_discrete.csv",
    "openb/results/analysis_frag_discrete.csv",
    "openb/results/analysis_frag_ratio_discrete.csv",
];

/// A list the user chose: its file name and text.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    /// The file's name.
    pub name: String,
    /// Its text.
    pub text: Rc<String>,
}

/// The form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SharingForm {
    /// The policies, in [`Policy::ALL`]'s order.
    pub policies: Vec<Policy>,
    /// Seeds: `A–B` or a comma list.
    pub seeds: String,
    /// The target, a multiple of the cluster's GPUs.
    pub target: String,
    /// The input at fault and why.
    pub error: Option<(&'static str, String)>,
}

impl Default for SharingForm {
    fn default() -> SharingForm {
        SharingForm {
            policies: Policy::ALL.to_vec(),
            seeds: "42–51".into(),
            target: "1.3".into(),
            error: None,
        }
    }
}

/// The study asked of the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct Study {
    /// The task.
    pub task: Rc<FgdTask>,
    /// The lists' names, in words.
    pub label: String,
}

impl Work for Study {
    /// `(run, pods placed, pods)`.
    type Progress = Option<(usize, usize, usize)>;
    type Done = Studied;
    const NAME: &'static str = "study";
}

impl WorkerTask for Study {
    fn task(&self) -> Task {
        Task::Fgd(Box::new((*self.task).clone()))
    }

    fn read_progress(&self, event: &Event) -> Option<Self::Progress> {
        match *event {
            Event::Progress { step, done, total } => Some(Some((step, done, total))),
            _ => None,
        }
    }

    fn done(&self, output: Output, ms: f64) -> Option<Studied> {
        let Output::Fgd(out) = output else {
            return None;
        };
        Some(Studied {
            task: self.task.clone(),
            out: *out,
            label: self.label.clone(),
            ms,
        })
    }
}

/// A finished study.
#[derive(Clone, Debug, PartialEq)]
pub struct Studied {
    /// What was run.
    pub task: Rc<FgdTask>,
    /// What came back.
    pub out: FgdOutput,
    /// The lists, in words.
    pub label: String,
    /// Wall time, ms.
    pub ms: f64,
}

/// A map asked of the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct Mapping {
    /// The study's inputs.
    pub task: Rc<FgdTask>,
    /// The policy.
    pub policy: Policy,
    /// The seed.
    pub seed: i64,
    /// Arrived workload, %.
    pub x: u32,
}

impl Work for Mapping {
    type Progress = ();
    type Done = FgdMap;
    const NAME: &'static str = "map";
}

impl WorkerTask for Mapping {
    fn task(&self) -> Task {
        Task::FgdMap {
            study: Box::new((*self.task).clone()),
            policy: self.policy.name().into(),
            seed: self.seed,
            x: self.x,
        }
    }

    fn read_progress(&self, _: &Event) -> Option<()> {
        None
    }

    fn done(&self, output: Output, _: f64) -> Option<FgdMap> {
        match output {
            Output::FgdMap(m) => Some(*m),
            _ => None,
        }
    }
}

/// The "GPU sharing" part of the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SharingState {
    /// The form.
    pub form: SharingForm,
    /// The bundled lists, once fetched.
    pub bundled: Option<Rc<Bundled>>,
    /// Why fetching them failed.
    pub fetch_error: Option<String>,
    /// A node list the user chose (else the bundled one).
    pub nodes: Option<Chosen>,
    /// A pod list the user chose (else the bundled one).
    pub pods: Option<Chosen>,
    /// Why the last file chosen was not taken: its name, row and column.
    pub file_error: Option<String>,
    /// Start once the bundled lists have come (the run was asked before).
    pub start_when_fetched: bool,
    /// The study in progress and the last one.
    pub run: Background<Study>,
    /// The map in progress and the last one.
    pub map: Background<Mapping>,
}

pub use smd_fgd::study::parse_seeds;

impl SharingState {
    /// Whether the lists run are the bundled ones.
    pub fn uses_bundled(&self) -> bool {
        self.nodes.is_none() && self.pods.is_none()
    }

    /// A file was chosen for the node list (`nodes`) or the pod list (`pods`): taken if it
    /// reads, else the previous list stays and the error names the file, row and column.
    pub fn choose(&mut self, which: &str, name: String, text: String) {
        let checked = match which {
            "nodes" => smd_fgd::parse_nodes(&text).map(|_| ()),
            _ => smd_fgd::parse_pods(&text).map(|_| ()),
        };
        match checked {
            Ok(()) => {
                let c = Some(Chosen {
                    name,
                    text: Rc::new(text),
                });
                if which == "nodes" {
                    self.nodes = c;
                } else {
                    self.pods = c;
                }
                self.file_error = None;
            }
            Err(e) => self.file_error = Some(format!("{name}: {e}")),
        }
    }

    /// The study the form asks for, or the input at fault and why; `None` while the
    /// bundled lists it needs have not come.
    pub fn study(&self) -> Result<Option<Study>, (&'static str, String)> {
        let f = &self.form;
        if f.policies.is_empty() {
            return Err(("policies", "choose at least one policy".into()));
        }
        let seeds = parse_seeds(&f.seeds).map_err(|m| ("seeds", m))?;
        let target = crate::fields::parse_number(&f.target)
            .and_then(smd_fgd::study::check_target)
            .map_err(|m| ("target", m))?;
        let bundled = self.bundled.as_deref();
        let (nodes, nodes_name) = match (&self.nodes, bundled) {
            (Some(c), _) => ((*c.text).clone(), c.name.clone()),
            (None, Some(b)) => (b.nodes.clone(), "the openb cluster".to_string()),
            (None, None) => return Ok(None),
        };
        let (pods, pods_name) = match (&self.pods, bundled) {
            (Some(c), _) => ((*c.text).clone(), c.name.clone()),
            (None, Some(b)) => (b.pods.clone(), "the default pod list".to_string()),
            (None, None) => return Ok(None),
        };
        let comparable =
            self.uses_bundled() && smd_fgd::study::bundled::published_run(target, &seeds);
        Ok(Some(Study {
            task: Rc::new(FgdTask {
                nodes,
                pods,
                policies: f.policies.iter().map(|p| p.name().to_string()).collect(),
                seeds,
                target,
                published: comparable
                    .then(|| bundled.map(|b| b.published.clone()))
                    .flatten(),
            }),
            label: format!("{nodes_name} and {pods_name}"),
        }))
    }
}

impl State {
    /// Runs the form's study; returns whether anything changed. Without the lists it needs
    /// yet, it waits for them ([`SharingAction::Fetched`]).
    fn start_sharing(&mut self) -> bool {
        if self.sharing.run.is_running() || self.sharing.map.is_running() {
            return false;
        }
        match self.sharing.study() {
            Err(e) => self.sharing.form.error = Some(e),
            Ok(None) => self.sharing.start_when_fetched = true,
            Ok(Some(study)) => {
                self.sharing.form.error = None;
                self.sharing.start_when_fetched = false;
                let id = self.solving.background_id();
                self.sharing.run.start(id, study);
            }
        }
        true
    }

    /// Draws the map of `policy`, `seed` at `x` % of the last study's inputs.
    fn start_map(&mut self, policy: Policy, seed: i64, x: u32) -> bool {
        let Some(Ok(done)) = &self.sharing.run.finished else {
            return false;
        };
        if self.sharing.map.is_running() || self.sharing.run.is_running() {
            return false;
        }
        let id = self.solving.background_id();
        let task = done.task.clone();
        self.sharing.map.start(
            id,
            Mapping {
                task,
                policy,
                seed,
                x,
            },
        );
        true
    }
}

/// The "GPU sharing" view's changes.
#[derive(Clone, Debug)]
pub enum SharingAction {
    /// A field: `seeds` or `target`.
    Field(&'static str, String),
    /// Check or uncheck a policy.
    TogglePolicy(Policy, bool),
    /// The bundled lists came (or why not).
    Fetched(Result<Rc<Bundled>, String>),
    /// A file was chosen: `nodes` or `pods`, its name, its text.
    Choose(&'static str, String, String),
    /// Go back to the bundled lists.
    UseBundled,
    /// Run the study.
    Start,
    /// Stop it.
    Cancel,
    /// Draw the map of a policy and seed at an arrived %.
    Map(Policy, i64, u32),
}

impl SharingAction {
    /// Applies the change; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        let sh = &mut s.sharing;
        match self {
            SharingAction::Field(field, text) => {
                match field {
                    "seeds" => sh.form.seeds = text,
                    "target" => sh.form.target = text,
                    _ => return false,
                }
                sh.form.error = None;
                true
            }
            SharingAction::TogglePolicy(p, on) => {
                let mut set = sh.form.policies.clone();
                set.retain(|&q| q != p);
                if on {
                    set.push(p);
                }
                sh.form.policies = Policy::ALL
                    .iter()
                    .copied()
                    .filter(|q| set.contains(q))
                    .collect();
                sh.form.error = None;
                true
            }
            SharingAction::Fetched(r) => {
                match r {
                    Ok(b) => {
                        sh.bundled = Some(b);
                        sh.fetch_error = None;
                    }
                    Err(m) => {
                        sh.fetch_error = Some(m);
                        sh.start_when_fetched = false;
                    }
                }
                if s.sharing.start_when_fetched {
                    s.start_sharing();
                }
                true
            }
            SharingAction::Choose(which, name, text) => {
                sh.choose(which, name, text);
                true
            }
            SharingAction::UseBundled => {
                sh.nodes = None;
                sh.pods = None;
                sh.file_error = None;
                true
            }
            SharingAction::Start => s.start_sharing(),
            SharingAction::Cancel => {
                if s.sharing.run.cancel().is_none() && s.sharing.map.cancel().is_none() {
                    return false;
                }
                s.sharing.start_when_fetched = false;
                s.background_cancelled("the study was cancelled", "Study cancelled.");
                true
            }
            SharingAction::Map(p, seed, x) => s.start_map(p, seed, x),
        }
    }
}

/// The study and the map are background parts of the worker (one at a time).
impl Pending for SharingState {
    fn task_ids(&self) -> Vec<u64> {
        match self.run.task_ids() {
            ids if ids.is_empty() => self.map.task_ids(),
            ids => ids,
        }
    }

    fn task_for(&self, id: u64) -> Option<Task> {
        self.run.task_for(id).or_else(|| self.map.task_for(id))
    }

    fn owns_task(&self, task: u64) -> bool {
        self.run.owns(task) || self.map.owns(task)
    }

    fn on_worker_event(&mut self, task: u64, event: Event) -> bool {
        if self.run.owns(task) {
            self.run.on_worker_event(task, event)
        } else {
            self.map.on_worker_event(task, event)
        }
    }

    fn lose(&mut self, why: &str) {
        self.run.lost(why);
        self.map.lost(why);
    }

    fn restarted(&mut self, why: &str, new_id: &mut dyn FnMut() -> u64) {
        self.run.restarted(why, new_id);
        self.map.restarted(why, new_id);
    }
}

#[cfg(test)]
mod tests;
