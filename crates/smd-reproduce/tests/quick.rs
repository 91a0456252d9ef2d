//! The quick mode end to end: every experiment runs, every invariant holds, and the outputs
//! (CSV, SVG, summary) are well formed and consistent with the checks they claim. Also: the
//! checks do catch a broken plan, progress and cancel behave.

use smd_core::model::JobModel;
use smd_core::{plan_with, Mode, Options, Policy};
use smd_reproduce::case::check_plan;
use smd_reproduce::{run, Cancelled, Capacity, Case, Report, Scale, Table};
use std::sync::OnceLock;

fn clock() -> f64 {
    static T0: OnceLock<std::time::Instant> = OnceLock::new();
    T0.get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1000.0
}

/// The quick run, once for all tests of this file.
fn report() -> &'static Report {
    static R: OnceLock<Report> = OnceLock::new();
    R.get_or_init(|| {
        let mut calls: Vec<(u64, u64)> = Vec::new();
        let r = run(
            Scale::Quick,
            &clock,
            &mut |d, t| calls.push((d, t)),
            &|| false,
        )
        .expect("not cancelled");
        // Progress: starts at 0, never goes back, ends at the total.
        assert_eq!(calls.first().map(|c| c.0), Some(0));
        assert!(calls
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 == w[1].1));
        let (d, t) = *calls.last().expect("progress");
        assert_eq!(d, t);
        assert!(t > 0);
        // It moves within a scenario: a report per policy planned, more than one per case.
        let cases = smd_reproduce::Runner::new(Scale::Quick).cases();
        assert!(
            calls.len() > cases + 1,
            "{} reports, {cases} cases",
            calls.len()
        );
        eprintln!(
            "quick run: {} cases in {:.1} s",
            r.cases,
            r.elapsed_ms / 1000.0
        );
        r
    })
}

fn table<'a>(r: &'a Report, id: &str) -> &'a Table {
    &r.outcomes
        .iter()
        .find(|o| o.id == id)
        .unwrap_or_else(|| panic!("no outcome {id}"))
        .table
}

/// The numbers of a column; every row must have one.
fn col(t: &Table, name: &str) -> Vec<f64> {
    let v = t.numbers(name);
    assert!(!v.is_empty(), "no column {name}");
    v.into_iter()
        .map(|x| x.unwrap_or_else(|| panic!("{name}: a text cell")))
        .collect()
}

#[test]
fn every_invariant_holds() {
    let r = report();
    assert_eq!(r.outcomes.len(), 5);
    let v = r.violations();
    assert!(v.is_empty(), "violations:\n{}", v.join("\n"));
}

#[test]
fn outputs_are_well_formed() {
    let r = report();
    let ids: Vec<&str> = r.outcomes.iter().map(|o| o.id).collect();
    assert_eq!(
        ids,
        [
            "e1-utility-vs-units",
            "e2-utility-vs-jobs",
            "e3-ratio-to-optimum",
            "e4-resource-share",
            "e5-epsilon-mdelta"
        ]
    );
    for o in &r.outcomes {
        assert!(!o.title.is_empty() && !o.claim.is_empty() && !o.description.is_empty());
        assert!(!o.findings.is_empty(), "{}: no findings", o.id);
        // CSV: a header and rows of the same width, no NaN or inf written out.
        let csv = o.table.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines.len() >= 2, "{}: empty table", o.id);
        let width = lines[0].split(',').count();
        for l in &lines {
            assert_eq!(l.split(',').count(), width, "{}: ragged CSV line {l}", o.id);
            assert!(!l.contains("NaN") && !l.contains("inf"), "{}: {l}", o.id);
        }
        // Every point has all its seeds.
        for n in col(&o.table, "seeds") {
            assert_eq!(n, 3.0, "{}: seeds", o.id);
        }
        // SVG: parses, has panels with one series per legend entry and points with data.
        let doc = roxmltree::Document::parse(&o.svg)
            .unwrap_or_else(|e| panic!("{}: SVG does not parse: {e}", o.id));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let panels: Vec<_> = root.children().filter(|n| n.has_tag_name("svg")).collect();
        assert!(!panels.is_empty(), "{}: no panels", o.id);
        for p in &panels {
            let series = p
                .descendants()
                .filter(|n| {
                    n.attribute("class")
                        .is_some_and(|c| c.starts_with("series "))
                })
                .count();
            let points = p
                .descendants()
                .filter(|n| n.attribute("class") == Some("point"))
                .count();
            assert!(series >= 2, "{}: {series} series in a panel", o.id);
            assert!(points >= 2 * series, "{}: {points} points", o.id);
        }
    }
    let md = r.summary_markdown();
    assert!(md.contains("All invariant checks passed."));
    for o in &r.outcomes {
        assert!(md.contains(&format!("({}.svg)", o.id)));
    }
}

#[test]
fn tables_respect_the_bounds() {
    let r = report();
    // E1/E2: smd below global (ratios of proven or unproven global ≤ 1: global starts from
    // the best plan of every policy), and global ≥ every other policy's mean.
    for id in ["e1-utility-vs-units", "e2-utility-vs-jobs"] {
        let t = table(r, id);
        for (s, g) in col(t, "smd_over_global_mean")
            .into_iter()
            .zip(col(t, "smd_over_exact_mean"))
        {
            assert!((0.0..=1.0 + 1e-9).contains(&s), "{id}: smd/global {s}");
            assert!(g >= 0.0, "{id}: smd/exact {g}");
        }
        for p in ["smd", "esw", "optimus", "exact", "smd_polish"] {
            let other = col(t, &format!("{p}_mean"));
            for (e, g) in other.into_iter().zip(col(t, "global_mean")) {
                assert!(g >= e * (1.0 - 1e-9), "{id}: global {g} below {p} {e}");
            }
        }
    }
    // E3: on 1000 instances every job fits — smd/exact = smd/global ≤ 1 and global = exact.
    let t = table(r, "e3-ratio-to-optimum");
    let cap = t.column("capacity").expect("capacity");
    for (i, row) in t.rows.iter().enumerate() {
        let max_g = col(t, "smd_over_global_max")[i];
        let min_g = col(t, "smd_over_global_min")[i];
        assert!(
            min_g >= 0.0 && max_g <= 1.0 + 1e-9,
            "E3 row {i}: smd/global"
        );
        assert!(
            col(t, "smd_over_global_bound_mean")[i] <= col(t, "smd_over_global_mean")[i] + 1e-12
        );
        if row[cap].csv() == "1000 instances" {
            assert!(col(t, "smd_over_exact_max")[i] <= 1.0 + 1e-9);
            assert!((col(t, "global_over_exact_max")[i] - 1.0).abs() < 1e-9);
            assert_eq!(col(t, "global_proven")[i], 3.0);
        }
    }
    // E4: shares within [0, 1].
    let t = table(r, "e4-resource-share");
    for c in [
        "gpu_share_mean",
        "vcpu_share_mean",
        "memory_share_mean",
        "storage_share_mean",
        "mean_share_mean",
        "mean_share_min",
        "mean_share_max",
        "esw_mean_share_mean",
        "smd_peak_capacity_use_mean",
    ] {
        for v in col(t, c) {
            assert!((0.0..=1.0 + 1e-9).contains(&v), "E4 {c} = {v}");
        }
    }
    // E5: at least one draw per job, and positive solve times.
    let t = table(r, "e5-epsilon-mdelta");
    for v in col(t, "attempts_per_job_mean") {
        assert!(v >= 1.0, "E5 attempts per job {v}");
    }
    for v in col(t, "solve_ms_mean") {
        assert!(v > 0.0, "E5 solve time {v}");
    }
}

#[test]
fn the_plan_checks_catch_broken_plans() {
    let case = Case::new(Mode::Sync, 12, Capacity::Units(1), 4);
    let s = case.scenario();
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let good = plan_with(&s, Policy::Exact, &mut Options::default()).expect("plan");
    assert!(check_plan(&s, &models, &good).is_empty());
    let k = good
        .jobs
        .iter()
        .position(|j| j.admitted)
        .expect("an admitted job");

    // An allocation outside Ω.
    let mut bad = good.clone();
    bad.jobs[k].workers = Some(1_000_000);
    let errs = check_plan(&s, &models, &bad);
    assert!(errs.iter().any(|e| e.contains("not in Ω")), "{errs:?}");

    // A total that does not add up.
    let mut bad = good.clone();
    bad.total_utility += 1.0;
    let errs = check_plan(&s, &models, &bad);
    assert!(errs.iter().any(|e| e.contains("total utility")), "{errs:?}");

    // Every job admitted on a tiny cluster: over capacity.
    let mut tiny = s.clone();
    tiny.cluster.units = 0.01;
    let mut bad = plan_with(&tiny, Policy::Exact, &mut Options::default()).expect("plan");
    for (j, m) in bad.jobs.iter_mut().zip(&models) {
        if m.feasible() && j.utility > 0.0 {
            j.admitted = true;
            j.reason = None;
        }
    }
    let errs = check_plan(&tiny, &models, &bad);
    assert!(
        errs.iter().any(|e| e.contains("exceeds the capacity")),
        "{errs:?}"
    );
}

#[test]
fn cancel_stops_the_run() {
    // Cancelled after two cases: the run stops there with no report.
    let asked = std::cell::Cell::new(0);
    let cancel = || {
        asked.set(asked.get() + 1);
        asked.get() > 2
    };
    let mut last = 0;
    let r = run(Scale::Quick, &|| 0.0, &mut |d, _| last = d, &cancel);
    assert_eq!(r, Err(Cancelled));
    assert_eq!(asked.get(), 3);
    assert!(last > 0);
}

#[test]
fn the_plan_checks_catch_broken_shared_plans() {
    let case = Case::new(Mode::Sync, 12, Capacity::Units(2), 4);
    let mut s = case.scenario();
    s.version = 2;
    s.params.gpu_sharing = Some(smd_core::scenario::GpuSharing::Heuristic);
    for (i, j) in s.jobs.iter_mut().enumerate() {
        j.worker.gpu = 1.0;
        j.gpu_mem_mean_gb = Some(1.0 + (i % 4) as f64);
        j.gpu_mem_sd_gb = Some(0.2);
        j.gpu_util = Some(0.15 + 0.1 * (i % 3) as f64);
    }
    let models: Vec<JobModel> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
        .collect();
    let good = smd_place::plan_placed(&s, Policy::Optimus, &mut Options::default()).unwrap();
    let sh = good.sharing.as_ref().expect("a shared plan");
    assert!(
        sh.gpus.iter().any(|g| g.workers.len() > 1),
        "nothing shared"
    );
    assert_eq!(check_plan(&s, &models, &good), Vec::<String>::new());

    // A slowdown the GPU's members do not give.
    let mut bad = good.clone();
    shared(&mut bad).slowdowns[0] = 1.0;
    let errs = check_plan(&s, &models, &bad);
    assert!(errs.iter().any(|e| e.contains("slowdown")), "{errs:?}");

    // A worker missing from the packing: it is on no GPU, and the GPUs used do not add up.
    let mut bad = good.clone();
    shared(&mut bad).workers.pop();
    let errs = check_plan(&s, &models, &bad);
    assert!(
        errs.iter().any(|e| e.contains("on shared GPUs")),
        "{errs:?}"
    );

    // Too much memory on one GPU.
    let mut s2 = s.clone();
    let first = &good
        .sharing
        .as_ref()
        .unwrap()
        .gpus
        .iter()
        .find(|g| g.workers.len() > 1);
    let id = &first.unwrap().workers[0].job;
    let k = s2.jobs.iter().position(|j| &j.id == id).unwrap();
    s2.jobs[k].gpu_mem_mean_gb = Some(15.5);
    let errs = check_plan(&s2, &models, &good);
    assert!(errs.iter().any(|e| e.contains("memory rule")), "{errs:?}");
}

/// The first GPU of `p` shared by several workers (to break it).
fn shared(p: &mut smd_core::Plan) -> &mut smd_core::plan::SharedGpu {
    let gpus = &mut p.sharing.as_mut().unwrap().gpus;
    gpus.iter_mut().find(|g| g.workers.len() > 1).unwrap()
}
