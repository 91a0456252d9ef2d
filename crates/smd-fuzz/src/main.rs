//! `smd-fuzz [--seconds N] [--inputs N] [--seed S] [--from I] [--time-limit-ms T]`: runs the
//! planner's fuzzer (crate docs) for a time or a number of inputs, printing progress and a
//! summary; a failure is written to `fuzz-failure-<seed>-<index>.json` and exits with 1.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| -> Result<Option<f64>, String> {
        match args.iter().position(|a| a == name) {
            None => Ok(None),
            Some(i) => args
                .get(i + 1)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(Some)
                .ok_or_else(|| format!("{name} needs a number ≥ 0")),
        }
    };
    let parsed = (|| -> Result<_, String> {
        for a in args.iter().filter(|a| a.starts_with("--")) {
            if ![
                "--seconds",
                "--inputs",
                "--seed",
                "--from",
                "--time-limit-ms",
            ]
            .contains(&a.as_str())
            {
                return Err(format!("unknown option {a}"));
            }
        }
        Ok((
            get("--seconds")?,
            get("--inputs")?,
            get("--seed")?.unwrap_or(1.0) as u64,
            get("--from")?.unwrap_or(0.0) as u64,
            get("--time-limit-ms")?.unwrap_or(60_000.0),
        ))
    })();
    let (seconds, inputs, seed, from, limit) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}\nusage: smd-fuzz [--seconds N] [--inputs N] [--seed S] [--from I] [--time-limit-ms T]");
            return ExitCode::from(2);
        }
    };
    let seconds = seconds.or(if inputs.is_none() { Some(60.0) } else { None });
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let mut last = 0.0;
    let report = smd_fuzz::run(seed, from, &clock, limit, &mut |r| {
        let now = clock();
        if now - last > 10_000.0 {
            last = now;
            eprintln!(
                "{:6.0} s: {} inputs ({} planned, {} rejected)",
                now / 1000.0,
                r.inputs,
                r.planned,
                r.rejected
            );
        }
        seconds.is_none_or(|s| now < s * 1000.0) && inputs.is_none_or(|n| (r.inputs as f64) < n)
    });
    println!(
        "seed {seed}, inputs {from}..{}: {} inputs in {:.1} s — {} planned with every policy, {} rejected with a named message; slowest {:.0} ms (input {})",
        from + report.inputs,
        report.inputs,
        clock() / 1000.0,
        report.planned,
        report.rejected,
        report.slowest_ms.0,
        report.slowest_ms.1
    );
    for f in &report.failures {
        let name = format!(
            "fuzz-failure-{seed}-{}.json",
            f.label.split_whitespace().nth(3).unwrap_or("x")
        );
        let saved =
            std::fs::File::create(&name).and_then(|mut file| file.write_all(f.text.as_bytes()));
        println!(
            "FAILURE {}: {}\n  input written to {}",
            f.label,
            f.what,
            if saved.is_ok() {
                name.as_str()
            } else {
                "(could not write)"
            }
        );
    }
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
