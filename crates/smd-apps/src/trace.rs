//! docs/APPLICATIONS.md §4: arrival traces (`name,time,application,num_replicas,batch_size`,
//! the Pollux artifact's workloads sampled from Microsoft's Philly trace) read into jobs.

use crate::app::App;
use crate::csv;
use crate::preset::{default_workers, limit_for, measured, preset, MeasuredOptions, PresetOptions};
use smd_core::error::num;
use smd_core::scenario::{
    unreachable, unreachable_arrival, Architecture, Cluster, Job, Params, Scenario, MAX_ID_CHARS,
};

/// The largest `num_replicas` read: a thousand times the most workers a preset sizes
/// ([`crate::preset::MAX_WORKERS`]), far beyond any catalog cluster, so that the limit ϑ
/// and the scenario's numbers stay small.
pub const MAX_REPLICAS: f64 = crate::preset::MAX_WORKERS as f64 * 1e3;

/// The most rows a trace may have. Each becomes a preset job of about 2.5 KB of scenario
/// JSON: 10^5 rows write 260 MB in about 3 s and 350 MB of memory; 10^6 rows would write
/// 2.5 GB, more than the 1 GiB any command reads back, and took 12 s and 2.5 GB.
pub const MAX_ROWS: usize = 100_000;

/// The columns of a trace, in the artifact's order (any order is accepted).
pub const COLUMNS: [&str; 5] = ["name", "time", "application", "num_replicas", "batch_size"];

/// One arrival.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrival {
    /// The job's name (its id in the scenario).
    pub name: String,
    /// Arrival time, s from the start of the trace.
    pub time_s: f64,
    /// The application.
    pub app: App,
    /// GPUs (workers) the job asked for.
    pub num_replicas: u32,
    /// Its global batch K.
    pub batch_size: f64,
    /// The line of the trace the row starts on (for messages).
    pub line: usize,
}

/// A problem in a trace, at a row and column.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceError {
    /// The data row, 1-based (the header is row 0); 0 for the header itself.
    pub row: usize,
    /// The line of the file the row starts on.
    pub line: usize,
    /// The column's name, if the problem is in one cell.
    pub column: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.column, self.row) {
            // The CSV splitter's own message names its line already.
            (_, 0) if self.line == 0 => write!(f, "{}", self.message),
            (_, 0) => write!(f, "header (line {}): {}", self.line, self.message),
            (Some(c), r) => write!(
                f,
                "row {r} (line {}), column {c:?}: {}",
                self.line, self.message
            ),
            (None, r) => write!(f, "row {r} (line {}): {}", self.line, self.message),
        }
    }
}

impl std::error::Error for TraceError {}

/// The bundled workloads: `(name, CSV text)`; `workload-N` at the artifact's rate (160 jobs
/// in 8 hours), `workload-N-half` at half of it (80 jobs).
pub const WORKLOADS: [(&str, &str); 16] = {
    macro_rules! w {
        ($n:literal) => {
            (
                concat!("workload-", $n),
                include_str!(concat!(
                    "../../../data/pollux/workloads/workload-",
                    $n,
                    ".csv"
                )),
            )
        };
        ($n:literal, half) => {
            (
                concat!("workload-", $n, "-half"),
                include_str!(concat!(
                    "../../../data/pollux/workloads-0.5/workload-",
                    $n,
                    ".csv"
                )),
            )
        };
    }
    [
        w!("1"),
        w!("2"),
        w!("3"),
        w!("4"),
        w!("5"),
        w!("6"),
        w!("7"),
        w!("8"),
        w!("1", half),
        w!("2", half),
        w!("3", half),
        w!("4", half),
        w!("5", half),
        w!("6", half),
        w!("7", half),
        w!("8", half),
    ]
};

/// The Sia artifact's bundled workloads (`data/sia/workloads/`, see its README): `philly-N`
/// (its Philly workloads, N = 1…8), `helios-N` (Helios, N = 1…10) and `helios-rate-R-K`
/// (Helios at R = 10…50 jobs per hour, K = 1…10), each `(name, CSV text)`.
pub const SIA_WORKLOADS: [(&str, &str); 68] = [
    (
        "philly-1",
        include_str!("../../../data/sia/workloads/philly/workload-1.csv"),
    ),
    (
        "philly-2",
        include_str!("../../../data/sia/workloads/philly/workload-2.csv"),
    ),
    (
        "philly-3",
        include_str!("../../../data/sia/workloads/philly/workload-3.csv"),
    ),
    (
        "philly-4",
        include_str!("../../../data/sia/workloads/philly/workload-4.csv"),
    ),
    (
        "philly-5",
        include_str!("../../../data/sia/workloads/philly/workload-5.csv"),
    ),
    (
        "philly-6",
        include_str!("../../../data/sia/workloads/philly/workload-6.csv"),
    ),
    (
        "philly-7",
        include_str!("../../../data/sia/workloads/philly/workload-7.csv"),
    ),
    (
        "philly-8",
        include_str!("../../../data/sia/workloads/philly/workload-8.csv"),
    ),
    (
        "helios-1",
        include_str!("../../../data/sia/workloads/saturn/workload-1.csv"),
    ),
    (
        "helios-2",
        include_str!("../../../data/sia/workloads/saturn/workload-2.csv"),
    ),
    (
        "helios-3",
        include_str!("../../../data/sia/workloads/saturn/workload-3.csv"),
    ),
    (
        "helios-4",
        include_str!("../../../data/sia/workloads/saturn/workload-4.csv"),
    ),
    (
        "helios-5",
        include_str!("../../../data/sia/workloads/saturn/workload-5.csv"),
    ),
    (
        "helios-6",
        include_str!("../../../data/sia/workloads/saturn/workload-6.csv"),
    ),
    (
        "helios-7",
        include_str!("../../../data/sia/workloads/saturn/workload-7.csv"),
    ),
    (
        "helios-8",
        include_str!("../../../data/sia/workloads/saturn/workload-8.csv"),
    ),
    (
        "helios-9",
        include_str!("../../../data/sia/workloads/saturn/workload-9.csv"),
    ),
    (
        "helios-10",
        include_str!("../../../data/sia/workloads/saturn/workload-10.csv"),
    ),
    (
        "helios-rate-10-1",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-1.csv"),
    ),
    (
        "helios-rate-10-2",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-2.csv"),
    ),
    (
        "helios-rate-10-3",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-3.csv"),
    ),
    (
        "helios-rate-10-4",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-4.csv"),
    ),
    (
        "helios-rate-10-5",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-5.csv"),
    ),
    (
        "helios-rate-10-6",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-6.csv"),
    ),
    (
        "helios-rate-10-7",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-7.csv"),
    ),
    (
        "helios-rate-10-8",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-8.csv"),
    ),
    (
        "helios-rate-10-9",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-9.csv"),
    ),
    (
        "helios-rate-10-10",
        include_str!("../../../data/sia/workloads/scale/rate_10/workload-10.csv"),
    ),
    (
        "helios-rate-20-1",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-1.csv"),
    ),
    (
        "helios-rate-20-2",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-2.csv"),
    ),
    (
        "helios-rate-20-3",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-3.csv"),
    ),
    (
        "helios-rate-20-4",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-4.csv"),
    ),
    (
        "helios-rate-20-5",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-5.csv"),
    ),
    (
        "helios-rate-20-6",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-6.csv"),
    ),
    (
        "helios-rate-20-7",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-7.csv"),
    ),
    (
        "helios-rate-20-8",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-8.csv"),
    ),
    (
        "helios-rate-20-9",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-9.csv"),
    ),
    (
        "helios-rate-20-10",
        include_str!("../../../data/sia/workloads/scale/rate_20/workload-10.csv"),
    ),
    (
        "helios-rate-30-1",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-1.csv"),
    ),
    (
        "helios-rate-30-2",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-2.csv"),
    ),
    (
        "helios-rate-30-3",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-3.csv"),
    ),
    (
        "helios-rate-30-4",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-4.csv"),
    ),
    (
        "helios-rate-30-5",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-5.csv"),
    ),
    (
        "helios-rate-30-6",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-6.csv"),
    ),
    (
        "helios-rate-30-7",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-7.csv"),
    ),
    (
        "helios-rate-30-8",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-8.csv"),
    ),
    (
        "helios-rate-30-9",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-9.csv"),
    ),
    (
        "helios-rate-30-10",
        include_str!("../../../data/sia/workloads/scale/rate_30/workload-10.csv"),
    ),
    (
        "helios-rate-40-1",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-1.csv"),
    ),
    (
        "helios-rate-40-2",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-2.csv"),
    ),
    (
        "helios-rate-40-3",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-3.csv"),
    ),
    (
        "helios-rate-40-4",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-4.csv"),
    ),
    (
        "helios-rate-40-5",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-5.csv"),
    ),
    (
        "helios-rate-40-6",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-6.csv"),
    ),
    (
        "helios-rate-40-7",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-7.csv"),
    ),
    (
        "helios-rate-40-8",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-8.csv"),
    ),
    (
        "helios-rate-40-9",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-9.csv"),
    ),
    (
        "helios-rate-40-10",
        include_str!("../../../data/sia/workloads/scale/rate_40/workload-10.csv"),
    ),
    (
        "helios-rate-50-1",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-1.csv"),
    ),
    (
        "helios-rate-50-2",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-2.csv"),
    ),
    (
        "helios-rate-50-3",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-3.csv"),
    ),
    (
        "helios-rate-50-4",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-4.csv"),
    ),
    (
        "helios-rate-50-5",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-5.csv"),
    ),
    (
        "helios-rate-50-6",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-6.csv"),
    ),
    (
        "helios-rate-50-7",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-7.csv"),
    ),
    (
        "helios-rate-50-8",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-8.csv"),
    ),
    (
        "helios-rate-50-9",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-9.csv"),
    ),
    (
        "helios-rate-50-10",
        include_str!("../../../data/sia/workloads/scale/rate_50/workload-10.csv"),
    ),
];

/// The bundled workload named `name` ([`WORKLOADS`], [`SIA_WORKLOADS`]), or a message
/// listing them.
pub fn workload(name: &str) -> Result<&'static str, String> {
    find(WORKLOADS.iter().chain(SIA_WORKLOADS.iter()), name).ok_or_else(|| {
        format!(
            "unknown workload {:?} (expected workload-1 … workload-8, workload-1-half … \
             workload-8-half, philly-1 … philly-8, helios-1 … helios-10 or \
             helios-rate-R-K with R = 10, 20, 30, 40, 50 and K = 1 … 10)",
            smd_core::error::cut(name),
        )
    })
}

/// The Pollux artifact's bundled workload named `name` ([`WORKLOADS`] only), or a message
/// listing them. Code that only offers these names calls this instead of [`workload`], so a
/// program that links it (the page's module) does not carry [`SIA_WORKLOADS`]' texts.
pub fn pollux_workload(name: &str) -> Result<&'static str, String> {
    find(WORKLOADS.iter(), name).ok_or_else(|| {
        format!(
            "unknown workload {:?} (expected workload-1 … workload-8 or workload-1-half … \
             workload-8-half)",
            smd_core::error::cut(name),
        )
    })
}

fn find<'a>(
    mut list: impl Iterator<Item = &'a (&'static str, &'static str)>,
    name: &str,
) -> Option<&'static str> {
    list.find(|(n, _)| *n == name.trim()).map(|(_, text)| *text)
}

/// Reads a trace: a header naming the five [`COLUMNS`] (any order, no others), then one
/// arrival per row. Every problem names its row and column.
pub fn parse(text: &str) -> Result<Vec<Arrival>, TraceError> {
    // The header, the rows allowed, and one more to tell a trace that is too long.
    let records = csv::records_at_most(text, MAX_ROWS + 2).map_err(|message| TraceError {
        row: 0,
        line: 0,
        column: None,
        message,
    })?;
    if let Some(extra) = records.get(MAX_ROWS + 1) {
        return Err(TraceError {
            row: MAX_ROWS + 1,
            line: extra.line,
            column: None,
            message: format!(
                "a trace has at most {MAX_ROWS} rows (a scenario of more jobs is larger than any command reads): split or sample it"
            ),
        });
    }
    let (header, body) = records.split_first().ok_or(TraceError {
        row: 0,
        line: 1,
        column: None,
        message: format!(
            "the trace is empty (expected a header: {})",
            COLUMNS.join(",")
        ),
    })?;
    let (width, at) = columns(header)?;
    let mut seen = std::collections::HashSet::new();
    body.iter()
        .enumerate()
        .map(|(i, rec)| row(i + 1, rec, width, &at, &mut seen))
        .collect()
}

/// The header's width and where each of [`COLUMNS`] is in it: every column known, none
/// missing, none twice.
fn columns(header: &csv::Record) -> Result<(usize, [usize; 5]), TraceError> {
    let head_err = |message: String| TraceError {
        row: 0,
        line: header.line,
        column: None,
        message,
    };
    let names: Vec<String> = header
        .cells
        .iter()
        .map(|c| c.trim().to_lowercase())
        .collect();
    if let Some(u) = names.iter().find(|n| !COLUMNS.contains(&n.as_str())) {
        return Err(head_err(format!(
            "unknown column {:?} (expected {})",
            smd_core::error::cut(u),
            COLUMNS.join(",")
        )));
    }
    let mut at = [0usize; 5];
    for (k, c) in COLUMNS.iter().enumerate() {
        let found: Vec<usize> = (0..names.len()).filter(|&i| names[i] == *c).collect();
        match found[..] {
            [i] => at[k] = i,
            [] => return Err(head_err(format!("missing column {c:?}"))),
            _ => return Err(head_err(format!("column {c:?} appears more than once"))),
        }
    }
    Ok((names.len(), at))
}

/// Row `row` (1 for the first after the header) of `width` cells, its columns at `at`;
/// `seen`: the names of the rows before it.
fn row(
    row: usize,
    rec: &csv::Record,
    width: usize,
    at: &[usize; 5],
    seen: &mut std::collections::HashSet<String>,
) -> Result<Arrival, TraceError> {
    let err = |k: usize, message: String| TraceError {
        row,
        line: rec.line,
        column: Some(COLUMNS[k].to_owned()),
        message,
    };
    if rec.cells.len() != width {
        return Err(TraceError {
            row,
            line: rec.line,
            column: None,
            message: format!("has {} cells, the header {}", rec.cells.len(), width),
        });
    }
    let cell = |k: usize| rec.cells[at[k]].trim();
    let number = |k: usize| -> Result<f64, TraceError> {
        cell(k)
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                err(
                    k,
                    format!("{:?} is not a number", smd_core::error::cut(cell(k))),
                )
            })
    };
    let name = cell(0).to_owned();
    if name.is_empty() {
        return Err(err(0, "is empty".into()));
    }
    // The scenario's limit on an id, said here at the cell: the scenario's own message can
    // only number the job.
    if name.chars().count() > MAX_ID_CHARS {
        // `cut` echoes its start and its length.
        return Err(err(
            0,
            format!(
                "{:?} is longer than {MAX_ID_CHARS} characters",
                smd_core::error::cut(&name)
            ),
        ));
    }
    if !seen.insert(name.clone()) {
        return Err(err(
            0,
            format!("{:?} names an earlier row too", smd_core::error::cut(&name)),
        ));
    }
    let time_s = number(1)?;
    if time_s < 0.0 {
        return Err(err(1, format!("must be ≥ 0 s (got {})", num(time_s))));
    }
    // The scenario's bound on every number (its `arrival_s`), said here at the cell.
    use smd_core::scenario::{MAX_MAGNITUDE, MIN_MAGNITUDE};
    if time_s != 0.0 && !(MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&time_s) {
        return Err(err(
            1,
            format!(
                "must be 0 or between 1e-12 and 1e12 s (got {})",
                num(time_s)
            ),
        ));
    }
    let app: App = cell(2).parse().map_err(|m| err(2, m))?;
    let replicas = number(3)?;
    if replicas < 1.0 || replicas.fract() != 0.0 || replicas > MAX_REPLICAS {
        return Err(err(
            3,
            format!(
                "must be a whole number from 1 to {MAX_REPLICAS} (got {})",
                num(replicas)
            ),
        ));
    }
    let batch_size = number(4)?;
    crate::preset::iterations(app, batch_size).map_err(|e| err(4, e.message))?;
    Ok(Arrival {
        name,
        time_s,
        app,
        num_replicas: replicas as u32,
        batch_size,
        line: rec.line,
    })
}

/// What is valid but cannot be meant, by row: a `time` 30 days out or more, which no
/// simulation reaches (Unix-epoch seconds, typically); a `num_replicas` larger than the
/// cluster's GPUs (a job fifo starts at its request could never start). Warnings, not
/// errors: the static planners ignore arrivals and size jobs themselves, and a trace is
/// often read onto another cluster first.
pub fn warnings(arrivals: &[Arrival], cluster: &Cluster) -> Vec<TraceError> {
    let gpus = cluster.capacity().gpu;
    let at = |i: usize, column: &str, message: String| TraceError {
        row: i + 1,
        line: arrivals[i].line,
        column: Some(column.into()),
        message,
    };
    let mut out = Vec::new();
    // One warning for every time no simulation reaches, at the first.
    let late: Vec<usize> = (0..arrivals.len())
        .filter(|&i| unreachable(arrivals[i].time_s))
        .collect();
    if let Some(&i) = late.first() {
        if let Some(why) = unreachable_arrival(arrivals[i].time_s, late.len() - 1, "rows") {
            out.push(at(i, "time", why));
        }
    }
    for (i, a) in arrivals.iter().enumerate() {
        if a.num_replicas as f64 > gpus {
            out.push(at(
                i,
                "num_replicas",
                format!(
                    "job {:?} asks for {} GPUs, more than the cluster's {}: it cannot run at its request",
                    smd_core::error::cut(&a.name),
                    a.num_replicas,
                    num(gpus)
                ),
            ));
        }
    }
    out
}

/// The jobs of a trace as measured all-reduce jobs (docs/MODEL.md §21, the default):
/// each row's application at its fixed `batch_size`, `arrival_s` = its time,
/// `requested_workers` = its `num_replicas`, the GPU cap the reference allows
/// (⌊batch / smallest local batch⌋, ncf 1, never more than the cluster's GPUs — the model
/// applies it).
pub fn jobs(arrivals: &[Arrival], cluster: &Cluster) -> Result<Vec<Job>, TraceError> {
    jobs_as(arrivals, cluster, Architecture::Allreduce)
}

/// The jobs of a trace in either architecture: [`jobs`] for all-reduce; for the paper's
/// parameter-server model each row's preset at its batch, with `arrival_s` and
/// `requested_workers` as above and a limit ϑ (in `cluster.instance`) holding the larger
/// of the request and the preset's default of workers, and as many PSs.
pub fn jobs_as(
    arrivals: &[Arrival],
    cluster: &Cluster,
    architecture: Architecture,
) -> Result<Vec<Job>, TraceError> {
    arrivals
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let workers = a.num_replicas.max(default_workers(a.app, a.batch_size));
            let at = |e: crate::preset::PresetError| TraceError {
                row: i + 1,
                line: a.line,
                column: None,
                message: e.to_string(),
            };
            if architecture == Architecture::Allreduce {
                if cluster.capacity().gpu <= 0.0 {
                    return Err(TraceError {
                        row: i + 1,
                        line: a.line,
                        column: None,
                        message: "the cluster has no GPU: a measured job's worker is one GPU"
                            .into(),
                    });
                }
                let opts = MeasuredOptions {
                    id: Some(a.name.clone()),
                    batch_size: Some(a.batch_size),
                    max_workers: None,
                };
                let mut job = measured(a.app, &opts).map_err(at)?;
                job.arrival_s = Some(a.time_s);
                job.requested_workers = Some(a.num_replicas as f64);
                return Ok(job);
            }
            let opts = PresetOptions {
                global_batch: a.batch_size,
                minibatch: None,
                id: Some(a.name.clone()),
                limit_instances: Some(limit_for(workers, &cluster.instance).map_err(at)?),
                instance: cluster.instance,
            };
            let mut job = preset(a.app, &opts).map_err(at)?;
            job.arrival_s = Some(a.time_s);
            job.requested_workers = Some(a.num_replicas as f64);
            Ok(job)
        })
        .collect()
}

/// The first `first` jobs of the bundled workload `name` ([`workload`]) as measured jobs on
/// the machines of `mix` (`TYPE=N,…`, [`crate::machines::parse_mix`]; the first type's
/// machine is the instance): how the studies, benchmarks and tests put a workload on a
/// mix of GPU types. The message names what is wrong.
pub fn workload_on_mix(name: &str, first: usize, mix: &str) -> Result<Scenario, String> {
    let mut arrivals = parse(workload(name)?).map_err(|e| e.to_string())?;
    arrivals.truncate(first);
    let mix = crate::machines::parse_mix(mix)?;
    let cluster = crate::machines::mix_cluster(&mix, mix[0].0.capacity);
    scenario(&arrivals, cluster).map_err(|e| e.to_string())
}

/// A version-2 scenario with one measured job per arrival on `cluster`, default
/// parameters ([`jobs`]).
pub fn scenario(arrivals: &[Arrival], cluster: Cluster) -> Result<Scenario, TraceError> {
    scenario_as(arrivals, cluster, Architecture::Allreduce)
}

/// [`scenario`] with jobs of either architecture ([`jobs_as`]).
pub fn scenario_as(
    arrivals: &[Arrival],
    cluster: Cluster,
    architecture: Architecture,
) -> Result<Scenario, TraceError> {
    Ok(Scenario {
        version: 2,
        jobs: jobs_as(arrivals, &cluster, architecture)?,
        cluster,
        params: Params::default(),
    })
}
