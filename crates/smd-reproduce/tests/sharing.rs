//! The committed GPU-sharing study (docs/sharing/sharing.csv, quoted by
//! docs/REPRODUCTION.md "GPU sharing") is what the code produces, row for row.

#[test]
fn the_committed_study_is_a_fresh_run() {
    let committed = include_str!("../../../docs/sharing/sharing.csv");
    let fresh = smd_reproduce::sharing::run().unwrap().to_csv();
    assert_eq!(fresh, committed);
}
