//! Several policies over several seeds, and the verdict against the published tables
//! (docs/MODEL.md §26.8; docs/FIDELITY.md).

use crate::experiment::{mean_points, Experiment, Point, Prepared, RunError};
use crate::policy::Policy;
use crate::published::{parse_published, PublishedRow};

/// The bundled openb lists and the published results (data/openb).
pub mod bundled {
    /// The 1213 GPU nodes.
    pub const NODES: &str = include_str!("../../../data/openb/openb_node_list_gpu_node.csv");
    /// The default pod list (8152 pods).
    pub const PODS: &str = include_str!("../../../data/openb/openb_pod_list_default.csv");
    /// Published allocation ratios per policy and seed.
    pub const ALLOCATION: &str =
        include_str!("../../../data/openb/results/analysis_allo_discrete.csv");
    /// Published fragmentation amounts.
    pub const FRAG_AMOUNT: &str =
        include_str!("../../../data/openb/results/analysis_frag_discrete.csv");
    /// Published fragmentation ratios.
    pub const FRAG_RATIO: &str =
        include_str!("../../../data/openb/results/analysis_frag_ratio_discrete.csv");
    /// The target ratio of the published runs.
    pub const TARGET: f64 = 1.3;
    /// The seeds of the published runs.
    pub const SEEDS: std::ops::RangeInclusive<i64> = 42..=51;

    /// Whether a study of `nodes` and `pods` (their texts) at `target` over `seeds` is one
    /// the published tables hold: the bundled lists, the published target, and only
    /// published seeds (each compared with the same seed's published run).
    pub fn comparable(nodes: &str, pods: &str, target: f64, seeds: &[i64]) -> bool {
        nodes == NODES && pods == PODS && published_run(target, seeds)
    }

    /// Whether `target` and `seeds` are the published runs' (the lists aside).
    pub fn published_run(target: f64, seeds: &[i64]) -> bool {
        (target - TARGET).abs() < 1e-12 && seeds.iter().all(|s| SEEDS.contains(s))
    }
}

/// Tolerance of the per-seed comparison: one unit of the published 2-decimal rounding.
pub const CELL_TOLERANCE: f64 = 0.01;
/// Tolerance of Random's comparison of means over seeds, in percentage points.
pub const RANDOM_TOLERANCE: f64 = 0.5;

/// The most seeds one study runs.
pub const MAX_SEEDS: usize = 1000;

/// Seeds as typed: a range `A:B` (or `A–B`, `A-B`), both ends included, or a comma list;
/// between 1 and [`MAX_SEEDS`]. The error says what was wrong, for the field's message.
pub fn parse_seeds(text: &str) -> Result<Vec<i64>, String> {
    let bad = || format!("{text:?} is not a range like 42:51 or a list like 42, 43");
    let num = |s: &str| s.trim().parse::<i64>().map_err(|_| bad());
    let t = text.trim().replace(['–', ':'], "-");
    // A range's dash comes after its first number's first character (which may be a sign).
    let dash = t.char_indices().skip(1).find(|c| c.1 == '-').map(|c| c.0);
    let list: Vec<i64> = match dash {
        Some(i) if !t.contains(',') => {
            let (a, b) = (num(&t[..i])?, num(&t[i + 1..])?);
            // In i128: the ends may be any i64s.
            if b < a || i128::from(b) - i128::from(a) >= MAX_SEEDS as i128 {
                return Err(format!(
                    "{text:?} must run from low to high, at most {MAX_SEEDS} seeds"
                ));
            }
            (a..=b).collect()
        }
        _ => t.split(',').map(num).collect::<Result<_, _>>()?,
    };
    if list.is_empty() || list.len() > MAX_SEEDS {
        return Err(format!("between 1 and {MAX_SEEDS} seeds"));
    }
    Ok(list)
}

/// The largest target accepted, a multiple of the cluster's GPUs.
pub const MAX_TARGET: f64 = 10.0;

/// A target that a study runs: finite, above 0 and at most [`MAX_TARGET`].
pub fn check_target(target: f64) -> Result<f64, String> {
    if target.is_finite() && target > 0.0 && target <= MAX_TARGET {
        Ok(target)
    } else {
        Err(format!(
            "must be above 0 and at most {MAX_TARGET} (got {})",
            smd_format::num(target)
        ))
    }
}

/// One policy's runs and their mean over seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyResult {
    /// The policy.
    pub policy: Policy,
    /// One run per seed, in the seeds' order.
    pub runs: Vec<Experiment>,
    /// The mean over the runs, per x.
    pub mean: Vec<Point>,
}

/// docs/SCENARIO.md's "FGD study output" (`smd study fgd --json` and the page's export):
/// each policy's mean points, the bound's, and the wall time, serialised as it reads.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StudyOutput<'a> {
    /// One per policy, in the order asked for.
    pub policies: Vec<PolicyPoints<'a>>,
    /// The bound, mean over the seeds.
    pub bound: BoundPoints<'a>,
    /// The study's wall time, seconds.
    pub wall_s: f64,
}

/// One policy's points in a [`StudyOutput`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct PolicyPoints<'a> {
    /// The policy's name.
    pub policy: &'a str,
    /// The mean over the seeds, per x.
    pub points: &'a [Point],
}

/// The bound's points in a [`StudyOutput`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoundPoints<'a> {
    /// Per x.
    pub points: &'a [crate::bound::BoundPoint],
}

impl<'a> StudyOutput<'a> {
    /// The output of `results` with their `bound`, which took `wall_s` seconds.
    pub fn new(
        results: &'a [PolicyResult],
        bound: &'a [crate::bound::BoundPoint],
        wall_s: f64,
    ) -> StudyOutput<'a> {
        StudyOutput {
            policies: results
                .iter()
                .map(|r| PolicyPoints {
                    policy: r.policy.name(),
                    points: &r.mean,
                })
                .collect(),
            bound: BoundPoints { points: bound },
            wall_s,
        }
    }
}

/// Group runs by policy, in the order of `policies`, each with its mean over the runs.
pub fn group_runs(policies: &[Policy], runs: Vec<Experiment>) -> Vec<PolicyResult> {
    policies
        .iter()
        .map(|&policy| {
            let runs: Vec<Experiment> = runs
                .iter()
                .filter(|r| r.policy == policy)
                .cloned()
                .collect();
            PolicyResult {
                policy,
                mean: mean_points(&runs),
                runs,
            }
        })
        .collect()
}

/// Every policy with every seed, one after the other; `progress(done, total)` counts runs.
pub fn run_all(
    prepared: &Prepared,
    policies: &[Policy],
    seeds: &[i64],
    target: f64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<PolicyResult>, RunError> {
    let total = policies.len() * seeds.len();
    let mut runs = Vec::with_capacity(total);
    for &policy in policies {
        for &seed in seeds {
            runs.push(prepared.run(policy, seed, target, &mut |_, _| true)?);
            progress(runs.len(), total);
        }
    }
    Ok(group_runs(policies, runs))
}

/// [`run_all`] on rayon's threads; `progress(done, total)` may be called from any thread.
#[cfg(feature = "parallel")]
pub fn run_all_parallel(
    prepared: &Prepared,
    policies: &[Policy],
    seeds: &[i64],
    target: f64,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<PolicyResult>, RunError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let jobs: Vec<(Policy, i64)> = policies
        .iter()
        .flat_map(|&p| seeds.iter().map(move |&s| (p, s)))
        .collect();
    let done = AtomicUsize::new(0);
    let runs = jobs
        .par_iter()
        .map(|&(policy, seed)| {
            let run = prepared.run(policy, seed, target, &mut |_, _| true);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
            run
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(group_runs(policies, runs))
}

/// The three published tables.
#[derive(Clone, Debug)]
pub struct Published {
    /// Allocation ratio, fragmentation amount and fragmentation ratio, in that order.
    pub tables: [Vec<PublishedRow>; 3],
}

impl Published {
    /// The bundled tables.
    pub fn bundled() -> Published {
        let parse = |t: &str| parse_published(t).unwrap_or_default();
        Published {
            tables: [
                parse(bundled::ALLOCATION),
                parse(bundled::FRAG_AMOUNT),
                parse(bundled::FRAG_RATIO),
            ],
        }
    }

    fn row(&self, table: usize, policy: Policy, seed: i64) -> Option<&PublishedRow> {
        self.tables[table]
            .iter()
            .find(|r| r.policy == policy.published_name() && r.seed == seed)
    }

    /// The published mean of `table` (0 allocation, 1 amount, 2 ratio) at x over the
    /// published runs of `seeds` — the seeds run, so that a study of a few seeds compares
    /// with the same seeds' runs; `None` when none of them was published.
    pub fn mean(&self, table: usize, policy: Policy, x: u32, seeds: &[i64]) -> Option<f64> {
        let values: Vec<f64> = self.tables[table]
            .iter()
            .filter(|r| r.policy == policy.published_name() && seeds.contains(&r.seed))
            .filter_map(|r| r.values.get(x as usize).copied().flatten())
            .collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    }
}

/// The three values of a point, in the tables' order.
fn values(p: &Point) -> [f64; 3] {
    [p.allocation_pct, p.frag_amount_pct, p.frag_ratio_pct]
}

/// How one policy's runs compare with the published tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The policy.
    pub policy: Policy,
    /// Cells compared (per seed for the deterministic policies, means for Random).
    pub cells: usize,
    /// Cells within the tolerance.
    pub within: usize,
    /// The largest distance, percentage points.
    pub largest_gap: f64,
    /// Whether every cell is within the tolerance.
    pub reproduced: bool,
}

impl Verdict {
    /// One line for people.
    pub fn words(&self) -> String {
        if self.policy == Policy::Random {
            format!(
                "{}: the mean over seeds is within {:.2} points of the published means \
                 (tolerance {RANDOM_TOLERANCE}; the reference's own Random is not repeatable \
                 per seed): {}",
                self.policy.name(),
                self.largest_gap,
                if self.reproduced {
                    "consistent"
                } else {
                    "differs"
                }
            )
        } else {
            format!(
                "{}: {} of {} published cells within {CELL_TOLERANCE} (largest gap {:.2}): {}",
                self.policy.name(),
                self.within,
                self.cells,
                self.largest_gap,
                if self.reproduced {
                    "reproduced"
                } else {
                    "differs"
                }
            )
        }
    }
}

/// Compare one policy's runs with the published tables: every cell of every published
/// seed for the deterministic policies, the means over seeds for Random. `None` when no
/// run has a published counterpart.
pub fn verdict(result: &PolicyResult, published: &Published) -> Option<Verdict> {
    let (mut cells, mut within, mut gap, mut missed) = (0, 0, 0.0f64, 0);
    let mut tally = |got: f64, want: f64, tol: f64| {
        let d = (got - want).abs();
        cells += 1;
        within += usize::from(d <= tol + 1e-9);
        gap = gap.max(d);
    };
    if result.policy == Policy::Random {
        let seeds: Vec<i64> = result.runs.iter().map(|r| r.seed).collect();
        for p in &result.mean {
            for (t, got) in values(p).into_iter().enumerate() {
                if let Some(want) = published.mean(t, result.policy, p.x, &seeds) {
                    tally(got, want, RANDOM_TOLERANCE);
                }
            }
        }
    } else {
        for run in &result.runs {
            for t in 0..3 {
                let Some(row) = published.row(t, run.policy, run.seed) else {
                    continue;
                };
                // Every published cell: one the run has no column for is a miss.
                for (x, want) in row.values.iter().enumerate() {
                    let Some(want) = want else { continue };
                    match run.points.iter().find(|p| p.x as usize == x) {
                        Some(p) => tally(values(p)[t], *want, CELL_TOLERANCE),
                        None => missed += 1,
                    }
                }
            }
        }
    }
    let cells = cells + missed;
    (cells > 0).then_some(Verdict {
        policy: result.policy,
        cells,
        within,
        largest_gap: gap,
        reproduced: within == cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(policy: &str, seed: i64, v: f64) -> PublishedRow {
        PublishedRow {
            workload: "openb_pod_list_default".into(),
            policy: policy.into(),
            seed,
            values: vec![Some(v)],
        }
    }

    /// `policy`'s one run, seed 42, with one column (x = 0) of 10 % everywhere.
    fn one_run(policy: Policy) -> PolicyResult {
        let point = Point {
            x: 0,
            allocation_pct: 10.0,
            unallocated_gpus: 0.0,
            frag_amount_pct: 10.0,
            frag_ratio_pct: 10.0,
        };
        let run = Experiment {
            policy,
            seed: 42,
            clones: 0,
            submitted: 0,
            failed: 0,
            records: vec![],
            points: vec![point],
        };
        PolicyResult {
            policy,
            runs: vec![run],
            mean: vec![point],
        }
    }

    /// Only the bundled lists at the published target with published seeds are compared
    /// with the published tables: a seed past 51 would put a mean over other seeds beside
    /// the published one.
    #[test]
    fn only_published_runs_are_comparable() {
        use bundled::{comparable, NODES, PODS};
        let all: Vec<i64> = (42..=51).collect();
        assert!(comparable(NODES, PODS, 1.3, &all));
        assert!(comparable(NODES, PODS, 1.3, &[45]));
        assert!(!comparable(NODES, PODS, 1.3, &[42, 52]));
        assert!(!comparable(NODES, PODS, 1.2, &[42]));
        assert!(!comparable(NODES, &PODS[..PODS.len() - 1], 1.3, &[42]));
        assert!(!comparable(&NODES[1..], PODS, 1.3, &[42]));
    }

    /// Random's verdict over a few seeds compares with those seeds' published runs, not
    /// with the mean of every published seed.
    #[test]
    fn random_compares_with_the_same_seeds_published_runs() {
        let name = Policy::Random.published_name();
        let table = vec![row(name, 42, 10.0), row(name, 43, 20.0)];
        let published = Published {
            tables: [table.clone(), table.clone(), table],
        };
        let result = one_run(Policy::Random);
        let v = verdict(&result, &published).expect("seed 42 was published");
        assert_eq!((v.cells, v.within, v.largest_gap), (3, 3, 0.0));
        assert_eq!(published.mean(0, Policy::Random, 0, &[42, 43]), Some(15.0));
        assert_eq!(published.mean(0, Policy::Random, 0, &[7]), None);
    }

    /// A published cell the run has no column for counts as a miss: the run does not
    /// reproduce a table it leaves a column of out.
    #[test]
    fn a_published_cell_without_a_column_is_a_miss() {
        let name = Policy::Fgd.published_name();
        let mut two = row(name, 42, 10.0);
        two.values.push(Some(12.0));
        let published = Published {
            tables: [vec![two.clone()], vec![two.clone()], vec![two]],
        };
        let result = one_run(Policy::Fgd);
        let v = verdict(&result, &published).unwrap();
        assert_eq!((v.cells, v.within, v.reproduced), (6, 3, false));
    }
}
