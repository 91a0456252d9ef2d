use super::*;

#[test]
fn quick_study_has_every_arm_and_consistent_numbers() {
    let mut calls = 0;
    let t = run(Size::Quick, &mut |done, total| {
        calls += 1;
        assert!(done <= total);
    })
    .unwrap();
    assert_eq!(calls, cases(Size::Quick).len());
    // 2 admissions × 5 placements + 4 joint arms per case.
    assert_eq!(
        t.rows.len(),
        cases(Size::Quick).len() * (2 * Placement::ALL.len() + 4)
    );
    let col = |name: &str| t.numbers(name);
    for (i, row) in t.rows.iter().enumerate() {
        let admitted = col("admitted")[i].unwrap();
        let rho = col("mean_rho")[i];
        let ratio = col("time_ratio")[i];
        if admitted > 0.0 {
            // β ≤ 1 on t4x4 (5.82 / 21.8 for presets; generated B are below 21.8 too):
            // locality never slows a job, and T(ρ)/T(1) lies in [0, 1].
            let (rho, ratio) = (rho.unwrap(), ratio.unwrap());
            assert!((0.0..=1.0 + 1e-12).contains(&rho), "row {i}: ρ {rho}");
            assert!(
                (0.0..=1.0 + 1e-12).contains(&ratio),
                "row {i}: ratio {ratio}"
            );
        }
        assert!(col("cross_gbit")[i].unwrap() >= 0.0, "{row:?}");
    }
    // The same admission placed five ways: admitted + not placed is the admission's count.
    let admitted = col("admitted");
    let not_placed = col("not_placed");
    for chunk in (0..2 * Placement::ALL.len())
        .collect::<Vec<_>>()
        .chunks(Placement::ALL.len())
    {
        let totals: Vec<f64> = chunk
            .iter()
            .map(|&i| admitted[i].unwrap() + not_placed[i].unwrap())
            .collect();
        assert!(totals.windows(2).all(|w| w[0] == w[1]), "{totals:?}");
    }
}

#[test]
fn every_mix_builds_on_every_count() {
    for (mix, n) in cases(Size::Full) {
        let s = mix.scenario(n).unwrap();
        assert_eq!(s.cluster.machine_list().len(), n);
        s.validate().unwrap();
    }
}
