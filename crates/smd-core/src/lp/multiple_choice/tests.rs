use super::*;
use crate::lp::{Lp, Op, Outcome, Sense};
use crate::rng::Stream;

/// The LP crate on the same problem written out in full: the independent reference.
fn reference<const R: usize>(groups: &[Vec<Choice<R>>], cap: &[f64; R]) -> f64 {
    let mut lp = Lp::new(Sense::Max);
    let mut packing: [Vec<(usize, f64)>; R] = std::array::from_fn(|_| Vec::new());
    for options in groups {
        let ids: Vec<(usize, f64)> = options
            .iter()
            .map(|c| {
                let x = lp.var(c.value, 0.0, f64::INFINITY);
                for r in 0..R {
                    packing[r].push((x, c.demand[r]));
                }
                (x, 1.0)
            })
            .collect();
        lp.row(&ids, Op::Eq, 1.0);
    }
    for r in 0..R {
        lp.row(&packing[r], Op::Le, cap[r]);
    }
    match lp.solve().unwrap() {
        Outcome::Optimal { objective, .. } => objective,
        o => panic!("{o:?}"),
    }
}

/// What every answer must satisfy: weights in [0, 1] summing to 1 per group, the capacity
/// held, the value re-derived, and strong duality with its prices (which proves it optimal
/// without any reference).
fn certify<const R: usize>(groups: &[Vec<Choice<R>>], cap: &[f64; R], s: &Solution<R>) {
    let scale = groups
        .iter()
        .flatten()
        .fold(1.0_f64, |m, c| m.max(c.value.abs()));
    let mut used = [0.0; R];
    let mut value = 0.0;
    let mut mixed = 0;
    assert_eq!(s.weights.len(), groups.len());
    for (g, ws) in s.weights.iter().enumerate() {
        let sum: f64 = ws.iter().map(|w| w.1).sum();
        assert!((sum - 1.0).abs() < 1e-9, "group {g}: weights sum to {sum}");
        assert!(ws.windows(2).all(|w| w[0].0 < w[1].0), "group {g}: {ws:?}");
        mixed += usize::from(ws.len() > 1);
        for &(o, w) in ws {
            assert!(w > 0.0 && w <= 1.0 + 1e-9);
            value += w * groups[g][o].value;
            for r in 0..R {
                used[r] += w * groups[g][o].demand[r];
            }
        }
    }
    assert!(
        mixed <= R,
        "{mixed} groups mix options (a basic solution: ≤ {R})"
    );
    for r in 0..R {
        assert!(used[r] <= cap[r] + 1e-9 * cap[r].max(1.0), "resource {r}");
    }
    assert!((value - s.value).abs() <= 1e-9 * scale);
    let pi = &s.dual;
    let dual: f64 = (0..R).map(|r| pi[r] * cap[r]).sum::<f64>()
        + groups
            .iter()
            .map(|options| {
                options
                    .iter()
                    .map(|c| c.value - (0..R).map(|r| pi[r] * c.demand[r]).sum::<f64>())
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .sum::<f64>();
    assert!(
        (dual - s.value).abs() <= 1e-7 * scale * groups.len().max(1) as f64,
        "duality gap: primal {} dual {dual}",
        s.value
    );
}

fn random<const R: usize>(rng: &mut Stream, integral: bool) -> (Vec<Vec<Choice<R>>>, [f64; R]) {
    let n = rng.int(1, 40) as usize;
    let draw = |rng: &mut Stream, hi: f64| {
        if integral {
            rng.int(0, hi as u64) as f64
        } else {
            rng.uniform(0.0, hi)
        }
    };
    let groups: Vec<Vec<Choice<R>>> = (0..n)
        .map(|_| {
            let k = rng.int(1, 12) as usize;
            let mut options: Vec<Choice<R>> = (0..k)
                .map(|_| Choice {
                    value: draw(rng, 20.0) - 5.0,
                    demand: std::array::from_fn(|_| draw(rng, 8.0)),
                })
                .collect();
            // The zero-demand option, anywhere in the group.
            let at = rng.int(0, k as u64) as usize;
            options.insert(
                at,
                Choice {
                    value: draw(rng, 4.0) - 4.0,
                    demand: [0.0; R],
                },
            );
            options
        })
        .collect();
    let cap = std::array::from_fn(|_| draw(rng, 3.0 * n as f64));
    (groups, cap)
}

#[test]
fn a_multiple_choice_knapsack_by_hand() {
    // One resource of 4. Group 0: nothing (0), or 3 units for 6. Group 1: nothing (0), 2
    // units for 3, or 4 units for 5. Greedy on the hull: group 0's 2/unit first (3 units),
    // then group 1's 1.5/unit for the last unit: half of (2 units, 3) → 6 + 1.5 = 7.5.
    let c = |value, d| Choice { value, demand: [d] };
    let groups = vec![
        vec![c(0.0, 0.0), c(6.0, 3.0)],
        vec![c(0.0, 0.0), c(3.0, 2.0), c(5.0, 4.0)],
    ];
    let s = solve(&groups, &[4.0]).unwrap();
    assert!((s.value - 7.5).abs() < 1e-12, "{s:?}");
    assert_eq!(s.weights[0], vec![(1, 1.0)]);
    assert_eq!(s.weights[1].len(), 2);
    assert!((s.dual[0] - 1.5).abs() < 1e-12);
    certify(&groups, &[4.0], &s);
}

#[test]
fn matches_the_lp_crate_and_proves_itself_on_random_problems() {
    let mut rng = Stream::new(27, 1);
    for case in 0..300 {
        // Integral data half the time: ties and degenerate pivots.
        let (groups, cap) = random::<4>(&mut rng, case % 2 == 0);
        let s = solve(&groups, &cap).unwrap_or_else(|e| panic!("case {case}: {e}"));
        certify(&groups, &cap, &s);
        let want = reference(&groups, &cap);
        assert!(
            (s.value - want).abs() <= 1e-7 * want.abs().max(1.0),
            "case {case}: {} vs the LP crate's {want}",
            s.value
        );
    }
    for case in 0..100 {
        let (groups, cap) = random::<1>(&mut rng, case % 2 == 0);
        let s = solve(&groups, &cap).unwrap();
        certify(&groups, &cap, &s);
        assert!((s.value - reference(&groups, &cap)).abs() <= 1e-7 * s.value.abs().max(1.0));
    }
}

#[test]
fn degenerate_problems_end() {
    // Every option alike, no capacity, or capacity for exactly some: Bland's rule ends it.
    let same = Choice {
        value: 1.0,
        demand: [1.0, 1.0],
    };
    let zero = Choice {
        value: 0.0,
        demand: [0.0, 0.0],
    };
    for cap in [[0.0, 0.0], [3.0, 3.0], [3.0, 0.0], [100.0, 100.0]] {
        let groups = vec![vec![zero, same, same, same]; 12];
        let s = solve(&groups, &cap).unwrap();
        certify(&groups, &cap, &s);
        assert!((s.value - cap[0].min(cap[1]).min(12.0)).abs() < 1e-9);
    }
    // Only zero-demand options: each group takes its best.
    let groups = vec![vec![zero, Choice { value: 2.0, ..zero }]; 3];
    let s = solve(&groups, &[1.0, 1.0]).unwrap();
    assert_eq!(s.value, 6.0);
}

#[test]
fn bad_problems_are_errors() {
    let c = |value, d| Choice { value, demand: [d] };
    let no_zero = vec![vec![c(1.0, 1.0)]];
    assert!(matches!(solve(&no_zero, &[1.0]), Err(Error::Solver(m)) if m.contains("group 0")));
    let nan = vec![vec![c(0.0, 0.0), c(f64::NAN, 1.0)]];
    assert!(matches!(solve(&nan, &[1.0]), Err(Error::Solver(m)) if m.contains("option 1")));
    let ok = vec![vec![c(0.0, 0.0)]];
    assert!(solve(&ok, &[-1.0]).is_err());
    assert!(solve(&ok, &[f64::INFINITY]).is_err());
    // No groups: value 0.
    assert_eq!(solve::<1>(&[], &[1.0]).unwrap().value, 0.0);
}
