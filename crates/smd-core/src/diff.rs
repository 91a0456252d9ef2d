//! What differs between two scenarios' inputs — the page's side-by-side view and
//! `smd diff`. Both are compared as their JSON (docs/SCENARIO.md): objects key by key, jobs
//! matched by `id`, machine groups by `name`, other lists by position; a field one side
//! does not write (a default) shows as absent there.

use crate::scenario::Scenario;
use serde_json::Value;

/// One input that differs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Difference {
    /// Where, e.g. `params.epsilon`, `jobs[bert-384].iterations`, `jobs[ncf-12]`.
    pub path: String,
    /// Its value in the first scenario as compact JSON; `None`: absent there.
    pub a: Option<String>,
    /// Its value in the second.
    pub b: Option<String>,
}

/// Every input that differs between `a` and `b`: fields in alphabetical order (`cluster`,
/// `jobs`, `params`, `version`), jobs in `a`'s order, then those only in `b`. A job or group present on one side only is one
/// difference (its whole JSON); the same jobs in another order add `jobs (order)`.
pub fn diff(a: &Scenario, b: &Scenario) -> Vec<Difference> {
    let (va, vb) = (to_value(a), to_value(b));
    let mut out = Vec::new();
    walk("", Some(&va), Some(&vb), &mut out);
    out
}

fn to_value(s: &Scenario) -> Value {
    serde_json::to_value(s).unwrap_or(Value::Null)
}

fn compact(v: &Value) -> String {
    v.to_string()
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// The key lists of objects are matched on: `jobs` by `id`, `machines` by `name`.
fn keyed_by(path: &str) -> Option<&'static str> {
    match path {
        "jobs" => Some("id"),
        "cluster.machines" => Some("name"),
        _ => None,
    }
}

fn walk(path: &str, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<Difference>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            for (k, va) in x {
                walk(&join(path, k), Some(va), y.get(k), out);
            }
            for (k, vb) in y {
                if !x.contains_key(k) {
                    walk(&join(path, k), None, Some(vb), out);
                }
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => match keyed_by(path) {
            Some(key) => keyed(path, key, x, y, out),
            None if x.len() == y.len() => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    walk(&format!("{path}[{i}]"), Some(va), Some(vb), out);
                }
            }
            None => leaf(path, a, b, out),
        },
        _ => leaf(path, a, b, out),
    }
}

fn leaf(path: &str, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<Difference>) {
    if a != b {
        out.push(Difference {
            path: path.to_owned(),
            a: a.map(compact),
            b: b.map(compact),
        });
    }
}

/// Lists of objects matched by `key`; items without it (or duplicates) by position.
fn keyed(path: &str, key: &str, x: &[Value], y: &[Value], out: &mut Vec<Difference>) {
    let name = |v: &Value| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let names_x: Vec<Option<String>> = x.iter().map(name).collect();
    let names_y: Vec<Option<String>> = y.iter().map(name).collect();
    let unique = |v: &[Option<String>]| {
        let mut seen = std::collections::HashSet::new();
        v.iter()
            .all(|n| n.as_ref().is_some_and(|n| seen.insert(n.clone())))
    };
    if !(unique(&names_x) && unique(&names_y)) {
        // Not matchable by key: compare as plain values.
        return leaf(
            path,
            Some(&Value::Array(x.to_vec())),
            Some(&Value::Array(y.to_vec())),
            out,
        );
    }
    let find = |n: &Option<String>, v: &[Option<String>]| v.iter().position(|m| m == n);
    for (i, n) in names_x.iter().enumerate() {
        let at = format!("{path}[{}]", n.as_deref().unwrap_or_default());
        walk(&at, Some(&x[i]), find(n, &names_y).map(|j| &y[j]), out);
    }
    for (j, n) in names_y.iter().enumerate() {
        if find(n, &names_x).is_none() {
            let at = format!("{path}[{}]", n.as_deref().unwrap_or_default());
            walk(&at, None, Some(&y[j]), out);
        }
    }
    // The same items in another order still matter (admission order, fifo).
    let common_x: Vec<&Option<String>> = names_x.iter().filter(|n| names_y.contains(n)).collect();
    let common_y: Vec<&Option<String>> = names_y.iter().filter(|n| names_x.contains(n)).collect();
    if common_x != common_y {
        let list = |v: &[&Option<String>]| {
            Value::Array(
                v.iter()
                    .map(|n| Value::String(n.as_deref().unwrap_or_default().to_owned()))
                    .collect(),
            )
            .to_string()
        };
        out.push(Difference {
            path: format!("{path} (order)"),
            a: Some(list(&common_x)),
            b: Some(list(&common_y)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{generate, GenerateOptions};

    fn base() -> Scenario {
        generate(&GenerateOptions {
            jobs: 4,
            ..Default::default()
        })
    }

    #[test]
    fn a_scenario_equals_itself() {
        assert!(diff(&base(), &base()).is_empty());
    }

    #[test]
    fn each_kind_of_change_is_named_by_its_path() {
        let a = base();
        let mut b = a.clone();
        b.params.epsilon = 0.3;
        b.jobs[1].iterations += 1.0;
        let gone = b.jobs.remove(2);
        let mut extra = b.jobs[0].clone();
        extra.id = "extra".into();
        b.jobs.push(extra);
        let d = diff(&a, &b);
        let paths: Vec<&str> = d.iter().map(|x| x.path.as_str()).collect();
        let job1 = format!("jobs[{}].iterations", a.jobs[1].id);
        let job2 = format!("jobs[{}]", gone.id);
        assert_eq!(
            paths,
            [
                job1.as_str(),
                job2.as_str(),
                "jobs[extra]",
                "params.epsilon"
            ]
        );
        assert_eq!(
            d[3].a.as_deref(),
            Some(a.params.epsilon.to_string().as_str())
        );
        assert_eq!(d[3].b.as_deref(), Some("0.3"));
        assert!(d[1].b.is_none() && d[1].a.as_deref().unwrap().contains(&gone.id));
        assert!(d[2].a.is_none());
    }

    /// A group's GPU type is an input like any other: changed, or given on one side only.
    #[test]
    fn a_groups_changed_gpu_type_is_named() {
        use crate::scenario::{Cluster, Gpu, MachineGroup, Resources};
        let group = |gpu| MachineGroup {
            name: "fast".into(),
            count: 2.0,
            capacity: Resources {
                gpu: 8.0,
                vcpu: 96.0,
                memory_gb: 1152.0,
                storage_gb: 8000.0,
            },
            gpu,
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: None,
            hourly_usd: None,
        };
        let on = |gpu| {
            let mut s = base();
            s.version = 2;
            s.cluster = Cluster::of_machines(vec![group(gpu)], s.cluster.instance);
            s
        };
        let d = diff(&on(Some(Gpu::V100)), &on(Some(Gpu::A100)));
        assert_eq!(
            d,
            [Difference {
                path: "cluster.machines[fast].gpu".into(),
                a: Some("\"v100\"".into()),
                b: Some("\"a100\"".into()),
            }]
        );
        let d = diff(&on(None), &on(Some(Gpu::Rtx2080ti)));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            (d[0].path.as_str(), d[0].a.as_deref(), d[0].b.as_deref()),
            ("cluster.machines[fast].gpu", None, Some("\"rtx2080ti\""))
        );
    }

    #[test]
    fn jobs_in_another_order_say_so_once() {
        let a = base();
        let mut b = a.clone();
        b.jobs.swap(0, 3);
        let d = diff(&a, &b);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].path, "jobs (order)");
    }

    #[test]
    fn an_optional_field_set_on_one_side_only_is_absent_on_the_other() {
        let a = base();
        let mut b = a.clone();
        b.version = 2;
        b.jobs[0].arrival_s = Some(60.0);
        let d = diff(&a, &b);
        let arrival = d.iter().find(|x| x.path.ends_with(".arrival_s")).unwrap();
        assert_eq!(
            (arrival.a.as_deref(), arrival.b.as_deref()),
            (None, Some("60.0"))
        );
    }
}
