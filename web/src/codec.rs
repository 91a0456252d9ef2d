//! Text forms of a scenario beyond SCENARIO.md's JSON: the share link (deflate + base64url
//! in the URL's hash), the CSV of jobs (docs/CSV.md) and the page's saved draft.

use crate::fields;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use smd_core::scenario::{Job, Layer, Mode, Overlap};
use smd_core::Scenario;

/// The hash parameter that carries a scenario: `#s=…`.
pub const SHARE_PARAM: &str = "s=";

/// The hash parameter that carries a second scenario to compare with the first, side by
/// side: `#s=…&b=…`.
pub const COMPARE_PARAM: &str = "b=";

/// Largest inflated scenario accepted from a link (guards against a deflate bomb).
const MAX_INFLATED: usize = 64 << 20;

/// Most layers a CSV row may ask for (its `layers` column expands to that many layers).
pub const MAX_CSV_LAYERS: usize = 10_000;

/// The scenario as a link fragment: compact JSON, deflated, base64url without padding.
pub fn share_fragment(s: &Scenario) -> String {
    fragment(SHARE_PARAM, s)
}

/// The second scenario of a side-by-side link, as its hash part (`b=…`).
pub fn compare_fragment(s: &Scenario) -> String {
    fragment(COMPARE_PARAM, s)
}

fn fragment(param: &str, s: &Scenario) -> String {
    let json = serde_json::to_string(s).expect("a scenario always serialises");
    format!("{param}{}", pack(json.as_bytes()))
}

/// A link's payload: `bytes` deflated, then base64url without padding.
pub fn pack(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(bytes, 9))
}

/// A link's payload back to text: base64url (padding tolerated), inflated to at most
/// `limit` bytes, UTF-8 — [`pack`]'s inverse.
pub fn unpack(data: &str, limit: usize) -> Result<String, String> {
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| format!("base64: {e}"))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, limit)
        .map_err(|e| format!("deflate: {:?}", e.status))?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())
}

/// The value of the part `param` (`s=`, `b=`, `v=`) of a link fragment (with or without
/// the leading `#`), if it has one.
pub fn param<'a>(fragment: &'a str, param: &str) -> Option<&'a str> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .find_map(|part| part.strip_prefix(param))
}

/// The scenario in a link fragment (with or without the leading `#`); the scenario is
/// parsed but not validated, so an invalid shared draft still opens for editing.
pub fn parse_share_fragment(fragment: &str) -> Result<Scenario, String> {
    let data = param(fragment, SHARE_PARAM)
        .ok_or_else(|| format!("the link carries no scenario (no #{SHARE_PARAM}…)"))?;
    scenario_of(data)
}

/// The second scenario of a side-by-side link (`b=…`), if the fragment has one.
pub fn parse_compare_fragment(fragment: &str) -> Option<Result<Scenario, String>> {
    param(fragment, COMPARE_PARAM).map(scenario_of)
}

/// A link part's scenario ([`pack`]ed JSON).
fn scenario_of(data: &str) -> Result<Scenario, String> {
    let text =
        unpack(data, MAX_INFLATED).map_err(|e| format!("the link's scenario is damaged ({e})"))?;
    parse_lenient(&text)
}

/// Parses a scenario file with the solver's strict reader but without validating its
/// values, so a draft that only breaks value rules opens with each message at its field.
/// Shape errors (not JSON, repeated or unknown fields, wrong types) are returned as text.
pub fn parse_lenient(text: &str) -> Result<Scenario, String> {
    Scenario::parse(text).map_err(|e| e.to_string())
}

pub use crate::fields::{Settings, DEFAULT_GLOBAL_BUDGET_S};

/// The page's saved draft: the scenario as typed so far, the page's settings, and the raw
/// text of inputs that do not (yet) hold a valid value, keyed by job position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    /// The scenario (the last value of every field that parsed).
    pub scenario: Scenario,
    /// `(job index or None, field, text)` of inputs whose text differs from the value.
    #[serde(default)]
    pub raw: Vec<(Option<usize>, String, String)>,
    /// The page's settings (the last valid value of each); drafts saved before they
    /// existed get the defaults.
    #[serde(default)]
    pub settings: Settings,
    /// The other kind of cluster (machines while on a pool, a pool while on machines) with
    /// its fields' text as typed, so a reload keeps both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_cluster: Option<SavedCluster>,
}

/// A cluster kind the draft is not on, as saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedCluster {
    /// The cluster (its instance is not used).
    pub cluster: smd_core::scenario::Cluster,
    /// `(field, text, parse message)` of its fields whose text is not the value.
    #[serde(default)]
    pub raw: Vec<(String, String, Option<String>)>,
}

impl Draft {
    /// A scenario with nothing typed and the default settings.
    pub fn of(scenario: Scenario) -> Draft {
        Draft {
            scenario,
            raw: Vec::new(),
            settings: Settings::default(),
            other_cluster: None,
        }
    }
}

impl Draft {
    /// Whether this is the draft a page with nothing saved opens on: the default scenario
    /// with the default settings and nothing typed. Such a draft is not kept, so the next
    /// visit opens on the default too, painted from its prerendered first plan (index.html
    /// shows that only when no draft is saved).
    pub fn is_default(&self) -> bool {
        // `Draft::of`'s draft, field by field (a new field must be added here), the scenario
        // last: the cheap checks first.
        let Draft {
            scenario,
            raw,
            settings,
            other_cluster,
        } = self;
        raw.is_empty()
            && other_cluster.is_none()
            && *settings == Settings::default()
            && crate::defaults::is_default_scenario(scenario)
    }

    /// JSON for localStorage.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a draft always serialises")
    }
    /// Reads a saved draft.
    pub fn from_json(text: &str) -> Result<Draft, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// The CSV columns, in order (docs/CSV.md).
pub const CSV_COLUMNS: [&str; 28] = [
    "id",
    "mode",
    "overlap",
    "iterations",
    "model_size_mb",
    "minibatch",
    "global_batch",
    "ps_bandwidth_gbps",
    "worker_overhead_s",
    "ps_overhead_s",
    "async_comm_factor",
    "worker_gpu",
    "worker_vcpu",
    "worker_memory_gb",
    "worker_storage_gb",
    "ps_gpu",
    "ps_vcpu",
    "ps_memory_gb",
    "ps_storage_gb",
    "limit_instances",
    "gamma1",
    "gamma2",
    "gamma3",
    "layers",
    "forward_ms_total",
    "backward_ms_total",
    "comm_ms_total",
    "profile",
];

/// How a CSV row's layer totals are spread over its layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Every layer gets total / N.
    Uniform,
    /// Layer j (1-based) gets a share proportional to j: the last layers are heaviest.
    Rising,
    /// Layer j gets a share proportional to N + 1 − j: the first layers are heaviest.
    Falling,
}

impl Profile {
    /// All profiles, in the order the page offers them.
    pub const ALL: [Profile; 3] = [Profile::Uniform, Profile::Rising, Profile::Falling];
    /// The CSV name.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Uniform => "uniform",
            Profile::Rising => "rising",
            Profile::Falling => "falling",
        }
    }
    fn weights(self, n: usize) -> Vec<f64> {
        let total = (n * (n + 1) / 2) as f64;
        (1..=n)
            .map(|j| match self {
                Profile::Uniform => 1.0 / n as f64,
                Profile::Rising => j as f64 / total,
                Profile::Falling => (n + 1 - j) as f64 / total,
            })
            .collect()
    }
    /// `n` layers whose forward, backward and comm times sum to the totals.
    pub fn layers(self, n: usize, totals: [f64; 3]) -> Vec<Layer> {
        self.weights(n)
            .into_iter()
            .map(|w| Layer {
                forward_ms: totals[0] * w,
                backward_ms: totals[1] * w,
                comm_ms: totals[2] * w,
            })
            .collect()
    }
    /// The profile whose layers these are (to 1e-9 relative), if any.
    pub fn of(layers: &[Layer]) -> Option<Profile> {
        let totals = layer_totals(layers);
        Profile::ALL.into_iter().find(|p| {
            p.layers(layers.len(), totals)
                .iter()
                .zip(layers)
                .all(|(a, b)| {
                    close(a.forward_ms, b.forward_ms)
                        && close(a.backward_ms, b.backward_ms)
                        && close(a.comm_ms, b.comm_ms)
                })
        })
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300)
}

/// Σ f_j, Σ b_j, Σ r_j in ms.
pub fn layer_totals(layers: &[Layer]) -> [f64; 3] {
    layers.iter().fold([0.0; 3], |t, l| {
        [t[0] + l.forward_ms, t[1] + l.backward_ms, t[2] + l.comm_ms]
    })
}

fn csv_quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.trim() != s {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The jobs as CSV (one row per job, header first), and how many jobs had a per-layer
/// shape that no profile describes (their CSV rows keep the totals, spread uniformly).
pub fn jobs_to_csv(jobs: &[Job]) -> (String, usize) {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    let mut custom = 0;
    for j in jobs {
        let totals = layer_totals(&j.layers);
        let profile = Profile::of(&j.layers).unwrap_or_else(|| {
            custom += 1;
            Profile::Uniform
        });
        let w = j.worker.to_array();
        let p = j.ps.to_array();
        let mut cells = vec![
            csv_quote(&j.id),
            j.mode.name().into(),
            j.overlap.name().into(),
        ];
        cells.extend(
            [
                j.iterations,
                j.model_size_mb,
                j.minibatch,
                j.global_batch,
                j.ps_bandwidth_gbps,
                j.worker_overhead_s,
                j.ps_overhead_s,
                j.async_comm_factor,
                w[0],
                w[1],
                w[2],
                w[3],
                p[0],
                p[1],
                p[2],
                p[3],
                j.limit_instances,
                j.utility.gamma1,
                j.utility.gamma2,
                j.utility.gamma3,
            ]
            .iter()
            .map(|v| v.to_string()),
        );
        cells.push(j.layers.len().to_string());
        cells.extend(totals.iter().map(|v| v.to_string()));
        cells.push(profile.name().into());
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    (out, custom)
}

/// Reads jobs from CSV (docs/CSV.md) with the project's one CSV reader
/// ([`smd_apps::csv::records`]): columns by header name, in any order; every column is
/// required. Values are parsed, not validated (the page validates them). A message names
/// the row by the line it starts on, and the column.
pub fn jobs_from_csv(text: &str) -> Result<Vec<Job>, String> {
    let rows = smd_apps::csv::records(text)?;
    let (header, body) = rows.split_first().ok_or("the CSV is empty")?;
    let header: Vec<String> = header
        .cells
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    for h in &header {
        if !CSV_COLUMNS.contains(&h.as_str()) {
            return Err(format!(
                "unknown column {:?} (docs/CSV.md lists the columns)",
                smd_core::error::cut(h)
            ));
        }
    }
    let col = |name: &str| header.iter().position(|h| h == name);
    let missing: Vec<&str> = CSV_COLUMNS
        .iter()
        .copied()
        .filter(|c| col(c).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing column(s): {}", missing.join(", ")));
    }
    let template = smd_core::generate::job(1, 0, smd_core::Mode::Sync);
    let mut jobs = Vec::new();
    for record in body {
        let at = |name: &str| -> &str {
            col(name)
                .and_then(|i| record.cells.get(i))
                .map(|s| s.trim())
                .unwrap_or("")
        };
        let row_name = format!(
            "line {} (job {:?})",
            record.line,
            smd_core::error::cut(at("id"))
        );
        let mut job = template.clone();
        for name in ["id", "mode", "overlap"] {
            let v = at(name);
            let ok = match name {
                "mode" => v.parse::<Mode>().is_ok(),
                "overlap" => v.parse::<Overlap>().is_ok(),
                _ => true,
            };
            if !ok {
                return Err(format!(
                    "{row_name}: {name} {v:?} is not one of the choices"
                ));
            }
            fields::set_job(&mut job, name, v).map_err(|e| format!("{row_name}: {name} {e}"))?;
        }
        for name in &CSV_COLUMNS[3..23] {
            let field = csv_field(name);
            fields::set_job(&mut job, &field, at(name))
                .map_err(|e| format!("{row_name}: {name} {e}"))?;
        }
        let n: usize = at("layers").parse().map_err(|_| {
            format!("{row_name}: layers must be a whole number from 1 to {MAX_CSV_LAYERS}")
        })?;
        if n == 0 || n > MAX_CSV_LAYERS {
            return Err(format!(
                "{row_name}: layers must be a whole number from 1 to {MAX_CSV_LAYERS}"
            ));
        }
        let mut totals = [0.0; 3];
        for (k, name) in ["forward_ms_total", "backward_ms_total", "comm_ms_total"]
            .iter()
            .enumerate()
        {
            totals[k] =
                fields::parse_number(at(name)).map_err(|e| format!("{row_name}: {name} {e}"))?;
        }
        let profile = Profile::ALL
            .into_iter()
            .find(|p| p.name() == at("profile"))
            .ok_or_else(|| {
                format!(
                    "{row_name}: profile {:?} is not uniform, rising or falling",
                    at("profile")
                )
            })?;
        job.layers = profile.layers(n, totals);
        jobs.push(job);
    }
    Ok(jobs)
}

/// CSV column → the job field path (`worker_gpu` → `worker.gpu`, `gamma1` →
/// `utility.gamma1`).
fn csv_field(column: &str) -> String {
    let resource = |r: &&str| fields::RESOURCES.iter().any(|n| n.name() == *r);
    if let Some(r) = column.strip_prefix("worker_").filter(resource) {
        format!("worker.{r}")
    } else if let Some(r) = column.strip_prefix("ps_").filter(resource) {
        format!("ps.{r}")
    } else if column.starts_with("gamma") {
        format!("utility.{column}")
    } else {
        column.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::{generate, GenerateOptions};

    fn scenario(n: usize) -> Scenario {
        generate(&GenerateOptions {
            jobs: n,
            ..Default::default()
        })
    }

    #[test]
    fn share_fragment_round_trips_and_is_short() {
        let s = scenario(30);
        let f = share_fragment(&s);
        assert!(f.starts_with("s="));
        assert!(f.len() < s.to_json().len() / 3, "{}", f.len());
        assert_eq!(parse_share_fragment(&format!("#{f}")).unwrap(), s);
        assert!(parse_share_fragment("#s=%%%").is_err());
        assert!(parse_share_fragment("#x=1").is_err());
    }

    #[test]
    fn csv_round_trips_jobs_with_profiles() {
        let mut s = scenario(4);
        s.jobs[0].id = "a, \"quoted\" id".into();
        for (j, p) in s.jobs.iter_mut().zip(Profile::ALL.iter().cycle()) {
            j.layers = p.layers(j.layers.len(), layer_totals(&j.layers));
        }
        let (csv, custom) = jobs_to_csv(&s.jobs);
        assert_eq!(custom, 0);
        let back = jobs_from_csv(&csv).unwrap();
        assert_eq!(back.len(), 4);
        for (a, b) in back.iter().zip(&s.jobs) {
            assert_eq!(a.id, b.id);
            assert_eq!(a.worker, b.worker);
            assert_eq!(a.ps, b.ps);
            assert_eq!(a.utility, b.utility);
            for (x, y) in a.layers.iter().zip(&b.layers) {
                assert!(close(x.forward_ms, y.forward_ms));
                assert!(close(x.comm_ms, y.comm_ms));
            }
        }
    }

    #[test]
    fn csv_counts_custom_shapes_and_reports_bad_cells() {
        let s = scenario(3);
        let (csv, custom) = jobs_to_csv(&s.jobs);
        assert_eq!(custom, 3);
        let bad = csv.replacen(",sync,", ",fast,", 1);
        assert!(jobs_from_csv(&bad).unwrap_err().contains("mode"));
        assert!(jobs_from_csv("id,mode\nx,sync")
            .unwrap_err()
            .contains("missing"));
    }

    /// Messages name the row by the line it starts on (blank lines and line breaks inside
    /// quoted cells counted), and the column.
    #[test]
    fn csv_messages_name_the_line_and_the_column() {
        let s = scenario(2);
        let (csv, _) = jobs_to_csv(&s.jobs);
        let mut lines: Vec<String> = csv.lines().map(String::from).collect();
        lines.insert(1, String::new());
        lines[2] = lines[2].replacen(&s.jobs[0].id, "\"two\nlines\"", 1);
        lines[3] = lines[3].replacen(",sync,", ",fast,", 1);
        let e = jobs_from_csv(&lines.join("\n")).unwrap_err();
        assert!(e.starts_with("line 5 (job "), "{e}");
        assert!(e.contains("mode \"fast\" is not one of the choices"), "{e}");
        let e = jobs_from_csv("id,mode\n\"open").unwrap_err();
        assert!(e.contains("line 2: a quoted cell is not closed"), "{e}");
    }

    #[test]
    fn lenient_parse_keeps_an_invalid_scenario_but_not_a_broken_file() {
        let mut s = scenario(1);
        s.jobs[0].ps_bandwidth_gbps = 0.0;
        let back = parse_lenient(&s.to_json()).unwrap();
        assert_eq!(back, s);
        assert!(parse_lenient("{").is_err());
        assert!(parse_lenient(r#"{"cluster":{"units":1},"jobs":[],"extra":1}"#).is_err());
    }
}
