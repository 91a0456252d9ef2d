use super::*;
use crate::job::Job;

/// SIA-SIM §9.7: Gavel's θ (iterations/s, with the calibration) of four jobs on the
/// default cluster's three types, with the packed placement, largest local batch,
/// accumulation and atomic batch behind each; the T4's (4,4,2) read from its own table.
#[test]
fn theta_matches_the_reference_vectors() {
    type Row = (App, u32, f64, Gpu, &'static [u32], Option<(f64, u32, u32)>, f64);
    let rows: [Row; 12] = [
        (App::Cifar10, 6, 2048.0, Gpu::T4, &[4, 2], Some((1024.0, 0, 342)), 2.06697),
        (App::Cifar10, 6, 2048.0, Gpu::A100, &[6], Some((1025.0, 0, 342)), 9.99312),
        (App::Cifar10, 6, 2048.0, Gpu::Rtx2080ti, &[6], Some((1024.0, 0, 342)), 4.14824),
        (App::Bert, 8, 384.0, Gpu::T4, &[4, 4], Some((12.0, 3, 12)), 0.161271),
        (App::Bert, 8, 384.0, Gpu::A100, &[8], Some((48.0, 0, 48)), 2.42261),
        (App::Bert, 8, 384.0, Gpu::Rtx2080ti, &[8], Some((12.0, 3, 12)), 0.388499),
        (App::Yolov3, 4, 64.0, Gpu::T4, &[4], Some((16.0, 0, 16)), 1.09601),
        (App::Yolov3, 4, 64.0, Gpu::A100, &[4], Some((32.0, 0, 16)), 1.02253),
        (App::Yolov3, 4, 64.0, Gpu::Rtx2080ti, &[4], Some((8.0, 1, 8)), 0.702461),
        (App::Imagenet, 10, 1600.0, Gpu::T4, &[4, 4, 2], None, 1.05317),
        (App::Imagenet, 10, 1600.0, Gpu::A100, &[8, 2], None, 3.12261),
        (App::Imagenet, 10, 1600.0, Gpu::Rtx2080ti, &[8, 2], None, 1.51832),
    ];
    for (app, r, b, g, placement, split, theta) in rows {
        let e = estimate(app, r, b, g).unwrap();
        let what = format!("{app} ({r}, {b}) on {}", g.label());
        assert_eq!(e.placement, placement, "{what}");
        if let Some((mlb, accum, atomic)) = split {
            assert_eq!((e.max_local, e.accum, e.atomic), (mlb, accum, atomic), "{what}");
        }
        let rel = (e.theta / theta - 1.0).abs();
        assert!(rel < 5e-6, "{what}: θ {} against {theta}", e.theta);
    }
}
