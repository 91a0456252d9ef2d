//! The real-application commands (docs/APPLICATIONS.md): `smd apps`, `smd machines`,
//! `smd job` and `smd trace`, over the crate `smd-apps`.

use crate::failure::Failure;
use crate::read::read_named;
use crate::table::Table;
use clap::Args;
use smd_apps::app::App;
use smd_apps::machines::{self, CATALOG};
use smd_apps::preset::{self, PresetOptions};
use smd_apps::trace;
use smd_core::scenario::{Architecture, Cluster, Resources};
use smd_format::num;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct AppsArgs {
    /// Print JSON: one object per application with its facts.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct MachinesArgs {
    /// Print JSON: one object per machine type.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct JobArgs {
    /// The application (`smd apps` lists them).
    #[arg(long, value_name = "APP")]
    app: String,
    /// The job's architecture: `allreduce` (data-parallel as measured, docs/MODEL.md §21)
    /// or `ps` (the paper's parameter-server model).
    #[arg(long, value_name = "KIND", default_value = "allreduce")]
    architecture: Architecture,
    /// Its total (global) batch, within the measured range `smd apps` shows; an all-reduce
    /// job without it lets the planner choose per allocation (required with `ps`).
    #[arg(
        long,
        alias = "batch-size",
        value_name = "K",
        allow_negative_numbers = true
    )]
    global_batch: Option<f64>,
    /// All-reduce: the most GPUs it may use (default: the reference's cap).
    #[arg(long, value_name = "W", allow_negative_numbers = true)]
    max_workers: Option<f64>,
    /// Per-worker batch m (default: K, at most the largest local batch measured on one GPU).
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    minibatch: Option<f64>,
    /// The job's id (default: APP-K, e.g. bert-384).
    #[arg(long, value_name = "ID")]
    id: Option<String>,
    /// ϑ, the job's limit in instances (default: room for the workers worth having and as
    /// many PSs, in `--machine-type`'s machines or the default instance).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    limit_instances: Option<f64>,
    /// Count ϑ in machines of this type instead of the default instance.
    #[arg(long, value_name = "NAME")]
    machine_type: Option<String>,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Trace CSV (`name,time,application,num_replicas,batch_size`), or `-` for stdin.
    #[arg(value_name = "FILE.csv|-", required_unless_present = "workload")]
    file: Option<PathBuf>,
    /// A bundled workload instead of a file: workload-1 … workload-8 (Pollux's Philly
    /// samples, 160 jobs in 8 h), workload-1-half … workload-8-half (80 jobs); the Sia
    /// artifact's philly-1 … philly-8 and helios-1 … helios-10 (160 jobs in 8 h) and
    /// helios-rate-R-K (R = 10 … 50 jobs per hour, K = 1 … 10).
    #[arg(long, value_name = "NAME", conflicts_with = "file")]
    workload: Option<String>,
    /// Number of machines (version-2 machines, with --machine-type; default 16, the
    /// artifact's cluster).
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        conflicts_with_all = ["units", "mix"]
    )]
    machines: Option<f64>,
    /// Machine type from the catalog (`smd machines`; default t4x4).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["units", "mix"])]
    machine_type: Option<String>,
    /// Machines of several catalog types, one group per type in the order given, e.g.
    /// `t4x4=6,a100x8=2,rtx2080tix8=3` (the Sia artifact's cluster); each count a whole
    /// number ≥ 1. The first type's machine is the instance a job's limit ϑ counts in.
    #[arg(long, value_name = "TYPE=N,…", conflicts_with = "units")]
    mix: Option<String>,
    /// A pool of U cluster units (docs/MODEL.md §1) instead of machines.
    #[arg(long, value_name = "U", allow_negative_numbers = true)]
    units: Option<f64>,
    /// The jobs' architecture: `allreduce` (as measured, docs/MODEL.md §21) or `ps` (the
    /// paper's parameter-server mapping of each row).
    #[arg(long, value_name = "KIND", default_value = "allreduce")]
    architecture: Architecture,
}

/// `smd apps`: the applications with model, parameters, size, epochs and batch range.
pub fn apps(a: &AppsArgs, out: &mut impl Write) -> Result<(), Failure> {
    if a.json {
        let list: Vec<serde_json::Value> = App::ALL
            .iter()
            .map(|&app| {
                let f = app.facts();
                serde_json::json!({
                    "app": app.name(), "model": f.model, "parameters": f.parameters,
                    "model_size_mb": app.model_size_mb(), "epochs": f.epochs,
                    "initial_batch": f.initial_batch, "max_batch": f.max_batch,
                    "step_ms": { "a": f.step_ms[0], "per_sample": f.step_ms[1] },
                    "local_batch": f.local_batch,
                    "iterations": f.iterations.iter()
                        .map(|&(k, e)| serde_json::json!({ "global_batch": k, "iterations": e }))
                        .collect::<Vec<_>>(),
                })
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&list).expect("JSON")
        )?;
        return Ok(());
    }
    let mut t = Table::new(&[
        ("app", false),
        ("model", false),
        ("parameters", true),
        ("MB", true),
        ("epochs", true),
        ("global batch", true),
        ("iterations", true),
        ("1-GPU step, ms", false),
    ]);
    for app in App::ALL {
        let f = app.facts();
        let (first, last) = (f.iterations[0], f.iterations[f.iterations.len() - 1]);
        t.row(vec![
            app.name().into(),
            f.model.into(),
            f.parameters.to_string(),
            format!("{:.1}", app.model_size_mb()),
            f.epochs.to_string(),
            format!("{}–{}", f.initial_batch, f.max_batch),
            format!("{}–{}", first.1, last.1),
            format!("{:.1} + {:.3}·b", f.step_ms[0], f.step_ms[1]),
        ]);
    }
    t.write(out)?;
    writeln!(
        out,
        "\nMeasured by the Pollux artifact (Qiao et al., OSDI 2021) on 4 × T4 nodes; iterations\n\
         at the smallest and largest global batch; b = local batch. docs/APPLICATIONS.md\n\
         says how a preset is built: smd job --app bert --global-batch 384"
    )?;
    Ok(())
}

/// `smd machines`: the machine catalog.
pub fn machines(a: &MachinesArgs, out: &mut impl Write) -> Result<(), Failure> {
    if a.json {
        let text = serde_json::to_string_pretty(&CATALOG).expect("the catalog serialises");
        writeln!(out, "{text}")?;
        return Ok(());
    }
    let mut t = Table::new(&[
        ("name", false),
        ("GPU type", false),
        ("GPUs", true),
        ("GPU GB", true),
        ("vCPUs", true),
        ("memory GB", true),
        ("storage GB", true),
        ("NIC Gbps", true),
        ("local Gbps", true),
        ("USD/hour", true),
    ]);
    for m in &CATALOG {
        let c = m.capacity;
        t.row(vec![
            m.name.into(),
            m.gpu.map_or("—", |g| g.label()).into(),
            crate::table::amount(c.gpu),
            crate::table::amount(m.gpu_memory_gb),
            crate::table::amount(c.vcpu),
            crate::table::amount(c.memory_gb),
            crate::table::amount(c.storage_gb),
            crate::table::amount(m.nic_gbps),
            m.local_gbps.map_or("-".into(), crate::table::amount),
            m.hourly_usd.map_or("on-premises".into(), |p| p.to_string()),
        ]);
    }
    t.write(out)?;
    writeln!(out)?;
    for m in &CATALOG {
        writeln!(out, "{}: {}", m.name, m.description)?;
    }
    // One line per price source, naming its types, then the types without a price.
    let mut sources: Vec<Option<&str>> = Vec::new();
    for m in &CATALOG {
        if !sources.contains(&m.price_source) {
            sources.push(m.price_source);
        }
    }
    sources.sort_by_key(|s| s.is_none());
    for source in sources {
        let names: Vec<&str> = CATALOG
            .iter()
            .filter(|m| m.price_source == source)
            .map(|m| m.name)
            .collect();
        let what = source.unwrap_or(machines::NO_PRICE);
        writeln!(out, "Prices of {}: {what}.", names.join(", "))?;
    }
    Ok(())
}

fn invalid(what: &str, message: impl std::fmt::Display) -> Failure {
    Failure::Invalid(format!("{what}: {message}"))
}

/// `smd job`: one preset job as a `jobs[]` element of a scenario.
pub fn job(a: &JobArgs, out: &mut impl Write) -> Result<(), Failure> {
    let app: App = a.app.parse().map_err(|m| invalid("--app", m))?;
    let flag_of = |e: preset::PresetError| {
        let flag = format!("--{}", e.field.replace('_', "-"));
        invalid(&flag, e.message)
    };
    if a.architecture == Architecture::Allreduce {
        for (flag, set) in [
            ("--minibatch", a.minibatch.is_some()),
            ("--limit-instances", a.limit_instances.is_some()),
            ("--machine-type", a.machine_type.is_some()),
        ] {
            if set {
                return Err(invalid(
                    flag,
                    "is a parameter-server option: add --architecture ps",
                ));
            }
        }
        let opts = preset::MeasuredOptions {
            id: a.id.clone(),
            batch_size: a.global_batch,
            max_workers: a.max_workers,
        };
        let job = preset::measured(app, &opts).map_err(|e| {
            let e = preset::PresetError {
                field: if e.field == "batch_size" {
                    "global_batch"
                } else {
                    e.field
                },
                message: e.message,
            };
            flag_of(e)
        })?;
        writeln!(out, "{}", serde_json::to_string_pretty(&job).expect("JSON"))?;
        return Ok(());
    }
    if a.max_workers.is_some() {
        return Err(invalid(
            "--max-workers",
            "is an all-reduce option (a parameter-server job's limit is --limit-instances)",
        ));
    }
    let Some(global_batch) = a.global_batch else {
        return Err(invalid(
            "--global-batch",
            "is required with --architecture ps",
        ));
    };
    let instance = match &a.machine_type {
        Some(name) => {
            machines::machine_type(name)
                .map_err(|m| invalid("--machine-type", m))?
                .capacity
        }
        None => Resources::DEFAULT_INSTANCE,
    };
    let opts = PresetOptions {
        global_batch,
        minibatch: a.minibatch,
        id: a.id.clone(),
        limit_instances: a.limit_instances,
        instance,
    };
    let job = preset::preset(app, &opts).map_err(flag_of)?;
    writeln!(out, "{}", serde_json::to_string_pretty(&job).expect("JSON"))?;
    Ok(())
}

/// The catalog type `name` (default t4x4) and `n`, checked as `--machine-type` and
/// `--machines` (`machines::check_count`: a whole number from 1 to the most a cluster lists).
pub fn machine_count(
    n: f64,
    name: Option<&str>,
) -> Result<&'static machines::MachineType, Failure> {
    let m =
        machines::machine_type(name.unwrap_or("t4x4")).map_err(|m| invalid("--machine-type", m))?;
    machines::check_count(n).map_err(|e| invalid("--machines", e))?;
    Ok(m)
}

/// The cluster `smd trace` plans on.
fn trace_cluster(a: &TraceArgs) -> Result<Cluster, Failure> {
    if let Some(u) = a.units {
        if !(u.is_finite() && u > 0.0) {
            return Err(invalid("--units", format!("must be > 0 (got {})", num(u))));
        }
        return Ok(Cluster {
            units: u,
            ..Cluster::default()
        });
    }
    if let Some(text) = &a.mix {
        let mix = machines::parse_mix(text).map_err(|m| invalid("--mix", m))?;
        // As for one type: said of the flag, before any row.
        if a.architecture == Architecture::Allreduce && mix.iter().all(|(m, _)| m.gpu.is_none()) {
            return Err(invalid(
                "--mix",
                "has no GPU machine, and a measured job's worker is one GPU (add a GPU type)",
            ));
        }
        // The first type's machine is the instance a job's limit ϑ counts in.
        return Ok(machines::mix_cluster(&mix, mix[0].0.capacity));
    }
    let n = a.machines.unwrap_or(16.0);
    let m = machine_count(n, a.machine_type.as_deref())?;
    // Said of the flag, before any row: every measured job would fail on it alike.
    if a.architecture == Architecture::Allreduce && m.capacity.gpu <= 0.0 {
        return Err(invalid(
            "--machine-type",
            format!(
                "{} has no GPU, and a measured job's worker is one (pick a GPU machine)",
                m.name
            ),
        ));
    }
    // The machine is also the instance: a job's limit ϑ reads "machines it may span".
    Ok(machines::cluster(m, n, m.capacity))
}

/// `smd trace`: a version-2 scenario with one preset job per row of a trace.
pub fn trace(a: &TraceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let cluster = trace_cluster(a)?;
    let (name, text) = match (&a.workload, &a.file) {
        (Some(w), _) => {
            let text = trace::workload(w).map_err(|m| invalid("--workload", m))?;
            (format!("workload {w}"), text.to_owned())
        }
        (None, Some(file)) => read_named(file, "trace file")?,
        (None, None) => return Err(invalid("trace", "give a FILE.csv or --workload NAME")),
    };
    let arrivals = trace::parse(&text).map_err(|e| invalid(&name, e))?;
    // Warnings only once the scenario is sure to be written: a fatal error comes alone.
    let warnings = trace::warnings(&arrivals, &cluster);
    let scenario =
        trace::scenario_as(&arrivals, cluster, a.architecture).map_err(|e| invalid(&name, e))?;
    scenario.validate()?;
    crate::common::print_warnings(warnings.iter().map(|w| format!("{name}: {w}")));
    writeln!(out, "{}", scenario.to_json())?;
    Ok(())
}
