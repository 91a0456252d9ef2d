//! The one module that talks to the LP crate, so the choice stays swappable in one file.
//! Public as the project's LP layer: other crates (the simulation's `locality` policy)
//! build their LPs here rather than naming an LP crate.
//!
//! Default backend: `microlp` (the maintained fork of `minilp`; `minilp` 0.2 panics on a
//! singular basis, ztlpn/minilp issue 6). `--features minilp` switches to `minilp` for the
//! side-by-side measurement in `docs/BENCHMARKS.md`. Whatever the backend, a failure comes
//! back as [`Error::Solver`], never as a panic: natively a panic inside the crate is caught
//! as a last line of defence.

use crate::error::Error;

pub mod multiple_choice;

/// Name of the LP crate in use.
#[cfg(not(feature = "minilp"))]
pub const BACKEND: &str = "microlp 0.7";
/// Name of the LP crate in use.
#[cfg(feature = "minilp")]
pub const BACKEND: &str = "minilp 0.2";

/// Direction of the objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Minimise.
    Min,
    /// Maximise.
    Max,
}

/// Relation of a row to its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// ≤
    Le,
    /// ≥ (the simulation's covering rows use it)
    Ge,
    /// =
    Eq,
}

/// A sparse row: terms, relation, right-hand side.
type Row = (Vec<(usize, f64)>, Op, f64);

/// A small LP: variables with bounds and objective coefficients, and sparse rows.
#[derive(Clone, Debug)]
pub struct Lp {
    sense: Sense,
    vars: Vec<(f64, f64, f64)>,
    rows: Vec<Row>,
}

/// The answer of an LP.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// An optimal basic solution.
    Optimal {
        /// Variable values.
        x: Vec<f64>,
        /// Objective value.
        objective: f64,
    },
    /// No feasible point.
    Infeasible,
    /// The objective is unbounded.
    Unbounded,
}

impl Lp {
    /// An empty LP.
    pub fn new(sense: Sense) -> Lp {
        Lp {
            sense,
            vars: Vec::new(),
            rows: Vec::new(),
        }
    }
    /// Adds a variable with objective coefficient `obj` and bounds `[lo, hi]`; returns its index.
    pub fn var(&mut self, obj: f64, lo: f64, hi: f64) -> usize {
        self.vars.push((obj, lo, hi));
        self.vars.len() - 1
    }
    /// Adds the row `Σ coef·x op rhs`.
    pub fn row(&mut self, terms: &[(usize, f64)], op: Op, rhs: f64) {
        self.rows.push((terms.to_vec(), op, rhs));
    }
    /// Solves; `Err` only for a solver failure (not for infeasible or unbounded).
    pub fn solve(&self) -> Result<Outcome, Error> {
        if let Some(bad) = self.first_non_finite() {
            return Err(Error::Solver(format!(
                "LP holds a non-finite number ({bad})"
            )));
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            std::panic::catch_unwind(|| backend::solve(self))
                .unwrap_or_else(|_| Err(Error::Solver("the LP solver panicked".into())))
        }
        #[cfg(target_arch = "wasm32")]
        {
            backend::solve(self)
        }
    }

    fn first_non_finite(&self) -> Option<String> {
        for (i, (o, lo, hi)) in self.vars.iter().enumerate() {
            if !o.is_finite() || lo.is_nan() || hi.is_nan() {
                return Some(format!("variable {i}"));
            }
        }
        for (i, (terms, _, rhs)) in self.rows.iter().enumerate() {
            if rhs.is_nan() || terms.iter().any(|(_, c)| !c.is_finite()) {
                return Some(format!("row {i}"));
            }
        }
        None
    }
}

/// `lp` as a `Problem` of the LP crate `$krate` (microlp and minilp share this API for
/// building): the problem and its variables, in `lp`'s order.
macro_rules! build {
    ($krate:ident, $lp:expr) => {{
        use $krate::{ComparisonOp, OptimizationDirection, Problem};
        let lp: &Lp = $lp;
        let mut pb = Problem::new(match lp.sense {
            Sense::Min => OptimizationDirection::Minimize,
            Sense::Max => OptimizationDirection::Maximize,
        });
        let vars: Vec<_> = lp
            .vars
            .iter()
            .map(|&(o, lo, hi)| pb.add_var(o, (lo, hi)))
            .collect();
        for (terms, op, rhs) in &lp.rows {
            let expr: Vec<_> = terms.iter().map(|&(i, c)| (vars[i], c)).collect();
            let op = match op {
                Op::Le => ComparisonOp::Le,
                Op::Ge => ComparisonOp::Ge,
                Op::Eq => ComparisonOp::Eq,
            };
            pb.add_constraint(expr.as_slice(), op, *rhs);
        }
        (pb, vars)
    }};
}

#[cfg(not(feature = "minilp"))]
mod backend {
    use super::*;

    pub fn solve(lp: &Lp) -> Result<Outcome, Error> {
        let (pb, vars) = build!(microlp, lp);
        match pb.solve() {
            Ok(outcome) => match outcome.solution() {
                Some(s) => Ok(Outcome::Optimal {
                    x: vars.iter().map(|&v| s.var_value(v)).collect(),
                    objective: s.objective(),
                }),
                None => Err(Error::Solver("LP solve interrupted".into())),
            },
            Err(microlp::Error::Infeasible) => Ok(Outcome::Infeasible),
            Err(microlp::Error::Unbounded) => Ok(Outcome::Unbounded),
            Err(e) => Err(Error::Solver(format!("LP solver: {e}"))),
        }
    }
}

#[cfg(feature = "minilp")]
mod backend {
    use super::*;

    pub fn solve(lp: &Lp) -> Result<Outcome, Error> {
        let (pb, vars) = build!(minilp, lp);
        match pb.solve() {
            Ok(s) => Ok(Outcome::Optimal {
                x: vars.iter().map(|&v| s[v]).collect(),
                objective: s.objective(),
            }),
            Err(minilp::Error::Infeasible) => Ok(Outcome::Infeasible),
            Err(minilp::Error::Unbounded) => Ok(Outcome::Unbounded),
        }
    }
}

#[cfg(test)]
mod tests;
