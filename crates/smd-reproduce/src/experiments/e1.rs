//! E1: total utility of every policy over the cluster size (I = 50, 1…5 units).

use super::shared::{chart, grid, parts, seed_cases, summarise, At, Order};
use super::utility::{util_findings, util_point, util_series, util_table, UtilPoint};
use super::{Grid, Parts, Samples, Spec};
use crate::case::{Capacity, Case, Pols};
use smd_core::Mode;

pub(super) const SPEC: Spec = Spec {
    id: "e1-utility-vs-units",
    title: "E1. Total utility over cluster size (I = 50)",
    description: "Total utility of smd, esw, optimus, exact and global for I = 50 jobs \
                  on 1…5 cluster units, Sync and Async (the paper's Figs. 10–11); also \
                  smd_polish, smd with docs/MODEL.md's improved options (polish, best-corner \
                  rounding).",
    claim: "SMD's total utility is above ESW's and Optimus', Sync and Async, and the gap \
            grows with capacity (1–5 units).",
    cases,
    assemble,
};

/// Its points, in the order of the table's rows.
fn points(g: &Grid) -> Vec<At> {
    let units: Vec<Capacity> = g.e1_units.iter().map(|&u| Capacity::Units(u)).collect();
    grid(Order::ModeFirst, &units, &[g.e1_jobs])
}

fn cases(g: &Grid) -> Vec<(Case, Pols)> {
    seed_cases(g, &points(g), Pols::all())
}

fn assemble(g: &Grid, s: &Samples) -> Parts {
    let (pts, errs) = summarise(g, s, points(g), util_point);
    let units = |p: &UtilPoint| match p.at.capacity {
        Capacity::Units(n) | Capacity::Instances(n) => f64::from(n),
    };
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    for mode in Mode::ALL {
        let mine: Vec<&UtilPoint> = pts.iter().filter(|p| p.at.mode == mode).collect();
        panels.push(chart(
            format!("{}, I = {}", mode.title(), g.e1_jobs),
            "cluster units",
            "total utility",
            util_series(&mine, units),
        ));
        findings.extend(util_findings(mode.title(), &mine, "units", units));
    }
    parts(
        util_table(&pts),
        ("E1. Total utility over cluster size", &[g.seeds_text()]),
        &panels,
        findings,
        errs,
    )
}
