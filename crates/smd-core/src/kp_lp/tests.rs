use super::*;
use crate::lp::{Lp, Op, Outcome, Sense};
use crate::rng::Stream;

/// The LP crate as the independent reference.
fn reference<const R: usize>(c: &[f64], a: &[[f64; R]], b: &[f64; R]) -> f64 {
    let mut lp = Lp::new(Sense::Max);
    let v: Vec<usize> = c.iter().map(|&ci| lp.var(ci, 0.0, 1.0)).collect();
    for r in 0..R {
        let terms: Vec<(usize, f64)> = v.iter().map(|&j| (j, a[j][r])).collect();
        lp.row(&terms, Op::Le, b[r]);
    }
    match lp.solve().unwrap() {
        Outcome::Optimal { objective, .. } => objective,
        o => panic!("{o:?}"),
    }
}

#[test]
fn column_generation_matches_the_dense_simplex() {
    let mut s = Stream::new(9, 0);
    for case in 0..6 {
        let n = COLUMN_GENERATION_MIN + 1 + s.int(0, 12_000) as usize;
        let c: Vec<f64> = (0..n).map(|_| s.uniform(0.0, 100.0)).collect();
        let a: Vec<[f64; 4]> = (0..n)
            .map(|_| std::array::from_fn(|_| s.uniform(0.0, 50.0)))
            .collect();
        // Few items fit (the 10^5-job regime) or many (column generation needs rounds).
        let tight = if case % 2 == 0 { 0.001 } else { 0.2 };
        let b: [f64; 4] = std::array::from_fn(|r| tight * a.iter().map(|x| x[r]).sum::<f64>());
        let got = solve(&c, &a, &b);
        let want = dense(&c, &a, &b);
        assert!(
            (got.value - want.value).abs() <= 1e-9 * want.value.max(1.0),
            "case {case}: {} vs {}",
            got.value,
            want.value
        );
        let fractional = got
            .x
            .iter()
            .filter(|&&x| x > 1e-9 && x < 1.0 - 1e-9)
            .count();
        assert!(fractional <= 4, "case {case}: {fractional} fractional");
        for r in 0..4 {
            let used: f64 = a.iter().zip(&got.x).map(|(a, x)| a[r] * x).sum();
            assert!(used <= b[r] * (1.0 + 1e-9) + 1e-9);
        }
        // Its duals bound the LP (weak duality), so Frieze–Clarke's pruning stays valid.
        let y = &got.dual;
        let bound: f64 = (0..4).map(|r| y[r] * b[r]).sum::<f64>()
            + (0..n)
                .map(|j| (c[j] - (0..4).map(|r| y[r] * a[j][r]).sum::<f64>()).max(0.0))
                .sum::<f64>();
        assert!(
            bound >= want.value * (1.0 - 1e-9),
            "case {case}: {bound} < {}",
            want.value
        );
    }
}

#[test]
fn matches_the_lp_crate_and_is_basic() {
    let mut s = Stream::new(5, 0);
    for case in 0..400 {
        let n = 1 + s.int(0, 40) as usize;
        let c: Vec<f64> = (0..n)
            .map(|_| {
                if s.unit() < 0.1 {
                    0.0
                } else {
                    s.uniform(0.0, 100.0)
                }
            })
            .collect();
        let a: Vec<[f64; 4]> = (0..n)
            .map(|_| {
                std::array::from_fn(|_| {
                    if s.unit() < 0.2 {
                        0.0
                    } else {
                        s.uniform(0.0, 50.0)
                    }
                })
            })
            .collect();
        let tight = s.uniform(0.05, 0.9);
        let b: [f64; 4] = std::array::from_fn(|r| tight * a.iter().map(|x| x[r]).sum::<f64>());
        let got = solve(&c, &a, &b);
        let want = reference(&c, &a, &b);
        assert!(
            (got.value - want).abs() <= 1e-7 * want.max(1.0),
            "case {case}: {} vs {want}",
            got.value
        );
        for r in 0..4 {
            let used: f64 = a.iter().zip(&got.x).map(|(a, x)| a[r] * x).sum();
            assert!(
                used <= b[r] * (1.0 + 1e-9) + 1e-9,
                "case {case}: row {r} {used} > {}",
                b[r]
            );
        }
        let fractional = got
            .x
            .iter()
            .filter(|&&x| x > 1e-9 && x < 1.0 - 1e-9)
            .count();
        assert!(
            fractional <= 4,
            "case {case}: {fractional} fractional entries"
        );
    }
}

#[test]
fn degenerate_and_empty_cases() {
    let r = solve::<4>(&[], &[], &[1.0; 4]);
    assert_eq!(r.value, 0.0);
    // Zero capacity: nothing with positive demand fits; free items are taken whole.
    let a = [[1.0, 0.0, 0.0, 0.0], [0.0; 4], [1.0, 1.0, 1.0, 1.0]];
    let r = solve(&[3.0, 2.0, 5.0], &a, &[0.0; 4]);
    assert_eq!(r.x, vec![0.0, 1.0, 0.0]);
    // Many identical items: degenerate ties.
    let a = vec![[1.0, 1.0, 1.0, 1.0]; 30];
    let r = solve(&vec![1.0; 30], &a, &[7.5; 4]);
    assert!((r.value - 7.5).abs() < 1e-9);
}
