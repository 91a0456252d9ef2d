//! The integration tests' helpers: the same file as the unit tests' `crate::testutil`
//! (src/testutil.rs), so that no helper is written twice.

#[path = "../../src/testutil.rs"]
mod testutil;

pub use testutil::*;
