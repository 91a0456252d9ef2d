//! `smd speed` end to end: the JSON contract of docs/SCENARIO.md ("Speed query") on the
//! reference's test vectors (POLLUX-SIM.md §8) and worked example (§1.7), rotations, and
//! refusals with exit status 2.

mod common;

use common::smd;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut all = vec!["speed"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = smd(&all, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn close(v: &Value, want: f64, rel: f64) -> bool {
    let got = v.as_f64().unwrap();
    (got - want).abs() <= rel * want.abs()
}

#[test]
fn a_step_matches_the_reference_in_any_rotation() {
    for p in ["4,2", "2,4"] {
        let v = json(&["--app", "cifar10", "--placement", p, "--local-batch", "342"]);
        assert!(close(&v["step_time_s"], 0.268777, 1e-5), "{v}");
        assert!(close(&v["sync_time_s"], 0.020076, 1e-4), "{v}");
        assert_eq!(v["source"], "interpolated");
    }
    let a = json(&[
        "--app",
        "cifar10",
        "--placement",
        "1,3,2",
        "--local-batch",
        "100",
    ]);
    let b = json(&[
        "--app",
        "cifar10",
        "--placement",
        "1,2,3",
        "--local-batch",
        "100",
    ]);
    assert!(close(&a["step_time_s"], 0.148152, 1e-5), "{a}");
    assert!(close(&b["step_time_s"], 0.150871, 1e-5), "{b}");
    // A measured row is "measured"; 6 machines are the project's interpolation.
    let m = json(&[
        "--app",
        "cifar10",
        "--placement",
        "1",
        "--local-batch",
        "32",
    ]);
    assert_eq!(m["source"], "measured");
    let w = json(&[
        "--app",
        "imagenet",
        "--placement",
        "4,4,4,4,4,4",
        "--local-batch",
        "134",
    ]);
    assert!(w["step_time_s"].as_f64().unwrap() > 0.0, "{w}");
    // Beyond 16 machines the model answers (the 16 largest and the fitted model).
    let p = vec!["4"; 17].join(",");
    let f = json(&[
        "--app",
        "cifar10",
        "--placement",
        &p,
        "--local-batch",
        "100",
    ]);
    assert_eq!(f["source"], "model");
}

#[test]
fn the_worked_example_reaches_its_target_in_47_seconds() {
    let v = json(&["--app", "ncf", "--gpus", "1", "--batch", "32768"]);
    assert_eq!(v["time_to_target_s"], 47.0);
    assert_eq!(v["placement"], serde_json::json!([1]));
    assert!(v["goodput"].as_f64().unwrap() > 0.0);
    // Packed four per machine.
    let v = json(&["--app", "cifar10", "--gpus", "10", "--batch", "2048"]);
    assert_eq!(v["placement"], serde_json::json!([4, 4, 2]));
}

#[test]
fn what_was_not_measured_is_refused_with_status_2() {
    for args in [
        vec!["--app", "nope", "--gpus", "1", "--batch", "256"],
        vec![
            "--app",
            "cifar10",
            "--placement",
            "8",
            "--local-batch",
            "100",
        ],
        vec![
            "--app",
            "cifar10",
            "--placement",
            "4,x",
            "--local-batch",
            "100",
        ],
        vec![
            "--app",
            "cifar10",
            "--placement",
            "4",
            "--local-batch",
            "5000",
        ],
        vec!["--app", "cifar10", "--gpus", "0", "--batch", "256"],
        vec!["--app", "cifar10", "--gpus", "4", "--batch", "99999"],
    ] {
        let mut all = vec!["speed"];
        all.extend_from_slice(&args);
        let o = smd(&all, None);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!o.stderr.is_empty());
    }
}

/// `smd speed args…`: its exit status and stderr.
fn refused(args: &[&str]) -> String {
    let mut all = vec!["speed"];
    all.extend_from_slice(args);
    let o = smd(&all, None);
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    err
}

#[test]
fn more_than_64_gpus_are_refused_naming_the_flag_before_any_work() {
    // Checked first: 4294967295 would otherwise build a placement of a billion machines.
    for w in ["65", "100", "1000000", "4294967295"] {
        let err = refused(&["--app", "cifar10", "--gpus", w, "--batch", "4096"]);
        assert_eq!(
            err,
            format!("error: --gpus {w}: at most 64 on the T4 (16 machines of 4, as measured)\n")
        );
    }
    let v = json(&["--app", "cifar10", "--gpus", "64", "--batch", "4096"]);
    assert_eq!(v["placement"], serde_json::json!(vec![4; 16]));
    // A batch too small for the GPUs is said in the flags' terms.
    let err = refused(&["--app", "cifar10", "--gpus", "64", "--batch", "128"]);
    assert!(
        err.starts_with("error: --gpus 64 with --batch 128: 2 examples per GPU, fewer than the 32"),
        "{err}"
    );
}

#[test]
fn messages_echo_numbers_and_placements_short() {
    let long = std::iter::once("5")
        .chain(std::iter::repeat_n("1", 30_000))
        .collect::<Vec<_>>()
        .join(",");
    let err = refused(&[
        "--app",
        "cifar10",
        "--placement",
        &long,
        "--local-batch",
        "100",
    ]);
    assert_eq!(
        err,
        "error: placement 5,1,1,1,1,1,1,1,… (30001 machines): a node has 5 GPUs, at most 4 were \
         measured\n"
    );
    let wide = vec!["4"; 20].join(",");
    for (placement, batch, shown) in [
        ("4", "1e-300", "1e-300"),
        ("4,4,4,4,4,4", "1e-300", "1e-300"),
        (wide.as_str(), "1e300", "1e300"),
    ] {
        let err = refused(&[
            "--app",
            "cifar10",
            "--placement",
            placement,
            "--local-batch",
            batch,
        ]);
        assert!(
            err.contains(&format!("local batch {shown} outside the measured 32…1024")),
            "{err}"
        );
        assert!(err.len() < 120, "{err}");
    }
    let err = refused(&["--app", "cifar10", "--gpus", "4", "--batch", "1e-300"]);
    assert_eq!(err, "error: cifar10: total batch 1e-300 outside 128…4096\n");
}

/// Each machine type answers at its GPU's measured speed (the Sia artifact's rows), names
/// its GPU type, and refuses more machines than were measured or a type without GPUs.
#[test]
fn each_machine_type_answers_at_its_gpus_speed() {
    let v = json(&[
        "--app",
        "bert",
        "--placement",
        "8,8",
        "--local-batch",
        "12",
        "--machine-type",
        "rtx2080tix8",
    ]);
    assert_eq!(v["step_time_s"].as_f64(), Some(0.9991360157728195), "{v}");
    assert_eq!(v["gpu_type"], "rtx2080ti");
    assert_eq!(v["source"], "measured");
    let t4 = json(&["--app", "bert", "--gpus", "8", "--batch", "384"]);
    assert_eq!(t4["gpu_type"], "t4");
    let a100 = json(&[
        "--app",
        "bert",
        "--gpus",
        "8",
        "--batch",
        "384",
        "--machine-type",
        "a100x8",
    ]);
    assert_eq!(a100["gpu_type"], "a100");
    assert_eq!(a100["placement"], serde_json::json!([8]));
    let (t, a) = (
        t4["time_to_target_s"].as_f64().unwrap(),
        a100["time_to_target_s"].as_f64().unwrap(),
    );
    assert!(a * 5.0 < t, "A100 {a} s against T4 {t} s");
    for (args, says) in [
        (
            vec!["--gpus", "24", "--batch", "384", "--machine-type", "a100x8"],
            "at most 16 on the A100",
        ),
        (
            vec![
                "--gpus",
                "2",
                "--batch",
                "384",
                "--machine-type",
                "c4.8xlarge",
            ],
            "has no GPU",
        ),
        (
            vec!["--gpus", "2", "--batch", "384", "--machine-type", "h100x8"],
            "unknown machine type",
        ),
    ] {
        let mut all = vec!["speed", "--app", "bert"];
        all.extend(args);
        let o = smd(&all, None);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains(says), "{says}");
    }
}
