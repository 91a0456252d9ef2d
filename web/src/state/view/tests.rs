use super::*;
use crate::state::tests::state;
use crate::state::Action;
use crate::state::{SolveAction, ViewAction};
use std::rc::Rc;
use yew::Reducible;

#[test]
fn views_have_distinct_names_and_titles_and_plan_comes_first() {
    assert_eq!(View::all()[0], View::Plan);
    assert_eq!(View::default(), View::Plan);
    for (i, v) in View::all().iter().enumerate() {
        assert_eq!(View::from_name(v.name()), Some(*v));
        for w in &View::all()[i + 1..] {
            assert_ne!(v.name(), w.name());
            assert_ne!(v.title(), w.title());
        }
        assert!(v.name().chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    }
    assert_eq!(View::from_name("nowhere"), None);
    assert_eq!(View::from_name(""), None);
}

#[test]
fn switching_views_changes_only_the_view() {
    let s = state(2);
    assert_eq!(s.view.tab, View::Plan);
    let r = s.draft.revision;
    let s = s.reduce(Action::Solve(SolveAction::Start(r)));
    let before = s.clone();
    let s = s.reduce(Action::View(ViewAction::Show(View::Reproduce)));
    assert_eq!(s.view.tab, View::Reproduce);
    // The rest of the state is untouched: the draft, the solve in progress, the job.
    assert_eq!(s.draft, before.draft);
    assert_eq!(s.solving, before.solving);
    assert_eq!(s.reproduction, before.reproduction);
    assert_eq!(s.view.selected, before.view.selected);
    // Showing the view on screen again is no change at all.
    let again = s
        .clone()
        .reduce(Action::View(ViewAction::Show(View::Reproduce)));
    assert!(Rc::ptr_eq(&s, &again));
    let s = s.reduce(Action::View(ViewAction::Show(View::HowItWorks)));
    assert_eq!(s.view.tab, View::HowItWorks);
    let s = s.reduce(Action::View(ViewAction::Show(View::Plan)));
    assert_eq!(s.view.tab, View::Plan);
    assert_eq!(s.solving, before.solving);
}
