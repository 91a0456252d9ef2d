//! `locality` (docs/PLACEMENT.md §9), after seed 004's observation that good configurations
//! are *co-located* (every task of the job on one machine: ρ = β, X = 0) or *evenly spread*
//! (each machine holds workers and PSs in the job's proportion).
//!
//! 1. Co-located: if some machine holds the whole job, the one left with the least free
//!    dominant share (best fit; ties: the lowest index).
//! 2. Otherwise evenly spread over few machines: the job's tasks are laid out in a stream
//!    with the p PSs evenly interleaved among the w workers (a PS at positions
//!    ⌊k·(w+p)/p⌋, k = 0…p−1); machines are taken by decreasing room (how many of the job's
//!    average tasks fit), and each takes the longest prefix of what is left of the stream
//!    that fits on it, where a PS only counts as fitting together with the worker after
//!    it. A machine's part of the stream carries PSs in proportion to its workers (± 1),
//!    and the largest machines first keep the count of machines low.
//! 3. Tasks left when every machine has had its turn go one at a time, the workers first
//!    (their GPUs are the scarce part; a PS placed first could take the room they need), to
//!    the first machine in the same order with room for them.
//! 4. If one fits nowhere, the job's draft is dropped and the whole job placed by
//!    `first_fit` (§6), whose reason is the job's if that fails too: so `locality` places
//!    a job wherever `first_fit` would on the same machines.

use crate::cluster::{Cluster, Demand, Draft, Kind, DIMS};
use crate::first_fit::{first_fit, Failed};
use crate::input::Job;

pub(crate) fn place_job(
    cluster: &Cluster,
    draft: &mut Draft,
    demand: &Demand,
    job: &Job,
) -> Result<(), Failed> {
    let (w, p) = (job.workers, job.ps);
    let n = w as u64 + p as u64;
    if n == 0 {
        return Ok(()); // nothing to place: placed with no shares
    }
    let whole = demand.load(w, p);
    // 1. Co-located, best fit.
    let mut best: Option<(f64, usize)> = None;
    for h in 0..cluster.len() {
        if cluster.fits(h, &whole) {
            let f = cluster.free_share(h, &whole);
            if best.is_none_or(|(b, _)| f < b) {
                best = Some((f, h));
            }
        }
    }
    if let Some((_, h)) = best {
        draft.add(h, Kind::Worker, w);
        draft.add(h, Kind::Ps, p);
        return Ok(());
    }
    // 2. Evenly spread: machines by decreasing room for the job's average task.
    let average: [f64; DIMS] = std::array::from_fn(|r| whole[r] / n as f64);
    let room = |h: usize| {
        (0..DIMS)
            .filter(|&r| average[r] > 0.0)
            .map(|r| (cluster.limit(h)[r] - cluster.used(h)[r]).max(0.0) / average[r])
            .fold(f64::INFINITY, f64::min)
    };
    let rooms: Vec<f64> = (0..cluster.len()).map(room).collect();
    let mut order: Vec<usize> = (0..cluster.len()).collect();
    order.sort_by(|&a, &b| rooms[b].total_cmp(&rooms[a]).then(a.cmp(&b)));
    let stream = Stream { n, p: p as u64 };
    let mut next = 0u64;
    for &h in &order {
        while next < n {
            let kind = stream.kind(next);
            // A PS comes with the worker after it: a machine that can hold the PS but not
            // that worker would keep a PS whose workers all sit elsewhere.
            let (wh, ph) = draft.at(h);
            let load = match kind {
                Kind::Worker => demand.load(wh + 1, ph),
                Kind::Ps => {
                    let with = next + 1 < n && stream.kind(next + 1) == Kind::Worker;
                    demand.load(wh + u32::from(with), ph + 1)
                }
            };
            if !cluster.fits(h, &load) {
                break;
            }
            draft.add(h, kind, 1);
            next += 1;
        }
        if next == n {
            return Ok(());
        }
    }
    // 3. What is left, workers first, one task at a time, first fit in the same order.
    let (mut left_w, mut left_p) = (0u32, 0u32);
    for j in next..n {
        match stream.kind(j) {
            Kind::Worker => left_w += 1,
            Kind::Ps => left_p += 1,
        }
    }
    let rest = [(Kind::Worker, left_w), (Kind::Ps, left_p)];
    let placed = rest.iter().all(|&(kind, k)| {
        (0..k).all(|_| {
            let fits = |h: &&usize| cluster.fits(**h, &draft.load_plus(demand, **h, kind));
            order
                .iter()
                .find(fits)
                .map(|&h| draft.add(h, kind, 1))
                .is_some()
        })
    });
    if placed {
        return Ok(());
    }
    // 4. The whole job again, first fit: whatever `first_fit` places here, so does this.
    draft.clear();
    first_fit(cluster, draft, demand, job)
}

/// The job's tasks in stream order: p PSs evenly among n = w + p tasks.
struct Stream {
    n: u64,
    p: u64,
}

impl Stream {
    /// Task j is a PS iff j = ⌊k·n/p⌋ for some k in 0…p−1. The positions are distinct (n ≥
    /// p) and the only candidate k is ⌈j·p/n⌉. u128: k·n < 2^97.
    fn kind(&self, j: u64) -> Kind {
        if self.p == 0 {
            return Kind::Worker;
        }
        let (j, n, p) = (j as u128, self.n as u128, self.p as u128);
        let k = (j * p).div_ceil(n);
        if k < p && k * n / p == j {
            Kind::Ps
        } else {
            Kind::Worker
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(w: u64, p: u64) -> String {
        let s = Stream { n: w + p, p };
        (0..w + p)
            .map(|j| match s.kind(j) {
                Kind::Ps => 'P',
                Kind::Worker => 'W',
            })
            .collect()
    }

    #[test]
    fn the_stream_interleaves_ps_evenly() {
        assert_eq!(layout(4, 2), "PWWPWW");
        assert_eq!(layout(3, 2), "PWPWW");
        assert_eq!(layout(6, 3), "PWWPWWPWW");
        assert_eq!(layout(0, 3), "PPP");
        assert_eq!(layout(3, 0), "WWW");
        assert_eq!(layout(1, 1), "PW");
        for w in 0..20 {
            for p in 0..20 {
                let l = layout(w, p);
                assert_eq!(l.matches('P').count() as u64, p, "{w} {p}");
                assert_eq!(l.matches('W').count() as u64, w, "{w} {p}");
            }
        }
    }
}
