//! The artifact's measured step times (`data/pollux/placements/` and `scalability/`),
//! embedded and read into [`Point`]s.

use super::Point;
use crate::app::App;
use crate::csv;
use serde::Serialize;
use smd_measured::files::{PLACEMENTS, SCALABILITY};

/// Which file of the artifact a point comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// `placements/<app>.csv`: 1–4 nodes, the GPUs of each node given.
    Placements,
    /// `scalability/<app>.csv`: 6–16 nodes, replicas spread as evenly as possible.
    Scalability,
}

impl Source {
    /// The file's folder, as in `data/pollux/`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Placements => "placements",
            Source::Scalability => "scalability",
        }
    }
}

/// A measurement file that does not read, naming the file and line.
#[derive(Clone, Debug, PartialEq)]
pub struct DataError {
    /// `placements/<app>.csv` or `scalability/<app>.csv`.
    pub file: String,
    /// The 1-based line (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for DataError {}

/// Every bundled measurement: the placements, then the scalability runs, of each
/// application in [`App::ALL`]'s order, rows in file order.
pub fn measurements() -> Result<Vec<Point>, DataError> {
    let mut all = Vec::new();
    for app in App::ALL {
        let i = app as usize;
        all.extend(parse(app, Source::Placements, PLACEMENTS[i])?);
        all.extend(parse(app, Source::Scalability, SCALABILITY[i])?);
    }
    Ok(all)
}

/// The rows of one measurement file as points. Placements: `placement,local_bsz,step_time,
/// sync_time`, the placement's digits the GPUs of each node; scalability: `num_nodes,
/// num_replicas,local_bsz,step_time,sync_time`, the replicas spread as evenly as possible
/// (the artifact does not record how they sat; its scheduler spreads a job evenly).
pub fn parse(app: App, source: Source, text: &str) -> Result<Vec<Point>, DataError> {
    let file = format!("{}/{}.csv", source.name(), app.name());
    let fail = |line: usize, message: String| DataError {
        file: file.clone(),
        line,
        message,
    };
    let records = csv::records(text).map_err(|m| fail(0, m))?;
    let Some((header, rows)) = records.split_first() else {
        return Err(fail(0, "is empty".into()));
    };
    let names: &[&str] = match source {
        Source::Placements => &["placement", "local_bsz", "step_time", "sync_time"],
        Source::Scalability => &[
            "num_nodes",
            "num_replicas",
            "local_bsz",
            "step_time",
            "sync_time",
        ],
    };
    // Columns by name, so a file with its columns in another order still reads right.
    let column = |name: &str| {
        header
            .cells
            .iter()
            .position(|c| c.trim() == name)
            .ok_or_else(|| fail(header.line, format!("has no column {name:?}")))
    };
    let cols = names
        .iter()
        .map(|n| column(n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let cell = |k: usize| -> Result<&str, DataError> {
            r.cells
                .get(cols[k])
                .map(|c| c.trim())
                .ok_or_else(|| fail(r.line, format!("has no {} cell", names[k])))
        };
        let number = |k: usize| -> Result<f64, DataError> {
            let c = cell(k)?;
            c.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    fail(
                        r.line,
                        format!(
                            "{}: {:?} is not a finite number",
                            names[k],
                            smd_core::error::cut(c)
                        ),
                    )
                })
        };
        let (nodes, rest) = match source {
            Source::Placements => (placement(cell(0)?).map_err(|m| fail(r.line, m))?, 1),
            Source::Scalability => (
                spread(number(0)?, number(1)?).map_err(|m| fail(r.line, m))?,
                2,
            ),
        };
        let (local_batch, step_s, sync_s) = (number(rest)?, number(rest + 1)?, number(rest + 2)?);
        if local_batch < 1.0 || step_s <= 0.0 || sync_s < 0.0 {
            return Err(fail(
                r.line,
                format!(
                    "needs local_bsz ≥ 1, step_time > 0 and sync_time ≥ 0 \
                     (got {local_batch}, {step_s}, {sync_s})"
                ),
            ));
        }
        out.push(Point {
            app,
            source,
            line: r.line,
            nodes,
            local_batch,
            step_s,
            sync_s,
        });
    }
    Ok(out)
}

/// The GPUs per node of a placement written as digits (`2222`: four nodes with two each).
fn placement(s: &str) -> Result<Vec<u32>, String> {
    let nodes: Option<Vec<u32>> = s
        .chars()
        .map(|c| c.to_digit(10).filter(|&d| d > 0))
        .collect();
    match nodes {
        Some(n) if !n.is_empty() => Ok(n),
        _ => Err(format!(
            "placement {:?} is not a string of digits 1–9",
            smd_core::error::cut(s)
        )),
    }
}

/// The most even spread of `replicas` over `nodes` (nodes left empty are not listed).
fn spread(nodes: f64, replicas: f64) -> Result<Vec<u32>, String> {
    // Integers within what a cluster can hold; larger values would only be typos.
    let whole = |v: f64| (v.fract() == 0.0 && (1.0..=65_536.0).contains(&v)).then_some(v as u32);
    let (Some(n), Some(r)) = (whole(nodes), whole(replicas)) else {
        return Err(format!(
            "num_nodes and num_replicas must be whole numbers in 1..=65536 (got {nodes}, {replicas})"
        ));
    };
    let (each, extra) = (r / n, r % n);
    Ok((0..n)
        .map(|h| each + u32::from(h < extra))
        .filter(|&g| g > 0)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_and_spreads() {
        assert_eq!(placement("2222"), Ok(vec![2, 2, 2, 2]));
        assert_eq!(placement("1"), Ok(vec![1]));
        assert!(placement("").is_err());
        assert!(placement("12a").is_err());
        assert!(placement("10").is_err());
        assert_eq!(spread(6.0, 16.0), Ok(vec![3, 3, 3, 3, 2, 2]));
        assert_eq!(spread(4.0, 2.0), Ok(vec![1, 1]));
        assert!(spread(0.0, 4.0).is_err());
        assert!(spread(2.5, 4.0).is_err());
    }

    #[test]
    fn malformed_rows_name_file_and_line() {
        let e = parse(
            App::Bert,
            Source::Placements,
            "placement,local_bsz,step_time\n",
        )
        .unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("placements/bert.csv", 1));
        assert!(e.message.contains("sync_time"), "{e}");
        let text = "placement,local_bsz,step_time,sync_time\n1,4,0.4,0.01\n11,4,nan,0.1\n";
        let e = parse(App::Bert, Source::Placements, text).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("step_time"), "{e}");
        let text = "num_nodes,num_replicas,local_bsz,step_time,sync_time\n6,16,4,-1,0\n";
        let e = parse(App::Ncf, Source::Scalability, text).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("scalability/ncf.csv", 2));
        assert!(parse(App::Ncf, Source::Scalability, "").is_err());
    }

    #[test]
    fn columns_are_found_by_name() {
        let text = "sync_time,step_time,local_bsz,placement\n0.1,0.5,8,13\n";
        let p = parse(App::Yolov3, Source::Placements, text).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].nodes, vec![1, 3]);
        assert_eq!(
            (p[0].local_batch, p[0].step_s, p[0].sync_s),
            (8.0, 0.5, 0.1)
        );
    }
}
