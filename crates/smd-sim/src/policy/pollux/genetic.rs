//! The reference's search for Pollux's problem, as POLLUX-SIM.md §4.3 specifies it, to
//! measure the project's optimiser against (docs/FIDELITY.md): NSGA-II over the J × H
//! matrix with the two objectives (−FITNESS, −UTILITY), a population of 100, 99 rounds of
//! 100 children (single-point crossover over jobs with probability 0.9, the three
//! mutations, the repair, duplicates eliminated), survival by non-dominated rank and
//! crowding distance; the decision is the fittest member of the final front. Seeded (the
//! reference's is not, §6), so runs repeat.

use super::search::{spread, Problem, Rows};
use smd_core::rng::Stream;

/// Population size and generations (§4.3).
const POPULATION: usize = 100;
const GENERATIONS: usize = 100;
/// Crossover probability (pymoo's default) and the mutation probabilities (§4.3).
const CROSSOVER: f64 = 0.9;
const RESET: f64 = 0.1;
const SELECT: f64 = 0.1;
const ZERO: f64 = 0.1;
/// Refill attempts when duplicates are eliminated.
const REFILL: usize = 100;

/// A member: its matrix and objectives (both minimised).
#[derive(Clone)]
struct Member {
    rows: Rows,
    f: [f64; 2],
}

/// What the search keeps between ticks, and the job of each row of a member.
pub(crate) struct Memory {
    /// The last call's final front, each member's rows by global job index.
    front: Vec<Vec<(usize, Vec<u32>)>>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory { front: Vec::new() }
    }
}

/// One call: the fittest allocation NSGA-II finds for `p`, whose job `k` is global job
/// `ids[k]`; `rng` drives every random choice; `memory` seeds the population with the
/// last call's front (the base alone at first) and keeps this call's.
pub(crate) fn search(p: &Problem, ids: &[usize], rng: &mut Stream, memory: &mut Memory) -> Rows {
    let base: Rows = p.jobs.iter().map(|j| j.base.clone()).collect();
    let h = p.gpus.len();
    let mut seeds: Vec<Rows> = if memory.front.is_empty() {
        vec![base.clone()]
    } else {
        memory
            .front
            .iter()
            .map(|m| {
                ids.iter()
                    .map(|&i| {
                        m.iter()
                            .find(|(g, _)| *g == i)
                            .map_or_else(|| vec![0; h], |(_, r)| r.clone())
                    })
                    .collect()
            })
            .collect()
    };
    for s in &mut seeds {
        repair(p, s, rng);
    }
    let mut pop: Vec<Member> = Vec::new();
    for rows in seeds {
        if !pop.iter().any(|m| m.rows == rows) {
            let f = objectives(p, &rows);
            pop.push(Member { rows, f });
        }
    }
    for _ in 1..GENERATIONS {
        let (rank, crowd) = rank_and_crowding(&pop);
        let mut children: Vec<Member> = Vec::new();
        let mut attempts = 0;
        while children.len() < POPULATION && attempts <= REFILL {
            attempts += 1;
            let need = POPULATION - children.len();
            let mut batch: Vec<Rows> = Vec::with_capacity(need + 1);
            while batch.len() < need {
                let a = tournament(&pop, &rank, &crowd, rng);
                let b = tournament(&pop, &rank, &crowd, rng);
                let (mut x, mut y) = (pop[a].rows.clone(), pop[b].rows.clone());
                if rng.unit() < CROSSOVER && !x.is_empty() {
                    let k = rng.int(0, x.len() as u64 - 1) as usize;
                    for j in 0..k {
                        std::mem::swap(&mut x[j], &mut y[j]);
                    }
                }
                for mut c in [x, y] {
                    mutate(p, &mut c, rng);
                    repair(p, &mut c, rng);
                    batch.push(c);
                }
            }
            batch.truncate(need);
            for rows in batch {
                let dup =
                    pop.iter().any(|m| m.rows == rows) || children.iter().any(|m| m.rows == rows);
                if !dup {
                    let f = objectives(p, &rows);
                    children.push(Member { rows, f });
                }
            }
        }
        pop.extend(children);
        pop = survive(pop, POPULATION);
    }
    let (rank, _) = rank_and_crowding(&pop);
    let front: Vec<&Member> = pop
        .iter()
        .zip(&rank)
        .filter(|(_, &r)| r == 0)
        .map(|(m, _)| m)
        .collect();
    memory.front = front
        .iter()
        .map(|m| ids.iter().copied().zip(m.rows.iter().cloned()).collect())
        .collect();
    // The fittest (the first on ties).
    let mut best = front[0];
    for m in &front[1..] {
        if m.f[0] < best.f[0] {
            best = m;
        }
    }
    best.rows.clone()
}

/// (−FITNESS, −UTILITY).
fn objectives(p: &Problem, rows: &Rows) -> [f64; 2] {
    [-p.fitness(p.total(rows)), -p.utility(rows)]
}

fn dominates(a: &[f64; 2], b: &[f64; 2]) -> bool {
    a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1])
}

/// Each member's non-dominated rank (0: the front) and crowding distance within its rank.
fn rank_and_crowding(pop: &[Member]) -> (Vec<usize>, Vec<f64>) {
    let n = pop.len();
    let mut rank = vec![usize::MAX; n];
    let mut dominated_by = vec![0usize; n];
    let mut dominates_list: Vec<Vec<usize>> = vec![Vec::new(); n];
    for a in 0..n {
        for b in 0..n {
            if a != b && dominates(&pop[a].f, &pop[b].f) {
                dominates_list[a].push(b);
            } else if a != b && dominates(&pop[b].f, &pop[a].f) {
                dominated_by[a] += 1;
            }
        }
    }
    let mut current: Vec<usize> = (0..n).filter(|&a| dominated_by[a] == 0).collect();
    let mut r = 0;
    let mut crowd = vec![0.0; n];
    while !current.is_empty() {
        for &a in &current {
            rank[a] = r;
        }
        crowding(pop, &current, &mut crowd);
        let mut next = Vec::new();
        for &a in &current {
            for &b in &dominates_list[a] {
                dominated_by[b] -= 1;
                if dominated_by[b] == 0 {
                    next.push(b);
                }
            }
        }
        next.sort_unstable();
        current = next;
        r += 1;
    }
    (rank, crowd)
}

/// Crowding distances of the members `front` (the ends of each objective: infinite).
fn crowding(pop: &[Member], front: &[usize], crowd: &mut [f64]) {
    for &a in front {
        crowd[a] = 0.0;
    }
    if front.len() <= 2 {
        for &a in front {
            crowd[a] = f64::INFINITY;
        }
        return;
    }
    for k in 0..2 {
        let mut order = front.to_vec();
        order.sort_by(|&a, &b| pop[a].f[k].total_cmp(&pop[b].f[k]).then(a.cmp(&b)));
        let (lo, hi) = (pop[order[0]].f[k], pop[order[order.len() - 1]].f[k]);
        crowd[order[0]] = f64::INFINITY;
        crowd[order[order.len() - 1]] = f64::INFINITY;
        let span = hi - lo;
        if span <= 0.0 {
            continue;
        }
        for w in 1..order.len() - 1 {
            crowd[order[w]] += (pop[order[w + 1]].f[k] - pop[order[w - 1]].f[k]) / span;
        }
    }
}

/// Binary tournament: the dominating one, else the larger crowding distance, else at random.
fn tournament(pop: &[Member], rank: &[usize], crowd: &[f64], rng: &mut Stream) -> usize {
    let n = pop.len() as u64;
    let a = rng.int(0, n - 1) as usize;
    let b = rng.int(0, n - 1) as usize;
    if dominates(&pop[a].f, &pop[b].f) {
        return a;
    }
    if dominates(&pop[b].f, &pop[a].f) {
        return b;
    }
    let _ = rank;
    if crowd[a] > crowd[b] {
        a
    } else if crowd[b] > crowd[a] {
        b
    } else if rng.unit() < 0.5 {
        a
    } else {
        b
    }
}

/// Survival: whole ranks while they fit, the last one by decreasing crowding distance.
fn survive(pop: Vec<Member>, size: usize) -> Vec<Member> {
    let (rank, crowd) = rank_and_crowding(&pop);
    let mut order: Vec<usize> = (0..pop.len()).collect();
    order.sort_by(|&a, &b| {
        rank[a]
            .cmp(&rank[b])
            .then(crowd[b].total_cmp(&crowd[a]))
            .then(a.cmp(&b))
    });
    order.truncate(size);
    order.into_iter().map(|k| pop[k].clone()).collect()
}

/// The three mutations of §4.3.
fn mutate(p: &Problem, rows: &mut Rows, rng: &mut Stream) {
    let h = p.gpus.len();
    for (j, row) in rows.iter_mut().enumerate() {
        if rng.unit() < RESET {
            row.clone_from(&p.jobs[j].base);
        }
    }
    for row in rows.iter_mut() {
        if rng.unit() < SELECT {
            for g in row.iter_mut() {
                if rng.unit() < ZERO {
                    *g = 0;
                }
            }
        }
    }
    let free: Vec<i64> = (0..h)
        .map(|k| i64::from(p.gpus[k]) - rows.iter().map(|r| i64::from(r[k])).sum::<i64>())
        .collect();
    let f: Vec<bool> = free.iter().map(|&x| x >= 1).collect();
    let nf = f.iter().filter(|&&x| x).count();
    for row in rows.iter_mut() {
        let held: Vec<bool> = (0..h).map(|k| f[k] && row[k] > 0).collect();
        let nh = held.iter().filter(|&&x| x).count();
        for k in 0..h {
            let p1 = if f[k] { 1.0 / nf as f64 } else { 0.0 };
            let p2 = if held[k] { 1.0 / nh as f64 } else { 0.0 };
            if rng.unit() < p1 + p2 - p1 * p2 {
                let top = u64::from(p.gpus[k]);
                let cur = u64::from(row[k]).min(top);
                row[k] = rng.int(cur, top) as u32;
            }
        }
    }
}

/// The repair of §4.3: (a) interference avoidance, (b) max_replicas in a random order of
/// the row's machines, (d) each machine's GPUs in job order.
fn repair(p: &Problem, rows: &mut Rows, rng: &mut Stream) {
    let h = p.gpus.len();
    let spread: Vec<bool> = rows.iter().map(|r| spread(r)).collect();
    for k in 0..h {
        let mut seen = false;
        for (j, row) in rows.iter_mut().enumerate() {
            if spread[j] && row[k] > 0 {
                if seen {
                    row[k] = 0;
                }
                seen = true;
            }
        }
    }
    for (j, row) in rows.iter_mut().enumerate() {
        let mut order: Vec<usize> = (0..h).collect();
        for a in (1..h).rev() {
            let b = rng.int(0, a as u64) as usize;
            order.swap(a, b);
        }
        let mut total = 0;
        for k in order {
            let g = row[k].min(p.jobs[j].max.saturating_sub(total));
            row[k] = g;
            total += g;
        }
    }
    for k in 0..h {
        let mut total = 0;
        for row in rows.iter_mut() {
            let g = row[k].min(p.gpus[k].saturating_sub(total));
            row[k] = g;
            total += g;
        }
    }
}
