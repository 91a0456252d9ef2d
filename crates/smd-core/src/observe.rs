//! Observation of the planner (docs/MODEL.md §20): the [`Observer`] every algorithm reports
//! to and the [`Event`]s it reports. A leaf below the algorithms, so that Algorithms 1 and 2
//! and the knapsacks report to it while the trace recorder (`teach.rs`) sits above the
//! policies that drive them. Every normal plan passes [`Quiet`], which compiles away.

use crate::choice::Rounding;
use crate::cluster::R;
use serde::{Deserialize, Serialize};

/// Hears what the planner does (crate-internal). Every method defaults to nothing, so a
/// normal plan's observer ([`Quiet`]) is removed by the compiler.
pub(crate) trait Observer {
    /// Whether this observer ever listens. Every report is written `if O::LISTENS &&
    /// obs.on() { … }`: on a constant that is false for [`Quiet`], rustc does not even
    /// compile the report, so the code around it is optimised as if it were not there.
    const LISTENS: bool = false;
    /// Whether events are wanted now: code builds an event only when this is true.
    #[inline(always)]
    fn on(&self) -> bool {
        false
    }
    /// One event.
    #[inline(always)]
    fn event(&mut self, _e: Event) {}
    /// The allocation of job `index` (scenario order) starts.
    #[inline(always)]
    fn job(&mut self, _index: usize) {}
    /// The admission starts.
    #[inline(always)]
    fn admission(&mut self) {}
}

/// The observer of every normal plan: hears nothing.
pub(crate) struct Quiet;

impl Observer for Quiet {}

/// The four stages a trace walks through, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// (a) Algorithm 1's steps 1–2: the bounds `l_j`, `φ_j` and the free summand J.
    Bounds,
    /// (b) Algorithm 1's step 3: the ε-grid.
    Grid,
    /// (c) Algorithm 2 (and *polish*): from x̄ to an integer allocation.
    Rounding,
    /// (d) The admission of the whole plan.
    Admission,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 4] = [
        Stage::Bounds,
        Stage::Grid,
        Stage::Rounding,
        Stage::Admission,
    ];

    /// Its name in files and element ids.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Bounds => "bounds",
            Stage::Grid => "grid",
            Stage::Rounding => "rounding",
            Stage::Admission => "admission",
        }
    }
}

/// How a Frieze–Clarke subset S ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SubsetOutcome {
    /// S does not fit the capacity (nor does any superset: it is not extended).
    TooBig,
    /// A bound on `u(S) + LP` cannot beat the best selection: S's LP is not solved.
    Hopeless {
        /// The bound.
        bound: f64,
        /// The best selection's value then.
        best: f64,
    },
    /// S was completed by the LP over the items worth at most `min_S u`, rounded down.
    Filled {
        /// Jobs the rounded-down LP adds to S (scenario indices).
        fill: Vec<usize>,
        /// The LP's fractional entries (job index, x_i), at most R of them.
        fractional: Vec<(usize, f64)>,
        /// Σ u of the selection S ∪ fill.
        total: f64,
        /// Whether it became the best selection.
        best: bool,
    },
}

/// How a branch-and-bound node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NodeOutcome {
    /// Every candidate is fixed: the node is one selection.
    Leaf,
    /// Its LP bound cannot beat the incumbent (or round-off made it overflow).
    Pruned,
    /// Its LP optimum is integral: nothing to branch on.
    Integral,
    /// Branched on this job (scenario index): first with it, then without.
    Branched {
        /// The job branched on.
        item: usize,
    },
}

/// A job as the admission sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdmissionItem {
    /// The job's index in the scenario.
    pub job: usize,
    /// u_i = μ_i(π_i) of its allocation.
    pub value: f64,
    /// D_i over the four resources.
    pub demand: [f64; R],
}

/// One step of a trace. Which stage it belongs to is [`Event::stage`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// (a) (1, 1) ∉ Ω: the job is infeasible; Algorithms 1 and 2 do not run for it.
    Infeasible,
    /// (a) Summand ζ_j (index j, 0-based) with `l_j = min_Ω ζ_j` and `φ_j = max_Ω ζ_j`.
    Summand {
        /// j.
        index: usize,
        /// Its formula, e.g. `θ5/w`.
        name: String,
        /// l_j (floored at 1e-12·T(1, 1) when kept).
        lower: f64,
        /// φ_j.
        upper: f64,
        /// Dropped: φ_j < 1e-12·T(1, 1).
        dropped: bool,
        /// λ_j + 1 grid values; `None` for J and dropped summands.
        grid_size: Option<u64>,
    },
    /// (a) Every summand dropped: T is constant on Ω and x̄ = (1, 1).
    Constant {
        /// T(1, 1), s.
        t: f64,
    },
    /// (a) The free summand J = argmax φ_j / l_j, and the grid of the others.
    Free {
        /// J.
        index: usize,
        /// Its formula.
        name: String,
        /// l_J.
        lower: f64,
        /// φ_J.
        upper: f64,
        /// The gridded summands, in odometer order (the last varies fastest).
        gridded: Vec<usize>,
        /// λ_j per gridded summand.
        lambdas: Vec<u64>,
        /// ε.
        epsilon: f64,
    },
    /// (b) One grid point solved: `min ζ_J` over `P_ν = Ω ∩ {ζ_j ≤ (1+ε)·ν_j}`.
    Point {
        /// Exponents k per gridded summand (ν_j = l_j·(1+ε)^k_j).
        k: Vec<u64>,
        /// ν_j per gridded summand.
        nu: Vec<f64>,
        /// The level planes `a0·w + a1·p ≤ b` as `[a0, a1, b]`, per gridded summand.
        levels: Vec<[f64; 3]>,
        /// The point's answer (least T on its optimal face); `None` if P_ν is empty.
        x: Option<[f64; 2]>,
        /// T there.
        t: Option<f64>,
        /// Whether it became the best point so far.
        best: bool,
    },
    /// (b) A block of grid points the fast path dropped without solving them.
    Pruned {
        /// Lowest exponents per gridded summand.
        lo: Vec<u64>,
        /// Highest exponents.
        hi: Vec<u64>,
        /// ν at `lo`.
        nu_lo: Vec<f64>,
        /// ν at `hi`.
        nu_hi: Vec<f64>,
        /// Grid points in the block.
        points: u64,
        /// Its lower bound on T; `None` when every point of it is infeasible.
        bound: Option<f64>,
        /// The best T then, if any.
        incumbent: Option<f64>,
    },
    /// (b) Algorithm 1's answer x̄, with what the search did.
    Relaxed {
        /// x̄ = (w̄, p̄).
        x: [f64; 2],
        /// T(x̄), s.
        t: f64,
        /// The winning exponents.
        k: Vec<u64>,
        /// The winning ν per gridded summand.
        nu: Vec<f64>,
        /// Π(λ_j + 1).
        grid_points: u64,
        /// Grid points solved.
        solved: u64,
        /// Blocks pruned (fast path).
        pruned_blocks: u64,
        /// Grid points in them.
        pruned_points: u64,
        /// Grid steps (points or blocks) over the trace's cap, not recorded.
        omitted: u64,
    },
    /// (c) *Polish*: p̄ replaced by the exact minimiser of T in p at w = w̄ if T does not rise.
    Polish {
        /// x̄ before polish.
        x: [f64; 2],
        /// The minimiser p.
        p: f64,
        /// T(x̄).
        t_before: f64,
        /// T(w̄, p).
        t_after: f64,
        /// Whether p̄ was replaced.
        applied: bool,
    },
    /// (c) x̃ = 1 + (x̄ − 1)/M_δ, the point Algorithm 2 rounds.
    Scaled {
        /// x̄ (after polish).
        x: [f64; 2],
        /// M_δ.
        m_delta: f64,
        /// x̃.
        scaled: [f64; 2],
        /// The rounding rule.
        rule: Rounding,
    },
    /// (c) One draw of the paper's rule: each coordinate rounded up when its coin is below
    /// its fractional part.
    Draw {
        /// Attempt number, from 1.
        attempt: u32,
        /// The two uniform numbers in [0, 1).
        coins: [f64; 2],
        /// Rounded up, per coordinate.
        up: [bool; 2],
        /// Workers drawn.
        w: u64,
        /// PS drawn.
        p: u64,
        /// Whether (w, p) ∈ Ω (then it is taken).
        inside: bool,
    },
    /// (c) One corner of x̃ tried by *best corner*.
    Corner {
        /// Workers.
        w: u64,
        /// PS.
        p: u64,
        /// Whether (w, p) ∈ Ω.
        inside: bool,
        /// T there, when inside.
        t: Option<f64>,
    },
    /// (c) Algorithm 2's integer point.
    Rounded {
        /// Workers.
        w: u64,
        /// PS.
        p: u64,
        /// Draws made (the cap when it fell back; 1 for best corner).
        attempts: u32,
        /// ⌊x̃⌋ taken after the cap.
        fallback: bool,
        /// Draws over the trace's cap, not recorded.
        omitted: u32,
    },
    /// (c) The job's candidate for admission: (w, p) with its T, π and utility u = μ(π).
    Allocated {
        /// Workers.
        w: u64,
        /// PS.
        p: u64,
        /// T, s.
        t: f64,
        /// π.
        pi: f64,
        /// u = μ(π).
        utility: f64,
    },
    /// (d) The knapsack: the candidates (positive utility, fitting alone) and the capacity.
    Candidates {
        /// The candidates, in scenario order.
        items: Vec<AdmissionItem>,
        /// The capacity per resource.
        capacity: [f64; R],
        /// Frieze–Clarke's depth q, or `None` for branch and bound.
        depth: Option<u32>,
        /// The LP relaxation's value over the candidates: no selection is worth more (0 in a
        /// trace written before it was recorded).
        #[serde(default)]
        bound: f64,
    },
    /// (d) A Frieze–Clarke subset S (of at most q candidates) reached.
    Subset {
        /// S's jobs (scenario indices).
        members: Vec<usize>,
        /// u(S).
        value: f64,
        /// What became of it.
        outcome: SubsetOutcome,
    },
    /// (d) A branch-and-bound node expanded.
    Node {
        /// Its number, from 1.
        number: u64,
        /// Jobs fixed in (x_i = 1).
        ones: usize,
        /// Candidates fixed out (x_i = 0).
        zeros: usize,
        /// Its LP bound (`None` for a leaf).
        bound: Option<f64>,
        /// The incumbent's value after it.
        incumbent: f64,
        /// The best bound over the nodes still open (≥ the optimum).
        open_bound: f64,
        /// How it ended.
        outcome: NodeOutcome,
    },
    /// (d) The admission's decision.
    Admitted {
        /// The admitted jobs (scenario indices).
        chosen: Vec<usize>,
        /// Σ u_i of them.
        value: f64,
        /// Proven value / optimum of the knapsack.
        guarantee: f64,
        /// Whether the knapsack's optimum is proven.
        proven_optimal: bool,
        /// The gap when branch and bound stopped at its node limit.
        gap: Option<f64>,
        /// Subsets or nodes.
        nodes: u64,
        /// Admission steps over the trace's cap, not recorded.
        omitted: u64,
    },
}

impl Event {
    /// The stage the step belongs to.
    pub fn stage(&self) -> Stage {
        match self {
            Event::Infeasible
            | Event::Summand { .. }
            | Event::Constant { .. }
            | Event::Free { .. } => Stage::Bounds,
            Event::Point { .. } | Event::Pruned { .. } | Event::Relaxed { .. } => Stage::Grid,
            Event::Polish { .. }
            | Event::Scaled { .. }
            | Event::Draw { .. }
            | Event::Corner { .. }
            | Event::Rounded { .. }
            | Event::Allocated { .. } => Stage::Rounding,
            Event::Candidates { .. }
            | Event::Subset { .. }
            | Event::Node { .. }
            | Event::Admitted { .. } => Stage::Admission,
        }
    }
}
