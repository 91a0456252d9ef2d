//! # smd-fuzz — the planner under hostile input
//!
//! A seeded, structure-aware fuzzer. Input `i` of seed `s` is a generated scenario (1–6
//! jobs, random parameters) put through a few mutations — numbers pushed to extremes or to
//! other valid values, values of the wrong type, keys deleted, repeated or unknown, enums
//! misspelt, ids empty, repeated or long, layers removed or multiplied, deep nesting, huge
//! strings, the text truncated or a byte changed — so that both valid and invalid inputs
//! are frequent. Every input is checked by [`check_scenario_text`]:
//!
//! - reading and validating never panics and takes bounded time;
//! - a rejection is a parse error with a message, or field errors that each name a field
//!   (and the job, inside `jobs`), printed in bounded length;
//! - a valid scenario plans with every policy (`smd`, `esw`, `optimus`, `exact`, `global`):
//!   no error, no panic, and every plan passes `smd_check::check_plan` (integer
//!   points of Ω, demand within capacity, totals re-derived); `global` is never below the
//!   others.
//!
//! Inputs are a pure function of (seed, index), so a failure is reproduced by its index.
//! The page's own decoders (CSV import, share links) are fuzzed with the same mutations in
//! the web crate's tests, through [`mutate_text`].

use serde_json::Value;
use smd_core::model::JobModel;
use smd_core::rng::Stream;
use smd_core::{generate, plan_global, Error, GenerateOptions, Mode, Options, Policy};
use smd_core::{Plan, Scenario};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Longest a displayed rejection may be, in bytes (messages cut long user text).
pub const MAX_MESSAGE_BYTES: usize = 8_000;
/// Node limit of `global` per input (its seeds make it never below the others anyway).
const GLOBAL_NODES: u64 = 20_000;

/// What one input did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Rejected with this message (first line).
    Rejected(String),
    /// Valid; planned with every policy.
    Planned,
}

/// A violated property, with the input that shows it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Which input (seed, index) and the mutations applied.
    pub label: String,
    /// What went wrong.
    pub what: String,
    /// The input text.
    pub text: String,
}

/// One fuzz input: its text and the mutations that made it.
#[derive(Clone, Debug)]
pub struct Input {
    /// The scenario text.
    pub text: String,
    /// The mutations applied, in order.
    pub mutations: Vec<&'static str>,
}

/// Input `index` of `seed`: a generated scenario with 0–4 mutations.
pub fn input(seed: u64, index: u64) -> Input {
    let mut rng = Stream::new(seed, index);
    let jobs = rng.int(1, 6) as usize;
    let mode = if rng.unit() < 0.5 {
        Mode::Sync
    } else {
        Mode::Async
    };
    let mut s = generate(&GenerateOptions {
        jobs,
        seed: rng.int(0, 1 << 40),
        mode,
        units: [0.02, 0.1, 0.3, 1.0, 3.0][rng.int(0, 4) as usize],
    });
    // Fast parameters by default; the budget edge of ε is one of the mutations.
    s.params.epsilon = [1.0, 0.5, 0.2, 0.1, 0.05][rng.int(0, 4) as usize];
    s.params.ptas_depth = rng.int(0, 3) as u32;
    s.params.polish = rng.unit() < 0.3;
    if rng.unit() < 0.3 {
        s.params.rounding = smd_core::scenario::Rounding::BestCorner;
    }
    if rng.unit() < 0.2 {
        s.params.outer = smd_core::scenario::Outer::Exact;
    }
    // A third of the inputs run on machines (version 2): the pool's capacity cut into 1–12
    // machines, a local rate or none, and a placement policy.
    if rng.unit() < 0.33 {
        let n = rng.int(1, 12) as f64;
        let cap = s.cluster.capacity().scale(1.0 / n);
        let policy = smd_core::scenario::Placement::ALL[rng.int(0, 4) as usize];
        s.version = 2;
        s.params.placement = Some(policy);
        s.cluster = smd_core::scenario::Cluster::of_machines(
            vec![smd_core::scenario::MachineGroup {
                hourly_usd: None,
                gpu: None,
                name: "m".into(),
                count: n,
                capacity: cap,
                gpu_memory_gb: None,
                nic_gbps: (rng.unit() < 0.3).then(|| rng.uniform(5.0, 100.0)),
                local_gbps: (rng.unit() < 0.7).then(|| rng.uniform(1.0, 400.0)),
            }],
            s.cluster.instance,
        );
    }
    let mut value = serde_json::to_value(&s).expect("a scenario serialises");
    let mut mutations = Vec::new();
    let n = rng.int(0, 4);
    let mut text_mutations = Vec::new();
    for _ in 0..n {
        if rng.unit() < 0.75 {
            mutations.push(mutate_value(&mut value, &mut rng));
        } else {
            text_mutations.push(rng.int(0, u64::MAX >> 1));
        }
    }
    let mut text = if rng.unit() < 0.5 {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    }
    .expect("a value serialises");
    for k in text_mutations {
        let mut r = Stream::new(k, 7);
        mutations.push(mutate_text(&mut text, &mut r));
    }
    Input { text, mutations }
}

/// Every leaf's path (object keys and array indices) in `v`.
fn leaves(v: &Value, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                path.push(PathStep::Key(k.clone()));
                leaves(c, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                path.push(PathStep::Index(i));
                leaves(c, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at<'a>(v: &'a mut Value, path: &[PathStep]) -> Option<&'a mut Value> {
    let mut cur = v;
    for step in path {
        cur = match step {
            PathStep::Key(k) => cur.get_mut(k.as_str())?,
            PathStep::Index(i) => cur.get_mut(*i)?,
        };
    }
    Some(cur)
}

/// Numbers worth trying anywhere: limits of the contract, zero, negatives, the float edges.
const EXTREMES: [f64; 18] = [
    0.0,
    -0.0,
    -1.0,
    1.0,
    0.5,
    1e-13,
    1e-12,
    1e12,
    1e13,
    1e308,
    -1e308,
    5e-324,
    2.0,
    3.0,
    4.0,
    1e6,
    1e-6,
    18446744073709551616.0,
];

/// A uniform index below `n` (0 when `n` is 0).
fn pick(rng: &mut Stream, n: usize) -> usize {
    rng.int(0, n.max(1) as u64 - 1) as usize
}

/// Applies one structure-aware mutation to the scenario value; returns its name. Each
/// kind draws from `rng` in a fixed order: the inputs are a function of seed and index.
fn mutate_value(v: &mut Value, rng: &mut Stream) -> &'static str {
    let mut paths = Vec::new();
    leaves(v, &mut Vec::new(), &mut paths);
    let path = paths[pick(rng, paths.len())].clone();
    match rng.int(0, 14) {
        0..=3 => another_number(v, &path, rng),
        4 | 5 => {
            if let Some(x) = at(v, &path) {
                *x = serde_json::json!(EXTREMES[pick(rng, EXTREMES.len())]);
            }
            "number: an extreme"
        }
        6 => another_type(v, &path, rng),
        7 => delete_key(v, &path, rng),
        8 => {
            let parent = &path[..path.len().saturating_sub(1)];
            if let Some(m) = at(v, parent).and_then(Value::as_object_mut) {
                m.insert("unexpected_field".into(), serde_json::json!(1));
            }
            "key: unknown added"
        }
        9 => another_word(v, &path, rng),
        10 => odd_id(v, rng),
        11 => odd_layers(v, rng),
        12 => {
            // ε near or past the work budget.
            v["params"]["epsilon"] =
                serde_json::json!([1e-3, 3e-4, 1e-5, 1e-9, 1e-300][pick(rng, 5)]);
            "epsilon: tiny"
        }
        13 => online_fields(v, rng),
        _ => huge_region(v, rng),
    }
}

/// A valid-looking value in a wide range at a number leaf: exercises the planner, not the
/// reader.
fn another_number(v: &mut Value, path: &[PathStep], rng: &mut Stream) -> &'static str {
    if let Some(x) = at(v, path) {
        if x.is_number() {
            let mag = 10f64.powf(rng.uniform(-3.0, 4.0));
            *x = serde_json::json!((mag * 1000.0).round() / 1000.0);
            return "number: another value";
        }
    }
    "number: none at the leaf"
}

/// The leaf replaced by a value of another type.
fn another_type(v: &mut Value, path: &[PathStep], rng: &mut Stream) -> &'static str {
    let replacement = match rng.int(0, 5) {
        0 => Value::Null,
        1 => Value::Bool(true),
        2 => Value::String("x".into()),
        3 => serde_json::json!([1, 2]),
        4 => serde_json::json!({}),
        _ => Value::String(String::new()),
    };
    if let Some(x) = at(v, path) {
        *x = replacement;
    }
    "type: a value of another type"
}

/// A key deleted: the leaf's, or its parent's.
fn delete_key(v: &mut Value, path: &[PathStep], rng: &mut Stream) -> &'static str {
    let cut = path.len().saturating_sub(rng.int(1, 2) as usize).max(1);
    let (parent, last) = path[..cut].split_at(cut - 1);
    if let (Some(obj), PathStep::Key(k)) = (at(v, parent), &last[0]) {
        if let Some(m) = obj.as_object_mut() {
            m.remove(k);
        }
    }
    "key: deleted"
}

/// A string leaf replaced by another of the scenario's words (or a near miss).
fn another_word(v: &mut Value, path: &[PathStep], rng: &mut Stream) -> &'static str {
    let word = [
        "sync",
        "async",
        "wfbp",
        "pipelined",
        "paper",
        "exact",
        "SYNC",
        "",
        "ptas ",
    ];
    if let Some(x) = at(v, path) {
        if x.is_string() {
            *x = Value::String(word[pick(rng, word.len())].into());
        }
    }
    "enum: another word"
}

/// A job's id empty, repeated, long or blank.
fn odd_id(v: &mut Value, rng: &mut Stream) -> &'static str {
    let jobs = v["jobs"].as_array_mut();
    if let Some(jobs) = jobs {
        if !jobs.is_empty() {
            let i = pick(rng, jobs.len());
            let id = match rng.int(0, 3) {
                0 => String::new(),
                1 => "job-001".into(),
                2 => "é".repeat(rng.int(150, 400) as usize),
                _ => " ".into(),
            };
            jobs[i]["id"] = Value::String(id);
        }
    }
    "id: empty, repeated, long or blank"
}

/// A job's layers: none, many, or one of zero time.
fn odd_layers(v: &mut Value, rng: &mut Stream) -> &'static str {
    if let Some(jobs) = v["jobs"].as_array_mut() {
        if !jobs.is_empty() {
            let i = pick(rng, jobs.len());
            let layers = jobs[i]["layers"].clone();
            jobs[i]["layers"] = match (rng.int(0, 2), layers.as_array()) {
                (0, _) => serde_json::json!([]),
                (1, Some(ls)) if !ls.is_empty() => {
                    Value::Array((0..300).map(|k| ls[k % ls.len()].clone()).collect())
                }
                _ => {
                    serde_json::json!([{ "forward_ms": 0, "backward_ms": 0, "comm_ms": 0 }])
                }
            };
        }
    }
    "layers: none, many or zero"
}

/// Version 2's online fields, valid or not, in a file of either version, and the
/// simulation's parameters.
fn online_fields(v: &mut Value, rng: &mut Stream) -> &'static str {
    v["version"] = serde_json::json!(rng.int(1, 2));
    if let Some(jobs) = v["jobs"].as_array_mut() {
        if !jobs.is_empty() {
            let i = pick(rng, jobs.len());
            let field = ["arrival_s", "requested_workers", "requested_ps"][pick(rng, 3)];
            jobs[i][field] = serde_json::json!([0.0, 107.0, -1.0, 2.5, 64.0, 1e300][pick(rng, 6)]);
        }
    }
    let field = ["interval_s", "restart_s", "horizon_s"][pick(rng, 3)];
    v["params"][field] =
        serde_json::json!([0.0, 0.5, 60.0, 600.0, 4000.0, -3.0, 1e300][pick(rng, 7)]);
    "version 2: online fields"
}

/// A huge region: cheap workers and a large limit.
fn huge_region(v: &mut Value, rng: &mut Stream) -> &'static str {
    if let Some(jobs) = v["jobs"].as_array_mut() {
        if !jobs.is_empty() {
            let i = pick(rng, jobs.len());
            jobs[i]["worker"] =
                serde_json::json!({"gpu": 1, "vcpu": 1, "memory_gb": 1, "storage_gb": 1});
            jobs[i]["limit_instances"] = serde_json::json!([10, 1000, 20000][pick(rng, 3)]);
        }
    }
    "region: huge"
}

/// Applies one text-level mutation (repeated key, truncation, a changed byte, deep
/// nesting, a huge string, an out-of-range number); returns its name. Also used on the
/// page's CSV and share-link texts.
pub fn mutate_text(text: &mut String, rng: &mut Stream) -> &'static str {
    let pos = |rng: &mut Stream, t: &str| {
        let mut p = rng.int(0, t.len() as u64) as usize;
        while !t.is_char_boundary(p) {
            p -= 1;
        }
        p
    };
    match rng.int(0, 6) {
        0 => {
            // Repeat the first key after a random point: `"k": v, "k": v`.
            let p = pos(rng, text);
            if let Some(q) = text[p..].find("\": ").or_else(|| text[p..].find("\":")) {
                let key_end = p + q + 1;
                if let Some(start) = text[..key_end - 1].rfind('"') {
                    let key = text[start..key_end].to_owned();
                    text.insert_str(start, &format!("{key}: 0, "));
                }
            }
            "text: repeated key"
        }
        1 => {
            let p = pos(rng, text);
            text.truncate(p);
            "text: truncated"
        }
        2 => {
            let p = pos(rng, text);
            let c =
                [",", "]", "}", "\"", "\\", "\u{0}", "é", "9", "-", "e"][rng.int(0, 9) as usize];
            text.insert_str(p, c);
            "text: a character inserted"
        }
        3 => {
            let depth = [40usize, 5_000, 200_000][rng.int(0, 2) as usize];
            if let Some(q) = text.find(": ") {
                text.insert_str(
                    q + 2,
                    &format!("{}{}, \"deep\": ", "[".repeat(depth), "]".repeat(depth)),
                );
            }
            "text: deep nesting"
        }
        4 => {
            if let Some(q) = text.find("\"sync\"").or_else(|| text.find("\"async\"")) {
                text.insert_str(q + 1, &"z".repeat(1 << 20));
            }
            "text: a huge string"
        }
        5 => {
            if let Some(q) = text.find(": ") {
                text.insert_str(q + 2, "1e400, \"big\": ");
            }
            "text: number out of range"
        }
        _ => {
            let p = pos(rng, text);
            if let Some(c) = text[p..].chars().next() {
                let r = if c.is_ascii_digit() { "7" } else { "{" };
                text.replace_range(p..p + c.len_utf8(), r);
            }
            "text: a character replaced"
        }
    }
}

/// Runs `f`, turning a panic into an error message.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        format!("{what} panicked: {msg}")
    })
}

/// The properties of module docs for one scenario text; `Err` names the one violated.
pub fn check_scenario_text(text: &str) -> Result<Outcome, String> {
    let parsed = guarded("reading", || Scenario::from_json(text))?;
    match parsed {
        Err(e) => {
            check_rejection(&e)?;
            Ok(Outcome::Rejected(
                e.to_string().lines().next().unwrap_or("").to_owned(),
            ))
        }
        Ok(s) => {
            check_policies(&s)?;
            Ok(Outcome::Planned)
        }
    }
}

/// A rejection names a field (and job inside `jobs`) and is printed in bounded length.
pub fn check_rejection(e: &Error) -> Result<(), String> {
    let shown = e.to_string();
    if shown.len() > MAX_MESSAGE_BYTES {
        return Err(format!("a {}-byte message", shown.len()));
    }
    match e {
        Error::Parse(m) if m.trim().is_empty() => Err("a parse error without a message".into()),
        Error::Parse(_) => Ok(()),
        Error::Invalid(errs) if errs.is_empty() => Err("an empty list of field errors".into()),
        Error::Invalid(errs) => {
            for f in errs {
                if f.field.trim().is_empty() || f.message.trim().is_empty() {
                    return Err(format!("a field error without its field or message: {f:?}"));
                }
                if f.job.as_deref().is_some_and(|j| j.is_empty()) {
                    return Err(format!("a field error naming an empty job: {f:?}"));
                }
            }
            Ok(())
        }
        Error::Solver(m) => Err(format!("validation gave a solver failure: {m}")),
    }
}

/// Every policy plans a valid scenario, and every plan passes the invariant checks.
pub fn check_policies(s: &Scenario) -> Result<(), String> {
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let check = |p: &Plan| -> Result<(), String> {
        let errs = smd_check::check_plan(s, &models, p);
        if errs.is_empty() {
            Ok(())
        } else {
            Err(format!("policy {}: {}", p.policy, errs.join("; ")))
        }
    };
    let mut best: f64 = 0.0;
    for policy in [
        Policy::Smd,
        Policy::SmdLocality,
        Policy::Esw,
        Policy::Optimus,
        Policy::Exact,
    ] {
        // On machines the pipeline places the admitted jobs (a pool plans as plan_with).
        let p = guarded(policy.name(), || {
            smd_place::plan_placed(s, policy, &mut Options::default())
        })?
        .map_err(|e| format!("policy {}: a valid scenario failed: {e}", policy.name()))?;
        check(&p)?;
        best = best.max(p.total_utility);
    }
    let g = guarded("global", || {
        plan_global(s, &mut Options::default(), GLOBAL_NODES)
    })?
    .map_err(|e| format!("policy global: a valid scenario failed: {e}"))?;
    check(&g)?;
    // On machines the others' utilities include their placement's ρ, which global (planned
    // on the pool) does not see: the bound holds for pools only.
    // Global counts plans within 1e-11·max(L, 1) as equal (an absolute floor: utilities of
    // 1e-16 are rounding noise), so the comparison has the same floor.
    if !s.cluster.has_machines() && g.total_utility < best - 1e-9 * best.max(1.0) {
        return Err(format!(
            "global {} below another policy's {best}",
            g.total_utility
        ));
    }
    check_sharing(s)?;
    check_simulation(s)
}

/// With GPU sharing on (a memory profile given to every one-GPU job without one), smd and
/// optimus plan, and their plans pass the invariant checks, shared GPUs included.
fn check_sharing(s: &Scenario) -> Result<(), String> {
    let mut s = s.clone();
    s.version = 2;
    if s.params.gpu_sharing.is_none() {
        s.params.gpu_sharing = Some(smd_core::scenario::GpuSharing::Heuristic);
    }
    for (i, j) in s.jobs.iter_mut().enumerate() {
        if j.worker.gpu == 1.0 && j.gpu_mem_mean_gb.is_none() {
            j.gpu_mem_mean_gb = Some(1.0 + 3.0 * (i % 5) as f64);
            j.gpu_mem_sd_gb = Some(0.5 * (i % 3) as f64);
            j.gpu_util = Some(0.1 + 0.2 * (i % 4) as f64);
        }
    }
    if s.validate().is_err() {
        return Ok(());
    }
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    for policy in [Policy::Smd, Policy::Optimus] {
        let p = guarded(policy.name(), || {
            smd_place::plan_placed(&s, policy, &mut Options::default())
        })?
        .map_err(|e| format!("shared {policy}: a valid scenario failed: {e}"))?;
        let errs = smd_check::check_plan(&s, &models, &p);
        if !errs.is_empty() {
            return Err(format!("shared {policy}: {}", errs.join("; ")));
        }
    }
    Ok(())
}

/// The cheap policies over time run a valid scenario to the end, within the bound. (The
/// re-planning ones, `smd`, `optimus` and `locality`, cost a plan per slot; the simulation's
/// own tests check them on random traces.)
fn check_simulation(s: &Scenario) -> Result<(), String> {
    // Time is bounded: at most 200 slots of the scenario's length.
    let mut s = s.clone();
    let delta = s.params.interval_s.unwrap_or(600.0);
    s.params.horizon_s = Some(
        s.params
            .horizon_s
            .unwrap_or(f64::INFINITY)
            .min(200.0 * delta),
    );
    s.version = 2;
    for policy in [smd_sim::SimPolicy::Fifo, smd_sim::SimPolicy::Oasis] {
        let run = guarded(policy.name(), || {
            smd_sim::simulate(&s, policy, &mut smd_sim::Options::default())
        })?
        .map_err(|e| format!("simulation {policy}: a valid scenario failed: {e}"))?;
        let m = &run.metrics;
        if m.total_utility > m.bound * (1.0 + 1e-9) + 1e-12 || m.total_utility.is_nan() {
            return Err(format!(
                "simulation {policy}: utility {} above the bound {}",
                m.total_utility, m.bound
            ));
        }
        if run.jobs.len() != s.jobs.len() {
            return Err(format!("simulation {policy}: jobs lost"));
        }
    }
    Ok(())
}

/// Totals of a fuzz run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Inputs run.
    pub inputs: u64,
    /// Of which valid (planned with every policy).
    pub planned: u64,
    /// Of which rejected with a named message.
    pub rejected: u64,
    /// Slowest input, ms, and its index.
    pub slowest_ms: (f64, u64),
    /// Violated properties (the run stops at the first few).
    pub failures: Vec<Failure>,
}

/// Runs inputs `first..` of `seed` until `more(inputs run)` says stop or a failure is found;
/// `clock` gives ms and `time_limit_ms` bounds each input.
pub fn run(
    seed: u64,
    first: u64,
    clock: &dyn Fn() -> f64,
    time_limit_ms: f64,
    more: &mut dyn FnMut(&Report) -> bool,
) -> Report {
    let mut report = Report::default();
    let mut i = first;
    while more(&report) {
        let inp = input(seed, i);
        let t0 = clock();
        let result = check_scenario_text(&inp.text);
        let ms = clock() - t0;
        report.inputs += 1;
        if ms > report.slowest_ms.0 {
            report.slowest_ms = (ms, i);
        }
        let label = format!("seed {seed} input {i} [{}]", inp.mutations.join(", "));
        let fail = |what: String| Failure {
            label: label.clone(),
            what,
            text: inp.text.clone(),
        };
        match result {
            Ok(Outcome::Planned) => report.planned += 1,
            Ok(Outcome::Rejected(_)) => report.rejected += 1,
            Err(what) => report.failures.push(fail(what)),
        }
        if ms > time_limit_ms {
            report.failures.push(fail(format!(
                "took {ms:.0} ms, over the limit of {time_limit_ms:.0} ms"
            )));
        }
        if !report.failures.is_empty() {
            break;
        }
        i += 1;
    }
    report
}
