//! The five placement policies and their names (CLUSTER.md §3, docs/PLACEMENT.md §6–§10).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How tasks are put on machines. Its name (`first_fit`, …) is the same in files, on the
/// command line and in `Display`/`FromStr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// PSs then workers, each to the first machine with room; locality-blind (§6).
    FirstFit,
    /// Each task to the machine with the most free dominant share after placing it (§7).
    Spread,
    /// Seed 003: each task to the machine with the best `λ·a + (1 − λ)·f` (§8).
    Dltap,
    /// Seed 004: all tasks on one machine (best fit), else evenly spread over few (§9).
    Locality,
    /// The least Σ X, proven, for small cases; never worse than the others (§10).
    Exact,
}

impl Policy {
    /// Every policy, in display order.
    pub const ALL: [Policy; 5] = [
        Policy::FirstFit,
        Policy::Spread,
        Policy::Dltap,
        Policy::Locality,
        Policy::Exact,
    ];
    /// Every policy's name, in the order of [`Policy::ALL`].
    pub const NAMES: [&'static str; 5] = ["first_fit", "spread", "dltap", "locality", "exact"];
    /// The four fast policies (all but `exact`), whose best result `exact` starts from.
    pub const HEURISTICS: [Policy; 4] = [
        Policy::FirstFit,
        Policy::Spread,
        Policy::Dltap,
        Policy::Locality,
    ];

    /// The policy's name.
    pub fn name(self) -> &'static str {
        Policy::NAMES[self as usize]
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown placement policy {:?} (expected {})",
                    smd_core::error::cut(s),
                    Policy::NAMES.join(", ")
                )
            })
    }
}
