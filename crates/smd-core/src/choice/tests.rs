use super::*;
use crate::cluster::{MachineGroup, Resources};

/// The names are serde's (the file contract) and parse back (`names`' check); every value
/// has a label and a description.
fn check<T>(all: &[T], label: fn(T) -> &'static str, description: fn(T) -> &'static str)
where
    T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display + serde::Serialize,
    T: std::str::FromStr<Err = String>,
{
    crate::names::tests::check(all);
    for &v in all {
        assert!(!label(v).is_empty() && !description(v).is_empty(), "{v:?}");
    }
}

#[test]
fn every_choice_is_named_as_in_files_labelled_and_described() {
    check(&Mode::ALL, Mode::label, Mode::description);
    check(&Overlap::ALL, Overlap::label, Overlap::description);
    check(&Rounding::ALL, Rounding::label, Rounding::description);
    check(&Outer::ALL, Outer::label, Outer::description);
    check(&Placement::ALL, Placement::label, Placement::description);
    check(&GpuSharing::ALL, GpuSharing::label, GpuSharing::description);
    check(
        &InnerSolver::ALL,
        InnerSolver::label,
        InnerSolver::description,
    );
    check(&Policy::ALL, Policy::label, Policy::description);
}

#[test]
fn what_applies_to_a_pool_and_to_machines() {
    let pool = Cluster::default();
    let machines = Cluster::of_machines(
        vec![MachineGroup {
            hourly_usd: None,
            gpu: None,
            name: "m".into(),
            count: 2.0,
            capacity: Resources::DEFAULT_INSTANCE,
            gpu_memory_gb: None,
            nic_gbps: None,
            local_gbps: None,
        }],
        Resources::DEFAULT_INSTANCE,
    );
    for cluster in [&pool, &machines] {
        let applying: Vec<Policy> = Policy::ALL
            .into_iter()
            .filter(|p| p.applies_to(cluster))
            .collect();
        assert_eq!(applying, Policy::for_cluster(cluster));
        assert!(GpuSharing::ALL.iter().all(|g| g.applies_to(cluster)));
    }
    assert!(Placement::ALL.iter().all(|p| p.applies_to(&machines)));
    assert!(!Placement::ALL.iter().any(|p| p.applies_to(&pool)));
    assert!(Placement::used_on(&machines) && !Placement::used_on(&pool));
}
