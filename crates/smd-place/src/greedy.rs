//! The job-by-job policies: `first_fit` (docs/PLACEMENT.md §6, in [`crate::first_fit`]),
//! `spread` (§7) and `dltap` (§8) place a job task by task; `locality` (§9, in
//! [`crate::colocate`]) a job at a time.
//! A job is drafted and committed whole or dropped (§2).

use crate::cluster::{Cluster, Demand, Draft, Kind};
use crate::colocate;
use crate::first_fit::{first_fit, Failed};
use crate::input::{Job, Machine, Options};
use crate::output::Share;
use crate::policy::Policy;
use crate::reason;

/// Every job in order with a heuristic policy: its shares, or why it was not placed.
pub(crate) fn place_all(
    machines: &[Machine],
    jobs: &[Job],
    policy: Policy,
    options: &Options,
) -> Vec<Result<Vec<Share>, String>> {
    let mut cluster = Cluster::new(machines);
    let mut draft = Draft::new(machines.len());
    jobs.iter()
        .map(|job| {
            let demand = Demand::of(job);
            if let Some(why) = reason::before(&cluster, job, options) {
                return Err(why);
            }
            let tried = match policy {
                Policy::FirstFit => first_fit(&cluster, &mut draft, &demand, job),
                Policy::Spread => best_score(&cluster, &mut draft, &demand, job, |_, f| f),
                Policy::Dltap => {
                    let lambda = options.dltap_lambda;
                    best_score(&cluster, &mut draft, &demand, job, |a, f| {
                        lambda * a + (1.0 - lambda) * f
                    })
                }
                // `exact` never comes here (it calls each heuristic by name); treat it as
                // `locality` rather than panic.
                Policy::Locality | Policy::Exact => {
                    colocate::place_job(&cluster, &mut draft, &demand, job)
                }
            };
            match tried {
                Ok(()) => {
                    let shares = draft.take();
                    cluster.commit(&demand, &shares);
                    Ok(shares)
                }
                Err(why) => {
                    draft.clear();
                    Err(why)
                }
            }
        })
        .collect()
}

/// §7 and §8: PSs, then workers, each to the feasible machine with the highest
/// `score(a, f)` (ties: the lowest index), where f is the machine's free dominant share
/// after placing the task (§5) and a the aggregation degree (§8).
fn best_score(
    cluster: &Cluster,
    draft: &mut Draft,
    demand: &Demand,
    job: &Job,
    score: impl Fn(f64, f64) -> f64,
) -> Result<(), Failed> {
    for (kind, n) in [(Kind::Ps, job.ps), (Kind::Worker, job.workers)] {
        for _ in 0..n {
            let mut best: Option<(f64, usize)> = None;
            for h in 0..cluster.len() {
                let load = draft.load_plus(demand, h, kind);
                if !cluster.fits(h, &load) {
                    continue;
                }
                let s = score(aggregation(draft, h, kind), cluster.free_share(h, &load));
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, h));
                }
            }
            match best {
                Some((_, h)) => draft.add(h, kind, 1),
                None => return Err(reason::no_room(cluster, draft, demand, kind, n)),
            }
        }
    }
    Ok(())
}

/// §8: the aggregation degree of machine h for the job's next task of `kind`: the share of
/// the job's already placed tasks of the other kind that are on h; while none of the other
/// kind is placed (every PS, as PSs go first), the share of its placed tasks of the same
/// kind; 0 for the job's first task.
fn aggregation(draft: &Draft, h: usize, kind: Kind) -> f64 {
    let (w, p) = draft.totals();
    let (wh, ph) = draft.at(h);
    let (other, other_h, same, same_h) = match kind {
        Kind::Worker => (p, ph, w, wh),
        Kind::Ps => (w, wh, p, ph),
    };
    if other > 0 {
        other_h as f64 / other as f64
    } else if same > 0 {
        same_h as f64 / same as f64
    } else {
        0.0
    }
}
