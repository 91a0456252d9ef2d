use super::*;
use proptest::prelude::*;

/// ρ with per-machine β, written out directly (docs/PLACEMENT.md §4): the independent
/// reference for the masked evaluation through the core's `factor`.
fn direct(mode: Mode, shares: &[(f64, f64)], betas: &[f64]) -> f64 {
    let w: f64 = shares.iter().map(|s| s.0).sum();
    let p: f64 = shares.iter().map(|s| s.1).sum();
    if w <= 0.0 || p <= 0.0 {
        return 1.0;
    }
    let mut rho = f64::NEG_INFINITY;
    for (&(wh, ph), &b) in shares.iter().zip(betas) {
        match mode {
            Mode::Sync if ph > 0.0 => rho = rho.max(((w - wh) + b * wh) / w),
            Mode::Async if wh > 0.0 => rho = rho.max(((p - ph) + b * ph) / p),
            _ => {}
        }
    }
    rho
}

#[test]
fn hand_computed_cases() {
    // Sync, w = 4, p = 2: machine A has 3 workers and 1 PS (β_A = 0.5), machine B has 1
    // worker and 1 PS (β_B = 0.25). PS link on A: (4 − 3 + 0.5·3)/4 = 2.5/4 = 0.625;
    // on B: (4 − 1 + 0.25·1)/4 = 3.25/4 = 0.8125. ρ = 0.8125.
    let shares = [(3.0, 1.0), (1.0, 1.0)];
    assert_eq!(locality_factor(Mode::Sync, &shares, &[0.5, 0.25]), 0.8125);
    // Async: a worker's link on A: (2 − 1 + 0.5·1)/2 = 0.75; on B: (2 − 1 + 0.25)/2 = 0.625.
    assert_eq!(locality_factor(Mode::Async, &shares, &[0.5, 0.25]), 0.75);
    // Sync with the PS only on B (β_B = 0): A's workers count as remote: (4 − 1)/4.
    let shares = [(3.0, 0.0), (1.0, 2.0)];
    assert_eq!(locality_factor(Mode::Sync, &shares, &[0.5, 0.0]), 0.75);
    // No worker next to a PS: ρ = 1 whatever the βs.
    let shares = [(3.0, 0.0), (0.0, 2.0), (1.0, 0.0)];
    for mode in [Mode::Sync, Mode::Async] {
        assert_eq!(locality_factor(mode, &shares, &[0.5, 0.1, 0.9]), 1.0);
    }
    // Everything on one machine: ρ = β.
    assert_eq!(locality_factor(Mode::Sync, &[(5.0, 2.0)], &[0.3]), 0.3);
    // No PS: nothing to exchange, ρ = 1.
    assert_eq!(locality_factor(Mode::Sync, &[(5.0, 0.0)], &[0.3]), 1.0);
}

proptest! {
    #[test]
    fn equals_the_direct_formula_and_the_core_with_one_beta(
        shares in prop::collection::vec((0u32..6, 0u32..4), 1..6),
        betas in prop::collection::vec(prop::sample::select(vec![0.0, 0.125, 0.5, 1.0, 2.0]), 6),
        uniform in 0.0f64..2.0,
    ) {
        let shares: Vec<(f64, f64)> = shares.into_iter().map(|(w, p)| (w as f64, p as f64)).collect();
        for mode in [Mode::Sync, Mode::Async] {
            let got = locality_factor(mode, &shares, &betas);
            let want = direct(mode, &shares, &betas);
            prop_assert!((got - want).abs() <= 1e-12, "{mode:?} {shares:?} {betas:?}: {got} vs {want}");
            let same = vec![uniform; shares.len()];
            prop_assert_eq!(locality_factor(mode, &shares, &same), factor(mode, &shares, uniform));
        }
    }
}
