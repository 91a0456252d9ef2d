//! The heterogeneous-cluster study (docs/FIDELITY.md, "Clusters that mix GPU types"): the
//! three heterogeneity-aware policies over time (docs/MODEL.md §24) on the Sia paper's
//! 64-GPU cluster — 6 × t4x4, 2 × a100x8, 3 × rtx2080tix8 — over the Sia artifact's Philly
//! and Helios workloads, with the paper's Table 3 columns beside its published Philly row;
//! and its Figure 7, average JCT against the arrival rate, beside the published points.
//!
//! The metrics are computed as the artifact's `utils/print_run_stats.py` computes them:
//! the average JCT over the pooled jobs of every workload, the p99 as the pooled sorted
//! JCTs' element ⌊0.99 n⌋, the makespan per workload (last completion − first arrival)
//! averaged over workloads, GPU-hours per job from the GPUs allocated each tick, and the
//! contention (jobs arrived and unfinished) averaged per workload then over workloads,
//! with its largest value.

use crate::table::{Cell, Table};
use crate::verdict::{ClaimVerdict, Verdict};
use smd_core::{Error, Scenario};
use smd_sim::{simulate, Options, Run, SimPolicy};

/// The paper's heterogeneous cluster.
pub const MIX: &str = "t4x4=6,a100x8=2,rtx2080tix8=3";

/// The policies compared, in the paper's order.
pub const POLICIES: [SimPolicy; 3] = [SimPolicy::Sia, SimPolicy::PolluxUnaware, SimPolicy::Gavel];

/// Table 3's published Philly row per policy: average JCT h, p99 JCT h, makespan h,
/// GPU-hours per job, contention mean and max (the Sia paper's draft, Table 3).
pub const PUBLISHED_PHILLY: [(SimPolicy, [f64; 6]); 3] = [
    (SimPolicy::Sia, [0.6, 9.5, 14.2, 4.0, 6.9, 31.0]),
    (SimPolicy::PolluxUnaware, [1.0, 14.9, 24.5, 5.6, 7.2, 42.0]),
    (SimPolicy::Gavel, [1.9, 30.0, 33.8, 9.0, 9.9, 56.0]),
];

/// Figure 7's published points (read from the figure): average JCT h of Sia, Pollux and
/// Gavel+TunedJobs at 10…50 jobs per hour.
pub const PUBLISHED_RATES: [(u32, [f64; 3]); 5] = [
    (10, [0.517, 0.796, 1.068]),
    (20, [0.695, 1.057, 2.802]),
    (30, [0.817, 1.318, 4.563]),
    (40, [1.179, 1.961, 7.391]),
    (50, [1.737, 2.719, 10.691]),
];

/// How much of the study to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Every workload: 8 Philly, 10 Helios, 10 per arrival rate.
    Full,
    /// The first workload of each.
    Quick,
}

/// The columns of the Table 3 study.
pub const COLUMNS: [&str; 18] = [
    "trace",
    "policy",
    "workloads",
    "jobs",
    "avg_jct_h",
    "std_of_workload_means_h",
    "p99_jct_h",
    "makespan_h",
    "gpu_hours_per_job",
    "contention_mean",
    "contention_max",
    "restarts_per_job",
    "decision_median_ms",
    "decision_p95_ms",
    "proven_share",
    "published_avg_jct_h",
    "published_p99_jct_h",
    "published_makespan_h",
];

/// The columns of the Figure 7 study.
pub const RATE_COLUMNS: [&str; 5] = [
    "jobs_per_hour",
    "policy",
    "workloads",
    "avg_jct_h",
    "published_avg_jct_h",
];

/// Workload `name` on the paper's cluster.
pub fn scenario(name: &str) -> Result<Scenario, Error> {
    smd_apps::trace::workload_on_mix(name, usize::MAX, MIX)
        .map_err(|m| Error::field(None, "workload", m))
}

/// The workloads of a trace at a size.
fn names(trace: &str, size: Size) -> Vec<String> {
    let n = match (trace, size) {
        (_, Size::Quick) => 1,
        ("philly", _) => 8,
        _ => 10,
    };
    (1..=n).map(|k| format!("{trace}-{k}")).collect()
}

/// Runs `policy` on every workload of `names`, the decision times read by `clock`.
fn runs(
    names: &[String],
    policy: SimPolicy,
    clock: Option<&dyn Fn() -> f64>,
    step: &mut dyn FnMut(),
) -> Result<Vec<(Scenario, Run)>, Error> {
    names
        .iter()
        .map(|name| {
            let s = scenario(name)?;
            let mut opts = Options {
                clock,
                ..Options::default()
            };
            let run = simulate(&s, policy, &mut opts)
                .map_err(|e| Error::Solver(format!("{name}, {policy}: {e}")))?;
            step();
            Ok((s, run))
        })
        .collect()
}

/// Table 3's measures of `runs` (one policy over a trace's workloads).
fn row(trace: &str, policy: SimPolicy, runs: &[(Scenario, Run)]) -> Vec<Cell> {
    let h = 3600.0;
    let mut pooled: Vec<f64> = runs
        .iter()
        .flat_map(|(_, r)| r.jobs.iter().filter_map(|j| j.jct_s))
        .collect();
    pooled.sort_by(f64::total_cmp);
    let n = pooled.len().max(1);
    let avg = pooled.iter().sum::<f64>() / n as f64;
    let means: Vec<f64> = runs
        .iter()
        .filter_map(|(_, r)| r.metrics.mean_jct_s)
        .collect();
    let mm = means.iter().sum::<f64>() / means.len().max(1) as f64;
    let std =
        (means.iter().map(|m| (m - mm).powi(2)).sum::<f64>() / means.len().max(1) as f64).sqrt();
    let p99 = pooled
        .get(((0.99 * n as f64) as usize).min(n - 1))
        .copied()
        .unwrap_or(f64::NAN);
    let makespan = runs
        .iter()
        .map(|(_, r)| {
            let first = r
                .jobs
                .iter()
                .map(|j| j.arrival_s)
                .fold(f64::INFINITY, f64::min);
            r.metrics.makespan_s.unwrap_or(f64::NAN) - first
        })
        .sum::<f64>()
        / runs.len().max(1) as f64;
    let jobs: usize = runs.iter().map(|(_, r)| r.jobs.len()).sum();
    let stats: Vec<&smd_sim::DecisionStats> =
        runs.iter().filter_map(|(_, r)| r.stats.as_ref()).collect();
    let gpu_h: f64 = stats.iter().map(|s| s.allocated_gpu_hours).sum();
    let cont_mean =
        stats.iter().map(|s| s.contention_mean).sum::<f64>() / stats.len().max(1) as f64;
    let cont_max = stats.iter().map(|s| s.contention_max).max().unwrap_or(0);
    let restarts: u64 = runs.iter().map(|(_, r)| r.metrics.restarts).sum();
    let decisions: u64 = stats.iter().map(|s| s.decisions).sum();
    let proven: u64 = stats.iter().map(|s| s.proven).sum();
    let ms = |f: fn(&smd_sim::Spread) -> f64| {
        let v: Vec<f64> = stats
            .iter()
            .filter_map(|s| s.decision_ms.as_ref().map(f))
            .collect();
        if v.is_empty() {
            Cell::Num(f64::NAN)
        } else {
            Cell::Num(v.iter().sum::<f64>() / v.len() as f64)
        }
    };
    let published = PUBLISHED_PHILLY
        .iter()
        .find(|(p, _)| *p == policy && trace == "philly")
        .map(|(_, v)| *v);
    let pubcell = |k: usize| published.map_or(Cell::Num(f64::NAN), |v| Cell::Num(v[k]));
    vec![
        Cell::Text(trace.into()),
        Cell::Text(policy.name().into()),
        Cell::Int(runs.len() as i64),
        Cell::Int(jobs as i64),
        Cell::Num(avg / h),
        Cell::Num(std / h),
        Cell::Num(p99 / h),
        Cell::Num(makespan / h),
        Cell::Num(gpu_h / jobs.max(1) as f64),
        Cell::Num(cont_mean),
        Cell::Int(cont_max as i64),
        Cell::Num(restarts as f64 / jobs.max(1) as f64),
        ms(|s| s.median),
        ms(|s| s.p95),
        if policy == SimPolicy::Sia {
            Cell::Num(proven as f64 / decisions.max(1) as f64)
        } else {
            Cell::Num(f64::NAN)
        },
        pubcell(0),
        pubcell(1),
        pubcell(2),
    ]
}

/// Table 3 on the Philly and Helios workloads (mean decision times as `clock` reads
/// them); `progress(done, total)` after each run.
pub fn table3(
    size: Size,
    clock: Option<&dyn Fn() -> f64>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Table, Error> {
    let traces = ["philly", "helios"];
    let total: usize = traces.iter().map(|t| names(t, size).len()).sum::<usize>() * POLICIES.len();
    let mut done = 0;
    let mut t = Table::new(&COLUMNS);
    for trace in traces {
        let list = names(trace, size);
        for policy in POLICIES {
            let rs = runs(&list, policy, clock, &mut || {
                done += 1;
                progress(done, total)
            })?;
            t.push(row(trace, policy, &rs));
        }
    }
    Ok(t)
}

/// Figure 7: the average JCT of each policy at 10…50 jobs per hour.
pub fn figure7(size: Size, progress: &mut dyn FnMut(usize, usize)) -> Result<Table, Error> {
    let per = if size == Size::Quick { 1 } else { 10 };
    let total = PUBLISHED_RATES.len() * POLICIES.len() * per;
    let mut done = 0;
    let mut t = Table::new(&RATE_COLUMNS);
    for (rate, published) in PUBLISHED_RATES {
        let list: Vec<String> = (1..=per)
            .map(|k| format!("helios-rate-{rate}-{k}"))
            .collect();
        for (k, policy) in POLICIES.into_iter().enumerate() {
            let rs = runs(&list, policy, None, &mut || {
                done += 1;
                progress(done, total)
            })?;
            let jcts: Vec<f64> = rs
                .iter()
                .flat_map(|(_, r)| r.jobs.iter().filter_map(|j| j.jct_s))
                .collect();
            let avg = jcts.iter().sum::<f64>() / jcts.len().max(1) as f64;
            t.push(vec![
                Cell::Int(i64::from(rate)),
                Cell::Text(policy.name().into()),
                Cell::Int(per as i64),
                Cell::Num(avg / 3600.0),
                Cell::Num(published[k]),
            ]);
        }
    }
    Ok(t)
}

/// The study's verdicts against its goals: each policy's Philly average JCT within ±15 %
/// of the published one, the order Sia < Pollux < Gavel with each ratio to Sia within
/// ±20 % of the published ratio, and (with a Figure 7 table) its points within ±20 %.
pub fn verdicts(table3: &Table, figure7: Option<&Table>) -> Vec<ClaimVerdict> {
    let col = |t: &Table, name: &str| t.column(name).unwrap_or(0);
    let philly: Vec<(String, f64, f64)> = table3
        .rows
        .iter()
        .filter(|r| r[col(table3, "trace")].csv() == "philly")
        .map(|r| {
            (
                r[col(table3, "policy")].csv(),
                r[col(table3, "avg_jct_h")].as_f64().unwrap_or(f64::NAN),
                r[col(table3, "published_avg_jct_h")]
                    .as_f64()
                    .unwrap_or(f64::NAN),
            )
        })
        .collect();
    let mut out = Vec::new();
    let gaps: Vec<String> = philly
        .iter()
        .map(|(p, ours, publ)| {
            format!(
                "{p} {} h vs {} h ({})",
                fmt(*ours),
                fmt(*publ),
                pct(ours / publ - 1.0)
            )
        })
        .collect();
    let within = philly
        .iter()
        .filter(|(_, o, p)| (o / p - 1.0).abs() <= 0.15)
        .count();
    out.push(ClaimVerdict {
        id: "1",
        claim: "each policy's Philly average JCT within ±15 % of Table 3's",
        verdict: grade(within, philly.len()),
        because: gaps.join("; "),
    });
    let get = |name: &str| {
        philly
            .iter()
            .find(|(p, _, _)| p == name)
            .map(|x| (x.1, x.2))
    };
    if let (Some(sia), Some(pol), Some(gav)) = (get("sia"), get("pollux_unaware"), get("gavel")) {
        let ordered = sia.0 < pol.0 && pol.0 < gav.0;
        let ratios = [
            (pol.0 / sia.0, pol.1 / sia.1),
            (gav.0 / sia.0, gav.1 / sia.1),
        ];
        let close = ratios
            .iter()
            .filter(|(o, p)| (o / p - 1.0).abs() <= 0.2)
            .count();
        out.push(ClaimVerdict {
            id: "2",
            claim: "Sia < Pollux < Gavel+TJ, each ratio to Sia within ±20 % of the published one",
            verdict: if ordered && close == 2 {
                Verdict::Reproduced
            } else if ordered {
                Verdict::Partly
            } else {
                Verdict::NotReproduced
            },
            because: format!(
                "order {}; Pollux/Sia {} vs {} published, Gavel/Sia {} vs {} published",
                if ordered { "holds" } else { "does not hold" },
                fmt(ratios[0].0),
                fmt(ratios[0].1),
                fmt(ratios[1].0),
                fmt(ratios[1].1)
            ),
        });
    }
    if let Some(f) = figure7 {
        let pts: Vec<(String, f64, f64)> = f
            .rows
            .iter()
            .map(|r| {
                (
                    format!(
                        "{} at {}/h",
                        r[col(f, "policy")].csv(),
                        r[col(f, "jobs_per_hour")].csv()
                    ),
                    r[col(f, "avg_jct_h")].as_f64().unwrap_or(f64::NAN),
                    r[col(f, "published_avg_jct_h")]
                        .as_f64()
                        .unwrap_or(f64::NAN),
                )
            })
            .collect();
        let ok = pts
            .iter()
            .filter(|(_, o, p)| (o / p - 1.0).abs() <= 0.2)
            .count();
        let worst = pts
            .iter()
            .max_by(|a, b| (a.1 / a.2).ln().abs().total_cmp(&(b.1 / b.2).ln().abs()))
            .map(|(n, o, p)| format!("; farthest: {n}, {} h vs {} h", fmt(*o), fmt(*p)))
            .unwrap_or_default();
        out.push(ClaimVerdict {
            id: "3",
            claim: "Figure 7's points within ±20 %",
            verdict: grade(ok, pts.len()),
            because: format!("{ok} of {} points within ±20 %{worst}", pts.len()),
        });
    }
    out
}

fn grade(ok: usize, of: usize) -> Verdict {
    if ok == of && of > 0 {
        Verdict::Reproduced
    } else if ok > 0 {
        Verdict::Partly
    } else {
        Verdict::NotReproduced
    }
}

fn fmt(v: f64) -> String {
    smd_charts::format::sig(v, 3)
}

fn pct(v: f64) -> String {
    smd_charts::format::signed_percent(v)
}
