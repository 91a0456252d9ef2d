use super::*;
use smd_core::{generate, GenerateOptions};

#[test]
fn labels_and_choices_come_from_the_core_names() {
    let labels: Vec<String> = RESOURCES.into_iter().map(resource_label).collect();
    assert_eq!(labels, ["GPU", "vCPU", "memory GB", "storage GB"]);
    let names: Vec<&str> = RESOURCES.iter().map(|r| r.name()).collect();
    assert_eq!(names, ["gpu", "vcpu", "memory_gb", "storage_gb"]);
    fn pairs<'a>(c: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
        c.iter().map(|(n, l)| (*n, l.as_str())).collect()
    }
    assert_eq!(
        pairs(&mode_choices()),
        [("sync", "sync"), ("async", "async")]
    );
    assert_eq!(
        pairs(&overlap_choices()),
        [
            ("sequential", "sequential"),
            ("wfbp", "WFBP"),
            ("pipelined", "pipelined")
        ]
    );
    assert_eq!(
        pairs(&rounding_choices()),
        [("paper", "paper"), ("best_corner", "best corner")]
    );
    assert_eq!(
        pairs(&outer_choices()),
        [("ptas", "Frieze–Clarke"), ("exact", "exact B&B")]
    );
    assert_eq!(
        pairs(&placement_choices()),
        [
            ("first_fit", "first fit"),
            ("spread", "spread"),
            ("dltap", "dltap"),
            ("locality", "locality (default)"),
            ("exact", "exact")
        ]
    );
    assert_eq!(
        pairs(&gpu_sharing_choices()),
        [
            ("off", "off (default)"),
            ("greedy", "greedy"),
            ("heuristic", "heuristic"),
            ("exact", "exact")
        ]
    );
}

#[test]
fn every_job_field_round_trips_through_text() {
    let s = generate(&GenerateOptions {
        jobs: 1,
        ..Default::default()
    });
    let mut j = s.jobs[0].clone();
    let demands = ["worker", "ps"]
        .into_iter()
        .flat_map(|who| RESOURCES.map(|r| format!("{who}.{}", r.name())));
    let fields = JOB_NUMBERS.iter().map(|(f, _, _)| f.to_string());
    for f in fields.chain(demands).chain(["id".to_string()]) {
        let t = job_text(&j, &f);
        assert!(!t.is_empty(), "{f}");
        set_job(&mut j, &f, &t).unwrap();
    }
    assert_eq!(j, s.jobs[0]);
    for (f, _) in JOB_ONLINE {
        assert_eq!(job_text(&j, f), "", "{f}");
        set_job(&mut j, f, "").unwrap();
        set_job(&mut j, f, " 3 ").unwrap();
        assert_eq!(job_text(&j, f), "3");
        assert!(set_job(&mut j, f, "soon").is_err());
    }
    assert_eq!(
        (j.arrival_s, j.requested_workers, j.requested_ps),
        (Some(3.0), Some(3.0), Some(3.0))
    );
    for (f, _) in JOB_ONLINE {
        set_job(&mut j, f, "").unwrap();
    }
    assert_eq!(j, s.jobs[0]);
    for (f, _, _, _) in JOB_SHARING {
        assert_eq!(job_text(&j, f), "", "{f}");
        set_job(&mut j, f, " 0.5 ").unwrap();
        assert_eq!(job_text(&j, f), "0.5");
        assert!(set_job(&mut j, f, "half").is_err());
        assert_eq!(job_text(&j, f), "0.5", "a bad text keeps the value");
    }
    assert_eq!(
        j.version2_fields(),
        [
            "gpu_mem_mean_gb",
            "gpu_mem_sd_gb",
            "gpu_util",
            "min_performance"
        ]
    );
    for (f, _, _, _) in JOB_SHARING {
        set_job(&mut j, f, "").unwrap();
    }
    assert_eq!(j, s.jobs[0]);
    set_job(&mut j, "worker.vcpu", "7.5").unwrap();
    assert_eq!(j.worker.vcpu, 7.5);
    assert!(set_job(&mut j, "iterations", "abc").is_err());
    assert_eq!(
        job_text(&j, "layers[0].comm_ms"),
        j.layers[0].comm_ms.to_string()
    );
}

#[test]
fn top_fields_round_trip() {
    let mut s = generate(&GenerateOptions {
        jobs: 1,
        ..Default::default()
    });
    let before = s.clone();
    for f in [
        "cluster.units",
        "cluster.unit.gpu",
        "cluster.instance.memory_gb",
        "params.epsilon",
        "params.ptas_depth",
        "params.m_delta",
        "params.seed",
        "params.time_unit_s",
        "params.polish",
        "params.rounding",
        "params.outer",
    ] {
        let t = top_text(&s, f);
        set_top(&mut s, f, &t).unwrap();
    }
    assert_eq!(s, before);
    set_top(&mut s, "params.time_unit_s", "3600").unwrap();
    assert_eq!(s.params.time_unit_s, Some(3600.0));
    assert!(set_top(&mut s, "params.ptas_depth", "-1").is_err());
}

#[test]
fn gpu_sharing_params_round_trip() {
    let mut s = generate(&GenerateOptions {
        jobs: 1,
        ..Default::default()
    });
    assert_eq!(top_text(&s, "params.gpu_sharing"), "off");
    let names: Vec<&str> = gpu_sharing_choices().iter().map(|c| c.0).collect();
    assert_eq!(names, ["off", "greedy", "heuristic", "exact"]);
    for n in names {
        set_top(&mut s, "params.gpu_sharing", n).unwrap();
        assert_eq!(top_text(&s, "params.gpu_sharing"), n);
    }
    assert_eq!(s.params.gpu_sharing, Some(GpuSharing::Exact));
    for f in [
        "params.collision_prob",
        "params.share_overhead",
        "params.interval_s",
        "params.restart_s",
    ] {
        assert_eq!(top_text(&s, f), "");
        set_top(&mut s, f, " 0.05 ").unwrap();
        assert_eq!(top_text(&s, f), "0.05");
        assert!(set_top(&mut s, f, "small").is_err());
        assert_eq!(top_text(&s, f), "0.05", "a bad text keeps the value");
        set_top(&mut s, f, "").unwrap();
        assert_eq!(top_text(&s, f), "");
    }
    assert!(PARAMS_VERSION2.contains(&"params.gpu_sharing"));
}

#[test]
fn the_global_budget_is_a_positive_number_of_seconds() {
    let mut s = Settings::default();
    assert_eq!(setting_text(&s, GLOBAL_BUDGET), "3");
    set_setting(&mut s, GLOBAL_BUDGET, " 0.001 ").unwrap();
    assert_eq!(s.global_budget_s, 0.001);
    assert_eq!(setting_text(&s, GLOBAL_BUDGET), "0.001");
    for (bad, why) in [
        ("0", "must be > 0 s"),
        ("-2", "must be > 0 s"),
        ("abc", "must be a number"),
        ("", "the field is empty"),
        ("inf", "finite"),
        ("NaN", "finite"),
    ] {
        let e = set_setting(&mut s, GLOBAL_BUDGET, bad).unwrap_err();
        assert!(e.contains(why), "{bad:?}: {e}");
    }
    assert_eq!(s.global_budget_s, 0.001, "a bad text keeps the last value");
    assert!(is_setting(GLOBAL_BUDGET) && !is_setting("params.epsilon"));
}

#[test]
fn layers_text_parses_back() {
    let s = generate(&GenerateOptions {
        jobs: 1,
        ..Default::default()
    });
    let t = layers_text(&s.jobs[0].layers);
    assert_eq!(parse_layers(&t).unwrap(), s.jobs[0].layers);
    assert!(parse_layers("1 2").is_err());
    assert_eq!(parse_layers("# c\n1,2,3\n\n").unwrap().len(), 1);
}

/// A group's GPU type is shown, not edited: its messages land at the group's GPUs.
#[test]
fn a_groups_gpu_type_error_lands_at_its_gpus() {
    assert_eq!(
        input_of("cluster.machines[2].gpu"),
        "cluster.machines[2].capacity.gpu"
    );
    assert_eq!(
        input_of("cluster.machines[2].count"),
        "cluster.machines[2].count"
    );
}
