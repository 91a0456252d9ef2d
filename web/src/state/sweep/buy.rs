//! What to buy (`smd_sweep`'s mix sweep, docs/MODEL.md §25) of the draft: the form as
//! typed — the grid of machine counts per type, the metric, the policy over time, a goal,
//! a budget, what to minimise, every mix or only those the answer needs —, the search in
//! progress (one task per mix for the page's pool of workers, sent in the search's order,
//! the rest dropped once the answer is settled) and the last report, or why it stopped.
//!
//! `smd_sweep` resolves the grid, orders the mixes, evaluates each, says when the answer
//! is settled and writes the report; this module only says what to run and gathers what
//! comes back.

use crate::solver::{Event, Output, Reply, Request, Task};
use crate::state::background::{Background, Running, Work};
use crate::state::draft::DraftState;
use smd_core::scenario::MAX_MACHINES;
use smd_core::Scenario;
use smd_sim::SimPolicy;
use smd_sweep::{
    Metric, Minimize, MixPoint, MixReport, MixSearch, MixSpec, Question, SweepError, MAX_MIXES,
};
use std::rc::Rc;

/// The grid of a draft without machine groups: the question of docs/MODEL.md §25.
pub const DEFAULT_GRID: &str = "t4x4=0:16:2,a100x8=0:4";

/// The "What to buy" form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct BuyForm {
    /// The grid as typed (`t4x4=0:16:2,a100x8=0:4`); `None`: the draft's default
    /// ([`BuyForm::default_grid`]), shown in the input until something is typed.
    pub grid: Option<String>,
    /// The metric; `None`: the mean JCT.
    pub metric: Option<Metric>,
    /// The policy over time, by name; empty: sia where it applies, else the first that
    /// does ([`BuyForm::policy_for`]).
    pub policy: String,
    /// The goal as typed (`30min`); empty: none.
    pub goal: String,
    /// The budget as typed (`60/h`); empty: none.
    pub budget: String,
    /// What the answer minimises.
    pub minimize: Minimize,
    /// Evaluate every mix (the whole frontier and map).
    pub every: bool,
    /// The input at fault (`mix`, `metric`, `policy`, `goal`, `budget` or `source`) and its
    /// message.
    pub error: Option<(&'static str, String)>,
}

impl Default for BuyForm {
    fn default() -> BuyForm {
        BuyForm {
            grid: None,
            metric: None,
            policy: String::new(),
            goal: String::new(),
            budget: String::new(),
            minimize: Minimize::Cost,
            every: false,
            error: None,
        }
    }
}

impl BuyForm {
    /// A grid that suits `draft`: each of its machine groups from none to twice its count
    /// (at least 4), in at most 8 whole steps each (fewer with more groups, so that the grid stays
    /// within [`MAX_MIXES`]); [`DEFAULT_GRID`] for a draft without machine groups.
    pub fn default_grid(draft: &Scenario) -> String {
        let groups = &draft.cluster.machines;
        if groups.is_empty() {
            return DEFAULT_GRID.to_owned();
        }
        let axis = |name: &str, count: f64, steps: f64| {
            let upto = (2.0 * count).clamp(4.0, MAX_MACHINES as f64);
            let step = (upto / steps).ceil().max(1.0);
            let stop = ((upto / step).ceil() * step).min(MAX_MACHINES as f64);
            let n = (stop / step).floor() as usize + 1;
            let text = if step == 1.0 {
                format!("{name}=0:{stop}")
            } else {
                format!("{name}=0:{stop}:{step}")
            };
            (text, n)
        };
        let mut text = String::new();
        for steps in [8.0, 4.0, 2.0, 1.0] {
            let axes: Vec<(String, usize)> = groups
                .iter()
                .map(|g| axis(&g.name, g.count, steps))
                .collect();
            let n = axes.iter().fold(1usize, |n, a| n.saturating_mul(a.1));
            text = axes.into_iter().map(|a| a.0).collect::<Vec<_>>().join(",");
            if n <= MAX_MIXES {
                break;
            }
        }
        text
    }

    /// The grid's text: as typed, else the default.
    pub fn grid_text(&self, draft: &Scenario) -> String {
        self.grid
            .clone()
            .unwrap_or_else(|| BuyForm::default_grid(draft))
    }

    /// The metric: the one chosen, else the mean JCT.
    pub fn metric(&self) -> Metric {
        self.metric.unwrap_or(Metric::MeanJct)
    }

    /// The policies over time that can plan the draft's jobs on the grid's largest mix
    /// (every type at its most; `bound` is no schedule): those offered. On a grid that does
    /// not read, those that apply to the draft.
    pub fn policies(&self, draft: &Scenario) -> Vec<SimPolicy> {
        let full = MixSpec::parse(&self.grid_text(draft))
            .ok()
            .and_then(|spec| {
                let types = smd_sweep::mix_types(draft, &spec).ok()?;
                let most: Vec<u32> = spec
                    .axes
                    .iter()
                    .map(|a| a.counts.last().copied().unwrap_or(0))
                    .collect();
                Some(smd_sweep::scenario_at_mix(draft, &types, &most))
            });
        SimPolicy::all_for(full.as_ref().unwrap_or(draft))
            .into_iter()
            .filter(|p| *p != SimPolicy::Bound)
            .collect()
    }

    /// The policy the search runs among `offered`: the one chosen (even where it does not
    /// apply: the search says why), else sia where offered, else the first offered.
    pub fn policy_for(&self, offered: &[SimPolicy]) -> Option<SimPolicy> {
        if let Ok(p) = self.policy.parse::<SimPolicy>() {
            return Some(p);
        }
        offered
            .iter()
            .copied()
            .find(|&p| p == SimPolicy::Sia)
            .or(offered.first().copied())
    }

    /// The search the form asks for on `draft`, or the input at fault and why
    /// (`smd_sweep`'s own messages).
    pub fn search(&self, draft: &Scenario) -> Result<MixSearch, (&'static str, String)> {
        let spec = MixSpec::parse(&self.grid_text(draft)).map_err(|m| ("mix", m))?;
        let metric = self.metric();
        let offered = self.policies(draft);
        let policy = self.policy_for(&offered).ok_or((
            "policy",
            "no policy over time can plan these jobs on these types".to_owned(),
        ))?;
        let goal = (!self.goal.trim().is_empty())
            .then(|| smd_sweep::parse_goal(&self.goal, metric).map_err(|m| ("goal", m)))
            .transpose()?;
        let budget = (!self.budget.trim().is_empty())
            .then(|| smd_sweep::parse_budget(&self.budget).map_err(|m| ("budget", m)))
            .transpose()?;
        let question = Question {
            metric,
            policy,
            goal,
            budget,
            minimize: self.minimize,
            every: self.every,
        };
        MixSearch::new(draft, spec, question).map_err(|e| match e {
            SweepError::Spec { field, message } => (field, message),
            other => ("mix", other.to_string()),
        })
    }
}

/// A search of mixes: the request (its tasks and what came back are its [`BuyProgress`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Buying {
    /// The scenario (the draft when it started).
    pub base: Rc<Scenario>,
    /// The grid, the question, the order.
    pub search: Rc<MixSearch>,
    /// The pool's size.
    pub workers: usize,
    /// When it started, by the page's clock, ms.
    pub started_ms: f64,
    /// What it is, in words.
    pub label: String,
}

/// Where a search is: its tasks out at the page's pool, in the search's order, and the
/// mixes back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuyProgress {
    /// The mixes still out: task id and the mix's grid index.
    pub tasks: Vec<(u64, usize)>,
    /// The mixes back, in the order they came.
    pub done: Vec<MixPoint>,
}

impl Work for Buying {
    type Progress = BuyProgress;
    type Done = Bought;
    const NAME: &'static str = "search of mixes";
}

/// A finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct Bought {
    /// The scenario.
    pub base: Rc<Scenario>,
    /// The grid, the question.
    pub search: Rc<MixSearch>,
    /// The answer, the frontier and every mix the answer needs (`MixSearch::report`).
    pub report: MixReport,
    /// The pool's size.
    pub workers: usize,
    /// From Run to the answer, by the page's clock, ms.
    pub ms: f64,
    /// What it was, in words.
    pub label: String,
}

/// The "What to buy" part of the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuyState {
    /// The form.
    pub form: BuyForm,
    /// The search in progress and the last one, or why it stopped.
    pub run: Background<Buying>,
    /// The last search was cancelled after this many of so many mixes.
    pub cancelled: Option<(usize, usize)>,
    /// A link asked to run the form once the page is up.
    pub run_on_open: bool,
}

impl BuyState {
    /// A field of the form changed: `grid`, `metric` (a name, or empty for the default),
    /// `policy` (a name, or empty for the default), `goal`, `budget`, `minimize` (`cost` or
    /// `metric`) or `every` (`true`/`false`).
    pub fn field(&mut self, field: &str, text: String) {
        let f = &mut self.form;
        match field {
            "grid" => f.grid = Some(text),
            "metric" => f.metric = text.parse::<Metric>().ok(),
            "policy" => f.policy = text,
            "goal" => f.goal = text,
            "budget" => f.budget = text,
            "minimize" => {
                f.minimize = if text == "metric" {
                    Minimize::Metric
                } else {
                    Minimize::Cost
                }
            }
            "every" => f.every = text == "true",
            _ => return,
        }
        f.error = None;
    }

    /// Starts the form's search of the draft on `workers` workers at `now_ms`, numbering
    /// its tasks from `next_task`; a problem stays at its input. Returns whether anything
    /// changed.
    pub fn start(
        &mut self,
        draft: &DraftState,
        workers: usize,
        now_ms: f64,
        next_task: &mut u64,
    ) -> bool {
        self.run_on_open = false;
        if self.run.is_running() {
            return false;
        }
        if !draft.valid {
            self.form.error = Some((
                "source",
                "the draft has problems: fix them in the Plan view first".into(),
            ));
            return true;
        }
        let base = draft.scenario.clone();
        match self.form.search(&base) {
            Ok(search) => {
                let tasks: Vec<(u64, usize)> = search
                    .order()
                    .iter()
                    .map(|&i| {
                        let id = *next_task;
                        *next_task += 1;
                        (id, i)
                    })
                    .collect();
                let q = &search.question;
                let label = format!(
                    "{} mixes of {} under {}",
                    search.grid_len(),
                    search
                        .spec
                        .axes
                        .iter()
                        .map(|a| a.machine_type.as_str())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    q.policy.name()
                );
                self.form.error = None;
                self.cancelled = None;
                let id = tasks.first().map_or(0, |t| t.0);
                let progress = BuyProgress {
                    tasks,
                    done: Vec::new(),
                };
                let request = Buying {
                    base,
                    search: Rc::new(search),
                    workers: workers.max(1),
                    started_ms: now_ms,
                    label,
                };
                self.run.start_at(id, request, progress);
                // Nothing to evaluate (every mix over the budget): the answer at once.
                self.settle(now_ms);
            }
            Err((field, message)) => self.form.error = Some((field, message)),
        }
        true
    }

    /// Finishes the running search if its answer is settled: the report of what came
    /// back, the mixes still out dropped (the pool stops them).
    fn settle(&mut self, now_ms: f64) {
        let Some(r) = self.run.running.as_ref() else {
            return;
        };
        if !r.request.search.settled(&r.progress.done) && !r.progress.tasks.is_empty() {
            return;
        }
        let Some(Running {
            request: r,
            progress: p,
            ..
        }) = self.run.cancel()
        else {
            return;
        };
        self.run.finish(Bought {
            report: r.search.report(p.done),
            ms: now_ms - r.started_ms,
            base: r.base,
            search: r.search,
            workers: r.workers,
            label: r.label,
        });
    }

    /// Stops the running search (the pool terminates the workers busy with it); the last
    /// answer stays. Returns whether there was one.
    pub fn cancel(&mut self) -> bool {
        let Some(r) = self.run.cancel() else {
            return false;
        };
        self.cancelled = Some((r.progress.done.len(), r.request.search.order().len()));
        true
    }

    /// The tasks the pool should be doing, in the order to send them.
    pub fn tasks(&self) -> Vec<u64> {
        self.run
            .running
            .as_ref()
            .map_or_else(Vec::new, |r| r.progress.tasks.iter().map(|t| t.0).collect())
    }

    /// The pool's size for the running search.
    pub fn workers(&self) -> Option<usize> {
        self.run.running.as_ref().map(|r| r.request.workers)
    }

    /// The request of task `id`, if the pool should be doing it: the mix with the base
    /// scenario.
    pub fn request(&self, id: u64) -> Option<Request> {
        let r = self.run.running.as_ref()?;
        let &(_, index) = r.progress.tasks.iter().find(|t| t.0 == id)?;
        Some(Request {
            id,
            task: Task::Mix {
                scenario: (*r.request.base).clone(),
                task: r.request.search.task(index),
            },
        })
    }

    /// Whether task `task` is one of the running search's.
    pub fn owns(&self, task: u64) -> bool {
        self.run
            .running
            .as_ref()
            .is_some_and(|r| r.progress.tasks.iter().any(|t| t.0 == task))
    }

    /// A reply of the pool at `now_ms`; returns whether anything changed. The answer is
    /// made once it is settled.
    pub fn on_reply(&mut self, reply: Reply, now_ms: f64) -> bool {
        let Reply::Event { task, event } = reply else {
            return false;
        };
        let Some(r) = self.run.running.as_mut() else {
            return false;
        };
        let Some(at) = r.progress.tasks.iter().position(|t| t.0 == task) else {
            return false;
        };
        match event {
            Event::Done {
                output: Output::MixPoint(point),
                ..
            } => {
                r.progress.tasks.remove(at);
                r.progress.done.push(*point);
                self.settle(now_ms);
            }
            Event::Failed { message } => self.run.fail(&message),
            _ => return false,
        }
        true
    }

    /// A worker of the pool died with `task` (if it had one of this search's): the search
    /// stops, saying why. Returns whether anything changed.
    pub fn died(&mut self, task: Option<u64>, message: &str) -> bool {
        if !task.is_some_and(|t| self.owns(t)) {
            return false;
        }
        self.run.stop(format!(
            "The search of mixes stopped: a worker died ({message}). Run it again to retry."
        ));
        true
    }

    /// Mixes back and mixes in the search's order (at most: the answer may settle sooner).
    pub fn progress(&self) -> Option<(usize, usize)> {
        let r = self.run.running.as_ref()?;
        Some((r.progress.done.len(), r.request.search.order().len()))
    }

    /// Whether the running search may settle before every mix of its order has run (the
    /// cheapest mix that meets a goal, cheapest first).
    pub fn may_stop_early(&self) -> bool {
        self.run.running.as_ref().is_some_and(|r| {
            let q = &r.request.search.question;
            q.minimize == Minimize::Cost && !q.every
        })
    }
}

#[cfg(test)]
mod tests;
