//! E2: total utility of every policy over the number of jobs (I = 10…200, 1 and 3 units).

use super::shared::{chart, grid, parts, pick, seed_cases, summarise, At, Order};
use super::utility::{unproven, util_findings, util_point, util_series, util_table, UtilPoint};
use super::{Grid, Parts, Samples, Spec};
use crate::case::{Capacity, Case, Pols};
use smd_core::Mode;

pub(super) const SPEC: Spec = Spec {
    id: "e2-utility-vs-jobs",
    title: "E2. Total utility over the number of jobs (1 and 3 units)",
    description: "Total utility of the five policies (and smd_polish) for I = 10…200 \
                  jobs on 1 and 3 cluster units, Sync and Async.",
    claim: "SMD's total utility is above ESW's and Optimus', and the gap grows with the \
            number of jobs.",
    cases,
    assemble,
};

/// Its points, in the order of the table's rows.
fn points(g: &Grid) -> Vec<At> {
    let units: Vec<Capacity> = g.e2_units.iter().map(|&u| Capacity::Units(u)).collect();
    grid(Order::ModeFirst, &units, &g.e2_jobs)
}

fn cases(g: &Grid) -> Vec<(Case, Pols)> {
    seed_cases(g, &points(g), Pols::all())
}

fn assemble(g: &Grid, s: &Samples) -> Parts {
    let (pts, errs) = summarise(g, s, points(g), util_point);
    let jobs = |p: &UtilPoint| p.at.jobs as f64;
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    for mode in Mode::ALL {
        for &u in &g.e2_units {
            let cap = Capacity::Units(u);
            let mine = pick(&pts, mode, cap);
            let label = format!("{}, {}", mode.title(), cap.label());
            panels.push(chart(
                label.clone(),
                "jobs I",
                "total utility",
                util_series(&mine, jobs),
            ));
            findings.extend(util_findings(&label, &mine, "I", jobs));
            findings.extend(unproven(&label, &mine));
        }
    }
    let caption = [
        g.seeds_text(),
        "Where global is not proven optimal it is the best plan found, never below another \
         policy."
            .into(),
    ];
    parts(
        util_table(&pts),
        ("E2. Total utility over the number of jobs", &caption),
        &panels,
        findings,
        errs,
    )
}
