//! The speed model's free parameters as fitted to **all** 7 103 measured steps of the
//! Pollux artifact (docs/CALIBRATION.md; [`crate::calibrate::fit`] on every point, not on a
//! training part): presets and the machine catalog use them, and a test
//! (`calibrate::tests::the_full_data_fit_gives_the_calibrated_constants`) checks that the fit
//! still gives these values to 1%. Rounded to three significant digits. `smd calibrate`
//! shows how well they predict held-out points. [`Params`] holds the same free parameters
//! as the fit varies them; it sits here, beneath both the fit and the presets.

use serde::Serialize;

/// B: the cross-machine bandwidth of one PS, Gbps (fitted: 5.824).
pub const CROSS_GBPS: f64 = 5.82;
/// The transfer rate between two tasks on the same machine, Gbps (docs/MODEL.md §14;
/// fitted: 21.83). Pinned only by single-machine runs, so less certain than B.
pub const LOCAL_GBPS: f64 = 21.8;
/// β1: per-worker overhead per iteration, s (fitted: 0.000529).
pub const WORKER_OVERHEAD_S: f64 = 0.000_529;
/// β2: per-PS overhead per iteration, s. Not identifiable from all-reduce measurements
/// (the mapping has p = w, so only β1 + β2 is seen): 0, i.e. all of it on the workers.
pub const PS_OVERHEAD_S: f64 = 0.0;

/// The speed model's free parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Params {
    /// B: the cross-machine bandwidth of one PS, Gbps.
    pub cross_gbps: f64,
    /// The transfer rate between two tasks on one machine, Gbps (β = B / local_gbps).
    pub local_gbps: f64,
    /// β1: per-worker overhead per iteration, s.
    pub worker_overhead_s: f64,
}

impl Params {
    /// The values of this module's constants, which presets and machines use.
    pub const CALIBRATED: Params = Params {
        cross_gbps: CROSS_GBPS,
        local_gbps: LOCAL_GBPS,
        worker_overhead_s: WORKER_OVERHEAD_S,
    };
}
