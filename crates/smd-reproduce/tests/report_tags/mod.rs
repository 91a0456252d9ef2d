//! Checks the numbers a Markdown document tags against CSV files; the convention is in
//! the doc comment of `tests/report.rs`.

mod claim;
mod expr;
mod tag;

use claim::{claim_before, claim_of_cell, shows, Claim, Num};
use expr::Expr;
use std::collections::HashMap;
use std::rc::Rc;
use tag::{merge, parse_tag, Tag};

/// A CSV file: its header and its rows, as text.
#[derive(Debug)]
pub(crate) struct Csv {
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
}

/// RFC 4180 as `Table::to_csv` writes it (quoted cells, `""` for a quote, `\n` lines).
pub(crate) fn parse_csv(text: &str) -> Csv {
    let mut lines = text.lines().filter(|l| !l.is_empty()).map(|line| {
        let mut cells = vec![String::new()];
        let (mut quoted, mut prev_quote) = (false, false);
        for c in line.chars() {
            match (c, quoted) {
                ('"', true) => {
                    quoted = false;
                    prev_quote = true;
                    continue;
                }
                ('"', false) if prev_quote => {
                    cells.last_mut().expect("a cell").push('"');
                    quoted = true;
                }
                ('"', false) => quoted = true,
                (',', false) => cells.push(String::new()),
                _ => cells.last_mut().expect("a cell").push(c),
            }
            prev_quote = false;
        }
        cells
    });
    Csv {
        columns: lines.next().unwrap_or_default(),
        rows: lines.collect(),
    }
}

/// One selected row: column name → cell text.
pub(crate) type Row<'a> = HashMap<&'a str, &'a str>;

/// The `csv:` comments of a line: (start, end, body) with byte offsets of the whole comment.
pub(crate) fn markers(line: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(s) = line[from..].find("<!--").map(|i| i + from) {
        let Some(e) = line[s..].find("-->").map(|i| i + s + 3) else {
            break;
        };
        if let Some(body) = line[s + 4..e - 3].trim().strip_prefix("csv:") {
            out.push((s, e, body));
        }
        from = e;
    }
    out
}

/// The line without its `csv:` comments.
fn without_markers(text: &str) -> String {
    let mut out = String::new();
    let mut from = 0;
    for (s, e, _) in markers(text) {
        out.push_str(&text[from..s]);
        from = e;
    }
    out.push_str(&text[from..]);
    out
}

/// Loads the CSV of an experiment id.
pub(crate) type Load<'a> = dyn FnMut(&str) -> Result<Rc<Csv>, String> + 'a;

/// The rows `tag` selects.
fn select<'c>(tag: &Tag, csvs: &'c [Rc<Csv>]) -> Result<Vec<Row<'c>>, String> {
    let key = ["mode", "capacity", "jobs"];
    let mut seen: Vec<Vec<&str>> = Vec::new();
    let mut rows = Vec::new();
    for csv in csvs {
        for r in &csv.rows {
            let row: Row = csv
                .columns
                .iter()
                .map(String::as_str)
                .zip(r.iter().map(String::as_str))
                .collect();
            let mut keep = true;
            for f in &tag.filters {
                keep &= f.keeps(&row)?;
            }
            if !keep {
                continue;
            }
            if csvs.len() > 1 {
                if let Some(k) = key
                    .iter()
                    .map(|k| row.get(k).copied())
                    .collect::<Option<Vec<_>>>()
                {
                    if seen.contains(&k) {
                        continue;
                    }
                    seen.push(k);
                }
            }
            rows.push(row);
        }
    }
    Ok(rows)
}

/// The rows grouped by the columns `by` (all in one group without), in order of first
/// appearance.
fn groups<'r, 'c>(rows: &'r [Row<'c>], by: &Option<Vec<String>>) -> Vec<Vec<&'r Row<'c>>> {
    let Some(by) = by else {
        return vec![rows.iter().collect()];
    };
    let mut keys: Vec<Vec<Option<&str>>> = Vec::new();
    let mut out: Vec<Vec<&Row>> = Vec::new();
    for r in rows {
        let k: Vec<Option<&str>> = by.iter().map(|c| r.get(c.as_str()).copied()).collect();
        match keys.iter().position(|x| *x == k) {
            Some(i) => out[i].push(r),
            None => {
                keys.push(k);
                out.push(vec![r]);
            }
        }
    }
    out
}

/// Checks one claim; `Err` says how it fails.
fn check(tag: &Tag, claim: &Claim, load: &mut Load) -> Result<(), String> {
    let files = tag.files.as_ref().ok_or("no file")?;
    let (src, expr) = tag.expr.as_ref().ok_or("no expression")?;
    let csvs = files
        .iter()
        .map(|f| load(f))
        .collect::<Result<Vec<_>, _>>()?;
    let rows = select(tag, &csvs)?;
    if rows.is_empty() {
        return Err(format!("no row of {files:?} passes the filters"));
    }
    let expr = match &tag.stat {
        Some(s) => match expr.with_stat(s) {
            (e, true) => e,
            (_, false) => return Err(format!("stat={s}: no _mean column in {src}")),
        },
        None => expr.clone(),
    };
    // The values: per row, or with aggregates per group (one group without `by`).
    let values = |e: &Expr| -> Result<Vec<f64>, String> {
        match (e.has_agg(), &tag.by) {
            (true, by) => groups(&rows, by).iter().map(|g| e.on_rows(g)).collect(),
            (false, None) => rows.iter().map(|r| e.on_row(r)).collect(),
            (false, Some(_)) => Err("by= groups the rows of an aggregate".into()),
        }
    };
    let v = values(&expr)?;
    if expr.has_agg() && tag.by.is_none() && !matches!(claim, Claim::One(_)) {
        return Err("an aggregate gives one number: tag each end of a pair".into());
    }
    let fail = |what: String, of: &str, v: &[f64]| -> Result<(), String> {
        let v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        Err(format!("{what}; data {of}: {}", v.join(", ")))
    };
    let show = |x: f64, n: &Num| shows(x, n, tag.sig);
    let all = |n: &Num, v: &[f64]| v.iter().all(|x| show(*x, n));
    let ok = match claim {
        Claim::One(n) => all(n, &v),
        Claim::Range(a, b) => {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            show(lo, a) && show(hi, b)
        }
        Claim::Trend(a, b) => show(v[0], a) && show(v[v.len() - 1], b),
        Claim::PlusMinus(a, b) => {
            let (sd, any) = expr.with_stat("sd");
            if !any {
                return Err(format!("± needs a _mean column in {src}"));
            }
            let sds = values(&sd)?;
            if !all(b, &sds) {
                return fail(format!("claims ± {}", b.text), "(its sd)", &sds);
            }
            all(a, &v)
        }
    };
    if ok {
        Ok(())
    } else {
        fail(format!("claims {claim}"), src, &v)
    }
}

/// What checking a document found.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    pub(crate) checks: usize,
    pub(crate) failures: Vec<String>,
}

impl Outcome {
    fn record(&mut self, line: usize, what: &str, r: Result<(), String>) {
        self.checks += 1;
        if let Err(e) = r {
            self.failures.push(format!("line {line}: {what}: {e}"));
        }
    }
}

/// The table cells of a line: its text between the outer `|`s, split at the others.
fn cells(line: &str) -> Vec<&str> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').collect()
}

/// The merged tag of the comments in `text`, if any.
fn tag_of(text: &str) -> Result<Option<Tag>, String> {
    let mut tag: Option<Tag> = None;
    for (_, _, body) in markers(text) {
        let t = parse_tag(body)?;
        tag = Some(match tag {
            Some(prev) => merge(&prev, &t)?,
            None => t,
        });
    }
    Ok(tag)
}

/// Checks every tag of the text `text` on line `line` as an inline tag.
fn inline(text: &str, line: usize, out: &mut Outcome, load: &mut Load) {
    for (s, _, body) in markers(text) {
        let r = parse_tag(body).and_then(|tag| {
            let (claim, _) = claim_before(&text[..s]).ok_or("no number before the tag")?;
            check(&tag, &claim, load)
        });
        let around: String = without_markers(&text[..s]).chars().rev().take(40).collect();
        out.record(line, &around.chars().rev().collect::<String>(), r);
    }
}

/// Checks a table (its lines, the first numbered `first`).
fn table(lines: &[&str], first: usize, out: &mut Outcome, load: &mut Load) {
    let header = cells(lines[0]);
    let cols: Vec<Option<Tag>> = match header.iter().map(|c| tag_of(c)).collect() {
        Ok(c) => c,
        Err(e) => return out.record(first, "table header", Err(e)),
    };
    let body = lines.iter().enumerate().skip(2);
    if cols.iter().all(Option::is_none) {
        for (k, l) in lines.iter().enumerate() {
            inline(l, first + k, out, load);
        }
        return;
    }
    for (k, l) in body {
        let row = cells(l);
        let line = first + k;
        let row_tag = match tag_of(row[0]) {
            Ok(t) => t.unwrap_or_default(),
            Err(e) => {
                out.record(line, "row tag", Err(e));
                continue;
            }
        };
        for (j, cell) in row.iter().enumerate().skip(1) {
            let Some(Some(col)) = cols.get(j) else {
                inline(cell, line, out, load);
                continue;
            };
            let text = without_markers(cell);
            let r = merge(col, &row_tag).and_then(|tag| {
                let claim = claim_of_cell(&text).ok_or("the cell is not a number")?;
                check(&tag, &claim, load)
            });
            out.record(line, &format!("column {} {:?}", j + 1, text.trim()), r);
        }
    }
}

/// Checks every tag of a Markdown document.
pub(crate) fn check_doc(doc: &str, load: &mut Load) -> Outcome {
    let mut out = Outcome::default();
    // Comments over several lines are notes, not tags: blank them (keeping line numbers).
    let mut lines: Vec<&str> = Vec::new();
    let mut in_note = false;
    for (k, l) in doc.lines().enumerate() {
        if in_note {
            in_note = !l.contains("-->");
            lines.push("");
        } else if l.trim_start().starts_with("<!--") && !l.contains("-->") {
            if l.contains("csv:") {
                out.record(k + 1, "a tag", Err("a tag must be on one line".into()));
            }
            in_note = true;
            lines.push("");
        } else {
            lines.push(l);
        }
    }
    let mut k = 0;
    while k < lines.len() {
        let is_row = |l: &str| l.trim_start().starts_with('|');
        if is_row(lines[k]) {
            let end = (k..lines.len())
                .find(|&e| !is_row(lines[e]))
                .unwrap_or(lines.len());
            table(&lines[k..end], k + 1, &mut out, load);
            k = end;
        } else {
            inline(lines[k], k + 1, &mut out, load);
            k += 1;
        }
    }
    out
}
