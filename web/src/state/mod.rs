//! The page's whole state and every change to it, as one [`Reducible`] with named actions.
//!
//! The state is composed of one part per concern, each in its own module:
//!
//! - [`draft`]: the scenario being edited, field by field, checked by `smd_core`'s
//!   `validate` after every edit; import/export and the saved draft;
//! - [`apps`]: real applications in the draft (`smd-apps`): a job from an application,
//!   the cluster as catalog machines, a trace; undoing the last replacement;
//! - [`solving`]: the worker and what it solves — runs, progress, cancel, results, the
//!   landscape, the ε-floor hint, the slow-solve call-out;
//! - [`reproduction`]: the paper's experiments;
//! - [`over_time`]: planning over time (`smd-sim`): its form, the run in progress, the
//!   last runs;
//! - [`sweep`]: the capacity sweep of the draft (`smd-sweep`): its form, the sizes out at
//!   the page's pool of workers, the last report; and What to buy, a search of mixes of
//!   machine types on the same pool;
//! - [`sharing`]: GPU sharing in a production cluster (`smd-fgd`): the lists (bundled,
//!   fetched beside the page, or files), the form, the study and the map in the worker;
//! - [`teach`]: the "Step through" view — the selected job's teaching trace (a task of
//!   the worker) and the step on screen, Play;
//! - [`view`]: what is on screen — the view (tab), the selected job and policy, the
//!   message at the top;
//! - [`background`]: the one type of the work that runs in the background (the solve,
//!   the landscape, the trace, compare, over time, reproduction, sharing, sweep), its
//!   lifecycle shared; [`State::parts`] lists every such part, once.
//!
//! Each part's module names its own changes (`DraftAction`, `SolveAction`, …) and reduces
//! them on the whole state (a change of one part may tell another: a solve restarting the
//! worker loses the reproduction). [`Action`] wraps them, one variant per part, and
//! [`State::reduce`] hands each to its part, then lets the parts that follow the draft
//! know it changed. Only a valid draft is solved, and the
//! last plans stay on screen while the draft is invalid. Side effects (talking to the
//! solver, saving, timers, the address) live in the components' hooks, which watch the
//! counters and task ids kept here.

pub mod apps;
pub mod background;
pub mod compare;
pub mod draft;
pub mod link;
pub mod over_time;
pub mod reproduction;
pub mod sharing;
pub mod solving;
pub mod sweep;
pub mod teach;
pub mod undo;
pub mod view;

pub use apps::{
    machines_in_force, AppsAction, MachineForm, PresetForm, TraceForm, PAGE_ARCHITECTURE,
    TRACE_SOURCE,
};
pub use background::{Background, Keyed, News, Pending, Running, Work, Worker, WorkerTask};
pub use compare::{CompareAction, CompareState, Compared, Saved};
pub use draft::{DraftAction, DraftState, GenerateForm, ShownError, MAX_GENERATED_JOBS};
pub use over_time::{
    OverTimeAction, OverTimeState, SimForm, SimProgress, SimSource, Simulated, Simulation,
};
pub use reproduction::{ReproduceAction, Reproduced, Reproduction, ReproductionState, Study};
pub use sharing::{SharingAction, SharingState};
pub use solving::{
    page_policies, LandscapeOf, LandscapeView, Results, Run, Solve, SolveAction, SolveProgress,
    Solving, WorkerStatus, LANDSCAPE_RESOLUTION, SLOW_SOLVE_S,
};
pub use sweep::{
    Bought, BuyForm, BuyState, Buying, SweepAction, SweepForm, SweepState, Sweeping, Swept,
};
pub use teach::{TeachAction, TeachMove, TeachState, TraceView, SPEEDS};
pub use undo::Undo;
pub use view::{LandscapeValue, Notice, View, ViewAction, ViewState};

use crate::codec::Draft;
use crate::fields::FieldKey;
use crate::solver::Request;
use std::rc::Rc;
use yew::prelude::*;

/// The page's background parts ([`Pending`]), in the order their tasks are sent: the one
/// list of them, for [`State::parts`] (`parts!(self, &)`) and [`State::parts_mut`]
/// (`parts!(self, &mut)`). A new view whose work runs in a worker adds its part here.
macro_rules! parts {
    ($s:ident, $($r:tt)+) => {{
        let parts: Vec<$($r)+ dyn Pending> = vec![
            $($r)+ $s.solving,
            $($r)+ $s.reproduction,
            $($r)+ $s.fidelity,
            $($r)+ $s.over_time,
            $($r)+ $s.sharing,
            $($r)+ $s.compare.run,
            $($r)+ $s.compare.over_time,
            $($r)+ $s.teach,
            $($r)+ $s.sweep,
        ];
        parts
    }};
}

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The scenario being edited.
    pub draft: DraftState,
    /// The worker and what it solves.
    pub solving: Solving,
    /// The paper's experiments.
    pub reproduction: ReproductionState,
    /// The fidelity study (the over-time engine against the reference simulator).
    pub fidelity: ReproductionState,
    /// Planning over time.
    pub over_time: OverTimeState,
    /// The capacity sweep.
    pub sweep: SweepState,
    /// Scenarios saved and compared side by side.
    pub compare: CompareState,
    /// GPU sharing in a production cluster.
    pub sharing: SharingState,
    /// The "Step through" view.
    pub teach: TeachState,
    /// What is on screen.
    pub view: ViewState,
}

/// Every change the page can make: one variant per part of the state, each wrapping that
/// part's own actions ([`DraftAction`], [`SolveAction`], …), which the part's module
/// reduces.
#[derive(Clone, Debug)]
pub enum Action {
    /// The draft.
    Draft(DraftAction),
    /// Real applications in the draft.
    Apps(AppsAction),
    /// The worker and what it solves.
    Solve(SolveAction),
    /// The paper's experiments.
    Reproduce(ReproduceAction),
    /// Planning over time.
    OverTime(OverTimeAction),
    /// The capacity sweep.
    Sweep(SweepAction),
    /// Scenarios side by side.
    Compare(CompareAction),
    /// GPU sharing in a production cluster.
    Sharing(SharingAction),
    /// The "Step through" view.
    Teach(TeachAction),
    /// What is on screen.
    View(ViewAction),
}

impl State {
    /// The state for a scenario (valid or not) with the raw texts of a saved draft.
    pub fn new(saved: Draft) -> State {
        let draft = DraftState::new(saved);
        let mut solving = Solving::default();
        solving.follow_draft(&draft);
        let view = ViewState {
            selected: draft.uids.first().copied(),
            ..ViewState::default()
        };
        State {
            draft,
            solving,
            reproduction: ReproductionState::default(),
            fidelity: ReproductionState::default(),
            over_time: OverTimeState::default(),
            sweep: SweepState::default(),
            compare: CompareState::default(),
            sharing: SharingState::default(),
            teach: TeachState::default(),
            view,
        }
    }

    /// Whether the current input's solve was cancelled (and nothing runs now).
    pub fn solve_cancelled(&self) -> bool {
        !self.solving.solve.is_running() && self.solving.cancelled == Some(self.draft.revision)
    }

    /// Whether the shown results answer an older draft than the current one.
    pub fn results_stale(&self) -> bool {
        self.solving
            .shown()
            .is_some_and(|r| r.revision != self.draft.revision || !self.draft.valid)
    }

    /// The `(results revision, uid, index)` whose landscape should be on screen.
    pub fn wanted_landscape(&self) -> Option<(u64, u64, usize)> {
        let r = self.solving.results.as_ref()?;
        let uid = self.view.selected?;
        let index = r.uids.iter().position(|&u| u == uid)?;
        Some((r.revision, uid, index))
    }

    /// Whether the page shows this error next to its input right now: cluster, params and
    /// settings inputs are always on screen, a job's only while the job is in the editor.
    pub fn shown_inline(&self, e: &ShownError) -> bool {
        match &e.key {
            Some(FieldKey { job: None, field }) => {
                field.starts_with("cluster.")
                    || field.starts_with("params.")
                    || crate::fields::is_setting(field)
            }
            Some(FieldKey { job: Some(u), .. }) => self.view.selected == Some(*u),
            None => false,
        }
    }

    /// Every background part of the page — each task the page runs in a worker goes
    /// through one — in the order their tasks are sent ([`parts!`], the one list).
    pub fn parts(&self) -> Vec<&dyn Pending> {
        parts!(self, &)
    }

    /// Every background part, to route replies to, lose and restart with the worker.
    pub fn parts_mut(&mut self) -> Vec<&mut dyn Pending> {
        parts!(self, &mut)
    }

    /// The parts of the plan's and the background worker (which restart and die
    /// together), not the pool's.
    pub(super) fn worker_parts(&mut self) -> Vec<&mut dyn Pending> {
        let mut parts = self.parts_mut();
        parts.retain(|p| p.worker() != Worker::Pool);
        parts
    }

    /// A background run was cancelled (and taken out of the state): the worker restarts,
    /// and what else it was doing — the other background runs, the draft's solve — starts
    /// again in the fresh one (or is lost, saying `lost`).
    pub(super) fn background_cancelled(&mut self, lost: &str, notice: &str) {
        self.solving.restart();
        self.view.notice = Some(Notice::info(notice));
        self.restart_background(lost);
    }

    /// Ids of the tasks `worker` should be doing now, in the order to send them.
    pub fn tasks_for(&self, worker: Worker) -> Vec<u64> {
        self.parts()
            .into_iter()
            .filter(|p| p.worker() == worker)
            .flat_map(|p| p.task_ids())
            .collect()
    }

    /// The request of task `id`, if `worker` should be doing it.
    pub fn request_for(&self, worker: Worker, id: u64) -> Option<Request> {
        let task = self
            .parts()
            .into_iter()
            .filter(|p| p.worker() == worker)
            .find_map(|p| p.task_for(id))?;
        Some(Request { id, task })
    }

    /// Ids of the tasks the plan's and the background worker should be doing now, in the
    /// order to send them.
    pub fn tasks(&self) -> Vec<u64> {
        self.parts()
            .into_iter()
            .filter(|p| p.worker() != Worker::Pool)
            .flat_map(|p| p.task_ids())
            .collect()
    }

    /// The request of task `id`, if the plan's or the background worker should be doing it.
    pub fn request(&self, id: u64) -> Option<Request> {
        [Worker::Plan, Worker::Background]
            .into_iter()
            .find_map(|w| self.request_for(w, id))
    }
}

impl Reducible for State {
    type Action = Action;

    /// Hands each action to its part's reducer, then tells the parts that follow the draft
    /// (or the view on screen) what changed.
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        let (edits, tab) = (s.draft.edits, s.view.tab);
        let changed = match action {
            Action::Draft(a) => a.reduce(&mut s),
            Action::Apps(a) => a.reduce(&mut s),
            Action::Solve(a) => a.reduce(&mut s),
            Action::Reproduce(a) => a.reduce(&mut s),
            Action::OverTime(a) => a.reduce(&mut s),
            Action::Sweep(a) => a.reduce(&mut s),
            Action::Compare(a) => a.reduce(&mut s),
            Action::Sharing(a) => a.reduce(&mut s),
            Action::Teach(a) => a.reduce(&mut s),
            Action::View(a) => a.reduce(&mut s),
        };
        if !changed {
            return self;
        }
        if s.draft.edits != edits {
            s.solving.follow_draft(&s.draft);
        }
        if s.draft.edits != edits || s.view.tab != tab {
            s.follow_draft_over_time();
        }
        s.lesson_job();
        Rc::new(s)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use smd_core::{generate, GenerateOptions};

    /// A state of `n` generated jobs at ε = 0.2.
    pub(crate) fn state(n: usize) -> Rc<State> {
        let mut sc = generate(&GenerateOptions {
            jobs: n,
            ..Default::default()
        });
        sc.params.epsilon = 0.2;
        Rc::new(State::new(Draft::of(sc)))
    }

    /// A new state selects the first job and knows its ε floor.
    #[test]
    fn a_new_state_selects_the_first_job() {
        let s = state(3);
        assert_eq!(s.view.selected, Some(s.draft.uids[0]));
        assert_eq!(s.view.tab, View::Plan);
        assert_eq!(
            s.solving.epsilon_floor,
            smd_core::budget::smallest_epsilon(&s.draft.scenario)
        );
        assert!(s.tasks().is_empty());
    }

    /// A solve superseded while a reproduction runs: the worker restarts, the reproduction
    /// is lost (and says why), the new solve is the one task left.
    #[test]
    fn a_superseding_solve_restarts_the_worker_and_loses_the_reproduction() {
        let s = state(2);
        let r = s.draft.revision;
        let s = s.reduce(Action::Solve(SolveAction::Start(r)));
        let s = s.reduce(Action::Reproduce(ReproduceAction::Start(
            Study::Paper,
            true,
        )));
        assert_eq!(s.tasks().len(), 2);
        let s = s.reduce(Action::Draft(DraftAction::Edit(
            FieldKey::top("params.seed"),
            "9".into(),
        )));
        let r = s.draft.revision;
        let restarts = s.solving.restarts;
        let s = s.reduce(Action::Solve(SolveAction::Start(r)));
        assert_eq!(s.solving.restarts, restarts + 1);
        assert!(s.reproduction.running.is_none());
        let why = s.reproduction.finished.clone().unwrap().unwrap_err();
        assert!(why.contains("restarted for an edited scenario"), "{why}");
        assert_eq!(s.tasks(), vec![s.solving.run().unwrap().id]);
    }
}
