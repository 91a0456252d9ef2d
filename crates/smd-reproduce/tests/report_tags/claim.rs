//! The claims the tags check: a number, `A–B`, `A → B` or `A ± B` as the prose writes
//! them, and whether a value shows as a number.

/// A number as written: its value and its decimals.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Num {
    pub(crate) text: String,
    pub(crate) value: f64,
    pub(crate) decimals: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Claim {
    One(Num),
    Range(Num, Num),
    Trend(Num, Num),
    PlusMinus(Num, Num),
}

/// The number ending at `end` (exclusive) of `c`, after an optional `%` or `×` and blanks:
/// the number and where it starts.
fn number_before(c: &[char], end: usize) -> Option<(Num, usize)> {
    let mut i = end;
    while i > 0 && c[i - 1].is_whitespace() {
        i -= 1;
    }
    if i > 0 && (c[i - 1] == '%' || c[i - 1] == '×') {
        i -= 1;
    }
    let stop = i;
    while i > 0 && (c[i - 1].is_ascii_digit() || c[i - 1] == '.') {
        i -= 1;
    }
    if i > 0 && c[i - 1] == '+' {
        i -= 1;
    }
    let text: String = c[i..stop].iter().collect();
    let digits = text.trim_start_matches('+');
    let ok = digits.starts_with(|d: char| d.is_ascii_digit())
        && digits.ends_with(|d: char| d.is_ascii_digit())
        && !(i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_'));
    let value: f64 = digits.parse().ok().filter(|_| ok)?;
    let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
    Some((
        Num {
            text,
            value,
            decimals,
        },
        i,
    ))
}

/// The claim at the end of `text` and where it starts (in chars).
pub(crate) fn claim_before(text: &str) -> Option<(Claim, usize)> {
    let c: Vec<char> = text.chars().collect();
    let (b, start) = number_before(&c, c.len())?;
    let mut i = start;
    while i > 0 && c[i - 1].is_whitespace() {
        i -= 1;
    }
    if i > 0 {
        let kind = c[i - 1];
        if let Some((a, s)) = "–→±"
            .contains(kind)
            .then(|| number_before(&c, i - 1))
            .flatten()
        {
            let claim = match kind {
                '–' => Claim::Range(a, b),
                '→' => Claim::Trend(a, b),
                _ => Claim::PlusMinus(a, b),
            };
            return Some((claim, s));
        }
    }
    Some((Claim::One(b), start))
}

/// A table cell that is one claim and nothing else.
pub(crate) fn claim_of_cell(text: &str) -> Option<Claim> {
    let t = text.trim();
    match claim_before(t) {
        Some((claim, 0)) => Some(claim),
        _ => None,
    }
}

/// `v` written as `n` is: rounded to its decimals (or to `sig` significant digits).
pub(crate) fn shows(v: f64, n: &Num, sig: Option<i32>) -> bool {
    if !v.is_finite() {
        return false;
    }
    match sig {
        Some(s) if v != 0.0 => {
            let scale = 10f64.powi(s - 1 - v.abs().log10().floor() as i32);
            ((v * scale).round() / scale - n.value).abs() <= 1e-9 * n.value.abs().max(1.0)
        }
        _ => format!("{:.*}", n.decimals, v).parse::<f64>() == Ok(n.value),
    }
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::One(n) => write!(f, "{}", n.text),
            Claim::Range(a, b) => write!(f, "{}–{}", a.text, b.text),
            Claim::Trend(a, b) => write!(f, "{} → {}", a.text, b.text),
            Claim::PlusMinus(a, b) => write!(f, "{} ± {}", a.text, b.text),
        }
    }
}
