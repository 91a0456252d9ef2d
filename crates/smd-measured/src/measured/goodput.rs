//! A job whose scheduler learns it as it runs (POLLUX-SIM.md §3, docs/MODEL.md §23): the
//! Pollux agent's side of a measured job. It keeps the first observation of every
//! (nodes, replicas, atomic batch) it has run at, refits the seven-parameter throughput
//! model ([`fit_throughput_from`](super::fit::fit_throughput_from), from its last fit)
//! each time a new one arrives, remembers the gradient statistics of its last step, and
//! chooses its total batch for goodput (§3.4) on any allocation from what it has learned —
//! not from the measurements, which only the simulated run reads. Its fits and candidate
//! batches are remembered across jobs and runs ([`super::memo`]).
//!
//! [`Measured::run_learning`] steps such a job through an interval as §1.4 does, with the
//! batch chosen again after every epoch boundary and at the end of the interval.

pub use super::candidate::{Candidate, Candidates};
use super::fit::{Observation, Throughput};
use super::{BatchConfig, Measured, MeasuredError, Progress, Stride};
use std::sync::Arc;

/// The reference's tolerance in its batch arithmetic (§2.4, §3.4).
const EPS: f64 = 1e-8;

/// What a learning job knows of itself (§3.2–§3.4).
#[derive(Clone, Debug, Default)]
pub struct Learner {
    /// A total batch the job keeps whatever its allocation (the reference fixes ncf's at
    /// 32768, §2.5); `None`: chosen for goodput.
    fixed: Option<f64>,
    /// The first observation of each (nodes, replicas, atomic batch) run at, in order.
    profile: Vec<Observation>,
    /// The model fitted on `profile` (`None` before the first step).
    model: Option<Throughput>,
    /// How many fits `model` has seen (a new fit changes every prediction).
    version: u32,
    /// The gradient statistics (sqr, var) of the job's last step.
    stats: Option<(f64, f64)>,
    /// The most replicas it has run on.
    max_replicas: u32,
    /// The last candidates asked for by [`Learner::config`]: (version, spread, replicas).
    memo: Option<((u32, bool, u32), Candidates)>,
}

impl Learner {
    /// A job that has not run: no model, no statistics; `fixed`: a batch it always keeps.
    pub fn new(fixed: Option<f64>) -> Learner {
        Learner {
            fixed,
            ..Learner::default()
        }
    }

    /// The fitted model, once the job has made a step.
    pub fn model(&self) -> Option<&Throughput> {
        self.model.as_ref()
    }

    /// Increases with every refit: predictions of one version never change.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The gradient statistics (sqr, var) of the last step.
    pub fn stats(&self) -> Option<(f64, f64)> {
        self.stats
    }

    /// The most replicas the job has run on (0 before it runs).
    pub fn max_replicas(&self) -> u32 {
        self.max_replicas
    }

    /// The (nodes, replicas, atomic batch) it has observed, first observation each.
    pub fn profile(&self) -> &[Observation] {
        &self.profile
    }

    /// Records a step; a new (nodes, replicas, atomic) refits the model (§3.2).
    fn observe(&mut self, o: Observation) -> Result<(), MeasuredError> {
        self.max_replicas = self.max_replicas.max(o.replicas);
        let seen = self
            .profile
            .iter()
            .any(|p| p.nodes == o.nodes && p.replicas == o.replicas && p.local == o.local);
        if !seen {
            self.profile.push(o);
            // From the last fit: one more point moves the optimum little (MODEL.md §23).
            self.model = Some(super::memo::fit(&self.profile, self.model.as_ref())?);
            self.version += 1;
        }
        Ok(())
    }

    /// The goodput of a candidate with the last step's statistics (§3.3): M0 · gain / T,
    /// in scale-invariant iterations per second (0 without statistics or where it cannot
    /// run).
    pub fn goodput(&self, m: &Measured, c: &Candidate) -> f64 {
        self.stats
            .map_or(0.0, |stats| goodput_at(m.batch_range()[0], stats, c))
    }

    /// §3.4's candidates on (nodes, replicas) with the model's times (none without a
    /// model): 50 totals geometrically spaced from max(M0, smallest local · R) to the
    /// largest batch.
    pub fn candidates(&self, m: &Measured, nodes: u32, replicas: u32) -> Candidates {
        let Some(model) = self.model else {
            return Arc::from([]);
        };
        // A function of the model, the application and (one node or several, replicas):
        // remembered across jobs and runs (`memo`).
        super::memo::candidates(m, &model, nodes > 1, replicas, || {
            made_candidates(m, &model, nodes, replicas).into()
        })
    }

    /// How the job runs on `placement` under the Sia artifact's rules (MODEL.md §24.1, docs/
    /// MODEL.md §24): its fixed batch; else, with a model and statistics, the goodput-best
    /// of §3.4's candidates up to the application's largest batch with the placement's
    /// largest local batch; else max(M0, smallest local · R); each split by
    /// [`Measured::sia_batch_config`]'s steps 2–4 (the best candidate's split kept, then
    /// its memory correction and clamp).
    pub fn config_on(&mut self, m: &Measured, placement: &[u32]) -> BatchConfig {
        let replicas: u32 = placement.iter().sum::<u32>().max(1);
        let nodes = placement.iter().filter(|&&g| g > 0).count() as u32;
        if let Some(b) = self.fixed {
            return m.sia_batch_config(placement, b);
        }
        if let (Some(_), Some(model)) = (self.stats, self.model) {
            let top = m.batch_range()[1];
            let hi = m
                .max_local_at(placement)
                .unwrap_or(m.table_local_range()[1]);
            let totals = m.batch_candidates_up_to(replicas, top, m.table_local_range()[0]);
            let cands = candidates_within(m, &model, nodes, replicas, &totals, hi, top);
            if let Some((_, best)) = self.best(m, &cands) {
                return m.memory_corrected(best.config);
            }
        }
        let first = m.batch_range()[0].max(m.table_local_range()[0] * f64::from(replicas));
        m.sia_batch_config(placement, first)
    }

    /// The Sia artifact's goodput estimate of this job on (nodes, replicas) (MODEL.md §24.3,
    /// §4.3 case A): the largest model goodput over §3.4's candidates from max(M0, smallest
    /// local · R) to `cap` (the job's own batch), with the type's app-wide local batches,
    /// at the job's latest gradient statistics `stats` (one for every type); `None`
    /// without a model.
    pub fn estimate(
        &self,
        m: &Measured,
        nodes: u32,
        replicas: u32,
        cap: f64,
        stats: (f64, f64),
    ) -> Option<f64> {
        let model = self.model?;
        let [m0, top] = m.batch_range();
        let [lo, hi] = m.table_local_range();
        let totals = m.batch_candidates_up_to(replicas, cap.min(top), lo);
        let cands = candidates_within(m, &model, nodes, replicas, &totals, hi, top);
        Some(
            cands
                .iter()
                .map(|c| goodput_at(m0, stats, c))
                .fold(0.0, f64::max),
        )
    }

    /// §3.4's choice: the candidate of the largest goodput (the first on ties) with it.
    pub fn best(&self, m: &Measured, candidates: &[Candidate]) -> Option<(f64, Candidate)> {
        let first = *candidates.first()?;
        let Some(stats) = self.stats else {
            // Every goodput is 0: the first.
            return Some((0.0, first));
        };
        // What [`Learner::goodput`] reads for each candidate, read once.
        let m0 = m.batch_range()[0];
        let mut best = (goodput_at(m0, stats, &first), first);
        for c in &candidates[1..] {
            let g = goodput_at(m0, stats, c);
            if g > best.0 {
                best = (g, *c);
            }
        }
        Some(best)
    }

    /// How the job runs on (nodes, replicas): its fixed batch split by §2.4; else the
    /// goodput-best candidate once it has a model; else, not yet profiled, the batch
    /// max(M0, smallest local · R) split by §2.4 (§3.4).
    pub fn config(&mut self, m: &Measured, nodes: u32, replicas: u32) -> BatchConfig {
        if let Some(b) = self.fixed {
            return m.batch_config(replicas, b);
        }
        if self.stats.is_some() && self.model.is_some() {
            // The model's times change only with a refit: remember the last candidates.
            let key = (self.version, nodes > 1, replicas);
            let memo = match self.memo.take() {
                Some((k, c)) if k == key => c,
                _ => self.candidates(m, nodes, replicas),
            };
            let best = self.best(m, &memo);
            self.memo = Some((key, memo));
            if let Some((_, c)) = best {
                return c.config;
            }
        }
        let first = m.batch_range()[0].max(m.local_range()[0] * f64::from(replicas.max(1)));
        m.batch_config(replicas, first)
    }
}

/// §3.4's candidates of `model` on (nodes, replicas), computed ([`Learner::candidates`]
/// remembers them).
pub(super) fn made_candidates(
    m: &Measured,
    model: &Throughput,
    nodes: u32,
    replicas: u32,
) -> Vec<Candidate> {
    let [_, top] = m.batch_range();
    let hi = m.local_range()[1];
    candidates_within(
        m,
        model,
        nodes,
        replicas,
        &m.batch_candidates(replicas),
        hi,
        top,
    )
}

/// The candidates of `model` among the total batches `totals` on (nodes, replicas), with
/// local batches up to `hi_local` and totals clamped to `top`.
fn candidates_within(
    m: &Measured,
    model: &Throughput,
    nodes: u32,
    replicas: u32,
    totals: &[f64],
    hi_local: f64,
    top: f64,
) -> Vec<Candidate> {
    let m0 = m.batch_range()[0];
    let lo_local = m.local_range()[0];
    let r = f64::from(replicas.max(1));
    let ln_tn = libm::log(model.network_time(nodes.max(1), replicas.max(1)));
    // Neighbouring totals often round to the same atomic batch, whose synchronising step
    // (two exps and a log1p) is then the same: the last one is kept.
    let mut last: Option<(f64, f64, f64)> = None;
    totals
        .iter()
        .map(|&total| {
            let local = total / r;
            let mut accum = (local / hi_local - EPS).ceil() - 1.0;
            if replicas <= 1 && local > m0 + EPS {
                accum = accum.max(1.0);
            }
            let accum = accum.max(0.0);
            let atomic = (local / (accum + 1.0) - EPS).ceil();
            let iteration_s = if (lo_local..=hi_local).contains(&atomic) {
                let (tc, ts) = match last {
                    Some((a, tc, ts)) if a == atomic => (tc, ts),
                    _ => {
                        let (tc, ts) = model.sync_step(ln_tn, atomic);
                        last = Some((atomic, tc, ts));
                        (tc, ts)
                    }
                };
                super::fit::iteration(accum, tc, ts)
            } else {
                f64::INFINITY
            };
            let clamp = (top / (r * (accum + 1.0))).floor();
            Candidate {
                config: BatchConfig {
                    replicas: replicas.max(1),
                    atomic: atomic.min(clamp).max(1.0) as u32,
                    accum: accum as u32,
                },
                batch: r * atomic * (accum + 1.0),
                iteration_s,
            }
        })
        .collect()
}

/// [`Learner::goodput`] with M0 and the statistics (sqr, var) given.
fn goodput_at(m0: f64, (sqr, var): (f64, f64), c: &Candidate) -> f64 {
    if c.iteration_s.is_finite() {
        m0 * gain(sqr, var, c.batch / m0) / c.iteration_s
    } else {
        0.0
    }
}

/// The gain of a batch `scale` times the initial one (§3.3), 1 where its denominator is
/// not positive (deepspeech2's rows with grad_sqr = 0, §7.8: then it equals `scale`).
pub fn gain(sqr: f64, var: f64, scale: f64) -> f64 {
    let den = var / scale + sqr;
    if den > 0.0 {
        (var + sqr) / den
    } else {
        1.0
    }
}

impl Measured {
    /// Runs a learning job `seconds` from `at` on `placement` (GPUs per node), each second
    /// of work taking `pace` seconds, as the reference steps a Pollux job (POLLUX-SIM.md
    /// §1.4): its batch chosen by `learner` for the placement, each step observed (the
    /// model refits on a new configuration), and the batch chosen again after every
    /// epoch boundary and at the end. Returns the seconds from the start to the target
    /// when the run reaches it within `seconds`.
    pub fn run_learning(
        &self,
        at: &mut Progress,
        placement: &[u32],
        learner: &mut Learner,
        seconds: f64,
        pace: f64,
    ) -> Result<Option<f64>, MeasuredError> {
        let nodes = placement.iter().filter(|&&g| g > 0).count() as u32;
        let replicas: u32 = placement.iter().sum();
        self.run_choosing(at, placement, learner, seconds, pace, &mut |m, l| {
            l.config(m, nodes, replicas)
        })
    }

    /// [`Measured::run_learning`] under the Sia artifact's batch rules
    /// ([`Learner::config_on`], MODEL.md §24.2).
    pub fn run_typed(
        &self,
        at: &mut Progress,
        placement: &[u32],
        learner: &mut Learner,
        seconds: f64,
        pace: f64,
    ) -> Result<Option<f64>, MeasuredError> {
        self.run_choosing(at, placement, learner, seconds, pace, &mut |m, l| {
            l.config_on(m, placement)
        })
    }

    /// A learning run whose batch `choose` picks (at the start, after every epoch
    /// boundary and at the end).
    fn run_choosing(
        &self,
        at: &mut Progress,
        placement: &[u32],
        learner: &mut Learner,
        seconds: f64,
        pace: f64,
        choose: &mut dyn FnMut(&Measured, &mut Learner) -> BatchConfig,
    ) -> Result<Option<f64>, MeasuredError> {
        let nodes = placement.iter().filter(|&&g| g > 0).count() as u32;
        let replicas: u32 = placement.iter().sum();
        let m0 = self.batch_range()[0];
        let mut c = choose(self, learner);
        let (mut left, mut used) = (seconds, 0.0);
        while left > 0.0 && at.epoch < self.max_epochs {
            let b = c.effective();
            let s = self.step_any(placement, f64::from(c.atomic))?;
            learner.observe(Observation {
                nodes,
                replicas,
                local: f64::from(c.atomic),
                step: s.step_s,
                sync: s.sync_s,
            })?;
            let (sqr, var) = self.grad_stats(b, at.epoch)?;
            learner.stats = Some((sqr, var));
            let iteration_s = (s.step_s + f64::from(c.accum) * (s.step_s - s.sync_s)) * pace;
            let g = gain(sqr, var, b / m0) / iteration_s;
            if let Stride::Target = self.stride(at, g, &mut left, &mut used) {
                return Ok(Some(used));
            }
            c = choose(self, learner);
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::App;

    fn cifar() -> &'static Measured {
        Measured::of(App::Cifar10).unwrap()
    }

    /// POLLUX-SIM.md §3.5's test: cifar10 after its one-point fit at (1, 1, 128), with the
    /// statistics at B = 128, epoch 0: SPEEDUP(1,2) = 1.3354, (1,4) = 1.6555, (2,8) =
    /// 1.9570, the optimum at (1,1) atomic 128 without accumulation, at (1,4) atomic 49.
    /// Our fit of one point differs from scipy's where its objective is flat (fit.rs), so
    /// the speedups agree to a few per cent, not digits.
    #[test]
    fn speedups_of_the_reference_test_vector() {
        let m = cifar();
        let mut l = Learner::new(None);
        l.observe(Observation {
            nodes: 1,
            replicas: 1,
            local: 128.0,
            step: 0.1031153,
            sync: 0.000525336,
        })
        .unwrap();
        l.stats = Some(m.grad_stats(128.0, 0).unwrap());
        let best = |n, r| l.best(m, &l.candidates(m, n, r)).unwrap();
        let (base, one) = best(1, 1);
        assert_eq!((one.config.atomic, one.config.accum), (128, 0));
        let (_, four) = best(1, 4);
        assert_eq!(four.config.atomic, 49);
        for (n, r, want) in [(1, 2, 1.3354), (1, 4, 1.6555), (2, 8, 1.9570)] {
            let s = best(n, r).0 / base;
            assert!(
                (s / want - 1.0).abs() < 0.03,
                "SPEEDUP({n},{r}) = {s}, want {want}"
            );
        }
    }

    /// A fixed batch is split by §2.4 whatever was learned; an unprofiled job runs at
    /// max(M0, smallest local · R).
    #[test]
    fn fixed_and_first_batches() {
        let m = Measured::of(App::Ncf).unwrap();
        let mut l = Learner::new(Some(32768.0));
        assert_eq!(l.config(m, 1, 1), m.batch_config(1, 32768.0));
        let c = cifar();
        let mut fresh = Learner::new(None);
        let [m0, _] = c.batch_range();
        assert_eq!(fresh.config(c, 1, 1), c.batch_config(1, m0));
        let r = 8;
        let want = m0.max(c.local_range()[0] * f64::from(r));
        assert_eq!(fresh.config(c, 2, r), c.batch_config(r, want));
    }

    /// A learning run observes each new configuration once, keeps the largest replicas,
    /// and with its batch fixed makes exactly the fixed-batch run's progress.
    #[test]
    fn learning_run_with_a_fixed_batch_is_the_fixed_run() {
        let m = cifar();
        let b = 512.0;
        let (mut a, mut f) = (Progress::default(), Progress::default());
        let mut l = Learner::new(Some(b));
        for _ in 0..50 {
            let x = m.run_learning(&mut a, &[2, 2], &mut l, 600.0, 1.0).unwrap();
            let y = m.run_for(&mut f, &[2, 2], b, 600.0, 1.0).unwrap();
            assert_eq!(x, y);
            assert_eq!(a, f);
        }
        assert_eq!(l.profile().len(), 1);
        assert_eq!(l.max_replicas(), 4);
        assert!(l.model().is_some() && l.stats().is_some());
    }

    /// A learning job grows its batch as its gradient noise grows and gets to its target
    /// sooner than at its first batch (the goodput choice at least matches it).
    #[test]
    fn a_learning_job_reaches_its_target_sooner_than_at_its_first_batch() {
        let m = cifar();
        let place = [4, 4];
        let mut l = Learner::new(None);
        let mut at = Progress::default();
        let learned = m
            .run_learning(&mut at, &place, &mut l, 1e7, 1.0)
            .unwrap()
            .expect("reaches its target");
        // Its first batch, which it would keep without learning.
        let first = m.batch_range()[0].max(m.local_range()[0] * 8.0);
        let fixed = m.time_to_target(&place, first).unwrap();
        assert!(
            learned < fixed,
            "learned {learned} s, first batch {fixed} s"
        );
        assert!(l.profile().len() > 1, "its batch changed as it learned");
    }

    #[test]
    fn candidates_span_the_batches_geometrically() {
        let m = cifar();
        let v = m.batch_candidates(1);
        let [m0, top] = m.batch_range();
        assert_eq!((v.len(), v[0], v[49]), (50, m0, top));
        let q = (top / m0).powf(1.0 / 49.0);
        assert!(v.windows(2).all(|w| (w[1] / w[0] / q - 1.0).abs() < 1e-9));
        assert!(m.batch_candidates(64)[0] >= m.local_range()[0] * 64.0);
    }
}
