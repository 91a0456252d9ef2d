//! The fuzzer's inputs through the real binary: `smd plan` and `smd compare` exit with 0 or
//! 2 only (never 1 or a panic's 101 on a scenario), print a plan or a short named error,
//! and finish in bounded time.

mod common;

use std::time::{Duration, Instant};

#[test]
fn fuzzed_scenarios_exit_with_0_or_2() {
    let (mut ok, mut invalid) = (0, 0);
    for i in 0..120u64 {
        let inp = smd_fuzz::input(5, i);
        let cmd: &[&str] = if i % 4 == 0 {
            &["compare", "--json", "--global-budget", "2", "-"]
        } else {
            &["plan", "-"]
        };
        let t0 = Instant::now();
        let o = common::smd(cmd, Some(inp.text.as_bytes()));
        let took = t0.elapsed();
        let (code, out) = (o.status.code(), o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        let label = format!("input {i} [{}]", inp.mutations.join(", "));
        match code {
            Some(0) => {
                ok += 1;
                assert!(!out.is_empty(), "{label}: exit 0 without a plan");
            }
            Some(2) => {
                invalid += 1;
                assert!(out.is_empty(), "{label}: output on invalid input");
                assert!(err.starts_with("error: "), "{label}: {err}");
                assert!(
                    err.len() < smd_fuzz::MAX_MESSAGE_BYTES,
                    "{label}: {} bytes",
                    err.len()
                );
            }
            other => panic!("{label}: exit {other:?}\n{err}"),
        }
        assert!(took < Duration::from_secs(60), "{label}: {took:?}");
    }
    assert!(
        ok >= 20 && invalid >= 20,
        "{ok} planned, {invalid} rejected"
    );
}
