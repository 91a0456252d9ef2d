//! `oasis` (after OASiS, Bao et al., INFOCOM 2018; docs/MODEL.md §17): when a job arrives it
//! is given its whole schedule at once — an allocation (w, p) and a start slot, run without
//! interruption to completion — the one of the largest payoff `μ(π(JCT)) − cost`, where the
//! cost prices every slot and resource it reserves at
//! `price_r(t) = L·(U/L)^(y_r(t)/C_r)` per share of the resource per slot (y the
//! reservations so far, C the capacity). The job is admitted iff the best payoff is
//! positive; reservations are kept. U and L are the largest and smallest utility per share
//! of dominant resource per slot over the scenario's jobs at their fastest allocation (the
//! original assumes such bounds are known in advance; here they are read from the whole
//! scenario — a documented advantage). Simplifications: schedules are contiguous at one
//! allocation (no per-slot resizing), starts within [`START_SLOTS`] slots of arrival, and
//! allocations are, per w, the p nearest the best p for that w. With GPU sharing a
//! shareable job's schedule assumes its worst slowdown, 1/min_performance.

use super::Decide;
use crate::output::NOT_ADMITTED;
use crate::world::{fits, Decision, Slot, World};
use smd_core::Error;

/// How many slot starts after its arrival a job's schedule may begin in.
pub const START_SLOTS: usize = 8;
/// Workers tried per job (w = 1 … this, and the job's fastest w).
const MAX_W: u64 = 64;

struct Reservation {
    start: usize,
    end: usize,
    w: u64,
    p: u64,
}

pub(crate) struct Oasis {
    reserved: Vec<[f64; 4]>,
    /// `price(reserved[t][r] / cap[r])`, kept with `reserved`: a schedule's cost reads
    /// every slot it spans for every candidate, and the price only changes on a reservation.
    prices: Vec<[f64; 4]>,
    /// `price(0)`, the price of a slot nothing is reserved in yet.
    free_price: f64,
    plan: Vec<Option<Reservation>>,
    seen: Vec<bool>,
    /// Why a job waits: refused, or reserved for later.
    why: Vec<Option<crate::world::Why>>,
    u: f64,
    l: f64,
}

impl Oasis {
    pub fn new(world: &World) -> Oasis {
        let n = world.s.jobs.len();
        let densities: Vec<f64> = (0..n)
            .filter_map(|i| {
                let m = &world.models[i];
                let (w, p, t) = m.integer_optimum()?;
                let value = m.mu(m.pi(t + world.restart));
                let slots = ((t + world.restart) / world.delta).ceil().max(1.0);
                let share = dominant(&m.demand(w as f64, p as f64), &world.cap);
                (value > 0.0 && share > 0.0).then(|| value / (share * slots))
            })
            .collect();
        let u = densities.iter().copied().fold(0.0, f64::max);
        let l = densities.iter().copied().fold(f64::INFINITY, f64::min);
        let (u, l) = if u > 0.0 {
            (u, l.max(u * 1e-6))
        } else {
            (1.0, 1.0)
        };
        let mut o = Oasis {
            reserved: Vec::new(),
            prices: Vec::new(),
            free_price: 0.0,
            plan: (0..n).map(|_| None).collect(),
            seen: vec![false; n],
            why: vec![None; n],
            u,
            l,
        };
        o.free_price = o.price(0.0);
        o
    }

    fn price(&self, x: f64) -> f64 {
        self.l * libm::pow(self.u / self.l, x.clamp(0.0, 1.0))
    }

    /// The best schedule of job i arriving by slot k: `(payoff, reservation)`.
    fn best(&self, slot: &Slot, i: usize) -> Option<(f64, Reservation)> {
        let world = slot.world;
        let m = &world.models[i];
        let k = slot.index;
        let mut ws: Vec<u64> = (1..=m.w_max_int().min(MAX_W)).collect();
        if let Some((w, _, _)) = m.integer_optimum() {
            ws.push(w);
        }
        let mut best: Option<(f64, Reservation)> = None;
        for &w in &ws {
            let range = m.p_range(w);
            if range.is_empty() {
                continue;
            }
            let pmin = *range.start();
            let pb = m.best_p_for(w as f64);
            let mut ps = vec![pmin, pb.floor() as u64, pb.ceil() as u64];
            ps.retain(|&p| range.contains(&p));
            ps.dedup();
            for &p in &ps {
                // With GPU sharing the schedule allows for the worst slowdown co-runners may
                // cause, so the job finishes inside its reservation.
                let t = m.t(w as f64, p as f64) * world.worst_slowdown[i];
                let d = m.demand(w as f64, p as f64);
                // The cost of one slot at the free price (the least price).
                let mut least = 0.0;
                add_slot(&mut least, &[self.free_price; 4], &d, &world.cap);
                for start in k..k + START_SLOTS {
                    let t0 = start as f64 * world.delta;
                    let completion = t0 + world.restart + t;
                    if completion > world.horizon {
                        break;
                    }
                    // Slots start … end−1 hold it (a completion on a boundary ends there).
                    let end = ((completion / world.delta).ceil() as usize).max(start + 1);
                    let value = m.mu(m.pi(completion - world.arrival[i]));
                    // Every slot costs at least the free price: a schedule whose value
                    // less that cannot beat the best so far is not priced (the bound
                    // shaved by far more than the sum's rounding, so none that could win
                    // is skipped).
                    if let Some(b) = best
                        .as_ref()
                        .filter(|b| value - least * (end - start) as f64 * (1.0 - 1e-9) <= b.0)
                    {
                        // (The tests' builds price it anyway: it must not have won.)
                        debug_assert!(self
                            .cost(start, end, &d, &world.cap)
                            .is_none_or(|cost| value - cost <= b.0));
                        continue;
                    }
                    let Some(cost) = self.cost(start, end, &d, &world.cap) else {
                        continue;
                    };
                    let payoff = value - cost;
                    if best.as_ref().is_none_or(|b| payoff > b.0) {
                        best = Some((payoff, Reservation { start, end, w, p }));
                    }
                }
            }
        }
        best
    }

    /// The priced cost of reserving `d` in slots start … end−1, or `None` if it does not fit.
    fn cost(&self, start: usize, end: usize, d: &[f64; 4], cap: &[f64; 4]) -> Option<f64> {
        let mut cost = 0.0;
        for t in start..end {
            let y = self.reserved.get(t).copied().unwrap_or([0.0; 4]);
            let price = self.prices.get(t).copied().unwrap_or([self.free_price; 4]);
            let after: [f64; 4] = std::array::from_fn(|r| y[r] + d[r]);
            if !fits(&after, cap) {
                return None;
            }
            add_slot(&mut cost, &price, d, cap);
        }
        Some(cost)
    }

    fn reserve(&mut self, start: usize, end: usize, d: &[f64; 4], cap: &[f64; 4]) {
        if self.reserved.len() < end {
            self.reserved.resize(end, [0.0; 4]);
            self.prices.resize(end, [self.free_price; 4]);
        }
        // Neighbouring slots often hold the same reservations: a price is computed again
        // only when its share differs from the last one computed (the same number).
        let mut last: [Option<(f64, f64)>; 4] = [None; 4];
        for t in start..end {
            for r in 0..4 {
                self.reserved[t][r] += d[r];
                if cap[r] > 0.0 {
                    let x = self.reserved[t][r] / cap[r];
                    let price = match last[r] {
                        Some((at, price)) if at == x => price,
                        _ => self.price(x),
                    };
                    last[r] = Some((x, price));
                    self.prices[t][r] = price;
                }
            }
        }
    }
}

/// Adds one slot's cost of demand `d` at `price` to `cost`, resource by resource
/// (`price_r · d_r / C_r` where both are positive): what [`Oasis::cost`] sums, and so what
/// its lower bound prices.
fn add_slot(cost: &mut f64, price: &[f64; 4], d: &[f64; 4], cap: &[f64; 4]) {
    for r in 0..4 {
        if cap[r] > 0.0 && d[r] > 0.0 {
            *cost += price[r] * d[r] / cap[r];
        }
    }
}

/// max_r d_r / cap_r over the resources the cluster has.
fn dominant(d: &[f64; 4], cap: &[f64; 4]) -> f64 {
    (0..4)
        .filter(|&r| cap[r] > 0.0)
        .map(|r| d[r] / cap[r])
        .fold(0.0, f64::max)
}

impl Decide for Oasis {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        let world = slot.world;
        let k = slot.index;
        for &i in slot.active {
            if self.seen[i] {
                continue;
            }
            self.seen[i] = true;
            if !world.models[i].feasible() {
                self.why[i] = Some("its (1, 1) exceeds its limit".into());
                continue;
            }
            match self.best(slot, i) {
                Some((payoff, r)) if payoff > 0.0 => {
                    let m = &world.models[i];
                    let d = m.demand(r.w as f64, r.p as f64);
                    self.reserve(r.start, r.end, &d, &world.cap);
                    // Its wait until the reservation starts, said once.
                    let from = r.start as f64 * world.delta;
                    self.why[i] = Some(format!("reserved from {from} s").into());
                    self.plan[i] = Some(r);
                }
                Some((payoff, _)) => {
                    self.why[i] = Some(
                        format!("{NOT_ADMITTED}: price too high (best payoff {payoff:.3} ≤ 0)")
                            .into(),
                    );
                }
                None => {
                    self.why[i] = Some(
                        format!("{NOT_ADMITTED}: no schedule fits within {START_SLOTS} slots")
                            .into(),
                    );
                }
            }
        }
        let mut d = slot.decision();
        for &i in slot.active {
            let Some(r) = &self.plan[i] else {
                d.why[i] = self.why[i].clone();
                continue;
            };
            if k < r.start {
                d.why[i] = self.why[i].clone();
            } else if k < r.end {
                d.alloc[i] = Some((r.w, r.p));
            } else {
                // Past its reservation and not done (a placement that failed on machines):
                // run on in this slot if the reservations leave room.
                let m = &world.models[i];
                let dm = m.demand(r.w as f64, r.p as f64);
                let (w, p) = (r.w, r.p);
                if self.cost(k, k + 1, &dm, &world.cap).is_some() {
                    self.reserve(k, k + 1, &dm, &world.cap);
                    d.alloc[i] = Some((w, p));
                } else {
                    d.why[i] = Some("past its reservation; no room this slot".into());
                }
            }
        }
        Ok(d)
    }
}
