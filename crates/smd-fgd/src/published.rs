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
    let records = smd_measured::csv::records(text).map_err(|e| bad(0, "", e))?;
    let Some((header, data)) = records.split_first() else {
        return Err(bad(0, "", "the file is empty (no header line)"));
    };
    let cols: Vec<&str> = header.cells.iter().map(|c| c.trim()).collect();
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
        .filter(|&(_, x)| x <= 100_000)
        .collect();
    let width = xs.iter().map(|&(_, x)| x + 1).max().unwrap_or(0);
    let mut rows = Vec::new();
    for r in data {
        let f: Vec<&str> = r.cells.iter().map(|c| c.trim()).collect();
        let line = r.line;
        if f.len() != cols.len() {
            return Err(bad(
                line,
                "",
                format!("{} fields, the header has {}", f.len(), cols.len()),
            ));
        }
        let seed = f[s]
            .parse::<i64>()
            .map_err(|_| bad(line, "seed", "not a whole number"))?;
        let mut values = vec![None; width];
        for &(col, x) in &xs {
            if f[col].is_empty() {
                continue;
            }
            match f[col].parse::<f64>() {
                Ok(v) if v.is_finite() => values[x] = Some(v),
                _ => {
                    return Err(bad(
                        line,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rows_and_names_bad_cells() {
        let t = "workload,sc_policy,tune,seed,0,1\nw,06-FGD,1.3,42,13.9,\n";
        let r = parse_published(t).unwrap();
        assert_eq!(
            (r[0].seed, r[0].values.clone()),
            (42, vec![Some(13.9), None])
        );
        let e = parse_published("workload,sc_policy,seed,0\nw,p,1,NaN\n").unwrap_err();
        assert_eq!((e.row, e.column.as_str()), (2, "0"));
        assert!(parse_published("").is_err());
        assert!(parse_published("a,b\n1,2\n").is_err());
    }
}
