//! The reference simulator's fixed-batch policies on hand-made cases (POLLUX-SIM.md §4.1,
//! §4.2): the times below are worked out from the specification's rules by hand.

use smd_apps::app::App;
use smd_apps::machines;
use smd_apps::preset::{self, MeasuredOptions};
use smd_core::allreduce::Progress;
use smd_core::model::JobModel;
use smd_core::scenario::{Job, Scenario};
use smd_sim::{simulate, JobRun, Options, Run, SimPolicy};

/// A measured job of `app` at total batch `batch`, arriving at `at` s, asking `gpus`.
fn job(id: &str, app: App, batch: f64, at: f64, gpus: f64) -> Job {
    let mut j = preset::measured(
        app,
        &MeasuredOptions {
            id: Some(id.into()),
            batch_size: Some(batch),
            max_workers: None,
        },
    )
    .unwrap();
    j.arrival_s = Some(at);
    j.requested_workers = Some(gpus);
    j
}

/// `jobs` on `machines` × t4x4 with the reference's time (60 s ticks, 30 s restarts).
fn scenario(machines: f64, jobs: Vec<Job>) -> Scenario {
    let t4 = machines::machine_type("t4x4").unwrap();
    let s = Scenario {
        version: 2,
        cluster: machines::cluster(t4, machines, t4.capacity),
        params: Default::default(),
        jobs,
    };
    s.validate().unwrap();
    assert_eq!(s.interval_s(), 60.0);
    s
}

fn run_of<'a>(run: &'a Run, id: &str) -> &'a JobRun {
    run.jobs.iter().find(|j| j.id == id).unwrap()
}

/// Tiresias on one machine of 4 GPUs (§4.2). A (imagenet, 3 GPUs) arrives at 0, B
/// (cifar10, 2 GPUs) and C (ncf, 1 GPU) at 610.
/// - Tick 60: A starts (running from 90, after its 30 s restart).
/// - Tick 660: Q0 = [A, B, C]; A keeps its 3, B's 2 do not fit the 1 left, C's 1 does:
///   C is backfilled past B and starts at 690.
/// - A's attained service counts from tick 60, restart included: 3 · (t − 60) reaches
///   16 GPU-hours (57 600 GPU-s) at t = 19 260, where A moves to Q1. B, still in Q0, comes
///   first: it gets 2 GPUs, A's 3 no longer fit and A is preempted at 19 260; B starts at
///   19 290.
/// - A resumes (a restart) when B has finished.
#[test]
fn tiresias_backfills_demotes_and_preempts() {
    let s = scenario(
        1.0,
        vec![
            job("A", App::Imagenet, 1200.0, 0.0, 3.0),
            job("B", App::Cifar10, 512.0, 610.0, 2.0),
            job("C", App::Ncf, 32768.0, 610.0, 1.0),
        ],
    );
    let run = simulate(&s, SimPolicy::Tiresias, &mut Options::default()).unwrap();
    assert_eq!(run.metrics.unfinished, 0);
    let (a, b, c) = (run_of(&run, "A"), run_of(&run, "B"), run_of(&run, "C"));
    assert_eq!(a.segments[0].start_s, 90.0);
    assert_eq!(a.segments[0].workers, 3);
    assert_eq!(c.first_start_s, Some(690.0), "C is backfilled");
    assert!(c.completion_s.unwrap() < 19_260.0);
    assert_eq!(a.segments[0].end_s, 19_260.0, "A is preempted when demoted");
    assert_eq!(b.first_start_s, Some(19_290.0));
    assert_eq!(b.segments[0].workers, 2);
    // A's next segment starts after B's end (the next tick, plus its restart).
    let b_end = b.completion_s.unwrap();
    let resume = a.segments[1].start_s;
    assert!(resume > b_end && resume <= (b_end / 60.0).ceil() * 60.0 + 30.0 + 1e-9);
    assert_eq!(a.restarts, 1);
    // Gang scheduling: every segment has exactly the requested GPUs.
    for (j, want) in [(a, 3), (b, 2), (c, 1)] {
        assert!(j.segments.iter().all(|g| g.workers == want), "{}", j.id);
    }
}

/// Optimus+Oracle at its first decision (§4.1), re-derived here from the specification:
/// on one machine of 4 GPUs, two jobs arriving at 0 get 1 GPU each in arrival order, then
/// each further GPU goes to the larger gain (T(r) − T(r+1)) · remaining, T the oracle's
/// predicted step on r GPUs packed, remaining the exact iterations left.
#[test]
fn optimus_oracle_gives_gpus_by_marginal_gain_on_the_exact_remaining_work() {
    let s = scenario(
        1.0,
        vec![
            job("bert", App::Bert, 64.0, 0.0, 1.0),
            job("cifar", App::Cifar10, 2048.0, 0.0, 1.0),
        ],
    );
    let curves: Vec<_> = s
        .jobs
        .iter()
        .map(|j| JobModel::of(j, &s.cluster, None).measured.unwrap())
        .collect();
    let start = Progress::default();
    let mut r = [1u32, 1];
    let gain = |k: usize, r: u32| {
        if r + 1 > curves[k].cap {
            0.0
        } else {
            (curves[k].oracle_iteration(r) - curves[k].oracle_iteration(r + 1))
                * curves[k].oracle_remaining(&start)
        }
    };
    for _ in 0..2 {
        let (g0, g1) = (gain(0, r[0]), gain(1, r[1]));
        if g0 <= 0.0 && g1 <= 0.0 {
            break;
        }
        if g0 >= g1 {
            r[0] += 1;
        } else {
            r[1] += 1;
        }
    }
    let run = simulate(&s, SimPolicy::OptimusOracle, &mut Options::default()).unwrap();
    for (k, id) in ["bert", "cifar"].into_iter().enumerate() {
        let first = &run_of(&run, id).segments[0];
        assert_eq!(first.start_s, 90.0, "{id}");
        assert_eq!(first.workers, u64::from(r[k]), "{id}: want {r:?}");
    }
    assert!(r.iter().sum::<u32>() >= 3, "a gain was positive: {r:?}");
}
