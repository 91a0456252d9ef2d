//! The landscape's layout: where the plot, the colour bar and the legend column go, and
//! the map between pixels and (w, p).

use super::LandscapeOptions;
use crate::rect::Rect;
use crate::scale::Scale;
use smd_core::Landscape;

/// The map between the landscape SVG's pixels and (w, p), exactly as
/// [`landscape_svg`](crate::landscape_svg) draws it (same options ⇒ same geometry).
///
/// Pixels are SVG user units of the chart's `viewBox` (`0 0 width height`); a page that
/// scales the SVG with CSS must scale mouse offsets by `width / clientWidth` first.
/// Sample `(i, j)` (`l.w[i]`, `l.p[j]`) is drawn as a cell centred on its (w, p) whose
/// edges are the midpoints to the neighbouring samples; its values are `l.t[j][i]`,
/// `l.pi[j][i]`, `l.mu[j][i]`. w grows to the right, p upwards.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// Width of the whole chart.
    pub width: f64,
    /// Height of the whole chart.
    pub height: f64,
    /// The plot area (the heatmap's extent).
    pub plot: Rect,
    w_scale: Scale,
    p_scale: Scale,
    w_edges: Vec<f64>,
    p_edges: Vec<f64>,
    /// Numbers of samples along w and p (0 if the landscape has none).
    samples: (usize, usize),
}

impl Geometry {
    /// The pixel of (w, p) (also outside the plot area).
    pub fn to_px(&self, w: f64, p: f64) -> (f64, f64) {
        (self.w_scale.to_px(w), self.p_scale.to_px(p))
    }

    /// The (w, p) under the pixel (x, y), `None` outside the plot area.
    pub fn to_wp(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        if !self.plot.contains(x, y) {
            return None;
        }
        Some((self.w_scale.from_px(x), self.p_scale.from_px(y)))
    }

    /// Indices `(i, j)` into `l.w` and `l.p` of the sample whose cell contains the pixel,
    /// `None` outside the plot area (or if the landscape has no samples).
    pub fn nearest_sample(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (w, p) = self.to_wp(x, y)?;
        if self.samples.0 == 0 || self.samples.1 == 0 {
            return None;
        }
        Some((cell_index(&self.w_edges, w)?, cell_index(&self.p_edges, p)?))
    }

    /// The cell of sample `(i, j)` (`l.w[i]`, `l.p[j]`), `None` if there is no such sample.
    pub fn cell(&self, i: usize, j: usize) -> Option<Rect> {
        if i >= self.samples.0 || j >= self.samples.1 {
            return None;
        }
        let (w0, w1) = (*self.w_edges.get(i)?, *self.w_edges.get(i + 1)?);
        let (p0, p1) = (*self.p_edges.get(j)?, *self.p_edges.get(j + 1)?);
        let (x0, y0) = self.to_px(w0, p1);
        let (x1, y1) = self.to_px(w1, p0);
        Some(Rect {
            x: x0,
            y: y0,
            width: x1 - x0,
            height: y1 - y0,
        })
    }

    /// The w range of the plot area (left, right edge).
    pub fn w_range(&self) -> (f64, f64) {
        (self.w_scale.lo, self.w_scale.hi)
    }

    /// The p range of the plot area (bottom, top edge).
    pub fn p_range(&self) -> (f64, f64) {
        (self.p_scale.lo, self.p_scale.hi)
    }
}

/// Index of the cell of `edges` containing `v` (the last cell includes its right edge).
fn cell_index(edges: &[f64], v: f64) -> Option<usize> {
    let n = edges.len().checked_sub(1).filter(|&n| n > 0)?;
    let k = edges.partition_point(|&e| e <= v);
    Some(k.saturating_sub(1).min(n - 1))
}

/// Cell edges of samples: midpoints between neighbours, half a spacing beyond the ends
/// (spacing 1 for a single sample; the one cell around 1 for no sample, which keeps the
/// axes drawable).
fn edges(samples: &[f64]) -> Vec<f64> {
    let n = samples.len();
    if n == 0 {
        return vec![0.5, 1.5];
    }
    let first_gap = if n > 1 { samples[1] - samples[0] } else { 1.0 };
    let last_gap = if n > 1 {
        samples[n - 1] - samples[n - 2]
    } else {
        1.0
    };
    let mut e = Vec::with_capacity(n + 1);
    e.push(samples[0] - first_gap / 2.0);
    for k in 1..n {
        e.push((samples[k - 1] + samples[k]) / 2.0);
    }
    e.push(samples[n - 1] + last_gap / 2.0);
    e
}

/// Where everything goes.
pub(super) struct Layout {
    pub(super) geometry: Geometry,
    /// The colour bar.
    pub(super) bar: Rect,
    /// Left edge of the legend/search column.
    pub(super) column_x: f64,
}

pub(super) fn layout(l: &Landscape, opts: &LandscapeOptions) -> Layout {
    let (width, height) = (opts.width.max(200.0), opts.height.max(160.0));
    let column_w = (width * 0.29).clamp(150.0, 230.0);
    let bar_zone = 78.0;
    let (left, top, bottom) = (62.0, 42.0, 50.0);
    let plot_w = (width - column_w - bar_zone - left).max(40.0);
    let plot_h = (height - top - bottom).max(40.0);
    let plot = Rect {
        x: left,
        y: top,
        width: plot_w,
        height: plot_h,
    };
    let (w_edges, p_edges) = (edges(&l.w), edges(&l.p));
    let w_scale = Scale {
        lo: w_edges[0],
        hi: *w_edges.last().expect("edges are never empty"),
        px: (plot.x, plot.right()),
        log: false,
    };
    let p_scale = Scale {
        lo: p_edges[0],
        hi: *p_edges.last().expect("edges are never empty"),
        px: (plot.bottom(), plot.y),
        log: false,
    };
    let bar = Rect {
        x: plot.right() + 14.0,
        y: plot.y,
        width: 14.0,
        height: plot.height,
    };
    Layout {
        geometry: Geometry {
            width,
            height,
            plot,
            w_scale,
            p_scale,
            w_edges,
            p_edges,
            samples: (l.w.len(), l.p.len()),
        },
        bar,
        column_x: plot.right() + bar_zone + 8.0,
    }
}
