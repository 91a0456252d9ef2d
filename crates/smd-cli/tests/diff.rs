//! `smd diff` from outside: the JSON lists exactly the inputs changed, by path; the same file
//! gives none; bad input exits 2 naming the file.

mod common;

use common::smd;
use serde_json::Value;

#[test]
fn the_differences_are_the_changes_made() {
    let o = smd(&["generate", "--jobs", "3"], None);
    let a: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut b = a.clone();
    b["params"]["epsilon"] = 0.25.into();
    let id = b["jobs"][1]["id"].as_str().unwrap().to_owned();
    b["jobs"][1]["iterations"] = 777.0.into();
    let dir = std::env::temp_dir().join(format!("smd-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (fa, fb) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&fa, a.to_string()).unwrap();
    std::fs::write(&fb, b.to_string()).unwrap();
    let (pa, pb) = (fa.to_str().unwrap(), fb.to_str().unwrap());
    let o = smd(&["diff", pa, pb, "--json"], None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let d: Value = serde_json::from_slice(&o.stdout).unwrap();
    let got: Vec<(&str, &str, &str)> = d
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["path"].as_str().unwrap(),
                x["a"].as_str().unwrap(),
                x["b"].as_str().unwrap(),
            )
        })
        .collect();
    let path = format!("jobs[{id}].iterations");
    let before = a["jobs"][1]["iterations"].to_string();
    let eps = a["params"]["epsilon"].to_string();
    assert_eq!(
        got,
        [
            (path.as_str(), before.as_str(), "777.0"),
            ("params.epsilon", eps.as_str(), "0.25")
        ]
    );
    // From stdin, the same file: nothing differs.
    let o = smd(&["diff", "-", pa], Some(a.to_string().as_bytes()));
    assert!(String::from_utf8_lossy(&o.stdout).contains("the same inputs"));
    // A missing file and two stdins are refused.
    let o = smd(&["diff", pa, "/nonexistent/x.json"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/x.json"));
    let o = smd(&["diff", "-", "-"], None);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}
