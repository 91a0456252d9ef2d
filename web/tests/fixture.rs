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

/// How it works' figure of the two-job example is what smd and global draw today. Set
/// `SMD_UPDATE_FIGURES=1` to rewrite `docs/figure-decomposition.svg` after a deliberate change.
#[test]
fn the_decomposition_figure_is_current() {
    let now = smd_web::defaults::decomposition_figure().unwrap();
    if std::env::var_os("SMD_UPDATE_FIGURES").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../docs/figure-decomposition.svg"
        );
        std::fs::write(path, &now).unwrap();
    }
    assert!(
        now == smd_web::defaults::DECOMPOSITION_SVG,
        "docs/figure-decomposition.svg is stale: run SMD_UPDATE_FIGURES=1 cargo test -p smd-web --test fixture"
    );
    // The point of the figure: global fits both jobs, smd one, and global's Σu is larger.
    assert_eq!(now.matches("data-admitted=\"false\"").count(), 1);
    let totals: Vec<f64> = now
        .split("data-total=\"")
        .skip(1)
        .map(|t| t.split('"').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        totals.len() == 2 && totals[1] > totals[0] * 1.5,
        "{totals:?}"
    );
}
