//! The five experiments (docs/MODEL.md §11, issue 5) as data: the cases each needs, and how
//! their samples become a table, a figure, findings and checks.
//!
//! One file per experiment (`e1` … `e5`, each with its [`Spec`]); `shared` holds what they
//! all use (the points' coordinates, the per-seed loop, the table columns, chart and text
//! helpers) and `utility` the total-utility points E1 and E2 both report.

use crate::case::{Case, Pols, Sample};
use crate::table::Table;
use std::collections::HashMap;
use std::fmt;

mod e1;
mod e2;
mod e3;
mod e4;
mod e5;
mod shared;
mod utility;

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scale {
    /// Fewer points, 3 seeds: for CI (well under two minutes natively).
    Quick,
    /// Every point, 10 seeds.
    Full,
}

impl Scale {
    /// `"quick"` or `"full"`.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Full => "full",
        }
    }
}

/// The points of every experiment at one scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Seeds of every point.
    pub seeds: Vec<u64>,
    /// E1: cluster units.
    pub e1_units: Vec<u32>,
    /// E1: jobs.
    pub e1_jobs: usize,
    /// E2: jobs.
    pub e2_jobs: Vec<usize>,
    /// E2: cluster units.
    pub e2_units: Vec<u32>,
    /// E3: jobs.
    pub e3_jobs: Vec<usize>,
    /// E3: the "every job fits" cluster, in instances.
    pub e3_instances: u32,
    /// E4: jobs.
    pub e4_jobs: Vec<usize>,
    /// E5: jobs.
    pub e5_jobs: usize,
    /// E5: ε values, in millionths.
    pub e5_epsilon_ppm: Vec<u32>,
    /// E5: M_δ values.
    pub e5_m_delta: Vec<u32>,
}

impl Grid {
    /// The grid of `scale`.
    pub fn of(scale: Scale) -> Grid {
        match scale {
            Scale::Full => Grid {
                seeds: (1..=10).collect(),
                e1_units: vec![1, 2, 3, 4, 5],
                e1_jobs: 50,
                e2_jobs: vec![10, 25, 50, 100, 150, 200],
                e2_units: vec![1, 3],
                e3_jobs: vec![10, 20, 30, 40, 50],
                e3_instances: 1000,
                e4_jobs: vec![40, 80, 120, 160, 200],
                e5_jobs: 50,
                e5_epsilon_ppm: vec![5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000],
                e5_m_delta: vec![1, 2, 3, 4],
            },
            Scale::Quick => Grid {
                seeds: (1..=3).collect(),
                e1_units: vec![1, 2, 3, 4, 5],
                e1_jobs: 50,
                e2_jobs: vec![10, 50, 100, 200],
                e2_units: vec![1, 3],
                e3_jobs: vec![10, 30, 50],
                e3_instances: 1000,
                e4_jobs: vec![40, 120, 200],
                e5_jobs: 30,
                e5_epsilon_ppm: vec![10_000, 100_000, 500_000],
                e5_m_delta: vec![1, 4],
            },
        }
    }

    /// One line describing the seeds and the spread.
    pub fn seeds_text(&self) -> String {
        format!(
            "{} seeds per point ({}…{}); mean ± sample standard deviation over the seeds",
            self.seeds.len(),
            self.seeds.first().copied().unwrap_or(0),
            self.seeds.last().copied().unwrap_or(0)
        )
    }
}

/// The samples of a run, by case.
pub type Samples = HashMap<Case, Sample>;

/// What an experiment produces.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    /// The points, mean and spread (one CSV).
    pub table: Table,
    /// The figure (one SVG document).
    pub svg: String,
    /// Measured findings, one sentence each.
    pub findings: Vec<String>,
    /// Failed invariants.
    pub violations: Vec<String>,
}

/// One experiment: what it is and how it runs.
#[derive(Clone, Copy)]
pub struct Spec {
    /// File stem of its outputs, e.g. `e1-utility-vs-units`.
    pub id: &'static str,
    /// Title.
    pub title: &'static str,
    /// What is run, in a sentence or two.
    pub description: &'static str,
    /// The paper's claim it tests (docs/MODEL.md §11).
    pub claim: &'static str,
    /// The cases it needs, with the policies to plan each with.
    pub cases: fn(&Grid) -> Vec<(Case, Pols)>,
    /// Its table, figure, findings and checks from the samples.
    pub assemble: fn(&Grid, &Samples) -> Parts,
}

impl Spec {
    /// The short id the docs use: the id up to its first `-` (`e1` for
    /// `e1-utility-vs-units`).
    pub fn short_id(&self) -> &'static str {
        self.id.split('-').next().unwrap_or(self.id)
    }
}

/// The five experiments, in order.
pub fn specs() -> Vec<Spec> {
    vec![e1::SPEC, e2::SPEC, e3::SPEC, e4::SPEC, e5::SPEC]
}

/// An experiment id that names no experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownExperiment {
    /// The id as given.
    pub given: String,
}

impl fmt::Display for UnknownExperiment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let valid: Vec<String> = specs()
            .iter()
            .map(|s| format!("{} ({})", s.short_id(), s.id))
            .collect();
        write!(
            f,
            "unknown experiment {:?} (expected one of {})",
            smd_core::error::cut(&self.given),
            valid.join(", ")
        )
    }
}

impl std::error::Error for UnknownExperiment {}

/// The full id of the experiment `id` names: its full id (`e3-ratio-to-optimum`) or its
/// short id (`e3`, see [`Spec::short_id`]), ASCII case-insensitively and without the
/// surrounding blanks. An unknown id's error lists the valid ones.
pub fn resolve_id(id: &str) -> Result<&'static str, UnknownExperiment> {
    let want = id.trim();
    specs()
        .iter()
        .find(|s| s.id.eq_ignore_ascii_case(want) || s.short_id().eq_ignore_ascii_case(want))
        .map(|s| s.id)
        .ok_or_else(|| UnknownExperiment {
            given: id.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_full_ids_resolve() {
        for s in specs() {
            assert_eq!(resolve_id(s.id), Ok(s.id));
            assert_eq!(resolve_id(s.short_id()), Ok(s.id));
            assert_eq!(resolve_id(&s.id.to_uppercase()), Ok(s.id));
        }
        assert_eq!(resolve_id("E3"), Ok("e3-ratio-to-optimum"));
        assert_eq!(resolve_id(" e5 "), Ok("e5-epsilon-mdelta"));
        assert_eq!(resolve_id("E1-Utility-VS-Units"), Ok("e1-utility-vs-units"));
        let shorts: Vec<&str> = specs().iter().map(Spec::short_id).collect();
        assert_eq!(shorts, ["e1", "e2", "e3", "e4", "e5"]);
    }

    #[test]
    fn a_runner_takes_short_ids() {
        let r = crate::Runner::only(Scale::Quick, &["E3", "e5-epsilon-mdelta", "e9"]);
        let ids: Vec<&str> = r.specs().iter().map(|s| s.id).collect();
        assert_eq!(ids, ["e3-ratio-to-optimum", "e5-epsilon-mdelta"]);
    }

    #[test]
    fn an_unknown_id_lists_the_valid_ones() {
        for bad in ["e9", "", "e", "e3-ratio", "ratio-to-optimum", "e33"] {
            let err = resolve_id(bad).expect_err(bad);
            assert_eq!(err.given, bad);
            let msg = err.to_string();
            assert!(
                msg.starts_with(&format!("unknown experiment {bad:?}")),
                "{msg}"
            );
            for s in specs() {
                assert!(
                    msg.contains(&format!("{} ({})", s.short_id(), s.id)),
                    "{msg}"
                );
            }
        }
    }
}
