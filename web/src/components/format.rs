//! Number formatting for display (no model arithmetic): the charts' formatters in
//! `smd_format` (the crate that owns number formatting), shared so that the page and its charts write numbers one way.
//! Their tests are there.

pub use smd_format::{count, duration, ms, percent, percent_sig};

/// The page's numbers: significant digits, thousands grouped, `≈ 0` for dust — never an
/// exponent (issue 27: words and units).
pub use smd_format::readable as sig;
