//! Number formatting for display (no model arithmetic).

/// A duration in seconds, in the unit that reads best.
pub fn duration(s: f64) -> String {
    if !s.is_finite() {
        return "—".into();
    }
    if s < 120.0 {
        format!("{s:.1} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.2} h", s / 3600.0)
    }
}

/// A number with `sig` significant digits, without exponent noise for ordinary sizes.
pub fn sig(v: f64, sig: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return "—".into();
    }
    let mag = v.abs().log10().floor() as i32;
    if !(-4..=8).contains(&mag) {
        return format!("{:.*e}", sig.saturating_sub(1), v);
    }
    let decimals = (sig as i32 - 1 - mag).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// A share of 1 as a percentage.
pub fn percent(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1}%", 100.0 * part / whole)
    } else {
        "—".into()
    }
}

/// Milliseconds.
pub fn ms(v: f64) -> String {
    if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else {
        format!("{v:.1} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(duration(30.0), "30.0 s");
        assert_eq!(duration(600.0), "10.0 min");
        assert_eq!(duration(36000.0), "10.00 h");
        assert_eq!(sig(0.012345, 3), "0.0123");
        assert_eq!(sig(1234.6, 3), "1235");
        assert_eq!(sig(110.0, 4), "110");
        assert_eq!(sig(0.5, 3), "0.5");
        assert_eq!(percent(1.0, 4.0), "25.0%");
        assert_eq!(ms(2500.0), "2.50 s");
    }
}
