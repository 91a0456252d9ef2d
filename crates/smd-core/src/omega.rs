//! docs/MODEL.md §5: a job's region `Ω = {w ≥ 1, p ≥ 1, O^w_r·w + O^p_r·p ≤ L_r}`.
//!
//! Membership uses a relative tolerance of [`TOL`] so that a point on the boundary written
//! in decimals (0.1·3 vs 0.3) is inside, the same way everywhere in the crate.

use crate::scenario::Resources;

/// Relative tolerance of every capacity check.
pub const TOL: f64 = 1e-9;

/// `lhs ≤ rhs` up to the crate's tolerance.
#[inline]
pub fn fits(lhs: f64, rhs: f64) -> bool {
    lhs <= rhs + TOL * rhs.abs().max(1.0)
}

/// ⌊x⌋ that does not lose an integer to round-off just below it.
#[inline]
pub fn floor_tol(x: f64) -> f64 {
    (x + TOL * x.abs().max(1.0)).floor()
}

/// A half-plane `a·(w, p) ≤ b`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct HalfPlane {
    /// Coefficients of (w, p).
    pub a: [f64; 2],
    /// Right-hand side.
    pub b: f64,
}

/// The region Ω of one job.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Omega {
    /// O^w per resource.
    pub ow: [f64; 4],
    /// O^p per resource.
    pub op: [f64; 4],
    /// L per resource.
    pub limit: [f64; 4],
}

impl Omega {
    /// Ω for worker demand `ow`, PS demand `op` and limit `limit`.
    pub fn new(ow: Resources, op: Resources, limit: Resources) -> Omega {
        Omega {
            ow: ow.to_array(),
            op: op.to_array(),
            limit: limit.to_array(),
        }
    }

    /// Whether (w, p) is in Ω (reals; relative tolerance 1e-9, as every capacity check).
    pub fn contains(&self, w: f64, p: f64) -> bool {
        w >= 1.0 - TOL
            && p >= 1.0 - TOL
            && (0..4).all(|r| fits(self.ow[r] * w + self.op[r] * p, self.limit[r]))
    }

    /// All constraints of Ω as half-planes: `w ≥ 1`, `p ≥ 1`, then one per resource.
    pub(crate) fn half_planes(&self) -> Vec<HalfPlane> {
        let mut h = vec![
            HalfPlane {
                a: [-1.0, 0.0],
                b: -1.0,
            },
            HalfPlane {
                a: [0.0, -1.0],
                b: -1.0,
            },
        ];
        for r in 0..4 {
            if self.ow[r] > 0.0 || self.op[r] > 0.0 {
                h.push(HalfPlane {
                    a: [self.ow[r], self.op[r]],
                    b: self.limit[r],
                });
            }
        }
        h
    }

    /// Largest real p with (w, p) in Ω, ignoring p ≥ 1 (may be < 1; +∞ if no resource bounds p).
    pub fn p_max(&self, w: f64) -> f64 {
        (0..4)
            .filter(|&r| self.op[r] > 0.0)
            .map(|r| (self.limit[r] - self.ow[r] * w) / self.op[r])
            .fold(f64::INFINITY, f64::min)
    }

    /// Largest real w with (w, p) in Ω, ignoring w ≥ 1.
    pub fn w_max(&self, p: f64) -> f64 {
        (0..4)
            .filter(|&r| self.ow[r] > 0.0)
            .map(|r| (self.limit[r] - self.op[r] * p) / self.ow[r])
            .fold(f64::INFINITY, f64::min)
    }

    /// Largest integer w with (w, 1) in Ω (0 if Ω is empty); agrees with [`Omega::contains`].
    pub fn w_max_int(&self) -> u64 {
        largest_int(self.w_max(1.0), |w| self.contains(w, 1.0))
    }

    /// Largest integer p with (w, p) in Ω for integer w (0 if none); agrees with
    /// [`Omega::contains`].
    pub fn p_max_int(&self, w: u64) -> u64 {
        largest_int(self.p_max(w as f64), |p| self.contains(w as f64, p))
    }

    /// Vertices of Ω (counter-clockwise), empty if Ω is empty.
    pub fn vertices(&self) -> Vec<[f64; 2]> {
        let (w, p) = (self.w_max(1.0), self.p_max(1.0));
        if !(w >= 1.0 - TOL && p >= 1.0 - TOL && w.is_finite() && p.is_finite()) {
            return Vec::new();
        }
        polygon(&self.half_planes(), [[1.0, 1.0], [w.max(1.0), p.max(1.0)]])
    }
}

/// The largest integer k ≥ 1 with `inside(k)`, starting from the real bound `guess`; 0 if
/// not even 1 is inside. Stepping from ⌊guess⌋ keeps it exact under the tolerance of `inside`.
fn largest_int(guess: f64, inside: impl Fn(f64) -> bool) -> u64 {
    if !inside(1.0) {
        return 0;
    }
    let mut k = floor_tol(guess).clamp(1.0, 1e15);
    while k > 1.0 && !inside(k) {
        k -= 1.0;
    }
    while inside(k + 1.0) {
        k += 1.0;
    }
    k as u64
}

/// The polygon `{x ∈ box : a_i·x ≤ b_i}` as its vertices, by clipping the box
/// `[lo, hi]` (a tight box keeps the intersections accurate).
pub fn polygon(planes: &[HalfPlane], bbox: [[f64; 2]; 2]) -> Vec<[f64; 2]> {
    let mut poly = Polygon::from_box(bbox);
    for h in planes {
        poly = poly.clip(h);
        if poly.is_empty() {
            break;
        }
    }
    poly.vertices().to_vec()
}

/// Most vertices a [`Polygon`] holds: a box (4) clipped by Ω's six half-planes and the
/// grid's three needs at most 13.
pub const POLYGON_CAP: usize = 16;

/// A convex polygon, vertices in order, stored inline: clipping allocates nothing, so the
/// fast path clips once per grid point at no cost. The one clipping rule of the crate: a
/// vertex is inside a half-plane within a relative [`TOL`], and consecutive vertices
/// within 1e-12 of each other are merged.
#[derive(Clone, Copy, Debug)]
pub struct Polygon {
    v: [[f64; 2]; POLYGON_CAP],
    n: usize,
}

impl Polygon {
    /// The box `[lo, hi]`, counter-clockwise from `lo`.
    pub fn from_box([lo, hi]: [[f64; 2]; 2]) -> Polygon {
        Polygon::from_vertices(&[lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]])
    }

    /// A polygon with these vertices (in order; at most [`POLYGON_CAP`] are kept).
    pub fn from_vertices(vs: &[[f64; 2]]) -> Polygon {
        let mut p = Polygon {
            v: [[0.0; 2]; POLYGON_CAP],
            n: 0,
        };
        for &x in vs.iter().take(POLYGON_CAP) {
            p.v[p.n] = x;
            p.n += 1;
        }
        p
    }

    /// The vertices, in order.
    pub fn vertices(&self) -> &[[f64; 2]] {
        &self.v[..self.n]
    }

    /// Whether nothing is left.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `self ∩ {a·x ≤ b}`.
    pub fn clip(&self, h: &HalfPlane) -> Polygon {
        let side = |v: &[f64; 2]| h.a[0] * v[0] + h.a[1] * v[1] - h.b;
        let scale = h.a[0].abs().max(h.a[1].abs()).max(h.b.abs()).max(1.0);
        let inside = |s: f64| s <= TOL * scale;
        let mut out = Polygon {
            v: [[0.0; 2]; POLYGON_CAP],
            n: 0,
        };
        let mut push = |x: [f64; 2]| {
            let dup = out.n > 0 && {
                let last = out.v[out.n - 1];
                (x[0] - last[0]).abs() < 1e-12 && (x[1] - last[1]).abs() < 1e-12
            };
            if !dup && out.n < POLYGON_CAP {
                out.v[out.n] = x;
                out.n += 1;
            }
        };
        for i in 0..self.n {
            let cur = self.v[i];
            let nxt = self.v[(i + 1) % self.n];
            let (sc, sn) = (side(&cur), side(&nxt));
            if inside(sc) {
                push(cur);
            }
            if inside(sc) != inside(sn) {
                let t = sc / (sc - sn);
                push([
                    cur[0] + t * (nxt[0] - cur[0]),
                    cur[1] + t * (nxt[1] - cur[1]),
                ]);
            }
        }
        out
    }
}
