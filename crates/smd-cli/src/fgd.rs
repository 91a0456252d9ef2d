//! `smd study fgd`: GPU sharing in a production cluster — the FGD paper's trace experiment
//! (crate `smd-fgd`; docs/MODEL.md §26), its tables beside the published ones
//! (docs/FIDELITY.md) and the JSON of docs/SCENARIO.md ("FGD study output").

use crate::failure::Failure;
use smd_fgd::bound::BoundPoint;
use smd_fgd::study::{bundled, run_all_parallel, verdict, PolicyResult, Published};
use smd_fgd::summary::distance_gpus;
use smd_fgd::{parse_nodes, parse_pods, Policy, Prepared};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The columns the text output shows.
const SHOWN: [u32; 7] = [50, 80, 90, 100, 110, 120, 130];

/// The options of `smd study fgd`.
#[derive(Debug, Default)]
pub struct FgdOptions {
    /// Node list, or the bundled openb one.
    pub nodes: Option<PathBuf>,
    /// Pod list, or the bundled default one.
    pub pods: Option<PathBuf>,
    /// Comma-separated policy names.
    pub policy: Option<String>,
    /// `A:B` (inclusive) or a comma list.
    pub seeds: Option<String>,
    /// Target GPU request as a multiple of capacity.
    pub target: Option<f64>,
    /// JSON instead of Markdown.
    pub json: bool,
}

fn read(flag: &str, path: &Option<PathBuf>, default: &'static str) -> Result<String, Failure> {
    match path {
        None => Ok(default.to_string()),
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| Failure::Invalid(format!("{flag}: cannot read {}: {e}", p.display()))),
    }
}

fn label(path: &Option<PathBuf>, bundled: &str) -> String {
    path.as_deref()
        .map(Path::display)
        .map_or(bundled.to_string(), |d| d.to_string())
}

fn policies(text: Option<&str>) -> Result<Vec<Policy>, Failure> {
    let Some(text) = text else {
        return Ok(Policy::ALL.to_vec());
    };
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let p = Policy::from_name(name).ok_or_else(|| {
            let all: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
            Failure::Invalid(format!(
                "--policy: unknown policy {name:?} (one of {})",
                all.join(", ")
            ))
        })?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if out.is_empty() {
        return Err(Failure::Invalid("--policy: no policy named".into()));
    }
    Ok(out)
}

fn seeds(text: Option<&str>) -> Result<Vec<i64>, Failure> {
    smd_fgd::study::parse_seeds(text.unwrap_or("42:51"))
        .map_err(|m| Failure::Invalid(format!("--seeds: {m}")))
}

/// `smd study fgd`.
pub fn run(o: &FgdOptions, out: &mut impl Write) -> Result<(), Failure> {
    let t0 = std::time::Instant::now();
    let target = o.target.unwrap_or(bundled::TARGET);
    let target = smd_fgd::study::check_target(target)
        .map_err(|m| Failure::Invalid(format!("--target: {m}")))?;
    let policies = policies(o.policy.as_deref())?;
    let seeds = seeds(o.seeds.as_deref())?;
    let nodes_text = read("--nodes", &o.nodes, bundled::NODES)?;
    let pods_text = read("--pods", &o.pods, bundled::PODS)?;
    let nodes = parse_nodes(&nodes_text).map_err(|e| {
        Failure::Invalid(format!("{}: {e}", label(&o.nodes, "the bundled node list")))
    })?;
    let pods = parse_pods(&pods_text).map_err(|e| {
        Failure::Invalid(format!("{}: {e}", label(&o.pods, "the bundled pod list")))
    })?;
    let prepared = Prepared::new(&nodes, &pods);
    let runs = policies.len() * seeds.len();
    let progress = |done: usize, total: usize| {
        let _ = writeln!(
            io::stderr().lock(),
            "study fgd: {done}/{total} runs  {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    };
    let results = run_all_parallel(&prepared, &policies, &seeds, target, &progress)
        .map_err(|e| Failure::Invalid(e.to_string()))?;
    // What no policy can beat: the offline packing's bound, per seed, then the mean.
    let bound = smd_fgd::bound::mean_bound(&prepared, &seeds, target)
        .map_err(|e| Failure::Invalid(e.to_string()))?;
    let wall = t0.elapsed().as_secs_f64();
    // The published tables are those of the bundled lists at the published target.
    let comparable = bundled::comparable(&nodes_text, &pods_text, target, &seeds);
    let published = comparable.then(Published::bundled);
    if o.json {
        let doc = smd_fgd::study::StudyOutput::new(&results, &bound, wall);
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        )?;
        return Ok(());
    }
    text_output(&results, published.as_ref(), out)?;
    bound_output(&results, &bound, prepared.gpus, out)?;
    writeln!(
        out,
        "{runs} runs ({} pods, {} nodes) in {} on {} threads.",
        smd_format::count(pods.len() as u64),
        smd_format::count(nodes.len() as u64),
        smd_format::duration(wall),
        threads()
    )?;
    Ok(())
}

/// The threads the runs share (rayon's pool is one per core).
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The bound beside each policy: how many GPUs each leaves unallocated that an offline
/// packing of the same arrived pods might allocate.
fn bound_output(
    results: &[PolicyResult],
    bound: &[BoundPoint],
    gpus: i64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    writeln!(
        out,
        "## The bound\n\nNo policy allocates more than the best offline packing of the pods arrived, bounded by an LP relaxation (mean over the seeds); each policy's distance to it in GPUs.\n"
    )?;
    let mut head = String::from("| arrived % | bound % |");
    let mut rule = String::from("|---:|---:|");
    for r in results {
        head.push_str(&format!(" {} |", r.policy.name()));
        rule.push_str("---:|");
    }
    writeln!(out, "{head}\n{rule}")?;
    for b in bound.iter().filter(|b| SHOWN.contains(&b.x)) {
        let mut row = format!("| {} | {:.2} |", b.x, b.allocation_pct);
        for r in results {
            let d = r
                .mean
                .iter()
                .find(|p| p.x == b.x)
                .map(|p| distance_gpus(b.allocation_pct, p.allocation_pct, gpus));
            row.push_str(&format!(
                " {} |",
                d.map_or("–".into(), |d| format!("{d:.0}"))
            ));
        }
        writeln!(out, "{row}")?;
    }
    writeln!(out)?;
    Ok(())
}

fn cell(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.2}"))
}

fn text_output(
    results: &[PolicyResult],
    published: Option<&Published>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    for r in results {
        let run_seeds: Vec<i64> = r.runs.iter().map(|e| e.seed).collect();
        let seeds: Vec<String> = run_seeds.iter().map(i64::to_string).collect();
        writeln!(
            out,
            "## {} (mean over seeds {})\n",
            r.policy.name(),
            seeds.join(", ")
        )?;
        if published.is_some() {
            writeln!(
                out,
                "\"published\": the mean of the published runs of the same seeds.\n"
            )?;
        }
        writeln!(
            out,
            "| arrived % | allocation % | published | unallocated GPUs | frag amount % | published | frag ratio % | published |"
        )?;
        writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|")?;
        for p in r.mean.iter().filter(|p| SHOWN.contains(&p.x)) {
            let pubd = |t: usize| published.and_then(|pb| pb.mean(t, r.policy, p.x, &run_seeds));
            writeln!(
                out,
                "| {} | {:.2} | {} | {:.0} | {:.2} | {} | {:.2} | {} |",
                p.x,
                p.allocation_pct,
                cell(pubd(0)),
                p.unallocated_gpus,
                p.frag_amount_pct,
                cell(pubd(1)),
                p.frag_ratio_pct,
                cell(pubd(2)),
            )?;
        }
        let line = match published.and_then(|pb| verdict(r, pb)) {
            Some(v) => v.words(),
            None if !r.policy.is_published() => format!(
                "{}: the project's own policy (docs/MODEL.md §26.11); the published experiment did not run it",
                r.policy.name()
            ),
            None => format!(
                "{}: no published values to compare with (they cover the bundled lists at target {}, seeds 42–51)",
                r.policy.name(),
                bundled::TARGET
            ),
        };
        writeln!(out, "\nVerdict — {line}\n")?;
    }
    Ok(())
}
