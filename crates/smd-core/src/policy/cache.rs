//! SMD allocations kept between plans (the page re-plans after every edit).

use super::assemble::Candidate;
use crate::choice::InnerSolver;
use crate::inner::InnerStats;
use crate::scenario::{Job, Scenario};

/// Everything a job's SMD allocation depends on, hashed. Not its utility (Algorithms 1 and 2
/// minimise T; a hit recomputes the candidate's utility from its T, in `smd_cached`) nor its
/// arrival and requested allocation (the simulation's, which the static planner ignores):
/// the simulation re-plans the same jobs every slot with new utilities.
pub(super) fn cache_key(job: &Job, scenario: &Scenario, solver: InnerSolver) -> u64 {
    use std::hash::{Hash, Hasher};
    let p = &scenario.params;
    let job = Job {
        utility: crate::scenario::Utility {
            gamma1: 0.0,
            gamma2: 0.0,
            gamma3: 0.0,
        },
        arrival_s: None,
        requested_workers: None,
        requested_ps: None,
        ..job.clone()
    };
    let text = serde_json::to_string(&(
        &job,
        &scenario.cluster.instance,
        (
            p.epsilon,
            p.m_delta,
            p.max_rounding_attempts,
            p.seed,
            p.time_unit_s,
        ),
        (p.polish, p.rounding, solver),
    ))
    .expect("serialisable");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Per-job SMD allocations kept between plans, so that a re-plan after editing one job runs
/// Algorithm 1 for that job only. Plans are identical with or without it (its entries carry
/// the work counts they stand for).
#[derive(Default)]
pub struct Cache {
    entries: std::collections::HashMap<u64, (Candidate, InnerStats, f64)>,
    used: std::collections::HashSet<u64>,
    hits: u64,
    misses: u64,
}

impl Cache {
    /// An empty cache.
    pub fn new() -> Cache {
        Cache::default()
    }
    /// Allocations reused so far.
    pub fn hits(&self) -> u64 {
        self.hits
    }
    /// Allocations computed so far.
    pub fn misses(&self) -> u64 {
        self.misses
    }
    /// Forgets the entries no plan used since the last call (bounds memory to one scenario).
    pub fn retain_used(&mut self) {
        let used = std::mem::take(&mut self.used);
        self.entries.retain(|k, _| used.contains(k));
    }
    pub(super) fn get(&mut self, k: u64) -> Option<(Candidate, InnerStats, f64)> {
        self.used.insert(k);
        let found = self.entries.get(&k).cloned();
        if found.is_some() {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        found.map(|(c, s, _)| (c, s, 0.0))
    }
    pub(super) fn put(&mut self, k: u64, v: (Candidate, InnerStats, f64)) {
        self.used.insert(k);
        self.entries.insert(k, v);
    }
}
