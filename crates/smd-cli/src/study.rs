//! `smd study NAME`: studies of the model against published claims and measurements (crate
//! `smd-reproduce`; docs/REPRODUCTION.md):
//! `locality` (DLTAP's claim and the value of joint locality), `time` (the policies over
//! time on the bundled workloads), `sharing`, and `fidelity` (agreement with the reference
//! simulator's published JCTs, docs/FIDELITY.md) with `pollux-search` (Pollux's search,
//! ours against NSGA-II).

use crate::failure::Failure;
use clap::{Args, ValueEnum};
use smd_reproduce::table::{Cell, Table};
use std::io::{self, Write};
use std::path::PathBuf;

/// Which study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Study {
    /// Placement and joint locality on machines (docs/REPRODUCTION.md, "Placement and
    /// locality").
    Locality,
    /// The policies over time at two arrival rates and three cluster sizes ("Over time").
    Time,
    /// GPU sharing against its paper's headline (docs/REPRODUCTION.md, "GPU sharing").
    Sharing,
    /// Agreement with the reference simulator's published JCTs (docs/FIDELITY.md).
    Fidelity,
    /// Pollux's search: the project's optimiser against NSGA-II, tick by tick and in JCT
    /// (docs/FIDELITY.md).
    PolluxSearch,
    /// Clusters that mix GPU types: Sia, Pollux and Gavel on the Sia paper's 64-GPU
    /// cluster, its Table 3 and Figure 7 beside the published values (docs/FIDELITY.md).
    Sia,
    /// GPU sharing in a production cluster: the FGD paper's six policies on Alibaba's
    /// openb trace, beside the published tables (docs/MODEL.md §26, docs/FIDELITY.md).
    Fgd,
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
    /// fidelity: also write its figures (one per-job scatter per policy) into this folder.
    #[arg(long, value_name = "DIR")]
    figures: Option<PathBuf>,
    /// fgd: the node list (CSV `sn,cpu_milli,memory_mib,gpu,model`); default the bundled
    /// openb cluster of 1213 GPU nodes.
    #[arg(long, value_name = "NODES.csv")]
    nodes: Option<PathBuf>,
    /// fgd: the pod list (CSV `name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec]`);
    /// default the bundled openb default list of 8152 pods.
    #[arg(long, value_name = "PODS.csv")]
    pods: Option<PathBuf>,
    /// fgd: policies, comma-separated: random, dotprod, clustering, packing, bestfit, fgd
    /// (default all six).
    #[arg(long, value_name = "LIST")]
    policy: Option<String>,
    /// fgd: seeds, `A:B` inclusive or a comma list (default 42:51, the published ones).
    #[arg(long, value_name = "SEEDS")]
    seeds: Option<String>,
    /// fgd: the submitted GPU request as a multiple of the cluster's GPU capacity (default
    /// 1.3, the published runs').
    #[arg(long, value_name = "RATIO")]
    target: Option<f64>,
    /// fgd: print docs/SCENARIO.md's "FGD study output" JSON instead of tables.
    #[arg(long)]
    json: bool,
}

/// Verdicts as a Markdown table after a blank line.
fn verdict_table(
    verdicts: &[smd_reproduce::verdict::ClaimVerdict],
    out: &mut impl Write,
) -> Result<(), Failure> {
    writeln!(
        out,
        "\n| # | claim | verdict | because |\n|---|---|---|---|"
    )?;
    for v in verdicts {
        writeln!(
            out,
            "| {} | {} | **{}** | {} |",
            v.id,
            v.claim,
            v.verdict.words(),
            v.because
        )?;
    }
    Ok(())
}

/// Runs the study with a progress line on stderr and prints its table as Markdown.
pub fn run(a: &StudyArgs, out: &mut impl Write) -> Result<(), Failure> {
    let t0 = std::time::Instant::now();
    let name = match a.study {
        Study::Locality => "locality",
        Study::Time => "time",
        Study::Sharing => "sharing",
        Study::Fidelity => "fidelity",
        Study::PolluxSearch => "pollux-search",
        Study::Sia => "sia",
        Study::Fgd => "fgd",
    };
    let fgd_only = a.nodes.is_some()
        || a.pods.is_some()
        || a.policy.is_some()
        || a.seeds.is_some()
        || a.target.is_some()
        || a.json;
    if a.study == Study::Fgd {
        if a.quick || a.csv.is_some() || a.figures.is_some() {
            return Err(Failure::Invalid(
                "--quick, --csv and --figures are not options of the fgd study".into(),
            ));
        }
        let o = crate::fgd::FgdOptions {
            nodes: a.nodes.clone(),
            pods: a.pods.clone(),
            policy: a.policy.clone(),
            seeds: a.seeds.clone(),
            target: a.target,
            json: a.json,
        };
        return crate::fgd::run(&o, out);
    }
    if fgd_only {
        return Err(Failure::Invalid(format!(
            "--nodes, --pods, --policy, --seeds, --target and --json belong to the fgd study (not {name})"
        )));
    }
    if a.figures.is_some() && a.study != Study::Fidelity {
        return Err(Failure::Invalid(format!(
            "--figures: only the fidelity study draws figures (not {name})"
        )));
    }
    let mut progress = |done: usize, total: usize| {
        let _ = writeln!(
            io::stderr().lock(),
            "study {name}: {done}/{total} cases  {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    };
    let mut fidelity = None;
    let mut rates = None;
    let table = match a.study {
        // Handled above, before the progress line of the other studies.
        Study::Fgd => return Ok(()),
        Study::Sia => {
            use smd_reproduce::sia::{figure7, table3, Size};
            let size = if a.quick { Size::Quick } else { Size::Full };
            let clock = || t0.elapsed().as_secs_f64() * 1000.0;
            table3(size, Some(&clock), &mut progress).and_then(|t| {
                rates = Some(figure7(size, &mut progress)?);
                Ok(t)
            })
        }
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
        Study::PolluxSearch => {
            use smd_reproduce::fidelity::{search_study, Size};
            search_study(
                if a.quick { Size::Quick } else { Size::Full },
                &mut progress,
            )
        }
        Study::Fidelity => {
            use smd_reproduce::fidelity::{compare, table, Size};
            let size = if a.quick { Size::Quick } else { Size::Full };
            compare(size, &mut progress).map(|list| {
                let t = table(&list);
                fidelity = Some(list);
                t
            })
        }
    }
    .map_err(|e| Failure::Solver(e.to_string()))?;
    // The table first: a path that cannot be written must not lose a long run's result.
    write!(out, "{}", markdown(&table))?;
    if let Some(rates) = &rates {
        writeln!(out, "\nAverage JCT against the arrival rate (Figure 7):\n")?;
        write!(out, "{}", markdown(rates))?;
        verdict_table(&smd_reproduce::sia::verdicts(&table, Some(rates)), out)?;
    }
    if fidelity.is_some() {
        // The verdicts against the fidelity goals (docs/FIDELITY.md's table).
        verdict_table(&smd_reproduce::verdict::fidelity(&table), out)?;
    }
    if let Some(path) = &a.csv {
        std::fs::write(path, table.to_csv())
            .map_err(|e| crate::failure::unwritable("--csv", path, &e))?;
    }
    if let (Some(dir), Some(list)) = (&a.figures, &fidelity) {
        use smd_reproduce::fidelity::{scatter_svg, POLICIES};
        std::fs::create_dir_all(dir)
            .map_err(|e| crate::failure::unwritable("--figures", dir, &e))?;
        for (policy, _) in POLICIES {
            let path = dir.join(format!("scatter-{policy}.svg"));
            std::fs::write(&path, scatter_svg(list, policy))
                .map_err(|e| crate::failure::unwritable("--figures", &path, &e))?;
        }
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
