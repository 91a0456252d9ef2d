//! The knee of a sweep (docs/MODEL.md §19): the smallest size at which the best policy
//! reaches [`KNEE_SHARE`] of the utility it has at the largest size, what each further
//! step of size adds beyond it, and the sentence that says so.

use crate::axis::Axis;
use crate::evaluate::PointResult;
use serde::{Deserialize, Serialize};
use smd_core::scenario::Resource;
use smd_sim::SimPolicy;

/// The share of the achievable utility that marks the knee.
pub const KNEE_SHARE: f64 = 0.95;

/// The knee of one family of policies (static, or over time).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Knee {
    /// The policy with the most utility at the largest size (among equals, the one that
    /// reaches the knee first, then the first in order); `None` when no policy has any.
    pub best_policy: Option<String>,
    /// The smallest size at which `best_policy` reaches [`KNEE_SHARE`] of its utility at
    /// the largest size; `None`: no knee.
    pub size: Option<f64>,
    /// `best_policy`'s total utility at the knee (0 without one).
    pub utility: f64,
    /// `best_policy`'s total utility at the largest size: the achievable utility.
    pub max_utility: f64,
    /// `utility / max_utility`.
    pub fraction: Option<f64>,
    /// Beyond the knee, the most one unit of size (one unit, one machine) adds, as a % of
    /// `max_utility`: the largest gain over swept sizes at most one unit apart (or one step
    /// apart, per unit, where steps are longer). `None` when the knee is the largest size.
    pub marginal_pct: Option<f64>,
    /// Where `best_policy`'s utility falls as the size grows (the largest fall), if it
    /// does: the curve is then not monotone, and the answer says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fall: Option<Fall>,
    /// The sentence ([`answer`]).
    pub answer: String,
    /// What the sizes count.
    pub axis: Axis,
    /// The largest size swept.
    pub largest: Option<f64>,
    /// How many sizes were swept.
    pub points: usize,
    /// The one resource varied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    /// The machine group or type counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// With one resource: the cluster's amount of it at the knee.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<f64>,
    /// With one resource: the cluster's amount of it at the largest size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_largest: Option<f64>,
    /// With one resource: how much of it one unit of size adds (a cluster unit's, a
    /// machine's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_step: Option<f64>,
}

/// A fall of the best policy's utility between two sizes, the earlier one higher.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fall {
    /// The smaller size, with the higher utility.
    pub from_size: f64,
    /// Its utility.
    pub from_utility: f64,
    /// The larger size, with the lower utility.
    pub to_size: f64,
    /// Its utility.
    pub to_utility: f64,
}

/// The knee of the static policies.
pub fn knee(results: &[PointResult]) -> Knee {
    let names = zeroed(static_series(results, |o| o.total_utility));
    knee_of(results, &names)
}

/// The knee of the policies over time, `bound` left out (it is no schedule); `None` for a
/// static sweep.
pub fn knee_over_time(results: &[PointResult]) -> Option<Knee> {
    results.first().filter(|r| !r.over_time.is_empty())?;
    let names = zeroed(time_series(results, |o| Some(o.total_utility)));
    Some(knee_of(results, &names))
}

/// Each static policy of `results` (in the order run) with `value` of its outcome at every
/// point (`None` where a point lacks it).
pub(crate) fn static_series(
    results: &[PointResult],
    value: impl Fn(&crate::evaluate::Outcome) -> f64,
) -> Vec<(String, Vec<Option<f64>>)> {
    let Some(first) = results.first() else {
        return Vec::new();
    };
    first
        .policies
        .iter()
        .enumerate()
        .map(|(k, (p, _))| {
            let v = results
                .iter()
                .map(|r| r.policies.get(k).map(|(_, o)| value(o)))
                .collect();
            (p.name().to_owned(), v)
        })
        .collect()
}

/// Each policy over time of `results` but `bound` (it is no schedule), with `value` of its
/// run at every point.
pub(crate) fn time_series(
    results: &[PointResult],
    value: impl Fn(&crate::evaluate::TimeOutcome) -> Option<f64>,
) -> Vec<(String, Vec<Option<f64>>)> {
    let Some(first) = results.first() else {
        return Vec::new();
    };
    first
        .over_time
        .iter()
        .enumerate()
        .filter(|(_, (p, _))| *p != SimPolicy::Bound)
        .map(|(k, (p, _))| {
            let v = results
                .iter()
                .map(|r| r.over_time.get(k).and_then(|(_, o)| value(o)))
                .collect();
            (p.name().to_owned(), v)
        })
        .collect()
}

/// Series with a missing value as 0 (no utility).
fn zeroed(series: Vec<(String, Vec<Option<f64>>)>) -> Vec<(String, Vec<f64>)> {
    series
        .into_iter()
        .map(|(n, v)| (n, v.into_iter().map(|x| x.unwrap_or(0.0)).collect()))
        .collect()
}

/// The knee of `series` (a name and a utility per point) over the sizes of `results`.
fn knee_of(results: &[PointResult], series: &[(String, Vec<f64>)]) -> Knee {
    let sizes: Vec<f64> = results.iter().map(|r| r.size.value()).collect();
    let first = results.first();
    let resource = first.and_then(|r| r.resource);
    let mut k = Knee {
        best_policy: None,
        size: None,
        utility: 0.0,
        max_utility: 0.0,
        fraction: None,
        marginal_pct: None,
        fall: None,
        answer: String::new(),
        axis: first.map_or(Axis::Units, |r| r.size.axis()),
        largest: sizes.last().copied(),
        points: sizes.len(),
        resource,
        machine: first.and_then(|r| r.machine.clone()),
        amount: None,
        amount_largest: resource.and_then(|r| results.last().map(|p| p.capacity[r])),
        amount_step: None,
    };
    if let (Some(r), [a, .., b]) = (resource, results) {
        let (da, db) = (a.capacity[r], b.capacity[r]);
        k.amount_step = Some((db - da) / (b.size.value() - a.size.value()));
    }
    let Some(last) = sizes.len().checked_sub(1) else {
        k.answer = answer(&k);
        return k;
    };
    // The first index from which the curve stays at the share (float noise forgiven): a
    // curve that reaches it and falls back below has not levelled off there. The last
    // index always qualifies.
    let reach = |u: &[f64]| {
        let top = u[last];
        let floor = KNEE_SHARE * top - 1e-12 * top.abs();
        (0..=last)
            .rev()
            .take_while(|&i| u[i] >= floor)
            .last()
            .unwrap_or(last)
    };
    let mut best: Option<(&str, &[f64], usize)> = None;
    for (name, u) in series {
        let i = reach(u);
        let better = match best {
            None => true,
            Some((_, b, bi)) => u[last] > b[last] || (u[last] == b[last] && i < bi),
        };
        if better {
            best = Some((name, u, i));
        }
    }
    if let Some((name, u, i)) = best {
        let top = u[last];
        k.max_utility = top;
        if top > 0.0 && top.is_finite() {
            k.best_policy = Some(name.to_owned());
            k.size = Some(sizes[i]);
            k.utility = u[i];
            k.fraction = Some(u[i] / top);
            k.marginal_pct = marginal(&sizes[i..], &u[i..], top);
            k.fall = fall(&sizes, u, top);
            k.amount = resource.map(|r| results[i].capacity[r]);
        }
    }
    k.answer = answer(&k);
    k
}

/// The most one unit of size adds beyond the knee, as a % of `top`: over every stretch of
/// swept sizes at most one unit long (one step, where a step is longer, then per unit), the
/// gain divided by max(1, its length). Steps shorter than a unit are summed, not scaled
/// up: ten steps of 0.01 units that each add 5% do not make "each unit adds 500%".
/// `None` with fewer than two sizes.
fn marginal(sizes: &[f64], u: &[f64], top: f64) -> Option<f64> {
    let n = sizes.len();
    let mut best: Option<f64> = None;
    for j in 0..n.saturating_sub(1) {
        let window = (sizes[j + 1] - sizes[j]).max(1.0) * (1.0 + 1e-9);
        for l in j + 1..n {
            let len = sizes[l] - sizes[j];
            if l > j + 1 && len > window {
                break;
            }
            let m = (u[l] - u[j]) / len.max(1.0) / top * 100.0;
            best = Some(best.map_or(m, |b: f64| b.max(m)));
        }
    }
    best
}

/// The largest fall of the curve between two sizes (the earlier higher), if it falls by
/// more than float noise: a bigger cluster giving less says the policy is not monotone.
fn fall(sizes: &[f64], u: &[f64], top: f64) -> Option<Fall> {
    let mut peak = 0;
    let mut worst: Option<Fall> = None;
    for i in 1..u.len() {
        if u[i - 1] > u[peak] {
            peak = i - 1;
        }
        let drop = u[peak] - u[i];
        if drop > 1e-9 * top.abs().max(1.0)
            && worst
                .as_ref()
                .is_none_or(|w| drop > w.from_utility - w.to_utility)
        {
            worst = Some(Fall {
                from_size: sizes[peak],
                from_utility: u[peak],
                to_size: sizes[i],
                to_utility: u[i],
            });
        }
    }
    worst
}

/// The knee in words, e.g. "3 units reach 95% of the achievable utility (global's 1149.4
/// at 5 units); beyond that each unit adds < 1.2%.", or why there is no knee; where the
/// best policy's utility falls as the size grows, a second sentence says where.
pub fn answer(k: &Knee) -> String {
    let head = knee_words(k);
    match (&k.best_policy, &k.fall) {
        (Some(best), Some(f)) => {
            let (to, plural) = size_words(k, f.to_size, None);
            let (from, _) = size_words(k, f.from_size, None);
            format!(
                "{head} {best}'s utility is not monotone in the size: {to} {} {}, less than {} at {from}.",
                if plural { "give" } else { "gives" },
                utility_words(f.to_utility),
                utility_words(f.from_utility)
            )
        }
        _ => head,
    }
}

/// The knee sentence of [`answer`].
fn knee_words(k: &Knee) -> String {
    let Some(largest) = k.largest else {
        return "Nothing was swept: there is no knee.".into();
    };
    let at_largest = size_words(k, largest, k.amount_largest);
    let (Some(best), Some(size)) = (&k.best_policy, k.size) else {
        return format!(
            "No policy has any utility at {}: there is no knee.",
            at_largest.0
        );
    };
    let share = format!("{:.0}%", KNEE_SHARE * 100.0);
    let (knee, plural) = size_words(k, size, k.amount);
    let Some(marginal) = k.marginal_pct else {
        return if k.points <= 1 {
            format!(
                "{knee} {} the only size swept: sweep a range of sizes to find the knee.",
                if plural { "are" } else { "is" }
            )
        } else {
            format!(
                "Only {knee}, the largest size swept, {} {share} of the achievable utility ({best}'s {}): sweep further to see where it levels off.",
                if plural { "reach" } else { "reaches" },
                utility_words(k.max_utility)
            )
        };
    };
    let achieved = format!(
        "{best}'s {} at {}",
        utility_words(k.max_utility),
        at_largest.0
    );
    let head = format!(
        "{knee} {} {share} of the achievable utility ({achieved})",
        if plural { "reach" } else { "reaches" }
    );
    // Float noise in equal utilities is no gain.
    if marginal <= 1e-9 {
        let (more, plural) = more_words(k);
        let verb = if plural { "add" } else { "adds" };
        return format!("{head}; beyond that more {more} {verb} nothing.");
    }
    let (each, plural) = step_words(k);
    format!(
        "{head}; beyond that {each} {} < {}%.",
        if plural { "add" } else { "adds" },
        above(marginal)
    )
}

/// A size in words and whether it takes a plural verb: `3 units`, `12 t4x4 machines`, or
/// with one resource its amount, `1800 GPUs`, `700 GB of memory`.
fn size_words(k: &Knee, size: f64, amount: Option<f64>) -> (String, bool) {
    if let (Some(r), Some(a)) = (k.resource, amount) {
        return amount_words(r, a);
    }
    let n = show(size);
    let plural = size != 1.0;
    let s = if plural { "s" } else { "" };
    match (k.axis, &k.machine) {
        (Axis::Units, _) => (format!("{n} unit{s}"), plural),
        (Axis::Machines, Some(m)) => (format!("{n} {m} machine{s}"), plural),
        (Axis::Machines, None) => (format!("{n} machine{s}"), plural),
    }
}

/// What one more unit of size is: `each unit`, `each t4x4 machine`, `each additional 600
/// GPUs`, and whether it takes a plural verb.
fn step_words(k: &Knee) -> (String, bool) {
    if let (Some(r), Some(a)) = (k.resource, k.amount_step) {
        let (what, plural) = amount_words(r, a);
        return if a == 1.0 {
            (format!("each {}", what.trim_start_matches("1 ")), false)
        } else {
            (format!("each additional {what}"), plural)
        };
    }
    match (k.axis, &k.machine) {
        (Axis::Units, _) => ("each unit".into(), false),
        (Axis::Machines, Some(m)) => (format!("each {m} machine"), false),
        (Axis::Machines, None) => ("each machine".into(), false),
    }
}

/// What more of the size is (`units`, `t4x4 machines`, `GPUs`, `memory`) and whether it
/// takes a plural verb.
fn more_words(k: &Knee) -> (String, bool) {
    match (k.resource, k.axis, &k.machine) {
        (Some(Resource::Gpu), ..) => ("GPUs".into(), true),
        (Some(Resource::Vcpu), ..) => ("vCPUs".into(), true),
        (Some(Resource::MemoryGb), ..) => ("memory".into(), false),
        (Some(Resource::StorageGb), ..) => ("storage".into(), false),
        (None, Axis::Units, _) => ("units".into(), true),
        (None, Axis::Machines, Some(m)) => (format!("{m} machines"), true),
        (None, Axis::Machines, None) => ("machines".into(), true),
    }
}

/// An amount of a resource in words, and whether it takes a plural verb.
fn amount_words(r: Resource, a: f64) -> (String, bool) {
    let n = show(a);
    let s = if a == 1.0 { "" } else { "s" };
    match r {
        Resource::Gpu => (format!("{n} GPU{s}"), a != 1.0),
        Resource::Vcpu => (format!("{n} vCPU{s}"), a != 1.0),
        Resource::MemoryGb => (format!("{n} GB of memory"), false),
        Resource::StorageGb => (format!("{n} GB of storage"), false),
    }
}

/// A total utility: one decimal, or three significant digits below 10 (so a small but
/// positive utility does not read as 0.0).
fn utility_words(v: f64) -> String {
    if v.abs() >= 10.0 || v == 0.0 || !v.is_finite() {
        format!("{v:.1}")
    } else {
        let d = (2 - v.abs().log10().floor() as i32).max(1) as usize;
        format!("{v:.d$}")
    }
}

/// A size or amount without float noise (`420.00000000000006` → `420`).
fn show(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e9 {
        smd_core::error::num((v * 1e6).round() / 1e6)
    } else {
        smd_core::error::num(v)
    }
}

/// The smallest number with two significant digits strictly above `v` > 0, so that
/// "< x%" is true as written: 1.23 → 1.3, 0.0456 → 0.046, 1.3 → 1.4; at least 0.01, so
/// that dust reads "< 0.01%", not "< 0.000000022%".
pub(crate) fn above(v: f64) -> String {
    if v < 0.01 {
        return "0.01".into();
    }
    let d = (1 - v.log10().floor() as i32).max(0);
    let scale = 10f64.powi(d);
    let x = ((v * scale).floor() + 1.0) / scale;
    format!("{x:.*}", d as usize)
}

#[cfg(test)]
mod tests;
