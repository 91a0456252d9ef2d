use super::*;
use smd_core::scenario::Resources;
use smd_sweep::{Outcome, Size, TimeOutcome};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

fn with_class<'a>(
    doc: &'a roxmltree::Document<'a>,
    class: &'a str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

fn outcome(u: f64, admitted: usize, gpu: f64) -> Outcome {
    Outcome {
        total_utility: u,
        admitted,
        used: Resources {
            gpu,
            ..Resources::default()
        },
        solve_ms: 1.0,
        gap: None,
    }
}

fn time(u: f64, jct: Option<f64>) -> TimeOutcome {
    TimeOutcome {
        total_utility: u,
        bound: 100.0,
        finished: 3,
        unfinished: 1,
        mean_jct_s: jct,
        mean_queue_s: jct.map(|j| j / 2.0),
        p95_jct_s: jct.map(|j| 2.0 * j),
        gpu_hours: u,
        cost_usd: None,
        usd_per_hour: None,
        cost_per_job_usd: None,
        run_ms: 1.0,
    }
}

/// Units 1…5: global reaches 95% of its 100 at 3 units; smd lags. Given out of order, as
/// a pool of workers returns them.
fn report(over_time: bool) -> Report {
    let global = [40.0, 80.0, 96.0, 99.0, 100.0];
    let smd = [30.0, 60.0, 70.0, 80.0, 90.0];
    let points = [4, 0, 2, 1, 3]
        .into_iter()
        .map(|i| {
            let s = (i + 1) as f64;
            PointResult {
                size: Size::Units(s),
                resource: None,
                machine: None,
                capacity: Resources {
                    gpu: 10.0 * s,
                    vcpu: 100.0 * s,
                    ..Resources::default()
                },
                policies: vec![
                    (Policy::Smd, outcome(smd[i], i + 1, 5.0 * s)),
                    (Policy::Global, outcome(global[i], i + 2, 8.0 * s)),
                ],
                over_time: if over_time {
                    vec![
                        (SimPolicy::Fifo, time(10.0 * s, Some(3600.0 * (6.0 - s)))),
                        (SimPolicy::Bound, time(100.0, None)),
                    ]
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    Report::new(points)
}

#[test]
fn the_utility_chart_marks_the_knee_at_its_size() {
    let r = report(false);
    assert_eq!(r.knee.size, Some(3.0));
    let svg = sweep_svg(&r, SweepMetric::Utility, &SweepOptions::default());
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.attribute("data-testid"), Some("sweep-chart"));
    assert_eq!(root.attribute("data-knee"), Some("3"));
    assert_eq!(root.attribute("data-best-policy"), Some("global"));
    assert_eq!(root.attribute("data-points"), Some("5"));
    let series = with_class(&doc, "series");
    let names: Vec<_> = series.iter().map(|s| s.attribute("data-policy")).collect();
    assert_eq!(names, [Some("smd"), Some("global")]);
    // Points in ascending size, with their exact values.
    let global: Vec<_> = series[1]
        .children()
        .filter(|n| n.attribute("class") == Some("point"))
        .collect();
    let values: Vec<f64> = global
        .iter()
        .map(|p| p.attribute("data-value").unwrap().parse().unwrap())
        .collect();
    assert_eq!(values, [40.0, 80.0, 96.0, 99.0, 100.0]);
    // The knee's rule stands where global's point of size 3 is.
    let knee = with_class(&doc, "knee");
    assert_eq!(knee.len(), 1);
    assert_eq!(knee[0].attribute("data-size"), Some("3"));
    let at = global
        .iter()
        .find(|p| p.attribute("data-size") == Some("3"))
        .unwrap();
    assert_eq!(knee[0].attribute("x1"), at.attribute("data-px"));
    assert_eq!(knee[0].attribute("x2"), at.attribute("data-px"));
    // Halfway between the sizes 1 and 5 of the x axis: 3 is the plot's middle.
    let frame = with_class(&doc, "frame")[0];
    let (fx, fw): (f64, f64) = (
        frame.attribute("x").unwrap().parse().unwrap(),
        frame.attribute("width").unwrap().parse().unwrap(),
    );
    let x: f64 = knee[0].attribute("x1").unwrap().parse().unwrap();
    assert!((x - (fx + fw / 2.0)).abs() < 0.02, "{x} vs {fx} + {fw}/2");
    let label = with_class(&doc, "knee-label")[0].text().unwrap();
    assert_eq!(label, "knee: 3 units");
    // The 95% level.
    let share = with_class(&doc, "knee-share")[0];
    assert_eq!(share.attribute("y1"), share.attribute("y2"));
    // Its tooltip is the answer.
    let tip = knee[0].first_child().unwrap().text().unwrap();
    assert_eq!(tip, r.knee.answer);
}

#[test]
fn the_companion_charts_plot_admitted_jobs_and_use_of_capacity() {
    let r = report(false);
    let svg = sweep_svg(&r, SweepMetric::Admitted, &SweepOptions::default());
    let doc = parse(&svg);
    assert_eq!(
        doc.root_element().attribute("data-testid"),
        Some("sweep-admitted")
    );
    assert_eq!(doc.root_element().attribute("data-knee"), None);
    assert!(with_class(&doc, "knee").is_empty());
    let first = with_class(&doc, "point")[0];
    assert_eq!(first.attribute("data-value"), Some("1"));
    // GPU use: smd uses 5 of 10 per unit, 50%.
    let svg = sweep_svg(&r, SweepMetric::Use(None), &SweepOptions::default());
    let doc = parse(&svg);
    assert_eq!(
        doc.root_element().attribute("data-testid"),
        Some("sweep-use")
    );
    assert!(with_class(&doc, "point")
        .iter()
        .take(5)
        .all(|p| p.attribute("data-value") == Some("50")));
    assert_eq!(use_resource(&r), Resource::Gpu, "the only one used");
    let mut mem = r.clone();
    for p in &mut mem.points {
        p.capacity.memory_gb = 10.0;
        for (_, o) in &mut p.policies {
            o.used.memory_gb = 9.5;
        }
    }
    assert_eq!(use_resource(&mem), Resource::MemoryGb, "the most used");
    // vCPU: nothing used.
    let svg = sweep_svg(
        &r,
        SweepMetric::Use(Some(Resource::Vcpu)),
        &SweepOptions::default(),
    );
    assert!(svg.contains("Use of vCPU against cluster units"));
}

#[test]
fn over_time_charts_leave_the_bound_out_of_jct_and_queueing() {
    let r = report(true);
    let svg = sweep_svg(&r, SweepMetric::OverTimeUtility, &SweepOptions::default());
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.attribute("data-testid"), Some("sweep-over-time-chart"));
    // fifo rises to 50 at 5 units: 95% of it is 47.5, reached only at 5.
    assert_eq!(root.attribute("data-best-policy"), Some("fifo"));
    assert_eq!(root.attribute("data-knee"), Some("5"));
    assert_eq!(with_class(&doc, "series").len(), 2, "fifo and the bound");
    for (metric, id) in [
        (SweepMetric::MeanJct, "sweep-jct"),
        (SweepMetric::MeanQueue, "sweep-queue"),
    ] {
        let svg = sweep_svg(&r, metric, &SweepOptions::default());
        let doc = parse(&svg);
        assert_eq!(doc.root_element().attribute("data-testid"), Some(id));
        let series = with_class(&doc, "series");
        assert_eq!(series.len(), 1);
        assert_eq!(series[0].attribute("data-policy"), Some("fifo"));
    }
    // Mean JCT in hours: 5 h at 1 unit.
    let svg = sweep_svg(&r, SweepMetric::MeanJct, &SweepOptions::default());
    let doc = parse(&svg);
    assert_eq!(
        with_class(&doc, "point")[0].attribute("data-value"),
        Some("5")
    );
}

/// One policy far off: a JCT that spans more than ten times goes on a log axis, where
/// equal ratios are equal distances; a narrow span, counts and utility stay linear.
#[test]
fn a_policy_far_off_puts_times_on_a_log_axis() {
    let mut r = report(true);
    // fifo 5, 4, 3, 2, 1 h; oasis 70 h at every size.
    for p in r.points.iter_mut() {
        p.over_time
            .push((SimPolicy::Oasis, time(1.0, Some(70.0 * 3600.0))));
    }
    for metric in [
        SweepMetric::MeanJct,
        SweepMetric::P95Jct,
        SweepMetric::MeanQueue,
    ] {
        let svg = sweep_svg(&r, metric, &SweepOptions::default());
        let doc = parse(&svg);
        assert_eq!(
            doc.root_element().attribute("data-log"),
            Some("true"),
            "{metric:?}"
        );
        // fifo's points: 1 h → 2 h and 2 h → 4 h are the same height apart.
        let fifo = with_class(&doc, "series")
            .into_iter()
            .find(|g| g.attribute("data-policy") == Some("fifo"))
            .unwrap();
        let ys: Vec<f64> = fifo
            .descendants()
            .filter(|n| n.attribute("class") == Some("point"))
            .map(|g| g.attribute("data-py").unwrap().parse::<f64>().unwrap())
            .collect();
        let values: Vec<f64> = fifo
            .descendants()
            .filter(|n| n.attribute("class") == Some("point"))
            .map(|g| g.attribute("data-value").unwrap().parse().unwrap())
            .collect();
        let at = |v: f64| {
            values
                .iter()
                .position(|x| (x - v).abs() < 1e-9 * v.max(1.0))
                .unwrap()
        };
        let (one, two, four) = match metric {
            SweepMetric::MeanQueue => (0.5, 1.0, 2.0),
            SweepMetric::P95Jct => (2.0, 4.0, 8.0),
            _ => (1.0, 2.0, 4.0),
        };
        let d1 = ys[at(one)] - ys[at(two)];
        let d2 = ys[at(two)] - ys[at(four)];
        assert!((d1 - d2).abs() < 1.0, "{metric:?}: {d1} vs {d2}");
    }
    // Without the far-off policy: linear.
    let svg = sweep_svg(
        &report(true),
        SweepMetric::MeanJct,
        &SweepOptions::default(),
    );
    assert_eq!(
        parse(&svg).root_element().attribute("data-log"),
        Some("false")
    );
    assert!(!log_axis(SweepMetric::Finished, 1.0, 100.0));
    assert!(!log_axis(SweepMetric::Utility, 1.0, 100.0));
}

#[test]
fn empty_and_degenerate_sweeps_still_parse() {
    let empty = Report::new(Vec::new());
    for m in [
        SweepMetric::Utility,
        SweepMetric::Admitted,
        SweepMetric::Use(None),
        SweepMetric::OverTimeUtility,
        SweepMetric::MeanJct,
        SweepMetric::MeanQueue,
    ] {
        let svg = sweep_svg(&empty, m, &SweepOptions::default());
        let doc = parse(&svg);
        assert_eq!(with_class(&doc, "point").len(), 0);
    }
    let svg = sweep_svg(&empty, SweepMetric::Utility, &SweepOptions::default());
    assert_eq!(with_class(&parse(&svg), "no-data").len(), 1);
    // One size, no utility at all: no knee, still a chart; text is escaped.
    let mut r = report(false);
    r.points.truncate(1);
    for (_, o) in &mut r.points[0].policies {
        o.total_utility = 0.0;
    }
    r.points[0].machine = Some("a<b".into());
    r.points[0].size = Size::Machines(2.0);
    let r = Report::new(r.points);
    assert_eq!(r.knee.size, None);
    let svg = sweep_svg(&r, SweepMetric::Utility, &SweepOptions::default());
    let doc = parse(&svg);
    assert_eq!(doc.root_element().attribute("data-knee"), Some(""));
    assert!(with_class(&doc, "knee").is_empty());
    assert!(svg.contains("a&lt;b machines"));
    // A tiny size still draws.
    let svg = sweep_svg(
        &r,
        SweepMetric::Utility,
        &SweepOptions {
            width: 1.0,
            height: 1.0,
        },
    );
    parse(&svg);
}

/// The knee's label keeps clear of every line: over time the bound's flat line runs along
/// the top of the plot, where the label used to sit; its box (11 px text) crosses no
/// segment of a series, nor the 95% level.
#[test]
fn the_knee_label_does_not_overlap_the_bound_line() {
    let r = report(true);
    for metric in [SweepMetric::OverTimeUtility, SweepMetric::Utility] {
        let svg = sweep_svg(&r, metric, &SweepOptions::default());
        let doc = parse(&svg);
        let label = with_class(&doc, "knee-label")[0];
        let num = |n: roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
        let (x, y) = (num(label, "x"), num(label, "y"));
        let w = text_width(label.text().unwrap(), 11.0);
        let left = if label.attribute("text-anchor") == Some("end") {
            x - w
        } else {
            x
        };
        let rect = Rect {
            x: left,
            y: y - 11.0,
            width: w,
            height: 14.0,
        };
        let frame = with_class(&doc, "frame")[0];
        let plot = Rect {
            x: num(frame, "x"),
            y: num(frame, "y"),
            width: num(frame, "width"),
            height: num(frame, "height"),
        };
        assert!(
            rect.x >= plot.x
                && rect.right() <= plot.right()
                && rect.y >= plot.y
                && rect.bottom() <= plot.bottom(),
            "{metric:?}: the label stays in the plot: {rect:?} in {plot:?}"
        );
        for s in with_class(&doc, "series") {
            let pts: Vec<Option<(f64, f64)>> = s
                .children()
                .filter(|n| n.attribute("class") == Some("point"))
                .map(|p| Some((num(p, "data-px"), num(p, "data-py"))))
                .collect();
            assert_eq!(
                polyline_hits(&pts, &rect),
                0,
                "{metric:?}: the knee label {rect:?} overlaps {}'s line",
                s.attribute("data-policy").unwrap()
            );
        }
        let share = with_class(&doc, "knee-share")[0];
        let ly = num(share, "y1");
        assert!(
            ly < rect.y || ly > rect.bottom(),
            "{metric:?}: on the 95% level"
        );
    }
    // The bound is drawn across the top, where the label was.
    let svg = sweep_svg(&r, SweepMetric::OverTimeUtility, &SweepOptions::default());
    let doc = parse(&svg);
    let bound = with_class(&doc, "series")
        .into_iter()
        .find(|s| s.attribute("data-policy") == Some("bound"))
        .unwrap();
    let frame_y: f64 = with_class(&doc, "frame")[0]
        .attribute("y")
        .unwrap()
        .parse()
        .unwrap();
    let by: f64 = bound
        .children()
        .find(|n| n.attribute("class") == Some("point"))
        .unwrap()
        .attribute("data-py")
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        by - frame_y < 20.0,
        "the bound runs along the top ({by} vs {frame_y})"
    );
}

/// A segment crosses a box when any of its points is inside; one beside or beyond does not.
#[test]
fn segments_cross_boxes_by_geometry() {
    let r = Rect {
        x: 10.0,
        y: 10.0,
        width: 20.0,
        height: 10.0,
    };
    assert!(segment_crosses((0.0, 15.0), (40.0, 15.0), &r));
    assert!(segment_crosses((15.0, 12.0), (16.0, 13.0), &r), "inside");
    assert!(!segment_crosses((0.0, 5.0), (40.0, 5.0), &r), "above");
    assert!(!segment_crosses((0.0, 0.0), (9.0, 40.0), &r), "left of it");
    assert!(
        segment_crosses((0.0, 0.0), (40.0, 40.0), &r),
        "diagonal through"
    );
    assert_eq!(
        polyline_hits(&[Some((0.0, 15.0)), None, Some((40.0, 15.0))], &r),
        0
    );
}
