//! The reference simulator's Pollux (POLLUX-SIM.md §4.3, docs/MODEL.md §23): at every tick,
//! GPUs per machine for every active job that make the jobs' learned speedups fairest (the
//! FITNESS), each job's batch then chosen for goodput by the job itself (the engine runs
//! it with its [`Learner`](smd_core::allreduce::Learner)).
//!
//! What the policy keeps across ticks is what the reference's job infos carry: each job's
//! attained service (GPU-seconds, restart delays included) and restarts. What it reads
//! from the engine is each job's learner (its fitted model, last gradient statistics and
//! largest GPU count) and its current machines. The search is the project's own
//! ([`search`]); the reference's is NSGA-II.

mod genetic;
pub(super) mod search;

use super::reference::{curves, total_gpus};
use super::Decide;
use crate::world::{Decision, Slot, World};
use search::{JobCosts, Problem};
use smd_core::allreduce::{Candidates, Curve, Learner, NODE_GPUS};
use smd_core::plan::PlacedShare;
use smd_core::Error;

/// Pollux's offset in its fitness (§4.3): an idle job counts 1/0.001.
const OFFSET: f64 = 0.001;
/// The weight of a job's speedup that breaks ties of the fitness (far below any real
/// difference of Σ c, which is at least ~1e-6 apart).
const TIE: f64 = 1e-9;

/// One job's candidate batches per allocation, remembered while its model stays the same,
/// and their best goodputs while its statistics do too.
#[derive(Default)]
struct Goodputs {
    /// The learner's model version the candidates were made with.
    version: u32,
    /// Its statistics the goodputs were computed with.
    stats: Option<(u64, u64)>,
    /// Candidates on one measured node at r GPUs (index r), and over several (`None`: not
    /// made for this model).
    one: Vec<Option<Candidates>>,
    many: Vec<Option<Candidates>>,
    /// Their best goodputs (`None`: not computed for these statistics).
    one_best: Vec<Option<f64>>,
    many_best: Vec<Option<f64>>,
}

impl Goodputs {
    /// The best goodput on one node (`spread` false) or several at `r` GPUs.
    fn at(&mut self, curve: &Curve, l: &Learner, spread: bool, r: u32) -> f64 {
        let (cands, best) = if spread {
            (&mut self.many, &mut self.many_best)
        } else {
            (&mut self.one, &mut self.one_best)
        };
        let k = r as usize;
        if cands.len() <= k {
            cands.resize(k + 1, None);
            best.resize(k + 1, None);
        }
        if let Some(g) = best[k] {
            return g;
        }
        let c = cands[k].get_or_insert_with(|| curve.candidates(l, if spread { 2 } else { 1 }, r));
        let g = curve.best_goodput(l, c);
        best[k] = Some(g);
        g
    }
}

/// How Pollux searches its allocations (MODEL.md §23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Search {
    /// The project's optimiser: the knapsack bound, packed, then a local search.
    Own,
    /// The reference's NSGA-II as POLLUX-SIM.md §4.3 specifies it, seeded with the
    /// scenario's seed.
    Genetic,
}

/// How the two searches compared over a run (each tick: both on the same problem).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SearchStats {
    /// Ticks with more than one active job, searched.
    pub ticks: usize,
    /// Ticks where the project's allocation met the knapsack bound: proven optimal.
    pub optimal: usize,
    /// Mean (Σc found / bound − 1): how far from optimal it can be at most, on average.
    pub mean_gap: f64,
    /// The largest such gap.
    pub max_gap: f64,
    /// With the comparison on: ticks where ours was fitter than NSGA-II's.
    pub own_fitter: usize,
    /// Ticks where NSGA-II's was fitter.
    pub genetic_fitter: usize,
    /// The geometric mean of the fitness ratio ours / NSGA-II's (1 without comparison).
    pub mean_fitness_ratio: f64,
}

/// Pollux's state across ticks.
pub(crate) struct Pollux {
    /// GPU-seconds each job has held, restart delays included.
    attained: Vec<f64>,
    /// Restarts: `None` before the first start, then 0, +1 at every later change to a
    /// non-empty allocation (§1.3).
    restarts: Vec<Option<u32>>,
    /// The previous tick.
    last: f64,
    cache: Vec<Goodputs>,
    /// The last tick's problem, its vectors reused by the next.
    problem: Problem,
    /// The search that decides.
    search: Search,
    /// NSGA-II's random stream and front between ticks.
    rng: smd_core::rng::Stream,
    memory: genetic::Memory,
    /// With `Some`: run the other search too at each tick and count how they compare.
    stats: Option<std::rc::Rc<std::cell::RefCell<SearchStats>>>,
    compare: bool,
    /// Σ ln(ours / NSGA-II's fitness) over compared ticks.
    log_ratio: f64,
}

impl Pollux {
    pub fn new(world: &World) -> Pollux {
        Pollux::with(world, Search::Own, None, false)
    }

    /// Pollux deciding by `search`, counting into `stats` (and, with `compare`, running
    /// the other search beside it at each tick).
    pub fn with(
        world: &World,
        search: Search,
        stats: Option<std::rc::Rc<std::cell::RefCell<SearchStats>>>,
        compare: bool,
    ) -> Pollux {
        let n = world.s.jobs.len();
        Pollux {
            attained: vec![0.0; n],
            restarts: vec![None; n],
            last: 0.0,
            cache: (0..n).map(|_| Goodputs::default()).collect(),
            problem: Problem::default(),
            search,
            rng: smd_core::rng::Stream::new(
                world.s.params.seed,
                smd_core::rng::stream_of("pollux"),
            ),
            memory: genetic::Memory::new(),
            stats,
            compare,
            log_ratio: 0.0,
        }
    }

    /// Job `i`'s goodputs, its cache renewed where its learner has changed.
    fn goodputs(&mut self, i: usize, l: &Learner) -> &mut Goodputs {
        let g = &mut self.cache[i];
        if g.version != l.version() {
            *g = Goodputs {
                version: l.version(),
                ..Goodputs::default()
            };
        }
        let stats = l.stats().map(|(a, b)| (a.to_bits(), b.to_bits()));
        if g.stats != stats {
            g.stats = stats;
            g.one_best.iter_mut().for_each(|v| *v = None);
            g.many_best.iter_mut().for_each(|v| *v = None);
        }
        g
    }
}

impl Decide for Pollux {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let world = slot.world;
        let curves = curves(world, "pollux")?;
        let now = slot.now;
        let h = world.machines.len();
        let index = |name: &str| world.machines.iter().position(|m| m.name == name);
        let row_of = |i: usize, row: &mut Vec<u32>| {
            row.clear();
            row.resize(h, 0);
            for s in slot.shares[i].0.iter().flatten() {
                if let Some(k) = index(&s.machine) {
                    row[k] += s.workers as u32;
                }
            }
        };
        // Attained service over the last interval: every GPU held, restart delays too.
        let mut row = Vec::with_capacity(h);
        for &i in slot.active {
            row_of(i, &mut row);
            let gpus: u32 = row.iter().sum();
            self.attained[i] += f64::from(gpus) * (now - self.last);
        }
        self.last = now;
        let order = order(slot.active, &self.attained, |i| world.arrival[i]);
        // The last tick's problem, refilled: its vectors keep their room.
        let mut problem = std::mem::take(&mut self.problem);
        problem.gpus.clear();
        problem.gpus.extend(
            world
                .machines
                .iter()
                .map(|m| m.capacity.gpu.max(0.0).floor() as u32),
        );
        problem.node = NODE_GPUS;
        problem.jobs.resize_with(order.len(), JobCosts::default);
        let total = total_gpus(world);
        let jobs = order.len() as u32;
        // The fair share R_f = ⌈G/J⌉ on one node (§3.5), and the scale of a speedup: the
        // dominant share of a GPU times the machines (1/64 · 16 on 16 × 4).
        let fair = total.div_ceil(jobs.max(1)).max(1);
        let scale = h as f64 / f64::from(total.max(1));
        let restart = world.restart;
        let fresh = Learner::default();
        for (k, &i) in order.iter().enumerate() {
            let curve = curves[i];
            let learner = slot.state.learners[i].as_ref().unwrap_or(&fresh);
            let max = (2 * learner.max_replicas()).max(1).min(curve.cap);
            let age = now - world.arrival[i];
            let restarts = f64::from(self.restarts[i].unwrap_or(0));
            let factor = (age - restart * restarts).max(0.0) / (age + restart);
            let job = &mut problem.jobs[k];
            job.max = max;
            row_of(i, &mut job.base);
            // Speedups: learned goodput over the fair share's; R/R_f before any model.
            if learner.model().is_some() {
                let g = self.goodputs(i, learner);
                let base_goodput = g.at(curve, learner, false, fair_share(fair, curve.widest()));
                fill_costs(job, NODE_GPUS, factor, scale, |spread, r| {
                    let x = g.at(curve, learner, spread, r);
                    if base_goodput > 0.0 {
                        x / base_goodput
                    } else {
                        0.0
                    }
                });
            } else {
                fill_costs(job, NODE_GPUS, factor, scale, |_, r| {
                    f64::from(r) / f64::from(fair)
                });
            }
        }
        let own = (self.search == Search::Own || self.compare).then(|| search::optimise(&problem));
        let genetic = (self.search == Search::Genetic || self.compare)
            .then(|| genetic::search(&problem, &order, &mut self.rng, &mut self.memory));
        if let Some(stats) = &self.stats {
            let mut st = stats.borrow_mut();
            if let Some(f) = own.as_ref().filter(|_| order.len() > 1) {
                st.ticks += 1;
                let gap = (f.cost / f.bound - 1.0).max(0.0);
                if gap <= 1e-9 {
                    st.optimal += 1;
                }
                st.mean_gap += (gap - st.mean_gap) / st.ticks as f64;
                st.max_gap = st.max_gap.max(gap);
                if let Some(g) = &genetic {
                    let (a, b) = (problem.total(&f.rows), problem.total(g));
                    if a < b * (1.0 - 1e-12) {
                        st.own_fitter += 1;
                    } else if b < a * (1.0 - 1e-12) {
                        st.genetic_fitter += 1;
                    }
                    // Fitness is J / Σc: the ratio of fitnesses is b / a.
                    self.log_ratio += libm::log(b / a);
                    st.mean_fitness_ratio = libm::exp(self.log_ratio / st.ticks as f64);
                }
            }
        }
        let rows = match self.search {
            Search::Own => own.map(|f| f.rows),
            Search::Genetic => genetic,
        }
        .expect("the deciding search ran");
        debug_assert!(problem.feasible(&rows), "pollux: an infeasible allocation");
        let mut d = slot.decision();
        for (k, &i) in order.iter().enumerate() {
            let row = &rows[k];
            let r: u32 = row.iter().sum();
            if r == 0 {
                d.why[i] = Some(
                    "pollux: a GPU for it would lower the fairness of the others' speedups more \
                     than it adds"
                        .into(),
                );
                continue;
            }
            if *row != problem.jobs[k].base {
                self.restarts[i] = Some(self.restarts[i].map_or(0, |x| x + 1));
            }
            d.alloc[i] = Some((u64::from(r), 0));
            d.placed[i] = Some(
                row.iter()
                    .enumerate()
                    .filter(|(_, &g)| g > 0)
                    .map(|(k, &g)| PlacedShare {
                        machine: world.machines[k].name.clone(),
                        workers: u64::from(g),
                        ps: 0,
                    })
                    .collect(),
            );
        }
        self.problem = problem;
        Ok(d)
    }
}

/// Pollux's job order (POLLUX-SIM.md §4.3): least attained service, then submission,
/// then the workload's.
pub(super) fn order(
    active: &[usize],
    attained: &[f64],
    arrival: impl Fn(usize) -> f64,
) -> Vec<usize> {
    let mut order: Vec<usize> = active.to_vec();
    order.sort_by(|&a, &b| {
        attained[a]
            .total_cmp(&attained[b])
            .then(arrival(a).total_cmp(&arrival(b)))
            .then(a.cmp(&b))
    });
    order
}

/// A job's speedups and costs in Pollux's problem (POLLUX-SIM.md §4.3), its `base` and
/// `max` set: `speed(spread, r)` is its speedup on r GPUs of one node (`spread` false,
/// asked for 1 ≤ r ≤ `node`) or over several (r ≥ 2), 0 elsewhere; a changed row's speedup
/// is scaled by `scale` and the restart `factor`, its current row's by the scale alone; c =
/// 1/(s + 0.001) (an idle job [`search::IDLE`]). Among equal fitnesses the reference's
/// second objective (utility: Σ speedups) decides, so more speedup wins a tie by a hair —
/// e.g. a job seen at age 0, whose restart factor is 0 (POLLUX-SIM.md §7.5), starts.
pub(super) fn fill_costs(
    job: &mut JobCosts,
    node: u32,
    factor: f64,
    scale: f64,
    mut speed: impl FnMut(bool, u32) -> f64,
) {
    let max = job.max;
    let cost = |f: f64, s: f64| 1.0 / (f * s * scale + OFFSET) - TIE * s;
    job.one_speed.clear();
    job.many_speed.clear();
    job.one_speed.extend((0..=max).map(|r| {
        if (1..=node).contains(&r) {
            speed(false, r)
        } else {
            0.0
        }
    }));
    job.many_speed
        .extend((0..=max).map(|r| if r >= 2 { speed(true, r) } else { 0.0 }));
    let r0: u32 = job.base.iter().sum();
    let speed0 = if r0 == 0 {
        0.0
    } else {
        let v = if nodes(&job.base, node) > 1 {
            &job.many_speed
        } else {
            &job.one_speed
        };
        v.get(r0 as usize).copied().unwrap_or(0.0)
    };
    job.keep = if r0 == 0 {
        search::IDLE
    } else {
        cost(1.0, speed0)
    };
    job.keep_speed = speed0;
    job.one.clear();
    job.one.extend((0..=max).map(|r| {
        if (1..=node).contains(&r) {
            cost(factor, job.one_speed[r as usize])
        } else {
            f64::INFINITY
        }
    }));
    job.many.clear();
    job.many.extend((0..=max).map(|r| {
        if r >= 2 {
            cost(factor, job.many_speed[r as usize])
        } else {
            f64::INFINITY
        }
    }));
}

/// The GPUs of the fair goodput a learned job's speedups are measured against (MODEL.md
/// §23): the fair share ⌈G/J⌉ (`fair`), at most `widest`, the most GPUs any batch of the
/// application runs on (and 64) — ⌈G/J⌉ itself on the reference's 64 GPUs; on a large
/// cluster with few jobs, ⌈G/J⌉ GPUs on one node run no batch at all, the base would be 0
/// and every allocation of the job as idle as none (jobs waited beside idle GPUs).
pub(super) fn fair_share(fair: u32, widest: u32) -> u32 {
    fair.min(widest).max(1)
}

/// Measured nodes of `node` GPUs a row spans (a machine of more GPUs counts several).
fn nodes(row: &[u32], node: u32) -> usize {
    row.iter().map(|&g| g.div_ceil(node) as usize).sum()
}
