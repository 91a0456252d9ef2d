//! Native: the committed plan fixture (made by the CLI, read by the browser tests) is what
//! the solver answers today. If this fails after a deliberate change of the solver, run
//! `scripts/make-fixtures` and commit the new fixture.
#![cfg(not(target_arch = "wasm32"))]

const FIXTURE: &str = include_str!("../../tests/fixtures/plan-6jobs-seed1-eps0.2.json");

#[test]
fn the_plan_fixture_is_current() {
    let fixture: serde_json::Value = serde_json::from_str(FIXTURE).unwrap();
    let now = smd_web::check::plan_fixture_scenario();
    if let Err(diff) = smd_web::check::same_plans(&fixture, &now) {
        panic!("tests/fixtures/plan-6jobs-seed1-eps0.2.json is stale ({diff}); run scripts/make-fixtures");
    }
}

#[test]
fn the_fixture_scenario_is_the_cli_one() {
    // `smd generate --jobs 6 --seed 1` is `generate` with these options; the CLI's
    // `--epsilon 0.2` sets params.epsilon.
    let s = smd_web::check::fixture_scenario();
    assert_eq!(s.jobs.len(), 6);
    assert_eq!(s.params.epsilon, 0.2);
    assert_eq!(s.params.seed, 1);
}
