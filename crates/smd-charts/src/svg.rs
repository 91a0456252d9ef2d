//! A minimal SVG writer: escaped text and attributes, compact numbers.

use std::fmt::{self, Display, Write};

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
        let s = format!("{r:.2}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        f.write_str(s)
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

    /// `/>`.
    pub(crate) fn close(self) {
        self.out.push_str("/>");
    }

    /// `>`: children follow; the caller writes the end tag with [`end`].
    pub(crate) fn open(self) {
        self.out.push('>');
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
    Tag::new(out, "text")
        .attr("class", class)
        .px("x", x)
        .px("y", y)
        .px("font-size", size)
        .attr("text-anchor", anchor)
        .attr("fill", "#222222")
        .text("text", text);
}

/// Rough width of `text` at `size` px in a sans-serif font, for layout.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// A number with `sig` significant digits, in plain notation for 1e-3 ≤ |v| < 1e5 and as
/// `1.23e6` otherwise; trailing zeros removed.
pub fn fmt_sig(v: f64, sig: usize) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    if v == 0.0 {
        return "0".into();
    }
    let sig = sig.max(1);
    let a = v.abs();
    let exp = a.log10().floor() as i32;
    let s = if (1e-3..1e5).contains(&a) {
        let decimals = (sig as i32 - 1 - exp).max(0) as usize;
        trim(&format!("{v:.decimals$}"))
    } else {
        let s = format!("{v:.prec$e}", prec = sig - 1);
        match s.split_once('e') {
            Some((m, e)) => format!("{}e{e}", trim(m)),
            None => s,
        }
    };
    s.replace('-', "−")
}

/// Removes trailing zeros after a decimal point (and the point itself).
fn trim(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A tick label for `v` on an axis whose tick step is `step`.
pub(crate) fn fmt_tick(v: f64, step: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        return fmt_sig(v, 3);
    }
    let decimals = if step > 0.0 && step.is_finite() {
        (-(step.log10() + 1e-9).floor()).max(0.0) as usize
    } else {
        2
    };
    let s = format!("{v:.decimals$}");
    let s = if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    };
    s.replace('-', "−")
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

    #[test]
    fn significant() {
        assert_eq!(fmt_sig(1234.6, 3), "1235");
        assert_eq!(fmt_sig(0.012345, 3), "0.0123");
        assert_eq!(fmt_sig(1.5e7, 3), "1.5e7");
        assert_eq!(fmt_sig(-2.0, 3), "−2");
        assert_eq!(fmt_sig(0.0, 3), "0");
    }

    #[test]
    fn ticks() {
        assert_eq!(fmt_tick(0.5, 0.1), "0.5");
        assert_eq!(fmt_tick(20.0, 5.0), "20");
        assert_eq!(fmt_tick(3.0, 1.0), "3");
        assert_eq!(fmt_tick(0.3, 0.1), "0.3");
        assert_eq!(fmt_tick(0.15, 0.05), "0.15");
        assert_eq!(fmt_tick(-0.0, 0.5), "0.0");
        assert_eq!(fmt_tick(2e6, 1e6), "2e6");
    }
}
