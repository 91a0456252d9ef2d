//! The quantity a sweep varies ([`Axis`]): below both the points that vary it and the errors
//! that name it.

use serde::{Deserialize, Serialize};

/// The quantity a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    /// Cluster units of a pool (docs/MODEL.md §1).
    Units,
    /// The machine count of one group (or of a catalog type, for a pool).
    Machines,
}

smd_core::named!(Axis, "axis" {
    Units => "units",
    Machines => "machines",
});
