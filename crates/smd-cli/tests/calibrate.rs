//! End-to-end tests of `smd calibrate` (docs/CALIBRATION.md). Each run fits the bundled
//! measurements (well under a second in the test profile).

mod common;

use common::smd;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit 0 without a panic and returns stdout.
fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(o));
    assert!(!stderr(o).contains("panicked"), "stderr:\n{}", stderr(o));
    stdout(o)
}

fn report(args: &[&str]) -> Value {
    let mut all = vec!["calibrate", "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&smd(&all, None))).expect("valid JSON")
}

fn count(v: &Value) -> u64 {
    v["count"].as_u64().expect("a count")
}

/// A path in the temporary directory, removed on drop.
struct TempPath(PathBuf);

impl TempPath {
    fn new(name: &str) -> TempPath {
        TempPath(
            std::env::temp_dir().join(format!("smd-cli-calibrate-{}-{name}", std::process::id())),
        )
    }
    fn as_str(&self) -> &str {
        self.0.to_str().expect("UTF-8 temp path")
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn the_table_names_every_application_and_the_parameters() {
    let out = ok(&smd(&["calibrate"], None));
    for needle in [
        "7103 measured rows: 3552 fitted on (seed 1, 50% of each application), 3551 held out",
        "B: cross-machine bandwidth of a PS",
        "local_gbps",
        "β1",
        "single machine",
        "across machines",
        "worst held-out points",
    ] {
        assert!(out.contains(needle), "no {needle:?} in:\n{out}");
    }
    for app in [
        "cifar10",
        "imagenet",
        "bert",
        "deepspeech2",
        "yolov3",
        "ncf",
        "all",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(app)),
            "no row for {app}:\n{out}"
        );
    }
}

#[test]
fn the_json_report_adds_up_and_is_deterministic() {
    let r = report(&[]);
    let n = |k: &str| r[k].as_u64().expect(k);
    assert_eq!(n("measured"), 7103);
    assert_eq!(n("train") + n("held_out"), n("measured"));
    assert_eq!(
        r["points"].as_array().expect("points").len() as u64,
        n("held_out")
    );
    let apps = r["apps"].as_array().expect("apps");
    assert_eq!(apps.len(), 6);
    let held: u64 = apps
        .iter()
        .map(|a| count(&a["held_out"]["single"]) + count(&a["held_out"]["across"]))
        .sum();
    assert_eq!(held, n("held_out"));
    let p = &r["fit"]["params"];
    for k in ["cross_gbps", "local_gbps"] {
        assert!(p[k].as_f64().expect(k) > 0.0);
    }
    assert!(p["worker_overhead_s"].as_f64().expect("β1") >= 0.0);
    // Same flags, same report; another seed, another split.
    assert_eq!(report(&[]), r);
    let other = report(&["--seed", "2", "--train-share", "0.3"]);
    assert_eq!(other["options"]["seed"], 2);
    assert_ne!(other["fit"]["params"], r["fit"]["params"]);
    assert!(other["train"].as_u64().unwrap() < n("train"));
}

#[test]
fn a_train_share_outside_0_1_is_invalid() {
    for share in ["0", "1", "1.5", "-0.2", "NaN"] {
        let o = smd(&["calibrate", "--train-share", share], None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{share}: {err}");
        assert!(err.starts_with("error: --train-share"), "{share}: {err}");
        assert!(!err.contains("panicked"));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn the_figure_is_written_where_asked() {
    let path = TempPath::new("figure.svg");
    let out = ok(&smd(&["calibrate", "--figure", path.as_str()], None));
    assert!(out.contains(&format!("figure: {}", path.as_str())), "{out}");
    let svg = std::fs::read_to_string(&path.0).expect("the figure exists");
    assert!(svg.starts_with("<svg"));
    // One series per application, each holding every held-out point of it.
    for (k, app) in [
        "cifar10",
        "imagenet",
        "bert",
        "deepspeech2",
        "yolov3",
        "ncf",
    ]
    .iter()
    .enumerate()
    {
        assert!(
            svg.contains(&format!("class=\"series series-{k}\" data-name=\"{app}\"")),
            "no series for {app}"
        );
    }
    assert!(svg.contains("class=\"identity\""));
    // A figure that cannot be written is invalid input naming the flag (exit 2), not a panic.
    let o = smd(
        &[
            "calibrate",
            "--figure",
            "/nonexistent-dir-of-smd-tests/figure.svg",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--figure: cannot write"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}
