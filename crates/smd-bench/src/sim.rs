//! The simulation's speed (docs/BENCHMARKS.md §8): the bundled 8-hour workload (160 jobs)
//! on 16 × `t4x4` with 10-minute slots, every policy, natively (`cargo run --release -p
//! smd-bench --bin sim`) and in headless Chromium (`cargo test --release -p smd-bench
//! --target wasm32-unknown-unknown --test sim -- --nocapture`); and how the cost grows with
//! jobs (320 and 1000, machines scaled alike) and slots (5-minute slots).

use smd_apps::machines::{group, machine_type};
use smd_apps::trace::{parse, scenario_as, Arrival, WORKLOADS};
use smd_core::scenario::Cluster;
use smd_core::Scenario;
use smd_sim::{simulate, Options, SimPolicy};

/// One case of the benchmark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Case {
    /// Jobs (the first of the bundled full-rate workloads, concatenated).
    pub jobs: usize,
    /// `t4x4` machines.
    pub machines: usize,
    /// Slot length, s.
    pub slot_s: f64,
}

/// The headline case and the growth cases.
pub const CASES: [Case; 4] = [
    Case {
        jobs: 160,
        machines: 16,
        slot_s: 600.0,
    },
    Case {
        jobs: 160,
        machines: 16,
        slot_s: 300.0,
    },
    Case {
        jobs: 320,
        machines: 32,
        slot_s: 600.0,
    },
    Case {
        jobs: 1000,
        machines: 100,
        slot_s: 600.0,
    },
];

/// One measured run.
#[derive(Clone, Debug)]
pub struct SimRow {
    /// The case.
    pub case: Case,
    /// The policy.
    pub policy: SimPolicy,
    /// Wall time, ms.
    pub ms: f64,
    /// Slots simulated.
    pub slots: usize,
    /// Total utility.
    pub total_utility: f64,
    /// Jobs finished.
    pub finished: usize,
}

/// The case's scenario: the workloads' arrivals in turn (ids made unique, times kept: all
/// within the same 8 hours), on `machines` × `t4x4`, the trace's default parameters.
pub fn instance(case: Case) -> Scenario {
    let mut arrivals: Vec<Arrival> = Vec::new();
    for (k, (_, text)) in WORKLOADS
        .iter()
        .filter(|(n, _)| !n.ends_with("half"))
        .enumerate()
    {
        for mut a in parse(text).expect("bundled workloads parse") {
            a.name = format!("{}-w{}", a.name, k + 1);
            arrivals.push(a);
        }
        if arrivals.len() >= case.jobs {
            break;
        }
    }
    arrivals.truncate(case.jobs);
    arrivals.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    let t4 = machine_type("t4x4").expect("in the catalog");
    let cluster = Cluster::of_machines(vec![group(t4, case.machines as f64)], t4.capacity);
    let mut s = scenario_as(&arrivals, cluster, smd_core::scenario::Architecture::Ps)
        .expect("bundled workloads make scenarios");
    s.params.interval_s = Some(case.slot_s);
    s
}

/// Every policy on every case, timed with `clock` (ms).
pub fn run_sim(clock: &dyn Fn() -> f64, cases: &[Case]) -> Vec<SimRow> {
    let mut rows = Vec::new();
    for &case in cases {
        let s = instance(case);
        for policy in SimPolicy::all_for(&s) {
            let t0 = clock();
            let run = simulate(&s, policy, &mut Options::default()).expect("the runs succeed");
            rows.push(SimRow {
                case,
                policy,
                ms: clock() - t0,
                slots: run.slots.len(),
                total_utility: run.metrics.total_utility,
                finished: run.jobs.len() - run.metrics.unfinished,
            });
        }
    }
    rows
}

/// The rows as a Markdown table, the time column named `column` (e.g. "native").
pub fn sim_table(rows: &[SimRow], column: &str) -> String {
    let mut out = format!(
        "| jobs | machines | slot | policy | {column} ms | slots | finished | total utility |\n|---:|---:|---:|---|---:|---:|---:|---:|\n"
    );
    let mut last = None;
    for r in rows {
        if last != Some(r.case) && last.is_some() {
            let total: f64 = rows
                .iter()
                .filter(|x| Some(x.case) == last)
                .map(|x| x.ms)
                .sum();
            out += &format!("| | | | **all** | **{total:.0}** | | | |\n");
        }
        last = Some(r.case);
        out += &format!(
            "| {} | {} | {} min | {} | {:.1} | {} | {} | {:.1} |\n",
            r.case.jobs,
            r.case.machines,
            r.case.slot_s / 60.0,
            r.policy,
            r.ms,
            r.slots,
            r.finished,
            r.total_utility
        );
    }
    if let Some(c) = last {
        let total: f64 = rows.iter().filter(|x| x.case == c).map(|x| x.ms).sum();
        out += &format!("| | | | **all** | **{total:.0}** | | | |\n");
    }
    out
}
