//! GPU sharing in a production cluster (docs/BENCHMARKS.md §17): the FGD experiment on the
//! bundled openb lists — one run per policy (the default trace tuned to 130 %, about
//! 10 800 pods on 1213 nodes), then all six policies × seeds 42–51 one after the other and
//! on rayon's threads. Prints each measure beside its goal.
//!
//! `cargo run --release -p smd-bench --bin fgd`.

// Native only: the parallel half runs on rayon's threads.
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use smd_fgd::study::{bundled, run_all, run_all_parallel};
    use smd_fgd::{parse_nodes, parse_pods, Policy, Prepared};
    use std::time::Instant;

    /// Goal for one run, seconds.
    const ONE_RUN_GOAL_S: f64 = 1.0;
    /// Goal for six policies × ten seeds on two cores, seconds.
    const STUDY_GOAL_S: f64 = 60.0;

    pub fn main() {
        let t0 = Instant::now();
        let nodes = parse_nodes(bundled::NODES).expect("bundled nodes read");
        let pods = parse_pods(bundled::PODS).expect("bundled pods read");
        let prepared = Prepared::new(&nodes, &pods);
        println!(
            "read and prepared the lists in {:.3} s",
            t0.elapsed().as_secs_f64()
        );
        println!(
            "\n| policy | pods | failed | run s | goal s | ratio |\n|---|---:|---:|---:|---:|---:|"
        );
        for policy in Policy::ALL {
            let t = Instant::now();
            let run = prepared
                .run(policy, 42, bundled::TARGET, &mut |_, _| true)
                .expect("a run");
            let s = t.elapsed().as_secs_f64();
            println!(
                "| {} | {} | {} | {s:.3} | {ONE_RUN_GOAL_S} | {:.2} |",
                policy.name(),
                run.submitted,
                run.failed,
                s / ONE_RUN_GOAL_S
            );
        }
        let seeds: Vec<i64> = (42..=51).collect();
        let t = Instant::now();
        run_all(
            &prepared,
            &Policy::PUBLISHED,
            &seeds,
            bundled::TARGET,
            &mut |_, _| {},
        )
        .expect("runs");
        let serial = t.elapsed().as_secs_f64();
        let t = Instant::now();
        run_all_parallel(
            &prepared,
            &Policy::PUBLISHED,
            &seeds,
            bundled::TARGET,
            &|_, _| {},
        )
        .expect("runs");
        let parallel = t.elapsed().as_secs_f64();
        let threads = rayon::current_num_threads();
        println!("\n| 6 policies × 10 seeds | s | goal s | ratio |\n|---|---:|---:|---:|");
        println!(
            "| one thread | {serial:.2} | {STUDY_GOAL_S} | {:.2} |",
            serial / STUDY_GOAL_S
        );
        println!(
            "| {threads} threads (rayon) | {parallel:.2} | {STUDY_GOAL_S} | {:.2} |",
            parallel / STUDY_GOAL_S
        );
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
