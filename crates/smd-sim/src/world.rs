//! The world a simulation runs in and what a slot is (docs/MODEL.md §17): the scenario as
//! the slot loop reads it ([`World`]), where the jobs are ([`State`]), what a policy sees at
//! a boundary ([`Slot`]) and answers ([`Decision`]). The bottom of the crate: the policies,
//! the settling stage and the slot loop all read these, and this reads none of them.

use smd_core::model::JobModel;
use smd_core::scenario::DEFAULT_RESTART_S;
use smd_core::Scenario;
use std::cell::{Cell, OnceCell, RefCell};

/// The scenario as the loop reads it.
pub(crate) struct World<'a> {
    /// The scenario the policies see (with GPU sharing, its effective form: MODEL §18).
    pub s: &'a Scenario,
    /// The scenario as given (GPU sharing packs its workers).
    pub given: &'a Scenario,
    /// Each job's model on the pool (ρ = 1).
    pub models: Vec<JobModel>,
    /// The cluster's total capacity.
    pub cap: [f64; 4],
    /// The machines (none on a pool), the placement policy and its options.
    pub machines: Vec<smd_place::Machine>,
    /// The placement policy.
    pub placement: smd_place::Policy,
    /// Its options.
    pub place_opts: smd_place::Options,
    /// Slot length Δ, s.
    pub delta: f64,
    /// The first boundary a policy decides at: Δ when every job is measured (the reference
    /// decides at the end of its first tick, POLLUX-SIM.md §1.2), else 0.
    pub first_tick: f64,
    /// Time without progress when a job starts or changes, within one slot: min(restart, Δ).
    pub restart: f64,
    /// Where the run stops, s.
    pub horizon: f64,
    /// Each job's arrival, s.
    pub arrival: Vec<f64>,
    /// Job indices by arrival, then scenario order.
    pub order: Vec<usize>,
    /// The boundary each job is first seen at ([`World::boundary_after`] its arrival): in
    /// [`World::order`], never decreasing.
    pub seen: Vec<f64>,
    /// The largest slowdown GPU sharing may give each job: 1/min_performance for a
    /// shareable job with sharing on (the performance rule, MODEL §18), else 1.
    pub worst_slowdown: Vec<f64>,
    /// What each job gets alone on the empty cluster, once asked (`settle::alone`).
    pub alone: Vec<OnceCell<Result<(u64, u64), String>>>,
    /// The settling stage's buffer for what a slot's running jobs leave of the machines.
    pub left: RefCell<Vec<smd_place::Machine>>,
    /// The last slot's decision, cleared, handed back by the engine once the slot ran
    /// ([`Slot::decision`] builds the next on its vectors; `None` when none was).
    pub spare: Cell<Option<Decision>>,
    /// The last slot's settled shares and locality factors, handed back with it (`settle`
    /// builds the next on them; empty when none were).
    pub settled: Cell<SettledBuffers>,
}

/// Per-job vectors of a settled slot: machines and locality factors.
pub(crate) type SettledBuffers = (Vec<Option<Vec<smd_core::plan::PlacedShare>>>, Vec<f64>);

impl<'a> World<'a> {
    /// The world of `s` (the effective scenario with GPU sharing on, else `given`);
    /// `shared`: GPU sharing is on (it sets [`World::worst_slowdown`]).
    pub fn new(s: &'a Scenario, given: &'a Scenario, shared: bool) -> World<'a> {
        let models: Vec<JobModel> = s
            .jobs
            .iter()
            .map(|j| JobModel::of(j, &s.cluster, s.params.time_unit_s))
            .collect();
        let arrival: Vec<f64> = s.jobs.iter().map(|j| j.arrival_s.unwrap_or(0.0)).collect();
        let mut order: Vec<usize> = (0..s.jobs.len()).collect();
        order.sort_by(|&a, &b| arrival[a].total_cmp(&arrival[b]).then(a.cmp(&b)));
        let delta = s.interval_s();
        let (placement, place_opts) = smd_place::placement_of(s);
        let mut world = World {
            cap: s.cluster.capacity().to_array(),
            machines: smd_place::machines_of(s),
            placement,
            place_opts,
            delta,
            first_tick: if s.all_measured() { delta } else { 0.0 },
            restart: s.params.restart_s.unwrap_or(DEFAULT_RESTART_S).min(delta),
            horizon: s.horizon_s(),
            worst_slowdown: vec![1.0; s.jobs.len()],
            alone: (0..s.jobs.len()).map(|_| OnceCell::new()).collect(),
            left: RefCell::new(Vec::new()),
            spare: Cell::default(),
            settled: Cell::default(),
            models,
            arrival,
            order,
            seen: Vec::new(),
            s,
            given,
        };
        world.seen = world
            .arrival
            .iter()
            .map(|&t| world.boundary_after(t))
            .collect();
        if shared {
            world.set_worst_slowdowns();
        }
        world
    }

    /// With GPU sharing: each shareable job's largest slowdown, 1/min_performance (MODEL §18).
    fn set_worst_slowdowns(&mut self) {
        let given = self.given;
        let rules = smd_place::share::rules_of(given);
        let z = smd_place::share::normal_quantile(1.0 - rules.collision_prob);
        for (i, j) in given.jobs.iter().enumerate() {
            let w = smd_place::worker_of(j, i, 0);
            // A worker too big to share keeps its GPU: no co-runner slows it.
            if smd_place::shareable(j) && w.mem_mean_gb + z * w.mem_sd_gb <= rules.gpu_memory_gb {
                self.worst_slowdown[i] = 1.0 / w.min_performance;
            }
        }
    }

    /// The first slot boundary at or after `t` at which a job arriving then is seen: from
    /// [`World::first_tick`] on.
    pub fn boundary_after(&self, t: f64) -> f64 {
        ((t / self.delta).ceil() * self.delta).max(self.first_tick)
    }
}

/// Where the jobs are at a slot boundary.
pub(crate) struct State {
    /// Iterations left per job.
    pub remaining: Vec<f64>,
    /// The allocation each job ran at in the last slot (`None`: it did not run).
    pub current: Vec<Option<(u64, u64)>>,
    /// Finished jobs.
    pub done: Vec<bool>,
    /// Each measured job's progress, epoch by epoch (MODEL.md §21.1; unused for others).
    pub progress: Vec<smd_core::allreduce::Progress>,
    /// Under a policy that learns its jobs (`pollux`), each measured job's learner: it
    /// chooses the job's batch as it runs (MODEL.md §23); `None` otherwise.
    pub learners: Vec<Option<smd_core::allreduce::Learner>>,
}

impl State {
    /// `n` jobs, none run yet (their remaining work unknown: 0).
    pub fn empty(n: usize) -> State {
        State {
            remaining: vec![0.0; n],
            current: vec![None; n],
            done: vec![false; n],
            progress: vec![Default::default(); n],
            learners: vec![None; n],
        }
    }
}

/// What a policy sees at a boundary.
pub(crate) struct Slot<'a> {
    /// The boundary, s.
    pub now: f64,
    /// Its index.
    pub index: usize,
    /// Arrived, unfinished jobs, by arrival.
    pub active: &'a [usize],
    /// The scenario.
    pub world: &'a World<'a>,
    /// The jobs' state.
    pub state: &'a State,
    /// Each job's machines (on machines; `None`: it did not run there) and locality factor
    /// in the last slot.
    pub shares: &'a [(Option<Vec<smd_core::plan::PlacedShare>>, f64)],
}

impl Slot<'_> {
    /// A decision with every job waiting and no reason yet: the last slot's vectors
    /// reused (a slot would otherwise allocate three of every job's).
    pub fn decision(&self) -> Decision {
        let n = self.world.s.jobs.len();
        match self.world.spare.take() {
            Some(d) if d.alloc.len() == n => d,
            _ => Decision::none(n),
        }
    }
}

/// Why a job waits: most reasons are fixed words (borrowed, so a slot of many waiting jobs
/// allocates none), some name numbers (made once and shared: a policy that gives a job the
/// same reason slot after slot hands out the same text).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Why {
    Fixed(&'static str),
    Made(std::sync::Arc<str>),
}

impl std::ops::Deref for Why {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Why::Fixed(s) => s,
            Why::Made(s) => s,
        }
    }
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl From<&'static str> for Why {
    fn from(s: &'static str) -> Why {
        Why::Fixed(s)
    }
}

impl From<String> for Why {
    fn from(s: String) -> Why {
        Why::Made(s.into())
    }
}

/// A policy's answer for one slot, indexed by job (inactive jobs: `None`).
pub(crate) struct Decision {
    /// Workers and PSs of each job that runs.
    pub alloc: Vec<Option<(u64, u64)>>,
    /// Why a job waits (for the page's "why is job X waiting").
    pub why: Vec<Option<Why>>,
    /// Machines a policy chose itself for a job (the reference's policies, which place as
    /// they allocate); `None`: the placement stage places it.
    pub placed: Vec<Option<Vec<smd_core::plan::PlacedShare>>>,
}

impl Decision {
    /// Every job waiting, no reason yet.
    pub fn none(n: usize) -> Decision {
        Decision {
            alloc: vec![None; n],
            why: vec![None; n],
            placed: vec![None; n],
        }
    }

    /// Every job waiting again, no reason, its vectors kept.
    pub fn clear(&mut self) {
        self.alloc.fill(None);
        self.why.fill(None);
        self.placed.fill(None);
    }
}

/// Σ demand fits the capacity (the crate's one tolerance).
pub(crate) fn fits(used: &[f64; 4], cap: &[f64; 4]) -> bool {
    (0..4).all(|r| used[r] <= cap[r] + 1e-9 * cap[r].abs().max(1.0))
}

/// The job's requested allocation, rounded and clamped into Ω (whose (1, 1) may itself not
/// fit: then (1, 1), which the engine's check refuses only if the job is ever started).
pub(crate) fn requested(world: &World, i: usize) -> (u64, u64) {
    let job = &world.s.jobs[i];
    let m = &world.models[i];
    let ask = |v: Option<f64>| v.map_or(1, |x| x.round().max(1.0) as u64);
    let w = ask(job.requested_workers).min(m.w_max_int()).max(1);
    let ps = m.p_range(w);
    let p = ask(job.requested_ps).min(*ps.end()).max(*ps.start());
    (w, p)
}
