//! The numbers the page's browser test pins (web/tests/browser/production.rs): fgd with
//! seed 42 at target 1.3 on the bundled lists, its allocation at x = 100 and 130, as
//! `smd study fgd --policy fgd --seeds 42 --json` gives them. The wasm run must give the
//! same.

use smd_fgd::study::bundled;
use smd_fgd::{parse_nodes, parse_pods, Policy, Prepared};

/// Allocation %, x = 100.
const ALLOCATION_AT_100: f64 = 95.14;
/// Allocation %, x = 130.
const ALLOCATION_AT_130: f64 = 95.29;

#[test]
fn fgd_seed_42_allocates_the_pinned_shares() {
    let nodes = parse_nodes(bundled::NODES).unwrap();
    let pods = parse_pods(bundled::PODS).unwrap();
    let run = Prepared::new(&nodes, &pods)
        .run(Policy::Fgd, 42, bundled::TARGET, &mut |_, _| true)
        .unwrap();
    let at = |x: u32| run.points.iter().find(|p| p.x == x).unwrap().allocation_pct;
    assert_eq!(at(100), ALLOCATION_AT_100);
    assert_eq!(at(130), ALLOCATION_AT_130);
}
