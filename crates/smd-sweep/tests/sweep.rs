//! A sweep against independent references: each point's numbers equal the planner (or the
//! simulation) called directly on a scenario built without this crate, and `global`'s
//! utility never falls as the cluster grows.

use smd_core::model::JobModel;
use smd_core::scenario::Resource;
use smd_core::{generate, plan_with, GenerateOptions, Options as PlanOptions, Policy, Scenario};
use smd_sweep::{
    evaluate, points, scenario_at, sweep, Axis, Options, Policies, Range, Report, Size, Spec,
    SweepError,
};

/// The scenario the page opens with (`web/src/defaults.rs`: 30 jobs, seed 1, 1 unit).
fn page_default(units: f64) -> Scenario {
    generate(&GenerateOptions {
        jobs: 30,
        seed: 1,
        units,
        ..Default::default()
    })
}

fn spec(axis: Axis, range: &str) -> Spec {
    Spec {
        axis,
        range: Range::parse(range).unwrap(),
        resource: None,
        machine_type: None,
        group: None,
    }
}

/// `global`'s plan of `s`, checked by the plan invariants (`smd-check`).
fn global(s: &Scenario) -> f64 {
    let plan = plan_with(s, Policy::Global, &mut PlanOptions::default()).unwrap();
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let errs = smd_check::check_plan(s, &models, &plan);
    assert!(errs.is_empty(), "{errs:?}");
    assert!(
        plan.admission.proven_optimal,
        "global unproven at {}",
        s.cluster.units
    );
    plan.total_utility
}

fn utility(r: &smd_sweep::PointResult, p: Policy) -> f64 {
    r.policies
        .iter()
        .find(|(q, _)| *q == p)
        .unwrap()
        .1
        .total_utility
}

#[test]
fn global_never_falls_as_units_grow_and_equals_the_planner() {
    let base = page_default(1.0);
    let policies = Policies::all(&base.cluster, false);
    let report = sweep(
        &base,
        &spec(Axis::Units, "0.25:5:0.25"),
        &policies,
        &mut Options::default(),
    )
    .unwrap();
    assert_eq!(report.points.len(), 20);
    let mut last = 0.0;
    for r in &report.points {
        let Size::Units(u) = r.size else {
            panic!("units")
        };
        // The reference: the generator asked for u units directly.
        let direct = global(&page_default(u));
        let g = utility(r, Policy::Global);
        assert_eq!(g, direct, "at {u} units");
        assert!(g >= last, "global fell from {last} to {g} at {u} units");
        last = g;
        // Every other policy too equals its planner on the generated scenario.
        for (p, o) in &r.policies {
            let plan = plan_with(&page_default(u), *p, &mut PlanOptions::default()).unwrap();
            assert_eq!(o.total_utility, plan.total_utility, "{p} at {u}");
            assert_eq!(o.admitted, plan.admitted, "{p} at {u}");
            assert_eq!(o.used, plan.resources.used, "{p} at {u}");
            // global is the joint optimum: never below another policy.
            assert!(g >= o.total_utility - 1e-9, "{p} above global at {u}");
        }
    }
    let k = &report.knee;
    assert_eq!(k.best_policy.as_deref(), Some("global"));
    assert!(k.fraction.unwrap() >= 0.95);
    // The knee is the first size at 95% of the last one's utility, by this test's own count.
    let top = utility(report.points.last().unwrap(), Policy::Global);
    let first = report
        .points
        .iter()
        .find(|r| utility(r, Policy::Global) >= 0.95 * top)
        .unwrap();
    assert_eq!(k.size, Some(first.size.value()));
    assert!(
        k.answer.contains("95% of the achievable utility (global's"),
        "{}",
        k.answer
    );
}

#[test]
fn global_is_monotone_on_what_smd_generate_writes_by_default() {
    // `smd generate` with no flags: 50 jobs, seed 1.
    let mut last = 0.0;
    for u in Range::parse("0.5:5:0.5").unwrap().values().unwrap() {
        let g = global(&generate(&GenerateOptions {
            units: u,
            ..Default::default()
        }));
        assert!(g >= last, "global fell from {last} to {g} at {u} units");
        last = g;
    }
}

#[test]
fn one_resource_and_machines_equal_the_planner_on_scenarios_built_by_hand() {
    let base = page_default(1.0);
    let policies = Policies {
        planners: vec![Policy::Smd, Policy::Exact],
        over_time: Vec::new(),
    };
    // Only GPUs: 0.5 units' worth up to 2, the rest of one unit.
    let mut sp = spec(Axis::Units, "0.5:2:0.5");
    sp.resource = Some(Resource::Gpu);
    for p in points(&base, &sp).unwrap() {
        let s = scenario_at(&base, &p).unwrap();
        let r = evaluate(&p, &s, &policies, &mut Options::default()).unwrap();
        let mut hand = page_default(1.0);
        hand.cluster.unit.gpu = 600.0 * p.size;
        assert_eq!(r.capacity, hand.cluster.capacity());
        for (q, o) in &r.policies {
            let plan = plan_with(&hand, *q, &mut PlanOptions::default()).unwrap();
            assert_eq!(o.total_utility, plan.total_utility, "{q} at {}", p.size);
        }
    }
    // Machines of the default type, placed.
    let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
    let sp = spec(Axis::Machines, "8:24:8");
    for p in points(&base, &sp).unwrap() {
        let s = scenario_at(&base, &p).unwrap();
        let r = evaluate(&p, &s, &policies, &mut Options::default()).unwrap();
        let mut hand = page_default(1.0);
        hand.version = 2;
        hand.cluster = smd_core::scenario::Cluster::of_machines(
            vec![smd_apps::machines::group(t4, p.size)],
            hand.cluster.instance,
        );
        assert_eq!(r.machine.as_deref(), Some("t4x4"));
        for (q, o) in &r.policies {
            let plan = smd_place::plan_placed(&hand, *q, &mut PlanOptions::default()).unwrap();
            assert_eq!(o.total_utility, plan.total_utility, "{q} at {}", p.size);
            assert_eq!(o.admitted, plan.admitted);
        }
    }
}

/// The first `n` arrivals of workload-1 on 4 × t4x4, coarse ε.
fn trace(n: usize) -> Scenario {
    let (_, text) = smd_apps::trace::WORKLOADS[0];
    let mut arrivals = smd_apps::trace::parse(text).unwrap();
    arrivals.truncate(n);
    let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
    let mut s =
        smd_apps::trace::scenario(&arrivals, smd_apps::machines::cluster(t4, 4.0, t4.capacity))
            .unwrap();
    s.params.epsilon = 0.1;
    s
}

#[test]
fn over_time_equals_the_simulation_of_each_point() {
    let base = trace(12);
    let policies = Policies {
        planners: vec![Policy::Optimus],
        over_time: vec![
            smd_sim::SimPolicy::Fifo,
            smd_sim::SimPolicy::Optimus,
            smd_sim::SimPolicy::Bound,
        ],
    };
    let report = sweep(
        &base,
        &spec(Axis::Machines, "1:4:3"),
        &policies,
        &mut Options::default(),
    )
    .unwrap();
    assert_eq!(report.points.len(), 2);
    for r in &report.points {
        let mut hand = base.clone();
        hand.cluster.machines[0].count = r.size.value();
        hand.cluster = smd_core::scenario::Cluster::of_machines(
            hand.cluster.machines.clone(),
            hand.cluster.instance,
        );
        for (p, o) in &r.over_time {
            let run = smd_sim::simulate(&hand, *p, &mut smd_sim::Options::default()).unwrap();
            assert_eq!(o.total_utility, run.metrics.total_utility, "{p}");
            assert_eq!(o.mean_jct_s, run.metrics.mean_jct_s, "{p}");
            assert_eq!(o.mean_queue_s, run.metrics.mean_queue_s, "{p}");
            assert_eq!(o.finished + o.unfinished, 12);
            assert!(o.total_utility <= o.bound + 1e-9);
        }
    }
    let k = report.over_time_knee.as_ref().expect("an over-time knee");
    assert_ne!(k.best_policy.as_deref(), Some("bound"));
}

#[test]
fn progress_counts_every_policy_and_cancel_stops() {
    let base = page_default(1.0);
    let policies = Policies::all(&base.cluster, false);
    let mut seen = Vec::new();
    let mut progress = |p: smd_sweep::Progress| seen.push((p.point, p.done, p.policies, p.points));
    let mut opts = Options {
        progress: Some(&mut progress),
        ..Options::default()
    };
    sweep(&base, &spec(Axis::Units, "1:2:1"), &policies, &mut opts).unwrap();
    assert_eq!(seen.len(), 2 * 5);
    assert_eq!(seen[0], (0, 1, 5, 2));
    assert_eq!(seen[9], (1, 5, 5, 2));
    let stop = || true;
    let mut opts = Options {
        cancel: Some(&stop),
        ..Options::default()
    };
    let e = sweep(&base, &spec(Axis::Units, "1:2:1"), &policies, &mut opts).unwrap_err();
    assert_eq!(e, SweepError::Cancelled);
}

#[test]
fn a_clock_only_times() {
    let base = page_default(1.0);
    let policies = Policies::all(&base.cluster, false);
    let sp = spec(Axis::Units, "1:2:1");
    let ticks = std::cell::Cell::new(0.0);
    let clock = || {
        ticks.set(ticks.get() + 1.0);
        ticks.get()
    };
    let mut timed = sweep(
        &base,
        &sp,
        &policies,
        &mut Options {
            clock: Some(&clock),
            ..Options::default()
        },
    )
    .unwrap();
    let plain = sweep(&base, &sp, &policies, &mut Options::default()).unwrap();
    assert!(timed
        .points
        .iter()
        .all(|r| r.policies.iter().all(|(_, o)| o.solve_ms > 0.0)));
    for r in &mut timed.points {
        for (_, o) in &mut r.policies {
            o.solve_ms = 0.0;
        }
    }
    assert_eq!(timed, plain);
}

#[test]
fn the_report_reads_as_the_contract_and_back() {
    let base = page_default(1.0);
    let mut sp = spec(Axis::Units, "0.5:1:0.5");
    sp.resource = Some(Resource::Gpu);
    let report = sweep(
        &base,
        &sp,
        &Policies::all(&base.cluster, false),
        &mut Options::default(),
    )
    .unwrap();
    let v = serde_json::to_value(&report).unwrap();
    let p0 = &v["points"][0];
    assert_eq!(p0["units"], 0.5);
    assert_eq!(p0["resource"], "gpu");
    let names: Vec<&String> = p0["policies"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 5);
    for name in ["smd", "esw", "optimus", "exact", "global"] {
        let o = &p0["policies"][name];
        for key in ["total_utility", "admitted", "used", "solve_ms"] {
            assert!(o.get(key).is_some(), "{name} lacks {key}");
        }
        for r in ["gpu", "vcpu", "memory_gb", "storage_gb"] {
            assert!(o["used"][r].is_number());
        }
    }
    assert!(p0.get("over_time").is_none());
    for key in [
        "best_policy",
        "size",
        "utility",
        "fraction",
        "marginal_pct",
        "answer",
    ] {
        assert!(v["knee"].get(key).is_some(), "knee lacks {key}");
    }
    let text = serde_json::to_string(&report).unwrap();
    // The policies' order survives the text (a map type would sort it).
    let smd = text.find("\"smd\"").unwrap();
    let esw = text.find("\"esw\"").unwrap();
    assert!(smd < esw);
    let back: Report = serde_json::from_str(&text).unwrap();
    assert_eq!(back, report);
}

#[test]
fn an_invalid_scenario_is_an_error_naming_the_point_and_the_field() {
    let mut base = page_default(1.0);
    base.params.epsilon = 0.0;
    let policies = Policies::all(&base.cluster, false);
    let e = sweep(
        &base,
        &spec(Axis::Units, "1:2:1"),
        &policies,
        &mut Options::default(),
    )
    .unwrap_err();
    assert!(matches!(e, SweepError::Planner { .. }), "{e:?}");
    let m = e.to_string();
    assert!(
        m.starts_with("at units 1, policy smd:") && m.contains("params.epsilon"),
        "{m}"
    );
}
