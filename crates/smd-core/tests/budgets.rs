//! Budgets held on any input (docs/MODEL.md §9 and §13): with a fake clock that advances a
//! fixed step per reading, what a plan does before it stops depends on how often it reads
//! the clock, not on the machine's speed — so these tests are deterministic.

use smd_core::{generate, plan_with, GenerateOptions, Mode, Options, Plan, Policy, Scenario};
use std::cell::Cell;

/// 50 sync jobs on 2 units: global's search needs ~1.7·10^4 nodes to prove this one.
fn hard() -> Scenario {
    generate(&GenerateOptions {
        jobs: 50,
        seed: 1,
        mode: Mode::Sync,
        units: 2.0,
    })
}

/// Plans with a clock that advances `step` ms per reading and a budget of `budget` ms;
/// the plan and the clock's time at the end.
fn plan_on_fake_clock(s: &Scenario, policy: Policy, step: f64, budget: f64) -> (Plan, f64) {
    let t = Cell::new(0.0);
    let clock = || {
        t.set(t.get() + step);
        t.get()
    };
    let plan = plan_with(
        s,
        policy,
        &mut Options {
            clock: Some(&clock),
            time_budget_ms: Some(budget),
            ..Options::default()
        },
    )
    .unwrap();
    (plan, t.get())
}

#[test]
fn global_reads_its_clock_by_time_not_every_1024_nodes() {
    // One ms per reading: a search that read the clock every 1024 nodes (as it once did)
    // could not stop before node 1024, however slow its nodes; reading by time, it stops
    // within a few readings of its deadline.
    // The phases before the search read the clock a few hundred times; 600 readings leave
    // the search a few hundred (≈ 370 nodes), where it once read the clock 16 times in the
    // ~1.7·10^4 nodes of its proof and finished.
    let s = hard();
    let (plan, end) = plan_on_fake_clock(&s, Policy::Global, 1.0, 600.0);
    let a = &plan.admission;
    assert!(!a.proven_optimal, "the budget ends the search first");
    assert!(
        plan.stats.outer_nodes > 0 && plan.stats.outer_nodes < 1024,
        "{} nodes: the search should start and stop within its readings",
        plan.stats.outer_nodes
    );
    // Held within 10% + 50 ms of the fake clock, and the status is honest.
    assert!(end <= 600.0 * 1.1 + 50.0, "ended at {end} ms");
    let gap = a.gap.expect("a gap when unproven");
    assert!((0.0..1.0).contains(&gap) && a.guarantee <= 1.0, "{a:?}");
}

#[test]
fn global_within_its_budget_plans_as_without_one() {
    // A budget that is not reached changes nothing (the node limit's plan, proven).
    let s = hard();
    let (timed, _) = plan_on_fake_clock(&s, Policy::Global, 1e-6, 1e12);
    let free = plan_with(&s, Policy::Global, &mut Options::default()).unwrap();
    assert!(timed.admission.proven_optimal && free.admission.proven_optimal);
    assert_eq!(timed.total_utility, free.total_utility);
    let alloc = |p: &Plan| -> Vec<_> {
        p.jobs
            .iter()
            .map(|j| (j.admitted, j.workers, j.ps))
            .collect()
    };
    assert_eq!(alloc(&timed), alloc(&free));
}

#[test]
fn a_spent_budget_still_gives_global_a_plan_with_a_true_bound() {
    // The deadline passes while the options are built (one reading per job): the jobs
    // left get none and a relaxed bound term, and the answer is still a valid plan.
    let s = hard();
    let (plan, end) = plan_on_fake_clock(&s, Policy::Global, 1.0, 10.0);
    assert_eq!(
        plan.stats.outer_nodes, 0,
        "no search: the budget was spent before it"
    );
    let a = &plan.admission;
    assert!(!a.proven_optimal);
    assert!(end <= 10.0 * 1.1 + 50.0, "ended at {end} ms");
    assert!(a.guarantee > 0.0 && a.guarantee <= 1.0, "{a:?}");
    let (used, cap) = (
        plan.resources.used.to_array(),
        plan.resources.capacity.to_array(),
    );
    for r in 0..4 {
        assert!(used[r] <= cap[r] * (1.0 + 1e-9), "{used:?} over {cap:?}");
    }
}

// Frieze–Clarke's budget (the admission of smd, smd_locality and esw) is tested on items
// in `knapsack/tests.rs`, where an instance with many open subsets is easy to write.

#[test]
fn smd_and_smd_locality_hold_their_budget_with_algorithm_1_inside_it() {
    // Algorithm 1 costs up to milliseconds a job and once ran past any budget (smd_locality
    // on 1000 trace jobs: 1.5 s for a budget of 1 s). Past 70 % of the budget the jobs left
    // take the equal split, and the plan says how many.
    let s = generate(&GenerateOptions {
        jobs: 300,
        seed: 3,
        mode: Mode::Sync,
        units: 2.0,
    });
    for policy in [Policy::Smd, Policy::SmdLocality] {
        let (free, free_end) = plan_on_fake_clock(&s, policy, 1.0, 1e12);
        assert!(!free.admission.method.contains("budget"), "{policy}");
        let budget = free_end / 4.0;
        let (plan, end) = plan_on_fake_clock(&s, policy, 1.0, budget);
        assert!(
            end <= budget * 1.1 + 50.0,
            "{policy}: ended at {end} ms of {budget}"
        );
        let m = &plan.admission.method;
        assert!(
            m.contains("budget spent after") && m.contains("of 300 jobs' allocations"),
            "{policy}: {m}"
        );
        // Every admitted line still fits the cluster together.
        let cap = s.cluster.capacity().to_array();
        let mut used = [0.0; 4];
        for (job, line) in s.jobs.iter().zip(&plan.jobs).filter(|(_, l)| l.admitted) {
            let m = smd_core::model::JobModel::of(job, &s.cluster, s.params.time_unit_s);
            let (w, p) = line
                .workers
                .zip(line.ps)
                .expect("an admitted job's allocation");
            let d = m.demand(w as f64, p as f64);
            (0..4).for_each(|r| used[r] += d[r]);
        }
        assert!(
            (0..4).all(|r| used[r] <= cap[r] * (1.0 + 1e-9)),
            "{policy}: {used:?}"
        );
        // A budget not reached changes nothing.
        let (timed, _) = plan_on_fake_clock(&s, policy, 1e-6, 1e12);
        assert_eq!(timed.total_utility, free.total_utility, "{policy}");
    }
}
