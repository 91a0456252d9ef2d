//! `smd sweep` end to end: the output contract of docs/SCENARIO.md ("Sweep output"), each
//! point equal to `smd plan` of that point's scenario, the table and its sentence, and bad
//! arguments named by their flag.

mod common;

use common::{smd, smd_with_progress};
use serde_json::Value;

/// 12 generated jobs (seed 3) on `units` units, or on `machines` × t4x4.
fn generated(extra: &[&str]) -> Value {
    let mut args = vec!["generate", "--jobs", "12", "--seed", "3"];
    args.extend_from_slice(extra);
    let o = smd(&args, None);
    assert_eq!(o.status.code(), Some(0));
    serde_json::from_slice(&o.stdout).unwrap()
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

/// `smd plan --policy P --json` of `scenario`: its total utility and admitted jobs.
fn plan(scenario: &Value, policy: &str) -> (f64, u64) {
    let p = run(&["plan", "--policy", policy, "--json", "-"], scenario);
    (
        p["total_utility"].as_f64().unwrap(),
        p["admitted"].as_u64().unwrap(),
    )
}

#[test]
fn units_follow_the_contract_and_equal_smd_plan() {
    let base = generated(&[]);
    let out = run(&["sweep", "--units", "0.5:2:0.5", "--json", "-"], &base);
    let points = out["points"].as_array().unwrap();
    let sizes: Vec<f64> = points
        .iter()
        .map(|p| p["units"].as_f64().unwrap())
        .collect();
    assert_eq!(sizes, [0.5, 1.0, 1.5, 2.0]);
    for p in points {
        assert!(p.get("machines").is_none());
        let policies = p["policies"].as_object().unwrap();
        let names: Vec<&str> = policies.keys().map(String::as_str).collect();
        let mut want = vec!["smd", "esw", "optimus", "exact", "global"];
        want.sort_unstable();
        let mut got = names.clone();
        got.sort_unstable();
        assert_eq!(got, want);
        // The point's scenario, written by hand, planned by `smd plan`.
        let mut at = base.clone();
        at["cluster"]["units"] = p["units"].clone();
        for (name, o) in policies {
            for key in ["total_utility", "admitted", "used", "solve_ms"] {
                assert!(o.get(key).is_some(), "{name} lacks {key}");
            }
            for r in ["gpu", "vcpu", "memory_gb", "storage_gb"] {
                assert!(o["used"][r].is_number(), "{name} used.{r}");
            }
            let (utility, admitted) = plan(&at, name);
            assert_eq!(
                o["total_utility"].as_f64().unwrap(),
                utility,
                "{name} at {}",
                p["units"]
            );
            assert_eq!(o["admitted"].as_u64().unwrap(), admitted, "{name}");
        }
    }
    let k = &out["knee"];
    for key in [
        "best_policy",
        "size",
        "utility",
        "fraction",
        "marginal_pct",
        "answer",
    ] {
        assert!(k.get(key).is_some(), "knee lacks {key}");
    }
    // The best policy has the most utility at the largest size (global's, maybe tied).
    let last = &points[points.len() - 1]["policies"];
    let best = last[k["best_policy"].as_str().unwrap()]["total_utility"]
        .as_f64()
        .unwrap();
    assert_eq!(best, last["global"]["total_utility"].as_f64().unwrap());
    assert!(k["fraction"].as_f64().unwrap() >= 0.95);
    assert!(out.get("over_time_knee").is_none());
}

#[test]
fn machines_of_a_pool_equal_smd_generate_on_machines() {
    let base = generated(&[]);
    let out = run(
        &[
            "sweep",
            "--machines",
            "4:8:4",
            "--policy",
            "smd,global",
            "--json",
            "-",
        ],
        &base,
    );
    for p in out["points"].as_array().unwrap() {
        let n = p["machines"].as_f64().unwrap();
        assert_eq!(p["machine"], "t4x4");
        let at = generated(&["--machines", &n.to_string()]);
        for name in ["smd", "global"] {
            let (utility, _) = plan(&at, name);
            assert_eq!(
                p["policies"][name]["total_utility"].as_f64().unwrap(),
                utility,
                "{name} at {n}"
            );
        }
        assert_eq!(p["policies"].as_object().unwrap().len(), 2);
    }
}

#[test]
fn over_time_adds_the_runs_and_their_knee() {
    let o = smd(
        &["trace", "--workload", "workload-1", "--machines", "2"],
        None,
    );
    let mut s: Value = serde_json::from_slice(&o.stdout).unwrap();
    s["jobs"].as_array_mut().unwrap().truncate(10);
    s["params"]["epsilon"] = 0.1.into();
    let out = run(
        &[
            "sweep",
            "--machines",
            "1:2:1",
            "--policy",
            "optimus",
            "--over-time",
            "--sim-policy",
            "fifo,bound",
            "--json",
            "-",
        ],
        &s,
    );
    for p in out["points"].as_array().unwrap() {
        for name in ["fifo", "bound"] {
            let t = &p["over_time"][name];
            for key in [
                "total_utility",
                "bound",
                "finished",
                "mean_jct_s",
                "mean_queue_s",
                "run_ms",
            ] {
                assert!(t.get(key).is_some(), "{name} lacks {key}");
            }
        }
    }
    assert_eq!(out["over_time_knee"]["best_policy"], "fifo");
    // Without arrivals there is nothing to run over time.
    let o = smd(
        &["sweep", "--units", "1:2:1", "--over-time", "-"],
        Some(generated(&[]).to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--over-time needs jobs with arrival_s"));
}

#[test]
fn the_table_says_where_the_knee_is() {
    let base = generated(&[]);
    let o = smd(
        &["sweep", "--units", "0.5:2:0.5", "-"],
        Some(base.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    for p in ["smd", "esw", "optimus", "exact", "global", "units"] {
        assert!(text.contains(p), "{text}");
    }
    assert!(text.contains("95% of the achievable utility"), "{text}");
    // One row per size.
    for size in ["0.5", "1.5"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(size)),
            "{text}"
        );
    }
}

#[test]
fn bad_arguments_name_the_flag_and_the_value() {
    let base = generated(&[]).to_string();
    let err = |args: &[&str]| {
        let o = smd(args, Some(base.as_bytes()));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(err(&["sweep", "--units", "5:1:1", "-"])
        .contains("--units 5:1:1: the stop (1) is below the start (5)"));
    assert!(
        err(&["sweep", "--units", "1:5:0", "-"]).contains("--units 1:5:0: the step must be > 0")
    );
    assert!(
        err(&["sweep", "--units", "1:5:-1", "-"]).contains("--units 1:5:-1: the step must be > 0")
    );
    assert!(err(&["sweep", "--units", "0:100:0.1", "-"]).contains("more than the 200"));
    assert!(err(&["sweep", "--machines", "1.5:3:1", "-"])
        .contains("--machines 1.5:3:1: a machine count must be a whole number"));
    assert!(
        err(&["sweep", "--units", "1:2", "-"]).contains("--units 1:2: expected start:stop:step")
    );
    // A range typed at length is echoed cut, once: the message stays a line.
    let long = format!("1:{}:1", "9".repeat(400));
    let m = err(&["sweep", "--units", &long, "-"]);
    assert!(m.len() < 300 && m.contains("(404 characters)"), "{m}");
    assert!(
        err(&["sweep", "--units", "1:2:1", "--resource", "tpu", "-"])
            .contains("--resource: unknown resource \"tpu\"")
    );
    assert!(err(&["sweep", "--units", "1:2:1", "--policy", "best", "-"])
        .contains("--policy: unknown policy \"best\""));
    assert!(err(&["sweep", "--machines", "1:2:1", "--group", "a", "-"]).contains("--group:"));
    assert!(err(&[
        "sweep",
        "--machines",
        "1:2:1",
        "--machine-type",
        "h100",
        "-"
    ])
    .contains("--machine-type: unknown machine type \"h100\""));
    assert!(err(&["sweep", "-"]).contains("--units"));
}

/// workload-1's first 10 jobs on 2 × t4x4 (`smd trace`).
fn ten_jobs_on_two_machines() -> Value {
    let o = smd(
        &["trace", "--workload", "workload-1", "--machines", "2"],
        None,
    );
    let mut s: Value = serde_json::from_slice(&o.stdout).unwrap();
    s["jobs"].as_array_mut().unwrap().truncate(10);
    s
}

/// `smd sweep --machines 1:3:1 --over-time --sim-policy fifo --metric M --json` of `s`.
fn fifo_over_1_to_3(s: &Value, metric: &str) -> Value {
    run(
        &[
            "sweep",
            "--machines",
            "1:3:1",
            "--policy",
            "optimus",
            "--over-time",
            "--sim-policy",
            "fifo",
            "--metric",
            metric,
            "--json",
            "-",
        ],
        s,
    )
}

/// `--metric`: the answer for one metric under the policy named, in the JSON's `answer`
/// and `metric`, its values those of the points; refused without --over-time.
#[test]
fn a_metric_is_answered_under_its_policy() {
    let s = ten_jobs_on_two_machines();
    let out = fifo_over_1_to_3(&s, "mean_jct");
    let m = &out["metric"];
    assert_eq!(m["metric"], "mean_jct");
    assert_eq!(m["policy"], "fifo");
    assert_eq!(m["chosen"], false);
    // The current size is the scenario's own: 2 machines.
    assert_eq!(m["current"]["size"], 2.0);
    let points = out["points"].as_array().unwrap();
    for (v, p) in m["values"].as_array().unwrap().iter().zip(points) {
        assert_eq!(v["value"], p["over_time"]["fifo"]["mean_jct_s"]);
    }
    let answer = out["answer"].as_str().unwrap();
    assert!(answer.contains("mean JCT under fifo"), "{answer}");
    let o = smd(
        &["sweep", "--machines", "1:2:1", "--metric", "p95_jct", "-"],
        Some(s.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--metric p95_jct: the p95 JCT is measured over time: add --over-time"));
    let o = smd(
        &["sweep", "--machines", "1:2:1", "--metric", "speed", "-"],
        Some(s.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--metric:"));
    // A goal, by bisection: the size it names meets it, and the one below (if evaluated)
    // does not.
    let worst = m["values"][0]["value"].as_f64().unwrap();
    let best = m["values"][2]["value"].as_f64().unwrap();
    let goal = format!("{}s", (worst + best) / 2.0);
    let sought = run(
        &[
            "sweep",
            "--machines",
            "1:3:1",
            "--over-time",
            "--sim-policy",
            "fifo",
            "--metric",
            "mean_jct",
            "--goal",
            &goal,
            "--json",
            "-",
        ],
        &s,
    );
    let found = sought["found"]["value"].as_f64().unwrap();
    assert!(found <= (worst + best) / 2.0);
    assert!(sought["answer"]
        .as_str()
        .unwrap()
        .starts_with("The fewest of the sizes swept for a mean JCT ≤"));
    assert_eq!(sought["swept"], 3);
    // Three sizes: bisection evaluates every one below the answer.
    assert_eq!(sought["exact"], true);
    let o = smd(
        &[
            "sweep",
            "--machines",
            "1:2:1",
            "--over-time",
            "--metric",
            "mean_jct",
            "--goal",
            "2h",
            "-",
        ],
        Some(s.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--goal: name the one policy"));
    let o = smd(
        &[
            "sweep",
            "--machines",
            "1:2:1",
            "--over-time",
            "--sim-policy",
            "fifo",
            "--metric",
            "mean_jct",
            "--goal",
            "soon",
            "-",
        ],
        Some(s.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--goal: \"soon\" is not a goal"));
}

/// `--metric cost`: a trace on catalog machines carries their hourly price; each point's
/// cost is its machines × $3.912 × the simulated run's length (`smd simulate`'s slots × Δ),
/// re-derived here at the scenario's own size; the answer names the cheapest size. A pool
/// has no price and is refused by name.
#[test]
fn the_cost_of_a_run_is_its_machines_price_times_its_length() {
    let s = ten_jobs_on_two_machines();
    assert_eq!(s["cluster"]["machines"][0]["hourly_usd"], 3.912);
    let out = fifo_over_1_to_3(&s, "cost");
    let sim = run(&["simulate", "--policy", "fifo", "--json", "-"], &s);
    let slots = sim["slots"].as_array().unwrap().len() as f64;
    let interval = sim["slots"][1]["start_s"].as_f64().unwrap();
    let at_2 = &out["points"][1]["over_time"]["fifo"]["cost_usd"];
    let expected = 2.0 * 3.912 * slots * interval / 3600.0;
    assert!(
        (at_2.as_f64().unwrap() - expected).abs() < 1e-9 * expected,
        "{at_2} vs {expected}"
    );
    let m = &out["metric"];
    let least = m["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(m["target"]["value"].as_f64().unwrap(), least);
    let answer = out["answer"].as_str().unwrap();
    assert!(answer.contains("until the jobs are done"), "{answer}");
    // A job's mean cost is no cost of the whole run.
    let per_job = fifo_over_1_to_3(&s, "cost_per_job");
    let answer = per_job["answer"].as_str().unwrap();
    assert!(
        answer.contains("per job on average") && !answer.contains("until the jobs are done"),
        "{answer}"
    );
    let mut pool = s.clone();
    pool["cluster"] = serde_json::json!({ "units": 2 });
    let o = smd(
        &[
            "sweep",
            "--units",
            "1:2:1",
            "--over-time",
            "--metric",
            "cost",
            "-",
        ],
        Some(pool.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--metric cost") && e.contains("no price"), "{e}");
}

/// `smd sweep … --goal` of workload-1's first 10 jobs under fifo over 1 to 3 machines, the
/// goal and the metric given; its output.
fn goal(metric: &str, goal: &str) -> std::process::Output {
    let s = ten_jobs_on_two_machines();
    smd(
        &[
            "sweep",
            "--machines",
            "1:3:1",
            "--over-time",
            "--sim-policy",
            "fifo",
            "--metric",
            metric,
            "--goal",
            goal,
            "-",
        ],
        Some(s.to_string().as_bytes()),
    )
}

/// A goal out of range, of the wrong kind or negative is refused by `--goal`, briefly.
#[test]
fn a_goal_that_is_no_goal_is_refused_naming_the_flag() {
    for (metric, text, message) in [
        (
            "mean_jct",
            "1e308h",
            "error: --goal: \"1e308h\" is too large: a goal is at most 1e12 s\n",
        ),
        (
            "mean_jct",
            "1e308",
            "error: --goal: \"1e308\" is too large: a goal is at most 1e12 s\n",
        ),
        (
            "finished",
            "30min",
            "error: --goal: \"30min\" is a time; a goal on the finished jobs is a plain number\n",
        ),
        (
            "mean_jct",
            "-5",
            "error: --goal: \"-5\" is not a goal: a number ≥ 0, with a unit (2h, 90min, 30s)\n",
        ),
        (
            "finished",
            "-5",
            "error: --goal: \"-5\" is not a goal: a number ≥ 0\n",
        ),
    ] {
        let o = goal(metric, text);
        assert_eq!(o.status.code(), Some(2), "{metric} {text}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), message);
        assert!(o.stdout.is_empty());
    }
}

/// A goal shows its progress on stderr (here from the start; past a few seconds for
/// people), naming the size being evaluated.
#[test]
fn a_goal_shows_its_progress() {
    let s = ten_jobs_on_two_machines();
    let o = smd_with_progress(
        &[
            "sweep",
            "--machines",
            "1:3:1",
            "--over-time",
            "--sim-policy",
            "fifo",
            "--metric",
            "mean_jct",
            "--goal",
            "1h",
            "--json",
            "-",
        ],
        Some(s.to_string().as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.starts_with("smd: seeking the goal over 3 sizes: "), "{e}");
    serde_json::from_slice::<Value>(&o.stdout).unwrap();
}

/// Over time, the total utility is each policy over time's simulated utility: the answer
/// for several policies, as for one, is read from the runs, not from the static plans.
#[test]
fn utility_over_time_is_the_simulations_for_one_policy_or_several() {
    let s = ten_jobs_on_two_machines();
    for sim in ["fifo,optimus", "optimus"] {
        let out = run(
            &[
                "sweep",
                "--machines",
                "1:3:1",
                "--policy",
                "smd,optimus",
                "--over-time",
                "--sim-policy",
                sim,
                "--metric",
                "utility",
                "--json",
                "-",
            ],
            &s,
        );
        let m = &out["metric"];
        let policy = m["policy"].as_str().unwrap();
        assert!(sim.split(',').any(|p| p == policy), "{sim}: {policy}");
        let points = out["points"].as_array().unwrap();
        for (v, p) in m["values"].as_array().unwrap().iter().zip(points) {
            assert_eq!(v["value"], p["over_time"][policy]["total_utility"], "{sim}");
        }
    }
}

/// The reference simulator's policies schedule measured all-reduce jobs only: on
/// parameter-server jobs one named is skipped with a warning that says so, and a metric
/// asked of it is refused by --sim-policy, not by a flag that was given.
#[test]
fn a_policy_over_time_that_cannot_run_is_said_not_skipped_silently() {
    let o = smd(
        &[
            "trace",
            "--workload",
            "workload-1",
            "--machines",
            "2",
            "--architecture",
            "ps",
        ],
        None,
    );
    let mut s: Value = serde_json::from_slice(&o.stdout).unwrap();
    s["jobs"].as_array_mut().unwrap().truncate(4);
    let id = s["jobs"][0]["id"].as_str().unwrap().to_owned();
    let why = format!(
        "schedules measured all-reduce jobs only, and job {id:?} is a parameter-server job"
    );
    let sweep = |extra: &[&str]| {
        let mut args = vec![
            "sweep",
            "--machines",
            "1:2:1",
            "--policy",
            "smd",
            "--over-time",
        ];
        args.extend_from_slice(extra);
        args.push("-");
        smd(&args, Some(s.to_string().as_bytes()))
    };
    let o = sweep(&["--sim-policy", "pollux,fifo", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("warning: --sim-policy: pollux is skipped: it {why}\n")
    );
    let out: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(out["points"][0]["over_time"]["fifo"].is_object());
    // `all` names the policies that apply: nothing to warn of.
    let o = sweep(&["--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = sweep(&["--sim-policy", "pollux", "--metric", "mean_jct"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("error: --sim-policy pollux: it {why}\n")
    );
    let o = sweep(&["--sim-policy", "pollux,tiresias", "--metric", "mean_jct"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: --metric mean_jct: no policy over time is left to measure it: pollux {why}\n"
        )
    );
}
