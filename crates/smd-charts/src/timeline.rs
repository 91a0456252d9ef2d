//! A simulation's timeline (`smd_sim::Run`): one row per job over simulated time, each
//! segment a bar coloured by its allocation's size, the waiting drawn as a thin grey line.

use crate::axes::{scale_ticks_at, x_title, Axis};
use crate::format::duration;
use crate::legend::colour_bar;
use crate::palette::viridis;
use crate::rect::Rect;
use crate::scale::Scale;
use crate::svg::{end, group, root, text_at, text_width, Tag};
use smd_sim::{JobRun, Run, Segment};

/// Options of [`timeline_svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineOptions {
    /// Width of the SVG, px (its height follows from the rows).
    pub width: f64,
    /// Height of one job's row, px; `None` chooses it from the number of jobs (16 px for a
    /// few jobs, down to 5 px for hundreds).
    pub row_height: Option<f64>,
    /// A job to highlight (its id): its row gets a band.
    pub highlight: Option<String>,
    /// The scenario simulated: with it a segment's tooltip says where it ran, its GPUs by
    /// type (`8 × A100 on a100x8-0`, `smd_core::plan::placement_words`).
    pub scenario: Option<std::rc::Rc<smd_core::Scenario>>,
}

impl Default for TimelineOptions {
    fn default() -> Self {
        TimelineOptions {
            width: 900.0,
            row_height: None,
            highlight: None,
            scenario: None,
        }
    }
}

/// The unit a time axis spanning `span` seconds reads best in: its name and seconds per unit.
pub(crate) fn time_unit(span: f64) -> (&'static str, f64) {
    if span >= 3.0 * 3600.0 {
        ("h", 3600.0)
    } else if span >= 180.0 {
        ("min", 60.0)
    } else {
        ("s", 1.0)
    }
}

/// Ticks of a time axis (`scale` in seconds) at nice values in `unit`.
pub(crate) fn time_ticks(scale: &Scale, target: usize, per_unit: f64) -> Vec<crate::axes::Tick> {
    let shown = Scale {
        lo: scale.lo / per_unit,
        hi: scale.hi / per_unit,
        ..*scale
    };
    scale_ticks_at(&shown, target, |v| scale.to_px(v * per_unit))
}

/// The end of a run's last slot, s; 0 without slots.
pub(crate) fn last_slot_end(run: &Run) -> f64 {
    run.slots.last().map_or(0.0, |s| s.start_s + run.slot_s)
}

/// The end of a run's simulated time, s: the last segment's end, arrival or slot (> 0).
pub(crate) fn run_end(run: &Run) -> f64 {
    let last_slot = last_slot_end(run);
    let t = run
        .jobs
        .iter()
        .flat_map(|j| {
            std::iter::once(j.arrival_s)
                .chain(j.completion_s)
                .chain(j.segments.iter().map(|s| s.end_s))
        })
        .chain(std::iter::once(last_slot))
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    if t > 0.0 {
        t
    } else {
        1.0
    }
}

/// The row height for `n` jobs.
fn auto_row(n: usize) -> f64 {
    (480.0 / n.max(1) as f64).clamp(5.0, 16.0)
}

/// The timeline of `run` as a standalone SVG document: jobs as rows (in the run's order)
/// against simulated time; each segment a bar coloured by w + p (viridis, with a colour
/// bar), the time from arrival to the first start and between segments (waiting, restarts)
/// a thin grey line; a job that never ran waits to the end of the run.
///
/// Stable hooks: the root carries `data-testid="timeline-chart"`, `data-policy`,
/// `data-jobs` and `data-tmax` (seconds at the axis end); each job is a `g.job-row` with
/// `data-job` (its id) and `data-index` (class `highlight` for
/// [`TimelineOptions::highlight`]); each segment a `rect.segment` with `data-workers`,
/// `data-ps`, `data-start`, `data-end` and a `<title>` (job, (w, p), start and end); each
/// wait a `line.wait` with `data-start`, `data-end`.
pub fn timeline_svg(run: &Run, opts: &TimelineOptions) -> String {
    let n = run.jobs.len();
    let row = opts
        .row_height
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or_else(|| auto_row(n))
        .clamp(2.0, 40.0);
    let label_size = (row - 2.0).min(10.0);
    let labels = label_size >= 6.0;
    let label_w = if labels {
        run.jobs
            .iter()
            .map(|j| text_width(&j.id, label_size))
            .fold(0.0_f64, f64::max)
            .clamp(30.0, 140.0)
    } else {
        30.0
    };
    let width = opts.width.max(360.0);
    let (left, right_room) = (label_w + 14.0, 96.0);
    let top = 44.0;
    let plot_h = (n.max(1) as f64) * row;
    let height = top + plot_h + 50.0;
    let t_max = run_end(run);
    let time = Scale {
        lo: 0.0,
        hi: t_max,
        px: (left, width - right_room),
        log: false,
    };
    let colour = size_scale(run);

    let mut out = String::with_capacity(512 + n * 600);
    let label = format!(
        "Timeline of {}: {n} jobs over {}",
        run.policy.name(),
        duration(t_max)
    );
    root(
        &mut out,
        width,
        height,
        "smd-timeline",
        &label,
        &[
            ("data-testid", "timeline-chart".into()),
            ("data-policy", run.policy.name().into()),
            ("data-jobs", n.to_string()),
            ("data-tmax", t_max.to_string()),
        ],
    );
    text_at(
        &mut out,
        left,
        22.0,
        15.0,
        "start",
        "title",
        &format!("{}: each job's segments over time", run.policy.name()),
    );
    time_axis(&mut out, &time, top, plot_h);
    if n == 0 {
        text_at(
            &mut out,
            (left + time.px.1) / 2.0,
            top + plot_h / 2.0 + 4.0,
            13.0,
            "middle",
            "no-data",
            "no jobs",
        );
    }
    let colour_of = |s: f64| match &colour {
        Some(c) => viridis(c.fraction(s)),
        None => viridis(0.5),
    };
    Tag::new(&mut out, "g")
        .attr("class", "rows")
        .attr("shape-rendering", "crispEdges")
        .open();
    // Where a segment ran, in words, when the scenario is known.
    let place = |i: usize, s: &Segment| -> Option<String> {
        let sc = opts.scenario.as_deref()?;
        let shares = s.placement.as_deref().filter(|p| !p.is_empty())?;
        let per = sc.jobs.get(i).map_or(1.0, |j| j.worker.gpu);
        Some(smd_core::plan::placement_words(&sc.cluster, shares, per))
    };
    for (i, j) in run.jobs.iter().enumerate() {
        let y = top + i as f64 * row;
        let highlight = opts.highlight.as_deref() == Some(j.id.as_str());
        job_row(
            &mut out,
            (i, y, row),
            j,
            &time,
            (labels, label_size, highlight),
            &colour_of,
            &|s| place(i, s),
        );
    }
    end(&mut out, "g");
    // The colour bar for w + p.
    let bar_h = plot_h.clamp(60.0, 220.0);
    let bar = Rect {
        x: width - right_room + 18.0,
        y: top + 14.0,
        width: 14.0,
        height: bar_h - 14.0,
    };
    let scale = colour.map(|c| Scale {
        px: (bar.bottom(), bar.y),
        ..c
    });
    colour_bar(&mut out, &bar, scale.as_ref(), "w + p", "no segments");
    end(&mut out, "svg");
    out
}

/// The colour scale of a segment's w + p over the run (`None`: no segments).
fn size_scale(run: &Run) -> Option<Scale> {
    let sizes: Vec<f64> = run
        .jobs
        .iter()
        .flat_map(|j| j.segments.iter().map(|s| (s.workers + s.ps) as f64))
        .collect();
    (!sizes.is_empty()).then(|| {
        let lo = sizes.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = sizes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            (lo - 0.5, hi + 0.5)
        };
        Scale {
            lo,
            hi,
            px: (0.0, 1.0),
            log: false,
        }
    })
}

/// The time axis below the rows, its grid lines up to `top` and its title.
fn time_axis(out: &mut String, time: &Scale, top: f64, plot_h: f64) {
    let left = time.px.0;
    let (unit, per_unit) = time_unit(time.hi);
    let ticks = time_ticks(time, ((time.px.1 - left) / 80.0) as usize, per_unit);
    group(out, "axes");
    Axis::bottom(top + plot_h)
        .grid(top)
        .gap(16.0)
        .draw(out, &ticks);
    Axis::bottom(top + plot_h)
        .line(left, time.px.1)
        .draw(out, &[]);
    x_title(
        out,
        (left + time.px.1) / 2.0,
        top + plot_h + 36.0,
        &format!("simulated time ({unit})"),
    );
    end(out, "g");
}

/// Row `i` at `y` of height `row`: its band, label, waits and segments.
fn job_row(
    out: &mut String,
    (i, y, row): (usize, f64, f64),
    j: &JobRun,
    time: &Scale,
    (labels, label_size, highlight): (bool, f64, bool),
    colour_of: &dyn Fn(f64) -> String,
    place: &dyn Fn(&Segment) -> Option<String>,
) {
    let class = if highlight {
        "job-row highlight"
    } else {
        "job-row"
    };
    let out = Tag::new(out, "g")
        .attr("class", class)
        .attr("data-job", &j.id)
        .attr("data-index", i)
        .open();
    let (x0, x1) = time.px;
    if highlight || i % 2 == 1 {
        Tag::new(out, "rect")
            .attr("class", "band")
            .rect(Rect {
                x: x0,
                y,
                width: x1 - x0,
                height: row,
            })
            .attr("fill", if highlight { "#fde9c8" } else { "#f6f6f6" })
            .close();
    }
    if labels {
        text_at(
            out,
            x0 - 6.0,
            y + row / 2.0 + label_size * 0.35,
            label_size,
            "end",
            "job-label",
            &j.id,
        );
    }
    let mid = y + row / 2.0;
    // Waiting: arrival → first start, between segments, and to the end for a job that
    // never ran.
    let mut waits = Vec::new();
    match j.segments.first() {
        Some(s) => waits.push((j.arrival_s, s.start_s)),
        None => waits.push((j.arrival_s, time.hi)),
    }
    for w in j.segments.windows(2) {
        waits.push((w[0].end_s, w[1].start_s));
    }
    for (a, b) in waits.into_iter().filter(|(a, b)| b > a) {
        Tag::new(out, "line")
            .attr("class", "wait")
            .attr("data-start", a)
            .attr("data-end", b)
            .ends(time.to_px(a), mid, time.to_px(b), mid)
            .attr("stroke", "#9a9a9a")
            .px("stroke-width", 1.0)
            .titled(
                "line",
                &format!("{}: waiting from {} to {}", j.id, duration(a), duration(b)),
            );
    }
    let h = (row * 0.72).max(1.5);
    for s in &j.segments {
        let x = time.to_px(s.start_s);
        let w = (time.to_px(s.end_s) - x).max(0.0);
        let fill = colour_of((s.workers + s.ps) as f64);
        let mut t = Tag::new(out, "rect")
            .attr("class", "segment")
            .attr("data-workers", s.workers)
            .attr("data-ps", s.ps)
            .attr("data-start", s.start_s)
            .attr("data-end", s.end_s)
            .rect(Rect {
                x,
                y: mid - h / 2.0,
                width: w,
                height: h,
            })
            .attr("fill", &fill);
        if w < 1.0 {
            // A segment thinner than a pixel stays visible as a hairline.
            t = t.attr("stroke", &fill).px("stroke-width", 1.0);
        }
        t.titled(
            "rect",
            &match place(s) {
                Some(at) => format!(
                    "{}: {at} from {} to {}",
                    j.id,
                    duration(s.start_s),
                    duration(s.end_s)
                ),
                None => format!(
                    "{}: (w, p) = ({}, {}) from {} to {}",
                    j.id,
                    s.workers,
                    s.ps,
                    duration(s.start_s),
                    duration(s.end_s)
                ),
            },
        );
    }
    end(out, "g");
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use smd_core::scenario::Resources;
    use smd_sim::{Metrics, Segment, SimPolicy, SlotUse};

    pub(crate) fn segment(start_s: f64, end_s: f64, workers: u64, ps: u64) -> Segment {
        Segment {
            start_s,
            end_s,
            workers,
            ps,
            placement: None,
            locality_factor: 1.0,
            iterations: 10.0,
            slowdown: None,
            continues: false,
        }
    }

    pub(crate) fn job(id: &str, arrival_s: f64, segments: Vec<Segment>) -> JobRun {
        let completion_s = segments.last().map(|s| s.end_s);
        JobRun {
            id: id.into(),
            arrival_s,
            first_start_s: segments.first().map(|s| s.start_s),
            completion_s,
            jct_s: completion_s.map(|c| c - arrival_s),
            utility: if completion_s.is_some() { 1.0 } else { 0.0 },
            restarts: segments.len().saturating_sub(1) as u64,
            segments,
            waiting: None,
        }
    }

    /// Three jobs: one in two segments after a wait, one at once, one that never ran.
    pub(crate) fn fixture(policy: SimPolicy) -> Run {
        let jobs = vec![
            job(
                "a<&>",
                0.0,
                vec![segment(600.0, 1800.0, 2, 1), segment(1830.0, 3600.0, 6, 3)],
            ),
            job("b", 300.0, vec![segment(330.0, 5400.0, 1, 1)]),
            job("c", 900.0, Vec::new()),
        ];
        let slots = (0..4)
            .map(|k| SlotUse {
                start_s: 1800.0 * k as f64,
                used: Resources {
                    gpu: [3.0, 9.0, 1.0, 0.0][k],
                    ..Resources::default()
                },
                gpus: None,
            })
            .collect();
        Run {
            policy,
            jobs,
            slots,
            slot_s: 1800.0,
            metrics: Metrics {
                total_utility: 2.0,
                bound: 3.0,
                mean_jct_s: Some(4350.0),
                median_jct_s: Some(3600.0),
                p95_jct_s: Some(5100.0),
                makespan_s: Some(5400.0),
                mean_queue_s: Some(315.0),
                p95_queue_s: Some(600.0),
                restarts: 1,
                cross_traffic_gbit: 0.0,
                unfinished: 1,
                sharing: None,
            },
            stats: None,
            cost: None,
        }
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).expect("the SVG parses")
    }

    fn count(doc: &roxmltree::Document, class: &str) -> usize {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    }

    #[test]
    fn a_bar_per_segment_and_a_line_per_wait() {
        let run = fixture(SimPolicy::Smd);
        let svg = timeline_svg(&run, &TimelineOptions::default());
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("data-testid"), Some("timeline-chart"));
        assert_eq!(root.attribute("data-policy"), Some("smd"));
        assert_eq!(root.attribute("data-jobs"), Some("3"));
        assert_eq!(count(&doc, "job-row"), 3);
        assert_eq!(count(&doc, "segment"), 3);
        // a: arrival → first start, and the restart between its segments; b: its restart
        // time; c: never ran, waits to the end.
        assert_eq!(count(&doc, "wait"), 4);
        let bars: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("segment"))
            .collect();
        assert_eq!(bars[1].attribute("data-workers"), Some("6"));
        assert_eq!(bars[1].attribute("data-ps"), Some("3"));
        let tip = bars[0]
            .children()
            .find(|c| c.has_tag_name("title"))
            .unwrap();
        assert_eq!(
            tip.text(),
            Some("a<&>: (w, p) = (2, 1) from 10.0 min to 30.0 min")
        );
        // The largest allocation is the colour bar's top: viridis' end.
        assert_eq!(bars[1].attribute("fill"), Some(viridis(1.0).as_str()));
        assert_eq!(bars[2].attribute("fill"), Some(viridis(0.0).as_str()));
        assert!(svg.contains("data-job=\"a&lt;&amp;&gt;\""));
        assert_eq!(count(&doc, "colour-bar"), 1);
    }

    #[test]
    fn many_jobs_get_thin_rows_and_no_labels() {
        let mut run = fixture(SimPolicy::Fifo);
        run.jobs = (0..200)
            .map(|i| {
                let a = 60.0 * i as f64;
                job(
                    &format!("job-{i:03}"),
                    a,
                    vec![segment(a + 30.0, a + 900.0, 1, 1)],
                )
            })
            .collect();
        let svg = timeline_svg(&run, &TimelineOptions::default());
        let doc = parse(&svg);
        assert_eq!(count(&doc, "job-row"), 200);
        assert_eq!(count(&doc, "segment"), 200);
        assert_eq!(count(&doc, "job-label"), 0, "5 px rows carry no labels");
        let h: f64 = doc
            .root_element()
            .attribute("height")
            .unwrap()
            .parse()
            .unwrap();
        assert!(h <= 200.0 * 5.0 + 120.0, "{h}");
        // The highlighted job is marked.
        let opts = TimelineOptions {
            highlight: Some("job-007".into()),
            row_height: Some(12.0),
            ..Default::default()
        };
        let doc_svg = timeline_svg(&run, &opts);
        let doc = parse(&doc_svg);
        assert_eq!(count(&doc, "job-row highlight"), 1);
        assert_eq!(count(&doc, "job-label"), 200);
    }

    #[test]
    fn an_empty_run_is_a_valid_chart() {
        let mut run = fixture(SimPolicy::Bound);
        run.jobs.clear();
        run.slots.clear();
        let svg = timeline_svg(&run, &TimelineOptions::default());
        let doc = parse(&svg);
        assert_eq!(count(&doc, "no-data"), 1);
        assert_eq!(count(&doc, "segment"), 0);
    }

    /// With the scenario, a placed segment's tooltip names its GPUs by type and machine.
    #[test]
    fn a_segment_says_where_it_ran_with_the_scenario() {
        use smd_core::scenario::{Cluster, Gpu, MachineGroup};
        let mut run = fixture(SimPolicy::Smd);
        run.jobs[1].segments[0].placement = Some(vec![smd_core::plan::PlacedShare {
            machine: "a100x8-1".into(),
            workers: 1,
            ps: 1,
        }]);
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            ..Default::default()
        });
        s.jobs[1].worker.gpu = 2.0;
        s.cluster = Cluster::of_machines(
            vec![MachineGroup {
                name: "a100x8".into(),
                count: 2.0,
                capacity: Resources {
                    gpu: 8.0,
                    vcpu: 96.0,
                    memory_gb: 1000.0,
                    storage_gb: 1000.0,
                },
                gpu: Some(Gpu::A100),
                gpu_memory_gb: None,
                nic_gbps: None,
                local_gbps: None,
                hourly_usd: None,
            }],
            Resources::DEFAULT_INSTANCE,
        );
        let plain = timeline_svg(&run, &TimelineOptions::default());
        assert!(plain.contains("b: (w, p) = (1, 1) from"), "{plain}");
        let opts = TimelineOptions {
            scenario: Some(std::rc::Rc::new(s)),
            ..Default::default()
        };
        let svg = timeline_svg(&run, &opts);
        assert!(svg.contains("b: 2 × A100 on a100x8-1, 1 PS from"), "{svg}");
        // Segments without a placement keep their (w, p).
        assert!(svg.contains("(w, p) = (2, 1)"), "{svg}");
    }

    #[test]
    fn time_units() {
        assert_eq!(time_unit(100.0).0, "s");
        assert_eq!(time_unit(3600.0).0, "min");
        assert_eq!(time_unit(30.0 * 3600.0).0, "h");
    }
}
