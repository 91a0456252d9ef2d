//! One owner for the names of the configuration enums (mode, overlap, rounding, outer,
//! inner solver, policy; other crates' enums too, e.g. the simulation's policies): the name each has in scenario and plan files is also its CLI
//! value and its label in the page's selects, its `Display` and its `FromStr`. The macro
//! [`named!`] writes `ALL`, `NAMES`, `name()`, `Display` and `FromStr` from one list; a test
//! checks the names equal serde's.

/// `named!(Type, "what" { Variant => "name", … })`: the values in display order, their
/// names, and the conversions both ways. Exported (as `smd_core::named!`) so that every
/// crate's named enums read and print the same way.
#[macro_export]
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
                            $crate::error::cut(s),
                            $ty::NAMES.join(", ")
                        )
                    })
            }
        }
    };
}

pub(crate) use crate::named;

#[cfg(test)]
pub(crate) mod tests;
