//! Issue 23's rows on the CLI's inputs and outputs: bounded, streamed reads (row 7), the
//! sweep's policy list (row 9), `smd diff` validating and every table escaping user text
//! (row 10), trace CSVs (row 11), and the small edges of row 12.

mod common;

use common::smd;
use serde_json::Value;
use std::process::{Command, Output, Stdio};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit 2 with every needle in stderr, no panic.
fn invalid(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "no {n:?} in: {err}");
    }
}

/// A file in a fresh temporary directory, removed with it.
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str, text: &[u8]) -> Temp {
        let dir = std::env::temp_dir().join(format!(
            "smd-inputs-{}-{}",
            std::process::id(),
            name.replace(['.', '/'], "-")
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Temp(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn generate(jobs: &str) -> Value {
    let o = smd(&["generate", "--jobs", jobs, "--seed", "2"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// `smd args…` with stdin read from `path` (e.g. /dev/zero).
fn smd_with_stdin_from(args: &[&str], path: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .stdin(Stdio::from(std::fs::File::open(path).unwrap()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

// Row 7 -------------------------------------------------------------------------------

#[test]
fn endless_or_binary_input_stops_at_once_naming_the_file_or_stdin() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    // /dev/zero used to be read whole (24 GB, killed): it is NUL at byte 1.
    let t0 = std::time::Instant::now();
    let o = smd(&["trace", "/dev/zero"], None);
    invalid(
        &o,
        &["trace file \"/dev/zero\"", "line 1: a NUL byte (at byte 1)"],
    );
    for cmd in ["check", "simulate", "plan"] {
        let o = smd_with_stdin_from(&[cmd, "-"], "/dev/zero");
        invalid(&o, &["from stdin", "NUL byte"]);
    }
    let o = smd(&["diff", "/dev/zero", "-"], None);
    invalid(&o, &["scenario file \"/dev/zero\"", "NUL byte"]);
    assert!(t0.elapsed().as_secs() < 30, "{:?}", t0.elapsed());
    // Bytes that are not UTF-8 name their line.
    let o = smd(
        &["check", "-"],
        Some(b"{\n  \"version\": 1,\n  \"x\xff\": 2\n}"),
    );
    invalid(
        &o,
        &["stdin", "line 3: bytes that are not UTF-8 (at byte 23)"],
    );
}

// Row 9 -------------------------------------------------------------------------------

#[test]
fn a_policy_named_twice_in_a_sweep_is_refused() {
    let s = generate("3").to_string();
    for (flag, list) in [("--policy", "smd,esw,smd"), ("--policy", "smd, smd")] {
        let o = smd(
            &["sweep", "--units", "1:2:1", flag, list, "--json", "-"],
            Some(s.as_bytes()),
        );
        invalid(&o, &["--policy: \"smd\" is named twice"]);
    }
}

// Row 10 ------------------------------------------------------------------------------

#[test]
fn diff_validates_both_scenarios() {
    let a = generate("2");
    let mut b = a.clone();
    b["version"] = 3.into();
    let (fa, fb) = (
        Temp::new("a.json", a.to_string().as_bytes()),
        Temp::new("b.json", b.to_string().as_bytes()),
    );
    let o = smd(&["diff", fa.path(), fb.path()], None);
    invalid(
        &o,
        &["scenario file", "b.json", "version must be 1 or 2 (got 3)"],
    );
    let mut c = a.clone();
    c["jobs"][0]["iterations"] = (-5.0).into();
    let o = smd(&["diff", "-", fa.path()], Some(c.to_string().as_bytes()));
    invalid(&o, &["stdin: job \"job-001\": iterations"]);
    let o = smd(&["diff", "-", fa.path()], Some(b" \n"));
    invalid(&o, &["stdin is empty"]);
}

#[test]
fn control_characters_in_ids_are_escaped_in_every_table() {
    let mut a = generate("2");
    a["jobs"][0]["id"] = "evil\u{1b}[2J\r\nid".into();
    let text = a.to_string();
    for args in [
        vec!["plan", "-"],
        vec!["plan", "--policy", "global", "-"],
        vec!["simulate", "-"],
    ] {
        let o = smd(&args, Some(text.as_bytes()));
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(
            !out.contains('\u{1b}') && !out.contains('\r'),
            "{args:?}: {out:?}"
        );
        if args[0] == "plan" {
            assert!(out.contains("evil\\u{1b}[2J\\u{d}\\u{a}id"), "{out}");
        }
    }
    let b = generate("2");
    let (fa, fb) = (
        Temp::new("a.json", text.as_bytes()),
        Temp::new("b.json", b.to_string().as_bytes()),
    );
    let o = smd(&["diff", fa.path(), fb.path()], None);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!out.contains('\u{1b}') && !out.contains('\r'), "{out:?}");
    assert!(out.contains("jobs[evil\\u{1b}[2J\\u{d}\\u{a}id]"), "{out}");
    // Every line of the table is one line: no cell breaks it.
    assert!(out.lines().all(|l| l.chars().count() < 300), "{out}");
}

// Row 11 ------------------------------------------------------------------------------

const HEAD: &str = "name,time,application,num_replicas,batch_size\n";

#[test]
fn a_trace_with_a_byte_order_mark_reads_like_one_without() {
    let plain = format!("{HEAD}a,0,bert,2,48\n");
    let bom = format!("\u{feff}{plain}");
    let a = smd(&["trace", "-"], Some(plain.as_bytes()));
    let b = smd(&["trace", "-"], Some(bom.as_bytes()));
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn trace_messages_name_the_line_the_real_limit_and_short_numbers() {
    let o = smd(
        &["trace", "-"],
        Some(
            format!("{HEAD}a,0,bert,2,48\nb,1,bert,\u{fffd}2,48\n")
                .replace('\u{fffd}', "\u{0}")
                .as_bytes(),
        ),
    );
    invalid(&o, &["stdin", "line 3: a NUL byte"]);
    let mut bytes = format!("{HEAD}a,0,bert,2,48\n").into_bytes();
    bytes.extend_from_slice(b"b\xe9,1,bert,2,48\n");
    let o = smd(&["trace", "-"], Some(&bytes));
    invalid(&o, &["stdin", "line 3: bytes that are not UTF-8"]);
    let o = smd(
        &["trace", "-"],
        Some(format!("{HEAD}a,0,bert,100000,48\n").as_bytes()),
    );
    invalid(
        &o,
        &["column \"num_replicas\": must be a whole number from 1 to 64000 (got 100000)"],
    );
    let o = smd(
        &["trace", "-"],
        Some(format!("{HEAD}a,1e300,bert,2,48\n").as_bytes()),
    );
    invalid(&o, &["(got 1e300)"]);
    assert!(stderr(&o).len() < 300, "{}", stderr(&o));
}

#[test]
fn a_request_larger_than_the_cluster_is_warned_naming_the_job() {
    // 16 × t4x4 is 64 GPUs.
    let o = smd(
        &["trace", "-"],
        Some(format!("{HEAD}a,0,bert,64,48\nb,5,bert,65,48\n").as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning: stdin: row 2 (line 3), column \"num_replicas\": job \"b\" asks for 65 GPUs, more than the cluster's 64"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

// Row 12 ------------------------------------------------------------------------------

#[test]
fn an_empty_scenario_prints_zero_not_minus_zero() {
    let s = generate("0").to_string();
    for args in [
        vec!["plan", "-"],
        vec!["compare", "-"],
        vec!["simulate", "-"],
        vec!["plan", "--json", "-"],
    ] {
        let o = smd(&args, Some(s.as_bytes()));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!stdout(&o).contains("-0."), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn teach_on_no_jobs_says_so() {
    let s = generate("0").to_string();
    let o = smd(&["teach", "--job", "x", "-"], Some(s.as_bytes()));
    invalid(&o, &["--job: no job \"x\" in the scenario (it has no jobs: there is nothing to step through)"]);
    assert!(!stderr(&o).contains("\"\""));
}

#[test]
fn an_unwritable_study_csv_names_the_flag_and_keeps_the_table() {
    let o = smd(
        &["study", "sharing", "--csv", "/nonexistent/dir/out.csv"],
        None,
    );
    invalid(&o, &["--csv: cannot write /nonexistent/dir/out.csv"]);
    assert!(stdout(&o).starts_with("| "), "{}", stdout(&o));
}

#[test]
fn the_fidelity_study_prints_its_table_and_draws_a_figure_per_policy() {
    let dir = std::env::temp_dir().join(format!("smd-fidelity-{}", std::process::id()));
    let o = smd(
        &[
            "study",
            "fidelity",
            "--quick",
            "--figures",
            dir.to_str().unwrap(),
        ],
        None,
    );
    let out = stdout(&o);
    assert!(
        out.contains("| workload-1 | 0.5 | tiresias | 80 |"),
        "{out}"
    );
    assert!(
        out.contains("| workload-1 | 0.5 | optimus_oracle | 80 |"),
        "{out}"
    );
    assert!(out.contains("| workload-1 | 0.5 | pollux | 80 |"), "{out}");
    for policy in ["tiresias", "optimus_oracle", "pollux"] {
        let svg = std::fs::read_to_string(dir.join(format!("scatter-{policy}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{policy}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Figures belong to the fidelity study alone.
    invalid(
        &smd(&["study", "sharing", "--figures", "x"], None),
        &["--figures: only the fidelity study draws figures"],
    );
}

#[test]
fn an_unwritable_calibration_figure_names_the_flag_and_keeps_the_report() {
    let o = smd(&["calibrate", "--figure", "/nonexistent/dir/f.svg"], None);
    invalid(&o, &["--figure: cannot write /nonexistent/dir/f.svg"]);
    let out = stdout(&o);
    assert!(out.contains("worst held-out points"), "{out}");
    assert!(!out.contains("figure: /nonexistent"), "{out}");
}

#[test]
fn simulation_params_warn_or_fail_naming_the_field() {
    let mut s = generate("2");
    s["version"] = 2.into();
    s["params"]["interval_s"] = 60.into();
    s["params"]["restart_s"] = 90.into();
    let o = smd(&["check", "-"], Some(s.to_string().as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("warning: params.restart_s is longer than a slot (90 s > interval_s 60 s)"),
        "{}",
        stderr(&o)
    );
    s["params"]["horizon_s"] = 1e-300.into();
    let o = smd(&["simulate", "-"], Some(s.to_string().as_bytes()));
    invalid(&o, &["params.horizon_s must be in [1e-12, "]);
}
