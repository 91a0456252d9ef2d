//! A pipeline as a figure (issue 28, "How it works in pictures"): stages left to right in
//! rows, each a box with its name and what it makes, an arrow to the next, and a link
//! where the caller gives one (the page links each stage to its section of the text).

use crate::svg::{end, titled_group, Tag};

/// One stage of a pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// Its name (`Algorithm 1`).
    pub name: String,
    /// What it makes, in the model's symbols (`(w̄, p̄): min T on the grid`).
    pub makes: String,
    /// Where the box links (`#how-smd`), if anywhere.
    pub href: Option<String>,
}

/// Boxes per row, and the figure's width in px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PipelineOptions {
    /// Width of the SVG, px.
    pub width: f64,
    /// Stages in one row before the next row begins.
    pub per_row: usize,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            width: 960.0,
            per_row: 4,
        }
    }
}

const BOX_H: f64 = 58.0;
const GAP_X: f64 = 34.0;
const GAP_Y: f64 = 30.0;
const PAD: f64 = 4.0;

/// The stages as an SVG: row by row, boxes of equal width with the name in bold and what
/// it makes below, an arrow from each to the next (down and back to the left between
/// rows). Each box is a `<g class="stage" data-stage="k">`, inside an `<a>` when linked.
pub fn pipeline_svg(stages: &[Stage], opts: &PipelineOptions) -> String {
    let per_row = opts.per_row.max(1);
    let rows = stages.len().div_ceil(per_row).max(1);
    let box_w = (opts.width - 2.0 * PAD - GAP_X * (per_row as f64 - 1.0)) / per_row as f64;
    let height = 2.0 * PAD + rows as f64 * BOX_H + (rows as f64 - 1.0) * GAP_Y;
    let at = |k: usize| {
        let (row, col) = (k / per_row, k % per_row);
        (
            PAD + col as f64 * (box_w + GAP_X),
            PAD + row as f64 * (BOX_H + GAP_Y),
        )
    };
    let mut out = String::new();
    let names: Vec<&str> = stages.iter().map(|s| s.name.as_str()).collect();
    Tag::new(&mut out, "svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("viewBox", format!("0 0 {} {}", opts.width, height))
        .px("width", opts.width)
        .px("height", height)
        // A group, not an image: its stages may be links (an image has no focusable parts).
        .attr("role", "group")
        .attr("data-stages", stages.len())
        .attr("aria-label", format!("The pipeline: {}", names.join(" → ")))
        .open();
    out.push_str(
        "<defs><marker id=\"pipeline-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0L10,5L0,10z\" fill=\"#5b6472\"/></marker></defs>",
    );
    // Arrows first, under the boxes.
    for k in 1..stages.len() {
        let ((x0, y0), (x1, y1)) = (at(k - 1), at(k));
        let d = if y1 == y0 {
            format!("M{},{}H{}", x0 + box_w, y0 + BOX_H / 2.0, x1 - 2.0)
        } else {
            // Down from the row's last box, left along the gap, down into the next row's first.
            let mid = y0 + BOX_H + GAP_Y / 2.0;
            format!(
                "M{},{}V{}H{}V{}",
                x0 + box_w / 2.0,
                y0 + BOX_H,
                mid,
                x1 + box_w / 2.0,
                y1 - 2.0
            )
        };
        Tag::new(&mut out, "path")
            .attr("d", d)
            .attr("fill", "none")
            .attr("stroke", "#5b6472")
            .attr("stroke-width", 1.5)
            .attr("marker-end", "url(#pipeline-arrow)")
            .close();
    }
    for (k, s) in stages.iter().enumerate() {
        let (x, y) = at(k);
        if let Some(href) = &s.href {
            Tag::new(&mut out, "a").attr("href", href).open();
        }
        let tip = format!("{}: {}", s.name, s.makes);
        titled_group(&mut out, "stage", &[("data-stage", &k)], &tip, |out| {
            Tag::new(out, "rect")
                .px("x", x)
                .px("y", y)
                .px("width", box_w)
                .px("height", BOX_H)
                .attr("rx", 6)
                .attr("fill", "#f4f7fb")
                .attr("stroke", "#3f6fb5")
                .close();
            Tag::new(out, "text")
                .px("x", x + box_w / 2.0)
                .px("y", y + 22.0)
                .attr("text-anchor", "middle")
                .attr("font-size", 13)
                .attr("font-weight", 600)
                .attr("fill", "#1d2733")
                .text("text", &s.name);
            Tag::new(out, "text")
                .px("x", x + box_w / 2.0)
                .px("y", y + 42.0)
                .attr("text-anchor", "middle")
                .attr("font-size", 11.5)
                .attr("fill", "#3b4654")
                .text("text", &s.makes);
        });
        if s.href.is_some() {
            end(&mut out, "a");
        }
    }
    end(&mut out, "svg");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(name: &str, href: Option<&str>) -> Stage {
        Stage {
            name: name.into(),
            makes: format!("what {name} makes"),
            href: href.map(Into::into),
        }
    }

    /// Seven stages in rows of four: seven boxes, six arrows, the linked ones inside an
    /// `<a>`, names escaped, and the figure tall enough for two rows.
    #[test]
    fn stages_in_rows_with_arrows_and_links() {
        let stages: Vec<Stage> = (0..7)
            .map(|k| stage(&format!("s{k} <&>"), (k % 2 == 0).then_some("#how-smd")))
            .collect();
        let svg = pipeline_svg(&stages, &PipelineOptions::default());
        assert_eq!(svg.matches("<g class=\"stage\"").count(), 7);
        assert_eq!(svg.matches("marker-end").count(), 6);
        assert_eq!(svg.matches("<a href=\"#how-smd\">").count(), 4);
        assert!(svg.contains("s3 &lt;&amp;&gt;"));
        assert!(!svg.contains("s3 <&>"));
        // Two rows: 2·4 + 2·58 + 30.
        assert!(svg.contains("height=\"154\""), "{svg}");
        assert!(svg.contains("data-stages=\"7\""));
    }
}
