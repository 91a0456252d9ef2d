//! docs/MODEL.md §3–§5: the completion time T(w, p) with the paper's θ coefficients, the utility
//! μ(π) and the job's region Ω; plus §6's split of T into ratio summands ζ_j.

use crate::allreduce::{Curve, HOUR_S};
use crate::cluster::Cluster;
use crate::eta::{eta, Eta};
// A job's region, part of its model (the module `omega` is private).
pub use crate::omega::Omega;
use crate::scenario::{Job, Mode, Resources};

/// A linear-fractional summand `ζ(x) = (a·x + q) / (c·x + d)` of T, x = (w, p).
///
/// Its denominator is positive on Ω (it is 1, w or p), which is what Charnes–Cooper needs.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Ratio {
    /// Short name, e.g. `θ5/w`.
    pub name: &'static str,
    /// Numerator coefficients of (w, p).
    pub a: [f64; 2],
    /// Numerator constant.
    pub q: f64,
    /// Denominator coefficients of (w, p).
    pub c: [f64; 2],
    /// Denominator constant.
    pub d: f64,
}

impl Ratio {
    /// ζ at (w, p).
    #[inline]
    pub fn eval(&self, w: f64, p: f64) -> f64 {
        (self.a[0] * w + self.a[1] * p + self.q) / (self.c[0] * w + self.c[1] * p + self.d)
    }
}

/// A job turned into the model's numbers.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JobModel {
    /// Sync or async.
    pub mode: Mode,
    /// Exposure factors.
    pub eta: Eta,
    /// θ1…θ5 (sync) or θ'1…θ'4 with a trailing 0 (async).
    pub theta: [f64; 5],
    /// The job's region.
    pub omega: Omega,
    /// O^w.
    pub worker: Resources,
    /// O^p.
    pub ps: Resources,
    /// L = ϑ · instance.
    pub limit: Resources,
    /// γ1, γ2, γ3.
    pub gamma: [f64; 3],
    /// T(1, 1), s.
    pub t11: f64,
    /// τ: the communication time of one iteration at w = p, s (2G/B sync, 2αG/B async).
    pub tau: f64,
    /// Seconds per unit of π (`None` = relative: π = 16·T/T(1,1)).
    pub time_unit_s: Option<f64>,
    /// The locality factor θ4 (θ'4) already includes: 1 for the job on a pool or spread,
    /// β for the job co-located on one machine ([`JobModel::colocated`]).
    pub rho: f64,
    /// A measured all-reduce job's times over its allocations (MODEL.md §21); `None` for a
    /// parameter-server job. When set, T depends on w alone, p is 0, π is in hours and θ,
    /// η, τ are unused zeros.
    pub measured: Option<Curve>,
}

/// π of a job at (1, 1) in the relative unit (docs/MODEL.md §4).
pub const RELATIVE_PI_AT_11: f64 = 16.0;

impl JobModel {
    /// The model of `job` on `cluster`: [`JobModel::new`] for a parameter-server job; for a
    /// measured job its [`Curve`] on the cluster's machines (a job whose measurements
    /// cannot be read has an empty curve: infeasible; validation names why).
    pub fn of(job: &Job, cluster: &Cluster, time_unit_s: Option<f64>) -> JobModel {
        let Some(mj) = &job.measured else {
            return JobModel::new(job, &cluster.instance, time_unit_s);
        };
        let curve = Curve::new(mj, &job.worker, cluster).unwrap_or(Curve {
            app: mj.app,
            fixed_batch: mj.batch_size,
            per_machine: 1,
            cap: 0,
            points: Vec::new().into(),
        });
        let limit = job.worker.scale(f64::from(curve.cap));
        let none = Resources::default();
        JobModel {
            mode: Mode::Sync,
            eta: Eta {
                eta1: 0.0,
                eta2: 0.0,
                eta3: 0.0,
            },
            theta: [0.0; 5],
            omega: Omega::new(job.worker, none, limit),
            worker: job.worker,
            ps: none,
            limit,
            gamma: [job.utility.gamma1, job.utility.gamma2, job.utility.gamma3],
            t11: curve.t(1.0),
            tau: 0.0,
            time_unit_s: Some(HOUR_S),
            rho: 1.0,
            measured: Some(curve),
        }
    }

    /// Builds the model of a parameter-server `job` for a cluster whose instance is
    /// `instance` (a measured job needs the cluster: [`JobModel::of`]).
    pub fn new(job: &Job, instance: &Resources, time_unit_s: Option<f64>) -> JobModel {
        let e = job.iterations;
        let g_gbit = 8.0 * job.model_size_mb / 1000.0;
        let b = job.ps_bandwidth_gbps;
        let t_f = job.layers.iter().map(|l| l.forward_ms).sum::<f64>() / 1000.0 / job.minibatch;
        let t_b = job.layers.iter().map(|l| l.backward_ms).sum::<f64>() / 1000.0;
        let alpha = match job.mode {
            Mode::Sync => 1.0,
            Mode::Async => job.async_comm_factor,
        };
        let tau = 2.0 * alpha * g_gbit / b;
        let eta = eta(&job.layers, job.overlap, tau);
        let theta = match job.mode {
            Mode::Sync => [
                e * job.worker_overhead_s,
                e * job.ps_overhead_s,
                e * eta.eta2 * t_b,
                2.0 * e * eta.eta3 * g_gbit / b,
                eta.eta1 * e * job.global_batch * t_f,
            ],
            Mode::Async => [
                e * job.worker_overhead_s,
                e * job.ps_overhead_s,
                e * (eta.eta1 * job.minibatch * t_f + eta.eta2 * t_b),
                2.0 * e * alpha * eta.eta3 * g_gbit / b,
                0.0,
            ],
        };
        let limit = instance.scale(job.limit_instances);
        let omega = Omega::new(job.worker, job.ps, limit);
        let mut m = JobModel {
            mode: job.mode,
            eta,
            theta,
            omega,
            worker: job.worker,
            ps: job.ps,
            limit,
            gamma: [job.utility.gamma1, job.utility.gamma2, job.utility.gamma3],
            t11: 0.0,
            tau,
            time_unit_s,
            rho: 1.0,
            measured: None,
        };
        m.t11 = m.t(1.0, 1.0);
        m
    }

    /// T(w, p) in seconds (the paper's (9) or (10)).
    #[inline]
    pub fn t(&self, w: f64, p: f64) -> f64 {
        if let Some(c) = &self.measured {
            return c.t(w);
        }
        let th = &self.theta;
        match self.mode {
            Mode::Sync => th[0] * w + th[1] * p + th[2] + th[3] * w / p + th[4] / w,
            Mode::Async => th[0] + th[1] * p / w + th[2] / w + th[3] / p,
        }
    }

    /// T(w, p) with the communication term scaled by the locality factor ρ of a placement
    /// (docs/MODEL.md §14, [`crate::locality`]): sync `θ4·(w/p)·ρ`, async `θ'4·ρ/p`.
    /// `ρ = 1` is [`JobModel::t`].
    #[inline]
    pub fn t_placed(&self, w: f64, p: f64, rho: f64) -> f64 {
        // A measured job's placement acts through its measured times (Curve::on), not ρ.
        if let Some(c) = &self.measured {
            return c.t(w);
        }
        let th = &self.theta;
        match self.mode {
            Mode::Sync => th[0] * w + th[1] * p + th[2] + th[3] * w / p * rho + th[4] / w,
            Mode::Async => th[0] + th[1] * p / w + th[2] / w + th[3] * rho / p,
        }
    }

    /// T at an actual placement: for a parameter-server job [`JobModel::t_placed`] at the
    /// placement's ρ; for a measured job its measured time with `workers_per_machine`
    /// workers on each machine it uses (MODEL.md §21; ρ does not apply), or with its
    /// packed placement when the list is empty (a pool).
    pub fn t_on(&self, w: f64, p: f64, rho: f64, workers_per_machine: &[u32]) -> f64 {
        match &self.measured {
            Some(c) if !workers_per_machine.is_empty() => {
                // One GPU per measured worker (validation).
                c.on(workers_per_machine).map_or(f64::INFINITY, |pt| pt.t_s)
            }
            _ => self.t_placed(w, p, rho),
        }
    }

    /// The job confined to one machine of capacity `machine` with every task there
    /// (docs/MODEL.md §16): Ω limited to `min(L, machine)` per resource and the
    /// communication term at ρ = `beta` (B / local rate, [`crate::locality::beta`]). The
    /// relative time unit stays the pool's T(1, 1), so π and μ compare with the spread
    /// configuration's. `self` is the spread model (ρ = 1, as [`JobModel::new`] builds it).
    pub fn colocated(&self, machine: &Resources, beta: f64) -> JobModel {
        let limit = Resources::from_array(std::array::from_fn(|r| {
            self.limit.to_array()[r].min(machine.to_array()[r])
        }));
        let mut m = self.clone();
        m.theta[3] *= beta;
        m.rho = beta;
        m.limit = limit;
        m.omega = Omega::new(self.worker, self.ps, limit);
        m
    }

    /// π: T in the planner's time unit.
    #[inline]
    pub fn pi(&self, t: f64) -> f64 {
        match self.time_unit_s {
            Some(u) => t / u,
            None => RELATIVE_PI_AT_11 * t / self.t11,
        }
    }

    /// μ(π) = γ1 / (1 + exp(γ2·(π − γ3))), without overflow.
    #[inline]
    pub fn mu(&self, pi: f64) -> f64 {
        sigmoid_utility(self.gamma, pi)
    }

    /// Utility of the allocation (w, p).
    pub fn utility_at(&self, w: f64, p: f64) -> f64 {
        self.mu(self.pi(self.t(w, p)))
    }

    /// D = w·O^w + p·O^p.
    pub fn demand(&self, w: f64, p: f64) -> [f64; 4] {
        let (ow, op) = (self.worker.to_array(), self.ps.to_array());
        std::array::from_fn(|r| w * ow[r] + p * op[r])
    }

    /// The constant part of T and its ratio summands ζ_j (docs/MODEL.md §6), before dropping.
    pub fn split(&self) -> (f64, [Ratio; 3]) {
        let th = &self.theta;
        // Denominators (c, d): 1, w or p.
        const ONE: ([f64; 2], f64) = ([0.0, 0.0], 1.0);
        const W: ([f64; 2], f64) = ([1.0, 0.0], 0.0);
        const P: ([f64; 2], f64) = ([0.0, 1.0], 0.0);
        let ratio = |name, a, q, (c, d)| Ratio { name, a, q, c, d };
        let z = [0.0, 0.0];
        match self.mode {
            Mode::Sync => (
                th[2],
                [
                    ratio("θ1·w+θ2·p", [th[0], th[1]], 0.0, ONE),
                    ratio("θ4·w/p", [th[3], 0.0], 0.0, P),
                    ratio("θ5/w", z, th[4], W),
                ],
            ),
            Mode::Async => (
                th[0],
                [
                    ratio("θ'2·p/w", [0.0, th[1]], 0.0, W),
                    ratio("θ'3/w", z, th[2], W),
                    ratio("θ'4/p", z, th[3], P),
                ],
            ),
        }
    }

    /// Whether (1, 1) fits the job's limit, i.e. the job is feasible at all.
    pub fn feasible(&self) -> bool {
        match &self.measured {
            Some(c) => c.t(1.0).is_finite(),
            None => self.omega.contains(1.0, 1.0),
        }
    }

    /// Whether (w, p) is an allocation of the job: in Ω, or for a measured job p = 0 and
    /// w in 1…cap.
    pub fn contains(&self, w: f64, p: f64) -> bool {
        match &self.measured {
            Some(c) => p == 0.0 && c.at(w).is_some() && w.fract() == 0.0,
            None => self.omega.contains(w, p),
        }
    }

    /// The least allocation: (1, 1), or (1, 0) for a measured job.
    pub fn least(&self) -> (u64, u64) {
        match self.measured {
            Some(_) => (1, 0),
            None => (1, 1),
        }
    }

    /// The most workers: Ω's integer w range ends here (a measured job: its cap).
    pub fn w_max_int(&self) -> u64 {
        match &self.measured {
            Some(c) => u64::from(c.cap),
            None => self.omega.w_max_int(),
        }
    }

    /// The integer p of allocations with `w` workers: 1…p_max(w) (empty when none fits), or
    /// only 0 for a measured job.
    pub fn p_range(&self, w: u64) -> std::ops::RangeInclusive<u64> {
        match &self.measured {
            Some(_) => 0..=0,
            None => 1..=self.omega.p_max_int(w),
        }
    }

    /// Whether the job is a measured all-reduce job (MODEL.md §21).
    pub fn is_measured(&self) -> bool {
        self.measured.is_some()
    }

    /// The exact p minimising T for a fixed w, clamped to Ω (docs/MODEL.md §6, *polish*).
    pub fn best_p_for(&self, w: f64) -> f64 {
        if self.measured.is_some() {
            return 0.0;
        }
        let th = &self.theta;
        // Sync (θ2·p + θ4·w/p) and async (θ'2·p/w + θ'4/p) have the same stationary p.
        let p = if th[1] > 0.0 {
            (th[3] * w / th[1]).sqrt()
        } else {
            f64::INFINITY
        };
        p.clamp(1.0, self.omega.p_max(w).max(1.0))
    }
}

/// μ(π) for γ = (γ1, γ2, γ3), computed without overflow (`libm`'s exp: the same bits
/// natively and in wasm, where the platform's exp may differ in the last place).
pub fn sigmoid_utility(gamma: [f64; 3], pi: f64) -> f64 {
    let z = gamma[1] * (pi - gamma[2]);
    if z > 0.0 {
        let e = libm::exp(-z);
        gamma[0] * e / (1.0 + e)
    } else {
        gamma[0] / (1.0 + libm::exp(z))
    }
}
