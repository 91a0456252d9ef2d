//! Native rows of the joint optimum `global` (docs/BENCHMARKS.md §5):
//! `cargo run --release -p smd-bench --bin joint [-- --quick] [--only NAME] [--export DIR]`.
//!
//! `--export DIR` writes each instance's `joint_problem` to `DIR/NAME.json` (e.g.
//! `I1000-u3-mixed.json`) and the planner's rows to `DIR/planner.json`, for
//! `scripts/bench-highs.py`. `--only NAME` measures the instances whose name contains NAME.
use std::io::Write;
use std::path::PathBuf;

use smd_bench::joint::{joint_header, joint_line, run_joint, JointRow};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter().position(|a| a == flag).map(|i| {
            args.get(i + 1)
                .unwrap_or_else(|| panic!("{flag} needs a value"))
        })
    };
    let quick = args.iter().any(|a| a == "--quick");
    let only = value("--only");
    let export = value("--export").map(PathBuf::from);
    if let Some(dir) = &export {
        std::fs::create_dir_all(dir).expect("create the export directory");
    }
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    print!("{}", joint_header("native"));
    let mut rows: Vec<serde_json::Value> = Vec::new();
    run_joint(
        &clock,
        quick,
        only.map(String::as_str),
        &mut |row, problem| {
            print!("{}", joint_line(row));
            std::io::stdout().flush().expect("stdout");
            if let Some(dir) = &export {
                let file = format!("{}.json", row.case.name());
                let text = serde_json::to_string(problem).expect("a joint problem serialises");
                std::fs::write(dir.join(&file), text).expect("write the problem");
                rows.push(json_row(row, &file));
                // Rewritten after each instance, so a stopped run keeps what it measured.
                let text = serde_json::to_string_pretty(&rows).expect("rows serialise");
                std::fs::write(dir.join("planner.json"), text).expect("write planner.json");
            }
        },
    );
}

/// A row of `planner.json`.
fn json_row(r: &JointRow, file: &str) -> serde_json::Value {
    serde_json::json!({
        "name": r.case.name(),
        "file": file,
        "jobs": r.case.jobs,
        "units": r.case.units,
        "mode": r.case.mix.name(),
        "proven": r.proven,
        "gap": r.gap,
        "ms": r.ms,
        "inner_ms": r.inner_ms,
        "outer_ms": r.outer_ms,
        "nodes": r.nodes,
        "options": r.options,
        "complete": r.complete,
        "utility": r.utility,
        "admitted": r.admitted,
        "runs": r.runs,
        "chosen": r.chosen,
    })
}
