//! Validation of a scenario (docs/SCENARIO.md): every rule of the file at once, each
//! violation naming its job and field, and the warnings (allowed but probably not meant).
//! Above `budget`, whose work limits it checks too, so that the scenario's types stay at the
//! bottom of the crate.

use crate::error::{cut, Error, FieldError};
use crate::scenario::{
    id_problem, Job, MachineGroup, MeasuredJob, Resource, Resources, Scenario, MAX_ALLOCATION,
    MAX_HORIZON_S, MAX_ID_CHARS, MAX_MACHINES, MAX_MAGNITUDE, MAX_VERSION, MIN_MAGNITUDE,
    RESOURCE_NAMES, VERSION,
};
use crate::scenario::{unreachable, unreachable_arrival};

impl Scenario {
    /// Parses and validates a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<Scenario, Error> {
        let scenario = Scenario::parse(text)?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// What is allowed but probably not meant (never an error): a machine group on which no
    /// job's worker fits, a `restart_s` longer than a slot, a slot as long as the horizon,
    /// arrivals 30 days out or more (docs/SCENARIO.md, version 2).
    /// Each names the field and says why.
    pub fn warnings(&self) -> Vec<FieldError> {
        let mut out = Vec::new();
        // The simulation charges a restart within its slot, min(restart_s, Δ): a longer
        // restart is cut to Δ without a word unless said here (docs/SCENARIO.md, "Time").
        let delta = self.interval_s();
        if let Some(r) = self.params.restart_s.filter(|r| *r > delta) {
            out.push(FieldError {
                job: None,
                field: "params.restart_s".into(),
                message: format!(
                    "is longer than a slot ({} s > interval_s {} s): a restart costs at most one slot, {} s",
                    crate::error::num(r),
                    crate::error::num(delta),
                    crate::error::num(delta)
                ),
            });
        }
        // Nothing is simulated past the horizon (at most 30 days), and measured jobs are first
        // seen at the end of the first slot: a slot as long runs next to nothing.
        let horizon = self.horizon_s();
        if delta >= horizon {
            let (field, what) = if self.params.interval_s.is_some() {
                ("params.interval_s", "is not shorter than the horizon")
            } else {
                ("params.horizon_s", "is not longer than a slot")
            };
            out.push(FieldError {
                job: None,
                field: field.into(),
                message: format!(
                    "{what} (interval_s {} s ≥ horizon {} s): at most one slot is simulated, \
                     and measured jobs never start",
                    crate::error::num(delta),
                    crate::error::num(horizon)
                ),
            });
        }
        // One warning for every arrival no simulation reaches, at the first.
        let late: Vec<(&Job, f64)> = self
            .jobs
            .iter()
            .filter_map(|j| Some((j, j.arrival_s.filter(|a| unreachable(*a))?)))
            .collect();
        if let Some(&(job, a)) = late.first() {
            if let Some(why) = unreachable_arrival(a, late.len() - 1, "jobs") {
                out.push(FieldError {
                    job: Some(job.id.clone()),
                    field: "arrival_s".into(),
                    message: why,
                });
            }
        }
        if self.jobs.is_empty() {
            return out;
        }
        for (i, g) in self.cluster.machines.iter().enumerate() {
            let cap = g.capacity.to_array();
            let fits = |d: &Resources| d.to_array().iter().zip(cap).all(|(d, c)| *d <= c);
            if self.jobs.iter().any(|j| fits(&j.worker)) {
                continue;
            }
            // The resource that rules out the most jobs says why.
            let short = Resource::ALL
                .into_iter()
                .max_by_key(|r| {
                    self.jobs
                        .iter()
                        .filter(|j| j.worker[*r] > cap[r.index()])
                        .count()
                })
                .unwrap_or(Resource::Gpu);
            let example = self
                .jobs
                .iter()
                .find(|j| j.worker[short] > cap[short.index()])
                .unwrap_or(&self.jobs[0]);
            out.push(FieldError {
                job: None,
                field: format!("cluster.machines[{i}]"),
                message: format!(
                    "fits no job's worker: a {:?} machine has {} {}, e.g. job {:?}'s worker needs {}",
                    cut(&g.name),
                    short.name(),
                    crate::error::num(cap[short.index()]),
                    cut(&example.id),
                    crate::error::num(example.worker[short])
                ),
            });
        }
        out
    }

    /// Checks every rule of `SCENARIO.md`; returns all violations at once.
    pub fn validate(&self) -> Result<(), Error> {
        self.validate_then(|s| Ok(crate::budget::check(s)))
            .map(|_| ())
    }

    /// [`Scenario::validate`], returning every job's model (in job order) as planning builds
    /// it: the model rules need them, so a plan need not build them again (a simulation
    /// plans a scenario every slot).
    pub(crate) fn validated_models(&self) -> Result<Vec<crate::model::JobModel>, Error> {
        let mut out = Vec::new();
        self.validate_then(|s| {
            out = crate::budget::base_models(s);
            Ok(crate::budget::check_with(s, &out))
        })?;
        Ok(out)
    }

    /// The field rules, then (only if they hold) the model rules `model_rules` gives.
    fn validate_then(
        &self,
        model_rules: impl FnOnce(&Scenario) -> Result<Vec<FieldError>, Error>,
    ) -> Result<(), Error> {
        let mut errs = Vec::new();
        let mut top = |field: &str, message: String| {
            errs.push(FieldError {
                job: None,
                field: field.to_owned(),
                message,
            })
        };
        self.validate_cluster(&mut top);
        self.validate_version2_params(&mut top);
        self.validate_params(&mut top);
        self.validate_jobs(&mut errs);
        // The model rules (representable times, the work budget) need every job's model:
        // only once the fields are valid.
        if errs.is_empty() {
            errs.extend(model_rules(self)?);
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid(errs))
        }
    }

    /// The version and the cluster: a pool's units or the machine groups.
    fn validate_cluster(&self, top: &mut impl FnMut(&str, String)) {
        if !(VERSION..=MAX_VERSION).contains(&self.version) {
            top(
                "version",
                format!("must be {VERSION} or {MAX_VERSION} (got {})", self.version),
            );
        }
        if self.cluster.has_machines() {
            validate_machines(&self.cluster.machines, self.version, top);
        } else {
            check(top, "cluster.units", self.cluster.units, Rule::NonNeg);
            for (name, v) in RESOURCE_NAMES.iter().zip(self.cluster.unit.to_array()) {
                check(top, format_args!("cluster.unit.{name}"), v, Rule::NonNeg);
            }
        }
    }

    /// The version-2 parameters: only in a version-2 file, each within its range.
    fn validate_version2_params(&self, top: &mut impl FnMut(&str, String)) {
        for (field, used) in [
            ("params.placement", self.params.placement.is_some()),
            ("params.dltap_lambda", self.params.dltap_lambda.is_some()),
            ("params.interval_s", self.params.interval_s.is_some()),
            ("params.restart_s", self.params.restart_s.is_some()),
            ("params.horizon_s", self.params.horizon_s.is_some()),
            ("params.gpu_sharing", self.params.gpu_sharing.is_some()),
            (
                "params.collision_prob",
                self.params.collision_prob.is_some(),
            ),
            (
                "params.share_overhead",
                self.params.share_overhead.is_some(),
            ),
        ] {
            if used && self.version < 2 {
                top(
                    field,
                    format!(
                        "is a version-2 field: the file must say \"version\": 2 (it says {})",
                        self.version
                    ),
                );
            }
        }
        if let Some(l) = self.params.dltap_lambda {
            check(top, "params.dltap_lambda", l, Rule::Unit);
        }
        // The slot loop's work is horizon / Δ slots: Δ ≥ 1 s and a horizon ≤ 30 days bound it.
        if let Some(d) = self.params.interval_s {
            if !(d.is_finite() && (1.0..=MAX_HORIZON_S).contains(&d)) {
                top(
                    "params.interval_s",
                    format!(
                        "must be 1 … {} s (got {})",
                        MAX_HORIZON_S,
                        crate::error::num(d)
                    ),
                );
            }
        }
        if let Some(r) = self.params.restart_s {
            check(top, "params.restart_s", r, Rule::NonNeg);
        }
        if let Some(c) = self.params.collision_prob {
            if !(c.is_finite() && c > 0.0 && c < 1.0) {
                top(
                    "params.collision_prob",
                    format!("must be in (0, 1) (got {})", crate::error::num(c)),
                );
            }
        }
        if let Some(k) = self.params.share_overhead {
            check(top, "params.share_overhead", k, Rule::NonNeg);
        }
        // The same floor as every other number (MIN_MAGNITUDE): 1e-300 s is no horizon.
        if let Some(h) = self.params.horizon_s {
            if !(h.is_finite() && (MIN_MAGNITUDE..=MAX_HORIZON_S).contains(&h)) {
                top(
                    "params.horizon_s",
                    format!(
                        "must be in [1e-12, {MAX_HORIZON_S}] s (30 days; got {})",
                        crate::error::num(h)
                    ),
                );
            }
        }
    }

    /// The instance and the solver parameters.
    fn validate_params(&self, top: &mut impl FnMut(&str, String)) {
        for (name, v) in RESOURCE_NAMES.iter().zip(self.cluster.instance.to_array()) {
            check(
                top,
                format_args!("cluster.instance.{name}"),
                v,
                Rule::NonNeg,
            );
        }
        let p = &self.params;
        if !(p.epsilon.is_finite() && p.epsilon > 0.0 && p.epsilon <= 1.0) {
            top(
                "params.epsilon",
                format!("must be in (0, 1] (got {})", crate::error::num(p.epsilon)),
            );
        }
        if p.ptas_depth > 3 {
            top(
                "params.ptas_depth",
                format!("must be 0 … 3 (got {})", p.ptas_depth),
            );
        }
        if !(p.m_delta.is_finite() && p.m_delta >= 1.0) {
            top("params.m_delta", format!("must be ≥ 1 (got {})", p.m_delta));
        }
        if p.max_rounding_attempts < 1 {
            top("params.max_rounding_attempts", "must be ≥ 1 (got 0)".into());
        }
        if let Some(u) = p.time_unit_s {
            check(top, "params.time_unit_s", u, Rule::Pos);
        }
    }

    /// Every job: its id (unique, not blank, not too long), its fields and its
    /// version-2 fields.
    fn validate_jobs(&self, errs: &mut Vec<FieldError>) {
        // Sized once: a simulation validates every slot's scenario of the active jobs.
        let mut seen = std::collections::HashSet::with_capacity(self.jobs.len());
        for (i, job) in self.jobs.iter().enumerate() {
            if let Some(message) = id_problem(&job.id) {
                errs.push(FieldError {
                    job: Some(format!("#{}", i + 1)),
                    field: "id".into(),
                    message,
                });
            } else if !seen.insert(job.id.as_str()) {
                errs.push(FieldError {
                    job: Some(job.id.clone()),
                    field: "id".into(),
                    message: "is used by more than one job".into(),
                });
            }
            // A blank or over-long id cannot name the job: its position does.
            let name: std::borrow::Cow<str> = if id_problem(&job.id).is_some() {
                format!("#{}", i + 1).into()
            } else {
                job.id.as_str().into()
            };
            validate_job(job, &name, &self.cluster.instance, errs);
            validate_version2(job, &name, self.version, errs);
        }
    }
}

#[derive(Clone, Copy)]
enum Rule {
    Pos,
    NonNeg,
    AtLeastOne,
    Unit,
    PosUnit,
    Finite,
}

/// `field` is formatted only when `v` breaks the rule: a valid scenario (validated again
/// every slot of a simulation) builds no strings.
fn check(push: &mut impl FnMut(&str, String), field: impl std::fmt::Display, v: f64, rule: Rule) {
    let (ok, what) = match rule {
        Rule::Pos => (v.is_finite() && v > 0.0, "must be > 0"),
        Rule::NonNeg => (v.is_finite() && v >= 0.0, "must be ≥ 0"),
        Rule::AtLeastOne => (v.is_finite() && v >= 1.0, "must be ≥ 1"),
        Rule::Unit => (
            v.is_finite() && (0.0..=1.0).contains(&v),
            "must be in [0, 1]",
        ),
        Rule::PosUnit => (v.is_finite() && v > 0.0 && v <= 1.0, "must be in (0, 1]"),
        Rule::Finite => (v.is_finite(), "must be a finite number"),
    };
    if !ok {
        push(
            &field.to_string(),
            format!("{what} (got {})", crate::error::num(v)),
        );
    } else if v != 0.0 && !(MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&v.abs()) {
        push(
            &field.to_string(),
            format!(
                "must be 0 or between 1e-12 and 1e12 in magnitude (got {})",
                crate::error::num(v)
            ),
        );
    }
}

/// The machine groups of a version-2 cluster: names unique and not empty, whole counts,
/// capacities ≥ 0 and not all 0, rates > 0.
/// `cluster.machines[i].field`, written out when shown.
struct MachineField(usize, &'static str);

impl std::fmt::Display for MachineField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cluster.machines[{}].{}", self.0, self.1)
    }
}

fn validate_machines(groups: &[MachineGroup], version: u32, top: &mut impl FnMut(&str, String)) {
    if version < 2 {
        top(
            "cluster.machines",
            format!("is a version-2 field: the file must say \"version\": 2 (it says {version})"),
        );
    }
    let mut seen = std::collections::HashSet::new();
    let mut total = 0.0;
    for (i, g) in groups.iter().enumerate() {
        // A field's name, formatted only for an error (this runs at every replan).
        let at = |f: &'static str| MachineField(i, f);
        if g.name.trim().is_empty() || g.name.chars().count() > MAX_ID_CHARS {
            top(
                &at("name").to_string(),
                format!("must be 1 to {MAX_ID_CHARS} characters"),
            );
        } else if !seen.insert(g.name.as_str()) {
            top(
                &at("name").to_string(),
                format!("{:?} names an earlier group too", cut(&g.name)),
            );
        }
        check(top, at("count"), g.count, Rule::AtLeastOne);
        if g.count.is_finite() && g.count.fract() != 0.0 {
            top(
                &at("count").to_string(),
                format!(
                    "must be a whole number (got {})",
                    crate::error::num(g.count)
                ),
            );
        }
        total += g.count.max(0.0);
        for (name, v) in RESOURCE_NAMES.iter().zip(g.capacity.to_array()) {
            check(
                top,
                format_args!("cluster.machines[{i}].capacity.{name}"),
                v,
                Rule::NonNeg,
            );
        }
        if g.capacity.to_array().iter().all(|v| *v == 0.0) {
            top(
                &at("capacity").to_string(),
                "must have some resource (all four are 0)".into(),
            );
        }
        for (f, v) in [
            ("gpu_memory_gb", g.gpu_memory_gb),
            ("nic_gbps", g.nic_gbps),
            ("local_gbps", g.local_gbps),
        ] {
            if let Some(v) = v {
                check(top, at(f), v, Rule::Pos);
            }
        }
        if let Some(v) = g.hourly_usd {
            check(top, at("hourly_usd"), v, Rule::NonNeg);
        }
        if let Some(t) = g.gpu {
            if g.gpu_type().is_none() {
                top(
                    &at("gpu").to_string(),
                    format!(
                        "is {} but group {:?} has no GPUs (capacity.gpu is {}): a GPU type \
                         belongs to a group with GPUs",
                        t.name(),
                        cut(&g.name),
                        crate::error::num(g.capacity.gpu)
                    ),
                );
            } else if g.capacity.gpu > f64::from(t.per_node()) {
                top(
                    &at("gpu").to_string(),
                    format!(
                        "is {} but group {:?} has {} GPUs per machine: {} was measured in \
                         nodes of {} (capacity.gpu must be at most {})",
                        t.name(),
                        cut(&g.name),
                        crate::error::num(g.capacity.gpu),
                        t.label(),
                        t.per_node(),
                        t.per_node()
                    ),
                );
            }
        }
    }
    if total > MAX_MACHINES as f64 {
        top(
            "cluster.machines",
            format!(
                "must list at most {MAX_MACHINES} machines (got {})",
                crate::error::num(total)
            ),
        );
    }
}

/// The version-2 fields of a job (docs/SCENARIO.md §"Version 2"): only in a version-2 file,
/// an arrival ≥ 0, requested counts whole and ≥ 1.
fn validate_version2(job: &Job, name: &str, version: u32, errs: &mut Vec<FieldError>) {
    let mut push = |field: &str, message: String| {
        errs.push(FieldError {
            job: Some(name.to_owned()),
            field: field.to_owned(),
            message,
        })
    };
    if version < 2 {
        for field in job.version2_fields() {
            push(
                field,
                format!(
                    "is a version-2 field: the file must say \"version\": 2 (it says {version})"
                ),
            );
        }
        return;
    }
    if let Some(a) = job.arrival_s {
        check(&mut push, "arrival_s", a, Rule::NonNeg);
    }
    for (field, v) in [
        ("requested_workers", job.requested_workers),
        ("requested_ps", job.requested_ps),
    ] {
        if let Some(v) = v {
            check(&mut push, field, v, Rule::AtLeastOne);
            if v.is_finite() && v.fract() != 0.0 {
                push(
                    field,
                    format!("must be a whole number (got {})", crate::error::num(v)),
                );
            }
        }
    }
    for (field, v, rule) in [
        ("gpu_mem_mean_gb", job.gpu_mem_mean_gb, Rule::NonNeg),
        ("gpu_mem_sd_gb", job.gpu_mem_sd_gb, Rule::NonNeg),
        ("gpu_util", job.gpu_util, Rule::PosUnit),
        ("min_performance", job.min_performance, Rule::PosUnit),
    ] {
        if let Some(v) = v {
            check(&mut push, field, v, rule);
        }
    }
}

/// A measured all-reduce job (MODEL.md §21): its batch within what was validated, its cap
/// whole and ≥ 1, a worker of one GPU, its utility's γ (γ3 a deadline in hours, > 0).
fn validate_measured(job: &Job, m: &MeasuredJob, push: &mut impl FnMut(&str, String)) {
    let Ok(data) = smd_measured::measured::Measured::of(m.app) else {
        push(
            "app",
            format!("{}: its bundled measurements do not read", m.app),
        );
        return;
    };
    if let Some(b) = m.batch_size {
        let [lo, hi] = data.batch_range();
        if !(b.is_finite() && (lo..=hi).contains(&b)) {
            push(
                "batch_size",
                format!(
                    "must be between {lo} and {hi} for {} (the total batches the artifact measured; got {})",
                    m.app,
                    crate::error::num(b)
                ),
            );
        }
    }
    if let Some(w) = m.max_workers {
        check(push, "max_workers", w, Rule::AtLeastOne);
        if w.is_finite() && w.fract() != 0.0 {
            push(
                "max_workers",
                format!("must be a whole number (got {})", crate::error::num(w)),
            );
        }
    }
    for (name, v) in RESOURCE_NAMES.iter().zip(job.worker.to_array()) {
        check(push, format_args!("worker.{name}"), v, Rule::NonNeg);
    }
    // One GPU per worker, as measured; a share of one when GPU sharing plans it (§18).
    if !(job.worker.gpu > 0.0 && job.worker.gpu <= 1.0) {
        push(
            "worker.gpu",
            format!(
                "must be in (0, 1] for an all-reduce job: each worker is one GPU, as measured (got {})",
                crate::error::num(job.worker.gpu)
            ),
        );
    }
    check(push, "utility.gamma1", job.utility.gamma1, Rule::Pos);
    check(push, "utility.gamma2", job.utility.gamma2, Rule::Pos);
    check(push, "utility.gamma3", job.utility.gamma3, Rule::Finite);
}

fn validate_job(job: &Job, name: &str, instance: &Resources, errs: &mut Vec<FieldError>) {
    let mut push = |field: &str, message: String| {
        errs.push(FieldError {
            job: Some(name.to_owned()),
            field: field.to_owned(),
            message,
        })
    };
    if let Some(m) = &job.measured {
        validate_measured(job, m, &mut push);
        return;
    }
    check(&mut push, "iterations", job.iterations, Rule::Pos);
    check(&mut push, "model_size_mb", job.model_size_mb, Rule::Pos);
    check(&mut push, "minibatch", job.minibatch, Rule::AtLeastOne);
    check(
        &mut push,
        "global_batch",
        job.global_batch,
        Rule::AtLeastOne,
    );
    check(
        &mut push,
        "ps_bandwidth_gbps",
        job.ps_bandwidth_gbps,
        Rule::Pos,
    );
    check(
        &mut push,
        "worker_overhead_s",
        job.worker_overhead_s,
        Rule::NonNeg,
    );
    check(&mut push, "ps_overhead_s", job.ps_overhead_s, Rule::NonNeg);
    check(
        &mut push,
        "async_comm_factor",
        job.async_comm_factor,
        Rule::Unit,
    );
    check(&mut push, "limit_instances", job.limit_instances, Rule::Pos);
    check(&mut push, "utility.gamma1", job.utility.gamma1, Rule::Pos);
    check(&mut push, "utility.gamma2", job.utility.gamma2, Rule::Pos);
    check(
        &mut push,
        "utility.gamma3",
        job.utility.gamma3,
        Rule::Finite,
    );
    if job.layers.is_empty() {
        push("layers", "must hold at least one layer (got 0)".into());
    }
    for (j, l) in job.layers.iter().enumerate() {
        check(
            &mut push,
            format_args!("layers[{j}].forward_ms"),
            l.forward_ms,
            Rule::NonNeg,
        );
        check(
            &mut push,
            format_args!("layers[{j}].backward_ms"),
            l.backward_ms,
            Rule::NonNeg,
        );
        check(
            &mut push,
            format_args!("layers[{j}].comm_ms"),
            l.comm_ms,
            Rule::NonNeg,
        );
    }
    for (who, d) in [("worker", &job.worker), ("ps", &job.ps)] {
        for (name, v) in RESOURCE_NAMES.iter().zip(d.to_array()) {
            check(&mut push, format_args!("{who}.{name}"), v, Rule::NonNeg);
        }
        // Decision (documented in the crate docs): a task that demands nothing would make Ω
        // unbounded, so at least one resource must be positive.
        if d.to_array().iter().all(|v| *v == 0.0) {
            push(
                who,
                "must demand some resource (all four are 0, so Ω would be unbounded)".into(),
            );
        }
    }
    // Bound the integer box so enumeration, rounding and the landscape stay finite.
    if job.limit_instances.is_finite() && job.limit_instances > 0.0 {
        let lim = instance.scale(job.limit_instances).to_array();
        for (who, d) in [("worker", &job.worker), ("ps", &job.ps)] {
            let side = d
                .to_array()
                .iter()
                .zip(lim)
                .filter(|(o, _)| **o > 0.0)
                .map(|(o, l)| l / o)
                .fold(f64::INFINITY, f64::min);
            if side.is_finite() && side > MAX_ALLOCATION {
                push(
                    "limit_instances",
                    format!(
                        "allows more than {MAX_ALLOCATION} {} (got {}); lower the limit or raise the demand",
                        if who == "ps" { "parameter servers" } else { "workers" },
                        job.limit_instances
                    ),
                );
            }
        }
    }
}
