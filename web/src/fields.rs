//! Every editable field of a scenario, named by the same path that `smd_core`'s
//! [`FieldError::field`](smd_core::FieldError) uses (`cluster.units`, `params.epsilon`,
//! `worker.gpu`, `layers[3].forward_ms`, …), with its text form and its parser.
//!
//! The page's own settings ([`Settings`], not part of the scenario) are fields too, under
//! `page.` (`page.global_budget_s`); their rules are checked here, as the core does not
//! know them.
//!
//! The page keeps the raw text of every input; this module only turns text into values
//! (or a parse message) and values into text. Checking the values is `smd_core`'s job.

use serde::{Deserialize, Serialize};
use smd_core::scenario::{
    Cluster, GpuSharing, Job, Layer, MachineGroup, Mode, Outer, Overlap, Placement, Resource,
    Rounding,
};
use smd_core::Scenario;

/// A select's choices from the enum's one owner (`smd_core::choice`): `(name, label)` for
/// each value of `ALL`, its label the owner's; `default` adds " (default)" to the value a
/// missing field means (shown for the version-2 parameters, which are optional).
macro_rules! choices {
    ($t:ty) => {
        <$t>::ALL
            .iter()
            .map(|&v| (v.name(), v.label().to_owned()))
            .collect()
    };
    ($t:ty, default) => {
        <$t>::ALL
            .iter()
            .map(|&v| {
                let mark = if v == <$t>::default() {
                    " (default)"
                } else {
                    ""
                };
                (v.name(), format!("{}{mark}", v.label()))
            })
            .collect()
    };
}

/// `global`'s search time budget the page opens with, s.
pub const DEFAULT_GLOBAL_BUDGET_S: f64 = 3.0;

/// The page's own settings: how it plans, not what (they are not part of the scenario's
/// file or its share link), saved with the draft.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Wall-clock budget of `global`'s search, s (`smd_core::Options::time_budget_ms`).
    pub global_budget_s: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            global_budget_s: DEFAULT_GLOBAL_BUDGET_S,
        }
    }
}

/// The field of `global`'s time budget, s (a page setting).
pub const GLOBAL_BUDGET: &str = "page.global_budget_s";

/// Whether a top-level field is one of the page's settings rather than the scenario's.
pub fn is_setting(field: &str) -> bool {
    field.starts_with("page.")
}

/// The current value of a page setting as text.
pub fn setting_text(s: &Settings, field: &str) -> String {
    match field {
        GLOBAL_BUDGET => s.global_budget_s.to_string(),
        _ => String::new(),
    }
}

/// Sets a page setting from text, or says why the text is not a valid value (the setting
/// keeps its last valid value).
pub fn set_setting(s: &mut Settings, field: &str, text: &str) -> Result<(), String> {
    match field {
        GLOBAL_BUDGET => s.global_budget_s = parse_seconds(text)?,
        f => return Err(format!("unknown field {f:?}")),
    }
    Ok(())
}

/// A duration in seconds: a finite number > 0.
fn parse_seconds(text: &str) -> Result<f64, String> {
    let v = parse_number(text)?;
    if !v.is_finite() {
        Err(format!(
            "must be a finite number of seconds (got {:?})",
            text.trim()
        ))
    } else if v <= 0.0 {
        Err(format!("must be > 0 s (got {})", text.trim()))
    } else {
        Ok(v)
    }
}

/// Where a field lives: the scenario itself (`job: None`) or one job, named by the page's
/// stable job handle (a uid that survives reordering, adding and deleting jobs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldKey {
    /// The job's uid, or `None` for cluster and params fields.
    pub job: Option<u64>,
    /// The field's path (`params.epsilon`, `worker.gpu`, `layers`).
    pub field: String,
}

impl FieldKey {
    /// A cluster or params field.
    pub fn top(field: &str) -> Self {
        FieldKey {
            job: None,
            field: field.to_owned(),
        }
    }
    /// A field of the job with uid `uid`.
    pub fn job(uid: u64, field: &str) -> Self {
        FieldKey {
            job: Some(uid),
            field: field.to_owned(),
        }
    }
}

/// The four resources, in the order of `Resources::to_array`; a field's path segment is
/// [`Resource::name`].
pub const RESOURCES: [Resource; 4] = Resource::ALL;

/// A resource's label in inputs and tables: its [`Resource::title`], with its unit where
/// the unit does not already name it (`GPU`, `vCPU`, `memory GB`, `storage GB`).
pub fn resource_label(r: Resource) -> String {
    if r.unit().starts_with(r.title()) {
        r.title().to_owned()
    } else {
        format!("{} {}", r.title(), r.unit())
    }
}

/// The numeric fields of a job, with the symbol of docs/MODEL.md and a short label (the
/// demands `worker.<resource>` and `ps.<resource>` come from [`RESOURCES`]).
pub const JOB_NUMBERS: [(&str, &str, &str); 12] = [
    ("iterations", "E", "iterations"),
    ("model_size_mb", "g", "model size, MB"),
    ("minibatch", "m", "mini-batch"),
    ("global_batch", "K", "global batch"),
    ("ps_bandwidth_gbps", "B", "PS bandwidth, Gbps"),
    ("worker_overhead_s", "β1", "worker overhead, s"),
    ("ps_overhead_s", "β2", "PS overhead, s"),
    ("async_comm_factor", "α", "async comm. factor"),
    ("limit_instances", "ϑ", "limit, instances"),
    ("utility.gamma1", "γ1", "utility height"),
    ("utility.gamma2", "γ2", "utility steepness"),
    ("utility.gamma3", "γ3", "utility midpoint π"),
];

/// The optional fields of a measured (all-reduce) job (docs/MODEL.md §21.1), with a
/// label and a placeholder (what an empty field means): empty text is no value.
pub const JOB_MEASURED: [(&str, &str, &str); 2] = [
    ("batch_size", "total batch", "planner's choice"),
    ("max_workers", "most GPUs", "the reference's cap"),
];

/// The choices of a measured job's application select.
pub fn app_choices() -> Vec<(&'static str, String)> {
    smd_apps::app::App::ALL
        .iter()
        .map(|a| (a.name(), format!("{} — {}", a.name(), a.facts().model)))
        .collect()
}

/// A measured job's optional number `field` (`batch_size`, `max_workers`).
fn measured_option_mut<'a>(j: &'a mut Job, field: &str) -> Option<&'a mut Option<f64>> {
    let m = j.measured.as_mut()?;
    match field {
        "batch_size" => Some(&mut m.batch_size),
        "max_workers" => Some(&mut m.max_workers),
        _ => None,
    }
}

/// The optional fields of a version-2 job (docs/SCENARIO.md §"Version 2"), with a short
/// label: empty text is no value.
pub const JOB_ONLINE: [(&str, &str); 3] = [
    ("arrival_s", "arrives, s"),
    ("requested_workers", "asked workers"),
    ("requested_ps", "asked PSs"),
];

/// The optional GPU-sharing fields of a version-2 job (docs/SCENARIO.md, "GPU sharing"),
/// with a short label, a placeholder (the default) and a hint: empty text is no value.
pub const JOB_SHARING: [(&str, &str, &str, &str); 4] = [
    (
        "gpu_mem_mean_gb",
        "GPU memory mean, GB",
        "none",
        "Mean GPU memory of one worker; without it the job's workers do not share GPUs.",
    ),
    (
        "gpu_mem_sd_gb",
        "GPU memory sd, GB",
        "0",
        "Standard deviation of one worker's GPU memory.",
    ),
    (
        "gpu_util",
        "GPU utilisation",
        "1",
        "Share of a GPU's compute one worker uses alone, (0, 1].",
    ),
    (
        "min_performance",
        "min. performance",
        "0.93",
        "The least 1 / slowdown a worker accepts when sharing, (0, 1].",
    ),
];

fn job_option_mut<'a>(j: &'a mut Job, field: &str) -> Option<&'a mut Option<f64>> {
    match field {
        "arrival_s" => Some(&mut j.arrival_s),
        "requested_workers" => Some(&mut j.requested_workers),
        "requested_ps" => Some(&mut j.requested_ps),
        "gpu_mem_mean_gb" => Some(&mut j.gpu_mem_mean_gb),
        "gpu_mem_sd_gb" => Some(&mut j.gpu_mem_sd_gb),
        "gpu_util" => Some(&mut j.gpu_util),
        "min_performance" => Some(&mut j.min_performance),
        _ => None,
    }
}

macro_rules! job_number_paths {
    ($j:expr, $f:expr, $($name:literal => $($path:ident).+),* $(,)?) => {
        match $f {
            $($name => Some(&mut $j.$($path).+),)*
            _ => None,
        }
    };
}

fn job_number_mut<'a>(j: &'a mut Job, field: &str) -> Option<&'a mut f64> {
    if let Some((index, part)) = layer_field(field) {
        let l = j.layers.get_mut(index)?;
        return match part {
            "forward_ms" => Some(&mut l.forward_ms),
            "backward_ms" => Some(&mut l.backward_ms),
            "comm_ms" => Some(&mut l.comm_ms),
            _ => None,
        };
    }
    job_number_paths!(j, field,
        "iterations" => iterations,
        "model_size_mb" => model_size_mb,
        "minibatch" => minibatch,
        "global_batch" => global_batch,
        "ps_bandwidth_gbps" => ps_bandwidth_gbps,
        "worker_overhead_s" => worker_overhead_s,
        "ps_overhead_s" => ps_overhead_s,
        "async_comm_factor" => async_comm_factor,
        "limit_instances" => limit_instances,
        "utility.gamma1" => utility.gamma1,
        "utility.gamma2" => utility.gamma2,
        "utility.gamma3" => utility.gamma3,
        "worker.gpu" => worker.gpu,
        "worker.vcpu" => worker.vcpu,
        "worker.memory_gb" => worker.memory_gb,
        "worker.storage_gb" => worker.storage_gb,
        "ps.gpu" => ps.gpu,
        "ps.vcpu" => ps.vcpu,
        "ps.memory_gb" => ps.memory_gb,
        "ps.storage_gb" => ps.storage_gb,
    )
}

fn job_number(j: &Job, field: &str) -> Option<f64> {
    // The same table as `job_number_mut`, read through a copy without the layers.
    if let Some((index, part)) = layer_field(field) {
        let l = j.layers.get(index)?;
        return match part {
            "forward_ms" => Some(l.forward_ms),
            "backward_ms" => Some(l.backward_ms),
            "comm_ms" => Some(l.comm_ms),
            _ => None,
        };
    }
    job_number_mut(&mut scalars_of(j), field).map(|v| *v)
}

/// A copy of the job without its id and layers (cheap to make per read).
fn scalars_of(j: &Job) -> Job {
    Job {
        id: String::new(),
        mode: j.mode,
        overlap: j.overlap,
        iterations: j.iterations,
        model_size_mb: j.model_size_mb,
        minibatch: j.minibatch,
        global_batch: j.global_batch,
        layers: Vec::new(),
        ps_bandwidth_gbps: j.ps_bandwidth_gbps,
        worker_overhead_s: j.worker_overhead_s,
        ps_overhead_s: j.ps_overhead_s,
        async_comm_factor: j.async_comm_factor,
        worker: j.worker,
        ps: j.ps,
        limit_instances: j.limit_instances,
        utility: j.utility,
        arrival_s: j.arrival_s,
        requested_workers: j.requested_workers,
        requested_ps: j.requested_ps,
        gpu_mem_mean_gb: j.gpu_mem_mean_gb,
        gpu_mem_sd_gb: j.gpu_mem_sd_gb,
        gpu_util: j.gpu_util,
        min_performance: j.min_performance,
        measured: j.measured.clone(),
    }
}

/// `layers[3].forward_ms` → `(3, "forward_ms")`.
pub fn layer_field(field: &str) -> Option<(usize, &str)> {
    let rest = field.strip_prefix("layers[")?;
    let (index, part) = rest.split_once("].")?;
    Some((index.parse().ok()?, part))
}

/// Parses a number as typed; the message follows `smd_core`'s style.
pub fn parse_number(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("must be a number (the field is empty)".into());
    }
    t.parse::<f64>()
        .map_err(|_| format!("must be a number (got {t:?})"))
}

fn parse_whole<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("must be {what} (the field is empty)"));
    }
    t.parse::<T>()
        .map_err(|_| format!("must be {what} (got {t:?})"))
}

/// The current value of a top-level field as text.
pub fn top_text(s: &Scenario, field: &str) -> String {
    let p = &s.params;
    let c = &s.cluster;
    match field {
        "cluster.units" => c.units.to_string(),
        "params.epsilon" => p.epsilon.to_string(),
        "params.ptas_depth" => p.ptas_depth.to_string(),
        "params.m_delta" => p.m_delta.to_string(),
        "params.max_rounding_attempts" => p.max_rounding_attempts.to_string(),
        "params.seed" => p.seed.to_string(),
        "params.time_unit_s" => p.time_unit_s.map(|v| v.to_string()).unwrap_or_default(),
        "params.polish" => p.polish.to_string(),
        "params.rounding" => p.rounding.name().into(),
        "params.outer" => p.outer.name().into(),
        "params.placement" => p.placement.unwrap_or_default().name().into(),
        "params.dltap_lambda" => opt_text(p.dltap_lambda),
        "params.gpu_sharing" => p.gpu_sharing.unwrap_or_default().name().into(),
        "params.collision_prob" => opt_text(p.collision_prob),
        "params.share_overhead" => opt_text(p.share_overhead),
        "params.interval_s" => opt_text(p.interval_s),
        "params.restart_s" => opt_text(p.restart_s),
        f => if let Some((i, part)) = machine_field(f) {
            c.machines.get(i).map(|g| group_text(g, part))
        } else if let Some(r) = f.strip_prefix("cluster.unit.") {
            resource(c.unit.to_array(), r).map(|v| v.to_string())
        } else if let Some(r) = f.strip_prefix("cluster.instance.") {
            resource(c.instance.to_array(), r).map(|v| v.to_string())
        } else {
            None
        }
        .unwrap_or_default(),
    }
}

fn resource(values: [f64; 4], name: &str) -> Option<f64> {
    name.parse::<Resource>().ok().map(|r| values[r.index()])
}

fn set_resource(
    r: &mut smd_core::scenario::Resources,
    name: &str,
    text: &str,
) -> Result<(), String> {
    let res: Resource = name
        .parse()
        .map_err(|_| format!("unknown resource {name:?}"))?;
    let mut a = r.to_array();
    a[res.index()] = parse_number(text)?;
    *r = smd_core::scenario::Resources::from_array(a);
    Ok(())
}

/// The editable parts of a machine group (`capacity.<resource>` from [`RESOURCES`] too):
/// the path segment after `cluster.machines[i].` and a short label; the optional ones may
/// be empty.
pub const GROUP_FIELDS: [(&str, &str); 2] = [("name", "name"), ("count", "machines")];

/// The optional numbers of a machine group, with a short label.
pub const GROUP_OPTIONS: [(&str, &str); 3] = [
    ("gpu_memory_gb", "GB per GPU"),
    ("nic_gbps", "NIC, Gbps"),
    ("local_gbps", "local, Gbps"),
];

/// `cluster.machines[2].count` → `(2, "count")`.
pub fn machine_field(field: &str) -> Option<(usize, &str)> {
    let rest = field.strip_prefix("cluster.machines[")?;
    let (index, part) = rest.split_once("].")?;
    Some((index.parse().ok()?, part))
}

/// The path of part `part` of machine group `i`.
pub fn machine_path(i: usize, part: &str) -> String {
    format!("cluster.machines[{i}].{part}")
}

fn group_option_mut<'a>(g: &'a mut MachineGroup, part: &str) -> Option<&'a mut Option<f64>> {
    match part {
        "gpu_memory_gb" => Some(&mut g.gpu_memory_gb),
        "nic_gbps" => Some(&mut g.nic_gbps),
        "local_gbps" => Some(&mut g.local_gbps),
        _ => None,
    }
}

fn group_text(g: &MachineGroup, part: &str) -> String {
    match part {
        "name" => g.name.clone(),
        "count" => g.count.to_string(),
        p => {
            if let Some(r) = p.strip_prefix("capacity.") {
                resource(g.capacity.to_array(), r)
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            } else {
                let mut g = g.clone();
                group_option_mut(&mut g, p)
                    .and_then(|v| v.map(|v| v.to_string()))
                    .unwrap_or_default()
            }
        }
    }
}

fn set_group(g: &mut MachineGroup, part: &str, text: &str) -> Result<(), String> {
    match part {
        "name" => g.name = text.trim().to_owned(),
        "count" => g.count = parse_number(text)?,
        p => {
            if let Some(r) = p.strip_prefix("capacity.") {
                set_resource(&mut g.capacity, r, text)?
            } else if let Some(v) = group_option_mut(g, p) {
                *v = if text.trim().is_empty() {
                    None
                } else {
                    Some(parse_number(text)?)
                }
            } else {
                return Err(format!("unknown field {p:?}"));
            }
        }
    }
    Ok(())
}

/// The choices of the placement select: every [`Placement`], labelled by its owner.
pub fn placement_choices() -> Vec<(&'static str, String)> {
    choices!(Placement, default)
}

/// The version-2 parameters the page edits (docs/SCENARIO.md): setting one makes the
/// draft version 2, the only version that may carry it.
pub const PARAMS_VERSION2: [&str; 7] = [
    "params.placement",
    "params.dltap_lambda",
    "params.gpu_sharing",
    "params.collision_prob",
    "params.share_overhead",
    "params.interval_s",
    "params.restart_s",
];

/// The choices of the GPU sharing select: every [`GpuSharing`], labelled by its owner.
pub fn gpu_sharing_choices() -> Vec<(&'static str, String)> {
    choices!(GpuSharing, default)
}

/// An optional number: empty text is no value.
fn parse_optional(text: &str) -> Result<Option<f64>, String> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse_number(text).map(Some)
    }
}

/// Sets a top-level field from text; on a parse error the scenario is unchanged.
pub fn set_top(s: &mut Scenario, field: &str, text: &str) -> Result<(), String> {
    let p = &mut s.params;
    match field {
        "cluster.units" => s.cluster.units = parse_number(text)?,
        "params.epsilon" => p.epsilon = parse_number(text)?,
        "params.ptas_depth" => p.ptas_depth = parse_whole(text, "a whole number 0 … 3")?,
        "params.m_delta" => p.m_delta = parse_number(text)?,
        "params.max_rounding_attempts" => {
            p.max_rounding_attempts = parse_whole(text, "a whole number ≥ 1")?
        }
        "params.seed" => p.seed = parse_whole(text, "a whole number ≥ 0")?,
        "params.time_unit_s" => {
            p.time_unit_s = if text.trim().is_empty() {
                None
            } else {
                Some(parse_number(text)?)
            }
        }
        "params.polish" => p.polish = text == "true",
        "params.rounding" => p.rounding = text.parse().unwrap_or(Rounding::Paper),
        "params.outer" => p.outer = text.parse().unwrap_or(Outer::Ptas),
        "params.placement" => p.placement = Some(text.parse().unwrap_or_default()),
        "params.dltap_lambda" => p.dltap_lambda = parse_optional(text)?,
        "params.gpu_sharing" => p.gpu_sharing = Some(text.parse().unwrap_or_default()),
        "params.collision_prob" => p.collision_prob = parse_optional(text)?,
        "params.share_overhead" => p.share_overhead = parse_optional(text)?,
        "params.interval_s" => p.interval_s = parse_optional(text)?,
        "params.restart_s" => p.restart_s = parse_optional(text)?,
        f => {
            if let Some((i, part)) = machine_field(f) {
                let mut groups = s.cluster.machines.clone();
                let g = groups
                    .get_mut(i)
                    .ok_or_else(|| format!("there is no machine group {}", i + 1))?;
                set_group(g, part, text)?;
                s.cluster = Cluster::of_machines(groups, s.cluster.instance);
            } else if let Some(r) = f.strip_prefix("cluster.unit.") {
                set_resource(&mut s.cluster.unit, r, text)?
            } else if let Some(r) = f.strip_prefix("cluster.instance.") {
                set_resource(&mut s.cluster.instance, r, text)?
            } else {
                return Err(format!("unknown field {f:?}"));
            }
        }
    }
    Ok(())
}

/// The current value of a job field as text (`layers` is the layer editor's text).
pub fn job_text(j: &Job, field: &str) -> String {
    match field {
        "id" => j.id.clone(),
        "mode" => j.mode.name().into(),
        "overlap" => j.overlap.name().into(),
        "layers" => layers_text(&j.layers),
        "arrival_s" => opt_text(j.arrival_s),
        "requested_workers" => opt_text(j.requested_workers),
        "requested_ps" => opt_text(j.requested_ps),
        "gpu_mem_mean_gb" => opt_text(j.gpu_mem_mean_gb),
        "gpu_mem_sd_gb" => opt_text(j.gpu_mem_sd_gb),
        "gpu_util" => opt_text(j.gpu_util),
        "min_performance" => opt_text(j.min_performance),
        "app" => j
            .measured
            .as_ref()
            .map(|m| m.app.name().to_owned())
            .unwrap_or_default(),
        "batch_size" => opt_text(j.measured.as_ref().and_then(|m| m.batch_size)),
        "max_workers" => opt_text(j.measured.as_ref().and_then(|m| m.max_workers)),
        f => job_number(j, f).map(|v| v.to_string()).unwrap_or_default(),
    }
}

fn opt_text(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// Sets a job field from text; on a parse error the job is unchanged.
pub fn set_job(j: &mut Job, field: &str, text: &str) -> Result<(), String> {
    match field {
        "id" => j.id = text.to_owned(),
        "mode" => j.mode = text.parse().unwrap_or(Mode::Sync),
        "overlap" => j.overlap = text.parse().unwrap_or(Overlap::Sequential),
        "layers" => j.layers = parse_layers(text)?,
        "app" => {
            if let Some(m) = j.measured.as_mut() {
                m.app = text.parse()?;
            }
        }
        f if measured_option_mut(j, f).is_some() => {
            let v = parse_optional(text)?;
            *measured_option_mut(j, f).expect("matched above") = v;
        }
        f if job_option_mut(j, f).is_some() => {
            let v = if text.trim().is_empty() {
                None
            } else {
                Some(parse_number(text)?)
            };
            *job_option_mut(j, f).expect("matched above") = v;
        }
        f => {
            let v = parse_number(text)?;
            *job_number_mut(j, f).ok_or_else(|| format!("unknown field {f:?}"))? = v;
        }
    }
    Ok(())
}

/// The choices of the mode select: every [`Mode`].
pub fn mode_choices() -> Vec<(&'static str, String)> {
    choices!(Mode)
}

/// The choices of the overlap select: every [`Overlap`] (`wfbp` shown as `WFBP`).
pub fn overlap_choices() -> Vec<(&'static str, String)> {
    choices!(Overlap)
}

/// The choices of the rounding select: every [`Rounding`] (`best_corner` shown as
/// `best corner`).
pub fn rounding_choices() -> Vec<(&'static str, String)> {
    choices!(Rounding)
}

/// The choices of the outer-method select: every [`Outer`], labelled by the method.
pub fn outer_choices() -> Vec<(&'static str, String)> {
    choices!(Outer)
}

/// The layer editor's text: one line per layer, `forward backward comm` in ms.
pub fn layers_text(layers: &[Layer]) -> String {
    layers
        .iter()
        .map(|l| format!("{} {} {}", l.forward_ms, l.backward_ms, l.comm_ms))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses the layer editor's text (numbers separated by spaces, commas or tabs; blank lines
/// and `#` comments ignored).
pub fn parse_layers(text: &str) -> Result<Vec<Layer>, String> {
    let mut layers = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let parts: Vec<&str> = line
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() != 3 {
            return Err(format!(
                "line {}: needs 3 numbers (forward backward comm, ms), got {} ({line:?})",
                n + 1,
                parts.len()
            ));
        }
        let mut v = [0.0; 3];
        for (k, p) in parts.iter().enumerate() {
            v[k] = p
                .parse::<f64>()
                .map_err(|_| format!("line {}: {p:?} is not a number", n + 1))?;
        }
        layers.push(Layer {
            forward_ms: v[0],
            backward_ms: v[1],
            comm_ms: v[2],
        });
    }
    Ok(layers)
}

/// Where an error of `smd_core` belongs among the page's inputs: layer errors go to the
/// layer editor, a whole-task error (`worker`: all zero) to that task's first field, a
/// group's GPU type (shown, not edited) to its GPUs per machine.
pub fn input_of(field: &str) -> String {
    if let Some((i, "gpu")) = machine_field(field) {
        return machine_path(i, "capacity.gpu");
    }
    if field.starts_with("layers") {
        "layers".into()
    } else if field == "worker"
        || field == "ps"
        || machine_field(field).is_some_and(|(_, p)| p == "capacity")
    {
        format!("{field}.gpu")
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests;
