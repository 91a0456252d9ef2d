//! The page's address: its hash is `&`-separated `name=value` parts, of which the page
//! reads three — `s=…`, a shared scenario ([`codec::share_fragment`](crate::codec)),
//! `view=…`, the view on screen ([`View::name`]), and in Step through `step=…`, the step on
//! screen (as its counter numbers it, from 1). Each part is read and written without
//! touching the others, so a link `#s=…&view=reproduce` opens that scenario in that view,
//! `#view=teach&step=7` Step through at its step 7, and switching views keeps a scenario in
//! the address. Like the view, the step replaces the address's history entry: Back and
//! Forward go to other pages, not through views or steps.

use crate::codec::{COMPARE_PARAM, SHARE_PARAM};
use crate::state::link::VIEW_SETTINGS_PARAM;
use crate::state::View;

/// The hash parameter that names the view: `#view=…`.
pub const VIEW_PARAM: &str = "view=";

/// The hash parameter that names Step through's step: `#step=…` (from 1).
pub const STEP_PARAM: &str = "step=";

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

/// The step a hash names (`step=…`, from 1), if it names one the page can show: a
/// positive whole number (the first such part wins).
pub fn step_of(hash: &str) -> Option<usize> {
    parts(hash)
        .filter_map(|p| p.strip_prefix(STEP_PARAM))
        .find_map(|n| n.parse::<usize>().ok().filter(|&n| n >= 1))
}

/// The hash (without `#`) naming step `step` (its `step=` part replaced, or appended), or
/// none (`None`: every `step=` part dropped); every other part kept in its place.
pub fn with_step(hash: &str, step: Option<usize>) -> String {
    let named = step.map(|n| format!("{STEP_PARAM}{n}"));
    let mut out: Vec<&str> = Vec::new();
    let mut placed = false;
    for p in parts(hash) {
        if p.starts_with(STEP_PARAM) {
            if let (Some(n), false) = (&named, placed) {
                out.push(n);
                placed = true;
            }
        } else {
            out.push(p);
        }
    }
    if let (Some(n), false) = (&named, placed) {
        out.push(n);
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
    fn the_step_is_a_part_of_its_own() {
        assert_eq!(with_step("view=teach", Some(7)), "view=teach&step=7");
        assert_eq!(step_of("#view=teach&step=7"), Some(7));
        // Replaced in place, the other parts kept; written once.
        assert_eq!(
            with_step("#step=2&view=teach&s=x&step=9", Some(3)),
            "step=3&view=teach&s=x"
        );
        assert_eq!(with_step("#view=teach&step=7&s=x", None), "view=teach&s=x");
        assert_eq!(
            with_view("view=teach&step=7", View::Plan),
            "view=plan&step=7"
        );
        assert_eq!(view_of("#view=teach&step=7"), View::Teach);
        // Nothing a page could show: no step.
        for hash in [
            "", "#step=", "#step=0", "#step=-1", "#step=x", "#steps=3", "#xstep=3",
        ] {
            assert_eq!(step_of(hash), None, "{hash}");
        }
        assert_eq!(step_of("#step=x&step=4"), Some(4));
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
