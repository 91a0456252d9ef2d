//! docs/REPRODUCTION.md against the committed full run in docs/reproduction/: every number
//! the report tags is recomputed from the CSVs, so prose and data cannot drift apart. A new
//! full run that changes a tagged number fails this test until the prose says the new one.
//!
//! # The convention
//!
//! A number is tagged by an HTML comment right after it (invisible when rendered):
//!
//! ```text
//! smd − esw grows (156 → 275<!-- csv: e1; smd_mean-esw_mean; mode=sync -->)
//! ```
//!
//! The comment starts with `csv:`; its parts are separated by `;`, in any order:
//!
//! - **files**: `e1`, or several as `e1,e2,e3` — the experiments' short ids (or full ids),
//!   read from `docs/reproduction/<id>.csv`. Several files' rows are taken in that order;
//!   a row whose `mode`, `capacity` and `jobs` equal those of a row already taken is the
//!   same scenarios (experiments share their cases) and is taken once.
//! - **filters**: `column=value` conditions separated by `,`, e.g. `mode=sync, capacity=1
//!   unit, jobs>=100`; operators `=`, `!=`, `<`, `<=`, `>`, `>=`; `=` takes alternatives
//!   separated by `/` (`capacity=4 units/5 units`). Numbers compare as numbers, the rest
//!   as text. Three options look like filters: `sig=N` compares at N significant digits
//!   instead of the claim's decimals; `stat=S` reads `X_S` wherever the expression reads
//!   `X_mean` (with `stat=min` or `stat=max`, the min or max of it over the rows); and
//!   `by=a/b` groups the rows by the columns a and b, so that an aggregate gives a value
//!   per group (e.g. `sum(smd_above_esw); by=mode` for "49/50 in each mode").
//! - **expression**: arithmetic (`+ - * /`, parentheses, numbers) over column names, e.g.
//!   `100*(optimus_mean/smd_mean-1)` for a percentage. Per row, unless it uses the
//!   aggregates `sum`, `min`, `max`, `mean`, `first`, `last` (then every column must be
//!   inside one, and the expression gives one value over the selected rows, e.g.
//!   `100*sum(global_proven)/sum(seeds)`).
//!
//! The claim is the number (or pair) just before the comment, optionally followed by `%`
//! or `×`, and is compared after rounding the data to the claim's decimals:
//!
//! - `N`: every selected row gives N (or the aggregate does, in every group);
//! - `A–B` (en dash): the smallest value gives A and the largest B;
//! - `A → B`: the first row gives A and the last B;
//! - `A ± B`: every row gives A, and B with `X_sd` read for `X_mean`.
//!
//! In a table, a comment in a header cell tags that whole column and one in a row's first
//! cell adds to every tagged cell of the row (its files, expression, filters): each cell of
//! a tagged column must then be a claim, checked with the column's and the row's parts
//! together. Columns without a tag are ordinary text (and may carry inline tags).
//!
//! The same convention is summarised in a comment at the top of REPRODUCTION.md.

mod report_tags;

use report_tags::{check_doc, markers, parse_csv, Csv};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

/// Loads `docs/reproduction/<id>.csv` for a short or full id, once each.
fn committed() -> impl FnMut(&str) -> Result<Rc<Csv>, String> {
    let mut cache: HashMap<String, Rc<Csv>> = HashMap::new();
    move |name: &str| {
        let id = smd_reproduce::resolve_id(name).map_err(|e| e.to_string())?;
        if let Some(c) = cache.get(id) {
            return Ok(c.clone());
        }
        let path = docs().join("reproduction").join(format!("{id}.csv"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let csv = Rc::new(parse_csv(&text));
        cache.insert(id.to_owned(), csv.clone());
        Ok(csv)
    }
}

#[test]
fn every_tagged_number_matches_the_committed_run() {
    let doc = std::fs::read_to_string(docs().join("REPRODUCTION.md")).expect("REPRODUCTION.md");
    let out = check_doc(&doc, &mut committed());
    eprintln!("{} tagged numbers checked", out.checks);
    assert!(
        out.failures.is_empty(),
        "{} of {} tagged numbers in docs/REPRODUCTION.md disagree with docs/reproduction/*.csv \
         (update the prose, or the tag; see crates/smd-reproduce/tests/report.rs):\n{}",
        out.failures.len(),
        out.checks,
        out.failures.join("\n")
    );
    // The report stays tagged: its data tables and most of its prose.
    assert!(out.checks >= 200, "only {} tagged numbers", out.checks);
}

#[test]
fn every_verdict_row_is_tagged() {
    let doc = std::fs::read_to_string(docs().join("REPRODUCTION.md")).expect("REPRODUCTION.md");
    let verdict: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| # |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(verdict.len() >= 7, "the verdict table: {verdict:?}");
    for row in verdict {
        assert!(!markers(row).is_empty(), "an untagged verdict: {row}");
    }
}

/// The checker itself, on a small made-up document: what passes, what fails.
#[test]
fn the_checker_catches_what_differs() {
    let csv = Rc::new(parse_csv(
        "mode,capacity,jobs,seeds,x_mean,x_sd,x_min,name\n\
         sync,1 unit,10,3,0.51,0.1,0.4,a\n\
         sync,1 unit,20,3,0.524,0.06,0.3,\"b, c\"\n\
         async,1 unit,10,3,0.9,0.01,0.88,d\n",
    ));
    assert_eq!(csv.rows[1][7], "b, c");
    let mut load = |name: &str| -> Result<Rc<Csv>, String> {
        smd_reproduce::resolve_id(name).map_err(|e| e.to_string())?;
        Ok(csv.clone())
    };
    let ok = [
        "0.51–0.52<!-- csv: e1; x_mean; mode=sync -->",
        "0.5<!-- csv: e1; x_mean; mode=sync --> and 0.9<!-- csv: e1; x_mean; mode=async -->",
        "0.51 → 0.52<!-- csv: e1; x_mean; mode=sync -->",
        "51%<!-- csv: e1; 100*x_mean; jobs=10, mode=sync -->",
        "(+52%<!-- csv: e1; 100*x_mean; jobs>=20 -->)",
        "0.3<!-- csv: e1; min(x_min) -->, 9<!-- csv: e1; sum(seeds) -->",
        "0.51 ± 0.10<!-- csv: e1; x_mean; jobs=10, mode=sync -->",
        "2<!-- csv: e1; x_mean/x_mean*2; capacity=1 unit -->",
        "0.52<!-- csv: e1; x_mean; jobs=20/30 -->",
        "0.5<!-- csv: e1; x_mean; sig=1; mode!=async -->",
        "rows: 2<!-- csv: e1,e2; sum(seeds)/3-1 -->",
        "3–6<!-- csv: e1; sum(seeds); by=mode -->",
        "| I | x<!-- csv: e1; x_mean --> | min<!-- csv: e1; stat=min; x_mean --> |",
        "|---|---:|---:|",
        "| 10<!-- csv: jobs=10, mode=sync --> | 0.51 ± 0.10 | 0.4 |",
        "| 20<!-- csv: jobs=20 --> | 0.524 ± 0.060 | 0.3 |",
    ];
    let out = check_doc(&ok.join("\n"), &mut load);
    assert_eq!(out.failures, Vec::<String>::new());
    assert_eq!(out.checks, 18);
    let bad = [
        "0.52<!-- csv: e1; x_mean; mode=sync -->",
        "0.50–0.52<!-- csv: e1; x_mean; mode=sync -->",
        "0.52 → 0.51<!-- csv: e1; x_mean; mode=sync -->",
        "0.51 ± 0.1<!-- csv: e1; x_mean -->",
        "0.5<!-- csv: e1; x_mean; mode=mixed -->",
        "0.5<!-- csv: e9; x_mean -->",
        "0.5<!-- csv: e1; y_mean -->",
        "0.5<!-- csv: e1; x_mean; name=a; sig=2 -->",
        "no number<!-- csv: e1; x_mean -->",
        "0.51–0.52<!-- csv: e1; max(x_mean) -->",
        "6<!-- csv: e1; sum(seeds); by=mode -->",
        "0.5<!-- csv: e1; x_mean; by=mode -->",
        "| I | x<!-- csv: e1; x_mean --> |",
        "|---|---:|",
        "| 10<!-- csv: jobs=10, mode=sync --> | 0.52 |",
        "| 20<!-- csv: jobs=20 --> | n/a |",
    ];
    let out = check_doc(&bad.join("\n"), &mut load);
    assert_eq!(out.checks, 14, "{:#?}", out.failures);
    assert_eq!(out.failures.len(), 14, "{:#?}", out.failures);
}

/// The report's "Verdict in one table" says, claim by claim, what `smd_reproduce::verdict`'s
/// rules give on the committed full run — the page's Reproduce view shows the same rules on
/// its own run — and a CSV read back is the table it was written from.
#[test]
fn the_reports_verdicts_are_the_rules_on_the_committed_run() {
    use smd_reproduce::{resolve_id, verdict::verdicts, Table};
    let tables: HashMap<&str, Table> = ["e1", "e2", "e3", "e4"]
        .into_iter()
        .map(|short| {
            let id = resolve_id(short).unwrap();
            let text =
                std::fs::read_to_string(docs().join(format!("reproduction/{id}.csv"))).unwrap();
            let t = Table::from_csv(&text).unwrap();
            assert_eq!(t.to_csv(), text, "{id}.csv reads back as written");
            (short, t)
        })
        .collect();
    let computed = verdicts(|short| tables.get(short));
    assert_eq!(computed.len(), 7);
    let doc = std::fs::read_to_string(docs().join("REPRODUCTION.md")).unwrap();
    for v in &computed {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", v.id)))
            .unwrap_or_else(|| panic!("REPRODUCTION.md has no row for claim {}", v.id));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | # | claim | verdict | under this model | in one line |
        let said = cells[3].trim_matches('*');
        assert_eq!(
            said,
            v.verdict.words(),
            "claim {}: the report says {said:?}, the rules give {:?} ({})",
            v.id,
            v.verdict.words(),
            v.because
        );
    }
}

/// docs/FIDELITY.md's verdicts are `smd_reproduce::verdict::fidelity`'s rules on the
/// committed full study (docs/fidelity/fidelity.csv) — the page's Reproduce view shows the
/// same rules on its own run of the study.
#[test]
fn the_fidelity_verdicts_are_the_rules_on_the_committed_study() {
    let text = std::fs::read_to_string(docs().join("fidelity/fidelity.csv")).unwrap();
    // (Its load column, "1.0", reads back as the number 1: the rules read only policies.)
    let t = smd_reproduce::Table::from_csv(&text).unwrap();
    let computed = smd_reproduce::verdict::fidelity(&t);
    assert_eq!(computed.len(), 3);
    let doc = std::fs::read_to_string(docs().join("FIDELITY.md")).unwrap();
    for v in &computed {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", v.id)))
            .unwrap_or_else(|| panic!("FIDELITY.md has no verdict row {}", v.id));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | # | claim | verdict | because |
        assert_eq!(
            cells[3].trim_matches('*'),
            v.verdict.words(),
            "{}: {}",
            v.id,
            v.because
        );
        assert_eq!(cells[4], v.because, "{}", v.id);
    }
}
