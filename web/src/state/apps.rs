//! Real applications in the draft (`smd-apps`): a job from an application's preset, the
//! cluster as N machines of a catalog type, a bundled or opened arrival trace, and undoing
//! the last change that replaced jobs or the cluster wholesale.
//!
//! The forms keep their text as typed (like the generate form); a problem is kept at the
//! form's input it belongs to, and nothing in the draft changes until a form applies
//! cleanly. `smd-apps` makes every job, cluster and scenario; this module only moves them
//! into the draft.

use super::draft::DraftState;
use super::{Notice, State};
use crate::codec::Draft;
use crate::fields::{self, FieldKey};
use smd_apps::app::App;
use smd_apps::machines::{self, MachineType, CATALOG};
use smd_apps::preset::{measured, preset, MeasuredOptions, PresetError, PresetOptions};
use smd_apps::trace::{self, TraceError};
use smd_core::scenario::{Architecture, Cluster, Job};
use smd_core::Scenario;

/// The architecture the page loads traces in: measured all-reduce jobs (docs/MODEL.md §21),
/// as `smd trace` does.
pub const PAGE_ARCHITECTURE: Architecture = Architecture::Allreduce;
use std::rc::Rc;

/// The bundled workloads' source, in a sentence (shown beside the trace form).
pub const TRACE_SOURCE: &str =
    "Bundled workloads from the Pollux artifact (Qiao et al., OSDI 2021), \
     sampled from Microsoft's Philly trace (Jeon et al., ATC 2019): workload-N has 160 jobs \
     arriving over 8 h, workload-N-half 80.";

/// The cluster the artifact's workloads ran on: 16 machines of type `t4x4`.
pub const TRACE_MACHINES: (&str, u32) = ("t4x4", 16);

/// Most machines the forms accept (a scenario's numbers stay far below its limits).
pub const MAX_MACHINES: f64 = 1e6;

/// The draft before a change, to go back to.
#[derive(Clone, Debug, PartialEq)]
pub struct Undo {
    /// The saved form of the draft before the change (what was typed included).
    pub before: Rc<Draft>,
    /// The change, in words (`loading workload-1`).
    pub what: String,
    /// Which change this is: the message reporting it offers this Undo, no other message.
    pub id: u64,
    /// What the jobs were loaded from before the change ([`TraceForm::loaded`]).
    pub loaded: Option<String>,
}

impl Undo {
    /// Going back to `before` over `what`.
    pub fn of((before, loaded): (Draft, Option<String>), what: impl Into<String>) -> Undo {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Undo {
            before: Rc::new(before),
            what: what.into(),
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            loaded,
        }
    }
}

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

/// Whether `k` is a field of one kind of cluster (not the shared instance).
fn kind_field(k: &FieldKey) -> bool {
    k.job.is_none() && k.field.starts_with("cluster.") && !k.field.starts_with("cluster.instance.")
}

/// The key of machine group field `k` moved by `shift` groups if its group is after
/// `after`.
fn shifted(k: &FieldKey, after: usize) -> Option<FieldKey> {
    let (i, part) = fields::machine_field(&k.field)?;
    (k.job.is_none() && i > after).then(|| FieldKey::top(&fields::machine_path(i - 1, part)))
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

fn machine_named(name: &str) -> &'static MachineType {
    machines::machine_type(name).unwrap_or(&CATALOG[0])
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

impl DraftState {
    /// A field of the application form: `app`, `batch` or `minibatch`. A new application
    /// starts at its initial batch.
    pub fn preset_field(&mut self, field: &str, text: String) {
        match field {
            "app" => {
                let app = text.parse().unwrap_or(self.preset.app);
                if app != self.preset.app {
                    self.preset = PresetForm {
                        minibatch: std::mem::take(&mut self.preset.minibatch),
                        max_workers: std::mem::take(&mut self.preset.max_workers),
                        ..PresetForm::of(app, self.preset.architecture)
                    };
                }
            }
            "architecture" => {
                let a = text.parse().unwrap_or(self.preset.architecture);
                if a != self.preset.architecture {
                    self.preset = PresetForm {
                        minibatch: std::mem::take(&mut self.preset.minibatch),
                        max_workers: std::mem::take(&mut self.preset.max_workers),
                        ..PresetForm::of(self.preset.app, a)
                    };
                }
            }
            "batch" => self.preset.batch = text,
            "max_workers" => self.preset.max_workers = text,
            _ => self.preset.minibatch = text,
        }
        self.preset.error = None;
    }

    /// The application form's job with id `id`, or `None` with the form's error set.
    fn preset_job(&mut self, id: String) -> Option<Job> {
        if self.preset.architecture == Architecture::Allreduce {
            return self.measured_job(id);
        }
        let f = &self.preset;
        let batch = match fields::parse_number(&f.batch) {
            Ok(v) => v,
            Err(m) => {
                self.preset.error = Some(("batch", m));
                return None;
            }
        };
        let minibatch = if f.minibatch.trim().is_empty() {
            None
        } else {
            match fields::parse_number(&f.minibatch) {
                Ok(v) => Some(v),
                Err(m) => {
                    self.preset.error = Some(("minibatch", m));
                    return None;
                }
            }
        };
        let opts = PresetOptions {
            global_batch: batch,
            minibatch,
            id: Some(id),
            limit_instances: None,
            instance: self.scenario.cluster.instance,
        };
        preset(f.app, &opts)
            .map_err(|e: PresetError| {
                let at = match e.field {
                    "global_batch" => "batch",
                    "minibatch" => "minibatch",
                    _ => "app",
                };
                let message = match e.field {
                    "instance" => format!("the cluster's instance {}", e.message),
                    _ => e.message,
                };
                self.preset.error = Some((at, message));
            })
            .ok()
    }

    /// The form's measured job with id `id`, or `None` with the form's error set.
    fn measured_job(&mut self, id: String) -> Option<Job> {
        let f = &self.preset;
        let optional = |text: &str| {
            if text.trim().is_empty() {
                Ok(None)
            } else {
                fields::parse_number(text).map(Some)
            }
        };
        let batch_size = match optional(&f.batch) {
            Ok(v) => v,
            Err(m) => {
                self.preset.error = Some(("batch", m));
                return None;
            }
        };
        let max_workers = match optional(&f.max_workers) {
            Ok(v) => v,
            Err(m) => {
                self.preset.error = Some(("max_workers", m));
                return None;
            }
        };
        let opts = MeasuredOptions {
            id: Some(id),
            batch_size,
            max_workers,
        };
        measured(f.app, &opts)
            .map_err(|e: PresetError| {
                let at = if e.field == "max_workers" {
                    "max_workers"
                } else {
                    "batch"
                };
                self.preset.error = Some((at, e.message));
            })
            .ok()
    }

    /// The id a job from the form gets: `<app>-<K>` (`<app>` when the planner chooses a
    /// measured job's batch), unique in the scenario (ignoring the job at `except`).
    fn preset_id(&self, except: Option<usize>) -> String {
        let base = match fields::parse_number(&self.preset.batch) {
            Ok(k) => format!("{}-{}", self.preset.app.name(), smd_core::error::num(k)),
            Err(_) if self.preset.architecture == Architecture::Allreduce => {
                self.preset.app.name().to_owned()
            }
            Err(_) => format!("{}-0", self.preset.app.name()),
        };
        self.unique_id_except(&base, except)
    }

    /// Appends the application form's job; returns its uid, or `None` with the form's
    /// error set.
    pub fn add_from_app(&mut self) -> Option<u64> {
        let job = self.preset_job(self.preset_id(None))?;
        let before = self.before();
        let s = Rc::make_mut(&mut self.scenario);
        s.jobs.push(job);
        super::draft::bump_version(s);
        let uid = self.new_uid();
        self.uids.push(uid);
        self.check();
        self.undo = Some(Undo::of(before, "adding a job from an application"));
        Some(uid)
    }

    /// Fills every field of job `uid` from the application form (its arrival and requests
    /// stay: they belong to the job, not to the application); what was typed into the job
    /// is dropped (Undo brings it back). Returns whether the job was filled.
    pub fn fill_from_app(&mut self, uid: u64) -> bool {
        let Some(i) = self.index_of(uid) else {
            return false;
        };
        let Some(mut job) = self.preset_job(self.preset_id(Some(i))) else {
            return false;
        };
        let before = self.before();
        let old = &self.scenario.jobs[i];
        job.arrival_s = old.arrival_s;
        job.requested_workers = old.requested_workers;
        // A measured job has no parameter servers to ask for.
        if job.measured.is_none() {
            job.requested_ps = old.requested_ps;
        }
        let s = Rc::make_mut(&mut self.scenario);
        s.jobs[i] = job;
        super::draft::bump_version(s);
        self.raw.retain(|k, _| k.job != Some(uid));
        self.parse_errors.retain(|k, _| k.job != Some(uid));
        self.check();
        self.undo = Some(Undo::of(before, "filling a job from an application"));
        true
    }

    /// A field of the machines form: `type` or `count`.
    pub fn machines_field(&mut self, field: &str, text: String) {
        match field {
            "type" => self.machines.machine = machine_named(&text),
            _ => self.machines.count = text,
        }
        self.machines.error = None;
    }

    /// The cluster becomes N machines of the form's type; returns a note, or `None` with
    /// the form's error set.
    pub fn set_machines(&mut self) -> Option<String> {
        let n = match parse_count(&self.machines.count) {
            Ok(n) => n,
            Err(m) => {
                self.machines.error = Some(m);
                return None;
            }
        };
        let m = self.machines.machine;
        let before = self.before();
        let on_machines = self.scenario.cluster.has_machines();
        Rc::make_mut(&mut self.scenario).cluster = if on_machines {
            Cluster::of_machines(vec![machines::group(m, n)], m.capacity)
        } else {
            machines::pool(m, n)
        };
        let cluster = |k: &FieldKey| k.job.is_none() && k.field.starts_with("cluster.");
        self.raw.retain(|k, _| !cluster(k));
        self.parse_errors.retain(|k, _| !cluster(k));
        self.check();
        let what = format!("{n} × {}", m.name);
        self.undo = Some(Undo::of(before, format!("setting the cluster to {what}")));
        Some(if on_machines {
            format!("The cluster is now {what}: one group of {n} machines, and one machine as the instance a job's limit ϑ counts in.")
        } else {
            format!("The cluster is now {what}: {n} units of one machine each, and one machine as the instance a job's limit ϑ counts in.")
        })
    }

    /// The cluster as a pool (`false`) or as version-2 machines (`true`). What was typed
    /// into the kind left is kept aside and comes back when the user switches again; the
    /// first switch to machines makes one group of the machines form's type and count (16
    /// if the count does not read), the first switch to a pool a pool of the machines'
    /// capacity in one unit.
    pub fn use_machines(&mut self, on: bool) {
        if on == self.scenario.cluster.has_machines() {
            return;
        }
        let instance = self.scenario.cluster.instance;
        let cluster = match self.other_cluster.take() {
            Some(stash) => {
                for (k, t) in stash.raw {
                    self.raw.insert(k, t);
                }
                for (k, m) in stash.parse_errors {
                    self.parse_errors.insert(k, m);
                }
                Cluster {
                    instance,
                    ..stash.cluster
                }
            }
            None if on => {
                let n = parse_count(&self.machines.count).unwrap_or(16.0);
                let g = machines::group(self.machines.machine, n);
                Cluster::of_machines(vec![g], instance)
            }
            None => Cluster {
                machines: Vec::new(),
                ..Cluster::of_machines(self.scenario.cluster.machines.clone(), instance)
            },
        };
        // Keep what was typed into the kind left; its keys leave the live maps.
        let leaving =
            |k: &FieldKey| kind_field(k) && (fields::machine_field(&k.field).is_some() != on);
        let raw: Vec<_> = self
            .raw
            .iter()
            .filter(|(k, _)| leaving(k))
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        let parse_errors: Vec<_> = self
            .parse_errors
            .iter()
            .filter(|(k, _)| leaving(k))
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        self.raw.retain(|k, _| !leaving(k));
        self.parse_errors.retain(|k, _| !leaving(k));
        let s = Rc::make_mut(&mut self.scenario);
        let old = std::mem::replace(&mut s.cluster, cluster);
        if on && s.version < smd_core::scenario::MAX_VERSION {
            s.version = smd_core::scenario::MAX_VERSION;
        }
        self.other_cluster = Some(ClusterStash {
            cluster: old,
            raw,
            parse_errors,
        });
        self.check();
    }

    /// Appends a group of N machines of the machines form's type (named after the type,
    /// made unique); on a count that does not read, the form's error is set.
    pub fn add_machine_group(&mut self) {
        let n = match parse_count(&self.machines.count) {
            Ok(n) => n,
            Err(m) => {
                self.machines.error = Some(m);
                return;
            }
        };
        let mut g = machines::group(self.machines.machine, n);
        let groups = &self.scenario.cluster.machines;
        let taken = |name: &str| groups.iter().any(|g| g.name == name);
        if taken(&g.name) {
            let base = g.name.clone();
            g.name = (2..)
                .map(|k| format!("{base}-g{k}"))
                .find(|n| !taken(n))
                .expect("some name is free");
        }
        let s = Rc::make_mut(&mut self.scenario);
        let mut list = s.cluster.machines.clone();
        list.push(g);
        s.cluster = Cluster::of_machines(list, s.cluster.instance);
        if s.version < smd_core::scenario::MAX_VERSION {
            s.version = smd_core::scenario::MAX_VERSION;
        }
        self.check();
    }

    /// Removes machine group `i` (the last group stays: switch to a pool instead); the
    /// text typed into the later groups moves with them.
    pub fn remove_machine_group(&mut self, i: usize) {
        let groups = &self.scenario.cluster.machines;
        if groups.len() <= 1 || i >= groups.len() {
            return;
        }
        let gone = |k: &FieldKey| {
            k.job.is_none() && fields::machine_field(&k.field).is_some_and(|(j, _)| j == i)
        };
        self.raw.retain(|k, _| !gone(k));
        self.parse_errors.retain(|k, _| !gone(k));
        for map in [&mut self.raw, &mut self.parse_errors] {
            let moved: Vec<(FieldKey, FieldKey)> = map
                .keys()
                .filter_map(|k| Some((k.clone(), shifted(k, i)?)))
                .collect();
            let mut entries: Vec<(FieldKey, String)> = moved
                .iter()
                .filter_map(|(old, new)| Some((new.clone(), map.remove(old)?)))
                .collect();
            for (k, v) in entries.drain(..) {
                map.insert(k, v);
            }
        }
        let s = Rc::make_mut(&mut self.scenario);
        let mut list = s.cluster.machines.clone();
        list.remove(i);
        s.cluster = Cluster::of_machines(list, s.cluster.instance);
        self.check();
    }

    /// A field of the trace form: `workload`, `type` or `count`.
    pub fn trace_field(&mut self, field: &str, text: String) {
        match field {
            "workload" => {
                if let Some((name, _)) = trace::WORKLOADS.iter().find(|(n, _)| *n == text) {
                    self.trace.workload = name;
                }
            }
            "type" => self.trace.machine = machine_named(&text),
            _ => self.trace.count = text,
        }
        self.trace.error = None;
    }

    /// Replaces the jobs and the cluster with trace `text` (called `source`) on the form's
    /// machines: a version-2 scenario, the parameters kept as typed. Returns a note, or
    /// `None` with the form's error set (the draft unchanged).
    pub fn load_trace(&mut self, source: &str, text: &str) -> Option<String> {
        let n = match parse_count(&self.trace.count) {
            Ok(n) => n,
            Err(m) => {
                self.trace.error = Some(("count", m));
                return None;
            }
        };
        match self.load_arrivals(source, text, self.trace.machine, n, None) {
            Ok(note) => {
                self.trace.error = None;
                Some(note)
            }
            Err(e) => {
                self.trace.error = Some(("file", format!("{source}: {}", trace_message(&e))));
                None
            }
        }
    }

    /// Replaces the jobs and the cluster with trace `text` (called `source`; its first
    /// `take` arrivals, or all) on `n` machines of type `m` — the one cluster every view
    /// then plans (docs/ARCHITECTURE.md: one cluster, stated once) — keeping the parameters
    /// as typed, with Undo. Returns the note to show; the draft is unchanged on an error.
    pub fn load_arrivals(
        &mut self,
        source: &str,
        text: &str,
        m: &'static MachineType,
        n: f64,
        take: Option<usize>,
    ) -> Result<String, TraceError> {
        let mut arrivals = trace::parse(text)?;
        if let Some(k) = take {
            arrivals.truncate(k);
        }
        let cluster = Cluster::of_machines(vec![machines::group(m, n)], m.capacity);
        let scenario = trace::scenario_as(&arrivals, cluster, PAGE_ARCHITECTURE)?;
        let jobs = scenario.jobs.len();
        let last = scenario
            .jobs
            .iter()
            .filter_map(|j| j.arrival_s)
            .fold(0.0, f64::max);
        let before = self.before();
        let scenario = Scenario {
            params: self.scenario.params.clone(),
            ..scenario
        };
        self.replace_keeping_typed(scenario, |f| !f.starts_with("cluster."));
        self.check();
        self.trace.loaded = Some(format!("Loaded {source}: {jobs} jobs"));
        self.undo = Some(Undo::of(before, format!("loading {source}")));
        Ok(format!(
            "Loaded {source}: {jobs} jobs arriving over {}, on {n} × {} — the cluster every view now plans. The plan takes every job at once (the Over time view simulates them as they arrive).",
            smd_format::duration(last),
            m.name
        ))
    }

    /// Loads the form's bundled workload.
    pub fn load_workload(&mut self) -> Option<String> {
        let name = self.trace.workload;
        let text = trace::workload(name).ok()?;
        self.load_trace(name, text)
    }

    /// Back to the draft before the last replacement; returns what was undone.
    pub fn undo(&mut self) -> Option<String> {
        let undo = self.undo.take()?;
        let before = (*undo.before).clone();
        self.restore(before.scenario, before.raw);
        self.trace.loaded = undo.loaded;
        Some(undo.what)
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
