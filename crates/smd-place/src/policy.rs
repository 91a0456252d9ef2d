//! The five placement policies (CLUSTER.md §3, docs/PLACEMENT.md §6–§10). Their names, `ALL`,
//! `Display` and `FromStr` have one owner, the scenario's `params.placement`
//! ([`smd_core::scenario::Placement`]); this crate calls it [`Policy`], as its own
//! [`crate::Placement`] is the answer.

pub use smd_core::scenario::Placement as Policy;

/// The four fast policies (all but `exact`), whose best result `exact` starts from.
pub const HEURISTICS: [Policy; 4] = [
    Policy::FirstFit,
    Policy::Spread,
    Policy::Dltap,
    Policy::Locality,
];
