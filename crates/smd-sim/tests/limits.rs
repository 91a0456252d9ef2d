//! The simulation's documented size limits (docs/MODEL.md §13, §17): `smd` and `optimus`
//! replan every active job each slot, so more than 2000 at once is an error naming the
//! limit, not hours of work; `locality`'s LP the same beyond 2000; `fifo` and `oasis` are
//! not limited.

use smd_core::{generate, GenerateOptions, Scenario};
use smd_sim::{simulate, Options, SimError, SimPolicy};

/// `jobs` generated jobs, all arriving at once.
fn at_once(jobs: usize) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed: 3,
        ..Default::default()
    });
    s.version = 2;
    s.params.epsilon = 0.2;
    s.params.interval_s = Some(600.0);
    for j in &mut s.jobs {
        j.arrival_s = Some(0.0);
    }
    s
}

#[test]
fn replanning_more_than_2000_active_jobs_is_an_error_naming_the_limit() {
    let s = at_once(2001);
    for policy in [SimPolicy::Smd, SimPolicy::Optimus] {
        let err = match simulate(&s, policy, &mut Options::default()) {
            Err(SimError::Invalid(e)) => e.to_string(),
            Err(e) => panic!("{policy}: another error: {e}"),
            Ok(_) => panic!("{policy}: 2001 active jobs simulated"),
        };
        assert!(
            err.contains("2001 wait or run") && err.contains("at most 2000"),
            "{policy}: {err}"
        );
    }
}

#[test]
fn the_limit_counts_active_jobs_only() {
    // A few jobs at once are far below it: the run finishes.
    let run = simulate(&at_once(20), SimPolicy::Smd, &mut Options::default()).unwrap();
    assert!(run.jobs.iter().any(|j| j.completion_s.is_some()));
}

#[test]
fn locality_beyond_2000_active_jobs_is_an_error_naming_the_limit() {
    // Its LP per slot: 2000 simultaneous arrivals take about 75 s on 16 × t4x4 (with the
    // general LP, 500 took as long).
    let err = match simulate(&at_once(2001), SimPolicy::Locality, &mut Options::default()) {
        Err(SimError::Invalid(e)) => e.to_string(),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("2001 active jobs simulated"),
    };
    assert!(
        err.contains("2001 wait or run") && err.contains("at most 2000"),
        "{err}"
    );
}
