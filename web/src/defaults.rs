//! The scenario the page opens with.

use smd_core::{generate, GenerateOptions, Mode, Scenario};

/// Jobs in the default scenario (MODEL.md §10's generator, seed 1).
pub const DEFAULT_JOBS: usize = 30;
/// Seed of the default scenario.
pub const DEFAULT_SEED: u64 = 1;

/// INTERIM: Algorithm 1 currently solves one LP per grid point, so the page opens at
/// ε = 0.1 (≈0.1 s per job) instead of the specification's 0.01 (tens of seconds per job).
/// Set to `None` when smd-core's exact fast path lands; nothing else needs to change.
pub const INTERIM_EPSILON_OVERRIDE: Option<f64> = Some(0.1);

/// Applies [`INTERIM_EPSILON_OVERRIDE`] to a freshly generated scenario.
pub fn apply_interim_epsilon(s: &mut Scenario) {
    if let Some(e) = INTERIM_EPSILON_OVERRIDE {
        s.params.epsilon = e;
    }
}

/// `generate(30 jobs, seed 1, sync, 1 unit)` with the interim ε.
pub fn default_scenario() -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: DEFAULT_JOBS,
        seed: DEFAULT_SEED,
        mode: Mode::Sync,
        units: 1.0,
    });
    apply_interim_epsilon(&mut s);
    s
}
