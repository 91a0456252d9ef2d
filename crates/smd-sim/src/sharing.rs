//! GPU sharing over time (docs/MODEL.md §18, "Over time"): each machine's (or the pool's)
//! GPUs are an [`Online`] packing; the workers of a job that stops or changes depart, those
//! of a job that starts or changes arrive (best fit), and a job whose workers do not fit
//! beside the others waits the slot. Each running job's slowdown is read off the packing
//! every slot.

use smd_core::plan::{PlacedShare, SharedGpu, WorkerRef};
use smd_core::{Error, Scenario};
use smd_place::share::{rules_of, Online};
use smd_place::{job_slowdown, shareable, worker_of};

/// One machine's (or the pool's) GPUs.
struct Site {
    name: String,
    gpus: f64,
    online: Online,
}

/// The GPUs of the cluster as the run goes.
pub(crate) struct Sharing {
    sites: Vec<Site>,
    /// Per job: (site, online id) of each of its packed workers.
    ids: Vec<Vec<(usize, usize)>>,
    /// Per job: the site of each of its workers that breaks the memory rule even alone and
    /// so keeps a GPU to itself (MODEL §18).
    alone: Vec<Vec<usize>>,
}

/// What the packing gives one slot.
pub(crate) struct SlotSharing {
    /// Each job's slowdown (1 when it runs alone on its GPUs or is not shared).
    pub slowdown: Vec<f64>,
    /// Every shared GPU with its occupants.
    pub gpus: Vec<SharedGpu>,
    /// GPUs in use: the shared ones plus the whole GPUs of the other workers.
    pub gpus_used: f64,
    /// GPUs the same workers would use without sharing.
    pub exclusive_gpus: f64,
    /// Σ over packed workers of 1 / slowdown, and their number.
    pub performance: (f64, usize),
}

impl Sharing {
    /// The GPUs of `s` (the scenario as given, not its effective form), or `None` when
    /// `params.gpu_sharing` is off.
    pub fn new(s: &Scenario) -> Result<Option<Sharing>, Error> {
        if !smd_core::sharing::sharing_on(s) {
            return Ok(None);
        }
        let rules = rules_of(s);
        let sites = smd_place::share::gpu_sites(s)
            .into_iter()
            .map(|(name, gpus)| {
                Ok(Site {
                    name,
                    gpus,
                    online: Online::new(rules)?,
                })
            })
            .collect::<Result<_, Error>>()?;
        Ok(Some(Sharing {
            sites,
            ids: vec![Vec::new(); s.jobs.len()],
            alone: vec![Vec::new(); s.jobs.len()],
        }))
    }

    /// Packs one slot. `alloc`, `shares` and `keep` are the slot's decisions after placement
    /// (`keep[i]`: job i runs as in the last slot); a fresh job whose workers do not fit is
    /// set to wait (`alloc[i] = None`, with its reason in `why[i]`).
    pub fn slot(
        &mut self,
        s: &Scenario,
        active: &[usize],
        alloc: &mut [Option<(u64, u64)>],
        shares: &mut [Option<Vec<PlacedShare>>],
        keep: &[bool],
        why: &mut [Option<crate::world::Why>],
    ) -> Result<SlotSharing, Error> {
        let mut whole = self.depart(alloc, keep);
        // The kept jobs first: their GPUs are where they were.
        for &i in active {
            if keep[i] && alloc[i].is_some() && !shareable(&s.jobs[i]) {
                for (h, w) in self.spread(i, alloc, shares) {
                    whole[h] += w as f64 * s.jobs[i].worker.gpu;
                }
            }
        }
        // Then each job that starts or changes, in the policy's order.
        for &i in active {
            if alloc[i].is_none() || keep[i] {
                continue;
            }
            self.arrive(s, i, alloc, shares, why, &mut whole)?;
        }
        Ok(self.summary(s, &whole))
    }

    /// Departures: whatever does not run on unchanged leaves its GPUs, as before. Returns
    /// the whole GPUs per site of the workers that stay alone (too big to share).
    fn depart(&mut self, alloc: &[Option<(u64, u64)>], keep: &[bool]) -> Vec<f64> {
        for (i, ids) in self.ids.iter_mut().enumerate() {
            if !(keep[i] && alloc[i].is_some()) {
                for (h, id) in ids.drain(..) {
                    self.sites[h].online.depart(id);
                }
                self.alone[i].clear();
            }
        }
        let mut whole = vec![0.0; self.sites.len()];
        for sites in &self.alone {
            for &h in sites {
                whole[h] += 1.0;
            }
        }
        whole
    }

    /// Job `i` starts or changes: its whole GPUs, or its workers into the packing; it waits
    /// (and leaves what it took) if its machine's GPUs no longer hold everything.
    fn arrive(
        &mut self,
        s: &Scenario,
        i: usize,
        alloc: &mut [Option<(u64, u64)>],
        shares: &mut [Option<Vec<PlacedShare>>],
        why: &mut [Option<crate::world::Why>],
        whole: &mut [f64],
    ) -> Result<(), Error> {
        let job = &s.jobs[i];
        let mut index = 0u32;
        let mut full: Option<usize> = None;
        for (h, w) in self.spread(i, alloc, shares) {
            if !shareable(job) {
                whole[h] += w as f64 * job.worker.gpu;
            } else {
                for _ in 0..w {
                    match self.sites[h].online.arrive(worker_of(job, i, index))? {
                        Some(id) => self.ids[i].push((h, id)),
                        None => {
                            self.alone[i].push(h);
                            whole[h] += 1.0;
                        }
                    }
                    index += 1;
                }
            }
            let site = &self.sites[h];
            if site.online.packing().gpus.len() as f64 + whole[h] > site.gpus + 1e-9 {
                full = Some(h);
                break;
            }
        }
        if let Some(h) = full {
            for (g, id) in self.ids[i].drain(..) {
                self.sites[g].online.depart(id);
            }
            for g in self.alone[i].drain(..) {
                whole[g] -= 1.0;
            }
            if !shareable(job) {
                // Undo the whole GPUs added up to and including site h.
                for (g, w) in self.spread(i, alloc, shares) {
                    whole[g] -= w as f64 * job.worker.gpu;
                    if g == h {
                        break;
                    }
                }
            }
            alloc[i] = None;
            shares[i] = None;
            why[i] = Some(
                format!(
                "not placed: GPU sharing: the GPUs of {} cannot hold its workers beside the others",
                self.sites[h].name
            )
                .into(),
            );
        }
        Ok(())
    }

    /// The slot's packing as the run records it: every shared GPU with its occupants, the
    /// GPUs in use (shared plus `whole`), each job's slowdown (MODEL §18).
    fn summary(&self, s: &Scenario, whole: &[f64]) -> SlotSharing {
        let mut out = SlotSharing {
            slowdown: vec![1.0; s.jobs.len()],
            gpus: Vec::new(),
            gpus_used: whole.iter().sum(),
            exclusive_gpus: whole.iter().sum(),
            performance: (0.0, 0),
        };
        let mut per_job: Vec<Vec<f64>> = vec![Vec::new(); s.jobs.len()];
        for (h, site) in self.sites.iter().enumerate() {
            let packing = site.online.packing();
            let first = whole[h].ceil() as u32;
            for (k, g) in packing.gpus.iter().enumerate() {
                let mut workers = Vec::with_capacity(g.workers.len());
                for &id in &g.workers {
                    let Some(w) = site.online.worker(id) else {
                        continue;
                    };
                    per_job[w.job].push(g.slowdown);
                    out.performance.0 += 1.0 / g.slowdown;
                    out.performance.1 += 1;
                    workers.push(WorkerRef {
                        job: s.jobs[w.job].id.clone(),
                        index: w.index,
                    });
                }
                out.exclusive_gpus += workers.len() as f64;
                out.gpus.push(SharedGpu {
                    machine: site.name.clone(),
                    gpu: first + k as u32,
                    slowdowns: vec![g.slowdown; workers.len()],
                    workers,
                    mem_mean_gb: g.mem_mean_gb,
                    mem_sd_gb: g.mem_sd_gb,
                    collision_prob: g.collision_prob,
                });
            }
            out.gpus_used += packing.gpus.len() as f64;
        }
        for (i, v) in per_job.iter().enumerate() {
            out.slowdown[i] = job_slowdown(s.jobs[i].mode, v);
        }
        out
    }

    /// (site, workers) of job `i` this slot: its placement on machines, all on the pool.
    fn spread(
        &self,
        i: usize,
        alloc: &[Option<(u64, u64)>],
        shares: &[Option<Vec<PlacedShare>>],
    ) -> Vec<(usize, u64)> {
        match &shares[i] {
            Some(sh) => sh
                .iter()
                .filter_map(|x| {
                    self.sites
                        .iter()
                        .position(|site| site.name == x.machine)
                        .map(|h| (h, x.workers))
                })
                .collect(),
            None => vec![(0, alloc[i].map_or(0, |a| a.0))],
        }
    }
}
