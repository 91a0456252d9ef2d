//! One placement: the jobs' tasks on the machines with one policy (docs/PLACEMENT.md).

use crate::assemble::assemble;
use crate::input::{self, Job, Machine, Options};
use crate::output::Placement;
use crate::policy::Policy;
use crate::{exact, greedy};
use smd_core::Error;

/// Places every job's workers and PSs on the machines with `policy` (docs/PLACEMENT.md).
///
/// Jobs are taken in the given order (the plan's order); `exact` optimises over all of them
/// at once. An invalid number (negative, not finite, above 1e12, a local rate of 0, λ outside
/// [0, 1]) is an [`Error::Invalid`] naming its field; everything else gives a [`Placement`].
pub fn place(
    machines: &[Machine],
    jobs: &[Job],
    policy: Policy,
    options: &Options,
) -> Result<Placement, Error> {
    input::validate(machines, jobs, options)?;
    let counts = match policy {
        Policy::Exact => return Ok(exact::place(machines, jobs, options)),
        heuristic => greedy::place_all(machines, jobs, heuristic, options),
    };
    Ok(assemble(machines, jobs, counts, None))
}
