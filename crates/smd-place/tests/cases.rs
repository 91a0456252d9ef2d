//! Hand-computed cases: ρ and X of known layouts, what each policy does on small clusters,
//! the reasons of jobs that do not fit, hostile inputs, and the policies' names.

mod common;

use common::*;
use smd_core::scenario::Mode;
use smd_core::Error;
use smd_place::{place, Job, Machine, Options, Outcome, Placement, Policy, Share};

fn shares(pl: &Placement, job: usize) -> Vec<(usize, u32, u32)> {
    match &pl.jobs[job] {
        Outcome::Placed(p) => p
            .shares
            .iter()
            .map(|s| (s.machine, s.workers, s.ps))
            .collect(),
        Outcome::NotPlaced(why) => panic!("job {job} not placed: {why}"),
    }
}

fn reason(pl: &Placement, job: usize) -> &str {
    match &pl.jobs[job] {
        Outcome::NotPlaced(why) => why,
        Outcome::Placed(p) => panic!("job {job} placed: {p:?}"),
    }
}

fn nodes(n: usize, gpu: f64) -> Vec<Machine> {
    (0..n)
        .map(|i| machine(&format!("n-{i}"), res(gpu, 16.0, 64.0, 100.0)))
        .collect()
}

const WORKER: (f64, f64, f64, f64) = (1.0, 2.0, 8.0, 1.0);
const PS: (f64, f64, f64, f64) = (0.0, 2.0, 8.0, 1.0);

fn task(d: (f64, f64, f64, f64)) -> smd_core::scenario::Resources {
    res(d.0, d.1, d.2, d.3)
}

fn plain(id: &str, w: u32, p: u32) -> Job {
    job(id, w, p, task(WORKER), task(PS))
}

/// first_fit on two 3-GPU machines with local rate 40 Gbps: the 2 PSs and 3 workers fill
/// machine 0, the 4th worker goes to machine 1. Shares (3, 2) and (1, 0).
/// X = (2G/p)(w·p − Σ w_h·p_h) = (2·0.8/2)(8 − 6) = 1.6.
/// β = B / local = 10/40 = 0.25. Sync: only machine 0 has PSs: ((4 − 3) + 0.25·3)/4 = 0.4375.
/// Async: machine 0's workers ((2 − 2) + 0.25·2)/2 = 0.25, machine 1's (2 − 0)/2 = 1: ρ = 1.
#[test]
fn rho_and_x_of_a_split_job() {
    let mut machines = nodes(2, 3.0);
    for m in &mut machines {
        m.local_gbps = Some(40.0);
    }
    let mut j = plain("a", 4, 2);
    j.gradient_gbit = 0.8;
    for (mode, rho) in [(Mode::Sync, 0.4375), (Mode::Async, 1.0)] {
        j.mode = mode;
        let pl = place(
            &machines,
            &[j.clone()],
            Policy::FirstFit,
            &Options::default(),
        )
        .unwrap();
        check(&machines, &[j.clone()], &pl);
        assert_eq!(shares(&pl, 0), vec![(0, 3, 2), (1, 1, 0)]);
        let p = pl.jobs[0].placed().unwrap();
        assert!((p.cross_traffic_gbit - 1.6).abs() < 1e-12);
        assert_eq!(p.locality_factor, rho, "{mode:?}");
        assert_eq!(pl.machines_used, 2);
    }
}

/// Machines with different local rates: each machine's own β (docs/PLACEMENT.md §4).
/// Machine 0: 3 GPUs, 8 vCPUs, local 40 Gbps (β = 0.25); machine 1: 3 GPUs, 16 vCPUs, local
/// 20 Gbps (β = 0.5). 4 workers (1 GPU, 1 vCPU) and 2 PSs (4 vCPUs). The least X puts 3
/// workers and both PSs on machine 1 (3 + 8 = 11 vCPUs) and 1 worker on machine 0:
/// Σ w_h·p_h = 6, X = (2·1/2)(8 − 6) = 2. Sync: only machine 1 has PSs:
/// ρ = ((4 − 3) + 0.5·3)/4 = 0.625 (with machine 0's β it would be 0.4375).
#[test]
fn rho_with_a_local_rate_per_machine() {
    let mut machines = vec![
        machine("a-0", res(3.0, 8.0, 64.0, 100.0)),
        machine("b-0", res(3.0, 16.0, 64.0, 100.0)),
    ];
    machines[0].local_gbps = Some(40.0);
    machines[1].local_gbps = Some(20.0);
    let j = job("a", 4, 2, res(1.0, 1.0, 1.0, 1.0), res(0.0, 4.0, 1.0, 1.0));
    let jobs = [j];
    let pl = place(&machines, &jobs, Policy::Exact, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    assert_eq!(shares(&pl, 0), vec![(0, 1, 0), (1, 3, 2)]);
    let p = pl.jobs[0].placed().unwrap();
    assert_eq!(p.cross_traffic_gbit, 2.0);
    assert_eq!(p.locality_factor, 0.625);
    // A layout with PSs on both: machine 0 (1 + 0.75)/4 = 0.4375, machine 1 (3 + 0.5)/4.
    let f = [(3.0, 1.0), (1.0, 1.0)];
    assert_eq!(
        smd_place::locality_factor(Mode::Sync, &f, &[0.25, 0.5]),
        0.875
    );
}

/// PSs on a GPU-less machine, workers on a GPU machine: no worker shares a machine with a
/// PS, so ρ = 1 for every mode, and X = (2G/p)·w·p = 2·1·2 = 4.
#[test]
fn apart_is_rho_one() {
    let machines = vec![
        machine("cpu-0", res(0.0, 16.0, 64.0, 100.0)),
        machine("gpu-0", res(4.0, 2.0, 64.0, 100.0)),
    ];
    for mode in [Mode::Sync, Mode::Async] {
        let mut j = plain("a", 2, 1);
        j.mode = mode;
        j.worker_demand = res(1.0, 1.0, 8.0, 1.0);
        let jobs = vec![j];
        for policy in Policy::ALL {
            let pl = place(&machines, &jobs, policy, &Options::default()).unwrap();
            check(&machines, &jobs, &pl);
            assert_eq!(shares(&pl, 0), vec![(0, 0, 1), (1, 2, 0)], "{policy}");
            let p = pl.jobs[0].placed().unwrap();
            assert_eq!(p.locality_factor, 1.0);
            assert_eq!(p.cross_traffic_gbit, 4.0);
        }
    }
}

#[test]
fn first_fit_fills_machines_in_order() {
    let machines = nodes(3, 4.0);
    let jobs = vec![plain("a", 3, 1), plain("b", 3, 1), plain("c", 1, 1)];
    let pl = place(&machines, &jobs, Policy::FirstFit, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    assert_eq!(shares(&pl, 0), vec![(0, 3, 1)]);
    // b's PS fits on machine 0 (vCPU 8 + 2 of 16), 1 worker too (4 GPUs), the rest on 1.
    assert_eq!(shares(&pl, 1), vec![(0, 1, 1), (1, 2, 0)]);
    assert_eq!(shares(&pl, 2), vec![(0, 0, 1), (1, 1, 0)]);
}

#[test]
fn spread_goes_to_the_emptiest_machine() {
    let machines = nodes(4, 4.0);
    let jobs = vec![plain("a", 4, 0)];
    let pl = place(&machines, &jobs, Policy::Spread, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    assert_eq!(
        shares(&pl, 0),
        vec![(0, 1, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0)]
    );
}

/// dltap: the PS goes to the freest machine (machine 1: machine 0 is half used), then the
/// workers follow it (a = 1 there) while they fit: 3 workers beside the PS, 1 elsewhere.
#[test]
fn dltap_gathers_workers_at_their_ps() {
    let machines = nodes(3, 4.0);
    let jobs = vec![plain("x", 2, 0), plain("a", 4, 1)];
    let pl = place(&machines, &jobs, Policy::Dltap, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    let s = shares(&pl, 1);
    assert!(s.contains(&(1, 4, 1)) || s.contains(&(2, 4, 1)), "{s:?}");
    // λ = 0: nothing but free room — spread's choice.
    let opts = Options {
        dltap_lambda: 0.0,
        ..Options::default()
    };
    let d0 = place(&machines, &jobs, Policy::Dltap, &opts).unwrap();
    let sp = place(&machines, &jobs, Policy::Spread, &opts).unwrap();
    assert_eq!(d0.jobs, sp.jobs);
}

/// locality: co-located on the tightest machine that holds the whole job.
#[test]
fn locality_co_locates_by_best_fit() {
    let machines = vec![
        machine("big-0", res(8.0, 32.0, 128.0, 100.0)),
        machine("small-0", res(4.0, 16.0, 64.0, 100.0)),
        machine("big-1", res(8.0, 32.0, 128.0, 100.0)),
    ];
    let jobs = vec![plain("a", 3, 1), plain("b", 6, 2)];
    let pl = place(&machines, &jobs, Policy::Locality, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    assert_eq!(shares(&pl, 0), vec![(1, 3, 1)]);
    assert_eq!(shares(&pl, 1), vec![(0, 6, 2)]);
    let p = pl.jobs[1].placed().unwrap();
    assert_eq!((p.cross_traffic_gbit, p.locality_factor), (0.0, 0.0));
}

/// locality: too big for one machine: spread evenly, PSs in proportion to workers.
/// 8 workers and 2 PSs on 4-GPU machines: stream P W W W W P W W W W; machine 0 takes
/// P W W W W (the second PS would come without a worker), machine 1 the rest.
#[test]
fn locality_spreads_evenly_when_no_machine_holds_the_job() {
    let machines = nodes(3, 4.0);
    let jobs = vec![plain("a", 8, 2)];
    let pl = place(&machines, &jobs, Policy::Locality, &Options::default()).unwrap();
    check(&machines, &jobs, &pl);
    assert_eq!(shares(&pl, 0), vec![(0, 4, 1), (1, 4, 1)]);
    // first_fit puts both PSs on machine 0 with 4 workers: the same X here, but an async
    // job's worker link on machine 1 is fully remote.
    let ff = place(&machines, &jobs, Policy::FirstFit, &Options::default()).unwrap();
    assert_eq!(shares(&ff, 0), vec![(0, 4, 2), (1, 4, 0)]);
}

#[test]
fn a_worker_larger_than_any_machine() {
    let machines = nodes(2, 4.0);
    let jobs = vec![job("a", 1, 1, res(8.0, 1.0, 1.0, 1.0), task(PS))];
    for policy in Policy::ALL {
        let pl = place(&machines, &jobs, policy, &Options::default()).unwrap();
        let why = reason(&pl, 0);
        assert!(why.contains("a worker needs 8 GPU"), "{policy}: {why}");
        assert!(why.contains("the most is 4"), "{why}");
        assert_eq!(pl.machines_used, 0);
    }
}

#[test]
fn a_ps_beyond_every_nic() {
    let mut machines = nodes(2, 4.0);
    for m in &mut machines {
        m.nic_gbps = Some(10.0);
    }
    let mut j = plain("a", 1, 1);
    j.bandwidth_gbps = 20.0;
    let pl = place(&machines, &[j], Policy::Spread, &Options::default()).unwrap();
    let why = reason(&pl, 0);
    assert!(why.contains("a PS needs 20 Gbps NIC bandwidth"), "{why}");
}

#[test]
fn more_than_the_cluster_has() {
    let machines = nodes(3, 4.0);
    let jobs = vec![plain("a", 16, 1)];
    let pl = place(&machines, &jobs, Policy::Locality, &Options::default()).unwrap();
    let why = reason(&pl, 0);
    assert!(why.contains("16 workers and 1 PS need 16 GPU"), "{why}");
    assert!(why.contains("the 12 free"), "{why}");
}

/// Fragmentation: 2 GPUs free in all, 1 on each machine; a 2-GPU worker fits nowhere.
#[test]
fn fragmentation_names_the_task_and_the_resource() {
    let machines = nodes(2, 4.0);
    let jobs = vec![
        job("a", 2, 0, res(3.0, 1.0, 1.0, 1.0), task(PS)),
        job("b", 1, 1, res(2.0, 1.0, 1.0, 1.0), task(PS)),
    ];
    for policy in Policy::ALL {
        let pl = place(&machines, &jobs, policy, &Options::default()).unwrap();
        check(&machines, &jobs, &pl);
        assert_eq!(pl.placed(), 1, "{policy}");
        if policy == Policy::Exact {
            // Either job alone: b is on fewer machines (1 against 2), so exact keeps b.
            let why = reason(&pl, 0);
            assert!(
                why.contains("exact places 1 of 2 jobs (the most possible)"),
                "{why}"
            );
        } else {
            let why = reason(&pl, 1);
            assert!(
                why.contains("no machine has room for worker 1 of 1"),
                "{policy}: {why}"
            );
            assert!(why.contains("2 GPU"), "{why}");
            assert!(why.contains("short of GPU on 2 machines"), "{why}");
        }
    }
}

#[test]
fn no_machines() {
    let jobs = vec![plain("a", 1, 1), plain("empty", 0, 0)];
    for policy in Policy::ALL {
        let pl = place(&[], &jobs, policy, &Options::default()).unwrap();
        assert_eq!(reason(&pl, 0), "there are no machines");
        // A job with no tasks is placed anywhere, even on nothing.
        assert_eq!(pl.jobs[1].placed().unwrap().shares, Vec::<Share>::new());
        assert_eq!(pl.jobs[1].placed().unwrap().locality_factor, 1.0);
        assert_eq!(pl.machines_used, 0);
        assert!(pl.used.is_empty());
        let none = place(&[], &[], policy, &Options::default()).unwrap();
        assert!(none.jobs.is_empty());
    }
}

#[test]
fn zero_capacity_and_zero_demand() {
    let machines = vec![
        machine("void-0", res(0.0, 0.0, 0.0, 0.0)),
        machine("void-1", res(0.0, 0.0, 0.0, 0.0)),
    ];
    let free = res(0.0, 0.0, 0.0, 0.0);
    let jobs = vec![job("ghost", 3, 2, free, free), plain("real", 1, 1)];
    for policy in Policy::ALL {
        let pl = place(&machines, &jobs, policy, &Options::default()).unwrap();
        check(&machines, &jobs, &pl);
        assert!(pl.jobs[0].placed().is_some(), "{policy}");
        assert!(
            reason(&pl, 1).contains("more than any machine has"),
            "{policy}"
        );
    }
}

/// Huge counts are refused quickly, never looped over.
#[test]
fn huge_counts() {
    let machines = nodes(4, 4.0);
    let free = res(0.0, 0.0, 0.0, 0.0);
    let jobs = vec![
        plain("huge", u32::MAX, u32::MAX),
        job("weightless", u32::MAX, u32::MAX, free, free),
        plain("ok", 2, 1),
    ];
    for policy in Policy::ALL {
        let pl = place(&machines, &jobs, policy, &Options::default()).unwrap();
        check(&machines, &jobs, &pl);
        assert!(
            reason(&pl, 0).contains("need 4.294967295e9 GPU"),
            "{}",
            reason(&pl, 0)
        );
        assert!(
            reason(&pl, 1).contains("exceed the placement limit"),
            "{}",
            reason(&pl, 1)
        );
        assert!(pl.jobs[2].placed().is_some());
    }
}

#[test]
fn invalid_numbers_name_their_field() {
    let mut machines = nodes(2, 4.0);
    machines[1].capacity.vcpu = f64::NAN;
    machines[0].local_gbps = Some(0.0);
    machines[0].capacity.gpu = f64::MAX;
    let mut j = plain("a", 1, 1);
    j.ps_demand.memory_gb = -1.0;
    j.bandwidth_gbps = f64::INFINITY;
    let opts = Options {
        dltap_lambda: 1.5,
        ..Options::default()
    };
    let Err(Error::Invalid(errors)) = place(&machines, &[j], Policy::Dltap, &opts) else {
        panic!("invalid input is an error");
    };
    let fields: Vec<(Option<&str>, &str)> = errors
        .iter()
        .map(|e| (e.job.as_deref(), e.field.as_str()))
        .collect();
    assert_eq!(
        fields,
        vec![
            (None, "machines[0].capacity.gpu"),
            (None, "machines[0].local_gbps"),
            (None, "machines[1].capacity.vcpu"),
            (Some("a"), "ps_demand.memory_gb"),
            (Some("a"), "bandwidth_gbps"),
            (None, "options.dltap_lambda"),
        ]
    );
}

#[test]
fn policy_names() {
    for (p, n) in Policy::ALL.iter().zip(Policy::NAMES) {
        assert_eq!(p.to_string(), n);
        assert_eq!(n.parse::<Policy>().unwrap(), *p);
        assert_eq!(serde_json::to_string(p).unwrap(), format!("\"{n}\""));
    }
    let err = "best".parse::<Policy>().unwrap_err();
    assert!(
        err.contains("first_fit, spread, dltap, locality, exact"),
        "{err}"
    );
}

#[test]
fn the_answer_serialises() {
    let machines = nodes(2, 4.0);
    let jobs = vec![plain("a", 2, 1), plain("b", 9, 1)];
    let pl = place(&machines, &jobs, Policy::Locality, &Options::default()).unwrap();
    let json = serde_json::to_value(&pl).unwrap();
    assert_eq!(json["jobs"][0]["placed"]["shares"][0]["workers"], 2);
    assert!(json["jobs"][1]["not_placed"]
        .as_str()
        .unwrap()
        .starts_with("its 9 workers"));
    assert_eq!(json["proven"], serde_json::Value::Null);
}
