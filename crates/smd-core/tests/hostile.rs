//! Issue 8's findings, each reproduced: inputs the contract calls valid must finish with
//! bounded work, and every rejection must name its field. (The findings about Algorithm 1's
//! grid in closed form are tested beside it, in src/grid/tests.rs.)

mod common;

use common::model;
use smd_core::budget::{smallest_epsilon, GRID_BUDGET};
use smd_core::scenario::{Cluster, Params};
use smd_core::{generate, plan, plan_global, Error, GenerateOptions, Mode, Options, Policy};
use smd_core::{Plan, Scenario};

fn one_job_one_layer() -> Scenario {
    let mut job = generate::job(3, 0, Mode::Sync);
    job.layers.truncate(1);
    Scenario {
        version: 1,
        cluster: Cluster::default(),
        params: Params::default(),
        jobs: vec![job],
    }
}

/// The single field error of `e`, or a panic naming what came instead.
fn only_field(e: &Error) -> &smd_core::FieldError {
    match e {
        Error::Invalid(errs) if errs.len() == 1 => &errs[0],
        other => panic!("expected one field error, got {other:?}"),
    }
}

fn parse_err(text: &str) -> Error {
    Scenario::from_json(text).expect_err("must be rejected")
}

#[test]
fn a_tiny_epsilon_is_rejected_naming_epsilon_and_the_smallest_allowed() {
    let base = one_job_one_layer();
    let (smallest, job) = smallest_epsilon(&base).expect("this job has a grid");
    assert_eq!(job, base.jobs[0].id);
    for eps in [1e-300, 1e-15, 1e-9, 1e-6, 1e-5, smallest * 0.9] {
        let mut s = base.clone();
        s.params.epsilon = eps;
        let e = s.validate().expect_err("over budget");
        let f = only_field(&e);
        assert_eq!(f.field, "params.epsilon");
        assert!(
            f.message
                .contains(&format!("smallest ε this scenario allows is {smallest}")),
            "{}",
            f.message
        );
        assert!(e.to_string().len() < 400, "message stays short: {e}");
    }
    // At the limit it plans, and the grid it searched is within the budget.
    let mut s = base.clone();
    s.params.epsilon = smallest;
    let p = plan(&s, Policy::Smd).expect("plans at the smallest ε");
    assert!(p.stats.grid_points as f64 <= GRID_BUDGET);
    assert!(p.stats.grid_points > 1_000_000, "a large grid, searched");
}

#[test]
fn repeated_keys_are_rejected_naming_key_and_place() {
    let text = generate(&GenerateOptions {
        jobs: 2,
        ..Default::default()
    })
    .to_json();
    let id = "job-001";
    let cases = [
        (
            text.replacen("\"iterations\": ", "\"iterations\": 0, \"iterations\": ", 1),
            Some(id),
            "iterations",
        ),
        (
            text.replacen("\"epsilon\": ", "\"epsilon\": 0.5, \"epsilon\": ", 1),
            None,
            "params.epsilon",
        ),
        (
            text.replacen("\"gpu\": ", "\"gpu\": 1, \"gpu\": ", 1),
            None,
            "cluster.unit.gpu",
        ),
        (text.replacen('{', "{\"version\": 1,", 1), None, "version"),
        (text.replacen('{', "{\"jobs\": [],", 1), None, "jobs"),
        (
            text.replacen('{', "{\"cluster\": {\"units\": 1},", 1),
            None,
            "cluster",
        ),
    ];
    for (bad, job, field) in cases {
        let e = parse_err(&bad);
        let f = only_field(&e);
        assert_eq!(f.job.as_deref(), job, "{e}");
        assert_eq!(f.field, field, "{e}");
        assert!(f.message.contains("appears twice"), "{e}");
    }
}

#[test]
fn numbers_out_of_range_and_deep_nesting_name_the_field() {
    let text = one_job_one_layer().to_json();
    let e = parse_err(&text.replacen("\"iterations\": ", "\"iterations\": 1e400, \"x\": ", 1));
    let f = only_field(&e);
    assert_eq!(
        (f.job.as_deref(), f.field.as_str()),
        (Some("job-001"), "iterations")
    );
    assert!(f.message.contains("number out of range"), "{e}");

    let e = parse_err(&text.replacen("\"units\": ", "\"units\": -1e999, \"y\": ", 1));
    assert_eq!(only_field(&e).field, "cluster.units", "{e}");

    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = parse_err(&text.replacen(
        "\"iterations\": ",
        &format!("\"iterations\": {deep}, \"z\": "),
        1,
    ));
    let f = only_field(&e);
    assert!(f.field.starts_with("iterations[0]"), "{e}");
    assert!(f.message.contains("deeper than 32 levels"), "{e}");
    assert!(e.to_string().len() < 300, "{e}");

    // Deep nesting at the top, and a lone deep array, are parse errors with the limit named.
    let e = parse_err(&deep);
    assert!(e.to_string().contains("JSON object"), "{e}");
}

#[test]
fn long_strings_are_cut_in_messages() {
    let text = one_job_one_layer().to_json();
    let long = "x".repeat(5_000_000);
    let e = parse_err(&text.replacen("\"sync\"", &format!("\"{long}\""), 1));
    let shown = e.to_string();
    assert!(shown.len() < 400, "{} bytes", shown.len());
    assert!(shown.contains("5000000 characters"), "{shown}");
    assert!(shown.contains("mode"), "{shown}");

    let e = parse_err(&text.replacen("\"job-001\"", &format!("\"{long}\""), 1));
    let f = only_field(&e);
    assert_eq!((f.job.as_deref(), f.field.as_str()), (Some("#1"), "id"));
    assert!(e.to_string().len() < 200, "{e}");

    let e = parse_err(&text.replacen("\"iterations\"", &format!("\"{long}\""), 1));
    // The message lists the 27 known job fields of both kinds (~470 bytes) and the key, cut.
    assert!(e.to_string().len() < 650, "an unknown key is cut too: {e}");
}

#[test]
fn a_long_list_of_problems_is_summarised() {
    let mut s = generate(&GenerateOptions {
        jobs: 300,
        ..Default::default()
    });
    for j in &mut s.jobs {
        j.iterations = -1.0;
    }
    let e = s.validate().unwrap_err();
    let Error::Invalid(errs) = &e else { panic!() };
    assert_eq!(errs.len(), 300, "every problem is kept in the value");
    let shown = e.to_string();
    assert_eq!(shown.lines().count(), smd_core::error::MAX_LISTED + 1);
    assert!(shown.ends_with("… and 250 more problems"), "{shown}");
}

/// A job whose region is far larger than the enumeration limit: 1-GPU workers and a limit
/// of 1000 instances.
fn huge_region() -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 6,
        seed: 4,
        units: 10.0,
        ..Default::default()
    });
    let j = &mut s.jobs[0];
    j.worker = common::res(1.0, 1.0, 1.0, 1.0);
    j.ps = common::res(0.0, 1.0, 1.0, 1.0);
    j.limit_instances = 1000.0;
    s.params.epsilon = 0.05;
    s
}

fn check_feasible(p: &Plan, s: &Scenario) {
    let cap = s.cluster.capacity().to_array();
    let used = common::admitted_use(p, s);
    for r in 0..4 {
        assert!(
            used[r] <= cap[r] * (1.0 + 1e-9),
            "resource {r}: {} > {}",
            used[r],
            cap[r]
        );
    }
}

#[test]
fn global_degrades_gracefully_on_a_huge_region() {
    let s = huge_region();
    let m = model(&s.jobs[0]);
    assert!(m.omega.w_max_int() * m.omega.p_max_int(1) > smd_core::budget::GLOBAL_MAX_BOX);
    let g = plan_global(&s, &mut Options::default(), 200_000).expect("valid input plans");
    check_feasible(&g, &s);
    for pol in [Policy::Smd, Policy::Esw, Policy::Optimus, Policy::Exact] {
        let p = plan(&s, pol).unwrap();
        assert!(
            g.total_utility >= p.total_utility * (1.0 - 1e-12),
            "global below {pol:?}"
        );
    }
    let a = &g.admission;
    match a.gap {
        Some(gap) => assert!(!a.proven_optimal && (0.0..1.0).contains(&gap)),
        None => assert!(a.proven_optimal),
    }
}

#[test]
fn global_stops_at_its_time_budget_with_a_gap() {
    let mut s = generate(&GenerateOptions {
        jobs: 60,
        seed: 2,
        units: 0.6,
        ..Default::default()
    });
    s.params.epsilon = 0.1;
    // A clock that advances 1 ms per reading: the 50 ms budget ends within the search.
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 1.0);
        t.get()
    };
    let mut opts = Options {
        clock: Some(&clock),
        time_budget_ms: Some(50.0),
        ..Options::default()
    };
    let g = plan_global(&s, &mut opts, u64::MAX).unwrap();
    check_feasible(&g, &s);
    let a = &g.admission;
    assert!(
        a.proven_optimal || a.gap.is_some_and(|gap| gap > 0.0),
        "either proven within the budget or stopped with a gap: {a:?}"
    );
    assert!(
        g.stats.outer_nodes <= 52 * 1024,
        "the budget stopped the search: {} nodes, {a:?}",
        g.stats.outer_nodes
    );
}

#[test]
fn a_model_that_cannot_be_planned_is_invalid_at_validation() {
    // Async, α = 0, every time and overhead 0: T(1, 1) = 0. Validation (and so `smd check`
    // and the page) must say so, not only planning.
    let mut s = one_job_one_layer();
    let j = &mut s.jobs[0];
    j.mode = Mode::Async;
    j.async_comm_factor = 0.0;
    j.worker_overhead_s = 0.0;
    j.ps_overhead_s = 0.0;
    for l in &mut j.layers {
        l.forward_ms = 0.0;
        l.backward_ms = 0.0;
        l.comm_ms = 0.0;
    }
    let e = s.validate().expect_err("T(1,1) = 0 cannot be planned");
    let f = only_field(&e);
    assert_eq!(
        (f.job.as_deref(), f.field.as_str()),
        (Some("job-001"), "(model)")
    );
    assert!(f.message.contains("completion time of 0"), "{e}");
    assert_eq!(
        plan(&s, Policy::Smd).unwrap_err(),
        e,
        "planning says the same"
    );
}

#[test]
fn a_truncated_text_says_so_and_where() {
    let text = one_job_one_layer().to_json();
    let cut_at = text.find("\"forward_ms\"").expect("a layer") + 20;
    match parse_err(&text[..cut_at]) {
        Error::Parse(m) => {
            assert!(
                m.starts_with("the text ends too early: EOF while parsing"),
                "{m}"
            );
            assert!(m.ends_with("inside job \"job-001\": layers[0]"), "{m}");
        }
        other => panic!("a truncated text is a parse error, got {other:?}"),
    }
    // Not every parse error is a truncation.
    let e = parse_err(&text.replacen("\"iterations\": ", "\"iterations\": 1e400, \"x\": ", 1));
    assert!(!e.to_string().contains("ends too early"), "{e}");
}
