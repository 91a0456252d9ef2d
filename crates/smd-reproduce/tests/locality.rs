//! The committed run of the locality study (docs/locality/locality.csv, quoted by
//! docs/REPRODUCTION.md) is what the code produces: its first case is re-run and compared
//! row for row (the study is deterministic: no clock, `global` ends at its node limit).

use smd_reproduce::locality::{cases, run_cases, Size};

#[test]
fn the_committed_study_matches_a_fresh_run_of_its_first_case() {
    let committed = include_str!("../../../docs/locality/locality.csv");
    let first = cases(Size::Full)[0];
    let fresh = run_cases(&[first], &mut |_, _| {}).unwrap().to_csv();
    let lines: Vec<&str> = fresh.lines().collect();
    let want: Vec<&str> = committed.lines().take(lines.len()).collect();
    assert_eq!(lines, want);
    // Every case of the full run is in the file: 14 rows each, plus the header.
    assert_eq!(committed.lines().count(), 1 + 14 * cases(Size::Full).len());
}
