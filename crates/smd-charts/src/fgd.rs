//! GPU sharing in a production cluster (the FGD experiment, `smd-fgd`): a quantity of each
//! node-scoring policy against the arrived workload, with the proven bound dashed
//! ([`fgd_lines_svg`]), and a map of the cluster's GPUs at one moment of a run
//! ([`fgd_map_svg`]). Each policy keeps its colour and dash pattern (its place in the list
//! the caller gives) across the charts.

use crate::axes::{framed_axes, scale_ticks};
use crate::format::plain_sig;
use crate::legend::{line_key, plot_beside, Legend};
use crate::palette::{series_style, viridis};
use crate::scale::Scale;
use crate::svg::{end, root, text_at, Px, Tag};

/// One policy's line: its name, its place in the list of every policy (its style) and its
/// points `(arrived %, value)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FgdLine {
    /// The policy's name.
    pub name: String,
    /// Its place among every policy (colour and dash pattern).
    pub style: usize,
    /// `(arrived %, value)`, in increasing x.
    pub points: Vec<(f64, f64)>,
}

/// A chart of lines against the arrived workload.
#[derive(Clone, Debug, PartialEq)]
pub struct FgdChart {
    /// The root's `data-testid`.
    pub testid: String,
    /// The chart's title.
    pub title: String,
    /// The y axis's title.
    pub y_label: String,
    /// One line per policy.
    pub lines: Vec<FgdLine>,
    /// The bound, dashed and black, if any: `(arrived %, value)`.
    pub bound: Option<Vec<(f64, f64)>>,
    /// Width of the SVG, px.
    pub width: f64,
    /// Height of the SVG, px.
    pub height: f64,
}

/// The bound's name in the legend.
pub const BOUND_NAME: &str = "bound (offline packing)";

/// The lines of `chart` against the arrived workload, 0 to the largest x: each policy a
/// `g.series` with `data-policy`, the bound a `g.bound`; the root has `data-testid`.
pub fn fgd_lines_svg(chart: &FgdChart) -> String {
    let mut names: Vec<&str> = chart.lines.iter().map(|l| l.name.as_str()).collect();
    if chart.bound.is_some() {
        names.push(BOUND_NAME);
    }
    let (width, height) = (chart.width.max(320.0), chart.height.max(200.0));
    let plot = plot_beside(width, height, &names, 62.0, 48.0);
    let all = || {
        chart
            .lines
            .iter()
            .flat_map(|l| l.points.iter())
            .chain(chart.bound.iter().flatten())
            .filter(|p| p.0.is_finite() && p.1.is_finite())
    };
    let x_max = all().map(|p| p.0).fold(0.0, f64::max);
    let y_max = all().map(|p| p.1).fold(0.0, f64::max);
    let xs = Scale {
        lo: 0.0,
        hi: if x_max > 0.0 { x_max } else { 100.0 },
        px: (plot.x, plot.right()),
        log: false,
    };
    let ys = Scale {
        lo: 0.0,
        hi: if y_max > 0.0 { y_max * 1.04 } else { 1.0 },
        px: (plot.bottom(), plot.y),
        log: false,
    };
    let mut out = String::with_capacity(16 * 1024);
    root(
        &mut out,
        width,
        height,
        "fgd-lines",
        &chart.title,
        &[("data-testid", chart.testid.clone())],
    );
    text_at(&mut out, plot.x, 22.0, 14.0, "start", "title", &chart.title);
    let y_ticks = scale_ticks(&ys, (plot.height / 40.0) as usize);
    let x_ticks = scale_ticks(&xs, (plot.width / 60.0) as usize);
    framed_axes(
        &mut out,
        plot,
        height,
        (&y_ticks, &x_ticks),
        ("workload arrived (% of the cluster's GPUs)", &chart.y_label),
    );
    let path = |points: &[(f64, f64)]| {
        let mut d = String::new();
        for &(x, y) in points.iter().filter(|p| p.0.is_finite() && p.1.is_finite()) {
            let c = if d.is_empty() { 'M' } else { 'L' };
            d.push_str(&format!("{c}{},{}", Px(xs.to_px(x)), Px(ys.to_px(y))));
        }
        d
    };
    let mut legend = Legend::column(plot.right() + 14.0, plot.y + 8.0, 18.0);
    for l in &chart.lines {
        let (colour, dash, _) = series_style(l.style);
        let g = Tag::new(&mut out, "g")
            .attr("class", "series")
            .attr("data-policy", &l.name)
            .open();
        let last = l
            .points
            .iter()
            .rfind(|p| p.0.is_finite() && p.1.is_finite())
            .map_or(String::new(), |p| {
                format!(" — {} at {} %", plain_sig(p.1, 3), plain_sig(p.0, 3))
            });
        crate::svg::title(g, &format!("{}{last}", l.name));
        let mut t = Tag::new(g, "path")
            .attr("class", "line")
            .attr("d", path(&l.points))
            .attr("fill", "none")
            .attr("stroke", colour)
            .px("stroke-width", 1.8)
            .attr("stroke-linejoin", "round");
        if dash != "none" {
            t = t.attr("stroke-dasharray", dash);
        }
        t.close();
        end(&mut out, "g");
        let key = legend.key();
        line_key(
            &mut out,
            (key.0, key.1),
            22.0,
            colour,
            2.0,
            (dash != "none").then_some(dash),
        );
        legend.label(&mut out, &l.name);
    }
    if let Some(bound) = &chart.bound {
        let g = Tag::new(&mut out, "g")
            .attr("class", "bound")
            .attr("data-testid", "fgd-bound")
            .open();
        crate::svg::title(
            g,
            "An upper bound: no packing of the pods arrived allocates more, even one made knowing them all",
        );
        Tag::new(g, "path")
            .attr("class", "line")
            .attr("d", path(bound))
            .attr("fill", "none")
            .attr("stroke", "#000000")
            .px("stroke-width", 1.4)
            .attr("stroke-dasharray", "6 4")
            .close();
        end(&mut out, "g");
        let key = legend.key();
        line_key(&mut out, key, 22.0, "#000000", 1.4, Some("6 4"));
        legend.label(&mut out, BOUND_NAME);
    }
    end(&mut out, "svg");
    out
}

/// One GPU model's nodes: its name and, per node, each GPU's allocated share (0 to 1).
#[derive(Clone, Debug, PartialEq)]
pub struct MapGroup {
    /// The GPU model.
    pub model: String,
    /// Per node, per GPU, the share allocated.
    pub nodes: Vec<Vec<f64>>,
}

/// A map of a cluster's GPUs at one moment: a square per GPU, its colour the share
/// allocated (viridis, 0 to 1), the GPUs of a node side by side, grouped by GPU model (a
/// `g.model` with `data-model` each); the root has `data-testid="fgd-map"` and `title`.
pub fn fgd_map_svg(groups: &[MapGroup], title: &str, width: f64) -> String {
    let width = width.max(320.0);
    let cell = 5.0;
    let gap = 2.0;
    let left = 12.0;
    let right = width - 12.0;
    // Lay out every group's nodes, wrapping rows; each group starts on a new row below its
    // name.
    let mut y = 40.0;
    let mut body = String::new();
    for g in groups {
        let allocated: f64 = g.nodes.iter().flatten().sum();
        let count = g.nodes.iter().map(Vec::len).sum::<usize>();
        let grp = Tag::new(&mut body, "g")
            .attr("class", "model")
            .attr("data-model", &g.model)
            .attr("data-gpus", count)
            .open();
        crate::svg::title(
            grp,
            &format!(
                "{}: {} GPUs on {} nodes, {} % allocated",
                g.model,
                count,
                g.nodes.len(),
                plain_sig(
                    if count > 0 {
                        100.0 * allocated / count as f64
                    } else {
                        0.0
                    },
                    3
                )
            ),
        );
        text_at(
            &mut body,
            left,
            y + 10.0,
            11.0,
            "start",
            "model-label",
            &format!("{} — {} GPUs", g.model, count),
        );
        y += 16.0;
        let mut x = left;
        for node in &g.nodes {
            let w = node.len().max(1) as f64 * cell;
            if x + w > right && x > left {
                x = left;
                y += cell + gap;
            }
            for (k, &share) in node.iter().enumerate() {
                let share = if share.is_finite() {
                    share.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let fill = if share <= 0.0 {
                    "#eeeeee".to_string()
                } else {
                    viridis(1.0 - share)
                };
                Tag::new(&mut body, "rect")
                    .attr("class", "gpu")
                    .px("x", x + k as f64 * cell)
                    .px("y", y)
                    .px("width", cell - 0.6)
                    .px("height", cell - 0.6)
                    .attr("fill", fill)
                    .close();
            }
            x += w + gap;
        }
        y += cell + gap + 10.0;
        end(&mut body, "g");
    }
    let height = y + 28.0;
    let mut out = String::with_capacity(body.len() + 2048);
    root(
        &mut out,
        width,
        height,
        "fgd-map",
        title,
        &[("data-testid", "fgd-map".into())],
    );
    text_at(&mut out, left, 22.0, 14.0, "start", "title", title);
    out.push_str(&body);
    // The key: empty, a share, whole.
    let mut kx = left;
    let ky = height - 16.0;
    for (share, words) in [
        (0.0, "free"),
        (0.5, "half allocated"),
        (1.0, "fully allocated"),
    ] {
        let fill = if share <= 0.0 {
            "#eeeeee".to_string()
        } else {
            viridis(1.0 - share)
        };
        Tag::new(&mut out, "rect")
            .px("x", kx)
            .px("y", ky - 8.0)
            .px("width", 9.0)
            .px("height", 9.0)
            .attr("fill", fill)
            .close();
        text_at(
            &mut out,
            kx + 13.0,
            ky,
            11.0,
            "start",
            "legend-label",
            words,
        );
        kx += 26.0 + crate::svg::text_width(words, 11.0);
    }
    end(&mut out, "svg");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(bound: bool) -> FgdChart {
        FgdChart {
            testid: "fgd-allocation".into(),
            title: "GPU allocation".into(),
            y_label: "GPUs allocated (%)".into(),
            lines: vec![
                FgdLine {
                    name: "fgd".into(),
                    style: 5,
                    points: vec![(0.0, 0.0), (50.0, 50.0), (100.0, 92.0)],
                },
                FgdLine {
                    name: "random".into(),
                    style: 0,
                    points: vec![(0.0, 0.0), (50.0, 49.0), (100.0, 85.0)],
                },
            ],
            bound: bound.then(|| vec![(0.0, 0.0), (100.0, 95.0)]),
            width: 640.0,
            height: 320.0,
        }
    }

    /// A line per policy, each named, and the bound dashed when there is one.
    #[test]
    fn a_line_per_policy_and_the_bound() {
        let svg = fgd_lines_svg(&chart(true));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let series: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("series"))
            .filter_map(|n| n.attribute("data-policy"))
            .collect();
        assert_eq!(series, ["fgd", "random"]);
        let bound = doc
            .descendants()
            .find(|n| n.attribute("data-testid") == Some("fgd-bound"))
            .unwrap();
        let path = bound.children().find(|n| n.has_tag_name("path")).unwrap();
        assert_eq!(path.attribute("stroke-dasharray"), Some("6 4"));
        assert!(svg.contains(BOUND_NAME));
        assert!(!fgd_lines_svg(&chart(false)).contains("fgd-bound"));
    }

    /// A higher value is drawn higher, and every path is finite.
    #[test]
    fn higher_values_are_higher() {
        let mut c = chart(false);
        c.lines[1].points.push((130.0, f64::NAN));
        let svg = fgd_lines_svg(&c);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let end_y = |name: &str| -> f64 {
            let g = doc
                .descendants()
                .find(|n| n.attribute("data-policy") == Some(name))
                .unwrap();
            let d = g
                .children()
                .find(|n| n.has_tag_name("path"))
                .unwrap()
                .attribute("d")
                .unwrap();
            d.rsplit(',').next().unwrap().parse().unwrap()
        };
        assert!(end_y("fgd") < end_y("random"));
    }

    /// A square per GPU, grouped by model; free GPUs grey, full ones dark.
    #[test]
    fn a_square_per_gpu_grouped_by_model() {
        let groups = vec![
            MapGroup {
                model: "V100M16".into(),
                nodes: vec![vec![1.0, 0.5], vec![0.0; 8]],
            },
            MapGroup {
                model: "T4".into(),
                nodes: vec![vec![0.25]],
            },
        ];
        let svg = fgd_map_svg(&groups, "fgd, seed 42, at 100 %", 640.0);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let gpus = |model: &str| {
            doc.descendants()
                .find(|n| n.attribute("data-model") == Some(model))
                .unwrap()
                .descendants()
                .filter(|n| n.attribute("class") == Some("gpu"))
                .count()
        };
        assert_eq!((gpus("V100M16"), gpus("T4")), (10, 1));
        assert!(svg.contains("#eeeeee"));
        assert!(svg.contains(&viridis(0.0)));
    }
}
