//! The learner's two costly pure functions remembered (docs/MODEL.md §23): the throughput
//! fit of a profile from the previous fit, and a model's candidate batches on an
//! allocation. Jobs of one application start alike (the same first placements and steps,
//! so the same profiles and fits), and the sizes of a sweep replay much of the same
//! learning: a Web Worker evaluates its sizes one after another, so what one run learned
//! the next finds ([`crate::memo`]: a remembered value is the value).

use super::candidate::Candidates;
use super::fit::{fit_throughput_from, Observation, Throughput};
use super::{Measured, MeasuredError};
use crate::memo::Memo;

/// A fit's inputs: the profile (each observation's bits) and the starting model's.
type FitKey = (Vec<[u64; 5]>, Option<[u64; 7]>);

/// Fits by their inputs.
static FITS: Memo<FitKey, Throughput> = Memo::new(1 << 14);
/// Candidates (50, ≈ 1.6 KB) by application, model, spread and replicas (shared, not
/// copied, when remembered).
static CANDIDATES: Memo<(u8, [u64; 7], bool, u32), Candidates> = Memo::new(1 << 13);

fn bits<const N: usize>(x: [f64; N]) -> [u64; N] {
    x.map(f64::to_bits)
}

/// [`fit_throughput_from`], remembered (only its successes).
pub(super) fn fit(
    profile: &[Observation],
    start: Option<&Throughput>,
) -> Result<Throughput, MeasuredError> {
    let key = (
        profile
            .iter()
            .map(|o| {
                [
                    u64::from(o.nodes),
                    u64::from(o.replicas),
                    o.local.to_bits(),
                    o.step.to_bits(),
                    o.sync.to_bits(),
                ]
            })
            .collect(),
        start.map(|t| bits(t.to_array())),
    );
    FITS.get_or_try(key, || fit_throughput_from(profile, start))
}

/// The candidates `make` computes for `model` of `m`'s application on one node or several
/// (`spread`) at `replicas` GPUs, remembered.
pub(super) fn candidates(
    m: &Measured,
    model: &Throughput,
    spread: bool,
    replicas: u32,
    make: impl FnOnce() -> Candidates,
) -> Candidates {
    CANDIDATES.get_or(
        (m.app() as u8, bits(model.to_array()), spread, replicas),
        make,
    )
}

#[cfg(test)]
mod tests {
    use super::super::goodput::{made_candidates, Learner};
    use super::super::Progress;
    use super::*;
    use crate::app::App;

    fn obs(nodes: u32, replicas: u32, local: f64, step: f64) -> Observation {
        Observation {
            nodes,
            replicas,
            local,
            step,
            sync: step / 10.0,
        }
    }

    /// A remembered fit is the fit: for each prefix of a profile (each from the previous
    /// fit, as a learner refits), asked twice, and a profile differing in one step time
    /// is not confused with it.
    #[test]
    fn a_remembered_fit_is_the_fit() {
        let profile = [
            obs(1, 1, 128.0, 0.10),
            obs(1, 2, 64.0, 0.07),
            obs(2, 8, 32.0, 0.09),
        ];
        let mut start: Option<Throughput> = None;
        for k in 1..=profile.len() {
            let want = fit_throughput_from(&profile[..k], start.as_ref()).unwrap();
            for _ in 0..2 {
                let got = fit(&profile[..k], start.as_ref()).unwrap();
                assert_eq!(bits(got.to_array()), bits(want.to_array()));
            }
            start = Some(want);
        }
        let mut other = profile;
        other[2].step = 0.095;
        let want = fit_throughput_from(&other, start.as_ref()).unwrap();
        let got = fit(&other, start.as_ref()).unwrap();
        assert_eq!(bits(got.to_array()), bits(want.to_array()));
        // A failure is not remembered, and stays one.
        assert!(fit(&[], None).is_err() && fit(&[], None).is_err());
    }

    /// Remembered candidates are the candidates, for one node and several, every replica
    /// count, and two applications sharing one model (the key tells them apart).
    #[test]
    fn remembered_candidates_are_the_candidates() {
        let cifar = Measured::of(App::Cifar10).unwrap();
        let bert = Measured::of(App::Bert).unwrap();
        let mut l = Learner::new(None);
        let mut at = Progress::default();
        cifar
            .run_learning(&mut at, &[4, 4], &mut l, 600.0, 1.0)
            .unwrap();
        let model = *l.model().expect("a model after a step");
        for m in [cifar, bert, cifar] {
            for nodes in [1, 2] {
                for r in [1, 2, 3, 8, 16] {
                    let want = made_candidates(m, &model, nodes, r);
                    assert!(!want.is_empty());
                    for _ in 0..2 {
                        assert_eq!(
                            *l.candidates(m, nodes, r),
                            *want,
                            "{:?} {nodes} {r}",
                            m.app()
                        );
                    }
                }
            }
        }
        // Where the two differ, the memo kept them apart.
        assert_ne!(
            made_candidates(cifar, &model, 1, 8),
            made_candidates(cifar, &model, 2, 8)
        );
        assert_ne!(
            made_candidates(cifar, &model, 1, 8),
            made_candidates(bert, &model, 1, 8)
        );
    }
}
