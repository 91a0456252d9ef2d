//! The project's policies on the default trace (docs/MODEL.md §26.11): `fgd_bestfit`
//! leaves fewer GPUs unallocated than FGD at 100 % and 130 % arrived, in the mean over the
//! published seeds; the project's GPU-sharing best fit (`share_bestfit`) does not.

use smd_fgd::study::bundled;
use smd_fgd::{mean_points, parse_nodes, parse_pods, Policy, Prepared};

#[test]
fn fgd_bestfit_leaves_fewer_gpus_unallocated_than_fgd() {
    let nodes = parse_nodes(bundled::NODES).unwrap();
    let pods = parse_pods(bundled::PODS).unwrap();
    let p = Prepared::new(&nodes, &pods);
    let seeds: Vec<i64> = (42..=51).collect();
    let mean = |policy: Policy| {
        let runs: Vec<_> = seeds
            .iter()
            .map(|&s| p.run(policy, s, bundled::TARGET, &mut |_, _| true).unwrap())
            .collect();
        for r in &runs {
            let at = |x: u32| r.points.iter().find(|q| q.x == x).unwrap().unallocated_gpus;
            println!(
                "{} seed {}: {:.1} at 100, {:.1} at 130",
                policy.name(),
                r.seed,
                at(100),
                at(130)
            );
        }
        mean_points(&runs)
    };
    let at =
        |pts: &[smd_fgd::Point], x: u32| pts.iter().find(|q| q.x == x).unwrap().unallocated_gpus;
    let (fgd, own, share) = (
        mean(Policy::Fgd),
        mean(Policy::FgdBestFit),
        mean(Policy::ShareBestFit),
    );
    for x in [100, 130] {
        println!(
            "x {x}: fgd {:.2}, fgd_bestfit {:.2}, share_bestfit {:.2}",
            at(&fgd, x),
            at(&own, x),
            at(&share, x)
        );
        assert!(at(&own, x) < at(&fgd, x), "x {x}");
        assert!(at(&share, x) > at(&fgd, x), "x {x}");
    }
}
