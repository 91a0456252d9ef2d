//! The machine map of a plan on machines: every machine a box, grouped by machine group,
//! with bars of its GPU, vCPU and memory use against its capacity and one mark per task
//! that runs on it, coloured by job (workers filled squares, PSs hollow diamonds); a
//! machine with GPUs carries a stripe in its GPU type's colour (`palette::gpu_type`), named
//! in its group's line and in the legend.

use crate::format::sig;
use crate::legend::job_entries;
use crate::marker::Shape;
use crate::palette::{categorical, gpu_type};
use crate::rect::Rect;
use crate::svg::{end, fitted_title, root, text_at, text_tag, text_width, titled_group, Tag, INK};
use smd_core::plan::Plan;
use smd_core::scenario::{Cluster, Gpu, Resources};
use std::collections::HashMap;

/// Options of [`machine_map_svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct MachineMapOptions {
    /// Width of the SVG, px (the height follows from the number of machines).
    pub width: f64,
}

impl Default for MachineMapOptions {
    fn default() -> Self {
        MachineMapOptions { width: 900.0 }
    }
}

/// Sizes of one machine box, chosen from the number of machines.
struct BoxSize {
    width: f64,
    /// Height of the name line.
    name: f64,
    /// Font size of the name.
    font: f64,
    /// Height of one resource bar.
    bar: f64,
    /// Distance between two task marks.
    pitch: f64,
}

fn box_size(n: usize) -> BoxSize {
    match n {
        0..=12 => BoxSize {
            width: 168.0,
            name: 16.0,
            font: 11.0,
            bar: 6.0,
            pitch: 11.0,
        },
        13..=48 => BoxSize {
            width: 120.0,
            name: 14.0,
            font: 10.0,
            bar: 5.0,
            pitch: 10.0,
        },
        49..=120 => BoxSize {
            width: 88.0,
            name: 12.0,
            font: 9.0,
            bar: 4.0,
            pitch: 8.0,
        },
        _ => BoxSize {
            width: 64.0,
            name: 11.0,
            font: 8.0,
            bar: 3.0,
            pitch: 7.0,
        },
    }
}

/// Reads one resource of a [`Resources`].
type Get = fn(&Resources) -> f64;

/// The three resources a box shows: key, label, accessor.
const BARS: [(&str, &str, Get); 3] = [
    ("gpu", "GPU", |r| r.gpu),
    ("vcpu", "vCPU", |r| r.vcpu),
    ("memory", "memory GB", |r| r.memory_gb),
];

/// One task mark to draw on a machine.
struct Task<'a> {
    job: &'a str,
    colour: &'a str,
    ps: bool,
    rho: Option<f64>,
    x: Option<f64>,
}

const MARGIN: f64 = 12.0;

fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}
const GAP: f64 = 8.0;

/// The machine map of `plan` on `cluster`'s machines, as an SVG document.
///
/// Every machine of `cluster.machine_list()` is a `g.machine` box (with `data-machine`,
/// `data-group`), its use from `plan.placement` (zero if the plan has no placement) as
/// `rect.bar-{gpu,vcpu,memory}` with `data-used`, `data-capacity`; every task a
/// `g.task.worker` or `g.task.ps` with `data-job`, `data-machine`, `data-rho`, `data-x`
/// and a tooltip. The root carries `data-machines`, `data-tasks`, `data-machines-used` and
/// `data-cross-traffic` (Σ X, Gbit per iteration).
pub fn machine_map_svg(plan: &Plan, cluster: &Cluster, opts: &MachineMapOptions) -> String {
    let machines = cluster.machine_list();
    let n = machines.len();
    let index: HashMap<&str, usize> = machines
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name.as_str(), i))
        .collect();

    let colours: Vec<String> = (0..placed(plan).count()).map(categorical).collect();
    let placed_jobs: Vec<(&str, &str)> = placed(plan)
        .zip(&colours)
        .map(|(j, c)| (j.id.as_str(), c.as_str()))
        .collect();
    let tasks = tasks_of(plan, &index, n, &placed_jobs);
    let uses: HashMap<&str, (&Resources, &Resources)> = plan
        .placement
        .iter()
        .flat_map(|p| p.machines.iter())
        .map(|u| (u.machine.as_str(), (&u.used, &u.capacity)))
        .collect();

    let size = box_size(n);
    let width = opts.width.max(size.width + 2.0 * MARGIN);
    let cols = (((width - 2.0 * MARGIN + GAP) / (size.width + GAP)).floor() as usize).max(1);
    let per_row = (((size.width - 11.0) / size.pitch).floor() as usize).max(1);
    let most = tasks.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let task_rows = most.div_ceil(per_row);
    let bars_h = 3.0 * (size.bar + 2.0);
    let box_h = size.name + bars_h + 4.0 + task_rows as f64 * size.pitch + 4.0;

    // Groups, in order; each one a header line then its boxes, wrapping.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, m) in machines.iter().enumerate() {
        match groups.last_mut() {
            Some((g, list)) if *g == m.group => list.push(i),
            _ => groups.push((m.group, vec![i])),
        }
    }
    let title_h = 26.0;
    let legend_h = 20.0;
    let header_h = 18.0;
    let mut height = title_h + legend_h;
    for (_, list) in &groups {
        let rows = list.len().div_ceil(cols);
        height += header_h + rows as f64 * (box_h + GAP);
    }
    height += MARGIN;

    let total_x = plan
        .placement
        .as_ref()
        .map(|p| p.total_cross_traffic_gbit)
        .unwrap_or_else(|| {
            plan.jobs
                .iter()
                .filter(|j| j.placement.is_some())
                .filter_map(|j| j.cross_traffic_gbit)
                .sum()
        });
    let used_machines = tasks.iter().filter(|t| !t.is_empty()).count();
    let task_count: usize = tasks.iter().map(Vec::len).sum();
    let policy = plan
        .placement
        .as_ref()
        .map(|p| p.policy.name().to_owned())
        .unwrap_or_default();
    let label = format!(
        "Machine map: {used_machines} of {n} machines used, {task_count} tasks, total cross traffic {} Gbit per iteration",
        sig(total_x, 3)
    );

    let mut out = String::new();
    root(
        &mut out,
        width,
        height,
        "machine-map",
        &label,
        &[
            ("data-machines", n.to_string()),
            ("data-tasks", task_count.to_string()),
            ("data-machines-used", used_machines.to_string()),
            ("data-cross-traffic", total_x.to_string()),
        ],
    );
    let title = format!(
        "{}{used_machines} of {n} machines used · {task_count} tasks · cross traffic {} Gbit/iteration",
        if policy.is_empty() {
            String::new()
        } else {
            format!("{policy}: ")
        },
        sig(total_x, 3)
    );
    fitted_title(&mut out, MARGIN, width - 2.0 * MARGIN, &title);

    legend(
        &mut out,
        title_h + 8.0,
        width,
        &cluster.gpu_types(),
        &placed_jobs,
    );

    let grid = Grid {
        size: &size,
        cols,
        per_row,
        box_h,
        header_h,
    };
    draw_groups(
        &mut out,
        cluster,
        &groups,
        &uses,
        &tasks,
        &grid,
        title_h + legend_h,
    );
    end(&mut out, "svg");
    out
}

/// The plan's jobs with tasks on machines, in plan order.
fn placed(plan: &Plan) -> impl Iterator<Item = &smd_core::plan::JobPlan> {
    plan.jobs
        .iter()
        .filter(|j| j.placement.as_ref().is_some_and(|s| !s.is_empty()))
}

/// Tasks per machine, in job order, PSs first (at most 10 000 of a kind per share).
fn tasks_of<'a>(
    plan: &'a Plan,
    index: &HashMap<&str, usize>,
    n: usize,
    placed_jobs: &[(&'a str, &'a str)],
) -> Vec<Vec<Task<'a>>> {
    let mut tasks: Vec<Vec<Task>> = (0..n).map(|_| Vec::new()).collect();
    for (job, (_, colour)) in placed(plan).zip(placed_jobs) {
        let shares = job.placement.as_deref().unwrap_or_default();
        for s in shares {
            let Some(&m) = index.get(s.machine.as_str()) else {
                continue;
            };
            for (count, ps) in [(s.ps, true), (s.workers, false)] {
                for _ in 0..count.min(10_000) {
                    tasks[m].push(Task {
                        job: &job.id,
                        colour,
                        ps,
                        rho: job.locality_factor,
                        x: job.cross_traffic_gbit,
                    });
                }
            }
        }
    }
    tasks
}

/// The legend at height `ly`: the two task marks, the bars, the GPU types present, then
/// the jobs' colours if few.
fn legend(out: &mut String, ly: f64, width: f64, types: &[Gpu], placed_jobs: &[(&str, &str)]) {
    let mut lx = MARGIN;
    let key = |out: &mut String, lx: &mut f64, shape: Shape, filled: bool, text: &str| {
        mark(out, shape, *lx + 5.0, ly, 4.0, "#555555", filled);
        text_at(
            out,
            *lx + 13.0,
            ly + 4.0,
            11.0,
            "start",
            "legend-label",
            text,
        );
        *lx += 13.0 + text_width(text, 11.0) + 14.0;
    };
    key(out, &mut lx, Shape::Square, true, "worker");
    key(out, &mut lx, Shape::Diamond, false, "PS");
    let bar_text = "bars: GPU, vCPU, memory used of capacity";
    Tag::new(out, "rect")
        .rect(rect(lx, ly - 3.0, 16.0, 6.0))
        .attr("fill", "#e4e4e4")
        .close();
    Tag::new(out, "rect")
        .rect(rect(lx, ly - 3.0, 10.0, 6.0))
        .attr("fill", "#6b6b6b")
        .close();
    text_at(
        out,
        lx + 20.0,
        ly + 4.0,
        11.0,
        "start",
        "legend-label",
        bar_text,
    );
    lx += 20.0 + text_width(bar_text, 11.0) + 14.0;
    if !types.is_empty() {
        let head = "GPU type:";
        text_at(out, lx, ly + 4.0, 11.0, "start", "legend-label", head);
        lx += text_width(head, 11.0) + 6.0;
    }
    for &t in types {
        let tip = format!("a machine with {} GPUs", t.label());
        titled_group(
            out,
            "legend-entry gpu-type",
            &[("data-gpu", &t.name())],
            &tip,
            |out| {
                stripe(out, rect(lx, ly - 6.0, 4.0, 12.0), t);
                text_at(
                    out,
                    lx + 8.0,
                    ly + 4.0,
                    11.0,
                    "start",
                    "legend-label",
                    t.label(),
                );
            },
        );
        lx +=
            8.0 + text_width(t.label(), 11.0) + if Some(&t) == types.last() { 24.0 } else { 14.0 };
    }
    if placed_jobs.len() <= 18 {
        let swatch = |out: &mut String, x: f64, y: f64, c: &str| {
            mark(out, Shape::Square, x + 5.0, y, 4.0, c, true);
        };
        job_entries(out, lx, ly, width - MARGIN, placed_jobs, 12.0, &swatch);
    }
}

/// How the machine boxes are laid out.
struct Grid<'a> {
    size: &'a BoxSize,
    cols: usize,
    per_row: usize,
    box_h: f64,
    header_h: f64,
}

/// Each group from `top`: its header line, then its machines' boxes, wrapping.
fn draw_groups(
    out: &mut String,
    cluster: &Cluster,
    groups: &[(usize, Vec<usize>)],
    uses: &HashMap<&str, (&Resources, &Resources)>,
    tasks: &[Vec<Task>],
    grid: &Grid,
    top: f64,
) {
    let machines = cluster.machine_list();
    let Grid {
        size,
        cols,
        per_row,
        box_h,
        header_h,
    } = *grid;
    let mut y = top;
    for (g, list) in groups {
        let group = &cluster.machines[*g];
        let c = group.capacity;
        let head = format!(
            "{} — {} machine{} of {} {}GPU, {} vCPU, {} GB",
            group.name,
            list.len(),
            if list.len() == 1 { "" } else { "s" },
            sig(c.gpu, 3),
            group
                .gpu_type()
                .map_or(String::new(), |t| format!("{} ", t.label())),
            sig(c.vcpu, 3),
            sig(c.memory_gb, 3)
        );
        text_at(out, MARGIN, y + 13.0, 11.0, "start", "group-title", &head);
        y += header_h;
        for (k, &i) in list.iter().enumerate() {
            let (row, col) = (k / cols, k % cols);
            let r = rect(
                MARGIN + col as f64 * (size.width + GAP),
                y + row as f64 * (box_h + GAP),
                size.width,
                box_h,
            );
            let m = &machines[i];
            let zero = Resources::default();
            let (used, cap) = uses
                .get(m.name.as_str())
                .map(|&(u, c)| (*u, *c))
                .unwrap_or((zero, m.capacity));
            draw_box(
                out,
                r,
                size,
                &m.name,
                (&group.name, group.gpu_type()),
                &used,
                &cap,
                &tasks[i],
                per_row,
            );
        }
        y += list.len().div_ceil(cols) as f64 * (box_h + GAP);
    }
}

/// The mark of GPU type `t` in `r` (a machine box's left edge, a legend key): its colour
/// with a dark outline, `rect.gpu-type` with `data-gpu`.
fn stripe(out: &mut String, r: Rect, t: Gpu) {
    Tag::new(out, "rect")
        .attr("class", "gpu-type")
        .rect(r)
        .attr("fill", gpu_type(t))
        .attr("stroke", "#222222")
        .px("stroke-width", 0.5)
        .attr("data-gpu", t.name())
        .close();
}

/// A task mark without halo (boxes are white): a filled shape with a dark outline, or an
/// outline in the colour.
fn mark(out: &mut String, shape: Shape, x: f64, y: f64, s: f64, colour: &str, filled: bool) {
    let t = Tag::new(out, "path").attr("d", shape.path(x, y, s));
    if filled {
        t.attr("fill", colour)
            .attr("stroke", "#222222")
            .px("stroke-width", 0.6)
            .close();
    } else {
        t.attr("fill", "#ffffff")
            .attr("stroke", colour)
            .px("stroke-width", 1.6)
            .close();
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_box(
    out: &mut String,
    r: Rect,
    size: &BoxSize,
    name: &str,
    (group, gpu): (&str, Option<Gpu>),
    used: &Resources,
    cap: &Resources,
    tasks: &[Task],
    per_row: usize,
) {
    let tip = format!(
        "{name}{}: GPU {} of {}, vCPU {} of {}, memory {} of {} GB; {} task{}",
        gpu.map_or(String::new(), |t| format!(" ({})", t.label())),
        sig(used.gpu, 3),
        sig(cap.gpu, 3),
        sig(used.vcpu, 3),
        sig(cap.vcpu, 3),
        sig(used.memory_gb, 3),
        sig(cap.memory_gb, 3),
        tasks.len(),
        if tasks.len() == 1 { "" } else { "s" }
    );
    let class = if tasks.is_empty() {
        "machine idle"
    } else {
        "machine"
    };
    titled_group(
        out,
        class,
        &[
            ("data-machine", &name),
            ("data-group", &group),
            ("data-gpu", &gpu.map_or("", Gpu::name)),
        ],
        &tip,
        |out| {
            Tag::new(out, "rect")
                .attr("class", "machine-box")
                .rect(r)
                .px("rx", 3.0)
                .attr(
                    "fill",
                    if tasks.is_empty() {
                        "#f7f7f7"
                    } else {
                        "#ffffff"
                    },
                )
                .attr("stroke", INK)
                .px("stroke-width", 0.8)
                .close();
            // The GPU type: a stripe in its colour, its name at the top right.
            let mut room = r.width - 9.0;
            if let Some(t) = gpu {
                stripe(out, rect(r.x, r.y, 4.0, r.height), t);
                let font = size.font.min(9.0);
                text_tag(
                    out,
                    "gpu-label",
                    r.x + r.width - 3.0,
                    r.y + size.name - 3.0,
                    font,
                )
                .attr("text-anchor", "end")
                .attr("fill", "#4a4a4a")
                .text("text", t.label());
                room -= text_width(t.label(), font) + 4.0;
            }
            // The name, shrunk to fit the box.
            let font = (size.font).min(room.max(1.0) / text_width(name, 1.0).max(1.0));
            text_at(
                out,
                r.x + 7.0,
                r.y + size.name - 3.0,
                font.max(6.0),
                "start",
                "machine-name",
                name,
            );
            let mut by = r.y + size.name;
            let bx = r.x + 7.0;
            let bw = r.width - 11.0;
            for (key, _, get) in BARS {
                let (u, c) = (get(used), get(cap));
                let share = if c > 0.0 {
                    (u / c).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                Tag::new(out, "rect")
                    .attr("class", "bar-track")
                    .rect(rect(bx, by, bw, size.bar))
                    .attr("fill", "#e4e4e4")
                    .close();
                Tag::new(out, "rect")
                    .attr("class", format!("bar bar-{key}"))
                    .rect(rect(bx, by, bw * share, size.bar))
                    .attr(
                        "fill",
                        if u > c * (1.0 + 1e-9) {
                            "#D55E00"
                        } else {
                            "#6b6b6b"
                        },
                    )
                    .attr("data-used", u)
                    .attr("data-capacity", c)
                    .close();
                by += size.bar + 2.0;
            }
            by += 4.0;
            for (k, t) in tasks.iter().enumerate() {
                let (row, col) = (k / per_row, k % per_row);
                let x = bx + size.pitch / 2.0 + col as f64 * size.pitch;
                let y = by + size.pitch / 2.0 + row as f64 * size.pitch;
                task_mark(out, t, name, (x, y), size.pitch);
            }
        },
    );
}

/// One task's mark at `(x, y)` with its job, machine, ρ and X in data attributes and its
/// tooltip: a filled square for a worker, an open diamond for a PS.
fn task_mark(out: &mut String, t: &Task, name: &str, (x, y): (f64, f64), pitch: f64) {
    let kind = if t.ps { "ps" } else { "worker" };
    let tip = format!(
        "job {} — {} on {name}; ρ {}, X {} Gbit per iteration",
        t.job,
        if t.ps { "PS" } else { "worker" },
        t.rho.map(|v| sig(v, 3)).unwrap_or_else(|| "–".into()),
        t.x.map(|v| sig(v, 3)).unwrap_or_else(|| "–".into()),
    );
    let rho = t.rho.map(|v| v.to_string()).unwrap_or_default();
    let xv = t.x.map(|v| v.to_string()).unwrap_or_default();
    titled_group(
        out,
        &format!("task {kind}"),
        &[
            ("data-job", &t.job),
            ("data-machine", &name),
            ("data-rho", &rho),
            ("data-x", &xv),
        ],
        &tip,
        |out| {
            let s = pitch * 0.36;
            if t.ps {
                mark(out, Shape::Diamond, x, y, s, t.colour, false);
            } else {
                mark(out, Shape::Square, x, y, s, t.colour, true);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::plan::{MachineUse, PlacedShare, PlacementSummary};
    use smd_core::scenario::{MachineGroup, Placement};

    fn group(name: &str, count: f64) -> MachineGroup {
        MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: name.into(),
            count,
            capacity: Resources {
                gpu: 4.0,
                vcpu: 48.0,
                memory_gb: 192.0,
                storage_gb: 900.0,
            },
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: None,
        }
    }

    /// A plan of 3 jobs on `cluster`: job 0 on machine 0 (2 workers, 1 PS), job 1 across
    /// machines 0 and 1, job 2 not placed.
    fn fixture(groups: Vec<MachineGroup>) -> (Plan, Cluster) {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            ..Default::default()
        });
        let instance = s.cluster.instance;
        s.cluster = Cluster::of_machines(groups, instance);
        let mut plan = smd_core::plan(
            &smd_core::generate(&smd_core::GenerateOptions {
                jobs: 3,
                ..Default::default()
            }),
            smd_core::Policy::Esw,
        )
        .unwrap();
        let names: Vec<String> = s
            .cluster
            .machine_list()
            .into_iter()
            .map(|m| m.name)
            .collect();
        plan.jobs[0].placement = Some(vec![PlacedShare {
            machine: names[0].clone(),
            workers: 2,
            ps: 1,
        }]);
        plan.jobs[0].locality_factor = Some(1.0);
        plan.jobs[0].cross_traffic_gbit = Some(0.0);
        plan.jobs[1].placement = Some(vec![
            PlacedShare {
                machine: names[0].clone(),
                workers: 1,
                ps: 0,
            },
            PlacedShare {
                machine: names[1].clone(),
                workers: 3,
                ps: 2,
            },
        ]);
        plan.jobs[1].locality_factor = Some(0.8);
        plan.jobs[1].cross_traffic_gbit = Some(2.5);
        plan.jobs[2].placement = None;
        let cap = s.cluster.machines[0].capacity;
        plan.placement = Some(PlacementSummary {
            policy: Placement::Locality,
            total_cross_traffic_gbit: 2.5,
            machines_used: 2,
            machines: names
                .iter()
                .map(|m| MachineUse {
                    machine: m.clone(),
                    used: Resources {
                        gpu: 1.0,
                        ..Default::default()
                    },
                    capacity: cap,
                })
                .collect(),
            proven: None,
            not_placed: 0,
        });
        (plan, s.cluster)
    }

    fn count(svg: &str, class: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).expect("valid SVG");
        doc.descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|w| w == class))
            })
            .count()
    }

    #[test]
    fn one_box_per_machine_one_mark_per_task() {
        let (plan, cluster) = fixture(vec![group("t4x4", 3.0), group("big", 2.0)]);
        let svg = machine_map_svg(&plan, &cluster, &MachineMapOptions::default());
        assert_eq!(count(&svg, "machine"), 5);
        assert_eq!(count(&svg, "idle"), 3);
        assert_eq!(count(&svg, "task"), 9);
        assert_eq!(count(&svg, "worker"), 6);
        assert_eq!(count(&svg, "ps"), 3);
        assert_eq!(count(&svg, "group-title"), 2);
        assert!(svg.contains("data-cross-traffic=\"2.5\""));
        assert!(svg.contains("total cross traffic 2.5 Gbit"));
        assert!(svg.contains("data-rho=\"0.8\""));
        assert!(svg.contains(">locality: 2 of 5 machines used"));
    }

    #[test]
    fn deterministic() {
        let (plan, cluster) = fixture(vec![group("a", 4.0)]);
        let o = MachineMapOptions::default();
        assert_eq!(
            machine_map_svg(&plan, &cluster, &o),
            machine_map_svg(&plan, &cluster, &o)
        );
    }

    #[test]
    fn many_machines_stay_inside() {
        let (plan, cluster) = fixture(vec![group("t4x4", 250.0)]);
        let svg = machine_map_svg(&plan, &cluster, &MachineMapOptions { width: 900.0 });
        assert_eq!(count(&svg, "machine"), 250);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        let w: f64 = root.attribute("width").unwrap().parse().unwrap();
        for r in doc.descendants().filter(|n| n.has_tag_name("rect")) {
            if let (Some(x), Some(rw)) = (r.attribute("x"), r.attribute("width")) {
                if rw.ends_with('%') {
                    continue;
                }
                let (x, rw): (f64, f64) = (x.parse().unwrap(), rw.parse().unwrap());
                assert!(x + rw <= w + 0.01, "{x} + {rw} > {w}");
            }
        }
        // Small boxes, still with names.
        assert_eq!(count(&svg, "machine-name"), 250);
    }
}
