//! Sweeps over mixes of machine types (docs/MODEL.md §25): a grid of counts per type, each
//! mix's scenario, and one mix evaluated under one policy over time into a [`MixPoint`].
//! Which mixes are needed and what they answer is [`crate::buy`]'s.

use crate::evaluate::{time_outcome, Options, TimeOutcome};
use crate::range::Range;
use crate::{Metric, SweepError};
use serde::{Deserialize, Serialize};
use smd_core::scenario::{Cluster, MachineGroup, MAX_MACHINES};
use smd_core::Scenario;
use smd_sim::SimPolicy;

/// Most mixes a grid may have: each is a simulation, so a typo such as `t4x4=0:500`
/// crossed with three other types is refused rather than left to run for an hour.
pub const MAX_MIXES: usize = 500;

/// One type's counts in a mix grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixAxis {
    /// A catalog type (`smd machines`) or a machine group of the scenario, by name.
    pub machine_type: String,
    /// Its machine counts, ascending, each a whole number from 0 to `MAX_MACHINES`.
    pub counts: Vec<u32>,
}

/// A grid of mixes: every combination of each type's counts (docs/MODEL.md §25).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixSpec {
    /// The types, in the order given; the first varies slowest in [`MixSpec::grid`].
    pub axes: Vec<MixAxis>,
}

impl MixSpec {
    /// Reads `TYPE=COUNTS,…` (`t4x4=0:16:2,a100x8=0:4`): each type once, its counts
    /// `A:B:S` (both ends included), `A:B` (step 1) or one count `N`, whole numbers from 0
    /// to `MAX_MACHINES`, at most [`MAX_MIXES`] mixes in all. The message names the entry.
    pub fn parse(text: &str) -> Result<MixSpec, String> {
        if text.trim().is_empty() {
            return Err("give machine types and counts, e.g. t4x4=0:16:2,a100x8=0:4".into());
        }
        let mut axes: Vec<MixAxis> = Vec::new();
        for entry in text.split(',') {
            let entry = entry.trim();
            let shown = smd_core::error::cut(entry);
            let Some((name, counts)) = entry.split_once('=') else {
                return Err(if entry.is_empty() {
                    "an entry is empty (a comma too many?): give TYPE=COUNTS, e.g. t4x4=0:16:2"
                        .into()
                } else {
                    format!("{shown:?} is not TYPE=COUNTS, e.g. t4x4=0:16:2")
                });
            };
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("{shown:?} has no type before the ="));
            }
            if axes.iter().any(|a| a.machine_type == name) {
                return Err(format!(
                    "{} is given twice: give each type once",
                    smd_core::error::cut(name)
                ));
            }
            let counts = parse_counts(counts)
                .map_err(|e| format!("{}: {e}", smd_core::error::cut(name)))?;
            axes.push(MixAxis {
                machine_type: name.to_owned(),
                counts,
            });
        }
        let spec = MixSpec { axes };
        let n = spec.len();
        if n > MAX_MIXES {
            return Err(format!(
                "the grid has {} mixes, more than the {MAX_MIXES} a sweep may have: use larger steps or fewer types",
                smd_format::amount(n as f64)
            ));
        }
        Ok(spec)
    }

    /// The number of mixes (the product of the axes' lengths; saturating).
    pub fn len(&self) -> usize {
        self.axes
            .iter()
            .fold(1usize, |n, a| n.saturating_mul(a.counts.len()))
    }

    /// Whether the grid has no mix (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every mix as counts per axis, in grid order: the first axis slowest, the last
    /// fastest, each ascending.
    pub fn grid(&self) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new()];
        for a in &self.axes {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    a.counts.iter().map(move |&c| {
                        let mut m = prefix.clone();
                        m.push(c);
                        m
                    })
                })
                .collect();
        }
        out
    }

    /// The mix `counts` as its output form: each type with its count, in axis order.
    pub fn named(&self, counts: &[u32]) -> Vec<(String, u32)> {
        self.axes
            .iter()
            .zip(counts)
            .map(|(a, &c)| (a.machine_type.clone(), c))
            .collect()
    }
}

/// `A:B:S`, `A:B` or `N` as whole machine counts.
fn parse_counts(text: &str) -> Result<Vec<u32>, String> {
    let t = text.trim();
    let range = match t.split(':').count() {
        1 => format!("{t}:{t}:1"),
        2 => format!("{t}:1"),
        _ => t.to_owned(),
    };
    let values = Range::parse(&range).map_err(|e| {
        if t.split(':').count() == 1 {
            format!("the count {:?} is not a number", smd_core::error::cut(t))
        } else {
            e
        }
    })?;
    let values = values.values()?;
    values
        .iter()
        .map(|&v| {
            if v >= 0.0 && v.fract() == 0.0 && v <= MAX_MACHINES as f64 {
                Ok(v as u32)
            } else {
                Err(format!(
                    "counts must be whole numbers from 0 to {MAX_MACHINES} (got {})",
                    smd_format::num(v)
                ))
            }
        })
        .collect()
}

/// Each axis' machine, one of each (`count` 1), resolved against `base` once: a group of
/// the scenario by its name (its capacity, GPU type and price kept), else a catalog type
/// (its published price, or none for the on-premises types).
pub fn mix_types(base: &Scenario, spec: &MixSpec) -> Result<Vec<MachineGroup>, SweepError> {
    spec.axes
        .iter()
        .map(|a| {
            let name = a.machine_type.trim();
            if let Some(g) = base.cluster.machines.iter().find(|g| g.name == name) {
                return Ok(MachineGroup {
                    count: 1.0,
                    ..g.clone()
                });
            }
            smd_apps::machines::machine_type(name)
                .map(|m| smd_apps::machines::group(m, 1.0))
                .map_err(|e| SweepError::Spec {
                    field: "mix",
                    message: if base.cluster.has_machines() {
                        let groups: Vec<&str> =
                            base.cluster.machines.iter().map(|g| g.name.as_str()).collect();
                        format!("{e}, or a machine group of the scenario ({})", groups.join(", "))
                    } else {
                        e
                    },
                })
        })
        .collect()
}

/// What one machine of each type costs per hour; `None` for a type without a price.
pub fn type_prices(types: &[MachineGroup]) -> Vec<Option<f64>> {
    types.iter().map(|g| g.hourly_usd).collect()
}

/// The price of the mix `counts`, US dollars per hour: Σ count × price over the types it
/// has (`None` when one of them has no price; 0 for no machines).
pub fn mix_price(prices: &[Option<f64>], counts: &[u32]) -> Option<f64> {
    prices
        .iter()
        .zip(counts)
        .filter(|(_, &c)| c > 0)
        .try_fold(0.0, |sum, (p, &c)| p.map(|p| sum + f64::from(c) * p))
}

/// `base` on the mix `counts` of `types`: its cluster replaced by one group per type with
/// machines (named after the type), the instance kept; every job and parameter unchanged.
pub fn scenario_at_mix(base: &Scenario, types: &[MachineGroup], counts: &[u32]) -> Scenario {
    let groups = types
        .iter()
        .zip(counts)
        .filter(|(_, &c)| c > 0)
        .map(|(g, &c)| MachineGroup {
            count: f64::from(c),
            ..g.clone()
        })
        .collect();
    let mut s = base.clone();
    s.cluster = Cluster::of_machines(groups, base.cluster.instance);
    s.version = s.version.max(2);
    s
}

/// A mix as a person reads it: `2 × a100x8 + 4 × t4x4` (types without machines left
/// out; `no machines` for none).
pub fn mix_words(mix: &[(String, u32)]) -> String {
    let parts: Vec<String> = mix
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(t, c)| format!("{c} × {t}"))
        .collect();
    if parts.is_empty() {
        "no machines".into()
    } else {
        parts.join(" + ")
    }
}

/// One mix evaluated: an element of the output's `points` (docs/SCENARIO.md, "Mix sweep
/// output").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixPoint {
    /// Its position in the grid ([`MixSpec::grid`]'s order), from 0.
    pub index: usize,
    /// Each type with its count, in the order given.
    #[serde(with = "crate::pairs")]
    pub mix: Vec<(String, u32)>,
    /// What the mix costs per hour, US dollars (`null`: a type in it has no price).
    pub usd_per_hour: Option<f64>,
    /// The metric in its base unit — seconds for times, dollars for costs — under the
    /// policy (`null`: undefined there, e.g. no job finished, or the policy cannot plan).
    pub value: Option<f64>,
    /// The run's numbers (absent for a mix with no machines, or one the policy refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<TimeOutcome>,
    /// Why there is no value, when the run does not say (no machines, a refusal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One mix to evaluate: all a worker needs, with the base scenario, to run it alone
/// (serialisable, so a page can post it to a Web Worker).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixTask {
    /// Its position in the grid.
    pub index: usize,
    /// Each type with its count.
    pub mix: Vec<(String, u32)>,
    /// One machine of each type ([`mix_types`]), in the mix's order.
    pub types: Vec<MachineGroup>,
    /// The policy over time.
    pub policy: SimPolicy,
    /// The metric read from its run.
    pub metric: Metric,
}

/// `task`'s mix of `base` simulated under its policy: the metric's value and the run.
/// A mix with no machines, or one the policy cannot plan (e.g. a job larger than every
/// machine of the mix), has no value and says why; only a cancel is an error.
pub fn evaluate_mix(
    base: &Scenario,
    task: &MixTask,
    opts: &mut Options,
) -> Result<MixPoint, SweepError> {
    let counts: Vec<u32> = task.mix.iter().map(|&(_, c)| c).collect();
    let mut point = MixPoint {
        index: task.index,
        mix: task.mix.clone(),
        usd_per_hour: mix_price(&type_prices(&task.types), &counts),
        value: None,
        run: None,
        note: None,
    };
    if counts.iter().all(|&c| c == 0) {
        point.note = Some("no machines".into());
        return Ok(point);
    }
    let scenario = scenario_at_mix(base, &task.types, &counts);
    match time_outcome(&scenario, task.policy, opts, &mix_words(&task.mix)) {
        Ok(run) => {
            point.value = task.metric.of_run(&run);
            point.run = Some(run);
        }
        Err(SweepError::Planner { error, .. }) => point.note = Some(error.to_string()),
        Err(e) => return Err(e),
    }
    Ok(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_grids_and_names_the_entry_at_fault() {
        let s = MixSpec::parse("t4x4=0:16:2, a100x8=0:4").unwrap();
        assert_eq!(s.axes[0].counts, vec![0, 2, 4, 6, 8, 10, 12, 14, 16]);
        assert_eq!(s.axes[1].counts, vec![0, 1, 2, 3, 4]);
        assert_eq!(s.len(), 45);
        let g = s.grid();
        assert_eq!(g.len(), 45);
        assert_eq!(g[0], vec![0, 0]);
        assert_eq!(g[1], vec![0, 1]);
        assert_eq!(g[44], vec![16, 4]);
        assert_eq!(MixSpec::parse("t4x4=3").unwrap().axes[0].counts, vec![3]);
        assert_eq!(MixSpec::parse("t4x4=2:4").unwrap().axes[0].counts, vec![2, 3, 4]);
        for (bad, says) in [
            ("", "give machine types"),
            ("t4x4", "not TYPE=COUNTS"),
            ("t4x4=1,", "an entry is empty"),
            ("=3", "no type"),
            ("t4x4=1,t4x4=2", "given twice"),
            ("t4x4=-1:2", "whole numbers from 0"),
            ("t4x4=0.5", "whole numbers"),
            ("t4x4=NaN", "not a number"),
            ("t4x4=1e9", "whole numbers from 0"),
            ("t4x4=0:100,a100x8=0:100", "more than the 500"),
            ("t4x4=4:2", "t4x4:"),
        ] {
            let e = MixSpec::parse(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn prices_need_every_type_with_machines() {
        let p = [Some(2.0), None, Some(10.0)];
        assert_eq!(mix_price(&p, &[3, 0, 1]), Some(16.0));
        assert_eq!(mix_price(&p, &[3, 1, 1]), None);
        assert_eq!(mix_price(&p, &[0, 0, 0]), Some(0.0));
        assert_eq!(
            mix_words(&[("t4x4".into(), 4), ("a100x8".into(), 0)]),
            "4 × t4x4"
        );
        assert_eq!(mix_words(&[("t4x4".into(), 0)]), "no machines");
    }
}
