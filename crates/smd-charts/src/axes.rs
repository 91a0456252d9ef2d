//! Axes shared by the charts: tick marks (or grid lines) with their labels along one side
//! of a plot, an optional axis line, and axis titles.
//!
//! A chart makes its [`Tick`]s, usually from a [`Scale`] ([`scale_ticks`]), and draws them
//! with an [`Axis`] placed at the plot's edge:
//!
//! ```text
//! Axis::bottom(plot.bottom()).draw(out, &scale_ticks(&xs, 8));
//! x_title(out, (plot.x + plot.right()) / 2.0, plot.bottom() + 36.0, "time (s)");
//! ```

use crate::format::{fmt_tick, tick_label};
use crate::rect::Rect;
use crate::scale::{linear_ticks, nice_step, Scale};
use crate::svg::{end, frame, group, rule, text_at, text_turned, Tag};

/// One tick: where it stands along its axis (px) and its label.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tick {
    /// Pixel position along the axis (x on a horizontal axis, y on a vertical one).
    pub at: f64,
    /// The label.
    pub label: String,
}

/// The ticks of `scale`: about `target` nice values (see [`Scale::ticks`]), labelled with
/// [`tick_label`] and placed by the scale.
pub(crate) fn scale_ticks(scale: &Scale, target: usize) -> Vec<Tick> {
    scale_ticks_at(scale, target, |v| scale.to_px(v))
}

/// The ticks of `scale`, placed by `place` rather than by the scale (for values shown in
/// one unit on an axis drawn in another).
pub(crate) fn scale_ticks_at(
    scale: &Scale,
    target: usize,
    place: impl Fn(f64) -> f64,
) -> Vec<Tick> {
    let (values, step) = scale.ticks(target);
    values
        .into_iter()
        .map(|v| Tick {
            at: place(v),
            label: tick_label(v, step, scale.log),
        })
        .collect()
}

/// Integer-friendly ticks over the range of `samples` (sorted; e.g. numbers of workers):
/// nice steps of at least 1, with the first sample (and 1) added where the steps start
/// well above it; about `target` of them, placed by `place`.
pub(crate) fn count_ticks(samples: &[f64], target: usize, place: impl Fn(f64) -> f64) -> Vec<Tick> {
    let (Some(&lo), Some(&hi)) = (samples.first(), samples.last()) else {
        return Vec::new();
    };
    let (values, step) = if hi <= lo {
        (vec![lo], 1.0)
    } else {
        let step = nice_step(lo, hi, target).max(1.0);
        let mut t = linear_ticks(lo, hi, step);
        if t.first().is_some_and(|&f| f - lo > step * 0.5) || t.is_empty() {
            t.insert(0, lo);
        }
        if lo == 1.0 && t.first() != Some(&1.0) && t.first().is_some_and(|&f| f - 1.0 >= step * 0.5)
        {
            t.insert(0, 1.0);
        }
        (t, step)
    };
    values
        .into_iter()
        .map(|v| Tick {
            at: place(v),
            label: fmt_tick(v, step),
        })
        .collect()
}

/// The side of the plot an axis runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Below the plot: labels centred under the ticks.
    Bottom,
    /// Left of the plot: labels right-aligned before the ticks.
    Left,
    /// Right of the plot (e.g. a colour bar): labels left-aligned after the ticks.
    Right,
}

/// An axis along one side of a plot. Ticks are short dark marks pointing outwards, or
/// light grid lines across the plot ([`Axis::grid`]); labels have class `tick`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Axis {
    side: Side,
    /// Where the axis stands across: the y of a bottom axis, the x of a left or right one.
    at: f64,
    /// Length of the tick marks, px.
    tick: f64,
    /// Draw grid lines to this coordinate across the plot instead of tick marks.
    grid: Option<f64>,
    /// Distance from the axis to the labels' anchor, px.
    gap: f64,
    /// How far below the tick the labels' baseline is (left and right axes), px.
    shift: f64,
    /// Font size of the labels, px.
    size: f64,
    /// An axis line from `line.0` to `line.1` along the axis.
    line: Option<(f64, f64)>,
}

impl Axis {
    /// A horizontal axis at height `y`, labels 17 px below it.
    pub(crate) fn bottom(y: f64) -> Axis {
        Axis {
            side: Side::Bottom,
            at: y,
            tick: 5.0,
            grid: None,
            gap: 17.0,
            shift: 0.0,
            size: 11.0,
            line: None,
        }
    }

    /// A vertical axis at `x` labelled on its left.
    pub(crate) fn left(x: f64) -> Axis {
        Axis {
            side: Side::Left,
            gap: 8.0,
            shift: 4.0,
            ..Axis::bottom(x)
        }
    }

    /// A vertical axis at `x` labelled on its right, in smaller type (a colour bar's).
    pub(crate) fn right(x: f64) -> Axis {
        Axis {
            side: Side::Right,
            tick: 4.0,
            gap: 6.0,
            shift: 3.5,
            size: 10.0,
            ..Axis::bottom(x)
        }
    }

    /// Sets the distance from the axis to the labels.
    pub(crate) fn gap(self, gap: f64) -> Axis {
        Axis { gap, ..self }
    }

    /// Grid lines (`line.grid`) across the plot up to the coordinate `to` instead of marks.
    pub(crate) fn grid(self, to: f64) -> Axis {
        Axis {
            grid: Some(to),
            ..self
        }
    }

    /// An axis line along the axis from `from` to `to`.
    pub(crate) fn line(self, from: f64, to: f64) -> Axis {
        Axis {
            line: Some((from, to)),
            ..self
        }
    }

    /// Writes the axis line (if any), then each tick's mark or grid line and label.
    pub(crate) fn draw(&self, out: &mut String, ticks: &[Tick]) {
        let at = self.at;
        let horizontal = self.side == Side::Bottom;
        if let Some((a, b)) = self.line {
            if horizontal {
                rule(out, a, at, b, at);
            } else {
                rule(out, at, a, at, b);
            }
        }
        for t in ticks {
            match (self.grid, self.side) {
                (Some(to), _) => {
                    let (x1, y1, x2, y2) = if horizontal {
                        (t.at, at, t.at, to)
                    } else {
                        (at, t.at, to, t.at)
                    };
                    Tag::new(out, "line")
                        .attr("class", "grid")
                        .ends(x1, y1, x2, y2)
                        .attr("stroke", "#e3e3e3")
                        .close();
                }
                (None, Side::Bottom) => rule(out, t.at, at, t.at, at + self.tick),
                (None, Side::Left) => rule(out, at - self.tick, t.at, at, t.at),
                (None, Side::Right) => rule(out, at, t.at, at + self.tick, t.at),
            }
            let (x, y, anchor) = match self.side {
                Side::Bottom => (t.at, at + self.gap, "middle"),
                Side::Left => (at - self.gap, t.at + self.shift, "end"),
                Side::Right => (at + self.gap, t.at + self.shift, "start"),
            };
            text_at(out, x, y, self.size, anchor, "tick", &t.label);
        }
    }
}

/// The axes of a chart `height` px tall around `plot`, in a `g.axes`: `y_ticks` at the left
/// with grid lines across, `x_ticks` below, the frame, and both titles (the x title 10 px
/// above the chart's bottom, the y title 16 px from its left edge).
pub(crate) fn framed_axes(
    out: &mut String,
    plot: Rect,
    height: f64,
    (y_ticks, x_ticks): (&[Tick], &[Tick]),
    (x_label, y_label): (&str, &str),
) {
    group(out, "axes");
    Axis::left(plot.x)
        .gap(7.0)
        .grid(plot.right())
        .draw(out, y_ticks);
    Axis::bottom(plot.bottom()).gap(17.0).draw(out, x_ticks);
    frame(out, plot);
    x_title(out, plot.x + plot.width / 2.0, height - 10.0, x_label);
    y_title(out, 16.0, plot.y + plot.height / 2.0, y_label);
    end(out, "g");
}

/// Writes the title of a horizontal axis, centred on (x, y).
pub(crate) fn x_title(out: &mut String, x: f64, y: f64, text: &str) {
    text_at(out, x, y, 12.5, "middle", "axis-label", text);
}

/// Writes the title of a vertical axis, centred on (x, y) and reading upwards.
pub(crate) fn y_title(out: &mut String, x: f64, y: f64, text: &str) {
    text_turned(out, x, y, 12.5, "axis-label", "#222222", text);
}
