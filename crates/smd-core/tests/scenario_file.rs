//! The example of SCENARIO.md parses, validates, round-trips and plans.

use smd_core::{plan, Policy, Scenario};

const EXAMPLE: &str = include_str!("../../../tests/fixtures/scenario-example.json");

#[test]
fn the_contract_example_parses_and_round_trips() {
    let s = Scenario::from_json(EXAMPLE).expect("SCENARIO.md's example is valid");
    assert_eq!(s.jobs[0].id, "resnet-a");
    assert_eq!(s.params.epsilon, 0.01);
    let again = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(s, again);
}

#[test]
fn params_are_optional_and_default_as_documented() {
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    v.as_object_mut().unwrap().remove("params");
    let s = Scenario::from_json(&v.to_string()).unwrap();
    let p = &s.params;
    assert_eq!(
        (
            p.epsilon,
            p.ptas_depth,
            p.m_delta,
            p.max_rounding_attempts,
            p.seed
        ),
        (0.01, 2, 1.0, 1000, 1)
    );
    assert_eq!((p.time_unit_s, p.polish), (None, false));
}

#[test]
fn the_example_plans_with_every_policy() {
    let mut s = Scenario::from_json(EXAMPLE).unwrap();
    s.params.epsilon = 0.1;
    for policy in Policy::ALL {
        let p = plan(&s, policy).unwrap();
        assert_eq!(p.policy, policy);
        assert_eq!(p.jobs.len(), 1);
        let j = &p.jobs[0];
        // One job with a 10-instance limit always fits one cluster unit, so only a utility
        // of exactly 0 (ESW's 8 workers at β1 = 3.5 s make π ≫ γ3) keeps it out.
        if j.utility > 0.0 {
            assert!(j.admitted, "{policy}: {:?}", j.reason);
        } else {
            assert_eq!(
                j.reason.as_ref().map(ToString::to_string).as_deref(),
                Some("not selected: zero utility")
            );
        }
        assert!(j.workers.unwrap() >= 1 && j.ps.unwrap() >= 1);
        assert_eq!(p.total_utility, j.utility);
        let smd = matches!(policy, Policy::Smd | Policy::SmdLocality);
        assert_eq!(j.relaxed_workers.is_some(), smd);
    }
}

/// The example with its job's version-2 fields set to `fields` (JSON members) and the file's
/// version to `version`.
fn with_online_fields(version: u32, fields: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    v["version"] = version.into();
    let extra: serde_json::Value = serde_json::from_str(fields).unwrap();
    for (k, x) in extra.as_object().unwrap() {
        v["jobs"][0][k] = x.clone();
    }
    v.to_string()
}

#[test]
fn version_2_online_fields_round_trip_and_need_version_2() {
    let fields = r#"{"arrival_s": 107.25, "requested_workers": 6, "requested_ps": 2}"#;
    let s = Scenario::from_json(&with_online_fields(2, fields)).unwrap();
    let j = &s.jobs[0];
    assert_eq!(
        (j.arrival_s, j.requested_workers, j.requested_ps),
        (Some(107.25), Some(6.0), Some(2.0))
    );
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    // The same fields in a version-1 file are refused, naming each.
    let e = Scenario::from_json(&with_online_fields(1, fields))
        .unwrap_err()
        .to_string();
    for f in [
        "arrival_s",
        "requested_workers",
        "requested_ps",
        "version\": 2",
    ] {
        assert!(e.contains(f), "{e}");
    }
    // A version-1 file writes none of them: phase-1 files are unchanged.
    let v1 = Scenario::from_json(EXAMPLE).unwrap().to_json();
    assert!(!v1.contains("arrival_s") && !v1.contains("requested"));
    // Bad values name the job and field; version 3 does not exist.
    let bad = r#"{"arrival_s": -1, "requested_workers": 1.5, "requested_ps": 0}"#;
    let e = Scenario::from_json(&with_online_fields(2, bad))
        .unwrap_err()
        .to_string();
    for f in [
        "\"resnet-a\": arrival_s must be ≥ 0",
        "requested_workers must be a whole number",
        "requested_ps must be ≥ 1",
    ] {
        assert!(e.contains(f), "{e}");
    }
    let e = Scenario::from_json(&with_online_fields(3, "{}"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("version") && e.contains("got 3"), "{e}");
}

#[test]
fn a_version_2_scenario_plans_like_the_same_version_1_scenario() {
    let one = Scenario::from_json(EXAMPLE).unwrap();
    let two = Scenario::from_json(&with_online_fields(2, r#"{"arrival_s": 3600}"#)).unwrap();
    for policy in [Policy::Smd, Policy::Exact] {
        let (a, b) = (plan(&one, policy).unwrap(), plan(&two, policy).unwrap());
        assert_eq!(a.jobs[0].workers, b.jobs[0].workers);
        assert_eq!(a.total_utility, b.total_utility);
    }
}

/// A version-2 scenario on `groups` (JSON) with the example's job.
fn on_machines(version: u32, groups: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    v["version"] = version.into();
    let cluster = v["cluster"].as_object_mut().unwrap();
    cluster.remove("units");
    cluster.remove("unit");
    cluster.insert("machines".into(), serde_json::from_str(groups).unwrap());
    v.to_string()
}

const TWO_GROUPS: &str = r#"[
  {"name": "t4x4", "count": 3, "capacity": {"gpu": 4, "vcpu": 48, "memory_gb": 192, "storage_gb": 900},
   "gpu_memory_gb": 16, "nic_gbps": 50, "local_gbps": 200},
  {"name": "cpu", "count": 2, "capacity": {"gpu": 0, "vcpu": 36, "memory_gb": 60, "storage_gb": 100}}
]"#;

#[test]
fn machines_are_version_2_and_sum_to_the_capacity() {
    let s = Scenario::from_json(&on_machines(2, TWO_GROUPS)).unwrap();
    let c = s.cluster.capacity();
    assert_eq!(
        c.to_array(),
        [12.0, 3.0 * 48.0 + 72.0, 3.0 * 192.0 + 120.0, 2700.0 + 200.0]
    );
    let names: Vec<String> = s
        .cluster
        .machine_list()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["t4x4-0", "t4x4-1", "t4x4-2", "cpu-0", "cpu-1"]);
    // The file round-trips and writes machines, not units.
    let text = s.to_json();
    assert!(!text.contains("\"units\"") && text.contains("\"machines\""));
    assert_eq!(Scenario::from_json(&text).unwrap(), s);
    // A version-1 file with machines is refused, naming the field.
    let e = Scenario::from_json(&on_machines(1, TWO_GROUPS))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cluster.machines is a version-2 field"), "{e}");
    // Units and machines together, neither, or no group: the cluster cannot be read.
    let mut both: serde_json::Value = serde_json::from_str(&on_machines(2, TWO_GROUPS)).unwrap();
    both["cluster"]["units"] = 1.into();
    for (text, needle) in [
        (both.to_string(), "not both"),
        (on_machines(2, "[]"), "at least one group"),
    ] {
        let e = Scenario::from_json(&text).unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("cluster"), "{e}");
    }
}

#[test]
fn machine_groups_are_validated_by_group_and_field() {
    let bad = r#"[
      {"name": "a", "count": 1.5, "capacity": {"gpu": 0, "vcpu": 0, "memory_gb": 0, "storage_gb": 0}, "nic_gbps": 0},
      {"name": "a", "count": 0, "capacity": {"gpu": 4, "vcpu": 8, "memory_gb": -1, "storage_gb": 1}, "local_gbps": -2}
    ]"#;
    let e = Scenario::from_json(&on_machines(2, bad))
        .unwrap_err()
        .to_string();
    for needle in [
        "cluster.machines[0].count must be a whole number",
        "cluster.machines[0].capacity must have some resource",
        "cluster.machines[0].nic_gbps must be > 0",
        "cluster.machines[1].name \"a\" names an earlier group",
        "cluster.machines[1].count must be ≥ 1",
        "cluster.machines[1].capacity.memory_gb must be ≥ 0",
        "cluster.machines[1].local_gbps must be > 0",
    ] {
        assert!(e.contains(needle), "{needle}: {e}");
    }
}

/// A group's GPU type: written only where given, read back the same, unset meaning `t4`
/// on a group with GPUs and nothing on one without.
#[test]
fn a_groups_gpu_type_round_trips_and_defaults_to_t4() {
    use smd_core::scenario::Gpu;
    let groups = r#"[
      {"name": "t4x4", "count": 3, "capacity": {"gpu": 4, "vcpu": 48, "memory_gb": 192, "storage_gb": 900}},
      {"name": "big", "count": 2, "gpu": "a100", "capacity": {"gpu": 8, "vcpu": 96, "memory_gb": 1152, "storage_gb": 8000}},
      {"name": "cpu", "count": 2, "capacity": {"gpu": 0, "vcpu": 36, "memory_gb": 60, "storage_gb": 100}},
      {"name": "more", "count": 1, "gpu": "t4", "capacity": {"gpu": 4, "vcpu": 48, "memory_gb": 192, "storage_gb": 900}}
    ]"#;
    let s = Scenario::from_json(&on_machines(2, groups)).unwrap();
    let m = &s.cluster.machines;
    assert_eq!(
        m.iter().map(|g| g.gpu).collect::<Vec<_>>(),
        [None, Some(Gpu::A100), None, Some(Gpu::T4)]
    );
    assert_eq!(
        m.iter().map(|g| g.gpu_type()).collect::<Vec<_>>(),
        [Some(Gpu::T4), Some(Gpu::A100), None, Some(Gpu::T4)]
    );
    assert_eq!(s.cluster.gpu_types(), [Gpu::T4, Gpu::A100]);
    let text = s.to_json();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    let gpus: Vec<&serde_json::Value> = (0..4)
        .map(|i| &written["cluster"]["machines"][i]["gpu"])
        .collect();
    assert_eq!(
        gpus,
        [
            &serde_json::Value::Null,
            &"a100".into(),
            &serde_json::Value::Null,
            &"t4".into()
        ]
    );
    assert!(written["cluster"]["machines"][0]
        .as_object()
        .is_some_and(|g| !g.contains_key("gpu")));
    assert_eq!(Scenario::from_json(&text).unwrap(), s);
    // Without the key a group reads as before; a pool has no GPU types.
    let old = Scenario::from_json(&on_machines(2, TWO_GROUPS)).unwrap();
    assert!(old.cluster.machines.iter().all(|g| g.gpu.is_none()));
    assert!(!old.to_json().contains("\"gpu\": \""));
    assert_eq!(old.cluster.gpu_types(), [Gpu::T4]);
    assert!(Scenario::from_json(EXAMPLE)
        .unwrap()
        .cluster
        .gpu_types()
        .is_empty());
}

#[test]
fn a_gpu_type_is_refused_on_a_group_without_gpus_or_with_more_than_its_node() {
    let bad = r#"[
      {"name": "cpu", "count": 1, "gpu": "v100", "capacity": {"gpu": 0, "vcpu": 36, "memory_gb": 60, "storage_gb": 100}},
      {"name": "huge", "count": 1, "gpu": "a100", "capacity": {"gpu": 12, "vcpu": 96, "memory_gb": 1152, "storage_gb": 8000}},
      {"name": "quad", "count": 1, "gpu": "rtx6000", "capacity": {"gpu": 8, "vcpu": 32, "memory_gb": 256, "storage_gb": 2000}},
      {"name": "ok", "count": 1, "gpu": "rtx2080ti", "capacity": {"gpu": 8, "vcpu": 32, "memory_gb": 384, "storage_gb": 2000}}
    ]"#;
    let e = Scenario::from_json(&on_machines(2, bad))
        .unwrap_err()
        .to_string();
    for needle in [
        "cluster.machines[0].gpu is v100 but group \"cpu\" has no GPUs",
        "cluster.machines[1].gpu is a100 but group \"huge\" has 12 GPUs per machine: A100 was measured in nodes of 8",
        "cluster.machines[2].gpu is rtx6000 but group \"quad\" has 8 GPUs per machine: RTX 6000 was measured in nodes of 4",
    ] {
        assert!(e.contains(needle), "{needle}: {e}");
    }
    assert!(!e.contains("cluster.machines[3]"), "{e}");
    // A name that is no type, or no name at all, is refused by the reader, naming the field;
    // null is no type (as for the other optional fields).
    for (gpu, needle) in [
        ("\"h100\"", "unknown variant `h100`"),
        ("4", "cluster"),
        ("{}", "cluster"),
        ("\"T4\"", "unknown variant `T4`"),
    ] {
        let groups = format!(
            r#"[{{"name": "g", "count": 1, "gpu": {gpu}, "capacity": {{"gpu": 4, "vcpu": 1, "memory_gb": 1, "storage_gb": 1}}}}]"#
        );
        let e = Scenario::from_json(&on_machines(2, &groups))
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle), "{gpu}: {e}");
    }
    let null = r#"[{"name": "g", "count": 1, "gpu": null, "capacity": {"gpu": 4, "vcpu": 1, "memory_gb": 1, "storage_gb": 1}}]"#;
    let s = Scenario::from_json(&on_machines(2, null)).unwrap();
    assert_eq!(s.cluster.machines[0].gpu, None);
}

#[test]
fn a_machine_scenario_plans_on_the_machines_total_as_admission() {
    // Admission sees the sum of the machines (placement comes after it).
    let s = Scenario::from_json(&on_machines(2, TWO_GROUPS)).unwrap();
    let p = plan(&s, Policy::Exact).unwrap();
    assert_eq!(p.resources.capacity, s.cluster.capacity());
}

#[test]
fn a_machine_no_worker_fits_on_is_a_warning_not_an_error() {
    // The example's worker needs 2 GPUs; the `cpu` group has none, `t4x4` has 4.
    let s = Scenario::from_json(&on_machines(2, TWO_GROUPS)).unwrap();
    let w = s.warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].field, "cluster.machines[1]");
    assert!(
        w[0].message.contains("\"cpu\"") && w[0].message.contains("has gpu 0"),
        "{}",
        w[0].message
    );
    assert!(
        w[0].message.contains("\"resnet-a\"'s worker needs 2"),
        "{}",
        w[0].message
    );
    // It still plans; a pool has no warnings.
    plan(&s, Policy::Smd).unwrap();
    assert!(Scenario::from_json(EXAMPLE).unwrap().warnings().is_empty());
}

#[test]
fn arrays_for_objects_inside_machines_are_rejected_naming_the_field() {
    // serde would read a capacity or a whole group from an array by position (reversed, a
    // GPU count lands in storage): the strict reader refuses both, as everywhere else.
    for (groups, field) in [
        (
            r#"[{"name": "a", "count": 2, "capacity": [900, 192, 48, 4]}]"#,
            "cluster.machines[0].capacity must be a JSON object with named fields (got an array)",
        ),
        (
            r#"[["a", 2, {"gpu": 4, "vcpu": 48, "memory_gb": 192, "storage_gb": 900}]]"#,
            "cluster.machines[0] must be a JSON object with named fields (got an array)",
        ),
    ] {
        let e = Scenario::from_json(&on_machines(2, groups))
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "{e}");
    }
}

/// The example as version 2 with `params` fields set from `fields` (JSON members).
fn with_params(fields: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    v["version"] = 2.into();
    let extra: serde_json::Value = serde_json::from_str(fields).unwrap();
    for (k, x) in extra.as_object().unwrap() {
        v["params"][k] = x.clone();
    }
    v.to_string()
}

#[test]
fn a_horizon_below_the_smallest_magnitude_is_rejected_like_other_times() {
    for h in ["1e-300", "1e-13"] {
        let e = Scenario::from_json(&with_params(&format!(r#"{{"horizon_s": {h}}}"#)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("params.horizon_s must be in [1e-12, "), "{e}");
    }
    assert!(Scenario::from_json(&with_params(r#"{"horizon_s": 1e-12}"#)).is_ok());
}

#[test]
fn a_restart_longer_than_a_slot_is_a_warning_naming_the_field() {
    // The simulation charges min(restart_s, Δ): valid, but said.
    let s = Scenario::from_json(&with_params(r#"{"interval_s": 60, "restart_s": 90}"#)).unwrap();
    let w: Vec<String> = s.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("params.restart_s is longer than a slot (90 s > interval_s 60 s)"),
        "{w:?}"
    );
    // The default slot (600 s) counts too; a restart within a slot says nothing.
    let s = Scenario::from_json(&with_params(r#"{"restart_s": 601}"#)).unwrap();
    assert_eq!(s.warnings().len(), 1);
    let s = Scenario::from_json(&with_params(r#"{"interval_s": 60, "restart_s": 60}"#)).unwrap();
    assert!(s.warnings().is_empty());
}

#[test]
fn a_slot_as_long_as_the_horizon_and_arrivals_30_days_out_are_warned_about() {
    let warnings =
        |s: &Scenario| -> Vec<String> { s.warnings().iter().map(ToString::to_string).collect() };
    let of = |fields: &str| warnings(&Scenario::from_json(&with_params(fields)).unwrap());
    // A slot of 30 days (the longest horizon): at most one slot, no measured job starts.
    let w = of(r#"{"interval_s": 2592000}"#);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(
            "params.interval_s is not shorter than the horizon (interval_s 2592000 s ≥ horizon 2592000 s)"
        ),
        "{w:?}"
    );
    // A short horizon under the default slot names the horizon, which the file set.
    let w = of(r#"{"horizon_s": 30}"#);
    assert!(
        w.len() == 1 && w[0].starts_with("params.horizon_s is not longer than a slot"),
        "{w:?}"
    );
    assert!(of(r#"{"interval_s": 2591999}"#).is_empty());
    // Arrivals 30 days out or more (Unix-epoch seconds): one warning, at the first, with
    // the count of the others and what to do.
    let mut s = Scenario::from_json(&with_params("{}")).unwrap();
    let job = s.jobs[0].clone();
    s.jobs = (0..4)
        .map(|i| {
            let mut j = job.clone();
            j.id = format!("j{i}");
            j.arrival_s = Some(if i == 0 { 5.0 } else { 1.7e9 + f64::from(i) });
            j
        })
        .collect();
    s.validate().unwrap();
    let w = warnings(&s);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(
            "job \"j1\": arrival_s 1.700000001e9 s is 30 days or more (2 more jobs too): no simulation reaches it"
        ) && w[0].contains("Unix-epoch times, subtract the earliest"),
        "{w:?}"
    );
    s.jobs[1].arrival_s = Some(2_591_999.0);
    s.jobs[2].arrival_s = None;
    s.jobs[3].arrival_s = Some(0.0);
    assert!(warnings(&s).is_empty());
}

/// A machine's name leads to its group and GPU type (the group's `gpu`, a T4 when unset;
/// none for a group without GPUs); a name that is no machine of the cluster leads nowhere.
#[test]
fn a_machine_name_gives_its_group_and_gpu_type() {
    let mut s = Scenario::from_json(&on_machines(2, TWO_GROUPS)).unwrap();
    let c = &s.cluster;
    assert_eq!(c.group_of("t4x4-2").map(|g| g.name.as_str()), Some("t4x4"));
    assert_eq!(c.gpu_type_of("t4x4-0"), Some(smd_core::scenario::Gpu::T4));
    assert_eq!(c.gpu_type_of("cpu-1"), None);
    assert_eq!(c.group_of("cpu-1").map(|g| g.name.as_str()), Some("cpu"));
    for nowhere in [
        "t4x4-3", "t4x4-01", "t4x4", "t4x4-", "t4x4--1", "cpu-2", "", "x-0",
    ] {
        assert_eq!(c.group_of(nowhere), None, "{nowhere:?}");
    }
    s.cluster.machines[0].gpu = Some(smd_core::scenario::Gpu::A100);
    assert_eq!(
        s.cluster.gpu_type_of("t4x4-1"),
        Some(smd_core::scenario::Gpu::A100)
    );
}

/// A share names its GPUs and their type, from the machine's group; a machine without
/// GPUs, or a stranger, its workers; a placement joins its shares.
#[test]
fn a_share_names_its_gpus_and_their_type() {
    use smd_core::plan::PlacedShare;
    let mut s = Scenario::from_json(&on_machines(2, TWO_GROUPS)).unwrap();
    s.cluster.machines[0].gpu = Some(smd_core::scenario::Gpu::A100);
    let c = &s.cluster;
    let share = |machine: &str, workers: u64, ps: u64| PlacedShare {
        machine: machine.into(),
        workers,
        ps,
    };
    let words = |sh: PlacedShare, per: f64| smd_core::plan::share_words(c, &sh, per);
    assert_eq!(words(share("t4x4-0", 4, 0), 1.0), "4 × A100 on t4x4-0");
    assert_eq!(words(share("t4x4-1", 2, 0), 2.0), "4 × A100 on t4x4-1");
    assert_eq!(
        words(share("t4x4-1", 1, 1), 0.5),
        "0.5 × A100 on t4x4-1, 1 PS"
    );
    assert_eq!(words(share("cpu-0", 1, 0), 0.0), "1 worker on cpu-0");
    assert_eq!(words(share("t4x4-9", 2, 0), 1.0), "2 workers on t4x4-9");
    assert_eq!(
        smd_core::plan::placement_words(c, &[share("t4x4-0", 4, 0), share("t4x4-2", 2, 0)], 1.0),
        "4 × A100 on t4x4-0 + 2 × A100 on t4x4-2"
    );
}
