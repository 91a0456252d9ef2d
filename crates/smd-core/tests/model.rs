//! docs/MODEL.md §1–§5 by hand: θ, T, π and μ for small jobs whose numbers are worked out in the
//! comments below (and on `common::hand_job`), not recomputed with the crate's formulas.

mod common;

use common::{close, hand_job, model, res};
use smd_core::model::{sigmoid_utility, JobModel, RELATIVE_PI_AT_11};
use smd_core::scenario::{Mode, Overlap, Resources, Utility};

fn assert_close(got: f64, want: f64, what: &str) {
    assert!(close(got, want, 1e-12), "{what}: got {got}, want {want}");
}

/// The constant and the summands of `m.split()` add back up to T.
fn assert_split_adds_up(m: &JobModel) {
    let (c, z) = m.split();
    for (w, p) in [(1.0, 1.0), (2.5, 3.25), (7.0, 1.5)] {
        assert_close(
            c + z.iter().map(|r| r.eval(w, p)).sum::<f64>(),
            m.t(w, p),
            "split",
        );
    }
}

#[test]
fn sync_sequential_by_hand() {
    // τ = 2G/B = 0.2 s; sequential: η = (1, 1, 1).
    // θ1 = Eβ1 = 350, θ2 = Eβ2 = 0.5, θ3 = E·t_b = 20, θ4 = 2E·G/B = 20,
    // θ5 = E·K·t_f = 100·40·0.04 = 160.
    let m = model(&hand_job(Mode::Sync, Overlap::Sequential, 0.3));
    assert_eq!((m.eta.eta1, m.eta.eta2, m.eta.eta3), (1.0, 1.0, 1.0));
    for (i, want) in [350.0, 0.5, 20.0, 20.0, 160.0].into_iter().enumerate() {
        assert_close(m.theta[i], want, &format!("θ{}", i + 1));
    }
    // T(1,1) = 350 + 0.5 + 20 + 20 + 160 = 550.5
    assert_close(m.t(1.0, 1.0), 550.5, "T(1,1)");
    assert_close(m.t11, 550.5, "t11");
    // T(2,3) = 700 + 1.5 + 20 + 40/3 + 80 = 814.8333…
    assert_close(m.t(2.0, 3.0), 801.5 + 40.0 / 3.0, "T(2,3)");
    // T(1,4) = 350 + 2 + 20 + 5 + 160 = 537
    assert_close(m.t(1.0, 4.0), 537.0, "T(1,4)");
    assert_split_adds_up(&m);
}

#[test]
fn sync_wfbp_and_pipelined_by_hand() {
    // r scaled to τ = 0.2: (0.05, 0.15). Forward ends at 0.4; backward of layer 2 ends at
    // 0.55, of layer 1 at 0.6. Sends: layer 2 [0.55, 0.70], layer 1 [max(0.6,0.7), 0.75].
    // T = 0.75; C = 0.2 < 0.6: η1 = η2 = 1, η3 = (0.75 − 0.6)/0.2 = 0.75; θ4 = 20·0.75 = 15.
    let m = model(&hand_job(Mode::Sync, Overlap::Wfbp, 0.3));
    assert_eq!((m.eta.eta1, m.eta.eta2), (1.0, 1.0));
    assert_close(m.eta.eta3, 0.75, "η3 wfbp");
    for (i, want) in [350.0, 0.5, 20.0, 15.0, 160.0].into_iter().enumerate() {
        assert_close(m.theta[i], want, &format!("wfbp θ{}", i + 1));
    }
    assert_close(m.t(1.0, 1.0), 545.5, "wfbp T(1,1)");
    // Pipelined: T = max(0.6, 0.2) = 0.6 → η3 = 0 exactly, θ4 = 0.
    let m = model(&hand_job(Mode::Sync, Overlap::Pipelined, 0.3));
    assert_eq!((m.eta.eta1, m.eta.eta2, m.eta.eta3), (1.0, 1.0, 0.0));
    assert_eq!(m.theta[3], 0.0);
    // T(4, 2) = 1400 + 1 + 20 + 0 + 40 = 1461
    assert_close(m.t(4.0, 2.0), 1461.0, "pipelined T(4,2)");
}

#[test]
fn async_by_hand() {
    // α = 0.5: τ = 2·0.5·1/10 = 0.1. Sequential:
    // θ'1 = 350, θ'2 = 0.5, θ'3 = E(m·t_f + t_b) = 100·(0.4 + 0.2) = 60, θ'4 = 2Eα·G/B = 10.
    let m = model(&hand_job(Mode::Async, Overlap::Sequential, 0.5));
    for (i, want) in [350.0, 0.5, 60.0, 10.0].into_iter().enumerate() {
        assert_close(m.theta[i], want, &format!("θ'{}", i + 1));
    }
    // T(1,1) = 350 + 0.5 + 60 + 10 = 420.5; T(4,2) = 350 + 0.25 + 15 + 5 = 370.25
    assert_close(m.t(1.0, 1.0), 420.5, "async T(1,1)");
    assert_close(m.t(4.0, 2.0), 370.25, "async T(4,2)");
    // WFBP: r = (0.025, 0.075); sends: layer 2 [0.55, 0.625], layer 1 [0.625, 0.65];
    // T = 0.65, η3 = (0.65 − 0.6)/0.1 = 0.5, θ'4 = 10·0.5 = 5.
    let m = model(&hand_job(Mode::Async, Overlap::Wfbp, 0.5));
    assert_close(m.eta.eta3, 0.5, "async η3 wfbp");
    assert_close(m.theta[3], 5.0, "async wfbp θ'4");
    assert_close(m.t(1.0, 1.0), 415.5, "async wfbp T(1,1)");
    assert_split_adds_up(&m);
}

#[test]
fn comm_bound_by_hand() {
    // g = 1250 MB → G = 10 Gbit, B = 10: τ = 2 s ≥ F + Bk = 0.6: communication-bound.
    // WFBP, r = (0.5, 1.5): layer 2 sends [0.55, 2.05], layer 1 [2.05, 2.55]. T = 2.55,
    // η3 = 1, η1 = η2 = (2.55 − 2)/0.6 = 11/12. θ3 = E·η2·t_b = 100·(11/12)·0.2,
    // θ4 = 2E·G/B = 200, θ5 = (11/12)·160.
    let mut job = hand_job(Mode::Sync, Overlap::Wfbp, 0.0);
    job.model_size_mb = 1250.0;
    let m = model(&job);
    assert_eq!(m.eta.eta3, 1.0);
    assert_close(m.eta.eta1, 11.0 / 12.0, "η1");
    assert_close(m.eta.eta2, 11.0 / 12.0, "η2");
    assert_close(m.theta[2], 20.0 * 11.0 / 12.0, "θ3");
    assert_close(m.theta[3], 200.0, "θ4");
    assert_close(m.theta[4], 160.0 * 11.0 / 12.0, "θ5");
}

#[test]
fn omega_by_hand() {
    // L = 2 · (4 GPU, 36 vCPU, 60 GB, 100 GB) = (8, 72, 120, 200).
    let m = model(&hand_job(Mode::Sync, Overlap::Sequential, 0.0));
    assert_eq!(m.limit, res(8.0, 72.0, 120.0, 200.0));
    assert!(m.feasible());
    // GPU: w ≤ 8. vCPU: 4w + 2p ≤ 72. Memory: 8w + 4p ≤ 120. Storage: 5w + 5p ≤ 200.
    assert!(m.omega.contains(8.0, 14.0)); // memory 64 + 56 = 120
    assert!(!m.omega.contains(8.0, 14.5));
    assert!(!m.omega.contains(8.5, 1.0));
    assert!(m.omega.contains(1.0, 28.0)); // memory 8 + 112 = 120
    assert!(!m.omega.contains(1.0, 28.1));
    assert!(!m.omega.contains(0.5, 1.0));
    assert!(!m.omega.contains(1.0, 0.5));
    assert_eq!(m.demand(2.0, 3.0), [2.0, 14.0, 28.0, 25.0]);
}

#[test]
fn relative_unit_gives_sixteen_at_one_one() {
    for mode in [Mode::Sync, Mode::Async] {
        for overlap in [Overlap::Sequential, Overlap::Wfbp, Overlap::Pipelined] {
            let m = model(&hand_job(mode, overlap, 0.7));
            assert_eq!(m.pi(m.t(1.0, 1.0)), 16.0);
            assert_eq!(RELATIVE_PI_AT_11, 16.0);
            // π is proportional to T.
            assert_close(m.pi(m.t11 / 4.0), 4.0, "π of a quarter of T(1,1)");
            // γ = (10, 5, 4): μ(16) = 10/(1 + e^60).
            assert_close(
                m.utility_at(1.0, 1.0),
                10.0 / (1.0 + 60f64.exp()),
                "μ at (1,1)",
            );
        }
    }
    // Generated jobs too, whatever their T(1,1).
    for i in 0..50 {
        let m = common::generated(3, i, if i % 2 == 0 { Mode::Sync } else { Mode::Async });
        assert_eq!(m.pi(m.t(1.0, 1.0)), 16.0, "job {i}");
    }
    // Absolute unit: π = T / unit.
    let m = JobModel::new(
        &hand_job(Mode::Sync, Overlap::Sequential, 0.0),
        &Resources::DEFAULT_INSTANCE,
        Some(100.0),
    );
    assert_close(m.pi(m.t(1.0, 1.0)), 5.505, "absolute π");
}

#[test]
fn mu_by_hand() {
    let g = [10.0, 5.0, 4.0];
    assert_close(sigmoid_utility(g, 4.0), 5.0, "μ(γ3) = γ1/2");
    assert_close(sigmoid_utility(g, 5.0), 10.0 / (1.0 + 5f64.exp()), "μ(5)");
    assert_close(
        sigmoid_utility(g, 3.0),
        10.0 / (1.0 + (-5f64).exp()),
        "μ(3)",
    );
}

#[test]
fn mu_never_overflows_and_is_non_increasing() {
    let gammas = [
        [10.0, 5.0, 4.0],
        [100.0, 6.0, 15.0],
        [1.0, 4.0, 1.0],
        [50.0, 1e300, 8.0],
        [50.0, f64::MAX, 8.0],
        [3.0, 1e-300, 2.0],
    ];
    let mut pis = vec![-1e6, -1e3, -1.0, 0.0, 1e-9, 1.0, 3.999_999, 16.0, 1e3, 1e6];
    for k in -400..=400 {
        pis.push(k as f64 * 0.05);
    }
    pis.sort_by(f64::total_cmp);
    for g in gammas {
        let mut prev = f64::INFINITY;
        for &pi in &pis {
            let u = sigmoid_utility(g, pi);
            assert!(u.is_finite(), "γ = {g:?}, π = {pi}: μ = {u}");
            assert!((0.0..=g[0]).contains(&u), "γ = {g:?}, π = {pi}: μ = {u}");
            assert!(u <= prev, "γ = {g:?}: μ rises at π = {pi}: {prev} → {u}");
            prev = u;
        }
        if g[1] >= 1.0 {
            assert_close(sigmoid_utility(g, -1e6), g[0], "μ(−1e6)");
            assert!(sigmoid_utility(g, 1e6) <= g[0] * 1e-300, "μ(1e6) for {g:?}");
        }
    }
    // Through JobModel with γ2 huge.
    let mut job = hand_job(Mode::Sync, Overlap::Sequential, 0.0);
    job.utility = Utility {
        gamma1: 7.0,
        gamma2: 1e308,
        gamma3: 15.0,
    };
    let m = model(&job);
    for pi in [-1e6, 14.0, 16.0, 1e6] {
        let u = m.mu(pi);
        assert!(
            u.is_finite() && (0.0..=7.0).contains(&u),
            "π = {pi}: μ = {u}"
        );
    }
    assert_eq!(m.mu(-1e6), 7.0);
    assert_eq!(m.mu(1e6), 0.0);
}
