//! `locality` (seed 004; docs/MODEL.md §17): each slot, a mixed packing–covering LP over
//! per-job configurations, randomized rounding repeated and repaired, the best kept.
//!
//! Configurations of job j: a few allocations (w = 1, 2, 4, … up to its Ω and 64, its
//! fastest w and its current one; p the integer nearest the best p for w), each priced in
//! its fastest configuration — co-located on one machine (ρ = β) where one machine holds
//! it, evenly spread otherwise (`smd_core::joint::best_t`, docs/MODEL.md §16). For each,
//! `u_jc` = μ of the completion predicted if c were kept (restart paid unless c is the
//! current allocation) and `g_jc` = the fraction of the job's remaining work c does this
//! slot. The LP, with `x_jc ∈ [0, 1]` and slacks `s_j ∈ [0, 1]`:
//!
//! ```text
//! max Σ u_jc·x_jc − M·Σ s_j
//!     Σ_c x_jc ≤ 1                       (one configuration per job)
//!     Σ_jc D_jcr·x_jc ≤ C_r              (packing: the cluster's capacity, per resource)
//!     Σ_c (g_jc / g_j11)·x_jc + s_j ≥ 1  (covering: progress at least (1, 1)'s, or pay M)
//! ```
//!
//! with `M` = 5% of the largest `u_jc` (or 1 when every utility is 0), so covering acts
//! as a fairness and work-conservation term, not above utility. Rounding: each job draws
//! one configuration with probability `x_jc` (none with `1 − Σ_c x_jc`), 16 times from the
//! slot's seeded stream; each draw is repaired (jobs dropped by least utility per dominant
//! share until the capacity holds) and filled (jobs left out start at (1, 1) in arrival
//! order while they fit); the draw of the best LP objective is kept. What holds: the LP
//! optimum bounds the objective of every integral choice of these configurations within
//! the capacity; before repair a draw's expected objective equals the LP's (linearity);
//! after repair every draw is feasible. No constant-factor guarantee is claimed for the
//! repaired draw. Machines enter through the pricing (co-located configurations) and the
//! placement stage; the LP packs the aggregate capacity only.

use super::Decide;
use crate::world::{fits, Decision, Slot};
use smd_core::lp::multiple_choice::{self, Choice};
use smd_core::lp::{Lp, Op, Outcome, Sense};
use smd_core::model::JobModel;
use smd_core::rng::{stream_of, Stream};
use smd_core::Error;

/// Roundings per slot.
pub const ROUNDINGS: usize = 16;
/// Largest w tried besides the job's fastest and current ones.
const MAX_W: u64 = 64;
/// Every w up to this is tried; beyond it, powers of two.
const DENSE_W: u64 = 2;

/// A configuration's allocation, its fastest time per run and its demand.
struct Priced {
    w: u64,
    p: u64,
    t: f64,
    d: [f64; 4],
}

/// A job's priced configurations and the current allocation they were priced for.
type PricedFor = (Option<(u64, u64)>, Vec<Priced>);

struct Config {
    w: u64,
    p: u64,
    u: f64,
    g: f64,
    d: [f64; 4],
}

/// Most active jobs `locality` decides for at once (docs/MODEL.md §17, *Limits*): its LP
/// has a column per configuration of every active job each slot, so a run costs about
/// slots × that LP — 1000 simultaneous arrivals on 16 × t4x4 take about 25 s natively (with
/// progress), 2000 about 75 s. Beyond this the run stops with an error naming it.
pub const MAX_ACTIVE: usize = 2000;

pub(crate) struct Locality {
    colocated: Vec<Vec<JobModel>>,
    /// Each job's fastest integer allocation's w (its model does not change over the run).
    fastest: Vec<Option<u64>>,
    /// Per job, its priced configurations and the current allocation they were priced for.
    priced: Vec<Option<PricedFor>>,
}

impl Locality {
    pub fn new(world: &crate::world::World) -> Locality {
        Locality {
            colocated: smd_core::joint::colocated_models(world.s, &world.models),
            fastest: world
                .models
                .iter()
                .map(|m| m.integer_optimum().map(|(w, _, _)| w))
                .collect(),
            priced: (0..world.models.len()).map(|_| None).collect(),
        }
    }

    /// Job i's configurations (its (1, 1) first).
    fn configs(&mut self, slot: &Slot, i: usize) -> Vec<Config> {
        let world = slot.world;
        let m = &world.models[i];
        let e = world.s.jobs[i].work();
        let rem = slot.state.remaining[i];
        let current = slot.state.current[i];
        let priced = self.priced(world, i, current);
        priced
            .iter()
            .map(|b| {
                let restart = if current == Some((b.w, b.p)) {
                    0.0
                } else {
                    world.restart
                };
                let t_rem = b.t * rem / e;
                let jct = slot.now + restart + t_rem - world.arrival[i];
                let done = ((world.delta - restart).max(0.0) * e / b.t).min(rem);
                Config {
                    w: b.w,
                    p: b.p,
                    u: m.mu(m.pi(jct)),
                    g: done / rem,
                    d: b.d,
                }
            })
            .collect()
    }

    /// Job i's allocations and their fastest times and demands: these depend on the job and
    /// its current allocation only, so they are priced again only when that changes (a
    /// job keeps its allocation for many slots).
    fn priced(
        &mut self,
        world: &crate::world::World,
        i: usize,
        current: Option<(u64, u64)>,
    ) -> &[Priced] {
        if self.priced[i].as_ref().is_none_or(|(at, _)| *at != current) {
            let m = &world.models[i];
            let top = m.w_max_int().min(MAX_W);
            let mut ws: Vec<u64> = (1..=top.min(DENSE_W)).collect();
            let mut w = 2 * DENSE_W;
            while w <= top {
                ws.push(w);
                w *= 2;
            }
            ws.extend(self.fastest[i]);
            ws.extend(current.map(|(w, _)| w));
            ws.sort_unstable();
            ws.dedup();
            // One configuration per w, and the current one beside it.
            let mut out = Vec::with_capacity(ws.len() + 1);
            for w in ws {
                let range = m.p_range(w);
                if range.is_empty() {
                    continue;
                }
                let (pmin, pmax) = (*range.start(), *range.end());
                let best = if w == 1 {
                    pmin
                } else {
                    (m.best_p_for(w as f64).round() as u64).clamp(pmin, pmax)
                };
                let also = current
                    .and_then(|(cw, cp)| (cw == w && cp <= pmax && cp != best).then_some(cp));
                for p in std::iter::once(best).chain(also) {
                    let (t, _) = smd_core::joint::best_t(m, &self.colocated[i], w, p);
                    out.push(Priced {
                        w,
                        p,
                        t,
                        d: m.demand(w as f64, p as f64),
                    });
                }
            }
            self.priced[i] = Some((current, out));
        }
        self.priced[i].as_ref().map_or(&[], |(_, out)| out)
    }
}

impl Decide for Locality {
    fn decide(&mut self, slot: &Slot) -> Result<Decision, Error> {
        if slot.active.len() > MAX_ACTIVE {
            return Err(super::too_many(
                "locality",
                slot,
                MAX_ACTIVE,
                "fifo or oasis",
            ));
        }
        let world = slot.world;
        let jobs: Vec<usize> = slot
            .active
            .iter()
            .copied()
            .filter(|&i| world.models[i].feasible())
            .collect();
        let configs: Vec<Vec<Config>> = jobs.iter().map(|&i| self.configs(slot, i)).collect();
        let u_max = configs.iter().flatten().map(|c| c.u).fold(0.0, f64::max);
        let big_m = if u_max > 0.0 { 0.05 * u_max } else { 1.0 };
        let x = shares(&configs, big_m, &world.cap)?.1;
        // Repeated rounding, repaired and filled; the best objective kept.
        let mut rng = Stream::new(
            world.s.params.seed,
            stream_of("locality") ^ slot.index as u64,
        );
        let mut best: Option<(f64, Vec<Option<usize>>)> = None;
        for _ in 0..ROUNDINGS {
            let mut pick: Vec<Option<usize>> = x
                .iter()
                .map(|ids| {
                    let r = rng.unit();
                    let mut acc = 0.0;
                    ids.iter().position(|&v| {
                        acc += v.max(0.0);
                        r < acc
                    })
                })
                .collect();
            repair(&configs, &mut pick, &world.cap);
            let value = objective(&configs, &pick, big_m);
            if best.as_ref().is_none_or(|b| value > b.0) {
                best = Some((value, pick));
            }
        }
        let mut d = slot.decision();
        if let Some((_, pick)) = best {
            for (k, &i) in jobs.iter().enumerate() {
                match pick[k] {
                    Some(c) => d.alloc[i] = Some((configs[k][c].w, configs[k][c].p)),
                    None => d.why[i] = Some("locality: no capacity this slot".into()),
                }
            }
        }
        for &i in slot.active {
            if !world.models[i].feasible() {
                d.why[i] = Some("its (1, 1) exceeds its limit".into());
            }
        }
        Ok(d)
    }
}

/// Job k's covering coefficients `g_jc / g_j11` (capped, as in the LP's covering row).
fn cover(cs: &[Config]) -> impl Iterator<Item = f64> + '_ {
    let g11 = cs.first().map_or(1.0, |c| c.g).max(1e-12);
    cs.iter().map(move |c| (c.g / g11).min(1e6))
}

/// The LP's optimum and its shares `x_jc` per job and configuration (docs/MODEL.md §17).
///
/// Solved as a multiple-choice packing LP: with `s_j` at its least, `max(0, 1 − Σ_c a_jc·x_jc)`,
/// job j's part of the objective is concave and piecewise linear over its simplex — linear
/// on either side of the covering hyperplane — so every feasible `x_j` is a convex
/// combination, of equal value and demand, of the vertices of the piece it lies in: none,
/// one configuration, or the hyperplane's crossings of the simplex's edges (from none to a
/// configuration with `a > 1`, between one with `a > 1` and one with `a < 1`). The LP over
/// those vertices, one convex combination per job within the capacity, has the same optimum
/// (`smd_core::lp::multiple_choice`, an R×R basis instead of the general LP's two rows per
/// job). Should that solver fail, the general LP decides the slot.
fn shares(
    configs: &[Vec<Config>],
    big_m: f64,
    cap: &[f64; 4],
) -> Result<(f64, Vec<Vec<f64>>), Error> {
    by_vertices(configs, big_m, cap).or_else(|_| by_lp(configs, big_m, cap))
}

/// A vertex of a job's pieces: up to two configurations and their shares.
type Vertex = [(usize, f64); 2];

/// [`shares`] by the multiple-choice LP over every job's vertices.
fn by_vertices(
    configs: &[Vec<Config>],
    big_m: f64,
    cap: &[f64; 4],
) -> Result<(f64, Vec<Vec<f64>>), Error> {
    let none: Vertex = [(0, 0.0), (0, 0.0)];
    let mut groups: Vec<Vec<Choice<4>>> = Vec::with_capacity(configs.len());
    let mut points: Vec<Vec<Vertex>> = Vec::with_capacity(configs.len());
    for cs in configs {
        let a: Vec<f64> = cover(cs).collect();
        // None, each configuration, and the crossings of the edges from none and from
        // each a > 1 to each a < 1.
        let (above, below) = (
            a.iter().filter(|&&x| x > 1.0).count(),
            a.iter().filter(|&&x| x < 1.0).count(),
        );
        let most = 1 + cs.len() + above * (1 + below);
        let mut options = Vec::with_capacity(most);
        options.push(Choice {
            value: -big_m,
            demand: [0.0; 4],
        });
        let mut at = Vec::with_capacity(most);
        at.push(none);
        // A vertex worth no more than none (zero demand) is dominated by it: left out.
        let mut push = |value: f64, demand: [f64; 4], v: Vertex| {
            if value > -big_m {
                options.push(Choice { value, demand });
                at.push(v);
            }
        };
        for (c, cfg) in cs.iter().enumerate() {
            push(
                cfg.u - big_m * (1.0 - a[c]).max(0.0),
                cfg.d,
                [(c, 1.0), (c, 0.0)],
            );
        }
        for (c, cfg) in cs.iter().enumerate().filter(|&(c, _)| a[c] > 1.0) {
            let t = 1.0 / a[c];
            push(t * cfg.u, cfg.d.map(|d| t * d), [(c, t), (c, 0.0)]);
            for (e, other) in cs.iter().enumerate().filter(|&(e, _)| a[e] < 1.0) {
                let t = (1.0 - a[e]) / (a[c] - a[e]);
                push(
                    t * cfg.u + (1.0 - t) * other.u,
                    std::array::from_fn(|r| t * cfg.d[r] + (1.0 - t) * other.d[r]),
                    [(c, t), (e, 1.0 - t)],
                );
            }
        }
        groups.push(options);
        points.push(at);
    }
    let solution = multiple_choice::solve(&groups, cap)?;
    let x = configs
        .iter()
        .zip(&points)
        .zip(&solution.weights)
        .map(|((cs, at), weights)| {
            let mut x = vec![0.0; cs.len()];
            for &(o, w) in weights {
                for (c, share) in at[o] {
                    x[c] += w * share;
                }
            }
            x
        })
        .collect();
    Ok((solution.value, x))
}

/// [`shares`] by the general LP as written in docs/MODEL.md §17.
fn by_lp(
    configs: &[Vec<Config>],
    big_m: f64,
    cap: &[f64; 4],
) -> Result<(f64, Vec<Vec<f64>>), Error> {
    let mut lp = Lp::new(Sense::Max);
    let mut vars: Vec<Vec<usize>> = Vec::with_capacity(configs.len());
    let mut packing: [Vec<(usize, f64)>; 4] = Default::default();
    for cs in configs {
        let ids: Vec<usize> = cs.iter().map(|c| lp.var(c.u, 0.0, 1.0)).collect();
        for (c, &x) in cs.iter().zip(&ids) {
            for r in 0..4 {
                if c.d[r] > 0.0 {
                    packing[r].push((x, c.d[r]));
                }
            }
        }
        lp.row(
            &ids.iter().map(|&x| (x, 1.0)).collect::<Vec<_>>(),
            Op::Le,
            1.0,
        );
        let s = lp.var(-big_m, 0.0, 1.0);
        let mut row: Vec<(usize, f64)> = ids.iter().copied().zip(cover(cs)).collect();
        row.push((s, 1.0));
        lp.row(&row, Op::Ge, 1.0);
        vars.push(ids);
    }
    for (r, terms) in packing.iter().enumerate() {
        if !terms.is_empty() {
            lp.row(terms, Op::Le, cap[r]);
        }
    }
    match lp.solve()? {
        Outcome::Optimal { x, objective } => Ok((
            objective,
            vars.iter()
                .map(|ids| ids.iter().map(|&v| x[v]).collect())
                .collect(),
        )),
        // All-zero is feasible (slacks at 1): neither can happen; plan nothing.
        Outcome::Infeasible | Outcome::Unbounded => {
            Err(Error::Solver("the locality LP has no optimum".into()))
        }
    }
}

/// Drops jobs by least utility per dominant share until the picks fit `cap`, then starts
/// the jobs left out at (1, 1) (their first configuration), in order, while they fit.
fn repair(configs: &[Vec<Config>], pick: &mut [Option<usize>], cap: &[f64; 4]) {
    let used = |pick: &[Option<usize>]| {
        let mut u = [0.0; 4];
        for (k, c) in pick.iter().enumerate() {
            if let Some(c) = c {
                (0..4).for_each(|r| u[r] += configs[k][*c].d[r]);
            }
        }
        u
    };
    let share = |c: &Config| {
        (0..4)
            .filter(|&r| cap[r] > 0.0)
            .map(|r| c.d[r] / cap[r])
            .fold(0.0, f64::max)
    };
    let mut u = used(pick);
    while !fits(&u, cap) {
        let worst = pick
            .iter()
            .enumerate()
            .filter_map(|(k, c)| c.map(|c| (k, &configs[k][c])))
            .min_by(|a, b| {
                let da = a.1.u / share(a.1).max(1e-12);
                let db = b.1.u / share(b.1).max(1e-12);
                da.total_cmp(&db).then(b.0.cmp(&a.0))
            })
            .map(|(k, _)| k);
        match worst {
            Some(k) => pick[k] = None,
            None => break,
        }
        u = used(pick);
    }
    for k in 0..pick.len() {
        if pick[k].is_some() || configs[k].is_empty() {
            continue;
        }
        let after: [f64; 4] = std::array::from_fn(|r| u[r] + configs[k][0].d[r]);
        if fits(&after, cap) {
            pick[k] = Some(0);
            u = after;
        }
    }
}

/// The LP's objective at an integral pick.
fn objective(configs: &[Vec<Config>], pick: &[Option<usize>], big_m: f64) -> f64 {
    pick.iter()
        .enumerate()
        .map(|(k, c)| {
            let g11 = configs[k].first().map_or(1.0, |c| c.g).max(1e-12);
            match c {
                Some(c) => {
                    let cfg = &configs[k][*c];
                    cfg.u - big_m * (1.0 - (cfg.g / g11).min(1.0))
                }
                None => -big_m,
            }
        })
        .sum()
}

#[cfg(test)]
mod tests;
