//! What a sweep varies: the [`Spec`] a caller gives, the [`Point`]s it makes, and each
//! point's scenario ([`scenario_at`]).
//!
//! What "size" means on each axis (docs/SCENARIO.md, "Sweep output"):
//!
//! | axis | scenario | a point of size `s` | with one resource `R` |
//! |---|---|---|---|
//! | `units` | a pool | `cluster.units = s`: capacity `s × unit` | only `R` is `s × unit[R]`; every other resource stays at the scenario's `units × unit` |
//! | `machines` | machine groups | the chosen group (by name; the first by default) has `s` machines | the group keeps its count `c` and each of its machines has `R = type[R] × s / c`, i.e. as much `R` as `s` machines of the type; nothing else changes |
//! | `machines` | a pool | the scenario on `s` machines of a catalog type (default `t4x4`), its instance kept | refused: a pool has no machine count to keep; sweep `units` with `R` instead |

use crate::axis::Axis;
use crate::error::SweepError;
use crate::range::Range;
use serde::{Deserialize, Serialize};
use smd_apps::machines;
use smd_core::scenario::{Cluster, Resource, Resources, MAX_MACHINES};
use smd_core::Scenario;

/// The machine type a pool is moved onto when no `machine_type` is given (as `smd generate
/// --machines` and `smd trace` do).
pub const DEFAULT_MACHINE_TYPE: &str = "t4x4";

/// A sweep as asked for: an axis, its sizes, and optionally one resource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// What varies.
    pub axis: Axis,
    /// The sizes.
    pub range: Range,
    /// Vary only this resource of the cluster (the others stay at the scenario's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    /// `machines` on a pool: the catalog type (default [`DEFAULT_MACHINE_TYPE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_type: Option<String>,
    /// `machines` on machine groups: the group whose count varies (default the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// The resource named `name`: its name in files (`gpu`, `vcpu`, `memory_gb`,
/// `storage_gb`, [`Resource::NAMES`]) or a short one (`cpu`, `mem`, `memory`, `storage`).
/// Bandwidth is refused with why: a machine's `nic_gbps` is a per-machine limit on its
/// parameter servers, not one of the four pooled resources.
pub fn parse_resource(name: &str) -> Result<Resource, String> {
    let name = name.trim();
    let short = match name {
        "cpu" | "cpus" | "vcpus" => Some(Resource::Vcpu),
        "mem" | "memory" => Some(Resource::MemoryGb),
        "storage" | "disk" => Some(Resource::StorageGb),
        "gpus" => Some(Resource::Gpu),
        _ => None,
    };
    if let Some(r) = short {
        return Ok(r);
    }
    if matches!(name, "bw" | "bandwidth" | "network" | "nic" | "nic_gbps") {
        return Err(format!(
            "bandwidth is not one of the cluster's pooled resources ({}): a machine's nic_gbps only limits the parameter servers placed on it",
            Resource::NAMES.join(", ")
        ));
    }
    name.parse::<Resource>()
        .map_err(|e| format!("{e}; or cpu, mem, storage"))
}

/// Which part of the cluster a point changes, resolved against the scenario once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The pool's units.
    Pool,
    /// The machine group at `index` of `cluster.machines`, named `name`.
    Group {
        /// Its position.
        index: usize,
        /// Its name (checked again when the point is built).
        name: String,
    },
    /// The pool replaced by machines of this catalog type.
    Catalog {
        /// The type's name.
        machine_type: String,
    },
}

/// One size of a sweep: all a worker needs, with the scenario, to plan it alone
/// (serialisable, so a page can post it to a Web Worker).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Its position among the sweep's points, from 0.
    pub index: usize,
    /// How many points the sweep has.
    pub count: usize,
    /// What varies.
    pub axis: Axis,
    /// The size: units, or a machine count.
    pub size: f64,
    /// Only this resource varies.
    pub resource: Option<Resource>,
    /// What the size changes.
    pub target: Target,
}

impl Point {
    /// The base scenario's own size on this point's axis: its units, or its group's
    /// machine count (`None` for a pool swept in machines of a catalog type) — the size a
    /// metric's answer compares against.
    pub fn current_size(&self, base: &smd_core::Scenario) -> Option<f64> {
        match &self.target {
            Target::Pool => Some(base.cluster.units),
            Target::Group { index, .. } => base.cluster.machines.get(*index).map(|g| g.count),
            Target::Catalog { .. } => None,
        }
    }

    /// The point's size as its axis reads it: `units 2.5`, `machines 8`.
    pub fn label(&self) -> String {
        format!("{} {}", self.axis, smd_core::error::num(self.size))
    }

    /// The machine type or group whose count varies (`None` on the `units` axis).
    pub fn machine(&self) -> Option<&str> {
        match &self.target {
            Target::Pool => None,
            Target::Group { name, .. } => Some(name),
            Target::Catalog { machine_type } => Some(machine_type),
        }
    }
}

/// The sweep's points, checked against `base`: the range (sizes ≥ 0 units, or whole
/// machine counts ≥ 1) and that the axis fits the cluster. `base` is not validated here
/// (the planners do that at every point).
pub fn points(base: &Scenario, spec: &Spec) -> Result<Vec<Point>, SweepError> {
    let range_error = |message: String| SweepError::Range {
        axis: spec.axis,
        range: spec.range.to_string(),
        message,
    };
    let sizes = spec.range.values().map_err(range_error)?;
    let pool = !base.cluster.has_machines();
    let target = match spec.axis {
        Axis::Units => {
            if !pool {
                return Err(spec_error("axis", 
                    "units scale a pool, and this scenario's cluster is machine groups: sweep machines instead",
                ));
            }
            if spec.group.is_some() || spec.machine_type.is_some() {
                return Err(spec_error(
                    if spec.group.is_some() {
                        "group"
                    } else {
                        "machine_type"
                    },
                    "a machine group or type belongs to a sweep of machines, not of units",
                ));
            }
            if sizes[0] < 0.0 {
                return Err(range_error(format!(
                    "units must be ≥ 0 (got {})",
                    smd_core::error::num(sizes[0])
                )));
            }
            Target::Pool
        }
        Axis::Machines => {
            if let Some(bad) = sizes.iter().find(|s| s.fract() != 0.0 || **s < 1.0) {
                return Err(range_error(format!(
                    "a machine count must be a whole number ≥ 1 (got {})",
                    smd_core::error::num(*bad)
                )));
            }
            let last = *sizes.last().expect("a range has a start");
            if pool {
                target_on_pool(spec, last)?
            } else {
                target_on_groups(base, spec, last)?
            }
        }
    };
    let count = sizes.len();
    Ok(sizes
        .into_iter()
        .enumerate()
        .map(|(index, size)| Point {
            index,
            count,
            axis: spec.axis,
            size,
            resource: spec.resource,
            target: target.clone(),
        })
        .collect())
}

/// `machines` on a pool: a catalog type.
fn target_on_pool(spec: &Spec, largest: f64) -> Result<Target, SweepError> {
    if spec.group.is_some() {
        return Err(spec_error("group", 
            "this scenario's cluster is a pool: it has no machine group to choose (give a machine type instead)",
        ));
    }
    if let Some(r) = spec.resource {
        return Err(spec_error("resource", format!(
            "one resource ({r}) on machines keeps a group's machine count, and a pool has none: sweep units with that resource instead"
        )));
    }
    let name = spec.machine_type.as_deref().unwrap_or(DEFAULT_MACHINE_TYPE);
    let m = machines::machine_type(name).map_err(|m| spec_error("machine_type", m))?;
    if largest > MAX_MACHINES as f64 {
        return Err(too_many(largest));
    }
    Ok(Target::Catalog {
        machine_type: m.name.to_owned(),
    })
}

/// `machines` on machine groups: one group, by name or the first.
fn target_on_groups(base: &Scenario, spec: &Spec, largest: f64) -> Result<Target, SweepError> {
    if spec.machine_type.is_some() {
        return Err(spec_error("machine_type", 
            "this scenario already has machine groups: choose one by its group name, not a catalog type",
        ));
    }
    let groups = &base.cluster.machines;
    let index = match &spec.group {
        None => 0,
        Some(name) => groups.iter().position(|g| g.name == *name).ok_or_else(|| {
            let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
            spec_error(
                "group",
                format!(
                    "no machine group named {:?} (the groups are {})",
                    smd_core::error::cut(name),
                    names.join(", ")
                ),
            )
        })?,
    };
    let others: f64 = groups
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, g)| g.count)
        .sum();
    // With one resource the group keeps its count; otherwise its count is the size.
    if spec.resource.is_none() && others + largest > MAX_MACHINES as f64 {
        return Err(too_many(others + largest));
    }
    Ok(Target::Group {
        index,
        name: groups[index].name.clone(),
    })
}

fn spec_error(field: &'static str, message: impl Into<String>) -> SweepError {
    SweepError::Spec {
        field,
        message: message.into(),
    }
}

fn too_many(n: f64) -> SweepError {
    spec_error(
        "range",
        format!(
        "the largest size has {} machines in all, more than the {MAX_MACHINES} a cluster may list",
        smd_core::error::num(n)
    ),
    )
}

/// The scenario of `point`: `base` with its cluster changed as the point says (the table
/// in the module docs); everything else, jobs and parameters, as in `base`. Fails, naming
/// why, when `point` was made for another kind of scenario.
pub fn scenario_at(base: &Scenario, point: &Point) -> Result<Scenario, SweepError> {
    let mismatch = |what: &str| {
        spec_error(
            "point",
            format!(
                "the point ({}) was made for {what}, which this scenario does not have",
                point.label()
            ),
        )
    };
    let mut s = base.clone();
    match &point.target {
        Target::Pool => {
            if base.cluster.has_machines() {
                return Err(mismatch("a pool"));
            }
            match point.resource {
                None => s.cluster.units = point.size,
                Some(r) => {
                    // One unit of the scenario's capacity, except R at size × unit[R]: the
                    // other resources are exactly `units × unit[r]` as capacity() reads them.
                    let mut cap = base.cluster.capacity().to_array();
                    cap[r.index()] = point.size * base.cluster.unit[r];
                    s.cluster.units = 1.0;
                    s.cluster.unit = Resources::from_array(cap);
                }
            }
        }
        Target::Group { index, name } => {
            let mut groups = base.cluster.machines.clone();
            let Some(g) = groups.get_mut(*index).filter(|g| g.name == *name) else {
                return Err(mismatch(&format!("a machine group {name:?}")));
            };
            match point.resource {
                None => g.count = point.size,
                Some(r) => {
                    if !(g.count.is_finite() && g.count >= 1.0) {
                        return Err(spec_error(
                            "point",
                            format!(
                            "cluster.machines[{index}].count must be a whole number ≥ 1 (got {})",
                            smd_core::error::num(g.count)
                        ),
                        ));
                    }
                    let mut per = g.capacity.to_array();
                    per[r.index()] = g.capacity[r] * point.size / g.count;
                    g.capacity = Resources::from_array(per);
                }
            }
            // Rebuilt, not edited: a machine cluster caches its total in `unit`.
            s.cluster = Cluster::of_machines(groups, base.cluster.instance);
        }
        Target::Catalog { machine_type } => {
            if base.cluster.has_machines() {
                return Err(mismatch("a pool"));
            }
            let m =
                machines::machine_type(machine_type).map_err(|m| spec_error("machine_type", m))?;
            machines::move_to_machines(&mut s, m, point.size);
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests;
