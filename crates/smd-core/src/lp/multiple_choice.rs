//! The multiple-choice packing LP: groups of options; each group takes a convex combination
//! of its options (weights ≥ 0 summing to 1) and the weighted demands fit a capacity:
//!
//! ```text
//! max Σ_g Σ_o v_go·y_go   s.t.   Σ_o y_go = 1 (every group g),   Σ_go d_go·y_go ≤ C,   y ≥ 0
//! ```
//!
//! with R resources (R small: the simulation's four). Solved by the primal simplex with
//! generalized upper bounds (Dantzig & Van Slyke, 1967): every group keeps one basic "key"
//! option, eliminated through its group's row, so the simplex works on an R×R basis however
//! many groups there are, and a pivot costs one pass over the options (pricing) plus R×R
//! work. A general LP crate factors a basis of (groups + R) rows instead; the `locality`
//! policy solves one of these per slot (docs/MODEL.md §17), where that was most of a run.
//!
//! Every group must hold an option of zero demand (the start: every group at such an
//! option, every capacity slack basic). Degenerate pivots switch to Bland's rule on the
//! whole problem's variables (the slacks, then the options group by group), so it cannot
//! cycle. The answer is checked before it is returned (weights, group sums, capacity);
//! a failure of that check, a singular basis or the pivot limit are [`Error::Solver`], for
//! the caller to fall back on a general LP.

// The basis arithmetic indexes several parallel R-arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;

/// One option of a group: its objective value and its demand of each resource.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice<const R: usize> {
    /// Objective coefficient.
    pub value: f64,
    /// Demand per resource (≥ 0).
    pub demand: [f64; R],
}

/// A basic optimal solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<const R: usize> {
    /// The objective, Σ v·y.
    pub value: f64,
    /// Per group, its options of positive weight as (option index, weight), by index; the
    /// weights of a group sum to 1 (to rounding). At most R groups mix several options.
    pub weights: Vec<Vec<(usize, f64)>>,
    /// Optimal prices π ≥ 0 of the capacity rows: for any capacity C', the LP value is at
    /// most `π·C' + Σ_g max_o (v_go − π·d_go)` (weak duality), with equality at C' = C.
    pub dual: [f64; R],
}

/// A variable of the whole problem: a capacity row's slack, or option `o` of group `g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    Slack(usize),
    Opt(usize, usize),
}

/// Solves the LP; see the module's documentation for what it requires.
pub fn solve<const R: usize>(
    groups: &[Vec<Choice<R>>],
    cap: &[f64; R],
) -> Result<Solution<R>, Error> {
    check(groups, cap)?;
    let mut s = Simplex::new(groups, cap);
    let options: usize = groups.iter().map(Vec::len).sum();
    let vmax = groups
        .iter()
        .flatten()
        .fold(0.0_f64, |m, c| m.max(c.value.abs()))
        .max(1e-300);
    let tol = 1e-11 * vmax;
    let mut degenerate = 0usize;
    let mut spare = Vec::new();
    for _ in 0..50 * (options + R) + 1000 {
        let point = s.point(spare)?;
        let Some(q) = s.entering(&point.pi, degenerate > 2 * R, tol) else {
            return s.solution(&point);
        };
        let theta = s.step(q, &point)?;
        spare = point.key_weight;
        degenerate = if theta <= 1e-12 { degenerate + 1 } else { 0 };
    }
    Err(Error::Solver(
        "multiple-choice LP: pivot limit reached".into(),
    ))
}

fn check<const R: usize>(groups: &[Vec<Choice<R>>], cap: &[f64; R]) -> Result<(), Error> {
    if let Some(r) = (0..R).find(|&r| !(cap[r].is_finite() && cap[r] >= 0.0)) {
        return Err(Error::Solver(format!(
            "multiple-choice LP: capacity {r} is {} (must be finite and ≥ 0)",
            cap[r]
        )));
    }
    for (g, options) in groups.iter().enumerate() {
        for (o, c) in options.iter().enumerate() {
            // (One pass, no early exit per resource: every solve checks every option.)
            let demand_ok = c
                .demand
                .iter()
                .fold(true, |ok, d| ok & d.is_finite() & (*d >= 0.0));
            if !(c.value.is_finite() & demand_ok) {
                return Err(Error::Solver(format!(
                    "multiple-choice LP: group {g} option {o} holds a non-finite or negative number"
                )));
            }
        }
        if !options.iter().any(|c| c.demand.iter().all(|&d| d == 0.0)) {
            return Err(Error::Solver(format!(
                "multiple-choice LP: group {g} has no option of zero demand"
            )));
        }
    }
    Ok(())
}

/// The current basic solution and prices.
struct Point<const R: usize> {
    /// The working basis' inverse.
    binv: [[f64; R]; R],
    /// Values of the working basic variables.
    z: [f64; R],
    /// Value of each group's key (1 but for groups with working basic options).
    key_weight: Vec<f64>,
    /// Prices of the capacity rows.
    pi: [f64; R],
}

struct Simplex<'a, const R: usize> {
    groups: &'a [Vec<Choice<R>>],
    cap: [f64; R],
    /// Index of group g's first option among all variables (after the R slacks).
    offset: Vec<usize>,
    /// Each group's key option.
    key: Vec<usize>,
    /// The basic variables besides the keys: R of them (slacks or non-key options).
    work: [Var; R],
    /// A pivot's groups whose keys move (a buffer kept between pivots).
    touched: Vec<usize>,
}

impl<'a, const R: usize> Simplex<'a, R> {
    /// Every group at one option, every slack basic.
    fn new(groups: &'a [Vec<Choice<R>>], cap: &[f64; R]) -> Self {
        let mut offset = Vec::with_capacity(groups.len());
        let mut next = R;
        for options in groups {
            offset.push(next);
            next += options.len();
        }
        // Crash: group by group, the most valuable option that still fits (a zero-demand
        // one always does), so a roomy capacity starts at or near its optimum.
        let mut left = *cap;
        let key = groups
            .iter()
            .map(|options| {
                let mut best = options
                    .iter()
                    .position(|c| c.demand.iter().all(|&d| d == 0.0))
                    .unwrap_or(0);
                for (o, c) in options.iter().enumerate() {
                    if c.value > options[best].value && (0..R).all(|r| c.demand[r] <= left[r]) {
                        best = o;
                    }
                }
                for r in 0..R {
                    left[r] -= options[best].demand[r];
                }
                best
            })
            .collect();
        Simplex {
            groups,
            cap: *cap,
            offset,
            key,
            work: std::array::from_fn(Var::Slack),
            touched: Vec::new(),
        }
    }

    fn choice(&self, g: usize, o: usize) -> &Choice<R> {
        &self.groups[g][o]
    }

    /// A variable's column in the key-eliminated problem, and its objective coefficient.
    fn column(&self, v: Var) -> ([f64; R], f64) {
        match v {
            Var::Slack(r) => {
                let mut e = [0.0; R];
                e[r] = 1.0;
                (e, 0.0)
            }
            Var::Opt(g, o) => {
                let (c, k) = (self.choice(g, o), self.choice(g, self.key[g]));
                (
                    std::array::from_fn(|r| c.demand[r] - k.demand[r]),
                    c.value - k.value,
                )
            }
        }
    }

    fn index(&self, v: Var) -> usize {
        match v {
            Var::Slack(r) => r,
            Var::Opt(g, o) => self.offset[g] + o,
        }
    }

    /// Factors the working basis and computes the basic solution and the prices.
    /// `key_weight` is a buffer to fill (the last point's, so a pivot allocates none).
    fn point(&self, mut key_weight: Vec<f64>) -> Result<Point<R>, Error> {
        let mut b = [[0.0; R]; R];
        let mut cost = [0.0; R];
        for (i, &v) in self.work.iter().enumerate() {
            let (col, c) = self.column(v);
            for r in 0..R {
                b[r][i] = col[r];
            }
            cost[i] = c;
        }
        let binv =
            invert(b).ok_or_else(|| Error::Solver("multiple-choice LP: singular basis".into()))?;
        let mut rhs = self.cap;
        for (g, &k) in self.key.iter().enumerate() {
            let d = &self.choice(g, k).demand;
            for r in 0..R {
                rhs[r] -= d[r];
            }
        }
        let z: [f64; R] = std::array::from_fn(|i| (0..R).map(|r| binv[i][r] * rhs[r]).sum());
        key_weight.clear();
        key_weight.resize(self.groups.len(), 1.0);
        for (i, &v) in self.work.iter().enumerate() {
            if let Var::Opt(g, _) = v {
                key_weight[g] -= z[i];
            }
        }
        let pi = std::array::from_fn(|r| (0..R).map(|i| cost[i] * binv[i][r]).sum());
        Ok(Point {
            binv,
            z,
            key_weight,
            pi,
        })
    }

    /// The entering variable, whose reduced cost exceeds `tol`: the largest (Dantzig) or the
    /// first by index (Bland); `None` at an optimum.
    fn entering(&self, pi: &[f64; R], bland: bool, tol: f64) -> Option<Var> {
        let priced = |d: &[f64; R]| {
            let mut s = 0.0;
            for r in 0..R {
                s += pi[r] * d[r];
            }
            s
        };
        let mut best: Option<(Var, f64)> = None;
        for r in 0..R {
            let (v, rc) = (Var::Slack(r), -pi[r]);
            if rc > tol && best.is_none_or(|(_, b)| rc > b) && !self.work.contains(&v) {
                if bland {
                    return Some(v);
                }
                best = Some((v, rc));
            }
        }
        for (g, options) in self.groups.iter().enumerate() {
            let k = self.key[g];
            let base = options[k].value - priced(&options[k].demand);
            for (o, c) in options.iter().enumerate() {
                let rc = c.value - priced(&c.demand) - base;
                if rc > tol && o != k && best.is_none_or(|(_, b)| bland || rc > b) {
                    let v = Var::Opt(g, o);
                    if !self.work.contains(&v) {
                        if bland {
                            return Some(v);
                        }
                        best = Some((v, rc));
                    }
                }
            }
        }
        best.map(|(v, _)| v)
    }

    /// Moves the entering variable up as far as the ratio test allows and pivots; returns the
    /// step θ.
    fn step(&mut self, q: Var, p: &Point<R>) -> Result<f64, Error> {
        let (a, _) = self.column(q);
        let alpha: [f64; R] = std::array::from_fn(|i| (0..R).map(|r| p.binv[i][r] * a[r]).sum());
        // Pivots this small next to the column (or to a key's unit rate) are round-off:
        // taking one would make the next basis (numerically) singular.
        let eps = 1e-9 * alpha.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
        // Candidates to leave: (ratio, index for ties, what leaves).
        enum Leave {
            Work(usize),
            Key(usize),
        }
        let mut best: Option<(f64, usize, Leave)> = None;
        let mut offer = |t: f64, idx: usize, l: Leave| {
            let take = match &best {
                None => true,
                Some((bt, bi, _)) => t < bt - 1e-13 || (t <= bt + 1e-13 && idx < *bi),
            };
            if take {
                best = Some((t, idx, l));
            }
        };
        for i in 0..R {
            if alpha[i] > eps {
                offer(
                    p.z[i].max(0.0) / alpha[i],
                    self.index(self.work[i]),
                    Leave::Work(i),
                );
            }
        }
        // Keys move with their group's working options (and the entering option's group).
        // (The buffer is the simplex's, reused from pivot to pivot.)
        let mut touched = std::mem::take(&mut self.touched);
        touched.clear();
        touched.extend(
            self.work
                .iter()
                .chain(std::iter::once(&q))
                .filter_map(|v| match v {
                    Var::Opt(g, _) => Some(*g),
                    Var::Slack(_) => None,
                }),
        );
        touched.sort_unstable();
        touched.dedup();
        for &h in &touched {
            let mut rate: f64 = (0..R)
                .filter(|&i| matches!(self.work[i], Var::Opt(g, _) if g == h))
                .map(|i| alpha[i])
                .sum();
            if matches!(q, Var::Opt(g, _) if g == h) {
                rate -= 1.0;
            }
            if rate < -eps {
                offer(
                    p.key_weight[h].max(0.0) / -rate,
                    self.index(Var::Opt(h, self.key[h])),
                    Leave::Key(h),
                );
            }
        }
        self.touched = touched;
        let Some((theta, _, leave)) = best else {
            return Err(Error::Solver("multiple-choice LP: unbounded ray".into()));
        };
        match leave {
            Leave::Work(i) => self.work[i] = q,
            Leave::Key(h) => match q {
                // The entering option becomes its own group's key.
                Var::Opt(g, o) if g == h => self.key[h] = o,
                _ => {
                    // Another basic option of the group becomes its key; the entering
                    // variable takes its place in the working basis.
                    let i = (0..R)
                        .find(|&i| matches!(self.work[i], Var::Opt(g, _) if g == h))
                        .ok_or_else(|| Error::Solver("multiple-choice LP: lost key".into()))?;
                    let Var::Opt(_, o) = self.work[i] else {
                        unreachable!("matched an option above")
                    };
                    self.key[h] = o;
                    self.work[i] = q;
                }
            },
        }
        Ok(theta)
    }

    /// The solution at an optimal point, checked.
    fn solution(&self, p: &Point<R>) -> Result<Solution<R>, Error> {
        let mut weights: Vec<Vec<(usize, f64)>> = self
            .key
            .iter()
            .zip(&p.key_weight)
            .map(|(&k, &w)| vec![(k, w)])
            .collect();
        for (i, &v) in self.work.iter().enumerate() {
            if let Var::Opt(g, o) = v {
                weights[g].push((o, p.z[i]));
            }
        }
        let mut value = 0.0;
        let mut used = [0.0; R];
        for (g, ws) in weights.iter_mut().enumerate() {
            let sum: f64 = ws.iter().map(|w| w.1).sum();
            if ws.iter().any(|w| w.1 < -1e-9) || (sum - 1.0).abs() > 1e-9 {
                return Err(Error::Solver(format!(
                    "multiple-choice LP: group {g}'s weights are off ({ws:?})"
                )));
            }
            ws.retain(|w| w.1 > 0.0);
            ws.sort_unstable_by_key(|w| w.0);
            for &(o, w) in ws.iter() {
                let c = self.choice(g, o);
                value += c.value * w;
                for r in 0..R {
                    used[r] += c.demand[r] * w;
                }
            }
        }
        if let Some(r) = (0..R).find(|&r| used[r] > self.cap[r] + 1e-9 * self.cap[r].max(1.0)) {
            return Err(Error::Solver(format!(
                "multiple-choice LP: resource {r} over capacity ({} > {})",
                used[r], self.cap[r]
            )));
        }
        Ok(Solution {
            value,
            weights,
            dual: p.pi.map(|y| y.max(0.0)),
        })
    }
}

/// The inverse of a small matrix by Gauss–Jordan elimination with partial pivoting; `None`
/// when a pivot is (numerically) zero.
fn invert<const R: usize>(mut m: [[f64; R]; R]) -> Option<[[f64; R]; R]> {
    let mut inv = [[0.0; R]; R];
    for r in 0..R {
        inv[r][r] = 1.0;
    }
    // A pivot is zero when it is round-off next to its column's largest entry.
    let scale: [f64; R] =
        std::array::from_fn(|c| (0..R).fold(0.0_f64, |s, r| s.max(m[r][c].abs())));
    for c in 0..R {
        let p = (c..R).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        // (NaN, too, is no pivot.)
        if m[p][c].abs().partial_cmp(&(1e-11 * scale[c])) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        m.swap(p, c);
        inv.swap(p, c);
        let d = m[c][c];
        for k in 0..R {
            m[c][k] /= d;
            inv[c][k] /= d;
        }
        for r in 0..R {
            if r != c && m[r][c] != 0.0 {
                let f = m[r][c];
                for k in 0..R {
                    m[r][k] -= f * m[c][k];
                    inv[r][k] -= f * inv[c][k];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests;
