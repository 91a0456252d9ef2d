//! A referee's verdict on each of the paper's claims (docs/REPRODUCTION.md, "Verdict in one
//! table"; issue 28): reproduced, partly or not, computed from a run's tables by fixed
//! rules written here — the page's Reproduce view and the report read the same verdicts,
//! and `tests/report.rs` checks the report's table says what these rules give on the
//! committed full run.
//!
//! The rules read E1–E4's tables (the CSV columns of docs/reproduction/). Each says what
//! it counted in `because`, with the numbers.

use crate::table::{Cell, Table};

/// How a claim fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It holds under this model, as the paper states it.
    Reproduced,
    /// It holds in part: in some scenarios, or by one of two measures.
    Partly,
    /// It does not hold under this model.
    NotReproduced,
}

impl Verdict {
    /// The verdict in words, as the report's table writes it.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Partly => "partly",
            Verdict::NotReproduced => "not reproduced",
        }
    }

    /// All of `holds` → reproduced, some → partly, none → not.
    fn of(holds: &[bool]) -> Verdict {
        let n = holds.iter().filter(|h| **h).count();
        if n == holds.len() && n > 0 {
            Verdict::Reproduced
        } else if n > 0 {
            Verdict::Partly
        } else {
            Verdict::NotReproduced
        }
    }

    /// A share of scenarios: ≥ 90 % reproduced, ≥ 10 % partly, else not.
    fn of_share(k: f64, n: f64) -> Verdict {
        let share = if n > 0.0 { k / n } else { 0.0 };
        if share >= 0.9 {
            Verdict::Reproduced
        } else if share >= 0.1 {
            Verdict::Partly
        } else {
            Verdict::NotReproduced
        }
    }
}

/// One claim's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimVerdict {
    /// Its number in the report's table (`1a` … `3`).
    pub id: &'static str,
    /// The paper's claim, in a line.
    pub claim: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// What was counted, with the numbers.
    pub because: String,
}

/// The claims' verdicts from the run's tables, `table("e1")` … `table("e4")` (short ids);
/// a claim whose experiment was not run is left out.
pub fn verdicts<'a>(table: impl Fn(&str) -> Option<&'a Table>) -> Vec<ClaimVerdict> {
    let mut out = Vec::new();
    let (e1, e2, e3, e4) = (table("e1"), table("e2"), table("e3"), table("e4"));
    if let (Some(e1), Some(e2)) = (e1, e2) {
        out.extend(claim_1(e1, e2));
    }
    if let Some(e3) = e3 {
        out.extend(claim_2(e3));
    }
    if let Some(e4) = e4 {
        out.push(claim_3(e4));
    }
    out
}

/// A table's rows as (column → cell) lookups.
struct Rows<'a>(&'a Table);

impl<'a> Rows<'a> {
    fn num(&self, row: &[Cell], col: &str) -> f64 {
        self.0
            .column(col)
            .and_then(|i| row[i].as_f64())
            .unwrap_or(f64::NAN)
    }
    fn text(&self, row: &'a [Cell], col: &str) -> &'a str {
        match self.0.column(col).map(|i| &row[i]) {
            Some(Cell::Text(s)) => s,
            _ => "",
        }
    }
    /// The rows where every `(column, text)` matches.
    fn filter(&self, when: &[(&str, &str)]) -> Vec<&'a [Cell]> {
        self.0
            .rows
            .iter()
            .map(Vec::as_slice)
            .filter(|r| when.iter().all(|(c, v)| self.text(r, c) == *v))
            .collect()
    }
    fn sum(&self, rows: &[&[Cell]], col: &str) -> f64 {
        rows.iter().map(|r| self.num(r, col)).sum()
    }
}

/// Claim 1: SMD above ESW (1a) and Optimus (1b), the gap growing (1c).
fn claim_1(e1: &Table, e2: &Table) -> Vec<ClaimVerdict> {
    let (a, b) = (Rows(e1), Rows(e2));
    let (all_a, all_b) = (a.filter(&[]), b.filter(&[]));
    let count = |col: &str| a.sum(&all_a, col) + b.sum(&all_b, col);
    let seeds = count("seeds");
    let esw = count("smd_above_esw");
    let optimus = count("smd_above_optimus");
    // 1c: the absolute gap and the ratio, first against last point, over capacity (E1,
    // sync) and over jobs (E2, sync, 1 unit).
    let ends = |t: &Rows, rows: Vec<&[Cell]>| -> Option<((f64, f64), (f64, f64))> {
        let (f, l) = (rows.first()?, rows.last()?);
        let gap = |r: &[Cell]| t.num(r, "smd_mean") - t.num(r, "esw_mean");
        let ratio = |r: &[Cell]| t.num(r, "smd_over_esw_mean");
        Some(((gap(f), gap(l)), (ratio(f), ratio(l))))
    };
    let over_units = ends(&a, a.filter(&[("mode", "sync")]));
    let over_jobs = ends(&b, b.filter(&[("mode", "sync"), ("capacity", "1 unit")]));
    let mut grows = Vec::new();
    let mut said = Vec::new();
    for (what, e) in [("units", over_units), ("jobs", over_jobs)] {
        let Some(((g0, g1), (r0, r1))) = e else {
            continue;
        };
        grows.push(g1 > g0);
        grows.push(r1 > r0);
        said.push(format!(
            "over {what}: smd − esw {} → {}, smd / esw {} → {}",
            round(g0, 0),
            round(g1, 0),
            round(r0, 2),
            round(r1, 2)
        ));
    }
    vec![
        ClaimVerdict {
            id: "1a",
            claim: "SMD's total utility is above ESW's",
            verdict: Verdict::of_share(esw, seeds),
            because: format!("above in {esw} of {seeds} scenarios (E1, E2)"),
        },
        ClaimVerdict {
            id: "1b",
            claim: "… and above Optimus'",
            verdict: Verdict::of_share(optimus, seeds),
            because: format!("above in {optimus} of {seeds} scenarios (E1, E2)"),
        },
        ClaimVerdict {
            id: "1c",
            claim: "the gap grows with jobs and capacity",
            verdict: Verdict::of(&grows),
            because: format!(
                "{} of {} measures grow ({})",
                grows.iter().filter(|g| **g).count(),
                grows.len(),
                said.join("; ")
            ),
        },
    ]
}

/// Claim 2: SMD / optimum far above the worst-case bound (2a), growing with I (2b), Sync
/// below Async (2c).
fn claim_2(e3: &Table) -> Vec<ClaimVerdict> {
    let t = Rows(e3);
    let roomy = t.filter(&[("capacity", "1000 instances")]);
    let least = roomy
        .iter()
        .map(|r| t.num(r, "smd_over_exact_mean"))
        .fold(f64::INFINITY, f64::min);
    let bound = roomy
        .iter()
        .map(|r| t.num(r, "fc_guarantee"))
        .fold(0.0, f64::max);
    // "Far above": at least twice the guarantee at every point.
    let far = !roomy.is_empty() && least >= 2.0 * bound;
    let mut grows = Vec::new();
    let mut said = Vec::new();
    for mode in ["sync", "async"] {
        let rows = t.filter(&[("capacity", "1000 instances"), ("mode", mode)]);
        let (Some(f), Some(l)) = (rows.first(), rows.last()) else {
            continue;
        };
        let (r0, r1) = (
            t.num(f, "smd_over_exact_mean"),
            t.num(l, "smd_over_exact_mean"),
        );
        // A rise within the last digit of a ratio of ≈ 1 is no growth.
        grows.push(r1 - r0 > 0.01);
        said.push(format!("{mode} {} → {}", round(r0, 3), round(r1, 3)));
    }
    // 2c: on the binding cluster (1 unit; on 1000 instances both ratios are ≈ 1), at every
    // number of jobs, Sync's ratio below Async's — against exact, and against global.
    let below = |col: &str| -> (usize, usize) {
        let sync = t.filter(&[("mode", "sync"), ("capacity", "1 unit")]);
        let mut k = (0, 0);
        for s in sync {
            let pair = t.0.rows.iter().find(|r| {
                t.text(r, "mode") == "async"
                    && t.text(r, "capacity") == t.text(s, "capacity")
                    && t.num(r, "jobs") == t.num(s, "jobs")
            });
            if let Some(a) = pair {
                k.1 += 1;
                if t.num(s, col) < t.num(a, col) {
                    k.0 += 1;
                }
            }
        }
        k
    };
    let (ex, exn) = below("smd_over_exact_mean");
    let (gl, gln) = below("smd_over_global_mean");
    let by = |k: usize, n: usize| n > 0 && k == n;
    vec![
        ClaimVerdict {
            id: "2a",
            claim: "SMD / optimum (1000 instances) is far above the worst-case bound",
            verdict: Verdict::of(&[far]),
            because: format!(
                "smd / exact ≥ {} at every point against a bound of {}",
                round(least, 3),
                round(bound, 3)
            ),
        },
        ClaimVerdict {
            id: "2b",
            claim: "… and grows with I",
            verdict: Verdict::of(&grows),
            because: format!("smd / exact over I on 1000 instances: {}", said.join(", ")),
        },
        ClaimVerdict {
            id: "2c",
            claim: "Sync's ratio is below Async's",
            verdict: Verdict::of(&[by(ex, exn), by(gl, gln)]),
            because: format!(
                "on 1 unit, below at {ex} of {exn} points against exact, {gl} of {gln} against global"
            ),
        },
    ]
}

/// Claim 3: SMD uses 30–50 % of the requested resources.
fn claim_3(e4: &Table) -> ClaimVerdict {
    let t = Rows(e4);
    let rows = t.filter(&[]);
    let shares: Vec<f64> = rows.iter().map(|r| t.num(r, "mean_share_mean")).collect();
    // Within 30–50 % at the report's two decimals.
    let inside = shares
        .iter()
        .filter(|s| (0.295..0.505).contains(*s))
        .count();
    let (lo, hi) = shares
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &s| {
            (a.min(s), b.max(s))
        });
    ClaimVerdict {
        id: "3",
        claim: "SMD uses 30–50% of the resources users asked for",
        verdict: Verdict::of_share(inside as f64, shares.len() as f64).min_partly(inside),
        because: format!(
            "mean share within 30–50% at {inside} of {} points (all: {}–{})",
            shares.len(),
            round(lo, 2),
            round(hi, 2)
        ),
    }
}

impl Verdict {
    /// Some points in range is at least partly, whatever the share.
    fn min_partly(self, inside: usize) -> Verdict {
        if self == Verdict::NotReproduced && inside > 0 {
            Verdict::Partly
        } else {
            self
        }
    }
}

/// `v` at `decimals` decimals, for the sentences.
fn round(v: f64, decimals: usize) -> String {
    format!("{v:.decimals$}")
}

/// The range of signed changes `lo`..`hi` over `runs` runs in words: `from −0.7 % to
/// +3.9 %`; `+3.0 % on every run` where both read the same (`+3.0 %` for one run).
fn spread(lo: f64, hi: f64, runs: usize) -> String {
    let (a, b) = (
        smd_charts::format::signed_percent(lo),
        smd_charts::format::signed_percent(hi),
    );
    match (a == b, runs) {
        (true, 1) => a,
        (true, _) => format!("{a} on every run"),
        _ => format!("from {a} to {b}"),
    }
}

/// The over-time engine against the reference simulator (docs/FIDELITY.md, "Against the
/// goals"), from the fidelity study's table (`fidelity::table`), one
/// verdict per policy run: `F1` tiresias and `F2` optimus_oracle — the per-job gap
/// |ln(ours / published)| with median ≤ 0.02 and p90 ≤ 0.15, and the mean
/// JCT within ±3 %, on every run: all
/// three goals → reproduced, one or two → partly; `F3` pollux, stochastic in the reference,
/// on its mean — within ±8 % of the published or lower — by the share of runs (≥ 90 %
/// reproduced, ≥ 10 % partly). A policy the table has no row of is left out.
pub fn fidelity(table: &Table) -> Vec<ClaimVerdict> {
    let t = Rows(table);
    let mut out = Vec::new();
    let deterministic = [
        (
            "F1",
            "tiresias",
            "Tiresias as the reference simulator ran it, job by job",
        ),
        (
            "F2",
            "optimus_oracle",
            "Optimus+Oracle as the reference simulator ran it, job by job",
        ),
    ];
    for (id, policy, claim) in deterministic {
        let rows = t.filter(&[("policy", policy)]);
        if rows.is_empty() {
            continue;
        }
        let n = rows.len();
        let runs = if n == 1 { "run" } else { "runs" };
        let count = |f: &dyn Fn(&[Cell]) -> bool| rows.iter().filter(|r| f(r)).count();
        let median = count(&|r| t.num(r, "median_abs_ln") <= 0.02);
        let p90 = count(&|r| t.num(r, "p90_abs_ln") <= 0.15);
        let mean = count(&|r| (t.num(r, "mean_ratio") - 1.0).abs() <= 0.03);
        out.push(ClaimVerdict {
            id,
            claim,
            verdict: Verdict::of(&[median == n, p90 == n, mean == n]),
            because: format!(
                "per-job gap to the published JCT (0.02 ≈ 2 %): median ≤ 0.02 in {median} of {n} {runs}, p90 ≤ 0.15 in {p90} of {n}; mean JCT within \
                 ±3 % in {mean} of {n}"
            ),
        });
    }
    let rows = t.filter(&[("policy", "pollux")]);
    if !rows.is_empty() {
        let n = rows.len();
        let runs = if n == 1 { "run" } else { "runs" };
        let ratios: Vec<f64> = rows.iter().map(|r| t.num(r, "mean_ratio")).collect();
        let met = ratios.iter().filter(|&&q| q <= 1.08).count();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &q| {
                (a.min(q), b.max(q))
            });
        out.push(ClaimVerdict {
            id: "F3",
            claim: "Pollux's mean JCT as the reference simulator published it (its search is stochastic)",
            verdict: Verdict::of_share(met as f64, n as f64),
            because: format!(
                "mean JCT within ±8 % or lower in {met} of {n} {runs} ({})",
                spread(lo - 1.0, hi - 1.0, n)
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(columns: &[&str], rows: Vec<Vec<Cell>>) -> Table {
        let mut t = Table::new(columns);
        rows.into_iter().for_each(|r| t.push(r));
        t
    }

    /// The rules on hand-made tables: shares, all/some/none, a missing experiment.
    #[test]
    fn the_rules_read_the_tables() {
        let cols = [
            "mode",
            "capacity",
            "seeds",
            "smd_mean",
            "esw_mean",
            "smd_over_esw_mean",
            "smd_above_esw",
            "smd_above_optimus",
        ];
        let row = |cap: &str, smd: f64, esw: f64, above: i64, opt: i64| {
            vec![
                "sync".into(),
                cap.into(),
                Cell::Int(10),
                smd.into(),
                esw.into(),
                (smd / esw).into(),
                Cell::Int(above),
                Cell::Int(opt),
            ]
        };
        let e1 = table(
            &cols,
            vec![
                row("1 unit", 600.0, 450.0, 10, 0),
                row("5 units", 1500.0, 1200.0, 9, 2),
            ],
        );
        let e2 = table(
            &cols,
            vec![
                row("1 unit", 200.0, 100.0, 10, 0),
                row("1 unit", 900.0, 700.0, 10, 1),
            ],
        );
        let v = verdicts(|id| match id {
            "e1" => Some(&e1),
            "e2" => Some(&e2),
            _ => None,
        });
        assert_eq!(v.len(), 3, "claims 2 and 3 need E3, E4");
        assert_eq!(v[0].verdict, Verdict::Reproduced, "{}", v[0].because);
        assert_eq!(v[0].because, "above in 39 of 40 scenarios (E1, E2)");
        assert_eq!(v[1].verdict, Verdict::NotReproduced, "3 of 40 is under 10%");
        // Gaps grow (150 → 300, 100 → 200), ratios fall (1.33 → 1.25, 2 → 1.29): partly.
        assert_eq!(v[2].verdict, Verdict::Partly, "{}", v[2].because);
        assert!(
            v[2].because.starts_with("2 of 4 measures grow"),
            "{}",
            v[2].because
        );
    }

    /// The fidelity verdicts speak plainly: no "−0.0 %", no "from +3.0 % to +3.0 %", and
    /// the per-job measure named in words.
    #[test]
    fn fidelity_verdicts_read_plainly() {
        let cols = ["policy", "median_abs_ln", "p90_abs_ln", "mean_ratio"];
        let row = |p: &str, q: f64| vec![p.into(), 0.0.into(), 0.01.into(), q.into()];
        let same = table(
            &cols,
            vec![
                row("tiresias", 1.0),
                row("pollux", 1.03),
                row("pollux", 1.03),
            ],
        );
        let v = fidelity(&same);
        assert_eq!(v.len(), 2);
        assert!(!v[0].because.contains("ln-deviation"), "{}", v[0].because);
        assert!(
            v[0].because.starts_with("per-job gap to the published JCT"),
            "{}",
            v[0].because
        );
        assert_eq!(
            v[1].because,
            "mean JCT within ±8 % or lower in 2 of 2 runs (+3.0 % on every run)"
        );
        let zero = table(&cols, vec![row("pollux", 1.0 - 1e-6), row("pollux", 1.039)]);
        assert_eq!(
            fidelity(&zero)[0].because,
            "mean JCT within ±8 % or lower in 2 of 2 runs (from 0.0 % to +3.9 %)"
        );
        let one = table(&cols, vec![row("pollux", 1.03)]);
        assert_eq!(
            fidelity(&one)[0].because,
            "mean JCT within ±8 % or lower in 1 of 1 run (+3.0 %)"
        );
    }
}
