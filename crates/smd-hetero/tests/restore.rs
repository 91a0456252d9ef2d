//! A job moved to other nodes with the same GPUs per node while it restores from a
//! checkpoint (MODEL.md §24.2: no restart) carries the restore left into its next stretch,
//! and finishes exactly when the same job left where it was does.

use smd_hetero::cluster::Cluster;
use smd_hetero::engine::{run, Decision, Options, Outcome, Policy, View};
use smd_hetero::job::{Rules, Spec};
use smd_measured::app::App;
use smd_measured::gpu::Gpu;

/// One GPU of the first type for the one job, on node `node(tick)`.
struct Scripted {
    node: fn(u32) -> usize,
    tick: u32,
}

impl Policy for Scripted {
    fn decide(&mut self, view: &View) -> Result<Decision, String> {
        self.tick += 1;
        let mut per_node = vec![0; (self.node)(self.tick) + 1];
        per_node[(self.node)(self.tick)] = 1;
        Ok(Decision {
            alloc: view
                .active
                .iter()
                .map(|&j| (j, Some((0, per_node.clone()))))
                .collect(),
            proven: None,
        })
    }
}

fn outcome(node: fn(u32) -> usize) -> Outcome {
    let spec = Spec {
        name: "imagenet-0".into(),
        app: App::Imagenet,
        arrival_s: 0.0,
        gpus: 1,
        batch: 200.0,
    };
    let cluster = Cluster::of(&[(Gpu::T4, 2)]).unwrap();
    run(
        &[spec],
        &cluster,
        &mut Scripted { node, tick: 0 },
        60.0,
        Rules::default(),
        &mut Options::default(),
    )
    .unwrap()
}

#[test]
fn a_job_moved_while_it_restores_carries_the_restore_left() {
    let delay = App::Imagenet.restart_delay_s();
    assert!(delay > 120.0, "the restore spans the move");
    let still = outcome(|_| 0);
    // On node 0 for the first tick, then on node 1.
    let moved = outcome(|t| usize::from(t > 1));
    let (s, m) = (&still.jobs[0], &moved.jobs[0]);
    assert_eq!(m.restarts, 0, "moving with the same GPUs per node is free");
    assert_eq!(m.completion_s, s.completion_s);
    assert_eq!(m.segments.len(), 2);
    let (a, b) = (&m.segments[0], &m.segments[1]);
    assert!(a.restarted && !b.restarted);
    assert_eq!(a.restore_s, delay);
    assert_eq!(b.restore_s, delay - (a.end_s - a.start_s));
    assert_eq!(s.segments.len(), 1);
    assert_eq!(s.segments[0].restore_s, delay);
}
