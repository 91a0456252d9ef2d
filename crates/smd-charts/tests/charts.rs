//! The charts parse as XML, carry the data they claim, and use the geometry they export.

use roxmltree::{Document, Node};
use smd_charts::svg::fmt_sig;
use smd_charts::{
    landscape_geometry, landscape_svg, line_chart_svg, scatter_svg, schedule_svg, LandscapeOptions,
    LineChart, Point, ScatterChart, ScatterSeries, ScheduleOptions, Series, TimeUnit, Value,
};
use smd_core::eta::{attribute, simulate};
use smd_core::scenario::{Layer, Overlap};
use smd_core::{generate, landscape, plan, GenerateOptions, Landscape, Policy, Scenario};

fn scenario(seed: u64, jobs: usize) -> Scenario {
    let mut s = generate(&GenerateOptions {
        jobs,
        seed,
        ..Default::default()
    });
    s.params.epsilon = 0.2;
    s
}

/// The landscape of job `index` with the points of all four policies.
fn job_landscape(s: &Scenario, index: usize) -> Landscape {
    let plans: Vec<_> = [Policy::Smd, Policy::Esw, Policy::Optimus, Policy::Exact]
        .into_iter()
        .map(|p| plan(s, p).unwrap())
        .collect();
    landscape(s, index, 40, &plans).unwrap()
}

fn has_class(n: &Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|x| x == class))
}

fn with_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .collect()
}

fn num(n: &Node, attr: &str) -> f64 {
    n.attribute(attr)
        .unwrap_or_else(|| panic!("no {attr} on {n:?}"))
        .parse()
        .unwrap_or_else(|_| panic!("{attr} of {n:?} is not a number"))
}

fn parse(svg: &str) -> Document<'_> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(
        doc.root_element().tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc
}

fn all_text(doc: &Document) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn landscapes_parse_and_have_one_cell_per_sample() {
    let s = scenario(1, 6);
    for index in 0..3 {
        let l = job_landscape(&s, index);
        for value in [Value::Time, Value::Utility] {
            let opts = LandscapeOptions {
                value,
                ..Default::default()
            };
            let svg = landscape_svg(&l, &opts);
            let doc = parse(&svg);
            let cells = with_class(&doc, "cell");
            assert_eq!(cells.len(), l.w.len() * l.p.len());
            for c in &cells {
                let (i, j) = (num(c, "data-i") as usize, num(c, "data-j") as usize);
                assert_eq!(num(c, "data-w"), l.w[i]);
                assert_eq!(num(c, "data-p"), l.p[j]);
                assert_eq!(has_class(c, "outside"), !l.inside[j][i], "cell ({i}, {j})");
                let v = match value {
                    Value::Time => l.t[j][i],
                    Value::Utility => l.mu[j][i],
                };
                assert_eq!(num(c, "data-v"), v);
            }
            let bar = &with_class(&doc, "colour-bar")[0];
            assert_eq!(
                bar.attribute("data-log"),
                Some((value == Value::Time).to_string().as_str())
            );
        }
    }
}

#[test]
fn every_point_has_one_marker_with_its_class() {
    let s = scenario(1, 6);
    let mut seen_hollow = false;
    let mut max_points = 0;
    for index in 0..6 {
        let l = job_landscape(&s, index);
        let doc_s = landscape_svg(&l, &LandscapeOptions::default());
        let doc = parse(&doc_s);
        assert_eq!(
            with_class(&doc, "marker").len(),
            l.chosen.len() + l.relaxed.is_some() as usize + l.integer_optimum.is_some() as usize
        );
        for c in &l.chosen {
            let m = with_class(&doc, &format!("marker-{}", c.policy));
            assert_eq!(m.len(), 1, "{} of {}", c.policy, l.id);
            assert!(has_class(&m[0], "marker"));
            assert_eq!(num(&m[0], "data-w"), c.w);
            assert_eq!(num(&m[0], "data-p"), c.p);
            assert_eq!(has_class(&m[0], "not-admitted"), !c.admitted);
            if !c.admitted {
                seen_hollow = true;
                // Hollow: no filled path.
                assert!(m[0]
                    .children()
                    .filter(|n| n.has_tag_name("path"))
                    .all(|p| p.attribute("fill") == Some("none")));
            }
        }
        let relaxed = with_class(&doc, "marker-relaxed");
        assert_eq!(relaxed.len(), l.relaxed.is_some() as usize);
        if let Some(([w, p], _)) = l.relaxed {
            assert_eq!(num(&relaxed[0], "data-w"), w);
            assert_eq!(num(&relaxed[0], "data-p"), p);
        }
        let opt = with_class(&doc, "marker-integer-optimum");
        assert_eq!(opt.len(), l.integer_optimum.is_some() as usize);
        max_points = max_points.max(l.chosen.len());
        // Legend entries: one per point.
        let legend = with_class(&doc, "legend-entry");
        for c in &l.chosen {
            assert!(legend
                .iter()
                .any(|e| e.attribute("data-marker") == Some(c.policy.as_str())));
        }
    }
    assert!(
        seen_hollow,
        "no job in the sample was left unadmitted by some plan"
    );
    assert_eq!(max_points, 4, "some job should show all four policies");
}

#[test]
fn marker_shapes_are_distinct() {
    use smd_charts::marker::Shape;
    let shapes = [
        Shape::Circle,
        Shape::Square,
        Shape::Diamond,
        Shape::TriangleUp,
        Shape::TriangleDown,
        Shape::Cross,
        Shape::Pentagon,
        Shape::Asterisk,
    ];
    let paths: Vec<String> = shapes.iter().map(|s| s.path(0.0, 0.0, 5.0)).collect();
    for a in 0..paths.len() {
        for b in a + 1..paths.len() {
            assert_ne!(paths[a], paths[b]);
        }
    }
}

#[test]
fn geometry_round_trips_and_matches_the_drawing() {
    let s = scenario(2, 4);
    for index in 0..4 {
        let l = job_landscape(&s, index);
        for (width, height) in [(640.0, 480.0), (900.0, 700.0), (320.0, 240.0)] {
            let opts = LandscapeOptions {
                width,
                height,
                ..Default::default()
            };
            let g = landscape_geometry(&l, &opts);
            let dw = if l.w.len() > 1 { l.w[1] - l.w[0] } else { 1.0 };
            let dp = if l.p.len() > 1 { l.p[1] - l.p[0] } else { 1.0 };
            for (i, &w) in l.w.iter().enumerate() {
                for (j, &p) in l.p.iter().enumerate() {
                    let (x, y) = g.to_px(w, p);
                    let (w2, p2) = g.to_wp(x, y).expect("a sample is in the plot area");
                    assert!((w2 - w).abs() <= dw / 2.0 && (p2 - p).abs() <= dp / 2.0);
                    assert!(
                        (w2 - w).abs() < 1e-9 * w.max(1.0) && (p2 - p).abs() < 1e-9 * p.max(1.0)
                    );
                    assert_eq!(g.nearest_sample(x, y), Some((i, j)));
                    // A pixel just inside the cell's corner still finds the sample.
                    let c = g.cell(i, j).unwrap();
                    assert_eq!(g.nearest_sample(c.x + 0.2, c.y + 0.2), Some((i, j)));
                    assert_eq!(
                        g.nearest_sample(c.right() - 0.2, c.bottom() - 0.2),
                        Some((i, j))
                    );
                }
            }
            let plot = g.plot;
            assert_eq!(g.to_wp(plot.x - 1.0, plot.y + 5.0), None);
            assert_eq!(g.nearest_sample(plot.right() + 1.0, plot.y + 5.0), None);
            assert_eq!(g.nearest_sample(plot.x + 5.0, plot.bottom() + 1.0), None);
            assert_eq!(g.to_wp(5.0, 5.0), None);
            // p grows upwards.
            assert!(g.to_px(1.0, 2.0).1 < g.to_px(1.0, 1.0).1);
            // The SVG draws the cells where the geometry says.
            let svg = landscape_svg(&l, &opts);
            let doc = parse(&svg);
            for c in with_class(&doc, "cell") {
                let r = g
                    .cell(num(&c, "data-i") as usize, num(&c, "data-j") as usize)
                    .unwrap();
                assert!((num(&c, "x") - r.x).abs() <= 0.006);
                assert!((num(&c, "y") - r.y).abs() <= 0.006);
                assert!((num(&c, "width") - r.width).abs() <= 0.31);
                assert!((num(&c, "height") - r.height).abs() <= 0.31);
            }
            let frame = with_class(&doc, "frame")[0];
            assert!((num(&frame, "x") - plot.x).abs() < 0.006);
            assert!((num(&frame, "width") - plot.width).abs() < 0.006);
            let root = doc.root_element();
            assert_eq!(num(&root, "width"), width);
            assert_eq!(
                root.attribute("viewBox"),
                Some(format!("0 0 {width} {height}").as_str())
            );
        }
    }
}

#[test]
fn search_panel_lists_every_summand() {
    let s = scenario(1, 3);
    let l = job_landscape(&s, 0);
    let search = l.search.as_ref().unwrap();
    let doc_s = landscape_svg(&l, &LandscapeOptions::default());
    let doc = parse(&doc_s);
    let summands = with_class(&doc, "summand");
    assert_eq!(summands.len(), search.summands.len());
    let mut total = 1;
    for (k, (n, z)) in summands.iter().zip(&search.summands).enumerate() {
        assert_eq!(n.attribute("data-name"), Some(z.name.as_str()));
        assert_eq!(num(n, "data-lower"), z.lower);
        assert_eq!(num(n, "data-upper"), z.upper);
        let status = n.attribute("data-status").unwrap();
        if z.dropped {
            assert_eq!(status, "dropped");
        } else if search.free == Some(k) {
            assert_eq!(status, "free (J)");
        } else {
            let g = z.grid_size.unwrap();
            total *= g;
            assert_eq!(status, format!("λ+1 = {g}"));
        }
    }
    let t = &with_class(&doc, "search-total")[0];
    assert_eq!(num(t, "data-total") as u64, total);
    assert!(all_text(&doc).contains(&format!("ε = {}", fmt_sig(search.epsilon, 3))));
}

#[test]
fn infeasible_job_still_renders() {
    let mut s = scenario(3, 2);
    s.jobs[1].worker.gpu = 4.0;
    s.jobs[1].limit_instances = 0.5;
    let l = landscape(&s, 1, 40, &[]).unwrap();
    assert!(l.relaxed.is_none() && l.omega.is_empty() && l.search.is_none());
    for value in [Value::Time, Value::Utility] {
        let svg = landscape_svg(
            &l,
            &LandscapeOptions {
                value,
                ..Default::default()
            },
        );
        let doc = parse(&svg);
        let cells = with_class(&doc, "cell");
        assert_eq!(cells.len(), l.w.len() * l.p.len());
        assert!(cells.iter().all(|c| has_class(c, "outside")));
        assert!(with_class(&doc, "marker").is_empty());
        assert!(with_class(&doc, "omega").is_empty());
        assert!(all_text(&doc).contains("infeasible"));
    }
    // Even an empty landscape (no samples at all).
    let mut empty = l.clone();
    empty.w.clear();
    empty.p.clear();
    empty.t.clear();
    empty.mu.clear();
    empty.inside.clear();
    let svg = landscape_svg(&empty, &LandscapeOptions::default());
    parse(&svg);
    let g = landscape_geometry(&empty, &LandscapeOptions::default());
    assert_eq!(g.nearest_sample(g.plot.x + 10.0, g.plot.y + 10.0), None);
}

#[test]
fn text_is_escaped() {
    let nasty = "a<b>&\"c'd</text>";
    let s = scenario(1, 2);
    let mut l = job_landscape(&s, 0);
    l.id = nasty.into();
    if let Some(c) = l.chosen.first_mut() {
        c.policy = nasty.into();
    }
    let opts = LandscapeOptions {
        id_prefix: "p\"<&".into(),
        ..Default::default()
    };
    let svg = landscape_svg(&l, &opts);
    let doc = parse(&svg);
    assert!(all_text(&doc).contains(nasty));
    let chart = LineChart {
        title: nasty.into(),
        x_label: nasty.into(),
        y_label: nasty.into(),
        series: vec![Series {
            name: nasty.into(),
            points: vec![Point {
                x: 1.0,
                mean: 2.0,
                spread: 0.5,
            }],
        }],
        ..Default::default()
    };
    let svg = line_chart_svg(&chart);
    let doc = parse(&svg);
    assert!(all_text(&doc).matches(nasty).count() >= 4);
    assert_eq!(
        with_class(&doc, "series-0")[0].attribute("data-name"),
        Some(nasty)
    );
}

/// Checks one schedule chart against `simulate` for every model.
fn check_schedule(layers: &[Layer], tau: f64, overlap: Overlap, opts: &ScheduleOptions) {
    let svg = schedule_svg(layers, tau, overlap, opts);
    let doc = parse(&svg);
    let root = doc.root_element();
    let (x0, x1, tmax) = (
        num(&root, "data-x0"),
        num(&root, "data-x1"),
        num(&root, "data-tmax"),
    );
    assert!(x1 > x0 && tmax > 0.0);
    let groups = with_class(&doc, "lane-group");
    assert_eq!(groups.len(), 3);
    let highlighted: Vec<_> = groups
        .iter()
        .filter(|g| has_class(g, "highlight"))
        .collect();
    assert_eq!(highlighted.len(), 1);
    let own = match overlap {
        Overlap::Sequential => "sequential",
        Overlap::Wfbp => "wfbp",
        Overlap::Pipelined => "pipelined",
    };
    assert_eq!(highlighted[0].attribute("data-overlap"), Some(own));
    for (g, model) in groups
        .iter()
        .zip([Overlap::Sequential, Overlap::Wfbp, Overlap::Pipelined])
    {
        let s = simulate(layers, model, tau);
        assert_eq!(num(g, "data-t"), s.t);
        let eta = if model == Overlap::Sequential {
            smd_core::eta::Eta {
                eta1: 1.0,
                eta2: 1.0,
                eta3: 1.0,
            }
        } else {
            attribute(&s)
        };
        assert_eq!(
            [
                num(g, "data-eta1"),
                num(g, "data-eta2"),
                num(g, "data-eta3")
            ],
            [eta.eta1, eta.eta2, eta.eta3]
        );
        // The label shows T (in the axis unit) and the η's.
        let label = g
            .descendants()
            .find(|n| has_class(n, "lane-label"))
            .and_then(|n| n.text())
            .unwrap();
        let axis_label = with_class(&doc, "axis-label")[0].text().unwrap();
        let factor = if axis_label.contains("(ms)") {
            1000.0
        } else {
            1.0
        };
        let unit = if factor == 1000.0 { "ms" } else { "s" };
        assert!(
            label.contains(&format!(
                "T = {} {unit}",
                smd_charts::format::plain_sig(s.t * factor, 4)
            )),
            "{label}"
        );
        assert!(
            label.contains(&format!("η3 = {}", fmt_sig(eta.eta3, 3))),
            "{label}"
        );
        for (kind, bars) in [
            ("bar-forward", &s.forward),
            ("bar-backward", &s.backward),
            ("bar-comm", &s.comm),
        ] {
            let drawn: Vec<_> = g
                .descendants()
                .filter(|n| n.is_element() && has_class(n, kind))
                .collect();
            assert_eq!(drawn.len(), layers.len(), "{kind}");
            assert_eq!(bars.len(), layers.len());
            for (n, b) in drawn.iter().zip(bars.iter()) {
                assert_eq!(num(n, "data-layer") as usize, b.layer);
                assert_eq!(num(n, "data-start"), b.start);
                assert_eq!(num(n, "data-end"), b.end);
                let px = |t: f64| x0 + t / tmax * (x1 - x0);
                assert!(
                    (num(n, "x") - px(b.start)).abs() <= 0.006,
                    "{kind} {}",
                    b.layer
                );
                assert!((num(n, "width") - (px(b.end) - px(b.start))).abs() <= 0.011);
                assert!(n.children().any(|c| c.has_tag_name("title")));
            }
        }
    }
}

#[test]
fn schedules_match_the_simulation() {
    let s = scenario(4, 8);
    for job in &s.jobs {
        let tau = 2.0 * 8.0 * job.model_size_mb / 1000.0 / job.ps_bandwidth_gbps;
        check_schedule(&job.layers, tau, job.overlap, &ScheduleOptions::default());
        // Communication-bound: every model shows its own T.
        check_schedule(
            &job.layers,
            40.0 * tau,
            job.overlap,
            &ScheduleOptions::default(),
        );
    }
    // 100 tiny layers in ms, a wide chart, every model highlighted in turn.
    let layers: Vec<Layer> = (0..100)
        .map(|k| Layer {
            forward_ms: 1.0 + (k % 7) as f64,
            backward_ms: 2.0 + (k % 5) as f64,
            comm_ms: 80.0 + (k % 11) as f64 * 30.0,
        })
        .collect();
    for overlap in [Overlap::Sequential, Overlap::Wfbp, Overlap::Pipelined] {
        for unit in [TimeUnit::Auto, TimeUnit::Seconds, TimeUnit::Milliseconds] {
            let opts = ScheduleOptions {
                width: 1200.0,
                height: 500.0,
                unit,
            };
            check_schedule(&layers, 0.3, overlap, &opts);
        }
    }
}

#[test]
fn degenerate_schedules_render() {
    // No layers; zero communication; zero compute.
    parse(&schedule_svg(
        &[],
        1.0,
        Overlap::Wfbp,
        &ScheduleOptions::default(),
    ));
    let layers = vec![
        Layer {
            forward_ms: 0.0,
            backward_ms: 0.0,
            comm_ms: 0.0,
        };
        3
    ];
    check_schedule(
        &layers,
        0.0,
        Overlap::Pipelined,
        &ScheduleOptions::default(),
    );
    check_schedule(
        &layers,
        2.0,
        Overlap::Sequential,
        &ScheduleOptions::default(),
    );
}

#[test]
fn line_charts_have_distinct_series() {
    let series: Vec<Series> = (0..7)
        .map(|k| Series {
            name: format!("series {k}"),
            points: (1..=5)
                .map(|i| Point {
                    x: i as f64,
                    mean: (i * (k + 1)) as f64,
                    spread: 0.1 * i as f64,
                })
                .collect(),
        })
        .collect();
    for (x_log, y_log) in [(false, false), (true, true)] {
        let chart = LineChart {
            title: "utility vs units".into(),
            x_label: "units".into(),
            y_label: "utility".into(),
            series: series.clone(),
            x_log,
            y_log,
            y_zero: !y_log,
            ..Default::default()
        };
        let svg = line_chart_svg(&chart);
        let doc = parse(&svg);
        let groups = with_class(&doc, "series");
        assert_eq!(groups.len(), 7);
        let mut dashes = Vec::new();
        for (g, s) in groups.iter().zip(&series) {
            let points: Vec<_> = g.descendants().filter(|n| has_class(n, "point")).collect();
            assert_eq!(points.len(), s.points.len());
            for (n, p) in points.iter().zip(&s.points) {
                assert_eq!(num(n, "data-mean"), p.mean);
                assert_eq!(num(n, "data-x"), p.x);
                assert_eq!(
                    n.descendants()
                        .filter(|e| has_class(e, "error-bar"))
                        .count(),
                    1
                );
            }
            let line = g.descendants().find(|n| has_class(n, "line")).unwrap();
            dashes.push(
                line.attribute("stroke-dasharray")
                    .unwrap_or("none")
                    .to_string(),
            );
        }
        // The first six series differ in dash pattern.
        for a in 0..6 {
            for b in a + 1..6 {
                assert_ne!(dashes[a], dashes[b]);
            }
        }
        assert!(all_text(&doc).contains("series 6"));
    }
    // Empty and degenerate charts render.
    parse(&line_chart_svg(&LineChart::default()));
    let odd = LineChart {
        series: vec![Series {
            name: "odd".into(),
            points: vec![
                Point {
                    x: 1.0,
                    mean: f64::NAN,
                    spread: 0.0,
                },
                Point {
                    x: 2.0,
                    mean: 3.0,
                    spread: f64::INFINITY,
                },
                Point {
                    x: 2.0,
                    mean: 3.0,
                    spread: 0.0,
                },
            ],
        }],
        y_log: true,
        ..Default::default()
    };
    parse(&line_chart_svg(&odd));
}

#[test]
fn scatter_points_sit_where_the_identity_says() {
    // Series 0 lies on y = x, series 1 on y = 2x; series 2 holds a duplicate and points a
    // log axis cannot show.
    let on = |k: f64| (1..=40).map(move |i| (0.01 * 1.2f64.powi(i), k * 0.01 * 1.2f64.powi(i)));
    let chart = ScatterChart {
        title: "model <vs> measured".into(),
        x_label: "measured (s)".into(),
        y_label: "model (s)".into(),
        series: vec![
            ScatterSeries {
                name: "on y = x".into(),
                points: on(1.0).collect(),
            },
            ScatterSeries {
                name: "on y = 2x".into(),
                points: on(2.0).collect(),
            },
            ScatterSeries {
                name: "odd".into(),
                points: vec![
                    (0.5, 0.5),
                    (0.5, 0.5),
                    (f64::NAN, 1.0),
                    (0.0, 1.0),
                    (1.0, -1.0),
                ],
            },
        ],
        log: true,
        identity: true,
        guides: vec![0.5, 2.0],
        ..Default::default()
    };
    let svg = scatter_svg(&chart);
    let doc = parse(&svg);
    assert!(all_text(&doc).contains("model <vs> measured"));
    // A square plot: y = x is its diagonal.
    let frame = with_class(&doc, "frame")[0];
    assert!((num(&frame, "width") - num(&frame, "height")).abs() < 0.02);
    let line = |class: &str, k: Option<f64>| {
        let n = with_class(&doc, class)
            .into_iter()
            .find(|n| k.is_none_or(|k| n.attribute("data-k") == Some(&k.to_string())))
            .unwrap_or_else(|| panic!("no {class} {k:?}"));
        [num(&n, "x1"), num(&n, "y1"), num(&n, "x2"), num(&n, "y2")]
    };
    let on_line = |l: [f64; 4], x: f64, y: f64| {
        // The distance of (x, y) from the line through the two ends, px.
        let (dx, dy) = (l[2] - l[0], l[3] - l[1]);
        ((x - l[0]) * dy - (y - l[1]) * dx).abs() / dx.hypot(dy)
    };
    let groups = with_class(&doc, "series");
    assert_eq!(groups.len(), 3);
    for (g, l) in groups
        .iter()
        .zip([line("identity", None), line("guide", Some(2.0))])
    {
        let uses: Vec<_> = g.children().filter(|n| n.has_tag_name("use")).collect();
        assert_eq!(uses.len(), 40);
        assert_eq!(num(g, "data-points"), 40.0);
        assert_eq!(num(g, "data-drawn"), 40.0);
        for u in uses {
            let d = on_line(l, num(&u, "x"), num(&u, "y"));
            // Pixels are written to 0.01 px.
            assert!(d < 0.02, "{d} px off at {:?}", u.attribute("data-x"));
        }
    }
    // The duplicate is drawn once; NaN and non-positive values are skipped on log axes.
    assert_eq!(num(&groups[2], "data-points"), 2.0);
    assert_eq!(num(&groups[2], "data-drawn"), 1.0);
    // Every series has its own marker shape.
    let shapes: Vec<&str> = doc
        .descendants()
        .filter(|n| {
            n.attribute("id")
                .is_some_and(|i| i.starts_with("scatter-marker-"))
        })
        .map(|n| n.attribute("d").unwrap())
        .collect();
    assert_eq!(shapes.len(), 3);
    assert!(shapes[0] != shapes[1] && shapes[1] != shapes[2] && shapes[0] != shapes[2]);
    // Empty charts render and say so.
    let empty = scatter_svg(&ScatterChart {
        log: true,
        identity: true,
        ..Default::default()
    });
    assert!(all_text(&parse(&empty)).contains("no data"));
}

/// Relative luminance of a `#rrggbb` colour (WCAG).
fn luminance(hex: &str) -> f64 {
    let c = |k: usize| {
        let v = u8::from_str_radix(&hex[1 + 2 * k..3 + 2 * k], 16).unwrap() as f64 / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(0) + 0.7152 * c(1) + 0.0722 * c(2)
}

/// The T heatmap of a job whose T falls steeply with the first workers and is flat over
/// most of Ω (the page's default lesson job): its colours spread over the scale — the
/// median cell of Ω is not among the darkest colours, and Ω's quartiles differ visibly.
#[test]
fn the_time_heatmap_spreads_its_colours_over_omega() {
    let s = generate(&GenerateOptions {
        jobs: 30,
        seed: 1,
        mode: smd_core::Mode::Sync,
        units: 1.0,
    });
    let plans = vec![plan(&s, Policy::Smd).unwrap()];
    let job = plans[0].jobs.iter().position(|l| l.admitted).unwrap();
    let l = landscape(&s, job, 40, &plans).unwrap();
    let svg = landscape_svg(&l, &LandscapeOptions::default());
    let doc = parse(&svg);
    let mut lum: Vec<f64> = with_class(&doc, "cell")
        .iter()
        .filter(|c| !has_class(c, "outside") && !has_class(c, "novalue"))
        .map(|c| luminance(c.attribute("fill").unwrap()))
        .collect();
    lum.sort_by(f64::total_cmp);
    let q = |f: f64| lum[((lum.len() - 1) as f64 * f) as usize];
    let darkest = luminance(&smd_charts::palette::viridis(0.25));
    assert!(q(0.5) > darkest, "median {} ≤ {darkest}", q(0.5));
    assert!(
        q(0.75) > 2.0 * q(0.25),
        "quartiles {} and {}",
        q(0.25),
        q(0.75)
    );
}

/// Two level lines that would be drawn within a few pixels of each other (steep, through
/// the same point) are drawn once, their labels joined; a line apart is drawn apart.
#[test]
fn level_lines_that_would_overlap_are_drawn_once() {
    use smd_charts::{landscape_overlay_svg, Mark, Overlay, OverlayLine};
    let l = job_landscape(&scenario(1, 6), 0);
    let opts = LandscapeOptions::default();
    let g = landscape_geometry(&l, &opts);
    let ((w0, w1), (p0, p1)) = (g.w_range(), g.p_range());
    let (wm, pm) = ((w0 + w1) / 2.0, (p0 + p1) / 2.0);
    let line = |a: [f64; 2], b: f64, label: &str| OverlayLine {
        a,
        b,
        mark: Mark::Level,
        label: label.into(),
    };
    let tilt = 0.01 * (w1 - w0) / (p1 - p0);
    let o = Overlay {
        lines: vec![
            line([1.0, 0.0], wm, "ζ₁ = (1+ε)·ν₁"),
            line([1.0, tilt], wm + tilt * pm, "ζ₃ = (1+ε)·ν₃"),
            line([1.0, 0.0], wm + (w1 - w0) / 4.0, "ζ₄ = (1+ε)·ν₄"),
        ],
        points: Vec::new(),
    };
    let svg = landscape_overlay_svg(&l, &opts, &o);
    let doc = parse(&svg);
    let drawn = with_class(&doc, "overlay-level");
    assert_eq!(drawn.len(), 2, "the two alike drawn once");
    let title = |n: &Node| {
        n.children()
            .find(|c| c.has_tag_name("title"))
            .and_then(|t| t.text())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(title(&drawn[0]), "ζ₁ = (1+ε)·ν₁ and ζ₃ = (1+ε)·ν₃");
    assert_eq!(title(&drawn[1]), "ζ₄ = (1+ε)·ν₄");
}
