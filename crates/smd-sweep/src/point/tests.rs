use super::*;
use smd_core::scenario::MachineGroup;
use smd_core::{generate, GenerateOptions};

fn pool() -> Scenario {
    generate(&GenerateOptions {
        jobs: 3,
        ..Default::default()
    })
}

/// Two groups: 3 × t4x4 and 2 × c4.8xlarge.
fn groups() -> Scenario {
    let mut s = pool();
    let g = |name: &str, count: f64| machines::group(machines::machine_type(name).unwrap(), count);
    s.cluster = Cluster::of_machines(
        vec![g("t4x4", 3.0), g("c4.8xlarge", 2.0)],
        s.cluster.instance,
    );
    s.version = 2;
    s
}

fn spec(axis: Axis, range: &str) -> Spec {
    Spec {
        axis,
        range: Range::parse(range).unwrap(),
        resource: None,
        machine_type: None,
        group: None,
    }
}

fn at(base: &Scenario, spec: &Spec) -> Vec<Scenario> {
    points(base, spec)
        .unwrap()
        .iter()
        .map(|p| scenario_at(base, p).unwrap())
        .collect()
}

#[test]
fn units_give_exactly_the_capacity_asked() {
    let base = pool();
    let sp = spec(Axis::Units, "0.5:5:0.5");
    let pts = points(&base, &sp).unwrap();
    assert_eq!(pts.len(), 10);
    assert!(pts.iter().all(|p| p.count == 10));
    for (p, s) in pts.iter().zip(at(&base, &sp)) {
        let want = Resources::from_array(Resources::DEFAULT_UNIT.to_array().map(|v| v * p.size));
        assert_eq!(s.cluster.capacity(), want, "{}", p.label());
        assert_eq!(s.jobs, base.jobs);
        assert_eq!(s.params, base.params);
        assert!(s.validate().is_ok());
    }
}

#[test]
fn one_resource_of_a_pool_varies_alone() {
    let mut base = pool();
    base.cluster.units = 2.0;
    let mut sp = spec(Axis::Units, "0:3:1");
    sp.resource = Some(Resource::Gpu);
    let full = base.cluster.capacity();
    for (p, s) in points(&base, &sp).unwrap().iter().zip(at(&base, &sp)) {
        let c = s.cluster.capacity();
        assert_eq!(c.gpu, p.size * 600.0);
        assert_eq!(
            (c.vcpu, c.memory_gb, c.storage_gb),
            (full.vcpu, full.memory_gb, full.storage_gb)
        );
    }
}

#[test]
fn machines_on_a_pool_are_catalog_machines_with_the_instance_kept() {
    let base = pool();
    let mut sp = spec(Axis::Machines, "2:6:2");
    let t4 = machines::machine_type("t4x4").unwrap();
    for (p, s) in points(&base, &sp).unwrap().iter().zip(at(&base, &sp)) {
        assert_eq!(s.cluster.capacity(), t4.capacity.scale(p.size));
        assert_eq!(s.cluster.instance, base.cluster.instance);
        assert_eq!(s.version, 2);
        assert!(s.validate().is_ok());
    }
    sp.machine_type = Some("a100x8".into());
    let a100 = machines::machine_type("a100x8").unwrap();
    assert_eq!(
        at(&base, &sp)[0].cluster.capacity(),
        a100.capacity.scale(2.0)
    );
    sp.machine_type = Some("h100".into());
    let e = points(&base, &sp).unwrap_err().to_string();
    assert!(
        e.contains("unknown machine type \"h100\"") && e.contains("t4x4"),
        "{e}"
    );
}

#[test]
fn machines_on_groups_count_one_group() {
    let base = groups();
    let mut sp = spec(Axis::Machines, "1:4:1");
    // Default: the first group; the other stays.
    for (p, s) in points(&base, &sp).unwrap().iter().zip(at(&base, &sp)) {
        assert_eq!(s.cluster.machines[0].count, p.size);
        assert_eq!(s.cluster.machines[1], base.cluster.machines[1]);
        assert_eq!(s.cluster.machine_list().len(), p.size as usize + 2);
        assert_eq!(
            s.cluster.unit,
            s.cluster.capacity(),
            "the cached total is rebuilt"
        );
    }
    sp.group = Some("c4.8xlarge".into());
    let s = at(&base, &sp);
    assert_eq!(s[3].cluster.machines[1].count, 4.0);
    assert_eq!(s[3].cluster.machines[0].count, 3.0);
    sp.group = Some("gpu".into());
    let e = points(&base, &sp).unwrap_err().to_string();
    assert!(
        e.contains("no machine group named \"gpu\"") && e.contains("t4x4, c4.8xlarge"),
        "{e}"
    );
}

#[test]
fn one_resource_on_machines_keeps_the_count() {
    let base = groups();
    let mut sp = spec(Axis::Machines, "1:6:1");
    sp.resource = Some(Resource::Gpu);
    let before = base.cluster.capacity();
    for (p, s) in points(&base, &sp).unwrap().iter().zip(at(&base, &sp)) {
        let g: &MachineGroup = &s.cluster.machines[0];
        assert_eq!(g.count, 3.0);
        let c = s.cluster.capacity();
        // As many GPUs as `size` t4x4 machines (the c4.8xlarge group has none).
        assert!((c.gpu - 4.0 * p.size).abs() < 1e-9, "{} {}", c.gpu, p.size);
        assert_eq!(
            (c.vcpu, c.memory_gb, c.storage_gb),
            (before.vcpu, before.memory_gb, before.storage_gb)
        );
    }
}

#[test]
fn what_does_not_fit_the_scenario_is_refused_by_name() {
    let e = |base: &Scenario, sp: &Spec| points(base, sp).unwrap_err().to_string();
    assert!(e(&groups(), &spec(Axis::Units, "1:2:1")).contains("sweep machines instead"));
    let m = e(&pool(), &spec(Axis::Machines, "0.5:2:0.5"));
    assert_eq!(
        m,
        "machines 0.5:2:0.5: a machine count must be a whole number ≥ 1 (got 0.5)"
    );
    let m = e(&pool(), &spec(Axis::Machines, "0:2:1"));
    assert!(m.contains("(got 0)"), "{m}");
    let mut sp = spec(Axis::Machines, "1:2:1");
    sp.resource = Some(Resource::Gpu);
    assert!(e(&pool(), &sp).contains("sweep units with that resource"));
    sp.resource = None;
    sp.group = Some("t4x4".into());
    assert!(e(&pool(), &sp).contains("no machine group"));
    sp.group = None;
    sp.machine_type = Some("t4x4".into());
    assert!(e(&groups(), &sp).contains("by its group name"));
    let mut sp = spec(Axis::Units, "1:2:1");
    sp.group = Some("x".into());
    assert!(e(&pool(), &sp).contains("belongs to a sweep of machines"));
    let sp = spec(Axis::Machines, "1000:150000:1000");
    assert!(e(&pool(), &sp).contains("more than the 100000"));
    // A point made for a pool does not build on machines, and the reverse.
    let p = &points(&pool(), &spec(Axis::Units, "1:2:1")).unwrap()[0];
    let m = scenario_at(&groups(), p).unwrap_err().to_string();
    assert!(m.contains("made for a pool"), "{m}");
    let p = &points(&groups(), &spec(Axis::Machines, "1:2:1")).unwrap()[0];
    assert!(scenario_at(&pool(), p).is_err());
}

#[test]
fn a_point_survives_json() {
    let base = groups();
    let mut sp = spec(Axis::Machines, "1:3:1");
    sp.resource = Some(Resource::MemoryGb);
    for p in points(&base, &sp).unwrap() {
        let text = serde_json::to_string(&p).unwrap();
        let back: Point = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
        assert_eq!(
            scenario_at(&base, &back).unwrap(),
            scenario_at(&base, &p).unwrap()
        );
    }
}

#[test]
fn resources_by_file_name_or_short_name() {
    for (name, r) in [
        ("gpu", Resource::Gpu),
        ("vcpu", Resource::Vcpu),
        ("cpu", Resource::Vcpu),
        ("memory_gb", Resource::MemoryGb),
        ("mem", Resource::MemoryGb),
        ("storage_gb", Resource::StorageGb),
        ("storage", Resource::StorageGb),
    ] {
        assert_eq!(parse_resource(name), Ok(r), "{name}");
    }
    let e = parse_resource("bw").unwrap_err();
    assert!(
        e.contains("bandwidth is not one of") && e.contains("gpu, vcpu, memory_gb, storage_gb"),
        "{e}"
    );
    let e = parse_resource("tpu").unwrap_err();
    assert!(
        e.contains("\"tpu\"") && e.contains("cpu, mem, storage"),
        "{e}"
    );
}
