//! `smd teach` end to end: the steps as text (a heading per stage, a sentence per step) and
//! as JSON (each step's stage, sentence and data, then SMD's plan), and bad arguments.

mod common;

use common::smd;
use serde_json::Value;

fn scenario() -> Vec<u8> {
    let o = smd(&["generate", "--jobs", "4", "--seed", "3"], None);
    assert_eq!(o.status.code(), Some(0));
    o.stdout
}

#[test]
fn the_text_walks_every_stage_and_ends_with_the_decision() {
    let o = smd(
        &["teach", "--job", "job-002", "--epsilon", "0.2", "-"],
        Some(&scenario()),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let mut at = 0;
    for heading in [
        "(a) Bounds and the free summand J",
        "(b) The ε-grid",
        "(c) Algorithm 2: rounding",
        "(d) Admission",
    ] {
        let i = text[at..]
            .find(heading)
            .unwrap_or_else(|| panic!("{heading}: {text}"));
        at += i;
    }
    let last = text.lines().last().unwrap();
    assert!(
        last.contains("Decision: ") && last.contains("job-002"),
        "{last}"
    );
}

#[test]
fn the_json_has_each_step_and_the_plan_of_smd() {
    let input = scenario();
    let o = smd(
        &[
            "teach",
            "--job",
            "job-002",
            "--epsilon",
            "0.2",
            "--json",
            "-",
        ],
        Some(&input),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["job"], "job-002");
    assert_eq!(doc["index"], 1);
    let steps = doc["steps"].as_array().unwrap();
    let stages: Vec<&str> = steps.iter().map(|s| s["stage"].as_str().unwrap()).collect();
    for stage in ["bounds", "grid", "rounding", "admission"] {
        assert!(stages.contains(&stage), "{stage}");
    }
    assert!(steps
        .iter()
        .all(|s| !s["text"].as_str().unwrap().is_empty()));
    assert_eq!(steps.last().unwrap()["event"]["kind"], "admitted");
    // Its plan is `smd plan`'s (times aside: neither the trace nor this comparison has any).
    let o = smd(&["plan", "--json", "--epsilon", "0.2", "-"], Some(&input));
    let mut plan: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut traced = doc["plan"].clone();
    for p in [&mut plan, &mut traced] {
        p["stats"] = Value::Null;
    }
    assert_eq!(traced, plan);
}

#[test]
fn an_unknown_job_is_invalid_input() {
    let o = smd(&["teach", "--job", "nope", "-"], Some(&scenario()));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--job") && err.contains("\"nope\""), "{err}");
}
