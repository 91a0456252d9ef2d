//! Sia's allocation problem, solved exactly (MODEL.md §24.4): each job takes at most one
//! configuration — a GPU type and a number of that type's GPUs — and each type's GPUs are a
//! capacity.
//!
//! ```text
//! max Σ_i Σ_c v[i,c]·X[i,c]
//! s.t. Σ_c X[i,c] ≤ 1                            (every job i)
//!      Σ_i Σ_{c of type t} g(c)·X[i,c] ≤ cap[t]   (every type t)
//!      X[i,pin_i] = 1                            (every pinned job i)
//!      X binary, X[i,c] = 0 where (i,c) is not allowed
//! ```
//!
//! Sia minimises `Σ A·X + λ·(J − Σ X)` with `A` rounded to two decimals; the caller passes
//! `v = round(100·(λ − A))`, in hundredths, so every objective value is a whole number.
//!
//! # Method
//!
//! 1. **Pins and dominance.** Pinned jobs are fixed first and their GPUs taken from the
//!    capacities (more than a type holds is an error). For every other job only the
//!    configurations worth considering stay: value > 0, GPUs within the type's remaining
//!    capacity, and not *dominated* — a configuration of the same type with no more GPUs and
//!    at least the value (equal GPUs and value: the lower index stays). Leaving a job
//!    unallocated (value 0) is always an option.
//! 2. **Bound.** For prices μ_t ≥ 0 of the capacity rows, Lagrangian duality gives
//!    `OPT ≤ L(μ) = Σ_t μ_t·cap_t + Σ_i h_i`, `h_i = max(0, max_c v[i,c] − μ_{t(c)}·g(c))`,
//!    for *any* μ ≥ 0. μ is taken from the LP relaxation's optimal duals
//!    ([`smd_core::lp::multiple_choice`], a GUB simplex, up to 8 types, on each job's
//!    per-type concave hull of (GPUs, value); more types or an LP failure use μ = 0, a
//!    valid but weak bound), then rounded to multiples of 2⁻²⁰. From there on every quantity
//!    is an exact integer in units of 2⁻²⁰ (i128), so the bound and every pruning test are
//!    exact: floating point only *chooses* μ and never enters a proof.
//! 3. **Incumbent.** The LP solution (identical jobs form one LP group: its weights go to
//!    ⌊weight·count⌋ of them in index order) with its fractional jobs left unallocated,
//!    then improved greedily: repeatedly the single-job change of the largest
//!    gain that fits (ties: fewer extra GPUs, then lower job index, then lower config index).
//! 4. **Proof by integrality.** The objective is integral, so an incumbent worth `⌊L(μ)⌋`
//!    is optimal.
//! 5. **Search on reduced costs.** Otherwise, with μ fixed, job i's option c costs the
//!    reduced cost `rc = h_i − (v − μ·g) ≥ 0` (unallocated: `h_i`), and every solution is
//!    worth exactly `L − Σ rc − μ·(capacity left unused)`. A *pass* to a target T is a
//!    depth-first search over the jobs (the *slots*) that keeps a partial solution only
//!    while `value so far + Σ h (rest) + μ·(capacity left) − μ·(capacity the rest cannot
//!    take) ≥ max(T, incumbent + 1)` — the capacity the rest cannot take counted per type
//!    and in all, at the cheapest price — and while the capacity left holds what the rest
//!    must take (each slot's least GPUs among its options usable in the pass). An option
//!    whose reduced cost exceeds the remaining slack is never tried (reduced-cost fixing),
//!    so a slot whose every alternative costs more than the slack is simply fixed at its
//!    best. A memo of (slot, GPUs used per type) → best value so far cuts any partial
//!    solution already met at no lower value (identical jobs — e.g. new jobs — reach the
//!    same states, so their symmetry costs nothing). At every node the completion with all
//!    remaining slots at their best option is tried as an incumbent. Slots are ordered by
//!    the cost of their second-best option, largest first (those are soon fixed, so the
//!    branching happens near the leaves), then by their largest option, smallest first
//!    (on the benchmark's instances several times fewer nodes than largest first), then
//!    identical jobs together, then by job index.
//! 6. **Falling targets.** Passes run with T = ⌊L⌋, ⌊L⌋ − 1, ⌊L⌋ − 3, ⌊L⌋ − 7, … (never below
//!    incumbent + 1). A pass keeps every partial solution that could reach its threshold,
//!    so the best solution it finds at or above T is optimal, and a pass that finds none
//!    proves `OPT < T` (the bound falls to T − 1). A search that ends within the node
//!    limit is therefore a proof; one cut short returns the incumbent with `proven =
//!    false` and the best bound proven so far.
//!
//! # Determinism and ties
//!
//! No clock, no threads, no randomness: the answer is a function of the input alone, the
//! same on every machine (the LP's floating point is IEEE arithmetic without fused
//! operations; rounding μ to a grid makes everything after it integral). The memo is a hash
//! map with a fixed hash that is only ever asked for membership, so it affects speed, never
//! the answer. The work limit is a count of search nodes, never a time.
//!
//! Among equal-valued optima the answer is the first met in this order: the greedy
//! incumbent; then the passes, depth-first in the slot order above, each slot's options by
//! reduced cost and, at equal reduced cost, **lower configuration index first, unallocated
//! last**; a later solution replaces the incumbent only if strictly better. Finally
//! identical jobs (same allowed configurations and values, none pinned) share out their
//! class's configurations in ascending index order, unallocated last, **the lower job
//! index taking the lower configuration**. No invariance under reordering the jobs is
//! promised (the LP's pivots, and so μ, may depend on the order).

// The search indexes several parallel per-type arrays at once.
#![allow(clippy::needless_range_loop)]

use smd_core::lp::multiple_choice::{self, Choice};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub mod sample;

/// One allocation problem. Row `i` of `values` is job `i`; column `c` is configuration `c`.
#[derive(Clone, Copy, Debug)]
pub struct Problem<'a> {
    /// Per job, per configuration: the value of giving the job that configuration (an
    /// integer, e.g. hundredths of Sia's objective), or `None` where it is not allowed.
    /// Every row has one entry per configuration.
    pub values: &'a [Vec<Option<i64>>],
    /// Per configuration: how many GPUs of its type it takes.
    pub gpus: &'a [u32],
    /// Per configuration: its GPU type, an index into `capacity`.
    pub kind: &'a [usize],
    /// Per GPU type: how many GPUs there are.
    pub capacity: &'a [u32],
    /// Per job: the configuration it must keep (e.g. still in checkpoint-restore), if any.
    /// Either one entry per job or empty (nothing pinned).
    pub pinned: &'a [Option<usize>],
}

/// A deterministic work limit (never a clock, so answers do not depend on machine speed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most branch-and-bound nodes to visit; the answer is proven only if the search ends
    /// within it (or the first incumbent already meets the bound).
    pub nodes: u64,
}

impl Default for Limits {
    /// A million nodes: far more than the realistic instances need (docs/BENCHMARKS.md).
    fn default() -> Self {
        Limits { nodes: 1_000_000 }
    }
}

/// The best allocation found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Per job, its configuration, or `None` for unallocated. Always feasible; pinned jobs
    /// hold their pins.
    pub choice: Vec<Option<usize>>,
    /// The allocation's objective, Σ v over allocated jobs (pinned ones included).
    pub value: i64,
    /// An upper bound on the optimum: `value ≤ bound`, equal to `value` when proven.
    pub bound: i64,
    /// Whether `value` is proven optimal.
    pub proven: bool,
    /// Search nodes visited (0 when the first incumbent met the bound).
    pub nodes: u64,
}

/// Largest |value| accepted, so that sums and the scaled arithmetic cannot overflow.
pub const MAX_ABS_VALUE: i64 = 1 << 40;
/// Most jobs accepted (with [`MAX_ABS_VALUE`], any sum of values fits an i64).
pub const MAX_JOBS: usize = 1 << 20;

/// μ's grid: prices are multiples of 2⁻²⁰, and scaled quantities are units of 2⁻²⁰.
const SCALE_BITS: u32 = 20;
const SCALE: i128 = 1 << SCALE_BITS;

/// Solves the problem; `Err` (never a panic) when the input is inconsistent: lengths that
/// disagree, a type index out of range, a value beyond ±[`MAX_ABS_VALUE`], more than
/// [`MAX_JOBS`] jobs, a pin to a configuration that is out of range or not allowed, or
/// pinned jobs that alone exceed a type's capacity.
///
/// ```
/// use smd_hetero::milp::{solve, Limits, Problem};
/// // Two jobs, one type of 4 GPUs; configurations: 1, 2 and 4 GPUs.
/// let values = vec![
///     vec![Some(10), Some(50), Some(55)], // a running job
///     vec![Some(10), Some(-40), None],    // a new job
/// ];
/// let p = Problem {
///     values: &values,
///     gpus: &[1, 2, 4],
///     kind: &[0, 0, 0],
///     capacity: &[4],
///     pinned: &[],
/// };
/// let a = solve(&p, &Limits::default()).unwrap();
/// assert_eq!(a.choice, vec![Some(1), Some(0)]); // 2 GPUs and 1 GPU: 50 + 10 > 55
/// assert!(a.proven && a.value == 60 && a.bound == 60);
/// ```
pub fn solve(p: &Problem<'_>, limits: &Limits) -> Result<Answer, String> {
    check(p)?;
    let jobs = p.values.len();
    let kinds = p.capacity.len();
    let mut choice = vec![None; jobs];
    let mut rem: Vec<i64> = p.capacity.iter().map(|&c| i64::from(c)).collect();
    let mut pinned_value = 0i64;
    let mut is_pinned = vec![false; jobs];
    for (i, pin) in p.pinned.iter().enumerate() {
        if let Some(c) = *pin {
            let v = p.values[i][c].ok_or_else(|| {
                format!("job {i} is pinned to configuration {c}, which it is not allowed")
            })?;
            choice[i] = Some(c);
            is_pinned[i] = true;
            rem[p.kind[c]] -= i64::from(p.gpus[c]);
            pinned_value += v;
        }
    }
    if let Some(t) = (0..kinds).find(|&t| rem[t] < 0) {
        return Err(format!(
            "pinned jobs take {} GPUs of type {t}, which has {}",
            i64::from(p.capacity[t]) - rem[t],
            p.capacity[t]
        ));
    }

    // Free jobs with at least one configuration worth considering.
    let free: Vec<Free> = (0..jobs)
        .filter(|&i| !is_pinned[i])
        .filter_map(|i| candidates(p, i, &rem))
        .collect();
    let mut search = Search::new(&free, &rem);
    search.run(limits.nodes);

    let mut value = pinned_value;
    for (j, f) in free.iter().enumerate() {
        let opt = &search.options[search.slot_of_job[j]][search.best[j] as usize];
        if let Some(cand) = opt.cand {
            let c = &f.cands[cand];
            choice[f.job] = Some(c.config);
            value += c.value;
        }
    }
    canonicalise(&free, &mut choice);
    let proven = search.proven;
    let bound = if proven {
        value
    } else {
        pinned_value + search.bound
    };
    Ok(Answer {
        choice,
        value,
        bound,
        proven,
        nodes: search.nodes,
    })
}

fn check(p: &Problem<'_>) -> Result<(), String> {
    let configs = p.gpus.len();
    if p.kind.len() != configs {
        return Err(format!(
            "{} configurations have GPU counts but {} have types",
            configs,
            p.kind.len()
        ));
    }
    if let Some(c) = (0..configs).find(|&c| p.kind[c] >= p.capacity.len()) {
        return Err(format!(
            "configuration {c} has type {}, but there are {} types",
            p.kind[c],
            p.capacity.len()
        ));
    }
    if p.values.len() > MAX_JOBS {
        return Err(format!("{} jobs (at most {MAX_JOBS})", p.values.len()));
    }
    if !p.pinned.is_empty() && p.pinned.len() != p.values.len() {
        return Err(format!(
            "{} jobs but {} pin entries",
            p.values.len(),
            p.pinned.len()
        ));
    }
    for (i, row) in p.values.iter().enumerate() {
        if row.len() != configs {
            return Err(format!(
                "job {i} has {} values for {configs} configurations",
                row.len()
            ));
        }
        if let Some(c) = (0..configs).find(|&c| row[c].is_some_and(|v| v.abs() > MAX_ABS_VALUE)) {
            return Err(format!(
                "job {i}'s value for configuration {c} is beyond ±{MAX_ABS_VALUE}"
            ));
        }
    }
    if let Some(i) = (0..p.pinned.len()).find(|&i| p.pinned[i].is_some_and(|c| c >= configs)) {
        return Err(format!(
            "job {i} is pinned to configuration {}, but there are {configs}",
            p.pinned[i].unwrap_or(0)
        ));
    }
    Ok(())
}

/// A configuration a free job may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Cand {
    config: usize,
    value: i64,
    gpus: i64,
    kind: usize,
}

/// A free job and its undominated candidates (by configuration index).
struct Free {
    job: usize,
    cands: Vec<Cand>,
}

fn candidates(p: &Problem<'_>, i: usize, rem: &[i64]) -> Option<Free> {
    let mut all: Vec<Cand> = (0..p.gpus.len())
        .filter_map(|c| {
            let v = p.values[i][c]?;
            let (g, t) = (i64::from(p.gpus[c]), p.kind[c]);
            (v > 0 && g <= rem[t]).then_some(Cand {
                config: c,
                value: v,
                gpus: g,
                kind: t,
            })
        })
        .collect();
    // Per type, by GPUs, the better value first, then the lower index: a candidate stays
    // only if it beats every one before it in its type.
    all.sort_by_key(|c| (c.kind, c.gpus, std::cmp::Reverse(c.value), c.config));
    let mut kept = Vec::new();
    let mut best: Option<(usize, i64)> = None;
    for c in all {
        if best.is_none_or(|(t, v)| t != c.kind || c.value > v) {
            best = Some((c.kind, c.value));
            kept.push(c);
        }
    }
    kept.sort_by_key(|c| c.config);
    (!kept.is_empty()).then_some(Free {
        job: i,
        cands: kept,
    })
}

/// Identical free jobs get their class's configurations in ascending order (unallocated
/// last), the lower job index the lower configuration.
fn canonicalise(free: &[Free], choice: &mut [Option<usize>]) {
    let mut order: Vec<usize> = (0..free.len()).collect();
    order.sort_by(|&a, &b| {
        free[a]
            .cands
            .cmp(&free[b].cands)
            .then(free[a].job.cmp(&free[b].job))
    });
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && free[order[end]].cands == free[order[start]].cands {
            end += 1;
        }
        if end - start > 1 {
            let mut got: Vec<Option<usize>> = order[start..end]
                .iter()
                .map(|&k| choice[free[k].job])
                .collect();
            got.sort_by_key(|c| c.unwrap_or(usize::MAX));
            for (&k, c) in order[start..end].iter().zip(got) {
                choice[free[k].job] = c;
            }
        }
        start = end;
    }
}

/// One option of a job in the search: a candidate or unallocated (`cand: None`).
#[derive(Clone, Copy, Debug)]
struct Opt {
    /// Reduced cost at the prices μ, scaled by 2²⁰ (≥ 0; 0 for the best option).
    rc: i128,
    cand: Option<usize>,
    value: i64,
    gpus: i64,
    kind: usize,
}

struct Search {
    kinds: usize,
    cap: Vec<i64>,
    /// Prices, scaled by 2²⁰.
    mu: Vec<i128>,
    /// ⌊L(μ)⌋: the free jobs' bound.
    bound: i64,
    /// Per slot (search order), its options by (reduced cost, config index, unallocated last).
    options: Vec<Vec<Opt>>,
    /// Per slot: the least cost of leaving a slot's best option, over it and the later
    /// slots (the order puts the costly ones first).
    alt: Vec<i128>,
    /// Suffix sums from each slot: the best options' value and their GPUs per type.
    suffix_value: Vec<i64>,
    suffix_gpus: Vec<i64>,
    /// Set per pass by [`Search::reach`], from each slot on: per type the most and the
    /// least GPUs the slots can or must take, and in all the least and the most.
    suffix_max: Vec<i64>,
    need: Vec<i64>,
    need_all: Vec<i64>,
    max_all: Vec<i64>,
    /// Per free job (input order): the rank of its option in the incumbent.
    best: Vec<u32>,
    /// The free jobs' incumbent value.
    incumbent: i64,
    /// Per slot, Σ h over it and the later slots (scaled).
    suffix_h: Vec<i128>,
    /// Free job of each slot, and slot of each free job.
    job_of_slot: Vec<usize>,
    slot_of_job: Vec<usize>,
    nodes: u64,
    proven: bool,
}

impl Search {
    fn new(free: &[Free], rem: &[i64]) -> Search {
        let kinds = rem.len();
        let (prices, lp_choice) = lp(free, rem);
        let vmax = free
            .iter()
            .flat_map(|f| f.cands.iter().map(|c| c.value))
            .max()
            .unwrap_or(0);
        let mu: Vec<i128> = prices
            .iter()
            .map(|&m| {
                let m = if m.is_finite() { m.max(0.0) } else { 0.0 };
                // Any μ ≥ 0 gives a bound; beyond the largest value a price changes nothing.
                let m = m.min((vmax + 1) as f64);
                (m * SCALE as f64).round() as i128
            })
            .collect();
        let mut bound_scaled: i128 = (0..kinds).map(|t| mu[t] * i128::from(rem[t])).sum();
        let mut per_job: Vec<Vec<Opt>> = Vec::with_capacity(free.len());
        for f in free {
            let reduced = |c: &Cand| i128::from(c.value) * SCALE - mu[c.kind] * i128::from(c.gpus);
            let h = f.cands.iter().map(reduced).max().unwrap_or(0).max(0);
            bound_scaled += h;
            let mut opts: Vec<Opt> = f
                .cands
                .iter()
                .enumerate()
                .map(|(k, c)| Opt {
                    rc: h - reduced(c),
                    cand: Some(k),
                    value: c.value,
                    gpus: c.gpus,
                    kind: c.kind,
                })
                .collect();
            opts.push(Opt {
                rc: h,
                cand: None,
                value: 0,
                gpus: 0,
                kind: 0,
            });
            opts.sort_by_key(|o| (o.rc, o.cand.map_or(usize::MAX, |k| f.cands[k].config)));
            per_job.push(opts);
        }
        // (Beyond i64 only with absurd capacities; any larger number is still a bound.)
        let bound = i64::try_from(bound_scaled / SCALE).unwrap_or(i64::MAX / 4);

        // The search order (module documentation, step 5): the second-best option's cost,
        // largest first; the largest option, smallest first; identical jobs adjacent; job
        // index.
        let mut order: Vec<usize> = (0..free.len()).collect();
        order.sort_by(|&a, &b| {
            let most = |k: usize| free[k].cands.iter().map(|c| c.gpus).max();
            per_job[b][1]
                .rc
                .cmp(&per_job[a][1].rc)
                .then_with(|| most(a).cmp(&most(b)))
                .then_with(|| free[a].cands.cmp(&free[b].cands))
                .then(free[a].job.cmp(&free[b].job))
        });
        let n = order.len();
        let mut options = Vec::with_capacity(n);
        let mut alt = Vec::with_capacity(n);
        for &k in &order {
            alt.push(per_job[k][1].rc);
            options.push(std::mem::take(&mut per_job[k]));
        }
        let mut suffix_value = vec![0i64; n + 1];
        let mut suffix_gpus = vec![0i64; (n + 1) * kinds];
        let mut suffix_h = vec![0i128; n + 1];
        // The cheapest deviation from the best option over each slot and the later ones.
        let mut alt_min = vec![i128::MAX; n + 1];
        for s in (0..n).rev() {
            alt_min[s] = alt_min[s + 1].min(alt[s]);
        }
        for s in (0..n).rev() {
            let h = options[s]
                .iter()
                .find(|o| o.cand.is_none())
                .map_or(0, |o| o.rc);
            suffix_h[s] = suffix_h[s + 1] + h;
            let o = &options[s][0];
            suffix_value[s] = suffix_value[s + 1] + o.value;
            for t in 0..kinds {
                suffix_gpus[s * kinds + t] = suffix_gpus[(s + 1) * kinds + t];
            }
            if o.cand.is_some() {
                suffix_gpus[s * kinds + o.kind] += o.gpus;
            }
        }
        let mut search = Search {
            kinds,
            cap: rem.to_vec(),
            mu,
            bound,
            options,
            alt: alt_min,
            suffix_value,
            suffix_gpus,
            suffix_max: Vec::new(),
            need: Vec::new(),
            need_all: Vec::new(),
            max_all: Vec::new(),
            suffix_h,
            best: vec![0; free.len()],
            incumbent: 0,
            slot_of_job: {
                let mut inv = vec![0; n];
                for (s, &j) in order.iter().enumerate() {
                    inv[j] = s;
                }
                inv
            },
            job_of_slot: order,
            nodes: 0,
            proven: false,
        };
        let start = search.greedy(free, &lp_choice);
        search.set_incumbent(&start);
        search
    }

    /// The LP's integral part (fractional jobs unallocated), improved by the best
    /// single-job change that fits until none gains. Returns per free job its candidate.
    fn greedy(&self, free: &[Free], lp_choice: &[Option<usize>]) -> Vec<Option<usize>> {
        let kinds = self.kinds;
        let mut pick: Vec<Option<usize>> = lp_choice.to_vec();
        let mut left = self.cap.clone();
        for (f, c) in free.iter().zip(&pick) {
            if let Some(k) = *c {
                left[f.cands[k].kind] -= f.cands[k].gpus;
            }
        }
        if left.iter().any(|&l| l < 0) {
            // Cannot happen for an LP answer that was checked, but stay safe.
            pick = vec![None; free.len()];
            left = self.cap.clone();
        }
        debug_assert_eq!(left.len(), kinds);
        loop {
            // (gain, extra GPUs, job, candidate)
            let mut best: Option<(i64, i64, usize, usize)> = None;
            for (j, f) in free.iter().enumerate() {
                let (cur_v, cur_g, cur_t) = pick[j].map_or((0, 0, usize::MAX), |k| {
                    let c = &f.cands[k];
                    (c.value, c.gpus, c.kind)
                });
                for (k, c) in f.cands.iter().enumerate() {
                    let gain = c.value - cur_v;
                    if gain <= 0 {
                        continue;
                    }
                    let freed = if c.kind == cur_t { cur_g } else { 0 };
                    if c.gpus - freed > left[c.kind] {
                        continue;
                    }
                    let extra = c.gpus - freed;
                    let better = match best {
                        None => true,
                        Some((bg, be, _, _)) => gain > bg || (gain == bg && extra < be),
                    };
                    if better {
                        best = Some((gain, extra, j, k));
                    }
                }
            }
            let Some((_, _, j, k)) = best else {
                return pick;
            };
            if let Some(old) = pick[j] {
                left[free[j].cands[old].kind] += free[j].cands[old].gpus;
            }
            left[free[j].cands[k].kind] -= free[j].cands[k].gpus;
            pick[j] = Some(k);
        }
    }

    fn set_incumbent(&mut self, pick: &[Option<usize>]) {
        let mut value = 0;
        for (s, &j) in self.job_of_slot.iter().enumerate() {
            let rank = self.options[s]
                .iter()
                .position(|o| o.cand == pick[j])
                .unwrap_or(self.options[s].len() - 1);
            self.best[j] = rank as u32;
            value += self.options[s][rank].value;
        }
        self.incumbent = value;
    }

    /// Passes with falling targets ⌊L⌋, ⌊L⌋ − 1, ⌊L⌋ − 3, ⌊L⌋ − 7, …; see the module
    /// documentation.
    fn run(&mut self, limit: u64) {
        let top = self.bound;
        let mut drop = 0i64;
        while self.incumbent < self.bound {
            let target = (top - drop).max(self.incumbent + 1);
            if !self.pass(target, limit) {
                return;
            }
            if self.incumbent >= target {
                // The pass kept every partial solution that could reach its threshold, so
                // the best it met is the optimum.
                break;
            }
            // Nothing reaches the target.
            self.bound = target - 1;
            drop = 2 * drop + 1;
        }
        self.bound = self.incumbent;
        self.proven = true;
    }

    /// One pass: a depth-first search for the solutions worth at least
    /// `max(target, incumbent + 1)`, remembering each (slot, GPU use) already explored at a
    /// value at least as high. `false` when the node limit stopped it.
    fn pass(&mut self, target: i64, limit: u64) -> bool {
        let n = self.options.len();
        let kinds = self.kinds;
        // Keys (slot, GPU use) as one mixed-radix number, when it fits in 128 bits.
        let radix: Option<u128> = self
            .cap
            .iter()
            .try_fold(n as u128 + 1, |p, &c| p.checked_mul(c as u128 + 1));
        let mut seen: HashMap<u128, i64, BuildMix> = HashMap::default();
        self.reach(target);
        let mut rank = vec![0u32; n];
        let mut used = vec![0i64; kinds];
        let mut acc_value = 0i64;
        let mut depth = 0usize;
        let mut entering = true;
        loop {
            let mut next = None;
            if entering {
                self.nodes += 1;
                if self.nodes > limit {
                    self.nodes = limit;
                    return false;
                }
                let fits = (0..kinds)
                    .all(|t| used[t] + self.suffix_gpus[depth * kinds + t] <= self.cap[t]);
                let total = acc_value + self.suffix_value[depth];
                if fits && total > self.incumbent {
                    self.record(&rank, depth, total);
                    if self.incumbent >= self.bound {
                        return true;
                    }
                }
                if depth < n {
                    let slack = self.slack(depth, &used, acc_value, target);
                    let repeated = radix.is_some() && {
                        let key = used
                            .iter()
                            .zip(&self.cap)
                            .fold(depth as u128, |k, (&u, &c)| k * (c as u128 + 1) + u as u128);
                        match seen.get(&key) {
                            Some(&v) if v >= acc_value => true,
                            _ => {
                                seen.insert(key, acc_value);
                                false
                            }
                        }
                    };
                    if slack >= 0
                        && self.alt[depth] <= slack
                        && !repeated
                        && self.room(depth, &used)
                    {
                        next = self.first_fit(depth, 0, slack, &used);
                    }
                }
            } else {
                let o = self.options[depth][rank[depth] as usize];
                acc_value -= o.value;
                if o.cand.is_some() {
                    used[o.kind] -= o.gpus;
                }
                let slack = self.slack(depth, &used, acc_value, target);
                next = self.first_fit(depth, rank[depth] + 1, slack, &used);
            }
            match next {
                Some(r) => {
                    let o = self.options[depth][r as usize];
                    rank[depth] = r;
                    acc_value += o.value;
                    if o.cand.is_some() {
                        used[o.kind] += o.gpus;
                    }
                    depth += 1;
                    entering = true;
                }
                None => {
                    if depth == 0 {
                        return true;
                    }
                    depth -= 1;
                    entering = false;
                }
            }
        }
    }

    /// For a pass to `target`: the options any solution worth `target` could use (reduced
    /// cost within the root's slack), and from each slot on, per type, the most GPUs they
    /// could take (`suffix_max`), the least they must take (`need`: slots whose usable
    /// options all lie on that type), and the least they must take in all (`need_all`).
    fn reach(&mut self, target: i64) {
        let (n, kinds) = (self.options.len(), self.kinds);
        let root: i128 = self.suffix_h[0]
            + (0..kinds)
                .map(|t| self.mu[t] * i128::from(self.cap[t]))
                .sum::<i128>()
            - i128::from(target) * SCALE;
        self.suffix_max = vec![0; (n + 1) * kinds];
        self.need = vec![0; (n + 1) * kinds];
        self.need_all = vec![0; n + 1];
        self.max_all = vec![0; n + 1];
        for d in (0..n).rev() {
            let usable = || self.options[d].iter().take_while(|o| o.rc <= root);
            let least = usable().map(|o| if o.cand.is_some() { o.gpus } else { 0 });
            self.need_all[d] = self.need_all[d + 1] + least.min().unwrap_or(0);
            let most = usable().map(|o| if o.cand.is_some() { o.gpus } else { 0 });
            self.max_all[d] = self.max_all[d + 1] + most.max().unwrap_or(0);
            let one_kind = usable().all(|o| o.cand.is_some())
                && usable().map(|o| o.kind).min() == usable().map(|o| o.kind).max();
            for t in 0..kinds {
                let at = d * kinds + t;
                let most = usable()
                    .filter(|o| o.cand.is_some() && o.kind == t)
                    .map(|o| o.gpus)
                    .max()
                    .unwrap_or(0);
                self.suffix_max[at] = self.suffix_max[at + kinds] + most;
                let must = if one_kind && usable().any(|o| o.kind == t) {
                    usable().map(|o| o.gpus).min().unwrap_or(0)
                } else {
                    0
                };
                self.need[at] = self.need[at + kinds] + must;
            }
        }
    }

    /// Whether the capacity left can hold what the slots from `depth` on must take.
    fn room(&self, depth: usize, used: &[i64]) -> bool {
        let kinds = self.kinds;
        let mut left_all = 0;
        for t in 0..kinds {
            let left = self.cap[t] - used[t];
            if left < self.need[depth * kinds + t] {
                return false;
            }
            left_all += left;
        }
        left_all >= self.need_all[depth]
    }

    /// How much reduced cost the slots from `depth` on may still carry for a completion of
    /// this partial solution to reach `max(target, incumbent + 1)`: its Lagrangian bound
    /// (value so far + Σ h of the rest + μ·capacity left), less μ times the capacity the
    /// rest cannot use, less the threshold (all scaled by 2²⁰).
    fn slack(&self, depth: usize, used: &[i64], acc_value: i64, target: i64) -> i128 {
        let threshold = target.max(self.incumbent + 1);
        let mut slack =
            i128::from(acc_value) * SCALE + self.suffix_h[depth] - i128::from(threshold) * SCALE;
        // Capacity left unused at the end costs μ per GPU: at least what each type's
        // remaining options cannot take, and in all at least what the slots cannot take
        // (the excess priced at the cheapest type).
        let (mut short_all, mut left_all, mut cheapest) = (0i64, 0i64, i128::MAX);
        for t in 0..self.kinds {
            let left = self.cap[t] - used[t];
            let short = (left - self.suffix_max[depth * self.kinds + t]).max(0);
            slack += self.mu[t] * i128::from(left - short);
            short_all += short;
            left_all += left;
            cheapest = cheapest.min(self.mu[t]);
        }
        let excess = left_all - self.max_all[depth] - short_all;
        if excess > 0 {
            slack -= cheapest * i128::from(excess);
        }
        slack
    }

    /// The first option at `depth`, from rank `from`, within the slack that fits.
    fn first_fit(&self, depth: usize, from: u32, slack: i128, used: &[i64]) -> Option<u32> {
        let opts = &self.options[depth];
        for (r, o) in opts.iter().enumerate().skip(from as usize) {
            if o.rc > slack {
                return None;
            }
            if o.cand.is_none() || used[o.kind] + o.gpus <= self.cap[o.kind] {
                return Some(r as u32);
            }
        }
        None
    }

    /// A new incumbent worth `value`: slots before `depth` at their ranks, the rest at
    /// their best.
    fn record(&mut self, rank: &[u32], depth: usize, value: i64) {
        for (s, &j) in self.job_of_slot.iter().enumerate() {
            self.best[j] = if s < depth { rank[s] } else { 0 };
        }
        self.incumbent = value;
    }
}

/// The LP relaxation's prices and its integral part (per free job, its candidate where the
/// LP gives it weight 1, `None` where it is unallocated or fractional). Without an LP
/// (more than 8 types, or a solver failure) the prices are 0 and nothing is allocated.
fn lp(free: &[Free], rem: &[i64]) -> (Vec<f64>, Vec<Option<usize>>) {
    let out = match rem.len() {
        1 => lp_r::<1>(free, rem),
        2 => lp_r::<2>(free, rem),
        3 => lp_r::<3>(free, rem),
        4 => lp_r::<4>(free, rem),
        5 => lp_r::<5>(free, rem),
        6 => lp_r::<6>(free, rem),
        7 => lp_r::<7>(free, rem),
        8 => lp_r::<8>(free, rem),
        _ => None,
    };
    out.unwrap_or_else(|| (vec![0.0; rem.len()], vec![None; free.len()]))
}

fn lp_r<const R: usize>(free: &[Free], rem: &[i64]) -> Option<(Vec<f64>, Vec<Option<usize>>)> {
    // Identical jobs make one group, its values and demands times their number (the LP
    // relaxation of m identical jobs is m times one job's convex combination).
    let mut order: Vec<usize> = (0..free.len()).collect();
    order.sort_by(|&a, &b| free[a].cands.cmp(&free[b].cands).then(a.cmp(&b)));
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &k in &order {
        match classes.last_mut() {
            Some(c) if free[c[0]].cands == free[k].cands => c.push(k),
            _ => classes.push(vec![k]),
        }
    }
    // Per class, the candidate behind each LP option after the first (unallocated).
    let hulls: Vec<Vec<usize>> = classes.iter().map(|c| hull(&free[c[0]].cands)).collect();
    let groups: Vec<Vec<Choice<R>>> = classes
        .iter()
        .zip(&hulls)
        .map(|(class, h)| {
            let m = class.len() as f64;
            let mut g = Vec::with_capacity(h.len() + 1);
            g.push(Choice {
                value: 0.0,
                demand: [0.0; R],
            });
            for &k in h {
                let c = &free[class[0]].cands[k];
                let mut demand = [0.0; R];
                demand[c.kind] = m * c.gpus as f64;
                g.push(Choice {
                    value: m * c.value as f64,
                    demand,
                });
            }
            g
        })
        .collect();
    let mut cap = [0.0; R];
    for (t, &r) in rem.iter().enumerate() {
        cap[t] = r as f64;
    }
    let sol = multiple_choice::solve(&groups, &cap).ok()?;
    // Each option of weight w goes to ⌊w·m⌋ of the class's jobs (in order), the rest
    // unallocated.
    let mut pick = vec![None; free.len()];
    for ((class, h), w) in classes.iter().zip(&hulls).zip(&sol.weights) {
        let mut members = class.iter();
        for &(o, weight) in w {
            let count = (weight * class.len() as f64 + 1e-9).floor() as usize;
            for &k in members.by_ref().take(count) {
                pick[k] = if o > 0 { h.get(o - 1).copied() } else { None };
            }
        }
    }
    Some((sol.dual.to_vec(), pick))
}

/// The candidates on each type's upper concave hull of (GPUs, value) from (0, 0): the only
/// ones an LP optimum needs (any other is a mix of hull points and unallocated, no better).
/// Candidates are undominated, so within a type more GPUs means more value.
fn hull(cands: &[Cand]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&k| (cands[k].kind, cands[k].gpus));
    let mut out: Vec<usize> = Vec::with_capacity(cands.len());
    let mut start = 0;
    while start < order.len() {
        let kind = cands[order[start]].kind;
        let mut end = start;
        while end < order.len() && cands[order[end]].kind == kind {
            end += 1;
        }
        // Monotone chain from the origin: drop a point on or below the chord of its
        // neighbours.
        let mut chain: Vec<usize> = Vec::new();
        for &k in &order[start..end] {
            let (x, y) = (i128::from(cands[k].gpus), i128::from(cands[k].value));
            while let Some(&b) = chain.last() {
                let (bx, by) = (i128::from(cands[b].gpus), i128::from(cands[b].value));
                let (ax, ay) = match chain.len() {
                    1 => (0, 0),
                    n => {
                        let a = chain[n - 2];
                        (i128::from(cands[a].gpus), i128::from(cands[a].value))
                    }
                };
                // b is under or on the chord a→(x, y) when (b − a)×((x, y) − a) ≥ 0.
                if (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0 {
                    chain.pop();
                } else {
                    break;
                }
            }
            chain.push(k);
        }
        out.extend(chain);
        start = end;
    }
    out.sort_unstable();
    out
}

/// A fixed (unseeded) hash for the search's memo of u128 keys: only membership is ever
/// asked of the map, so the hash affects speed, never the answer.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        let z = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = z ^ (z >> 29);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

type BuildMix = BuildHasherDefault<Mix>;
