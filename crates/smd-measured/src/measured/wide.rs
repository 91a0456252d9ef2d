//! The project's own step and sync times for placements of 5–16 nodes (docs/MODEL.md §21,
//! POLLUX-SIM.md §2.2 step 3), from the same points the reference interpolates: the 4-node
//! placements grouped by (nodes, replicas, local batch) and averaged, and the
//! `scalability` rows (6, 8, 12, 16 nodes).
//!
//! **Why not the reference's interpolation.** It triangulates the raw 3-D points with Qhull;
//! the grid is degenerate, so its answer depends on how ties break (§2.2's fidelity
//! warning: up to 29–41 % on a permuted input). The rule here is separable and has no
//! ties to break:
//!
//! 1. bracket the node count N between two measured node counts N₀ < N < N₁ (4, 6, 8, 12,
//!    16; on a measured count only that layer is read);
//! 2. in each layer, read the query at the same GPUs per node g = R/N — replicas g·N_k —
//!    linear between the layer's two measured replica counts around it;
//! 3. in each of those replica columns, linear in the local batch b between its measured
//!    rows; a column measured only below b (replicas × local ≤ the largest batch cut the
//!    grid, §2.1) takes its largest row plus the change the nearest column with fewer
//!    replicas measured from that row's b to b (compute grows with the local batch alike
//!    on any number of replicas), or, where no column measured b, linear from its own two
//!    largest rows; never faster than its largest row, the sync part within [0, step];
//! 4. linear in N between the two layers.
//!
//! A query on a measured row returns it exactly ([`Source::Measured`]); one that needed no
//! extrapolation is [`Source::Interpolated`] and lies between the rows it rests on; one
//! that did is [`Source::Model`]. How far this moves a step time is measured by holding
//! out each inner layer (docs/MODEL.md §21, `measured/tests.rs`).

use super::{Row, Source, Step};
use std::collections::BTreeMap;

/// The most nodes the model answers for: the largest measured layer (POLLUX-SIM.md §2.2
/// clamps N at 16; the project refuses instead of reading 17 nodes as 16).
pub const MAX_NODES: u32 = 16;

/// One replica count of a layer: its rows sorted by local batch.
#[derive(Clone, Debug)]
pub(super) struct Column {
    pub(super) replicas: u32,
    pub(super) rows: Vec<Row>,
}

/// One measured node count: its replica columns, sorted by replicas.
#[derive(Clone, Debug)]
pub(super) struct Layer {
    pub(super) nodes: u32,
    pub(super) columns: Vec<Column>,
}

/// How a layer is read at a query's replica count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Axis {
    /// At the same GPUs per node g = R/N (the rule; every layer spans g ∈ [1, 4]).
    PerNode,
    /// At the same replicas R, clamped to the layer's range (the alternative measured
    /// against it in the tests).
    #[cfg(test)]
    Replicas,
}

/// How a column is read above its largest measured local batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Extra {
    /// Linear from the column's own two largest rows.
    Linear,
    /// The column's largest row plus the change the nearest column with fewer replicas
    /// measured between the same two local batches.
    Shift,
    /// The column's largest row times the ratio that column measured (measured against
    /// the shift in the tests).
    #[cfg(test)]
    Scale,
}

/// The choices of the rule: how a layer is read at the query's replicas, how a column is
/// read beyond its local batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rule {
    pub(super) axis: Axis,
    pub(super) extra: Extra,
}

impl Rule {
    /// The rule in use (chosen by the held-out measurements of docs/MODEL.md §21).
    pub(super) const CHOSEN: Rule = Rule {
        axis: Axis::PerNode,
        extra: Extra::Shift,
    };
}

/// The layers of one application, sorted by node count.
#[derive(Clone, Debug, Default)]
pub(super) struct Wide {
    pub(super) layers: Vec<Layer>,
}

/// A value read from the layers, and whether any part of it was extrapolated.
#[derive(Clone, Copy, Debug)]
struct Value {
    step: f64,
    sync: f64,
    exact: bool,
    extrapolated: bool,
}

impl Value {
    /// (1 − t)·a + t·b; `b` is not read when t = 0 (a measured coordinate).
    fn mix(a: Value, t: f64, b: impl FnOnce() -> Option<Value>) -> Option<Value> {
        if t == 0.0 {
            return Some(a);
        }
        let b = b()?;
        Some(Value {
            step: a.step + t * (b.step - a.step),
            sync: a.sync + t * (b.sync - a.sync),
            exact: false,
            extrapolated: a.extrapolated || b.extrapolated,
        })
    }
}

impl Wide {
    /// Groups the 4-node placement rows by (replicas, local batch), averaging (as the
    /// reference does, §2.2), and the scalability rows `(nodes, replicas, local, step,
    /// sync)` by (nodes, replicas, local) (averaging repeats, should a file hold any).
    pub(super) fn build<'a>(
        four_nodes: impl IntoIterator<Item = (u32, &'a Row)>,
        scalability: &[[f64; 5]],
    ) -> Wide {
        // Keys are exact: local batches are positive, so their bit patterns sort as numbers.
        let mut sums: BTreeMap<(u32, u32, u64), (f64, f64, f64)> = BTreeMap::new();
        let mut add = |n: u32, r: u32, row: Row| {
            let e = sums
                .entry((n, r, row.local.to_bits()))
                .or_insert((0.0, 0.0, 0.0));
            e.0 += row.step;
            e.1 += row.sync;
            e.2 += 1.0;
        };
        for (r, row) in four_nodes {
            add(4, r, *row);
        }
        for s in scalability {
            let row = Row {
                local: s[2],
                step: s[3],
                sync: s[4],
            };
            add(s[0] as u32, s[1] as u32, row);
        }
        let mut layers: Vec<Layer> = Vec::new();
        for ((n, r, local), (step, sync, count)) in sums {
            let row = Row {
                local: f64::from_bits(local),
                step: step / count,
                sync: sync / count,
            };
            if layers.last().is_none_or(|l| l.nodes != n) {
                layers.push(Layer {
                    nodes: n,
                    columns: Vec::new(),
                });
            }
            let Some(layer) = layers.last_mut() else {
                continue;
            };
            if layer.columns.last().is_none_or(|c| c.replicas != r) {
                layer.columns.push(Column {
                    replicas: r,
                    rows: Vec::new(),
                });
            }
            if let Some(column) = layer.columns.last_mut() {
                column.rows.push(row);
            }
        }
        Wide { layers }
    }

    /// The same layers without the one of `nodes` (to measure how well it is predicted
    /// from its neighbours).
    #[cfg(test)]
    pub(super) fn without(&self, nodes: u32) -> Wide {
        Wide {
            layers: self
                .layers
                .iter()
                .filter(|l| l.nodes != nodes)
                .cloned()
                .collect(),
        }
    }

    /// Step and sync time on `nodes` nodes with `replicas` GPUs at local batch `local`,
    /// or `None` when the layers do not bracket the query (the caller has checked the
    /// node count and the local batch).
    pub(super) fn step(&self, nodes: u32, replicas: u32, local: f64, rule: Rule) -> Option<Step> {
        let n = f64::from(nodes);
        let g = f64::from(replicas) / n;
        let k = self.layers.partition_point(|l| l.nodes < nodes);
        let hi = self.layers.get(k)?;
        let at = |layer: &Layer| {
            let r = match rule.axis {
                // On its own layer the query's replicas are read as given, not rounded
                // through g.
                Axis::PerNode if layer.nodes != nodes => g * f64::from(layer.nodes),
                _ => f64::from(replicas),
            };
            layer.at(r, local, rule.extra)
        };
        let v = if hi.nodes == nodes {
            at(hi)?
        } else {
            let lo = self.layers.get(k.checked_sub(1)?)?;
            let t = (n - f64::from(lo.nodes)) / f64::from(hi.nodes - lo.nodes);
            Value::mix(at(lo)?, t, || at(hi))?
        };
        let source = if v.exact {
            Source::Measured
        } else if v.extrapolated {
            Source::Model
        } else {
            Source::Interpolated
        };
        let step = v.step.max(f64::MIN_POSITIVE);
        (step.is_finite() && v.sync.is_finite()).then_some(Step {
            step_s: step,
            sync_s: v.sync.clamp(0.0, step),
            source,
        })
    }
}

impl Layer {
    /// The layer at (possibly fractional) replicas `r` and local batch `local`: linear in r
    /// between the two measured columns around it; outside the columns, the nearest one
    /// (marked extrapolated).
    fn at(&self, r: f64, local: f64, extra: Extra) -> Option<Value> {
        let first = self.columns.first()?;
        let last = self.columns.last()?;
        let (lo_r, hi_r) = (f64::from(first.replicas), f64::from(last.replicas));
        if r <= lo_r || r >= hi_r {
            let k = if r <= lo_r { 0 } else { self.columns.len() - 1 };
            let c = self.columns.get(k)?;
            let mut v = self.column_at(k, local, extra)?;
            let outside = (r - f64::from(c.replicas)).abs() > 1e-9;
            v.exact &= !outside;
            v.extrapolated |= outside;
            return Some(v);
        }
        let k = self.columns.partition_point(|c| f64::from(c.replicas) < r);
        let hi = self.columns.get(k)?;
        // A replica count within rounding of a measured one is that column: g·N_k is
        // computed in floating point.
        if (f64::from(hi.replicas) - r).abs() <= 1e-9 {
            return self.column_at(k, local, extra);
        }
        let lo = self.columns.get(k.checked_sub(1)?)?;
        let t = (r - f64::from(lo.replicas)) / f64::from(hi.replicas - lo.replicas);
        Value::mix(self.column_at(k - 1, local, extra)?, t, || {
            self.column_at(k, local, extra)
        })
    }

    /// Column `k` at `local`; above its largest row, per `extra` (held out, the shift
    /// erred a median 2.5 %, p90 12.7 % where linear erred 6.6 %, 20.0 %: MODEL.md §21).
    fn column_at(&self, k: usize, local: f64, extra: Extra) -> Option<Value> {
        let c = self.columns.get(k)?;
        let last = c.rows.last()?;
        if extra == Extra::Linear || local <= last.local {
            return c.at(local);
        }
        // Fewer replicas fit more local batch under the largest batch, so a column below
        // has usually measured this one's missing rows.
        let Some(d) = self.columns[..k]
            .iter()
            .rev()
            .find(|d| d.rows.last().is_some_and(|x| x.local >= local))
        else {
            return c.at(local);
        };
        let (a, b) = (d.at(last.local)?, d.at(local)?);
        let (step, sync) = match extra {
            #[cfg(test)]
            Extra::Scale if a.step > 0.0 && a.sync > 0.0 => {
                (last.step * b.step / a.step, last.sync * b.sync / a.sync)
            }
            _ => (last.step + (b.step - a.step), last.sync + (b.sync - a.sync)),
        };
        let step = step.max(last.step);
        Some(Value {
            step,
            sync: sync.clamp(0.0, step),
            exact: false,
            extrapolated: true,
        })
    }
}

impl Column {
    /// The column at local batch `local`: linear between its rows; above its largest row,
    /// extrapolated linearly from its two largest (step time is close to linear in the
    /// batch; the fallback of [`Extra::Shift`]), never below the largest row's step, the
    /// sync part within [0, step].
    fn at(&self, local: f64) -> Option<Value> {
        let rows = &self.rows;
        let first = rows.first()?;
        let last = rows.last()?;
        let value = |step: f64, sync: f64, exact: bool, extrapolated: bool| Value {
            step,
            sync,
            exact,
            extrapolated,
        };
        if local < first.local {
            // Every measured column starts at the application's smallest local batch, so
            // this is not reached from a checked query; keep the nearest row.
            return Some(value(first.step, first.sync, false, true));
        }
        if local > last.local {
            let Some(prev) = rows.len().checked_sub(2).and_then(|k| rows.get(k)) else {
                return Some(value(last.step, last.sync, false, true));
            };
            let t = (local - prev.local) / (last.local - prev.local);
            let step = (prev.step + t * (last.step - prev.step)).max(last.step);
            let sync = (prev.sync + t * (last.sync - prev.sync)).clamp(0.0, step);
            return Some(value(step, sync, false, true));
        }
        let k = rows.partition_point(|r| r.local < local);
        let hi = rows.get(k)?;
        if hi.local == local {
            return Some(value(hi.step, hi.sync, true, false));
        }
        let lo = rows.get(k.checked_sub(1)?)?;
        let t = (local - lo.local) / (hi.local - lo.local);
        Some(value(
            lo.step + t * (hi.step - lo.step),
            lo.sync + t * (hi.sync - lo.sync),
            false,
            false,
        ))
    }
}
