//! `exact` (docs/PLACEMENT.md §10): the best placement in the order
//! *more jobs placed, then less Σ X, then fewer machines used*, by branch and bound over
//! each job's distributions over the machines.
//!
//! - **Start.** The best of the four heuristics in that order is the incumbent; the search
//!   only replaces it by a strictly better placement, so `exact` is never worse than any
//!   heuristic, proven or not.
//! - **Branching.** Jobs in the given order; for each, every way to put its w workers and
//!   p PSs on the machines that fits what earlier jobs left, best (least X, then fewest new
//!   machines) first, and last the branch that leaves the job out.
//! - **Symmetry.** Machines of the same type (capacity, NIC and local rate alike) that are
//!   in the same state (the same loads to the bit, both occupied or both empty) are
//!   interchangeable: among them a job's shares are enumerated in non-increasing order
//!   only, so one of each set of mirror-image distributions is tried.
//! - **Bound.** A node cannot beat the incumbent if even the best imaginable completion
//!   would not: every remaining job placed, each at the least X it has alone on the empty
//!   cluster (capacity only shrinks, so its X can only be higher), on as few new machines as
//!   the remaining demand needs beyond the free room of the machines already in use. A
//!   completion that leaves a job out places fewer, so it is below the bound too.
//! - **Limit.** Every search node and every step of a job's enumeration counts against
//!   `Options::exact_max_nodes`; at the limit the best placement found is returned with
//!   `proven: Some(false)`.
// A dimension indexes several arrays at once (capacity, use, demand).
#![allow(clippy::needless_range_loop)]

use crate::assemble::assemble;
use crate::cluster::{Cluster, Demand, Dims, Kind, DIMS};
use crate::greedy;
use crate::input::{Job, Machine, Options};
use crate::output::{Placement, Share};
use crate::reason;
use smd_core::locality::cross_traffic_gbit;

/// A placement's value in `exact`'s order.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key {
    placed: usize,
    x: f64,
    machines: usize,
}

impl Key {
    /// Strictly better: more placed, or as many and less X (beyond a relative 1e-9, so
    /// that summation order cannot decide), or the same X and fewer machines.
    fn better(&self, other: &Key) -> bool {
        if self.placed != other.placed {
            return self.placed > other.placed;
        }
        let eps = 1e-9 * self.x.abs().max(other.x.abs());
        if (self.x - other.x).abs() > eps {
            return self.x < other.x;
        }
        self.machines < other.machines
    }
}

type Decision = Result<Vec<Share>, String>;

/// Per job its shares, or `None` when it is left out.
type Choice = Vec<Option<Vec<Share>>>;

fn job_x(job: &Job, shares: &[Share]) -> f64 {
    let f: Vec<(f64, f64)> = shares
        .iter()
        .map(|s| (s.workers as f64, s.ps as f64))
        .collect();
    cross_traffic_gbit(job.gradient_gbit, &f)
}

/// The value of the heuristics' answer, summed in job order as `assemble` does.
fn key_of(machines: usize, jobs: &[Job], decisions: &[Decision]) -> Key {
    let mut key = Key {
        placed: 0,
        x: 0.0,
        machines: 0,
    };
    let mut used = vec![false; machines];
    for (job, d) in jobs.iter().zip(decisions) {
        if let Ok(shares) = d {
            key.placed += 1;
            key.x += job_x(job, shares);
            for s in shares {
                used[s.machine] |= s.workers > 0 || s.ps > 0;
            }
        }
    }
    key.machines = used.iter().filter(|&&u| u).count();
    key
}

pub(crate) fn place(machines: &[Machine], jobs: &[Job], options: &Options) -> Placement {
    let mut incumbent: Option<(Key, Vec<Decision>)> = None;
    for policy in crate::policy::HEURISTICS {
        let d = greedy::place_all(machines, jobs, policy, options);
        let key = key_of(machines.len(), jobs, &d);
        if incumbent.as_ref().is_none_or(|(best, _)| key.better(best)) {
            incumbent = Some((key, d));
        }
    }
    let (best, start) = incumbent.unzip();
    let (found, proven) = search(machines, jobs, options, best);
    let chosen: Choice = match (found, start) {
        (Some((_, found)), _) => found,
        (None, Some(start)) => start.into_iter().map(Result::ok).collect(),
        (None, None) => vec![None; jobs.len()], // unreachable: HEURISTICS is not empty
    };
    let placed = chosen.iter().filter(|c| c.is_some()).count();
    let empty = Cluster::new(machines);
    let decisions = chosen
        .into_iter()
        .zip(jobs)
        .map(|(c, job)| {
            c.ok_or_else(|| {
                reason::before(&empty, job, options)
                    .unwrap_or_else(|| left_out(placed, jobs.len(), proven, options))
            })
        })
        .collect();
    assemble(machines, jobs, decisions, Some(proven))
}

/// The branch and bound from an incumbent of value `best` (`None`: no incumbent): the best
/// placement found that is strictly better, if any, and whether the search finished.
fn search(
    machines: &[Machine],
    jobs: &[Job],
    options: &Options,
    best: Option<Key>,
) -> (Option<(Key, Choice)>, bool) {
    let mut search = Search::new(machines, jobs, options, best);
    search.prepare();
    search.visit(
        0,
        Key {
            placed: 0,
            x: 0.0,
            machines: 0,
        },
    );
    (search.found, !search.aborted)
}

fn left_out(placed: usize, of: usize, proven: bool, options: &Options) -> String {
    let most = if proven {
        "the most possible".to_string()
    } else {
        format!(
            "the most found within exact_max_nodes = {}",
            options.exact_max_nodes
        )
    };
    format!(
        "no placement fits every job together; exact places {placed} of {of} \
         jobs ({most}) and this one is not among them"
    )
}

/// Machine types: machines with the same capacity, NIC and local rate (to the bit) share a
/// class number.
fn classes(machines: &[Machine]) -> Vec<usize> {
    let bits = |m: &Machine| {
        let mut v: Vec<u64> = m.capacity.to_array().iter().map(|x| x.to_bits()).collect();
        v.push(m.nic_gbps.map_or(u64::MAX, f64::to_bits));
        v.push(m.local_gbps.map_or(u64::MAX, f64::to_bits));
        v
    };
    let mut seen: Vec<Vec<u64>> = Vec::new();
    machines
        .iter()
        .map(|m| {
            let b = bits(m);
            match seen.iter().position(|s| *s == b) {
                Some(i) => i,
                None => {
                    seen.push(b);
                    seen.len() - 1
                }
            }
        })
        .collect()
}

/// Search nodes one job's lower bound may take before [`Search::quick_bound`] stands in.
const LOWER_BOUND_NODES: u64 = 20_000;

/// One way to place a job, with what it adds.
struct Candidate {
    x: f64,
    new_machines: usize,
    shares: Vec<Share>,
}

struct Search<'a> {
    jobs: &'a [Job],
    demands: Vec<Demand>,
    class: Vec<usize>,
    /// Jobs that no placement can hold, even on the empty cluster.
    refused: Vec<bool>,
    /// `placeable_from[j]`: jobs from j on that the search may place.
    placeable_from: Vec<usize>,
    /// `lb_from[j]`: Σ over those jobs of the least X each has alone on the empty cluster.
    lb_from: Vec<f64>,
    /// `need_from[j]`: Σ over those jobs of their whole demand.
    need_from: Vec<Dims>,
    cluster: Cluster,
    nodes: u64,
    max_nodes: u64,
    aborted: bool,
    current: Choice,
    /// The value to beat: the incumbent's, then the best found.
    best: Option<Key>,
    /// The best placement the search found, if better than the incumbent.
    found: Option<(Key, Choice)>,
}

impl<'a> Search<'a> {
    fn new(machines: &[Machine], jobs: &'a [Job], options: &Options, best: Option<Key>) -> Self {
        let empty = Cluster::new(machines);
        // Jobs that cannot be placed on the empty cluster (or exceed the task limit) are out
        // of the search, as they are out of every heuristic.
        let refused: Vec<bool> = jobs
            .iter()
            .map(|j| reason::before(&empty, j, options).is_some())
            .collect();
        Search {
            jobs,
            demands: jobs.iter().map(Demand::of).collect(),
            class: classes(machines),
            placeable_from: Vec::new(),
            lb_from: Vec::new(),
            need_from: Vec::new(),
            refused,
            cluster: empty,
            nodes: 0,
            max_nodes: options.exact_max_nodes,
            aborted: false,
            current: vec![None; jobs.len()],
            best,
            found: None,
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.aborted = true;
        }
        !self.aborted
    }

    /// The bounds of the remaining jobs, before the search: each job's least X alone on the
    /// empty cluster (a lower bound on its X anywhere in the search, as capacity only
    /// shrinks), found by enumerating its distributions within [`LOWER_BOUND_NODES`], else
    /// [`Search::quick_bound`]; a job with no distribution at all is refused.
    fn prepare(&mut self) {
        let n = self.jobs.len();
        let mut lb = vec![0.0; n];
        for j in 0..n {
            let job = &self.jobs[j];
            if self.refused[j] || job.workers == 0 || job.ps == 0 {
                continue; // X = 0 without a worker or a PS
            }
            let limit = self.max_nodes;
            self.max_nodes = limit.min(self.nodes.saturating_add(LOWER_BOUND_NODES));
            let most = Wanted {
                min_local: f64::NEG_INFINITY,
                improving: true,
            };
            let candidates = self.distributions(j, most);
            let complete = !self.aborted;
            self.max_nodes = limit;
            self.aborted = self.nodes > limit;
            lb[j] = match candidates.first() {
                Some(c) if complete => c.x, // sorted by X: the least of all
                None if complete => {
                    self.refused[j] = true;
                    0.0
                }
                _ => self.quick_bound(j),
            };
        }
        self.placeable_from = vec![0; n + 1];
        self.lb_from = vec![0.0; n + 1];
        self.need_from = vec![[0.0; DIMS]; n + 1];
        for j in (0..n).rev() {
            let (mut count, mut x, mut need) = (
                self.placeable_from[j + 1],
                self.lb_from[j + 1],
                self.need_from[j + 1],
            );
            if !self.refused[j] {
                count += 1;
                x += lb[j];
                let d = self.demands[j].load(self.jobs[j].workers, self.jobs[j].ps);
                for r in 0..DIMS {
                    need[r] += d[r];
                }
            }
            self.placeable_from[j] = count;
            self.lb_from[j] = x;
            self.need_from[j] = need;
        }
    }

    /// A lower bound on job j's X without enumeration: 0 if one machine holds it all;
    /// otherwise `Σ_h w_h·p_h` is at most `w·P`, `p·W` (P, W: the most PSs, workers one
    /// machine holds) and `w·p − 1` (below `w·p` unless all tasks share a machine).
    fn quick_bound(&self, j: usize) -> f64 {
        let job = &self.jobs[j];
        let d = &self.demands[j];
        let (w, p) = (job.workers, job.ps);
        let c = &self.cluster;
        if (0..c.len()).any(|h| c.fits(h, &d.load(w, p))) {
            return 0.0;
        }
        let most = |kind, n| (0..c.len()).map(|h| c.max_fit(h, d, kind, (0, 0), n)).max();
        let (wf, pf) = (w as f64, p as f64);
        let local = (wf * f64::from(most(Kind::Ps, p).unwrap_or(0)))
            .min(pf * f64::from(most(Kind::Worker, w).unwrap_or(0)))
            .min(wf * pf - 1.0);
        2.0 * job.gradient_gbit / pf * (wf * pf - local)
    }

    /// The best any completion from job j on can reach: every remaining placeable job
    /// placed, each at its least X, on as few new machines as their demand needs beyond the
    /// free room of the occupied machines (per resource, the largest empty machines first).
    fn bound(&self, j: usize, key: Key) -> Key {
        Key {
            placed: key.placed + self.placeable_from[j],
            x: key.x + self.lb_from[j],
            machines: key.machines + self.extra_machines(j),
        }
    }

    fn extra_machines(&self, j: usize) -> usize {
        let need = &self.need_from[j];
        let c = &self.cluster;
        let mut extra = 0;
        let mut empty = Vec::new();
        for r in 0..DIMS {
            if need[r] <= 0.0 {
                continue;
            }
            let mut excess = need[r];
            empty.clear();
            for h in 0..c.len() {
                let free = (c.limit(h)[r] - c.used(h)[r]).max(0.0);
                if c.occupied(h) {
                    excess -= free;
                } else {
                    empty.push(free);
                }
            }
            empty.sort_by(|a, b| b.total_cmp(a));
            let mut k = 0;
            for f in &empty {
                if excess <= 0.0 {
                    break;
                }
                excess -= f;
                k += 1;
            }
            extra = extra.max(k);
        }
        extra
    }

    /// The distributions of job j worth trying at a node of value `key`: when placing every
    /// remaining job would only tie the incumbent's count, one whose X exceeds what the
    /// incumbent leaves (its X − the X so far − the later jobs' bounds) cannot win. In
    /// co-located pairs: `Σ w_h·p_h ≥ w·p − room·p/(2G)`, with a margin far above rounding so
    /// that only hopeless distributions are skipped.
    fn wanted(&self, j: usize, key: Key) -> Wanted {
        let job = &self.jobs[j];
        let Some(best) = self.best else {
            return Wanted::ALL;
        };
        let g = job.gradient_gbit;
        if key.placed + self.placeable_from[j] > best.placed || g <= 0.0 || job.ps == 0 {
            return Wanted::ALL;
        }
        let room = best.x - key.x - self.lb_from[j + 1];
        let room = room + 1e-6 * best.x.abs() + 1e-12;
        let (w, p) = (job.workers as f64, job.ps as f64);
        Wanted {
            min_local: w * p - room * p / (2.0 * g),
            improving: false,
        }
    }

    /// Whether `key` is strictly better than the value to beat.
    fn beats(&self, key: &Key) -> bool {
        self.best.as_ref().is_none_or(|b| key.better(b))
    }

    fn visit(&mut self, j: usize, key: Key) {
        if !self.tick() {
            return;
        }
        if j == self.jobs.len() {
            if self.beats(&key) {
                self.best = Some(key);
                self.found = Some((key, self.current.clone()));
            }
            return;
        }
        if !self.beats(&self.bound(j, key)) {
            return;
        }
        let jobs = self.jobs;
        let job = &jobs[j];
        if !self.refused[j] {
            let candidates = if job.workers == 0 && job.ps == 0 {
                vec![Candidate {
                    x: 0.0,
                    new_machines: 0,
                    shares: Vec::new(),
                }]
            } else {
                let wanted = self.wanted(j, key);
                self.distributions(j, wanted)
            };
            for c in candidates {
                if self.aborted {
                    return;
                }
                let next = Key {
                    placed: key.placed + 1,
                    x: key.x + c.x,
                    machines: key.machines + c.new_machines,
                };
                // Sorted by (x, new machines), but the tolerance of `better` makes the
                // order not quite monotone in it: skip, do not stop.
                // The full bound is taken at the child; here the cheap part of it.
                let bound = Key {
                    placed: key.placed + self.placeable_from[j],
                    x: next.x + self.lb_from[j + 1],
                    ..next
                };
                if !self.beats(&bound) {
                    continue;
                }
                let saved: Vec<(usize, (Dims, bool))> = c
                    .shares
                    .iter()
                    .map(|s| (s.machine, self.cluster.state(s.machine)))
                    .collect();
                self.cluster.commit(&self.demands[j], &c.shares);
                self.current[j] = Some(c.shares);
                self.visit(j + 1, next);
                self.current[j] = None;
                for (h, state) in saved {
                    self.cluster.restore(h, state);
                }
            }
        }
        // A zero-task job is always worth placing; every other job may also be left out.
        if job.workers > 0 || job.ps > 0 || self.refused[j] {
            self.visit(j + 1, key);
        }
    }

    /// Every distribution of job j over the machines that fits now, one per set of mirror
    /// images, sorted by (X, new machines).
    fn distributions(&mut self, j: usize, wanted: Wanted) -> Vec<Candidate> {
        let cluster = &self.cluster;
        let state_key = |h: usize| {
            let (used, occupied) = cluster.state(h);
            (self.class[h], used.map(f64::to_bits), occupied)
        };
        let mut order: Vec<usize> = (0..cluster.len()).collect();
        order.sort_by_key(|&h| (state_key(h), h));
        let twin: Vec<bool> = (0..order.len())
            .map(|i| i > 0 && state_key(order[i - 1]) == state_key(order[i]))
            .collect();
        // Free room from each position on: no distribution can use more.
        let mut suffix = vec![[0.0; DIMS]; order.len() + 1];
        for i in (0..order.len()).rev() {
            let h = order[i];
            for r in 0..DIMS {
                let free = (cluster.limit(h)[r] - cluster.used(h)[r]).max(0.0);
                suffix[i][r] = suffix[i + 1][r] + free;
            }
        }
        let mut walk = Walk {
            order,
            twin,
            suffix,
            demand: self.demands[j],
            current: Vec::new(),
            out: Vec::new(),
            local: 0.0,
            wanted,
        };
        let jobs = self.jobs;
        let job = &jobs[j];
        walk.enumerate(self, 0, job.workers, job.ps, (u32::MAX, u32::MAX));
        let mut out: Vec<Candidate> = walk
            .out
            .into_iter()
            .map(|mut shares| {
                shares.sort_by_key(|s| s.machine);
                Candidate {
                    x: job_x(job, &shares),
                    new_machines: shares
                        .iter()
                        .filter(|s| !self.cluster.occupied(s.machine))
                        .count(),
                    shares,
                }
            })
            .collect();
        out.sort_by(|a, b| {
            a.x.total_cmp(&b.x)
                .then(a.new_machines.cmp(&b.new_machines))
        });
        out
    }
}

/// The enumeration of one job's distributions.
struct Walk {
    /// Machines, interchangeable ones next to each other.
    order: Vec<usize>,
    /// `twin[i]`: `order[i]` is interchangeable with `order[i − 1]`.
    twin: Vec<bool>,
    suffix: Vec<Dims>,
    demand: Demand,
    current: Vec<Share>,
    out: Vec<Vec<Share>>,
    /// `Σ w_h·p_h` of `current`.
    local: f64,
    wanted: Wanted,
}

/// Which distributions a walk keeps, by their co-located pairs `Σ_h w_h·p_h` (X falls as it
/// grows): at least `min_local`; with `improving`, each one kept must beat the last (the
/// walk then finds the largest, for a lower bound on X).
#[derive(Clone, Copy, Debug)]
struct Wanted {
    min_local: f64,
    improving: bool,
}

impl Wanted {
    const ALL: Wanted = Wanted {
        min_local: f64::NEG_INFINITY,
        improving: false,
    };
}

impl Walk {
    /// Puts `w` workers and `p` PSs on the machines from position `i` on; `prev` is what
    /// position `i − 1` took (a twin takes no more, in lexicographic order).
    fn enumerate(&mut self, s: &mut Search, i: usize, w: u32, p: u32, prev: (u32, u32)) {
        if !s.tick() {
            return;
        }
        // The pairs still to place can add at most w·p co-located pairs.
        if self.local + f64::from(w) * f64::from(p) < self.wanted.min_local {
            return;
        }
        if w == 0 && p == 0 {
            self.out.push(self.current.clone());
            if self.wanted.improving {
                self.wanted.min_local = self.local + 1.0;
            }
            return;
        }
        if i == self.order.len() {
            return;
        }
        let need = self.demand.load(w, p);
        if (0..DIMS).any(|r| need[r] > self.suffix[i][r]) {
            return;
        }
        let h = self.order[i];
        let cap = if self.twin[i] {
            prev
        } else {
            (u32::MAX, u32::MAX)
        };
        let most_w = s.cluster.max_fit(h, &self.demand, Kind::Worker, (0, 0), w);
        for a in (0..=most_w.min(cap.0)).rev() {
            let most_p = s.cluster.max_fit(h, &self.demand, Kind::Ps, (a, 0), p);
            let most_p = if a == cap.0 {
                most_p.min(cap.1)
            } else {
                most_p
            };
            for b in (0..=most_p).rev() {
                let pairs = a as f64 * b as f64;
                if a > 0 || b > 0 {
                    self.current.push(Share {
                        machine: h,
                        workers: a,
                        ps: b,
                    });
                }
                self.local += pairs;
                self.enumerate(s, i + 1, w - a, p - b, (a, b));
                self.local -= pairs;
                if a > 0 || b > 0 {
                    self.current.pop();
                }
                if s.aborted {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
