//! The fuzzer's inputs through the real binary: `smd plan` and `smd compare` exit with 0 or
//! 2 only (never 1 or a panic's 101 on a scenario), print a plan or a short named error,
//! and finish in bounded time.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn run(args: &[&str], input: &[u8]) -> (Option<i32>, Vec<u8>, Vec<u8>, Duration) {
    let t0 = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn smd");
    let mut pipe = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    (out.status.code(), out.stdout, out.stderr, t0.elapsed())
}

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
        let (code, out, err, took) = run(cmd, inp.text.as_bytes());
        let err = String::from_utf8_lossy(&err);
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
