//! A plan's totals re-derived from its job lines, after a stage changed them.

use smd_core::model::JobModel;
use smd_core::scenario::Resources;
use smd_core::Plan;

/// Total utility, admitted count, used and requested resources from the job lines.
pub(crate) fn rederive_totals(models: &[JobModel], plan: &mut Plan) {
    let (mut total, mut admitted) = (0.0, 0);
    let (mut used, mut requested) = ([0.0; 4], [0.0; 4]);
    for (line, m) in plan.jobs.iter().zip(models) {
        if !line.admitted {
            continue;
        }
        admitted += 1;
        total += line.utility;
        let d = m.demand(
            line.workers.unwrap_or(0) as f64,
            line.ps.unwrap_or(0) as f64,
        );
        let l = m.limit.to_array();
        for r in 0..4 {
            used[r] += d[r];
            requested[r] += l[r];
        }
    }
    plan.total_utility = total;
    plan.admitted = admitted;
    plan.resources.used = Resources::from_array(used);
    plan.resources.requested = Resources::from_array(requested);
}
