//! The exact allocation solver (`smd_hetero::milp`) against exhaustive search and a
//! capacity DP, under tiny node limits, on bad input, and for determinism.

use smd_hetero::milp::sample::Rng;
use smd_hetero::milp::{sample, solve, Answer, Limits, Problem};

#[derive(Clone, Debug)]
struct Owned {
    values: Vec<Vec<Option<i64>>>,
    gpus: Vec<u32>,
    kind: Vec<usize>,
    capacity: Vec<u32>,
    pinned: Vec<Option<usize>>,
}

impl Owned {
    fn problem(&self) -> Problem<'_> {
        Problem {
            values: &self.values,
            gpus: &self.gpus,
            kind: &self.kind,
            capacity: &self.capacity,
            pinned: &self.pinned,
        }
    }
}

/// A small random instance: few values (many ties), some zero capacities and zero-GPU
/// configurations, negative and missing values, and pins (only to allowed configurations).
fn small(rng: &mut Rng, max_jobs: u64, max_configs: u64, max_kinds: u64) -> Owned {
    let kinds = 1 + rng.below(max_kinds as usize);
    let configs = 1 + rng.below(max_configs as usize);
    let jobs = rng.below(max_jobs as usize + 1);
    let gpus = (0..configs)
        .map(|_| {
            if rng.below(8) == 0 {
                0
            } else {
                1 + rng.below(4) as u32
            }
        })
        .collect();
    let kind = (0..configs).map(|_| rng.below(kinds)).collect();
    let capacity = (0..kinds)
        .map(|_| {
            if rng.below(6) == 0 {
                0
            } else {
                rng.below(8) as u32
            }
        })
        .collect();
    let spread = if rng.below(2) == 0 { 4 } else { 15 };
    let values: Vec<Vec<Option<i64>>> = (0..jobs)
        .map(|_| {
            (0..configs)
                .map(|_| (rng.below(5) != 0).then(|| rng.range(-3, spread)))
                .collect()
        })
        .collect();
    let pinned = values
        .iter()
        .map(|row| {
            let allowed: Vec<usize> = (0..configs).filter(|&c| row[c].is_some()).collect();
            (rng.below(6) == 0 && !allowed.is_empty()).then(|| allowed[rng.below(allowed.len())])
        })
        .collect();
    Owned {
        values,
        gpus,
        kind,
        capacity,
        pinned,
    }
}

/// The optimum by exhaustive search, or `None` when the pins alone do not fit.
fn brute_force(p: &Problem<'_>) -> Option<i64> {
    fn go(p: &Problem<'_>, i: usize, left: &mut [i64]) -> Option<i64> {
        if i == p.values.len() {
            return Some(0);
        }
        let pin = p.pinned.get(i).copied().flatten();
        let mut best = if pin.is_none() {
            go(p, i + 1, left)
        } else {
            None
        };
        for c in 0..p.gpus.len() {
            let Some(v) = p.values[i][c] else { continue };
            if pin.is_some_and(|q| q != c) {
                continue;
            }
            let (t, g) = (p.kind[c], i64::from(p.gpus[c]));
            if left[t] < g {
                continue;
            }
            left[t] -= g;
            if let Some(rest) = go(p, i + 1, left) {
                best = Some(best.map_or(v + rest, |b: i64| b.max(v + rest)));
            }
            left[t] += g;
        }
        best
    }
    let mut left: Vec<i64> = p.capacity.iter().map(|&c| i64::from(c)).collect();
    go(p, 0, &mut left)
}

/// Asserts the answer is feasible, keeps the pins, and states its value.
fn assert_feasible(p: &Problem<'_>, a: &Answer) {
    assert_eq!(a.choice.len(), p.values.len());
    let mut used = vec![0u64; p.capacity.len()];
    let mut value = 0;
    for (i, c) in a.choice.iter().enumerate() {
        if let Some(pin) = p.pinned.get(i).copied().flatten() {
            assert_eq!(*c, Some(pin), "job {i} must keep its pin");
        }
        if let Some(c) = *c {
            value += p.values[i][c].expect("an allowed configuration");
            used[p.kind[c]] += u64::from(p.gpus[c]);
        }
    }
    for (t, &u) in used.iter().enumerate() {
        assert!(u <= u64::from(p.capacity[t]), "type {t} over capacity");
    }
    assert_eq!(a.value, value);
    assert!(a.value <= a.bound);
}

#[test]
fn matches_exhaustive_search_on_small_random_instances() {
    let mut rng = Rng(7);
    let (mut solved, mut refused) = (0, 0);
    for round in 0..600 {
        let o = small(&mut rng, 6, 6, 2);
        let p = o.problem();
        let truth = brute_force(&p);
        match solve(&p, &Limits::default()) {
            Ok(a) => {
                assert_feasible(&p, &a);
                assert!(a.proven, "round {round}: not proven");
                assert_eq!(Some(a.value), truth, "round {round}: {o:?}");
                assert_eq!(a.bound, a.value);
                solved += 1;
            }
            Err(e) => {
                assert_eq!(truth, None, "round {round}: refused ({e}) a feasible {o:?}");
                refused += 1;
            }
        }
    }
    assert!(
        solved > 400 && refused > 5,
        "{solved} solved, {refused} refused"
    );
}

#[test]
fn matches_exhaustive_search_with_three_types_and_more_jobs() {
    let mut rng = Rng(11);
    for round in 0..150 {
        let o = small(&mut rng, 8, 4, 3);
        let p = o.problem();
        let truth = brute_force(&p);
        if let Ok(a) = solve(&p, &Limits::default()) {
            assert_feasible(&p, &a);
            assert!(a.proven);
            assert_eq!(Some(a.value), truth, "round {round}: {o:?}");
        } else {
            assert_eq!(truth, None);
        }
    }
}

#[test]
fn matches_exhaustive_search_with_more_types_than_the_lp_takes() {
    // Nine or ten types: no LP prices (μ = 0), so the search alone must prove the optimum.
    let mut rng = Rng(19);
    for round in 0..120 {
        let mut o = small(&mut rng, 6, 6, 2);
        let kinds = 9 + rng.below(2);
        o.kind = o.kind.iter().map(|_| rng.below(kinds)).collect();
        o.capacity = (0..kinds).map(|_| rng.below(5) as u32).collect();
        let p = o.problem();
        let truth = brute_force(&p);
        match solve(&p, &Limits::default()) {
            Ok(a) => {
                assert_feasible(&p, &a);
                assert!(a.proven);
                assert_eq!(Some(a.value), truth, "round {round}: {o:?}");
            }
            Err(_) => assert_eq!(truth, None),
        }
    }
}

/// The optimum of a three-type instance by dynamic programming over the GPUs used of
/// each type (pins taken first).
fn dp_three(p: &Problem<'_>) -> i64 {
    assert_eq!(p.capacity.len(), 3);
    let cap: Vec<usize> = p.capacity.iter().map(|&c| c as usize).collect();
    let mut left = cap.clone();
    let mut base = 0;
    for (i, pin) in p.pinned.iter().enumerate() {
        if let Some(c) = *pin {
            left[p.kind[c]] -= p.gpus[c] as usize;
            base += p.values[i][c].unwrap();
        }
    }
    let (a, b, c) = (left[0] + 1, left[1] + 1, left[2] + 1);
    let idx = |x: usize, y: usize, z: usize| (x * b + y) * c + z;
    const NONE: i64 = i64::MIN / 4;
    let mut best = vec![NONE; a * b * c];
    best[0] = 0;
    for (i, row) in p.values.iter().enumerate() {
        if p.pinned[i].is_some() {
            continue;
        }
        let mut next = best.clone();
        for x in 0..a {
            for y in 0..b {
                for z in 0..c {
                    let here = best[idx(x, y, z)];
                    if here == NONE {
                        continue;
                    }
                    for (k, v) in row.iter().enumerate() {
                        let Some(v) = *v else { continue };
                        let mut u = [x, y, z];
                        u[p.kind[k]] += p.gpus[k] as usize;
                        if u[0] < a && u[1] < b && u[2] < c {
                            let e = &mut next[idx(u[0], u[1], u[2])];
                            *e = (*e).max(here + v);
                        }
                    }
                }
            }
        }
        best = next;
    }
    base + best.into_iter().max().unwrap()
}

#[test]
fn matches_a_capacity_dp_on_realistic_instances() {
    for seed in 0..40 {
        let inst = sample::realistic(seed, 1);
        let p = inst.problem();
        let a = solve(&p, &Limits::default()).unwrap();
        assert_feasible(&p, &a);
        assert!(a.proven, "seed {seed}");
        assert_eq!(a.value, dp_three(&p), "seed {seed}");
    }
}

#[test]
fn tiny_node_limits_still_give_feasible_answers_under_a_valid_bound() {
    let mut rng = Rng(3);
    let mut unproven = 0;
    let mut instances: Vec<Owned> = (0..40).map(|_| small(&mut rng, 14, 8, 3)).collect();
    for seed in 0..4 {
        let s = sample::realistic(seed, 2);
        instances.push(Owned {
            values: s.values,
            gpus: s.gpus,
            kind: s.kind,
            capacity: s.capacity,
            pinned: s.pinned,
        });
    }
    for o in &instances {
        let p = o.problem();
        let Ok(full) = solve(&p, &Limits::default()) else {
            continue;
        };
        assert!(full.proven);
        for nodes in [0, 1, 2, 5, 20] {
            let a = solve(&p, &Limits { nodes }).unwrap();
            assert_feasible(&p, &a);
            assert!(a.nodes <= nodes);
            assert!(a.value <= full.value);
            assert!(a.bound >= full.value, "the bound must hold the optimum");
            if a.proven {
                assert_eq!(a.value, full.value);
            } else {
                unproven += 1;
            }
        }
    }
    assert!(unproven > 0, "some limit must have stopped a search");
}

#[test]
fn inconsistent_input_is_an_error_not_a_panic() {
    let values = vec![vec![Some(5), Some(7)], vec![Some(4), None]];
    let gpus = [2, 3];
    let kind = [0, 0];
    let capacity = [4];
    let ok = Problem {
        values: &values,
        gpus: &gpus,
        kind: &kind,
        capacity: &capacity,
        pinned: &[],
    };
    assert!(solve(&ok, &Limits::default()).is_ok());
    // Pinned jobs alone over a capacity.
    let over = [Some(1), Some(0)];
    assert!(solve(
        &Problem {
            pinned: &over,
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    // A pin to a configuration the job may not take, or that does not exist.
    let forbidden = [None, Some(1)];
    assert!(solve(
        &Problem {
            pinned: &forbidden,
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    let missing = [Some(2), None];
    assert!(solve(
        &Problem {
            pinned: &missing,
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    // Lengths that disagree.
    let short_pins = [None];
    assert!(solve(
        &Problem {
            pinned: &short_pins,
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    assert!(solve(&Problem { kind: &[0], ..ok }, &Limits::default()).is_err());
    let ragged = vec![vec![Some(5), Some(7)], vec![Some(4)]];
    assert!(solve(
        &Problem {
            values: &ragged,
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    // A type out of range, a value out of range.
    assert!(solve(
        &Problem {
            kind: &[0, 1],
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    let huge = vec![vec![Some(i64::MAX), None]];
    assert!(solve(
        &Problem {
            values: &huge,
            pinned: &[],
            ..ok
        },
        &Limits::default()
    )
    .is_err());
    // No jobs, no configurations, no types: fine.
    let empty = Problem {
        values: &[],
        gpus: &[],
        kind: &[],
        capacity: &[],
        pinned: &[],
    };
    let a = solve(&empty, &Limits::default()).unwrap();
    assert!(a.proven && a.value == 0 && a.choice.is_empty());
}

#[test]
fn answers_are_deterministic() {
    for seed in 0..5 {
        for k in [1, 4] {
            let inst = sample::realistic(seed, k);
            let a = solve(&inst.problem(), &Limits::default()).unwrap();
            let b = solve(&inst.problem(), &Limits::default()).unwrap();
            assert_eq!(a, b);
        }
    }
}

#[test]
fn identical_jobs_take_their_configurations_in_index_order() {
    // Ten new jobs (value 10 on each type's 1-GPU configuration) for five GPUs of two
    // types; and a running job between them.
    let mut values = vec![vec![Some(10), Some(-50), Some(10), Some(-50)]; 10];
    values.insert(4, vec![Some(20), Some(35), Some(15), Some(30)]);
    let gpus = [1, 2, 1, 2];
    let kind = [0, 0, 1, 1];
    let capacity = [3, 2];
    let p = Problem {
        values: &values,
        gpus: &gpus,
        kind: &kind,
        capacity: &capacity,
        pinned: &[],
    };
    let a = solve(&p, &Limits::default()).unwrap();
    assert_feasible(&p, &a);
    assert!(a.proven);
    assert_eq!(a.value, brute_force(&p).unwrap());
    let new: Vec<Option<usize>> = (0..11).filter(|&i| i != 4).map(|i| a.choice[i]).collect();
    let mut sorted = new.clone();
    sorted.sort_by_key(|c| c.unwrap_or(usize::MAX));
    assert_eq!(new, sorted, "lower job index, lower configuration");
}
