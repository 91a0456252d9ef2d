//! SMD's allocation stage for one job: Algorithm 1 (+ polish), then Algorithm 2.

use super::assemble::Candidate;
use super::Clock;
use crate::choice::InnerSolver;
use crate::error::Error;
use crate::inner::{self, InnerStats};
use crate::model::JobModel;
use crate::observe::{Event, Observer, Quiet};
use crate::plan::Stats;
use crate::rng::{stream_of, Stream};
use crate::rounding;
use crate::scenario::{Job, Params, Scenario};

/// Algorithm 1 (+ polish) and Algorithm 2 for one feasible job: the candidate, the inner
/// work, and the rounding time. `obs` hears both algorithms (docs/MODEL.md §20).
pub(super) fn smd_allocation<O: Observer>(
    job: &Job,
    m: &JobModel,
    p: &Params,
    solver: InnerSolver,
    clock: Clock,
    obs: &mut O,
) -> Result<(Candidate, InnerStats, f64), Error> {
    let sol = inner::solve_observed(m, p.epsilon, solver, obs).map_err(|e| e.for_job(&job.id))?;
    let mut x = sol.x;
    if p.polish {
        let pp = m.best_p_for(x[0]);
        let (before, after) = (m.t(x[0], x[1]), m.t(x[0], pp));
        if O::LISTENS && obs.on() {
            obs.event(Event::Polish {
                x,
                p: pp,
                t_before: before,
                t_after: after,
                applied: after <= before,
            });
        }
        if after <= before {
            x[1] = pp;
        }
    }
    let t1 = clock();
    let mut rng = Stream::new(p.seed, stream_of(&job.id));
    let r = rounding::round_observed(
        m,
        x,
        p.m_delta,
        p.max_rounding_attempts,
        p.rounding,
        &mut rng,
        obs,
    );
    let ms = clock() - t1;
    Ok((
        Candidate::at(m, r.w, r.p, Some((sol.x, sol.t)), Some(r.attempts)),
        sol.stats,
        ms,
    ))
}

/// [`smd_allocation`] through the cache when there is one, adding the work it stands for to
/// `stats` (a cached entry carries its original counts, so plans are the same either way; a
/// cached job tells `obs` nothing, so a trace plans without a cache).
#[allow(clippy::too_many_arguments)]
pub(super) fn smd_cached<O: Observer>(
    job: &Job,
    m: &JobModel,
    scenario: &Scenario,
    solver: InnerSolver,
    mut cache: Option<&mut super::Cache>,
    clock: Clock,
    stats: &mut Stats,
    obs: &mut O,
) -> Result<Candidate, Error> {
    let key = cache
        .as_ref()
        .map(|_| super::cache::cache_key(job, scenario, solver));
    let hit = match (cache.as_mut(), key) {
        (Some(cache), Some(k)) => cache.get(k),
        _ => None,
    };
    let (c, work, rounding_ms) = match hit {
        // The key leaves the utility out: recompute it from T (as `Candidate::at` does).
        Some((c, work, ms)) => (
            Candidate {
                utility: m.mu(m.pi(c.t)),
                ..c
            },
            work,
            ms,
        ),
        None => {
            let found = smd_allocation(job, m, &scenario.params, solver, clock, obs)?;
            if let (Some(cache), Some(k)) = (cache, key) {
                cache.put(k, found.clone());
            }
            found
        }
    };
    account(stats, &work, rounding_ms, &c);
    Ok(c)
}

/// Adds one allocation's inner work and rounding to `stats`.
fn account(stats: &mut Stats, work: &InnerStats, rounding_ms: f64, c: &Candidate) {
    super::assemble::add_inner(stats, work);
    stats.rounding_ms += rounding_ms;
    stats.rounding_attempts += u64::from(c.attempts.unwrap_or(0));
}

/// `smd_locality`'s allocation of one job (docs/MODEL.md §16): SMD's `spread` allocation
/// and SMD on each co-located configuration, each priced in the fastest configuration it
/// fits; the most utility per dominant share of the cluster's capacity `cap` wins (ties
/// keep the spread one).
#[allow(clippy::too_many_arguments)]
pub(super) fn smd_locality(
    job: &Job,
    m: &JobModel,
    colocated: &[JobModel],
    spread: Candidate,
    scenario: &Scenario,
    solver: InnerSolver,
    clock: Clock,
    cap: &[f64; 4],
    stats: &mut Stats,
) -> Result<Candidate, Error> {
    let per_share = |c: &Candidate| {
        let d = m.demand(c.w as f64, c.p as f64);
        let share = (0..4)
            .filter(|&r| cap[r] > 0.0)
            .map(|r| d[r] / cap[r])
            .fold(0.0, f64::max);
        if share > 0.0 {
            c.utility / share
        } else {
            f64::INFINITY
        }
    };
    let priced = |c: Candidate| Candidate::at_in(m, colocated, c.w, c.p, c.relaxed, c.attempts);
    let mut best = priced(spread);
    for col in colocated {
        let (c, work, ms) = smd_allocation(job, col, &scenario.params, solver, clock, &mut Quiet)?;
        account(stats, &work, ms, &c);
        let c = priced(c);
        if per_share(&c) > per_share(&best) {
            best = c;
        }
    }
    Ok(best)
}
