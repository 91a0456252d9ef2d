//! End-to-end tests of the `smd` binary. Planning uses ε ≥ 0.1 and at most 8 jobs: the
//! default ε = 0.01 takes seconds per job.

mod common;

use common::smd;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit 0 and returns stdout.
fn ok(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "exit status; stderr:\n{}",
        stderr(o)
    );
    assert!(!stderr(o).contains("panicked"), "stderr:\n{}", stderr(o));
    stdout(o)
}

/// Asserts exit 2, no panic, no stdout, and that stderr contains every needle.
fn invalid(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "exit status; stderr:\n{err}");
    assert!(!err.contains("panicked"), "stderr:\n{err}");
    assert!(err.starts_with("error: "), "stderr:\n{err}");
    assert!(o.stdout.is_empty(), "stdout:\n{}", stdout(o));
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}:\n{err}");
    }
}

fn generate(jobs: usize, seed: u64) -> String {
    ok(&smd(
        &[
            "generate",
            "--jobs",
            &jobs.to_string(),
            "--seed",
            &seed.to_string(),
        ],
        None,
    ))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("valid JSON")
}

/// A temporary file removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("smd-cli-test-{}-{name}.json", std::process::id()));
        std::fs::write(&path, contents).expect("write temp file");
        TempFile(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The plan without its wall-clock timings.
fn without_timings(mut plan: Value) -> Value {
    let stats = plan["stats"].as_object_mut().expect("stats object");
    for k in ["solve_ms", "inner_ms", "rounding_ms", "outer_ms"] {
        assert!(stats.remove(k).is_some(), "stats.{k} missing");
    }
    plan
}

/// Checks a plan's shape against its scenario and that its totals add up.
fn check_plan(plan: &Value, scenario: &Value, policy: &str) {
    assert_eq!(plan["policy"], policy);
    for k in ["total_utility", "admitted", "jobs", "resources", "stats"] {
        assert!(plan.get(k).is_some(), "plan lacks {k}");
    }
    let jobs = plan["jobs"].as_array().expect("jobs array");
    let ids: Vec<&str> = jobs.iter().map(|j| j["id"].as_str().expect("id")).collect();
    let want: Vec<&str> = scenario["jobs"]
        .as_array()
        .expect("scenario jobs")
        .iter()
        .map(|j| j["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, want);
    let admitted: Vec<&Value> = jobs.iter().filter(|j| j["admitted"] == true).collect();
    assert_eq!(plan["admitted"].as_u64(), Some(admitted.len() as u64));
    let sum: f64 = admitted
        .iter()
        .map(|j| j["utility"].as_f64().expect("utility"))
        .sum();
    let total = plan["total_utility"].as_f64().expect("total_utility");
    assert!(
        (sum - total).abs() <= 1e-9 * total.abs().max(1.0),
        "Σ utility {sum} ≠ total {total}"
    );
    for r in ["used", "capacity", "requested"] {
        for name in ["gpu", "vcpu", "memory_gb", "storage_gb"] {
            assert!(
                plan["resources"][r][name].is_number(),
                "resources.{r}.{name}"
            );
        }
    }
}

#[test]
fn generate_then_plan_json_round_trips() {
    let scenario_text = generate(8, 1);
    let scenario = json(&scenario_text);
    assert_eq!(scenario["jobs"].as_array().map(Vec::len), Some(8));
    let file = TempFile::new("round-trip", &scenario_text);
    let plan = json(&ok(&smd(
        &["plan", "--json", "--epsilon", "0.1", file.path()],
        None,
    )));
    check_plan(&plan, &scenario, "smd");
    assert!(plan["total_utility"].as_f64().expect("total") > 0.0);
}

#[test]
fn generate_is_deterministic_and_seeded() {
    let a = generate(5, 7);
    assert_eq!(a, generate(5, 7));
    assert_ne!(a, generate(5, 8));
    assert_eq!(json(&a)["params"]["seed"], 7);
    let default = json(&ok(&smd(&["generate"], None)));
    assert_eq!(default["jobs"].as_array().map(Vec::len), Some(50));
    assert_eq!(default["cluster"]["units"], 1.0);
}

#[test]
fn generate_mode_and_units() {
    let s = json(&ok(&smd(
        &["generate", "--jobs", "4", "--mode", "async"],
        None,
    )));
    let jobs = s["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 4);
    assert!(jobs.iter().all(|j| j["mode"] == "async"), "{jobs:?}");
    let sync = json(&generate(4, 1));
    assert!(sync["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .all(|j| j["mode"] == "sync"));
    let s = json(&ok(&smd(
        &["generate", "--jobs", "2", "--units", "3"],
        None,
    )));
    assert_eq!(s["cluster"]["units"].as_f64(), Some(3.0));
    invalid(
        &smd(&["generate", "--units", "-1"], None),
        &["cluster.units"],
    );
}

#[test]
fn plan_json_is_reproducible_and_stdin_matches_file() {
    let text = generate(5, 3);
    let file = TempFile::new("repro", &text);
    let args = ["plan", "--json", "--epsilon", "0.2", file.path()];
    let a = without_timings(json(&ok(&smd(&args, None))));
    let b = without_timings(json(&ok(&smd(&args, None))));
    assert_eq!(a, b);
    let c = json(&ok(&smd(
        &["plan", "--json", "--epsilon", "0.2", "-"],
        Some(text.as_bytes()),
    )));
    check_plan(&c, &json(&text), "smd");
    assert_eq!(a, without_timings(c));
}

#[test]
fn plan_table_lists_every_job_and_resource() {
    let text = generate(4, 2);
    let out = ok(&smd(
        &["plan", "--policy", "esw", "--epsilon", "0.2", "-"],
        Some(text.as_bytes()),
    ));
    let first = out.lines().next().expect("header line");
    for needle in ["esw", "total utility", "admitted", "ms", "relative"] {
        assert!(first.contains(needle), "header lacks {needle:?}: {first}");
    }
    for needle in [
        "job-001", "job-002", "job-003", "job-004", "workers", "π", "reason",
    ] {
        assert!(out.contains(needle), "table lacks {needle:?}:\n{out}");
    }
    for name in ["gpu", "vcpu", "memory_gb", "storage_gb"] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "no {name} line:\n{out}"
        );
    }
}

#[test]
fn compare_prints_every_policy() {
    let text = generate(4, 5);
    let out = ok(&smd(
        &["compare", "--epsilon", "0.2", "-"],
        Some(text.as_bytes()),
    ));
    for p in ["smd", "esw", "optimus", "exact", "global"] {
        assert!(out.lines().any(|l| l.starts_with(p)), "no {p} row:\n{out}");
    }
    assert!(
        out.contains("smd / exact") && out.contains("smd / global"),
        "{out}"
    );
    let plans = json(&ok(&smd(
        &["compare", "--json", "--epsilon", "0.2", "-"],
        Some(text.as_bytes()),
    )));
    let plans = plans.as_array().expect("array of plans");
    let scenario = json(&text);
    let names: Vec<&str> = plans
        .iter()
        .map(|p| p["policy"].as_str().expect("policy"))
        .collect();
    assert_eq!(names, ["smd", "esw", "optimus", "exact", "global"]);
    for (p, name) in plans.iter().zip(names) {
        check_plan(p, &scenario, name);
    }
}

#[test]
fn empty_job_list_plans_to_zero() {
    let mut s = json(&generate(1, 1));
    s["jobs"] = Value::Array(vec![]);
    let text = s.to_string();
    let plan = json(&ok(&smd(
        &["plan", "--json", "--epsilon", "0.1", "-"],
        Some(text.as_bytes()),
    )));
    assert_eq!(plan["total_utility"].as_f64(), Some(0.0));
    assert_eq!(plan["admitted"], 0);
    assert_eq!(plan["jobs"].as_array().map(Vec::len), Some(0));
    let table = ok(&smd(&["compare", "-"], Some(text.as_bytes())));
    assert!(table.contains("0/0"), "{table}");
}

/// A generated scenario with one edit, as JSON text.
fn edited(edit: impl FnOnce(&mut Value)) -> String {
    let mut s = json(&generate(3, 1));
    edit(&mut s);
    s.to_string()
}

#[test]
fn invalid_value_names_job_and_field() {
    let text = edited(|s| s["jobs"][1]["ps_bandwidth_gbps"] = 0.into());
    let o = smd(&["plan", "--epsilon", "0.1", "-"], Some(text.as_bytes()));
    invalid(&o, &["\"job-002\"", "ps_bandwidth_gbps"]);
}

#[test]
fn unknown_field_names_job_and_field() {
    let text = edited(|s| s["jobs"][2]["iteratoins"] = 120.into());
    let file = TempFile::new("unknown-field", &text);
    invalid(
        &smd(&["plan", "--epsilon", "0.1", file.path()], None),
        &["job-003", "iteratoins"],
    );
}

#[test]
fn string_for_number_names_job_and_field() {
    let text = edited(|s| s["jobs"][0]["model_size_mb"] = "300".into());
    let o = smd(&["compare", "--epsilon", "0.1", "-"], Some(text.as_bytes()));
    invalid(&o, &["job-001", "model_size_mb"]);
}

#[test]
fn malformed_json_and_empty_input_are_rejected() {
    let text = generate(2, 1);
    let cut = &text[..text.len() / 2];
    invalid(
        &smd(&["plan", "--epsilon", "0.1", "-"], Some(cut.as_bytes())),
        &["invalid scenario"],
    );
    invalid(
        &smd(&["plan", "-"], Some(b"{ \"jobs\": [1,, ] }")),
        &["line 1"],
    );
    invalid(&smd(&["plan", "-"], Some(b"")), &["stdin", "empty"]);
    invalid(&smd(&["plan", "--json", "-"], Some(b"  \n")), &["empty"]);
    invalid(&smd(&["compare", "-"], Some(b"")), &["empty"]);
}

#[test]
fn missing_file_is_named() {
    let path = std::env::temp_dir().join("smd-cli-test-there-is-no-such-file.json");
    let path = path.to_str().expect("UTF-8 path");
    invalid(&smd(&["plan", path], None), &[path, "cannot read"]);
    invalid(&smd(&["compare", "--json", path], None), &[path]);
}

#[test]
fn bad_overrides_are_rejected_and_good_ones_apply() {
    let text = generate(2, 1);
    let b = text.as_bytes();
    invalid(
        &smd(&["plan", "--epsilon", "5", "-"], Some(b)),
        &["params.epsilon", "5"],
    );
    invalid(
        &smd(&["plan", "--epsilon", "-0.5", "-"], Some(b)),
        &["params.epsilon"],
    );
    invalid(
        &smd(&["plan", "--epsilon", "NaN", "-"], Some(b)),
        &["params.epsilon"],
    );
    invalid(
        &smd(&["compare", "--epsilon", "0", "-"], Some(b)),
        &["params.epsilon"],
    );
    invalid(
        &smd(&["plan", "--ptas-depth", "4", "-"], Some(b)),
        &["params.ptas_depth"],
    );
    // Clap's own usage errors also exit 2.
    invalid(&smd(&["plan", "--policy", "best", "-"], Some(b)), &["best"]);
    invalid(
        &smd(&["plan", "--outer", "greedy", "-"], Some(b)),
        &["greedy"],
    );
    // An override replaces a bad value in the file, and shows in the plan.
    let bad_eps = edited(|s| s["params"]["epsilon"] = 7.into());
    invalid(
        &smd(&["plan", "-"], Some(bad_eps.as_bytes())),
        &["params.epsilon", "7"],
    );
    let args = [
        "plan",
        "--json",
        "--epsilon",
        "0.2",
        "--outer",
        "exact",
        "-",
    ];
    let plan = json(&ok(&smd(&args, Some(bad_eps.as_bytes()))));
    assert_eq!(plan["admission"]["method"], "exact");
}

#[test]
fn broken_stdout_pipe_is_quiet() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(["generate", "--jobs", "3000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn smd");
    // Read a few bytes, then close the pipe while smd is still writing (the file is MBs).
    let mut pipe = child.stdout.take().expect("stdout");
    let mut head = [0u8; 10];
    std::io::Read::read_exact(&mut pipe, &mut head).expect("first bytes");
    drop(pipe);
    let out = child.wait_with_output().expect("wait for smd");
    assert_eq!(&head[..1], b"{");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "stderr:\n{err}");
    assert_eq!(out.status.code(), Some(0), "stderr:\n{err}");
}

#[test]
fn help_explains_commands_and_epsilon() {
    let out = ok(&smd(&["--help"], None));
    for needle in ["generate", "plan", "compare", "--epsilon 0.1", "0.01"] {
        assert!(out.contains(needle), "help lacks {needle:?}:\n{out}");
    }
    let unknown = smd(&["frobnicate"], None);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn set_overrides_any_param_and_names_bad_ones() {
    let text = generate(3, 2);
    let b = text.as_bytes();
    invalid(
        &smd(&["plan", "--set", "bogus=1", "-"], Some(b)),
        &["params.bogus"],
    );
    invalid(
        &smd(&["plan", "--set", "m_delta=0.5", "-"], Some(b)),
        &["params.m_delta", "0.5"],
    );
    invalid(
        &smd(&["plan", "--set", "rounding=sideways", "-"], Some(b)),
        &["params.rounding"],
    );
    let out = ok(&smd(
        &[
            "plan",
            "--json",
            "--epsilon",
            "0.2",
            "--set",
            "polish=true",
            "--set",
            "rounding=best_corner",
            "-",
        ],
        Some(b),
    ));
    let plan = json(&out);
    // best corner takes one look per job, so every feasible job reports one attempt.
    for j in plan["jobs"].as_array().unwrap() {
        if j["workers"].is_u64() {
            assert_eq!(j["rounding_attempts"], 1, "{j}");
        }
    }
}

#[test]
fn inner_solvers_give_the_same_plan() {
    let text = generate(6, 4);
    let b = text.as_bytes();
    let fast = json(&ok(&smd(
        &["plan", "--json", "--epsilon", "0.1", "-"],
        Some(b),
    )));
    let reference = json(&ok(&smd(
        &[
            "plan",
            "--json",
            "--epsilon",
            "0.1",
            "--inner-solver",
            "reference",
            "-",
        ],
        Some(b),
    )));
    let (f, r) = (
        fast["jobs"].as_array().unwrap(),
        reference["jobs"].as_array().unwrap(),
    );
    for (a, b) in f.iter().zip(r) {
        assert_eq!(a["workers"], b["workers"], "{a} vs {b}");
        assert_eq!(a["ps"], b["ps"], "{a} vs {b}");
        assert_eq!(a["admitted"], b["admitted"]);
        if let (Some(x), Some(y)) = (
            a["relaxed_completion_time_s"].as_f64(),
            b["relaxed_completion_time_s"].as_f64(),
        ) {
            assert!((x - y).abs() <= 1e-9 * y, "{x} vs {y}");
        }
    }
    invalid(
        &smd(&["plan", "--inner-solver", "magic", "-"], Some(b)),
        &["magic"],
    );
}

// ---------------------------------------------------------------------------------------
// Hostile input (issue 8): every rejection names its option or field, never floods the
// terminal, and a valid scenario never fails.

#[test]
fn negative_numbers_name_their_option() {
    let text = generate(1, 1);
    let b = text.as_bytes();
    invalid(&smd(&["plan", "--seed", "-1", "-"], Some(b)), &["--seed"]);
    invalid(&smd(&["generate", "--jobs", "-3"], None), &["--jobs"]);
    invalid(&smd(&["generate", "--seed", "-3"], None), &["--seed"]);
    invalid(
        &smd(&["plan", "--ptas-depth", "-1", "-"], Some(b)),
        &["--ptas-depth"],
    );
    invalid(
        &smd(&["compare", "--global-budget", "-1", "-"], Some(b)),
        &["--global-budget"],
    );
    invalid(
        &smd(&["plan", "--epsilon", "-0.1", "-"], Some(b)),
        &["params.epsilon"],
    );
}

#[test]
fn repeated_keys_and_huge_strings_are_named_briefly() {
    let text = generate(2, 1);
    let dup = text.replacen("\"iterations\": ", "\"iterations\": 0, \"iterations\": ", 1);
    invalid(
        &smd(&["plan", "-"], Some(dup.as_bytes())),
        &["job \"job-001\"", "iterations", "twice"],
    );
    let long = "y".repeat(3_000_000);
    for bad in [
        text.replacen("\"job-001\"", &format!("\"{long}\""), 1),
        text.replacen("\"sync\"", &format!("\"{long}\""), 1),
        text.replacen("\"iterations\"", &format!("\"{long}\""), 1),
    ] {
        let o = smd(&["plan", "-"], Some(bad.as_bytes()));
        invalid(&o, &["3000000"]);
        // The known job fields of both kinds are listed (~470 bytes); the value is cut.
        assert!(o.stderr.len() < 650, "{} bytes of stderr", o.stderr.len());
    }
}

#[test]
fn compare_json_prints_every_policy_on_a_huge_region() {
    // One job may run 4000 one-GPU workers: global's box is far beyond enumeration.
    let mut s = json(&generate(5, 4));
    s["cluster"]["units"] = 10.0.into();
    let j = &mut s["jobs"][0];
    j["worker"] = serde_json::json!({"gpu": 1, "vcpu": 1, "memory_gb": 1, "storage_gb": 1});
    j["ps"] = serde_json::json!({"gpu": 0, "vcpu": 1, "memory_gb": 1, "storage_gb": 1});
    j["limit_instances"] = 1000.into();
    let text = s.to_string();
    let out = ok(&smd(
        &["compare", "--json", "--epsilon", "0.1", "-"],
        Some(text.as_bytes()),
    ));
    let plans = json(&out);
    let names: Vec<&str> = plans
        .as_array()
        .expect("an array")
        .iter()
        .map(|p| p["policy"].as_str().expect("policy"))
        .collect();
    assert_eq!(names, ["smd", "esw", "optimus", "exact", "global"]);
    for p in plans.as_array().unwrap() {
        assert!(p.get("error").is_none(), "{p}");
        assert!(p["total_utility"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn check_validates_without_planning_and_names_the_epsilon_floor() {
    let text = generate(3, 2);
    let out = ok(&smd(&["check", "-"], Some(text.as_bytes())));
    assert!(out.starts_with("stdin: valid, 3 jobs, ε 0.01"), "{out}");
    assert!(out.contains("the smallest ε these jobs allow is"), "{out}");
    let tiny = text.replacen("\"epsilon\": 0.01", "\"epsilon\": 1e-12", 1);
    invalid(
        &smd(&["check", "-"], Some(tiny.as_bytes())),
        &[
            "params.epsilon",
            "got 1e-12",
            "smallest ε this scenario allows",
        ],
    );
}

#[test]
fn long_flag_values_are_cut_in_messages() {
    let long = "x".repeat(5000);
    let (key, value) = (format!("{long}=1"), format!("polish={long}"));
    let input = smd(&["generate", "--jobs", "2"], None).stdout;
    for args in [
        vec!["reproduce", "--only", long.as_str()],
        vec!["plan", "--set", key.as_str(), "-"],
        vec!["plan", "--set", value.as_str(), "-"],
    ] {
        let o = smd(&args, Some(&input));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("… (5000 characters)") && err.len() < 600,
            "{err}"
        );
    }
}
