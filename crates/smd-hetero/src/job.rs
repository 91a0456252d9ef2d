//! A job of the Sia artifact's simulation (MODEL.md §24.2–§3.5, docs/MODEL.md §24): where it
//! runs (a GPU type and GPUs per node), its progress, restarts and what each GPU type's
//! learner has seen of it.

use smd_measured::app::App;
use smd_measured::gpu::Gpu;
use smd_measured::measured::{Learner, Measured, MeasuredError, Progress};

/// One job of a workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// Its name.
    pub name: String,
    /// Its application.
    pub app: App,
    /// When it arrives, s.
    pub arrival_s: f64,
    /// The GPUs it asks for (Gavel's fixed size).
    pub gpus: u32,
    /// Its tuned total batch (Gavel's fixed batch, Sia's estimate's cap).
    pub batch: f64,
}

/// The calibration the Sia artifact applies to every step of an application (docs/MODEL.md §24
/// §2.6, its `SLOWDOWNS`): each second of work takes this many.
pub fn slowdown(app: App) -> f64 {
    match app {
        App::Cifar10 => 1.8,
        App::Ncf => 1.5,
        App::Imagenet | App::Yolov3 | App::Bert | App::Deepspeech2 => 1.2,
    }
}

/// A job as the loop steps it.
#[derive(Clone, Debug)]
pub struct Job {
    /// What was asked.
    pub spec: Spec,
    /// The type it runs on, `None` while it waits.
    pub gpu: Option<Gpu>,
    /// Its GPUs per node (empty while it waits).
    pub placement: Vec<u32>,
    /// Seconds of checkpoint-restore left.
    pub rescale_s: f64,
    /// Restarts: `None` before its first start.
    pub restarts: Option<u32>,
    /// Its progress.
    pub at: Progress,
    /// What each type's learner has seen, by [`Gpu::ALL`]'s index (MODEL.md §24.1: one
    /// profile per type).
    pub learners: [Learner; 5],
    /// When it finished, s.
    pub completion_s: Option<f64>,
    /// The gradient statistics (sqr, var) of its last step, on whichever type.
    pub stats: Option<(f64, f64)>,
    /// Every type's steps go to one learner, `learners[0]` (the heterogeneity-unaware
    /// policy's merged profile, MODEL.md §24.1).
    merged: bool,
}

/// How a policy's jobs run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Jobs keep their tuned batch (Gavel's TunedJobs); else they choose it as they learn.
    pub fixed_batch: bool,
    /// One learner for every type (heterogeneity-unaware Pollux); else one per type.
    pub merged_profile: bool,
}

impl Job {
    /// A job that has not run, under `rules`.
    pub fn new(spec: Spec, rules: Rules) -> Job {
        let keep = rules.fixed_batch.then_some(spec.batch);
        Job {
            spec,
            gpu: None,
            placement: Vec::new(),
            rescale_s: 0.0,
            restarts: None,
            at: Progress::default(),
            learners: std::array::from_fn(|_| Learner::new(keep)),
            completion_s: None,
            stats: None,
            merged: rules.merged_profile,
        }
    }

    /// The learner of type `g` (the one learner with a merged profile).
    pub fn learner(&self, g: Gpu) -> &Learner {
        &self.learners[if self.merged { 0 } else { g.index() }]
    }

    /// GPUs it holds.
    pub fn gpus(&self) -> u32 {
        self.placement.iter().sum()
    }

    /// Runs from `now` for `seconds` where it is (MODEL.md §24.2): the checkpoint-restore
    /// first, then epochs at the type's measured speed with its batch chosen as it learns
    /// (or fixed), each second of work slowed by [`slowdown`].
    pub fn step(&mut self, now: f64, seconds: f64) -> Result<(), MeasuredError> {
        if self.completion_s.is_some() || self.placement.is_empty() {
            return Ok(());
        }
        let Some(g) = self.gpu else {
            return Ok(());
        };
        let delay = self.rescale_s.min(seconds);
        self.rescale_s -= delay;
        let left = seconds - delay;
        if left <= 0.0 {
            return Ok(());
        }
        let m = Measured::on(self.spec.app, g)?;
        let learner = &mut self.learners[if self.merged { 0 } else { g.index() }];
        let pace = slowdown(self.spec.app);
        let done = m.run_typed(&mut self.at, &self.placement, learner, left, pace)?;
        self.stats = learner.stats().or(self.stats);
        if let Some(used) = done {
            self.completion_s = Some(now + delay + used);
        }
        Ok(())
    }

    /// Moves it to `to` (a type and GPUs per node, or nothing) as MODEL.md §24.2 charges it:
    /// a new type (a start, a resume, a preemption) restarts it when it gets GPUs; on the
    /// same type only a changed tuple of GPUs per node does.
    pub fn apply(&mut self, to: Option<(Gpu, Vec<u32>)>) {
        let delay = self.spec.app.restart_delay_s();
        let new_type = to.as_ref().map(|t| t.0);
        if new_type != self.gpu {
            self.gpu = new_type;
            match to {
                Some((_, placement)) if !placement.is_empty() => {
                    self.placement = placement;
                    self.restart(delay);
                }
                _ => self.placement.clear(),
            }
        } else if let Some((_, placement)) = to {
            if placement != self.placement {
                self.placement = placement;
                self.restart(delay);
            }
        }
    }

    fn restart(&mut self, delay: f64) {
        self.rescale_s = delay;
        self.restarts = Some(self.restarts.map_or(0, |r| r + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(app: App) -> Spec {
        Spec {
            name: "j".into(),
            app,
            arrival_s: 0.0,
            gpus: 4,
            batch: 2048.0,
        }
    }

    /// MODEL.md §24.2: a start costs the model's delay without counting a restart, a new
    /// tuple on the same type restarts, the same tuple elsewhere does not, a preemption
    /// keeps the delay left and a resume restarts.
    #[test]
    fn restarts_are_charged_as_the_reference_charges_them() {
        let mut j = Job::new(spec(App::Bert), Rules::default());
        j.apply(Some((Gpu::A100, vec![4])));
        assert_eq!((j.restarts, j.rescale_s), (Some(0), 120.0));
        j.step(0.0, 60.0).unwrap();
        assert_eq!(j.rescale_s, 60.0);
        assert_eq!(j.at, Progress::default());
        j.apply(Some((Gpu::A100, vec![4])));
        assert_eq!(j.restarts, Some(0));
        j.apply(Some((Gpu::A100, vec![8])));
        assert_eq!((j.restarts, j.rescale_s), (Some(1), 120.0));
        j.apply(None);
        assert!(j.placement.is_empty() && j.rescale_s == 120.0);
        j.apply(Some((Gpu::T4, vec![4, 4])));
        assert_eq!(j.restarts, Some(2));
        j.step(0.0, 600.0).unwrap();
        assert!(j.at.progress > 0.0);
    }

    /// The same job runs faster on an A100 than on a T4 (one-GPU throughputs 10062.6 vs
    /// 1458.5 examples/s at their largest batches).
    #[test]
    fn a_job_runs_at_its_types_speed() {
        let run = |g: Gpu| {
            let mut j = Job::new(spec(App::Cifar10), Rules::default());
            j.apply(Some((g, vec![1])));
            let mut t = 0.0;
            while j.completion_s.is_none() && t < 1e7 {
                j.step(t, 60.0).unwrap();
                t += 60.0;
            }
            j.completion_s.unwrap()
        };
        let (t4, a100) = (run(Gpu::T4), run(Gpu::A100));
        assert!(a100 * 2.0 < t4, "A100 {a100} s, T4 {t4} s");
    }
}
