//! The heterogeneous-cluster study's verdicts: computed by their rules from the committed
//! run (`docs/reproduction/sia-table3.csv`) they are what docs/FIDELITY.md says, and the
//! rules grade a synthetic table as written.

use smd_reproduce::sia::{verdicts, COLUMNS};
use smd_reproduce::table::{Cell, Table};
use smd_reproduce::verdict::Verdict;

fn philly(rows: &[(&str, f64, f64)]) -> Table {
    let mut t = Table::new(&COLUMNS);
    for &(policy, ours, published) in rows {
        let mut row: Vec<Cell> = COLUMNS.iter().map(|_| Cell::Num(f64::NAN)).collect();
        row[t.column("trace").unwrap()] = "philly".into();
        row[t.column("policy").unwrap()] = policy.into();
        row[t.column("avg_jct_h").unwrap()] = ours.into();
        row[t.column("published_avg_jct_h").unwrap()] = published.into();
        t.push(row);
    }
    t
}

#[test]
fn the_rules_grade_as_written() {
    let all_close = philly(&[
        ("sia", 0.65, 0.6),
        ("pollux_unaware", 1.1, 1.0),
        ("gavel", 2.0, 1.9),
    ]);
    let v = verdicts(&all_close, None);
    assert_eq!(
        (v[0].verdict, v[1].verdict),
        (Verdict::Reproduced, Verdict::Reproduced)
    );
    // Gavel off by 30 %, and faster than Pollux: the order breaks.
    let off = philly(&[
        ("sia", 0.6, 0.6),
        ("pollux_unaware", 1.0, 1.0),
        ("gavel", 0.9, 1.9),
    ]);
    let v = verdicts(&off, None);
    assert_eq!(
        (v[0].verdict, v[1].verdict),
        (Verdict::Partly, Verdict::NotReproduced)
    );
    assert!(
        v[0].because.contains("gavel 0.9 h vs 1.9 h"),
        "{}",
        v[0].because
    );
}

#[test]
fn the_committed_run_says_what_fidelity_md_says() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let csv = std::fs::read_to_string(format!("{root}docs/reproduction/sia-table3.csv")).unwrap();
    let t = Table::from_csv(&csv).unwrap();
    let doc = std::fs::read_to_string(format!("{root}docs/FIDELITY.md")).unwrap();
    for v in verdicts(&t, None) {
        let line = doc
            .lines()
            .find(|l| {
                l.starts_with(&format!("| {} | ", v.id))
                    && l.contains(v.claim.split(',').next().unwrap())
            })
            .unwrap_or_else(|| panic!("FIDELITY.md has no row for verdict {}", v.id));
        assert!(
            line.contains(&format!("**{}**", v.verdict.words())),
            "verdict {}: {} by the rules, FIDELITY.md says {line}",
            v.id,
            v.verdict.words()
        );
    }
}
