//! The draft's changes through real applications' forms ([`super::super::apps`]): a job
//! from an application, the cluster as catalog machines or machine groups, a bundled or
//! opened trace loaded, and undoing the last replacement. `smd-apps` makes every job,
//! cluster and scenario; these methods only move them into the draft.

use super::DraftState;
use crate::fields::{self, FieldKey};
use crate::state::apps::{parse_count, trace_message, ClusterStash, PresetForm, PAGE_ARCHITECTURE};
use crate::state::undo::Undo;
use smd_apps::machines::{self, MachineType, CATALOG};
use smd_apps::preset::{measured, preset, MeasuredOptions, PresetError, PresetOptions};
use smd_apps::trace::{self, TraceError};
use smd_core::scenario::{Architecture, Cluster, Job};
use smd_core::Scenario;
use std::rc::Rc;

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
        super::bump_version(s);
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
        super::bump_version(s);
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
    /// then plans — keeping the parameters
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
        let text = trace::pollux_workload(name).ok()?;
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

fn machine_named(name: &str) -> &'static MachineType {
    machines::machine_type(name).unwrap_or(&CATALOG[0])
}
