//! What the page shows of the state: the selected view (tab), the selected job and policy,
//! the landscape's quantity, and the message at the top.

use smd_core::Policy;

/// The page's top-level views, one tab each. A new view is one more variant here (with
/// its name and title, and its place in [`View::ALL`]) and one component in
/// `components/views/`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// The scenario's inputs and its plans.
    #[default]
    Plan,
    /// Planning over time: the jobs arrive, run and finish, per policy (`smd-sim`).
    OverTime,
    /// The capacity sweep: the draft at many cluster sizes, every policy (`smd-sweep`).
    Sweep,
    /// Two scenarios' plans and inputs side by side.
    Compare,
    /// The paper's experiments.
    Reproduce,
    /// The model and the algorithm, in docs/MODEL.md's symbols.
    HowItWorks,
    /// SMD step by step for one job and one plan (docs/MODEL.md §20).
    Teach,
}

impl View {
    /// Every view, in the order of the tabs; the first is the default.
    pub const ALL: [View; 7] = [
        View::Plan,
        View::OverTime,
        View::Sweep,
        View::Compare,
        View::Reproduce,
        View::HowItWorks,
        View::Teach,
    ];

    /// Every view, in the order of the tabs.
    pub fn all() -> &'static [View] {
        &Self::ALL
    }

    /// Its name in the address (`#view=…`) and in element ids.
    pub fn name(self) -> &'static str {
        match self {
            View::Plan => "plan",
            View::OverTime => "over-time",
            View::Sweep => "sweep",
            View::Compare => "compare",
            View::Reproduce => "reproduce",
            View::HowItWorks => "how-it-works",
            View::Teach => "teach",
        }
    }

    /// Its tab's label.
    pub fn title(self) -> &'static str {
        match self {
            View::Plan => "Plan",
            View::OverTime => "Over time",
            View::Sweep => "Sweep",
            View::Compare => "Side by side",
            View::Reproduce => "Reproduce the paper",
            View::HowItWorks => "How it works",
            View::Teach => "Step through",
        }
    }

    /// The view of a name, if there is one.
    pub fn from_name(name: &str) -> Option<View> {
        View::all().iter().copied().find(|v| v.name() == name)
    }
}

/// Heatmap quantity of the landscape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LandscapeValue {
    /// Completion time T.
    Time,
    /// Utility μ.
    Utility,
}

/// A message at the top of the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Shown as a warning (else as information).
    pub warning: bool,
    /// The text.
    pub text: String,
}

impl Notice {
    /// Information.
    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            warning: false,
            text: text.into(),
        }
    }

    /// A warning.
    pub fn warning(text: impl Into<String>) -> Notice {
        Notice {
            warning: true,
            text: text.into(),
        }
    }
}

/// The view part of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewState {
    /// The view on screen.
    pub tab: View,
    /// The policy whose plan is shown in detail.
    pub policy: Policy,
    /// The selected job's uid (editor, landscape, schedule).
    pub selected: Option<u64>,
    /// Heatmap quantity.
    pub value: LandscapeValue,
    /// A message at the top.
    pub notice: Option<Notice>,
}

impl Default for ViewState {
    fn default() -> ViewState {
        ViewState {
            tab: View::default(),
            policy: Policy::Smd,
            selected: None,
            value: LandscapeValue::Time,
            notice: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::tests::state;
    use crate::state::Action;
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
        let s = s.reduce(Action::StartSolve(r));
        let before = s.clone();
        let s = s.reduce(Action::ShowView(View::Reproduce));
        assert_eq!(s.view.tab, View::Reproduce);
        // The rest of the state is untouched: the draft, the solve in progress, the job.
        assert_eq!(s.draft, before.draft);
        assert_eq!(s.solving, before.solving);
        assert_eq!(s.reproduction, before.reproduction);
        assert_eq!(s.view.selected, before.view.selected);
        // Showing the view on screen again is no change at all.
        let again = s.clone().reduce(Action::ShowView(View::Reproduce));
        assert!(Rc::ptr_eq(&s, &again));
        let s = s.reduce(Action::ShowView(View::HowItWorks));
        assert_eq!(s.view.tab, View::HowItWorks);
        let s = s.reduce(Action::ShowView(View::Plan));
        assert_eq!(s.view.tab, View::Plan);
        assert_eq!(s.solving, before.solving);
    }
}
