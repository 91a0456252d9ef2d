use crate::choice::InnerSolver;
use crate::scenario::{Mode, Outer, Overlap, Resource, Resources, Rounding};
use crate::Policy;

/// The names are serde's (the file contract), and parse back.
pub(crate) fn check<T>(all: &[T])
where
    T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display + serde::Serialize,
    T: std::str::FromStr<Err = String>,
{
    for &v in all {
        let serde_name = serde_json::to_value(v).unwrap();
        assert_eq!(serde_name.as_str(), Some(v.to_string().as_str()));
        assert_eq!(v.to_string().parse::<T>(), Ok(v));
    }
    assert!("no-such".parse::<T>().unwrap_err().contains("expected"));
}

#[test]
fn names_are_the_file_names_and_parse_back() {
    check(&Mode::ALL);
    check(&Overlap::ALL);
    check(&Rounding::ALL);
    check(&Outer::ALL);
    check(&InnerSolver::ALL);
    check(&Policy::ALL);
    check(&Resource::ALL);
}

#[test]
fn reasons_serialise_to_their_text_and_read_back() {
    use crate::plan::Reason;
    let all = [
        (
            Reason::Infeasible("gpu 8 > 4, vcpu 40 > 36".into()),
            "infeasible: one worker and one PS exceed the job's limit (gpu 8 > 4, vcpu 40 > 36)",
        ),
        (
            Reason::NeedsMoreThanCluster,
            "not selected: needs more than the whole cluster",
        ),
        (Reason::ZeroUtility, "not selected: zero utility"),
        (
            Reason::NoRoomForOneOne,
            "not selected: (1, 1) did not fit the remaining capacity",
        ),
        (Reason::NotSelected, "not selected"),
    ];
    for (r, text) in all {
        assert_eq!(serde_json::to_value(&r).unwrap(), serde_json::json!(text));
        assert_eq!(
            serde_json::from_value::<Reason>(serde_json::json!(text)).unwrap(),
            r
        );
    }
    assert!(serde_json::from_value::<Reason>(serde_json::json!("because")).is_err());
}

#[test]
fn resources_index_in_the_order_of_their_array() {
    let r = Resources::from_array([1.0, 2.0, 3.0, 4.0]);
    for res in Resource::ALL {
        assert_eq!(r[res], r.to_array()[res.index()]);
    }
    // The file names are the struct's field names.
    let v = serde_json::to_value(r).unwrap();
    for res in Resource::ALL {
        assert_eq!(v[res.name()], r[res]);
    }
}
