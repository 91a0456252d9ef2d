//! A slot's decisions made real (docs/MODEL.md §17): on machines the placement stage —
//! running jobs that keep their allocation keep their machines, the others are placed on
//! what those leave, and a choice that cannot be placed falls back (a running job to what
//! it ran, any job to the largest smaller allocation that can be placed); with GPU sharing
//! the packing. Also what each job gets alone on the empty cluster, which the liveness
//! rules of §17 read.

use crate::sharing::{Sharing, SlotSharing};
use crate::world::Why;
use crate::world::{fits, requested, Decision, State, World};
use smd_core::plan::PlacedShare;
use smd_core::Error;
use smd_place::fallback::{place_smaller, remaining, smaller};

/// A slot after placement and packing: who runs where, and why the others wait.
pub(crate) struct Settled {
    /// Workers and PSs of each job that runs.
    pub alloc: Vec<Option<(u64, u64)>>,
    /// Why a job waits.
    pub why: Vec<Option<Why>>,
    /// Each running job's machines (on machines).
    pub shares: Vec<Option<Vec<PlacedShare>>>,
    /// Each running job's locality factor.
    pub rho: Vec<f64>,
    /// The GPU packing, with sharing on.
    pub packed: Option<SlotSharing>,
    /// The machines the policy chose itself (the decision's, kept for its vectors' reuse).
    pub placed: Vec<Option<Vec<PlacedShare>>>,
}

/// Last slot's machines and locality factor of each job.
pub(crate) type Previous = [(Option<Vec<PlacedShare>>, f64)];

/// Places and packs `decision`. With `fresh_packing` every running job's workers are
/// packed anew (the packing's state holds none of them: see the liveness guard).
pub(crate) fn settle(
    world: &World,
    sharing: Option<&mut Sharing>,
    active: &[usize],
    state: &State,
    previous: &Previous,
    decision: Decision,
    fresh_packing: bool,
) -> Result<Settled, Error> {
    let n = world.s.jobs.len();
    let Decision {
        mut alloc,
        mut why,
        placed,
    } = decision;
    // The last slot's vectors when the engine handed them back.
    let (mut shares, mut rho) = world.settled.take();
    shares.clear();
    shares.resize(n, None);
    rho.clear();
    rho.resize(n, 1.0);
    if !world.machines.is_empty() {
        let mut out = Placed {
            alloc: &mut alloc,
            why: &mut why,
            shares: &mut shares,
            rho: &mut rho,
        };
        place(world, active, state, previous, &placed, &mut out)?;
    }
    let packed = match sharing {
        Some(sh) => {
            let keep: Vec<bool> = (0..n)
                .map(|i| {
                    !fresh_packing
                        && alloc[i].is_some()
                        && state.current[i] == alloc[i]
                        && previous[i].0 == shares[i]
                })
                .collect();
            Some(sh.slot(
                world.given,
                active,
                &mut alloc,
                &mut shares,
                &keep,
                &mut why,
            )?)
        }
        None => None,
    };
    Ok(Settled {
        alloc,
        why,
        shares,
        rho,
        packed,
        placed,
    })
}

/// The placement stage's outputs, per job.
struct Placed<'a> {
    alloc: &'a mut [Option<(u64, u64)>],
    why: &'a mut [Option<Why>],
    shares: &'a mut [Option<Vec<PlacedShare>>],
    rho: &'a mut [f64],
}

/// Places the slot's running jobs on machines: those running unchanged keep their shares;
/// the others go, in order, on what is left; one that does not fit falls back (module doc)
/// or waits this slot.
fn place(
    world: &World,
    active: &[usize],
    state: &State,
    previous: &Previous,
    chosen: &[Option<Vec<PlacedShare>>],
    out: &mut Placed,
) -> Result<(), Error> {
    let machines = &world.machines;
    // What the running jobs leave, in the world's buffer (every slot asks: its names'
    // strings are reused rather than cloned); a fresh one if a caller already holds it.
    let mut own = Vec::new();
    let mut held = world.left.try_borrow_mut();
    let left: &mut Vec<smd_place::Machine> = match held.as_deref_mut() {
        Ok(buffer) => buffer,
        Err(_) => &mut own,
    };
    left.clone_from(machines);
    let mut fresh: Vec<usize> = Vec::new();
    for &i in active {
        let Some(a) = out.alloc[i] else { continue };
        // A policy that placed the job itself (the reference's): its machines as chosen.
        if let Some(sh) = &chosen[i] {
            take(left, &world.s.jobs[i], sh, false);
            out.shares[i] = Some(sh.clone());
            out.rho[i] = 1.0;
            continue;
        }
        match (&previous[i].0, state.current[i] == Some(a)) {
            (Some(sh), true) => {
                take(left, &world.s.jobs[i], sh, false);
                out.shares[i] = Some(sh.clone());
                out.rho[i] = previous[i].1;
            }
            _ => fresh.push(i),
        }
    }
    if fresh.is_empty() {
        return Ok(());
    }
    let jobs: Vec<smd_place::Job> = fresh
        .iter()
        .map(|&i| {
            let (w, p) = out.alloc[i].unwrap_or((0, 0));
            smd_place::Job::of(&world.s.jobs[i], w, p)
        })
        .collect();
    let placed = smd_place::place(left, &jobs, world.placement, &world.place_opts)?;
    let mut rest = remaining(left, &placed);
    let mut missed = Vec::new();
    for (k, &i) in fresh.iter().enumerate() {
        match &placed.jobs[k] {
            smd_place::Outcome::Placed(p) => {
                out.shares[i] = Some(p.named_shares(machines));
                out.rho[i] = p.locality_factor;
            }
            smd_place::Outcome::NotPlaced(reason) => missed.push((k, i, reason.clone())),
        }
    }
    // The fallback, in the policy's order, on what the placed jobs leave.
    for (k, i, reason) in missed {
        if let (Some(current), (Some(sh), r)) = (state.current[i], &previous[i]) {
            if take(&mut rest, &world.s.jobs[i], sh, true) {
                out.alloc[i] = Some(current);
                out.shares[i] = Some(sh.clone());
                out.rho[i] = *r;
                continue;
            }
        }
        match place_smaller(&mut rest, &jobs[k], world.placement, &world.place_opts)? {
            Some((job, p)) => {
                out.alloc[i] = Some((u64::from(job.workers), u64::from(job.ps)));
                out.shares[i] = Some(p.named_shares(machines));
                out.rho[i] = p.locality_factor;
            }
            None => {
                out.alloc[i] = None;
                out.why[i] = Some(format!("not placed: {reason}").into());
            }
        }
    }
    Ok(())
}

/// Takes job's `shares` off `left` (one share per machine, as placement names them). With
/// `check`, only if every share fits (capacity and NIC, placement's tolerance), reporting
/// whether it did; without, always (never below 0).
fn take(
    left: &mut [smd_place::Machine],
    job: &smd_core::scenario::Job,
    shares: &[PlacedShare],
    check: bool,
) -> bool {
    // (machine, demand, NIC) of each share on a known machine.
    let needs: Vec<(usize, [f64; 4], f64)> = shares
        .iter()
        .filter_map(|s| {
            let h = left.iter().position(|m| m.name == s.machine)?;
            let d = job.worker.scale(s.workers as f64).to_array();
            let e = job.ps.scale(s.ps as f64).to_array();
            let need = std::array::from_fn(|r| d[r] + e[r]);
            Some((h, need, s.ps as f64 * job.ps_bandwidth_gbps))
        })
        .collect();
    let tol = |x: f64| smd_place::TOLERANCE * x.abs().max(1.0);
    let fits = |&(h, need, nic_need): &(usize, [f64; 4], f64)| {
        let c = left[h].capacity.to_array();
        (0..4).all(|r| need[r] <= c[r] + tol(c[r]))
            && left[h]
                .nic_gbps
                .is_none_or(|nic| nic_need <= nic + tol(nic))
    };
    if check && !needs.iter().all(fits) {
        return false;
    }
    for (h, need, nic_need) in needs {
        let m = &mut left[h];
        let c = m.capacity.to_array();
        m.capacity = smd_core::scenario::Resources::from_array(std::array::from_fn(|r| {
            (c[r] - need[r]).max(0.0)
        }));
        if let Some(nic) = m.nic_gbps.as_mut() {
            *nic = (*nic - nic_need).max(0.0);
        }
    }
    true
}

/// What job `i` gets alone on the empty cluster (docs/MODEL.md §17, "Liveness"): the first
/// of its requested allocation and the smaller ones ([`smaller`]) that the slot's stages —
/// capacity, placement with its fallback, GPU packing — let it run at; `Err` says why none
/// can (it can never run). Computed once per job.
pub(crate) fn alone(world: &World, i: usize) -> Result<Result<(u64, u64), String>, Error> {
    if let Some(v) = world.alone[i].get() {
        return Ok(v.clone());
    }
    let v = alone_now(world, i)?;
    let _ = world.alone[i].set(v.clone());
    Ok(v)
}

fn alone_now(world: &World, i: usize) -> Result<Result<(u64, u64), String>, Error> {
    let m = &world.models[i];
    if !m.feasible() {
        return Ok(Err("its (1, 1) exceeds its limit".into()));
    }
    let n = world.s.jobs.len();
    let state = State::empty(n);
    let previous = vec![(None, 1.0); n];
    let first = requested(world, i);
    let mut why = String::new();
    for a in std::iter::once(first).chain(smaller(first.0, first.1)) {
        let d = m.demand(a.0 as f64, a.1 as f64);
        if !fits(&d, &world.cap) {
            why = format!("({}, {}) needs more than the whole cluster", a.0, a.1);
            continue;
        }
        let mut sharing = Sharing::new(world.given)?;
        let mut decision = Decision::none(n);
        decision.alloc[i] = Some(a);
        let mut s = settle(
            world,
            sharing.as_mut(),
            &[i],
            &state,
            &previous,
            decision,
            false,
        )?;
        match s.alloc[i] {
            Some(b) => return Ok(Ok(b)),
            None => why = s.why[i].take().as_deref().unwrap_or_default().to_owned(),
        }
    }
    Ok(Err(why))
}
