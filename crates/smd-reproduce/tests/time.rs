//! The committed run of the over-time study (docs/time/time.csv, quoted by
//! docs/REPRODUCTION.md "Over time") is what the code produces: its first case is re-run
//! and compared row for row (deterministic: no clock).

use smd_reproduce::time::{cases, run_cases, Size, COLUMNS};
use smd_sim::SimPolicy;

#[test]
fn the_committed_study_matches_a_fresh_run_of_its_first_case() {
    let committed = include_str!("../../../docs/time/time.csv");
    let lines: Vec<&str> = committed.lines().collect();
    assert_eq!(lines[0], COLUMNS.join(","));
    assert_eq!(
        lines.len(),
        1 + SimPolicy::all_for(&cases(Size::Full)[0].scenario().unwrap()).len()
            * cases(Size::Full).len()
    );
    let fresh = run_cases(&cases(Size::Full)[..1], &mut |_, _| {})
        .unwrap()
        .to_csv();
    let fresh: Vec<&str> = fresh.lines().collect();
    assert_eq!(fresh, lines[..fresh.len()].to_vec());
}
