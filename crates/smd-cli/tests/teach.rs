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

/// `--lesson`: the key steps of a long trace (ε = 0.01 on 30 jobs), at most 40, numbered by
/// their trace step, each stage's heading, and the decision in words last — as JSON too,
/// with each step's number and what it passes over.
#[test]
fn the_lesson_is_the_key_steps_and_the_decision_in_words() {
    let o = smd(&["generate", "--jobs", "30", "--seed", "1"], None);
    let input = o.stdout;
    let o = smd(
        &["teach", "--job", "job-014", "--lesson", "-"],
        Some(&input),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let numbered: Vec<u64> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(numbered.len() <= 40 && numbered.len() >= 8, "{text}");
    assert!(numbered.windows(2).all(|w| w[0] < w[1]), "in trace order");
    assert!(
        *numbered.last().unwrap() > 1000,
        "the trace's own numbers: {text}"
    );
    for heading in [
        "(a) Bounds",
        "(b) The ε-grid",
        "(c) Algorithm 2",
        "(d) Admission",
    ] {
        assert!(text.contains(heading), "{heading}");
    }
    assert!(text.contains(", in brief: "), "{text}");
    let words = text
        .split("The decision in words")
        .nth(1)
        .expect("the decision");
    assert!(
        words.contains("(w, p) = (6, 24)") && words.contains("It is admitted"),
        "{words}"
    );

    let o = smd(
        &["teach", "--job", "job-014", "--lesson", "--json", "-"],
        Some(&input),
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), numbered.len());
    let at: Vec<u64> = steps.iter().map(|s| s["step"].as_u64().unwrap()).collect();
    assert_eq!(at, numbered);
    assert!(steps.iter().any(|s| s["skipped"].is_string()));
    assert!(v["explanation"]
        .as_str()
        .unwrap()
        .contains("It is admitted"));
}

/// Tracing shows its progress on stderr (here from the start; past a few seconds for people,
/// as tracing thousands of jobs takes).
#[test]
fn tracing_shows_its_progress() {
    let o = common::smd_with_progress(&["teach", "--job", "job-002", "-"], Some(&scenario()));
    assert_eq!(o.status.code(), Some(0));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.starts_with("smd: tracing job job-002: "), "{e}");
}

#[test]
fn a_measured_job_is_refused_naming_the_job_once_and_its_field() {
    let o = smd(&["trace", "--workload", "workload-1"], None);
    assert_eq!(o.status.code(), Some(0));
    let o = smd(&["teach", "--job", "cifar10-0", "-"], Some(&o.stdout));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with("error: job \"cifar10-0\": architecture is \"allreduce\""),
        "{err}"
    );
    assert!(!err.contains("job job"), "{err}");
}
