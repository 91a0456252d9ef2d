//! Placeholder until the exact solver lands: a greedy (not exact) answer with the API.

/// The problem.
pub struct Problem<'a> {
    /// Per job per config: value in hundredths (None: not allowed).
    pub values: &'a [Vec<Option<i64>>],
    /// GPUs per config.
    pub gpus: &'a [u32],
    /// Type index per config.
    pub kind: &'a [usize],
    /// GPUs per type.
    pub capacity: &'a [u32],
    /// Forced configs.
    pub pinned: &'a [Option<usize>],
}

/// Work limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Nodes (0: default).
    pub nodes: u64,
}

/// The answer.
pub struct Answer {
    /// Per job.
    pub choice: Vec<Option<usize>>,
    /// Value.
    pub value: i64,
    /// Bound.
    pub bound: i64,
    /// Proven.
    pub proven: bool,
    /// Nodes.
    pub nodes: u64,
}

/// Greedy placeholder.
pub fn solve(p: &Problem, _limits: &Limits) -> Result<Answer, String> {
    let mut left: Vec<i64> = p.capacity.iter().map(|&c| i64::from(c)).collect();
    let mut choice = vec![None; p.values.len()];
    let mut value = 0;
    for (i, pin) in p.pinned.iter().enumerate() {
        if let Some(c) = *pin {
            left[p.kind[c]] -= i64::from(p.gpus[c]);
            choice[i] = Some(c);
            value += p.values[i][c].unwrap_or(0);
        }
    }
    for (i, row) in p.values.iter().enumerate() {
        if choice[i].is_some() {
            continue;
        }
        let best = row
            .iter()
            .enumerate()
            .filter_map(|(c, v)| v.map(|v| (c, v)))
            .filter(|&(c, v)| v > 0 && left[p.kind[c]] >= i64::from(p.gpus[c]))
            .max_by_key(|&(c, v)| (v, std::cmp::Reverse(c)));
        if let Some((c, v)) = best {
            left[p.kind[c]] -= i64::from(p.gpus[c]);
            choice[i] = Some(c);
            value += v;
        }
    }
    Ok(Answer {
        choice,
        value,
        bound: value,
        proven: false,
        nodes: 0,
    })
}
