//! The five experiments (MODEL.md §11, issue 5) as data: the cases each needs, and how
//! their samples become a table, a figure, findings and checks.

use crate::case::{Capacity, Case, Pol, Pols, Sample, Sgd};
use crate::figure::figure;
use crate::stats::Summary;
use crate::table::{num, Cell, Table};
use smd_charts::{LineChart, Series};
use std::collections::HashMap;

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scale {
    /// Fewer points, 3 seeds: for CI (well under two minutes natively).
    Quick,
    /// Every point, 10 seeds.
    Full,
}

impl Scale {
    /// `"quick"` or `"full"`.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Full => "full",
        }
    }
}

/// The points of every experiment at one scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Seeds of every point.
    pub seeds: Vec<u64>,
    /// E1: cluster units.
    pub e1_units: Vec<u32>,
    /// E1: jobs.
    pub e1_jobs: usize,
    /// E2: jobs.
    pub e2_jobs: Vec<usize>,
    /// E2: cluster units.
    pub e2_units: Vec<u32>,
    /// E3: jobs.
    pub e3_jobs: Vec<usize>,
    /// E3: the "every job fits" cluster, in instances.
    pub e3_instances: u32,
    /// E4: jobs.
    pub e4_jobs: Vec<usize>,
    /// E5: jobs.
    pub e5_jobs: usize,
    /// E5: ε values, in millionths.
    pub e5_epsilon_ppm: Vec<u32>,
    /// E5: M_δ values.
    pub e5_m_delta: Vec<u32>,
}

impl Grid {
    /// The grid of `scale`.
    pub fn of(scale: Scale) -> Grid {
        match scale {
            Scale::Full => Grid {
                seeds: (1..=10).collect(),
                e1_units: vec![1, 2, 3, 4, 5],
                e1_jobs: 50,
                e2_jobs: vec![10, 25, 50, 100, 150, 200],
                e2_units: vec![1, 3],
                e3_jobs: vec![10, 20, 30, 40, 50],
                e3_instances: 1000,
                e4_jobs: vec![40, 80, 120, 160, 200],
                e5_jobs: 50,
                e5_epsilon_ppm: vec![5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000],
                e5_m_delta: vec![1, 2, 3, 4],
            },
            Scale::Quick => Grid {
                seeds: (1..=3).collect(),
                e1_units: vec![1, 2, 3, 4, 5],
                e1_jobs: 50,
                e2_jobs: vec![10, 50, 100, 200],
                e2_units: vec![1, 3],
                e3_jobs: vec![10, 30, 50],
                e3_instances: 1000,
                e4_jobs: vec![40, 120, 200],
                e5_jobs: 30,
                e5_epsilon_ppm: vec![10_000, 100_000, 500_000],
                e5_m_delta: vec![1, 4],
            },
        }
    }

    /// One line describing the seeds and the spread.
    pub fn seeds_text(&self) -> String {
        format!(
            "{} seeds per point ({}…{}); mean ± sample standard deviation over the seeds",
            self.seeds.len(),
            self.seeds.first().copied().unwrap_or(0),
            self.seeds.last().copied().unwrap_or(0)
        )
    }
}

/// The samples of a run, by case.
pub type Samples = HashMap<Case, Sample>;

/// What an experiment produces.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    /// The points, mean and spread (one CSV).
    pub table: Table,
    /// The figure (one SVG document).
    pub svg: String,
    /// Measured findings, one sentence each.
    pub findings: Vec<String>,
    /// Failed invariants.
    pub violations: Vec<String>,
}

/// One experiment: what it is and how it runs.
#[derive(Clone, Copy)]
pub struct Spec {
    /// File stem of its outputs, e.g. `e1-utility-vs-units`.
    pub id: &'static str,
    /// Title.
    pub title: &'static str,
    /// What is run, in a sentence or two.
    pub description: &'static str,
    /// The paper's claim it tests (MODEL.md §11).
    pub claim: &'static str,
    /// The cases it needs, with the policies to plan each with.
    pub cases: fn(&Grid) -> Vec<(Case, Pols)>,
    /// Its table, figure, findings and checks from the samples.
    pub assemble: fn(&Grid, &Samples) -> Parts,
}

/// The five experiments, in order.
pub fn specs() -> Vec<Spec> {
    vec![
        Spec {
            id: "e1-utility-vs-units",
            title: "E1. Total utility over cluster size (I = 50)",
            description: "Total utility of smd, esw, optimus, exact and global for I = 50 jobs \
                          on 1…5 cluster units, Sync and Async (the paper's Figs. 10–11); also \
                          smd_polish, smd with MODEL.md's improved options (polish, best-corner \
                          rounding).",
            claim: "SMD's total utility is above ESW's and Optimus', Sync and Async, and the gap \
                    grows with capacity (1–5 units).",
            cases: e1_cases,
            assemble: e1,
        },
        Spec {
            id: "e2-utility-vs-jobs",
            title: "E2. Total utility over the number of jobs (1 and 3 units)",
            description: "Total utility of the five policies (and smd_polish) for I = 10…200 \
                          jobs on 1 and 3 cluster units, Sync and Async.",
            claim: "SMD's total utility is above ESW's and Optimus', and the gap grows with the \
                    number of jobs.",
            cases: e2_cases,
            assemble: e2,
        },
        Spec {
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
            cases: e3_cases,
            assemble: e3,
        },
        Spec {
            id: "e4-resource-share",
            title: "E4. Resources used by SMD / resources its admitted jobs asked for",
            description: "Per resource, Σ demand of smd's admitted allocations divided by Σ limit \
                          L of the admitted jobs, and the mean over the four resources; ε = 0.01, \
                          I = 40…200, on 1 cluster unit (and the mean on 1000 instances), with \
                          esw's mean for reference.",
            claim: "With ε = 0.01 and I = 40…200, SMD uses 30–50% of the resources users asked \
                    for.",
            cases: e4_cases,
            assemble: e4,
        },
        Spec {
            id: "e5-epsilon-mdelta",
            title: "E5. Effect of ε and M_δ on SMD",
            description: "smd's total utility, Algorithm 2's rounding attempts (summed over jobs) \
                          and solve time, over ε (M_δ = 1) and over M_δ (ε = 0.01), on 1 cluster \
                          unit, Sync and Async; solve times without the allocation cache.",
            claim: "(Parameters of the method, no figure claim.) A smaller ε gives a better \
                    relaxed optimum at a higher cost; a larger M_δ needs fewer rounding attempts \
                    but gives larger T.",
            cases: e5_cases,
            assemble: e5,
        },
    ]
}

// ---------------------------------------------------------------------------------------
// Helpers

fn get<'a>(s: &'a Samples, c: &Case, errs: &mut Vec<String>) -> Option<&'a Sample> {
    let r = s.get(c);
    if r.is_none() {
        errs.push(format!("{}: no sample", c.describe()));
    }
    r
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        f64::NAN
    }
}

fn chart(title: String, x_label: &str, y_label: &str, series: Vec<Series>) -> LineChart {
    LineChart {
        title,
        x_label: x_label.into(),
        y_label: y_label.into(),
        series,
        ..LineChart::default()
    }
}

fn series(name: impl Into<String>, points: Vec<smd_charts::Point>) -> Series {
    Series {
        name: name.into(),
        points,
    }
}

/// `a / b` as e.g. `"1.23"`, 3 significant digits.
fn f3(v: f64) -> String {
    if v.is_finite() {
        let s = format!("{v:.3}");
        if v.abs() >= 100.0 {
            format!("{v:.0}")
        } else if v.abs() >= 10.0 {
            format!("{v:.1}")
        } else {
            s
        }
    } else {
        "n/a".into()
    }
}

fn pm(s: &Summary) -> String {
    format!("{} ± {}", f3(s.mean), f3(s.sd))
}

fn check_seeds(s: &Summary, want: usize, what: &str, errs: &mut Vec<String>) {
    if s.n != want {
        errs.push(format!("{what}: {} of {want} seeds have a value", s.n));
    }
}

// ---------------------------------------------------------------------------------------
// E1 and E2: total utility of the five policies

/// Per-seed totals of every policy at one point, and their summaries.
struct UtilPoint {
    sgd: Sgd,
    capacity: Capacity,
    jobs: usize,
    by_pol: Vec<Summary>,
    smd_over: Vec<Summary>,
    smd_beats: [usize; 2],
    n: usize,
    global_proven: usize,
    exact_proven: usize,
    global_ms: Summary,
    global_gap: Summary,
}

fn util_point(
    g: &Grid,
    s: &Samples,
    sgd: Sgd,
    capacity: Capacity,
    jobs: usize,
    errs: &mut Vec<String>,
) -> UtilPoint {
    let np = Pol::ALL.len();
    let mut vals: Vec<Vec<f64>> = vec![Vec::new(); np];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); np];
    let mut beats = [0usize; 2];
    let (mut gp, mut ep, mut n) = (0, 0, 0);
    let (mut gms, mut gaps) = (Vec::new(), Vec::new());
    for &seed in &g.seeds {
        let Some(sample) = get(s, &Case::new(sgd, jobs, capacity, seed), errs) else {
            continue;
        };
        n += 1;
        let t: Vec<f64> = Pol::ALL
            .iter()
            .map(|p| sample.get(*p).map_or(f64::NAN, |m| m.total_utility))
            .collect();
        for k in 0..np {
            vals[k].push(t[k]);
            ratios[k].push(ratio(t[0], t[k]));
        }
        beats[0] += usize::from(t[0] > t[1]);
        beats[1] += usize::from(t[0] > t[2]);
        if let Some(m) = sample.get(Pol::Global) {
            gp += usize::from(m.proven_optimal);
            gms.push(m.solve_ms);
            gaps.push(m.gap.unwrap_or(0.0));
            let r = ratio(t[0], m.total_utility);
            if !(0.0..=1.0 + 1e-9).contains(&r) && r.is_finite() {
                errs.push(format!(
                    "{} I={jobs} {} seed {seed}: smd / global = {r} outside [0, 1]",
                    sgd.name(),
                    capacity.label()
                ));
            }
        }
        if let Some(m) = sample.get(Pol::Exact) {
            ep += usize::from(m.proven_optimal);
        }
    }
    let by_pol: Vec<Summary> = vals.into_iter().map(Summary::of).collect();
    for (k, p) in Pol::ALL.iter().enumerate() {
        check_seeds(
            &by_pol[k],
            g.seeds.len(),
            &format!("{} I={jobs} {} {}", sgd.name(), capacity.label(), p.name()),
            errs,
        );
    }
    UtilPoint {
        sgd,
        capacity,
        jobs,
        by_pol,
        smd_over: ratios.into_iter().map(Summary::of).collect(),
        smd_beats: beats,
        n,
        global_proven: gp,
        exact_proven: ep,
        global_ms: Summary::of(gms),
        global_gap: Summary::of(gaps),
    }
}

fn util_table(points: &[UtilPoint]) -> Table {
    let mut cols: Vec<String> = vec![
        "mode".into(),
        "capacity".into(),
        "jobs".into(),
        "seeds".into(),
    ];
    for p in Pol::ALL {
        for stat in ["mean", "sd", "min", "max"] {
            cols.push(format!("{}_{stat}", p.name()));
        }
    }
    for p in &Pol::ALL[1..] {
        cols.push(format!("smd_over_{}_mean", p.name()));
        cols.push(format!("smd_over_{}_sd", p.name()));
    }
    cols.extend(
        [
            "smd_above_esw",
            "smd_above_optimus",
            "exact_proven",
            "global_proven",
            "global_gap_mean",
            "global_gap_max",
            "global_ms_mean",
        ]
        .map(String::from),
    );
    let refs: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut t = Table::new(&refs);
    for pt in points {
        let mut row: Vec<Cell> = vec![
            pt.sgd.name().into(),
            pt.capacity.label().into(),
            pt.jobs.into(),
            pt.n.into(),
        ];
        for s in &pt.by_pol {
            row.extend([s.mean, s.sd, s.min, s.max].map(Cell::from));
        }
        for s in &pt.smd_over[1..] {
            row.extend([s.mean, s.sd].map(Cell::from));
        }
        row.extend([
            pt.smd_beats[0].into(),
            pt.smd_beats[1].into(),
            pt.exact_proven.into(),
            pt.global_proven.into(),
            pt.global_gap.mean.into(),
            pt.global_gap.max.into(),
            pt.global_ms.mean.into(),
        ]);
        t.push(row);
    }
    t
}

fn util_series(points: &[&UtilPoint], x: impl Fn(&UtilPoint) -> f64) -> Vec<Series> {
    Pol::ALL
        .iter()
        .enumerate()
        .map(|(k, p)| {
            series(
                p.name(),
                points.iter().map(|pt| pt.by_pol[k].point(x(pt))).collect(),
            )
        })
        .collect()
}

/// Findings on a run of utility points (one mode, one sweep).
fn util_findings(
    label: &str,
    pts: &[&UtilPoint],
    x_name: &str,
    x: impl Fn(&UtilPoint) -> f64,
) -> Vec<String> {
    let mut f = Vec::new();
    let n: usize = pts.iter().map(|p| p.n).sum();
    let be: usize = pts.iter().map(|p| p.smd_beats[0]).sum();
    let bo: usize = pts.iter().map(|p| p.smd_beats[1]).sum();
    let gp: usize = pts.iter().map(|p| p.global_proven).sum();
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return f;
    };
    let gap = |p: &UtilPoint, k: usize| p.by_pol[0].mean - p.by_pol[k].mean;
    f.push(format!(
        "{label}: smd above esw in {be}/{n} scenarios and above optimus in {bo}/{n}; \
         smd − esw (means) {} at {x_name} = {} → {} at {x_name} = {}; \
         smd − optimus {} → {}.",
        f3(gap(first, 1)),
        x(first),
        f3(gap(last, 1)),
        x(last),
        f3(gap(first, 2)),
        f3(gap(last, 2)),
    ));
    let totals = |p: &UtilPoint| -> String {
        Pol::ALL
            .iter()
            .zip(&p.by_pol)
            .map(|(q, s)| format!("{} {}", q.name(), f3(s.mean)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    f.push(format!(
        "{label}: mean totals at {x_name} = {}: {}; at {x_name} = {}: {}.",
        x(first),
        totals(first),
        x(last),
        totals(last),
    ));
    let gap_max = pts.iter().map(|p| p.global_gap.max).fold(0.0_f64, f64::max);
    f.push(format!(
        "{label}: smd / exact {} → {}; smd / global {} → {} \
         (global proven optimal in {gp}/{n}, largest gap {}); \
         smd_polish / smd {} → {}.",
        pm(&first.smd_over[3]),
        pm(&last.smd_over[3]),
        pm(&first.smd_over[4]),
        pm(&last.smd_over[4]),
        f3(gap_max),
        f3(first.by_pol[5].mean / first.by_pol[0].mean),
        f3(last.by_pol[5].mean / last.by_pol[0].mean),
    ));
    f
}

fn e1_cases(g: &Grid) -> Vec<(Case, Pols)> {
    let mut v = Vec::new();
    for sgd in Sgd::BOTH {
        for &u in &g.e1_units {
            for &seed in &g.seeds {
                v.push((
                    Case::new(sgd, g.e1_jobs, Capacity::Units(u), seed),
                    Pols::all(),
                ));
            }
        }
    }
    v
}

fn e1(g: &Grid, s: &Samples) -> Parts {
    let mut errs = Vec::new();
    let mut pts = Vec::new();
    for sgd in Sgd::BOTH {
        for &u in &g.e1_units {
            pts.push(util_point(
                g,
                s,
                sgd,
                Capacity::Units(u),
                g.e1_jobs,
                &mut errs,
            ));
        }
    }
    let table = util_table(&pts);
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    for sgd in Sgd::BOTH {
        let mine: Vec<&UtilPoint> = pts.iter().filter(|p| p.sgd == sgd).collect();
        let x = |p: &UtilPoint| match p.capacity {
            Capacity::Units(n) | Capacity::Instances(n) => f64::from(n),
        };
        panels.push(chart(
            format!("{}, I = {}", sgd.title(), g.e1_jobs),
            "cluster units",
            "total utility",
            util_series(&mine, x),
        ));
        findings.extend(util_findings(sgd.title(), &mine, "units", x));
    }
    let svg = figure(
        "E1. Total utility over cluster size",
        &[g.seeds_text()],
        &panels,
        2,
    );
    Parts {
        table,
        svg,
        findings,
        violations: errs,
    }
}

fn e2_cases(g: &Grid) -> Vec<(Case, Pols)> {
    let mut v = Vec::new();
    for sgd in Sgd::BOTH {
        for &u in &g.e2_units {
            for &i in &g.e2_jobs {
                for &seed in &g.seeds {
                    v.push((Case::new(sgd, i, Capacity::Units(u), seed), Pols::all()));
                }
            }
        }
    }
    v
}

fn e2(g: &Grid, s: &Samples) -> Parts {
    let mut errs = Vec::new();
    let mut pts = Vec::new();
    for sgd in Sgd::BOTH {
        for &u in &g.e2_units {
            for &i in &g.e2_jobs {
                pts.push(util_point(g, s, sgd, Capacity::Units(u), i, &mut errs));
            }
        }
    }
    let table = util_table(&pts);
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    for sgd in Sgd::BOTH {
        for &u in &g.e2_units {
            let cap = Capacity::Units(u);
            let mine: Vec<&UtilPoint> = pts
                .iter()
                .filter(|p| p.sgd == sgd && p.capacity == cap)
                .collect();
            let x = |p: &UtilPoint| p.jobs as f64;
            panels.push(chart(
                format!("{}, {}", sgd.title(), cap.label()),
                "jobs I",
                "total utility",
                util_series(&mine, x),
            ));
            findings.extend(util_findings(
                &format!("{}, {}", sgd.title(), cap.label()),
                &mine,
                "I",
                x,
            ));
            let unproven: Vec<String> = mine
                .iter()
                .filter(|p| p.global_proven < p.n)
                .map(|p| {
                    format!(
                        "I = {}: {}/{} proven, {} ms",
                        p.jobs,
                        p.global_proven,
                        p.n,
                        f3(p.global_ms.mean)
                    )
                })
                .collect();
            if !unproven.is_empty() {
                findings.push(format!(
                    "{}, {}: global not always proven within its node limit — {}.",
                    sgd.title(),
                    cap.label(),
                    unproven.join("; ")
                ));
            }
        }
    }
    let svg = figure(
        "E2. Total utility over the number of jobs",
        &[
            g.seeds_text(),
            "Where global is not proven optimal it is the best plan found, never below another policy."
                .into(),
        ],
        &panels,
        2,
    );
    Parts {
        table,
        svg,
        findings,
        violations: errs,
    }
}

// ---------------------------------------------------------------------------------------
// E3: SMD / optimum

fn e3_caps(g: &Grid) -> [Capacity; 2] {
    [Capacity::Instances(g.e3_instances), Capacity::Units(1)]
}

fn e3_cases(g: &Grid) -> Vec<(Case, Pols)> {
    let mut v = Vec::new();
    for cap in e3_caps(g) {
        for sgd in Sgd::BOTH {
            for &i in &g.e3_jobs {
                for &seed in &g.seeds {
                    v.push((
                        Case::new(sgd, i, cap, seed),
                        Pols::of(&[
                            Pol::Smd,
                            Pol::Exact,
                            Pol::Global,
                            Pol::Optimus,
                            Pol::SmdPolish,
                        ]),
                    ));
                }
            }
        }
    }
    v
}

struct RatioPoint {
    capacity: Capacity,
    sgd: Sgd,
    jobs: usize,
    over_exact: Summary,
    over_global: Summary,
    over_bound: Summary,
    polish_over_exact: Summary,
    polish_over_global: Summary,
    gap: Summary,
    global_over_exact: Summary,
    proven: usize,
    n: usize,
    guarantee: f64,
    admitted: [Summary; 3],
}

fn e3(g: &Grid, s: &Samples) -> Parts {
    let mut errs = Vec::new();
    let mut pts = Vec::new();
    for cap in e3_caps(g) {
        for sgd in Sgd::BOTH {
            for &i in &g.e3_jobs {
                let (mut oe, mut og, mut ge) = (Vec::new(), Vec::new(), Vec::new());
                let (mut ob, mut gaps) = (Vec::new(), Vec::new());
                let (mut pe, mut pg) = (Vec::new(), Vec::new());
                let mut adm = [Vec::new(), Vec::new(), Vec::new()];
                let (mut proven, mut n) = (0, 0);
                let mut guarantee = f64::NAN;
                for &seed in &g.seeds {
                    let Some(x) = get(s, &Case::new(sgd, i, cap, seed), &mut errs) else {
                        continue;
                    };
                    let (Some(sm), Some(ex), Some(gl)) =
                        (x.get(Pol::Smd), x.get(Pol::Exact), x.get(Pol::Global))
                    else {
                        continue;
                    };
                    n += 1;
                    guarantee = sm.guarantee;
                    oe.push(ratio(sm.total_utility, ex.total_utility));
                    let r = ratio(sm.total_utility, gl.total_utility);
                    og.push(r);
                    ob.push(ratio(sm.total_utility, gl.bound()));
                    if let Some(po) = x.get(Pol::SmdPolish) {
                        pe.push(ratio(po.total_utility, ex.total_utility));
                        pg.push(ratio(po.total_utility, gl.total_utility));
                    }
                    gaps.push(gl.gap.unwrap_or(0.0));
                    ge.push(ratio(gl.total_utility, ex.total_utility));
                    for (k, m) in [sm, ex, gl].into_iter().enumerate() {
                        adm[k].push(m.admitted as f64);
                    }
                    proven += usize::from(gl.proven_optimal);
                    if r.is_finite() && !(0.0..=1.0 + 1e-9).contains(&r) {
                        errs.push(format!(
                            "{} I={i} {} seed {seed}: smd / global = {r} outside [0, 1]",
                            sgd.name(),
                            cap.label()
                        ));
                    }
                }
                let p = RatioPoint {
                    capacity: cap,
                    sgd,
                    jobs: i,
                    over_exact: Summary::of(oe),
                    over_global: Summary::of(og),
                    over_bound: Summary::of(ob),
                    polish_over_exact: Summary::of(pe),
                    polish_over_global: Summary::of(pg),
                    gap: Summary::of(gaps),
                    global_over_exact: Summary::of(ge),
                    proven,
                    n,
                    guarantee,
                    admitted: adm.map(Summary::of),
                };
                let what = format!("{} I={i} {}", sgd.name(), cap.label());
                check_seeds(
                    &p.over_exact,
                    g.seeds.len(),
                    &format!("{what} smd/exact"),
                    &mut errs,
                );
                check_seeds(
                    &p.over_global,
                    g.seeds.len(),
                    &format!("{what} smd/global"),
                    &mut errs,
                );
                pts.push(p);
            }
        }
    }
    let mut t = Table::new(&[
        "capacity",
        "mode",
        "jobs",
        "seeds",
        "smd_over_exact_mean",
        "smd_over_exact_sd",
        "smd_over_exact_min",
        "smd_over_exact_max",
        "smd_over_global_mean",
        "smd_over_global_sd",
        "smd_over_global_min",
        "smd_over_global_max",
        "smd_over_global_bound_mean",
        "smd_polish_over_exact_mean",
        "smd_polish_over_global_mean",
        "global_over_exact_mean",
        "global_over_exact_max",
        "global_proven",
        "global_gap_max",
        "smd_admitted_mean",
        "exact_admitted_mean",
        "global_admitted_mean",
        "fc_guarantee",
    ]);
    for p in &pts {
        t.push(vec![
            p.capacity.label().into(),
            p.sgd.name().into(),
            p.jobs.into(),
            p.n.into(),
            p.over_exact.mean.into(),
            p.over_exact.sd.into(),
            p.over_exact.min.into(),
            p.over_exact.max.into(),
            p.over_global.mean.into(),
            p.over_global.sd.into(),
            p.over_global.min.into(),
            p.over_global.max.into(),
            p.over_bound.mean.into(),
            p.polish_over_exact.mean.into(),
            p.polish_over_global.mean.into(),
            p.global_over_exact.mean.into(),
            p.global_over_exact.max.into(),
            p.proven.into(),
            p.gap.max.into(),
            p.admitted[0].mean.into(),
            p.admitted[1].mean.into(),
            p.admitted[2].mean.into(),
            p.guarantee.into(),
        ]);
    }
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    for cap in e3_caps(g) {
        let mut ser = Vec::new();
        for sgd in Sgd::BOTH {
            let mine: Vec<&RatioPoint> = pts
                .iter()
                .filter(|p| p.capacity == cap && p.sgd == sgd)
                .collect();
            ser.push(series(
                format!("{} smd/exact", sgd.title()),
                mine.iter()
                    .map(|p| p.over_exact.point(p.jobs as f64))
                    .collect(),
            ));
            ser.push(series(
                format!("{} smd/global", sgd.title()),
                mine.iter()
                    .map(|p| p.over_global.point(p.jobs as f64))
                    .collect(),
            ));
            if let (Some(a), Some(b)) = (mine.first(), mine.last()) {
                let proven: usize = mine.iter().map(|p| p.proven).sum();
                let n: usize = mine.iter().map(|p| p.n).sum();
                findings.push(format!(
                    "{}, {}: smd/exact {} (I = {}) → {} (I = {}), range over seeds [{}, {}]; \
                     smd/global {} → {}, range [{}, {}]; global/exact up to {}; \
                     global proven in {proven}/{n}; \
                     smd_polish/exact {} → {}, smd_polish/global {} → {}.",
                    cap.label(),
                    sgd.title(),
                    pm(&a.over_exact),
                    a.jobs,
                    pm(&b.over_exact),
                    b.jobs,
                    f3(mine
                        .iter()
                        .map(|p| p.over_exact.min)
                        .fold(f64::INFINITY, f64::min)),
                    f3(mine
                        .iter()
                        .map(|p| p.over_exact.max)
                        .fold(f64::NEG_INFINITY, f64::max)),
                    pm(&a.over_global),
                    pm(&b.over_global),
                    f3(mine
                        .iter()
                        .map(|p| p.over_global.min)
                        .fold(f64::INFINITY, f64::min)),
                    f3(mine
                        .iter()
                        .map(|p| p.over_global.max)
                        .fold(f64::NEG_INFINITY, f64::max)),
                    f3(mine
                        .iter()
                        .map(|p| p.global_over_exact.max)
                        .fold(f64::NEG_INFINITY, f64::max)),
                    pm(&a.polish_over_exact),
                    pm(&b.polish_over_exact),
                    pm(&a.polish_over_global),
                    pm(&b.polish_over_global),
                ));
            }
        }
        let guarantee = pts
            .iter()
            .find(|p| p.capacity == cap)
            .map_or(f64::NAN, |p| p.guarantee);
        ser.push(series(
            "FC bound q/(q+R)",
            g.e3_jobs
                .iter()
                .map(|&i| smd_charts::Point {
                    x: i as f64,
                    mean: guarantee,
                    spread: 0.0,
                })
                .collect(),
        ));
        panels.push(chart(
            format!("cluster = {}", cap.label()),
            "jobs I",
            "smd total utility / optimum",
            ser,
        ));
    }
    let svg = figure(
        "E3. SMD / optimum (exact: the decomposition's optimum; global: the joint optimum)",
        &[
            g.seeds_text(),
            "FC bound: the admission's proven guarantee q/(q+R) = 2/6 (Frieze–Clarke at q = 2, R = 4 resources).".into(),
            "On 1000 instances every job fits: smd/exact and smd/global coincide near 1.".into(),
        ],
        &panels,
        2,
    );
    Parts {
        table: t,
        svg,
        findings,
        violations: errs,
    }
}

// ---------------------------------------------------------------------------------------
// E4: resources used / requested

fn e4_caps() -> [Capacity; 2] {
    [Capacity::Units(1), Capacity::Instances(1000)]
}

fn e4_cases(g: &Grid) -> Vec<(Case, Pols)> {
    let mut v = Vec::new();
    for cap in e4_caps() {
        for sgd in Sgd::BOTH {
            for &i in &g.e4_jobs {
                for &seed in &g.seeds {
                    v.push((
                        Case::new(sgd, i, cap, seed),
                        Pols::of(&[Pol::Smd, Pol::Esw]),
                    ));
                }
            }
        }
    }
    v
}

struct SharePoint {
    capacity: Capacity,
    sgd: Sgd,
    jobs: usize,
    n: usize,
    smd: [Summary; 4],
    smd_mean: Summary,
    esw_mean: Summary,
    peak: Summary,
    esw_peak: Summary,
    admitted: Summary,
}

const RESOURCE_TITLES: [&str; 4] = ["GPU", "vCPU", "memory", "storage"];

fn e4(g: &Grid, s: &Samples) -> Parts {
    let mut errs = Vec::new();
    let mut pts = Vec::new();
    for cap in e4_caps() {
        for sgd in Sgd::BOTH {
            for &i in &g.e4_jobs {
                let mut per: [Vec<f64>; 4] = Default::default();
                let (mut sm, mut em, mut pk, mut epk, mut adm) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
                let mut n = 0;
                for &seed in &g.seeds {
                    let Some(x) = get(s, &Case::new(sgd, i, cap, seed), &mut errs) else {
                        continue;
                    };
                    let (Some(smd), Some(esw)) = (x.get(Pol::Smd), x.get(Pol::Esw)) else {
                        continue;
                    };
                    n += 1;
                    for (who, m) in [("smd", smd), ("esw", esw)] {
                        for (r, v) in m.shares().into_iter().enumerate() {
                            if v.is_finite() && !(-1e-9..=1.0 + 1e-9).contains(&v) {
                                errs.push(format!(
                                    "{} I={i} {} seed {seed} {who}: {} used / requested = {v} outside [0, 1]",
                                    sgd.name(),
                                    cap.label(),
                                    RESOURCE_TITLES[r]
                                ));
                            }
                        }
                    }
                    for (r, v) in smd.shares().into_iter().enumerate() {
                        per[r].push(v);
                    }
                    sm.push(smd.mean_share());
                    em.push(esw.mean_share());
                    pk.push(smd.peak_use());
                    epk.push(esw.peak_use());
                    adm.push(smd.admitted as f64);
                }
                let p = SharePoint {
                    capacity: cap,
                    sgd,
                    jobs: i,
                    n,
                    smd: per.map(Summary::of),
                    smd_mean: Summary::of(sm),
                    esw_mean: Summary::of(em),
                    peak: Summary::of(pk),
                    esw_peak: Summary::of(epk),
                    admitted: Summary::of(adm),
                };
                check_seeds(
                    &p.smd_mean,
                    g.seeds.len(),
                    &format!("{} I={i} {} smd share", sgd.name(), cap.label()),
                    &mut errs,
                );
                pts.push(p);
            }
        }
    }
    let mut t = Table::new(&[
        "capacity",
        "mode",
        "jobs",
        "seeds",
        "smd_admitted_mean",
        "gpu_share_mean",
        "gpu_share_sd",
        "vcpu_share_mean",
        "vcpu_share_sd",
        "memory_share_mean",
        "memory_share_sd",
        "storage_share_mean",
        "storage_share_sd",
        "mean_share_mean",
        "mean_share_sd",
        "mean_share_min",
        "mean_share_max",
        "esw_mean_share_mean",
        "esw_mean_share_sd",
        "smd_peak_capacity_use_mean",
        "esw_peak_capacity_use_mean",
    ]);
    for p in &pts {
        let mut row: Vec<Cell> = vec![
            p.capacity.label().into(),
            p.sgd.name().into(),
            p.jobs.into(),
            p.n.into(),
            p.admitted.mean.into(),
        ];
        for r in &p.smd {
            row.extend([r.mean, r.sd].map(Cell::from));
        }
        row.extend(
            [
                p.smd_mean.mean,
                p.smd_mean.sd,
                p.smd_mean.min,
                p.smd_mean.max,
                p.esw_mean.mean,
                p.esw_mean.sd,
                p.peak.mean,
                p.esw_peak.mean,
            ]
            .map(Cell::from),
        );
        t.push(row);
    }
    let mut panels = Vec::new();
    let mut findings = Vec::new();
    let at = |sgd: Sgd, cap: Capacity| -> Vec<&SharePoint> {
        pts.iter()
            .filter(|p| p.sgd == sgd && p.capacity == cap)
            .collect()
    };
    let band = |v: f64| -> Vec<smd_charts::Point> {
        g.e4_jobs
            .iter()
            .map(|&i| smd_charts::Point {
                x: i as f64,
                mean: v,
                spread: 0.0,
            })
            .collect()
    };
    for sgd in Sgd::BOTH {
        let mut ser = Vec::new();
        for cap in e4_caps() {
            let mine = at(sgd, cap);
            ser.push(series(
                format!("smd, {}", cap.label()),
                mine.iter()
                    .map(|p| p.smd_mean.point(p.jobs as f64))
                    .collect(),
            ));
            ser.push(series(
                format!("esw, {}", cap.label()),
                mine.iter()
                    .map(|p| p.esw_mean.point(p.jobs as f64))
                    .collect(),
            ));
        }
        ser.push(series("paper: 30%", band(0.3)));
        ser.push(series("paper: 50%", band(0.5)));
        let mut c = chart(
            format!("{}: mean over the 4 resources", sgd.title()),
            "jobs I",
            "used / requested by admitted jobs",
            ser,
        );
        c.dodge = 3.0;
        panels.push(c);
    }
    for sgd in Sgd::BOTH {
        let one = at(sgd, Capacity::Units(1));
        let ser: Vec<Series> = (0..4)
            .map(|r| {
                series(
                    RESOURCE_TITLES[r],
                    one.iter().map(|p| p.smd[r].point(p.jobs as f64)).collect(),
                )
            })
            .collect();
        let mut c = chart(
            format!("{}: smd per resource, 1 cluster unit", sgd.title()),
            "jobs I",
            "used / requested by admitted jobs",
            ser,
        );
        c.dodge = 3.0;
        panels.push(c);
    }
    for sgd in Sgd::BOTH {
        let one = at(sgd, Capacity::Units(1));
        let big = at(sgd, Capacity::Instances(1000));
        for group in [&one, &big] {
            let (Some(a), Some(b)) = (group.first(), group.last()) else {
                continue;
            };
            let lo = group
                .iter()
                .map(|p| p.smd_mean.mean)
                .fold(f64::INFINITY, f64::min);
            let hi = group
                .iter()
                .map(|p| p.smd_mean.mean)
                .fold(f64::NEG_INFINITY, f64::max);
            let per: Vec<String> = (0..4)
                .map(|r| {
                    let lo = group
                        .iter()
                        .map(|p| p.smd[r].mean)
                        .fold(f64::INFINITY, f64::min);
                    let hi = group
                        .iter()
                        .map(|p| p.smd[r].mean)
                        .fold(f64::NEG_INFINITY, f64::max);
                    format!("{} {}–{}", RESOURCE_TITLES[r], f3(lo), f3(hi))
                })
                .collect();
            findings.push(format!(
                "{}, {}: smd's mean share of the requested resources {}–{} over I = {}…{} \
                 (per resource: {}); esw's {} → {}; smd's busiest resource uses {} → {} of \
                 the cluster; smd admits {} → {} jobs.",
                sgd.title(),
                a.capacity.label(),
                f3(lo),
                f3(hi),
                a.jobs,
                b.jobs,
                per.join(", "),
                f3(a.esw_mean.mean),
                f3(b.esw_mean.mean),
                f3(a.peak.mean),
                f3(b.peak.mean),
                f3(a.admitted.mean),
                f3(b.admitted.mean),
            ));
        }
    }
    let svg = figure(
        "E4. Resources used by SMD as a share of what its admitted jobs requested (ε = 0.01)",
        &[
            g.seeds_text(),
            "Share = Σ demand of the admitted allocations / Σ limit L of the admitted jobs; \
             \"mean of 4\" averages GPU, vCPU, memory, storage."
                .into(),
        ],
        &panels,
        2,
    );
    Parts {
        table: t,
        svg,
        findings,
        violations: errs,
    }
}

// ---------------------------------------------------------------------------------------
// E5: ε and M_δ

/// The E5 cases of one parameter setting.
fn e5_case(g: &Grid, sgd: Sgd, seed: u64, eps_ppm: u32, m_delta: u32) -> Case {
    Case {
        epsilon_ppm: eps_ppm,
        m_delta,
        timed: true,
        ..Case::new(sgd, g.e5_jobs, Capacity::Units(1), seed)
    }
}

fn e5_settings(g: &Grid) -> Vec<(&'static str, u32, u32)> {
    let mut v: Vec<(&'static str, u32, u32)> = g
        .e5_epsilon_ppm
        .iter()
        .map(|&e| ("epsilon", e, 1))
        .collect();
    v.extend(g.e5_m_delta.iter().map(|&m| ("m_delta", 10_000, m)));
    v
}

fn e5_cases(g: &Grid) -> Vec<(Case, Pols)> {
    let mut v = Vec::new();
    for sgd in Sgd::BOTH {
        for (_, e, m) in e5_settings(g) {
            for &seed in &g.seeds {
                v.push((e5_case(g, sgd, seed, e, m), Pols::of(&[Pol::Smd])));
            }
        }
    }
    v
}

struct ParamPoint {
    sgd: Sgd,
    param: &'static str,
    x: f64,
    n: usize,
    utility: Summary,
    attempts: Summary,
    attempts_per_job: Summary,
    ms: Summary,
    admitted: Summary,
}

fn e5(g: &Grid, s: &Samples) -> Parts {
    let mut errs = Vec::new();
    let mut pts = Vec::new();
    for sgd in Sgd::BOTH {
        for (param, e, m) in e5_settings(g) {
            let (mut u, mut a, mut apj, mut ms, mut adm) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut n = 0;
            for &seed in &g.seeds {
                let c = e5_case(g, sgd, seed, e, m);
                let Some(x) = get(s, &c, &mut errs) else {
                    continue;
                };
                let Some(smd) = x.get(Pol::Smd) else { continue };
                n += 1;
                u.push(smd.total_utility);
                a.push(smd.rounding_attempts as f64);
                apj.push(smd.rounding_attempts as f64 / smd.feasible.max(1) as f64);
                ms.push(smd.solve_ms);
                adm.push(smd.admitted as f64);
                if smd.rounding_attempts < smd.feasible as u64 {
                    errs.push(format!(
                        "{}: {} rounding attempts for {} feasible jobs",
                        c.describe(),
                        smd.rounding_attempts,
                        smd.feasible
                    ));
                }
            }
            let p = ParamPoint {
                sgd,
                param,
                x: if param == "epsilon" {
                    f64::from(e) / 1e6
                } else {
                    f64::from(m)
                },
                n,
                utility: Summary::of(u),
                attempts: Summary::of(a),
                attempts_per_job: Summary::of(apj),
                ms: Summary::of(ms),
                admitted: Summary::of(adm),
            };
            check_seeds(
                &p.utility,
                g.seeds.len(),
                &format!("{} {param} = {}", sgd.name(), p.x),
                &mut errs,
            );
            pts.push(p);
        }
    }
    let mut t = Table::new(&[
        "mode",
        "parameter",
        "value",
        "epsilon",
        "m_delta",
        "jobs",
        "seeds",
        "utility_mean",
        "utility_sd",
        "admitted_mean",
        "rounding_attempts_mean",
        "rounding_attempts_sd",
        "attempts_per_job_mean",
        "solve_ms_mean",
        "solve_ms_sd",
        "solve_ms_min",
        "solve_ms_max",
    ]);
    for p in &pts {
        let (eps, md) = if p.param == "epsilon" {
            (p.x, 1.0)
        } else {
            (0.01, p.x)
        };
        t.push(vec![
            p.sgd.name().into(),
            p.param.into(),
            p.x.into(),
            eps.into(),
            md.into(),
            g.e5_jobs.into(),
            p.n.into(),
            p.utility.mean.into(),
            p.utility.sd.into(),
            p.admitted.mean.into(),
            p.attempts.mean.into(),
            p.attempts.sd.into(),
            p.attempts_per_job.mean.into(),
            p.ms.mean.into(),
            p.ms.sd.into(),
            p.ms.min.into(),
            p.ms.max.into(),
        ]);
    }
    type Get = fn(&ParamPoint) -> &Summary;
    let metrics: [(&str, &str, Get, bool); 3] = [
        ("total utility", "smd total utility", |p| &p.utility, false),
        (
            "rounding attempts",
            "Algorithm 2 draws (all jobs)",
            |p| &p.attempts,
            false,
        ),
        ("solve time", "solve time, ms (log scale)", |p| &p.ms, true),
    ];
    let pick = |sgd: Sgd, param: &str| -> Vec<&ParamPoint> {
        pts.iter()
            .filter(|p| p.sgd == sgd && p.param == param)
            .collect()
    };
    let mut panels = Vec::new();
    for (name, y_label, f, y_log) in metrics {
        for param in ["epsilon", "m_delta"] {
            let x_label = if param == "epsilon" {
                "ε (log scale; M_δ = 1)"
            } else {
                "M_δ (ε = 0.01)"
            };
            let ser = Sgd::BOTH
                .iter()
                .map(|&sgd| {
                    series(
                        sgd.title(),
                        pick(sgd, param).iter().map(|p| f(p).point(p.x)).collect(),
                    )
                })
                .collect();
            let mut c = chart(
                format!(
                    "{name} over {}",
                    if param == "epsilon" { "ε" } else { "M_δ" }
                ),
                x_label,
                y_label,
                ser,
            );
            c.x_log = param == "epsilon";
            c.y_log = y_log;
            c.y_zero = !y_log;
            panels.push(c);
        }
    }
    let mut findings = Vec::new();
    for param in ["epsilon", "m_delta"] {
        for sgd in Sgd::BOTH {
            let mine = pick(sgd, param);
            let (Some(a), Some(b)) = (mine.first(), mine.last()) else {
                continue;
            };
            let sym = if param == "epsilon" { "ε" } else { "M_δ" };
            findings.push(format!(
                "{}, {sym} {} → {}: utility {} → {}; rounding attempts {} → {} \
                 ({} → {} per job); solve time {} → {} ms; admitted {} → {}.",
                sgd.title(),
                num(a.x),
                num(b.x),
                pm(&a.utility),
                pm(&b.utility),
                f3(a.attempts.mean),
                f3(b.attempts.mean),
                f3(a.attempts_per_job.mean),
                f3(b.attempts_per_job.mean),
                f3(a.ms.mean),
                f3(b.ms.mean),
                f3(a.admitted.mean),
                f3(b.admitted.mean),
            ));
        }
    }
    let svg = figure(
        &format!(
            "E5. Effect of ε and M_δ on SMD (I = {}, 1 cluster unit)",
            g.e5_jobs
        ),
        &[
            g.seeds_text(),
            "Solve times are wall-clock times of the whole smd plan on the machine that ran it."
                .into(),
        ],
        &panels,
        2,
    );
    Parts {
        table: t,
        svg,
        findings,
        violations: errs,
    }
}
