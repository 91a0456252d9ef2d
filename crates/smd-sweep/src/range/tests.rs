use super::*;

fn values(text: &str) -> Vec<f64> {
    Range::parse(text).unwrap().values().unwrap()
}

#[test]
fn both_ends_are_included() {
    assert_eq!(values("4:64:4").len(), 16);
    assert_eq!(values("4:64:4")[0], 4.0);
    assert_eq!(values("4:64:4")[15], 64.0);
    assert_eq!(values("1:1:1"), [1.0]);
    assert_eq!(values("1:3:1"), [1.0, 2.0, 3.0]);
}

#[test]
fn float_steps_do_not_drift() {
    let v = values("0.5:5:0.5");
    assert_eq!(v.len(), 10);
    // Each equals the decimal written out, not a sum of steps.
    let want: Vec<f64> = (1..=10)
        .map(|k| format!("{}", k as f64 / 2.0).parse().unwrap())
        .collect();
    assert_eq!(v, want);
    let v = values("0.1:1:0.1");
    assert_eq!(v.len(), 10);
    assert_eq!(v[2], 0.3);
    assert_eq!(v[6], 0.7);
    assert_eq!(v[9], 1.0);
    // Adding 0.1 nine times would not give these.
    let summed = (0..2).fold(0.1, |acc, _| acc + 0.1);
    assert_ne!(summed, 0.3);
    let v = values("0.05:0.2:0.05");
    assert_eq!(v, [0.05, 0.1, 0.15, 0.2]);
}

#[test]
fn a_stop_off_the_grid_is_still_the_last_size() {
    assert_eq!(values("1:5:3"), [1.0, 4.0, 5.0]);
    assert_eq!(values("0:1:0.3"), [0.0, 0.3, 0.6, 0.9, 1.0]);
}

#[test]
fn non_decimal_ranges_fall_back_to_multiples() {
    let third = 1.0 / 3.0;
    let r = Range {
        start: 0.0,
        stop: 1.0,
        step: third,
    };
    let v = r.values().unwrap();
    assert_eq!(v.len(), 4);
    assert_eq!(v[3], 1.0);
    assert!((v[1] - third).abs() < 1e-15);
}

#[test]
fn bad_ranges_say_what_is_wrong() {
    let err = |t: &str| Range::parse(t).unwrap_err();
    assert!(
        err("5:1:1").contains("stop (1) is below the start (5)"),
        "{}",
        err("5:1:1")
    );
    assert!(err("1:5:0").contains("step must be > 0 (got 0)"));
    assert!(err("1:5:-1").contains("step must be > 0 (got -1)"));
    assert!(err("1:5").contains("expected start:stop:step"));
    assert!(err("1:x:1").contains("stop \"x\" is not a number"));
    assert!(err("1:inf:1").contains("not a number"));
    let e = err("0.001:5:0.001");
    assert!(e.contains("more than the 200"), "{e}");
    assert!(err("0:1e300:1").contains("more than the 200"));
    // Exactly the limit is fine, one more is not (also when the stop is appended).
    assert_eq!(values("1:200:1").len(), 200);
    assert!(Range::parse("1:201:1").is_err());
    assert!(Range::parse("1:200.5:1").is_err());
    assert_eq!(values("1:199.5:1").len(), 200);
}
