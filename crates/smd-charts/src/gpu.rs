//! The GPU map of a plan with GPU sharing (docs/MODEL.md §18): every shared GPU a bar of
//! its mean memory against the GPU's memory, split among its occupants, coloured by job.

use crate::format::{percent_sig, probability, sig};
use crate::legend::job_entries;
use crate::palette::categorical;
use crate::rect::Rect;
use crate::svg::{end, fitted_title, root, text_at, text_width, titled_group, Tag, INK};
use smd_core::plan::{SharedGpu, SharingSummary};
use std::collections::HashMap;

/// Options of [`gpu_map_svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct GpuMapOptions {
    /// Width of the SVG, px (the height follows from the number of GPUs).
    pub width: f64,
    /// Job ids in the order that picks their colours (`palette::categorical(k)` for the
    /// k-th); jobs not listed follow, in the order they first occupy a GPU. Give the plan's
    /// placed jobs to match the machine map.
    pub jobs: Vec<String>,
    /// Each job's mean GPU memory per worker, GB: an occupant's part of its GPU's bar is in
    /// proportion to it (equal parts when a job is not listed).
    pub job_memory_gb: Vec<(String, f64)>,
}

impl Default for GpuMapOptions {
    fn default() -> Self {
        GpuMapOptions {
            width: 660.0,
            jobs: Vec::new(),
            job_memory_gb: Vec::new(),
        }
    }
}

const MARGIN: f64 = 12.0;
const ROW: f64 = 18.0;
const BAR: f64 = 12.0;

/// "N GPUs instead of M, mean performance P%" (and the workers too big to share, if any):
/// the headline of a plan's GPU sharing, on the page, in the CLI and over the GPU map.
pub fn headline(s: &SharingSummary) -> String {
    let mut h = format!(
        "{} GPUs instead of {}, mean performance {}",
        s.gpus_used,
        s.exclusive_gpus,
        percent_sig(s.mean_performance, 3)
    );
    if s.alone > 0 {
        let them = if s.alone == 1 { "worker" } else { "workers" };
        h.push_str(&format!(
            "; {} {them} too big to share keep a GPU each",
            s.alone
        ));
    }
    h
}

/// The GPU map of `sharing` as an SVG document; `gpu_memory_gb` is one GPU's memory (the
/// bars' full length).
///
/// The root (`data-testid="gpu-map"`) carries `data-gpus` (shared GPUs drawn),
/// `data-gpus-used` and `data-exclusive-gpus`; every GPU is a `g.gpu` with `data-machine`,
/// `data-gpu`, `data-mem`, `data-collision` and a tooltip naming its occupants, its mean
/// memory and its collision probability; every occupant a `rect.occupant` with `data-job`.
pub fn gpu_map_svg(sharing: &SharingSummary, gpu_memory_gb: f64, opts: &GpuMapOptions) -> String {
    // Colours: the given order, then first appearance.
    let mut order: Vec<&str> = opts.jobs.iter().map(String::as_str).collect();
    for g in &sharing.gpus {
        for w in &g.workers {
            if !order.contains(&w.job.as_str()) {
                order.push(&w.job);
            }
        }
    }
    let colour: HashMap<&str, String> = order
        .iter()
        .enumerate()
        .map(|(k, j)| (*j, categorical(k)))
        .collect();
    let memory: HashMap<&str, f64> = opts
        .job_memory_gb
        .iter()
        .filter(|(_, m)| m.is_finite() && *m > 0.0)
        .map(|(j, m)| (j.as_str(), *m))
        .collect();
    // The bars' scale: the GPU's memory, or the fullest GPU if that is more.
    let most = sharing
        .gpus
        .iter()
        .map(|g| g.mem_mean_gb)
        .filter(|m| m.is_finite())
        .fold(0.0f64, f64::max);
    let full = if gpu_memory_gb.is_finite() && gpu_memory_gb > 0.0 {
        gpu_memory_gb.max(most)
    } else {
        most.max(1.0)
    };

    let width = opts.width.max(320.0);
    let label_w = sharing
        .gpus
        .iter()
        .map(|g| text_width(&gpu_name(&g.machine, g.gpu), 11.0))
        .fold(60.0f64, f64::max)
        + 8.0;
    let bar_x = MARGIN + label_w;
    let value_w = 150.0;
    let bar_w = (width - bar_x - value_w - MARGIN).max(60.0);
    let title_h = 26.0;
    let legend_h = if order.is_empty() { 0.0 } else { 20.0 };
    let n = sharing.gpus.len();
    let height = title_h + legend_h + n as f64 * ROW + MARGIN + 16.0;

    let title = format!(
        "{} ({} sharing)",
        headline(sharing),
        sharing.algorithm.name()
    );
    let mut out = String::new();
    root(
        &mut out,
        width,
        height,
        "gpu-map",
        &format!("GPU map: {title}"),
        &[
            ("data-testid", "gpu-map".to_owned()),
            ("data-gpus", n.to_string()),
            ("data-gpus-used", sharing.gpus_used.to_string()),
            ("data-exclusive-gpus", sharing.exclusive_gpus.to_string()),
        ],
    );
    fitted_title(&mut out, MARGIN, width - 2.0 * MARGIN, &title);

    // Legend: one swatch per job, while they fit on a line.
    let entries: Vec<(&str, &str)> = order.iter().map(|id| (&id[..], &colour[id][..])).collect();
    let swatch = |out: &mut String, x: f64, y: f64, c: &str| {
        Tag::new(out, "rect")
            .rect(rect(x, y - 5.0, 10.0, 10.0))
            .attr("fill", c)
            .attr("stroke", INK)
            .px("stroke-width", 0.5)
            .close();
    };
    job_entries(
        &mut out,
        MARGIN,
        title_h + 8.0,
        width - MARGIN,
        &entries,
        14.0,
        &swatch,
    );

    let mut y = title_h + legend_h;
    let bars = Bars {
        x: bar_x,
        width: bar_w,
        full,
        gpu_memory_gb,
        colour: &colour,
        memory: &memory,
    };
    for g in &sharing.gpus {
        gpu_row(&mut out, g, y, &bars);
        y += ROW;
    }
    text_at(
        &mut out,
        MARGIN,
        y + 14.0,
        10.0,
        "start",
        "note",
        &format!(
            "bars: mean memory of the occupants of {} GB per GPU; dark band: ± one standard deviation",
            sig(gpu_memory_gb, 3)
        ),
    );
    end(&mut out, "svg");
    out
}

/// The scale and colours of the GPU rows' bars.
struct Bars<'a> {
    x: f64,
    width: f64,
    /// Memory at the bar's full length, GB.
    full: f64,
    gpu_memory_gb: f64,
    colour: &'a HashMap<&'a str, String>,
    memory: &'a HashMap<&'a str, f64>,
}

/// One GPU at height `y`: its name, its occupants' memory as a stacked bar with the spread
/// band, and its mean memory and collision probability.
fn gpu_row(out: &mut String, g: &SharedGpu, y: f64, bars: &Bars) {
    let name = gpu_name(&g.machine, g.gpu);
    let jobs: Vec<&str> = g.workers.iter().map(|w| w.job.as_str()).collect();
    let slowdown = g.slowdowns.iter().copied().fold(1.0f64, f64::max);
    let tip = format!(
        "{name}: {} worker{} ({}), mean memory {} ± {} of {} GB, collision probability {}, slowdown ×{}",
        jobs.len(),
        if jobs.len() == 1 { "" } else { "s" },
        jobs.join(", "),
        sig(g.mem_mean_gb, 3),
        sig(g.mem_sd_gb, 2),
        sig(bars.gpu_memory_gb, 3),
        probability(g.collision_prob),
        sig(slowdown, 3)
    );
    let total_len = bars.width * (g.mem_mean_gb / bars.full).clamp(0.0, 1.0);
    let weights: Vec<f64> = jobs
        .iter()
        .map(|j| bars.memory.get(j).copied().unwrap_or(1.0))
        .collect();
    let sum: f64 = weights.iter().sum();
    let gpu = g.gpu;
    let mem = g.mem_mean_gb;
    let collision = g.collision_prob;
    titled_group(
        out,
        "gpu",
        &[
            ("data-machine", &g.machine),
            ("data-gpu", &gpu),
            ("data-mem", &mem),
            ("data-collision", &collision),
        ],
        &tip,
        |out| {
            text_at(out, MARGIN, y + 12.0, 11.0, "start", "gpu-name", &name);
            Tag::new(out, "rect")
                .attr("class", "capacity")
                .rect(rect(bars.x, y + 2.0, bars.width, BAR))
                .attr("fill", "#eeeeee")
                .attr("stroke", "#bbbbbb")
                .px("stroke-width", 0.5)
                .close();
            let mut x = bars.x;
            for (j, w) in jobs.iter().zip(&weights) {
                let len = if sum > 0.0 { total_len * w / sum } else { 0.0 };
                Tag::new(out, "rect")
                    .attr("class", "occupant")
                    .attr("data-job", j)
                    .rect(rect(x, y + 2.0, len, BAR))
                    .attr("fill", &bars.colour[j])
                    .attr("stroke", "#ffffff")
                    .px("stroke-width", 0.8)
                    .close();
                x += len;
            }
            // The spread band: mean ± one standard deviation of the members' memory.
            let at = |gb: f64| bars.x + bars.width * (gb / bars.full).clamp(0.0, 1.0);
            let (lo, hi) = (at(mem - g.mem_sd_gb), at(mem + g.mem_sd_gb));
            Tag::new(out, "rect")
                .attr("class", "spread")
                .attr("data-sd", g.mem_sd_gb)
                .rect(rect(lo, y + 2.0 + BAR * 0.3, hi - lo, BAR * 0.4))
                .attr("fill", INK)
                .attr("fill-opacity", "0.25")
                .close();
            text_at(
                out,
                bars.x + bars.width + 6.0,
                y + 12.0,
                10.0,
                "start",
                "gpu-value",
                &format!("{} GB · collision {}", sig(mem, 3), probability(collision)),
            );
        },
    );
}

fn gpu_name(machine: &str, gpu: u32) -> String {
    format!("{machine} · GPU {gpu}")
}

fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::plan::{SharedGpu, WorkerRef};
    use smd_core::scenario::GpuSharing;

    fn worker(job: &str, index: u32) -> WorkerRef {
        WorkerRef {
            job: job.into(),
            index,
        }
    }

    fn fixture() -> SharingSummary {
        SharingSummary {
            algorithm: GpuSharing::Heuristic,
            gpus: vec![
                SharedGpu {
                    machine: "a-0".into(),
                    gpu: 0,
                    workers: vec![worker("j0", 0), worker("j1", 0)],
                    mem_mean_gb: 12.0,
                    mem_sd_gb: 1.0,
                    collision_prob: 0.004,
                    slowdowns: vec![1.1, 1.1],
                },
                SharedGpu {
                    machine: "a-0".into(),
                    gpu: 1,
                    workers: vec![worker("j1", 1), worker("<j2>", 0), worker("j0", 1)],
                    mem_mean_gb: 15.0,
                    mem_sd_gb: 0.5,
                    collision_prob: 0.009,
                    slowdowns: vec![1.2, 1.2, 1.2],
                },
            ],
            gpus_used: 2,
            exclusive_gpus: 5,
            mean_performance: 0.87,
            alone: 0,
        }
    }

    #[test]
    fn every_gpu_is_a_bar_with_its_occupants_and_collision_probability() {
        let svg = gpu_map_svg(&fixture(), 16.0, &GpuMapOptions::default());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains(r#"data-testid="gpu-map""#));
        assert!(svg.contains(r#"data-gpus="2""#));
        assert!(svg.contains(r#"data-gpus-used="2""#));
        assert!(svg.contains(r#"data-exclusive-gpus="5""#));
        assert_eq!(svg.matches(r#"<g class="gpu""#).count(), 2);
        assert_eq!(svg.matches(r#"class="occupant""#).count(), 5);
        assert!(svg.contains("collision probability 0.4%"), "{svg}");
        assert!(svg.contains("collision probability 0.9%"));
        assert!(svg.contains("2 GPUs instead of 5, mean performance 87"));
        // Text is escaped.
        assert!(svg.contains("&lt;j2&gt;") && !svg.contains("<j2>"));
    }

    #[test]
    fn occupants_are_coloured_by_job_in_the_given_order() {
        let opts = GpuMapOptions {
            jobs: vec!["j1".into(), "j0".into()],
            ..Default::default()
        };
        let svg = gpu_map_svg(&fixture(), 16.0, &opts);
        let fill_of = |job: &str| {
            let at = svg
                .find(&format!(r#"class="occupant" data-job="{job}""#))
                .unwrap();
            let rest = &svg[at..];
            let f = rest.find("fill=\"").unwrap() + 6;
            rest[f..f + 7].to_owned()
        };
        assert_eq!(fill_of("j1"), categorical(0));
        assert_eq!(fill_of("j0"), categorical(1));
        assert_eq!(fill_of("&lt;j2&gt;"), categorical(2));
    }

    #[test]
    fn parts_follow_the_jobs_memory_and_the_bar_its_mean() {
        let opts = GpuMapOptions {
            width: 660.0,
            jobs: Vec::new(),
            job_memory_gb: vec![("j0".into(), 9.0), ("j1".into(), 3.0)],
        };
        let svg = gpu_map_svg(&fixture(), 16.0, &opts);
        let widths: Vec<f64> = svg
            .split(r#"class="occupant""#)
            .skip(1)
            .take(2)
            .map(|s| {
                let w = s.find("width=\"").unwrap() + 7;
                s[w..].split('"').next().unwrap().parse().unwrap()
            })
            .collect();
        // GPU 0: j0 then j1, 9 : 3 of a 12 GB bar.
        assert!((widths[0] / widths[1] - 3.0).abs() < 1e-2, "{widths:?}");
        // The spread band is ± sd: GPU 0's (sd 1) twice as wide as GPU 1's (sd 0.5), and
        // the mean bar's length is to its band's width as 12 to 2.
        let band: Vec<f64> = svg
            .split(r#"class="spread""#)
            .skip(1)
            .map(|s| {
                let w = s.find("width=\"").unwrap() + 7;
                s[w..].split('"').next().unwrap().parse().unwrap()
            })
            .collect();
        assert_eq!(band.len(), 2);
        assert!((band[0] / band[1] - 2.0).abs() < 1e-2, "{band:?}");
        assert!(((widths[0] + widths[1]) / band[0] - 6.0).abs() < 1e-2);
        // An empty summary still draws a valid SVG.
        let empty = SharingSummary {
            gpus: Vec::new(),
            ..fixture()
        };
        let svg = gpu_map_svg(&empty, 0.0, &GpuMapOptions::default());
        assert!(svg.contains(r#"data-gpus="0""#) && svg.ends_with("</svg>"));
    }
}
