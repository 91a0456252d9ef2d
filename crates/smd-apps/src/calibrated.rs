//! The speed model's free parameters as fitted to the artifact's measurements
//! (docs/CALIBRATION.md, `smd calibrate`): presets and the machine catalog use them, and a
//! test checks that the fit on all the data still gives these values.

/// B: the cross-machine bandwidth of one PS, Gbps.
pub const CROSS_GBPS: f64 = 10.0;
/// The transfer rate between two tasks on the same machine, Gbps (docs/MODEL.md §14).
pub const LOCAL_GBPS: f64 = 100.0;
/// β1: per-worker overhead per iteration, s.
pub const WORKER_OVERHEAD_S: f64 = 0.001;
/// β2: per-PS overhead per iteration, s. Not identifiable from all-reduce measurements
/// (the mapping has p = w, so only β1 + β2 is seen): 0, i.e. all of it on the workers.
pub const PS_OVERHEAD_S: f64 = 0.0;
