//! Hostile input never panics: any text read as a trace, any batch and per-worker batch
//! given to a preset; and what is accepted is valid.

use proptest::prelude::*;
use smd_apps::app::App;
use smd_apps::machines::{machine_type, pool};
use smd_apps::preset::{preset, PresetOptions};
use smd_apps::trace::{parse, scenario, WORKLOADS};

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_text_reads_or_fails_cleanly(text in "[a-z0-9,.\"\\-\n ]{0,200}") {
        let _ = parse(&format!("name,time,application,num_replicas,batch_size\n{text}"));
        let _ = parse(&text);
    }

    #[test]
    fn a_mutated_workload_is_refused_or_valid(w in 0usize..16, at in 0usize..4000, byte in any::<u8>()) {
        let mut bytes = WORKLOADS[w].1.as_bytes().to_vec();
        let i = at % bytes.len();
        bytes[i] = byte;
        let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
        if let Ok(rows) = parse(&text) {
            let cluster = pool(machine_type("t4x4").unwrap(), 16.0);
            let s = scenario(&rows, cluster).unwrap();
            prop_assert!(s.validate().is_ok());
        }
    }

    #[test]
    fn any_batch_makes_a_valid_job_or_names_the_option(
        a in 0usize..6, k in -10.0f64..40000.0, m in proptest::option::of(-1.0f64..2000.0)
    ) {
        let opts = PresetOptions { minibatch: m, ..PresetOptions::batch(k) };
        match preset(App::ALL[a], &opts) {
            Ok(job) => {
                // Its GPU profile (docs/APPLICATIONS.md §6) makes it a version-2 job.
                let s = smd_core::Scenario {
                    version: 2,
                    cluster: Default::default(),
                    params: Default::default(),
                    jobs: vec![job],
                };
                prop_assert!(s.validate().is_ok(), "{:?}", s.validate());
            }
            Err(e) => prop_assert!(["global_batch", "minibatch"].contains(&e.field)),
        }
    }
}
