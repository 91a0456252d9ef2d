//! What the binary's test files share: running `smd`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `smd args…`, feeding `stdin` (or nothing) to it.
pub fn smd(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_smd")).args(args), stdin)
}

/// [`smd`] with its progress lines on stderr from the start rather than past a few seconds
/// (`SMD_PROGRESS_AFTER_MS=0`), so that a short run shows them.
#[allow(dead_code)] // not every test file looks at progress
pub fn smd_with_progress(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_smd"));
    command.env("SMD_PROGRESS_AFTER_MS", "0").args(args);
    run(&mut command, stdin)
}

fn run(command: &mut Command, stdin: Option<&[u8]>) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn smd");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.unwrap_or_default().to_vec();
    // A separate thread, so a child that writes before reading everything cannot deadlock;
    // a child that exits without reading makes the write fail, which is fine.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for smd");
    feeder.join().expect("stdin feeder");
    out
}
