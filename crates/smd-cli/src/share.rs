//! `smd share`: the packing of a plan's admitted one-GPU workers on shared GPUs (crate
//! `smd-place`, module `share`; CLUSTER.md §5, docs/MODEL.md §18).

use crate::common::{load, named, solve, Common};
use crate::failure::Failure;
use crate::table::Table;
use clap::Args;
use smd_core::scenario::GpuSharing;
use smd_core::Policy;
use std::io::Write;

/// Arguments of `smd share`.
#[derive(Args, Debug)]
pub struct ShareArgs {
    /// Packing algorithm (`off`: a GPU per worker).
    #[arg(long, value_parser = named::<GpuSharing>(&GpuSharing::NAMES), default_value = "heuristic")]
    algorithm: GpuSharing,
    /// The policy whose admitted workers are packed.
    #[arg(long, value_parser = named::<Policy>(&Policy::NAMES), default_value = "smd")]
    policy: Policy,
    #[command(flatten)]
    common: Common,
}

/// Plans, packs and prints.
pub fn run(a: &ShareArgs, out: &mut impl Write) -> Result<(), Failure> {
    let scenario = load(&a.common)?;
    let plan = solve(&scenario, a.policy, &a.common)?;
    let shared = smd_place::share::share_plan(&scenario, &plan, a.algorithm)?;
    if a.common.json {
        let text = serde_json::to_string_pretty(&shared)
            .map_err(|e| Failure::Solver(format!("cannot serialise the packing: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    let mut t = Table::new(&[
        ("machine", false),
        ("gpu", true),
        ("workers", false),
        ("mean GB", true),
        ("collision", true),
        ("slowdown", true),
    ]);
    for g in &shared.gpus {
        let names: Vec<String> = g
            .workers
            .iter()
            .map(|w| format!("{}#{}", w.job, w.index))
            .collect();
        t.row(vec![
            g.machine.clone(),
            g.gpu.to_string(),
            names.join(" "),
            format!("{:.1}", g.mem_mean_gb),
            format!("{:.2}%", 100.0 * g.collision_prob),
            format!("{:.3}", g.slowdowns.first().copied().unwrap_or(1.0)),
        ]);
    }
    t.write(out)?;
    writeln!(out)?;
    writeln!(
        out,
        "{} GPUs instead of {}, mean performance {:.1}%{}{}",
        shared.gpus_used,
        shared.exclusive_gpus,
        100.0 * shared.mean_performance,
        if shared.not_shareable > 0 {
            format!(
                "; {} workers not shareable (no gpu_mem_mean_gb, or not one GPU)",
                shared.not_shareable
            )
        } else {
            String::new()
        },
        if shared.unplaceable.is_empty() {
            String::new()
        } else {
            format!("; {} fit no GPU", shared.unplaceable.len())
        }
    )?;
    if shared.proven == Some(false) {
        writeln!(
            out,
            "exact: too big to prove within {} nodes; the best packing found",
            smd_place::share::EXACT_MAX_NODES
        )?;
    }
    Ok(())
}
