//! Readers for the trace's node and pod lists (docs/MODEL.md §26.1).
//!
//! Columns are found by header, so files with extra or reordered columns read, and the
//! multi-GPU pod lists without `gpu_spec` read. Every error names the row (the line number
//! in the file, the header being row 1) and the column. Nothing here panics on bad input.
//! The cells are split by the project's one CSV reader (`smd_measured::csv`).

use std::fmt;

/// The largest CPU (milli-cores) or memory (MiB) value accepted: far above any real node,
/// small enough that every sum over a trace stays exact in `i64`.
pub const MAX_RESOURCE: i64 = 1_000_000_000_000;
/// The most GPUs a node or a pod may have.
pub const MAX_GPUS: u32 = 64;
/// The most rows a list may have.
pub const MAX_ROWS: usize = 1_000_000;

/// A node of the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Node name (`sn`).
    pub name: String,
    /// Allocatable CPU, milli-cores.
    pub cpu_milli: i64,
    /// Memory, MiB.
    pub memory_mib: i64,
    /// Number of GPUs (each 1000 milli).
    pub gpus: u32,
    /// GPU model.
    pub model: String,
}

/// A pod as the simulator sees it (§26.1: the trace's conversion rules applied).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pod {
    /// Pod name.
    pub name: String,
    /// CPU request, milli-cores.
    pub cpu_milli: i64,
    /// Memory request, MiB.
    pub memory_mib: i64,
    /// Number of GPUs; 0 for a CPU-only pod.
    pub num_gpu: u32,
    /// Per-GPU request in milli (0 for a CPU-only pod, at most 1000).
    pub gpu_milli: i64,
    /// Allowed GPU models, `|`-separated, empty tokens dropped; empty = any model.
    pub gpu_spec: String,
}

impl Pod {
    /// Total GPU request, milli.
    pub fn gpu_total(&self) -> i64 {
        self.gpu_milli * self.num_gpu as i64
    }
}

/// A problem in a node or pod list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// Line number in the file (the header is row 1); 0 for the file as a whole.
    pub row: usize,
    /// The column concerned, empty for the file as a whole.
    pub column: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.row, self.column.is_empty()) {
            (0, true) => write!(f, "{}", self.message),
            (0, false) => write!(f, "column {}: {}", self.column, self.message),
            (r, true) => write!(f, "row {r}: {}", self.message),
            (r, false) => write!(f, "row {r}, column {}: {}", self.column, self.message),
        }
    }
}

impl std::error::Error for DataError {}

fn err(row: usize, column: &str, message: impl Into<String>) -> DataError {
    DataError {
        row,
        column: column.to_string(),
        message: message.into(),
    }
}

/// A table read by header (through the project's one CSV reader): the columns, then the
/// rows with their line numbers.
struct Table {
    columns: Vec<String>,
    rows: Vec<(usize, Vec<String>)>,
}

impl Table {
    fn parse(text: &str, required: &[&str]) -> Result<Self, DataError> {
        let records =
            smd_measured::csv::records_at_most(text, MAX_ROWS + 2).map_err(|e| err(0, "", e))?;
        let Some((header, data)) = records.split_first() else {
            return Err(err(0, "", "the file is empty (no header line)"));
        };
        let columns: Vec<String> = header.cells.iter().map(|c| c.trim().to_string()).collect();
        for name in required {
            if !columns.iter().any(|c| c == name) {
                return Err(err(
                    header.line,
                    name,
                    format!("missing column (the header has: {})", columns.join(", ")),
                ));
            }
        }
        if data.len() > MAX_ROWS {
            return Err(err(0, "", format!("more than {MAX_ROWS} rows")));
        }
        let mut rows = Vec::with_capacity(data.len());
        for r in data {
            if r.cells.len() != columns.len() {
                return Err(err(
                    r.line,
                    "",
                    format!("{} fields, the header has {}", r.cells.len(), columns.len()),
                ));
            }
            rows.push((
                r.line,
                r.cells.iter().map(|c| c.trim().to_string()).collect(),
            ));
        }
        if rows.is_empty() {
            return Err(err(0, "", "no data rows after the header"));
        }
        Ok(Table { columns, rows })
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

/// Parse a non-negative whole number (an integral decimal like `12000.0` is accepted).
fn whole(row: usize, column: &str, text: &str, max: i64) -> Result<i64, DataError> {
    let value = match text.parse::<i64>() {
        Ok(v) => v,
        Err(_) => match text.parse::<f64>() {
            Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() <= max as f64 => f as i64,
            Ok(f) if f.is_finite() && f.fract() != 0.0 => {
                return Err(err(row, column, format!("{text:?} is not a whole number")))
            }
            Ok(_) if !text.is_empty() && text.parse::<f64>().is_ok_and(|f| f.is_nan()) => {
                return Err(err(row, column, "NaN is not a number of units"))
            }
            _ if text.is_empty() => return Err(err(row, column, "empty value")),
            _ => return Err(err(row, column, format!("{text:?} is not a number"))),
        },
    };
    if value < 0 {
        return Err(err(row, column, format!("{value} is negative")));
    }
    if value > max {
        return Err(err(row, column, format!("{value} is larger than {max}")));
    }
    Ok(value)
}

/// Read the node list: columns `sn,cpu_milli,memory_mib,gpu,model` (others ignored).
pub fn parse_nodes(text: &str) -> Result<Vec<Node>, DataError> {
    let t = Table::parse(text, &["sn", "cpu_milli", "memory_mib", "gpu", "model"])?;
    let [sn, cpu, mem, gpu, model] =
        ["sn", "cpu_milli", "memory_mib", "gpu", "model"].map(|c| t.index(c).unwrap_or(0));
    let mut nodes = Vec::with_capacity(t.rows.len());
    for (row, f) in &t.rows {
        let name = f[sn].clone();
        if name.is_empty() {
            return Err(err(*row, "sn", "empty node name"));
        }
        let gpus = whole(*row, "gpu", &f[gpu], MAX_GPUS as i64)? as u32;
        nodes.push(Node {
            name,
            cpu_milli: whole(*row, "cpu_milli", &f[cpu], MAX_RESOURCE)?,
            memory_mib: whole(*row, "memory_mib", &f[mem], MAX_RESOURCE)?,
            gpus,
            model: normalize_model(&f[model]),
        });
    }
    Ok(nodes)
}

fn normalize_model(text: &str) -> String {
    if text.eq_ignore_ascii_case("nan") {
        String::new()
    } else {
        text.to_string()
    }
}

/// The trace's GPU-model constraint: non-empty `|`-separated tokens re-joined (duplicates
/// kept); `nan` and empty mean any model.
fn normalize_spec(text: &str) -> String {
    if text.eq_ignore_ascii_case("nan") {
        return String::new();
    }
    text.split('|')
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("|")
}

/// Read a pod list: columns `name,cpu_milli,memory_mib,num_gpu,gpu_milli` and, if present,
/// `gpu_spec` (others ignored). Applies the trace's conversion (§26.1): a pod with
/// `num_gpu = 0` is CPU-only whatever its `gpu_milli`; `gpu_milli` above 1000 counts 1000.
pub fn parse_pods(text: &str) -> Result<Vec<Pod>, DataError> {
    let t = Table::parse(
        text,
        &["name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"],
    )?;
    let [name, cpu, mem, num, milli] = ["name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"]
        .map(|c| t.index(c).unwrap_or(0));
    let spec = t.index("gpu_spec");
    let mut pods = Vec::with_capacity(t.rows.len());
    for (row, f) in &t.rows {
        if f[name].is_empty() {
            return Err(err(*row, "name", "empty pod name"));
        }
        let num_gpu = whole(*row, "num_gpu", &f[num], MAX_GPUS as i64)? as u32;
        // A CPU-only pod's gpu_milli and gpu_spec are never read (the trace's conversion).
        let (gpu_milli, gpu_spec) = if num_gpu == 0 {
            (0, String::new())
        } else {
            let raw = whole(*row, "gpu_milli", &f[milli], MAX_RESOURCE)?;
            (
                raw.min(1000),
                spec.map(|s| normalize_spec(&f[s])).unwrap_or_default(),
            )
        };
        pods.push(Pod {
            name: f[name].clone(),
            cpu_milli: whole(*row, "cpu_milli", &f[cpu], MAX_RESOURCE)?,
            memory_mib: whole(*row, "memory_mib", &f[mem], MAX_RESOURCE)?,
            num_gpu,
            gpu_milli,
            gpu_spec,
        });
    }
    Ok(pods)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: &str = "sn,cpu_milli,memory_mib,gpu,model\nn1,96000,393216,8,G2\n";
    const PODS: &str = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n\
                        p0,4000,100,1,320,\np1,2000,10,0,500,T4\np2,1,1,1,1500,|T4||G2|\n";

    #[test]
    fn reads_nodes_and_pods_with_the_conversion_rules() {
        let n = parse_nodes(NODES).unwrap();
        assert_eq!(n[0].gpus, 8);
        assert_eq!(n[0].model, "G2");
        let p = parse_pods(PODS).unwrap();
        assert_eq!((p[0].num_gpu, p[0].gpu_milli), (1, 320));
        // CPU-only: gpu_milli and gpu_spec ignored.
        assert_eq!((p[1].gpu_milli, p[1].gpu_spec.as_str()), (0, ""));
        // Above 1000 counts 1000; empty tokens dropped.
        assert_eq!((p[2].gpu_milli, p[2].gpu_spec.as_str()), (1000, "T4|G2"));
    }

    #[test]
    fn pod_lists_without_gpu_spec_read() {
        let p = parse_pods("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,2,1000\n").unwrap();
        assert_eq!(p[0].gpu_spec, "");
    }

    #[test]
    fn bad_inputs_name_row_and_column() {
        assert_eq!(parse_nodes("").unwrap_err().row, 0);
        assert!(parse_nodes("sn,cpu_milli,memory_mib,gpu,model\n").is_err());
        let e = parse_nodes("sn,cpu_milli,memory_mib,model\nn,1,1,G2\n").unwrap_err();
        assert_eq!(e.column, "gpu");
        for (bad, col) in [
            ("n,NaN,1,1,G2", "cpu_milli"),
            ("n,-5,1,1,G2", "cpu_milli"),
            ("n,1,99999999999999999999,1,G2", "memory_mib"),
            ("n,1,1,1.5,G2", "gpu"),
            ("n,1,1,65,G2", "gpu"),
            ("n,1,1,,G2", "gpu"),
            (",1,1,1,G2", "sn"),
        ] {
            let e =
                parse_nodes(&format!("sn,cpu_milli,memory_mib,gpu,model\n{bad}\n")).unwrap_err();
            assert_eq!((e.row, e.column.as_str()), (2, col), "{bad}: {e}");
        }
        let e = parse_pods("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1\n").unwrap_err();
        assert_eq!(e.row, 2);
        assert!(e.to_string().starts_with("row 2"));
    }
}
