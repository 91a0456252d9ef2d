//! `smd simulate` end to end: the output contract of docs/SCENARIO.md ("Simulation
//! output") on a bundled trace, the table, and bad arguments.

mod common;

use common::smd;
use serde_json::Value;

fn trace_file() -> String {
    // The first 20 arrivals of workload-1 on 4 × t4x4, slots of a minute.
    let o = smd(
        &["trace", "--workload", "workload-1", "--machines", "4"],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let mut s: Value = serde_json::from_slice(&o.stdout).unwrap();
    s["jobs"].as_array_mut().unwrap().truncate(20);
    s["params"]["epsilon"] = 0.1.into();
    s.to_string()
}

#[test]
fn the_json_follows_the_contract_for_every_policy() {
    let text = trace_file();
    let o = smd(&["simulate", "--json", "-"], Some(text.as_bytes()));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let runs: Value = serde_json::from_slice(&o.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    let names: Vec<&str> = runs.iter().map(|r| r["policy"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "fifo",
            "optimus",
            "smd",
            "oasis",
            "locality",
            "bound",
            "tiresias",
            "optimus_oracle",
            "pollux",
            // gavel runs each job at its request: imagenet-11's 32 GPUs fit no type here.
            "sia",
            "pollux_unaware"
        ]
    );
    for r in runs {
        let m = &r["metrics"];
        for key in [
            "total_utility",
            "bound",
            "mean_jct_s",
            "median_jct_s",
            "p95_jct_s",
            "makespan_s",
            "mean_queue_s",
            "p95_queue_s",
            "restarts",
            "cross_traffic_gbit",
            "unfinished",
        ] {
            assert!(m.get(key).is_some(), "{} lacks metrics.{key}", r["policy"]);
        }
        assert!(m["total_utility"].as_f64().unwrap() <= m["bound"].as_f64().unwrap() + 1e-9);
        let jobs = r["jobs"].as_array().unwrap();
        assert_eq!(jobs.len(), 20);
        for j in jobs {
            for key in [
                "id",
                "arrival_s",
                "first_start_s",
                "completion_s",
                "jct_s",
                "utility",
                "restarts",
                "segments",
            ] {
                assert!(j.get(key).is_some(), "job lacks {key}");
            }
            for seg in j["segments"].as_array().unwrap() {
                for key in ["start_s", "end_s", "workers", "ps", "locality_factor"] {
                    assert!(seg.get(key).is_some(), "segment lacks {key}");
                }
                // On machines every scheduled segment says where it ran (bound: alone).
                let placed = seg.get("placement").is_some();
                assert_eq!(placed, r["policy"] != "bound", "{}", r["policy"]);
            }
        }
        // The slot loop's Δ (the measured jobs' default, a minute), as the typed policies'
        // tick (gavel's 6 minutes would differ).
        assert_eq!(r["slot_s"].as_f64(), Some(60.0), "{}", r["policy"]);
        if r["policy"] != "bound" {
            let slots = r["slots"].as_array().unwrap();
            assert!(!slots.is_empty());
            assert!(slots[0]["used"].get("gpu").is_some());
        }
    }
    // One policy: one object.
    let o = smd(
        &["simulate", "--json", "--policy", "fifo", "-"],
        Some(text.as_bytes()),
    );
    let run: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(run["policy"], "fifo");
}

#[test]
fn the_table_and_bad_arguments() {
    let text = trace_file();
    let o = smd(&["simulate", "-"], Some(text.as_bytes()));
    let out = String::from_utf8(o.stdout).unwrap();
    for p in ["fifo", "optimus", "smd", "oasis", "locality", "bound"] {
        assert!(out.contains(p), "{out}");
    }
    assert!(
        out.contains("of bound") && out.contains("mean JCT"),
        "{out}"
    );
    assert!(out.starts_with("20 jobs   slot 60.0 s"), "{out}");
    // A typed policy alone: its own tick, not the slot loop's slot and restart.
    let o = smd(&["simulate", "--policy", "sia", "-"], Some(text.as_bytes()));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("20 jobs\n") && out.contains("every 60.0 s"),
        "{out}"
    );
    let o = smd(
        &["simulate", "--policy", "lifo", "-"],
        Some(text.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("lifo") && err.contains("fifo"), "{err}");
    let o = smd(
        &["simulate", "--set", "interval_s=0", "-"],
        Some(text.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("params.interval_s"));
}

#[test]
fn sharing_over_time_reports_gpu_hours_and_slowdowns() {
    // Light profiles on every job, sharing on: the JSON has the sharing metrics, segment
    // slowdowns and GPUs in use no more than the exclusive ones; the table its columns.
    let mut s: Value = serde_json::from_str(&trace_file()).unwrap();
    s["params"]["gpu_sharing"] = "heuristic".into();
    for j in s["jobs"].as_array_mut().unwrap() {
        j["gpu_mem_mean_gb"] = 2.0.into();
        j["gpu_mem_sd_gb"] = 0.5.into();
        j["gpu_util"] = 0.2.into();
    }
    let text = s.to_string();
    let o = smd(
        &["simulate", "--policy", "optimus", "--json", "-"],
        Some(text.as_bytes()),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let run: Value = serde_json::from_slice(&o.stdout).unwrap();
    let m = &run["metrics"]["sharing"];
    let (used, exclusive) = (
        m["gpu_hours"].as_f64().unwrap(),
        m["exclusive_gpu_hours"].as_f64().unwrap(),
    );
    assert!(used > 0.0 && used < exclusive, "{m}");
    let perf = m["mean_performance"].as_f64().unwrap();
    assert!(perf > 0.9 && perf <= 1.0, "{m}");
    let slowdowns: Vec<f64> = run["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|j| j["segments"].as_array().unwrap().clone())
        .map(|g| {
            g["slowdown"]
                .as_f64()
                .expect("every segment has its slowdown")
        })
        .collect();
    assert!(!slowdowns.is_empty());
    assert!(slowdowns
        .iter()
        .all(|&x| (1.0..=1.0 / 0.93 + 1e-9).contains(&x)));
    assert!(slowdowns.iter().any(|&x| x > 1.0), "something shares");
    let o = smd(&["simulate", "-"], Some(text.as_bytes()));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("GPU sharing on") && out.contains("GPU-h"),
        "{out}"
    );
}
