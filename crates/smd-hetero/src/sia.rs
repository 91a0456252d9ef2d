//! Sia (MODEL.md §24.3, docs/MODEL.md §24.3): every tick, each active job's goodput on every
//! configuration (a GPU type and a size) from what the job's learners have seen — its own
//! model on a type, else a model of another type projected by one-GPU throughputs, else
//! unknown — normalised per job, discounted for a restart, raised to p = −0.5 and rounded;
//! then the allocation that minimises Σ A + λ·(jobs left without GPUs), each job at most
//! one configuration within each type's GPUs, solved exactly by [`crate::milp`] with a
//! proof.

use crate::cluster::{Cluster, Config};
use crate::engine::{Decision, Policy, View};
use crate::job::Job;
use crate::milp;
use smd_measured::app::App;
use smd_measured::gpu::Gpu;
use smd_measured::measured::Measured;

/// Sia's p (the paper's −0.5; MODEL.md §24.3).
pub const P: f64 = -0.5;
/// Sia's λ_n: what leaving a job without GPUs costs (1.1).
pub const LAMBDA: f64 = 1.1;
/// A goodput entry nothing is known of (`ZERO_ALLOC_GAIN`).
const ZERO: f64 = 1e-4;
/// The largest A entry (`sia_goodput_clip_val`).
const CLIP: f64 = 3000.0;
/// The most GPUs a job's estimate scales to (MODEL.md §24.3).
const MAX_REPLICAS: u32 = 64;

/// Sia's estimate of a restart's cost per application (its `get_restart_penalty`, docs/MODEL.md §24
/// §2.7 — not the delays the simulation charges).
pub fn restart_estimate_s(app: App) -> f64 {
    match app {
        App::Deepspeech2 => 25.0,
        App::Bert => 120.0,
        App::Yolov3 => 45.0,
        App::Imagenet => 250.0,
        App::Cifar10 | App::Ncf => 30.0,
    }
}

/// The restart factor r (MODEL.md §24.3): max(age − N·S, 0)/(age + S), 1 while age < S.
pub fn restart_factor(age_s: f64, restarts: u32, s: f64) -> f64 {
    if age_s < s {
        1.0
    } else {
        (age_s - f64::from(restarts) * s).max(0.0) / (age_s + s)
    }
}

/// An A entry in hundredths: G^p in single precision rounded to two decimals (half to
/// even, as numpy rounds), at most 3000 (MODEL.md §24.4).
pub fn a_cents(g: f64) -> i64 {
    let a = (g as f32).powf(P as f32);
    if !a.is_finite() || f64::from(a) > CLIP {
        return (CLIP * 100.0) as i64;
    }
    (a * 100.0f32).round_ties_even() as i64
}

/// The Sia policy with what it keeps across ticks: each job's last configuration.
pub struct Sia {
    /// The configuration each job got last round (`None`: none).
    prev: Vec<Option<usize>>,
    /// The configurations of the cluster (fixed for a run).
    configs: Option<Vec<Config>>,
    /// The branch-and-bound's work limit per decision.
    pub limits: milp::Limits,
}

impl Default for Sia {
    fn default() -> Sia {
        Sia::new()
    }
}

impl Sia {
    /// A policy that has decided nothing yet.
    pub fn new() -> Sia {
        Sia {
            prev: Vec::new(),
            configs: None,
            limits: milp::Limits::default(),
        }
    }

    /// Job `i`'s row G over `configs` (normalised, restart factor applied), docs/MODEL.md §24
    /// §4.3–§4.5.
    pub fn row(
        &self,
        job: &Job,
        i: usize,
        now: f64,
        cluster: &Cluster,
        configs: &[Config],
    ) -> Vec<f64> {
        let app = job.spec.app;
        let types = &cluster.types;
        let measured: Vec<Option<&Measured>> = types
            .iter()
            .map(|&(g, _)| Measured::on(app, g).ok())
            .collect();
        // Share-max-replicas: one cap M for every type.
        let cap_of = |g: Gpu| {
            let m = Measured::on(app, g).ok();
            let by_batch = m.map_or(MAX_REPLICAS, |m| {
                let [lo, _] = m.table_local_range();
                (m.batch_range()[1] / lo.max(1.0))
                    .floor()
                    .min(f64::from(u32::MAX)) as u32
            });
            (2 * job.learner(g).max_replicas())
                .clamp(1, MAX_REPLICAS)
                .min(by_batch)
        };
        let most = types.iter().map(|&(g, _)| cap_of(g)).max().unwrap_or(1);
        let has_model = |k: usize| job.stats.is_some() && job.learner(types[k].0).model().is_some();
        let source = (0..types.len()).find(|&k| has_model(k));
        let mut row = vec![ZERO; configs.len()];
        let mut unknown = vec![false; types.len()];
        for (c, cfg) in configs.iter().enumerate() {
            if cfg.gpus < 1 || cfg.gpus > most {
                continue;
            }
            let k = cfg.kind;
            let (Some(stats), Some(m)) = (job.stats, measured[k]) else {
                unknown[k] = true;
                continue;
            };
            let g = if has_model(k) {
                job.learner(types[k].0)
                    .estimate(m, cfg.nodes, cfg.gpus, job.spec.batch, stats)
            } else if let Some(s) = source {
                let (gs, ms) = (types[s].0, measured[s]);
                let nodes = cfg.gpus.div_ceil(gs.per_node());
                ms.and_then(|ms| {
                    let at_s =
                        job.learner(gs)
                            .estimate(ms, nodes, cfg.gpus, job.spec.batch, stats)?;
                    let ratio = m.one_gpu_throughput() / ms.one_gpu_throughput();
                    Some(at_s * ratio)
                })
            } else {
                unknown[k] = true;
                None
            };
            if let Some(g) = g.filter(|g| g.is_finite()) {
                row[c] = g;
            }
        }
        // Every type unknown for a job that has no statistics yet.
        if job.stats.is_none() {
            unknown.iter_mut().for_each(|u| *u = true);
        }
        let mu = configs
            .iter()
            .zip(&row)
            .filter(|(cfg, &g)| !unknown[cfg.kind] && g > ZERO)
            .map(|(_, &g)| g)
            .fold(f64::INFINITY, f64::min);
        let mu = if mu.is_finite() { mu } else { 1.0 };
        for g in row.iter_mut() {
            *g /= mu;
        }
        for (c, cfg) in configs.iter().enumerate() {
            if unknown[cfg.kind] {
                row[c] = if cfg.gpus == 1 { 1.0 } else { ZERO };
            }
        }
        for g in row.iter_mut() {
            if *g <= ZERO {
                *g = ZERO;
            }
        }
        if let Some(prev) = self.prev.get(i).copied().flatten() {
            let s = restart_estimate_s(app);
            let r = restart_factor(now - job.spec.arrival_s, job.restarts.unwrap_or(0), s);
            for (c, g) in row.iter_mut().enumerate() {
                if c != prev {
                    *g *= r;
                }
            }
        }
        row
    }
}

impl Policy for Sia {
    fn decide(&mut self, view: &View) -> Result<Decision, String> {
        let configs = self
            .configs
            .get_or_insert_with(|| view.cluster.configs())
            .clone();
        if self.prev.len() < view.jobs.len() {
            self.prev.resize(view.jobs.len(), None);
        }
        let lambda = (LAMBDA * 100.0).round() as i64;
        let mut values = Vec::with_capacity(view.active.len());
        let mut pinned = Vec::with_capacity(view.active.len());
        for &i in view.active {
            let job = &view.jobs[i];
            let row = self.row(job, i, view.now, view.cluster, &configs);
            values.push(
                row.iter()
                    .map(|&g| {
                        let v = lambda - a_cents(g);
                        (v > 0).then_some(v)
                    })
                    .collect::<Vec<_>>(),
            );
            // A job still restoring its checkpoint keeps its configuration (§4.6).
            let pin = self.prev[i].filter(|_| job.rescale_s > 0.0 && job.gpu.is_some());
            if let Some(c) = pin {
                let v = lambda - a_cents(row[c]);
                values.last_mut().expect("pushed")[c] = Some(v);
            }
            pinned.push(pin);
        }
        let gpus: Vec<u32> = configs.iter().map(|c| c.gpus).collect();
        let kind: Vec<usize> = configs.iter().map(|c| c.kind).collect();
        let capacity: Vec<u32> = (0..view.cluster.types.len())
            .map(|k| view.cluster.gpus(k))
            .collect();
        let answer = milp::solve(
            &milp::Problem {
                values: &values,
                gpus: &gpus,
                kind: &kind,
                capacity: &capacity,
                pinned: &pinned,
            },
            &self.limits,
        )?;
        for p in self.prev.iter_mut() {
            *p = None;
        }
        let mut alloc = Vec::with_capacity(view.active.len());
        for (k, &i) in view.active.iter().enumerate() {
            self.prev[i] = answer.choice[k];
        }
        let chosen: Vec<(usize, Option<Config>)> = view
            .active
            .iter()
            .zip(&answer.choice)
            .map(|(&i, c)| (i, c.map(|c| configs[c])))
            .collect();
        for (kind, &(g, nodes)) in view.cluster.types.iter().enumerate() {
            let on: Vec<(usize, u32)> = chosen
                .iter()
                .filter_map(|&(i, c)| c.filter(|c| c.kind == kind).map(|c| (i, c.gpus)))
                .collect();
            for (i, per_node) in place(&on, g.per_node(), nodes) {
                alloc.push((i, Some((kind, per_node))));
            }
        }
        for &(i, c) in &chosen {
            if c.is_none() {
                alloc.push((i, None));
            }
        }
        Ok(Decision {
            alloc,
            proven: Some(answer.proven),
        })
    }
}

/// One type's jobs (index, GPUs) on its `nodes` nodes of `per_node` GPUs, as the
/// reference places them (MODEL.md §24.3, `alloc_to_placement_fast`): largest first (ties in
/// the order given), each taking whole free nodes from a cursor that wraps, then its
/// remaining GPUs from the next nodes with free GPUs; the cursor stays where the job ended.
/// Returns each job's GPUs per node.
pub fn place(jobs: &[(usize, u32)], per_node: u32, nodes: u32) -> Vec<(usize, Vec<u32>)> {
    let n = nodes as usize;
    let mut free = vec![per_node; n];
    let mut order: Vec<&(usize, u32)> = jobs.iter().collect();
    order.sort_by_key(|j| std::cmp::Reverse(j.1));
    let mut cursor = 0;
    let mut out = Vec::with_capacity(jobs.len());
    for &&(i, gpus) in &order {
        let mut mine = vec![0u32; n];
        let mut pos = cursor;
        let mut whole = gpus / per_node.max(1);
        for _ in 0..n {
            if whole == 0 {
                break;
            }
            if free[pos] == per_node {
                free[pos] = 0;
                mine[pos] = per_node;
                whole -= 1;
            }
            pos = (pos + 1) % n.max(1);
        }
        let mut rest = gpus % per_node.max(1);
        for _ in 0..n {
            if rest == 0 {
                break;
            }
            let take = free[pos].min(rest);
            free[pos] -= take;
            mine[pos] += take;
            rest -= take;
            pos = (pos + 1) % n.max(1);
        }
        cursor = pos;
        out.push((i, mine));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{Rules, Spec};

    /// §4.7: largest first, whole nodes for multi-node configurations, within one node
    /// otherwise; every GPU once.
    #[test]
    fn placement_packs_configurations() {
        let jobs = [(0, 1), (1, 16), (2, 4), (3, 2), (4, 8), (5, 1)];
        let placed = place(&jobs, 8, 4);
        let mut used = [0u32; 4];
        for (i, p) in &placed {
            let want = jobs.iter().find(|j| j.0 == *i).unwrap().1;
            assert_eq!(p.iter().sum::<u32>(), want);
            let parts: Vec<u32> = p.iter().copied().filter(|&x| x > 0).collect();
            assert!(
                parts.len() == 1 || parts.iter().all(|&x| x == 8),
                "{parts:?}"
            );
            for (n, &x) in p.iter().enumerate() {
                used[n] += x;
            }
        }
        assert_eq!(used, [8, 8, 8, 8]);
        assert_eq!(placed[0], (1, vec![8, 8, 0, 0]));
    }

    /// the Sia artifact's values, MODEL.md §24: a bert job aged 600 s with 2 restarts → 0.5; cifar10 aged 20 s → 1.
    #[test]
    fn restart_factor_vectors() {
        assert_eq!(restart_factor(600.0, 2, restart_estimate_s(App::Bert)), 0.5);
        assert_eq!(
            restart_factor(20.0, 0, restart_estimate_s(App::Cifar10)),
            1.0
        );
    }

    /// the Sia artifact's values, MODEL.md §24: a new job's A row is 1.0 at each type's one-GPU configuration
    /// (indices 0, 8, 13) and 100.0 elsewhere.
    #[test]
    fn a_new_jobs_row() {
        let cluster = Cluster::of(&[(Gpu::T4, 6), (Gpu::A100, 2), (Gpu::Rtx2080ti, 3)]).unwrap();
        let configs = cluster.configs();
        let job = Job::new(
            Spec {
                name: "cifar10-0".into(),
                app: App::Cifar10,
                arrival_s: 0.0,
                gpus: 4,
                batch: 2048.0,
            },
            Rules::default(),
        );
        let row = Sia::new().row(&job, 0, 60.0, &cluster, &configs);
        let a: Vec<i64> = row.iter().map(|&g| a_cents(g)).collect();
        for (c, &x) in a.iter().enumerate() {
            let want = if [0, 8, 13].contains(&c) { 100 } else { 10_000 };
            assert_eq!(x, want, "config {c}");
        }
    }
}
