//! `smd diff A B`: what differs between two scenarios' inputs (`smd_core::diff`, the page's
//! side-by-side view), as a table or JSON.

use crate::failure::Failure;
use crate::read::read_named;
use crate::table::Table;
use clap::Args;
use smd_core::Scenario;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `smd diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The first scenario (JSON), or `-` for stdin.
    a: PathBuf,
    /// The second scenario.
    b: PathBuf,
    /// Print the differences as JSON: `[{"path", "a", "b"}]`, values as compact JSON text,
    /// `null` where a side does not have the field.
    #[arg(long)]
    json: bool,
}

/// Reads and validates one side, like every other command: a diff of a file no command
/// accepts would compare inputs that mean nothing.
fn read(path: &std::path::Path) -> Result<Scenario, Failure> {
    let (name, text) = read_named(path, "scenario file")?;
    if text.trim().is_empty() {
        return Err(Failure::Invalid(format!(
            "{name} is empty: expected a scenario in JSON (see SCENARIO.md)"
        )));
    }
    Scenario::from_json(&text).map_err(|e| {
        let lines: Vec<String> = e
            .to_string()
            .lines()
            .map(|l| format!("{name}: {l}"))
            .collect();
        Failure::Invalid(lines.join("\n"))
    })
}

/// Reads both scenarios and prints their differences (exit 0 either way).
pub fn run(a: &DiffArgs, out: &mut impl Write) -> Result<(), Failure> {
    if a.a.as_os_str() == "-" && a.b.as_os_str() == "-" {
        return Err(Failure::Invalid(
            "only one of the two scenarios can come from stdin".into(),
        ));
    }
    let (x, y) = (read(&a.a)?, read(&a.b)?);
    let d = smd_core::diff::diff(&x, &y);
    if a.json {
        let text = serde_json::to_string_pretty(&d)
            .map_err(|e| Failure::Solver(format!("cannot serialise the differences: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    if d.is_empty() {
        writeln!(out, "the two scenarios have the same inputs")?;
        return Ok(());
    }
    let mut t = Table::new(&[("input", false), ("A", false), ("B", false)]);
    let show = |v: &Option<String>| {
        let s = v.as_deref().unwrap_or("(absent)");
        // A whole job on one side reads as a line, not a screen.
        if s.chars().count() > 60 {
            format!("{}…", s.chars().take(59).collect::<String>())
        } else {
            s.to_owned()
        }
    };
    for x in &d {
        t.row(vec![
            smd_core::error::cut(&x.path).into_owned(),
            show(&x.a),
            show(&x.b),
        ]);
    }
    t.write(out)?;
    writeln!(out, "{} inputs differ", d.len())?;
    Ok(())
}
