//! Number formatting for display, shared by the CLI's text, the charts and the page (no
//! model arithmetic): one owner, below every crate that writes numbers for people.
//!
//! Two significant-digit formatters with different policies share one core
//! (plain notation with the decimals for `sig` digits, scientific notation):
//! - [`fmt_sig`], the charts': plain for 1e-3 ≤ |v| < 1e5, else `1.5e7` (mantissa
//!   trimmed); typographic minus `−`; `NaN`, `∞`, `−∞` for non-finite values;
//! - [`sig`], the page's: plain for 1e-4 ≤ |v| < 1e9 (by decimal magnitude), else Rust's
//!   `1.50e9` (mantissa untrimmed); ASCII `-`; `—` for non-finite values.
//!
//! Tick labels use [`fmt_tick`] (decimals from the tick step) or, on a log axis,
//! [`fmt_sig`]; [`tick_label`] picks. Messages (errors, warnings) write numbers with [`num`].

/// A number with `sig` significant digits, in plain notation for 1e-3 ≤ |v| < 1e5 and as
/// `1.23e6` otherwise; trailing zeros removed.
pub fn fmt_sig(v: f64, sig: usize) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    if v == 0.0 {
        return "0".into();
    }
    let sig = sig.max(1);
    let a = v.abs();
    let exp = a.log10().floor() as i32;
    let s = if (1e-3..1e5).contains(&a) {
        fixed_sig(v, sig, exp)
    } else {
        let s = scientific(v, sig);
        match s.split_once('e') {
            Some((m, e)) => format!("{}e{e}", trim(m)),
            None => s,
        }
    };
    s.replace('-', "−")
}

/// Largest magnitude a tick label writes in plain digits; beyond it, [`fmt_sig`]'s
/// exponent (an axis that reaches a billion is not read digit by digit).
const PLAIN_TICK_MAX: f64 = 1e9;

/// A tick label for `v` on a linear axis whose tick step is `step`: as many decimals as
/// the step needs (two without a usable step), thousands grouped (`90,000`); [`fmt_sig`]
/// outside 1e-3 ≤ |v| < 1e9.
pub fn fmt_tick(v: f64, step: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-3..PLAIN_TICK_MAX).contains(&a) {
        return fmt_sig(v, 3);
    }
    let decimals = if step > 0.0 && step.is_finite() {
        (-(step.log10() + 1e-9).floor()).max(0.0) as usize
    } else {
        2
    };
    let s = format!("{a:.decimals$}");
    // A negative tick that rounds to zero is written without its sign.
    if v < 0.0 && !s.chars().all(|c| c == '0' || c == '.') {
        format!("−{}", grouped(&s))
    } else {
        grouped(&s)
    }
}

/// The label of tick `v` on an axis with tick step `step`: three significant digits on a
/// logarithmic axis (plain and grouped, `100,000`, within 1e-3 ≤ |v| < 1e9), [`fmt_tick`]
/// on a linear one.
pub fn tick_label(v: f64, step: f64, log: bool) -> String {
    if !log {
        fmt_tick(v, step)
    } else if (1e-3..PLAIN_TICK_MAX).contains(&v.abs()) {
        plain_sig(v, 3)
    } else {
        fmt_sig(v, 3)
    }
}

/// A number as messages (errors and warnings) show it: plain when readable (`0.01`, `1200`),
/// in exponent form when tiny or huge (`1e-300`, not three hundred zeros); ASCII, so that a
/// value can be typed back.
pub fn num(v: f64) -> String {
    // Twelve significant digits: a sum's last-bit noise (219.77000000000004) is not what
    // anyone typed, and a value typed with fewer digits reads back exactly.
    let v = if v.is_finite() {
        format!("{v:.11e}").parse::<f64>().unwrap_or(v)
    } else {
        v
    };
    if v != 0.0 && v.is_finite() && !(1e-4..1e9).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

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

/// A number with `sig` significant digits, without exponent noise for ordinary sizes
/// (the page's; see the module docs for how it differs from [`fmt_sig`]).
pub fn sig(v: f64, sig: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return "—".into();
    }
    let mag = v.abs().log10().floor() as i32;
    if !(-4..=8).contains(&mag) {
        return scientific(v, sig);
    }
    fixed_sig(v, sig, mag)
}

/// A share of 1 as a percentage.
pub fn percent(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1}%", 100.0 * part / whole)
    } else {
        "—".into()
    }
}

/// A share of 1 as a signed change in percent, one decimal, with a true minus: `+3.0 %`,
/// `−0.7 %`; a change that rounds to nothing is `0.0 %` (never `−0.0 %` or `+0.0 %`),
/// and a value that is no number is `—`.
pub fn signed_percent(share: f64) -> String {
    let pct = 100.0 * share;
    if !pct.is_finite() {
        return "—".into();
    }
    let s = format!("{pct:.1}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        return "0.0 %".into();
    }
    format!("{pct:+.1} %").replace('-', "−")
}

/// A probability for people: a percentage with 2 significant digits (`0.41%`), or
/// `< 0.0001%` below one in a million (a Gaussian tail of 1e-14 reads as noise otherwise).
pub fn probability(p: f64) -> String {
    if p < 1e-6 {
        "< 0.0001%".into()
    } else {
        percent_sig(p, 2)
    }
}

/// A share of 1 as a percentage with `digits` significant digits (`0.04%`, `1.5%`, `12%`):
/// for small shares such as an optimality gap.
pub fn percent_sig(share: f64, digits: usize) -> String {
    format!("{}%", sig(100.0 * share, digits))
}

/// A count in the unit that reads best: `950`, `12.3 k`, `1.2 M`, `3.4 G`.
pub fn count(n: u64) -> String {
    let v = n as f64;
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{} k", sig(v / 1e3, 3)),
        1_000_000..=999_999_999 => format!("{} M", sig(v / 1e6, 2)),
        _ => format!("{} G", sig(v / 1e9, 2)),
    }
}

/// A number as the page shows it: [`sig`]'s significant digits between 1e-4 and 10 000,
/// [`amount`] outside — thousands grouped (`5,801,425`), `≈ 0` for dust — so that no
/// quantity a person reads carries an exponent.
pub fn readable(v: f64, digits: usize) -> String {
    if v.is_finite() && v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e4) {
        amount(v)
    } else {
        sig(v, digits)
    }
}

/// An amount a person reads, in plain notation (no exponent): thousands grouped with
/// commas from 1 000 up (`5,801,425`, rounded to a whole number), four significant digits
/// below (`12.35`, `0.0042`), and `≈ 0` for magnitudes under 1e-4 that are not zero (a μ of
/// 2.4e-31 is nothing a planner acts on).
pub fn amount(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    if v == 0.0 {
        return "0".into();
    }
    if v.abs() < 1e-4 {
        return "≈ 0".into();
    }
    if v.abs() < 1000.0 {
        return sig(v, 4);
    }
    let out = grouped(&format!("{:.0}", v.abs()));
    if v < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// `digits` (an unsigned plain number) with its whole part grouped by thousands.
fn grouped(digits: &str) -> String {
    let (whole, fraction) = digits.split_at(digits.find('.').unwrap_or(digits.len()));
    let mut out = String::with_capacity(digits.len() + whole.len() / 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out.push_str(fraction);
    out
}

/// A number with at least `sig` significant digits, in plain notation whatever its size:
/// the whole part grouped by thousands (`12,345.6`, `1,234,568`), never an exponent (a time
/// a person reads in a sentence), trailing zeros removed, `−` for a minus; `≈ 0` for
/// magnitudes under 1e-4 that are not zero (as [`amount`]).
pub fn plain_sig(v: f64, sig: usize) -> String {
    if !v.is_finite() || v == 0.0 {
        return fmt_sig(v, sig);
    }
    if v.abs() < 1e-4 {
        return "≈ 0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    let text = grouped(&fixed_sig(v.abs(), sig.max(1), mag));
    if v < 0.0 {
        format!("−{text}")
    } else {
        text
    }
}

/// US dollars: cents below $1,000 (`$12.35`), whole dollars grouped above (`$4,521`).
pub fn usd(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    if v.abs() < 1000.0 {
        format!("{sign}${:.2}", v.abs())
    } else {
        format!("{sign}${}", amount(v.abs()))
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

/// `v` (whose decimal magnitude is `mag`) in plain notation with the decimals that give
/// `sig` significant digits, trailing zeros removed.
fn fixed_sig(v: f64, sig: usize, mag: i32) -> String {
    let decimals = (sig as i32 - 1 - mag).max(0) as usize;
    trim(&format!("{v:.decimals$}"))
}

/// `v` in Rust's scientific notation with `sig` significant digits (`1.50e9`).
fn scientific(v: f64, sig: usize) -> String {
    format!("{v:.prec$e}", prec = sig.saturating_sub(1))
}

/// Removes trailing zeros after a decimal point (and the point itself).
pub fn trim(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain significant digits: grouped by thousands from 1 000 up, decimals only where
    /// the digits need them, never an exponent, a true minus.
    #[test]
    fn plain_significant_digits_group_thousands_and_never_use_exponents() {
        assert_eq!(plain_sig(12345.6, 6), "12,345.6");
        assert_eq!(plain_sig(123.456789, 6), "123.457");
        assert_eq!(plain_sig(1234567.8, 6), "1,234,568");
        assert_eq!(plain_sig(999.5, 3), "1,000");
        assert_eq!(plain_sig(100.0, 6), "100");
        assert_eq!(plain_sig(-4321.0, 6), "−4,321");
        assert_eq!(plain_sig(0.000123456, 3), "0.000123");
        assert_eq!(plain_sig(0.0, 6), "0");
        assert_eq!(plain_sig(f64::INFINITY, 6), "∞");
        assert_eq!(plain_sig(2.437e-31, 4), "≈ 0");
        assert_eq!(plain_sig(-9.9e-5, 4), "≈ 0");
        for v in [1e5, 3.2e9, 7.7e15, 2.5e-4] {
            let s = plain_sig(v, 6);
            assert!(!s.contains('e'), "{v}: {s}");
            // The digits read back to the value, to its significant digits.
            let back: f64 = s.replace(',', "").parse().unwrap();
            assert!((back - v).abs() <= v * 1e-5, "{v}: {s}");
        }
    }

    /// Amounts: separators every three digits, no exponent, ≈ 0 for dust.
    #[test]
    fn amounts_read_without_exponents() {
        assert_eq!(amount(5_801_425.0), "5,801,425");
        assert_eq!(amount(-1234.6), "-1,235");
        assert_eq!(amount(999.94), "999.9");
        assert_eq!(amount(1000.0), "1,000");
        assert_eq!(amount(100_000.0), "100,000");
        assert_eq!(amount(0.004215), "0.004215");
        assert_eq!(amount(2.437e-31), "≈ 0");
        assert_eq!(amount(0.0), "0");
        assert_eq!(amount(f64::NAN), "—");
        for v in [1.0, 12.5, 1e6, 3.3e9, 1e-3, 2.5e-7, 4.2e12] {
            assert!(!amount(v).contains('e'), "{v}: {}", amount(v));
            assert!(!readable(v, 3).contains('e'), "{v}: {}", readable(v, 3));
        }
        assert_eq!(readable(0.012345, 3), sig(0.012345, 3));
        assert_eq!(readable(12345.0, 3), "12,345");
        assert_eq!(readable(2.437e-31, 4), "≈ 0");
        assert_eq!(usd(12.345), "$12.35");
        assert_eq!(usd(999.994), "$999.99");
        assert_eq!(usd(4521.4), "$4,521");
        assert_eq!(usd(-3.0), "-$3.00");
    }

    /// Messages: what was typed reads back, and no value floods a line.
    #[test]
    fn message_numbers_are_short_and_read_back() {
        assert_eq!(num(0.01), "0.01");
        assert_eq!(num(1200.0), "1200");
        assert_eq!(num(219.77000000000004), "219.77");
        assert_eq!(num(1e-300), "1e-300");
        assert_eq!(num(-1.7e300), "-1.7e300");
        assert_eq!(num(f64::NAN), "NaN");
        for v in [1e-300, 3.3e-7, 0.5, 123456.789, 4.2e15, 1.5e308] {
            let s = num(v);
            assert!(s.len() <= 20, "{v}: {s}");
            assert_eq!(s.parse::<f64>().unwrap(), v, "{v}: {s}");
        }
    }

    #[test]
    fn significant() {
        assert_eq!(fmt_sig(1234.6, 3), "1235");
        assert_eq!(fmt_sig(0.012345, 3), "0.0123");
        assert_eq!(fmt_sig(1.5e7, 3), "1.5e7");
        assert_eq!(fmt_sig(-2.0, 3), "−2");
        assert_eq!(fmt_sig(0.0, 3), "0");
    }

    #[test]
    fn ticks() {
        assert_eq!(fmt_tick(0.5, 0.1), "0.5");
        assert_eq!(fmt_tick(20.0, 5.0), "20");
        assert_eq!(fmt_tick(3.0, 1.0), "3");
        assert_eq!(fmt_tick(0.3, 0.1), "0.3");
        assert_eq!(fmt_tick(0.15, 0.05), "0.15");
        assert_eq!(fmt_tick(-0.0, 0.5), "0.0");
        assert_eq!(fmt_tick(2e6, 1e6), "2,000,000");
        assert_eq!(fmt_tick(-12500.0, 2500.0), "−12,500");
        assert_eq!(fmt_tick(-0.001, 0.5), "0.0");
        assert_eq!(fmt_tick(2e9, 1e9), "2e9");
        assert_eq!(tick_label(1e5, 0.0, true), "100,000");
        assert_eq!(tick_label(90000.0, 0.0, true), "90,000");
        assert_eq!(tick_label(2e-4, 0.0, true), "2e−4");
        assert_eq!(tick_label(200.0, 0.0, true), "200");
        assert_eq!(tick_label(0.25, 0.05, false), "0.25");
    }

    /// The page's formatters (moved here from `web/src/components/format.rs`).
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
        assert_eq!(percent_sig(0.0004, 2), "0.04%");
        assert_eq!(percent_sig(0.015, 2), "1.5%");
        assert_eq!(percent_sig(0.123, 2), "12%");
        assert_eq!(percent_sig(0.0, 2), "0%");
        assert_eq!(probability(0.0041), "0.41%");
        assert_eq!(probability(2.7e-14), "< 0.0001%");
        assert_eq!(probability(0.01), "1%");
        assert_eq!(count(950), "950");
        assert_eq!(count(12_345), "12.3 k");
        assert_eq!(count(1_234_567), "1.2 M");
        assert_eq!(count(45_600_000), "46 M");
        assert_eq!(count(3_400_000_000), "3.4 G");
    }

    /// A signed change: a true minus, and zero (or what rounds to it, from either side)
    /// reads `0.0 %`, never `−0.0 %`.
    #[test]
    fn a_signed_percent_has_no_negative_zero() {
        assert_eq!(signed_percent(0.03), "+3.0 %");
        assert_eq!(signed_percent(-0.007), "−0.7 %");
        assert_eq!(signed_percent(0.0), "0.0 %");
        assert_eq!(signed_percent(-0.0), "0.0 %");
        assert_eq!(signed_percent(-0.0004), "0.0 %");
        assert_eq!(signed_percent(0.0004), "0.0 %");
        assert_eq!(signed_percent(-0.0005001), "−0.1 %");
        assert_eq!(signed_percent(f64::NAN), "—");
    }

    /// Where the page's `sig` and the charts' `fmt_sig` part ways (both kept as they were).
    #[test]
    fn the_two_significant_formatters_differ_only_where_documented() {
        assert_eq!(sig(1.5e9, 3), "1.50e9");
        assert_eq!(fmt_sig(1.5e9, 3), "1.5e9");
        assert_eq!(sig(-2.5, 3), "-2.5");
        assert_eq!(fmt_sig(-2.5, 3), "−2.5");
        assert_eq!(sig(123456.0, 3), "123456");
        assert_eq!(fmt_sig(123456.0, 3), "1.23e5");
        assert_eq!(sig(f64::INFINITY, 3), "—");
        assert_eq!(fmt_sig(f64::INFINITY, 3), "∞");
        assert_eq!(sig(0.37, 0), "0");
        assert_eq!(fmt_sig(0.37, 0), "0.4");
        for v in [0.012345, 1234.6, 42.0, 0.5, 9.9996, 2.71, 0.001] {
            assert_eq!(sig(v, 3), fmt_sig(v, 3), "{v}");
        }
    }
}
