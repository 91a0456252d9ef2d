//! The artifacts' measurement files (`data/pollux/` and `data/sia/`, see their READMEs for their origin and
//! licence), embedded: every crate that reads them reads them from here.

/// `placements/<app>.csv` of every application, in [`App::ALL`](crate::app::App::ALL)'s
/// order: `placement,local_bsz,step_time,sync_time`, 1–4 nodes.
pub const PLACEMENTS: [&str; 6] = [
    include_str!("../../../data/pollux/placements/cifar10.csv"),
    include_str!("../../../data/pollux/placements/imagenet.csv"),
    include_str!("../../../data/pollux/placements/bert.csv"),
    include_str!("../../../data/pollux/placements/deepspeech2.csv"),
    include_str!("../../../data/pollux/placements/yolov3.csv"),
    include_str!("../../../data/pollux/placements/ncf.csv"),
];

/// `scalability/<app>.csv` of every application, in `App::ALL`'s order:
/// `num_nodes,num_replicas,local_bsz,step_time,sync_time`, 6–16 nodes.
pub const SCALABILITY: [&str; 6] = [
    include_str!("../../../data/pollux/scalability/cifar10.csv"),
    include_str!("../../../data/pollux/scalability/imagenet.csv"),
    include_str!("../../../data/pollux/scalability/bert.csv"),
    include_str!("../../../data/pollux/scalability/deepspeech2.csv"),
    include_str!("../../../data/pollux/scalability/yolov3.csv"),
    include_str!("../../../data/pollux/scalability/ncf.csv"),
];

/// `validation/<app>/validation-<B>.csv` of every application, in `App::ALL`'s order, each
/// as `(B, text)` with B increasing: `progress,iteration,metric,grad_sqr,grad_var`, a row
/// per epoch.
pub const VALIDATION: [&[(u32, &str)]; 6] = [
    &[
        (
            128,
            include_str!("../../../data/pollux/validation/cifar10/validation-128.csv"),
        ),
        (
            256,
            include_str!("../../../data/pollux/validation/cifar10/validation-256.csv"),
        ),
        (
            512,
            include_str!("../../../data/pollux/validation/cifar10/validation-512.csv"),
        ),
        (
            1024,
            include_str!("../../../data/pollux/validation/cifar10/validation-1024.csv"),
        ),
        (
            2048,
            include_str!("../../../data/pollux/validation/cifar10/validation-2048.csv"),
        ),
        (
            4096,
            include_str!("../../../data/pollux/validation/cifar10/validation-4096.csv"),
        ),
    ],
    &[
        (
            200,
            include_str!("../../../data/pollux/validation/imagenet/validation-200.csv"),
        ),
        (
            400,
            include_str!("../../../data/pollux/validation/imagenet/validation-400.csv"),
        ),
        (
            800,
            include_str!("../../../data/pollux/validation/imagenet/validation-800.csv"),
        ),
        (
            1600,
            include_str!("../../../data/pollux/validation/imagenet/validation-1600.csv"),
        ),
        (
            3200,
            include_str!("../../../data/pollux/validation/imagenet/validation-3200.csv"),
        ),
        (
            6400,
            include_str!("../../../data/pollux/validation/imagenet/validation-6400.csv"),
        ),
        (
            12800,
            include_str!("../../../data/pollux/validation/imagenet/validation-12800.csv"),
        ),
    ],
    &[
        (
            12,
            include_str!("../../../data/pollux/validation/bert/validation-12.csv"),
        ),
        (
            24,
            include_str!("../../../data/pollux/validation/bert/validation-24.csv"),
        ),
        (
            48,
            include_str!("../../../data/pollux/validation/bert/validation-48.csv"),
        ),
        (
            96,
            include_str!("../../../data/pollux/validation/bert/validation-96.csv"),
        ),
        (
            192,
            include_str!("../../../data/pollux/validation/bert/validation-192.csv"),
        ),
        (
            384,
            include_str!("../../../data/pollux/validation/bert/validation-384.csv"),
        ),
    ],
    &[
        (
            20,
            include_str!("../../../data/pollux/validation/deepspeech2/validation-20.csv"),
        ),
        (
            40,
            include_str!("../../../data/pollux/validation/deepspeech2/validation-40.csv"),
        ),
        (
            80,
            include_str!("../../../data/pollux/validation/deepspeech2/validation-80.csv"),
        ),
        (
            160,
            include_str!("../../../data/pollux/validation/deepspeech2/validation-160.csv"),
        ),
        (
            320,
            include_str!("../../../data/pollux/validation/deepspeech2/validation-320.csv"),
        ),
        (
            640,
            include_str!("../../../data/pollux/validation/deepspeech2/validation-640.csv"),
        ),
    ],
    &[
        (
            8,
            include_str!("../../../data/pollux/validation/yolov3/validation-8.csv"),
        ),
        (
            16,
            include_str!("../../../data/pollux/validation/yolov3/validation-16.csv"),
        ),
        (
            32,
            include_str!("../../../data/pollux/validation/yolov3/validation-32.csv"),
        ),
        (
            64,
            include_str!("../../../data/pollux/validation/yolov3/validation-64.csv"),
        ),
        (
            128,
            include_str!("../../../data/pollux/validation/yolov3/validation-128.csv"),
        ),
        (
            256,
            include_str!("../../../data/pollux/validation/yolov3/validation-256.csv"),
        ),
        (
            512,
            include_str!("../../../data/pollux/validation/yolov3/validation-512.csv"),
        ),
    ],
    &[
        (
            256,
            include_str!("../../../data/pollux/validation/ncf/validation-256.csv"),
        ),
        (
            512,
            include_str!("../../../data/pollux/validation/ncf/validation-512.csv"),
        ),
        (
            1024,
            include_str!("../../../data/pollux/validation/ncf/validation-1024.csv"),
        ),
        (
            2048,
            include_str!("../../../data/pollux/validation/ncf/validation-2048.csv"),
        ),
        (
            4096,
            include_str!("../../../data/pollux/validation/ncf/validation-4096.csv"),
        ),
        (
            8192,
            include_str!("../../../data/pollux/validation/ncf/validation-8192.csv"),
        ),
        (
            16384,
            include_str!("../../../data/pollux/validation/ncf/validation-16384.csv"),
        ),
        (
            32768,
            include_str!("../../../data/pollux/validation/ncf/validation-32768.csv"),
        ),
    ],
];

/// The Sia artifact's files of the GPU types other than the T4 (`data/sia/`, see its README
/// for their origin), per type in [`Gpu::ALL`](crate::gpu::Gpu::ALL)'s order after the T4,
/// per application in `App::ALL`'s order: `(placements-<type>.csv,
/// scalability-<type>.csv)`; columns in any order (read by header).
pub const TYPED: [[(&str, &str); 6]; 4] = [
    // V100
    [
        (
            include_str!("../../../data/sia/traces/cifar10/placements-azure.csv"),
            include_str!("../../../data/sia/traces/cifar10/scalability-azure.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/imagenet/placements-azure.csv"),
            include_str!("../../../data/sia/traces/imagenet/scalability-azure.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/bert/placements-azure.csv"),
            include_str!("../../../data/sia/traces/bert/scalability-azure.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/deepspeech2/placements-azure.csv"),
            include_str!("../../../data/sia/traces/deepspeech2/scalability-azure.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/yolov3/placements-azure.csv"),
            include_str!("../../../data/sia/traces/yolov3/scalability-azure.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/ncf/placements-azure.csv"),
            include_str!("../../../data/sia/traces/ncf/scalability-azure.csv"),
        ),
    ],
    // A100
    [
        (
            include_str!("../../../data/sia/traces/cifar10/placements-dgx-ext.csv"),
            include_str!("../../../data/sia/traces/cifar10/scalability-dgx-ext.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/imagenet/placements-dgx-ext.csv"),
            include_str!("../../../data/sia/traces/imagenet/scalability-dgx-ext.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/bert/placements-dgx-ext.csv"),
            include_str!("../../../data/sia/traces/bert/scalability-dgx-ext.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/deepspeech2/placements-dgx-ext.csv"),
            include_str!("../../../data/sia/traces/deepspeech2/scalability-dgx-ext.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/yolov3/placements-dgx-ext.csv"),
            include_str!("../../../data/sia/traces/yolov3/scalability-dgx-ext.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/ncf/placements-dgx-ext.csv"),
            include_str!("../../../data/sia/traces/ncf/scalability-dgx-ext.csv"),
        ),
    ],
    // Rtx2080ti
    [
        (
            include_str!("../../../data/sia/traces/cifar10/placements-rtx.csv"),
            include_str!("../../../data/sia/traces/cifar10/scalability-rtx.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/imagenet/placements-rtx.csv"),
            include_str!("../../../data/sia/traces/imagenet/scalability-rtx.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/bert/placements-rtx.csv"),
            include_str!("../../../data/sia/traces/bert/scalability-rtx.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/deepspeech2/placements-rtx.csv"),
            include_str!("../../../data/sia/traces/deepspeech2/scalability-rtx.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/yolov3/placements-rtx.csv"),
            include_str!("../../../data/sia/traces/yolov3/scalability-rtx.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/ncf/placements-rtx.csv"),
            include_str!("../../../data/sia/traces/ncf/scalability-rtx.csv"),
        ),
    ],
    // Rtx6000
    [
        (
            include_str!("../../../data/sia/traces/cifar10/placements-quad.csv"),
            include_str!("../../../data/sia/traces/cifar10/scalability-quad.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/imagenet/placements-quad.csv"),
            include_str!("../../../data/sia/traces/imagenet/scalability-quad.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/bert/placements-quad.csv"),
            include_str!("../../../data/sia/traces/bert/scalability-quad.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/deepspeech2/placements-quad.csv"),
            include_str!("../../../data/sia/traces/deepspeech2/scalability-quad.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/yolov3/placements-quad.csv"),
            include_str!("../../../data/sia/traces/yolov3/scalability-quad.csv"),
        ),
        (
            include_str!("../../../data/sia/traces/ncf/placements-quad.csv"),
            include_str!("../../../data/sia/traces/ncf/scalability-quad.csv"),
        ),
    ],
];

/// An application's step-time files on GPU type `gpu`, each as (its path under `data/`,
/// its text): the placements file, then the scalability file — the Pollux artifact's for
/// the T4, [`TYPED`]'s for the others. The one place that picks them.
pub fn step_tables(app: crate::app::App, gpu: crate::gpu::Gpu) -> [(String, &'static str); 2] {
    let (i, name) = (app as usize, app.name());
    match gpu.index() {
        t @ 1.. => {
            let key = gpu.artifact_key();
            [
                (
                    format!("sia/traces/{name}/placements-{key}.csv"),
                    TYPED[t - 1][i].0,
                ),
                (
                    format!("sia/traces/{name}/scalability-{key}.csv"),
                    TYPED[t - 1][i].1,
                ),
            ]
        }
        _ => [
            (format!("pollux/placements/{name}.csv"), PLACEMENTS[i]),
            (format!("pollux/scalability/{name}.csv"), SCALABILITY[i]),
        ],
    }
}
