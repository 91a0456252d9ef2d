//! The Optimus baseline (docs/MODEL.md §9).

use super::assemble::Candidate;
use crate::knapsack::{self, R};
use crate::model::JobModel;

/// Optimus (docs/MODEL.md §9): admit at (1, 1) in order, then add the task with the best utility
/// gain per dominant share until no move reduces T and fits.
pub(super) fn optimus(models: &[JobModel], cap: &[f64; R]) -> (Vec<Option<Candidate>>, Vec<bool>) {
    let mut remaining = *cap;
    let mut alloc: Vec<Option<(u64, u64)>> = vec![None; models.len()];
    let mut admitted = vec![false; models.len()];
    for (i, m) in models.iter().enumerate() {
        if !m.feasible() {
            continue;
        }
        let least = m.least();
        alloc[i] = Some(least);
        let d = m.demand(least.0 as f64, least.1 as f64);
        if knapsack::fits_all(&d, &remaining) {
            admitted[i] = true;
            for r in 0..R {
                remaining[r] -= d[r];
            }
        }
    }
    let share = |task: &[f64; 4]| -> f64 {
        (0..R)
            .map(|r| {
                if cap[r] > 0.0 {
                    task[r] / cap[r]
                } else if task[r] > 0.0 {
                    f64::INFINITY
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max)
    };
    // A job's possible moves depend only on its own allocation, so each job's keys are
    // computed once per change of it (not once per step of the greedy): the same numbers
    // compared in the same order as recomputing them every step.
    let moves_of = |m: &JobModel, (w, p): (u64, u64)| -> [Option<Move>; 2] {
        let t_now = m.t(w as f64, p as f64);
        let u_now = m.mu(m.pi(t_now));
        let mut out = [None, None];
        // A measured job has no parameter servers to add (MODEL.md §21).
        let moves: &[bool] = if m.is_measured() {
            &[false]
        } else {
            &[false, true]
        };
        for (slot, &is_ps) in out.iter_mut().zip(moves) {
            let (nw, np) = if is_ps { (w, p + 1) } else { (w + 1, p) };
            if !m.contains(nw as f64, np as f64) {
                continue;
            }
            let t_new = m.t(nw as f64, np as f64);
            if t_new >= t_now {
                continue;
            }
            let task = if is_ps { m.omega.op } else { m.omega.ow };
            let s = share(&task);
            *slot = Some(Move {
                gain: (m.mu(m.pi(t_new)) - u_now) / s,
                dt: (t_now - t_new) / s,
                task,
                is_ps,
            });
        }
        out
    };
    let mut moves: Vec<[Option<Move>; 2]> = models
        .iter()
        .zip(&alloc)
        .zip(&admitted)
        .map(|((m, a), &adm)| match a {
            Some(a) if adm => moves_of(m, *a),
            _ => [None, None],
        })
        .collect();
    loop {
        // (gain/share, ΔT/share, job, is_ps)
        let mut best: Option<(f64, f64, usize, bool)> = None;
        for (i, job_moves) in moves.iter().enumerate() {
            for mv in job_moves.iter().flatten() {
                if !knapsack::fits_all(&mv.task, &remaining) {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some((g, dt, _, _)) => mv.gain > g || (mv.gain == g && mv.dt > dt),
                };
                if better {
                    best = Some((mv.gain, mv.dt, i, mv.is_ps));
                }
            }
        }
        let Some((_, _, i, is_ps)) = best else { break };
        let m = &models[i];
        let (w, p) = alloc[i].expect("admitted");
        let task = if is_ps { m.omega.op } else { m.omega.ow };
        for r in 0..R {
            remaining[r] -= task[r];
        }
        let next = if is_ps { (w, p + 1) } else { (w + 1, p) };
        alloc[i] = Some(next);
        moves[i] = moves_of(m, next);
    }
    let cands: Vec<Option<Candidate>> = models
        .iter()
        .zip(&alloc)
        .map(|(m, a)| a.map(|(w, p)| Candidate::at(m, w, p, None, None)))
        .collect();
    // Zero-utility jobs are never admitted (docs/MODEL.md, decisions): a job the greedy
    // could not lift above 0 (e.g. a time unit that puts every π far past γ3) is dropped.
    for (adm, c) in admitted.iter_mut().zip(&cands) {
        if c.as_ref().is_some_and(|c| c.utility <= 0.0) {
            *adm = false;
        }
    }
    (cands, admitted)
}

/// One move of the greedy: a task added to a job, with its gain and ΔT per dominant share.
#[derive(Clone, Copy)]
struct Move {
    gain: f64,
    dt: f64,
    task: [f64; 4],
    is_ps: bool,
}
