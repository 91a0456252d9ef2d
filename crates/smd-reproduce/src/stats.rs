//! Mean and spread of a point's per-seed values.

/// Summary of the values of one point (one per seed): mean, sample standard deviation,
/// minimum, maximum and count. Non-finite values are left out (and so not counted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Number of values summarised.
    pub n: usize,
    /// Arithmetic mean (NaN when `n = 0`).
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator; 0 when `n = 1`, NaN when 0).
    pub sd: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Summary {
    /// Summarises the finite values of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Summary {
        let v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
        let n = v.len();
        if n == 0 {
            return Summary {
                n,
                mean: f64::NAN,
                sd: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
            };
        }
        let mean = v.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 {
            (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Summary {
            n,
            mean,
            sd,
            min: v.iter().copied().fold(f64::INFINITY, f64::min),
            max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// A chart point at `x`: the mean with an error bar of ± one standard deviation.
    pub fn point(&self, x: f64) -> smd_charts::Point {
        smd_charts::Point {
            x,
            mean: self.mean,
            spread: self.sd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_sd_min_max() {
        let s = Summary::of([1.0, 2.0, 3.0, f64::NAN]);
        assert_eq!(s.n, 3);
        assert_eq!(s.mean, 2.0);
        assert_eq!(s.sd, 1.0);
        assert_eq!((s.min, s.max), (1.0, 3.0));
        assert_eq!(Summary::of([5.0]).sd, 0.0);
        assert!(Summary::of([]).mean.is_nan());
    }
}
