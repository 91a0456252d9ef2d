//! What the experiments share: where a point is ([`At`]), the loop over a point's seeds,
//! the table columns (each declared once, its name beside its cell), chart helpers and the
//! number formats of the findings.

use super::{Grid, Parts, Samples};
use crate::case::{Capacity, Case, Pols, Sample};
use crate::figure::figure;
use crate::stats::Summary;
use crate::table::{Cell, Table};
use smd_charts::{LineChart, Point, Series};
use smd_core::Mode;

// ---------------------------------------------------------------------------------------
// Points and their seeds

/// Where a point is (mode, cluster, jobs) and how many of its seeds have a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct At {
    pub mode: Mode,
    pub capacity: Capacity,
    pub jobs: usize,
    pub seeds: usize,
}

impl At {
    /// The point, before its seeds are counted.
    pub fn new(mode: Mode, capacity: Capacity, jobs: usize) -> At {
        At {
            mode,
            capacity,
            jobs,
            seeds: 0,
        }
    }

    /// The same point with `seeds` seeds.
    pub fn with_seeds(self, seeds: usize) -> At {
        At { seeds, ..self }
    }

    /// The point's case at `seed`, at the generator's defaults.
    pub fn case(&self, seed: u64) -> Case {
        Case::new(self.mode, self.jobs, self.capacity, seed)
    }

    /// The point's case at each seed.
    pub fn cases(&self) -> impl Fn(u64) -> Case + '_ {
        |seed| self.case(seed)
    }

    /// `"sync I=50 1 unit"`, for messages.
    pub fn label(&self) -> String {
        format!(
            "{} I={} {}",
            self.mode.name(),
            self.jobs,
            self.capacity.label()
        )
    }
}

/// A point of a table: it knows where it is.
pub(super) trait Located {
    fn at(&self) -> &At;
}

/// The points of `pts` in mode `mode` on `capacity`, in order.
pub(super) fn pick<P: Located>(pts: &[P], mode: Mode, capacity: Capacity) -> Vec<&P> {
    pts.iter()
        .filter(|p| p.at().mode == mode && p.at().capacity == capacity)
        .collect()
}

/// The order of a table's rows.
#[derive(Clone, Copy, Debug)]
pub(super) enum Order {
    /// By mode, then cluster, then jobs.
    ModeFirst,
    /// By cluster, then mode, then jobs.
    ClusterFirst,
}

/// Every (mode, cluster, jobs) point of `caps` × `jobs`, both modes, in `order`.
pub(super) fn grid(order: Order, caps: &[Capacity], jobs: &[usize]) -> Vec<At> {
    let mut v = Vec::new();
    match order {
        Order::ModeFirst => {
            for mode in Mode::ALL {
                for &cap in caps {
                    v.extend(jobs.iter().map(|&i| At::new(mode, cap, i)));
                }
            }
        }
        Order::ClusterFirst => {
            for &cap in caps {
                for mode in Mode::ALL {
                    v.extend(jobs.iter().map(|&i| At::new(mode, cap, i)));
                }
            }
        }
    }
    v
}

/// Each point's case at each seed, to plan with `pols`.
pub(super) fn seed_cases(g: &Grid, points: &[At], pols: Pols) -> Vec<(Case, Pols)> {
    points
        .iter()
        .flat_map(|at| g.seeds.iter().map(move |&seed| (at.case(seed), pols)))
        .collect()
}

/// Every point of `points` from its seeds' samples (by `point`), and the checks that
/// failed on the way.
pub(super) fn summarise<P>(
    g: &Grid,
    s: &Samples,
    points: Vec<At>,
    point: impl Fn(&Grid, &Samples, At, &mut Vec<String>) -> P,
) -> (Vec<P>, Vec<String>) {
    let mut errs = Vec::new();
    let pts = points
        .into_iter()
        .map(|at| point(g, s, at, &mut errs))
        .collect();
    (pts, errs)
}

/// One record per seed of the grid: `each` turns the seed's sample (of the case `case`
/// gives) into a record, or `None` to leave the seed out. A missing sample is reported in
/// `errs`; whatever `each` reports comes after it, seed by seed.
pub(super) fn per_seed<'s, R>(
    g: &Grid,
    s: &'s Samples,
    case: impl Fn(u64) -> Case,
    errs: &mut Vec<String>,
    mut each: impl FnMut(u64, &'s Sample, &mut Vec<String>) -> Option<R>,
) -> Vec<R> {
    let mut out = Vec::new();
    for &seed in &g.seeds {
        let c = case(seed);
        let Some(sample) = s.get(&c) else {
            errs.push(format!("{}: no sample", c.describe()));
            continue;
        };
        out.extend(each(seed, sample, errs));
    }
    out
}

/// The summary of one field of the per-seed records.
pub(super) fn summary<R>(records: &[R], field: impl Fn(&R) -> f64) -> Summary {
    Summary::of(records.iter().map(field))
}

/// `a / b`, NaN (left out of summaries) unless `b > 0`.
pub(super) fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        f64::NAN
    }
}

/// Reports a point whose summary does not have every seed.
pub(super) fn check_seeds(s: &Summary, want: usize, what: &str, errs: &mut Vec<String>) {
    if s.n != want {
        errs.push(format!("{what}: {} of {want} seeds have a value", s.n));
    }
}

/// Reports a finite smd / global ratio outside [0, 1] (global is never below smd).
pub(super) fn check_smd_over_global(at: &At, seed: u64, r: f64, errs: &mut Vec<String>) {
    if r.is_finite() && !(0.0..=1.0 + 1e-9).contains(&r) {
        errs.push(format!(
            "{} I={} {} seed {seed}: smd / global = {r} outside [0, 1]",
            at.mode.name(),
            at.jobs,
            at.capacity.label()
        ));
    }
}

// ---------------------------------------------------------------------------------------
// Table columns

/// A statistic of a [`Summary`], written as a column's suffix (`_mean`, `_sd`, …).
#[derive(Clone, Copy, Debug)]
pub(super) enum Stat {
    Mean,
    Sd,
    Min,
    Max,
}

impl Stat {
    fn suffix(self) -> &'static str {
        match self {
            Stat::Mean => "mean",
            Stat::Sd => "sd",
            Stat::Min => "min",
            Stat::Max => "max",
        }
    }
    fn of(self, s: &Summary) -> f64 {
        match self {
            Stat::Mean => s.mean,
            Stat::Sd => s.sd,
            Stat::Min => s.min,
            Stat::Max => s.max,
        }
    }
}

/// Just the mean.
pub(super) const MEAN: &[Stat] = &[Stat::Mean];
/// Mean and standard deviation.
pub(super) const MEAN_SD: &[Stat] = &[Stat::Mean, Stat::Sd];
/// Mean, standard deviation, min and max.
pub(super) const SPREAD: &[Stat] = &[Stat::Mean, Stat::Sd, Stat::Min, Stat::Max];

/// A column of a point's [`At`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Key {
    /// `mode`: `sync` or `async`.
    Mode,
    /// `capacity`: `1 unit`, `1000 instances`, ….
    Capacity,
    /// `jobs`: I.
    Jobs,
    /// `seeds`: the seeds with a value.
    Seeds,
}

type CellOf<'a, P> = Box<dyn Fn(&P) -> Cell + 'a>;

/// A table's columns, each a name and how a point fills its cell, so that the header and
/// the rows cannot disagree.
pub(super) struct Columns<'a, P> {
    names: Vec<String>,
    cells: Vec<CellOf<'a, P>>,
}

impl<'a, P: Located + 'a> Columns<'a, P> {
    /// Starts with the key columns `keys`, in that order.
    pub fn keyed(keys: &[Key]) -> Self {
        Columns {
            names: Vec::new(),
            cells: Vec::new(),
        }
        .keys(keys)
    }

    /// Appends the key columns `keys`.
    pub fn keys(self, keys: &[Key]) -> Self {
        keys.iter().fold(self, |c, k| match k {
            Key::Mode => c.col("mode", |p| p.at().mode.name().into()),
            Key::Capacity => c.col("capacity", |p| p.at().capacity.label().into()),
            Key::Jobs => c.col("jobs", |p| p.at().jobs.into()),
            Key::Seeds => c.col("seeds", |p| p.at().seeds.into()),
        })
    }

    /// Appends the column `name`.
    pub fn col(mut self, name: impl Into<String>, cell: impl Fn(&P) -> Cell + 'a) -> Self {
        self.names.push(name.into());
        self.cells.push(Box::new(cell));
        self
    }

    /// Appends `<prefix>_<stat>` for each of `stats`, from the summary `of` picks.
    pub fn stats(
        self,
        prefix: &str,
        stats: &[Stat],
        of: impl Fn(&P) -> &Summary + Copy + 'a,
    ) -> Self {
        stats.iter().fold(self, |c, &st| {
            c.col(format!("{prefix}_{}", st.suffix()), move |p| {
                Cell::from(st.of(of(p)))
            })
        })
    }

    /// The table of `points`, a row each.
    pub fn table(&self, points: &[P]) -> Table {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let mut t = Table::new(&names);
        for p in points {
            t.push(self.cells.iter().map(|cell| cell(p)).collect());
        }
        t
    }
}

// ---------------------------------------------------------------------------------------
// Charts

/// A line chart with these labels and series (the rest at its defaults).
pub(super) fn chart(title: String, x_label: &str, y_label: &str, series: Vec<Series>) -> LineChart {
    LineChart {
        title,
        x_label: x_label.into(),
        y_label: y_label.into(),
        series,
        ..LineChart::default()
    }
}

/// A named series.
pub(super) fn series(name: impl Into<String>, points: Vec<Point>) -> Series {
    Series {
        name: name.into(),
        points,
    }
}

/// A series of the summary `of` picks from each point, over the number of jobs.
pub(super) fn over_jobs<P: Located>(
    name: impl Into<String>,
    pts: &[&P],
    of: impl Fn(&P) -> &Summary,
) -> Series {
    series(
        name,
        pts.iter()
            .map(|p| of(p).point(p.at().jobs as f64))
            .collect(),
    )
}

/// A horizontal line at `value` over `jobs` (a bound or a claimed value).
pub(super) fn level(name: &str, jobs: &[usize], value: f64) -> Series {
    series(
        name,
        jobs.iter()
            .map(|&i| Point::exact(i as f64, value))
            .collect(),
    )
}

/// An experiment's parts: its table, its figure (two panels a row, the caption under it),
/// its findings and its failed checks.
pub(super) fn parts(
    table: Table,
    (title, caption): (&str, &[String]),
    panels: &[LineChart],
    findings: Vec<String>,
    violations: Vec<String>,
) -> Parts {
    Parts {
        table,
        svg: figure(title, caption, panels, 2),
        findings,
        violations,
    }
}

// ---------------------------------------------------------------------------------------
// Numbers in findings

/// The smallest value (NaN values left out; +∞ when none).
pub(super) fn min_of(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(f64::INFINITY, f64::min)
}

/// The largest value (NaN values left out; −∞ when none).
pub(super) fn max_of(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(f64::NEG_INFINITY, f64::max)
}

/// A number to about 3 significant digits, e.g. `"1.23"`, `"45.6"`, `"789"`; `"n/a"`
/// when not finite.
pub(super) fn f3(v: f64) -> String {
    if !v.is_finite() {
        "n/a".into()
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// `"mean ± sd"`, each by [`f3`].
pub(super) fn pm(s: &Summary) -> String {
    format!("{} ± {}", f3(s.mean), f3(s.sd))
}
