//! The slot loop of docs/MODEL.md §17: decide, settle (place, pack), progress, record.

use crate::options::{Options, Progress, SimError, SimPolicy};
use crate::output::{
    cut_while_running, horizon_before_it_ran, JobRun, Metrics, Run, Segment, SlotUse,
};
use crate::policy::{self, Decide};
use crate::settle::{alone, settle, Settled};
use crate::sharing::SlotSharing;
use crate::world::{Decision, Slot, State, World};
use smd_core::plan::PlacedShare;
use smd_core::scenario::Resources;
use smd_core::{Error, Scenario};

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
    completion: Option<f64>,
    why: Option<crate::world::Why>,
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

/// Simulates `given` with `policy` (docs/MODEL.md §17): the bound, then slot after slot
/// until every job finished, the horizon or nothing can ever run; then each job's record.
pub(crate) fn run(
    given: &Scenario,
    policy: SimPolicy,
    opts: &mut Options,
) -> Result<Run, SimError> {
    if policy.is_hetero() {
        return crate::hetero::run(given, policy, opts);
    }
    given.t4_only(policy.name())?;
    run_with(given, policy, opts, &|world| policy::of(policy, world))
}

/// [`run`] with the decision maker `make` builds for the world (a policy with options).
pub(crate) fn run_with(
    given: &Scenario,
    policy: SimPolicy,
    opts: &mut Options,
    make: &dyn Fn(&World) -> Box<dyn Decide>,
) -> Result<Run, SimError> {
    // With GPU sharing the policies, placement and bound see each shareable worker at its
    // effective share of a GPU (MODEL §18); the packing stage then shares GPUs for real.
    let sharing = crate::sharing::Sharing::new(given)?;
    let effective;
    let s = if sharing.is_some() {
        effective = smd_place::effective_scenario(given);
        &effective
    } else {
        given
    };
    // A policy that chooses its jobs' batches plans them with the batch free (ncf's kept,
    // as the reference keeps it: MODEL.md §23).
    let chosen;
    let s = if policy.learns() {
        chosen = batches_free(s);
        &chosen
    } else {
        s
    };
    let world = World::new(s, given, sharing.is_some());
    let bound = policy::bound::jobs(&world);
    let bound_total: f64 = bound.iter().map(|j| j.utility).sum();
    if policy == SimPolicy::Bound {
        return Ok(Run {
            policy,
            metrics: Metrics::of(&bound, bound_total, 0.0, None),
            jobs: bound,
            slots: Vec::new(),
            slot_s: s.interval_s(),
            stats: None,
            cost: None,
        });
    }
    let mut decide: Box<dyn Decide> = make(&world);
    let mut sim = Sim::new(&world, policy, sharing);
    let end = loop {
        if let Some(end) = sim.slot(&mut *decide, opts)? {
            break end;
        }
    };
    sim.finish(end, bound_total)
}

/// The slot loop's state between boundaries.
struct Sim<'w> {
    world: &'w World<'w>,
    policy: SimPolicy,
    /// The GPU packing, with sharing on.
    sharing: Option<crate::sharing::Sharing>,
    state: State,
    tracks: Vec<Track>,
    /// Each job's machines and locality factor in the last slot it ran: kept across
    /// slots (a policy and settling read it; only a job that runs changes it).
    previous: Vec<(Option<Vec<PlacedShare>>, f64)>,
    /// Each measured job's rate on its placement, read when the placement changes.
    rates: Vec<Option<smd_core::allreduce::Rate>>,
    slots: Vec<SlotUse>,
    /// Σ X × iterations over the run.
    cross: f64,
    shared_totals: Option<SharedTotals>,
    /// The next slot's index.
    k: usize,
}

/// What a slot's running jobs did: their demand and whether any ran.
struct Ran {
    used: [f64; 4],
    any: bool,
}

impl<'w> Sim<'w> {
    fn new(
        world: &'w World<'w>,
        policy: SimPolicy,
        sharing: Option<crate::sharing::Sharing>,
    ) -> Sim<'w> {
        let n = world.s.jobs.len();
        Sim {
            world,
            policy,
            state: State {
                remaining: world.s.jobs.iter().map(|j| j.work()).collect(),
                learners: world
                    .models
                    .iter()
                    .map(|m| {
                        m.measured
                            .as_ref()
                            .filter(|_| policy.learns())
                            .map(|c| c.learner())
                    })
                    .collect(),
                ..State::empty(n)
            },
            tracks: (0..n)
                .map(|_| Track {
                    segments: Vec::new(),
                    completion: None,
                    why: None,
                    slowdown: 1.0,
                })
                .collect(),
            previous: vec![(None, 1.0); n],
            rates: vec![None; n],
            slots: Vec::new(),
            cross: 0.0,
            shared_totals: sharing.as_ref().map(|_| SharedTotals::default()),
            sharing,
            k: 0,
        }
    }

    /// One slot: decide, settle, progress, record. `Some` when the loop ends before it.
    fn slot(
        &mut self,
        decide: &mut dyn Decide,
        opts: &mut Options,
    ) -> Result<Option<End>, SimError> {
        let world = self.world;
        let n = world.s.jobs.len();
        let now = self.k as f64 * world.delta;
        let finished = self.state.done.iter().filter(|&&d| d).count();
        if finished == n {
            return Ok(Some(End::Finished));
        }
        if now >= world.horizon {
            return Ok(Some(End::Horizon(now)));
        }
        // By arrival, so the jobs seen by now come first.
        let active: Vec<usize> = world
            .order
            .iter()
            .copied()
            .take_while(|&i| world.seen[i] <= now)
            .filter(|&i| !self.state.done[i])
            .collect();
        let future = (0..n).any(|i| !self.state.done[i] && world.seen[i] > now);
        if active.is_empty() {
            if !future {
                return Ok(Some(End::Finished));
            }
            self.slots.push(SlotUse {
                start_s: now,
                used: Resources::default(),
                gpus: None,
            });
            self.k += 1;
            return Ok(None);
        }
        let settled = self.decide(decide, &active, now)?;
        // A slot cut by the horizon: what would finish after it does not count.
        let end = (now + world.delta).min(world.horizon);
        let (ran, packed) = self.progress(&active, settled, now, end);
        self.record(ran.used, packed, now, end, opts.gpus);
        if let Some(f) = opts.progress.as_mut() {
            f(Progress {
                policy: self.policy,
                slots: self.k,
                time_s: end,
                finished: self.state.done.iter().filter(|&&d| d).count(),
                jobs: n,
            });
        }
        if opts.cancel.is_some_and(|c| c()) {
            return Err(SimError::Cancelled);
        }
        // Nothing ran and nothing will arrive: the guard found no waiting job that can
        // ever run (a request no machine holds, a job no region admits).
        if !ran.any && !future {
            return Ok(Some(End::Stuck));
        }
        Ok(None)
    }

    /// Decide: the policy's allocations, checked, then settled (placed, packed); the
    /// liveness guard when nothing would run.
    fn decide(
        &mut self,
        decide: &mut dyn Decide,
        active: &[usize],
        now: f64,
    ) -> Result<Settled, Error> {
        let world = self.world;
        let previous = &self.previous;
        let slot = Slot {
            now,
            index: self.k,
            active,
            world,
            state: &self.state,
            shares: previous,
        };
        let decision = decide.decide(&slot)?;
        check(world, active, &decision.alloc, self.policy, self.k)?;
        let mut settled = settle(
            world,
            self.sharing.as_mut(),
            active,
            &self.state,
            previous,
            decision,
            false,
        )?;
        if !active.iter().any(|&i| settled.alloc[i].is_some()) {
            settled = guard(
                world,
                self.sharing.as_mut(),
                active,
                &self.state,
                previous,
                settled,
            )?;
        }
        Ok(settled)
    }

    /// Progress: each active job waits (with its reason) or runs from `now` (after a
    /// restart when it starts or changes) to `end`. Returns the GPU packing for the record.
    fn progress(
        &mut self,
        active: &[usize],
        settled: Settled,
        now: f64,
        end: f64,
    ) -> (Ran, Option<SlotSharing>) {
        let Settled {
            alloc,
            mut why,
            mut shares,
            rho,
            packed,
            placed,
        } = settled;
        let mut ran = Ran {
            used: [0.0; 4],
            any: false,
        };
        for &i in active {
            let Some((w, p)) = alloc[i] else {
                self.state.current[i] = None;
                self.previous[i].0 = None;
                // Every wait has its reason: the one of the job's last wait is kept.
                self.tracks[i].why = Some(why[i].take().unwrap_or_else(|| {
                    format!("{} did not run it in this slot", self.policy).into()
                }));
                continue;
            };
            ran.any = true;
            let d = self.world.models[i].demand(w as f64, p as f64);
            for r in 0..4 {
                ran.used[r] += d[r];
            }
            let slowdown = packed.as_ref().map(|x| x.slowdown[i]);
            self.advance(i, (w, p), shares[i].take(), rho[i], slowdown, (now, end));
        }
        let mut spare = Decision { alloc, why, placed };
        spare.clear();
        self.world.spare.set(Some(spare));
        self.world.settled.set((shares, rho));
        (ran, packed)
    }

    /// Job `i` runs at (w, p) on `shares` with locality factor `rho` (and `slowdown` with
    /// GPU sharing) over the slot `(now, end)`: its iterations, completion and segment.
    fn advance(
        &mut self,
        i: usize,
        (w, p): (u64, u64),
        shares: Option<Vec<PlacedShare>>,
        rho: f64,
        slowdown: Option<f64>,
        (now, end): (f64, f64),
    ) {
        let world = self.world;
        let state = &mut self.state;
        let m = &world.models[i];
        let iterations = world.s.jobs[i].work();
        let changed = state.current[i] != Some((w, p)) || self.previous[i].0 != shares;
        let start = if changed { now + world.restart } else { now };
        let pace = slowdown.unwrap_or(1.0);
        // A co-runner arriving or leaving changes the pace, not the placement: a new
        // segment without a restart.
        let paced = !changed && pace != self.tracks[i].slowdown;
        // Its workers per machine (empty on a pool), when needed: not for a measured job
        // that keeps its placement and rate.
        let per = || smd_core::plan::workers_per_machine(shares.as_deref());
        let (stop, iters) = match &m.measured {
            // A measured job runs epoch by epoch as the reference steps it (MODEL §21.1,
            // POLLUX-SIM.md §1.4); its work counts in shares of its target.
            Some(c) => {
                let at = &mut state.progress[i];
                let before = c.share_done(at);
                let seconds = (end - start).max(0.0);
                let finished = match state.learners[i].as_mut() {
                    Some(l) => c.run_learning(at, l, w as u32, &per(), seconds, pace),
                    None => {
                        // The rate read from the measurements holds while the placement
                        // does (a slowdown paces it, not changes it).
                        if changed || self.rates[i].is_none() {
                            self.rates[i] = c.rate(w as u32, &per());
                        }
                        let rate = self.rates[i].as_ref();
                        rate.and_then(|r| c.run_at(at, r, seconds, pace))
                    }
                };
                let share = if finished.is_some() {
                    state.remaining[i]
                } else {
                    (c.share_done(at) - before).min(state.remaining[i])
                };
                // An epoch ends at its whole seconds: the last may end a fraction past
                // the slot, as the reference's completion time does.
                (finished.map_or(end, |d| start + d), share)
            }
            None => {
                let per_iter = m.t_on(w as f64, p as f64, rho, &per()) * pace / iterations;
                let can = ((end - start) / per_iter).max(0.0);
                // Round-off must not leave a sliver of work for another slot (and a restart).
                let sliver = 1e-9 * iterations;
                if state.remaining[i] <= can + sliver {
                    let all = state.remaining[i];
                    ((start + all * per_iter).min(end), all)
                } else {
                    (end, can)
                }
            }
        };
        state.remaining[i] -= iters;
        if state.remaining[i] <= 0.0 {
            state.remaining[i] = 0.0;
            state.done[i] = true;
            self.tracks[i].completion = Some(stop);
        }
        let x = cross_traffic(world, i, &shares);
        self.cross += x * iters;
        let t = &mut self.tracks[i];
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
                placement: shares.clone(),
                locality_factor: rho,
                iterations: iters,
                slowdown,
                continues: paced,
            }),
        }
        self.previous[i] = (shares, rho);
        t.slowdown = pace;
        state.current[i] = if state.done[i] { None } else { Some((w, p)) };
    }

    /// Record: the slot's use (the GPUs really in use with sharing) and the sharing totals.
    fn record(
        &mut self,
        mut used: [f64; 4],
        packed: Option<SlotSharing>,
        now: f64,
        end: f64,
        keep_gpus: bool,
    ) {
        let mut gpus = None;
        if let (Some(x), Some(tot)) = (packed, self.shared_totals.as_mut()) {
            // The GPUs really in use, not the effective shares admission counted.
            used[0] = x.gpus_used;
            let hours = (end - now) / 3600.0;
            tot.gpu_hours += x.gpus_used * hours;
            tot.exclusive_gpu_hours += x.exclusive_gpus * hours;
            tot.performance.0 += x.performance.0;
            tot.performance.1 += x.performance.1;
            if keep_gpus {
                gpus = Some(x.gpus);
            }
        }
        self.slots.push(SlotUse {
            start_s: now,
            used: Resources::from_array(used),
            gpus,
        });
        self.k += 1;
    }

    /// The run: each job's record (why an unfinished one did not finish) and the metrics.
    fn finish(mut self, end: End, bound_total: f64) -> Result<Run, SimError> {
        let world = self.world;
        let n = world.s.jobs.len();
        for i in 0..n {
            if !self.state.done[i] {
                self.tracks[i].why =
                    Some(unfinished_reason(world, i, &self.tracks[i], end)?.into());
            }
        }
        let jobs: Vec<JobRun> = (0..n).map(|i| job_run(world, i, &self.tracks[i])).collect();
        Ok(Run {
            policy: self.policy,
            metrics: Metrics::of(
                &jobs,
                bound_total,
                self.cross,
                self.shared_totals.map(|t| t.summary()),
            ),
            jobs,
            slots: self.slots,
            slot_s: world.delta,
            stats: None,
            cost: None,
        })
    }
}

/// Job `i`'s record from its track: arrival, first start, completion, JCT and utility
/// μ(π(JCT)), restarts, segments, why it waits.
fn job_run(world: &World, i: usize, t: &Track) -> JobRun {
    let m = &world.models[i];
    let arrival = world.arrival[i];
    let jct = t.completion.map(|c| c - arrival);
    JobRun {
        id: world.s.jobs[i].id.clone(),
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
        waiting: t.why.as_deref().map(str::to_owned),
    }
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
            // The first settling's vectors serve the second (nothing runs in them).
            let Settled {
                mut alloc,
                why,
                shares,
                rho,
                mut placed,
                ..
            } = settled;
            alloc.fill(None);
            placed.fill(None);
            world.settled.set((shares, rho));
            let mut d = Decision { alloc, why, placed };
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
        End::Finished | End::Stuck => return Ok(t.why.as_deref().unwrap_or_default().to_owned()),
    };
    let first = world.boundary_after(world.arrival[i]);
    Ok(if first >= h {
        format!(
            "the horizon ({h} s) comes before its first slot boundary ({first} s, after its arrival at {} s)",
            world.arrival[i]
        )
    } else if t.segments.last().is_some_and(|g| g.end_s >= h) {
        let done =
            100.0 * t.segments.iter().map(|g| g.iterations).sum::<f64>() / world.s.jobs[i].work();
        cut_while_running(h, done)
    } else {
        match &t.why {
            Some(w) => format!("{w}; then the horizon ({h} s) came"),
            None => horizon_before_it_ran(h),
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
        if !active.contains(&i) || !m.contains(w as f64, p as f64) {
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

/// `s` with every measured job's batch free, except ncf's (MODEL.md §23).
fn batches_free(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    for m in s.jobs.iter_mut().filter_map(|j| j.measured.as_mut()) {
        if m.app != smd_core::scenario::App::Ncf {
            m.batch_size = None;
        }
    }
    s
}

/// X of job `i` at (w, p) with its shares (0 on a pool, where no machine is named).
fn cross_traffic(world: &World, i: usize, shares: &Option<Vec<PlacedShare>>) -> f64 {
    let g = 8.0 * world.s.jobs[i].model_size_mb / 1000.0;
    shares.as_ref().map_or(0.0, |sh| {
        let f: Vec<(f64, f64)> = sh.iter().map(|s| (s.workers as f64, s.ps as f64)).collect();
        smd_core::locality::cross_traffic_gbit(g, &f)
    })
}
