//! Colour-blind-safe colours: a sequential viridis ramp for heatmaps and the Okabe–Ito
//! qualitative set for categories; the style cycle of data series.

use crate::marker::Shape;
use smd_core::scenario::Gpu;

/// Viridis at t = 0, 1/8, …, 1 (nine anchors; linear RGB interpolation between them).
const VIRIDIS: [[u8; 3]; 9] = [
    [0x44, 0x01, 0x54],
    [0x47, 0x2d, 0x7b],
    [0x3b, 0x52, 0x8b],
    [0x2c, 0x72, 0x8e],
    [0x21, 0x91, 0x8c],
    [0x28, 0xae, 0x80],
    [0x5e, 0xc9, 0x62],
    [0xad, 0xdc, 0x30],
    [0xfd, 0xe7, 0x25],
];

/// The viridis colour at `t` ∈ [0, 1] (clamped; NaN gives the low end) as `#rrggbb`.
pub fn viridis(t: f64) -> String {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let c: [u8; 3] =
        std::array::from_fn(|k| (a[k] as f64 + f * (b[k] as f64 - a[k] as f64)).round() as u8);
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The Okabe–Ito colours without black and yellow (which vanish on white or on viridis):
/// blue, vermillion, bluish green, reddish purple, orange, sky blue.
pub const CATEGORICAL: [&str; 6] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
];

/// Category `k`'s colour for many categories (e.g. a machine map's jobs): the six
/// [`CATEGORICAL`] colours, then the same hues darker (mixed 45% with black), then lighter
/// (mixed 45% with white): 18 before a colour repeats, neighbours always differing in hue.
pub fn categorical(k: usize) -> String {
    let base = CATEGORICAL[k % CATEGORICAL.len()];
    let rgb: [f64; 3] = std::array::from_fn(|i| {
        f64::from(u8::from_str_radix(&base[1 + 2 * i..3 + 2 * i], 16).unwrap_or(0))
    });
    let mixed: [f64; 3] = match (k / CATEGORICAL.len()) % 3 {
        0 => rgb,
        1 => rgb.map(|c| c * 0.55),
        _ => rgb.map(|c| c + (255.0 - c) * 0.45),
    };
    let [r, g, b] = mixed.map(|c| c.round().clamp(0.0, 255.0) as u8);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The colour of GPU type `gpu`, the same in every chart (the machine map, How it works'
/// speeds): the first five [`CATEGORICAL`] colours in [`Gpu::ALL`]'s order — blue (T4),
/// vermillion (V100), bluish green (A100), reddish purple (RTX 2080 Ti), orange
/// (RTX 6000); marks in them carry a dark outline, which keeps them apart from white.
pub fn gpu_type(gpu: Gpu) -> &'static str {
    CATEGORICAL[gpu.index() % CATEGORICAL.len()]
}

/// Dash patterns of series, `none` for a solid line: seven, against six colours, so that
/// no two of the first 42 series share colour and dash (the nine policies over time do
/// not repeat a style).
const DASHES: [&str; 7] = ["none", "7 3", "2 3", "9 3 2 3", "13 4", "4 2 1 2", "1 2"];

/// Marker shapes of series.
const SHAPES: [Shape; 8] = [
    Shape::Circle,
    Shape::Square,
    Shape::TriangleUp,
    Shape::Diamond,
    Shape::TriangleDown,
    Shape::Cross,
    Shape::Pentagon,
    Shape::Asterisk,
];

/// Style of data series `k`: colour, dash pattern (`none` for solid) and marker shape, so
/// that neighbouring series differ in all three.
pub(crate) fn series_style(k: usize) -> (&'static str, &'static str, Shape) {
    (
        CATEGORICAL[k % CATEGORICAL.len()],
        DASHES[k % DASHES.len()],
        SHAPES[k % SHAPES.len()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_middle() {
        assert_eq!(viridis(0.0), "#440154");
        assert_eq!(viridis(1.0), "#fde725");
        assert_eq!(viridis(0.5), "#21918c");
        assert_eq!(viridis(2.0), "#fde725");
        assert_eq!(viridis(f64::NAN), "#440154");
    }

    /// Series styles do not repeat within 42 series (colour and dash together), and
    /// neighbours differ in all three.
    #[test]
    fn series_styles_do_not_repeat() {
        let styles: Vec<_> = (0..42).map(series_style).collect();
        for i in 0..styles.len() {
            for j in i + 1..styles.len() {
                assert!(
                    (styles[i].0, styles[i].1) != (styles[j].0, styles[j].1),
                    "series {i} and {j}"
                );
            }
            if i > 0 {
                let (a, b) = (styles[i - 1], styles[i]);
                assert!(a.0 != b.0 && a.1 != b.1 && a.2 != b.2);
            }
        }
    }
}
