//! Rectangles of a chart's layout.

/// An axis-aligned rectangle in SVG user units (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// The plot area two scales span: their pixel ends. (Compute a plot's edges from these,
    /// not from `right()` and `bottom()`, whose round-off could move a pixel label.)
    pub(crate) fn spanned(xs: &crate::scale::Scale, ys: &crate::scale::Scale) -> Rect {
        Rect {
            x: xs.px.0,
            y: ys.px.1,
            width: xs.px.1 - xs.px.0,
            height: ys.px.0 - ys.px.1,
        }
    }

    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// Whether (x, y) lies in the rectangle, edges included.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x <= self.right() && y >= self.y && y <= self.bottom()
    }
}
