//! A minimal SVG writer: escaped text and attributes, compact numbers.

use crate::rect::Rect;
use std::fmt::{self, Display, Write};

/// Moved to [`crate::format`] (the number formatting the charts share with the page); kept
/// here for existing callers.
pub use crate::format::fmt_sig;

/// Escapes `&`, `<`, `>`, `"` and `'` for use in XML text or a double-quoted attribute.
///
/// Control characters that XML 1.0 forbids (all below U+0020 except tab, newline and
/// carriage return) are replaced by U+FFFD so that the output always parses.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A pixel coordinate: at most two decimals, no trailing zeros, never `-0`, NaN as 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Px(pub f64);

impl Display for Px {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = if self.0.is_finite() { self.0 } else { 0.0 };
        let r = (v * 100.0).round() / 100.0;
        let r = if r == 0.0 { 0.0 } else { r };
        f.write_str(&crate::format::trim(&format!("{r:.2}")))
    }
}

/// An element being written: `<tag a="v" …` until [`Tag::close`], [`Tag::open`] or
/// [`Tag::text`].
pub(crate) struct Tag<'a> {
    out: &'a mut String,
}

impl<'a> Tag<'a> {
    /// Starts `<name` in `out`.
    pub(crate) fn new(out: &'a mut String, name: &str) -> Tag<'a> {
        out.push('<');
        out.push_str(name);
        Tag { out }
    }

    /// Adds an attribute; the value is escaped.
    pub(crate) fn attr(self, key: &str, value: impl Display) -> Tag<'a> {
        let v = value.to_string();
        let _ = write!(self.out, " {key}=\"{}\"", escape(&v));
        self
    }

    /// Adds a pixel-valued attribute.
    pub(crate) fn px(self, key: &str, value: f64) -> Tag<'a> {
        let _ = write!(self.out, " {key}=\"{}\"", Px(value));
        self
    }

    /// The pixel attributes `x`, `y`, `width` and `height` of `r`.
    pub(crate) fn rect(self, r: Rect) -> Tag<'a> {
        self.px("x", r.x)
            .px("y", r.y)
            .px("width", r.width)
            .px("height", r.height)
    }

    /// The pixel attributes `x1`, `y1`, `x2` and `y2` of a line from (x1, y1) to (x2, y2).
    pub(crate) fn ends(self, x1: f64, y1: f64, x2: f64, y2: f64) -> Tag<'a> {
        self.px("x1", x1).px("y1", y1).px("x2", x2).px("y2", y2)
    }

    /// `/>`.
    pub(crate) fn close(self) {
        self.out.push_str("/>");
    }

    /// `>`: children follow; the caller writes them to the returned output and the end tag
    /// with [`end`].
    pub(crate) fn open(self) -> &'a mut String {
        self.out.push('>');
        self.out
    }

    /// `>text</name>`, with the text escaped.
    pub(crate) fn text(self, name: &str, text: &str) {
        let _ = write!(self.out, ">{}</{name}>", escape(text));
    }

    /// `><title>tip</title></name>`: an element whose only child is a tooltip.
    pub(crate) fn titled(self, name: &str, tip: &str) {
        let _ = write!(self.out, "><title>{}</title></{name}>", escape(tip));
    }
}

/// Writes `</name>`.
pub(crate) fn end(out: &mut String, name: &str) {
    let _ = write!(out, "</{name}>");
}

/// Writes `<title>tip</title>`.
pub(crate) fn title(out: &mut String, tip: &str) {
    let _ = write!(out, "<title>{}</title>", escape(tip));
}

/// Opens `<g class="class">`; the caller closes it with `end(out, "g")`.
pub(crate) fn group(out: &mut String, class: &str) {
    Tag::new(out, "g").attr("class", class).open();
}

/// Writes a group `<g class="class" …attrs>` holding a tooltip `tip` and what `children`
/// writes (a chart's point, marker or legend entry with its `data-*` attributes).
pub(crate) fn titled_group(
    out: &mut String,
    class: &str,
    attrs: &[(&str, &dyn Display)],
    tip: &str,
    children: impl FnOnce(&mut String),
) {
    let mut g = Tag::new(out, "g").attr("class", class);
    for (key, value) in attrs {
        g = g.attr(key, value);
    }
    let out = g.open();
    title(out, tip);
    children(out);
    end(out, "g");
}

/// Opens the root `<svg>` element of a `width`×`height` chart.
/// `extra` attributes go on the root element too.
pub(crate) fn root(
    out: &mut String,
    width: f64,
    height: f64,
    class: &str,
    label: &str,
    extra: &[(&str, String)],
) {
    let mut t = Tag::new(out, "svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .px("width", width)
        .px("height", height)
        .attr("viewBox", format!("0 0 {} {}", Px(width), Px(height)))
        .attr("class", class)
        .attr("role", "img")
        .attr("aria-label", label)
        .attr("font-family", "DejaVu Sans, Verdana, Arial, sans-serif");
    for (k, v) in extra {
        t = t.attr(k, v);
    }
    t.open();
    title(out, label);
    Tag::new(out, "rect")
        .attr("class", "background")
        .attr("width", "100%")
        .attr("height", "100%")
        .attr("fill", "#ffffff")
        .close();
}

/// Opens an x–y chart (line or scatter): the root element, labelled with the title or
/// "<y> against <x>" when there is none, and the title at the plot's left edge.
pub(crate) fn xy_root(
    out: &mut String,
    (width, height, left): (f64, f64, f64),
    class: &str,
    title: &str,
    y_label: &str,
    x_label: &str,
) {
    let label = if title.is_empty() {
        format!("{y_label} against {x_label}")
    } else {
        title.to_owned()
    };
    root(out, width, height, class, &label, &[]);
    chart_title(out, left, title);
}

/// A chart's title at the top left (x = the plot's left edge), if it has one.
pub(crate) fn chart_title(out: &mut String, x: f64, title: &str) {
    if !title.is_empty() {
        text_at(out, x, 22.0, 15.0, "start", "title", title);
    }
}

/// Starts a text element of class `class` at (x, y) in `size` px type.
/// A chart title at (x, 18), its size shrunk from 14 (down to 8) so that it fits `room`.
pub(crate) fn fitted_title(out: &mut String, x: f64, room: f64, title: &str) {
    let size = (14.0f64).min(room / text_width(title, 1.0)).max(8.0);
    text_at(out, x, 18.0, size, "start", "title", title);
}

pub(crate) fn text_tag<'a>(out: &'a mut String, class: &str, x: f64, y: f64, size: f64) -> Tag<'a> {
    Tag::new(out, "text")
        .attr("class", class)
        .px("x", x)
        .px("y", y)
        .px("font-size", size)
}

/// Writes a text element at (x, y) with the given size, anchor and extra attributes.
pub(crate) fn text_at(
    out: &mut String,
    x: f64,
    y: f64,
    size: f64,
    anchor: &str,
    class: &str,
    text: &str,
) {
    text_tag(out, class, x, y, size)
        .attr("text-anchor", anchor)
        .attr("fill", "#222222")
        .text("text", text);
}

/// Writes a text element centred on (x, y) and turned a quarter to read upwards (the title
/// of a vertical axis).
pub(crate) fn text_turned(
    out: &mut String,
    x: f64,
    y: f64,
    size: f64,
    class: &str,
    fill: &str,
    text: &str,
) {
    text_tag(out, class, x, y, size)
        .attr("text-anchor", "middle")
        .attr("fill", fill)
        .attr("transform", format!("rotate(-90 {} {})", Px(x), Px(y)))
        .text("text", text);
}

/// Dark grey, for axes, ticks and frames.
pub(crate) const INK: &str = "#444444";

/// Writes a dark grey line from (x1, y1) to (x2, y2): an axis line or a tick mark.
pub(crate) fn rule(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    Tag::new(out, "line")
        .ends(x1, y1, x2, y2)
        .attr("stroke", INK)
        .close();
}

/// Writes the outline of a plot area, `rect.frame`.
pub(crate) fn frame(out: &mut String, r: Rect) {
    Tag::new(out, "rect")
        .attr("class", "frame")
        .rect(r)
        .attr("fill", "none")
        .attr("stroke", INK)
        .close();
}

/// Rough width of `text` at `size` px in a sans-serif font, for layout.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// A `path.line` through `points` in pixels, lifted over each `None` (a value not drawn),
/// with `colour`, `dash` (`"none"` for solid) and `stroke_width`; nothing when no point is
/// drawn. The line charts over a continuous x (`line`, `sweep`) share it.
pub(crate) fn broken_line(
    out: &mut String,
    points: impl IntoIterator<Item = Option<(f64, f64)>>,
    colour: &str,
    dash: &str,
    stroke_width: f64,
) {
    let mut d = String::new();
    let mut pen_down = false;
    for p in points {
        match p {
            Some((x, y)) => {
                d.push(if pen_down { 'L' } else { 'M' });
                let _ = write!(d, "{},{}", Px(x), Px(y));
                pen_down = true;
            }
            None => pen_down = false,
        }
    }
    if !d.is_empty() {
        let mut t = Tag::new(out, "path")
            .attr("class", "line")
            .attr("d", &d)
            .attr("fill", "none")
            .attr("stroke", colour)
            .px("stroke-width", stroke_width)
            .attr("stroke-linejoin", "round");
        if dash != "none" {
            t = t.attr("stroke-dasharray", dash);
        }
        t.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(escape("x\u{1}y"), "x\u{FFFD}y");
    }

    #[test]
    fn pixels() {
        assert_eq!(Px(1.0).to_string(), "1");
        assert_eq!(Px(1.256).to_string(), "1.26");
        assert_eq!(Px(-0.001).to_string(), "0");
        assert_eq!(Px(f64::NAN).to_string(), "0");
        assert_eq!(Px(12.5).to_string(), "12.5");
    }
}
