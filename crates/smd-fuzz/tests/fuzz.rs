//! The fuzzer in CI: inputs of seed 1 from index 0 for `SMD_FUZZ_SECONDS` (default 60) —
//! deterministic inputs, as many as the time allows. Longer runs: `cargo run --release -p
//! smd-fuzz -- --seconds 3600 --from N` (docs/FUZZING.md).

#[test]
fn the_planner_survives_a_minute_of_hostile_input() {
    let seconds: f64 = std::env::var("SMD_FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60.0);
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let report = smd_fuzz::run(1, 0, &clock, 60_000.0, &mut |_| clock() < seconds * 1000.0);
    eprintln!(
        "fuzz: {} inputs ({} planned, {} rejected), slowest {:.0} ms",
        report.inputs, report.planned, report.rejected, report.slowest_ms.0
    );
    if let Some(f) = report.failures.first() {
        panic!(
            "{}: {}\n--- input ---\n{}",
            f.label,
            f.what,
            &f.text[..f.text.len().min(4000)]
        );
    }
    // Both kinds must be frequent, or the mutations have drifted.
    assert!(report.inputs >= 1000, "only {} inputs", report.inputs);
    assert!(report.planned * 5 >= report.inputs, "{report:?}");
    assert!(report.rejected * 5 >= report.inputs, "{report:?}");
}

#[test]
fn inputs_are_a_function_of_seed_and_index() {
    for i in [0, 7, 1234] {
        assert_eq!(smd_fuzz::input(3, i).text, smd_fuzz::input(3, i).text);
    }
    assert_ne!(smd_fuzz::input(3, 1).text, smd_fuzz::input(4, 1).text);
}

#[test]
fn the_checks_catch_what_they_claim() {
    // A check that cannot fail is no check: feed each one a violation.
    let bad = smd_core::Error::Invalid(vec![smd_core::FieldError {
        job: Some(String::new()),
        field: "iterations".into(),
        message: "must be > 0".into(),
    }]);
    assert!(smd_fuzz::check_rejection(&bad).is_err());
    let blank = smd_core::Error::Invalid(vec![smd_core::FieldError {
        job: None,
        field: " ".into(),
        message: "x".into(),
    }]);
    assert!(smd_fuzz::check_rejection(&blank).is_err());
    assert!(smd_fuzz::check_rejection(&smd_core::Error::Solver("x".into())).is_err());
    assert!(smd_fuzz::check_rejection(&smd_core::Error::Parse(" ".into())).is_err());
}
