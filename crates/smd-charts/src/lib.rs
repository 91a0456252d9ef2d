//! # smd-charts — SVG charts of the SMD planner
//!
//! Pure Rust, no browser dependency (it builds for `wasm32-unknown-unknown`): every chart is
//! a standalone SVG document returned as a `String`, meant to be embedded in a page as is.
//!
//! - [`landscape_svg`]: one job's objective landscape — a heatmap of T (coloured by its
//!   excess over the minimum, log scale) or μ over the (w, p) samples of
//!   [`smd_core::Landscape`], the boundary of Ω, the points the policies chose, SMD's
//!   relaxed point, the integer optimum, and a panel with Algorithm 1's search. [`landscape_geometry`] gives the pixel ↔ (w, p) map it draws with, for hover.
//!   [`landscape_overlay_svg`] draws it with an [`Overlay`] of lines and points instead of
//!   the policies' points: a step of a teaching trace ([`teach`]: its marks, its sentences
//!   in docs/MODEL.md's symbols, the admission's progress).
//! - [`schedule_svg`]: one iteration's layer schedule under sequential, WFBP and pipelined
//!   overlap, from [`smd_core::eta::simulate`], with T and η1, η2, η3 per model.
//! - [`line_chart_svg`]: a line chart with error bars.
//! - [`gpu_speeds_svg`]: each application's one-GPU speed on every GPU type, relative to
//!   a T4 (How it works: why a job prefers a type).
//! - [`machine_map_svg`]: a plan on machines — a box per machine (grouped by machine group)
//!   with its GPU, vCPU and memory use and a mark per task, coloured by job.
//! - [`gpu_map_svg`]: a plan's GPU sharing — every shared GPU a bar of its occupants' mean
//!   memory against the GPU's memory, coloured by job, its collision probability in its tooltip.
//! - GPU sharing in a production cluster (`smd-fgd`): [`fgd_lines_svg`] — a quantity of
//!   each policy against the arrived workload, the bound dashed — and [`fgd_map_svg`] — a
//!   square per GPU coloured by its allocated share, grouped by GPU model.
//! - [`scatter_svg`]: a scatter plot of many points with the line y = x (a model against
//!   measurements).
//! - Simulations over time (`smd_sim::Run`): [`timeline_svg`] — jobs as rows against
//!   simulated time, each segment a bar coloured by w + p, waits as thin grey lines —;
//!   and per policy [`usage_svg`] (GPU share in use per slot), [`jct_cdf_svg`] (the JCT
//!   distribution) and [`utility_bound_svg`] (total utility with the bound marked).
//! - [`sweep_svg`]: a capacity sweep (`smd_sweep::Report`) — a quantity of every policy
//!   against the cluster's size ([`SweepMetric`]: total utility with the knee marked,
//!   admitted jobs, a resource's use, and over time utility, mean JCT and queueing).
//! - What to buy (`smd_sweep::MixReport`): [`mix_map_svg`] — a grid of mixes of one or two
//!   machine types, a cell per mix coloured by the metric, the mixes that qualify parted
//!   from the others by a drawn boundary, the answer marked, skipped mixes hatched — and
//!   [`mix_frontier_svg`] — every evaluated mix at its price per hour and value, the
//!   cost–metric frontier joined, the answer marked.
//!
//! Numbers are written by [`format`](mod@format), which the page uses too (tick labels, significant
//! digits, durations, percentages).
//!
//! Charts are composed of shared parts (crate-internal, for new charts to reuse): `axes`
//! (ticks and labels from a [`scale::Scale`] along a side, axis titles), `legend` (entries
//! in a column or a row, line and swatch keys, the colour bar), [`marker`] (shapes drawn
//! with a halo), [`palette`] (colours and the series style cycle) and [`svg`] (the writer).
//!
//! Colours are colour-blind safe (viridis for values, Okabe–Ito for categories) and never
//! the only cue: markers differ in shape, series in dash pattern and marker, schedule bars
//! in lane. Text is escaped.
//!
//! Stable hooks for tests and pages (class names and `data-*` attributes):
//! - landscape cells: `rect.cell` (`.outside` outside Ω, `.novalue` without a usable value)
//!   with `data-i`, `data-j` (indices into `l.w`, `l.p`), `data-w`, `data-p`, `data-v`;
//! - landscape markers: `g.marker.marker-{policy}` (plus `.not-admitted`, drawn hollow),
//!   `g.marker.marker-relaxed`, `g.marker.marker-integer-optimum`, each with `data-w`,
//!   `data-p`, `data-t`; the Ω boundary `g.omega`; the search panel `g.search` with one
//!   `g.summand` per summand;
//! - schedule: see [`schedule_svg`]; line chart: see [`line_chart_svg`]; scatter: see
//!   [`scatter_svg`]; the simulation charts: see [`timeline_svg`], [`usage_svg`],
//!   [`jct_cdf_svg`], [`utility_bound_svg`] (each root has a `data-testid`); the sweep
//!   charts: see [`sweep_svg`].
//!
//! ```
//! use smd_charts::{landscape_geometry, landscape_svg, LandscapeOptions, Value};
//! let mut scenario = smd_core::generate(&smd_core::GenerateOptions { jobs: 1, ..Default::default() });
//! scenario.params.epsilon = 0.2;
//! let l = smd_core::landscape(&scenario, 0, 20, &[]).unwrap();
//! let opts = LandscapeOptions { value: Value::Utility, ..Default::default() };
//! let svg = landscape_svg(&l, &opts);
//! assert!(svg.starts_with("<svg"));
//! let g = landscape_geometry(&l, &opts);
//! let (x, y) = g.to_px(l.w[0], l.p[0]);
//! assert_eq!(g.nearest_sample(x, y), Some((0, 0)));
//! ```

#![warn(missing_docs)]

mod axes;
mod buy;
mod decomposition;
mod fgd;
/// Number formatting, owned by the `smd-format` crate (re-exported: the page reads it here).
pub use smd_format as format;
mod gpu;
mod gpu_speeds;
mod landscape;
mod legend;
mod line;
mod machines;
pub mod marker;
mod measured;
mod over_time;
pub mod palette;
mod pipeline;
mod rect;
pub mod scale;
mod scatter;
mod schedule;
pub mod svg;
mod sweep;
pub mod teach;
mod timeline;
mod utility;

pub use buy::{mix_frontier_svg, mix_map_svg, qualifies, BuyOptions};
pub use decomposition::decomposition_svg;
pub use fgd::{fgd_lines_svg, fgd_map_svg, FgdChart, FgdLine, MapGroup, BOUND_NAME};
pub use gpu::{gpu_map_svg, headline as sharing_headline, GpuMapOptions};
pub use gpu_speeds::{gpu_speeds_svg, SpeedRow};
pub use landscape::{
    landscape_geometry, landscape_overlay_svg, landscape_svg, Geometry, LandscapeOptions, Mark,
    Overlay, OverlayLine, OverlayPoint, Value,
};
pub use line::{line_chart_svg, LineChart, Point, Series};
pub use machines::{machine_map_svg, MachineMapOptions};
pub use measured::step_curve_svg;
pub use over_time::{jct_cdf_svg, policy_style, usage_svg, utility_bound_svg, OverTimeOptions};
pub use pipeline::{pipeline_svg, PipelineOptions, Stage};
pub use rect::Rect;
pub use scatter::{scatter_svg, ScatterChart, ScatterSeries};
pub use schedule::{schedule_svg, ScheduleOptions, TimeUnit};
pub use sweep::{planner_style, sweep_svg, use_resource, SweepMetric, SweepOptions};
pub use timeline::{timeline_svg, TimelineOptions};
pub use utility::utility_curve_svg;
