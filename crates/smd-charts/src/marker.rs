//! Marker shapes, distinct in outline so that they read without colour.

use crate::svg::Px;

/// A marker shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A disc.
    Circle,
    /// An axis-aligned square.
    Square,
    /// A square standing on a corner.
    Diamond,
    /// A triangle pointing up.
    TriangleUp,
    /// A triangle pointing down.
    TriangleDown,
    /// A diagonal cross (stroke only).
    Cross,
    /// A pentagon.
    Pentagon,
    /// A six-pointed asterisk (stroke only).
    Asterisk,
}

impl Shape {
    /// Whether the shape is made of strokes only (it has no inside to fill).
    pub fn stroke_only(self) -> bool {
        matches!(self, Shape::Cross | Shape::Asterisk)
    }

    /// SVG path data of the shape centred on (x, y) with "radius" `s` px.
    pub fn path(self, x: f64, y: f64, s: f64) -> String {
        let pts = |v: &[(f64, f64)]| -> String {
            let mut d = String::new();
            for (i, (dx, dy)) in v.iter().enumerate() {
                d.push(if i == 0 { 'M' } else { 'L' });
                d.push_str(&format!("{},{}", Px(x + dx * s), Px(y + dy * s)));
            }
            d.push('Z');
            d
        };
        match self {
            Shape::Circle => format!(
                "M{},{}a{r},{r} 0 1,0 {d},0a{r},{r} 0 1,0 -{d},0Z",
                Px(x - s),
                Px(y),
                r = Px(s),
                d = Px(2.0 * s)
            ),
            Shape::Square => pts(&[(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)]),
            Shape::Diamond => pts(&[(0.0, -1.15), (1.15, 0.0), (0.0, 1.15), (-1.15, 0.0)]),
            Shape::TriangleUp => pts(&[(0.0, -1.2), (1.1, 0.75), (-1.1, 0.75)]),
            Shape::TriangleDown => pts(&[(0.0, 1.2), (1.1, -0.75), (-1.1, -0.75)]),
            Shape::Pentagon => {
                let v: Vec<(f64, f64)> = (0..5)
                    .map(|k| {
                        let a = -std::f64::consts::FRAC_PI_2
                            + k as f64 * 2.0 * std::f64::consts::PI / 5.0;
                        (a.cos(), a.sin())
                    })
                    .collect();
                pts(&v)
            }
            Shape::Cross => format!(
                "M{},{}L{},{}M{},{}L{},{}",
                Px(x - s),
                Px(y - s),
                Px(x + s),
                Px(y + s),
                Px(x - s),
                Px(y + s),
                Px(x + s),
                Px(y - s)
            ),
            Shape::Asterisk => {
                let mut d = String::new();
                for k in 0..3 {
                    let a = std::f64::consts::FRAC_PI_2 + k as f64 * std::f64::consts::PI / 3.0;
                    let (c, si) = (a.cos() * s, a.sin() * s);
                    d.push_str(&format!(
                        "M{},{}L{},{}",
                        Px(x - c),
                        Px(y - si),
                        Px(x + c),
                        Px(y + si)
                    ));
                }
                d
            }
        }
    }
}

/// Writes a marker: a white halo for contrast on any background, then the shape.
/// `filled = false` draws only the outline (e.g. a plan that did not admit the job).
pub(crate) fn draw(
    out: &mut String,
    shape: Shape,
    x: f64,
    y: f64,
    s: f64,
    colour: &str,
    filled: bool,
) {
    let d = shape.path(x, y, s);
    let solid = filled && !shape.stroke_only();
    let (halo_w, w, fill, stroke) = if solid {
        (3.5, 1.2, colour, "#000000")
    } else {
        (5.0, 2.2, "none", colour)
    };
    crate::svg::Tag::new(out, "path")
        .attr("d", &d)
        .attr("fill", if solid { "#ffffff" } else { "none" })
        .attr("stroke", "#ffffff")
        .px("stroke-width", halo_w)
        .attr("stroke-linejoin", "round")
        .close();
    crate::svg::Tag::new(out, "path")
        .attr("d", &d)
        .attr("fill", fill)
        .attr("stroke", stroke)
        .px("stroke-width", w)
        .attr("stroke-linejoin", "round")
        .close();
}
