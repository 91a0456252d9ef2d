//! Why a job is not placed (docs/PLACEMENT.md §11): every reason names what did not fit — the task, its demand, and the resources machines were short of.
// A dimension indexes several arrays at once (capacity, use, demand).
#![allow(clippy::needless_range_loop)]

use crate::cluster::{Cluster, Demand, Dims, Draft, Kind, DIMS, NIC};
use crate::input::{Job, Options};
use smd_core::error::num;

/// Dimension names in messages.
const TITLES: [&str; DIMS] = ["GPU", "vCPU", "memory", "storage", "NIC bandwidth"];

fn amount(r: usize, v: f64) -> String {
    match r {
        0 => format!("{} GPU", num(v)),
        1 => format!("{} vCPU", num(v)),
        2 => format!("{} GB memory", num(v)),
        3 => format!("{} GB storage", num(v)),
        _ => format!("{} Gbps NIC bandwidth", num(v)),
    }
}

/// A demand as text, its non-zero dimensions only (`1 GPU, 4 vCPU, 16 GB memory`).
fn describe(d: &Dims) -> String {
    let parts: Vec<String> = (0..DIMS)
        .filter(|&r| d[r] > 0.0)
        .map(|r| amount(r, d[r]))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Reasons that need no search, checked before any policy runs on the job: no machines, a
/// task larger than every machine, more demand than all machines have free, too many tasks.
pub(crate) fn before(cluster: &Cluster, job: &Job, options: &Options) -> Option<String> {
    let tasks = job.workers as u64 + job.ps as u64;
    if tasks == 0 {
        return None;
    }
    if cluster.len() == 0 {
        return Some("there are no machines".into());
    }
    let demand = Demand::of(job);
    for (kind, n) in [(Kind::Worker, job.workers), (Kind::Ps, job.ps)] {
        if n > 0 {
            if let Some(why) = too_large(cluster, demand.kind(kind), kind) {
                return Some(why);
            }
        }
    }
    let need = demand.load(job.workers, job.ps);
    for r in 0..DIMS {
        let free: f64 = (0..cluster.len())
            .map(|h| (cluster.limit(h)[r] - cluster.used(h)[r]).max(0.0))
            .sum();
        if need[r] > free {
            // The free amount shown leaves the tolerance out.
            let shown: f64 = (0..cluster.len())
                .map(|h| (cluster.cap(h)[r] - cluster.used(h)[r]).max(0.0))
                .sum();
            return Some(format!(
                "its {} and {} need {} in all, more than the {} free on all machines",
                plural(job.workers as usize, "worker", "workers"),
                plural(job.ps as usize, "PS", "PSs"),
                amount(r, need[r]),
                num(shown),
            ));
        }
    }
    if tasks > options.max_tasks_per_job {
        return Some(format!(
            "its {tasks} tasks exceed the placement limit of {} per job \
             (max_tasks_per_job)",
            options.max_tasks_per_job
        ));
    }
    None
}

/// A task that fits on no machine even when the machine is empty.
fn too_large(cluster: &Cluster, d: &Dims, kind: Kind) -> Option<String> {
    let fits_empty = |h: usize| (0..DIMS).all(|r| d[r] <= cluster.limit(h)[r]);
    if (0..cluster.len()).any(fits_empty) {
        return None;
    }
    // A single dimension no machine has enough of, if there is one; else the combination.
    for r in 0..DIMS {
        let most = (0..cluster.len())
            .map(|h| cluster.cap(h)[r])
            .fold(0.0, f64::max);
        if d[r] > most + most * crate::cluster::TOLERANCE {
            return Some(format!(
                "a {} needs {}, more than any machine has (the most is {})",
                kind.name(),
                amount(r, d[r]),
                num(most)
            ));
        }
    }
    Some(format!(
        "no machine has all a {} needs ({}) even when empty",
        kind.name(),
        describe(d)
    ))
}

/// A task of `kind` found no machine with room, with the job's `draft` in place: which task,
/// its demand, and per resource how many machines were short of it (each machine counted
/// once, for the first resource it lacks).
pub(crate) fn no_room(
    cluster: &Cluster,
    draft: &Draft,
    demand: &Demand,
    kind: Kind,
    of: u32,
) -> String {
    let (w, p) = draft.totals();
    let index = match kind {
        Kind::Worker => w + 1,
        Kind::Ps => p + 1,
    };
    let mut short = [0usize; DIMS];
    for h in 0..cluster.len() {
        if let Some(r) = cluster.short(h, &draft.load_plus(demand, h, kind)) {
            short[r] += 1;
        }
    }
    let lacks: Vec<String> = (0..DIMS)
        .filter(|&r| short[r] > 0)
        .map(|r| {
            format!(
                "{} on {}",
                TITLES[r],
                plural(short[r], "machine", "machines")
            )
        })
        .collect();
    let d = demand.kind(kind);
    let shown = if kind == Kind::Ps && d[NIC] > 0.0 && !lacks.iter().any(|l| l.contains("NIC")) {
        // B only matters where a NIC is limited; leave it out when none was short of it.
        let mut v = *d;
        v[NIC] = 0.0;
        describe(&v)
    } else {
        describe(d)
    };
    format!(
        "no machine has room for {} {index} of {of} ({shown}); short of {}",
        kind.name(),
        lacks.join(", ")
    )
}
