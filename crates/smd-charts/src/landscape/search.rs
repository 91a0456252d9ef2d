//! Algorithm 1's search as a text panel (`g.search`) in the landscape's right column: the
//! constant part of T, one `g.summand` per summand ζ with its bounds and status, the grid
//! size and T at the relaxed point.

use crate::format::{fmt_sig, plain_sig};
use crate::svg::{end, group, text_at, text_tag, titled_group, Tag};
use smd_core::landscape::{Search, Summand};
use smd_core::Landscape;
use std::fmt::Display;

/// Font size of the panel's lines, px.
const SMALL: f64 = 10.0;

/// Line spacing, px.
const LINE: f64 = 13.0;

/// Writes the panel with its heading at (x, y).
pub(super) fn search_panel(out: &mut String, l: &Landscape, x: f64, mut y: f64) {
    group(out, "search");
    match &l.search {
        None => {
            text_at(out, x, y, 11.5, "start", "search-heading", "Algorithm 1");
            y += LINE + 2.0;
            line(out, x, y, "no search (job infeasible)");
        }
        Some(s) => {
            text_at(
                out,
                x,
                y,
                11.5,
                "start",
                "search-heading",
                &format!("Algorithm 1, ε = {}", fmt_sig(s.epsilon, 3)),
            );
            y += LINE + 2.0;
            line(
                out,
                x,
                y,
                &format!("T = {} s + Σ ζj", plain_sig(s.constant, 4)),
            );
            y += LINE;
            let mut sizes = Vec::new();
            for (k, z) in s.summands.iter().enumerate() {
                let status = if z.dropped {
                    "dropped".to_string()
                } else if s.free == Some(k) {
                    "free (J)".to_string()
                } else if let Some(n) = z.grid_size {
                    sizes.push(n);
                    format!("λ+1 = {n}")
                } else {
                    "—".to_string()
                };
                y = summand(out, s, k, z, &status, x, y);
            }
            grid_total(out, &sizes, x, y);
            y += LINE;
            if let Some((_, t)) = l.relaxed {
                line(out, x, y, &format!("T(x̄) = {} s", plain_sig(t, 4)));
            }
        }
    }
    end(out, "g");
}

/// A line of the panel (`text.search-line`).
fn line(out: &mut String, x: f64, y: f64, text: &str) {
    text_at(out, x, y, SMALL, "start", "search-line", text);
}

/// Summand `z` (the `k`th of `s`) in two lines from `y`: its name and `status`, then its
/// bounds. Returns the y of the next line.
fn summand(
    out: &mut String,
    s: &Search,
    k: usize,
    z: &Summand,
    status: &str,
    x: f64,
    mut y: f64,
) -> f64 {
    let nu = s
        .winning_nu
        .get(k)
        .copied()
        .flatten()
        .map(|v| format!(", winning ν = {}", plain_sig(v, 6)))
        .unwrap_or_default();
    let data: [(&str, &dyn Display); 4] = [
        ("data-name", &z.name),
        ("data-lower", &z.lower),
        ("data-upper", &z.upper),
        ("data-status", &status),
    ];
    let tip = format!(
        "ζ = {}: l = {} s, φ = {} s, {status}{nu}",
        z.name,
        plain_sig(z.lower, 6),
        plain_sig(z.upper, 6)
    );
    titled_group(out, "summand", &data, &tip, |out| {
        text_tag(out, "search-line", x, y, SMALL)
            .attr("fill", "#222222")
            .open();
        Tag::new(out, "tspan")
            .attr("font-weight", "bold")
            .text("tspan", &z.name);
        Tag::new(out, "tspan").text("tspan", &format!("  {status}"));
        end(out, "text");
        y += LINE;
        let bounds = format!(
            "l = {} s, φ = {} s",
            plain_sig(z.lower, 3),
            plain_sig(z.upper, 3)
        );
        line(out, x + 8.0, y, &bounds);
        y += LINE;
    });
    y
}

/// The grid Algorithm 1 searched: the product of the summands' grid `sizes`
/// (`text.search-total` with `data-total`).
fn grid_total(out: &mut String, sizes: &[u64], x: f64, y: f64) {
    let total: u64 = sizes.iter().product();
    let grid = match sizes.len() {
        0 => "grid: 1 point (J only)".to_string(),
        1 => format!("grid: {} points", plain_sig(total as f64, 1)),
        _ => format!(
            "grid: {} = {} points",
            sizes
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" × "),
            plain_sig(total as f64, 1)
        ),
    };
    Tag::new(out, "text")
        .attr("class", "search-line search-total")
        .attr("data-total", total)
        .px("x", x)
        .px("y", y)
        .px("font-size", SMALL)
        .attr("fill", "#222222")
        .text("text", &grid);
}
