//! Legends shared by the charts: entries of a key (a marker, a line sample, a swatch) and
//! a label, stacked down a column or flowing along a row; and a colour bar for a value
//! scale.
//!
//! A chart places a [`Legend`], draws each entry's key at [`Legend::key`] (with
//! [`crate::marker::draw`], [`line_key`] or [`swatch`]) and then writes its label with
//! [`Legend::label`] or [`Legend::entry`], which moves on to the next entry.

use crate::axes::{scale_ticks, Axis, Tick};
use crate::palette::viridis;
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{end, frame, text_at, text_turned, text_width, titled_group, Tag};

/// The width a column legend of `names` (11 px labels) takes at a chart's right: the longest
/// label, its line key and the gaps.
pub(crate) fn column_width(names: &[&str]) -> f64 {
    names
        .iter()
        .map(|n| text_width(n, 11.0))
        .fold(0.0_f64, f64::max)
        + 48.0
}

/// The plot area of a `width` × `height` chart with a column legend of `names` at its
/// right: `left` px for the y axis, 36 px above for the title, `bottom` px below for the x
/// axis.
pub(crate) fn plot_beside(width: f64, height: f64, names: &[&str], left: f64, bottom: f64) -> Rect {
    Rect {
        x: left,
        y: 36.0,
        width: (width - column_width(names) - 12.0 - left).max(40.0),
        height: (height - 36.0 - bottom).max(40.0),
    }
}

/// How a legend moves from one entry to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Flow {
    /// Down a column, one entry every so many px.
    Down(f64),
    /// Along a row, each entry as wide as its key and label plus a gap of so many px.
    Across(f64),
}

/// Where the next legend entry goes, and how its label is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Legend {
    /// Left edge of the current entry's key.
    x: f64,
    /// Centre line of the current entry.
    y: f64,
    flow: Flow,
    /// Room for the key left of each label, px.
    key_width: f64,
    /// How far below the centre line the labels' baseline is, px.
    dy: f64,
    /// Font size of the labels, px.
    size: f64,
    /// Shrink a label (down to 8 px type) so that it ends 4 px before this x.
    fit: Option<f64>,
}

impl Legend {
    /// A legend whose first entry is centred on `y` with its key at `x`, the next ones
    /// every `row` px below.
    pub(crate) fn column(x: f64, y: f64, row: f64) -> Legend {
        Legend {
            x,
            y,
            flow: Flow::Down(row),
            key_width: 20.0,
            dy: 4.0,
            size: 11.0,
            fit: None,
        }
    }

    /// A legend along the baseline `y` from `x`, `gap` px between an entry's label and the
    /// next entry's key.
    pub(crate) fn row(x: f64, y: f64, gap: f64) -> Legend {
        Legend {
            flow: Flow::Across(gap),
            dy: 0.0,
            ..Legend::column(x, y, 0.0)
        }
    }

    /// Sets the room for the key left of each label.
    pub(crate) fn key_width(self, key_width: f64) -> Legend {
        Legend { key_width, ..self }
    }

    /// Shrinks long labels to end before `right` (less a 4 px margin).
    pub(crate) fn fit(self, right: f64) -> Legend {
        Legend {
            fit: Some(right),
            ..self
        }
    }

    /// Where the current entry's key goes: its left edge and centre line.
    pub(crate) fn key(&self) -> (f64, f64) {
        (self.x, self.y)
    }

    /// Writes the current entry's label (`text.legend-label`) and moves to the next entry.
    pub(crate) fn label(&mut self, out: &mut String, text: &str) {
        let x = self.x + self.key_width;
        let size = match self.fit {
            Some(right) => ((right - x - 4.0) / text_width(text, 1.0)).clamp(8.0, self.size),
            None => self.size,
        };
        text_at(
            out,
            x,
            self.y + self.dy,
            size,
            "start",
            "legend-label",
            text,
        );
        match self.flow {
            Flow::Down(row) => self.y += row,
            Flow::Across(gap) => self.x += self.key_width + text_width(text, self.size) + gap,
        }
    }

    /// Writes the current entry's label inside a `g.legend-entry` with `data-marker` = `key`
    /// and the tooltip `tip`, and moves to the next entry.
    pub(crate) fn entry(&mut self, out: &mut String, key: &str, text: &str, tip: &str) {
        titled_group(out, "legend-entry", &[("data-marker", &key)], tip, |out| {
            self.label(out, text)
        });
    }
}

/// Writes a line sample from (x, y), `length` px long: the key of a series or an outline.
pub(crate) fn line_key(
    out: &mut String,
    (x, y): (f64, f64),
    length: f64,
    stroke: &str,
    width: f64,
    dash: Option<&str>,
) {
    let mut t = Tag::new(out, "line")
        .ends(x, y, x + length, y)
        .attr("stroke", stroke)
        .px("stroke-width", width);
    if let Some(dash) = dash {
        t = t.attr("stroke-dasharray", dash);
    }
    t.close();
}

/// Starts a filled rectangle, the key of an area; the caller may add a stroke and closes
/// it.
pub(crate) fn swatch<'a>(out: &'a mut String, r: Rect, fill: &str) -> Tag<'a> {
    Tag::new(out, "rect").rect(r).attr("fill", fill)
}

/// A colour bar (`g.colour-bar`) for `scale` in `bar`: the viridis ramp from the scale's
/// low end (bottom) to its high end, ticks on its right, `label` above. Without a scale
/// (nothing to colour) it is an empty box saying `empty`.
pub(crate) fn colour_bar(
    out: &mut String,
    bar: &Rect,
    scale: Option<&Scale>,
    label: &str,
    empty: &str,
) {
    let ticks = scale.map(|s| (s, scale_ticks(s, ((bar.height / 40.0) as usize).max(2))));
    colour_bar_with(out, bar, ticks, label, empty);
}

/// [`colour_bar`] with its ticks given (e.g. labelled in another unit than the scale's).
pub(crate) fn colour_bar_with(
    out: &mut String,
    bar: &Rect,
    scale: Option<(&Scale, Vec<Tick>)>,
    label: &str,
    empty: &str,
) {
    let (scale, ticks) = match scale {
        Some((s, t)) => (Some(s), t),
        None => (None, Vec::new()),
    };
    let mut g = Tag::new(out, "g").attr("class", "colour-bar");
    if let Some(s) = scale {
        g = g
            .attr("data-lo", s.lo)
            .attr("data-hi", s.hi)
            .attr("data-log", s.log);
    }
    let out = g.open();
    text_at(
        out,
        bar.x - 2.0,
        bar.y - 8.0,
        11.0,
        "start",
        "colour-bar-label",
        label,
    );
    match scale {
        None => {
            swatch(out, *bar, "#f0f0f0")
                .attr("stroke", "#999999")
                .close();
            let (x, y) = (bar.x + 11.0, bar.y + bar.height / 2.0);
            text_turned(out, x, y, 10.0, "colour-bar-empty", "#555555", empty);
        }
        Some(_) => {
            let n = 64;
            let h = bar.height / n as f64;
            Tag::new(out, "g")
                .attr("shape-rendering", "crispEdges")
                .open();
            for k in 0..n {
                let f = (k as f64 + 0.5) / n as f64;
                let cell = Rect {
                    y: bar.bottom() - (k + 1) as f64 * h,
                    height: h + 0.3,
                    ..*bar
                };
                swatch(out, cell, &viridis(f)).close();
            }
            end(out, "g");
            frame(out, *bar);
            Axis::right(bar.right()).draw(out, &ticks);
        }
    }
    end(out, "g");
}

/// One legend entry per job, `(id, colour)`, from `x` on the line at `y` while they fit
/// before `right`: a swatch `swatch_w` wide drawn by `swatch(out, x, y, colour)`, then the id.
pub(crate) fn job_entries(
    out: &mut String,
    mut x: f64,
    y: f64,
    right: f64,
    jobs: &[(&str, &str)],
    swatch_w: f64,
    swatch: &dyn Fn(&mut String, f64, f64, &str),
) {
    for &(id, colour) in jobs {
        let w = swatch_w + text_width(id, 11.0) + 10.0;
        if x + w > right {
            break;
        }
        titled_group(
            out,
            "legend-entry",
            &[("data-job", &id)],
            &format!("job {id}"),
            |out| {
                swatch(out, x, y, colour);
                text_at(
                    out,
                    x + swatch_w,
                    y + 4.0,
                    11.0,
                    "start",
                    "legend-label",
                    id,
                );
            },
        );
        x += w;
    }
}
