//! `smd reproduce`: the files it writes and its exit status. The whole quick run is tested
//! in `smd-reproduce`'s own tests; here one cheap experiment goes through the command.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `smd reproduce --quick --only ID… --out DIR`.
fn reproduce_quick(only: &[&str], out: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_smd"));
    cmd.args(["reproduce", "--quick"]);
    for id in only {
        cmd.args(["--only", id]);
    }
    cmd.arg("--out").arg(out).output().expect("run smd")
}

/// A fresh directory under the target directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("smd-reproduce-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn writes_csv_svg_and_summary() {
    let dir = TempDir::new("ok");
    let out = dir.0.join("nested").join("out");
    let o = reproduce_quick(&["e5-epsilon-mdelta"], &out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "stderr:\n{stderr}");
    assert!(stderr.contains("100.0%"), "progress line: {stderr}");
    assert!(stdout.contains("all invariant checks passed"), "{stdout}");
    let csv = std::fs::read_to_string(out.join("e5-epsilon-mdelta.csv")).expect("csv");
    assert!(csv.starts_with("mode,parameter,value,"), "{csv}");
    assert!(csv.lines().count() > 2);
    let svg = std::fs::read_to_string(out.join("e5-epsilon-mdelta.svg")).expect("svg");
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    let md = std::fs::read_to_string(out.join("summary.md")).expect("summary");
    assert!(md.contains("All invariant checks passed."), "{md}");
    assert!(md.contains("(e5-epsilon-mdelta.svg)"));
    // Only the experiment asked for.
    assert!(!out.join("e1-utility-vs-units.csv").exists());
}

#[test]
fn accepts_the_short_id_in_any_case() {
    // `E5` is `e5-epsilon-mdelta`, the short id the docs use; said twice, it runs once.
    let dir = TempDir::new("short");
    let o = reproduce_quick(&["E5", "e5-epsilon-mdelta"], &dir.0);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "stderr:\n{stderr}");
    assert_eq!(
        stdout.matches("e5-epsilon-mdelta.csv").count(),
        1,
        "{stdout}"
    );
    assert!(dir.0.join("e5-epsilon-mdelta.csv").exists());
    assert!(!dir.0.join("e3-ratio-to-optimum.csv").exists());
}

#[test]
fn rejects_an_unknown_experiment() {
    let dir = TempDir::new("bad");
    let o = reproduce_quick(&["e9"], &dir.0);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown experiment \"e9\""), "{err}");
    // The valid ids, short and full.
    assert!(err.contains("e3 (e3-ratio-to-optimum)"), "{err}");
    assert!(!dir.0.exists(), "nothing is written for a bad request");
}
