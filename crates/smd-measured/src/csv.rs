//! RFC 4180 records with the line each starts on, so that every message about a cell can
//! name its row and column. The one CSV reader of the project (traces here, the page's job
//! CSV in `web/src/codec.rs`).

/// One record (row) of a CSV text.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The 1-based line of the text the record starts on.
    pub line: usize,
    /// Its cells, unquoted.
    pub cells: Vec<String>,
}

/// Splits CSV text into records: cells split at commas, quoted cells may hold commas, line
/// breaks and doubled quotes; a line ends at `\n`, `\r\n` or a lone `\r` (old Mac files);
/// blank lines are skipped; a leading UTF-8 byte-order mark is dropped.
/// The only error is a quoted cell left open at the end of the text.
pub fn records(text: &str) -> Result<Vec<Record>, String> {
    records_at_most(text, usize::MAX)
}

/// The data rows of `text` (blank rows dropped) as the trimmed cells of the columns `cols`,
/// found by the header in any order, each with its line: how every measurement file is
/// read (their column orders differ). `Err` names the missing column.
pub fn columns(text: &str, cols: &[&str]) -> Result<Vec<(usize, Vec<String>)>, String> {
    let records = records(text)?;
    let Some((header, data)) = records.split_first() else {
        return Err("is empty".into());
    };
    let at: Vec<usize> = cols
        .iter()
        .map(|c| {
            header
                .cells
                .iter()
                .position(|h| h.trim() == *c)
                .ok_or_else(|| format!("has no column {c:?}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(data
        .iter()
        .filter(|r| r.cells.iter().any(|c| !c.trim().is_empty()))
        .map(|r| {
            let cells = at
                .iter()
                .map(|&k| r.cells.get(k).map_or("", |c| c.trim()).to_string())
                .collect();
            (r.line, cells)
        })
        .collect())
}

/// [`records`], stopping after the first `limit` records: a caller with a row limit need
/// not split (and hold) the rest of a huge text to refuse it.
pub fn records_at_most(text: &str, limit: usize) -> Result<Vec<Record>, String> {
    // A byte-order mark (spreadsheets write one) is no part of the first cell.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let (mut line, mut start) = (1, 1);
    let push_row = |out: &mut Vec<Record>, row: &mut Vec<String>, start: usize| {
        if !(row.len() == 1 && row[0].trim().is_empty()) {
            out.push(Record {
                line: start,
                cells: std::mem::take(row),
            });
        }
        row.clear();
    };
    while let Some(c) = chars.next() {
        if out.len() >= limit {
            return Ok(out);
        }
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                // A lone `\r` ends a line too (counted once for `\r\n`).
                '\n' => {
                    line += 1;
                    cell.push(c)
                }
                '\r' if chars.peek() != Some(&'\n') => {
                    line += 1;
                    cell.push(c)
                }
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if cell.trim().is_empty() => {
                cell.clear();
                quoted = true
            }
            ',' => row.push(std::mem::take(&mut cell)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => {
                row.push(std::mem::take(&mut cell));
                push_row(&mut out, &mut row, start);
                line += 1;
                start = line;
            }
            _ => cell.push(c),
        }
    }
    if quoted {
        return Err(format!("line {line}: a quoted cell is not closed"));
    }
    row.push(cell);
    push_row(&mut out, &mut row, start);
    out.truncate(limit);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_line_breaks_and_line_numbers() {
        let text = "a,b\r\n\n\"x, \"\"y\"\"\",\"two\nlines\"\n3,4";
        let r = records(text).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(
            (r[0].line, r[0].cells.clone()),
            (1, vec!["a".into(), "b".into()])
        );
        assert_eq!(r[1].line, 3);
        assert_eq!(
            r[1].cells,
            vec!["x, \"y\"".to_string(), "two\nlines".into()]
        );
        assert_eq!(
            (r[2].line, r[2].cells.clone()),
            (5, vec!["3".into(), "4".into()])
        );
        assert!(records("a,\"open").unwrap_err().contains("line 1"));
    }

    /// Lone `\r` line ends (old Mac files) end records and count lines as `\n` does.
    #[test]
    fn carriage_returns_alone_end_lines() {
        let r = records("a,b\rc,d\r\r\"x\ry\",e\r\nf,g").unwrap();
        let got: Vec<(usize, Vec<&str>)> = r
            .iter()
            .map(|r| (r.line, r.cells.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            got,
            [
                (1, vec!["a", "b"]),
                (2, vec!["c", "d"]),
                (4, vec!["x\ry", "e"]),
                (6, vec!["f", "g"]),
            ]
        );
    }

    #[test]
    fn at_most_stops_after_the_limit() {
        let r = records_at_most("a\nb\n\nc\nd", 3).unwrap();
        let cells: Vec<&str> = r.iter().map(|r| r.cells[0].as_str()).collect();
        assert_eq!(cells, ["a", "b", "c"]);
        assert_eq!(records_at_most("a\nb", 5).unwrap().len(), 2);
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_cell() {
        let r = records("\u{feff}name,time\nx,1").unwrap();
        assert_eq!(r[0].cells, vec!["name".to_string(), "time".into()]);
        assert_eq!((r[1].line, r[1].cells[0].as_str()), (2, "x"));
        // Only at the start: elsewhere it is text.
        assert_eq!(records("a,\u{feff}b").unwrap()[0].cells[1], "\u{feff}b");
    }
}
