//! One generated scenario planned with a set of policies: what is measured of each plan,
//! and the checks every plan must pass (each plan's own in `smd-check`, those across the
//! policies here).

use smd_core::model::JobModel;
use smd_core::scenario::Rounding;
use smd_core::{generate, Cache, GenerateOptions, Mode, Options, Plan, Policy, Scenario};

/// The cluster of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capacity {
    /// `n` cluster units (docs/MODEL.md §1: GPU 600, vCPU 3400, memory 1400 GB, storage 1200 GB).
    Units(u32),
    /// `n` instances (the unit is the instance: 4 GPU, 36 vCPU, 60 GB, 100 GB).
    Instances(u32),
}

impl Capacity {
    /// `"1 unit"`, `"3 units"`, `"1000 instances"`.
    pub fn label(self) -> String {
        match self {
            Capacity::Units(1) => "1 unit".into(),
            Capacity::Units(n) => format!("{n} units"),
            Capacity::Instances(1) => "1 instance".into(),
            Capacity::Instances(n) => format!("{n} instances"),
        }
    }
}

/// A policy as the experiments plan it: one of [`Policy`], at the case's parameters or
/// `improved` (docs/MODEL.md's improved options `polish` and `rounding = best_corner`, same
/// admission). Its name is the policy's, with `_polish` when improved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The policy planned.
    pub policy: Policy,
    /// Planned with `params.polish = true` and `params.rounding = best_corner`.
    pub improved: bool,
}

impl From<Policy> for Variant {
    fn from(policy: Policy) -> Variant {
        Variant::plain(policy)
    }
}

impl Variant {
    /// Every variant the pool experiments plan, in display order: the policies of
    /// [`Policy::POOL`], then smd improved.
    pub const ALL: [Variant; Policy::POOL.len() + 1] = {
        let mut all = [Variant::SMD_POLISH; Policy::POOL.len() + 1];
        let mut i = 0;
        while i < Policy::POOL.len() {
            all[i] = Variant::plain(Policy::POOL[i]);
            i += 1;
        }
        all
    };
    /// smd with the improved options (`smd_polish`).
    pub const SMD_POLISH: Variant = Variant {
        policy: Policy::Smd,
        improved: true,
    };
    /// `policy` at the case's parameters.
    pub const fn plain(policy: Policy) -> Variant {
        Variant {
            policy,
            improved: false,
        }
    }
    /// The name in tables: the policy's name, with `_polish` when improved.
    pub fn name(self) -> String {
        if self.improved {
            format!("{}_polish", self.policy.name())
        } else {
            self.policy.name().to_string()
        }
    }
    /// The slot of this variant in [`Sample::plans`] and its bit in [`Pols`].
    fn index(self) -> usize {
        let p = Policy::ALL
            .iter()
            .position(|&q| q == self.policy)
            .unwrap_or(0);
        p + usize::from(self.improved) * Policy::ALL.len()
    }
    fn bit(self) -> u16 {
        1 << self.index()
    }
    /// Rough cost per job relative to esw, for the progress weights.
    fn cost(self) -> u64 {
        match self.policy {
            Policy::Smd => 8,
            Policy::Esw | Policy::Optimus => 1,
            Policy::Exact => 2,
            Policy::Global => 24,
            Policy::SmdLocality => 9,
        }
    }
}

/// A set of variants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pols(u16);

impl Pols {
    /// The set of `list`.
    pub fn of(list: &[Variant]) -> Pols {
        Pols(list.iter().fold(0, |a, p| a | p.bit()))
    }
    /// Every variant of [`Variant::ALL`].
    pub fn all() -> Pols {
        Pols::of(&Variant::ALL)
    }
    /// Whether `p` is in the set.
    pub fn has(self, p: Variant) -> bool {
        self.0 & p.bit() != 0
    }
    /// The union.
    pub fn union(self, o: Pols) -> Pols {
        Pols(self.0 | o.0)
    }
    /// The variants, in display order.
    pub fn list(self) -> Vec<Variant> {
        Variant::ALL.into_iter().filter(|p| self.has(*p)).collect()
    }
}

/// One generated scenario: what defines it. Two experiments asking for the same case share
/// its plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    /// SGD mode of every job.
    pub mode: Mode,
    /// Number of jobs I.
    pub jobs: usize,
    /// The cluster.
    pub capacity: Capacity,
    /// Generator seed (also the rounding seed, `params.seed`).
    pub seed: u64,
    /// ε of Algorithm 1, in millionths.
    pub epsilon_ppm: u32,
    /// M_δ of Algorithm 2.
    pub m_delta: u32,
    /// Solve times are measured: SMD runs without the allocation cache.
    pub timed: bool,
}

impl Case {
    /// A case at the generator's defaults (ε = 0.01, M_δ = 1), untimed.
    pub fn new(mode: Mode, jobs: usize, capacity: Capacity, seed: u64) -> Case {
        Case {
            mode,
            jobs,
            capacity,
            seed,
            epsilon_ppm: 10_000,
            m_delta: 1,
            timed: false,
        }
    }

    /// ε as a number.
    pub fn epsilon(&self) -> f64 {
        f64::from(self.epsilon_ppm) / 1e6
    }

    /// The scenario: `generate` with this case's mode, jobs and seed, then its cluster and
    /// parameters.
    pub fn scenario(&self) -> Scenario {
        let mut s = generate(&GenerateOptions {
            jobs: self.jobs,
            seed: self.seed,
            mode: self.mode,
            units: 1.0,
        });
        match self.capacity {
            Capacity::Units(n) => s.cluster.units = f64::from(n),
            Capacity::Instances(n) => {
                s.cluster.unit = s.cluster.instance;
                s.cluster.units = f64::from(n);
            }
        }
        s.params.epsilon = self.epsilon();
        s.params.m_delta = f64::from(self.m_delta);
        s
    }

    /// Work units of planning this case with `pols` (for progress).
    pub fn weight(&self, pols: Pols) -> u64 {
        pols.list().iter().map(|&v| self.variant_weight(v)).sum()
    }

    /// Work units of planning this case with one variant.
    fn variant_weight(&self, v: Variant) -> u64 {
        let eps_factor = (10_000 / self.epsilon_ppm.max(1)).clamp(1, 4) as u64;
        (self.jobs as u64).max(1) * v.cost() * eps_factor
    }

    /// A short description for messages.
    pub fn describe(&self) -> String {
        format!(
            "{} I={} {} seed {} ε={} M_δ={}",
            self.mode.name(),
            self.jobs,
            self.capacity.label(),
            self.seed,
            self.epsilon(),
            self.m_delta
        )
    }
}

/// What is kept of one plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Σ utility of the admitted jobs.
    pub total_utility: f64,
    /// Admitted jobs.
    pub admitted: usize,
    /// Jobs whose (1,1) fits their limit.
    pub feasible: usize,
    /// Σ demand of the admitted jobs per resource (GPU, vCPU, memory, storage).
    pub used: [f64; 4],
    /// Σ limit L of the admitted jobs per resource.
    pub requested: [f64; 4],
    /// The cluster capacity per resource.
    pub capacity: [f64; 4],
    /// Wall time of the plan, ms (meaningful only for timed cases and `global`).
    pub solve_ms: f64,
    /// Algorithm 2's draws summed over jobs (smd).
    pub rounding_attempts: u64,
    /// Whether the admission (or the joint search, for global) is proven optimal.
    pub proven_optimal: bool,
    /// The admission's gap when not proven.
    pub gap: Option<f64>,
    /// The admission's proven guarantee (value / optimum of its knapsack; for global,
    /// value / its upper bound on the joint optimum).
    pub guarantee: f64,
}

impl Measured {
    /// `total_utility / guarantee`: for global, its proven upper bound on the joint optimum
    /// (= the total when proven optimal); infinite without a guarantee.
    pub fn bound(&self) -> f64 {
        if self.guarantee > 0.0 {
            self.total_utility / self.guarantee
        } else {
            f64::INFINITY
        }
    }
    /// `used / requested` per resource (NaN where nothing was requested).
    pub fn shares(&self) -> [f64; 4] {
        std::array::from_fn(|r| {
            if self.requested[r] > 0.0 {
                self.used[r] / self.requested[r]
            } else {
                f64::NAN
            }
        })
    }
    /// The mean of [`Measured::shares`] over the resources where something was requested.
    pub fn mean_share(&self) -> f64 {
        let s: Vec<f64> = self
            .shares()
            .into_iter()
            .filter(|v| v.is_finite())
            .collect();
        if s.is_empty() {
            f64::NAN
        } else {
            s.iter().sum::<f64>() / s.len() as f64
        }
    }
    /// The largest `used / capacity` over the resources (how much the binding one is used).
    pub fn peak_use(&self) -> f64 {
        (0..4)
            .filter(|&r| self.capacity[r] > 0.0)
            .map(|r| self.used[r] / self.capacity[r])
            .fold(0.0, f64::max)
    }
}

/// The plans of one case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// Per variant (in the slots of its index: the policies of [`Policy::ALL`], then the
    /// same improved), if planned.
    pub plans: [Option<Measured>; 2 * Policy::ALL.len()],
    /// Invariants that failed, one message each.
    pub violations: Vec<String>,
}

impl Sample {
    /// The measurement of `p`, if planned.
    pub fn get(&self, p: impl Into<Variant>) -> Option<&Measured> {
        self.plans[p.into().index()].as_ref()
    }
}

/// The invariants of one plan: `smd_check::check_plan`, kept at this path for its callers.
pub use smd_check::check_plan;

/// Relative tolerance of the numeric checks (as `smd-check`'s).
const TOL: f64 = 1e-9;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * a.abs().max(b.abs()).max(1.0)
}

/// Plans `case` with `pols`, measures every plan and checks it; `planned_one` hears each
/// variant's work units (for progress within a case) as it is planned.
pub fn run(
    case: &Case,
    pols: Pols,
    clock: &dyn Fn() -> f64,
    cache: &mut Cache,
    planned_one: &mut dyn FnMut(u64),
) -> Sample {
    let scenario = case.scenario();
    let models: Vec<JobModel> = scenario
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &scenario.cluster, scenario.params.time_unit_s))
        .collect();
    let mut sample = Sample::default();
    for pol in pols.list() {
        let improved = pol.improved.then(|| {
            let mut s = scenario.clone();
            s.params.polish = true;
            s.params.rounding = Rounding::BestCorner;
            s
        });
        let planned = improved.as_ref().unwrap_or(&scenario);
        // The allocation cache serves smd (plain or improved) in untimed cases.
        let use_cache = pol.policy == Policy::Smd && !case.timed;
        let result = smd_core::plan_with(
            planned,
            pol.policy,
            &mut Options {
                clock: Some(clock),
                cache: if use_cache { Some(&mut *cache) } else { None },
                ..Options::default()
            },
        );
        match result {
            Ok(plan) => {
                for v in check_plan(&scenario, &models, &plan) {
                    sample
                        .violations
                        .push(format!("{} {}: {v}", case.describe(), pol.name()));
                }
                sample.plans[pol.index()] = Some(measure(&models, &plan));
            }
            Err(e) => sample.violations.push(format!(
                "{} {}: the planner failed: {e}",
                case.describe(),
                pol.name()
            )),
        }
        planned_one(case.variant_weight(pol));
    }
    cross_checks(case, &mut sample, &models);
    sample
}

fn measure(models: &[JobModel], plan: &Plan) -> Measured {
    Measured {
        total_utility: plan.total_utility,
        admitted: plan.admitted,
        feasible: models.iter().filter(|m| m.feasible()).count(),
        used: plan.resources.used.to_array(),
        requested: plan.resources.requested.to_array(),
        capacity: plan.resources.capacity.to_array(),
        solve_ms: plan.stats.solve_ms,
        rounding_attempts: plan.stats.rounding_attempts,
        proven_optimal: plan.admission.proven_optimal,
        gap: plan.admission.gap,
        guarantee: plan.admission.guarantee,
    }
}

/// Checks across the policies of one case.
///
/// - `global` is never below any other policy, proven or not: proven, it is the optimum
///   of a problem every other plan is a point of; unproven (or with a thinned box), it
///   keeps the best of `exact`, `smd`, `smd` with polish and best-corner rounding,
///   `optimus` and `esw` when that beats its own (`smd_core::plan_global`).
/// - When every job's limit fits the cluster at once (Σ L ≤ capacity, e.g. 1000 instances
///   and I ≤ 50), `exact` admits every feasible job of positive utility, `smd` cannot beat
///   it (each job's utility is at most its least-T utility) and `global` equals it.
fn cross_checks(case: &Case, sample: &mut Sample, models: &[JobModel]) {
    let d = case.describe();
    let total = |s: &Sample, p: Variant| s.get(p).map(|m| m.total_utility);
    if let Some(g) = sample.get(Policy::Global).cloned() {
        for p in [
            Policy::Smd.into(),
            Policy::Esw.into(),
            Policy::Optimus.into(),
            Policy::Exact.into(),
            Variant::SMD_POLISH,
        ] {
            let Some(v) = total(sample, p) else { continue };
            if v > g.total_utility && !close(v, g.total_utility) {
                sample.violations.push(format!(
                    "{d}: {} total utility {v} above global's {} (global proven: {})",
                    p.name(),
                    g.total_utility,
                    g.proven_optimal
                ));
            }
        }
    }
    let cap = case.scenario().cluster.capacity().to_array();
    let all_limits: [f64; 4] = std::array::from_fn(|r| {
        models
            .iter()
            .filter(|m| m.feasible())
            .map(|m| m.limit.to_array()[r])
            .sum()
    });
    let everything_fits = (0..4).all(|r| all_limits[r] <= cap[r]);
    if everything_fits {
        let e = total(sample, Policy::Exact.into());
        if let Some(m) = sample.get(Policy::Exact) {
            let positive = models
                .iter()
                .filter(|m| {
                    m.feasible()
                        && m.integer_optimum()
                            .is_some_and(|(w, p, _)| m.utility_at(w as f64, p as f64) > 0.0)
                })
                .count();
            if m.admitted != positive {
                sample.violations.push(format!(
                    "{d}: every job fits, yet exact admits {} of {positive} jobs of positive utility",
                    m.admitted
                ));
            }
        }
        for p in [
            Policy::Smd.into(),
            Variant::SMD_POLISH,
            Policy::Esw.into(),
            Policy::Optimus.into(),
        ] {
            if let (Some(s), Some(e)) = (total(sample, p), e) {
                if s > e && !close(s, e) {
                    sample.violations.push(format!(
                        "{d}: every job fits, yet {} {s} is above exact {e}",
                        p.name()
                    ));
                }
            }
        }
        if let (Some(g), Some(e)) = (total(sample, Policy::Global.into()), e) {
            if !close(g, e) {
                sample.violations.push(format!(
                    "{d}: every job fits, yet global {g} differs from exact {e}"
                ));
            }
        }
    }
}
