//! `smd locality`: phase 2's reproduction — DLTAP's claim and the value of joint locality
//! (crate `smd-reproduce`, module `locality`; docs/REPRODUCTION.md).

use crate::Failure;
use clap::Args;
use smd_reproduce::locality::{run as run_study, Size};
use smd_reproduce::table::{Cell, Table};
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `smd locality`.
#[derive(Args, Debug)]
pub struct LocalityArgs {
    /// One generated mix on 4 machines instead of 4 mixes × 3 machine counts.
    #[arg(long)]
    quick: bool,
    /// Also write the table as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

/// Runs the study with a progress line on stderr and prints its table as Markdown.
pub fn run(a: &LocalityArgs, out: &mut impl Write) -> Result<(), Failure> {
    let size = if a.quick { Size::Quick } else { Size::Full };
    let t0 = std::time::Instant::now();
    let mut progress = |done: usize, total: usize| {
        let _ = writeln!(
            io::stderr().lock(),
            "locality: {done}/{total} cases  {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    };
    let table = run_study(size, &mut progress).map_err(|e| Failure::Solver(e.to_string()))?;
    if let Some(path) = &a.csv {
        std::fs::write(path, table.to_csv())
            .map_err(|e| Failure::Solver(format!("cannot write {}: {e}", path.display())))?;
    }
    write!(out, "{}", markdown(&table))?;
    Ok(())
}

/// The table as Markdown, numbers to 4 significant digits.
fn markdown(t: &Table) -> String {
    let mut s = format!("| {} |\n", t.columns.join(" | "));
    s += &format!("|{}\n", "---|".repeat(t.columns.len()));
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                Cell::Num(v) if v.is_finite() => smd_charts::format::sig(*v, 4),
                Cell::Num(_) => "–".into(),
                other => other.csv(),
            })
            .collect();
        s += &format!("| {} |\n", cells.join(" | "));
    }
    s
}
