//! The LP relaxation of a multi-dimensional knapsack, `max c·x` s.t. `A x ≤ b`, `0 ≤ x ≤ 1`
//! with `A, b, c ≥ 0` and R rows, by a bounded-variable revised simplex.
//!
//! The admission stage solves thousands of these (Frieze–Clarke visits every subset of size
//! ≤ q; branch and bound one per node). A general LP crate builds and factors a model each
//! time; this keeps an R×R basis inverse, prices all columns in O(n·R) per pivot and returns
//! a basic optimum (≤ R fractional entries, which Frieze–Clarke's guarantee needs).
//! Degenerate pivots switch to Bland's rule, so it cannot cycle.

// The basis arithmetic indexes several parallel R-arrays at once.
#![allow(clippy::needless_range_loop)]

/// A basic optimal solution: the objective and x.
#[derive(Clone, Debug, PartialEq)]
pub struct Relaxation {
    /// c·x.
    pub value: f64,
    /// x, in [0, 1].
    pub x: Vec<f64>,
    /// Optimal duals y ≥ 0 of the R rows: for any subset of these items and any capacity
    /// `b'`, the LP value is ≤ `y·b' + Σ max(0, c_j − y·A_j)` (weak duality).
    pub dual: Vec<f64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Lower,
    Upper,
    Basic(usize),
}

/// Above this many items the LP is solved by column generation (see [`solve`]).
pub const COLUMN_GENERATION_MIN: usize = 4096;
/// Columns in the first restricted LP, and most added per round.
const COLUMNS_PER_ROUND: usize = 2048;

/// Solves the relaxation; `a[j]` is column j (item j's demand), `b` the capacity (≥ 0).
///
/// With more than [`COLUMN_GENERATION_MIN`] items (10^5 jobs: a few dozen fit) pricing every
/// column at every pivot dominates, so the LP is solved over the most efficient items, then
/// every other item is priced with that LP's duals and the violators are added until none
/// is left: the answer is a basic optimum of the whole LP (items outside at 0).
pub fn solve<const R: usize>(c: &[f64], a: &[[f64; R]], b: &[f64; R]) -> Relaxation {
    let n = c.len();
    if n <= COLUMN_GENERATION_MIN {
        return dense(c, a, b);
    }
    let tol = 1e-11 * c.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-300);
    // Efficiency: value per unit of capacity-normalised demand (demand-free items first).
    let eff = |j: usize| {
        let w: f64 = (0..R).map(|r| a[j][r] / b[r].max(1e-300)).sum();
        if w > 0.0 {
            c[j] / w
        } else {
            f64::INFINITY
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    let k = COLUMNS_PER_ROUND.min(n);
    order.select_nth_unstable_by(k - 1, |&x, &y| eff(y).total_cmp(&eff(x)).then(x.cmp(&y)));
    let mut set: Vec<usize> = order[..k].to_vec();
    let mut inside = vec![false; n];
    loop {
        set.sort_unstable();
        for &j in &set {
            inside[j] = true;
        }
        let cs: Vec<f64> = set.iter().map(|&j| c[j]).collect();
        let as_: Vec<[f64; R]> = set.iter().map(|&j| a[j]).collect();
        let sub = dense(&cs, &as_, b);
        let y = &sub.dual;
        let mut violators: Vec<(f64, usize)> = (0..n)
            .filter(|&j| !inside[j])
            .map(|j| (c[j] - (0..R).map(|r| y[r] * a[j][r]).sum::<f64>(), j))
            .filter(|&(d, _)| d > tol)
            .collect();
        if violators.is_empty() {
            let mut x = vec![0.0; n];
            for (&j, &v) in set.iter().zip(&sub.x) {
                x[j] = v;
            }
            return Relaxation {
                value: sub.value,
                x,
                dual: sub.dual,
            };
        }
        if violators.len() > COLUMNS_PER_ROUND {
            violators.select_nth_unstable_by(COLUMNS_PER_ROUND - 1, |p, q| {
                q.0.total_cmp(&p.0).then(p.1.cmp(&q.1))
            });
            violators.truncate(COLUMNS_PER_ROUND);
        }
        set.extend(violators.iter().map(|&(_, j)| j));
    }
}

thread_local! {
    /// Columns priced by this thread's simplex so far (see [`work_on_this_thread`]).
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The LP work this thread has done so far: columns priced, summed over every basis of
/// every LP it solved. Deterministic (the same inputs, the same count on every machine),
/// so a test can bound a computation's work where a timer would depend on the machine.
pub fn work_on_this_thread() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// The bounded-variable revised simplex over every column.
fn dense<const R: usize>(c: &[f64], a: &[[f64; R]], b: &[f64; R]) -> Relaxation {
    let n = c.len();
    let tol = 1e-11;
    let mut s = Simplex::new(c, a, b);
    let cmax = c.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-300);
    let mut degenerate = 0usize;
    let mut steps = 100 * (n + R) + 1000;
    let mut priced = Priced::default();
    'basis: while steps > 0 {
        // A bound flip leaves the basis, so the duals and every reduced cost, as they
        // were: the columns are priced once per basis and taken in the order the pricing
        // rule would take them again (most knapsack steps are flips: an item moves to 1).
        let y = s.duals();
        s.price(&y, tol * cmax, &mut priced);
        WORK.with(|w| w.set(w.get() + (n + R) as u64));
        loop {
            if steps == 0 {
                break 'basis;
            }
            steps -= 1;
            // Pricing: Dantzig, or Bland (first improving index) after degenerate pivots.
            let Some(j) = priced.take(degenerate > 2 * R) else {
                break 'basis;
            };
            let theta = s.step(j);
            degenerate = if theta <= 1e-12 { degenerate + 1 } else { 0 };
            if matches!(s.state[j], State::Basic(_)) {
                continue 'basis;
            }
        }
    }
    s.solution()
}

/// The improving columns of one basis with their gains, and which were taken.
#[derive(Default)]
struct Priced {
    /// (column, gain) in column order, `None` once taken.
    cols: Vec<Option<(usize, f64)>>,
    /// Positions in `cols` by gain, the largest first and the first column among equal
    /// gains first: Dantzig's order, taken in O(log n) a step.
    by_gain: std::collections::BinaryHeap<(Gain, std::cmp::Reverse<usize>)>,
}

/// A gain (finite, > 0) ordered by `total_cmp`.
#[derive(Clone, Copy, PartialEq)]
struct Gain(f64);

impl Eq for Gain {}

impl PartialOrd for Gain {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Gain {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Priced {
    /// The next column to enter: the first untaken (Bland) or the untaken of the largest
    /// gain, the first among equal gains (Dantzig); `None` when every improving column was
    /// taken.
    fn take(&mut self, bland: bool) -> Option<usize> {
        let k = if bland {
            // Rare (after degenerate pivots): a scan.
            self.cols.iter().position(Option::is_some)?
        } else {
            loop {
                let (_, std::cmp::Reverse(k)) = self.by_gain.pop()?;
                if self.cols[k].is_some() {
                    break k;
                }
            }
        };
        self.cols[k].take().map(|(j, _)| j)
    }
}

/// The simplex's state. Variables 0..n are the items (0 ≤ x ≤ 1), n..n+R the slacks of the
/// rows (x ≥ 0).
struct Simplex<'a, const R: usize> {
    c: &'a [f64],
    a: &'a [[f64; R]],
    n: usize,
    state: Vec<State>,
    /// The basic variable of each row.
    basis: [usize; R],
    /// B⁻¹.
    binv: [[f64; R]; R],
    /// The basic variables' values.
    xb: [f64; R],
}

impl<'a, const R: usize> Simplex<'a, R> {
    /// The slack basis: every item at 0.
    fn new(c: &'a [f64], a: &'a [[f64; R]], b: &[f64; R]) -> Self {
        let n = c.len();
        let mut s = Simplex {
            c,
            a,
            n,
            state: vec![State::Lower; n + R],
            basis: [0usize; R],
            binv: [[0.0; R]; R],
            xb: [0.0; R],
        };
        for r in 0..R {
            s.basis[r] = n + r;
            s.state[n + r] = State::Basic(r);
            s.binv[r][r] = 1.0;
            s.xb[r] = b[r].max(0.0);
        }
        s
    }

    /// Column j of [A | I].
    fn col(&self, j: usize) -> [f64; R] {
        if j < self.n {
            self.a[j]
        } else {
            let mut e = [0.0; R];
            e[j - self.n] = 1.0;
            e
        }
    }

    fn cost(&self, j: usize) -> f64 {
        if j < self.n {
            self.c[j]
        } else {
            0.0
        }
    }

    fn upper(&self, j: usize) -> f64 {
        if j < self.n {
            1.0
        } else {
            f64::INFINITY
        }
    }

    /// Duals y = c_B · B⁻¹.
    fn duals(&self) -> [f64; R] {
        let mut y = [0.0; R];
        for (r, &bj) in self.basis.iter().enumerate() {
            let cb = self.cost(bj);
            if cb != 0.0 {
                for k in 0..R {
                    y[k] += cb * self.binv[r][k];
                }
            }
        }
        y
    }

    /// Every column whose reduced cost improves by more than `tol` at duals `y`, with its
    /// gain, into `out` (in column order and by gain; none taken).
    fn price(&self, y: &[f64; R], tol: f64, out: &mut Priced) {
        out.cols.clear();
        for j in 0..self.n + R {
            if matches!(self.state[j], State::Basic(_)) {
                continue;
            }
            let aj = self.col(j);
            let d = self.cost(j) - (0..R).map(|k| y[k] * aj[k]).sum::<f64>();
            let gain = match self.state[j] {
                State::Lower if d > tol => d,
                State::Upper if d < -tol => -d,
                _ => continue,
            };
            out.cols.push(Some((j, gain)));
        }
        let mut heap = std::mem::take(&mut out.by_gain).into_vec();
        heap.clear();
        heap.extend(
            out.cols
                .iter()
                .enumerate()
                .filter_map(|(k, c)| c.map(|(_, g)| (Gain(g), std::cmp::Reverse(k)))),
        );
        out.by_gain = heap.into();
    }

    /// Moves the entering variable j off its bound as far as the ratio test allows: a bound
    /// flip, or a pivot. Returns the step θ.
    fn step(&mut self, j: usize) -> f64 {
        // Direction of x_B per unit step of the entering variable.
        let aj = self.col(j);
        let sign = if self.state[j] == State::Upper {
            -1.0
        } else {
            1.0
        };
        let mut alpha = [0.0; R];
        for r in 0..R {
            alpha[r] = (0..R).map(|k| self.binv[r][k] * aj[k]).sum();
        }
        let (theta, leave) = self.ratio_test(j, sign, &alpha);
        for r in 0..R {
            self.xb[r] -= sign * alpha[r] * theta;
        }
        match leave {
            None => {
                // Bound flip: the entering variable moves to its other bound.
                self.state[j] = if self.state[j] == State::Upper {
                    State::Lower
                } else {
                    State::Upper
                };
            }
            Some((r, to)) => {
                let entering_value = if self.state[j] == State::Upper {
                    1.0 - theta
                } else {
                    theta
                };
                self.state[self.basis[r]] = to;
                self.basis[r] = j;
                self.state[j] = State::Basic(r);
                self.pivot(r, &alpha);
                self.xb[r] = entering_value;
            }
        }
        theta
    }

    /// The ratio test: the entering bound flip, or a basic variable hitting a bound (its row
    /// and the bound it leaves at).
    fn ratio_test(&self, j: usize, sign: f64, alpha: &[f64; R]) -> (f64, Option<(usize, State)>) {
        let mut theta = self.upper(j);
        let mut leave: Option<(usize, State)> = None;
        for r in 0..R {
            let rate = -sign * alpha[r];
            if rate < -1e-12 {
                let t = self.xb[r].max(0.0) / -rate;
                if t < theta {
                    theta = t;
                    leave = Some((r, State::Lower));
                }
            } else if rate > 1e-12 {
                let t = (self.upper(self.basis[r]) - self.xb[r]).max(0.0) / rate;
                if t < theta {
                    theta = t;
                    leave = Some((r, State::Upper));
                }
            }
        }
        (theta, leave)
    }

    /// Pivots B⁻¹ on row r with column alpha.
    fn pivot(&mut self, r: usize, alpha: &[f64; R]) {
        let binv = &mut self.binv;
        let p = alpha[r];
        for k in 0..R {
            binv[r][k] /= p;
        }
        for i in 0..R {
            if i != r && alpha[i] != 0.0 {
                let f = alpha[i];
                for k in 0..R {
                    binv[i][k] -= f * binv[r][k];
                }
            }
        }
    }

    /// The basic solution: x, c·x and the duals (clamped at 0).
    fn solution(&self) -> Relaxation {
        let x: Vec<f64> = (0..self.n)
            .map(|j| match self.state[j] {
                State::Lower => 0.0,
                State::Upper => 1.0,
                State::Basic(r) => self.xb[r].clamp(0.0, 1.0),
            })
            .collect();
        let value = self.c.iter().zip(&x).map(|(c, x)| c * x).sum();
        let mut dual = vec![0.0; R];
        for (r, &bj) in self.basis.iter().enumerate() {
            for k in 0..R {
                dual[k] += self.cost(bj) * self.binv[r][k];
            }
        }
        Relaxation {
            value,
            x,
            dual: dual.into_iter().map(|y| y.max(0.0)).collect(),
        }
    }
}

#[cfg(test)]
mod tests;
