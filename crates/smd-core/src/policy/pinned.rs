//! Planning on what is left: some jobs pinned at given allocations (running jobs, as the
//! online simulation of CLUSTER.md §4 needs), the others planned by any policy on the
//! capacity the pinned jobs leave.

use super::assemble::Candidate;
use crate::error::Error;
use crate::knapsack::{fits_all, R};
use crate::model::JobModel;
use crate::omega::TOL;
use crate::plan::{JobPlan, Plan};
use crate::scenario::{Resources, Scenario};

/// Where a plan may put jobs. A pool of capacity today (the cluster's `units × unit`);
/// machines with per-machine placement will be a second variant (CLUSTER.md §1).
#[derive(Clone, Debug, PartialEq)]
pub enum Capacity {
    /// One pool over the four resources.
    Pool(Resources),
}

impl Capacity {
    /// The scenario's own capacity.
    pub fn of(scenario: &Scenario) -> Capacity {
        Capacity::Pool(scenario.cluster.capacity())
    }

    /// The pool as an array over the resources.
    fn pool(&self) -> [f64; R] {
        match self {
            Capacity::Pool(r) => r.to_array(),
        }
    }
}

/// A job held at an allocation: admitted as it is, its demand taken from the capacity first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin {
    /// Index of the job in the scenario.
    pub job: usize,
    /// Workers.
    pub workers: u64,
    /// Parameter servers.
    pub ps: u64,
}

/// Plans `scenario` on `capacity` with the `pinned` jobs held at their allocations: the
/// other jobs are planned by `plan` (e.g. `|s| plan_with(s, Policy::Smd, &mut opts)` or
/// [`super::plan_global`]) as a scenario of their own whose capacity is what the pins
/// leave, then the pinned jobs are put back, admitted. With the scenario's own capacity and
/// no pins the plan is `plan(scenario)`'s (tested). A pin outside Ω, a job pinned twice, or
/// pins needing more than the capacity are errors naming the job.
pub fn plan_on(
    scenario: &Scenario,
    capacity: &Capacity,
    pinned: &[Pin],
    plan: impl FnOnce(&Scenario) -> Result<Plan, Error>,
) -> Result<Plan, Error> {
    scenario.validate()?;
    let cap = capacity.pool();
    let mut pin_of: Vec<Option<Pin>> = vec![None; scenario.jobs.len()];
    let mut used = [0.0; R];
    let mut lines = Vec::with_capacity(pinned.len());
    for pin in pinned {
        let Some(job) = scenario.jobs.get(pin.job) else {
            return Err(Error::field(
                None,
                "(pinned)",
                format!("job #{} does not exist", pin.job + 1),
            ));
        };
        if pin_of[pin.job].replace(*pin).is_some() {
            return Err(Error::field(Some(&job.id), "(pinned)", "is pinned twice"));
        }
        let m = JobModel::of(job, &scenario.cluster, scenario.params.time_unit_s);
        let (w, p) = (pin.workers as f64, pin.ps as f64);
        if pin.workers < 1 || !m.contains(w, p) {
            return Err(Error::field(
                Some(&job.id),
                "(pinned)",
                format!(
                    "({}, {}) is not an allocation of the job's region Ω",
                    pin.workers, pin.ps
                ),
            ));
        }
        let d = m.demand(w, p);
        for r in 0..R {
            used[r] += d[r];
        }
        if !fits_all(&used, &cap) {
            return Err(Error::field(
                Some(&job.id),
                "(pinned)",
                "with the jobs pinned before it, needs more than the capacity",
            ));
        }
        lines.push((
            pin.job,
            pinned_line(&job.id, &m, pin),
            d,
            m.limit.to_array(),
        ));
    }
    // The free jobs as a scenario of their own, on the leftover pool (round-off to 0). A
    // cluster of machines becomes that pool too: `Capacity` is a pool today, and the
    // machines' capacity would otherwise count the pinned jobs' use again.
    let mut sub = scenario.clone();
    sub.cluster.machines.clear();
    sub.jobs = (0..scenario.jobs.len())
        .filter(|&i| pin_of[i].is_none())
        .map(|i| scenario.jobs[i].clone())
        .collect();
    sub.cluster.units = 1.0;
    sub.cluster.unit = Resources::from_array(std::array::from_fn(|r| {
        let left = cap[r] - used[r];
        if left <= TOL * cap[r].abs().max(1.0) {
            0.0
        } else {
            left
        }
    }));
    let mut out = plan(&sub)?;
    // Put the pinned jobs back in scenario order, with the totals re-derived.
    lines.sort_by_key(|l| l.0);
    let mut free = std::mem::take(&mut out.jobs).into_iter();
    let mut pinned_lines = lines.iter();
    let mut used_all = out.resources.used.to_array();
    let mut requested = out.resources.requested.to_array();
    for pin in &pin_of {
        if pin.is_some() {
            let (_, line, d, l) = pinned_lines.next().expect("one line per pin");
            out.total_utility += line.utility;
            out.admitted += 1;
            for r in 0..R {
                used_all[r] += d[r];
                requested[r] += l[r];
            }
            out.jobs.push(line.clone());
        } else {
            out.jobs.push(free.next().expect("one line per free job"));
        }
    }
    out.resources.used = Resources::from_array(used_all);
    out.resources.requested = Resources::from_array(requested);
    out.resources.capacity = Resources::from_array(cap);
    Ok(out)
}

/// A pinned job's line: admitted at its allocation.
fn pinned_line(id: &str, m: &JobModel, pin: &Pin) -> JobPlan {
    let c = Candidate::at(m, pin.workers, pin.ps, None, None);
    JobPlan {
        id: id.to_owned(),
        workers: Some(c.w),
        ps: Some(c.p),
        completion_time_s: Some(c.t),
        completion_time: Some(m.pi(c.t)),
        utility: c.utility,
        admitted: true,
        reason: None,
        relaxed_workers: None,
        relaxed_ps: None,
        relaxed_completion_time_s: None,
        rounding_attempts: None,
        placement: None,
        locality_factor: None,
        cross_traffic_gbit: None,
        slowdown: None,
    }
}
