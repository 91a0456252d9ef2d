//! The page's whole state and every change to it, as one [`Reducible`] with named actions.
//!
//! The state keeps the raw text of every input the user touched, so nothing typed is lost;
//! a draft scenario holds the last value of each field that parsed. The draft is checked by
//! `smd_core`'s `validate` after every edit; only a valid draft is solved, and the last
//! plans stay on screen while the draft is invalid. Side effects (talking to the solver,
//! saving, timers) live in the app component, which watches the counters kept here.

use crate::codec::{self, Draft};
use crate::defaults;
use crate::fields::{self, FieldKey};
use smd_core::{Error, Plan, Policy, Scenario};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// Largest scenario the "generate" form makes.
pub const MAX_GENERATED_JOBS: usize = 5000;

/// A solve running this long, s, is called out in the status line (with its Cancel).
pub const SLOW_SOLVE_S: u32 = 3;

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

/// The plans of one solved scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The draft revision they answer.
    pub revision: u64,
    /// The scenario that was solved.
    pub scenario: Rc<Scenario>,
    /// Job uids of that scenario, in order.
    pub uids: Vec<u64>,
    /// One plan per policy that succeeded, in [`Policy::ALL`] order.
    pub plans: Vec<Plan>,
    /// Policies that failed, with the message.
    pub failures: Vec<(String, String)>,
    /// Wall time of the run, ms.
    pub ms: f64,
}

impl Results {
    /// The plan of `policy`, if it succeeded.
    pub fn plan(&self, policy: Policy) -> Option<&Plan> {
        self.plans.iter().find(|p| p.policy == policy.name())
    }
}

/// A solve in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Run id (replies carry it).
    pub id: u64,
    /// The draft revision being solved.
    pub revision: u64,
    /// The scenario being solved.
    pub scenario: Rc<Scenario>,
    /// Its job uids.
    pub uids: Vec<u64>,
    /// `(policy index, jobs done, jobs total)` of the latest progress report.
    pub progress: Option<(usize, usize, usize)>,
    /// Plans received so far.
    pub plans: Vec<Plan>,
    /// Failures so far.
    pub failures: Vec<(String, String)>,
    /// Whole seconds since it started, from the page's clock ([`Action::Elapsed`]).
    pub elapsed_s: u32,
}

impl Run {
    /// Whether it has run long enough for the status line to say so.
    pub fn slow(&self) -> bool {
        self.elapsed_s >= SLOW_SOLVE_S
    }
}

/// A reproduction of the paper's experiments in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Reproduction {
    /// Run id (replies carry it).
    pub id: u64,
    /// The quick scale (else the full one).
    pub quick: bool,
    /// `(scenarios planned, scenarios)` of the latest progress report.
    pub progress: Option<(usize, usize)>,
}

/// A finished reproduction.
#[derive(Clone, Debug, PartialEq)]
pub struct Reproduced {
    /// The quick scale (else the full one).
    pub quick: bool,
    /// One per experiment, in order.
    pub experiments: Vec<crate::solver::Experiment>,
    /// Wall time, ms.
    pub ms: f64,
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

/// Heatmap quantity of the landscape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LandscapeValue {
    /// Completion time T.
    Time,
    /// Utility μ.
    Utility,
}

/// The landscape of the selected job, keyed by the results and the job it was made for.
#[derive(Clone, Debug, PartialEq)]
pub struct LandscapeView {
    /// `(results revision, job uid)`.
    pub key: (u64, u64),
    /// Request id.
    pub run: u64,
    /// `None` while it is computed.
    pub data: Option<Result<Rc<smd_core::Landscape>, String>>,
}

/// A message at the top of the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Shown as a warning (else as information).
    pub warning: bool,
    /// The text.
    pub text: String,
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

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The scenario as edited (each field's last parsed value); shared with runs and props.
    pub draft: Rc<Scenario>,
    /// A stable handle per job of the draft, in order.
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
    /// The smallest ε the draft's jobs allow under Algorithm 1's work budget, with the id of
    /// the job that sets it (`smd_core::budget::smallest_epsilon`). `None` when every ε in
    /// (0, 1] is allowed, or while a field other than ε has a problem (the limit is only
    /// meaningful for valid jobs). Derived from the draft after every change of it.
    pub epsilon_floor: Option<(f64, String)>,
    /// The draft `epsilon_floor` was computed for: it does not depend on ε, so moving ε
    /// alone (the slider) reuses it.
    floor_of: Option<Rc<Scenario>>,
    /// Bumped on every change of the draft (saving).
    pub edits: u64,
    /// Bumped on every change that leaves a valid draft (solving).
    pub revision: u64,
    next_run: u64,
    /// The last finished plans.
    pub results: Option<Rc<Results>>,
    /// The solve in progress.
    pub run: Option<Run>,
    /// Bumped whenever the worker must be terminated and respawned.
    pub restarts: u64,
    /// Deaths since the last finished solve (stops a crash loop).
    pub deaths_in_row: u32,
    /// The worker's status.
    pub worker: WorkerStatus,
    /// A message at the top.
    pub notice: Option<Notice>,
    /// The policy whose plan is shown in detail.
    pub policy: Policy,
    /// The selected job's uid.
    pub selected: Option<u64>,
    /// The selected job's landscape.
    pub landscape: Option<LandscapeView>,
    /// Heatmap quantity.
    pub value: LandscapeValue,
    /// The generate form.
    pub generate: GenerateForm,
    /// Import/export text area.
    pub io_text: String,
    /// Why the last import failed.
    pub io_error: Option<String>,
    /// The last share link made.
    pub share_link: Option<String>,
    /// Whether the in-page help is open.
    pub help: bool,
    /// The reproduction in progress.
    pub reproduce: Option<Reproduction>,
    /// The last reproduction, or why it stopped.
    pub reproduced: Option<Result<Rc<Reproduced>, String>>,
}

/// Every change the page can make.
#[derive(Clone, Debug)]
pub enum Action {
    /// An input changed: its key and raw text.
    Edit(FieldKey, String),
    /// Append a generated job.
    AddJob,
    /// Copy a job (inserted after it).
    DuplicateJob(u64),
    /// Remove a job.
    DeleteJob(u64),
    /// Select a job (editor, landscape, schedule).
    SelectJob(u64),
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
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
    /// Show this policy's plan.
    SelectPolicy(Policy),
    /// Heatmap quantity.
    SetValue(LandscapeValue),
    /// Open or close the help.
    ToggleHelp,
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
    /// A landscape was requested for `(results revision, uid)` with this id.
    LandscapeRequested((u64, u64), u64),
    /// Run the paper's experiments: quick (else full) scale.
    StartReproduce(bool),
    /// Stop the running reproduction.
    CancelReproduce,
}

impl State {
    /// Solves `r`'s draft again under a new run id (in a fresh worker), from scratch.
    fn rerun(&mut self, r: Run) {
        let id = self.next_run;
        self.next_run += 1;
        self.run = Some(Run {
            id,
            progress: None,
            plans: Vec::new(),
            failures: Vec::new(),
            elapsed_s: 0,
            ..r
        });
    }

    /// The state for a scenario (valid or not) with the raw texts of a saved draft.
    pub fn new(draft: Draft) -> State {
        let mut s = State {
            draft: Rc::new(Scenario {
                jobs: Vec::new(),
                ..draft.scenario.clone()
            }),
            uids: Vec::new(),
            next_uid: 1,
            raw: BTreeMap::new(),
            parse_errors: BTreeMap::new(),
            errors: Vec::new(),
            valid: false,
            epsilon_floor: None,
            floor_of: None,
            edits: 0,
            revision: 0,
            next_run: 1,
            results: None,
            run: None,
            restarts: 0,
            deaths_in_row: 0,
            worker: WorkerStatus::Starting,
            notice: None,
            policy: Policy::Smd,
            selected: None,
            landscape: None,
            value: LandscapeValue::Time,
            generate: GenerateForm {
                jobs: defaults::DEFAULT_JOBS.to_string(),
                seed: defaults::DEFAULT_SEED.to_string(),
                mode: smd_core::Mode::Sync,
                error: None,
            },
            io_text: String::new(),
            io_error: None,
            share_link: None,
            help: false,
            reproduce: None,
            reproduced: None,
        };
        s.replace_scenario(draft.scenario);
        for (job, field, text) in draft.raw {
            let key = match job {
                None => Some(FieldKey::top(&field)),
                Some(i) => s.uids.get(i).map(|&u| FieldKey::job(u, &field)),
            };
            if let Some(key) = key {
                s.apply_edit(key, text);
            }
        }
        s.changed();
        s
    }

    /// The saved form of the draft.
    pub fn to_draft(&self) -> Draft {
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
            scenario: (*self.draft).clone(),
            raw,
        }
    }

    /// The job index of a uid in the draft.
    pub fn index_of(&self, uid: u64) -> Option<usize> {
        self.uids.iter().position(|&u| u == uid)
    }

    /// The draft's value of a field, as text (ignoring what was typed).
    pub fn shown_value(&self, key: &FieldKey) -> String {
        match key.job {
            None => fields::top_text(&self.draft, &key.field),
            Some(u) => self
                .index_of(u)
                .map(|i| fields::job_text(&self.draft.jobs[i], &key.field))
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

    /// Whether the shown results answer an older draft than the current one.
    pub fn results_stale(&self) -> bool {
        self.results
            .as_ref()
            .is_some_and(|r| r.revision != self.revision || !self.valid)
    }

    /// The `(results revision, uid, index)` whose landscape should be on screen.
    pub fn wanted_landscape(&self) -> Option<(u64, u64, usize)> {
        let r = self.results.as_ref()?;
        let uid = self.selected?;
        let index = r.uids.iter().position(|&u| u == uid)?;
        Some((r.revision, uid, index))
    }

    /// The worker is being terminated for another reason: a running reproduction is lost.
    fn reproduction_lost(&mut self, why: &str) {
        if self.reproduce.take().is_some() {
            self.reproduced = Some(Err(format!("The reproduction stopped: {why}.")));
        }
    }

    fn new_uid(&mut self) -> u64 {
        let u = self.next_uid;
        self.next_uid += 1;
        u
    }

    fn replace_scenario(&mut self, s: Scenario) {
        self.uids = (0..s.jobs.len()).map(|_| 0).collect();
        for i in 0..self.uids.len() {
            self.uids[i] = self.new_uid();
        }
        self.draft = Rc::new(s);
        self.raw.clear();
        self.parse_errors.clear();
        self.selected = self.uids.first().copied();
    }

    fn apply_edit(&mut self, key: FieldKey, text: String) {
        let result = match key.job {
            None => fields::set_top(Rc::make_mut(&mut self.draft), &key.field, &text),
            Some(uid) => match self.index_of(uid) {
                Some(i) => fields::set_job(
                    &mut Rc::make_mut(&mut self.draft).jobs[i],
                    &key.field,
                    &text,
                ),
                None => return,
            },
        };
        match result {
            Ok(()) => self.parse_errors.remove(&key),
            Err(m) => self.parse_errors.insert(key.clone(), m),
        };
        self.raw.insert(key, text);
    }

    /// After any change of the draft: check it again and, if valid, ask for a solve.
    fn changed(&mut self) {
        self.edits += 1;
        let mut errors: Vec<ShownError> = self
            .parse_errors
            .iter()
            .map(|(k, m)| ShownError {
                key: Some(k.clone()),
                place: self.place(k),
                message: m.clone(),
            })
            .collect();
        let list = match self.draft.validate() {
            Ok(()) => Vec::new(),
            Err(Error::Invalid(list)) => list,
            Err(other) => vec![smd_core::FieldError {
                job: None,
                field: "scenario".into(),
                message: other.to_string(),
            }],
        };
        self.update_epsilon_floor(&list);
        for fe in list {
            let keys = self.keys_of(&fe);
            if keys.is_empty() {
                errors.push(ShownError {
                    key: None,
                    place: self.place_of(&fe),
                    message: fe.message.clone(),
                });
            }
            for key in keys {
                // A field whose text does not parse shows that message instead.
                if self.parse_errors.contains_key(&key) {
                    continue;
                }
                errors.push(ShownError {
                    place: self.place_of(&fe),
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

    /// Recomputes [`State::epsilon_floor`] after a check of the draft that found `problems`.
    fn update_epsilon_floor(&mut self, problems: &[smd_core::FieldError]) {
        let eps_key = FieldKey::top(EPSILON);
        let only_epsilon = self.parse_errors.keys().all(|k| *k == eps_key)
            && problems
                .iter()
                .all(|fe| fe.job.is_none() && fe.field == EPSILON);
        if !only_epsilon {
            self.epsilon_floor = None;
            self.floor_of = None;
            return;
        }
        let same = self
            .floor_of
            .as_ref()
            .is_some_and(|old| Rc::ptr_eq(old, &self.draft) || same_but_epsilon(old, &self.draft));
        if !same {
            self.epsilon_floor = smd_core::budget::smallest_epsilon(&self.draft);
            self.floor_of = Some(self.draft.clone());
        }
    }

    fn place(&self, k: &FieldKey) -> String {
        match k.job.and_then(|u| self.index_of(u)) {
            Some(i) => format!("job {:?}: {}", self.draft.jobs[i].id, k.field),
            None => k.field.clone(),
        }
    }

    fn place_of(&self, fe: &smd_core::FieldError) -> String {
        match &fe.job {
            Some(j) => format!("job {j:?}: {}", fe.field),
            None => fe.field.clone(),
        }
    }

    /// The inputs a core error belongs to.
    fn keys_of(&self, fe: &smd_core::FieldError) -> Vec<FieldKey> {
        let field = fields::input_of(&fe.field);
        match &fe.job {
            None => vec![FieldKey::top(&field)],
            Some(job) => {
                let by_position = job
                    .strip_prefix('#')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| {
                        *n >= 1
                            && self
                                .draft
                                .jobs
                                .get(n - 1)
                                .is_some_and(|j| j.id.trim().is_empty())
                    })
                    .map(|n| vec![n - 1]);
                let indices = by_position.unwrap_or_else(|| {
                    (0..self.draft.jobs.len())
                        .filter(|&i| self.draft.jobs[i].id == *job)
                        .collect()
                });
                indices
                    .into_iter()
                    .map(|i| FieldKey::job(self.uids[i], &field))
                    .collect()
            }
        }
    }

    /// Whether the page shows this error next to its input right now: cluster and params
    /// inputs are always on screen, a job's only while the job is in the editor.
    pub fn shown_inline(&self, e: &ShownError) -> bool {
        match &e.key {
            Some(FieldKey { job: None, field }) => {
                field.starts_with("cluster.") || field.starts_with("params.")
            }
            Some(FieldKey { job: Some(u), .. }) => self.selected == Some(*u),
            None => false,
        }
    }

    /// After loading a scenario with problems: open the first job that has one.
    fn select_first_problem(&mut self) {
        if let Some(u) = self
            .errors
            .iter()
            .find_map(|e| e.key.as_ref().and_then(|k| k.job))
        {
            self.selected = Some(u);
        }
    }

    fn unique_id(&self, base: &str) -> String {
        let taken = |id: &str| self.draft.jobs.iter().any(|j| j.id == id);
        if !taken(base) {
            return base.to_owned();
        }
        (2..)
            .map(|k| format!("{base}-{k}"))
            .find(|id| !taken(id))
            .expect("some suffix is free")
    }

    fn solve_finished(&mut self, run: Run, ms: f64) {
        self.results = Some(Rc::new(Results {
            revision: run.revision,
            scenario: run.scenario,
            uids: run.uids,
            plans: run.plans,
            failures: run.failures,
            ms,
        }));
        self.deaths_in_row = 0;
    }
}

/// The field of ε, the solver's accuracy.
const EPSILON: &str = "params.epsilon";

/// Whether two scenarios differ at most in ε.
fn same_but_epsilon(a: &Scenario, b: &Scenario) -> bool {
    let params = smd_core::scenario::Params {
        epsilon: a.params.epsilon,
        ..b.params.clone()
    };
    a.params == params && a.cluster == b.cluster && a.jobs == b.jobs
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::Edit(key, text) => {
                s.apply_edit(key, text);
                s.changed();
            }
            Action::AddJob => {
                let n = s.draft.jobs.len();
                let mut job = smd_core::generate::job(s.draft.params.seed, n, smd_core::Mode::Sync);
                job.id = s.unique_id(&format!("job-{}", n + 1));
                Rc::make_mut(&mut s.draft).jobs.push(job);
                let uid = s.new_uid();
                s.uids.push(uid);
                s.selected = Some(uid);
                s.changed();
            }
            Action::DuplicateJob(uid) => {
                if let Some(i) = s.index_of(uid) {
                    let mut job = s.draft.jobs[i].clone();
                    job.id = s.unique_id(&format!("{}-copy", job.id));
                    Rc::make_mut(&mut s.draft).jobs.insert(i + 1, job);
                    let new = s.new_uid();
                    s.uids.insert(i + 1, new);
                    let copies: Vec<(FieldKey, String)> = s
                        .raw
                        .iter()
                        .filter(|(k, _)| k.job == Some(uid) && k.field != "id")
                        .map(|(k, t)| (FieldKey::job(new, &k.field), t.clone()))
                        .collect();
                    for (k, t) in copies {
                        s.apply_edit(k, t);
                    }
                    s.selected = Some(new);
                    s.changed();
                }
            }
            Action::DeleteJob(uid) => {
                if let Some(i) = s.index_of(uid) {
                    Rc::make_mut(&mut s.draft).jobs.remove(i);
                    s.uids.remove(i);
                    s.raw.retain(|k, _| k.job != Some(uid));
                    s.parse_errors.retain(|k, _| k.job != Some(uid));
                    if s.selected == Some(uid) {
                        s.selected = s.uids.get(i.min(s.uids.len().saturating_sub(1))).copied();
                    }
                    s.changed();
                }
            }
            Action::SelectJob(uid) => s.selected = Some(uid),
            Action::GenerateField(field, text) => {
                match field {
                    "jobs" => s.generate.jobs = text,
                    "seed" => s.generate.seed = text,
                    _ => {
                        s.generate.mode = if text == "async" {
                            smd_core::Mode::Async
                        } else {
                            smd_core::Mode::Sync
                        }
                    }
                }
                s.generate.error = None;
            }
            Action::Generate => {
                let jobs = s.generate.jobs.trim().parse::<usize>();
                let seed = s.generate.seed.trim().parse::<u64>();
                match (jobs, seed) {
                    (Ok(n), Ok(seed)) if (1..=MAX_GENERATED_JOBS).contains(&n) => {
                        let jobs = (0..n)
                            .map(|i| smd_core::generate::job(seed, i, s.generate.mode))
                            .collect();
                        let note = format!("Generated {n} jobs with seed {seed}.");
                        let scenario = Scenario {
                            jobs,
                            ..(*s.draft).clone()
                        };
                        s.replace_scenario(scenario);
                        s.generate.error = None;
                        s.notice = Some(Notice {
                            warning: false,
                            text: note,
                        });
                        s.changed();
                    }
                    (Ok(_), Ok(_)) | (Err(_), _) => {
                        s.generate.error = Some((
                            "jobs".into(),
                            format!(
                                "must be a whole number 1 … {MAX_GENERATED_JOBS} (got {:?})",
                                s.generate.jobs
                            ),
                        ))
                    }
                    (Ok(_), Err(_)) => {
                        s.generate.error = Some((
                            "seed".into(),
                            format!("must be a whole number ≥ 0 (got {:?})", s.generate.seed),
                        ))
                    }
                }
            }
            Action::Load(scenario, note) => {
                s.replace_scenario(*scenario);
                s.notice = Some(Notice {
                    warning: false,
                    text: note,
                });
                s.changed();
                s.select_first_problem();
            }
            Action::LoadJobs(jobs, note) => {
                let scenario = Scenario {
                    jobs,
                    ..(*s.draft).clone()
                };
                let top: Vec<(FieldKey, String)> = s
                    .raw
                    .iter()
                    .filter(|(k, _)| k.job.is_none())
                    .map(|(k, t)| (k.clone(), t.clone()))
                    .collect();
                s.replace_scenario(scenario);
                for (k, t) in top {
                    s.apply_edit(k, t);
                }
                s.notice = Some(Notice {
                    warning: false,
                    text: note,
                });
                s.changed();
                s.select_first_problem();
            }
            Action::Reset => {
                s.replace_scenario(defaults::default_scenario());
                s.notice = Some(Notice {
                    warning: false,
                    text: "Back to the default scenario.".into(),
                });
                s.changed();
            }
            Action::IoText(t) => {
                s.io_text = t;
                s.io_error = None;
            }
            Action::ImportJson => match codec::parse_lenient(&s.io_text) {
                Ok(scenario) => {
                    let n = scenario.jobs.len();
                    return Rc::new(s).reduce(Action::Load(
                        Box::new(scenario),
                        format!("Imported a scenario with {n} jobs (JSON)."),
                    ));
                }
                Err(e) => s.io_error = Some(format!("Not imported: {e}")),
            },
            Action::ImportCsv => match codec::jobs_from_csv(&s.io_text) {
                Ok(jobs) => {
                    let n = jobs.len();
                    return Rc::new(s).reduce(Action::LoadJobs(
                        jobs,
                        format!("Imported {n} jobs (CSV); cluster and parameters kept."),
                    ));
                }
                Err(e) => s.io_error = Some(format!("Not imported: {e}")),
            },
            Action::ExportJson => {
                s.io_text = s.draft.to_json();
                s.io_error = None;
            }
            Action::ExportCsv => {
                let (csv, custom) = codec::jobs_to_csv(&s.draft.jobs);
                s.io_text = csv;
                s.io_error = None;
                if custom > 0 {
                    s.notice = Some(Notice {
                        warning: true,
                        text: format!(
                            "CSV keeps layer totals and a profile: {custom} job(s) with their own per-layer shape are written as uniform. Use JSON to keep every layer."
                        ),
                    });
                }
            }
            Action::ShareLink(link) => s.share_link = Some(link),
            Action::Notify(n) => s.notice = Some(n),
            Action::DismissNotice => s.notice = None,
            Action::SelectPolicy(p) => s.policy = p,
            Action::SetValue(v) => s.value = v,
            Action::ToggleHelp => s.help = !s.help,
            Action::StartSolve(revision) => {
                if revision != s.revision || !s.valid {
                    return self;
                }
                if s.run.is_some() || matches!(s.worker, WorkerStatus::Died(_)) {
                    // The worker is busy with an older draft (stop it), or dead (respawn it).
                    s.restarts += 1;
                    s.landscape = None;
                    s.reproduction_lost("the solver restarted for an edited scenario");
                }
                let id = s.next_run;
                s.next_run += 1;
                s.run = Some(Run {
                    id,
                    revision,
                    scenario: s.draft.clone(),
                    uids: s.uids.clone(),
                    progress: None,
                    plans: Vec::new(),
                    failures: Vec::new(),
                    elapsed_s: 0,
                });
            }
            Action::Cancel => {
                if s.run.take().is_some() {
                    s.restarts += 1;
                    s.landscape = None;
                    s.reproduction_lost("the solve was cancelled");
                    s.notice = Some(Notice {
                        warning: false,
                        text: "Solve cancelled; the plans shown are the previous ones.".into(),
                    });
                }
            }
            Action::Elapsed(run, seconds) => match s.run.as_mut() {
                Some(r) if r.id == run && r.elapsed_s != seconds => r.elapsed_s = seconds,
                _ => return self,
            },
            Action::WorkerDied(message) => {
                s.deaths_in_row += 1;
                s.worker = WorkerStatus::Died(message.clone());
                s.landscape = None;
                s.reproduction_lost(&format!("the solver stopped ({message})"));
                let retry = s.deaths_in_row < 3;
                if retry {
                    s.restarts += 1;
                }
                let stopped = s.run.take();
                s.notice = Some(Notice {
                    warning: true,
                    text: if retry {
                        format!(
                            "The solver stopped ({message}). It was restarted; your input is kept."
                        )
                    } else {
                        format!("The solver stopped again ({message}); not retrying this scenario. Your input is kept — change it to try again.")
                    },
                });
                if retry {
                    if let Some(r) = stopped {
                        // Solve the same draft again in the fresh worker.
                        s.rerun(r);
                    }
                }
            }
            Action::StartReproduce(quick) => {
                if s.reproduce.is_some() {
                    return self;
                }
                if matches!(s.worker, WorkerStatus::Died(_)) {
                    s.restarts += 1;
                    s.landscape = None;
                }
                let id = s.next_run;
                s.next_run += 1;
                s.reproduce = Some(Reproduction {
                    id,
                    quick,
                    progress: None,
                });
            }
            Action::CancelReproduce => {
                if s.reproduce.take().is_none() {
                    return self;
                }
                s.restarts += 1;
                s.landscape = None;
                s.notice = Some(Notice {
                    warning: false,
                    text: "Reproduction cancelled.".into(),
                });
                if let Some(r) = s.run.take() {
                    // The terminated worker was also to solve this draft: ask the fresh one.
                    s.rerun(r);
                }
            }
            Action::LandscapeRequested(key, run) => {
                s.landscape = Some(LandscapeView {
                    key,
                    run,
                    data: None,
                })
            }
            Action::Reply(reply) => {
                use crate::solver::Reply as R;
                let current = s.run.as_ref().map(|r| r.id);
                let reproducing = s.reproduce.as_ref().map(|r| r.id);
                match reply {
                    R::Ready => s.worker = WorkerStatus::Ready,
                    R::Progress {
                        run,
                        policy,
                        done,
                        total,
                    } if Some(run) == current => {
                        if let Some(r) = s.run.as_mut() {
                            r.progress = Some((policy, done, total));
                        }
                    }
                    R::Planned { run, plan } if Some(run) == current => {
                        if let Some(r) = s.run.as_mut() {
                            r.plans.push(*plan);
                        }
                    }
                    R::PolicyFailed {
                        run,
                        policy,
                        message,
                    } if Some(run) == current => {
                        if let Some(r) = s.run.as_mut() {
                            r.failures.push((policy, message));
                        }
                    }
                    R::Solved { run, ms } if Some(run) == current => {
                        if let Some(r) = s.run.take() {
                            s.solve_finished(r, ms);
                        }
                    }
                    R::Landscape { run, json } => {
                        if let Some(l) = s.landscape.as_mut().filter(|l| l.run == run) {
                            l.data = Some(
                                serde_json::from_str::<smd_core::Landscape>(&json)
                                    .map_err(|e| e.to_string())
                                    .map(Rc::new),
                            );
                        }
                    }
                    R::LandscapeFailed { run, message } => {
                        if let Some(l) = s.landscape.as_mut().filter(|l| l.run == run) {
                            l.data = Some(Err(message));
                        }
                    }
                    R::ReproduceProgress { run, done, total } if Some(run) == reproducing => {
                        if let Some(r) = s.reproduce.as_mut() {
                            r.progress = Some((done, total));
                        }
                    }
                    R::Reproduced {
                        run,
                        experiments,
                        ms,
                    } if Some(run) == reproducing => {
                        if let Some(r) = s.reproduce.take() {
                            s.reproduced = Some(Ok(Rc::new(Reproduced {
                                quick: r.quick,
                                experiments,
                                ms,
                            })));
                        }
                    }
                    R::ReproduceFailed { run, message } if Some(run) == reproducing => {
                        s.reproduce = None;
                        s.reproduced = Some(Err(format!("The reproduction failed: {message}")));
                    }
                    R::Panicked { message } => {
                        return Rc::new(s).reduce(Action::WorkerDied(message));
                    }
                    _ => return self,
                }
            }
        }
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::{generate, GenerateOptions};

    fn state(n: usize) -> Rc<State> {
        let mut sc = generate(&GenerateOptions {
            jobs: n,
            ..Default::default()
        });
        sc.params.epsilon = 0.2;
        Rc::new(State::new(Draft {
            scenario: sc,
            raw: Vec::new(),
        }))
    }

    #[test]
    fn an_invalid_edit_keeps_the_text_and_names_the_field() {
        let s = state(2);
        assert!(s.valid);
        let uid = s.uids[1];
        let key = FieldKey::job(uid, "ps_bandwidth_gbps");
        let s = s.reduce(Action::Edit(key.clone(), "0".into()));
        assert!(!s.valid);
        let e: Vec<_> = s.errors_of(&key).collect();
        assert_eq!(e.len(), 1, "{:?}", s.errors);
        assert!(e[0].message.contains("must be > 0"), "{}", e[0].message);
        let s = s.reduce(Action::Edit(key.clone(), "1x".into()));
        assert_eq!(s.text(&key), "1x");
        assert!(s.errors_of(&key).next().unwrap().message.contains("number"));
        let rev = s.revision;
        let s = s.reduce(Action::Edit(key.clone(), "12".into()));
        assert!(s.valid);
        assert_eq!(s.revision, rev + 1);
        assert_eq!(s.draft.jobs[1].ps_bandwidth_gbps, 12.0);
    }

    #[test]
    fn the_saved_draft_brings_back_what_was_typed() {
        let s = state(2);
        let key = FieldKey::job(s.uids[0], "iterations");
        let s = s.reduce(Action::Edit(key, "lots".into()));
        let d = s.to_draft();
        assert_eq!(
            d.raw,
            vec![(Some(0), "iterations".to_string(), "lots".to_string())]
        );
        let back = State::new(Draft::from_json(&d.to_json()).unwrap());
        assert_eq!(
            back.text(&FieldKey::job(back.uids[0], "iterations")),
            "lots"
        );
        assert!(!back.valid);
    }

    #[test]
    fn duplicate_ids_and_jobs_edits() {
        let s = state(2);
        let u = s.uids[0];
        let s = s.reduce(Action::DuplicateJob(u));
        assert_eq!(s.draft.jobs.len(), 3);
        assert_eq!(s.draft.jobs[1].id, format!("{}-copy", s.draft.jobs[0].id));
        let id0 = s.draft.jobs[0].id.clone();
        let k = FieldKey::job(s.uids[1], "id");
        let s = s.reduce(Action::Edit(k, id0));
        assert!(!s.valid);
        assert_eq!(s.errors.len(), 2, "{:?}", s.errors);
        let u = s.uids[1];
        let s = s.reduce(Action::DeleteJob(u));
        assert!(s.valid);
        let s = s.reduce(Action::AddJob);
        assert_eq!(s.draft.jobs.len(), 3);
        assert!(s.valid);
    }

    #[test]
    fn solve_replies_fill_results_and_stale_ones_are_ignored() {
        let s = state(2);
        let r = s.revision;
        let s = s.reduce(Action::StartSolve(r));
        let run = s.run.as_ref().unwrap().id;
        let scenario = (*s.run.as_ref().unwrap().scenario).clone();
        let mut replies = Vec::new();
        crate::solver::handle(crate::solver::Request::Solve { run, scenario }, &mut |r| {
            replies.push(r)
        });
        let mut s = s.reduce(Action::Reply(crate::solver::Reply::Solved {
            run: 999,
            ms: 0.0,
        }));
        assert!(s.run.is_some());
        for r in replies {
            s = s.reduce(Action::Reply(r));
        }
        let r = s.results.as_ref().unwrap();
        assert_eq!(r.plans.len(), 4);
        assert!(s.run.is_none());
        assert!(!s.results_stale());
    }

    #[test]
    fn reproduce_replies_fill_the_state_and_cancel_keeps_the_solve() {
        use crate::solver::{Experiment, Reply};
        let s = state(2);
        let s = s.reduce(Action::StartReproduce(true));
        let id = s.reproduce.as_ref().unwrap().id;
        assert!(s.reproduce.as_ref().unwrap().quick);
        let restarts = s.restarts;
        let s = s.reduce(Action::Reply(Reply::ReproduceProgress {
            run: id,
            done: 3,
            total: 10,
        }));
        assert_eq!(s.reproduce.as_ref().unwrap().progress, Some((3, 10)));
        let exp = Experiment {
            id: "e9".into(),
            title: "T".into(),
            claim: "C".into(),
            findings: vec!["f".into()],
            csv: "a,b\n1,2\n".into(),
            svg: "<svg/>".into(),
            failures: Vec::new(),
        };
        // A stale reply changes nothing.
        let s = s.reduce(Action::Reply(Reply::Reproduced {
            run: id + 100,
            experiments: vec![exp.clone()],
            ms: 1.0,
        }));
        assert!(s.reproduce.is_some() && s.reproduced.is_none());
        let s = s.reduce(Action::Reply(Reply::Reproduced {
            run: id,
            experiments: vec![exp.clone()],
            ms: 1.0,
        }));
        assert!(s.reproduce.is_none());
        let done = s.reproduced.clone().unwrap().unwrap();
        assert_eq!(done.experiments, vec![exp]);
        assert_eq!(s.restarts, restarts);

        // Cancel terminates the worker and re-sends the solve it was also to run.
        let r = s.revision;
        let s = s.reduce(Action::StartSolve(r));
        let s = s.reduce(Action::StartReproduce(false));
        let solve = s.run.as_ref().unwrap().id;
        let s = s.reduce(Action::CancelReproduce);
        assert!(s.reproduce.is_none());
        assert_eq!(s.restarts, restarts + 1);
        assert!(s.run.as_ref().unwrap().id > solve);
        assert!(
            s.reproduced.as_ref().unwrap().is_ok(),
            "the last results stay"
        );
    }

    #[test]
    fn a_small_reproduction_round_trips_through_the_protocol() {
        use crate::solver::Reply;
        let mut replies = Vec::new();
        let nothing = smd_reproduce::Runner::only(smd_reproduce::Scale::Quick, &[]);
        crate::solver::reproduce(7, nothing, &mut |r| replies.push(r));
        assert!(matches!(
            replies[..],
            [Reply::ReproduceFailed { run: 7, .. }]
        ));

        let one = smd_reproduce::Runner::only(smd_reproduce::Scale::Quick, &["e4-resource-share"]);
        let mut replies = Vec::new();
        crate::solver::reproduce(8, one, &mut |r| replies.push(r));
        let s = state(1).reduce(Action::StartReproduce(true));
        let id = s.reproduce.as_ref().unwrap().id;
        let mut s = s;
        for r in replies {
            // Replies travel as JSON between worker and page.
            let text = serde_json::to_string(&r).unwrap();
            let r = match serde_json::from_str::<Reply>(&text).unwrap() {
                Reply::ReproduceProgress { done, total, .. } => Reply::ReproduceProgress {
                    run: id,
                    done,
                    total,
                },
                Reply::Reproduced {
                    experiments, ms, ..
                } => Reply::Reproduced {
                    run: id,
                    experiments,
                    ms,
                },
                other => panic!("unexpected {other:?}"),
            };
            s = s.reduce(Action::Reply(r));
        }
        let done = s.reproduced.clone().unwrap().unwrap();
        assert_eq!(done.experiments.len(), 1);
        let e = &done.experiments[0];
        assert_eq!(e.id, "e4-resource-share");
        assert!(
            e.svg.starts_with("<svg") || e.svg.starts_with("<?xml"),
            "{}",
            &e.svg[..40]
        );
        assert!(e.csv.lines().count() > 1 && !e.findings.is_empty());
        assert!(e.failures.is_empty(), "{:?}", e.failures);
    }

    #[test]
    fn too_small_an_epsilon_names_the_field_and_the_hint_gives_the_limit() {
        let s = state(6);
        assert!(s.valid);
        let (floor, job) = smd_core::budget::smallest_epsilon(&s.draft).expect("a limit");
        assert_eq!(s.epsilon_floor, Some((floor, job.clone())));
        assert!(s.draft.jobs.iter().any(|j| j.id == job));
        assert!(floor < 0.2, "{floor}");

        let key = FieldKey::top("params.epsilon");
        let s = s.reduce(Action::Edit(key.clone(), format!("{}", floor / 10.0)));
        assert!(!s.valid);
        let e: Vec<_> = s.errors_of(&key).collect();
        assert_eq!(e.len(), 1, "{:?}", s.errors);
        assert!(
            e[0].message
                .contains(&format!("the smallest ε this scenario allows is {floor}")),
            "{}",
            e[0].message
        );
        assert!(s.shown_inline(e[0]));
        assert_eq!(s.epsilon_floor, Some((floor, job.clone())));
        // The limit itself is allowed.
        let s = s.reduce(Action::Edit(key.clone(), floor.to_string()));
        assert!(s.valid, "{:?}", s.errors);
        assert_eq!(s.epsilon_floor, Some((floor, job.clone())));

        // Text that does not parse and an ε out of range keep the hint: the jobs are fine.
        let s = s.reduce(Action::Edit(key.clone(), "tiny".into()));
        assert_eq!(s.epsilon_floor, Some((floor, job.clone())));
        let s = s.reduce(Action::Edit(key.clone(), "0".into()));
        assert_eq!(s.epsilon_floor, Some((floor, job.clone())));

        // A problem in a job hides it (the limit needs valid jobs) until it is fixed.
        let b = FieldKey::job(s.uids[0], "ps_bandwidth_gbps");
        let bandwidth = s.text(&b);
        let s = s.reduce(Action::Edit(b.clone(), "0".into()));
        assert_eq!(s.epsilon_floor, None);
        let s = s.reduce(Action::Edit(b.clone(), "x".into()));
        assert_eq!(s.epsilon_floor, None);
        let s = s.reduce(Action::Edit(b, bandwidth));
        assert_eq!(s.epsilon_floor, Some((floor, job.clone())));

        // It follows the jobs: fewer jobs, a limit of its own.
        let s = s.reduce(Action::Edit(key, "0.2".into()));
        let first = s.uids[0];
        let s = s.reduce(Action::DeleteJob(first));
        assert!(s.valid);
        assert_eq!(
            s.epsilon_floor,
            smd_core::budget::smallest_epsilon(&s.draft)
        );
    }

    #[test]
    fn a_slow_solve_is_called_out_and_cancel_stops_it() {
        let s = state(2);
        let r = s.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.run.as_ref().unwrap().id;
        assert!(!s.run.as_ref().unwrap().slow());
        let s = s.reduce(Action::Elapsed(id, 1));
        assert_eq!(s.run.as_ref().unwrap().elapsed_s, 1);
        assert!(!s.run.as_ref().unwrap().slow());
        // A tick of an older run changes nothing.
        let before = s.clone();
        let s = s.reduce(Action::Elapsed(id + 7, 9));
        assert!(Rc::ptr_eq(&before, &s));
        let s = s.reduce(Action::Elapsed(id, SLOW_SOLVE_S));
        assert!(s.run.as_ref().unwrap().slow());
        // Cancel stops it: the worker is replaced and the previous plans stay.
        let restarts = s.restarts;
        let s = s.reduce(Action::Cancel);
        assert!(s.run.is_none());
        assert_eq!(s.restarts, restarts + 1);
        assert!(s.notice.as_ref().unwrap().text.contains("Solve cancelled"));
        let s = s.reduce(Action::Elapsed(id, 5));
        assert!(s.run.is_none());
        // A re-run (after the worker died) starts its clock again.
        let s = s.reduce(Action::Edit(FieldKey::top("params.seed"), "5".into()));
        let r = s.revision;
        let s = s.reduce(Action::StartSolve(r));
        let id = s.run.as_ref().unwrap().id;
        let s = s.reduce(Action::Elapsed(id, 4));
        let s = s.reduce(Action::WorkerDied("boom".into()));
        assert_eq!(s.run.as_ref().unwrap().elapsed_s, 0);
    }

    #[test]
    fn generate_form_checks_its_numbers() {
        let s = state(1);
        let s = s.reduce(Action::GenerateField("jobs", "0".into()));
        let s = s.reduce(Action::Generate);
        assert!(s.generate.error.is_some());
        let s = s.reduce(Action::GenerateField("jobs", "7".into()));
        let s = s.reduce(Action::Generate);
        assert_eq!(s.draft.jobs.len(), 7);
        assert_eq!(s.draft.params.epsilon, 0.2, "parameters are kept");
    }
}
