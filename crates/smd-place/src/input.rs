//! What placement reads: machines, jobs (their admitted w and p with demands), options; and
//! the check that every number is usable (docs/PLACEMENT.md §2).

use serde::{Deserialize, Serialize};
use smd_core::error::num;
use smd_core::scenario::{Mode, Resource, Resources, MAX_MAGNITUDE};
use smd_core::{Error, FieldError};

/// One machine (CLUSTER.md §1: each machine of each group is its own machine).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Its name, `"<group>-<index>"` by convention; only messages use it.
    pub name: String,
    /// GPUs, vCPUs, memory and storage of this machine.
    pub capacity: Resources,
    /// The NIC's bandwidth, Gbps: the PSs on the machine reserve their job's B from it
    /// (CLUSTER.md §2). `None`: not limited.
    pub nic_gbps: Option<f64>,
    /// The transfer rate between two tasks on this machine, Gbps (β = B / local_gbps).
    /// `None`: co-located transfer is free (β = 0).
    pub local_gbps: Option<f64>,
}

impl Clone for Machine {
    fn clone(&self) -> Machine {
        let Machine {
            name,
            capacity,
            nic_gbps,
            local_gbps,
        } = self;
        Machine {
            name: name.clone(),
            capacity: *capacity,
            nic_gbps: *nic_gbps,
            local_gbps: *local_gbps,
        }
    }

    /// In place, its name's buffer reused: a simulation refreshes what its running jobs
    /// leave of the machines at every slot.
    fn clone_from(&mut self, source: &Machine) {
        let Machine {
            name,
            capacity,
            nic_gbps,
            local_gbps,
        } = source;
        self.name.clone_from(name);
        self.capacity = *capacity;
        self.nic_gbps = *nic_gbps;
        self.local_gbps = *local_gbps;
    }
}

impl Machine {
    /// A machine with `capacity`, no NIC limit and free co-located transfer.
    pub fn new(name: impl Into<String>, capacity: Resources) -> Machine {
        Machine {
            name: name.into(),
            capacity,
            nic_gbps: None,
            local_gbps: None,
        }
    }
}

/// One admitted job as placement sees it: how many tasks of each kind, their demands, and
/// what its communication needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// The job's id (for messages).
    pub id: String,
    /// Sync or async SGD: which link ρ measures (CLUSTER.md §3).
    pub mode: Mode,
    /// Workers w.
    pub workers: u32,
    /// Parameter servers p.
    pub ps: u32,
    /// One worker's demand O^w (its GPUs are on its own machine: a task never splits).
    pub worker_demand: Resources,
    /// One PS's demand O^p.
    pub ps_demand: Resources,
    /// B, Gbps: the rate of a (worker, PS) pair across machines, and what each PS reserves
    /// on its machine's NIC.
    pub bandwidth_gbps: f64,
    /// G, gigabits: the gradient, `8·g/1000` for a model of g MB; every (worker, PS) pair
    /// exchanges `2G/p` per iteration.
    pub gradient_gbit: f64,
}

impl Job {
    /// A scenario job at `workers` workers and `ps` PSs (counts above `u32::MAX` are cut:
    /// no machine list holds that many tasks).
    pub fn of(job: &smd_core::scenario::Job, workers: u64, ps: u64) -> Job {
        let cut = |n: u64| n.min(u64::from(u32::MAX)) as u32;
        Job {
            id: job.id.clone(),
            mode: job.mode,
            workers: cut(workers),
            ps: cut(ps),
            worker_demand: job.worker,
            ps_demand: job.ps,
            bandwidth_gbps: job.ps_bandwidth_gbps,
            gradient_gbit: 8.0 * job.model_size_mb / 1000.0,
        }
    }
}

/// Parameters and limits of [`crate::place()`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// λ of `dltap`'s score `λ·a + (1 − λ)·f` (docs/PLACEMENT.md §8), in [0, 1].
    pub dltap_lambda: f64,
    /// Search nodes `exact` may visit before it returns its best placement unproven
    /// (docs/PLACEMENT.md §10).
    pub exact_max_nodes: u64,
    /// Tasks (w + p) a job may have; a larger job that is not already refused for capacity
    /// is not placed, so that no policy loops billions of times (docs/PLACEMENT.md §11).
    pub max_tasks_per_job: u64,
}

impl Options {
    /// λ's default, the scenario's (`params.dltap_lambda` unset): aggregation weighs more
    /// than free room.
    pub const DEFAULT_DLTAP_LAMBDA: f64 = smd_core::scenario::DEFAULT_DLTAP_LAMBDA;
    /// `exact`'s default node limit: about a second natively.
    pub const DEFAULT_EXACT_MAX_NODES: u64 = 1_000_000;
    /// The default task limit per job.
    pub const DEFAULT_MAX_TASKS_PER_JOB: u64 = 1_000_000;
}

impl Default for Options {
    fn default() -> Options {
        Options {
            dltap_lambda: Options::DEFAULT_DLTAP_LAMBDA,
            exact_max_nodes: Options::DEFAULT_EXACT_MAX_NODES,
            max_tasks_per_job: Options::DEFAULT_MAX_TASKS_PER_JOB,
        }
    }
}

/// Every number that placement computes with must be in [0, 1e12] (the scenario's range), a
/// local rate positive, λ in [0, 1]: each violation is one [`FieldError`] (machines by their
/// index, job fields under the job's id). NaN fails every range.
pub(crate) fn validate(machines: &[Machine], jobs: &[Job], options: &Options) -> Result<(), Error> {
    let mut errors = Vec::new();
    // The scenario's own range (SCENARIO.md): 1e12 times a count below 2^32 stays finite,
    // so no load can overflow to ∞ and pass a check against an ∞ limit.
    // The field's name is formatted only for an error: this runs at every slot of a
    // simulation.
    let mut check = |job: Option<&str>, field: std::fmt::Arguments, v: f64, positive: bool| {
        let bad = !(0.0..=MAX_MAGNITUDE).contains(&v) || (positive && v == 0.0);
        if bad {
            let rule = if positive {
                "must be in (0, 1e12]"
            } else {
                "must be in [0, 1e12]"
            };
            errors.push(FieldError {
                job: job.map(str::to_owned),
                field: field.to_string(),
                message: format!("{rule}, got {}", num(v)),
            });
        }
    };
    for (h, m) in machines.iter().enumerate() {
        for r in Resource::ALL {
            check(
                None,
                format_args!("machines[{h}].capacity.{r}"),
                m.capacity[r],
                false,
            );
        }
        if let Some(v) = m.nic_gbps {
            check(None, format_args!("machines[{h}].nic_gbps"), v, false);
        }
        // A local rate of 0 would mean co-located tasks never finish; "free" is `None`.
        if let Some(v) = m.local_gbps {
            check(None, format_args!("machines[{h}].local_gbps"), v, true);
        }
    }
    for j in jobs {
        let id = Some(j.id.as_str());
        for r in Resource::ALL {
            check(
                id,
                format_args!("worker_demand.{r}"),
                j.worker_demand[r],
                false,
            );
            check(id, format_args!("ps_demand.{r}"), j.ps_demand[r], false);
        }
        check(id, format_args!("bandwidth_gbps"), j.bandwidth_gbps, false);
        check(id, format_args!("gradient_gbit"), j.gradient_gbit, false);
    }
    let lambda = options.dltap_lambda;
    if !(0.0..=1.0).contains(&lambda) {
        errors.push(FieldError {
            job: None,
            field: "options.dltap_lambda".into(),
            message: format!("must be in [0, 1], got {}", num(lambda)),
        });
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written `clone_from` (a simulation refreshes its machines with it every
    /// slot) makes a machine equal to its source whatever it held: a shorter or longer
    /// name, other capacities, a NIC limit and a local rate set or unset.
    #[test]
    fn clone_from_equals_the_source() {
        let mut a = Machine::new(
            "a-long-machine-name-0",
            Resources::from_array([4.0, 32.0, 64.0, 0.0]),
        );
        a.nic_gbps = Some(25.0);
        let mut b = Machine::new("b-1", Resources::from_array([8.0, 16.0, 128.0, 100.0]));
        b.local_gbps = Some(40.0);
        for (to, from) in [(a.clone(), &b), (b.clone(), &a)] {
            let mut to = to;
            to.clone_from(from);
            assert_eq!(&to, from);
            assert_eq!(to, from.clone());
        }
    }
}
