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
