//! What to buy (docs/BENCHMARKS.md §16): the 160 jobs of the Sia artifact's Philly
//! workload 1 on a 9 × 5 grid of mixes, `t4x4=0:16:2,a100x8=0:4`, under `sia` — every mix
//! (45 simulations of the workload), then the cheapest mix meeting a 30-minute mean JCT
//! with the exact skip rule — serial and on rayon's threads. Prints each beside the goal
//! (< 20 s natively on 2 cores) and the mixes the rule let the search skip.
//!
//! `cargo run --release -p smd-bench --bin buy`

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use smd_apps::trace::workload_on_mix;
    use smd_sim::SimPolicy;
    use smd_sweep::{
        run_mixes_parallel, threads, Metric, Minimize, MixReport, MixSearch, MixSpec, Options,
        ParallelOptions, Question,
    };
    use std::time::Instant;

    const GRID: &str = "t4x4=0:16:2,a100x8=0:4";
    const GOAL_S: f64 = 20.0;

    pub fn main() {
        let base = workload_on_mix("philly-1", 160, "t4x4=1").expect("the bundled workload");
        let question = |goal: Option<f64>, minimize, every| Question {
            metric: Metric::MeanJct,
            policy: SimPolicy::Sia,
            goal,
            budget: None,
            minimize,
            every,
        };
        let search =
            |q| MixSearch::new(&base, MixSpec::parse(GRID).expect("a grid"), q).expect("a search");
        println!(
            "What to buy: {} jobs of philly-1 under sia on {GRID} ({} threads)",
            base.jobs.len(),
            threads()
        );
        println!(
            "| question | run | mixes evaluated | skipped | wall s | per mix s (median) | goal |"
        );
        println!("|---|---|---|---|---|---|---|");
        let row = |name: &str, how: &str, r: &MixReport, wall: f64| {
            let mut per: Vec<f64> = r
                .points
                .iter()
                .filter_map(|p| p.run.as_ref().map(|o| o.run_ms / 1000.0))
                .collect();
            per.sort_by(f64::total_cmp);
            let median = per.get(per.len() / 2).copied().unwrap_or(0.0);
            println!(
                "| {name} | {how} | {} of {} | {} | {wall:.1} | {median:.2} | < {GOAL_S} s: ratio {:.2} |",
                r.evaluated,
                r.grid,
                r.skipped,
                wall / GOAL_S
            );
        };
        let mut answers = Vec::new();
        for (name, q) in [
            ("every mix", question(None, Minimize::Metric, true)),
            (
                "cheapest with mean JCT ≤ 30 min",
                question(Some(1800.0), Minimize::Cost, false),
            ),
        ] {
            let s = search(q);
            let t0 = Instant::now();
            let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
            let parallel = run_mixes_parallel(
                &s,
                &base,
                ParallelOptions {
                    clock: Some(&clock),
                    ..ParallelOptions::default()
                },
                &|_, _| {},
            )
            .expect("the mixes run");
            row(name, "parallel", &parallel, t0.elapsed().as_secs_f64());
            let t0 = Instant::now();
            let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
            let serial = s
                .run(
                    &base,
                    &mut Options {
                        clock: Some(&clock),
                        ..Options::default()
                    },
                )
                .expect("the mixes run");
            row(name, "serial", &serial, t0.elapsed().as_secs_f64());
            answers.push(parallel.answer);
        }
        println!();
        for a in answers {
            println!("{a}");
        }
    }
}

fn main() {
    // wasm has no rayon threads: the page's pool of workers is measured by `scripts/page.mjs buy`.
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}
