//! The scenario the page opens with.

use smd_core::{generate, GenerateOptions, Mode, Scenario};

/// Jobs in the default scenario (docs/MODEL.md §10's generator, seed 1).
pub const DEFAULT_JOBS: usize = 30;
/// Seed of the default scenario.
pub const DEFAULT_SEED: u64 = 1;

/// `generate(30 jobs, seed 1, sync, 1 unit)`, at the generator's ε = 0.01.
pub fn default_scenario() -> Scenario {
    generate(&GenerateOptions {
        jobs: DEFAULT_JOBS,
        seed: DEFAULT_SEED,
        mode: Mode::Sync,
        units: 1.0,
    })
}
