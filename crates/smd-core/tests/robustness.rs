//! Robustness: random and adversarial scenarios, built as Rust structs (zeros, 1e300, NaN,
//! infinities, one layer, (1, 1) not fitting, no jobs, tasks demanding nothing, limit 1e12,
//! ε = 1, depth 3) and as JSON text (a valid file with one field deleted, renamed or given a
//! string, a negative number, null, 0 or 1e300). `Scenario::from_json`, `validate` and
//! `plan` must never panic: each answers a clear error (SCENARIO.md: the job id and the
//! field) or a feasible plan (docs/MODEL.md §5, §8).

mod common;

use common::{arr, demand, fits, in_omega};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use serde_json::Value;
use smd_core::model::JobModel;
use smd_core::plan::Plan;
use smd_core::scenario::{Outer, Overlap, Resources, Rounding};
use smd_core::{generate, plan, Error, GenerateOptions, Mode, Policy, Scenario};

const R: usize = 4;

/// Fixed seeds keep the suite reproducible; set `PROPTEST_RNG_SEED` to explore others.
fn config(cases: u32, seed: u64) -> ProptestConfig {
    let base = ProptestConfig::default();
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        base.rng_seed
    } else {
        RngSeed::Fixed(seed)
    };
    ProptestConfig {
        cases,
        rng_seed,
        failure_persistence: None,
        ..base
    }
}

// ---------------------------------------------------------------------------------------
// Independent feasibility check of a plan (the raw rule of Ω and the capacity).

fn same(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn check_feasible(s: &Scenario, pl: &Plan, ctx: &str) {
    assert_eq!(pl.jobs.len(), s.jobs.len(), "{ctx}");
    let cap = arr(&s.cluster.unit).map(|v| v * s.cluster.units);
    let (mut used, mut requested, mut total, mut admitted) = ([0.0; R], [0.0; R], 0.0, 0);
    for (job, line) in s.jobs.iter().zip(&pl.jobs) {
        assert_eq!(line.id, job.id, "{ctx}: order");
        if !in_omega(s, job, 1, 1) {
            assert!(!line.admitted, "{ctx} {}: infeasible job admitted", job.id);
            let reason = line
                .reason
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(
                reason.starts_with("infeasible"),
                "{ctx} {}: reason {reason:?}",
                job.id
            );
            continue;
        }
        let (Some(w), Some(p)) = (line.workers, line.ps) else {
            panic!("{ctx} {}: feasible job without (w, p)", job.id)
        };
        let m = JobModel::of(job, &s.cluster, s.params.time_unit_s);
        assert!(
            m.omega.contains(w as f64, p as f64),
            "{ctx} {}: ({w}, {p}) ∉ Ω",
            job.id
        );
        assert!(
            in_omega(s, job, w, p),
            "{ctx} {}: ({w}, {p}) breaks O^w·w + O^p·p ≤ L",
            job.id
        );
        assert!(
            line.utility >= 0.0 && line.utility.is_finite(),
            "{ctx} {}: utility {}",
            job.id,
            line.utility
        );
        assert!(
            line.completion_time_s.is_some_and(|t| t > 0.0),
            "{ctx} {}: T {:?}",
            job.id,
            line.completion_time_s
        );
        if line.admitted {
            admitted += 1;
            total += line.utility;
            let d = demand(job, w, p);
            for r in 0..R {
                used[r] += d[r];
                requested[r] += s.cluster.instance.to_array()[r] * job.limit_instances;
            }
        } else {
            assert!(
                line.reason
                    .as_ref()
                    .is_some_and(|r| r.to_string().starts_with("not selected")),
                "{ctx} {}",
                job.id
            );
        }
    }
    assert_eq!(pl.admitted, admitted, "{ctx}");
    assert!(
        same(pl.total_utility, total),
        "{ctx}: total {} vs {total}",
        pl.total_utility
    );
    let (u, q) = (arr(&pl.resources.used), arr(&pl.resources.requested));
    for r in 0..R {
        assert!(
            fits(used[r], cap[r]),
            "{ctx}: resource {r}: {} > {}",
            used[r],
            cap[r]
        );
        assert!(
            same(u[r], used[r]),
            "{ctx}: used[{r}] {} vs {}",
            u[r],
            used[r]
        );
        assert!(
            same(q[r], requested[r]),
            "{ctx}: requested[{r}] {} vs {}",
            q[r],
            requested[r]
        );
    }
}

/// Every policy on a valid scenario: a feasible plan or a clear error naming a job.
fn plan_all(s: &Scenario, ctx: &str) {
    for policy in Policy::ALL {
        let mut s = s.clone();
        if policy == Policy::Smd {
            s.params.epsilon = s.params.epsilon.max(0.3);
        }
        let ctx = format!("{ctx} {policy}");
        match plan(&s, policy) {
            Ok(pl) => check_feasible(&s, &pl, &ctx),
            Err(Error::Invalid(errs)) => {
                assert!(!errs.is_empty(), "{ctx}: empty error list");
                for e in &errs {
                    let id = e
                        .job
                        .as_deref()
                        .unwrap_or_else(|| panic!("{ctx}: {e} names no job"));
                    assert!(
                        s.jobs.iter().any(|j| j.id == id),
                        "{ctx}: {e} names an unknown job"
                    );
                    assert!(!e.field.is_empty() && !e.message.is_empty(), "{ctx}: {e:?}");
                }
            }
            Err(e) => panic!("{ctx}: a valid scenario gave {e:?}"),
        }
    }
}

/// An `Error` from validation or parsing: not empty, every entry with a field and a text.
fn check_error(e: &Error, ctx: &str) {
    match e {
        Error::Parse(m) => assert!(!m.trim().is_empty(), "{ctx}: empty parse error"),
        Error::Invalid(errs) => {
            assert!(!errs.is_empty(), "{ctx}: empty error list");
            for fe in errs {
                assert!(
                    !fe.field.is_empty() && !fe.message.is_empty(),
                    "{ctx}: {fe:?}"
                );
            }
        }
        Error::Solver(m) => panic!("{ctx}: solver error while validating: {m}"),
    }
}

// ---------------------------------------------------------------------------------------
// Struct-built adversarial scenarios.

const VALUES: [f64; 20] = [
    0.0,
    -1.0,
    1e300,
    -1e300,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e12,
    1e-300,
    0.5,
    1.0,
    2.0,
    1e4,
    f64::MAX,
    f64::MIN_POSITIVE,
    1e-9,
    3.0,
    100.0,
    -0.0,
    0.999,
];

const TARGETS: usize = 44;

/// Applies mutation `target` with value `v` to job `j` (or to the scenario).
fn mutate(s: &mut Scenario, target: usize, j: usize, v: f64, vi: usize) {
    let n = s.jobs.len();
    let set_res = |r: &mut Resources, k: usize, v: f64| match k {
        0 => r.gpu = v,
        1 => r.vcpu = v,
        2 => r.memory_gb = v,
        _ => r.storage_gb = v,
    };
    if target < 30 {
        if n == 0 {
            return;
        }
        let job = &mut s.jobs[j % n];
        match target {
            0 => job.iterations = v,
            1 => job.model_size_mb = v,
            2 => job.minibatch = v,
            3 => job.global_batch = v,
            4 => job.ps_bandwidth_gbps = v,
            5 => job.worker_overhead_s = v,
            6 => job.ps_overhead_s = v,
            7 => job.async_comm_factor = v,
            8 => job.limit_instances = v,
            9 => job.utility.gamma1 = v,
            10 => job.utility.gamma2 = v,
            11 => job.utility.gamma3 = v,
            12..=15 => set_res(&mut job.worker, target - 12, v),
            16..=19 => set_res(&mut job.ps, target - 16, v),
            20 => {
                if let Some(l) = job.layers.first_mut() {
                    l.forward_ms = v;
                }
            }
            21 => {
                if let Some(l) = job.layers.first_mut() {
                    l.backward_ms = v;
                }
            }
            22 => {
                if let Some(l) = job.layers.first_mut() {
                    l.comm_ms = v;
                }
            }
            23 => job.layers.truncate(1),
            24 => job.layers.clear(),
            25 => job.worker = Resources::default(),
            26 => job.ps = Resources::default(),
            27 => {
                for l in &mut job.layers {
                    *l = smd_core::scenario::Layer {
                        forward_ms: v,
                        backward_ms: v,
                        comm_ms: v,
                    };
                }
            }
            28 => {
                job.mode = if job.mode == Mode::Sync {
                    Mode::Async
                } else {
                    Mode::Sync
                }
            }
            _ => job.overlap = [Overlap::Sequential, Overlap::Wfbp, Overlap::Pipelined][vi % 3],
        }
        if job.layers.is_empty() && target != 24 {
            job.layers.push(smd_core::scenario::Layer {
                forward_ms: 1.0,
                backward_ms: 1.0,
                comm_ms: 1.0,
            });
        }
        return;
    }
    match target {
        30 => s.cluster.units = v,
        31 => set_res(&mut s.cluster.unit, vi % 4, v),
        32 => set_res(&mut s.cluster.instance, vi % 4, v),
        33 => s.params.epsilon = v,
        34 => s.params.m_delta = v,
        35 => s.params.time_unit_s = Some(v),
        36 => s.params.ptas_depth = (vi % 5) as u32,
        37 => s.params.max_rounding_attempts = (vi % 3) as u32,
        38 => s.params.outer = Outer::Exact,
        39 => s.params.rounding = Rounding::BestCorner,
        40 => s.params.polish = true,
        41 if n >= 2 => s.jobs[j % n].id = s.jobs[(j + 1) % n].id.clone(),
        42 if n >= 1 => s.jobs[j % n].id = "  ".into(),
        _ => s.version = vi as u32 % 3,
    }
}

fn struct_scenario() -> impl Strategy<Value = (Scenario, String)> {
    (
        0usize..=4,
        0u64..1000,
        any::<bool>(),
        prop::sample::select(vec![0.0, 0.2, 1.0, 3.0, 1e12]),
        prop::collection::vec((0..TARGETS, 0usize..4, 0..VALUES.len()), 0..=3),
    )
        .prop_map(|(n, seed, async_mode, units, muts)| {
            let mode = if async_mode { Mode::Async } else { Mode::Sync };
            let mut s = generate(&GenerateOptions {
                jobs: n,
                seed,
                mode,
                units,
            });
            s.params.epsilon = 0.5;
            for job in &mut s.jobs {
                job.layers.truncate(4);
            }
            for &(t, j, vi) in &muts {
                mutate(&mut s, t, j, VALUES[vi], vi);
            }
            let label = format!("n={n} seed={seed} {mode:?} units={units} mutations={muts:?}");
            (s, label)
        })
}

proptest! {
    #![proptest_config(config(128, 0x5eed_0001))]

    #[test]
    fn struct_scenarios_plan_or_explain((s, label) in struct_scenario()) {
        match s.validate() {
            Ok(()) => plan_all(&s, &label),
            Err(e) => {
                check_error(&e, &label);
                // plan() refuses the same scenario with the same errors.
                let pe = plan(&s, Policy::Esw).expect_err("plan accepted an invalid scenario");
                prop_assert_eq!(&pe, &e);
                if let Error::Invalid(errs) = &e {
                    for fe in errs {
                        match &fe.job {
                            Some(id) => prop_assert!(
                                s.jobs.iter().any(|j| &j.id == id) || id.starts_with('#'),
                                "{}: {} names no job of the scenario", label, fe
                            ),
                            None => prop_assert!(
                                ["cluster", "params", "version"].iter().any(|p| fe.field.starts_with(p)),
                                "{}: top-level error {} names no scenario field", label, fe
                            ),
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// JSON text mutations.

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Paths (ending in an object key) to every field of `v`.
fn key_paths(v: &Value, prefix: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                prefix.push(Seg::Key(k.clone()));
                out.push(prefix.clone());
                key_paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                prefix.push(Seg::Index(i));
                key_paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn parent_mut<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut serde_json::Map<String, Value> {
    let mut cur = v;
    for seg in &path[..path.len() - 1] {
        cur = match seg {
            Seg::Key(k) => cur.get_mut(k.as_str()).expect("path exists"),
            Seg::Index(i) => cur.get_mut(*i).expect("path exists"),
        };
    }
    cur.as_object_mut().expect("paths end in object keys")
}

#[derive(Clone, Copy, Debug)]
enum Edit {
    Delete,
    Rename,
    Text,
    Negative,
    Null,
    Zero,
    Huge,
}

const EDITS: [Edit; 7] = [
    Edit::Delete,
    Edit::Rename,
    Edit::Text,
    Edit::Negative,
    Edit::Null,
    Edit::Zero,
    Edit::Huge,
];

fn base_json(n: usize, seed: u64, async_mode: bool) -> (Scenario, Value) {
    let mode = if async_mode { Mode::Async } else { Mode::Sync };
    let mut s = generate(&GenerateOptions {
        jobs: n,
        seed,
        mode,
        units: 0.2,
    });
    s.params.epsilon = 0.5;
    for job in &mut s.jobs {
        job.layers.truncate(2);
    }
    let v = serde_json::from_str(&s.to_json()).expect("own JSON parses");
    (s, v)
}

proptest! {
    #![proptest_config(config(128, 0x5eed_0002))]

    #[test]
    fn json_mutations_parse_or_explain(
        n in 1usize..=3,
        seed in 0u64..1000,
        async_mode in any::<bool>(),
        pick in any::<prop::sample::Index>(),
        edit in prop::sample::select(EDITS.to_vec()),
    ) {
        let (s, mut v) = base_json(n, seed, async_mode);
        let mut paths = Vec::new();
        key_paths(&v, &mut Vec::new(), &mut paths);
        let path = pick.get(&paths).clone();
        let Some(Seg::Key(key)) = path.last().cloned() else { unreachable!() };
        let parent = parent_mut(&mut v, &path);
        match edit {
            Edit::Delete => { parent.remove(&key); }
            Edit::Rename => {
                let old = parent.remove(&key).expect("key exists");
                parent.insert(format!("{key}x"), old);
            }
            Edit::Text => { parent.insert(key.clone(), Value::String("abc".into())); }
            Edit::Negative => {
                let x = parent[&key].as_f64().map_or(-1.0, |x| -x - 1.0);
                parent.insert(key.clone(), serde_json::json!(x));
            }
            Edit::Null => { parent.insert(key.clone(), Value::Null); }
            Edit::Zero => { parent.insert(key.clone(), serde_json::json!(0)); }
            Edit::Huge => { parent.insert(key.clone(), serde_json::json!(1e300)); }
        }
        let text = serde_json::to_string_pretty(&v).expect("serialises");
        let ctx = format!("{edit:?} at {path:?}");
        match Scenario::from_json(&text) {
            Ok(parsed) => plan_all(&parsed, &ctx),
            Err(e) => {
                check_error(&e, &ctx);
                let shown = e.to_string();
                // The message names the field that was touched …
                prop_assert!(shown.contains(key.as_str()), "{}: {:?} does not name {}", ctx, shown, key);
                // … and, inside a job, the job (by id, or by position if the id itself broke).
                if let (Some(Seg::Key(top)), Some(Seg::Index(i))) = (path.first(), path.get(1)) {
                    if top == "jobs" && path.len() > 2 {
                        let by_id = format!("job {:?}", s.jobs[*i].id);
                        let by_pos = format!("job \"#{}\"", i + 1);
                        prop_assert!(
                            shown.contains(&by_id) || (key == "id" && shown.contains(&by_pos)),
                            "{}: {:?} does not name the job", ctx, shown
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Explicit cases.

/// The example scenario of SCENARIO.md.
const EXAMPLE: &str = r#"{
  "version": 1,
  "cluster": {
    "units": 1.0,
    "unit":     { "gpu": 600, "vcpu": 3400, "memory_gb": 1400, "storage_gb": 1200 },
    "instance": { "gpu": 4,   "vcpu": 36,   "memory_gb": 60,   "storage_gb": 100 }
  },
  "params": {
    "epsilon": 0.01,
    "ptas_depth": 2,
    "m_delta": 1.0,
    "max_rounding_attempts": 1000,
    "seed": 1,
    "time_unit_s": null,
    "polish": false,
    "rounding": "paper",
    "outer": "ptas"
  },
  "jobs": [
    {
      "id": "resnet-a",
      "mode": "sync",
      "overlap": "sequential",
      "iterations": 120,
      "model_size_mb": 300,
      "minibatch": 32,
      "global_batch": 640,
      "layers": [ { "forward_ms": 12.0, "backward_ms": 20.0, "comm_ms": 150.0 } ],
      "ps_bandwidth_gbps": 10,
      "worker_overhead_s": 3.5,
      "ps_overhead_s": 0.005,
      "async_comm_factor": 0.5,
      "worker": { "gpu": 2, "vcpu": 4, "memory_gb": 16, "storage_gb": 8 },
      "ps":     { "gpu": 0, "vcpu": 4, "memory_gb": 16, "storage_gb": 8 },
      "limit_instances": 10,
      "utility": { "gamma1": 50, "gamma2": 5, "gamma3": 8 }
    }
  ]
}"#;

fn invalid(text: &str) -> Vec<smd_core::FieldError> {
    match Scenario::from_json(text) {
        Err(Error::Invalid(errs)) => errs,
        other => panic!("expected Error::Invalid, got {other:?}"),
    }
}

#[test]
fn the_example_parses_and_plans() {
    let mut s = Scenario::from_json(EXAMPLE).unwrap();
    assert_eq!(s.jobs[0].id, "resnet-a");
    s.params.epsilon = 0.1;
    for policy in Policy::ALL {
        let pl = plan(&s, policy).unwrap();
        check_feasible(&s, &pl, policy.name());
        // ESW's (18, 18) is so slow that μ underflows to 0: such a job is not worth admitting.
        let expected = usize::from(policy != Policy::Esw);
        assert_eq!(pl.admitted, expected, "{policy}: {:?}", pl.jobs[0]);
    }
}

#[test]
fn zero_bandwidth_message_is_exact() {
    let errs = invalid(&EXAMPLE.replace(r#""ps_bandwidth_gbps": 10"#, r#""ps_bandwidth_gbps": 0"#));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].job.as_deref(), Some("resnet-a"));
    assert_eq!(errs[0].field, "ps_bandwidth_gbps");
    assert_eq!(
        errs[0].to_string(),
        r#"job "resnet-a": ps_bandwidth_gbps must be > 0 (got 0)"#
    );
    assert_eq!(
        Error::Invalid(errs).to_string(),
        r#"job "resnet-a": ps_bandwidth_gbps must be > 0 (got 0)"#
    );
}

#[test]
fn unknown_job_field_names_job_and_field() {
    let errs = invalid(&EXAMPLE.replace(
        r#""iterations": 120"#,
        r#""iterations": 120, "iteratons": 5"#,
    ));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].job.as_deref(), Some("resnet-a"));
    let shown = errs[0].to_string();
    assert!(shown.contains("iteratons"), "{shown}");
    // Typos in nested objects name the job too.
    let errs = invalid(&EXAMPLE.replace(r#""gamma3": 8"#, r#""gamma3": 8, "gama4": 1"#));
    assert_eq!(errs[0].job.as_deref(), Some("resnet-a"));
    assert!(errs[0].to_string().contains("gama4"), "{}", errs[0]);
    // And outside the jobs, the field's path.
    let errs = invalid(&EXAMPLE.replace(r#""seed": 1,"#, r#""seed": 1, "sead": 2,"#));
    assert_eq!(errs[0].job, None);
    assert!(errs[0].to_string().contains("sead"), "{}", errs[0]);
}

#[test]
fn every_violation_is_listed() {
    let text = EXAMPLE
        .replace(r#""ps_bandwidth_gbps": 10"#, r#""ps_bandwidth_gbps": 0"#)
        .replace(r#""iterations": 120"#, r#""iterations": -3"#);
    let errs = invalid(&text);
    assert_eq!(errs.len(), 2, "{errs:?}");
    let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
    assert!(
        fields.contains(&"ps_bandwidth_gbps") && fields.contains(&"iterations"),
        "{fields:?}"
    );
    assert!(errs.iter().all(|e| e.job.as_deref() == Some("resnet-a")));
    assert!(
        errs.iter()
            .any(|e| e.to_string() == r#"job "resnet-a": iterations must be > 0 (got -3)"#),
        "{errs:?}"
    );
}

#[test]
fn wrong_type_names_job_and_field() {
    let errs = invalid(&EXAMPLE.replace(r#""minibatch": 32"#, r#""minibatch": "32""#));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].job.as_deref(), Some("resnet-a"));
    assert_eq!(errs[0].field, "minibatch");
}

#[test]
fn not_json_is_a_parse_error() {
    for text in ["", "not json", "{", "null", "3", r#"{"version": 1}"#] {
        match Scenario::from_json(text) {
            Err(Error::Parse(m)) => assert!(!m.is_empty(), "{text:?}"),
            other => panic!("{text:?}: expected Error::Parse, got {other:?}"),
        }
    }
}

/// `Error::Parse` is documented as "the text is not JSON, or does not have the scenario's
/// shape"; a top-level array is not the scenario's shape.
#[test]
fn top_level_array_is_a_parse_error() {
    match Scenario::from_json("[1, 2]") {
        Err(Error::Parse(m)) => assert!(!m.is_empty()),
        other => panic!("expected Error::Parse, got {other:?}"),
    }
}

#[test]
fn empty_job_list_plans_nothing() {
    let mut s = Scenario::from_json(EXAMPLE).unwrap();
    s.jobs.clear();
    for policy in Policy::ALL {
        let pl = plan(&s, policy).unwrap();
        assert_eq!(
            (pl.jobs.len(), pl.admitted, pl.total_utility),
            (0, 0, 0.0),
            "{policy}"
        );
    }
}

/// (1, 1) not fitting, one layer, a PS demanding only one resource, ε = 1 and depth 3.
#[test]
fn adversarial_but_valid_struct() {
    let mut s = Scenario::from_json(EXAMPLE).unwrap();
    s.params.epsilon = 1.0;
    s.params.ptas_depth = 3;
    let mut tight = s.jobs[0].clone();
    tight.id = "tight".into();
    tight.worker.memory_gb = 600.0; // 10 instances carry 600 GB: (1, 1) needs 616
    let mut lean = s.jobs[0].clone();
    lean.id = "lean".into();
    lean.ps = Resources {
        gpu: 0.0,
        vcpu: 0.0,
        memory_gb: 0.0,
        storage_gb: 1.0,
    };
    lean.mode = Mode::Async;
    s.jobs.push(tight);
    s.jobs.push(lean);
    s.validate().unwrap();
    plan_all(&s, "adversarial");
    let pl = plan(&s, Policy::Exact).unwrap();
    assert!(pl.jobs[1]
        .reason
        .as_ref()
        .unwrap()
        .to_string()
        .starts_with("infeasible"));
}

#[test]
fn non_finite_struct_values_are_refused() {
    let base = Scenario::from_json(EXAMPLE).unwrap();
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut s = base.clone();
        s.jobs[0].model_size_mb = v;
        s.jobs[0].layers[0].comm_ms = v;
        s.params.epsilon = v;
        let Err(Error::Invalid(errs)) = s.validate() else {
            panic!("{v} accepted")
        };
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["params.epsilon", "model_size_mb", "layers[0].comm_ms"],
            "{v}"
        );
        assert_eq!(plan(&s, Policy::Smd), Err(Error::Invalid(errs)));
    }
}

/// Renaming a list field is a typo like any other: an unknown field, named with the job's
/// id (SCENARIO.md), not "must be a JSON object, not an array".
#[test]
fn renamed_list_field_is_an_unknown_field() {
    let errs = invalid(&EXAMPLE.replace(r#""layers":"#, r#""layersx":"#));
    assert_eq!(errs[0].job.as_deref(), Some("resnet-a"), "{errs:?}");
    assert!(errs[0].to_string().contains("layersx"), "{}", errs[0]);
    let errs = invalid(&EXAMPLE.replace(r#""jobs":"#, r#""jobsx":"#));
    assert_eq!(errs[0].job, None, "{errs:?}");
    assert!(errs[0].to_string().contains("jobsx"), "{}", errs[0]);
}

/// Valid but extreme numbers must give a plan or a validation error naming the job and the
/// field, never an LP failure (`Error::Solver`) on a scenario that `validate` accepted.
fn plan_or_explain(s: &Scenario, policy: Policy, ctx: &str) {
    match plan(s, policy) {
        Ok(pl) => check_feasible(s, &pl, ctx),
        Err(Error::Invalid(errs)) => {
            assert!(errs.iter().all(|e| !e.field.is_empty()), "{ctx}: {errs:?}")
        }
        Err(e) => panic!("{ctx}: {e}"),
    }
}

#[test]
fn capacity_that_overflows_is_refused_or_planned() {
    // units and unit.gpu are each finite and ≥ 0, but capacity = units × unit is +∞.
    let mut s = Scenario::from_json(EXAMPLE).unwrap();
    s.cluster.units = 1e300;
    s.cluster.unit.gpu = 1e300;
    s.params.time_unit_s = Some(1e300); // every allocation has utility γ1: something to admit
    s.params.epsilon = 0.5;
    match s.validate() {
        Err(e) => check_error(&e, "capacity overflow"),
        Ok(()) => {
            for policy in Policy::ALL {
                plan_or_explain(&s, policy, &format!("capacity overflow {policy}"));
            }
        }
    }
}

/// A named change to a scenario.
type ScenarioEdit = fn(&mut Scenario);

#[test]
fn extreme_magnitudes_reach_no_lp_failure() {
    let base = {
        let mut s = Scenario::from_json(EXAMPLE).unwrap();
        s.params.epsilon = 0.5;
        s
    };
    let cases: [(&str, ScenarioEdit); 4] = [
        ("instance.vcpu = 1e300", |s| s.cluster.instance.vcpu = 1e300),
        ("ps_overhead_s = 1e-50", |s| s.jobs[0].ps_overhead_s = 1e-50),
        ("worker.vcpu = 1e-200", |s| s.jobs[0].worker.vcpu = 1e-200),
        ("ps.gpu = 1e-50", |s| s.jobs[0].ps.gpu = 1e-50),
    ];
    let mut failures = Vec::new();
    for (name, edit) in cases {
        let mut s = base.clone();
        edit(&mut s);
        if s.validate().is_err() {
            continue; // refusing the value is a fine answer too
        }
        for epsilon in [0.1, 0.5] {
            s.params.epsilon = epsilon;
            if let Err(Error::Solver(m)) = plan(&s, Policy::Smd) {
                failures.push(format!("{name}, ε = {epsilon}: {m}"));
            }
        }
        plan_or_explain(&s, Policy::Exact, name);
    }
    assert!(
        failures.is_empty(),
        "smd answered Error::Solver on valid scenarios:\n{}",
        failures.join("\n")
    );
}

#[test]
fn huge_limit_is_refused_with_the_job_named() {
    let mut s = Scenario::from_json(EXAMPLE).unwrap();
    s.jobs[0].limit_instances = 1e12;
    let Err(Error::Invalid(errs)) = s.validate() else {
        panic!("limit 1e12 accepted")
    };
    assert!(
        errs.iter()
            .all(|e| e.job.as_deref() == Some("resnet-a") && e.field == "limit_instances"),
        "{errs:?}"
    );
}

/// Numbers in messages: a sum's last-bit noise is not shown, typed values read back
/// exactly, tiny and huge ones in exponent form.
#[test]
fn numbers_in_messages_drop_last_bit_noise() {
    use smd_core::error::num;
    assert_eq!(num(219.77000000000004), "219.77");
    assert_eq!(num(0.1 + 0.2), "0.3");
    assert_eq!(num(1200.0), "1200");
    assert_eq!(num(0.015625), "0.015625");
    assert_eq!(num(1e-300), "1e-300");
    assert_eq!(num(f64::NAN), "NaN");
    for v in [1.5, 123456.789, 0.0001234, 7.0e8] {
        assert_eq!(num(v).parse::<f64>().unwrap(), v, "{v}");
    }
}
