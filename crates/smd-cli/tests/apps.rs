//! `smd apps`, `smd machines`, `smd job` and `smd trace` end to end.

mod common;

use common::smd;
use smd_apps::app::App;
use smd_apps::preset::{preset, PresetOptions};
use smd_core::scenario::Job;
use smd_core::Scenario;
use std::process::Output;

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "stderr:\n{err}");
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Exit 2 with every needle in the message, nothing on stdout.
fn invalid(o: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr:\n{err}");
    assert!(o.stdout.is_empty() && !err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}:\n{err}");
    }
}

#[test]
fn apps_and_machines_list_the_catalogs() {
    let text = ok(&smd(&["apps"], None));
    for app in App::ALL {
        let f = app.facts();
        let line = text.lines().find(|l| l.starts_with(app.name())).unwrap();
        assert!(line.contains(&f.parameters.to_string()), "{line}");
        assert!(
            line.contains(&format!("{}–{}", f.initial_batch, f.max_batch)),
            "{line}"
        );
    }
    let v: serde_json::Value = serde_json::from_str(&ok(&smd(&["apps", "--json"], None))).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 6);
    assert_eq!(v[2]["app"], "bert");
    assert_eq!(v[2]["iterations"][5]["iterations"], 480);
    let m: serde_json::Value =
        serde_json::from_str(&ok(&smd(&["machines", "--json"], None))).unwrap();
    assert_eq!(m[0]["name"], "t4x4");
    assert_eq!(m[0]["capacity"]["gpu"], 4.0);
    assert!(ok(&smd(&["machines"], None)).contains("g4dn.12xlarge"));
}

#[test]
fn job_writes_the_preset() {
    let out = ok(&smd(
        &[
            "job",
            "--architecture",
            "ps",
            "--app",
            "imagenet",
            "--global-batch",
            "3200",
            "--id",
            "r50",
        ],
        None,
    ));
    let job: Job = serde_json::from_str(&out).unwrap();
    let want = preset(
        App::Imagenet,
        &PresetOptions {
            id: Some("r50".into()),
            ..PresetOptions::batch(3200.0)
        },
    )
    .unwrap();
    assert_eq!(job, want);
    // The default: the job as measured, its batch fixed.
    let out = ok(&smd(
        &["job", "--app", "imagenet", "--global-batch", "3200"],
        None,
    ));
    let job: Job = serde_json::from_str(&out).unwrap();
    let opts = smd_apps::preset::MeasuredOptions {
        batch_size: Some(3200.0),
        ..Default::default()
    };
    assert_eq!(
        job,
        smd_apps::preset::measured(App::Imagenet, &opts).unwrap()
    );
    assert_eq!(job.id, "imagenet-3200");
    invalid(
        &smd(&["job", "--app", "resnet", "--global-batch", "32"], None),
        &["--app", "unknown application \"resnet\"", "cifar10"],
    );
    invalid(
        &smd(&["job", "--app", "bert", "--global-batch", "1000"], None),
        &["--global-batch", "between 12 and 384"],
    );
    // An id a scenario would refuse is refused here, under its flag, in either architecture.
    let long = "x".repeat(201);
    for arch in ["allreduce", "ps"] {
        let args = [
            "job",
            "--app",
            "bert",
            "--global-batch",
            "32",
            "--architecture",
            arch,
        ];
        for (id, says) in [
            (
                long.as_str(),
                "--id: must be at most 200 characters (got 201)",
            ),
            ("  ", "--id: must not be empty"),
        ] {
            invalid(&smd(&[&args[..], &["--id", id]].concat(), None), &[says]);
        }
    }
    invalid(
        &smd(
            &[
                "job",
                "--app",
                "bert",
                "--global-batch",
                "48",
                "--minibatch",
                "96",
            ],
            None,
        ),
        &["--minibatch"],
    );
}

#[test]
fn trace_reads_a_workload_or_a_file_into_a_valid_scenario() {
    let out = ok(&smd(&["trace", "--workload", "workload-3-half"], None));
    let s = Scenario::from_json(&out).unwrap();
    assert_eq!((s.version, s.jobs.len()), (2, 80));
    // The default cluster: the artifact's 16 nodes of 4 T4s, as machines.
    assert_eq!(s.cluster.machine_list().len(), 16);
    assert_eq!(s.cluster.capacity().gpu, 64.0);
    assert_eq!(s.cluster.instance.gpu, 4.0);
    // From stdin, on a pool of units.
    let csv = "name,time,application,num_replicas,batch_size\nj,12.5,ncf,1,32768\n";
    let out = ok(&smd(&["trace", "-", "--units", "2"], Some(csv.as_bytes())));
    let s = Scenario::from_json(&out).unwrap();
    assert_eq!(s.cluster.units, 2.0);
    assert_eq!(s.jobs[0].arrival_s, Some(12.5));
    // It plans.
    ok(&smd(
        &["plan", "--epsilon", "0.1", "-"],
        Some(out.as_bytes()),
    ));
    // Problems name the row and column, or the option.
    let bad = "name,time,application,num_replicas,batch_size\nj,1,ncf,1,32768\nk,x,ncf,1,256\n";
    invalid(
        &smd(&["trace", "-"], Some(bad.as_bytes())),
        &["row 2 (line 3)", "column \"time\""],
    );
    invalid(
        &smd(
            &["trace", "--workload", "w", "--machine-type", "t4x4"],
            None,
        ),
        &["--workload", "workload-1"],
    );
    invalid(
        &smd(
            &["trace", "--workload", "workload-1", "--machine-type", "dgx"],
            None,
        ),
        &["--machine-type", "t4x4"],
    );
    invalid(
        &smd(
            &["trace", "--workload", "workload-1", "--machines", "2.5"],
            None,
        ),
        &["--machines", "whole number"],
    );
    let conflict = smd(
        &[
            "trace",
            "--workload",
            "workload-1",
            "--units",
            "1",
            "--machines",
            "4",
        ],
        None,
    );
    assert_eq!(conflict.status.code(), Some(2));
}

/// `--mix`: one group per catalog type in the order given, each with its GPU type; a list
/// that is not one is refused under the flag, and so is `--mix` with one type's flags.
#[test]
fn trace_on_a_mix_has_one_group_per_type_with_its_gpu() {
    use smd_core::scenario::Gpu;
    let csv =
        "name,time,application,num_replicas,batch_size\nj,12.5,ncf,1,32768\nk,30,cifar10,2,256\n";
    let mix = "t4x4=6,a100x8=2,rtx2080tix8=3";
    let out = ok(&smd(&["trace", "-", "--mix", mix], Some(csv.as_bytes())));
    let s = Scenario::from_json(&out).unwrap();
    let groups: Vec<(&str, f64, Option<Gpu>)> = s
        .cluster
        .machines
        .iter()
        .map(|g| (g.name.as_str(), g.count, g.gpu))
        .collect();
    assert_eq!(
        groups,
        [
            ("t4x4", 6.0, Some(Gpu::T4)),
            ("a100x8", 2.0, Some(Gpu::A100)),
            ("rtx2080tix8", 3.0, Some(Gpu::Rtx2080ti))
        ]
    );
    assert_eq!(s.cluster.gpu_types(), [Gpu::T4, Gpu::A100, Gpu::Rtx2080ti]);
    assert_eq!(s.cluster.capacity().gpu, 64.0);
    let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
    assert_eq!(s.cluster.instance, t4.capacity);
    assert_eq!(s.jobs.len(), 2);
    // The file says each group's type.
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for (i, g) in ["t4", "a100", "rtx2080ti"].into_iter().enumerate() {
        assert_eq!(v["cluster"]["machines"][i]["gpu"], g, "{out}");
    }
    let huge = format!("t4x4={}", u64::MAX);
    for (value, needles) in [
        ("t4x4=6,t4x4=2", &["--mix", "t4x4 is given twice"][..]),
        (
            "h100x8=2",
            &["--mix", "unknown machine type \"h100x8\"", "rtx6000x4"],
        ),
        ("t4x4=0", &["--mix", "t4x4=0: a count must be at least 1"]),
        ("t4x4:6", &["--mix", "\"t4x4:6\" is not TYPE=COUNT"]),
        ("t4x4=six", &["--mix", "is not a number"]),
        (huge.as_str(), &["--mix", "from 1 to 100000"]),
        ("t4x4=1.5", &["--mix", "whole number"]),
        ("", &["--mix", "give machine types and counts"]),
        ("c4.8xlarge=2", &["--mix", "has no GPU machine"]),
    ] {
        invalid(
            &smd(&["trace", "-", "--mix", value], Some(csv.as_bytes())),
            needles,
        );
    }
    for other in [
        ["--machines", "4"],
        ["--machine-type", "a100x8"],
        ["--units", "2"],
    ] {
        let o = smd(
            &["trace", "-", "--mix", mix, other[0], other[1]],
            Some(csv.as_bytes()),
        );
        invalid(&o, &["--mix", other[0], "cannot be used with"]);
    }
}

#[test]
fn machines_show_each_types_gpu_and_price_or_none() {
    let text = ok(&smd(&["machines"], None));
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_owned()
    };
    assert!(line("a100x8 ").contains("A100"), "{text}");
    assert!(line("v100x8 ").contains("22.032"), "{text}");
    assert!(line("rtx2080tix8 ").contains("RTX 2080 Ti"), "{text}");
    assert!(line("rtx2080tix8 ").contains("on-premises"), "{text}");
    assert!(line("rtx6000x4 ").contains("on-premises"), "{text}");
    assert!(line("c4.8xlarge ").contains("—"), "{text}");
    assert!(text.contains("Azure Virtual Machines pricing"), "{text}");
    assert!(text.contains("no published price"), "{text}");
    let m: serde_json::Value =
        serde_json::from_str(&ok(&smd(&["machines", "--json"], None))).unwrap();
    let by = |name: &str| {
        m.as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(by("a100x8")["gpu"], "a100");
    assert_eq!(by("rtx6000x4")["gpu"], "rtx6000");
    assert!(by("c4.8xlarge")["gpu"].is_null());
    assert!(by("rtx2080tix8")["hourly_usd"].is_null());
    assert_eq!(by("v100x8")["hourly_usd"], 22.032);
}

#[test]
fn generate_on_machines_writes_a_version_2_scenario() {
    let out = ok(&smd(
        &[
            "generate",
            "--jobs",
            "4",
            "--machines",
            "3",
            "--machine-type",
            "a100x8",
        ],
        None,
    ));
    let s = Scenario::from_json(&out).unwrap();
    assert_eq!(s.version, 2);
    let names: Vec<String> = s
        .cluster
        .machine_list()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["a100x8-0", "a100x8-1", "a100x8-2"]);
    assert_eq!(s.cluster.capacity().gpu, 24.0);
    invalid(
        &smd(&["generate", "--machines", "0"], None),
        &["--machines", "whole number"],
    );
}

#[test]
fn plans_on_machines_say_where_every_job_runs() {
    let scenario = ok(&smd(
        &["trace", "--workload", "workload-2-half", "--machines", "8"],
        None,
    ));
    let out = ok(&smd(
        &[
            "plan",
            "--json",
            "--policy",
            "exact",
            "--placement",
            "spread",
            "--epsilon",
            "0.1",
            "-",
        ],
        Some(scenario.as_bytes()),
    ));
    let p: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(p["placement"]["policy"], "spread");
    assert_eq!(p["placement"]["machines"].as_array().unwrap().len(), 8);
    let admitted: Vec<&serde_json::Value> = p["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|j| j["admitted"] == true)
        .collect();
    assert!(!admitted.is_empty());
    for j in admitted {
        let shares = j["placement"].as_array().unwrap();
        let w: u64 = shares.iter().map(|s| s["workers"].as_u64().unwrap()).sum();
        assert_eq!(Some(w), j["workers"].as_u64());
        assert!(j["locality_factor"].is_number() && j["cross_traffic_gbit"].is_number());
    }
    let table = ok(&smd(
        &["compare", "--epsilon", "0.1", "-"],
        Some(scenario.as_bytes()),
    ));
    assert!(
        table.contains("cross Gbit") && table.contains("not placed"),
        "{table}"
    );
    // A pool has no placement.
    let pool = ok(&smd(&["generate", "--jobs", "3"], None));
    invalid(
        &smd(
            &["plan", "--placement", "dltap", "-"],
            Some(pool.as_bytes()),
        ),
        &["--placement needs a cluster of machines"],
    );
}

#[test]
fn check_warns_about_machines_no_worker_fits() {
    // Generated workers ask for 0–4 GPUs; on GPU-less machines some may still fit, so ask
    // for a scenario where every worker needs a GPU.
    let text = ok(&smd(
        &[
            "generate",
            "--jobs",
            "2",
            "--machines",
            "2",
            "--machine-type",
            "c4.8xlarge",
        ],
        None,
    ));
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for j in v["jobs"].as_array_mut().unwrap() {
        j["worker"]["gpu"] = 1.into();
    }
    let o = smd(&["check", "-"], Some(v.to_string().as_bytes()));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: cluster.machines[0] fits no job's worker"),
        "{err}"
    );
}

#[test]
fn trace_errors_come_alone_and_warnings_are_summarised() {
    // A machine without GPUs: one error naming the flag, no warning per row before it.
    let o = smd(
        &[
            "trace",
            "--workload",
            "workload-1",
            "--machine-type",
            "c4.8xlarge",
        ],
        None,
    );
    invalid(&o, &["--machine-type: c4.8xlarge has no GPU"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    // One machine of 4 GPUs: 89 rows ask for more; five are shown, the rest counted.
    let o = smd(
        &["trace", "--workload", "workload-1", "--machines", "1"],
        None,
    );
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert!(
        lines[..5]
            .iter()
            .all(|l| l.contains("column \"num_replicas\"")),
        "{err}"
    );
    assert_eq!(lines[5], "warning: … and 84 more");
    // Old Mac line ends (CR alone) read as the same trace.
    let csv =
        "name,time,application,num_replicas,batch_size\rj,12.5,ncf,1,32768\rk,13,ncf,1,32768\r";
    let s = Scenario::from_json(&ok(&smd(&["trace", "-"], Some(csv.as_bytes())))).unwrap();
    assert_eq!(s.jobs.len(), 2);
    assert_eq!(s.jobs[1].id, "k");
}

#[test]
fn unix_epoch_arrivals_and_a_30_day_slot_are_warned_about_with_what_to_do() {
    let csv = "name,time,application,num_replicas,batch_size\n\
               j,1700000000,ncf,1,32768\nk,1700000100,ncf,1,32768\n";
    let o = smd(&["trace", "-"], Some(csv.as_bytes()));
    let scenario = ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "warning: stdin: row 1 (line 2), column \"time\": 1.7e9 s is 30 days or more (1 more row too)"
        ) && err.contains("subtract the earliest"),
        "{err}"
    );
    let o = smd(
        &["simulate", "--policy", "fifo", "-"],
        Some(scenario.as_bytes()),
    );
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(
            "warning: job \"j\": arrival_s 1.7e9 s is 30 days or more (1 more job too)"
        ),
        "{err}"
    );
    let fine = "name,time,application,num_replicas,batch_size\nj,0,ncf,1,32768\n";
    let scenario = ok(&smd(&["trace", "-"], Some(fine.as_bytes())));
    let o = smd(
        &[
            "simulate",
            "--policy",
            "fifo",
            "--set",
            "interval_s=2592000",
            "-",
        ],
        Some(scenario.as_bytes()),
    );
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("warning: params.interval_s is not shorter than the horizon"),
        "{err}"
    );
}

#[test]
fn flag_values_are_echoed_short() {
    for (flag, value) in [("--machines", "1e-300"), ("--units", "-1e300")] {
        let arg = format!("{flag}={value}");
        let o = smd(&["trace", "--workload", "workload-1", &arg], None);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        invalid(
            &o,
            &[&format!("{flag}: must be"), &format!("(got {value})")],
        );
        assert!(err.len() < 80, "{err}");
    }
}
