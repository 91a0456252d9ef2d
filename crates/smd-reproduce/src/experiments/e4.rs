//! E4: the resources smd's admitted allocations use, as a share of what the admitted jobs
//! asked for (their limits L), per resource; ε = 0.01, I = 40…200, 1 unit and 1000
//! instances, with esw's share for reference.

use super::shared::{
    chart, check_seeds, f3, grid, level, max_of, min_of, over_jobs, parts, per_seed, pick,
    seed_cases, summarise, summary, At, Columns, Key, Located, Order, MEAN, MEAN_SD, SPREAD,
};
use super::{Grid, Parts, Samples, Spec};
use crate::case::{Capacity, Case, Pols, Variant};
use crate::stats::Summary;
use crate::table::Table;
use smd_charts::LineChart;
use smd_core::scenario::Resource;
use smd_core::{Mode, Policy};

pub(super) const SPEC: Spec = Spec {
    id: "e4-resource-share",
    title: "E4. Resources used by SMD / resources its admitted jobs asked for",
    description: "Per resource, Σ demand of smd's admitted allocations divided by Σ limit \
                  L of the admitted jobs, and the mean over the four resources; ε = 0.01, \
                  I = 40…200, on 1 cluster unit (and the mean on 1000 instances), with \
                  esw's mean for reference.",
    claim: "With ε = 0.01 and I = 40…200, SMD uses 30–50% of the resources users asked \
            for.",
    cases,
    assemble,
};

/// The resources, as titles.
/// Resource titles, from their one owner.
const RESOURCE_TITLES: [&str; 4] = [
    Resource::Gpu.title(),
    Resource::Vcpu.title(),
    Resource::MemoryGb.title(),
    Resource::StorageGb.title(),
];
/// The resources, as column prefixes (`<name>_share_mean`, …).
const RESOURCE_COLUMNS: [&str; 4] = ["gpu", "vcpu", "memory", "storage"];

fn caps() -> [Capacity; 2] {
    [Capacity::Units(1), Capacity::Instances(1000)]
}

/// Its points, in the order of the table's rows.
fn points(g: &Grid) -> Vec<At> {
    grid(Order::ClusterFirst, &caps(), &g.e4_jobs)
}

fn cases(g: &Grid) -> Vec<(Case, Pols)> {
    seed_cases(
        g,
        &points(g),
        Pols::of(&[Variant::plain(Policy::Smd), Variant::plain(Policy::Esw)]),
    )
}

struct SharePoint {
    at: At,
    /// smd's share per resource.
    smd: [Summary; 4],
    smd_mean: Summary,
    esw_mean: Summary,
    peak: Summary,
    esw_peak: Summary,
    admitted: Summary,
}

impl Located for SharePoint {
    fn at(&self) -> &At {
        &self.at
    }
}

/// What one seed contributes.
struct Seed {
    smd: [f64; 4],
    smd_mean: f64,
    esw_mean: f64,
    peak: f64,
    esw_peak: f64,
    admitted: f64,
}

fn point(g: &Grid, s: &Samples, at: At, errs: &mut Vec<String>) -> SharePoint {
    let seeds = per_seed(g, s, at.cases(), errs, |seed, x, errs| {
        let (Some(smd), Some(esw)) = (x.get(Policy::Smd), x.get(Policy::Esw)) else {
            return None;
        };
        for (who, m) in [("smd", smd), ("esw", esw)] {
            for (r, v) in m.shares().into_iter().enumerate() {
                if v.is_finite() && !(-1e-9..=1.0 + 1e-9).contains(&v) {
                    errs.push(format!(
                        "{} I={} {} seed {seed} {who}: {} used / requested = {v} outside [0, 1]",
                        at.mode.name(),
                        at.jobs,
                        at.capacity.label(),
                        RESOURCE_TITLES[r]
                    ));
                }
            }
        }
        Some(Seed {
            smd: smd.shares(),
            smd_mean: smd.mean_share(),
            esw_mean: esw.mean_share(),
            peak: smd.peak_use(),
            esw_peak: esw.peak_use(),
            admitted: smd.admitted as f64,
        })
    });
    let p = SharePoint {
        at: at.with_seeds(seeds.len()),
        smd: std::array::from_fn(|r| summary(&seeds, |x| x.smd[r])),
        smd_mean: summary(&seeds, |x| x.smd_mean),
        esw_mean: summary(&seeds, |x| x.esw_mean),
        peak: summary(&seeds, |x| x.peak),
        esw_peak: summary(&seeds, |x| x.esw_peak),
        admitted: summary(&seeds, |x| x.admitted),
    };
    let what = format!("{} smd share", at.label());
    check_seeds(&p.smd_mean, g.seeds.len(), &what, errs);
    p
}

fn table(pts: &[SharePoint]) -> Table {
    let mut c = Columns::keyed(&[Key::Capacity, Key::Mode, Key::Jobs, Key::Seeds]).stats(
        "smd_admitted",
        MEAN,
        |p: &SharePoint| &p.admitted,
    );
    for (r, name) in RESOURCE_COLUMNS.iter().enumerate() {
        c = c.stats(&format!("{name}_share"), MEAN_SD, move |p: &SharePoint| {
            &p.smd[r]
        });
    }
    c.stats("mean_share", SPREAD, |p| &p.smd_mean)
        .stats("esw_mean_share", MEAN_SD, |p| &p.esw_mean)
        .stats("smd_peak_capacity_use", MEAN, |p| &p.peak)
        .stats("esw_peak_capacity_use", MEAN, |p| &p.esw_peak)
        .table(pts)
}

/// Per mode: smd's and esw's mean share on each cluster with the claimed 30–50% band;
/// then per mode smd's share per resource on 1 unit.
fn panels(g: &Grid, pts: &[SharePoint]) -> Vec<LineChart> {
    let y = "used / requested by admitted jobs";
    let mut panels = Vec::new();
    for mode in Mode::ALL {
        let mut ser = Vec::new();
        for cap in caps() {
            let mine = pick(pts, mode, cap);
            let l = cap.label();
            ser.push(over_jobs(format!("smd, {l}"), &mine, |p| &p.smd_mean));
            ser.push(over_jobs(format!("esw, {l}"), &mine, |p| &p.esw_mean));
        }
        ser.push(level("paper: 30%", &g.e4_jobs, 0.3));
        ser.push(level("paper: 50%", &g.e4_jobs, 0.5));
        let title = format!("{}: mean over the 4 resources", mode.title());
        panels.push(chart(title, "jobs I", y, ser));
    }
    for mode in Mode::ALL {
        let one = pick(pts, mode, Capacity::Units(1));
        let ser = (0..4)
            .map(|r| over_jobs(RESOURCE_TITLES[r], &one, |p| &p.smd[r]))
            .collect();
        let title = format!("{}: smd per resource, 1 cluster unit", mode.title());
        panels.push(chart(title, "jobs I", y, ser));
    }
    for c in &mut panels {
        c.dodge = 3.0;
    }
    panels
}

/// What one mode on one cluster shows over I.
fn finding(mode: Mode, group: &[&SharePoint]) -> Option<String> {
    let (a, b) = (group.first()?, group.last()?);
    let range = |f: &dyn Fn(&SharePoint) -> f64| {
        let lo = min_of(group.iter().map(|p| f(p)));
        let hi = max_of(group.iter().map(|p| f(p)));
        format!("{}–{}", f3(lo), f3(hi))
    };
    let per: Vec<String> = (0..4)
        .map(|r| format!("{} {}", RESOURCE_TITLES[r], range(&|p| p.smd[r].mean)))
        .collect();
    let trend = |s: fn(&SharePoint) -> &Summary| format!("{} → {}", f3(s(a).mean), f3(s(b).mean));
    Some(format!(
        "{}, {}: smd's mean share of the requested resources {} over I = {}…{} \
         (per resource: {}); esw's {}; smd's busiest resource uses {} of \
         the cluster; smd admits {} jobs.",
        mode.title(),
        a.at.capacity.label(),
        range(&|p| p.smd_mean.mean),
        a.at.jobs,
        b.at.jobs,
        per.join(", "),
        trend(|p| &p.esw_mean),
        trend(|p| &p.peak),
        trend(|p| &p.admitted),
    ))
}

fn assemble(g: &Grid, s: &Samples) -> Parts {
    let (pts, errs) = summarise(g, s, points(g), point);
    let mut findings = Vec::new();
    for mode in Mode::ALL {
        for cap in caps() {
            findings.extend(finding(mode, &pick(&pts, mode, cap)));
        }
    }
    let caption = [
        g.seeds_text(),
        "Share = Σ demand of the admitted allocations / Σ limit L of the admitted jobs; \
         \"mean of 4\" averages GPU, vCPU, memory, storage."
            .into(),
    ];
    parts(
        table(&pts),
        (
            "E4. Resources used by SMD as a share of what its admitted jobs requested (ε = 0.01)",
            &caption,
        ),
        &panels(g, &pts),
        findings,
        errs,
    )
}
