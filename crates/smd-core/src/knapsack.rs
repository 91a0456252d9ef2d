//! docs/MODEL.md §8: admission as a multi-dimensional 0/1 knapsack
//! `max Σ u_i x_i` s.t. `Σ D_i x_i ≤ capacity` over R = 4 resources.
//!
//! Two methods: the Frieze–Clarke scheme at depth q (the paper's), and an exact branch and
//! bound with LP bounds.
//!
//! **The guarantee of depth q** is `q/(q+R)` (0 for q = 0), not the `(q+1)/(q+R+1)` that the
//! mapping `q = ⌈R/ε⌉ − (R+1)` of docs/MODEL.md suggests. Proof: let S be the q most valuable items
//! of an optimum O (if |O| ≤ q, S = O and the scheme is exact). The LP with S fixed to 1 and
//! T(S) to 0 admits O, so its value is ≥ OPT; a basic solution has ≤ R fractional items, each
//! worth ≤ m = min_S u, so the rounded value is ≥ OPT − R·m, and also ≥ u(S) ≥ q·m. Hence
//! ≥ q/(q+R)·OPT. An instance with R = 1, q = 1 reaching 1/2 < 2/3 is in the tests.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;
use crate::kp_lp;
use crate::observe::{Event, Observer, SubsetOutcome};
use crate::omega::fits;

mod branch_and_bound;
#[cfg(test)]
use branch_and_bound::branch_and_bound;
pub(crate) use branch_and_bound::branch_and_bound_observed;
#[cfg(any(test, feature = "internals"))]
pub use branch_and_bound::branch_and_bound_with;
pub use branch_and_bound::{Limits, NODE_LIMIT};

/// Number of resources R: the model's (the items are generic over it, the planner's have R).
pub(crate) use crate::cluster::R;

/// One candidate job: its utility and its demand over R resources (4 in the planner).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item<const R: usize = 4> {
    /// u_i.
    pub value: f64,
    /// D_i.
    pub demand: [f64; R],
}

/// An admission decision.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Selection {
    /// x_i.
    pub chosen: Vec<bool>,
    /// Σ u_i x_i.
    pub value: f64,
    /// LPs solved.
    pub lp_solves: u64,
    /// Proven lower bound on value / OPT (1 when proven optimal).
    pub guarantee: f64,
    /// Whether optimality is proven.
    pub proven_optimal: bool,
    /// (upper bound − value) / upper bound when the exact search stopped early.
    pub gap: Option<f64>,
    /// Branch-and-bound nodes, or Frieze–Clarke subsets tried.
    pub nodes: u64,
}

impl Selection {
    /// No item of `n` chosen yet, with the method's `guarantee`.
    fn nothing(n: usize, guarantee: f64) -> Selection {
        Selection {
            chosen: vec![false; n],
            value: 0.0,
            lp_solves: 0,
            guarantee,
            proven_optimal: false,
            gap: None,
            nodes: 0,
        }
    }
}

/// Whether `demand` fits in `cap` (with the crate's tolerance).
pub fn fits_all<const R: usize>(demand: &[f64; R], cap: &[f64; R]) -> bool {
    (0..R).all(|r| fits(demand[r], cap[r]))
}

fn add<const R: usize>(a: &mut [f64; R], b: &[f64; R]) {
    for r in 0..R {
        a[r] += b[r];
    }
}

/// Items worth admitting at all: positive value and fitting alone.
fn eligible<const R: usize>(items: &[Item<R>], cap: &[f64; R]) -> Vec<usize> {
    (0..items.len())
        .filter(|&i| items[i].value > 0.0 && fits_all(&items[i].demand, cap))
        .collect()
}

/// The guarantee `q/(q+R)` of Frieze–Clarke at depth q with the planner's R = 4 (the tests'
/// shorthand for [`guarantee_for`]).
#[cfg(test)]
pub(crate) fn guarantee(q: u32) -> f64 {
    guarantee_for(q, R)
}

/// The guarantee `q/(q+r)` of Frieze–Clarke at depth q with r constraints (module docs).
pub fn guarantee_for(q: u32, r: usize) -> f64 {
    f64::from(q) / (f64::from(q) + r as f64)
}

/// LP relaxation over `free` items with capacity `cap`: a basic optimum with its duals.
fn relax<const R: usize>(items: &[Item<R>], free: &[usize], cap: &[f64; R]) -> kp_lp::Relaxation {
    let c: Vec<f64> = free.iter().map(|&i| items[i].value).collect();
    let a: Vec<[f64; R]> = free.iter().map(|&i| items[i].demand).collect();
    kp_lp::solve(&c, &a, &cap.map(|v| v.max(0.0)))
}

/// LP relaxation over `free` items with capacity `cap`: (value, x) of a basic optimum.
fn lp_relax<const R: usize>(items: &[Item<R>], free: &[usize], cap: &[f64; R]) -> (f64, Vec<f64>) {
    let rel = relax(items, free, cap);
    (rel.value, rel.x)
}

/// Default LP work of one Frieze–Clarke run (`Budget::work`): the number of items summed
/// over its LPs. A unit is tens of ns of simplex, so this is about a minute: a bound for
/// callers without a clock, far above what any plan in the tests and benchmarks needs
/// (esw on 10^5 jobs, BENCHMARKS.md §4: < 10^8); callers with a clock stop at their budget.
pub const FC_WORK_LIMIT: u64 = 1_000_000_000;

/// When Frieze–Clarke stops early (docs/MODEL.md §13): a deterministic cap on its LP work,
/// and a deadline read on an injected clock. Stopped, it returns the best selection found
/// with an honest status: no q/(q+R) guarantee (its enumeration did not finish), the
/// guarantee and gap against the LP relaxation's value instead.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Most LP work (items summed over the LPs solved).
    pub work: u64,
    /// A clock in ms and the reading at which to stop.
    pub deadline: Option<(&'a dyn Fn() -> f64, f64)>,
    /// Stop once the best selection is within this much value of the LP relaxation's
    /// (an upper bound on the optimum): no subset left can add more. `None`: enumerate to
    /// the end.
    pub slack: Option<f64>,
}

impl Default for Budget<'_> {
    fn default() -> Self {
        Budget {
            work: FC_WORK_LIMIT,
            deadline: None,
            slack: None,
        }
    }
}

impl Budget<'_> {
    /// Whether the deadline has passed (never without one).
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|(clock, at)| clock() > at)
    }
}

/// Frieze–Clarke at depth `q` (docs/MODEL.md §8), heard by no one (the planner calls
/// [`frieze_clarke_observed`]).
#[cfg(test)]
pub fn frieze_clarke<const R: usize>(
    items: &[Item<R>],
    cap: &[f64; R],
    q: u32,
) -> Result<Selection, Error> {
    frieze_clarke_with(
        items,
        cap,
        q,
        true,
        &Budget::default(),
        &mut crate::observe::Quiet,
    )
}

/// [`frieze_clarke`] within `budget`, telling `obs` about every subset it reaches
/// (docs/MODEL.md §20).
pub(crate) fn frieze_clarke_observed<O: Observer>(
    items: &[Item],
    cap: &[f64; R],
    q: u32,
    budget: &Budget,
    obs: &mut O,
) -> Result<Selection, Error> {
    frieze_clarke_with(items, cap, q, true, budget, obs)
}

/// [`frieze_clarke`], with the skipping of hopeless subsets switchable so that a test can
/// check it changes no selection, within `budget`.
pub(crate) fn frieze_clarke_with<const R: usize, O: Observer>(
    items: &[Item<R>],
    cap: &[f64; R],
    q: u32,
    skip_ahead: bool,
    budget: &Budget,
    obs: &mut O,
) -> Result<Selection, Error> {
    let elig = eligible(items, cap);
    let mut best = Selection::nothing(items.len(), guarantee_for(q, R));
    // Pruning that changes nothing: every item the LP of S may use has u ≤ min_S u, so it lies
    // in the suffix (by value, descending) that starts at min_S u's first position. With y the
    // optimal duals of that suffix's LP at full capacity, weak duality bounds S's LP by
    // LP(suffix) − y·D(S); S can only replace the best with a strictly larger value.
    let mut by_value = elig.clone();
    by_value.sort_by(|&a, &b| items[b].value.total_cmp(&items[a].value).then(a.cmp(&b)));
    // A first, O(1) bound from the duals y0 of the whole LP: for the suffix from k,
    // LP ≤ y0·(cap − D(S)) + Σ_{suffix} max(0, u − y0·D).
    let whole = relax(items, &by_value, cap);
    let (y0, lp_all) = (whole.dual, whole.value);
    best.lp_solves += u64::from(!by_value.is_empty());
    // LP work so far (items summed over the LPs), and subsets since the clock was read.
    let mut work = by_value.len() as u64;
    let mut unread = 0u32;
    let mut pruning = Pruning::new(items, cap, &y0, by_value);
    let skip = SkipAhead::new(items, &elig, &y0, cap, q, &|k| {
        pruning.tail[pruning.first_of(items[elig[k]].value)]
    });
    let mut s: Vec<usize> = Vec::new(); // indices into `elig`
    loop {
        // The budget is checked before every subset but the first (∅, the LP's rounding,
        // always completes, so a spent budget still gives an answer): the clock after
        // every subset that solved an LP, else every 256 subsets.
        let read = !s.is_empty() && unread >= 256;
        if read {
            unread = 0;
        }
        if !s.is_empty() && (work > budget.work || (read && budget.past_deadline())) {
            stopped_early(&mut best, lp_all);
            return Ok(best);
        }
        if !s.is_empty()
            && budget
                .slack
                .is_some_and(|slack| best.value >= lp_all - slack)
        {
            // Within the slack of an upper bound on the optimum: what is left of the
            // enumeration could add at most that.
            stopped_early(&mut best, lp_all);
            best.proven_optimal = best.value >= lp_all;
            return Ok(best);
        }
        unread += 1;
        let work_before = work;
        let mut used = [0.0; R];
        for &k in &s {
            add(&mut used, &items[elig[k]].demand);
        }
        let fits = fits_all(&used, cap);
        if fits {
            best.nodes += 1;
            let min_s = s
                .iter()
                .map(|&k| items[elig[k]].value)
                .fold(f64::INFINITY, f64::min);
            let u_s: f64 = s.iter().map(|&k| items[elig[k]].value).sum();
            let start = if s.is_empty() {
                0
            } else {
                pruning.first_of(min_s)
            };
            let (hopeless, bound_seen) = pruning.hopeless(
                start,
                u_s,
                &used,
                best.value,
                &mut best.lp_solves,
                &mut work,
            );
            let outcome = if hopeless {
                SubsetOutcome::Hopeless {
                    bound: bound_seen,
                    best: best.value,
                }
            } else {
                let done = complete_subset(items, &elig, &s, min_s, used, cap, &mut best.lp_solves);
                work += done.free.len() as u64;
                let improved = done.value > best.value;
                let outcome = if O::LISTENS && obs.on() {
                    done.outcome(&s, &elig, improved)
                } else {
                    SubsetOutcome::TooBig
                };
                if improved {
                    best.value = done.value;
                    best.chosen = done.chosen;
                }
                outcome
            };
            if O::LISTENS && obs.on() {
                obs.event(Event::Subset {
                    members: s.iter().map(|&k| elig[k]).collect(),
                    value: u_s,
                    outcome,
                });
            }
        } else if O::LISTENS && obs.on() {
            obs.event(Event::Subset {
                members: s.iter().map(|&k| elig[k]).collect(),
                value: s.iter().map(|&k| items[elig[k]].value).sum(),
                outcome: SubsetOutcome::TooBig,
            });
        }
        if work > work_before {
            // An LP costs far more than a clock read: read it before the next subset.
            unread = 256;
        }
        // A subset that does not fit has no superset that fits: do not extend it. The next
        // subset starts at the first index that may start a winning extension of its prefix.
        let first_useful = |p: &[usize], k: usize| match skip_ahead {
            true => skip.first_useful(p, k, best.value),
            false => k,
        };
        if !next_subset_with(&mut s, elig.len(), q as usize, fits, first_useful) {
            break;
        }
    }
    Ok(best)
}

/// Frieze–Clarke stopped by its budget: `best` is what it has, its guarantee and gap measured
/// against the whole LP's value `lp_all`.
fn stopped_early(best: &mut Selection, lp_all: f64) {
    best.proven_optimal = false;
    best.guarantee = if lp_all > 0.0 {
        (best.value / lp_all).min(1.0)
    } else {
        1.0
    };
    best.gap = Some(if lp_all > 0.0 {
        ((lp_all - best.value) / lp_all).max(0.0)
    } else {
        0.0
    });
}

/// Frieze–Clarke's pruning that changes nothing (see [`frieze_clarke_with`]): the eligible
/// items by value (descending), the duals `y0` of the whole LP, the reduced tail of every
/// suffix ([`reduced_tail`]) and the suffixes' LPs, each solved once when first needed.
struct Pruning<'a, const R: usize> {
    items: &'a [Item<R>],
    cap: &'a [f64; R],
    y0: &'a [f64],
    by_value: Vec<usize>,
    tail: Vec<f64>,
    suffix_lp: Vec<Option<(f64, Vec<f64>)>>,
}

impl<'a, const R: usize> Pruning<'a, R> {
    /// The pruning of `by_value` (the eligible items by value, descending) with the whole
    /// LP's duals `y0`; no suffix LP solved yet.
    fn new(items: &'a [Item<R>], cap: &'a [f64; R], y0: &'a [f64], by_value: Vec<usize>) -> Self {
        Pruning {
            items,
            cap,
            y0,
            tail: reduced_tail(items, &by_value, y0),
            suffix_lp: vec![None; by_value.len() + 1],
            by_value,
        }
    }

    /// The first position in `by_value` of an item worth at most `v`.
    fn first_of(&self, v: f64) -> usize {
        self.by_value.partition_point(|&i| self.items[i].value > v)
    }

    /// Whether a subset worth `u_s`, using `used`, whose fill comes from the suffix at
    /// `start`, cannot beat `best`, and the bound that says so: the quick bound first; only
    /// if it passes, the suffix's LP (counted in `lp_solves` and `work`).
    fn hopeless(
        &mut self,
        start: usize,
        u_s: f64,
        used: &[f64; R],
        best: f64,
        lp_solves: &mut u64,
        work: &mut u64,
    ) -> (bool, f64) {
        let (y0, cap) = (self.y0, self.cap);
        let quick = (0..R)
            .map(|r| y0[r] * (cap[r] - used[r]).max(0.0))
            .sum::<f64>()
            + self.tail[start];
        if u_s + quick + 1e-9 * (u_s + quick).abs() <= best {
            return (true, u_s + quick);
        }
        let (items, by_value) = (self.items, &self.by_value);
        let (lp, y) = self.suffix_lp[start].get_or_insert_with(|| {
            *lp_solves += 1;
            *work += (by_value.len() - start) as u64;
            let rel = relax(items, &by_value[start..], cap);
            (rel.value, rel.dual)
        });
        let bound = *lp - (0..R).map(|r| y[r] * used[r]).sum::<f64>();
        (u_s + bound + 1e-9 * (u_s + *lp).abs() <= best, u_s + bound)
    }
}

/// `tail[p]` = Σ over `by_value[p..]` of the reduced values `max(0, u − y0·D)`.
fn reduced_tail<const R: usize>(items: &[Item<R>], by_value: &[usize], y0: &[f64]) -> Vec<f64> {
    let mut tail = vec![0.0; by_value.len() + 1];
    for p in (0..by_value.len()).rev() {
        let it = &items[by_value[p]];
        let reduced = it.value - (0..R).map(|r| y0[r] * it.demand[r]).sum::<f64>();
        tail[p] = tail[p + 1] + reduced.max(0.0);
    }
    tail
}

/// What completing one subset gave: the selection and its value, and the LP it came from
/// (its items `free` and their values `x`), which only a trace reads.
struct Completion {
    value: f64,
    chosen: Vec<bool>,
    free: Vec<usize>,
    x: Vec<f64>,
}

impl Completion {
    /// The trace's account of it, for the subset `s` (indices into `elig`).
    fn outcome(&self, s: &[usize], elig: &[usize], best: bool) -> SubsetOutcome {
        let fill = (0..self.chosen.len())
            .filter(|&i| self.chosen[i] && !s.iter().any(|&k| elig[k] == i))
            .collect();
        let fractional = self
            .free
            .iter()
            .zip(&self.x)
            .filter(|(_, &v)| v > 1e-9 && v < 1.0 - 1e-9)
            .map(|(&i, &v)| (i, v))
            .collect();
        SubsetOutcome::Filled {
            fill,
            fractional,
            total: self.value,
            best,
        }
    }
}

/// Frieze–Clarke's completion of a fitting S (`s`: indices into `elig`, least value `min_s`,
/// demand `used`): S, plus the LP over the items worth at most `min_s` on the capacity left,
/// rounded down and repaired.
fn complete_subset<const R: usize>(
    items: &[Item<R>],
    elig: &[usize],
    s: &[usize],
    min_s: f64,
    used: [f64; R],
    cap: &[f64; R],
    lp_solves: &mut u64,
) -> Completion {
    let free: Vec<usize> = (0..elig.len())
        .filter(|k| !s.contains(k) && items[elig[*k]].value <= min_s)
        .map(|k| elig[k])
        .collect();
    let rest: [f64; R] = std::array::from_fn(|r| cap[r] - used[r]);
    let (_, x) = lp_relax(items, &free, &rest);
    *lp_solves += u64::from(!free.is_empty());
    let mut chosen = vec![false; items.len()];
    for &k in s {
        chosen[elig[k]] = true;
    }
    // Round down; a value within 1e-9 of 1 is a basic 1.
    let mut picked: Vec<usize> = free
        .iter()
        .zip(&x)
        .filter(|(_, &v)| v >= 1.0 - 1e-9)
        .map(|(&i, _)| i)
        .collect();
    repair(items, &mut picked, used, cap);
    for i in picked {
        chosen[i] = true;
    }
    let value: f64 = (0..items.len())
        .filter(|&i| chosen[i])
        .map(|i| items[i].value)
        .sum();
    Completion {
        value,
        chosen,
        free,
        x,
    }
}

/// Drops the least valuable picks until they fit (guards the LP's round-off only).
fn repair<const R: usize>(
    items: &[Item<R>],
    picked: &mut Vec<usize>,
    base: [f64; R],
    cap: &[f64; R],
) {
    picked.sort_by(|&a, &b| items[b].value.total_cmp(&items[a].value).then(a.cmp(&b)));
    loop {
        let mut used = base;
        for &i in picked.iter() {
            add(&mut used, &items[i].demand);
        }
        if fits_all(&used, cap) || picked.is_empty() {
            return;
        }
        picked.pop();
    }
}

/// Frieze–Clarke's skipping of subsets that cannot pass its quick test. For a fitting
/// S' = P ∪ A (A after P's last item, used(S') ≤ cap + tol), with ρ_a = u_a − y0·D_a:
/// quick(S') ≤ u_P + y0·(cap − D(P)) + y0·tol + Σ_A ρ_a + tail(first_of(u_a)) for any a ∈ A.
/// `pot[room−1][k]` bounds the last two terms over every A whose first item is k and with
/// |A| ≤ room; the next item after a prefix P is the first k whose potential can beat the
/// best. Everything skipped would fail the quick test (now or later, as the best only
/// grows), so the selection is the one the plain enumeration finds.
struct SkipAhead<'a, const R: usize> {
    items: &'a [Item<R>],
    elig: &'a [usize],
    y0: &'a [f64],
    cap: &'a [f64; R],
    q: usize,
    pot: Vec<MaxTree>,
    y0_tol: f64,
}

impl<'a, const R: usize> SkipAhead<'a, R> {
    /// `tail(k)`: the reduced tail from the first position of elig[k]'s value.
    fn new(
        items: &'a [Item<R>],
        elig: &'a [usize],
        y0: &'a [f64],
        cap: &'a [f64; R],
        q: u32,
        tail: &dyn Fn(usize) -> f64,
    ) -> Self {
        let rho: Vec<f64> = elig
            .iter()
            .map(|&i| items[i].value - (0..R).map(|r| y0[r] * items[i].demand[r]).sum::<f64>())
            .collect();
        let alone: Vec<f64> = (0..elig.len()).map(|k| rho[k] + tail(k)).collect();
        // ext[k] = best potential of a set of the current size drawn from elig[k..].
        let mut pot: Vec<MaxTree> = Vec::with_capacity(q as usize);
        let mut ext = vec![f64::NEG_INFINITY; elig.len() + 1];
        let mut cur = alone.clone();
        for room in 1..=(q as usize).max(1) {
            if room > 1 {
                // Sets of size `room` starting at k: k, then a set of size room−1 after k.
                cur = (0..elig.len())
                    .map(|k| alone[k].max(rho[k] + ext[k + 1]))
                    .collect();
            }
            for k in (0..elig.len()).rev() {
                ext[k] = ext[k + 1].max(cur[k]);
            }
            pot.push(MaxTree::new(&cur));
        }
        let y0_tol = (0..R)
            .map(|r| y0[r] * crate::omega::TOL * cap[r].abs().max(1.0))
            .sum();
        SkipAhead {
            items,
            elig,
            y0,
            cap,
            q: q as usize,
            pot,
            y0_tol,
        }
    }

    /// The first index ≥ `from` that may start a winning extension of `prefix`.
    fn first_useful(&self, prefix: &[usize], from: usize, best: f64) -> usize {
        let room = self.q.saturating_sub(prefix.len()).max(1);
        let mut used = [0.0; R];
        let mut u_p = 0.0;
        for &k in prefix {
            add(&mut used, &self.items[self.elig[k]].demand);
            u_p += self.items[self.elig[k]].value;
        }
        let slack: f64 = (0..R).map(|r| self.y0[r] * (self.cap[r] - used[r])).sum();
        let base = u_p + slack + self.y0_tol;
        // base + pot + 1e-9·|base + pot| > best, solved for pot with a safe margin.
        let need = best - base - 1e-9 * (best.abs() + base.abs()) - 1e-12;
        self.pot[room - 1].first_above(from, need)
    }
}

/// Next subset of {0..n} of size ≤ q in the order ∅, {0}, {0,1}, …, {0,1,…}, {0,2}, …;
/// with `extend` false the supersets of the current subset are skipped.
#[cfg(test)]
fn next_subset(s: &mut Vec<usize>, n: usize, q: usize, extend: bool) -> bool {
    next_subset_with(s, n, q, extend, |_, k| k)
}

/// [`next_subset`] that also skips, at every position, the items before
/// `first(prefix, k)`: the first item ≥ k that may follow `prefix` (n when none).
fn next_subset_with(
    s: &mut Vec<usize>,
    n: usize,
    q: usize,
    extend: bool,
    first: impl Fn(&[usize], usize) -> usize,
) -> bool {
    if extend && s.len() < q {
        let start = first(s, s.last().map_or(0, |&l| l + 1));
        if start < n {
            s.push(start);
            return true;
        }
    }
    while let Some(last) = s.pop() {
        let k = first(s, last + 1);
        if k < n {
            s.push(k);
            return true;
        }
    }
    false
}

/// Maxima over a fixed array, answering "the first index ≥ from whose value exceeds x".
struct MaxTree {
    /// Leaves at `size..size + n`; node i holds the max of its children.
    node: Vec<f64>,
    size: usize,
    n: usize,
}

impl MaxTree {
    fn new(values: &[f64]) -> MaxTree {
        let size = values.len().next_power_of_two().max(1);
        let mut node = vec![f64::NEG_INFINITY; 2 * size];
        node[size..size + values.len()].copy_from_slice(values);
        for i in (1..size).rev() {
            node[i] = node[2 * i].max(node[2 * i + 1]);
        }
        MaxTree {
            node,
            size,
            n: values.len(),
        }
    }

    /// The first index ≥ `from` with a value > `x`, or `n` if there is none.
    fn first_above(&self, from: usize, x: f64) -> usize {
        if from >= self.n {
            return self.n;
        }
        // Walk up from the leaf, looking right; then down into the first subtree that holds one.
        let mut i = from + self.size;
        if self.node[i] > x {
            return from;
        }
        loop {
            // Move to the next subtree to the right at the lowest level possible.
            while i % 2 == 1 {
                i /= 2;
                if i <= 1 {
                    return self.n;
                }
            }
            i += 1;
            if self.node[i] > x {
                break;
            }
        }
        while i < self.size {
            i = if self.node[2 * i] > x {
                2 * i
            } else {
                2 * i + 1
            };
        }
        (i - self.size).min(self.n)
    }
}

#[cfg(test)]
mod tests;
