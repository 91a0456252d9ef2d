//! Planning over time, measured (docs/REPRODUCTION.md, "Over time"): every policy of
//! `smd-sim` on the bundled Pollux workloads at their full and half arrival rates, on 8, 16
//! and 32 `t4x4` machines with 10-minute slots — utility against the bound, JCT and
//! queueing. Deterministic (no clock).

use crate::table::{Cell, Table};
use smd_core::scenario::Cluster;
use smd_core::{Error, Scenario};
use smd_sim::{simulate, Options, SimPolicy};

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// workload-1 … 4 at both rates on 8, 16 and 32 machines (24 cases).
    Full,
    /// The first 30 arrivals of workload-1-half on 4 machines (a test's worth).
    Quick,
}

/// One case: a workload (its first `jobs` arrivals) on `machines` × `t4x4`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Case {
    /// The bundled workload.
    pub workload: &'static str,
    /// Arrivals used (all: `usize::MAX`).
    pub jobs: usize,
    /// Machines.
    pub machines: usize,
}

impl Case {
    /// The case's scenario (the trace's defaults: 10-minute slots, 30 s restarts).
    pub fn scenario(self) -> Result<Scenario, Error> {
        let kind = smd_apps::machines::machine_type("t4x4").map_err(Error::Solver)?;
        let text = smd_apps::trace::workload(self.workload).map_err(Error::Solver)?;
        let mut arrivals =
            smd_apps::trace::parse(text).map_err(|e| Error::Solver(e.to_string()))?;
        arrivals.truncate(self.jobs);
        let cluster = Cluster::of_machines(
            vec![smd_apps::machines::group(kind, self.machines as f64)],
            kind.capacity,
        );
        smd_apps::trace::scenario_as(&arrivals, cluster, smd_core::scenario::Architecture::Ps)
            .map_err(|e| Error::Solver(e.to_string()))
    }
}

/// The workloads of the full run: 1 … 4 at the artifact's rate and at half of it.
const FULL_WORKLOADS: [&str; 8] = [
    "workload-1",
    "workload-1-half",
    "workload-2",
    "workload-2-half",
    "workload-3",
    "workload-3-half",
    "workload-4",
    "workload-4-half",
];

/// The cases of a run.
pub fn cases(size: Size) -> Vec<Case> {
    match size {
        Size::Quick => vec![Case {
            workload: "workload-1-half",
            jobs: 30,
            machines: 4,
        }],
        Size::Full => FULL_WORKLOADS
            .iter()
            .flat_map(|&workload| {
                [8, 16, 32].map(|machines| Case {
                    workload,
                    jobs: usize::MAX,
                    machines,
                })
            })
            .collect(),
    }
}

/// The columns of the table.
pub const COLUMNS: [&str; 13] = [
    "workload",
    "rate",
    "machines",
    "policy",
    "total_utility",
    "bound",
    "share_of_bound",
    "finished",
    "mean_jct_s",
    "p95_jct_s",
    "mean_queue_s",
    "restarts",
    "makespan_s",
];

/// Runs the study: one row per (case, policy); `progress(done, total)` after each case.
pub fn run(size: Size, progress: &mut dyn FnMut(usize, usize)) -> Result<Table, Error> {
    run_cases(&cases(size), progress)
}

/// [`run`] on a list of cases (e.g. one case of [`Size::Full`]).
pub fn run_cases(list: &[Case], progress: &mut dyn FnMut(usize, usize)) -> Result<Table, Error> {
    let mut t = Table::new(&COLUMNS);
    for (k, case) in list.iter().enumerate() {
        let s = case.scenario()?;
        let rate = if case.workload.ends_with("-half") {
            "0.5x"
        } else {
            "1x"
        };
        for policy in SimPolicy::all_for(&s) {
            let run = simulate(&s, policy, &mut Options::default()).map_err(|e| match e {
                smd_sim::SimError::Invalid(e) => e,
                smd_sim::SimError::Cancelled => Error::Solver("cancelled".into()),
            })?;
            let m = &run.metrics;
            let opt = |v: Option<f64>| v.map_or(Cell::Num(f64::NAN), Cell::Num);
            t.push(vec![
                case.workload.trim_end_matches("-half").into(),
                rate.into(),
                case.machines.into(),
                policy.name().into(),
                m.total_utility.into(),
                m.bound.into(),
                (if m.bound > 0.0 {
                    m.total_utility / m.bound
                } else {
                    f64::NAN
                })
                .into(),
                (run.jobs.len() - m.unfinished).into(),
                opt(m.mean_jct_s),
                opt(m.p95_jct_s),
                opt(m.mean_queue_s),
                m.restarts.into(),
                opt(m.makespan_s),
            ]);
        }
        progress(k + 1, list.len());
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_study_has_a_row_per_policy_within_the_bound() {
        let t = run(Size::Quick, &mut |_, _| {}).unwrap();
        // The study's jobs are the paper's: the reference's policies do not apply.
        let s = cases(Size::Quick)[0].scenario().unwrap();
        assert_eq!(t.rows.len(), SimPolicy::all_for(&s).len());
        let share = t.numbers("share_of_bound");
        for (i, s) in share.iter().enumerate() {
            let s = s.unwrap();
            assert!((0.0..=1.0 + 1e-12).contains(&s), "row {i}: {s}");
        }
        // bound's own share is 1.
        assert_eq!(share.last().copied().flatten(), Some(1.0));
    }

    #[test]
    fn every_full_case_builds() {
        for c in cases(Size::Full) {
            let s = c.scenario().unwrap();
            assert_eq!(s.cluster.machine_list().len(), c.machines);
            assert!(
                s.jobs.len() == 160 || s.jobs.len() == 80,
                "{}",
                s.jobs.len()
            );
        }
    }
}
