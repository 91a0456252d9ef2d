//! The objective landscape of one job: what the page draws. T, π and μ on the (w, p) box,
//! the region Ω, the integer optimum, the point each policy chose, and Algorithm 1's search.

use crate::enumerate::integer_optimum;
use crate::error::Error;
use crate::inner;
// Algorithm 1's search, part of a landscape (its module is private).
pub use crate::grid::{Search, Summand};
use crate::model::JobModel;
use crate::plan::Plan;
use crate::scenario::Scenario;

/// A point a policy chose for this job.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Chosen {
    /// Policy name.
    pub policy: String,
    /// Workers.
    pub w: f64,
    /// Parameter servers.
    pub p: f64,
    /// T there, s.
    pub t: f64,
    /// Whether the policy admitted the job.
    pub admitted: bool,
}

/// Landscape data of one job.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Landscape {
    /// The job's id.
    pub id: String,
    /// Sample coordinates along w (integers when the box is small enough).
    pub w: Vec<f64>,
    /// Sample coordinates along p.
    pub p: Vec<f64>,
    /// T(w, p), s, indexed `[p][w]`.
    pub t: Vec<Vec<f64>>,
    /// π, indexed `[p][w]`.
    pub pi: Vec<Vec<f64>>,
    /// μ(π), indexed `[p][w]`.
    pub mu: Vec<Vec<f64>>,
    /// Whether the sample is in Ω, indexed `[p][w]`.
    pub inside: Vec<Vec<bool>>,
    /// Ω's vertices, counter-clockwise.
    pub omega: Vec<[f64; 2]>,
    /// The integer optimum (w, p, T).
    pub integer_optimum: Option<(u64, u64, f64)>,
    /// Algorithm 1's x̄ and T(x̄).
    pub relaxed: Option<([f64; 2], f64)>,
    /// Algorithm 1's search (bounds, free summand, grid sizes, winning grid point).
    pub search: Option<Search>,
    /// The points of the given plans.
    pub chosen: Vec<Chosen>,
}

/// Samples at most `resolution` values of 1..=max: every integer if they fit, else evenly.
fn axis(max: u64, resolution: usize) -> Vec<f64> {
    let res = resolution.max(2) as u64;
    if max <= res {
        (1..=max).map(|v| v as f64).collect()
    } else {
        (0..res)
            .map(|k| 1.0 + (max - 1) as f64 * k as f64 / (res - 1) as f64)
            .collect()
    }
}

/// The landscape of job `index` of a valid scenario, with the points of `plans`.
pub fn landscape(
    scenario: &Scenario,
    index: usize,
    resolution: usize,
    plans: &[Plan],
) -> Result<Landscape, Error> {
    let job = scenario
        .jobs
        .get(index)
        .ok_or_else(|| Error::Solver(format!("no job #{index} in the scenario")))?;
    if job.measured.is_some() {
        return Err(Error::Solver(format!(
            "job {:?} is a measured all-reduce job: its region is w = 1…cap alone, with no \
             (w, p) landscape (docs/MODEL.md §21.1)",
            crate::error::cut(&job.id)
        )));
    }
    let m = JobModel::of(job, &scenario.cluster, scenario.params.time_unit_s);
    let feasible = m.feasible();
    let (wmax, pmax) = if feasible {
        (m.omega.w_max_int(), m.omega.p_max_int(1))
    } else {
        (4, 4)
    };
    let (ws, ps) = (axis(wmax.max(1), resolution), axis(pmax.max(1), resolution));
    let grid = |f: &dyn Fn(f64, f64) -> f64| -> Vec<Vec<f64>> {
        ps.iter()
            .map(|&p| ws.iter().map(|&w| f(w, p)).collect())
            .collect()
    };
    let t = grid(&|w, p| m.t(w, p));
    let pi = grid(&|w, p| m.pi(m.t(w, p)));
    let mu = grid(&|w, p| m.mu(m.pi(m.t(w, p))));
    let inside = ps
        .iter()
        .map(|&p| ws.iter().map(|&w| m.omega.contains(w, p)).collect())
        .collect();
    let (relaxed, search) = if feasible {
        let sol = inner::solve(&m, scenario.params.epsilon).map_err(|e| e.for_job(&job.id))?;
        (Some((sol.x, sol.t)), Some(sol.search))
    } else {
        (None, None)
    };
    let chosen = plans
        .iter()
        .filter_map(|plan| {
            let line = plan.jobs.iter().find(|j| j.id == job.id)?;
            Some(Chosen {
                policy: plan.policy.to_string(),
                w: line.workers? as f64,
                p: line.ps? as f64,
                t: line.completion_time_s?,
                admitted: line.admitted,
            })
        })
        .collect();
    Ok(Landscape {
        id: job.id.clone(),
        w: ws,
        p: ps,
        t,
        pi,
        mu,
        inside,
        omega: m.omega.vertices(),
        integer_optimum: if feasible { integer_optimum(&m) } else { None },
        relaxed,
        search,
        chosen,
    })
}
