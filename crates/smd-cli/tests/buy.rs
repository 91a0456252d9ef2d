//! `smd sweep --mix` end to end: the output contract of docs/SCENARIO.md ("Mix sweep
//! output"), each mix's value equal to `smd simulate` of a scenario written by hand with
//! that mix, the answer equal to a scan of the points, and bad arguments named by flag.

mod common;

use common::smd;
use serde_json::{json, Value};

/// The first 20 jobs of the bundled Philly workload, with one t4x4 and one a100x8 group.
fn base() -> Value {
    let o = smd(
        &[
            "trace",
            "--workload",
            "philly-1",
            "--mix",
            "t4x4=1,a100x8=1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let mut s: Value = serde_json::from_slice(&o.stdout).unwrap();
    s["jobs"].as_array_mut().unwrap().truncate(20);
    s
}

fn run(args: &[&str], stdin: &Value) -> Value {
    let o = smd(args, Some(stdin.to_string().as_bytes()));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn every_mix_follows_the_contract_and_equals_smd_simulate() {
    let base = base();
    let out = run(
        &[
            "sweep",
            "--mix",
            "t4x4=0:2,a100x8=0:1",
            "--policy",
            "sia",
            "--every",
            "--json",
            "-",
        ],
        &base,
    );
    let points = out["points"].as_array().unwrap();
    assert_eq!(points.len(), 6);
    assert_eq!(
        out["types"],
        json!(["t4x4", "a100x8"]),
        "the types in the order given"
    );
    assert_eq!(out["evaluated"], 6);
    assert_eq!(out["skipped"], 0);
    let groups = base["cluster"]["machines"].as_array().unwrap().clone();
    for p in points {
        let mix = p["mix"].as_object().unwrap();
        let (t4, a100) = (
            mix["t4x4"].as_u64().unwrap(),
            mix["a100x8"].as_u64().unwrap(),
        );
        // The price: Σ count × the group's hourly_usd.
        let price = t4 as f64 * groups[0]["hourly_usd"].as_f64().unwrap()
            + a100 as f64 * groups[1]["hourly_usd"].as_f64().unwrap();
        assert!((p["usd_per_hour"].as_f64().unwrap() - price).abs() < 1e-9);
        if t4 + a100 == 0 {
            assert_eq!(p["value"], Value::Null);
            continue;
        }
        // The same mix written by hand and simulated alone.
        let mut s = base.clone();
        let mut machines = Vec::new();
        for (g, n) in groups.iter().zip([t4, a100]) {
            if n > 0 {
                let mut g = g.clone();
                g["count"] = json!(n);
                machines.push(g);
            }
        }
        s["cluster"]["machines"] = Value::Array(machines);
        let sim = run(&["simulate", "--policy", "sia", "--json", "-"], &s);
        assert_eq!(p["value"], sim["metrics"]["mean_jct_s"], "{mix:?}");
    }
    // The frontier: the points no other is at least as cheap and as fast as, one strictly.
    let known: Vec<(f64, f64, u64)> = points
        .iter()
        .filter(|p| !p["value"].is_null())
        .map(|p| {
            (
                p["usd_per_hour"].as_f64().unwrap(),
                p["value"].as_f64().unwrap(),
                p["index"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut want: Vec<u64> = known
        .iter()
        .filter(|a| {
            !known
                .iter()
                .any(|b| b.0 <= a.0 && b.1 <= a.1 && (b.0 < a.0 || b.1 < a.1))
        })
        .map(|a| a.2)
        .collect();
    want.sort();
    let mut got: Vec<u64> = out["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["index"].as_u64().unwrap())
        .collect();
    got.sort();
    assert_eq!(got, want);
    // Without a goal or budget, the answer is the least mean JCT of all (then the cheapest).
    let best = known
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)))
        .unwrap();
    assert_eq!(out["best"]["index"].as_u64(), Some(best.2));
    assert!(out["answer"]
        .as_str()
        .unwrap()
        .starts_with("The mix with the least mean JCT under sia:"));

    // The cheapest mix meeting a goal that the fastest mix meets and the cheapest does not:
    // the scan's answer, and every skipped mix pricier than it.
    let goal = best.1 + 1.0;
    let cheap = run(
        &[
            "sweep",
            "--mix",
            "t4x4=0:2,a100x8=0:1",
            "--goal",
            &format!("{goal}s"),
            "--minimize",
            "cost",
            "--json",
            "-",
        ],
        &base,
    );
    let scan = known
        .iter()
        .filter(|a| a.1 <= goal)
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .unwrap();
    assert_eq!(cheap["best"]["index"].as_u64(), Some(scan.2));
    let pricier = points
        .iter()
        .filter(|p| p["usd_per_hour"].as_f64().unwrap() > scan.0)
        .count() as u64;
    assert_eq!(cheap["skipped"].as_u64(), Some(pricier));
    assert_eq!(
        cheap["evaluated"].as_u64().unwrap() + pricier,
        6,
        "evaluated + skipped = the grid"
    );
}

#[test]
fn the_text_says_the_answer_under_its_table() {
    let base = base();
    let o = smd(
        &["sweep", "--mix", "t4x4=1:2", "--budget", "5/h", "-"],
        Some(base.to_string().as_bytes()),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("t4x4    $/h  mean JCT  finished  cost per job"),
        "{text}"
    );
    assert!(
        text.contains(
            "The mix with the least mean JCT within $5.00/h under sia: 1 × t4x4 at $3.91/h"
        ),
        "{text}"
    );
    assert!(
        text.contains("Evaluated 1 of 2 mixes. Skipped 1 mix over the budget"),
        "{text}"
    );
}

#[test]
fn bad_arguments_name_the_flag() {
    let base = base();
    for (args, says) in [
        (
            vec!["--mix", "t4x4=0:x"],
            "--mix: t4x4: the stop \"x\" is not a number",
        ),
        (
            vec!["--mix", "h100x8=1"],
            "--mix: unknown machine type \"h100x8\"",
        ),
        (
            vec!["--mix", "t4x4=1", "--budget", "lots"],
            "--budget: \"lots\" is not a budget",
        ),
        (
            vec!["--mix", "t4x4=1", "--minimize", "speed"],
            "--minimize: \"speed\" is not what to minimise",
        ),
        (
            vec!["--mix", "t4x4=1", "--minimize", "cost"],
            "--goal: the cheapest mix needs a goal",
        ),
        (
            vec!["--mix", "a100x8=1", "--policy", "fifo"],
            "--policy: fifo cannot plan these jobs on a100x8: choose sia",
        ),
        (
            vec!["--mix", "t4x4=1", "--policy", "nope"],
            "--policy: unknown",
        ),
        (
            vec!["--mix", "rtx2080tix8=1", "--budget", "9"],
            "rtx2080tix8 has no published price",
        ),
        (
            vec!["--mix", "t4x4=1", "--metric", "mean_jct", "--goal", "soon"],
            "--goal:",
        ),
        (
            vec!["--units", "1:2:1", "--goal", "3"],
            "--goal: say which metric",
        ),
    ] {
        let mut all = vec!["sweep"];
        all.extend(args.iter());
        all.push("-");
        let o = smd(&all, Some(base.to_string().as_bytes()));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
