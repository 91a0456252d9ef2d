use super::*;

#[test]
fn solves_a_textbook_lp() {
    // max x + 2y s.t. x + y ≤ 4, x ≤ 3, y ≤ 3 → (1, 3), value 7.
    let mut lp = Lp::new(Sense::Max);
    let x = lp.var(1.0, 0.0, 3.0);
    let y = lp.var(2.0, 0.0, 3.0);
    lp.row(&[(x, 1.0), (y, 1.0)], Op::Le, 4.0);
    match lp.solve().unwrap() {
        Outcome::Optimal { x: v, objective } => {
            assert!((objective - 7.0).abs() < 1e-9);
            assert!((v[0] - 1.0).abs() < 1e-9 && (v[1] - 3.0).abs() < 1e-9);
        }
        o => panic!("unexpected {o:?}"),
    }
}

#[test]
fn reports_infeasible_and_non_finite() {
    let mut lp = Lp::new(Sense::Min);
    let x = lp.var(1.0, 0.0, 1.0);
    lp.row(&[(x, 1.0)], Op::Ge, 2.0);
    assert_eq!(lp.solve().unwrap(), Outcome::Infeasible);
    lp.row(&[(x, f64::NAN)], Op::Le, 1.0);
    assert!(matches!(lp.solve(), Err(Error::Solver(_))));
}
