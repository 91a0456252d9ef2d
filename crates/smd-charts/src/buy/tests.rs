use super::*;
use smd_sim::SimPolicy;
use smd_sweep::{frontier, Minimize};

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

/// A report of `grid` where the mean JCT falls with every machine (none without machines),
/// the mixes of `skipped` not evaluated, goal `goal` seconds.
fn report(grid: &str, skipped: &[usize], goal: Option<f64>) -> (MixReport, MixSpec) {
    let spec = MixSpec::parse(grid).unwrap();
    let prices = [8.0, 22.0, 5.0];
    let points: Vec<MixPoint> = spec
        .grid()
        .iter()
        .enumerate()
        .filter(|(i, _)| !skipped.contains(i))
        .map(|(i, c)| {
            let machines: f64 = c
                .iter()
                .zip([1.0, 3.0, 2.0])
                .map(|(&n, w)| f64::from(n) * w)
                .sum();
            MixPoint {
                index: i,
                mix: spec.named(c),
                usd_per_hour: Some(c.iter().zip(prices).map(|(&n, p)| f64::from(n) * p).sum()),
                value: (machines > 0.0).then(|| 36_000.0 / machines),
                run: None,
                note: (machines == 0.0).then(|| "no machines".to_owned()),
            }
        })
        .collect();
    let question = Question {
        metric: Metric::MeanJct,
        policy: SimPolicy::Sia,
        goal,
        budget: None,
        minimize: Minimize::Cost,
        every: false,
    };
    let best = points
        .iter()
        .filter(|p| qualifies(&question, p))
        .min_by(|a, b| a.usd_per_hour.unwrap().total_cmp(&b.usd_per_hour.unwrap()))
        .cloned();
    let n = spec.len();
    let r = MixReport {
        types: spec.axes.iter().map(|a| a.machine_type.clone()).collect(),
        axes: spec.axes.clone(),
        frontier: frontier(&points, Metric::MeanJct),
        question,
        grid: n,
        evaluated: points.len(),
        skipped: n - points.len(),
        rule: (!skipped.is_empty()).then(|| "Skipped pricier mixes.".to_owned()),
        unpriced: Vec::new(),
        best,
        points,
        answer: String::new(),
    };
    (r, spec)
}

#[test]
fn the_map_has_a_cell_per_mix_the_answer_once_and_the_skipped_hatched() {
    let (r, spec) = report("t4x4=0:8:2,a100x8=0:3", &[18, 19], Some(3600.0));
    let svg = mix_map_svg(&r, &spec, &BuyOptions::default());
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.attribute("data-testid"), Some("mix-map"));
    assert_eq!(root.attribute("data-cells"), Some("20"));
    let cells = with_class(&doc, "mix-cell");
    assert_eq!(cells.len(), 20);
    let mut indices: Vec<usize> = cells
        .iter()
        .map(|c| c.attribute("data-index").unwrap().parse().unwrap())
        .collect();
    indices.sort();
    assert_eq!(indices, (0..20).collect::<Vec<_>>());
    let state = |s: &str| {
        cells
            .iter()
            .filter(|c| c.attribute("data-state") == Some(s))
            .count()
    };
    assert_eq!(state("skipped"), 2);
    assert_eq!(state("no-value"), 1, "no machines");
    assert_eq!(state("evaluated"), 17);
    for c in cells
        .iter()
        .filter(|c| c.attribute("data-state") == Some("skipped"))
    {
        let tip = c.children().find(|n| n.has_tag_name("title")).unwrap();
        assert!(
            tip.text().unwrap().contains("not evaluated"),
            "{:?}",
            tip.text()
        );
        let fill = c.children().find(|n| n.has_tag_name("rect")).unwrap();
        assert_eq!(fill.attribute("fill"), Some("url(#mix-map-hatch)"));
    }
    // The answer, marked once, where the report says.
    let best = with_class(&doc, "best");
    assert_eq!(best.len(), 1);
    assert_eq!(
        best[0].attribute("data-index"),
        Some(r.best.as_ref().unwrap().index.to_string().as_str())
    );
    // The cells' values are the report's, exactly.
    for p in &r.points {
        let c = cells
            .iter()
            .find(|c| c.attribute("data-index") == Some(p.index.to_string().as_str()))
            .unwrap();
        let v = c.attribute("data-value").unwrap();
        assert_eq!(v.parse::<f64>().ok(), p.value, "{}", p.index);
        assert_eq!(
            c.attribute("data-qualifies"),
            Some(qualifies(&r.question, p).to_string().as_str())
        );
    }
}

/// The boundary runs exactly along the edges between an evaluated mix that meets the goal
/// and an evaluated neighbour that does not.
#[test]
fn the_boundary_parts_the_mixes_that_meet_the_goal() {
    let (r, spec) = report("t4x4=0:8:2,a100x8=0:3", &[], Some(3600.0));
    let doc_text = mix_map_svg(&r, &spec, &BuyOptions::default());
    let doc = parse(&doc_text);
    let grid = spec.grid();
    let meets = |c: &[u32]| {
        r.points
            .iter()
            .find(|p| spec.grid()[p.index] == c)
            .is_some_and(|p| qualifies(&r.question, p))
    };
    let mut expected = 0;
    for c in &grid {
        for (k, axis) in spec.axes.iter().enumerate() {
            let at = axis.counts.iter().position(|&x| x == c[k]).unwrap();
            if let Some(&next) = axis.counts.get(at + 1) {
                let mut d = c.clone();
                d[k] = next;
                if meets(c) != meets(&d) {
                    expected += 1;
                }
            }
        }
    }
    assert!(expected > 0);
    let b = with_class(&doc, "qualify-boundary");
    assert_eq!(b.len(), 1);
    assert_eq!(
        b[0].attribute("data-segments"),
        Some(expected.to_string().as_str())
    );
    // Two strokes (halo and line) per segment.
    assert_eq!(
        b[0].children().filter(|n| n.has_tag_name("line")).count(),
        2 * expected
    );
    // Without a goal or budget: no boundary.
    let (r, spec) = report("t4x4=0:8:2,a100x8=0:3", &[], None);
    let svg = mix_map_svg(&r, &spec, &BuyOptions::default());
    assert_eq!(with_class(&parse(&svg), "qualify-boundary").len(), 0);
}

#[test]
fn one_type_is_a_strip_and_three_have_no_map() {
    let (r, spec) = report("t4x4=0:16:2", &[], Some(7200.0));
    let svg = mix_map_svg(&r, &spec, &BuyOptions::default());
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "mix-cell").len(), 9);
    let (r, spec) = report("t4x4=0:2,a100x8=0:1,rtx6000x4=0:1", &[], Some(7200.0));
    let svg = mix_map_svg(&r, &spec, &BuyOptions::default());
    let doc = parse(&svg);
    assert_eq!(doc.root_element().attribute("data-cells"), Some("0"));
    assert_eq!(with_class(&doc, "mix-cell").len(), 0);
    assert!(svg.contains("one or two types"));
}

#[test]
fn the_frontier_joins_exactly_its_mixes_and_marks_the_answer() {
    let (r, _) = report("t4x4=0:8:2,a100x8=0:3", &[18, 19], Some(3600.0));
    assert!(r.frontier.len() >= 3);
    let svg = mix_frontier_svg(&r, &BuyOptions::default());
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.attribute("data-testid"), Some("mix-frontier"));
    let with_value = r.points.iter().filter(|p| p.value.is_some()).count();
    assert_eq!(
        root.attribute("data-points"),
        Some(with_value.to_string().as_str())
    );
    let dots = with_class(&doc, "mix-point");
    assert_eq!(dots.len(), with_value);
    let line = with_class(&doc, "frontier");
    assert_eq!(line.len(), 1);
    let pts = line[0].attribute("points").unwrap().split(' ').count();
    assert_eq!(pts, r.frontier.len());
    assert_eq!(
        line[0].attribute("data-points"),
        Some(r.frontier.len().to_string().as_str())
    );
    let on: Vec<usize> = dots
        .iter()
        .filter(|d| d.attribute("data-frontier") == Some("true"))
        .map(|d| d.attribute("data-index").unwrap().parse().unwrap())
        .collect();
    let mut expected: Vec<usize> = r.frontier.iter().map(|p| p.index).collect();
    let mut on = on;
    on.sort();
    expected.sort();
    assert_eq!(on, expected);
    let best = with_class(&doc, "best");
    assert_eq!(best.len(), 1);
    assert_eq!(
        best[0].attribute("data-index"),
        Some(r.best.as_ref().unwrap().index.to_string().as_str())
    );
    assert_eq!(with_class(&doc, "goal").len(), 1);
    // Times within ten times of each other (5 h … 0.6 h): a linear axis.
    assert_eq!(root.attribute("data-log"), Some("false"));
}

#[test]
fn without_prices_the_frontier_says_so() {
    let (mut r, _) = report("t4x4=0:2", &[], None);
    for p in r.points.iter_mut() {
        p.usd_per_hour = None;
    }
    r.frontier.clear();
    r.unpriced = vec!["rtx2080tix8".into()];
    let svg = mix_frontier_svg(&r, &BuyOptions::default());
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "mix-point").len(), 0);
    assert_eq!(with_class(&doc, "frontier").len(), 0);
    assert!(svg.contains("no prices: rtx2080tix8 has none"), "{svg}");
}
