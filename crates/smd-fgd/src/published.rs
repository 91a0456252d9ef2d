//! The published per-seed tables of the reference experiment (`analysis_*_discrete.csv`).

use crate::data::DataError;

/// One row: one policy and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRow {
    /// Pod list name (`workload`).
    pub workload: String,
    /// Policy as published (`06-FGD`).
    pub policy: String,
    /// Seed.
    pub seed: i64,
    /// Value per column x = 0, 1, …; `None` for an empty cell.
    pub values: Vec<Option<f64>>,
}

fn bad(row: usize, column: &str, message: impl Into<String>) -> DataError {
    DataError {
        row,
        column: column.to_string(),
        message: message.into(),
    }
}

/// Read a published table. Columns named by whole numbers are the x columns, in order.
pub fn parse_published(text: &str) -> Result<Vec<PublishedRow>, DataError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(bad(0, "", "the file is empty (no header line)"));
    };
    let cols: Vec<&str> = header.split(',').map(str::trim).collect();
    let find = |name: &str| cols.iter().position(|c| *c == name);
    let (Some(w), Some(p), Some(s)) = (find("workload"), find("sc_policy"), find("seed")) else {
        return Err(bad(
            1,
            "",
            "expected the columns workload, sc_policy and seed",
        ));
    };
    let xs: Vec<(usize, usize)> = cols
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.parse::<usize>().ok().map(|x| (i, x)))
        .collect();
    let width = xs.iter().map(|&(_, x)| x + 1).max().unwrap_or(0);
    let mut rows = Vec::new();
    for (i, line) in lines {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != cols.len() {
            return Err(bad(
                i + 1,
                "",
                format!("{} fields, the header has {}", f.len(), cols.len()),
            ));
        }
        let seed = f[s]
            .parse::<i64>()
            .map_err(|_| bad(i + 1, "seed", "not a whole number"))?;
        let mut values = vec![None; width];
        for &(col, x) in &xs {
            if f[col].is_empty() {
                continue;
            }
            match f[col].parse::<f64>() {
                Ok(v) if v.is_finite() => values[x] = Some(v),
                _ => {
                    return Err(bad(
                        i + 1,
                        cols[col],
                        format!("{:?} is not a number", f[col]),
                    ))
                }
            }
        }
        rows.push(PublishedRow {
            workload: f[w].to_string(),
            policy: f[p].to_string(),
            seed,
            values,
        });
    }
    Ok(rows)
}
