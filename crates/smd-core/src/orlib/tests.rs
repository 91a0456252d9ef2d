//! Regression fixtures from the OR-Library 5.100 set (Chu & Beasley): instances 01, 16 and
//! 21 (one per tightness 0.25, 0.50, 0.75), whose optima are known. The exact branch and
//! bound must prove each; Frieze–Clarke must stay within its guarantee q/(q+5).

use crate::knapsack::{branch_and_bound_with, frieze_clarke, guarantee_for, Limits};
use crate::orlib::parse;

const FIXTURE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/orlib-5.100-sample.txt"
));
const KNOWN: [f64; 3] = [24274.0, 42009.0, 62081.0];

#[test]
fn exact_knapsack_proves_the_known_optima() {
    let instances = parse(FIXTURE).unwrap();
    assert_eq!(instances.len(), 3);
    for (inst, known) in instances.iter().zip(KNOWN) {
        assert_eq!(
            inst.optimum, known,
            "the file's optimum is the published one"
        );
        let (items, cap) = inst.items::<5>().unwrap();
        let limits = Limits {
            nodes: 5_000_000,
            ..Limits::default()
        };
        let sel = branch_and_bound_with(&items, &cap, &limits).unwrap();
        assert!(sel.proven_optimal, "not proven: {:?}", sel.gap);
        assert_eq!(sel.value, known);
        // The selection itself is feasible and worth what it says.
        let chosen: Vec<usize> = (0..items.len()).filter(|&i| sel.chosen[i]).collect();
        for (r, &c) in cap.iter().enumerate() {
            let used: f64 = chosen.iter().map(|&i| items[i].demand[r]).sum();
            assert!(used <= c, "constraint {r}: {used} > {c}");
        }
        assert_eq!(chosen.iter().map(|&i| items[i].value).sum::<f64>(), known);
    }
}

#[test]
fn frieze_clarke_stays_within_its_guarantee() {
    for (inst, known) in parse(FIXTURE).unwrap().iter().zip(KNOWN) {
        let (items, cap) = inst.items::<5>().unwrap();
        let mut previous = 0.0;
        for q in 0..=1 {
            let fc = frieze_clarke(&items, &cap, q).unwrap();
            assert!(fc.value <= known);
            assert!(fc.value >= guarantee_for(q, 5) * known);
            // Depth q tries every subset depth q−1 tried, and more.
            assert!(fc.value >= previous, "q {q}: {} < {previous}", fc.value);
            previous = fc.value;
        }
    }
}
