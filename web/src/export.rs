//! What each result view exports (issue 27, "take the answer away"): the numbers it shows
//! as CSV — one row per thing the view lists, one number per cell, full precision — and
//! as JSON — the same results in the file contracts of docs/SCENARIO.md where one exists
//! (plans, runs, the sweep output), so what the page exports `smd` reads and writes too.
//!
//! Pure functions of the state's parts: the export bar ([`crate::components::views::bar`])
//! only names the file and downloads the text.

use crate::state::{Bought, Compared, Reproduced, Results, Simulated, Swept};
use smd_sweep::Metric;
use std::fmt::Write as _;

/// A file to download: its name, MIME type and text.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The file name (`sweep.csv`).
    pub name: String,
    /// Its MIME type.
    pub mime: &'static str,
    /// Its text.
    pub text: String,
}

impl Export {
    fn csv(stem: &str, text: String) -> Export {
        Export {
            name: format!("{stem}.csv"),
            mime: "text/csv",
            text,
        }
    }

    fn json(stem: &str, value: &impl serde::Serialize) -> Export {
        Export {
            name: format!("{stem}.json"),
            mime: "application/json",
            text: serde_json::to_string_pretty(value)
                .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise: {e}\"}}")),
        }
    }
}

/// A CSV writer (RFC 4180, `\n` line ends): text quoted when it needs it
/// (`smd_reproduce::table::quote`), numbers at full precision (Rust's shortest round-trip form), an absent value empty.
#[derive(Default)]
struct Csv {
    out: String,
}

/// One cell.
enum Cell<'a> {
    Text(&'a str),
    Num(Option<f64>),
}

impl<'a> From<&'a str> for Cell<'a> {
    fn from(s: &'a str) -> Cell<'a> {
        Cell::Text(s)
    }
}

impl From<f64> for Cell<'_> {
    fn from(v: f64) -> Self {
        Cell::Num(Some(v))
    }
}

impl From<Option<f64>> for Cell<'_> {
    fn from(v: Option<f64>) -> Self {
        Cell::Num(v)
    }
}

impl From<usize> for Cell<'_> {
    fn from(v: usize) -> Self {
        Cell::Num(Some(v as f64))
    }
}

impl Csv {
    fn row(&mut self, cells: Vec<Cell>) {
        let mut first = true;
        for c in cells {
            if !first {
                self.out.push(',');
            }
            first = false;
            match c {
                Cell::Text(t) => self.out.push_str(&smd_reproduce::table::quote(t)),
                Cell::Num(Some(v)) if v.is_finite() => {
                    let _ = write!(self.out, "{v}");
                }
                Cell::Num(_) => {}
            }
        }
        self.out.push('\n');
    }

    fn header(&mut self, names: &[&str]) {
        self.row(names.iter().map(|n| Cell::Text(n)).collect());
    }
}

/// Plan: every policy's plan, a row per (policy, job) — admitted, workers, parameter
/// servers, completion time and utility — and as JSON the plans (SCENARIO.md's plan,
/// one per policy, as `smd compare --json` writes them).
pub fn plan(r: &Results) -> (Export, Export) {
    let mut c = Csv::default();
    c.header(&[
        "policy",
        "job",
        "admitted",
        "workers",
        "ps",
        "completion_time_s",
        "utility",
    ]);
    for p in &r.plans {
        for j in &p.jobs {
            c.row(vec![
                p.policy.name().into(),
                j.id.as_str().into(),
                if j.admitted { "yes" } else { "no" }.into(),
                j.workers.map(|w| w as f64).into(),
                j.ps.map(|w| w as f64).into(),
                j.completion_time_s.into(),
                j.utility.into(),
            ]);
        }
    }
    (Export::csv("plans", c.out), Export::json("plans", &r.plans))
}

/// Over time: a row per policy with the metrics the view's table shows, and as JSON the
/// runs (SCENARIO.md's simulation output, every job's history included).
pub fn over_time(s: &Simulated) -> (Export, Export) {
    let mut c = Csv::default();
    c.header(&[
        "policy",
        "total_utility",
        "bound",
        "finished",
        "unfinished",
        "mean_jct_s",
        "median_jct_s",
        "p95_jct_s",
        "makespan_s",
        "mean_queue_s",
        "p95_queue_s",
        "restarts",
        "cross_traffic_gbit",
    ]);
    for run in &s.runs {
        let m = &run.metrics;
        c.row(vec![
            run.policy.name().into(),
            m.total_utility.into(),
            m.bound.into(),
            (run.jobs.len() - m.unfinished).into(),
            m.unfinished.into(),
            m.mean_jct_s.into(),
            m.median_jct_s.into(),
            m.p95_jct_s.into(),
            m.makespan_s.into(),
            m.mean_queue_s.into(),
            m.p95_queue_s.into(),
            (m.restarts as f64).into(),
            m.cross_traffic_gbit.into(),
        ]);
    }
    (
        Export::csv("over-time", c.out),
        Export::json("over-time", &s.runs),
    )
}

/// Sweep: a row per (size, policy) with every number the sweep has — static policies'
/// utility, admitted jobs and use of each resource, over time each policy's metrics — and
/// as JSON the sweep output of SCENARIO.md with the answer to `metric` under `policy` and
/// the goal's (`smd sweep --json --metric`'s shape).
pub fn sweep(s: &Swept, metric: Metric, policy: &str, goal: &str) -> (Export, Export) {
    let mut c = Csv::default();
    c.header(&[
        "size",
        "policy",
        "over_time",
        "total_utility",
        "admitted",
        "gpu_used",
        "gpu_capacity",
        "mean_jct_s",
        "p95_jct_s",
        "mean_queue_s",
        "finished",
        "gpu_hours",
        "cost_usd",
    ]);
    for p in &s.report.points {
        let size = p.size.value();
        for (q, o) in &p.policies {
            c.row(vec![
                size.into(),
                q.name().into(),
                "no".into(),
                o.total_utility.into(),
                o.admitted.into(),
                o.used.gpu.into(),
                p.capacity.gpu.into(),
                Cell::Num(None),
                Cell::Num(None),
                Cell::Num(None),
                Cell::Num(None),
                Cell::Num(None),
                Cell::Num(None),
            ]);
        }
        for (q, o) in &p.over_time {
            c.row(vec![
                size.into(),
                q.name().into(),
                "yes".into(),
                o.total_utility.into(),
                Cell::Num(None),
                Cell::Num(None),
                p.capacity.gpu.into(),
                o.mean_jct_s.into(),
                o.p95_jct_s.into(),
                o.mean_queue_s.into(),
                o.finished.into(),
                o.gpu_hours.into(),
                o.cost_usd.into(),
            ]);
        }
    }
    let answer = s.answer(metric, policy).ok();
    let goal = answer
        .as_ref()
        .and_then(|a| s.goal(a, goal))
        .and_then(Result::ok);
    let answered = smd_sweep::Answered {
        report: &s.report,
        answer: answer.as_ref().map(|a| a.answer.as_str()),
        metric: answer.as_ref(),
        goal: goal.as_ref(),
    };
    (
        Export::csv("sweep", c.out),
        Export::json("sweep", &answered),
    )
}

/// What to buy: a row per mix of the grid — its count of each type, its price per hour,
/// whether it was evaluated (a mix the search skipped has its price only), the metric's
/// value and the run's numbers, whether it is on the frontier and the answer — and as JSON
/// the mix sweep output of docs/SCENARIO.md (`smd sweep --mix --json`'s `MixReport`).
pub fn buy(b: &Bought) -> (Export, Export) {
    let r = &b.report;
    let search = &b.search;
    let mut head: Vec<&str> = vec!["index"];
    head.extend(r.types.iter().map(String::as_str));
    head.extend([
        "usd_per_hour",
        "evaluated",
        "metric",
        "value",
        "finished",
        "unfinished",
        "mean_jct_s",
        "p95_jct_s",
        "mean_queue_s",
        "gpu_hours",
        "cost_usd",
        "cost_per_job_usd",
        "frontier",
        "best",
        "note",
    ]);
    let mut c = Csv::default();
    c.header(&head);
    let prices = smd_sweep::type_prices(&search.types);
    let yes = |b: bool| if b { "yes" } else { "no" };
    for (i, counts) in search.spec.grid().iter().enumerate() {
        let p = r.points.iter().find(|p| p.index == i);
        let run = p.and_then(|p| p.run.as_ref());
        let mut row: Vec<Cell> = vec![i.into()];
        row.extend(counts.iter().map(|&n| Cell::Num(Some(f64::from(n)))));
        row.extend([
            smd_sweep::mix_price(&prices, counts).into(),
            yes(p.is_some()).into(),
            r.question.metric.name().into(),
            p.and_then(|p| p.value).into(),
            run.map(|o| o.finished as f64).into(),
            run.map(|o| o.unfinished as f64).into(),
            run.and_then(|o| o.mean_jct_s).into(),
            run.and_then(|o| o.p95_jct_s).into(),
            run.and_then(|o| o.mean_queue_s).into(),
            run.map(|o| o.gpu_hours).into(),
            run.and_then(|o| o.cost_usd).into(),
            run.and_then(|o| o.cost_per_job_usd).into(),
            yes(r.frontier.iter().any(|f| f.index == i)).into(),
            yes(r.best.as_ref().is_some_and(|b| b.index == i)).into(),
            p.and_then(|p| p.note.as_deref()).unwrap_or("").into(),
        ]);
        c.row(row);
    }
    (
        Export::csv("what-to-buy", c.out),
        Export::json("what-to-buy", r),
    )
}

/// Side by side: a row per policy with both sides' total utility and admitted jobs, the
/// difference B − A and its percentage; as JSON both sides (name, scenario, plans) and
/// the inputs that differ.
pub fn compare(r: &Compared) -> (Export, Export) {
    let mut c = Csv::default();
    c.header(&[
        "policy",
        "a_utility",
        "b_utility",
        "b_minus_a",
        "b_minus_a_percent",
        "a_admitted",
        "b_admitted",
    ]);
    let plans = |side: &crate::state::compare::Side| -> Vec<smd_core::Plan> {
        side.plans
            .iter()
            .filter_map(|p| p.as_ref().ok())
            .cloned()
            .collect()
    };
    let (pa, pb) = (plans(&r.a), plans(&r.b));
    for a in &pa {
        let b = pb.iter().find(|b| b.policy == a.policy);
        let diff = b.map(|b| b.total_utility - a.total_utility);
        let pct = diff
            .filter(|_| a.total_utility != 0.0)
            .map(|d| 100.0 * d / a.total_utility);
        c.row(vec![
            a.policy.name().into(),
            a.total_utility.into(),
            b.map(|b| b.total_utility).into(),
            diff.into(),
            pct.into(),
            a.admitted.into(),
            b.map(|b| b.admitted as f64).into(),
        ]);
    }
    #[derive(serde::Serialize)]
    struct Side<'a> {
        name: &'a str,
        scenario: &'a smd_core::Scenario,
        plans: Vec<smd_core::Plan>,
    }
    #[derive(serde::Serialize)]
    struct Both<'a> {
        a: Side<'a>,
        b: Side<'a>,
        differences: &'a [smd_core::diff::Difference],
    }
    let both = Both {
        a: Side {
            name: &r.a.label,
            scenario: &r.a.scenario,
            plans: pa.clone(),
        },
        b: Side {
            name: &r.b.label,
            scenario: &r.b.scenario,
            plans: pb.clone(),
        },
        differences: &r.diff,
    };
    (
        Export::csv("compare", c.out),
        Export::json("compare", &both),
    )
}

/// Reproduce: every experiment's table of the studies run (the paper's, the fidelity
/// study's) in one long CSV — a row per cell (experiment, row, column, value) — and as JSON
/// each experiment's claim, findings, table (CSV text) and failed checks.
pub fn reproduce(studies: &[&Reproduced]) -> (Export, Export) {
    let experiments = || studies.iter().flat_map(|r| r.experiments.iter());
    let mut c = Csv::default();
    c.header(&["experiment", "row", "column", "value"]);
    for e in experiments() {
        let records = smd_apps::csv::records(&e.csv).unwrap_or_default();
        let mut rows = records.iter();
        let Some(head) = rows.next() else { continue };
        for (k, row) in rows.enumerate() {
            for (col, v) in head.cells.iter().zip(row.cells.iter()) {
                c.row(vec![
                    e.id.as_str().into(),
                    (k + 1).into(),
                    col.as_str().into(),
                    v.as_str().into(),
                ]);
            }
        }
    }
    #[derive(serde::Serialize)]
    struct Exp<'a> {
        id: &'a str,
        title: &'a str,
        claim: &'a str,
        findings: &'a [String],
        table_csv: &'a str,
        failures: &'a [String],
    }
    let all: Vec<Exp> = experiments()
        .map(|e| Exp {
            id: &e.id,
            title: &e.title,
            claim: &e.claim,
            findings: &e.findings,
            table_csv: &e.csv,
            failures: &e.failures,
        })
        .collect();
    (
        Export::csv("reproduction", c.out),
        Export::json("reproduction", &all),
    )
}

/// GPU sharing: a row per policy and arrived %, and as JSON the study's (`smd study fgd
/// --json`'s shape: each policy's points, the bound's, the wall time).
pub fn sharing(s: &crate::state::sharing::Studied) -> (Export, Export) {
    let mut c = Csv::default();
    c.header(&[
        "policy",
        "arrived_pct",
        "allocation_pct",
        "unallocated_gpus",
        "frag_ratio_pct",
        "frag_amount_pct",
        "bound_allocation_pct",
    ]);
    for p in &s.out.policies {
        for q in &p.points {
            let bound = s
                .out
                .bound
                .iter()
                .find(|b| b.x == q.x)
                .map(|b| b.allocation_pct);
            c.row(vec![
                p.policy.as_str().into(),
                (q.x as usize).into(),
                q.allocation_pct.into(),
                q.unallocated_gpus.into(),
                q.frag_ratio_pct.into(),
                q.frag_amount_pct.into(),
                bound.into(),
            ]);
        }
    }
    let doc = smd_fgd::study::StudyOutput {
        policies: s
            .out
            .policies
            .iter()
            .map(|p| smd_fgd::study::PolicyPoints {
                policy: &p.policy,
                points: &p.points,
            })
            .collect(),
        bound: smd_fgd::study::BoundPoints {
            points: &s.out.bound,
        },
        wall_s: s.ms / 1000.0,
    };
    (
        Export::csv("gpu-sharing", c.out),
        Export::json("gpu-sharing", &doc),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_it_and_keeps_full_precision() {
        let mut c = Csv::default();
        c.header(&["a", "b,c"]);
        c.row(vec!["x\"y".into(), (1.0f64 / 3.0).into()]);
        c.row(vec![Cell::Num(None), f64::NAN.into()]);
        assert_eq!(c.out, "a,\"b,c\"\n\"x\"\"y\",0.3333333333333333\n,\n");
        let back = smd_apps::csv::records(&c.out).unwrap();
        assert_eq!(back[1].cells[1].parse::<f64>().unwrap(), 1.0 / 3.0);
    }
}
