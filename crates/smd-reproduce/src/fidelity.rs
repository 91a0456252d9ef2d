//! Agreement with the field's reference simulator (docs/FIDELITY.md, issue 26): the bundled
//! workloads as measured jobs on 16 × t4x4 with the reference's time (60 s ticks, 30 s
//! restarts, epoch-by-epoch progress), each of the reference's policies the project has,
//! against the per-job JCTs the Pollux artifact published (`data/pollux/results/`).
//! Deterministic (no clock).

use crate::table::{Cell, Table};
use smd_core::{Error, Scenario};
use smd_sim::{simulate, Options, SimPolicy};
use std::collections::BTreeMap;

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Workloads 1–8 at loads 0.5 and 1.0 (16 cases per policy).
    Full,
    /// Workload-1 at load 0.5 (a test's worth).
    Quick,
}

/// The reference's policies the project runs, with the name its results carry.
pub const POLICIES: [(SimPolicy, &str); 3] = [
    (SimPolicy::Tiresias, "tiresias"),
    (SimPolicy::OptimusOracle, "optimus"),
    (SimPolicy::Pollux, "pollux"),
];

/// The published results, `(file's policy name, load, JSON)`.
const PUBLISHED: [(&str, &str, &str); 6] = [
    (
        "tiresias",
        "0.5",
        include_str!("../../../data/pollux/results/tiresias-0.5.json"),
    ),
    (
        "tiresias",
        "1.0",
        include_str!("../../../data/pollux/results/tiresias-1.0.json"),
    ),
    (
        "optimus",
        "0.5",
        include_str!("../../../data/pollux/results/optimus-0.5.json"),
    ),
    (
        "optimus",
        "1.0",
        include_str!("../../../data/pollux/results/optimus-1.0.json"),
    ),
    (
        "pollux",
        "0.5",
        include_str!("../../../data/pollux/results/pollux-0.5.json"),
    ),
    (
        "pollux",
        "1.0",
        include_str!("../../../data/pollux/results/pollux-1.0.json"),
    ),
];

/// The reference's published mean JCT, s, for each of its policies (`tiresias`,
/// `optimus` — Optimus+Oracle —, `pollux`) when `s` is a bundled workload exactly as
/// [`scenario`] makes it (every arrival, 16 × t4x4, 60 s ticks and 30 s restarts); `None`
/// otherwise. The page shows them beside its own runs.
pub fn reference_means(s: &Scenario) -> Option<Vec<(&'static str, f64)>> {
    let first = s.jobs.first()?;
    for (workload, load) in cases(Size::Full) {
        let rows = if load == "0.5" { 80 } else { 160 };
        if s.jobs.len() != rows {
            continue;
        }
        let Ok(r) = scenario(&workload, load) else {
            continue;
        };
        // The same jobs on the same machines with the reference's time; other parameters
        // (the page keeps the draft's) do not change a simulation of these policies.
        let restart = s
            .params
            .restart_s
            .unwrap_or(smd_core::scenario::DEFAULT_RESTART_S);
        if r.jobs[0].id != first.id
            || r.jobs != s.jobs
            || r.cluster != s.cluster
            || s.interval_s() != r.interval_s()
            || restart != smd_core::scenario::DEFAULT_RESTART_S
        {
            continue;
        }
        return ["tiresias", "optimus", "pollux"]
            .into_iter()
            .map(|name| {
                let jcts = published(name, load, &workload).ok()?;
                let n = jcts.len() as f64;
                Some((name, jcts.values().sum::<f64>() / n))
            })
            .collect();
    }
    None
}

/// One run compared: a workload at a load under one policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// `workload-N`.
    pub workload: String,
    /// `0.5` or `1.0`.
    pub load: &'static str,
    /// The policy.
    pub policy: SimPolicy,
    /// `(job, ours, theirs)` JCTs, s, in the trace's order.
    pub jobs: Vec<(String, f64, f64)>,
}

impl Comparison {
    /// |ln(ours / theirs)| per job, sorted.
    pub fn log_ratios(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self
            .jobs
            .iter()
            .map(|(_, a, b)| (a / b).ln().abs())
            .collect();
        v.sort_by(f64::total_cmp);
        v
    }

    /// Mean JCT ours over theirs.
    pub fn mean_ratio(&self) -> f64 {
        let (a, b) = self
            .jobs
            .iter()
            .fold((0.0, 0.0), |(a, b), (_, x, y)| (a + x, b + y));
        a / b
    }
}

/// The published JCTs of `name` at `load` for `workload` (job → s).
pub fn published(name: &str, load: &str, workload: &str) -> Result<BTreeMap<String, f64>, Error> {
    let (_, _, text) = PUBLISHED
        .iter()
        .find(|(n, l, _)| *n == name && *l == load)
        .ok_or_else(|| Error::Solver(format!("no published results for {name} at {load}")))?;
    let all: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::Solver(format!("{name}-{load}: {e}")))?;
    let jobs = all["jcts"][workload]
        .as_object()
        .ok_or_else(|| Error::Solver(format!("{name}-{load}: no {workload}")))?;
    Ok(jobs
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
        .collect())
}

/// The workload `workload` at `load` as `smd trace` writes it on 16 × t4x4.
pub fn scenario(workload: &str, load: &str) -> Result<Scenario, Error> {
    let name = if load == "0.5" {
        format!("{workload}-half")
    } else {
        workload.to_owned()
    };
    let text = smd_apps::trace::pollux_workload(&name).map_err(Error::Solver)?;
    let arrivals = smd_apps::trace::parse(text).map_err(|e| Error::Solver(e.to_string()))?;
    let t4 = smd_apps::machines::machine_type("t4x4").map_err(Error::Solver)?;
    smd_apps::trace::scenario(
        &arrivals,
        smd_apps::machines::cluster(t4, 16.0, t4.capacity),
    )
    .map_err(|e| Error::Solver(e.to_string()))
}

/// The (workload, load) cases of a run.
pub fn cases(size: Size) -> Vec<(String, &'static str)> {
    match size {
        Size::Quick => vec![("workload-1".into(), "0.5")],
        Size::Full => ["0.5", "1.0"]
            .into_iter()
            .flat_map(|load| (1..=8).map(move |k| (format!("workload-{k}"), load)))
            .collect(),
    }
}

/// Every case under every policy, compared job by job; `progress(done, total)` after each.
pub fn compare(
    size: Size,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Comparison>, Error> {
    let list = cases(size);
    let total = list.len() * POLICIES.len();
    let mut out = Vec::with_capacity(total);
    for (workload, load) in list {
        let s = scenario(&workload, load)?;
        for (policy, name) in POLICIES {
            let theirs = published(name, load, &workload)?;
            let run = simulate(&s, policy, &mut Options::default()).map_err(|e| match e {
                smd_sim::SimError::Invalid(e) => e,
                smd_sim::SimError::Cancelled => Error::Solver("cancelled".into()),
            })?;
            let jobs = run
                .jobs
                .iter()
                .filter_map(|j| Some((j.id.clone(), j.jct_s?, *theirs.get(&j.id)?)))
                .collect();
            out.push(Comparison {
                workload: workload.clone(),
                load,
                policy,
                jobs,
            });
            progress(out.len(), total);
        }
    }
    Ok(out)
}

/// The columns of the table.
pub const COLUMNS: [&str; 11] = [
    "workload",
    "load",
    "policy",
    "jobs",
    "mean_jct_ours_s",
    "mean_jct_published_s",
    "mean_ratio",
    "median_abs_ln",
    "p90_abs_ln",
    "identical_jobs",
    "worst_job",
];

/// The study as a table: one row per comparison.
pub fn run(size: Size, progress: &mut dyn FnMut(usize, usize)) -> Result<Table, Error> {
    Ok(table(&compare(size, progress)?))
}

/// The comparisons as a table (nearest-rank percentiles).
pub fn table(list: &[Comparison]) -> Table {
    let mut t = Table::new(&COLUMNS);
    for c in list {
        let l = c.log_ratios();
        let at = |q: f64| l[((q * l.len() as f64).ceil() as usize).clamp(1, l.len()) - 1];
        let n = c.jobs.len() as f64;
        let worst = c
            .jobs
            .iter()
            .max_by(|a, b| (a.1 / a.2).ln().abs().total_cmp(&(b.1 / b.2).ln().abs()))
            .map(|(id, a, b)| format!("{id}: {a} s vs {b} s"))
            .unwrap_or_default();
        t.push(vec![
            Cell::Text(c.workload.clone()),
            Cell::Text(c.load.into()),
            Cell::Text(c.policy.name().into()),
            Cell::Int(c.jobs.len() as i64),
            Cell::Num(c.jobs.iter().map(|j| j.1).sum::<f64>() / n),
            Cell::Num(c.jobs.iter().map(|j| j.2).sum::<f64>() / n),
            Cell::Num(c.mean_ratio()),
            Cell::Num(at(0.5)),
            Cell::Num(at(0.9)),
            Cell::Int(c.jobs.iter().filter(|j| j.1 == j.2).count() as i64),
            Cell::Text(worst),
        ]);
    }
    t
}

/// One sentence per row of `t` (a [`table`] of comparisons): its means, the
/// per-job gap's (|ln(ours / published)|) median and p90 and the jobs identical to the second (what the page lists
/// under a policy's figure, from that policy's table).
pub fn findings(t: &Table) -> Vec<String> {
    let col = |name: &str| t.column(name).unwrap_or(0);
    let num = |row: &[Cell], name: &str| row[col(name)].as_f64().unwrap_or(f64::NAN);
    let text = |row: &[Cell], name: &str| row[col(name)].csv();
    t.rows
        .iter()
        .map(|r| {
            format!(
                "{} at load {}: mean JCT {} ours, {} published ({}); per-job gap to the published JCT median {}, p90 {}; {} of {} jobs identical to the second",
                text(r, "workload"),
                text(r, "load"),
                smd_charts::format::duration(num(r, "mean_jct_ours_s")),
                smd_charts::format::duration(num(r, "mean_jct_published_s")),
                smd_charts::format::signed_percent(num(r, "mean_ratio") - 1.0),
                smd_charts::format::sig(num(r, "median_abs_ln"), 2),
                smd_charts::format::sig(num(r, "p90_abs_ln"), 2),
                text(r, "identical_jobs"),
                text(r, "jobs"),
            )
        })
        .collect()
}

/// The columns of the search study.
pub const SEARCH_COLUMNS: [&str; 12] = [
    "workload",
    "load",
    "ticks",
    "proven_optimal_share",
    "mean_gap",
    "max_gap",
    "own_fitter_ticks",
    "nsga2_fitter_ticks",
    "fitness_ratio",
    "mean_jct_own_s",
    "mean_jct_nsga2_s",
    "mean_jct_published_s",
];

/// Pollux's search (MODEL.md §23): on each case, the project's optimiser and NSGA-II as
/// POLLUX-SIM.md §4.3 specifies it compared tick by tick on identical problems (our run
/// decides; NSGA-II's answer is scored), then a run decided by NSGA-II — what the fitter
/// search does to JCT — beside the published mean. `progress(done, total)` after each run.
pub fn search_study(size: Size, progress: &mut dyn FnMut(usize, usize)) -> Result<Table, Error> {
    let list = cases(size);
    let total = 2 * list.len();
    let mut t = Table::new(&SEARCH_COLUMNS);
    let fail = |e: smd_sim::SimError| match e {
        smd_sim::SimError::Invalid(e) => e,
        smd_sim::SimError::Cancelled => Error::Solver("cancelled".into()),
    };
    for (k, (workload, load)) in list.iter().enumerate() {
        let s = scenario(workload, load)?;
        let theirs = published("pollux", load, workload)?;
        let mean = |run: &smd_sim::Run| {
            let v: Vec<f64> = run
                .jobs
                .iter()
                .filter(|j| theirs.contains_key(&j.id))
                .filter_map(|j| j.jct_s)
                .collect();
            v.iter().sum::<f64>() / v.len().max(1) as f64
        };
        let (own, st) =
            smd_sim::simulate_pollux(&s, smd_sim::Search::Own, true, &mut Options::default())
                .map_err(fail)?;
        progress(2 * k + 1, total);
        let (ga, _) =
            smd_sim::simulate_pollux(&s, smd_sim::Search::Genetic, false, &mut Options::default())
                .map_err(fail)?;
        progress(2 * k + 2, total);
        t.push(vec![
            Cell::Text(workload.clone()),
            Cell::Text((*load).into()),
            Cell::Int(st.ticks as i64),
            Cell::Num(st.optimal as f64 / st.ticks.max(1) as f64),
            Cell::Num(st.mean_gap),
            Cell::Num(st.max_gap),
            Cell::Int(st.own_fitter as i64),
            Cell::Int(st.genetic_fitter as i64),
            Cell::Num(st.mean_fitness_ratio),
            Cell::Num(mean(&own)),
            Cell::Num(mean(&ga)),
            Cell::Num(theirs.values().sum::<f64>() / theirs.len().max(1) as f64),
        ]);
    }
    Ok(t)
}

/// Per policy, every job of `list` as ours against the published, log–log with the
/// identity line (docs/FIDELITY.md's figures).
pub fn scatter_svg(list: &[Comparison], policy: SimPolicy) -> String {
    let series = ["0.5", "1.0"]
        .into_iter()
        .map(|load| smd_charts::ScatterSeries {
            name: format!("load {load}"),
            points: list
                .iter()
                .filter(|c| c.policy == policy && c.load == load)
                .flat_map(|c| c.jobs.iter().map(|j| (j.2, j.1)))
                .collect(),
        })
        .collect();
    smd_charts::scatter_svg(&smd_charts::ScatterChart {
        title: format!("{policy}: each job's JCT, ours against the reference's, s"),
        x_label: "published JCT, s".into(),
        y_label: "our JCT, s".into(),
        series,
        log: true,
        identity: true,
        ..smd_charts::ScatterChart::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_study_meets_the_issues_goals() {
        let list = compare(Size::Quick, &mut |_, _| {}).unwrap();
        assert_eq!(list.len(), POLICIES.len());
        let t = table(&list);
        for (i, row) in t.rows.iter().enumerate() {
            let num = |k: &str| t.numbers(k)[i].unwrap();
            assert_eq!(row[3], Cell::Int(80));
            if list[i].policy == SimPolicy::Pollux {
                // Stochastic in the reference: its mean within ±8%, or lower.
                assert!(num("mean_ratio") <= 1.08, "{row:?}");
                continue;
            }
            assert!((num("mean_ratio") - 1.0).abs() <= 0.03, "{row:?}");
            assert!(
                num("median_abs_ln") <= 0.02 && num("p90_abs_ln") <= 0.15,
                "{row:?}"
            );
        }
        assert!(scatter_svg(&list, SimPolicy::Tiresias).starts_with("<svg"));
    }

    #[test]
    fn a_bundled_workload_as_the_reference_ran_it_has_its_published_means() {
        let s = scenario("workload-1", "1.0").unwrap();
        let means = reference_means(&s).unwrap();
        assert_eq!(means.len(), 3);
        // The published file's own mean (its `avgs`) for Optimus+Oracle on workload-1.
        let avg: serde_json::Value = serde_json::from_str(PUBLISHED[3].2).unwrap();
        let want = avg["avgs"]["workload-1"].as_f64().unwrap();
        assert!(
            (means[1].1 - want).abs() <= 1e-6 * want,
            "{} vs {want}",
            means[1].1
        );
        // The same jobs on another cluster, or fewer of them, are not the reference's runs.
        let mut other = s.clone();
        other.jobs.truncate(20);
        assert!(reference_means(&other).is_none());
        let mut slower = s;
        slower.params.interval_s = Some(600.0);
        assert!(reference_means(&slower).is_none());
    }
}
