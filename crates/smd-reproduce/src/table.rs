//! An experiment's table and its CSV text.

use std::fmt::Write;

/// One cell of a table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text (quoted in CSV when it needs to be).
    Text(String),
    /// An integer.
    Int(i64),
    /// A number, written with up to 6 significant digits; non-finite as an empty cell.
    Num(f64),
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_owned())
    }
}
impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}
impl From<f64> for Cell {
    fn from(v: f64) -> Cell {
        Cell::Num(v)
    }
}
impl From<usize> for Cell {
    fn from(v: usize) -> Cell {
        Cell::Int(v as i64)
    }
}
impl From<u64> for Cell {
    fn from(v: u64) -> Cell {
        Cell::Int(v as i64)
    }
}

/// Text as one CSV cell (RFC 4180): quoted, with its quotes doubled, when it holds a
/// comma, a quote or a line break; as it is otherwise. The project's one CSV quoting (the
/// page's exports use it too).
pub fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

impl Cell {
    /// The cell as CSV text.
    pub fn csv(&self) -> String {
        match self {
            Cell::Text(s) => quote(s),
            Cell::Int(v) => v.to_string(),
            Cell::Num(v) => num(*v),
        }
    }

    /// The number in the cell, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Int(v) => Some(*v as f64),
            Cell::Num(v) => Some(*v),
            Cell::Text(_) => None,
        }
    }
}

/// A number with 6 significant digits, plain notation, trailing zeros removed; empty when
/// not finite.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if v == 0.0 {
        return "0".into();
    }
    let exp = v.abs().log10().floor() as i32;
    let decimals = (5 - exp).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// A table: named columns and rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names (CSV header).
    pub columns: Vec<String>,
    /// Rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new(columns: &[&str]) -> Table {
        Table {
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row; panics if its length differs from the header's (a bug in the caller).
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "row length");
        self.rows.push(row);
    }

    /// The index of a column.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The numbers of column `name`, row by row (`None` for text cells).
    pub fn numbers(&self, name: &str) -> Vec<Option<f64>> {
        match self.column(name) {
            Some(i) => self.rows.iter().map(|r| r[i].as_f64()).collect(),
            None => Vec::new(),
        }
    }

    /// A table read back from [`Table::to_csv`]'s text: a cell that reads as a number is
    /// [`Cell::Num`], an empty one `Num(NaN)` (as `to_csv` writes a non-finite number), the
    /// rest text. Quoted cells may hold commas and doubled quotes.
    pub fn from_csv(text: &str) -> Result<Table, String> {
        let mut lines = text.lines().filter(|l| !l.is_empty()).map(split_csv);
        let columns = lines.next().ok_or("an empty CSV")?;
        let mut t = Table {
            columns,
            rows: Vec::new(),
        };
        for (k, cells) in lines.enumerate() {
            if cells.len() != t.columns.len() {
                return Err(format!(
                    "row {} has {} cells, the header {}",
                    k + 1,
                    cells.len(),
                    t.columns.len()
                ));
            }
            t.rows.push(
                cells
                    .into_iter()
                    .map(|c| match c.parse::<f64>() {
                        Ok(v) => Cell::Num(v),
                        Err(_) if c.is_empty() => Cell::Num(f64::NAN),
                        Err(_) => Cell::Text(c),
                    })
                    .collect(),
            );
        }
        Ok(t)
    }

    /// The table as CSV (RFC 4180, `\n` line ends, header first).
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let header: Vec<String> = self
            .columns
            .iter()
            .map(|c| Cell::Text(c.clone()).csv())
            .collect();
        let _ = writeln!(out, "{}", header.join(","));
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(Cell::csv).collect();
            let _ = writeln!(out, "{}", cells.join(","));
        }
        out
    }
}

/// One CSV line's cells, quotes undone (a line break inside quotes is not read: the
/// tables' cells hold none).
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let cell = cells.last_mut().expect("one cell at least");
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(String::new()),
            _ => cell.push(c),
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_numbers() {
        let mut t = Table::new(&["a", "b,c"]);
        t.push(vec!["x\"y".into(), 0.333333333.into()]);
        t.push(vec![Cell::Int(3), f64::NAN.into()]);
        assert_eq!(t.to_csv(), "a,\"b,c\"\n\"x\"\"y\",0.333333\n3,\n");
        assert_eq!(num(1234.5678), "1234.57");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.0000001), "-0.0000001");
        assert_eq!(num(1e-13), "0");
    }
}
