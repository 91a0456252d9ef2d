//! E5: the effect of ε and M_δ on smd (utility, Algorithm 2's rounding attempts, solve time
//! without the allocation cache), I = 50 on 1 unit.

use super::shared::{
    chart, check_seeds, f3, parts, per_seed, pm, series, summary, At, Columns, Key, Located, MEAN,
    MEAN_SD, SPREAD,
};
use super::{Grid, Parts, Samples, Spec};
use crate::case::{Capacity, Case, Pols, Variant};
use crate::stats::Summary;
use crate::table::{num, Table};
use smd_charts::LineChart;
use smd_core::{Mode, Policy};

pub(super) const SPEC: Spec = Spec {
    id: "e5-epsilon-mdelta",
    title: "E5. Effect of ε and M_δ on SMD",
    description: "smd's total utility, Algorithm 2's rounding attempts (summed over jobs) \
                  and solve time, over ε (M_δ = 1) and over M_δ (ε = 0.01), on 1 cluster \
                  unit, Sync and Async; solve times without the allocation cache.",
    claim: "(Parameters of the method, no figure claim.) A smaller ε gives a better \
            relaxed optimum at a higher cost; a larger M_δ needs fewer rounding attempts \
            but gives larger T.",
    cases,
    assemble,
};

/// The two parameters swept, as the table names them.
const PARAMS: [&str; 2] = ["epsilon", "m_delta"];

/// The case of one parameter setting (timed: smd runs without the allocation cache).
fn case(g: &Grid, mode: Mode, seed: u64, eps_ppm: u32, m_delta: u32) -> Case {
    Case {
        epsilon_ppm: eps_ppm,
        m_delta,
        timed: true,
        ..Case::new(mode, g.e5_jobs, Capacity::Units(1), seed)
    }
}

/// The settings: (parameter, ε in millionths, M_δ), ε first (at M_δ = 1), then M_δ (at
/// ε = 0.01).
fn settings(g: &Grid) -> Vec<(&'static str, u32, u32)> {
    let mut v: Vec<(&'static str, u32, u32)> = g
        .e5_epsilon_ppm
        .iter()
        .map(|&e| (PARAMS[0], e, 1))
        .collect();
    v.extend(g.e5_m_delta.iter().map(|&m| (PARAMS[1], 10_000, m)));
    v
}

fn cases(g: &Grid) -> Vec<(Case, Pols)> {
    let mut v = Vec::new();
    for mode in Mode::ALL {
        for (_, e, m) in settings(g) {
            for &seed in &g.seeds {
                v.push((
                    case(g, mode, seed, e, m),
                    Pols::of(&[Variant::plain(Policy::Smd)]),
                ));
            }
        }
    }
    v
}

struct ParamPoint {
    at: At,
    param: &'static str,
    /// The parameter's value.
    x: f64,
    utility: Summary,
    attempts: Summary,
    attempts_per_job: Summary,
    ms: Summary,
    admitted: Summary,
}

impl Located for ParamPoint {
    fn at(&self) -> &At {
        &self.at
    }
}

impl ParamPoint {
    /// (ε, M_δ) of the point.
    fn epsilon_m_delta(&self) -> (f64, f64) {
        if self.param == PARAMS[0] {
            (self.x, 1.0)
        } else {
            (0.01, self.x)
        }
    }
}

/// What one seed contributes.
struct Seed {
    utility: f64,
    attempts: f64,
    attempts_per_job: f64,
    ms: f64,
    admitted: f64,
}

/// The point of one mode at one setting of [`settings`].
fn point(
    g: &Grid,
    s: &Samples,
    mode: Mode,
    (param, e, m): (&'static str, u32, u32),
    errs: &mut Vec<String>,
) -> ParamPoint {
    let case_at = |seed| case(g, mode, seed, e, m);
    let seeds = per_seed(g, s, case_at, errs, |seed, x, errs| {
        let smd = x.get(Policy::Smd)?;
        if smd.rounding_attempts < smd.feasible as u64 {
            errs.push(format!(
                "{}: {} rounding attempts for {} feasible jobs",
                case_at(seed).describe(),
                smd.rounding_attempts,
                smd.feasible
            ));
        }
        Some(Seed {
            utility: smd.total_utility,
            attempts: smd.rounding_attempts as f64,
            attempts_per_job: smd.rounding_attempts as f64 / smd.feasible.max(1) as f64,
            ms: smd.solve_ms,
            admitted: smd.admitted as f64,
        })
    });
    let p = ParamPoint {
        at: At::new(mode, Capacity::Units(1), g.e5_jobs).with_seeds(seeds.len()),
        param,
        x: if param == PARAMS[0] {
            f64::from(e) / 1e6
        } else {
            f64::from(m)
        },
        utility: summary(&seeds, |r| r.utility),
        attempts: summary(&seeds, |r| r.attempts),
        attempts_per_job: summary(&seeds, |r| r.attempts_per_job),
        ms: summary(&seeds, |r| r.ms),
        admitted: summary(&seeds, |r| r.admitted),
    };
    let what = format!("{} {param} = {}", mode.name(), p.x);
    check_seeds(&p.utility, g.seeds.len(), &what, errs);
    p
}

fn table(pts: &[ParamPoint]) -> Table {
    Columns::keyed(&[Key::Mode])
        .col("parameter", |p: &ParamPoint| p.param.into())
        .col("value", |p| p.x.into())
        .col("epsilon", |p| p.epsilon_m_delta().0.into())
        .col("m_delta", |p| p.epsilon_m_delta().1.into())
        .keys(&[Key::Jobs, Key::Seeds])
        .stats("utility", MEAN_SD, |p| &p.utility)
        .stats("admitted", MEAN, |p| &p.admitted)
        .stats("rounding_attempts", MEAN_SD, |p| &p.attempts)
        .stats("attempts_per_job", MEAN, |p| &p.attempts_per_job)
        .stats("solve_ms", SPREAD, |p| &p.ms)
        .table(pts)
}

/// Utility, rounding attempts and solve time, each over ε and over M_δ, both modes in each.
fn panels(pts: &[ParamPoint]) -> Vec<LineChart> {
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
    let mut panels = Vec::new();
    for (name, y_label, f, y_log) in metrics {
        for param in PARAMS {
            let eps = param == PARAMS[0];
            let x_label = if eps {
                "ε (log scale; M_δ = 1)"
            } else {
                "M_δ (ε = 0.01)"
            };
            let ser = Mode::ALL
                .iter()
                .map(|&mode| {
                    let mine = pick_param(pts, mode, param);
                    series(mode.title(), mine.iter().map(|p| f(p).point(p.x)).collect())
                })
                .collect();
            let title = format!("{name} over {}", if eps { "ε" } else { "M_δ" });
            let mut c = chart(title, x_label, y_label, ser);
            c.x_log = eps;
            c.y_log = y_log;
            c.y_zero = !y_log;
            panels.push(c);
        }
    }
    panels
}

/// The points of one mode over one parameter, in order.
fn pick_param<'p>(pts: &'p [ParamPoint], mode: Mode, param: &str) -> Vec<&'p ParamPoint> {
    pts.iter()
        .filter(|p| p.at.mode == mode && p.param == param)
        .collect()
}

/// What one mode shows from the first to the last value of one parameter.
fn finding(mode: Mode, param: &str, mine: &[&ParamPoint]) -> Option<String> {
    let (a, b) = (mine.first()?, mine.last()?);
    let sym = if param == PARAMS[0] { "ε" } else { "M_δ" };
    let trend = |s: fn(&ParamPoint) -> &Summary| format!("{} → {}", f3(s(a).mean), f3(s(b).mean));
    Some(format!(
        "{}, {sym} {} → {}: utility {} → {}; rounding attempts {} \
         ({} per job); solve time {} ms; admitted {}.",
        mode.title(),
        num(a.x),
        num(b.x),
        pm(&a.utility),
        pm(&b.utility),
        trend(|p| &p.attempts),
        trend(|p| &p.attempts_per_job),
        trend(|p| &p.ms),
        trend(|p| &p.admitted),
    ))
}

fn assemble(g: &Grid, s: &Samples) -> Parts {
    let mut errs = Vec::new();
    let mut pts = Vec::new();
    for mode in Mode::ALL {
        for setting in settings(g) {
            pts.push(point(g, s, mode, setting, &mut errs));
        }
    }
    let mut findings = Vec::new();
    for param in PARAMS {
        for mode in Mode::ALL {
            findings.extend(finding(mode, param, &pick_param(&pts, mode, param)));
        }
    }
    let caption = [
        g.seeds_text(),
        "Solve times are wall-clock times of the whole smd plan on the machine that ran it.".into(),
    ];
    parts(
        table(&pts),
        (
            &format!(
                "E5. Effect of ε and M_δ on SMD (I = {}, 1 cluster unit)",
                g.e5_jobs
            ),
            &caption,
        ),
        &panels(&pts),
        findings,
        errs,
    )
}
