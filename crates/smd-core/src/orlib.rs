//! Reader for OR-Library multi-dimensional knapsack files (Chu & Beasley's `mknapcb*.txt`):
//! the number of problems, then per problem `n m optimum`, n profits, m rows of n weights,
//! m capacities. Used by the exact knapsack's benchmark and its regression fixtures.

use crate::error::Error;

/// One instance: `max Σ p_j x_j` s.t. `Σ w_ij x_j ≤ c_i`.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// Profits p_j.
    pub profits: Vec<f64>,
    /// Weights, `weights[i][j]` for constraint i and item j.
    pub weights: Vec<Vec<f64>>,
    /// Capacities c_i.
    pub capacities: Vec<f64>,
    /// The optimum given in the file (0 if none).
    pub optimum: f64,
}

/// Parses every instance of a file.
pub fn parse(text: &str) -> Result<Vec<Instance>, Error> {
    let mut nums = text.split_ascii_whitespace().map(|t| {
        t.parse::<f64>()
            .map_err(|_| Error::Parse(format!("OR-Library file: not a number: {t:?}")))
    });
    let mut next = || {
        nums.next()
            .unwrap_or_else(|| Err(Error::Parse("OR-Library file ends early".into())))
    };
    let count = next()? as usize;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let (n, m, optimum) = (next()? as usize, next()? as usize, next()?);
        let profits = (0..n).map(|_| next()).collect::<Result<Vec<_>, _>>()?;
        let weights = (0..m)
            .map(|_| (0..n).map(|_| next()).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()?;
        let capacities = (0..m).map(|_| next()).collect::<Result<Vec<_>, _>>()?;
        out.push(Instance {
            profits,
            weights,
            capacities,
            optimum,
        });
    }
    Ok(out)
}

impl Instance {
    /// The instance as knapsack items with R constraints (`None` if it has another count).
    pub fn items<const R: usize>(&self) -> Option<(Vec<crate::knapsack::Item<R>>, [f64; R])> {
        if self.capacities.len() != R {
            return None;
        }
        let items = (0..self.profits.len())
            .map(|j| crate::knapsack::Item {
                value: self.profits[j],
                demand: std::array::from_fn(|i| self.weights[i][j]),
            })
            .collect();
        Some((items, std::array::from_fn(|i| self.capacities[i])))
    }
}

#[cfg(test)]
mod tests;
