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

/// Whether `s` is [`default_scenario`], compared with one generated once per thread: the
/// page asks on every save of the draft and as it starts, and generating it each time cost
/// a few milliseconds in wasm.
pub fn is_default_scenario(s: &Scenario) -> bool {
    thread_local! {
        static DEFAULT: Scenario = default_scenario();
    }
    DEFAULT.with(|d| d == s)
}

/// How it works' two-job example of why `global` beats SMD's decomposition: 2 generated
/// jobs of seed 4 on 0.2 cluster units (ε = 0.01), where SMD's fastest sizes fit only one
/// job and global fits both.
pub fn decomposition_example() -> Scenario {
    generate(&GenerateOptions {
        jobs: 2,
        seed: 4,
        mode: Mode::Sync,
        units: 0.2,
    })
}

/// The committed figure of [`decomposition_example`] (`docs/figure-decomposition.svg`),
/// which the page shows; `web/tests/fixture.rs` checks it is what the solver draws today.
pub const DECOMPOSITION_SVG: &str = include_str!("../../docs/figure-decomposition.svg");

/// The figure drawn now: [`decomposition_example`] planned by smd and by global (which
/// proves its plan for two jobs well within its budget, so the figure does not depend on the
/// clock). Native only in practice (the page shows [`DECOMPOSITION_SVG`]).
pub fn decomposition_figure() -> Result<String, smd_core::Error> {
    let s = decomposition_example();
    let smd = smd_core::plan_with(&s, smd_core::Policy::Smd, &mut Default::default())?;
    let global = smd_core::plan_with(&s, smd_core::Policy::Global, &mut Default::default())?;
    if !global.admission.proven_optimal {
        return Err(smd_core::Error::Solver(
            "global did not prove the two-job example".into(),
        ));
    }
    Ok(smd_charts::decomposition_svg(&s, &smd, &global, 760.0))
}
