//! docs/MODEL.md §21–§22: a measured all-reduce job as the planner sees it — its time to
//! the target at w GPUs (packed on the cluster's machines, the batch fixed or chosen), its
//! GPU cap, and its time at an actual placement. The numbers come from `smd-measured`
//! (the artifact's measurements); this module only decides which placements and batches
//! the planner asks about.
//!
//! A measured job's allocation is one-dimensional: w workers of one GPU each, no
//! parameter servers (p = 0). Its π is in hours ([`HOUR_S`]), so its utility — the
//! sigmoid of MODEL.md §4 with γ3 a deadline in hours — reads in the planner's terms.

use crate::cluster::{Cluster, Resources};
use crate::scenario::MeasuredJob;
use smd_measured::app::App;
use smd_measured::measured::{Fastest, Measured, MeasuredError};
// Where a step time comes from, part of a `StepPoint`; where a run is, for the simulation.
pub use smd_measured::measured::{Candidate, Candidates, Learner, Progress, Rate, Source};
use smd_measured::memo::Memo;
use std::sync::Arc;

/// Seconds per unit of a measured job's π: its times and deadlines are in hours.
pub const HOUR_S: f64 = 3600.0;
/// GPUs per node in the measurements (nodes of 4 × T4): a machine with more GPUs counts as
/// ⌈g/4⌉ measured nodes.
pub const NODE_GPUS: u32 = 4;
/// Total batches tried per allocation when the planner chooses the batch (POLLUX-SIM.md
/// §3.4's 50, geometrically spaced).
pub const BATCH_CANDIDATES: usize = smd_measured::measured::CANDIDATES;
/// The most GPUs a measured job may use: 16 measured nodes of 4 (the reference's cap, 64).
pub const MAX_WORKERS: u32 = 64;

/// A measured job's run at one allocation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Point {
    /// Seconds from its first step to its target (restarts and waiting not included).
    pub t_s: f64,
    /// The total batch it runs at (the fixed one, or the planner's choice).
    pub batch: f64,
}

/// A measured job's times over its allocations w = 1…cap, on the packed placement of the
/// cluster's machines.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Curve {
    /// The application.
    pub app: App,
    /// The fixed total batch, or `None` when the planner chooses it per allocation.
    pub fixed_batch: Option<f64>,
    /// GPUs per machine of the packed placement (at most [`NODE_GPUS`]).
    pub per_machine: u32,
    /// The most workers the job may use: its own cap, the reference's, the cluster's.
    pub cap: u32,
    /// The run at w = 1…cap (index w − 1); `None` where no batch reaches the target.
    /// Shared with the memo: every slot models the same jobs again.
    pub points: Arc<[Option<Point>]>,
}

impl Curve {
    /// The curve of `job` (workers demanding `worker` each) on `cluster`.
    pub fn new(
        job: &MeasuredJob,
        worker: &Resources,
        cluster: &Cluster,
    ) -> Result<Curve, MeasuredError> {
        let m = Measured::of(job.app)?;
        let cap = own_cap(m, job, job.batch_size).min(cluster_cap(cluster, worker));
        let per_machine = per_machine(cluster);
        let points = curve_points(m, cap, per_machine, job.batch_size);
        Ok(Curve {
            app: job.app,
            fixed_batch: job.batch_size,
            per_machine,
            cap,
            points,
        })
    }

    /// The run at `w` workers packed (`None` outside 1…cap or where no batch runs).
    pub fn at(&self, w: f64) -> Option<Point> {
        if !(w >= 1.0 && w <= f64::from(self.cap)) {
            return None;
        }
        self.points[w as usize - 1]
    }

    /// T at `w` workers, s (infinite where the job cannot run).
    pub fn t(&self, w: f64) -> f64 {
        self.at(w).map_or(f64::INFINITY, |p| p.t_s)
    }

    /// The run on an actual placement: `gpus_per_machine` lists the job's GPUs on each
    /// machine it uses (MODEL.md §21: each machine's GPUs as nodes of at most 4).
    pub fn on(&self, gpus_per_machine: &[u32]) -> Option<Point> {
        let m = Measured::of(self.app).ok()?;
        run_at(m, &as_nodes(gpus_per_machine), self.fixed_batch)
    }
}

impl Curve {
    /// The nodes the job runs on: its workers per machine (each machine's GPUs as nodes
    /// of at most 4), or `w` packed when the list is empty (a pool).
    fn nodes(&self, w: u32, gpus_per_machine: &[u32]) -> Vec<u32> {
        if gpus_per_machine.is_empty() {
            packed(w, self.per_machine)
        } else {
            as_nodes(gpus_per_machine)
        }
    }

    /// Runs the job `seconds` from `at` on `w` workers placed `gpus_per_machine` (empty:
    /// packed), each second of work taking `pace` seconds, epoch by epoch as the reference
    /// does (POLLUX-SIM.md §1.4; its batch fixed, or the best for the placement). Returns
    /// the seconds to its target when it gets there within `seconds`. A placement the
    /// measurements cannot answer makes no progress.
    pub fn run_for(
        &self,
        at: &mut Progress,
        w: u32,
        gpus_per_machine: &[u32],
        seconds: f64,
        pace: f64,
    ) -> Option<f64> {
        let rate = self.rate(w, gpus_per_machine)?;
        self.run_at(at, &rate, seconds, pace)
    }

    /// The rate [`Curve::run_for`] runs at on `w` workers placed `gpus_per_machine` (`None`
    /// where the measurements cannot answer): the same while the placement lasts.
    pub fn rate(&self, w: u32, gpus_per_machine: &[u32]) -> Option<Rate> {
        let m = Measured::of(self.app).ok()?;
        let nodes = self.nodes(w, gpus_per_machine);
        let batch = match self.fixed_batch {
            Some(b) => b,
            None => run_at(m, &nodes, None)?.batch,
        };
        m.rate(&nodes, batch).ok()
    }

    /// [`Curve::run_for`] at a rate read before ([`Curve::rate`]).
    pub fn run_at(&self, at: &mut Progress, rate: &Rate, seconds: f64, pace: f64) -> Option<f64> {
        let m = Measured::of(self.app).ok()?;
        m.run_at(at, rate, seconds, pace).ok().flatten()
    }

    /// The job as a scheduler that learns it sees it (POLLUX-SIM.md §3, MODEL.md §23): its
    /// batch chosen for goodput — its fixed batch kept only for ncf, as the reference
    /// keeps ncf's (§2.5; the largest batch if none is fixed).
    pub fn learner(&self) -> Learner {
        let fixed = (self.app == App::Ncf).then(|| {
            self.fixed_batch
                .unwrap_or_else(|| Measured::of(self.app).map_or(0.0, |m| m.batch_range()[1]))
        });
        Learner::new(fixed)
    }

    /// §3.4's candidate batches on `nodes` measured nodes and `replicas` GPUs with
    /// `learner`'s model times (none before it has one).
    pub fn candidates(&self, learner: &Learner, nodes: u32, replicas: u32) -> Candidates {
        Measured::of(self.app).map_or_else(
            |_| Candidates::from([]),
            |m| learner.candidates(m, nodes, replicas),
        )
    }

    /// The best goodput among `candidates` with `learner`'s last statistics (§3.4), in
    /// scale-invariant iterations per second (0 without statistics).
    pub fn best_goodput(&self, learner: &Learner, candidates: &[Candidate]) -> f64 {
        Measured::of(self.app)
            .ok()
            .and_then(|m| learner.best(m, candidates))
            .map_or(0.0, |(g, _)| g)
    }

    /// [`Curve::run_for`] for a job whose batch `learner` chooses as it learns.
    pub fn run_learning(
        &self,
        at: &mut Progress,
        learner: &mut Learner,
        w: u32,
        gpus_per_machine: &[u32],
        seconds: f64,
        pace: f64,
    ) -> Option<f64> {
        let m = Measured::of(self.app).ok()?;
        let nodes = self.nodes(w, gpus_per_machine);
        m.run_learning(at, &nodes, learner, seconds, pace)
            .ok()
            .flatten()
    }

    /// The batch the reference's fixed-batch policies run at: the fixed one, else the
    /// application's initial batch.
    fn reference_batch(&self, m: &Measured) -> f64 {
        self.fixed_batch.unwrap_or(m.batch_range()[0])
    }

    /// Optimus+Oracle's predicted seconds per iteration on `r` GPUs packed 4 to a node
    /// (POLLUX-SIM.md §4.1); infinite where the measurements cannot answer.
    pub fn oracle_iteration(&self, r: u32) -> f64 {
        let Ok(m) = Measured::of(self.app) else {
            return f64::INFINITY;
        };
        let batch = self.reference_batch(m);
        // Asked for every active job's GPU counts at every slot: remembered.
        static MEMO: Memo<(App, u64, u32), f64> = Memo::new(100_000);
        MEMO.get_or((self.app, batch.to_bits(), r), || {
            m.oracle_iteration(&packed(r, NODE_GPUS), batch)
                .unwrap_or(f64::INFINITY)
        })
    }

    /// Optimus+Oracle's remaining iterations at `at` (POLLUX-SIM.md §4.1).
    pub fn oracle_remaining(&self, at: &Progress) -> f64 {
        Measured::of(self.app)
            .and_then(|m| m.oracle_remaining(at, self.reference_batch(m)))
            .unwrap_or(0.0)
    }

    /// The most GPUs any batch of the application runs on, at most [`MAX_WORKERS`]:
    /// ⌊largest batch / smallest local batch⌋ (beyond it no total batch gives every GPU its
    /// smallest local batch), whatever batch the job itself is fixed at.
    pub fn widest(&self) -> u32 {
        Measured::of(self.app).map_or(MAX_WORKERS, |m| {
            (m.batch_range()[1] / m.local_range()[0])
                .floor()
                .clamp(1.0, f64::from(MAX_WORKERS)) as u32
        })
    }

    /// The share of its target a run at `at` has reached, in [0, 1].
    pub fn share_done(&self, at: &Progress) -> f64 {
        Measured::of(self.app).map_or(0.0, |m| m.share_done(at))
    }
}

/// One allocation of a measured job as a view shows it: the step at its packed placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepPoint {
    /// Workers (GPUs).
    pub w: u32,
    /// The total batch it runs at.
    pub batch: f64,
    /// Seconds per iteration (a step and its accumulation micro-steps).
    pub iteration_s: f64,
    /// Where the step time comes from: a measured row, interpolated, or a model.
    pub source: Source,
    /// Seconds to the target.
    pub t_s: f64,
}

impl Curve {
    /// Every allocation that runs, with the step it rests on (for the job editor's curve).
    pub fn steps(&self) -> Vec<StepPoint> {
        let Ok(m) = Measured::of(self.app) else {
            return Vec::new();
        };
        (1..=self.cap)
            .filter_map(|w| {
                let p = self.points[w as usize - 1]?;
                let c = m.batch_config(w, p.batch);
                let s = m
                    .step_any(&packed(w, self.per_machine), f64::from(c.atomic))
                    .ok()?;
                Some(StepPoint {
                    w,
                    batch: p.batch,
                    iteration_s: s.step_s + f64::from(c.accum) * (s.step_s - s.sync_s),
                    source: s.source,
                    t_s: p.t_s,
                })
            })
            .collect()
    }
}

/// The most workers `job` may use at total batch `batch` (`None`: chosen) on any cluster:
/// its own cap, the reference's, [`MAX_WORKERS`].
fn own_cap(m: &Measured, job: &MeasuredJob, batch: Option<f64>) -> u32 {
    let own = job.max_workers.map_or(u32::MAX, |x| {
        x.clamp(0.0, f64::from(u32::MAX)).floor() as u32
    });
    own.min(reference_cap(m, batch)).min(MAX_WORKERS)
}

/// The least seconds from its first step to its target `job` can take under any policy on
/// any cluster, and the most GPUs an epoch's fastest run uses
/// ([`Measured::least_time_over`]; `None` when nothing runs). A policy runs the job at
/// its fixed batch on up to its cap, or — a policy that chooses the batch (MODEL.md §23),
/// or any policy when none is fixed — at one of §3.4's candidates on up to the cap of a
/// chosen batch (ncf keeps its fixed batch); on any placement of its workers as nodes of
/// at most 4 GPUs. Each epoch is taken at the fastest of these: a policy may change the
/// placement or the batch at any time. The cluster is left out on purpose: every placement
/// a cluster holds (workers sharing GPUs included) is among these, so the bound holds on
/// each, and it is computed once per kind of job, not once per cluster size of a sweep.
pub fn least_time(job: &MeasuredJob) -> Option<(f64, u32)> {
    let m = Measured::of(job.app).ok()?;
    let cap = |batch: Option<f64>| own_cap(m, job, batch);
    let fixed = job.batch_size;
    let cap_fixed = fixed.map_or(0, |b| cap(Some(b)));
    // ncf keeps its batch under `pollux`; without a fixed batch every policy chooses.
    let chosen = fixed.is_none() || job.app != App::Ncf;
    let cap_free = if chosen { cap(None) } else { 0 };
    // Asked for every job at every run (each policy's metrics carry the bound): remembered.
    type Key = (App, Option<u64>, u32, u32);
    static MEMO: Memo<Key, Option<(f64, u32)>> = Memo::new(10_000);
    let key = (job.app, fixed.map(f64::to_bits), cap_fixed, cap_free);
    MEMO.get_or(key, || {
        // Merged in the order of r, each r's fixed batch first: the runs a job shares with
        // every job of its application (the candidates at r) are read once per process.
        let mut fastest = Fastest::default();
        for r in 1..=cap_fixed.max(cap_free) {
            if let Some(b) = fixed.filter(|_| r <= cap_fixed) {
                m.add_runs(
                    &mut fastest,
                    placements(r).iter().map(|p| (p.as_slice(), b)),
                );
            }
            if r <= cap_free {
                fastest.merge(&candidate_runs(m, r));
            }
        }
        m.least_time_over(&fastest)
    })
}

/// The fastest of [`Measured::batch_candidates`] at `r` GPUs on any of [`placements`] of
/// them, per application (memoised).
fn candidate_runs(m: &Measured, r: u32) -> Arc<Fastest> {
    static MEMO: Memo<(App, u32), Arc<Fastest>> = Memo::new(1_000);
    MEMO.get_or((m.app(), r), || {
        let mut fastest = Fastest::default();
        let batches = m.batch_candidates(r);
        for p in placements(r).iter() {
            m.add_runs(&mut fastest, batches.iter().map(|&b| (p.as_slice(), b)));
        }
        Arc::new(fastest)
    })
}

/// [`placements_of`] `r` GPUs on nodes of at most [`NODE_GPUS`], at most [`MAX_WORKERS`]
/// of them: built once (`r` ≤ [`MAX_WORKERS`]).
fn placements(r: u32) -> &'static [Vec<u32>] {
    static ALL: std::sync::OnceLock<Vec<Vec<Vec<u32>>>> = std::sync::OnceLock::new();
    let all = ALL.get_or_init(|| {
        (0..=MAX_WORKERS)
            .map(|r| placements_of(r, NODE_GPUS, MAX_WORKERS))
            .collect()
    });
    all.get(r as usize).map_or(&[], Vec::as_slice)
}

/// The placements of `r` GPUs on at most `nodes` nodes of at most `per` GPUs each that the
/// measurements tell apart: on 1–4 nodes every order (rotations are measured differently),
/// on more one per node count (there a step depends on nodes and GPUs only).
fn placements_of(r: u32, per: u32, nodes: u32) -> Vec<Vec<u32>> {
    /// The most nodes measured row by row (MODEL.md §21).
    const ROW_NODES: u32 = 4;
    fn orders(r: u32, per: u32, left: u32, at: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if r == 0 {
            // A rotation names the same rows: only the smallest is kept.
            if (1..at.len()).all(|k| at[k..].iter().chain(&at[..k]).ge(at.iter())) {
                out.push(at.clone());
            }
            return;
        }
        if left == 0 {
            return;
        }
        for g in 1..=per.min(r) {
            at.push(g);
            orders(r - g, per, left - 1, at, out);
            at.pop();
        }
    }
    let mut out = Vec::new();
    orders(r, per, nodes.min(ROW_NODES), &mut Vec::new(), &mut out);
    for n in (ROW_NODES + 1)..=nodes.min(r) {
        if r <= per * n {
            // r spread evenly over n nodes.
            out.push((0..n).map(|k| r / n + u32::from(k < r % n)).collect());
        }
    }
    out
}

/// The reference's GPU cap (POLLUX-SIM.md §2.5): ⌊batch / smallest local batch⌋ (the
/// largest batch when the planner chooses it); ncf 1.
pub fn reference_cap(m: &Measured, batch: Option<f64>) -> u32 {
    if m.app() == App::Ncf {
        return 1;
    }
    let b = batch.unwrap_or(m.batch_range()[1]);
    (b / m.local_range()[0])
        .floor()
        .clamp(1.0, f64::from(MAX_WORKERS)) as u32
}

/// The most workers of demand `worker` the whole cluster holds: per resource
/// ⌊capacity / demand⌋.
pub fn cluster_cap(cluster: &Cluster, worker: &Resources) -> u32 {
    let cap = cluster.capacity().to_array();
    let need = worker.to_array();
    (0..4)
        .filter(|&r| need[r] > 0.0)
        // A relative 1e-9 keeps a whole quotient written in decimals whole.
        .map(|r| (cap[r] / need[r] * (1.0 + 1e-9)).floor())
        .fold(f64::from(MAX_WORKERS), f64::min)
        .max(0.0) as u32
}

/// GPUs per machine of the packed placement: the largest machine's GPUs (the instance's
/// on a pool), at most [`NODE_GPUS`], at least 1.
pub fn per_machine(cluster: &Cluster) -> u32 {
    let g = if cluster.has_machines() {
        cluster
            .machines
            .iter()
            .map(|g| g.capacity.gpu)
            .fold(0.0, f64::max)
    } else {
        cluster.instance.gpu
    };
    (g.floor().clamp(1.0, f64::from(NODE_GPUS))) as u32
}

/// `w` GPUs packed `per` to a machine: `[per, per, …, rest]`.
pub fn packed(w: u32, per: u32) -> Vec<u32> {
    let per = per.max(1);
    (0..w.div_ceil(per))
        .map(|k| (w - k * per).min(per))
        .collect()
}

/// A placement on machines as measured nodes: a machine's g GPUs as nodes of at most
/// [`NODE_GPUS`] (zeros dropped).
pub fn as_nodes(gpus_per_machine: &[u32]) -> Vec<u32> {
    gpus_per_machine
        .iter()
        .flat_map(|&g| packed(g, NODE_GPUS))
        .filter(|&g| g > 0)
        .collect()
}

/// The runs at 1…`cap` workers packed `per_machine` to a machine: [`run_at`] of each,
/// memoised as a whole — a simulation asks for the same job's curve at every slot (a
/// lookup per job instead of one per worker count).
fn curve_points(
    m: &Measured,
    cap: u32,
    per_machine: u32,
    fixed: Option<f64>,
) -> Arc<[Option<Point>]> {
    type Key = (App, Option<u64>, u32, u32);
    static MEMO: Memo<Key, Arc<[Option<Point>]>> = Memo::new(20_000);
    MEMO.get_or((m.app(), fixed.map(f64::to_bits), cap, per_machine), || {
        (1..=cap)
            .map(|w| run_at(m, &packed(w, per_machine), fixed))
            .collect()
    })
}

/// The run on `nodes` at the fixed batch, or at the batch among [`BATCH_CANDIDATES`] that
/// reaches the target soonest (the first on ties). Memoised: the same job is asked about
/// the same placements by every policy and every slot.
pub fn run_at(m: &Measured, nodes: &[u32], fixed: Option<f64>) -> Option<Point> {
    static MEMO: Memo<(App, Option<u64>, Vec<u32>), Option<Point>> = Memo::new(200_000);
    MEMO.get_or((m.app(), fixed.map(f64::to_bits), nodes.to_vec()), || {
        let run = |b: f64| {
            m.time_to_target(nodes, b)
                .ok()
                .map(|t_s| Point { t_s, batch: b })
        };
        match fixed {
            Some(b) => run(b),
            None => m
                .batch_candidates(nodes.iter().sum())
                .iter()
                .copied()
                .filter_map(run)
                .fold(None, |best: Option<Point>, p| match best {
                    Some(b) if b.t_s <= p.t_s => Some(b),
                    _ => Some(p),
                }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least time is at most the run on any placement a cluster may hold: with workers
    /// sharing GPUs (half a GPU each) one 4-GPU machine holds 8 of them, as nodes 4 + 4.
    #[test]
    fn least_time_sees_machines_holding_more_workers_than_gpus() {
        let job = MeasuredJob {
            app: App::Cifar10,
            batch_size: Some(2048.0),
            max_workers: None,
        };
        let m = Measured::of(App::Cifar10).unwrap();
        let on_8 = m.time_to_target(&as_nodes(&[8]), 2048.0).unwrap();
        let (least, _) = least_time(&job).unwrap();
        assert!(least <= on_8, "{least} above {on_8} on 4 + 4");
    }

    /// Every placement of up to 16 GPUs on at most 4 nodes of at most `per` GPUs names its
    /// rows by one kept placement, and no two kept ones name the same rows; more nodes come
    /// one per node count, `r` GPUs spread within `per`.
    #[test]
    fn placements_cover_every_row_set_once() {
        use smd_measured::measured::placement_id;
        use std::collections::BTreeSet;
        for per in 1..=4u32 {
            for r in 1..=24u32 {
                let kept = placements_of(r, per, 16);
                let ids: Vec<String> = kept
                    .iter()
                    .filter(|p| p.len() <= 4)
                    .map(|p| placement_id(p).unwrap())
                    .collect();
                let unique: BTreeSet<&String> = ids.iter().collect();
                assert_eq!(unique.len(), ids.len(), "r {r}, per {per}");
                // Every sequence of 1–4 nodes, written out here.
                let mut all = BTreeSet::new();
                for n in 1..=4u32 {
                    for code in 0..per.pow(n) {
                        let p: Vec<u32> = (0..n).map(|k| code / per.pow(k) % per + 1).collect();
                        if p.iter().sum::<u32>() == r {
                            all.insert(placement_id(&p).unwrap());
                        }
                    }
                }
                assert_eq!(unique.into_iter().cloned().collect::<BTreeSet<_>>(), all);
                let wide: Vec<&Vec<u32>> = kept.iter().filter(|p| p.len() > 4).collect();
                let want = (5..=16u32.min(r)).filter(|&n| r <= per * n).count();
                assert_eq!(wide.len(), want, "r {r}, per {per}");
                for p in wide {
                    assert_eq!(p.iter().sum::<u32>(), r);
                    assert!(p.iter().all(|&g| (1..=per).contains(&g)));
                }
            }
        }
    }
}
