//! `smd share` end to end: the JSON of docs/SCENARIO.md ("GPU sharing") re-checked against
//! the rules, and the algorithms' order.

mod common;

use common::smd;
use serde_json::Value;

/// 30 preset jobs on 4 × t4x4 with GPU memory, each job given a memory profile.
fn scenario() -> String {
    let o = smd(
        &["trace", "--workload", "workload-1", "--machines", "4"],
        None,
    );
    let mut s: Value = serde_json::from_slice(&o.stdout).unwrap();
    s["jobs"].as_array_mut().unwrap().truncate(30);
    for g in s["cluster"]["machines"].as_array_mut().unwrap() {
        g["gpu_memory_gb"] = 16.into();
    }
    for (i, j) in s["jobs"].as_array_mut().unwrap().iter_mut().enumerate() {
        j["gpu_mem_mean_gb"] = (1.0 + (i % 5) as f64).into();
        j["gpu_mem_sd_gb"] = (0.2 * (i % 3) as f64).into();
        j["gpu_util"] = (0.1 + 0.15 * (i % 4) as f64).into();
    }
    s["params"]["epsilon"] = 0.1.into();
    s.to_string()
}

fn share(text: &str, algorithm: &str) -> Value {
    let o = smd(
        &[
            "share",
            "--json",
            "--policy",
            "optimus",
            "--algorithm",
            algorithm,
            "-",
        ],
        Some(text.as_bytes()),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn packings_follow_the_contract_and_the_rules() {
    let text = scenario();
    let s: Value = serde_json::from_str(&text).unwrap();
    let job = |id: &str| {
        s["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["id"] == id)
            .unwrap()
            .clone()
    };
    let z = 2.326_347_874; // Φ⁻¹(0.99)
    let mut used = Vec::new();
    for algorithm in ["off", "greedy", "heuristic", "exact"] {
        let p = share(&text, algorithm);
        let gpus = p["gpus"].as_array().unwrap();
        assert_eq!(gpus.len() as u64, p["gpus_used"].as_u64().unwrap());
        let mut placed = 0;
        for g in gpus {
            let ws = g["workers"].as_array().unwrap();
            placed += ws.len();
            let (mut mean, mut var, mut util) = (0.0, 0.0, 0.0);
            for w in ws {
                let j = job(w["job"].as_str().unwrap());
                mean += j["gpu_mem_mean_gb"].as_f64().unwrap();
                var += j["gpu_mem_sd_gb"].as_f64().unwrap().powi(2);
                util += j["gpu_util"].as_f64().unwrap();
            }
            assert!(
                mean + z * f64::sqrt(var) <= 16.0 * (1.0 + 1e-6),
                "{algorithm}: memory"
            );
            let s = util.max(1.0) * (1.0 + 0.02 * (ws.len() as f64 - 1.0));
            assert!(
                1.0 / s >= 0.93 - 1e-9,
                "{algorithm}: performance {}",
                1.0 / s
            );
            for x in g["slowdowns"].as_array().unwrap() {
                assert!((x.as_f64().unwrap() - s).abs() < 1e-9);
            }
            assert!((g["mem_mean_gb"].as_f64().unwrap() - mean).abs() < 1e-9);
        }
        assert_eq!(placed as u64, p["exclusive_gpus"].as_u64().unwrap());
        used.push(gpus.len());
    }
    // off ≥ greedy ≥ heuristic ≥ exact, and sharing saves something here.
    assert!(used.windows(2).all(|w| w[0] >= w[1]), "{used:?}");
    assert!(used[3] < used[0], "{used:?}");
}

#[test]
fn plan_with_sharing_on_says_what_it_saved() {
    let text = scenario();
    let o = smd(
        &[
            "plan",
            "--policy",
            "optimus",
            "--set",
            "gpu_sharing=heuristic",
            "-",
        ],
        Some(text.as_bytes()),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("GPU sharing (heuristic):") && out.contains("GPUs instead of"),
        "{out}"
    );
    // Off: no such line, and the JSON has no sharing.
    let o = smd(
        &["plan", "--policy", "optimus", "--json", "-"],
        Some(text.as_bytes()),
    );
    let plan: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(plan.get("sharing").is_none());
    let o = smd(
        &[
            "plan",
            "--policy",
            "optimus",
            "--json",
            "--set",
            "gpu_sharing=exact",
            "-",
        ],
        Some(text.as_bytes()),
    );
    let plan: Value = serde_json::from_slice(&o.stdout).unwrap();
    let sh = &plan["sharing"];
    assert_eq!(sh["algorithm"], "exact");
    assert!(sh["gpus_used"].as_u64().unwrap() <= sh["exclusive_gpus"].as_u64().unwrap());
}
