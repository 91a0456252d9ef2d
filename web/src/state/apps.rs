//! Real applications in the draft (`smd-apps`): a job from an application's preset, the
//! cluster as N machines of a catalog type, a bundled or opened arrival trace, and undoing
//! the last change that replaced jobs or the cluster wholesale.
//!
//! The forms keep their text as typed (like the generate form); a problem is kept at the
//! form's input it belongs to, and nothing in the draft changes until a form applies
//! cleanly. `smd-apps` makes every job, cluster and scenario; this module only moves them
//! into the draft.

use super::undo::Undo;
use super::{Notice, State};
use crate::fields::{self, FieldKey};
use smd_apps::app::App;
use smd_apps::machines::{self, MachineType, CATALOG};
use smd_apps::trace::{self, TraceError};
use smd_core::scenario::{Architecture, Cluster};

/// The architecture the page loads traces in: measured all-reduce jobs (docs/MODEL.md §21),
/// as `smd trace` does.
pub const PAGE_ARCHITECTURE: Architecture = Architecture::Allreduce;

/// The bundled workloads' source, in a sentence (shown beside the trace form).
pub const TRACE_SOURCE: &str =
    "Bundled workloads from the Pollux artifact (Qiao et al., OSDI 2021), \
     sampled from Microsoft's Philly trace (Jeon et al., ATC 2019): workload-N has 160 jobs \
     arriving over 8 h, workload-N-half 80.";

/// The cluster the artifact's workloads ran on: 16 machines of type `t4x4`.
pub const TRACE_MACHINES: (&str, u32) = ("t4x4", 16);

/// Most machines the forms accept (a scenario's numbers stay far below its limits).
pub const MAX_MACHINES: f64 = 1e6;

/// The "from an application" form: an application and the job's architecture — measured
/// all-reduce (the default: a total batch, empty for the planner's choice, and the most
/// GPUs) or the paper's parameter servers (a global batch K and, optionally, the
/// per-worker batch m).
#[derive(Clone, Debug, PartialEq)]
pub struct PresetForm {
    /// The application.
    pub app: App,
    /// Measured all-reduce or parameter servers.
    pub architecture: Architecture,
    /// The total batch K, as typed (pre-filled with the application's initial batch for a
    /// parameter-server job; empty, the planner's choice, for a measured one).
    pub batch: String,
    /// m, as typed; empty: the preset's default (parameter servers only).
    pub minibatch: String,
    /// The most GPUs, as typed; empty: the reference's cap (measured only).
    pub max_workers: String,
    /// The input at fault (`app`, `batch`, `minibatch` or `max_workers`) and the message.
    pub error: Option<(&'static str, String)>,
}

impl PresetForm {
    /// The form for `app`, a measured job with the batch the planner's choice.
    pub fn new(app: App) -> PresetForm {
        PresetForm::of(app, Architecture::Allreduce)
    }

    /// The form for `app` and `architecture`: a parameter-server job at its initial batch.
    pub fn of(app: App, architecture: Architecture) -> PresetForm {
        let batch = match architecture {
            Architecture::Ps => app.facts().initial_batch.to_string(),
            Architecture::Allreduce => String::new(),
        };
        PresetForm {
            app,
            architecture,
            batch,
            minibatch: String::new(),
            max_workers: String::new(),
            error: None,
        }
    }
}

/// The "N machines of type X" form.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineForm {
    /// The machine type.
    pub machine: &'static MachineType,
    /// N, as typed.
    pub count: String,
    /// Why the form cannot apply.
    pub error: Option<String>,
}

impl MachineForm {
    /// The form for a cluster: its machines if it is a catalog pool, else 16 × t4x4.
    pub fn of(cluster: &Cluster) -> MachineForm {
        let (machine, count) = machines_in_force(cluster).unwrap_or((&CATALOG[0], 16.0));
        MachineForm {
            machine,
            count: count.to_string(),
            error: None,
        }
    }
}

/// The cluster kind not in use, with the text typed into its fields (`cluster.*` but the
/// instance, which both kinds share) and their messages.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterStash {
    /// The cluster of that kind (its instance is not used).
    pub cluster: Cluster,
    /// Its fields' text as typed.
    pub raw: Vec<(FieldKey, String)>,
    /// Its fields' parse messages.
    pub parse_errors: Vec<(FieldKey, String)>,
}

impl ClusterStash {
    /// The saved form (a draft's `other_cluster`).
    pub fn to_saved(&self) -> crate::codec::SavedCluster {
        let message = |k: &FieldKey| {
            self.parse_errors
                .iter()
                .find(|(e, _)| e == k)
                .map(|(_, m)| m.clone())
        };
        crate::codec::SavedCluster {
            cluster: self.cluster.clone(),
            raw: self
                .raw
                .iter()
                .map(|(k, t)| (k.field.clone(), t.clone(), message(k)))
                .collect(),
        }
    }

    /// Back from the saved form.
    pub fn from_saved(saved: crate::codec::SavedCluster) -> ClusterStash {
        let mut stash = ClusterStash {
            cluster: saved.cluster,
            raw: Vec::new(),
            parse_errors: Vec::new(),
        };
        for (field, text, message) in saved.raw {
            let k = FieldKey::top(&field);
            if let Some(m) = message {
                stash.parse_errors.push((k.clone(), m));
            }
            stash.raw.push((k, text));
        }
        stash
    }
}

/// The "load a trace" form: a bundled workload and the cluster to plan it on.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceForm {
    /// The bundled workload's name.
    pub workload: &'static str,
    /// The machine type of the cluster.
    pub machine: &'static MachineType,
    /// How many machines, as typed.
    pub count: String,
    /// The input at fault (`count` or `file`) and the message.
    pub error: Option<(&'static str, String)>,
    /// What the draft's jobs were loaded from (`Loaded mine.csv: 240 jobs`), while they are
    /// a trace's: the file input forgets its file once read.
    pub loaded: Option<String>,
}

impl TraceForm {
    /// The Load button's label: what it loads (it replaces whatever was loaded).
    pub fn load_label(&self) -> String {
        format!("Load {}", self.workload)
    }
}

impl Default for TraceForm {
    fn default() -> TraceForm {
        let (name, count) = TRACE_MACHINES;
        TraceForm {
            workload: trace::WORKLOADS[0].0,
            machine: machines::machine_type(name)
                .expect("the artifact's machine is in the catalog"),
            count: count.to_string(),
            error: None,
            loaded: None,
        }
    }
}

/// The catalog's machine type and count if `cluster` is exactly `pool(type, count)`.
pub fn machines_in_force(cluster: &Cluster) -> Option<(&'static MachineType, f64)> {
    CATALOG
        .iter()
        .find(|m| *cluster == machines::pool(m, cluster.units))
        .map(|m| (m, cluster.units))
}

/// A machine count as typed: a whole number from 1 to [`MAX_MACHINES`].
pub fn parse_count(text: &str) -> Result<f64, String> {
    let v = fields::parse_number(text)?;
    if v.is_finite() && v.fract() == 0.0 && (1.0..=MAX_MACHINES).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "must be a whole number of machines from 1 to {MAX_MACHINES} (got {:?})",
            text.trim()
        ))
    }
}

/// A trace's problem as the page says it: its row, line and column, or, for a row that
/// reads but whose job cannot be made (line 0: the cluster's instance cannot hold it),
/// the row and the reason.
pub fn trace_message(e: &TraceError) -> String {
    match (e.row, e.line) {
        // The CSV itself cannot be read (its message names the line).
        (0, 0) => e.message.clone(),
        (row, 0) => format!("row {row}: {}", e.message),
        _ => e.to_string(),
    }
}

/// What the application actions mean for the rest of the page.
impl State {
    /// Appends the application form's job and selects it.
    pub(super) fn add_from_app(&mut self) {
        if let Some(uid) = self.draft.add_from_app() {
            self.view.pick(uid);
        }
    }

    /// Loads the trace form's bundled workload.
    pub(super) fn load_workload(&mut self) {
        if let Some(note) = self.draft.load_workload() {
            self.draft_replaced(note, true);
        }
    }

    /// Loads a trace the user opened.
    pub(super) fn load_trace_file(&mut self, name: &str, text: &str) {
        if let Some(note) = self.draft.load_trace(name, text) {
            self.draft_replaced(note, true);
        }
    }

    /// The Undo the message on screen offers, if any.
    pub fn notice_undo(&self) -> Option<&Undo> {
        let id = self.view.notice.as_ref()?.undo?;
        self.draft.undo.as_ref().filter(|u| u.id == id)
    }

    /// Undoes the last replacement.
    pub(super) fn undo(&mut self) {
        if let Some(what) = self.draft.undo() {
            self.draft_replaced(format!("Undone: {what}."), false);
            // Nothing to undo the undo with: the notice says what happened.
        }
    }
}

/// A change of the draft through real applications (`smd-apps`): a job from an application,
/// the cluster as catalog machines, a trace; undoing the last replacement.
#[derive(Clone, Debug)]
pub enum AppsAction {
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
}

impl AppsAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            AppsAction::PresetField(field, text) => {
                s.draft.preset_field(field, text);
                true
            }
            AppsAction::AddFromApp => {
                s.add_from_app();
                true
            }
            AppsAction::FillFromApp(uid) => {
                s.draft.fill_from_app(uid);
                true
            }
            AppsAction::MachinesField(field, text) => {
                s.draft.machines_field(field, text);
                true
            }
            AppsAction::SetMachines => {
                if let Some(note) = s.draft.set_machines() {
                    s.view.notice = Some(Notice::info(note).undoing(s.draft.undo.as_ref()));
                }
                true
            }
            AppsAction::UseMachines(on) => {
                s.draft.use_machines(on);
                true
            }
            AppsAction::AddMachineGroup => {
                s.draft.add_machine_group();
                true
            }
            AppsAction::RemoveMachineGroup(i) => {
                s.draft.remove_machine_group(i);
                true
            }
            AppsAction::TraceField(field, text) => {
                s.draft.trace_field(field, text);
                true
            }
            AppsAction::LoadWorkload => {
                s.load_workload();
                true
            }
            AppsAction::LoadTraceFile(name, text) => {
                s.load_trace_file(&name, &text);
                true
            }
            AppsAction::Undo => {
                s.undo();
                true
            }
        }
    }
}

#[cfg(test)]
mod tests;
