//! The last stage shared by every policy: per-job candidates and the admission decision
//! become the plan file, with each not-admitted job's reason.

use super::Policy;
use crate::error::num;
use crate::inner::InnerStats;
use crate::knapsack::{self, Selection, R};
use crate::model::JobModel;
use crate::omega::{fits, floor_tol};
use crate::plan::{AdmissionReport, JobPlan, Plan, Reason, ResourceUse, Stats};
use crate::scenario::{Resource, Resources, Scenario};

/// A job's chosen integer allocation before admission.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) w: u64,
    pub(super) p: u64,
    pub(super) t: f64,
    pub(super) utility: f64,
    pub(super) relaxed: Option<([f64; 2], f64)>,
    pub(super) attempts: Option<u32>,
    /// The locality factor its T assumes: 1 spread (every policy on a pool), β co-located.
    pub(super) rho: f64,
}

impl Candidate {
    pub(super) fn at(
        m: &JobModel,
        w: u64,
        p: u64,
        relaxed: Option<([f64; 2], f64)>,
        attempts: Option<u32>,
    ) -> Candidate {
        Candidate::at_in(m, &[], w, p, relaxed, attempts)
    }

    /// [`Candidate::at`] in the fastest configuration (w, p) fits: spread or co-located on
    /// a machine of one of `colocated` (docs/MODEL.md §16).
    pub(super) fn at_in(
        m: &JobModel,
        colocated: &[JobModel],
        w: u64,
        p: u64,
        relaxed: Option<([f64; 2], f64)>,
        attempts: Option<u32>,
    ) -> Candidate {
        let (t, rho) = crate::joint::best_t(m, colocated, w, p);
        Candidate {
            w,
            p,
            t,
            utility: m.mu(m.pi(t)),
            relaxed,
            attempts,
            rho,
        }
    }
}

/// The plan file from per-job candidates and the admission decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn assemble(
    scenario: &Scenario,
    models: &[JobModel],
    policy: Policy,
    cands: &[Option<Candidate>],
    chosen: &[bool],
    admission: AdmissionReport,
    stats: Stats,
    why_not: &dyn Fn(&Candidate, &[f64; R]) -> Reason,
) -> Plan {
    let cap = scenario.cluster.capacity().to_array();
    let mut jobs = Vec::with_capacity(models.len());
    let mut used = [0.0; R];
    let mut requested = [0.0; R];
    let mut total = 0.0;
    let mut admitted = 0;
    for (i, (job, m)) in scenario.jobs.iter().zip(models).enumerate() {
        let line = match &cands[i] {
            None => JobPlan {
                id: job.id.clone(),
                workers: None,
                ps: None,
                completion_time_s: None,
                completion_time: None,
                utility: 0.0,
                admitted: false,
                reason: Some(infeasible_reason(m)),
                relaxed_workers: None,
                relaxed_ps: None,
                relaxed_completion_time_s: None,
                rounding_attempts: None,
                placement: None,
                locality_factor: None,
                cross_traffic_gbit: None,
                slowdown: None,
            },
            Some(c) => {
                let demand = m.demand(c.w as f64, c.p as f64);
                if chosen[i] {
                    admitted += 1;
                    total += c.utility;
                    for r in 0..R {
                        used[r] += demand[r];
                        requested[r] += m.limit.to_array()[r];
                    }
                }
                JobPlan {
                    id: job.id.clone(),
                    workers: Some(c.w),
                    ps: Some(c.p),
                    completion_time_s: Some(c.t),
                    completion_time: Some(m.pi(c.t)),
                    utility: c.utility,
                    admitted: chosen[i],
                    reason: (!chosen[i]).then(|| why_not(c, &demand)),
                    relaxed_workers: c.relaxed.map(|r| r.0[0]),
                    relaxed_ps: c.relaxed.map(|r| r.0[1]),
                    relaxed_completion_time_s: c.relaxed.map(|r| r.1),
                    rounding_attempts: c.attempts,
                    placement: None,
                    // Only a joint planner's co-located candidate assumes ρ ≠ 1.
                    locality_factor: (c.rho != 1.0).then_some(c.rho),
                    cross_traffic_gbit: None,
                    slowdown: None,
                }
            }
        };
        jobs.push(line);
    }
    Plan {
        policy,
        total_utility: total,
        admitted,
        jobs,
        resources: ResourceUse {
            used: Resources::from_array(used),
            capacity: Resources::from_array(cap),
            requested: Resources::from_array(requested),
        },
        stats,
        admission,
        time_unit: time_unit(scenario),
        placement: None,
        sharing: None,
    }
}

/// The plan's unit of π: the parameter-server jobs' (`relative` or `seconds/u`), and
/// `hours` for measured jobs (MODEL.md §22) — both when the scenario mixes them.
fn time_unit(scenario: &Scenario) -> String {
    let ps = match scenario.params.time_unit_s {
        None => "relative".to_owned(),
        Some(u) => format!("seconds/{u}"),
    };
    let measured = scenario
        .jobs
        .iter()
        .filter(|j| j.measured.is_some())
        .count();
    match measured {
        0 => ps,
        n if n == scenario.jobs.len() => "hours".into(),
        _ => format!("{ps}; measured jobs: hours"),
    }
}

pub(super) fn add_inner(stats: &mut Stats, s: &InnerStats) {
    stats.lp_solves += s.lp_solves;
    stats.grid_points += s.grid_points;
    stats.infeasible_grid_points += s.infeasible_grid_points;
}

pub(super) fn admission_report(sel: &Selection, depth: Option<u32>) -> AdmissionReport {
    AdmissionReport {
        method: if depth.is_some() { "ptas" } else { "exact" }.into(),
        depth,
        guarantee: sel.guarantee,
        proven_optimal: sel.proven_optimal,
        gap: sel.gap,
    }
}

/// ESW: the largest k with (k, k) in Ω.
pub fn esw_k(m: &JobModel) -> u64 {
    let per = (0..R)
        .filter(|&r| m.omega.ow[r] + m.omega.op[r] > 0.0)
        .map(|r| m.omega.limit[r] / (m.omega.ow[r] + m.omega.op[r]))
        .fold(f64::INFINITY, f64::min);
    let mut k = floor_tol(per).max(1.0) as u64;
    while k > 1 && !m.omega.contains(k as f64, k as f64) {
        k -= 1;
    }
    k
}

pub(super) fn infeasible_reason(m: &JobModel) -> Reason {
    let d = m.demand(1.0, 1.0);
    let lim = m.limit.to_array();
    let over: Vec<String> = Resource::ALL
        .into_iter()
        .filter(|r| !fits(d[r.index()], lim[r.index()]))
        .map(|r| {
            let (need, may) = (d[r.index()], lim[r.index()]);
            format!("{} {} > {}", r.name(), num(need), num(may))
        })
        .collect();
    Reason::Infeasible(over.join(", "))
}

pub(super) fn not_selected_reason(
    policy: Policy,
    c: &Candidate,
    demand: &[f64; R],
    cap: &[f64; R],
) -> Reason {
    if !knapsack::fits_all(demand, cap) {
        Reason::NeedsMoreThanCluster
    } else if c.utility <= 0.0 {
        Reason::ZeroUtility
    } else if policy == Policy::Optimus {
        Reason::NoRoomForOneOne
    } else {
        Reason::NotSelected
    }
}
