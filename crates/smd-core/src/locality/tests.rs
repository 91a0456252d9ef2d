use super::*;

/// ρ by its definition, pair by pair: every (worker, PS) pair's transfer time on the
/// bottleneck link, relative to the all-remote placement.
fn pairwise(mode: Mode, shares: &[Share], beta: f64) -> f64 {
    let w: f64 = shares.iter().map(|s| s.0).sum();
    let p: f64 = shares.iter().map(|s| s.1).sum();
    let mut worst = f64::NEG_INFINITY;
    for (h, &(wh, ph)) in shares.iter().enumerate() {
        // Sync: a PS on h serves every worker; async: a worker on h talks to every PS.
        let (present, total, others) = match mode {
            Mode::Sync => (ph > 0.0, w, 0),
            Mode::Async => (wh > 0.0, p, 1),
        };
        let others = |s: &Share| if others == 0 { s.0 } else { s.1 };
        if !present {
            continue;
        }
        let time: f64 = shares
            .iter()
            .enumerate()
            .map(|(k, s)| if k == h { beta * others(s) } else { others(s) })
            .sum();
        worst = worst.max(time / total);
    }
    worst
}

#[test]
fn matches_the_pairwise_definition_and_the_pool() {
    let cases: [&[Share]; 5] = [
        &[(4.0, 2.0)],
        &[(1.0, 1.0), (1.0, 1.0)],
        &[(3.0, 0.0), (1.0, 2.0)],
        &[(2.0, 1.0), (2.0, 1.0), (0.0, 1.0)],
        &[(1.0, 0.0), (0.0, 1.0)],
    ];
    for shares in cases {
        for mode in [Mode::Sync, Mode::Async] {
            for beta in [0.0, 0.25, 1.0] {
                let rho = factor(mode, shares, beta);
                assert!(
                    (rho - pairwise(mode, shares, beta)).abs() < 1e-12,
                    "{shares:?}"
                );
                assert!((0.0..=1.0).contains(&rho), "{rho}");
                // β = 1: local transfer is as slow as remote, so locality changes nothing.
                if beta == 1.0 {
                    assert!((rho - 1.0).abs() < 1e-12);
                }
            }
        }
    }
    // All on one machine: ρ = β; nothing shared: ρ = 1 (the pool).
    assert_eq!(factor(Mode::Sync, &[(4.0, 4.0)], 0.25), 0.25);
    assert_eq!(factor(Mode::Sync, &[(4.0, 0.0), (0.0, 4.0)], 0.25), 1.0);
}

#[test]
fn cross_traffic_counts_remote_pairs() {
    // w = 4, p = 2, G = 1 Gbit: 8 pairs of 2G/p = 1 Gbit; the 2·1 + 2·1 co-located pairs stay.
    let x = cross_traffic_gbit(1.0, &[(2.0, 1.0), (2.0, 1.0)]);
    assert!((x - 4.0).abs() < 1e-12, "{x}");
    assert_eq!(cross_traffic_gbit(1.0, &[(4.0, 2.0)]), 0.0);
    assert_eq!(cross_traffic_gbit(1.0, &[(4.0, 0.0), (0.0, 2.0)]), 8.0);
}
