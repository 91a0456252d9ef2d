//! The slot loop of docs/MODEL.md §17: decide, settle (place, pack), progress, record.

use crate::output::{JobRun, Metrics, Run, Segment, SlotUse};
use crate::policy::{self, Decide, Decision};
use crate::settle::{alone, settle, Settled};
use crate::{Options, Progress, SimError, SimPolicy};
use smd_core::model::JobModel;
use smd_core::plan::PlacedShare;
use smd_core::scenario::{Resources, DEFAULT_INTERVAL_S, DEFAULT_RESTART_S, MAX_HORIZON_S};
use smd_core::{Error, Scenario};
use std::cell::OnceCell;

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
    /// Time without progress when a job starts or changes, within one slot: min(restart, Δ).
    pub restart: f64,
    /// Where the run stops, s.
    pub horizon: f64,
    /// Each job's arrival, s.
    pub arrival: Vec<f64>,
    /// Job indices by arrival, then scenario order.
    pub order: Vec<usize>,
    /// The largest slowdown GPU sharing may give each job: 1/min_performance for a
    /// shareable job with sharing on (the performance rule, MODEL §18), else 1.
    pub worst_slowdown: Vec<f64>,
    /// What each job gets alone on the empty cluster, once asked ([`alone`]).
    pub alone: Vec<OnceCell<Result<(u64, u64), String>>>,
}

impl<'a> World<'a> {
    fn new(s: &'a Scenario, given: &'a Scenario) -> World<'a> {
        let models: Vec<JobModel> = s
            .jobs
            .iter()
            .map(|j| JobModel::new(j, &s.cluster.instance, s.params.time_unit_s))
            .collect();
        let arrival: Vec<f64> = s.jobs.iter().map(|j| j.arrival_s.unwrap_or(0.0)).collect();
        let mut order: Vec<usize> = (0..s.jobs.len()).collect();
        order.sort_by(|&a, &b| arrival[a].total_cmp(&arrival[b]).then(a.cmp(&b)));
        let delta = s.params.interval_s.unwrap_or(DEFAULT_INTERVAL_S);
        let (placement, place_opts) = smd_place::placement_of(s);
        World {
            cap: s.cluster.capacity().to_array(),
            machines: smd_place::machines_of(s),
            placement,
            place_opts,
            delta,
            restart: s.params.restart_s.unwrap_or(DEFAULT_RESTART_S).min(delta),
            horizon: s.params.horizon_s.unwrap_or(MAX_HORIZON_S),
            worst_slowdown: vec![1.0; s.jobs.len()],
            alone: (0..s.jobs.len()).map(|_| OnceCell::new()).collect(),
            models,
            arrival,
            order,
            s,
            given,
        }
    }

    /// The first slot boundary at or after `t`.
    pub fn boundary_after(&self, t: f64) -> f64 {
        (t / self.delta).ceil() * self.delta
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
}

impl State {
    /// `n` jobs, none run yet (their remaining work unknown: 0).
    pub fn empty(n: usize) -> State {
        State {
            remaining: vec![0.0; n],
            current: vec![None; n],
            done: vec![false; n],
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
}

/// GPU sharing over the run, summed slot by slot.
#[derive(Default)]
struct SharedTotals {
    gpu_hours: f64,
    exclusive_gpu_hours: f64,
    /// Σ 1/slowdown over worker-slots, and their number.
    performance: (f64, usize),
}

impl SharedTotals {
    fn summary(&self) -> crate::output::SharingMetrics {
        crate::output::SharingMetrics {
            gpu_hours: self.gpu_hours,
            exclusive_gpu_hours: self.exclusive_gpu_hours,
            mean_performance: if self.performance.1 > 0 {
                self.performance.0 / self.performance.1 as f64
            } else {
                1.0
            },
        }
    }
}

/// One job's record while the loop runs.
struct Track {
    segments: Vec<Segment>,
    shares: Option<Vec<PlacedShare>>,
    rho: f64,
    completion: Option<f64>,
    why: Option<String>,
    /// Its slowdown in the last slot it ran (GPU sharing; 1 otherwise).
    slowdown: f64,
}

/// How the loop ended.
#[derive(Clone, Copy, PartialEq)]
enum End {
    /// Every job finished.
    Finished,
    /// The next boundary is at or past the horizon.
    Horizon(f64),
    /// Nothing runs, nothing will arrive and no waiting job can ever run.
    Stuck,
}

pub(crate) fn run(
    given: &Scenario,
    policy: SimPolicy,
    opts: &mut Options,
) -> Result<Run, SimError> {
    // With GPU sharing the policies, placement and bound see each shareable worker at its
    // effective share of a GPU (MODEL §18); the packing stage then shares GPUs for real.
    let mut sharing = crate::sharing::Sharing::new(given)?;
    let effective;
    let s = if sharing.is_some() {
        effective = smd_place::effective_scenario(given);
        &effective
    } else {
        given
    };
    let mut world = World::new(s, given);
    if sharing.is_some() {
        let rules = smd_place::share::rules_of(given);
        let z = smd_place::share::normal_quantile(1.0 - rules.collision_prob);
        for (i, j) in given.jobs.iter().enumerate() {
            let w = smd_place::worker_of(j, i, 0);
            // A worker too big to share keeps its GPU: no co-runner slows it.
            if smd_place::shareable(j) && w.mem_mean_gb + z * w.mem_sd_gb <= rules.gpu_memory_gb {
                world.worst_slowdown[i] = 1.0 / w.min_performance;
            }
        }
    }
    let world = world;
    let bound = policy::bound::jobs(&world);
    let bound_total: f64 = bound.iter().map(|j| j.utility).sum();
    if policy == SimPolicy::Bound {
        return Ok(Run {
            policy,
            metrics: Metrics::of(&bound, bound_total, 0.0, None),
            jobs: bound,
            slots: Vec::new(),
        });
    }
    let mut decide: Box<dyn Decide> = policy::of(policy, &world);
    let n = s.jobs.len();
    let mut state = State {
        remaining: s.jobs.iter().map(|j| j.iterations).collect(),
        ..State::empty(n)
    };
    let mut tracks: Vec<Track> = (0..n)
        .map(|_| Track {
            segments: Vec::new(),
            shares: None,
            rho: 1.0,
            completion: None,
            why: None,
            slowdown: 1.0,
        })
        .collect();
    let mut slots: Vec<SlotUse> = Vec::new();
    let mut cross = 0.0;
    let mut shared_totals = sharing.as_ref().map(|_| SharedTotals::default());
    let mut k = 0usize;
    let end = loop {
        let now = k as f64 * world.delta;
        let finished = state.done.iter().filter(|&&d| d).count();
        if finished == n {
            break End::Finished;
        }
        if now >= world.horizon {
            break End::Horizon(now);
        }
        let active: Vec<usize> = world
            .order
            .iter()
            .copied()
            .filter(|&i| world.arrival[i] <= now && !state.done[i])
            .collect();
        let future = (0..n).any(|i| !state.done[i] && world.arrival[i] > now);
        if active.is_empty() {
            if !future {
                break End::Finished;
            }
            slots.push(SlotUse {
                start_s: now,
                used: Resources::default(),
                gpus: None,
            });
            k += 1;
            continue;
        }
        let slot = Slot {
            now,
            index: k,
            active: &active,
            world: &world,
            state: &state,
        };
        let decision = decide.decide(&slot)?;
        check(&world, &active, &decision.alloc, policy, k)?;
        let previous: Vec<(Option<Vec<PlacedShare>>, f64)> =
            tracks.iter().map(|t| (t.shares.clone(), t.rho)).collect();
        let mut settled = settle(
            &world,
            sharing.as_mut(),
            &active,
            &state,
            &previous,
            decision,
            false,
        )?;
        if !active.iter().any(|&i| settled.alloc[i].is_some()) {
            settled = guard(
                &world,
                sharing.as_mut(),
                &active,
                &state,
                &previous,
                settled,
            )?;
        }
        let Settled {
            alloc,
            mut why,
            shares,
            rho,
            packed,
        } = settled;
        let mut used = [0.0; 4];
        // A slot cut by the horizon: what would finish after it does not count.
        let end = (now + world.delta).min(world.horizon);
        let mut ran = false;
        for &i in &active {
            let Some((w, p)) = alloc[i] else {
                state.current[i] = None;
                tracks[i].shares = None;
                // Every wait has its reason: the one of the job's last wait is kept.
                tracks[i].why = Some(
                    why[i]
                        .take()
                        .unwrap_or_else(|| format!("{policy} did not run it in this slot")),
                );
                continue;
            };
            ran = true;
            let m = &world.models[i];
            let d = m.demand(w as f64, p as f64);
            for r in 0..4 {
                used[r] += d[r];
            }
            let changed = state.current[i] != Some((w, p)) || tracks[i].shares != shares[i];
            let start = if changed { now + world.restart } else { now };
            let slowdown = packed.as_ref().map_or(1.0, |x| x.slowdown[i]);
            // A co-runner arriving or leaving changes the pace, not the placement: a new
            // segment without a restart.
            let paced = !changed && slowdown != tracks[i].slowdown;
            let per_iter = m.t_placed(w as f64, p as f64, rho[i]) * slowdown / s.jobs[i].iterations;
            let can = ((end - start) / per_iter).max(0.0);
            // Round-off must not leave a sliver of work for another slot (and a restart).
            let sliver = 1e-9 * s.jobs[i].iterations;
            let (stop, iters) = if state.remaining[i] <= can + sliver {
                let all = state.remaining[i];
                ((start + all * per_iter).min(end), all)
            } else {
                (end, can)
            };
            state.remaining[i] -= iters;
            if state.remaining[i] <= 0.0 {
                state.remaining[i] = 0.0;
                state.done[i] = true;
                tracks[i].completion = Some(stop);
            }
            let x = cross_traffic(&world, i, &shares[i]);
            cross += x * iters;
            let t = &mut tracks[i];
            match t.segments.last_mut() {
                Some(seg) if !changed && !paced => {
                    seg.end_s = stop;
                    seg.iterations += iters;
                }
                _ => t.segments.push(Segment {
                    start_s: start,
                    end_s: stop,
                    workers: w,
                    ps: p,
                    placement: shares[i].clone(),
                    locality_factor: rho[i],
                    iterations: iters,
                    slowdown: packed.as_ref().map(|_| slowdown),
                    continues: paced,
                }),
            }
            t.shares = shares[i].clone();
            t.rho = rho[i];
            t.slowdown = slowdown;
            state.current[i] = if state.done[i] { None } else { Some((w, p)) };
        }
        let mut gpus = None;
        if let (Some(x), Some(tot)) = (packed, shared_totals.as_mut()) {
            // The GPUs really in use, not the effective shares admission counted.
            used[0] = x.gpus_used;
            let hours = (end - now) / 3600.0;
            tot.gpu_hours += x.gpus_used * hours;
            tot.exclusive_gpu_hours += x.exclusive_gpus * hours;
            tot.performance.0 += x.performance.0;
            tot.performance.1 += x.performance.1;
            if opts.gpus {
                gpus = Some(x.gpus);
            }
        }
        slots.push(SlotUse {
            start_s: now,
            used: Resources::from_array(used),
            gpus,
        });
        k += 1;
        if let Some(f) = opts.progress.as_mut() {
            f(Progress {
                policy,
                slots: k,
                time_s: end,
                finished: state.done.iter().filter(|&&d| d).count(),
                jobs: n,
            });
        }
        if opts.cancel.is_some_and(|c| c()) {
            return Err(SimError::Cancelled);
        }
        // Nothing ran and nothing will arrive: the guard found no waiting job that can
        // ever run (a request no machine holds, a job no region admits).
        if !ran && !future {
            break End::Stuck;
        }
    };
    for i in 0..n {
        if !state.done[i] {
            tracks[i].why = Some(unfinished_reason(&world, i, &tracks[i], end)?);
        }
    }
    let jobs: Vec<JobRun> = (0..n)
        .map(|i| {
            let t = &tracks[i];
            let m = &world.models[i];
            let arrival = world.arrival[i];
            let jct = t.completion.map(|c| c - arrival);
            JobRun {
                id: s.jobs[i].id.clone(),
                arrival_s: arrival,
                first_start_s: t.segments.first().map(|g| g.start_s),
                completion_s: t.completion,
                jct_s: jct,
                utility: jct.map_or(0.0, |j| m.mu(m.pi(j))),
                restarts: t
                    .segments
                    .iter()
                    .filter(|g| !g.continues)
                    .count()
                    .saturating_sub(1) as u64,
                segments: t.segments.clone(),
                waiting: t.why.clone(),
            }
        })
        .collect();
    Ok(Run {
        policy,
        metrics: Metrics::of(
            &jobs,
            bound_total,
            cross,
            shared_totals.map(|t| t.summary()),
        ),
        jobs,
        slots,
    })
}

/// The liveness guard (docs/MODEL.md §17): a slot in which nothing would run starts the
/// first waiting job, by arrival, that can run alone, at what it gets alone. The cluster is
/// empty then, so it runs (its packing is made anew: the first settling emptied it).
fn guard(
    world: &World,
    sharing: Option<&mut crate::sharing::Sharing>,
    active: &[usize],
    state: &State,
    previous: &crate::settle::Previous,
    settled: Settled,
) -> Result<Settled, Error> {
    for &i in active {
        if let Ok(a) = alone(world, i)? {
            let mut d = Decision::none(world.s.jobs.len());
            d.why = settled.why;
            d.alloc[i] = Some(a);
            d.why[i] = None;
            return settle(world, sharing, active, state, previous, d, true);
        }
    }
    Ok(settled)
}

/// Why job `i` did not finish (docs/MODEL.md §17): it can never run, it arrives after the
/// run's end, or the horizon cut it (running, or after its last wait).
fn unfinished_reason(world: &World, i: usize, t: &Track, end: End) -> Result<String, Error> {
    if let Err(why) = alone(world, i)? {
        return Ok(format!("can never run: {why}"));
    }
    let h = match end {
        End::Horizon(at) => at.min(world.horizon),
        // The guard runs any job that can run alone, so only the two cases above remain.
        End::Finished | End::Stuck => return Ok(t.why.clone().unwrap_or_default()),
    };
    let first = world.boundary_after(world.arrival[i]);
    Ok(if first >= h {
        format!(
            "the horizon ({h} s) comes before its first slot boundary ({first} s, after its arrival at {} s)",
            world.arrival[i]
        )
    } else if t.segments.last().is_some_and(|g| g.end_s >= h) {
        let done = 100.0 * t.segments.iter().map(|g| g.iterations).sum::<f64>()
            / world.s.jobs[i].iterations;
        format!("cut by the horizon ({h} s) while running, {done:.1}% done")
    } else {
        match &t.why {
            Some(w) => format!("{w}; then the horizon ({h} s) came"),
            None => format!("the horizon ({h} s) came before it ran"),
        }
    })
}

/// A policy's decision must be inside each job's Ω and within the cluster's capacity; a
/// violation is a bug in the policy, reported rather than simulated.
fn check(
    world: &World,
    active: &[usize],
    alloc: &[Option<(u64, u64)>],
    policy: SimPolicy,
    k: usize,
) -> Result<(), Error> {
    let mut used = [0.0; 4];
    for (i, a) in alloc.iter().enumerate() {
        let Some((w, p)) = *a else { continue };
        let m = &world.models[i];
        if !active.contains(&i) || !m.omega.contains(w as f64, p as f64) {
            return Err(Error::Solver(format!(
                "{policy} gave job {:?} ({w}, {p}) in slot {k}, outside its region or before it arrived",
                world.s.jobs[i].id
            )));
        }
        let d = m.demand(w as f64, p as f64);
        for r in 0..4 {
            used[r] += d[r];
        }
    }
    let fits = |u: f64, c: f64| u <= c + 1e-9 * c.abs().max(1.0);
    if (0..4).all(|r| fits(used[r], world.cap[r])) {
        Ok(())
    } else {
        Err(Error::Solver(format!(
            "{policy} over-filled the cluster in slot {k}"
        )))
    }
}

/// X of job `i` at (w, p) with its shares (0 on a pool, where no machine is named).
fn cross_traffic(world: &World, i: usize, shares: &Option<Vec<PlacedShare>>) -> f64 {
    let g = 8.0 * world.s.jobs[i].model_size_mb / 1000.0;
    shares.as_ref().map_or(0.0, |sh| {
        let f: Vec<(f64, f64)> = sh.iter().map(|s| (s.workers as f64, s.ps as f64)).collect();
        smd_core::locality::cross_traffic_gbit(g, &f)
    })
}
