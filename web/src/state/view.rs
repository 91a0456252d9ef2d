//! What the page shows of the state: the selected view (tab), the selected job and policy,
//! the landscape's quantity, and the message at the top.

use super::State;
use smd_core::Policy;

/// The one table of the page's views, in the order of the tabs (the first is the default):
/// each row is the view's variant, the module of its component under
/// `components/views/`, its name in the address (`#view=…`) and in element ids, its
/// tab's label, and whether its link carries the draft beside its settings. `views!`
/// hands the table to a macro: here it makes [`View`] and its names, in
/// `components::views` the view modules and the dispatch to each view's `ViewSpec`. A new
/// view is one row here (see docs/ARCHITECTURE.md, "Adding a view").
macro_rules! views {
    ($then:ident) => {
        $then! {
            /// The scenario's inputs and its plans.
            Plan: plan, "plan", "Plan", true;
            /// Planning over time: the jobs arrive, run and finish, per policy (`smd-sim`).
            OverTime: over_time, "over-time", "Over time", true;
            /// The capacity sweep: the draft at many cluster sizes, every policy
            /// (`smd-sweep`).
            Sweep: sweep, "sweep", "Sweep", true;
            /// GPU sharing in a production cluster: node-scoring policies on a trace
            /// (`smd-fgd`).
            Sharing: sharing, "gpu-sharing", "GPU sharing", false;
            /// Two scenarios' plans and inputs side by side.
            Compare: compare, "compare", "Side by side", true;
            /// The paper's experiments.
            Reproduce: reproduce, "reproduce", "Reproduce the paper", false;
            /// The model and the algorithm, in docs/MODEL.md's symbols.
            HowItWorks: how_it_works, "how-it-works", "How it works", true;
            /// SMD step by step for one job and one plan (docs/MODEL.md §20).
            Teach: teach, "teach", "Step through", true;
            /// Where the bundled measurements, traces and published results come from.
            Data: data, "data", "Data", false;
        }
    };
}
pub(crate) use views;

/// Makes [`View`] from the table of [`views!`].
macro_rules! view_enum {
    ($($(#[$doc:meta])* $view:ident: $module:ident, $name:literal, $title:literal, $scenario:literal;)+) => {
        /// The page's top-level views, one tab each, in the order of the tabs; the first
        /// is the default.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum View {
            #[default]
            $($(#[$doc])* $view,)+
        }

        impl View {
            /// Every view, in the order of the tabs; the first is the default.
            pub const ALL: &'static [View] = &[$(View::$view),+];

            /// Its name in the address (`#view=…`) and in element ids.
            pub fn name(self) -> &'static str {
                match self {
                    $(View::$view => $name,)+
                }
            }

            /// Its tab's label.
            pub fn title(self) -> &'static str {
                match self {
                    $(View::$view => $title,)+
                }
            }

            /// Whether its link carries the draft beside its settings (every view but those
            /// whose studies bring their own inputs).
            pub fn needs_scenario(self) -> bool {
                match self {
                    $(View::$view => $scenario,)+
                }
            }
        }
    };
}

views!(view_enum);

impl View {
    /// Every view, in the order of the tabs.
    pub fn all() -> &'static [View] {
        Self::ALL
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
    /// The id of the change this message reports, whose Undo it offers; `None` for a
    /// message about anything else (an export changes nothing to undo).
    pub undo: Option<u64>,
}

impl Notice {
    /// Information.
    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            warning: false,
            text: text.into(),
            undo: None,
        }
    }

    /// A warning.
    pub fn warning(text: impl Into<String>) -> Notice {
        Notice {
            warning: true,
            text: text.into(),
            undo: None,
        }
    }

    /// The message of the change `undo` goes back over (if any): it offers that Undo.
    pub fn undoing(self, undo: Option<&super::undo::Undo>) -> Notice {
        Notice {
            undo: undo.map(|u| u.id),
            ..self
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
    /// Whether the user chose the selected job (by a click, a pick or adding it) since the
    /// draft was last replaced; until then Step through may select a job to teach
    /// ([`State::lesson_job`](super::State::lesson_job)).
    pub picked: bool,
    /// Heatmap quantity.
    pub value: LandscapeValue,
    /// A message at the top.
    pub notice: Option<Notice>,
    /// A view link asked to run the view when the page opens (not yet done).
    pub run_on_open: bool,
}

impl ViewState {
    /// The user chose job `uid`.
    pub fn pick(&mut self, uid: u64) {
        self.selected = Some(uid);
        self.picked = true;
    }
}

impl Default for ViewState {
    fn default() -> ViewState {
        ViewState {
            tab: View::default(),
            policy: Policy::Smd,
            selected: None,
            picked: false,
            value: LandscapeValue::Time,
            notice: None,
            run_on_open: false,
        }
    }
}

/// What is on screen: the view, the selected job and policy, the heatmap quantity, the
/// message at the top.
#[derive(Clone, Debug)]
pub enum ViewAction {
    /// Show this view (tab).
    Show(View),
    /// Select a job (editor, landscape, schedule).
    SelectJob(u64),
    /// Show this policy's plan.
    SelectPolicy(Policy),
    /// Heatmap quantity.
    SetValue(LandscapeValue),
    /// Show a message.
    Notify(Notice),
    /// Hide the message.
    DismissNotice,
    /// The view a link asked to run has been started.
    RanOnOpen,
}

impl ViewAction {
    /// Applies the change to the state; returns whether anything changed.
    pub(super) fn reduce(self, s: &mut State) -> bool {
        match self {
            ViewAction::Show(view) => {
                let new = s.view.tab != view;
                s.view.tab = view;
                if view != View::Teach {
                    s.teach.playing = false;
                }
                new
            }
            ViewAction::SelectJob(uid) => {
                s.view.pick(uid);
                // Another job's trace starts at its first step, not at the address's.
                s.teach.want_step = None;
                true
            }
            ViewAction::SelectPolicy(p) => {
                s.view.policy = p;
                true
            }
            ViewAction::SetValue(v) => {
                s.view.value = v;
                true
            }
            ViewAction::RanOnOpen => std::mem::take(&mut s.view.run_on_open),
            ViewAction::Notify(n) => {
                s.view.notice = Some(n);
                true
            }
            ViewAction::DismissNotice => {
                s.view.notice = None;
                true
            }
        }
    }
}

#[cfg(test)]
mod tests;
