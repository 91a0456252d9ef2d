//! `smd study NAME`: phase 2's measurements (crate `smd-reproduce`; docs/REPRODUCTION.md):
//! `locality` (DLTAP's claim and the value of joint locality) and `time` (the policies
//! over time on the bundled workloads).

use crate::failure::Failure;
use clap::{Args, ValueEnum};
use smd_reproduce::table::{Cell, Table};
use std::io::{self, Write};
use std::path::PathBuf;

/// Which study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Study {
    /// Placement and joint locality on machines ("Phase 2: placement and locality").
    Locality,
    /// The policies over time at two arrival rates and three cluster sizes ("Over time").
    Time,
    /// GPU sharing against seed 002's headline ("GPU sharing").
    Sharing,
}

/// Arguments of `smd study`.
#[derive(Args, Debug)]
pub struct StudyArgs {
    /// The study to run.
    #[arg(value_enum)]
    study: Study,
    /// One small case instead of the full run.
    #[arg(long)]
    quick: bool,
    /// Also write the table as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

/// Runs the study with a progress line on stderr and prints its table as Markdown.
pub fn run(a: &StudyArgs, out: &mut impl Write) -> Result<(), Failure> {
    let t0 = std::time::Instant::now();
    let name = match a.study {
        Study::Locality => "locality",
        Study::Time => "time",
        Study::Sharing => "sharing",
    };
    let mut progress = |done: usize, total: usize| {
        let _ = writeln!(
            io::stderr().lock(),
            "study {name}: {done}/{total} cases  {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    };
    let table = match a.study {
        Study::Locality => {
            use smd_reproduce::locality::{run, Size};
            run(
                if a.quick { Size::Quick } else { Size::Full },
                &mut progress,
            )
        }
        Study::Time => {
            use smd_reproduce::time::{run, Size};
            run(
                if a.quick { Size::Quick } else { Size::Full },
                &mut progress,
            )
        }
        // One size: it takes about a second.
        Study::Sharing => smd_reproduce::sharing::run(),
    }
    .map_err(|e| Failure::Solver(e.to_string()))?;
    // The table first: a CSV path that cannot be written must not lose a long run's result.
    write!(out, "{}", markdown(&table))?;
    if let Some(path) = &a.csv {
        std::fs::write(path, table.to_csv())
            .map_err(|e| crate::failure::unwritable("--csv", path, &e))?;
    }
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
                Cell::Num(v) if v.is_finite() => smd_format::sig(*v, 4),
                Cell::Num(_) => "–".into(),
                other => other.csv(),
            })
            .collect();
        s += &format!("| {} |\n", cells.join(" | "));
    }
    s
}
