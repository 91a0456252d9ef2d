//! Every plan of every policy (docs/MODEL.md §5, §7–§9, SCENARIO.md "Plan") checked against
//! independent references: Ω and the capacity by the raw rule `O^w·w + O^p·p ≤ L`, the
//! per-job integer optimum by enumerating the whole box, admission by enumerating subsets,
//! ESW's k by brute force and Optimus by replaying its admission and stopping rule.

use super::{plan_with, Cache, Options, Progress};
use crate::knapsack::guarantee;
use crate::model::JobModel;
use crate::plan::Plan;
use crate::scenario::{Job, Outer, Rounding};
use crate::testutil::{arr, demand, fits, in_omega, limit};
use crate::{generate, plan, GenerateOptions, Mode, Policy, Scenario};

const R: usize = 4;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

fn capacity(s: &Scenario) -> [f64; R] {
    arr(&s.cluster.unit).map(|v| v * s.cluster.units)
}

fn model(s: &Scenario, job: &Job) -> JobModel {
    JobModel::of(job, &s.cluster, s.params.time_unit_s)
}

/// Best value over all subsets of `items` (value, demand) that fit `cap`.
fn best_subset(items: &[(f64, [f64; R])], cap: &[f64; R]) -> f64 {
    fn rec(items: &[(f64, [f64; R])], cap: &[f64; R], used: [f64; R], v: f64, best: &mut f64) {
        let Some(((value, d), rest)) = items.split_first() else {
            *best = best.max(v);
            return;
        };
        rec(rest, cap, used, v, best);
        let u: [f64; R] = std::array::from_fn(|r| used[r] + d[r]);
        if (0..R).all(|r| fits(u[r], cap[r])) {
            rec(rest, cap, u, v + value, best);
        }
    }
    let mut best = 0.0;
    rec(items, cap, [0.0; R], 0.0, &mut best);
    best
}

/// The checks every plan of every policy must pass; returns the admitted demand.
fn check_common(s: &Scenario, pl: &Plan, policy: Policy, ctx: &str) -> [f64; R] {
    assert_eq!(pl.policy, policy, "{ctx}");
    assert_eq!(pl.jobs.len(), s.jobs.len(), "{ctx}: job count");
    let cap = capacity(s);
    let mut used = [0.0; R];
    let mut requested = [0.0; R];
    let mut total = 0.0;
    let mut admitted = 0;
    for (job, line) in s.jobs.iter().zip(&pl.jobs) {
        let ctx = format!("{ctx} job {}", job.id);
        assert_eq!(line.id, job.id, "{ctx}: jobs out of scenario order");
        if !in_omega(s, job, 1, 1) {
            assert!(!line.admitted, "{ctx}: infeasible job admitted");
            let reason = line
                .reason
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(reason.starts_with("infeasible"), "{ctx}: reason {reason:?}");
            assert_eq!((line.workers, line.ps), (None, None), "{ctx}");
            continue;
        }
        let (Some(w), Some(p)) = (line.workers, line.ps) else {
            panic!("{ctx}: a feasible job without an allocation")
        };
        let m = model(s, job);
        assert!(
            m.omega.contains(w as f64, p as f64),
            "{ctx}: ({w}, {p}) not in Ω"
        );
        assert!(
            in_omega(s, job, w, p),
            "{ctx}: ({w}, {p}) breaks O^w·w + O^p·p ≤ L"
        );
        let t = m.t(w as f64, p as f64);
        let ct = line.completion_time_s.expect("time of a feasible job");
        assert!(close(ct, t, 1e-12), "{ctx}: T {ct} vs {t}");
        assert!(
            close(line.utility, m.utility_at(w as f64, p as f64), 1e-12),
            "{ctx}: utility"
        );
        if line.admitted {
            admitted += 1;
            total += line.utility;
            let (d, l) = (demand(job, w, p), limit(s, job));
            for r in 0..R {
                used[r] += d[r];
                requested[r] += l[r];
            }
            assert_eq!(line.reason, None, "{ctx}: admitted with a reason");
        } else {
            let reason = line
                .reason
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(
                reason.starts_with("not selected"),
                "{ctx}: reason {reason:?}"
            );
        }
    }
    assert_eq!(pl.admitted, admitted, "{ctx}: admitted count");
    assert!(
        close(pl.total_utility, total, 1e-9) || (total == 0.0 && pl.total_utility == 0.0),
        "{ctx}: total"
    );
    for r in 0..R {
        assert!(
            fits(used[r], cap[r]),
            "{ctx}: resource {r} over capacity: {} > {}",
            used[r],
            cap[r]
        );
        let (u, q, c) = (
            arr(&pl.resources.used),
            arr(&pl.resources.requested),
            arr(&pl.resources.capacity),
        );
        assert!(
            (u[r] - used[r]).abs() <= 1e-9 * used[r].abs().max(1.0),
            "{ctx}: used[{r}] {} vs {}",
            u[r],
            used[r]
        );
        assert!(
            (q[r] - requested[r]).abs() <= 1e-9 * requested[r].abs().max(1.0),
            "{ctx}: requested[{r}]"
        );
        assert!(
            close(c[r], cap[r], 1e-12) || cap[r] == c[r],
            "{ctx}: capacity[{r}]"
        );
    }
    used
}

/// The admission of `pl` against subset enumeration over its own (w, p) and utilities.
fn admission_optimum(s: &Scenario, pl: &Plan) -> Option<f64> {
    let items: Vec<(f64, [f64; R])> = s
        .jobs
        .iter()
        .zip(&pl.jobs)
        .filter_map(|(job, l)| Some((l.utility, demand(job, l.workers?, l.ps?))))
        .collect();
    (items.len() <= 14).then(|| best_subset(&items, &capacity(s)))
}

/// The integer optimum of T over Ω by enumerating the whole box; ties to smaller w, then p.
fn box_optimum(s: &Scenario, job: &Job, m: &JobModel) -> (u64, u64, f64, bool) {
    let mut best: Option<(u64, u64, f64)> = None;
    let mut tied = false;
    let mut w = 1;
    while in_omega(s, job, w, 1) {
        let mut p = 1;
        while in_omega(s, job, w, p) {
            let t = m.t(w as f64, p as f64);
            match best {
                Some(b) if close(t, b.2, 1e-12) => tied = true,
                Some(b) if t > b.2 => {}
                _ => {
                    best = Some((w, p, t));
                    tied = false;
                }
            }
            p += 1;
        }
        w += 1;
    }
    let (w, p, t) = best.expect("a feasible job");
    (w, p, t, tied)
}

/// Counts (infeasible, not selected) lines, to show the cases were exercised.
fn tally(pl: &Plan, counts: &mut (usize, usize)) {
    for l in &pl.jobs {
        match l.reason.as_ref().map(ToString::to_string).as_deref() {
            Some(r) if r.starts_with("infeasible") => counts.0 += 1,
            Some(_) => counts.1 += 1,
            None => {}
        }
    }
}

fn with_infeasible_job(mut s: Scenario) -> Scenario {
    // One worker alone needs more memory than the limit allows.
    s.jobs[0].limit_instances = 1.0;
    s.jobs[0].worker.memory_gb = 100.0;
    s
}

fn scenarios(jobs: usize) -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for seed in [1, 2, 3] {
        for mode in [Mode::Sync, Mode::Async] {
            for units in [0.2, 1.0, 3.0] {
                let mut s = generate(&GenerateOptions {
                    jobs,
                    seed,
                    mode,
                    units,
                });
                if seed == 1 {
                    s = with_infeasible_job(s);
                }
                out.push((format!("seed {seed} {mode:?} units {units}"), s));
            }
        }
    }
    out
}

#[test]
fn smd_plans_are_feasible() {
    let mut counts = (0, 0);
    for (i, (label, base)) in scenarios(6).into_iter().enumerate() {
        // The inner solve does not depend on the units: rotate the options so that each
        // variant meets every capacity (scenarios come in groups of three units).
        let mut s = base.clone();
        s.params.epsilon = 0.1;
        match (i + i / 3) % 3 {
            0 => {}
            1 => {
                s.params.outer = Outer::Exact;
                s.params.rounding = Rounding::BestCorner;
                s.params.polish = true;
            }
            _ => {
                s.params.m_delta = 2.0;
                s.params.time_unit_s = Some(3600.0);
                s.params.ptas_depth = 1;
            }
        }
        let ctx = format!("smd {label} {:?}", s.params);
        let pl = plan(&s, Policy::Smd).unwrap();
        check_common(&s, &pl, Policy::Smd, &ctx);
        tally(&pl, &mut counts);
        for (job, line) in s.jobs.iter().zip(&pl.jobs) {
            if line.workers.is_some() {
                let (rw, rp) = (line.relaxed_workers.unwrap(), line.relaxed_ps.unwrap());
                assert!(
                    model(&s, job).omega.contains(rw, rp),
                    "{ctx}: x̄ = ({rw}, {rp}) not in Ω"
                );
                assert!(line.relaxed_completion_time_s.unwrap() > 0.0, "{ctx}");
            }
        }
        if let Some(best) = admission_optimum(&s, &pl) {
            if s.params.outer == Outer::Exact {
                assert!(
                    close(pl.total_utility, best, 1e-9) || best == 0.0,
                    "{ctx}: {} vs {best}",
                    pl.total_utility
                );
            } else {
                let g = guarantee(s.params.ptas_depth);
                assert!(
                    pl.total_utility >= g * best * (1.0 - 1e-9),
                    "{ctx}: below q/(q+R)"
                );
                assert!(
                    pl.total_utility <= best * (1.0 + 1e-9) + 1e-12,
                    "{ctx}: above the optimum"
                );
            }
        }
    }
    assert!(
        counts.0 >= 6 && counts.1 > 0,
        "cases not exercised: {counts:?}"
    );
}

#[test]
fn esw_takes_the_largest_equal_split() {
    let mut counts = (0, 0);
    for (label, mut s) in scenarios(10) {
        s.params.ptas_depth = 3;
        let ctx = format!("esw {label}");
        let pl = plan(&s, Policy::Esw).unwrap();
        check_common(&s, &pl, Policy::Esw, &ctx);
        tally(&pl, &mut counts);
        for (job, line) in s.jobs.iter().zip(&pl.jobs) {
            if !in_omega(&s, job, 1, 1) {
                continue;
            }
            let mut k = 1;
            while in_omega(&s, job, k + 1, k + 1) {
                k += 1;
            }
            assert_eq!(
                (line.workers, line.ps),
                (Some(k), Some(k)),
                "{ctx} job {}",
                job.id
            );
        }
        let best = admission_optimum(&s, &pl).unwrap();
        assert!(
            pl.total_utility >= guarantee(3) * best * (1.0 - 1e-9),
            "{ctx}"
        );
    }
    assert!(
        counts.0 >= 6 && counts.1 > 0,
        "cases not exercised: {counts:?}"
    );
}

#[test]
fn exact_is_the_box_optimum_and_the_best_admission() {
    let mut compared = 0;
    let mut counts = (0, 0);
    for (label, mut s) in scenarios(14) {
        s.params.time_unit_s = if label.contains("units 1") {
            Some(3600.0)
        } else {
            None
        };
        let ctx = format!("exact {label}");
        let pl = plan(&s, Policy::Exact).unwrap();
        check_common(&s, &pl, Policy::Exact, &ctx);
        tally(&pl, &mut counts);
        assert!(pl.admission.proven_optimal, "{ctx}: not proven");
        for (job, line) in s.jobs.iter().zip(&pl.jobs) {
            if !in_omega(&s, job, 1, 1) {
                continue;
            }
            let m = model(&s, job);
            let (w, p, t, tied) = box_optimum(&s, job, &m);
            let ct = line.completion_time_s.unwrap();
            assert!(
                close(ct, t, 1e-12),
                "{ctx} job {}: T {ct} vs box optimum {t} at ({w}, {p})",
                job.id
            );
            if !tied {
                assert_eq!(
                    (line.workers, line.ps),
                    (Some(w), Some(p)),
                    "{ctx} job {}",
                    job.id
                );
            }
        }
        if let Some(best) = admission_optimum(&s, &pl) {
            compared += 1;
            assert!(
                close(pl.total_utility, best, 1e-9) || best == 0.0,
                "{ctx}: {} vs {best}",
                pl.total_utility
            );
        }
    }
    assert!(compared >= 12);
    assert!(
        counts.0 >= 6 && counts.1 > 0,
        "cases not exercised: {counts:?}"
    );
}

#[test]
fn optimus_follows_its_greedy() {
    let mut counts = (0, 0);
    let mut grown = 0;
    for (label, s) in scenarios(12) {
        let ctx = format!("optimus {label}");
        let pl = plan(&s, Policy::Optimus).unwrap();
        let used = check_common(&s, &pl, Policy::Optimus, &ctx);
        tally(&pl, &mut counts);
        grown += pl
            .jobs
            .iter()
            .filter(|l| l.admitted && l.workers.unwrap() + l.ps.unwrap() > 2)
            .count();
        let cap = capacity(&s);
        // Admission at (1, 1) in scenario order, skipping jobs that do not fit.
        let mut room = cap;
        for (job, line) in s.jobs.iter().zip(&pl.jobs) {
            if !in_omega(&s, job, 1, 1) {
                continue;
            }
            let d = demand(job, 1, 1);
            let fit = (0..R).all(|r| fits(d[r], room[r]));
            assert_eq!(
                line.admitted, fit,
                "{ctx} job {}: admission at (1, 1)",
                job.id
            );
            if fit {
                for r in 0..R {
                    room[r] -= d[r];
                }
            } else {
                assert_eq!(
                    (line.workers, line.ps),
                    (Some(1), Some(1)),
                    "{ctx} job {}",
                    job.id
                );
            }
        }
        // Stopping rule: no admitted job has a T-reducing move that fits.
        let remaining: [f64; R] = std::array::from_fn(|r| cap[r] - used[r]);
        for (job, line) in s.jobs.iter().zip(&pl.jobs).filter(|(_, l)| l.admitted) {
            let m = model(&s, job);
            let (w, p) = (line.workers.unwrap(), line.ps.unwrap());
            let t = m.t(w as f64, p as f64);
            assert!(
                (w, p) == (1, 1) || t < m.t(1.0, 1.0),
                "{ctx} job {}: ({w}, {p}) no faster than (1, 1)",
                job.id
            );
            for (nw, np, task) in [(w + 1, p, arr(&job.worker)), (w, p + 1, arr(&job.ps))] {
                let fits_room = (0..R).all(|r| fits(task[r], remaining[r]));
                // Stay clear of the tolerance's edge: only moves that fit by a margin count.
                let clear = (0..R).all(|r| task[r] <= remaining[r] - 1e-6 * cap[r].max(1.0));
                let faster = m.t(nw as f64, np as f64) < t * (1.0 - 1e-12);
                if in_omega(&s, job, nw, np) && fits_room && clear && faster {
                    panic!(
                        "{ctx} job {}: ({nw}, {np}) fits and lowers T, greedy stopped early",
                        job.id
                    );
                }
            }
        }
    }
    assert!(
        counts.0 >= 6 && counts.1 > 0 && grown > 0,
        "cases not exercised: {counts:?}, {grown} grown"
    );
}

// The allocation cache and progress reports.

fn without_times(mut p: Plan) -> Plan {
    p.stats.solve_ms = 0.0;
    p.stats.inner_ms = 0.0;
    p.stats.rounding_ms = 0.0;
    p.stats.outer_ms = 0.0;
    p
}

#[test]
fn cache_reuses_unchanged_jobs_and_changes_no_plan() {
    let mut s = generate(&GenerateOptions {
        jobs: 6,
        seed: 4,
        ..Default::default()
    });
    let mut cache = Cache::new();
    let with_cache = |s: &Scenario, cache: &mut Cache| {
        let mut o = Options {
            cache: Some(cache),
            ..Options::default()
        };
        without_times(plan_with(s, Policy::Smd, &mut o).unwrap())
    };
    let first = with_cache(&s, &mut cache);
    let feasible = first.jobs.iter().filter(|j| j.workers.is_some()).count() as u64;
    assert_eq!((cache.hits(), cache.misses()), (0, feasible));
    assert_eq!(first, without_times(crate::plan(&s, Policy::Smd).unwrap()));
    // Edit one feasible job: only it is solved again.
    let k = first.jobs.iter().position(|j| j.workers.is_some()).unwrap();
    s.jobs[k].iterations += 7.0;
    let second = with_cache(&s, &mut cache);
    assert_eq!((cache.hits(), cache.misses()), (feasible - 1, feasible + 1));
    assert_eq!(second, without_times(crate::plan(&s, Policy::Smd).unwrap()));
    // New utilities (and arrivals) reuse every allocation and plan exactly as without it.
    s.version = 2;
    for j in &mut s.jobs {
        j.utility.gamma1 *= 1.5;
        j.utility.gamma3 -= 2.0;
        j.arrival_s = Some(60.0);
    }
    let third = with_cache(&s, &mut cache);
    assert_eq!(
        (cache.hits(), cache.misses()),
        (2 * feasible - 1, feasible + 1)
    );
    assert_eq!(third, without_times(crate::plan(&s, Policy::Smd).unwrap()));
    // A parameter every job depends on invalidates them all.
    s.params.seed += 1;
    with_cache(&s, &mut cache);
    assert_eq!(cache.misses(), 2 * feasible + 1);
    cache.retain_used();
}

#[test]
fn progress_counts_every_job_once_in_order() {
    let mut s = generate(&GenerateOptions {
        jobs: 4,
        seed: 9,
        ..Default::default()
    });
    s.params.epsilon = 0.3;
    for policy in Policy::ALL {
        let mut seen = Vec::new();
        let mut cb = |p: Progress| seen.push((p.jobs_done, p.jobs_total));
        let plan = plan_with(
            &s,
            policy,
            &mut Options {
                progress: Some(&mut cb),
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(plan.stats.solve_ms, 0.0, "no clock, no time");
        let last = *seen.last().unwrap();
        assert_eq!(last, (4, 4), "{policy}");
        assert!(
            seen.windows(2).all(|w| w[0].0 < w[1].0),
            "{policy}: {seen:?}"
        );
    }
}
