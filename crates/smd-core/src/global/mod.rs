//! docs/MODEL.md §9, policy **global**: the true optimum of the joint problem — every job's
//! integer (w, p) and the admitted set chosen together — as a multiple-choice
//! multi-dimensional knapsack over each job's Pareto set of allocations.
//!
//! 1. [`pareto`]: a job's options are its integer points of Ω that no componentwise-smaller
//!    point matches in utility (demand grows with w and p); options of zero utility or that
//!    exceed the cluster are dropped. Huge boxes are thinned (the plan then says so).
//! 2. [`dual`]: prices y for the four capacities minimising the Lagrangian L(y), the LP
//!    relaxation's value — an upper bound on the optimum.
//! 3. [`incumbent`]: a first plan — the LP's choice at y repaired to fit, or a seed —
//!    improved by local search.
//! 4. [`search`]: reduced-cost fixing leaves a small core of open jobs; a depth-first
//!    branch and bound over it proves the optimum, or reports its best plan and a true upper
//!    bound when its budget (nodes or time) ends.

mod dual;
mod incumbent;
mod pareto;
mod search;
#[cfg(test)]
mod tests;

#[cfg(test)]
use dual::lagrangian;
use dual::priced;
pub use dual::{relaxed_bound, Dual};
pub use incumbent::size;
pub use pareto::{pareto, thinned_box, Option_, MAX_BOX};
pub use search::Report;

/// A clock in ms and the reading at which the bounded phases stop early (`None`: never).
pub type Deadline<'a> = Option<(&'a dyn Fn() -> f64, f64)>;

/// Whether `deadline` has passed.
pub(crate) fn past(deadline: Deadline) -> bool {
    deadline.is_some_and(|(clock, at)| clock() > at)
}

use crate::knapsack::{Limits, R};

/// The joint optimum's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Per job: `Some((w, p))` if admitted.
    pub chosen: Vec<Option<(u64, u64)>>,
    /// Σ utility.
    pub value: f64,
    /// Best upper bound when the search stopped (= value when proven).
    pub bound: f64,
    /// Whether the optimum is proven.
    pub proven_optimal: bool,
    /// Nodes expanded.
    pub nodes: u64,
    /// Options per job after the Pareto filter, summed.
    pub options: u64,
    /// Jobs left open after reduced-cost fixing.
    pub core: usize,
    /// The prices of the LP relaxation used for the bounds.
    pub dual: Dual,
}

/// Solves the multiple-choice knapsack over `options[i]` (job i's Pareto set) within the
/// node and time limits, starting from the better of the LP's repaired choice and `start`
/// (a feasible `(w, p)` or nothing per job, e.g. another policy's plan).
pub fn solve(
    options: &[Vec<Option_>],
    cap: &[f64; R],
    start: Option<&[Option<(u64, u64)>]>,
    limits: &Limits,
    report: &mut dyn FnMut(Report),
) -> Joint {
    let t_start = limits.clock.map(|c| c());
    let deadline: Deadline = limits
        .clock
        .zip(limits.time_ms)
        .zip(t_start)
        .map(|((c, ms), t0)| (c, t0 + ms));
    // The prices and the first plan are bounded work (a few hundred evaluations of L and
    // of the local search), each O(options) — seconds with millions of options — so they
    // stop at the deadline too, each with a valid answer: the best prices so far (any y
    // bounds), a repair that drops the overloading jobs, the local search's current plan.
    // The prices get 40% of what is left, so that a first plan has time to be repaired
    // and improved.
    let prices_by: Deadline = deadline
        .zip(t_start)
        .map(|((c, at), t0)| (c, t0 + 0.4 * (at - t0)));
    let dual = dual::solve(options, cap, prices_by);
    let mut first = incumbent::from_prices(options, cap, &dual.y, deadline);
    incumbent::improve(options, cap, &mut first, deadline);
    if let Some(start) = start {
        let mut seeded = incumbent::dominating(options, start);
        // A Pareto option never demands more than what it covers; check it all the same.
        let fits = crate::knapsack::fits_all(&incumbent::demand(options, &seeded), cap);
        if fits {
            incumbent::improve(options, cap, &mut seeded, deadline);
        }
        if fits && incumbent::value(options, &seeded) > incumbent::value(options, &first) {
            first = seeded;
        }
    }
    let left = limits
        .time_ms
        .zip(limits.clock)
        .zip(t_start)
        .map(|((b, c), t0)| b - (c() - t0));
    let out = search::search(
        options,
        cap,
        &dual,
        first,
        &Limits {
            nodes: limits.nodes,
            time_ms: left,
            clock: limits.clock,
        },
        report,
    );
    Joint {
        chosen: out
            .choice
            .iter()
            .zip(options)
            .map(|(c, o)| c.map(|k| (o[k].w, o[k].p)))
            .collect(),
        value: out.value,
        bound: out.bound.min(dual.value).max(out.value),
        proven_optimal: out.proven,
        nodes: out.nodes,
        options: options.iter().map(|o| o.len() as u64).sum(),
        core: out.core,
        dual,
    }
}

/// Most searches [`solve_set_aside`] runs before it stops unproven.
const SET_ASIDE_ROUNDS: usize = 4;

/// [`solve`] where some jobs' options were set aside (`aside[i]`: too many to search at
/// once, MODEL.md §9, *Guarantee and limits*). After each search, at its prices y, a
/// set-aside option can be in a plan better than the best found only if its reduced cost
/// (its job's best reduced value over every option, less its own) is at most
/// `L(y) − best`, with L over every option — the search's own reduced-cost test. Such
/// options join their jobs' options and the search runs again from its best plan; when
/// none is left, the search's answer, bound and proof hold for every option. Returns the
/// answer and the options searched last.
pub fn solve_set_aside(
    mut options: Vec<Vec<Option_>>,
    mut aside: Vec<Vec<Option_>>,
    cap: &[f64; R],
    start: Option<&[Option<(u64, u64)>]>,
    limits: &Limits,
    report: &mut dyn FnMut(Report),
) -> (Joint, Vec<Vec<Option_>>) {
    let t0 = limits.clock.map(|c| c());
    let left = || {
        limits
            .time_ms
            .zip(limits.clock)
            .zip(t0)
            .map(|((b, c), t0)| (b - (c() - t0)).max(0.0))
    };
    let mut joint = solve(&options, cap, start, limits, report);
    for round in 0.. {
        if aside.iter().all(Vec::is_empty) {
            break;
        }
        let y = joint.dual.y;
        let reduced = |o: &Option_| o.utility - priced(&y, &o.demand);
        let best: Vec<f64> = options
            .iter()
            .zip(&aside)
            .map(|(a, b)| a.iter().chain(b).map(reduced).fold(0.0, f64::max))
            .collect();
        let l_all = priced(&y, cap) + best.iter().sum::<f64>();
        let tol = 1e-11 * l_all.abs().max(1.0);
        let gap = l_all - joint.value + tol;
        let mut joined = false;
        for ((opts, set), &pi) in options.iter_mut().zip(&mut aside).zip(&best) {
            let before = set.len();
            set.retain(|o| {
                let keep_aside = pi - reduced(o) > gap;
                if !keep_aside {
                    opts.push(*o);
                }
                keep_aside
            });
            if set.len() < before {
                // The Pareto set's order, (w, p), so that identical jobs stay identical.
                opts.sort_by_key(|o| (o.w, o.p));
                joined = true;
            }
        }
        if !joined {
            break;
        }
        if round + 1 == SET_ASIDE_ROUNDS || left().is_some_and(|ms| ms <= 0.0) {
            // Options that might do better were never searched: an honest bound.
            joint.proven_optimal = false;
            joint.bound = joint.bound.max(l_all);
            break;
        }
        let from: Vec<Option<(u64, u64)>> = joint.chosen.clone();
        joint = solve(
            &options,
            cap,
            Some(&from),
            &Limits {
                nodes: limits.nodes,
                time_ms: left(),
                clock: limits.clock,
            },
            report,
        );
    }
    (joint, options)
}
