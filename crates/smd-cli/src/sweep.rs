//! `smd sweep`: one scenario at many cluster sizes with every policy (crate `smd-sweep`,
//! docs/MODEL.md §19), the points on rayon's threads; a table and the knee in words, or
//! the JSON of docs/SCENARIO.md ("Sweep output").

use crate::common::{load, Common};
use crate::failure::Failure;
use crate::table::Table;
use clap::Args;
use smd_core::scenario::Resource;
use smd_core::Policy;
use smd_core::Scenario;
use smd_format::duration;
use smd_sim::SimPolicy;
use smd_sweep::{
    metric_answer, parse_goal, parse_resource, points, scenario_at, sweep_parallel, Axis, Metric,
    ParallelOptions, Point, Policies, Range, Report, Spec, SweepError,
};
use std::io::Write;

/// Arguments of `smd sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Cluster units of a pool, START:STOP:STEP with both ends included (e.g. 0.5:5:0.5).
    #[arg(
        long,
        value_name = "A:B:S",
        allow_hyphen_values = true,
        conflicts_with_all = ["machines", "mix"],
        required_unless_present_any = ["machines", "mix"]
    )]
    pub(crate) units: Option<String>,
    /// Machine counts, START:STOP:STEP (e.g. 4:64:4): of one group of a scenario of machines
    /// (--group), or, for a pool, of a catalog type (--machine-type).
    #[arg(
        long,
        value_name = "A:B:S",
        allow_hyphen_values = true,
        conflicts_with = "mix"
    )]
    pub(crate) machines: Option<String>,
    /// What to buy: every mix of machine types of a grid, TYPE=A:B:S,… (e.g.
    /// t4x4=0:16:2,a100x8=0:4; a type is a catalog type or a machine group of the scenario;
    /// A:B steps by 1, N is one count), the jobs simulated over time on each mix under one
    /// policy (--policy P; default sia where it applies), judged by --metric (default
    /// mean_jct). With --goal and --minimize cost: the cheapest mix that meets the goal;
    /// with --budget: the best within it; and the cost–metric frontier.
    #[arg(long, value_name = "TYPE=A:B:S,…", allow_hyphen_values = true)]
    pub(crate) mix: Option<String>,
    /// With --mix: the most a mix may cost, US dollars per hour (60/h, $60/h or 60).
    #[arg(
        long,
        value_name = "USD/h",
        requires = "mix",
        allow_hyphen_values = true
    )]
    pub(crate) budget: Option<String>,
    /// With --mix: what the answer minimises — cost (the mix's price per hour; needs
    /// --goal) or the metric's name (the default; within --budget when given).
    #[arg(long, value_name = "cost|METRIC", requires = "mix")]
    pub(crate) minimize: Option<String>,
    /// With --mix: evaluate every mix of the grid (the whole frontier), not only those the
    /// answer needs.
    #[arg(long, requires = "mix")]
    pub(crate) every: bool,
    /// With --machines on a pool: the catalog type (`smd machines`; default t4x4).
    #[arg(long, value_name = "NAME", requires = "machines")]
    pub(crate) machine_type: Option<String>,
    /// With --machines on a scenario of machines: the group whose count varies (default the
    /// first).
    #[arg(long, value_name = "NAME", requires = "machines")]
    pub(crate) group: Option<String>,
    /// Vary only this resource (gpu, vcpu, memory_gb, storage_gb; or cpu, mem, storage); the
    /// others stay at the scenario's. With --units: that resource is units × unit; with
    /// --machines: the group keeps its count and its machines hold as much of it as N
    /// machines of their type.
    #[arg(long, value_name = "R")]
    pub(crate) resource: Option<String>,
    /// The static policies: one name, several separated by commas, or `all` (smd, esw,
    /// optimus, exact, global; on machines also smd_locality).
    #[arg(long, value_name = "P|all", default_value = "all")]
    pub(crate) policy: String,
    /// Also simulate the jobs over time at every size (they need `arrival_s`; docs/MODEL.md
    /// §17): total utility, mean JCT and queueing per policy.
    #[arg(long)]
    pub(crate) over_time: bool,
    /// With --over-time: the policies over time (fifo, optimus, smd, oasis, locality, bound;
    /// for measured jobs also the reference simulator's tiresias, optimus_oracle and pollux),
    /// comma-separated, or `all`.
    #[arg(
        long,
        value_name = "P|all",
        default_value = "all",
        requires = "over_time"
    )]
    pub(crate) sim_policy: String,
    /// Answer for one metric instead of the knee of utility: mean_jct, p95_jct, mean_queue,
    /// finished, gpu_hours, cost (these need --over-time; cost needs machines with an
    /// hourly price, as catalog types have) or utility. Under the one policy named by
    /// --sim-policy (or --policy for utility), else the best for the metric at the
    /// scenario's own size; the sizes that halve it (the cheapest, for cost; or reach the
    /// most) in words, and in the JSON's `answer` and `metric`.
    #[arg(long, value_name = "M")]
    pub(crate) metric: Option<String>,
    /// With --metric and one policy: the fewest sizes of the range at which the metric
    /// meets this goal (at most it for times, GPU-hours and cost in USD, at least it for finished jobs
    /// and utility), by bisection — about log₂ of the sizes are evaluated, every size below
    /// the answer when they show the metric is not monotone. Times take a unit: 2h, 90min,
    /// 30s (a bare number is seconds); the other metrics a plain number.
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    pub(crate) goal: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Names separated by commas, or `all`. A name given twice is refused: the JSON output has
/// one key per policy, and a repeated key is what the project's own reader rejects.
fn names<T: std::str::FromStr<Err = String> + Clone + PartialEq>(
    flag: &str,
    text: &str,
    all: &[T],
) -> Result<Vec<T>, Failure> {
    if text.trim() == "all" {
        return Ok(all.to_vec());
    }
    let mut out: Vec<T> = Vec::new();
    for n in text.split(',') {
        let p = n
            .trim()
            .parse::<T>()
            .map_err(|e| Failure::Invalid(format!("{flag}: {e} or all")))?;
        if out.contains(&p) {
            return Err(Failure::Invalid(format!(
                "{flag}: {:?} is named twice (name each policy once)",
                smd_core::error::cut(n.trim())
            )));
        }
        out.push(p);
    }
    Ok(out)
}

/// Plans every size with every policy and prints the table or the JSON (`--mix` is
/// `buy::run`'s).
pub fn run(a: &SweepArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (axis, text) = axis_flag(a)?;
    let flag = format!("--{axis}");
    let range = Range::parse(text).map_err(|m| range_error(&flag, text, m))?;
    let resource: Option<Resource> = a
        .resource
        .as_deref()
        .map(parse_resource)
        .transpose()
        .map_err(|m| Failure::Invalid(format!("--resource: {m}")))?;
    let planners = (a.policy.trim() != "all")
        .then(|| names("--policy", &a.policy, &Policy::ALL))
        .transpose()?;
    let over_time = if a.over_time {
        names("--sim-policy", &a.sim_policy, &SimPolicy::ALL)?
    } else {
        Vec::new()
    };
    let (metric, metric_policy, goal) = metric_flags(a)?;
    let base = load(&a.common)?;
    if a.over_time && base.jobs.iter().all(|j| j.arrival_s.is_none()) {
        return Err(Failure::Invalid(
            "--over-time needs jobs with arrival_s (a version-2 scenario, e.g. from `smd trace`)"
                .into(),
        ));
    }
    let spec = Spec {
        axis,
        range,
        resource,
        machine_type: a.machine_type.clone(),
        group: a.group.clone(),
    };
    let failure = |e: SweepError| failure_of(e, &flag, text);
    let pts = points(&base, &spec).map_err(failure)?;
    // `all` is what `smd compare` plans on the points' cluster (a pool swept in machines
    // is planned on machines).
    let first = scenario_at(&base, &pts[0]).map_err(failure)?;
    if let Some(m) = metric {
        m.check(&first)
            .map_err(|e| Failure::Invalid(format!("--metric {m}: {e}")))?;
    }
    let over_time = applicable(over_time, &base, a, metric, metric_policy.as_deref())?;
    let policies = Policies {
        planners: planners.unwrap_or_else(|| Policy::for_cluster(&first.cluster).to_vec()),
        over_time,
    };
    if let (Some(m), Some(g), Some(p)) = (metric, goal, metric_policy.as_deref()) {
        let question = GoalQuestion {
            spec: &spec,
            policies: &policies,
            metric: m,
            goal: g,
            policy: p,
        };
        return seek_goal(a, &base, &question, &pts, failure, out);
    }
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let opts = ParallelOptions {
        clock: Some(&clock),
        cancel: None,
        inner: a.common.inner_solver,
        global_budget_ms: Some(a.common.global_budget * 1000.0),
    };
    // Elapsed time on stderr once the sweep passes a few seconds (progress.rs); each
    // point's plans hold the budget (`--global-budget`, every policy's admission).
    let ticker = crate::progress::Ticker::start(&format!("smd: sweeping {} points", pts.len()));
    let run = || sweep_parallel(&base, &spec, &policies, opts);
    let report = crate::failure::guarded(
        "sweep stopped on an internal error (a bug in smd-core or smd-sweep)",
        run,
    )?
    .map_err(failure)?;
    drop(ticker);
    let elapsed = clock();
    let answer = metric
        .map(|m| {
            metric_answer(
                &report.points,
                m,
                metric_policy.as_deref(),
                pts[0].current_size(&base),
                a.over_time,
            )
            .map_err(|e| Failure::Invalid(format!("--metric {m}: {e}")))
        })
        .transpose()?;
    if a.common.json {
        let answered = smd_sweep::Answered {
            report: &report,
            answer: answer.as_ref().map(|a| a.answer.as_str()),
            metric: answer.as_ref(),
            goal: None,
        };
        let text = serde_json::to_string_pretty(&answered)
            .map_err(|e| Failure::Solver(format!("cannot serialise the sweep: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    let sizes = Sizes {
        flag: &flag,
        range: &range,
        resource,
        points: pts.len(),
        machine: pts[0].machine(),
    };
    write_text(&base, &report, &policies, &sizes, elapsed, out)?;
    if let Some(ans) = answer {
        writeln!(out)?;
        writeln!(out, "{}", crate::table::printable(&ans.answer))?;
    }
    Ok(())
}

/// The axis swept and its range as typed: `--units` or `--machines`, one of them.
fn axis_flag(a: &SweepArgs) -> Result<(Axis, &String), Failure> {
    match (&a.units, &a.machines) {
        (Some(t), None) => Ok((Axis::Units, t)),
        (None, Some(t)) => Ok((Axis::Machines, t)),
        _ => Err(Failure::Invalid(
            "give --units A:B:S or --machines A:B:S (one of them)".into(),
        )),
    }
}

/// `--metric`, the policy the answer assumes and `--goal`.
type MetricFlags = (Option<Metric>, Option<String>, Option<f64>);

/// `--metric`, the one policy the answer assumes (the one named, if one is) and `--goal`,
/// checked against each other and `--over-time`.
fn metric_flags(a: &SweepArgs) -> Result<MetricFlags, Failure> {
    let metric: Option<Metric> = a
        .metric
        .as_deref()
        .map(|m| m.trim().parse::<Metric>())
        .transpose()
        .map_err(|e| Failure::Invalid(format!("--metric: {e}")))?;
    if let Some(m) = metric.filter(|m| m.over_time() && !a.over_time) {
        return Err(Failure::Invalid(format!(
            "--metric {m}: the {} is measured over time: add --over-time (the jobs need arrival_s)",
            m.words()
        )));
    }
    // The policy the answer assumes: the one named, if one is.
    let one =
        |text: &str| (text.trim() != "all" && !text.contains(',')).then(|| text.trim().to_owned());
    let metric_policy = match metric {
        Some(Metric::Utility) if !a.over_time => one(&a.policy),
        Some(_) => one(&a.sim_policy),
        None => None,
    };
    let goal = match (a.goal.as_deref(), metric) {
        (Some(g), Some(m)) => {
            Some(parse_goal(g, m).map_err(|e| Failure::Invalid(format!("--goal: {e}")))?)
        }
        (Some(_), None) => {
            return Err(Failure::Invalid(
                "--goal: say which metric it is for (--metric M)".into(),
            ))
        }
        _ => None,
    };
    if goal.is_some() && metric_policy.is_none() {
        return Err(Failure::Invalid(
            "--goal: name the one policy it is for (--sim-policy P; --policy P for the static utility)".into(),
        ));
    }
    Ok((metric, metric_policy, goal))
}

/// A goal's question: the sweep, the metric, the goal and the policy it is for.
struct GoalQuestion<'a> {
    spec: &'a Spec,
    policies: &'a Policies,
    metric: Metric,
    goal: f64,
    policy: &'a str,
}

/// The fewest sizes at which the goal is met (`smd_sweep::seek`), printed.
fn seek_goal(
    a: &SweepArgs,
    base: &Scenario,
    question: &GoalQuestion,
    pts: &[Point],
    failure: impl Fn(SweepError) -> Failure,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let GoalQuestion {
        spec,
        policies,
        metric: m,
        goal: g,
        policy: p,
    } = *question;
    let axis = spec.axis;
    // A goal may evaluate every size (when the metric is not monotone): progress on
    // stderr past a few seconds, as for a sweep, with the sizes evaluated so far.
    let ticker =
        crate::progress::Ticker::start(&format!("smd: seeking the goal over {} sizes", pts.len()));
    let status = ticker.status();
    let mut done = 0;
    let mut progress = |q: smd_sweep::Progress| {
        done += usize::from(q.done == q.policies);
        if let (Ok(mut s), Some(at)) = (status.lock(), pts.get(q.point)) {
            let size = smd_core::error::num(at.size);
            *s = format!("{done} evaluated, the last {axis} {size}");
        }
    };
    let mut opts = smd_sweep::Options {
        progress: Some(&mut progress),
        inner: a.common.inner_solver,
        ..Default::default()
    };
    let found = smd_sweep::seek(base, spec, policies, m, p, g, &mut opts);
    drop(ticker);
    let found = found.map_err(failure)?;
    if a.common.json {
        let text = serde_json::to_string_pretty(&found)
            .map_err(|e| Failure::Solver(format!("cannot serialise the answer: {e}")))?;
        writeln!(out, "{text}")?;
    } else {
        writeln!(out, "{}", crate::table::printable(&found.answer))?;
    }
    Ok(())
}

/// The policies over time of `--sim-policy` that schedule `base`'s jobs. The reference's
/// (tiresias, optimus_oracle, pollux) schedule measured all-reduce jobs only: one named
/// that cannot is skipped with a warning (`all` names those that apply), or refused when
/// the metric asked about needs it.
fn applicable(
    policies: Vec<SimPolicy>,
    base: &smd_core::Scenario,
    a: &SweepArgs,
    metric: Option<Metric>,
    metric_policy: Option<&str>,
) -> Result<Vec<SimPolicy>, Failure> {
    let (run, skipped): (Vec<_>, Vec<_>) = policies.into_iter().partition(|p| p.applies_to(base));
    let Some(&first) = skipped.first() else {
        return Ok(run);
    };
    let why = match base.jobs.iter().find(|j| j.measured.is_none()) {
        Some(j) => format!(
            "schedules measured all-reduce jobs only, and job {:?} is a parameter-server job",
            smd_core::error::cut(&j.id)
        ),
        None => "schedules measured all-reduce jobs only, and the scenario has no jobs".into(),
    };
    if let Some(p) = skipped.iter().find(|p| Some(p.name()) == metric_policy) {
        return Err(Failure::Invalid(format!("--sim-policy {p}: it {why}")));
    }
    if let Some(m) = metric.filter(|m| (m.over_time() || a.over_time) && run.is_empty()) {
        return Err(Failure::Invalid(format!(
            "--metric {m}: no policy over time is left to measure it: {first} {why}"
        )));
    }
    if a.sim_policy.trim() != "all" {
        let mut err = std::io::stderr().lock();
        for p in &skipped {
            let _ = writeln!(err, "warning: --sim-policy: {p} is skipped: it {why}");
        }
    }
    Ok(run)
}

/// What the sweep varied, for its text's headline.
struct Sizes<'a> {
    flag: &'a str,
    range: &'a Range,
    resource: Option<Resource>,
    points: usize,
    machine: Option<&'a str>,
}

/// A sweep's error as a failure naming the flag it came from.
fn failure_of(e: SweepError, flag: &str, text: &str) -> Failure {
    match e {
        SweepError::Range { message, .. } => range_error(flag, text, message),
        SweepError::Spec { field, message } => Failure::Invalid(format!(
            "{}: {message}",
            match field {
                "resource" => "--resource",
                "group" => "--group",
                "machine_type" => "--machine-type",
                _ => flag,
            }
        )),
        SweepError::Planner { ref error, .. } => {
            let m = e.to_string();
            match error {
                smd_core::Error::Solver(_) => Failure::Solver(m),
                _ => Failure::Invalid(m),
            }
        }
        SweepError::Cancelled => Failure::Solver("cancelled".into()),
    }
}

fn range_error(flag: &str, text: &str, m: String) -> Failure {
    Failure::Invalid(format!("{flag} {}: {m}", smd_core::error::cut(text)))
}

/// The text output: headline, the static table and its knee, gaps, the over-time table
/// and its knee.
fn write_text(
    base: &smd_core::Scenario,
    report: &Report,
    policies: &Policies,
    sizes: &Sizes,
    elapsed: f64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let (flag, range, resource) = (sizes.flag, sizes.range, sizes.resource);
    let axis = &flag[2..];
    writeln!(
        out,
        "{} jobs   {flag} {range}{}{}   {} points × {} policies in {:.0} ms ({} threads)",
        base.jobs.len(),
        resource
            .map(|r| format!("   only {}", r.title()))
            .unwrap_or_default(),
        sizes
            .machine
            .map(|m| format!("   machines of {m}"))
            .unwrap_or_default(),
        sizes.points,
        policies.planners.len() + policies.over_time.len(),
        elapsed,
        smd_sweep::threads(),
    )?;
    writeln!(out)?;
    write_static(report, &policies.planners, resource, out)?;
    writeln!(out)?;
    writeln!(out, "{}", crate::table::printable(&report.knee.answer))?;
    for p in &report.points {
        for (q, o) in &p.policies {
            if let Some(g) = o.gap {
                writeln!(
                    out,
                    "{q} at {axis} {}: not proven within --global-budget (gap {:.3}%)",
                    smd_core::error::num(p.size.value()),
                    100.0 * g
                )?;
            }
        }
    }
    if let Some(k) = &report.over_time_knee {
        writeln!(out)?;
        write_over_time(report, out)?;
        writeln!(out)?;
        writeln!(out, "Over time: {}", crate::table::printable(&k.answer))?;
    }
    Ok(())
}

/// One row per size: the size (and the resource's amount), then each policy's total
/// utility with its admitted jobs.
fn write_static(
    report: &Report,
    planners: &[Policy],
    resource: Option<Resource>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let axis = report.knee.axis;
    let amount = resource.map(|r| format!("{} ({})", r.title(), r.unit()));
    let mut columns: Vec<(&str, bool)> = vec![(axis.name(), true)];
    if let Some(a) = &amount {
        columns.push((a, true));
    }
    columns.extend(planners.iter().map(|p| (p.name(), true)));
    let mut t = Table::new(&columns);
    for p in &report.points {
        let mut row = vec![smd_core::error::num(p.size.value())];
        if let Some(r) = resource {
            row.push(crate::table::amount(p.capacity[r]));
        }
        for (_, o) in &p.policies {
            row.push(format!("{:.1} ({})", o.total_utility, o.admitted));
        }
        t.row(row);
    }
    t.write(out)?;
    writeln!(out, "each policy: total utility (admitted jobs)")
}

/// One row per size and policy over time.
fn write_over_time(report: &Report, out: &mut impl Write) -> std::io::Result<()> {
    let axis = report.knee.axis;
    let mut t = Table::new(&[
        (axis.name(), true),
        ("policy", false),
        ("total utility", true),
        ("of bound", true),
        ("finished", true),
        ("mean JCT", true),
        ("mean queue", true),
    ]);
    let time = |v: Option<f64>| v.map_or("-".to_owned(), duration);
    for p in &report.points {
        for (q, o) in &p.over_time {
            t.row(vec![
                smd_core::error::num(p.size.value()),
                q.name().to_owned(),
                format!("{:.1}", o.total_utility),
                crate::table::percent(o.total_utility, o.bound),
                format!("{}/{}", o.finished, o.finished + o.unfinished),
                time(o.mean_jct_s),
                time(o.mean_queue_s),
            ]);
        }
    }
    t.write(out)
}
