//! A figure: one or more line charts of smd-charts laid out in a grid, with a title and a
//! caption, as one standalone SVG document.

use smd_charts::{line_chart_svg, LineChart};
use std::fmt::Write;

/// Width of one panel, px.
pub const PANEL_W: f64 = 540.0;
/// Height of one panel, px.
pub const PANEL_H: f64 = 340.0;

/// Escapes text for XML.
fn esc(s: &str) -> String {
    smd_charts::svg::escape(s)
}

/// Lays `panels` out `cols` per row under `title`, with `caption` lines below, on a white
/// background. Each panel is drawn by [`line_chart_svg`] at [`PANEL_W`]×[`PANEL_H`] and
/// nested as an `<svg>` element at its place in the grid.
pub fn figure(title: &str, caption: &[String], panels: &[LineChart], cols: usize) -> String {
    let cols = cols.clamp(1, panels.len().max(1));
    let rows = panels.len().div_ceil(cols).max(1);
    let head = 34.0;
    let line_h = 16.0;
    let foot = 10.0 + line_h * caption.len() as f64;
    let width = PANEL_W * cols as f64;
    let height = head + PANEL_H * rows as f64 + foot;
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" class=\"smd-figure\" role=\"img\" \
         aria-label=\"{t}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\
         <title>{t}</title><rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\
         <text x=\"12\" y=\"23\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">{t}</text>",
        t = esc(title)
    );
    for (k, chart) in panels.iter().enumerate() {
        let mut c = chart.clone();
        c.width = PANEL_W;
        c.height = PANEL_H;
        let svg = line_chart_svg(&c);
        let (x, y) = (
            PANEL_W * (k % cols) as f64,
            head + PANEL_H * (k / cols) as f64,
        );
        // Nest the panel: its root <svg> gets a position; the xmlns is inherited.
        let inner = svg.strip_prefix("<svg").unwrap_or(&svg);
        let _ = write!(out, "<svg x=\"{x}\" y=\"{y}\"{inner}");
    }
    for (i, line) in caption.iter().enumerate() {
        let y = head + PANEL_H * rows as f64 + 4.0 + line_h * (i as f64 + 0.8);
        let _ = write!(
            out,
            "<text x=\"12\" y=\"{y}\" font-size=\"12\" fill=\"#444444\">{}</text>",
            esc(line)
        );
    }
    out.push_str("</svg>");
    out
}
