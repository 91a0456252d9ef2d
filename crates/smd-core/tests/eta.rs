//! docs/MODEL.md §2 against an independent simulation of one iteration.
//!
//! The reference below does not call `smd_core::eta::simulate`: it runs its own small
//! discrete-event loops (a compute device and one link), and for the pipelined model it
//! simulates many consecutive iterations and measures the steady-state period, so it checks
//! the formula `T = max(F + Bk, C)` rather than restating it.

mod common;

use common::{close, hand_job, model};
use smd_core::eta::{eta, simulate, Eta};
use smd_core::rng::Stream;
use smd_core::scenario::{Layer, Mode, Overlap};

const OVERLAPS: [Overlap; 3] = [Overlap::Sequential, Overlap::Wfbp, Overlap::Pipelined];

/// The reference's own numbers for one iteration, seconds.
#[derive(Debug)]
struct Reference {
    f: f64,
    bk: f64,
    c: f64,
    /// (start, end) of each layer's send, indexed by layer (only for WFBP and sequential).
    sends: Vec<(f64, f64)>,
    t: f64,
}

/// Per-layer communication times: the profile's shape scaled to sum to `tau`.
fn comm_times(layers: &[Layer], tau: f64) -> Vec<f64> {
    let mut raw = 0.0;
    for l in layers {
        raw += l.comm_ms;
    }
    let mut out = Vec::new();
    for l in layers {
        if raw == 0.0 {
            out.push(tau / layers.len() as f64);
        } else {
            out.push(l.comm_ms / raw * tau);
        }
    }
    out
}

/// Event loop of one iteration: a compute device (forward 1→N, backward N→1) and one link
/// that serves gradients first-come first-served, each as soon as its backward has ended.
/// `wait_for_compute`: the sequential model only opens the link after the whole backward.
fn event_loop(layers: &[Layer], tau: f64, wait_for_compute: bool) -> Reference {
    let n = layers.len();
    let r = comm_times(layers, tau);
    let mut now = 0.0;
    for l in layers {
        now += l.forward_ms * 1e-3;
    }
    let f = now;
    // Backward completion events, in order N→1.
    let mut back_done = Vec::with_capacity(n);
    let mut clock = f;
    for j in (0..n).rev() {
        clock += layers[j].backward_ms * 1e-3;
        back_done.push((j, clock));
    }
    let compute_end = clock;
    let bk = compute_end - f;
    let c: f64 = r.iter().sum();

    let mut sends = vec![(f64::NAN, f64::NAN); n];
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut next_back = 0; // index into back_done
    let mut link_busy: Option<(usize, f64)> = None; // (layer, finishes at)
    let mut last = compute_end;
    loop {
        // Next event: a backward completion or the link finishing, whichever is first
        // (completions first on ties, so a gradient ready at that instant is queued).
        let tb = back_done.get(next_back).map(|&(_, t)| t);
        let tl = link_busy.map(|(_, t)| t);
        let take_back = match (tb, tl) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(a), Some(b)) => a <= b,
        };
        if take_back {
            let (j, t) = back_done[next_back];
            next_back += 1;
            now = t;
            queue.push_back(j);
        } else {
            let (_, t) = link_busy.take().unwrap();
            now = t;
            last = last.max(t);
        }
        let link_may_start = !wait_for_compute || next_back == n;
        if link_busy.is_none() && link_may_start {
            if let Some(j) = queue.pop_front() {
                sends[j] = (now, now + r[j]);
                link_busy = Some((j, now + r[j]));
            }
        }
    }
    Reference {
        f,
        bk,
        c,
        sends,
        t: last,
    }
}

/// Pipelined: iteration k+1's compute overlaps iteration k's communication. Iteration k+1
/// may start computing once iteration k's compute is done and iteration k−1's gradients are
/// through (one step of staleness); iteration k's communication starts when its compute has
/// ended and the link is free. The per-iteration time is the steady-state period.
fn pipelined(layers: &[Layer], tau: f64) -> Reference {
    let base = event_loop(layers, tau, true);
    let (work, c) = (base.f + base.bk, base.c);
    let iters = 400;
    let mut compute_end = Vec::with_capacity(iters);
    let mut comm_end: Vec<f64> = Vec::with_capacity(iters);
    for k in 0..iters {
        let mut start = if k == 0 { 0.0 } else { compute_end[k - 1] };
        if k >= 2 {
            start = f64::max(start, comm_end[k - 2]);
        }
        compute_end.push(start + work);
        let link_free = if k == 0 { 0.0 } else { comm_end[k - 1] };
        comm_end.push(f64::max(compute_end[k], link_free) + c);
    }
    let (a, b) = (iters / 2, iters - 1);
    let t = (comm_end[b] - comm_end[a]) / (b - a) as f64;
    Reference {
        sends: Vec::new(),
        t,
        ..base
    }
}

fn reference(layers: &[Layer], overlap: Overlap, tau: f64) -> Reference {
    match overlap {
        Overlap::Sequential => event_loop(layers, tau, true),
        Overlap::Wfbp => event_loop(layers, tau, false),
        Overlap::Pipelined => pipelined(layers, tau),
    }
}

/// Checks (a) and (b) of the brief for one case; returns the η for extra checks.
fn check(layers: &[Layer], overlap: Overlap, tau: f64, what: &str) -> (Eta, Reference) {
    let want = reference(layers, overlap, tau);
    let got = simulate(layers, overlap, tau);
    let ctx = format!("{what}: {overlap:?}, N = {}, tau = {tau}", layers.len());
    for (name, g, w) in [
        ("F", got.f, want.f),
        ("Bk", got.bk, want.bk),
        ("C", got.c, want.c),
    ] {
        assert!(close(g, w, 1e-12), "{ctx}: {name} {g} vs {w}");
    }
    assert!(
        close(got.t, want.t, 1e-9),
        "{ctx}: T = {} but the reference simulates {}",
        got.t,
        want.t
    );
    if overlap == Overlap::Wfbp {
        assert_eq!(got.comm.len(), layers.len(), "{ctx}");
        for bar in &got.comm {
            let (s, e) = want.sends[bar.layer];
            let scale = want.t.max(1e-300);
            assert!(
                (bar.start - s).abs() <= 1e-12 * scale && (bar.end - e).abs() <= 1e-12 * scale,
                "{ctx}: layer {} send [{}, {}] vs reference [{s}, {e}]",
                bar.layer,
                bar.start,
                bar.end
            );
        }
    }

    let e = eta(layers, overlap, tau);
    for v in [e.eta1, e.eta2, e.eta3] {
        assert!((0.0..=1.0).contains(&v), "{ctx}: η out of [0,1]: {e:?}");
    }
    let recon = e.eta1 * want.f + e.eta2 * want.bk + e.eta3 * want.c;
    assert!(
        close(recon, want.t, 1e-9) || (recon - want.t).abs() < 1e-15,
        "{ctx}: η·(F,Bk,C) = {recon} but T = {} (η = {e:?}, F = {}, Bk = {}, C = {})",
        want.t,
        want.f,
        want.bk,
        want.c
    );
    if overlap == Overlap::Sequential {
        assert_eq!(
            e,
            Eta {
                eta1: 1.0,
                eta2: 1.0,
                eta3: 1.0
            },
            "{ctx}"
        );
    }
    if overlap == Overlap::Pipelined && want.c > 0.0 && want.c < want.f + want.bk {
        assert_eq!(
            e.eta3, 0.0,
            "{ctx}: pipelined & compute-bound must give η3 = 0 exactly"
        );
        assert_eq!((e.eta1, e.eta2), (1.0, 1.0), "{ctx}");
    }
    (e, want)
}

fn random_layers(s: &mut Stream, n: usize) -> Vec<Layer> {
    let zero_profile = s.unit() < 0.1;
    (0..n)
        .map(|_| {
            // Occasionally a layer with no compute at all.
            let idle = s.unit() < 0.05;
            Layer {
                forward_ms: if idle { 0.0 } else { s.uniform(0.5, 500.0) },
                backward_ms: if idle { 0.0 } else { s.uniform(0.5, 300.0) },
                // Some layers send nothing (their share of τ is 0).
                comm_ms: if zero_profile || s.unit() < 0.1 {
                    0.0
                } else {
                    s.uniform(0.0, 500.0)
                },
            }
        })
        .collect()
}

/// F + Bk of the layers, seconds.
fn compute_s(layers: &[Layer]) -> f64 {
    layers
        .iter()
        .map(|l| (l.forward_ms + l.backward_ms) * 1e-3)
        .sum()
}

#[test]
fn random_layer_schedules() {
    let mut cases = 0;
    for i in 0..600u64 {
        let mut s = Stream::new(20_240_601, i);
        let n = if i % 10 == 0 {
            1
        } else {
            s.int(1, 80) as usize
        };
        let layers = random_layers(&mut s, n);
        let compute = compute_s(&layers);
        // Communication from 1/1000 to 1000 times the compute, sometimes none.
        let tau = if s.unit() < 0.05 {
            0.0
        } else {
            compute.max(1e-3) * 10f64.powf(s.uniform(-3.0, 3.0))
        };
        for overlap in OVERLAPS {
            check(&layers, overlap, tau, &format!("random case {i}"));
            cases += 1;
        }
    }
    assert_eq!(cases, 1800);
}

#[test]
fn one_layer() {
    let layers = [Layer {
        forward_ms: 120.0,
        backward_ms: 80.0,
        comm_ms: 300.0,
    }];
    // One layer: its send can only start after the whole backward, so WFBP = sequential.
    for tau in [0.0, 0.05, 0.2, 0.7] {
        let (seq, _) = check(&layers, Overlap::Sequential, tau, "one layer");
        let (w, ws) = check(&layers, Overlap::Wfbp, tau, "one layer");
        assert!(close(ws.t, 0.2 + tau, 1e-12));
        assert_eq!(
            seq,
            Eta {
                eta1: 1.0,
                eta2: 1.0,
                eta3: 1.0
            }
        );
        if tau > 0.0 && tau < 0.2 {
            assert_eq!(
                w,
                Eta {
                    eta1: 1.0,
                    eta2: 1.0,
                    eta3: 1.0
                }
            );
        }
        let (p, ps) = check(&layers, Overlap::Pipelined, tau, "one layer");
        assert!(close(ps.t, f64::max(0.2, tau), 1e-12));
        if tau == 0.7 {
            // Communication-bound: the compute is hidden entirely.
            assert_eq!(
                p,
                Eta {
                    eta1: 0.0,
                    eta2: 0.0,
                    eta3: 1.0
                }
            );
        }
    }
}

#[test]
fn zero_communication() {
    let mut s = Stream::new(7, 7);
    let layers = random_layers(&mut s, 25);
    for overlap in OVERLAPS {
        let (e, r) = check(&layers, overlap, 0.0, "tau = 0");
        assert!(close(r.t, r.f + r.bk, 1e-12));
        // C = 0: η3 multiplies nothing and is taken as 1; compute is fully exposed.
        assert_eq!((e.eta1, e.eta2), (1.0, 1.0), "{overlap:?}: {e:?}");
        assert_eq!(e.eta3, 1.0, "{overlap:?}: C = 0 must give η3 = 1: {e:?}");
    }
}

#[test]
fn async_alpha_zero_through_job_model() {
    for overlap in OVERLAPS {
        let job = hand_job(Mode::Async, overlap, 0.0);
        let m = model(&job);
        assert_eq!(
            m.eta,
            Eta {
                eta1: 1.0,
                eta2: 1.0,
                eta3: 1.0
            },
            "{overlap:?}"
        );
        assert_eq!(m.theta[3], 0.0, "{overlap:?}: θ'4 must vanish with α = 0");
        // θ'3 = E(η1·m·t_f + η2·t_b) = 100·(10·0.04 + 0.2) = 60.
        assert!(
            close(m.theta[2], 60.0, 1e-12),
            "{overlap:?}: θ'3 = {}",
            m.theta[2]
        );
        check(&job.layers, overlap, 0.0, "async α = 0");
        // T no longer depends on the PS count beyond θ'2·p/w.
        let d = m.t(3.0, 5.0) - m.t(3.0, 4.0);
        assert!(close(d, m.theta[1] / 3.0, 1e-9), "{overlap:?}: {d}");
    }
}

#[test]
fn all_zero_comm_profile_is_uniform() {
    let layers: Vec<Layer> = [(40.0, 10.0), (10.0, 250.0), (5.0, 5.0), (200.0, 20.0)]
        .iter()
        .map(|&(f, b)| Layer {
            forward_ms: f,
            backward_ms: b,
            comm_ms: 0.0,
        })
        .collect();
    let uniform: Vec<Layer> = layers
        .iter()
        .map(|l| Layer { comm_ms: 1.0, ..*l })
        .collect();
    for tau in [0.01, 0.3, 0.6, 5.0] {
        for overlap in OVERLAPS {
            let (e0, r0) = check(&layers, overlap, tau, "all-zero profile");
            let (e1, r1) = check(&uniform, overlap, tau, "uniform profile");
            assert!(close(r0.c, tau, 1e-12));
            assert!(close(r0.t, r1.t, 1e-12), "{overlap:?} tau {tau}");
            assert_eq!(e0, e1, "{overlap:?} tau {tau}");
        }
        let got = simulate(&layers, Overlap::Wfbp, tau);
        for bar in &got.comm {
            assert!(close(bar.end - bar.start, tau / 4.0, 1e-9));
        }
    }
    // Hand check, WFBP at tau = 0.6 (each send 0.15 s): F = 0.255; backward ends of layers
    // 4,3,2,1 at 0.275, 0.28, 0.53, 0.54; sends [0.275,0.425], [0.425,0.575], [0.575,0.725],
    // [0.725,0.875]: T = 0.875 > C = 0.6 but C ≥ F + Bk = 0.54: communication-bound.
    let (e, r) = check(&layers, Overlap::Wfbp, 0.6, "hand");
    assert!(close(r.t, 0.875, 1e-12), "{}", r.t);
    assert_eq!(e.eta3, 1.0);
    assert!(close(e.eta1, (0.875 - 0.6) / 0.54, 1e-12), "{e:?}");
}

/// 1 to 40 random layers and their compute time F + Bk, s.
fn random_case(s: &mut Stream) -> (Vec<Layer>, f64) {
    let n = s.int(1, 40) as usize;
    let layers = random_layers(s, n);
    let compute = compute_s(&layers);
    (layers, compute)
}

#[test]
fn communication_bound() {
    let mut s = Stream::new(99, 1);
    for i in 0..50 {
        let (layers, compute) = random_case(&mut s);
        let tau = compute * s.uniform(1.0, 20.0) + 1e-3;
        for overlap in OVERLAPS {
            let (e, r) = check(&layers, overlap, tau, &format!("comm-bound {i}"));
            assert!(r.c >= r.f + r.bk);
            assert_eq!(e.eta3, 1.0, "{overlap:?}: comm-bound gives η3 = 1: {e:?}");
            assert_eq!(e.eta1, e.eta2);
            // (With no compute at all, η1 = η2 multiply nothing and are 1.)
            if overlap == Overlap::Pipelined && r.f + r.bk > 0.0 {
                assert_eq!(
                    e.eta1, 0.0,
                    "pipelined & comm-bound hides all compute: {e:?}"
                );
            }
        }
    }
}

#[test]
fn compute_bound() {
    let mut s = Stream::new(99, 2);
    for i in 0..50 {
        let (layers, compute) = random_case(&mut s);
        if compute == 0.0 {
            continue;
        }
        let tau = compute * s.uniform(0.0, 0.999);
        for overlap in OVERLAPS {
            let (e, r) = check(&layers, overlap, tau, &format!("compute-bound {i}"));
            assert!(r.c < r.f + r.bk);
            assert_eq!((e.eta1, e.eta2), (1.0, 1.0), "{overlap:?}: {e:?}");
            if overlap == Overlap::Pipelined {
                assert_eq!(e.eta3, 0.0);
            }
        }
    }
}

#[test]
fn no_compute_at_all() {
    // F + Bk = 0: η1, η2 multiply nothing and are 1; T = C.
    let layers = vec![
        Layer {
            forward_ms: 0.0,
            backward_ms: 0.0,
            comm_ms: 10.0
        };
        3
    ];
    for overlap in OVERLAPS {
        let (e, r) = check(&layers, overlap, 0.4, "no compute");
        assert!(close(r.t, 0.4, 1e-12));
        assert_eq!(
            e,
            Eta {
                eta1: 1.0,
                eta2: 1.0,
                eta3: 1.0
            },
            "{overlap:?}"
        );
    }
}
