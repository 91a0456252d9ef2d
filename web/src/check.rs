//! Comparing plans made on different platforms (native CLI vs wasm): the same admissions,
//! allocations, counters and floats, bit for bit (the solver takes every exp, ln and pow
//! from `libm`, the same code natively and in wasm, where the platform's own may differ in
//! the last place), wall-clock times ignored.

use serde_json::Value;

fn is_timing(key: &str) -> bool {
    key.ends_with("_ms")
}

/// `Ok` if the two plan values (a plan, or a list of plans) agree; else the first
/// difference with its JSON path.
pub fn same_plans(a: &Value, b: &Value) -> Result<(), String> {
    walk(a, b, "$")
}

fn walk(a: &Value, b: &Value, path: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            // JSON writes a float's shortest round-trip digits: equal values, equal bits.
            let same = if x.is_f64() || y.is_f64() {
                x.as_f64() == y.as_f64()
            } else {
                x == y
            };
            if same {
                Ok(())
            } else {
                Err(format!("{path}: {x} vs {y}"))
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: {} vs {} entries", x.len(), y.len()));
            }
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                walk(u, v, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                if is_timing(k) {
                    continue;
                }
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => walk(u, v, &format!("{path}.{k}"))?,
                    _ => return Err(format!("{path}.{k}: present on one side only")),
                }
            }
            Ok(())
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} vs {b}")),
    }
}

/// The scenario of the committed fixture `tests/fixtures/plan-6jobs-seed1-eps0.2.json`:
/// `smd generate --jobs 6 --seed 1`, planned with `--epsilon 0.2`.
pub fn fixture_scenario() -> smd_core::Scenario {
    let mut s = smd_core::generate(&smd_core::GenerateOptions {
        jobs: 6,
        seed: 1,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    s
}

/// Plans the fixture's scenario with every policy, as JSON values (what `smd compare
/// --json` prints).
pub fn plan_fixture_scenario() -> Value {
    let s = fixture_scenario();
    let plans: Vec<smd_core::Plan> = smd_core::Policy::for_cluster(&s.cluster)
        .iter()
        .map(|&p| {
            smd_core::plan_with(&s, p, &mut smd_core::Options::default())
                .expect("the fixture scenario plans")
        })
        .collect();
    serde_json::to_value(plans).expect("plans serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timings_are_ignored_and_floats_compared_bit_for_bit() {
        let a = json!({"stats": {"solve_ms": 1.0, "lp_solves": 3}, "u": 1.0});
        let b = json!({"stats": {"solve_ms": 9.0, "lp_solves": 3}, "u": 1.0});
        assert!(same_plans(&a, &b).is_ok());
        // One unit in the last place is a difference.
        let next = f64::from_bits(1.0f64.to_bits() + 1);
        assert!(same_plans(&a, &json!({"stats": {"lp_solves": 3}, "u": next})).is_err());
        assert!(same_plans(&json!({"n": 2}), &json!({"n": 2.0})).is_ok());
        let c = json!({"stats": {"solve_ms": 9.0, "lp_solves": 4}, "u": 1.0});
        assert!(same_plans(&a, &c).unwrap_err().contains("lp_solves"));
        assert!(same_plans(&json!({"u": 1.0}), &json!({"u": 1.001})).is_err());
        assert!(same_plans(&json!({"w": 2}), &json!({"w": 3})).is_err());
    }
}
