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
        assert_eq!(j.relaxed_workers.is_some(), policy == Policy::Smd);
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
