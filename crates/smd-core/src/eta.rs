//! docs/MODEL.md §2: the layer schedule of one iteration of one worker, and the exposure factors
//! η1, η2, η3 that carry it into the completion time.

use crate::scenario::{Layer, Overlap};

/// Exposure factors of forward compute, backward compute and communication, each in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Eta {
    /// η1: share of forward time on the critical path.
    pub eta1: f64,
    /// η2: share of backward time on the critical path.
    pub eta2: f64,
    /// η3: share of communication time on the critical path.
    pub eta3: f64,
}

/// One bar of the simulated schedule, seconds from the iteration's start.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bar {
    /// 0-based layer index j.
    pub layer: usize,
    /// Start, s.
    pub start: f64,
    /// End, s.
    pub end: f64,
}

/// The simulated iteration: forward, backward and communication bars, and its length T.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Schedule {
    /// Forward pass, layers 1 → N.
    pub forward: Vec<Bar>,
    /// Backward pass, layers N → 1.
    pub backward: Vec<Bar>,
    /// Gradient sends (profile rescaled so that Σ r_j = τ).
    pub comm: Vec<Bar>,
    /// F = Σ f_j, s.
    pub f: f64,
    /// Bk = Σ b_j, s.
    pub bk: f64,
    /// C = Σ r_j = τ, s.
    pub c: f64,
    /// The iteration time T, s.
    pub t: f64,
}

/// The communication profile rescaled to sum to `tau` seconds; an all-zero profile is uniform.
pub fn scaled_comm(layers: &[Layer], tau: f64) -> Vec<f64> {
    let raw: f64 = layers.iter().map(|l| l.comm_ms).sum();
    let n = layers.len().max(1) as f64;
    layers
        .iter()
        .map(|l| {
            if raw > 0.0 {
                tau * l.comm_ms / raw
            } else {
                tau / n
            }
        })
        .collect()
}

/// Simulates one iteration (times in seconds). `tau` is the communication time at w = p.
pub fn simulate(layers: &[Layer], overlap: Overlap, tau: f64) -> Schedule {
    let r = scaled_comm(layers, tau);
    let n = layers.len();
    let mut forward = Vec::with_capacity(n);
    let mut clock = 0.0;
    for (j, l) in layers.iter().enumerate() {
        let d = l.forward_ms / 1000.0;
        forward.push(Bar {
            layer: j,
            start: clock,
            end: clock + d,
        });
        clock += d;
    }
    let f = clock;
    let mut backward = Vec::with_capacity(n);
    for j in (0..n).rev() {
        let d = layers[j].backward_ms / 1000.0;
        backward.push(Bar {
            layer: j,
            start: clock,
            end: clock + d,
        });
        clock += d;
    }
    let bk = clock - f;
    let c: f64 = r.iter().sum();
    let (comm, t) = match overlap {
        Overlap::Sequential => (back_to_back(&r, f + bk), f + bk + c),
        Overlap::Wfbp => {
            // Layer j's send starts when its backward ends and the link is free (layer j+1 sent).
            let mut comm = Vec::with_capacity(n);
            let mut link_free = 0.0_f64;
            for bar in &backward {
                let start = bar.end.max(link_free);
                link_free = start + r[bar.layer];
                comm.push(Bar {
                    layer: bar.layer,
                    start,
                    end: link_free,
                });
            }
            (comm, link_free.max(f + bk))
        }
        // This iteration's gradients travel while the next iteration computes: drawn from 0.
        Overlap::Pipelined => (back_to_back(&r, 0.0), (f + bk).max(c)),
    };
    Schedule {
        forward,
        backward,
        comm,
        f,
        bk,
        c,
        t,
    }
}

/// The sends of layers N→1 one after another from `start`, layer j taking `r[j]`.
fn back_to_back(r: &[f64], start: f64) -> Vec<Bar> {
    let mut s = start;
    let mut comm = Vec::with_capacity(r.len());
    for j in (0..r.len()).rev() {
        comm.push(Bar {
            layer: j,
            start: s,
            end: s + r[j],
        });
        s += r[j];
    }
    comm
}

/// Attributes a simulated T to (η1, η2, η3) so that `η1·F + η2·Bk + η3·C = T`.
pub fn attribute(s: &Schedule) -> Eta {
    let compute = s.f + s.bk;
    let (e12, e3) = if s.c >= compute {
        (ratio(s.t - s.c, compute), 1.0)
    } else {
        (1.0, ratio(s.t - compute, s.c))
    };
    Eta {
        eta1: e12,
        eta2: e12,
        eta3: e3,
    }
}

/// A ratio clipped to [0, 1] and snapped near its ends; a zero denominator multiplies nothing.
fn ratio(num: f64, den: f64) -> f64 {
    if den <= 0.0 {
        return 1.0;
    }
    let v = (num / den).clamp(0.0, 1.0);
    if v < 1e-12 {
        0.0
    } else if v > 1.0 - 1e-12 {
        1.0
    } else {
        v
    }
}

/// η for a layer schedule, an overlap model and a communication time `tau` (s).
pub fn eta(layers: &[Layer], overlap: Overlap, tau: f64) -> Eta {
    if overlap == Overlap::Sequential {
        return Eta {
            eta1: 1.0,
            eta2: 1.0,
            eta3: 1.0,
        };
    }
    attribute(&simulate(layers, overlap, tau))
}
