//! Real traces (docs/BENCHMARKS.md §6): every bundled workload of the Pollux artifact
//! (sampled from Microsoft's Philly trace) as a static plan on the artifact's cluster
//! (16 × t4x4), with every policy: solve time, jobs admitted and total utility as a share of
//! `global`'s. `cargo run --release -p smd-bench --bin traces [-- --budget SECONDS]
//! [--measured]`: the parameter-server mapping on a pool (§6), or with `--measured` the jobs
//! as measured (docs/MODEL.md §21) on 16 machines, placed (§7).
use smd_apps::machines::{cluster, machine_type, pool};
use smd_apps::trace::{parse, scenario_as, WORKLOADS};
use smd_core::scenario::Architecture;
use smd_core::{plan_with, Options, Policy};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let budget_s: f64 = args
        .iter()
        .position(|a| a == "--budget")
        .map(|i| args[i + 1].parse().expect("--budget SECONDS"))
        .unwrap_or(5.0);
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let measured = args.iter().any(|a| a == "--measured");
    let t4 = machine_type("t4x4").expect("t4x4");
    let (cluster, architecture) = if measured {
        (cluster(t4, 16.0, t4.capacity), Architecture::Allreduce)
    } else {
        (pool(t4, 16.0), Architecture::Ps)
    };
    print!("| workload | jobs |");
    for p in Policy::ALL {
        print!(" {p}: utility (admitted) ms |");
    }
    println!(" global proven | best other / global |");
    println!("|---|---:|{}---|---:|", "---:|".repeat(Policy::ALL.len()));
    for (name, text) in WORKLOADS {
        let arrivals = parse(text).expect("bundled");
        let s = scenario_as(&arrivals, cluster.clone(), architecture).expect("bundled");
        print!("| {name} | {} |", s.jobs.len());
        let mut utilities = Vec::new();
        let mut proven = false;
        for policy in Policy::ALL {
            let mut opts = Options {
                clock: Some(&clock),
                time_budget_ms: Some(budget_s * 1000.0),
                ..Options::default()
            };
            let p = if measured {
                smd_place::plan_placed(&s, policy, &mut opts).expect("plans")
            } else {
                plan_with(&s, policy, &mut opts).expect("plans")
            };
            print!(
                " {:.1} ({}) {:.0} |",
                p.total_utility, p.admitted, p.stats.solve_ms
            );
            if policy == Policy::Global {
                proven = p.admission.proven_optimal;
            }
            utilities.push(p.total_utility);
        }
        let global = *utilities.last().expect("global is last");
        let best_other = utilities[..utilities.len() - 1]
            .iter()
            .cloned()
            .fold(0.0, f64::max);
        println!(
            " {} | {:.3} |",
            if proven { "yes" } else { "no" },
            best_other / global
        );
    }
}
