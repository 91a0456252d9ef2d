//! A tag's parts (files, expression, filters, options) and how a column's and a row's
//! tags combine.

use super::expr::{parse_expr, Expr};
use super::Row;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Filter {
    pub(crate) column: String,
    pub(crate) op: &'static str,
    pub(crate) values: Vec<String>,
}

impl Filter {
    pub(crate) fn keeps(&self, row: &Row) -> Result<bool, String> {
        let cell = *row
            .get(self.column.as_str())
            .ok_or(format!("no column {} to filter on", self.column))?;
        let cmp = |v: &String| match (cell.parse::<f64>(), v.parse::<f64>()) {
            (Ok(a), Ok(b)) => a.partial_cmp(&b),
            _ => Some(cell.cmp(v.as_str())),
        };
        use std::cmp::Ordering::{Equal, Greater, Less};
        let o = cmp(&self.values[0]);
        Ok(match self.op {
            "=" => self.values.iter().any(|v| cmp(v) == Some(Equal)),
            "!=" => o != Some(Equal),
            "<" => o == Some(Less),
            "<=" => matches!(o, Some(Less | Equal)),
            ">" => o == Some(Greater),
            _ => matches!(o, Some(Greater | Equal)),
        })
    }
}

/// What a comment (or a column's and a row's together) says to check.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tag {
    pub(crate) files: Option<Vec<String>>,
    pub(crate) expr: Option<(String, Expr)>,
    pub(crate) filters: Vec<Filter>,
    pub(crate) sig: Option<i32>,
    pub(crate) stat: Option<String>,
    /// Group the rows by these columns (in order of first appearance): an aggregate then
    /// gives a value per group.
    pub(crate) by: Option<Vec<String>>,
}

/// Whether `part` lists experiments: `e<digit>…` items (the loader resolves them).
fn is_file_list(part: &str) -> bool {
    part.split(',').all(|f| {
        let mut c = f.trim().chars();
        matches!(c.next(), Some('e' | 'E'))
            && c.next().is_some_and(|d| d.is_ascii_digit())
            && c.all(|x| x.is_ascii_alphanumeric() || x == '-')
    })
}

pub(crate) fn parse_tag(body: &str) -> Result<Tag, String> {
    let mut tag = Tag::default();
    for part in body.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        if is_file_list(part) {
            let files = part.split(',').map(|f| f.trim().to_owned()).collect();
            tag = merge(
                &tag,
                &Tag {
                    files: Some(files),
                    ..Tag::default()
                },
            )?;
        } else if part.contains(['=', '<', '>']) {
            for cond in part.split(',').map(str::trim) {
                let op = ["!=", "<=", ">=", "=", "<", ">"]
                    .into_iter()
                    .find(|op| cond.contains(op))
                    .ok_or(format!("no operator in {cond:?}"))?;
                let (col, val) = cond.split_once(op).expect("the operator is there");
                let (col, val) = (col.trim(), val.trim());
                match (col, op) {
                    ("sig", "=") => tag.sig = Some(val.parse().map_err(|_| format!("sig={val}?"))?),
                    ("stat", "=") => tag.stat = Some(val.to_owned()),
                    ("by", "=") => {
                        tag.by = Some(val.split('/').map(|v| v.trim().to_owned()).collect())
                    }
                    _ => tag.filters.push(Filter {
                        column: col.to_owned(),
                        op,
                        values: val.split('/').map(|v| v.trim().to_owned()).collect(),
                    }),
                }
            }
        } else {
            let e = parse_expr(part)?;
            tag = merge(
                &tag,
                &Tag {
                    expr: Some((part.to_owned(), e)),
                    ..Tag::default()
                },
            )?;
        }
    }
    Ok(tag)
}

/// A column's tag and a row's together: at most one of them names the files (or both the
/// same), at most one the expression; filters add up.
pub(crate) fn merge(a: &Tag, b: &Tag) -> Result<Tag, String> {
    fn one<T: Clone + PartialEq>(
        a: &Option<T>,
        b: &Option<T>,
        what: &str,
    ) -> Result<Option<T>, String> {
        match (a, b) {
            (Some(x), Some(y)) if x != y => Err(format!("two {what}")),
            (Some(x), _) | (None, Some(x)) => Ok(Some(x.clone())),
            (None, None) => Ok(None),
        }
    }
    Ok(Tag {
        files: one(&a.files, &b.files, "file lists")?,
        expr: one(&a.expr, &b.expr, "expressions")?,
        filters: a.filters.iter().chain(&b.filters).cloned().collect(),
        sig: one(&a.sig, &b.sig, "sig options")?,
        stat: one(&a.stat, &b.stat, "stat options")?,
        by: one(&a.by, &b.by, "by options")?,
    })
}
