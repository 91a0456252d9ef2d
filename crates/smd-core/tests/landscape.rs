//! The landscape data the page draws: shapes, Ω membership, the integer optimum, the search.

use smd_core::{generate, landscape, plan, GenerateOptions, Policy, Scenario};

fn scenario() -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs: 4,
        seed: 3,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    s
}

#[test]
fn grids_have_the_box_shape_and_match_omega() {
    let s = scenario();
    let plans: Vec<_> = [Policy::Smd, Policy::Exact]
        .iter()
        .map(|&p| plan(&s, p).unwrap())
        .collect();
    for i in 0..s.jobs.len() {
        let l = landscape(&s, i, 40, &plans).unwrap();
        let m = smd_core::model::JobModel::new(&s.jobs[i], &s.cluster.instance, None);
        assert_eq!(l.t.len(), l.p.len());
        assert!(l.t.iter().all(|row| row.len() == l.w.len()));
        assert!(l.w.len() <= 40 && l.p.len() <= 40);
        for (pi, &p) in l.p.iter().enumerate() {
            for (wi, &w) in l.w.iter().enumerate() {
                assert_eq!(l.inside[pi][wi], m.omega.contains(w, p));
                assert!((l.t[pi][wi] - m.t(w, p)).abs() <= 1e-9 * m.t(w, p));
                assert!(l.mu[pi][wi] >= 0.0 && l.mu[pi][wi] <= s.jobs[i].utility.gamma1);
            }
        }
        if !m.feasible() {
            assert!(l.integer_optimum.is_none() && l.search.is_none());
            continue;
        }
        // The integer optimum is no worse than any integer sample inside Ω.
        let (_, _, topt) = l.integer_optimum.unwrap();
        for (pi, &p) in l.p.iter().enumerate() {
            for (wi, &w) in l.w.iter().enumerate() {
                if l.inside[pi][wi] && w.fract() == 0.0 && p.fract() == 0.0 {
                    assert!(
                        topt <= l.t[pi][wi] * (1.0 + 1e-12),
                        "job {i} opt {:?} sample ({w},{p}) T {}",
                        l.integer_optimum,
                        l.t[pi][wi]
                    );
                }
            }
        }
        // Every vertex of Ω is in Ω; the relaxed point is the plan's.
        assert!(l.omega.iter().all(|v| m.omega.contains(v[0], v[1])));
        let smd_line = &plans[0].jobs[i];
        let (x, _) = l.relaxed.unwrap();
        assert_eq!(Some(x[0]), smd_line.relaxed_workers);
        assert_eq!(Some(x[1]), smd_line.relaxed_ps);
        assert_eq!(l.chosen.len(), 2);
        assert!(l.search.as_ref().unwrap().free.is_some());
    }
}

/// The page's worker sends landscapes as JSON: they must come back equal.
#[test]
fn landscape_round_trips_through_json() {
    let s = scenario();
    let plans = vec![plan(&s, Policy::Smd).unwrap()];
    for i in 0..s.jobs.len() {
        let l = landscape(&s, i, 12, &plans).unwrap();
        let back: smd_core::Landscape =
            serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(back, l);
    }
}

#[test]
fn unknown_job_index_is_an_error() {
    let s = scenario();
    assert!(landscape(&s, 99, 10, &[]).is_err());
}
