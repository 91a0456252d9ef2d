//! Phase 2's reproduction (docs/REPRODUCTION.md, "Placement and locality"): seed 003's
//! claim — aggregating a job's tasks cuts cross-machine traffic and training time — and
//! the value of sizing jobs with locality in mind (seed 004; docs/MODEL.md §16), over
//! machine counts and job mixes (bundled Pollux traces and generated jobs).
//!
//! Two parts, both on clusters of `t4x4` machines (the Pollux artifact's nodes):
//!
//! - **Placement** (DLTAP's claim): one admission per case — `exact` (few jobs, each at its
//!   fastest size) and `global` planned on the pool (many smaller jobs) — placed with every
//!   placement policy, so that only the placement differs.
//! - **Joint** (the value of joint locality): `smd` sized on the pool then placed, against
//!   `smd_locality`; `global` sized on the pool then placed, against `global` on the
//!   machines (co-located configurations in its Pareto sets). Every arm is placed with
//!   `locality`, so only the sizing differs.
//!
//! Every number is after placement: T, π and μ at each job's realised ρ. Deterministic
//! (no clock: `global` stops at its node limit).

use crate::table::{Cell, Table};
use smd_core::plan::Plan;
use smd_core::scenario::{Cluster, Placement};
use smd_core::{generate, plan_with, Error, GenerateOptions, Options, Policy, Scenario};
use smd_place::place_plan;

/// The machine type of the study.
pub const MACHINE_TYPE: &str = "t4x4";

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Two traces (first 60 arrivals) and two generated mixes on 8, 16 and 32 machines.
    Full,
    /// One generated mix of 10 jobs on 4 machines (a test's worth).
    Quick,
}

/// A job mix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mix {
    /// The first `jobs` arrivals of a bundled Pollux workload, as presets.
    Trace {
        /// The workload's name.
        name: &'static str,
        /// How many arrivals.
        jobs: usize,
    },
    /// Jobs of the phase-1 generator.
    Generated {
        /// How many.
        jobs: usize,
        /// Its seed.
        seed: u64,
    },
}

impl Mix {
    /// `workload-1 (60)` or `generated 40 (seed 1)`.
    pub fn label(self) -> String {
        match self {
            Mix::Trace { name, jobs } => format!("{name} ({jobs})"),
            Mix::Generated { jobs, seed } => format!("generated {jobs} (seed {seed})"),
        }
    }

    /// The scenario of this mix on `machines` machines of [`MACHINE_TYPE`].
    pub fn scenario(self, machines: usize) -> Result<Scenario, Error> {
        let kind = smd_apps::machines::machine_type(MACHINE_TYPE).map_err(Error::Solver)?;
        let cluster = Cluster::of_machines(
            vec![smd_apps::machines::group(kind, machines as f64)],
            kind.capacity,
        );
        let mut s = match self {
            Mix::Trace { name, jobs } => {
                let text = smd_apps::trace::workload(name).map_err(Error::Solver)?;
                let mut arrivals =
                    smd_apps::trace::parse(text).map_err(|e| Error::Solver(e.to_string()))?;
                arrivals.truncate(jobs);
                smd_apps::trace::scenario_as(
                    &arrivals,
                    cluster,
                    smd_core::scenario::Architecture::Ps,
                )
                .map_err(|e| Error::Solver(e.to_string()))?
            }
            Mix::Generated { jobs, seed } => {
                let mut s = generate(&GenerateOptions {
                    jobs,
                    seed,
                    ..Default::default()
                });
                s.version = 2;
                s.cluster = cluster;
                s
            }
        };
        s.params.epsilon = 0.05;
        Ok(s)
    }
}

/// The mixes and machine counts of a run.
pub fn cases(size: Size) -> Vec<(Mix, usize)> {
    let mixes: Vec<Mix> = match size {
        Size::Quick => vec![Mix::Generated { jobs: 10, seed: 1 }],
        Size::Full => vec![
            Mix::Trace {
                name: "workload-1",
                jobs: 60,
            },
            Mix::Trace {
                name: "workload-8",
                jobs: 60,
            },
            Mix::Generated { jobs: 40, seed: 1 },
            Mix::Generated { jobs: 40, seed: 2 },
        ],
    };
    let counts: &[usize] = match size {
        Size::Quick => &[4],
        Size::Full => &[8, 16, 32],
    };
    mixes
        .iter()
        .flat_map(|&m| counts.iter().map(move |&n| (m, n)))
        .collect()
}

/// The columns of the study's table.
pub const COLUMNS: [&str; 11] = [
    "part",
    "mix",
    "machines",
    "sizing",
    "placement",
    "total_utility",
    "admitted",
    "not_placed",
    "cross_gbit",
    "mean_rho",
    "time_ratio",
];

/// Runs the study: one row per (case, arm); `progress(done, total)` after each case.
pub fn run(size: Size, progress: &mut dyn FnMut(usize, usize)) -> Result<Table, Error> {
    run_cases(&cases(size), progress)
}

/// [`run`] on a list of cases (e.g. one case of [`Size::Full`]).
pub fn run_cases(
    list: &[(Mix, usize)],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Table, Error> {
    let mut table = Table::new(&COLUMNS);
    for (k, &(mix, machines)) in list.iter().enumerate() {
        let s = mix.scenario(machines)?;
        // The same jobs on a pool of the same total capacity: the locality-blind sizing.
        let mut pool = s.clone();
        pool.cluster = Cluster {
            units: 1.0,
            unit: s.cluster.capacity(),
            instance: s.cluster.instance,
            machines: Vec::new(),
        };
        let sized = |scenario: &Scenario, policy: Policy| -> Result<Plan, Error> {
            plan_with(scenario, policy, &mut Options::default())
        };
        let (exact, global_pool) = (sized(&pool, Policy::Exact)?, sized(&pool, Policy::Global)?);
        let smd = sized(&pool, Policy::Smd)?;
        let smd_locality = sized(&s, Policy::SmdLocality)?;
        let global_machines = sized(&s, Policy::Global)?;
        let mut row = |part: &str, sizing: &str, placement: Placement, plan: &Plan| {
            let mut on = s.clone();
            on.params.placement = Some(placement);
            let placed = place_plan(&on, plan.clone())?;
            table.push(measure(
                &on,
                &placed,
                [part, &mix.label(), &machines.to_string(), sizing],
            ));
            Ok::<(), Error>(())
        };
        for (sizing, plan) in [("exact (pool)", &exact), ("global (pool)", &global_pool)] {
            for placement in Placement::ALL {
                row("placement", sizing, placement, plan)?;
            }
        }
        for (sizing, plan) in [
            ("smd (pool)", &smd),
            ("smd_locality", &smd_locality),
            ("global (pool)", &global_pool),
            ("global (machines)", &global_machines),
        ] {
            row("joint", sizing, Placement::Locality, plan)?;
        }
        progress(k + 1, list.len());
    }
    Ok(table)
}

/// One row: what a placed plan achieves.
fn measure(s: &Scenario, plan: &Plan, labels: [&str; 4]) -> Vec<Cell> {
    let (mut rho, mut ratio, mut placed) = (0.0, 0.0, 0usize);
    for (job, line) in s.jobs.iter().zip(&plan.jobs) {
        let (Some(r), Some(t), Some(w), Some(p)) = (
            line.locality_factor,
            line.completion_time_s,
            line.workers,
            line.ps,
        ) else {
            continue;
        };
        if !line.admitted {
            continue;
        }
        let m = smd_core::model::JobModel::of(job, &s.cluster, s.params.time_unit_s);
        rho += r;
        ratio += t / m.t(w as f64, p as f64);
        placed += 1;
    }
    let mean = |x: f64| {
        if placed > 0 {
            x / placed as f64
        } else {
            f64::NAN
        }
    };
    let summary = plan.placement.as_ref();
    let mut row: Vec<Cell> = labels.iter().map(|l| Cell::from(*l)).collect();
    row.push(s.params.placement.map_or("locality", |p| p.name()).into());
    row.push(plan.total_utility.into());
    row.push(plan.admitted.into());
    row.push(summary.map_or(0, |p| p.not_placed).into());
    row.push(summary.map_or(0.0, |p| p.total_cross_traffic_gbit).into());
    row.push(mean(rho).into());
    row.push(mean(ratio).into());
    row
}

#[cfg(test)]
mod tests;
