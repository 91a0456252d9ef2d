//! Text output: aligned tables, escaping of user text for a terminal, and the plan and
//! compare tables.

use smd_core::scenario::Resource;
use smd_core::{Plan, Scenario};
use std::io::{self, Write};

/// A plain text table with per-column alignment.
pub(crate) struct Table {
    headers: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(columns: &[(&str, bool)]) -> Table {
        Table {
            headers: columns.iter().map(|c| c.0.to_owned()).collect(),
            right: columns.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; every cell is [`printable`], so user text (a job id with an ANSI escape
    /// or a line break) cannot rewrite the terminal or break the table's lines.
    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(
            cells
                .into_iter()
                .map(|c| match printable(&c) {
                    std::borrow::Cow::Borrowed(_) => c,
                    std::borrow::Cow::Owned(e) => e,
                })
                .collect(),
        );
    }

    pub(crate) fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut width: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in width.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let header = &self.headers;
        let rule: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
        for row in std::iter::once(header)
            .chain(std::iter::once(&rule))
            .chain(&self.rows)
        {
            let mut line = String::new();
            for (i, (&w, &right)) in width.iter().zip(&self.right).enumerate() {
                let cell = row.get(i).map(String::as_str).unwrap_or("");
                let pad = std::iter::repeat_n(' ', w.saturating_sub(cell.chars().count()));
                if i > 0 {
                    line.push_str("  ");
                }
                if right {
                    line.extend(pad);
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.extend(pad);
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// `s` with control characters (ESC, CR, LF, tab, C1 controls) and the bidirectional
/// overrides escaped as `\u{1b}`-style text: the one rule for user text in what the CLI
/// prints as text (tables, headings).
pub(crate) fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    let bad =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !s.chars().any(bad) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A resource amount: integers without decimals, others with two.
pub(crate) fn amount(v: f64) -> String {
    if v.is_finite() && (v - v.round()).abs() < 1e-9 {
        format!("{:.0}", v.round())
    } else {
        format!("{v:.2}")
    }
}

/// `used` as a percentage of `capacity`, or `-` when there is no capacity.
pub(crate) fn percent(used: f64, capacity: f64) -> String {
    if capacity > 0.0 && capacity.is_finite() {
        format!("{:.1}%", 100.0 * used / capacity)
    } else {
        "-".to_owned()
    }
}

pub(crate) fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| "-".to_owned())
}

/// `smd plan`'s text: the plan's headline, its jobs, its resources and its GPU sharing.
pub(crate) fn write_plan_table(plan: &Plan, out: &mut impl Write) -> io::Result<()> {
    write_plan_headline(plan, out)?;
    write_job_table(plan, out)?;
    write_resource_table(plan, out)?;
    if let Some(sh) = &plan.sharing {
        writeln!(out)?;
        writeln!(
            out,
            "GPU sharing ({}): {} (`smd share` lists every GPU)",
            sh.algorithm,
            smd_charts::sharing_headline(sh)
        )?;
    }
    Ok(())
}

/// The policy, admission and placement lines above the tables, and a blank line.
fn write_plan_headline(plan: &Plan, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "policy {}   total utility {:.3}   admitted {}/{}   solve {:.1} ms   time unit {}",
        plan.policy,
        plan.total_utility,
        plan.admitted,
        plan.jobs.len(),
        plan.stats.solve_ms,
        plan.time_unit
    )?;
    let a = &plan.admission;
    let depth = a.depth.map(|q| format!(" (q = {q})")).unwrap_or_default();
    let gap = a.gap.map(|g| format!(", gap {g:.3}")).unwrap_or_default();
    writeln!(
        out,
        "admission {}{}   guarantee {:.3}   proven optimal {}{}",
        a.method,
        depth,
        a.guarantee,
        if a.proven_optimal { "yes" } else { "no" },
        gap
    )?;
    if let Some(pl) = &plan.placement {
        writeln!(
            out,
            "placement {}   cross traffic {:.1} Gbit per iteration   machines used {}/{}   not placed {}{}",
            pl.policy,
            pl.total_cross_traffic_gbit,
            pl.machines_used,
            pl.machines.len(),
            pl.not_placed,
            match pl.proven {
                Some(true) => "   proven",
                Some(false) => "   not proven (node limit)",
                None => "",
            }
        )?;
    }
    writeln!(out)
}

/// One row per job (with ρ, X and machines on machines), then a blank line.
fn write_job_table(plan: &Plan, out: &mut impl Write) -> io::Result<()> {
    let placed = plan.placement.is_some();
    let mut columns = vec![
        ("id", false),
        ("admitted", false),
        ("workers", true),
        ("ps", true),
        ("T (s)", true),
        ("π", true),
        ("utility", true),
    ];
    if placed {
        columns.extend([("ρ", true), ("X Gbit", true), ("machines", false)]);
    }
    columns.push(("reason", false));
    let mut jobs = Table::new(&columns);
    for j in &plan.jobs {
        let mut row = vec![
            smd_core::error::cut(&j.id).into_owned(),
            if j.admitted { "yes" } else { "no" }.to_owned(),
            opt(j.workers, |v| v.to_string()),
            opt(j.ps, |v| v.to_string()),
            opt(j.completion_time_s, |v| format!("{v:.1}")),
            opt(j.completion_time, |v| format!("{v:.3}")),
            format!("{:.3}", j.utility),
        ];
        if placed {
            row.push(opt(j.locality_factor, |v| format!("{v:.3}")));
            row.push(opt(j.cross_traffic_gbit, |v| format!("{v:.1}")));
            row.push(opt(j.placement.as_ref(), |shares| {
                let cells: Vec<String> = shares
                    .iter()
                    .map(|s| format!("{} {}w{}p", s.machine, s.workers, s.ps))
                    .collect();
                cells.join(", ")
            }));
        }
        row.push(
            j.reason
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        );
        jobs.row(row);
    }
    jobs.write(out)?;
    writeln!(out)
}

/// Used, capacity and requested per resource.
fn write_resource_table(plan: &Plan, out: &mut impl Write) -> io::Result<()> {
    let r = &plan.resources;
    let (used, cap, req) = (
        r.used.to_array(),
        r.capacity.to_array(),
        r.requested.to_array(),
    );
    let mut res = Table::new(&[
        ("resource", false),
        ("used", true),
        ("capacity", true),
        ("used %", true),
        ("requested", true),
        ("requested %", true),
    ]);
    for r in Resource::ALL {
        let i = r.index();
        res.row(vec![
            r.name().to_owned(),
            amount(used[i]),
            amount(cap[i]),
            percent(used[i], cap[i]),
            amount(req[i]),
            percent(req[i], cap[i]),
        ]);
    }
    res.write(out)
}

pub(crate) fn write_compare_table(
    scenario: &Scenario,
    results: &[(&'static str, Result<Plan, String>)],
    out: &mut impl Write,
) -> io::Result<()> {
    let cap = scenario.cluster.capacity().to_array();
    writeln!(
        out,
        "{} jobs   ε {}   q {}   outer {}   seed {}",
        scenario.jobs.len(),
        scenario.params.epsilon,
        scenario.params.ptas_depth,
        scenario.params.outer.name(),
        scenario.params.seed
    )?;
    writeln!(out)?;
    let shares: Vec<String> = Resource::ALL
        .iter()
        .map(|r| format!("{}%", r.title()))
        .collect();
    let mut columns = vec![
        ("policy", false),
        ("total utility", true),
        ("admitted", true),
    ];
    columns.extend(shares.iter().map(|h| (h.as_str(), true)));
    let machines = scenario.cluster.has_machines();
    if machines {
        columns.extend([
            ("cross Gbit", true),
            ("machines", true),
            ("not placed", true),
        ]);
    }
    columns.push(("solve ms", true));
    let mut t = Table::new(&columns);
    for (policy, r) in results {
        match r {
            Ok(p) => {
                let used = p.resources.used.to_array();
                let mut row = vec![
                    (*policy).to_owned(),
                    format!("{:.3}", p.total_utility),
                    format!("{}/{}", p.admitted, p.jobs.len()),
                ];
                row.extend(Resource::ALL.map(|r| percent(used[r.index()], cap[r.index()])));
                if let Some(pl) = p.placement.as_ref().filter(|_| machines) {
                    row.push(format!("{:.1}", pl.total_cross_traffic_gbit));
                    row.push(format!("{}/{}", pl.machines_used, pl.machines.len()));
                    row.push(pl.not_placed.to_string());
                }
                row.push(format!("{:.1}", p.stats.solve_ms));
                t.row(row);
            }
            Err(_) => {
                let mut row = vec![(*policy).to_owned(), "failed".to_owned()];
                let extra = if machines { 3 } else { 0 };
                row.extend(std::iter::repeat_n(
                    "-".to_owned(),
                    Resource::ALL.len() + 2 + extra,
                ));
                t.row(row);
            }
        }
    }
    t.write(out)?;
    let total = |want: &str| {
        results
            .iter()
            .find(|(p, _)| *p == want)
            .and_then(|(_, r)| r.as_ref().ok())
            .map(|p| p.total_utility)
    };
    writeln!(out)?;
    for other in ["exact", "global"] {
        match (total("smd"), total(other)) {
            (Some(s), Some(e)) if e > 0.0 => {
                writeln!(out, "smd / {other} total utility: {:.4}", s / e)?
            }
            (Some(_), Some(_)) => writeln!(
                out,
                "smd / {other} total utility: n/a ({other}'s total utility is 0)"
            )?,
            _ => writeln!(out, "smd / {other} total utility: n/a (a policy failed)")?,
        }
    }
    if let Some(Ok(g)) = results.iter().find(|(p, _)| *p == "global").map(|(_, r)| r) {
        match g.admission.gap {
            _ if g.admission.proven_optimal => {}
            Some(gap) => writeln!(
                out,
                "global: not proven within its node and time limits (--global-budget) (gap {:.3}%)",
                100.0 * gap
            )?,
            // On machines (or with GPU sharing): docs/MODEL.md §15.
            None => writeln!(
                out,
                "global: the best placed plan of every policy ({}); no proof after placement",
                g.admission.method
            )?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_controls_and_bidi_overrides_only() {
        assert_eq!(printable("job-1 é ✓"), "job-1 é ✓");
        assert_eq!(
            printable("a\u{1b}[31mb\r\n\tc\u{202e}d\u{85}"),
            "a\\u{1b}[31mb\\u{d}\\u{a}\\u{9}c\\u{202e}d\\u{85}"
        );
    }
}
