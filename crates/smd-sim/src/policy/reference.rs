//! The reference simulator's fixed-batch policies (POLLUX-SIM.md §4.1–§4.2, docs/MODEL.md
//! §21.1), for measured jobs on machines: `optimus_oracle` (one GPU each in arrival order,
//! then GPUs by marginal gain on the exact remaining work) and `tiresias` (two-queue
//! discretised least-attained-service with preemption and backfilling, gang-scheduled
//! requests). Both place as they allocate: a job whose GPU count is unchanged keeps its
//! machines, the others take GPUs greedily from the machine with the most free GPUs
//! (lowest index on ties).

use super::Decide;
use crate::world::{Decision, Slot, World};
use smd_core::allreduce::Curve;
use smd_core::plan::PlacedShare;
use smd_core::Error;

/// Tiresias' threshold between its two queues, GPU-seconds (16 GPU-hours).
pub const TIRESIAS_THRESHOLD_GPU_S: f64 = 57_600.0;

/// Each job's measured curve, or the error naming the first job that has none.
pub(super) fn curves<'a>(world: &'a World, policy: &str) -> Result<Vec<&'a Curve>, Error> {
    world
        .models
        .iter()
        .zip(&world.s.jobs)
        .map(|(m, j)| {
            m.measured
                .as_ref()
                .ok_or_else(|| crate::hetero_input::measured_only(&j.id, &policy, "§21.1"))
        })
        .collect()
}

/// The GPUs free on each machine once the `kept` jobs keep their shares.
fn free_after(world: &World, kept: &[&Vec<PlacedShare>]) -> Vec<u32> {
    let mut free: Vec<u32> = world
        .machines
        .iter()
        .map(|m| m.capacity.gpu.max(0.0).floor() as u32)
        .collect();
    for shares in kept {
        for s in shares.iter() {
            if let Some(h) = world.machines.iter().position(|m| m.name == s.machine) {
                free[h] = free[h].saturating_sub(s.workers as u32);
            }
        }
    }
    free
}

/// `need` GPUs taken greedily (POLLUX-SIM.md §4.1): repeatedly min(free, still needed) from
/// the machine with the most free GPUs, the lowest index on ties; `None` if they do not
/// fit (nothing is taken then).
fn greedy(world: &World, free: &mut [u32], need: u32) -> Option<Vec<PlacedShare>> {
    if free.iter().map(|&f| u64::from(f)).sum::<u64>() < u64::from(need) {
        return None;
    }
    let mut shares = Vec::new();
    let mut left = need;
    while left > 0 {
        let (h, &most) = free
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
        let k = most.min(left);
        free[h] -= k;
        left -= k;
        shares.push(PlacedShare {
            machine: world.machines[h].name.clone(),
            workers: u64::from(k),
            ps: 0,
        });
    }
    Some(shares)
}

/// The GPUs of the cluster the reference's policies share out.
pub(super) fn total_gpus(world: &World) -> u32 {
    world.cap[0].max(0.0).floor() as u32
}

/// Places the jobs with `gpus[i] > 0`: one whose count is what it ran with keeps its
/// machines; the others, in ascending order of GPUs (arrival order on ties), greedily.
/// Fills `d`'s allocations and placements; a job that cannot be placed waits.
fn place_all(slot: &Slot, order: &[usize], gpus: &[u32], d: &mut Decision, policy: &str) {
    let world = slot.world;
    let keeps = |i: usize| {
        gpus[i] > 0
            && slot.state.current[i] == Some((u64::from(gpus[i]), 0))
            && slot.shares[i].0.is_some()
    };
    let kept: Vec<&Vec<PlacedShare>> = order
        .iter()
        .filter(|&&i| keeps(i))
        .filter_map(|&i| slot.shares[i].0.as_ref())
        .collect();
    let mut free = free_after(world, &kept);
    for &i in order.iter().filter(|&&i| keeps(i)) {
        d.alloc[i] = Some((u64::from(gpus[i]), 0));
        d.placed[i] = slot.shares[i].0.clone();
    }
    let mut fresh: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| gpus[i] > 0 && !keeps(i))
        .collect();
    fresh.sort_by_key(|&i| gpus[i]);
    for i in fresh {
        match greedy(world, &mut free, gpus[i]) {
            Some(shares) => {
                d.alloc[i] = Some((u64::from(gpus[i]), 0));
                d.placed[i] = (!world.machines.is_empty()).then_some(shares);
            }
            None if world.machines.is_empty() => d.alloc[i] = Some((u64::from(gpus[i]), 0)),
            None => {
                d.why[i] = Some(format!("{policy}: its GPUs do not fit the free machines").into())
            }
        }
    }
}

/// Optimus+Oracle (POLLUX-SIM.md §4.1).
pub(crate) struct OptimusOracle;

impl Decide for OptimusOracle {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let world = slot.world;
        let curves = curves(world, "optimus_oracle")?;
        let n = world.s.jobs.len();
        let mut d = slot.decision();
        let mut g = total_gpus(world);
        let mut gpus = vec![0u32; n];
        // T(r) per job, memoised within the slot.
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut t = |i: usize, r: u32| -> f64 {
            let v = &mut times[i];
            while v.len() <= r as usize {
                let k = v.len() as u32;
                v.push(if k == 0 {
                    f64::INFINITY
                } else {
                    curves[i].oracle_iteration(k)
                });
            }
            v[r as usize]
        };
        let remaining: Vec<f64> = (0..n)
            .map(|i| curves[i].oracle_remaining(&slot.state.progress[i]))
            .collect();
        let mut gain = |i: usize, r: u32, g: u32| -> f64 {
            if r == 0 || g == 0 || r + 1 > curves[i].cap {
                0.0
            } else {
                (t(i, r) - t(i, r + 1)) * remaining[i]
            }
        };
        let mut gains = vec![0.0; n];
        for &i in slot.active {
            if g >= 1 {
                gpus[i] = 1;
                g -= 1;
            }
            gains[i] = gain(i, gpus[i], g);
        }
        while g > 0 {
            // The largest gain, the first in arrival order on ties.
            let best = slot
                .active
                .iter()
                .copied()
                .fold(None::<usize>, |b, i| match b {
                    Some(j) if gains[j] >= gains[i] => Some(j),
                    _ => Some(i),
                });
            let Some(i) = best.filter(|&i| gains[i] > 0.0) else {
                break;
            };
            gpus[i] += 1;
            g -= 1;
            gains[i] = gain(i, gpus[i], g);
        }
        for &i in slot.active {
            if gpus[i] == 0 {
                d.why[i] = Some(
                    "optimus_oracle: no GPU left (one each in arrival order, then by marginal gain)"
                        .into(),
                );
            }
        }
        place_all(slot, slot.active, &gpus, &mut d, "optimus_oracle");
        Ok(d)
    }
}

/// Tiresias (POLLUX-SIM.md §4.2): its queues and each job's attained service.
pub(crate) struct Tiresias {
    q0: Vec<usize>,
    q1: Vec<usize>,
    seen: Vec<bool>,
    running: Vec<bool>,
    executed: Vec<f64>,
    last_check: Vec<f64>,
}

impl Tiresias {
    pub fn new(world: &World) -> Tiresias {
        let n = world.s.jobs.len();
        Tiresias {
            q0: Vec::new(),
            q1: Vec::new(),
            seen: vec![false; n],
            running: vec![false; n],
            executed: vec![0.0; n],
            last_check: vec![0.0; n],
        }
    }
}

impl Decide for Tiresias {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let world = slot.world;
        curves(world, "tiresias")?;
        let n = world.s.jobs.len();
        let now = slot.now;
        let done = &slot.state.done;
        self.q0.retain(|&i| !done[i]);
        self.q1.retain(|&i| !done[i]);
        for &i in slot.active {
            if !self.seen[i] {
                self.seen[i] = true;
                self.q0.push(i);
                self.last_check[i] = now;
            }
        }
        // Attained service; Q0's jobs past the threshold move to the end of Q1.
        let mut demoted = Vec::new();
        for &i in self.q0.iter().chain(&self.q1) {
            if self.running[i] {
                self.executed[i] += now - self.last_check[i];
            }
            self.last_check[i] = now;
        }
        for &i in &self.q0 {
            let replicas = requested(world, i);
            if self.running[i] && self.executed[i] * f64::from(replicas) >= TIRESIAS_THRESHOLD_GPU_S
            {
                demoted.push(i);
            }
        }
        self.q0.retain(|i| !demoted.contains(i));
        self.q1.extend(demoted);
        // Status: whole requests in queue order; a job that does not fit waits and does
        // not block the ones behind it.
        let mut left = total_gpus(world);
        let mut gpus = vec![0u32; n];
        let order: Vec<usize> = self.q0.iter().chain(&self.q1).copied().collect();
        for &i in &order {
            let r = requested(world, i);
            if r <= left {
                gpus[i] = r;
                left -= r;
                self.running[i] = true;
            } else {
                self.running[i] = false;
            }
        }
        let mut d = slot.decision();
        for &i in &order {
            if gpus[i] == 0 {
                let queue = if self.q0.contains(&i) { "Q0" } else { "Q1" };
                d.why[i] = Some(
                    format!(
                    "tiresias: its {} GPUs do not fit what the jobs ahead of it in {queue} left",
                    requested(world, i)
                )
                    .into(),
                );
            }
        }
        place_all(slot, &order, &gpus, &mut d, "tiresias");
        for &i in &order {
            self.running[i] = d.alloc[i].is_some();
        }
        Ok(d)
    }
}

/// A job's gang request: its `requested_workers` (at least 1, at most its cap).
fn requested(world: &World, i: usize) -> u32 {
    let cap = world.models[i]
        .measured
        .as_ref()
        .map_or(1, |c| c.cap.max(1));
    let r = world.s.jobs[i].requested_workers.unwrap_or(1.0);
    (r.round().max(1.0) as u32).min(cap)
}
