//! The page's address: its hash is `&`-separated `name=value` parts, of which the page
//! reads two — `s=…`, a shared scenario ([`codec::share_fragment`](crate::codec)), and
//! `view=…`, the view on screen ([`View::name`]). Each part is read and written without
//! touching the others, so a link `#s=…&view=reproduce` opens that scenario in that view,
//! and switching views keeps a scenario in the address.

use crate::codec::{COMPARE_PARAM, SHARE_PARAM};
use crate::state::link::VIEW_SETTINGS_PARAM;
use crate::state::View;

/// The hash parameter that names the view: `#view=…`.
pub const VIEW_PARAM: &str = "view=";

/// The parts of a hash (with or without its `#`), empty ones left out.
fn parts(hash: &str) -> impl Iterator<Item = &str> {
    hash.trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty())
}

/// The view a hash names: [`View::Plan`] (the first view) when it names none or one the
/// page does not have.
pub fn view_of(hash: &str) -> View {
    parts(hash)
        .filter_map(|p| p.strip_prefix(VIEW_PARAM))
        .find_map(View::from_name)
        .unwrap_or_default()
}

/// Whether a hash carries a scenario (`s=…`).
pub fn has_share(hash: &str) -> bool {
    parts(hash).any(|p| p.starts_with(SHARE_PARAM))
}

/// The hash (without `#`) naming `view`: its `view=` part replaced, or appended; every
/// other part kept in its place.
pub fn with_view(hash: &str, view: View) -> String {
    let named = format!("{VIEW_PARAM}{}", view.name());
    let mut out: Vec<&str> = Vec::new();
    let mut placed = false;
    for p in parts(hash) {
        if p.starts_with(VIEW_PARAM) {
            if !placed {
                out.push(&named);
                placed = true;
            }
        } else {
            out.push(p);
        }
    }
    if !placed {
        out.push(&named);
    }
    out.join("&")
}

/// The hash (without `#`) without its scenarios and view settings: what stays in the address once a shared
/// scenario is opened (a reload then opens the saved, possibly edited, draft).
pub fn without_share(hash: &str) -> String {
    parts(hash)
        .filter(|p| {
            !p.starts_with(SHARE_PARAM)
                && !p.starts_with(COMPARE_PARAM)
                && !p.starts_with(VIEW_SETTINGS_PARAM)
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{parse_share_fragment, share_fragment};

    #[test]
    fn the_view_and_a_shared_scenario_share_the_hash_both_ways() {
        let mut scenario = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            seed: 7,
            ..Default::default()
        });
        scenario.params.epsilon = 0.2;
        let s = share_fragment(&scenario);

        // A share link, then a view chosen: the scenario stays, first.
        let hash = with_view(&format!("#{s}"), View::Reproduce);
        assert_eq!(hash, format!("{s}&view=reproduce"));
        assert_eq!(view_of(&hash), View::Reproduce);
        assert!(has_share(&hash));
        assert_eq!(parse_share_fragment(&hash).unwrap(), scenario);

        // The view first, then the scenario: both read.
        let hash = format!("#view=how-it-works&{s}");
        assert_eq!(view_of(&hash), View::HowItWorks);
        assert_eq!(parse_share_fragment(&hash).unwrap(), scenario);

        // Switching again replaces the view in place and keeps everything else.
        let hash = with_view(&format!("#view=reproduce&{s}&x=1"), View::Plan);
        assert_eq!(hash, format!("view=plan&{s}&x=1"));
        assert_eq!(view_of(&hash), View::Plan);
        assert_eq!(parse_share_fragment(&hash).unwrap(), scenario);

        // Opening the scenario drops it and keeps the view.
        let rest = without_share(&format!("#{s}&view=reproduce"));
        assert_eq!(rest, "view=reproduce");
        assert!(!has_share(&rest));
        assert_eq!(view_of(&rest), View::Reproduce);
        assert_eq!(without_share(&format!("#{s}")), "");
    }

    #[test]
    fn every_view_round_trips_and_an_unknown_one_is_the_plan() {
        for &v in View::all() {
            assert_eq!(view_of(&with_view("", v)), v);
            assert_eq!(view_of(&format!("#{}", with_view("#", v))), v);
            assert_eq!(with_view(&with_view("", v), v), with_view("", v));
        }
        assert_eq!(with_view("", View::Reproduce), "view=reproduce");
        for hash in [
            "",
            "#",
            "#view=",
            "#view=nowhere",
            "#view=Reproduce",
            "#views=reproduce",
            "#xview=reproduce",
            "#s=abc",
            "#&&",
        ] {
            assert_eq!(view_of(hash), View::Plan, "{hash}");
        }
        // A repeated view: the first the page knows wins, and writing leaves one.
        assert_eq!(view_of("#view=nowhere&view=reproduce"), View::Reproduce);
        assert_eq!(
            with_view("#view=a&s=x&view=b", View::HowItWorks),
            "view=how-it-works&s=x"
        );
        assert!(!has_share("#view=reproduce&xs=1"));
        assert!(has_share("view=reproduce&s="));
    }
}
