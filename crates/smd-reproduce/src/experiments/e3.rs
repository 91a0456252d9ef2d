//! E3: smd / optimum, against the decomposition's optimum (`exact`) and the joint one
//! (`global`), I = 10…50, on 1000 instances (every job fits) and on 1 unit (capacity binds).

use super::shared::{
    chart, check_seeds, check_smd_over_global, f3, grid, level, max_of, min_of, over_jobs, parts,
    per_seed, pick, pm, ratio, seed_cases, summarise, summary, At, Columns, Key, Located, Order,
    Stat, MEAN, SPREAD,
};
use super::{Grid, Parts, Samples, Spec};
use crate::case::{Capacity, Case, Pols, Variant};
use crate::stats::Summary;
use smd_core::{Mode, Policy};

pub(super) const SPEC: Spec = Spec {
    id: "e3-ratio-to-optimum",
    title: "E3. SMD / optimum",
    description: "smd's total utility divided by exact's (the decomposition's optimum, \
                  the paper's \"optimal\") and by global's (the joint optimum), per seed, \
                  for I = 10…50 on a 1000-instance cluster (the paper's setting: every \
                  job fits) and on 1 cluster unit (capacity binds), Sync and Async. The \
                  table adds smd / global's upper bound (a lower bound on smd / optimum \
                  when global is not proven) and smd_polish's ratios.",
    claim: "SMD / optimum (cluster = 1000 instances, I = 10…50) is far above the \
            worst-case bound and grows with I; Sync's ratio is below Async's.",
    cases,
    assemble,
};

fn caps(g: &Grid) -> [Capacity; 2] {
    [Capacity::Instances(g.e3_instances), Capacity::Units(1)]
}

/// Its points, in the order of the table's rows.
fn points(g: &Grid) -> Vec<At> {
    grid(Order::ClusterFirst, &caps(g), &g.e3_jobs)
}

fn cases(g: &Grid) -> Vec<(Case, Pols)> {
    seed_cases(
        g,
        &points(g),
        Pols::of(&[
            Variant::plain(Policy::Smd),
            Variant::plain(Policy::Exact),
            Variant::plain(Policy::Global),
            Variant::plain(Policy::Optimus),
            Variant::SMD_POLISH,
        ]),
    )
}

struct RatioPoint {
    at: At,
    over_exact: Summary,
    over_global: Summary,
    over_bound: Summary,
    polish_over_exact: Summary,
    polish_over_global: Summary,
    gap: Summary,
    global_over_exact: Summary,
    proven: usize,
    /// The admission's guarantee q/(q+R) (of the last seed).
    guarantee: f64,
    /// Admitted jobs of smd, exact, global.
    admitted: [Summary; 3],
}

impl Located for RatioPoint {
    fn at(&self) -> &At {
        &self.at
    }
}

/// What one seed contributes (NaN where smd_polish was not planned).
struct Seed {
    over_exact: f64,
    over_global: f64,
    over_bound: f64,
    polish_over_exact: f64,
    polish_over_global: f64,
    gap: f64,
    global_over_exact: f64,
    admitted: [f64; 3],
    proven: bool,
    guarantee: f64,
}

fn point(g: &Grid, s: &Samples, at: At, errs: &mut Vec<String>) -> RatioPoint {
    let seeds = per_seed(g, s, at.cases(), errs, |seed, x, errs| {
        let (Some(sm), Some(ex), Some(gl)) = (
            x.get(Policy::Smd),
            x.get(Policy::Exact),
            x.get(Policy::Global),
        ) else {
            return None;
        };
        let over_global = ratio(sm.total_utility, gl.total_utility);
        check_smd_over_global(&at, seed, over_global, errs);
        let polish = |over: f64| {
            x.get(Variant::SMD_POLISH)
                .map_or(f64::NAN, |po| ratio(po.total_utility, over))
        };
        Some(Seed {
            over_exact: ratio(sm.total_utility, ex.total_utility),
            over_global,
            over_bound: ratio(sm.total_utility, gl.bound()),
            polish_over_exact: polish(ex.total_utility),
            polish_over_global: polish(gl.total_utility),
            gap: gl.gap.unwrap_or(0.0),
            global_over_exact: ratio(gl.total_utility, ex.total_utility),
            admitted: [sm, ex, gl].map(|m| m.admitted as f64),
            proven: gl.proven_optimal,
            guarantee: sm.guarantee,
        })
    });
    let p = RatioPoint {
        at: at.with_seeds(seeds.len()),
        over_exact: summary(&seeds, |r| r.over_exact),
        over_global: summary(&seeds, |r| r.over_global),
        over_bound: summary(&seeds, |r| r.over_bound),
        polish_over_exact: summary(&seeds, |r| r.polish_over_exact),
        polish_over_global: summary(&seeds, |r| r.polish_over_global),
        gap: summary(&seeds, |r| r.gap),
        global_over_exact: summary(&seeds, |r| r.global_over_exact),
        proven: seeds.iter().filter(|r| r.proven).count(),
        guarantee: seeds.last().map_or(f64::NAN, |r| r.guarantee),
        admitted: std::array::from_fn(|k| summary(&seeds, |r| r.admitted[k])),
    };
    let what = at.label();
    check_seeds(
        &p.over_exact,
        g.seeds.len(),
        &format!("{what} smd/exact"),
        errs,
    );
    check_seeds(
        &p.over_global,
        g.seeds.len(),
        &format!("{what} smd/global"),
        errs,
    );
    p
}

fn table(pts: &[RatioPoint]) -> crate::table::Table {
    Columns::keyed(&[Key::Capacity, Key::Mode, Key::Jobs, Key::Seeds])
        .stats("smd_over_exact", SPREAD, |p: &RatioPoint| &p.over_exact)
        .stats("smd_over_global", SPREAD, |p| &p.over_global)
        .stats("smd_over_global_bound", MEAN, |p| &p.over_bound)
        .stats("smd_polish_over_exact", MEAN, |p| &p.polish_over_exact)
        .stats("smd_polish_over_global", MEAN, |p| &p.polish_over_global)
        .stats("global_over_exact", &[Stat::Mean, Stat::Max], |p| {
            &p.global_over_exact
        })
        .col("global_proven", |p| p.proven.into())
        .stats("global_gap", &[Stat::Max], |p| &p.gap)
        .stats("smd_admitted", MEAN, |p| &p.admitted[0])
        .stats("exact_admitted", MEAN, |p| &p.admitted[1])
        .stats("global_admitted", MEAN, |p| &p.admitted[2])
        .col("fc_guarantee", |p| p.guarantee.into())
        .table(pts)
}

/// What one mode on one cluster shows, from its first to its last point.
fn finding(cap: Capacity, mode: Mode, mine: &[&RatioPoint]) -> Option<String> {
    let (a, b) = (mine.first()?, mine.last()?);
    let proven: usize = mine.iter().map(|p| p.proven).sum();
    let n: usize = mine.iter().map(|p| p.at.seeds).sum();
    let lo = |f: fn(&RatioPoint) -> f64| f3(min_of(mine.iter().map(|p| f(p))));
    let hi = |f: fn(&RatioPoint) -> f64| f3(max_of(mine.iter().map(|p| f(p))));
    Some(format!(
        "{}, {}: smd/exact {} (I = {}) → {} (I = {}), range over seeds [{}, {}]; \
         smd/global {} → {}, range [{}, {}]; global/exact up to {}; \
         global proven in {proven}/{n}; \
         smd_polish/exact {} → {}, smd_polish/global {} → {}.",
        cap.label(),
        mode.title(),
        pm(&a.over_exact),
        a.at.jobs,
        pm(&b.over_exact),
        b.at.jobs,
        lo(|p| p.over_exact.min),
        hi(|p| p.over_exact.max),
        pm(&a.over_global),
        pm(&b.over_global),
        lo(|p| p.over_global.min),
        hi(|p| p.over_global.max),
        hi(|p| p.global_over_exact.max),
        pm(&a.polish_over_exact),
        pm(&b.polish_over_exact),
        pm(&a.polish_over_global),
        pm(&b.polish_over_global),
    ))
}

fn assemble(g: &Grid, s: &Samples) -> Parts {
    let (pts, errs) = summarise(g, s, points(g), point);
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    for cap in caps(g) {
        let mut ser = Vec::new();
        for mode in Mode::ALL {
            let mine = pick(&pts, mode, cap);
            let t = mode.title();
            ser.push(over_jobs(format!("{t} smd/exact"), &mine, |p| {
                &p.over_exact
            }));
            ser.push(over_jobs(format!("{t} smd/global"), &mine, |p| {
                &p.over_global
            }));
            findings.extend(finding(cap, mode, &mine));
        }
        let guarantee = pts
            .iter()
            .find(|p| p.at.capacity == cap)
            .map_or(f64::NAN, |p| p.guarantee);
        ser.push(level("FC bound q/(q+R)", &g.e3_jobs, guarantee));
        panels.push(chart(
            format!("cluster = {}", cap.label()),
            "jobs I",
            "smd total utility / optimum",
            ser,
        ));
    }
    let caption = [
        g.seeds_text(),
        "FC bound: the admission's proven guarantee q/(q+R) = 2/6 (Frieze–Clarke at q = 2, \
         R = 4 resources)."
            .into(),
        "On 1000 instances every job fits: smd/exact and smd/global coincide near 1.".into(),
    ];
    parts(
        table(&pts),
        (
            "E3. SMD / optimum (exact: the decomposition's optimum; global: the joint optimum)",
            &caption,
        ),
        &panels,
        findings,
        errs,
    )
}
