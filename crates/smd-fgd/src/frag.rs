//! The fragmentation measure F_n(M) of a node against the target workload
//! (docs/MODEL.md §26.5; FGD paper §3).

use crate::workload::TargetType;

/// Whether a node of model `node_model` may run a pod constrained to `spec` (§26.1): an
/// empty constraint allows every model; a node without a model allows no constrained pod;
/// otherwise the model must equal one of the constraint's non-empty `|`-separated tokens.
pub fn accessible(node_model: &str, spec: &str) -> bool {
    if spec.is_empty() {
        return true;
    }
    if node_model.is_empty() {
        return false;
    }
    let mut any = false;
    for token in spec.split('|').filter(|t| !t.is_empty()) {
        any = true;
        if token == node_model {
            return true;
        }
    }
    !any
}

/// A task type of M, compiled for one cluster: its accessibility per model id.
#[derive(Clone, Debug)]
pub struct CompiledType {
    /// CPU, milli-cores.
    pub cpu: i64,
    /// Per-GPU milli.
    pub milli: i64,
    /// GPU count.
    pub num: u32,
    /// Popularity.
    pub p: f64,
    /// `access[model id]`.
    pub access: Vec<bool>,
}

/// The target workload compiled against the cluster's list of models.
pub fn compile(m: &[TargetType], models: &[String]) -> Vec<CompiledType> {
    m.iter()
        .map(|t| CompiledType {
            cpu: t.task.cpu_milli,
            milli: t.task.gpu_milli,
            num: t.task.num_gpu,
            p: t.p,
            access: models
                .iter()
                .map(|model| accessible(model, &t.task.gpu_spec))
                .collect(),
        })
        .collect()
}

/// Bucket indices, the reference's order.
pub const Q1_LACK_BOTH: usize = 0;
/// GPUs insufficient (and the unusable part of a satisfied node's GPUs).
pub const Q2_LACK_GPU: usize = 1;
/// The usable part of a satisfied node's GPUs (not fragment).
pub const Q3_SATISFIED: usize = 2;
/// GPUs suffice, CPU does not.
pub const Q4_LACK_CPU: usize = 3;
/// CPU-only type, CPU suffices.
pub const XL_SATISFIED: usize = 4;
/// CPU-only type, CPU lacks.
pub const XR_LACK_CPU: usize = 5;
/// The node's model is not allowed for the type.
pub const NO_ACCESS: usize = 6;

/// The seven fragmentation buckets of a node (free CPU `cpu_left`, free milli per GPU
/// `free`, model id `model`), accumulated over M in list order.
pub fn node_buckets(cpu_left: i64, free: &[i64], model: usize, m: &[CompiledType]) -> [f64; 7] {
    let total: i64 = free.iter().sum();
    let mut b = [0.0f64; 7];
    for t in m {
        let bucket = if t.milli == 0 {
            if cpu_left >= t.cpu {
                XL_SATISFIED
            } else {
                XR_LACK_CPU
            }
        } else if !t.access.get(model).copied().unwrap_or(false) {
            NO_ACCESS
        } else {
            let fitting = free.iter().filter(|&&g| g >= t.milli).count();
            let gpus_ok = t.num >= 1 && fitting >= t.num as usize;
            match (gpus_ok, cpu_left >= t.cpu) {
                (true, true) => {
                    let frag: i64 = free.iter().filter(|&&g| g < t.milli).sum();
                    b[Q2_LACK_GPU] += t.p * frag as f64;
                    b[Q3_SATISFIED] += t.p * (total - frag) as f64;
                    continue;
                }
                (true, false) => Q4_LACK_CPU,
                (false, true) => Q2_LACK_GPU,
                (false, false) => Q1_LACK_BOTH,
            }
        };
        b[bucket] += t.p * total as f64;
    }
    b
}

/// F_n(M): every bucket but Q3, summed in the reference's order.
pub fn sum_except_q3(b: &[f64; 7]) -> f64 {
    let mut out = 0.0;
    for (i, v) in b.iter().enumerate() {
        if i != Q3_SATISFIED {
            out += v;
        }
    }
    out
}

/// F_n(M) of one node.
pub fn node_frag(cpu_left: i64, free: &[i64], model: usize, m: &[CompiledType]) -> f64 {
    sum_except_q3(&node_buckets(cpu_left, free, model, m))
}

/// The FGD score of moving a node from fragmentation `f0` to `f1`:
/// `⌊100·σ((f0 − f1)/1000)⌋`, σ the logistic function.
pub fn fgd_score(f0: f64, f1: f64) -> i64 {
    let x = (f0 - f1) / 1000.0;
    let s = 1.0 / (1.0 + libm::exp(-x));
    (s * 100.0) as i64
}
