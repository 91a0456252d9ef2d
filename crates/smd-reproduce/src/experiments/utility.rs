//! Total utility of every policy at one point, as E1 (over cluster units) and E2 (over
//! the number of jobs) both report it: the points, their table, series and findings.

use super::shared::{
    check_seeds, check_smd_over_global, f3, per_seed, pm, ratio, series, summary, At, Columns, Key,
    Located, Stat, MEAN, MEAN_SD, SPREAD,
};
use super::{Grid, Samples};
use crate::case::Variant;
use crate::stats::Summary;
use crate::table::Table;
use smd_charts::Series;
use smd_core::Policy;

/// Per-seed totals of every policy at one point, summarised.
pub(super) struct UtilPoint {
    pub at: At,
    /// Total utility per policy, in [`Variant::ALL`] order.
    by_pol: Vec<Summary>,
    /// smd / the policy's total, per seed, in [`Variant::ALL`] order.
    smd_over: Vec<Summary>,
    /// Seeds where smd is above esw, and above optimus.
    smd_beats: [usize; 2],
    global_proven: usize,
    exact_proven: usize,
    global_ms: Summary,
    global_gap: Summary,
}

impl Located for UtilPoint {
    fn at(&self) -> &At {
        &self.at
    }
}

/// Position of `p` in [`Variant::ALL`], the order of the per-policy vectors.
fn slot(p: impl Into<Variant>) -> usize {
    let p = p.into();
    Variant::ALL.iter().position(|&q| q == p).unwrap_or(0)
}

impl UtilPoint {
    /// The total utility of `p`.
    fn total(&self, p: impl Into<Variant>) -> &Summary {
        &self.by_pol[slot(p)]
    }
    /// smd / `p`, per seed.
    fn smd_over(&self, p: impl Into<Variant>) -> &Summary {
        &self.smd_over[slot(p)]
    }
}

/// What one seed contributes (NaN where a policy was not planned).
struct Seed {
    totals: Vec<f64>,
    global_proven: bool,
    global_ms: f64,
    global_gap: f64,
    exact_proven: bool,
}

/// The point `at` (seeds not yet counted), from the samples of its seeds.
pub(super) fn util_point(g: &Grid, s: &Samples, at: At, errs: &mut Vec<String>) -> UtilPoint {
    let smd = slot(Policy::Smd);
    let seeds = per_seed(g, s, at.cases(), errs, |seed, sample, errs| {
        let totals: Vec<f64> = Variant::ALL
            .iter()
            .map(|p| sample.get(*p).map_or(f64::NAN, |m| m.total_utility))
            .collect();
        let global = sample.get(Policy::Global);
        if let Some(m) = global {
            check_smd_over_global(&at, seed, ratio(totals[smd], m.total_utility), errs);
        }
        Some(Seed {
            totals,
            global_proven: global.is_some_and(|m| m.proven_optimal),
            global_ms: global.map_or(f64::NAN, |m| m.solve_ms),
            global_gap: global.map_or(f64::NAN, |m| m.gap.unwrap_or(0.0)),
            exact_proven: sample.get(Policy::Exact).is_some_and(|m| m.proven_optimal),
        })
    });
    let per_policy = |f: fn(f64, f64) -> f64| -> Vec<Summary> {
        (0..Variant::ALL.len())
            .map(|k| summary(&seeds, |r| f(r.totals[smd], r.totals[k])))
            .collect()
    };
    let by_pol = per_policy(|_, total| total);
    let at = at.with_seeds(seeds.len());
    for (s, p) in by_pol.iter().zip(Variant::ALL) {
        let what = format!("{} {}", at.label(), p.name());
        check_seeds(s, g.seeds.len(), &what, errs);
    }
    let count = |f: &dyn Fn(&Seed) -> bool| seeds.iter().filter(|r| f(r)).count();
    let smd_above = |p: Policy| count(&|r| r.totals[smd] > r.totals[slot(p)]);
    UtilPoint {
        at,
        smd_over: per_policy(ratio),
        smd_beats: [smd_above(Policy::Esw), smd_above(Policy::Optimus)],
        global_proven: count(&|r| r.global_proven),
        exact_proven: count(&|r| r.exact_proven),
        global_ms: summary(&seeds, |r| r.global_ms),
        global_gap: summary(&seeds, |r| r.global_gap),
        by_pol,
    }
}

/// The E1 and E2 table: every policy's total (mean, sd, min, max), smd / each other
/// policy, the wins and global's proofs, gaps and times.
pub(super) fn util_table(points: &[UtilPoint]) -> Table {
    let keys = [Key::Mode, Key::Capacity, Key::Jobs, Key::Seeds];
    let mut c = Columns::keyed(&keys);
    for p in Variant::ALL {
        c = c.stats(&p.name(), SPREAD, move |pt: &UtilPoint| pt.total(p));
    }
    for p in Variant::ALL
        .into_iter()
        .filter(|&p| p != Variant::plain(Policy::Smd))
    {
        let name = format!("smd_over_{}", p.name());
        c = c.stats(&name, MEAN_SD, move |pt: &UtilPoint| pt.smd_over(p));
    }
    c.col("smd_above_esw", |p| p.smd_beats[0].into())
        .col("smd_above_optimus", |p| p.smd_beats[1].into())
        .col("exact_proven", |p| p.exact_proven.into())
        .col("global_proven", |p| p.global_proven.into())
        .stats("global_gap", &[Stat::Mean, Stat::Max], |p| &p.global_gap)
        .stats("global_ms", MEAN, |p| &p.global_ms)
        .table(points)
}

/// One series per policy: its mean total (± sd) at `x` of each point.
pub(super) fn util_series(points: &[&UtilPoint], x: impl Fn(&UtilPoint) -> f64) -> Vec<Series> {
    Variant::ALL
        .iter()
        .map(|&p| {
            let pts = points.iter().map(|pt| pt.total(p).point(x(pt))).collect();
            series(p.name(), pts)
        })
        .collect()
}

/// Findings on a run of utility points (one mode, one sweep over `x`, named `x_name`).
pub(super) fn util_findings(
    label: &str,
    pts: &[&UtilPoint],
    x_name: &str,
    x: impl Fn(&UtilPoint) -> f64,
) -> Vec<String> {
    let n: usize = pts.iter().map(|p| p.at.seeds).sum();
    let be: usize = pts.iter().map(|p| p.smd_beats[0]).sum();
    let bo: usize = pts.iter().map(|p| p.smd_beats[1]).sum();
    let gp: usize = pts.iter().map(|p| p.global_proven).sum();
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return Vec::new();
    };
    let gap = |p: &UtilPoint, q: Policy| p.total(Policy::Smd).mean - p.total(q).mean;
    let totals = |p: &UtilPoint| -> String {
        Variant::ALL
            .iter()
            .map(|&q| format!("{} {}", q.name(), f3(p.total(q).mean)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let polish = |p: &UtilPoint| f3(p.total(Variant::SMD_POLISH).mean / p.total(Policy::Smd).mean);
    let gap_max = pts.iter().map(|p| p.global_gap.max).fold(0.0_f64, f64::max);
    vec![
        format!(
            "{label}: smd above esw in {be}/{n} scenarios and above optimus in {bo}/{n}; \
             smd − esw (means) {} at {x_name} = {} → {} at {x_name} = {}; \
             smd − optimus {} → {}.",
            f3(gap(first, Policy::Esw)),
            x(first),
            f3(gap(last, Policy::Esw)),
            x(last),
            f3(gap(first, Policy::Optimus)),
            f3(gap(last, Policy::Optimus)),
        ),
        format!(
            "{label}: mean totals at {x_name} = {}: {}; at {x_name} = {}: {}.",
            x(first),
            totals(first),
            x(last),
            totals(last),
        ),
        format!(
            "{label}: smd / exact {} → {}; smd / global {} → {} \
             (global proven optimal in {gp}/{n}, largest gap {}); \
             smd_polish / smd {} → {}.",
            pm(first.smd_over(Policy::Exact)),
            pm(last.smd_over(Policy::Exact)),
            pm(first.smd_over(Policy::Global)),
            pm(last.smd_over(Policy::Global)),
            f3(gap_max),
            polish(first),
            polish(last),
        ),
    ]
}

/// Where global is not proven optimal at every seed of a point: the point, its proofs and
/// global's mean time.
pub(super) fn unproven(label: &str, mine: &[&UtilPoint]) -> Option<String> {
    let list: Vec<String> = mine
        .iter()
        .filter(|p| p.global_proven < p.at.seeds)
        .map(|p| {
            format!(
                "I = {}: {}/{} proven, {} ms",
                p.at.jobs,
                p.global_proven,
                p.at.seeds,
                f3(p.global_ms.mean)
            )
        })
        .collect();
    (!list.is_empty()).then(|| {
        format!(
            "{label}: global not always proven within its node limit — {}.",
            list.join("; ")
        )
    })
}
