//! The machines while jobs are placed: what each has in use, whether more tasks fit
//! (docs/PLACEMENT.md §3), the free dominant share (§5), and the draft of the job being
//! placed, which is committed whole or dropped (§2: all or nothing).
// A dimension indexes several arrays at once (capacity, use, demand).
#![allow(clippy::needless_range_loop)]

use crate::input::{Job, Machine};
use crate::output::Share;
use smd_core::scenario::Resources;

/// The relative tolerance of every capacity check: a machine holds a load `x` of a
/// resource with capacity `C` when `x ≤ C + TOLERANCE·C` (docs/PLACEMENT.md §3). It only
/// absorbs rounding (ten tasks of 0.1 GPU fill a 1-GPU machine); it never lets a whole
/// task more in.
pub const TOLERANCE: f64 = 1e-9;

/// Dimensions of a machine's capacity: the four resources, then the NIC (Gbps).
pub(crate) const DIMS: usize = 5;
/// The NIC's dimension.
pub(crate) const NIC: usize = 4;

/// A vector over [`DIMS`].
pub(crate) type Dims = [f64; DIMS];

/// A worker or a PS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Worker,
    Ps,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Worker => "worker",
            Kind::Ps => "PS",
        }
    }
}

fn dims(r: Resources, nic: f64) -> Dims {
    let [g, v, m, s] = r.to_array();
    [g, v, m, s, nic]
}

/// One job's demand per task kind, over [`DIMS`]: a PS reserves its job's B on the NIC, a
/// worker nothing (CLUSTER.md §2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Demand {
    pub worker: Dims,
    pub ps: Dims,
}

impl Demand {
    pub(crate) fn of(job: &Job) -> Demand {
        Demand {
            worker: dims(job.worker_demand, 0.0),
            ps: dims(job.ps_demand, job.bandwidth_gbps),
        }
    }
    pub(crate) fn kind(&self, kind: Kind) -> &Dims {
        match kind {
            Kind::Worker => &self.worker,
            Kind::Ps => &self.ps,
        }
    }
    /// The load of `w` workers and `p` PSs. Every check and every commit computes a job's
    /// load on a machine with this one expression, so a check and the sum it guards agree
    /// to the last bit (and the tests re-derive it the same way).
    pub(crate) fn load(&self, w: u32, p: u32) -> Dims {
        std::array::from_fn(|r| w as f64 * self.worker[r] + p as f64 * self.ps[r])
    }
}

/// The machines' capacities and what the committed jobs use.
#[derive(Clone, Debug)]
pub(crate) struct Cluster {
    cap: Vec<Dims>,
    /// `cap + TOLERANCE·cap` (∞ for an unlimited NIC).
    limit: Vec<Dims>,
    used: Vec<Dims>,
    /// Whether a committed job has a task on the machine (zero-demand tasks included).
    occupied: Vec<bool>,
}

impl Cluster {
    pub(crate) fn new(machines: &[Machine]) -> Cluster {
        let cap: Vec<Dims> = machines
            .iter()
            .map(|m| dims(m.capacity, m.nic_gbps.unwrap_or(f64::INFINITY)))
            .collect();
        let limit = cap.iter().map(|c| c.map(|v| v + TOLERANCE * v)).collect();
        Cluster {
            used: vec![[0.0; DIMS]; cap.len()],
            occupied: vec![false; cap.len()],
            cap,
            limit,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.cap.len()
    }
    pub(crate) fn used(&self, h: usize) -> &Dims {
        &self.used[h]
    }
    pub(crate) fn cap(&self, h: usize) -> &Dims {
        &self.cap[h]
    }
    pub(crate) fn limit(&self, h: usize) -> &Dims {
        &self.limit[h]
    }
    pub(crate) fn occupied(&self, h: usize) -> bool {
        self.occupied[h]
    }

    /// Whether machine h holds a job's `load` on top of what it has in use.
    pub(crate) fn fits(&self, h: usize, load: &Dims) -> bool {
        (0..DIMS).all(|r| self.used[h][r] + load[r] <= self.limit[h][r])
    }

    /// The first dimension in which `load` does not fit on machine h.
    pub(crate) fn short(&self, h: usize, load: &Dims) -> Option<usize> {
        (0..DIMS).find(|&r| self.used[h][r] + load[r] > self.limit[h][r])
    }

    /// The free dominant share of machine h with `load` added (docs/PLACEMENT.md §5):
    /// `min_r (C_r − used_r − load_r) / C_r` over the dimensions with a finite positive
    /// capacity, 0 when there is none (such a machine only holds zero-demand tasks).
    pub(crate) fn free_share(&self, h: usize, load: &Dims) -> f64 {
        let mut f = f64::INFINITY;
        for r in 0..DIMS {
            let c = self.cap[h][r];
            if c > 0.0 && c.is_finite() {
                f = f.min((c - self.used[h][r] - load[r]) / c);
            }
        }
        if f.is_finite() {
            f.max(0.0)
        } else {
            0.0
        }
    }

    /// The most tasks of `kind` (at most `want`) that fit on machine h beside the job's
    /// `w` workers and `p` PSs already drafted there.
    pub(crate) fn max_fit(
        &self,
        h: usize,
        demand: &Demand,
        kind: Kind,
        (w, p): (u32, u32),
        want: u32,
    ) -> u32 {
        let with = |k: u32| match kind {
            Kind::Worker => demand.load(w + k, p),
            Kind::Ps => demand.load(w, p + k),
        };
        if want == 0 || !self.fits(h, &with(0)) {
            return 0;
        }
        // Estimate from the slack, then settle by the exact check: the estimate is off by
        // rounding only, so each loop runs at most a step or two.
        let d = demand.kind(kind);
        let base = with(0);
        let mut k = want as f64;
        for r in 0..DIMS {
            if d[r] > 0.0 {
                let slack = self.limit[h][r] - self.used[h][r] - base[r];
                k = k.min((slack / d[r]).floor());
            }
        }
        // `as` saturates: NaN cannot occur (finite demands, ∞ − finite = ∞).
        let mut k = (k.max(0.0) as u32).min(want);
        while k > 0 && !self.fits(h, &with(k)) {
            k -= 1;
        }
        while k < want && self.fits(h, &with(k + 1)) {
            k += 1;
        }
        k
    }

    /// What machine h uses and whether it is occupied, to put back after a trial.
    pub(crate) fn state(&self, h: usize) -> (Dims, bool) {
        (self.used[h], self.occupied[h])
    }
    /// Puts back a [`Cluster::state`]. Undoing a trial by restoring, not subtracting, keeps
    /// every load the exact sum, in job order, that [`Cluster::commit`] would give.
    pub(crate) fn restore(&mut self, h: usize, (used, occupied): (Dims, bool)) {
        self.used[h] = used;
        self.occupied[h] = occupied;
    }

    /// Adds a job's shares to what the machines use.
    pub(crate) fn commit(&mut self, demand: &Demand, shares: &[Share]) {
        for s in shares {
            let load = demand.load(s.workers, s.ps);
            for (u, l) in self.used[s.machine].iter_mut().zip(load) {
                *u += l;
            }
            self.occupied[s.machine] |= s.workers > 0 || s.ps > 0;
        }
    }
}

/// The tasks of the job being placed, per machine, until it is committed or dropped.
#[derive(Clone, Debug)]
pub(crate) struct Draft {
    shares: Vec<Share>,
    /// `slot[h]`: the index of machine h in `shares`, or `usize::MAX`.
    slot: Vec<usize>,
    workers: u32,
    ps: u32,
}

impl Draft {
    pub(crate) fn new(machines: usize) -> Draft {
        Draft {
            shares: Vec::new(),
            slot: vec![usize::MAX; machines],
            workers: 0,
            ps: 0,
        }
    }
    /// The job's (workers, PSs) drafted on machine h.
    pub(crate) fn at(&self, h: usize) -> (u32, u32) {
        match self.shares.get(self.slot[h]) {
            Some(s) => (s.workers, s.ps),
            None => (0, 0),
        }
    }
    /// The job's (workers, PSs) drafted so far.
    pub(crate) fn totals(&self) -> (u32, u32) {
        (self.workers, self.ps)
    }
    /// Adds `k` tasks of `kind` on machine h.
    pub(crate) fn add(&mut self, h: usize, kind: Kind, k: u32) {
        if k == 0 {
            return;
        }
        if self.slot[h] == usize::MAX {
            self.slot[h] = self.shares.len();
            self.shares.push(Share {
                machine: h,
                workers: 0,
                ps: 0,
            });
        }
        let s = &mut self.shares[self.slot[h]];
        match kind {
            Kind::Worker => {
                s.workers += k;
                self.workers += k;
            }
            Kind::Ps => {
                s.ps += k;
                self.ps += k;
            }
        }
    }
    /// The load on machine h if one more task of `kind` were added there.
    pub(crate) fn load_plus(&self, demand: &Demand, h: usize, kind: Kind) -> Dims {
        let (w, p) = self.at(h);
        match kind {
            Kind::Worker => demand.load(w + 1, p),
            Kind::Ps => demand.load(w, p + 1),
        }
    }
    /// The drafted shares, by machine index; the draft is empty afterwards.
    pub(crate) fn take(&mut self) -> Vec<Share> {
        let mut shares = std::mem::take(&mut self.shares);
        self.clear_slots(&shares);
        shares.sort_by_key(|s| s.machine);
        shares
    }
    /// Drops the draft (the job is not placed).
    pub(crate) fn clear(&mut self) {
        let shares = std::mem::take(&mut self.shares);
        self.clear_slots(&shares);
    }
    fn clear_slots(&mut self, shares: &[Share]) {
        for s in shares {
            self.slot[s.machine] = usize::MAX;
        }
        self.workers = 0;
        self.ps = 0;
    }
}
