//! The search alone (no heuristic incumbent to fall back on) against brute force: every
//! branch it skips for symmetry or by its bound must be one that cannot win.

use super::*;
use crate::{Job, Machine};
use proptest::prelude::*;
use smd_core::scenario::{Mode, Resources};

#[path = "../../tests/common/brute.rs"]
mod brute;

fn machine_type() -> impl Strategy<Value = Machine> {
    (
        prop::sample::select(vec![0.0, 1.0, 2.0, 3.0]),
        prop::sample::select(vec![2.0, 4.0, 6.0]),
        prop::option::of(prop::sample::select(vec![10.0, 20.0])),
        prop::bool::ANY,
    )
        .prop_map(|(gpu, vcpu, nic_gbps, local)| Machine {
            name: "t".into(),
            capacity: Resources {
                gpu,
                vcpu,
                memory_gb: 16.0,
                storage_gb: 16.0,
            },
            nic_gbps,
            local_gbps: local.then_some(40.0),
        })
}

/// Up to 4 machines of at most 2 types: identical machines are common, so the symmetry
/// reduction is exercised.
fn machines() -> impl Strategy<Value = Vec<Machine>> {
    (
        machine_type(),
        machine_type(),
        prop::collection::vec(prop::bool::ANY, 0..5),
    )
        .prop_map(|(a, b, pick)| {
            pick.into_iter()
                .map(|first| if first { a.clone() } else { b.clone() })
                .collect()
        })
}

/// Tiny jobs; zero demands are common, so occupancy without load is exercised.
fn job() -> impl Strategy<Value = Job> {
    (
        (0u32..=2, 0u32..=2),
        prop::sample::select(vec![0.0, 1.0, 2.0]),
        prop::sample::select(vec![0.0, 1.0, 2.0]),
        prop::sample::select(vec![0.0, 4.0]),
        prop::sample::select(vec![0.0, 10.0]),
        prop::sample::select(vec![0.5, 1.0]),
    )
        .prop_map(|((workers, ps), g, c, mem, b, grad)| {
            let storage = if mem > 0.0 { 1.0 } else { 0.0 };
            Job {
                id: "j".into(),
                mode: Mode::Sync,
                workers,
                ps,
                worker_demand: Resources {
                    gpu: g,
                    vcpu: c,
                    memory_gb: mem,
                    storage_gb: storage,
                },
                ps_demand: Resources {
                    gpu: 0.0,
                    vcpu: c,
                    memory_gb: mem,
                    storage_gb: storage,
                },
                bandwidth_gbps: b,
                gradient_gbit: grad,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn the_search_alone_equals_brute_force(
        machines in machines(),
        jobs in prop::collection::vec(job(), 0..4),
    ) {
        let (found, proven) = search(&machines, &jobs, &Options::default(), None);
        prop_assert!(proven);
        let (key, chosen) = found.expect("without an incumbent the search finds a placement");
        prop_assert_eq!(chosen.len(), jobs.len());
        let (placed, x, used) = brute::brute_force(&machines, &jobs);
        prop_assert_eq!(key.placed, placed);
        prop_assert!(brute::close(key.x, x), "X {} vs {x}", key.x);
        prop_assert_eq!(key.machines, used);
    }
}

proptest! {
    /// The bound used when enumeration would take too long is below the least X.
    #[test]
    fn the_quick_bound_is_a_lower_bound(
        machines in machines(),
        job in (job(), 1u32..8, 1u32..4).prop_map(|(j, workers, ps)| Job { workers, ps, ..j }),
    ) {
        let jobs = [job];
        let mut s = Search::new(&machines, &jobs, &Options::default(), None);
        prop_assume!(!s.refused[0] && jobs[0].workers > 0 && jobs[0].ps > 0);
        let most = Wanted { min_local: f64::NEG_INFINITY, improving: true };
        let least = s.distributions(0, most).first().map(|c| c.x);
        prop_assume!(!s.aborted);
        if let Some(least) = least {
            prop_assert!(s.quick_bound(0) <= least, "{} > {least}", s.quick_bound(0));
        }
    }
}

#[test]
fn the_order_is_placed_then_x_then_machines() {
    let k = |placed, x, machines| Key {
        placed,
        x,
        machines,
    };
    assert!(k(2, 9.0, 9).better(&k(1, 0.0, 0)));
    assert!(k(2, 1.0, 9).better(&k(2, 2.0, 0)));
    assert!(k(2, 1.0, 1).better(&k(2, 1.0 + 1e-12, 2)));
    assert!(!k(2, 1.0, 2).better(&k(2, 1.0, 2)));
}
