//! Algorithm 2 (docs/MODEL.md §7), `crate::rounding::round`: feasibility, attempts, the
//! fallback, determinism, the effect of M_δ, and the best-corner rule against the corners
//! enumerated here.

use crate::inner::solve;
use crate::model::JobModel;
use crate::rng::Stream;
use crate::rounding::{round, Rounded};
use crate::scenario::{Mode, Rounding};
use crate::testutil;
use crate::testutil::{inside, intersections, lines, t_of, Line};

const M_DELTAS: [f64; 4] = [1.0, 1.5, 2.0, 4.0];
const RULES: [Rounding; 2] = [Rounding::Paper, Rounding::BestCorner];

/// Feasible pairwise intersections of Ω's constraint lines.
fn vertices(ls: &[Line]) -> Vec<[f64; 2]> {
    intersections(ls, 1e-12, false)
}

/// Random points of Ω (rejection sampling in its bounding box), plus its vertices.
fn points_in(m: &JobModel, s: &mut Stream, count: usize) -> Vec<[f64; 2]> {
    let ls = lines(m);
    let vs = vertices(&ls);
    let wmax = vs.iter().map(|v| v[0]).fold(1.0, f64::max);
    let pmax = vs.iter().map(|v| v[1]).fold(1.0, f64::max);
    let mut out: Vec<[f64; 2]> = vs
        .into_iter()
        .filter(|v| m.omega.contains(v[0], v[1]))
        .collect();
    let mut tries = 0;
    while out.len() < count && tries < 100 * count {
        tries += 1;
        let x = [s.uniform(1.0, wmax), s.uniform(1.0, pmax)];
        if inside(&ls, x, 0.0) {
            out.push(x);
        }
    }
    out
}

/// x̃ computed here: 1 + (x̄ − 1)/M_δ.
fn x_tilde(x: [f64; 2], m_delta: f64) -> [f64; 2] {
    [1.0 + (x[0] - 1.0) / m_delta, 1.0 + (x[1] - 1.0) / m_delta]
}

/// The floor/ceil corners of x̃ (one value per coordinate when it is an integer).
fn corners(xt: [f64; 2]) -> Vec<(u64, u64)> {
    let ws = if xt[0].fract() == 0.0 {
        vec![xt[0]]
    } else {
        vec![xt[0].floor(), xt[0].ceil()]
    };
    let ps = if xt[1].fract() == 0.0 {
        vec![xt[1]]
    } else {
        vec![xt[1].floor(), xt[1].ceil()]
    };
    let mut out = Vec::new();
    for &w in &ws {
        for &p in &ps {
            out.push((w as u64, p as u64));
        }
    }
    out
}

fn jobs(seed: u64, mode: Mode, count: usize) -> Vec<JobModel> {
    (0..)
        .map(|i| testutil::generated(seed, i, mode))
        .filter(|m| m.feasible())
        .take(count)
        .collect()
}

/// Checks the invariants of one result; returns it.
fn check_one(
    m: &JobModel,
    x: [f64; 2],
    md: f64,
    cap: u32,
    rule: Rounding,
    s: &mut Stream,
    what: &str,
) -> Rounded {
    let r = round(m, x, md, cap, rule, s);
    let ctx = format!("{what}: x̄ = {x:?}, M_δ = {md}, cap {cap}, {rule:?} → {r:?}");
    assert!(
        m.omega.contains(r.w as f64, r.p as f64),
        "{ctx}: result outside Ω"
    );
    assert!(r.w >= 1 && r.p >= 1, "{ctx}");
    assert!(
        r.attempts >= 1 && r.attempts <= cap,
        "{ctx}: attempts out of [1, cap]"
    );
    let xt = x_tilde(x, md);
    let fl = (xt[0].floor() as u64, xt[1].floor() as u64);
    if r.fallback {
        assert_eq!((r.w, r.p), fl, "{ctx}: the fallback must be ⌊x̃⌋ = {fl:?}");
        if rule == Rounding::Paper {
            assert_eq!(r.attempts, cap, "{ctx}: a fallback uses up the cap");
        }
    } else {
        assert!(
            corners(xt).contains(&(r.w, r.p)),
            "{ctx}: not a floor/ceil corner of x̃ = {xt:?}"
        );
    }
    if rule == Rounding::BestCorner {
        assert_eq!(r.attempts, 1, "{ctx}");
        let feasible: Vec<(u64, u64)> = corners(xt)
            .into_iter()
            .filter(|&(w, p)| m.omega.contains(w as f64, p as f64))
            .collect();
        let t = t_of(m, r.w as f64, r.p as f64);
        for &(w, p) in &feasible {
            let tc = t_of(m, w as f64, p as f64);
            assert!(
                t <= tc * (1.0 + 1e-12),
                "{ctx}: corner ({w}, {p}) has T = {tc} < {t}"
            );
        }
        assert_eq!(
            r.fallback,
            feasible.is_empty(),
            "{ctx}: feasible corners {feasible:?}"
        );
    }
    r
}

#[test]
fn random_points_stay_in_omega() {
    let mut fallbacks = 0;
    let mut checked = 0;
    for (seed, mode) in [(41, Mode::Sync), (42, Mode::Async)] {
        for (k, m) in jobs(seed, mode, 60).iter().enumerate() {
            let mut s = Stream::new(seed, 1000 + k as u64);
            for x in points_in(m, &mut s, 12) {
                assert!(m.omega.contains(x[0], x[1]));
                for md in M_DELTAS {
                    for rule in RULES {
                        for cap in [1000, 3, 1] {
                            let mut rs = Stream::new(7, checked);
                            let what = format!("seed {seed} job {k}");
                            let r = check_one(m, x, md, cap, rule, &mut rs, &what);
                            fallbacks += u32::from(r.fallback);
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("{checked} roundings, {fallbacks} fallbacks");
    assert!(checked > 10_000);
    assert!(fallbacks > 0, "no fallback exercised");
}

#[test]
fn cap_of_one_falls_back_to_floor() {
    // A vertex of Ω on a slanted face with fractional coordinates: rounding w or p up
    // leaves Ω, so with a cap of 1 many draws fail and give ⌊x̃⌋.
    let mut fallbacks = 0;
    let mut total = 0;
    for m in jobs(43, Mode::Sync, 40) {
        let ls = lines(&m);
        for v in vertices(&ls) {
            if v[0].fract() == 0.0 || v[1].fract() == 0.0 || !m.omega.contains(v[0], v[1]) {
                continue;
            }
            for stream in 0..20 {
                let mut s = Stream::new(3, stream);
                let r = check_one(&m, v, 1.0, 1, Rounding::Paper, &mut s, "vertex, cap 1");
                total += 1;
                if r.fallback {
                    fallbacks += 1;
                    assert_eq!((r.w, r.p), (v[0].floor() as u64, v[1].floor() as u64));
                    assert_eq!(r.attempts, 1);
                }
            }
        }
    }
    eprintln!("{total} cap-1 roundings at fractional vertices, {fallbacks} fallbacks");
    assert!(
        fallbacks > 10,
        "the fallback was hardly exercised ({fallbacks})"
    );
}

#[test]
fn same_stream_same_result_different_streams_differ() {
    let mut differ = 0;
    let mut n = 0;
    for (seed, mode) in [(44, Mode::Sync), (45, Mode::Async)] {
        for (k, m) in jobs(seed, mode, 50).iter().enumerate() {
            let mut s = Stream::new(seed, k as u64);
            for x in points_in(m, &mut s, 4) {
                for md in [1.0, 2.0] {
                    let a = round(
                        m,
                        x,
                        md,
                        1000,
                        Rounding::Paper,
                        &mut Stream::new(9, k as u64),
                    );
                    let b = round(
                        m,
                        x,
                        md,
                        1000,
                        Rounding::Paper,
                        &mut Stream::new(9, k as u64),
                    );
                    assert_eq!(a, b, "same seed and stream, different result");
                    let c = round(
                        m,
                        x,
                        md,
                        1000,
                        Rounding::Paper,
                        &mut Stream::new(9, k as u64 + 1),
                    );
                    let d = round(
                        m,
                        x,
                        md,
                        1000,
                        Rounding::Paper,
                        &mut Stream::new(10, k as u64),
                    );
                    differ += usize::from(a != c) + usize::from(a != d);
                    n += 2;
                }
            }
        }
    }
    eprintln!("{differ} of {n} draws differ across streams / seeds");
    assert!(differ > 0, "different streams never differ");
}

/// x̄ and T(x̄) of one job.
type Relaxed = ([f64; 2], f64);

/// Per job: x̄ from Algorithm 1 at ε = 0.1 and T(x̄).
fn relaxed(ms: &[JobModel]) -> Vec<Relaxed> {
    ms.iter()
        .map(|m| {
            let sol = solve(m, 0.1).expect("Algorithm 1");
            assert!(m.omega.contains(sol.x[0], sol.x[1]));
            (sol.x, sol.t)
        })
        .collect()
}

#[test]
fn m_delta_trades_attempts_for_time() {
    // 100 sync + 100 async jobs; x̄ computed once (two threads), reused for every M_δ.
    let sets = [(46, Mode::Sync), (47, Mode::Async)];
    let data: Vec<(Vec<JobModel>, Vec<Relaxed>)> = std::thread::scope(|sc| {
        let hs: Vec<_> = sets
            .iter()
            .map(|&(seed, mode)| {
                sc.spawn(move || {
                    let ms = jobs(seed, mode, 100);
                    let xs = relaxed(&ms);
                    (ms, xs)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    const DRAWS: u64 = 10;
    let mut prev: Option<(f64, f64)> = None;
    for md in M_DELTAS {
        let (mut attempts, mut ratio, mut n) = (0.0, 0.0, 0.0);
        let mut bc_ratio = 0.0;
        for (set, (ms, xs)) in data.iter().enumerate() {
            for (k, (m, &(x, t))) in ms.iter().zip(xs).enumerate() {
                for d in 0..DRAWS {
                    let mut s = Stream::new(100 + set as u64, k as u64 * DRAWS + d);
                    let r = check_one(m, x, md, 1000, Rounding::Paper, &mut s, "Algorithm 1 x̄");
                    attempts += f64::from(r.attempts);
                    ratio += t_of(m, r.w as f64, r.p as f64) / t;
                    n += 1.0;
                }
                let r = check_one(
                    m,
                    x,
                    md,
                    1000,
                    Rounding::BestCorner,
                    &mut Stream::new(0, 0),
                    "x̄",
                );
                bc_ratio += t_of(m, r.w as f64, r.p as f64) / t * DRAWS as f64;
            }
        }
        let (attempts, ratio, bc_ratio) = (attempts / n, ratio / n, bc_ratio / n);
        eprintln!(
            "M_δ = {md}: mean attempts {attempts:.4}, mean T/T(x̄) {ratio:.4} (best corner {bc_ratio:.4}) over {n} draws"
        );
        assert!(
            bc_ratio <= ratio * (1.0 + 1e-12),
            "best corner worse on average than the paper's rule"
        );
        if let Some((pa, pr)) = prev {
            assert!(
                attempts <= pa,
                "M_δ = {md}: mean attempts {attempts} > {pa} at the previous M_δ"
            );
            assert!(
                ratio >= pr,
                "M_δ = {md}: mean T/T(x̄) {ratio} < {pr} at the previous M_δ"
            );
        }
        prev = Some((attempts, ratio));
    }
}

#[test]
fn best_corner_on_integral_and_boundary_points() {
    for m in jobs(48, Mode::Sync, 30) {
        // Integral x̃: the only corner is x̃ itself.
        for x in [[1.0, 1.0], [2.0, 1.0], [1.0, 2.0], [2.0, 2.0]] {
            if m.omega.contains(x[0], x[1]) {
                let r = round(
                    &m,
                    x,
                    1.0,
                    1000,
                    Rounding::BestCorner,
                    &mut Stream::new(1, 1),
                );
                assert_eq!((r.w, r.p), (x[0] as u64, x[1] as u64));
                let r = round(&m, x, 1.0, 1000, Rounding::Paper, &mut Stream::new(1, 1));
                assert_eq!((r.w, r.p, r.attempts), (x[0] as u64, x[1] as u64, 1));
            }
        }
        // Vertices with M_δ = 1: the ceiling corners may leave Ω.
        for v in vertices(&lines(&m)) {
            if m.omega.contains(v[0], v[1]) {
                check_one(
                    &m,
                    v,
                    1.0,
                    1000,
                    Rounding::BestCorner,
                    &mut Stream::new(1, 1),
                    "vertex",
                );
            }
        }
    }
}
