//! The scenario being edited: the raw text of every input the user touched (so nothing
//! typed is lost), a draft scenario with the last value of each field that parsed, the
//! page's settings (`global`'s time budget), the checks of `smd_core`'s `validate` after
//! every edit, the jobs' edits, the generate form, import/export and the saved draft.

use super::apps::{MachineForm, PresetForm, TraceForm};
use super::undo::Undo;
use super::{Notice, State};
use crate::codec::{self, Draft, Settings};
use crate::defaults;
use crate::fields::{self, FieldKey};
use smd_core::scenario::MAX_VERSION;
use smd_core::{Error, Scenario};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Largest scenario the "generate" form makes.
pub const MAX_GENERATED_JOBS: usize = 5000;

/// The field of ε, the solver's accuracy.
const EPSILON: &str = "params.epsilon";

/// One message shown next to an input (and in the error summary).
#[derive(Clone, Debug, PartialEq)]
pub struct ShownError {
    /// The input it belongs to, if the page has one.
    pub key: Option<FieldKey>,
    /// Where: `job "resnet-a": worker.gpu` or `params.epsilon`.
    pub place: String,
    /// What is wrong.
    pub message: String,
}

/// The "generate N jobs" form.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateForm {
    /// Jobs, as typed.
    pub jobs: String,
    /// Seed, as typed.
    pub seed: String,
    /// Mode of the generated jobs.
    pub mode: smd_core::Mode,
    /// Why the form cannot run.
    pub error: Option<(String, String)>,
}

/// The draft part of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftState {
    /// The scenario as edited (each field's last parsed value); shared with runs and props.
    pub scenario: Rc<Scenario>,
    /// The page's settings (each one's last valid value).
    pub settings: Settings,
    /// A stable handle per job of the scenario, in order.
    pub uids: Vec<u64>,
    next_uid: u64,
    /// Raw text of every input the user edited.
    pub raw: BTreeMap<FieldKey, String>,
    /// Inputs whose text does not parse, with the message.
    pub parse_errors: BTreeMap<FieldKey, String>,
    /// Every message to show (parse errors and `smd_core` validation).
    pub errors: Vec<ShownError>,
    /// No errors: the draft can be solved.
    pub valid: bool,
    /// No problem other than ε's (its text or its rules): the jobs are fine as they are.
    pub only_epsilon_wrong: bool,
    /// Bumped on every change of the draft (saving).
    pub edits: u64,
    /// Bumped on every change that leaves a valid draft (solving).
    pub revision: u64,
    /// The generate form.
    pub generate: GenerateForm,
    /// Import/export text area.
    pub io_text: String,
    /// Why the last import failed.
    pub io_error: Option<String>,
    /// The last share link made.
    pub share_link: Option<String>,
    /// The "from an application" form.
    pub preset: PresetForm,
    /// The "N machines of type X" form.
    pub machines: MachineForm,
    /// The "load a trace" form.
    pub trace: TraceForm,
    /// The other kind of cluster (a pool while on machines, machines while on a pool) with
    /// what was typed into it, kept while the user switches between them.
    pub other_cluster: Option<super::apps::ClusterStash>,
    /// The draft before the last change that replaced jobs or the cluster wholesale
    /// (generate, import, reset, a preset, machines, a trace), until the next edit.
    pub undo: Option<Undo>,
}

impl DraftState {
    /// The draft of a scenario (valid or not) with the raw texts of a saved draft.
    pub fn new(saved: Draft) -> DraftState {
        let mut d = DraftState {
            scenario: Rc::new(Scenario {
                jobs: Vec::new(),
                ..saved.scenario.clone()
            }),
            settings: saved.settings.clone(),
            uids: Vec::new(),
            next_uid: 1,
            raw: BTreeMap::new(),
            parse_errors: BTreeMap::new(),
            errors: Vec::new(),
            valid: false,
            only_epsilon_wrong: false,
            edits: 0,
            revision: 0,
            generate: GenerateForm {
                jobs: defaults::DEFAULT_JOBS.to_string(),
                seed: defaults::DEFAULT_SEED.to_string(),
                mode: smd_core::Mode::Sync,
                error: None,
            },
            io_text: String::new(),
            io_error: None,
            share_link: None,
            preset: PresetForm::new(smd_apps::app::App::ALL[0]),
            machines: MachineForm::of(&saved.scenario.cluster),
            trace: TraceForm::default(),
            other_cluster: None,
            undo: None,
        };
        d.restore(saved.scenario, saved.raw);
        d.other_cluster = saved
            .other_cluster
            .map(super::apps::ClusterStash::from_saved);
        d
    }

    /// What Undo goes back to: the saved draft, and what its jobs were loaded from.
    pub(super) fn before(&self) -> (Draft, Option<String>) {
        (self.to_saved(), self.trace.loaded.clone())
    }

    /// Sets the draft to `scenario` with the text once typed into its fields
    /// (`(job index, field, text)`) applied again, then checks it: a saved draft reloaded,
    /// or an undo.
    pub(super) fn restore(
        &mut self,
        scenario: Scenario,
        raw: Vec<(Option<usize>, String, String)>,
    ) {
        self.replace(scenario);
        for (job, field, text) in raw {
            let key = match job {
                None => Some(FieldKey::top(&field)),
                Some(i) => self.uids.get(i).map(|&u| FieldKey::job(u, &field)),
            };
            if let Some(key) = key {
                self.apply_edit(key, text);
            }
        }
        self.check();
    }

    /// The saved form of the draft.
    pub fn to_saved(&self) -> Draft {
        let raw = self
            .raw
            .iter()
            .filter(|(k, text)| self.shown_value(k) != **text)
            .filter_map(|(k, text)| {
                let job = match k.job {
                    None => None,
                    Some(u) => Some(self.index_of(u)?),
                };
                Some((job, k.field.clone(), text.clone()))
            })
            .collect();
        Draft {
            scenario: (*self.scenario).clone(),
            raw,
            settings: self.settings.clone(),
            other_cluster: self.other_cluster.as_ref().map(|o| o.to_saved()),
        }
    }

    /// The job index of a uid in the draft.
    pub fn index_of(&self, uid: u64) -> Option<usize> {
        self.uids.iter().position(|&u| u == uid)
    }

    /// The draft's value of a field, as text (ignoring what was typed).
    pub fn shown_value(&self, key: &FieldKey) -> String {
        match key.job {
            None if fields::is_setting(&key.field) => {
                fields::setting_text(&self.settings, &key.field)
            }
            None => fields::top_text(&self.scenario, &key.field),
            Some(u) => self
                .index_of(u)
                .map(|i| fields::job_text(&self.scenario.jobs[i], &key.field))
                .unwrap_or_default(),
        }
    }

    /// What an input shows: the raw text if the user typed one, else the draft's value.
    pub fn text(&self, key: &FieldKey) -> String {
        self.raw
            .get(key)
            .cloned()
            .unwrap_or_else(|| self.shown_value(key))
    }

    /// The messages of one input.
    pub fn errors_of<'a>(&'a self, key: &'a FieldKey) -> impl Iterator<Item = &'a ShownError> {
        self.errors
            .iter()
            .filter(move |e| e.key.as_ref() == Some(key))
    }

    /// Number of messages that belong to a job.
    pub fn job_error_count(&self, uid: u64) -> usize {
        self.errors
            .iter()
            .filter(|e| e.key.as_ref().and_then(|k| k.job) == Some(uid))
            .count()
    }

    /// The first job with a problem (opened in the editor after a load).
    pub fn first_problem_job(&self) -> Option<u64> {
        self.errors
            .iter()
            .find_map(|e| e.key.as_ref().and_then(|k| k.job))
    }

    /// An input changed: its key and raw text.
    pub fn edit(&mut self, key: FieldKey, text: String) {
        self.apply_edit(key, text);
        self.check();
    }

    /// Appends a generated job; returns its uid.
    pub fn add_job(&mut self) -> u64 {
        let n = self.scenario.jobs.len();
        let mut job = smd_core::generate::job(self.scenario.params.seed, n, smd_core::Mode::Sync);
        job.id = self.unique_id(&format!("job-{}", n + 1));
        Rc::make_mut(&mut self.scenario).jobs.push(job);
        let uid = self.new_uid();
        self.uids.push(uid);
        self.check();
        uid
    }

    /// Copies a job, with what was typed into it, after it; returns the copy's uid.
    pub fn duplicate_job(&mut self, uid: u64) -> Option<u64> {
        let i = self.index_of(uid)?;
        let mut job = self.scenario.jobs[i].clone();
        job.id = self.unique_id(&format!("{}-copy", job.id));
        Rc::make_mut(&mut self.scenario).jobs.insert(i + 1, job);
        let new = self.new_uid();
        self.uids.insert(i + 1, new);
        let copies: Vec<(FieldKey, String)> = self
            .raw
            .iter()
            .filter(|(k, _)| k.job == Some(uid) && k.field != "id")
            .map(|(k, t)| (FieldKey::job(new, &k.field), t.clone()))
            .collect();
        for (k, t) in copies {
            self.apply_edit(k, t);
        }
        self.check();
        Some(new)
    }

    /// Removes a job; returns the job now in its place (or the last), if it existed.
    pub fn delete_job(&mut self, uid: u64) -> Option<Option<u64>> {
        let i = self.index_of(uid)?;
        Rc::make_mut(&mut self.scenario).jobs.remove(i);
        self.uids.remove(i);
        self.raw.retain(|k, _| k.job != Some(uid));
        self.parse_errors.retain(|k, _| k.job != Some(uid));
        self.check();
        Some(
            self.uids
                .get(i.min(self.uids.len().saturating_sub(1)))
                .copied(),
        )
    }

    /// A field of the generate form: `jobs`, `seed` or `mode`.
    pub fn generate_field(&mut self, field: &str, text: String) {
        match field {
            "jobs" => self.generate.jobs = text,
            "seed" => self.generate.seed = text,
            _ => {
                self.generate.mode = if text == "async" {
                    smd_core::Mode::Async
                } else {
                    smd_core::Mode::Sync
                }
            }
        }
        self.generate.error = None;
    }

    /// Replaces the jobs with generated ones, keeping the rest; returns a note for the
    /// user, or `None` (with the form's error set) when the form's numbers are wrong.
    pub fn generate(&mut self) -> Option<String> {
        let jobs = self.generate.jobs.trim().parse::<usize>();
        let seed = self.generate.seed.trim().parse::<u64>();
        match (jobs, seed) {
            (Ok(n), Ok(seed)) if (1..=MAX_GENERATED_JOBS).contains(&n) => {
                let jobs = (0..n)
                    .map(|i| smd_core::generate::job(seed, i, self.generate.mode))
                    .collect();
                let scenario = Scenario {
                    jobs,
                    ..(*self.scenario).clone()
                };
                let before = self.before();
                self.replace(scenario);
                self.generate.error = None;
                self.check();
                let note = format!("Generated {n} jobs with seed {seed}.");
                self.undo = Some(Undo::of(before, "generating jobs"));
                Some(note)
            }
            (Ok(_), Ok(_)) | (Err(_), _) => {
                self.generate.error = Some((
                    "jobs".into(),
                    format!(
                        "must be a whole number 1 … {MAX_GENERATED_JOBS} (got {:?})",
                        self.generate.jobs
                    ),
                ));
                None
            }
            (Ok(_), Err(_)) => {
                self.generate.error = Some((
                    "seed".into(),
                    format!("must be a whole number ≥ 0 (got {:?})", self.generate.seed),
                ));
                None
            }
        }
    }

    /// Replaces the whole draft (import, share link, reset).
    pub fn load(&mut self, scenario: Scenario) {
        let before = self.before();
        self.replace(scenario);
        self.check();
        self.undo = Some(Undo::of(before, "replacing the scenario"));
    }

    /// Replaces the jobs only (CSV import), keeping the cluster and parameters as typed.
    pub fn load_jobs(&mut self, jobs: Vec<smd_core::scenario::Job>) {
        let scenario = Scenario {
            jobs,
            ..(*self.scenario).clone()
        };
        let before = self.before();
        self.replace_keeping_typed(scenario, |_| true);
        self.check();
        self.undo = Some(Undo::of(before, "importing jobs"));
    }

    /// [`DraftState::replace`], then what was typed into the top-level fields that `keep`
    /// accepts applied again (an import of jobs keeps the cluster and parameters as typed).
    pub(super) fn replace_keeping_typed(
        &mut self,
        scenario: Scenario,
        keep: impl Fn(&str) -> bool,
    ) {
        let top: Vec<(FieldKey, String)> = self
            .raw
            .iter()
            .filter(|(k, _)| k.job.is_none() && keep(&k.field))
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        self.replace(scenario);
        for (k, t) in top {
            self.apply_edit(k, t);
        }
    }

    /// The import/export text changed.
    pub fn set_io_text(&mut self, text: String) {
        self.io_text = text;
        self.io_error = None;
    }

    /// The text area read as a scenario (JSON), or `None` with the reason in `io_error`.
    pub fn import_json(&mut self) -> Option<Scenario> {
        codec::parse_lenient(&self.io_text)
            .map_err(|e| self.io_error = Some(format!("Not imported: {e}")))
            .ok()
    }

    /// The text area read as jobs (CSV), or `None` with the reason in `io_error`.
    pub fn import_csv(&mut self) -> Option<Vec<smd_core::scenario::Job>> {
        codec::jobs_from_csv(&self.io_text)
            .map_err(|e| {
                let trace = smd_apps::trace::parse(&self.io_text).is_ok();
                self.io_error = Some(if trace {
                    "Not imported: this is an arrival trace (name,time,application,num_replicas,batch_size), not jobs: open it under \"Load a trace\".".into()
                } else {
                    format!("Not imported: {e}")
                })
            })
            .ok()
    }

    /// Puts the draft's JSON into the text area.
    pub fn export_json(&mut self) {
        self.io_text = self.scenario.to_json();
        self.io_error = None;
    }

    /// Puts the draft's CSV into the text area; returns a warning when the CSV loses the
    /// per-layer shape of some jobs.
    pub fn export_csv(&mut self) -> Option<Notice> {
        let (csv, custom) = codec::jobs_to_csv(&self.scenario.jobs);
        self.io_text = csv;
        self.io_error = None;
        let online = self
            .scenario
            .jobs
            .iter()
            .filter(|j| !j.version2_fields().is_empty())
            .count();
        let mut lost = Vec::new();
        if custom > 0 {
            lost.push(format!("CSV keeps layer totals and a profile: {custom} job(s) with their own per-layer shape are written as uniform."));
        }
        if online > 0 {
            lost.push(format!(
                "CSV has no columns for arrival times and requests: {online} job(s) lose theirs."
            ));
        }
        (!lost.is_empty())
            .then(|| Notice::warning(format!("{} Use JSON to keep everything.", lost.join(" "))))
    }

    pub(super) fn new_uid(&mut self) -> u64 {
        let u = self.next_uid;
        self.next_uid += 1;
        u
    }

    /// A new scenario: new uids, nothing typed into it (what was typed into the page's
    /// settings stays). Call [`DraftState::check`] after.
    pub(super) fn replace(&mut self, s: Scenario) {
        // Other jobs: no longer the loaded trace's (a trace load says so again after).
        self.trace.loaded = None;
        self.uids = (0..s.jobs.len()).map(|_| 0).collect();
        for i in 0..self.uids.len() {
            self.uids[i] = self.new_uid();
        }
        self.scenario = Rc::new(s);
        let setting = |k: &FieldKey| k.job.is_none() && fields::is_setting(&k.field);
        self.raw.retain(|k, _| setting(k));
        self.parse_errors.retain(|k, _| setting(k));
    }

    pub(super) fn apply_edit(&mut self, key: FieldKey, text: String) {
        let result = match key.job {
            None if fields::is_setting(&key.field) => {
                fields::set_setting(&mut self.settings, &key.field, &text)
            }
            None => {
                let s = Rc::make_mut(&mut self.scenario);
                let r = fields::set_top(s, &key.field, &text);
                // A version-2 parameter (placement, GPU sharing) makes the file version 2,
                // like a version-2 job field below (the page shows them on machines, which
                // are version 2 already).
                if r.is_ok()
                    && fields::PARAMS_VERSION2.contains(&key.field.as_str())
                    && !fields::top_text(s, &key.field).is_empty()
                    && s.version < MAX_VERSION
                {
                    s.version = MAX_VERSION;
                }
                r
            }
            Some(uid) => match self.index_of(uid) {
                Some(i) => {
                    let s = Rc::make_mut(&mut self.scenario);
                    let r = fields::set_job(&mut s.jobs[i], &key.field, &text);
                    bump_version(s);
                    r
                }
                None => return,
            },
        };
        match result {
            Ok(()) => self.parse_errors.remove(&key),
            Err(m) => self.parse_errors.insert(key.clone(), m),
        };
        self.raw.insert(key, text);
    }

    /// After any change of the draft: check it again and, if valid, bump the revision (the
    /// page solves it).
    pub(super) fn check(&mut self) {
        self.edits += 1;
        // Undo reaches back over one replacement only: any later change ends it (the
        // replacing actions set it again after their check).
        self.undo = None;
        let mut errors: Vec<ShownError> = self
            .parse_errors
            .iter()
            .map(|(k, m)| ShownError {
                key: Some(k.clone()),
                place: self.place(k),
                message: m.clone(),
            })
            .collect();
        let list = match self.scenario.validate() {
            Ok(()) => Vec::new(),
            Err(Error::Invalid(list)) => list,
            Err(other) => vec![smd_core::FieldError {
                job: None,
                field: "scenario".into(),
                message: other.to_string(),
            }],
        };
        let eps_key = FieldKey::top(EPSILON);
        // The page's settings do not touch the jobs either.
        self.only_epsilon_wrong = self
            .parse_errors
            .keys()
            .all(|k| *k == eps_key || (k.job.is_none() && fields::is_setting(&k.field)))
            && list
                .iter()
                .all(|fe| fe.job.is_none() && fe.field == EPSILON);
        for fe in list {
            let keys = self.keys_of(&fe);
            if keys.is_empty() {
                errors.push(ShownError {
                    key: None,
                    place: place_of(&fe),
                    message: fe.message.clone(),
                });
            }
            for key in keys {
                // A field whose text does not parse shows that message instead.
                if self.parse_errors.contains_key(&key) {
                    continue;
                }
                errors.push(ShownError {
                    place: place_of(&fe),
                    key: Some(key),
                    message: fe.message.clone(),
                });
            }
        }
        self.valid = errors.is_empty();
        self.errors = errors;
        if self.valid {
            self.revision += 1;
        }
    }

    fn place(&self, k: &FieldKey) -> String {
        match k.job.and_then(|u| self.index_of(u)) {
            Some(i) => format!("job {:?}: {}", self.scenario.jobs[i].id, k.field),
            None => k.field.clone(),
        }
    }

    /// The inputs a core error belongs to.
    fn keys_of(&self, fe: &smd_core::FieldError) -> Vec<FieldKey> {
        let field = fields::input_of(&fe.field);
        let jobs = &self.scenario.jobs;
        match &fe.job {
            None => vec![FieldKey::top(&field)],
            Some(job) => {
                let by_position = job
                    .strip_prefix('#')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| *n >= 1 && jobs.get(n - 1).is_some_and(|j| j.id.trim().is_empty()))
                    .map(|n| vec![n - 1]);
                let indices = by_position
                    .unwrap_or_else(|| (0..jobs.len()).filter(|&i| jobs[i].id == *job).collect());
                indices
                    .into_iter()
                    .map(|i| FieldKey::job(self.uids[i], &field))
                    .collect()
            }
        }
    }

    pub(super) fn unique_id(&self, base: &str) -> String {
        self.unique_id_except(base, None)
    }

    /// An id based on `base` that no job has, ignoring the job at index `except` (the one
    /// about to get the id).
    pub(super) fn unique_id_except(&self, base: &str, except: Option<usize>) -> String {
        let taken = |id: &str| {
            self.scenario
                .jobs
                .iter()
                .enumerate()
                .any(|(i, j)| Some(i) != except && j.id == id)
        };
        if !taken(base) {
            return base.to_owned();
        }
        (2..)
            .map(|k| format!("{base}-{k}"))
            .find(|id| !taken(id))
            .expect("some suffix is free")
    }
}

fn place_of(fe: &smd_core::FieldError) -> String {
    match &fe.job {
        Some(j) => format!("job {j:?}: {}", fe.field),
        None => fe.field.clone(),
    }
}

/// What a change of the whole draft means for the rest of the page.
impl State {
    /// After the draft was replaced (generated, loaded, reset): the first job is selected,
    /// or, after a load, the first job with a problem; the note is shown.
    pub(super) fn draft_replaced(&mut self, note: String, open_problem: bool) {
        self.view.selected = self.draft.uids.first().copied();
        self.view.picked = false;
        if open_problem {
            if let Some(u) = self.draft.first_problem_job() {
                self.view.selected = Some(u);
            }
        }
        self.view.notice = Some(Notice::info(note).undoing(self.draft.undo.as_ref()));
    }

    /// Imports the text area as JSON (the whole scenario).
    pub(super) fn import_json(&mut self) {
        if let Some(scenario) = self.draft.import_json() {
            let n = scenario.jobs.len();
            self.draft.load(scenario);
            self.draft_replaced(format!("Imported a scenario with {n} jobs (JSON)."), true);
        }
    }

    /// Imports the text area as CSV (the jobs only).
    pub(super) fn import_csv(&mut self) {
        if let Some(jobs) = self.draft.import_csv() {
            let n = jobs.len();
            self.draft.load_jobs(jobs);
            self.draft_replaced(
                format!("Imported {n} jobs (CSV); cluster and parameters kept."),
                true,
            );
        }
    }
}

/// A job with a version-2 field (an arrival, a request, a GPU profile — the application
/// presets carry one) makes the file version 2, the only one that may carry it
/// (docs/SCENARIO.md).
pub(crate) fn bump_version(s: &mut smd_core::Scenario) {
    if s.version < MAX_VERSION && s.jobs.iter().any(|j| !j.version2_fields().is_empty()) {
        s.version = MAX_VERSION;
    }
}

/// A change of the draft: its fields and jobs, generating, loading, import and export.
#[derive(Clone, Debug)]
pub enum DraftAction {
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
}

impl DraftAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            DraftAction::Edit(key, text) => {
                s.draft.edit(key, text);
                true
            }
            DraftAction::AddJob => {
                let uid = s.draft.add_job();
                s.view.pick(uid);
                true
            }
            DraftAction::DuplicateJob(uid) => {
                let copy = s.draft.duplicate_job(uid);
                if let Some(c) = copy {
                    s.view.pick(c);
                }
                copy.is_some()
            }
            DraftAction::DeleteJob(uid) => match s.draft.delete_job(uid) {
                Some(next) => {
                    if s.view.selected == Some(uid) {
                        s.view.selected = next;
                    }
                    true
                }
                None => false,
            },
            DraftAction::GenerateField(field, text) => {
                s.draft.generate_field(field, text);
                true
            }
            DraftAction::Generate => {
                if let Some(note) = s.draft.generate() {
                    s.draft_replaced(note, false);
                }
                true
            }
            DraftAction::Load(scenario, note) => {
                s.draft.load(*scenario);
                s.draft_replaced(note, true);
                true
            }
            DraftAction::LoadJobs(jobs, note) => {
                s.draft.load_jobs(jobs);
                s.draft_replaced(note, true);
                true
            }
            DraftAction::Reset => {
                s.draft.load(defaults::default_scenario());
                s.draft_replaced("Back to the default scenario.".into(), false);
                true
            }
            DraftAction::IoText(text) => {
                s.draft.set_io_text(text);
                true
            }
            DraftAction::ImportJson => {
                s.import_json();
                true
            }
            DraftAction::ImportCsv => {
                s.import_csv();
                true
            }
            DraftAction::ExportJson => {
                s.draft.export_json();
                true
            }
            DraftAction::ExportCsv => {
                if let Some(n) = s.draft.export_csv() {
                    s.view.notice = Some(n);
                }
                true
            }
            DraftAction::ShareLink(link) => {
                s.draft.share_link = Some(link);
                true
            }
        }
    }
}

mod apps;

#[cfg(test)]
mod tests;
