//! One owner for the names of the configuration enums (mode, overlap, rounding, outer,
//! inner solver, policy): the name each has in scenario and plan files is also its CLI
//! value and its label in the page's selects, its `Display` and its `FromStr`. The macro
//! [`named!`] writes `ALL`, `NAMES`, `name()`, `Display` and `FromStr` from one list; a test
//! checks the names equal serde's.

/// `named!(Type, "what" { Variant => "name", … })`: the values in display order, their
/// names, and the conversions both ways.
macro_rules! named {
    ($ty:ident, $what:literal { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in display order.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];
            /// Every value's name, in the order of `ALL`.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];
            /// The name in scenario and plan files (also the CLI's value).
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
        impl std::str::FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<$ty, String> {
                $ty::ALL
                    .into_iter()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| {
                        format!(
                            "unknown {} {:?} (expected {})",
                            $what,
                            crate::error::cut(s),
                            $ty::NAMES.join(", ")
                        )
                    })
            }
        }
    };
}

pub(crate) use named;

#[cfg(test)]
mod tests {
    use crate::inner::InnerSolver;
    use crate::scenario::{Mode, Outer, Overlap, Resource, Resources, Rounding};
    use crate::Policy;

    /// The names are serde's (the file contract), and parse back.
    fn check<T>(all: &[T])
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
            (Reason::Infeasible("gpu 8 > 4, vcpu 40 > 36".into()), "infeasible: one worker and one PS exceed the job's limit (gpu 8 > 4, vcpu 40 > 36)"),
            (Reason::NeedsMoreThanCluster, "not selected: needs more than the whole cluster"),
            (Reason::ZeroUtility, "not selected: zero utility"),
            (Reason::NoRoomForOneOne, "not selected: (1, 1) did not fit the remaining capacity"),
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
}
