//! A view's share link (issue 27): beside the scenario (`s=…`) and the view (`view=…`), a
//! `v=…` part carries the view's settings — Over time's policies, the Sweep's form (what
//! varies, the sizes, the policies, the metric, the answer's policy, the goal), Side by
//! side's two scenarios with their names — and whether to run the view on open, so the
//! link reopens the answer, not just its inputs.
//!
//! The settings are the forms' text as typed (the forms validate them when they run); a
//! name the page no longer knows is skipped, never an error.

use super::compare::Saved;
use super::{State, View};
use crate::codec;
use serde::{Deserialize, Serialize};
use smd_core::Policy;
use smd_sim::SimPolicy;

/// The hash parameter of a view's settings: `#v=…`.
pub const VIEW_SETTINGS_PARAM: &str = "v=";

/// Largest inflated settings accepted from a link (two scenarios fit well within).
const MAX_INFLATED: usize = 64 << 20;

/// Over time's settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OverTimeLink {
    /// The policies checked, by name.
    pub policies: Vec<String>,
}

/// The sweep form's settings, as typed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SweepLink {
    /// `units` or `machines`.
    pub axis: String,
    /// The catalog type counted on a pool.
    pub machine_type: String,
    /// The group counted on machines.
    pub group: String,
    /// One resource alone, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// The sizes as typed (`None`: the draft's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// Static policies left out.
    #[serde(default)]
    pub off: Vec<String>,
    /// Also over time.
    #[serde(default)]
    pub over_time: bool,
    /// Policies over time left out.
    #[serde(default)]
    pub sim_off: Vec<String>,
    /// The metric, by name (`None`: the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The answer's policy (empty: the best).
    #[serde(default)]
    pub answer_policy: String,
    /// The goal as typed.
    #[serde(default)]
    pub goal: String,
}

/// What to buy's form, as typed, and whether to run it on open.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BuyLink {
    /// The grid as typed (`None`: the draft's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    /// The metric, by name (`None`: the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The policy over time (empty: the default).
    #[serde(default)]
    pub policy: String,
    /// The goal as typed.
    #[serde(default)]
    pub goal: String,
    /// The budget as typed.
    #[serde(default)]
    pub budget: String,
    /// `cost` or `metric`.
    #[serde(default)]
    pub minimize: String,
    /// Every mix.
    #[serde(default)]
    pub every: bool,
    /// Run the search when the link opens.
    #[serde(default)]
    pub run: bool,
}

impl BuyLink {
    /// The form of `state`, to run on open when it has an answer.
    pub fn of(state: &State) -> BuyLink {
        let b = &state.sweep.buy;
        let f = &b.form;
        BuyLink {
            grid: f.grid.clone(),
            metric: f.metric.map(|m| m.name().to_owned()),
            policy: f.policy.clone(),
            goal: f.goal.clone(),
            budget: f.budget.clone(),
            minimize: match f.minimize {
                smd_sweep::Minimize::Cost => "cost",
                smd_sweep::Minimize::Metric => "metric",
            }
            .to_owned(),
            every: f.every,
            run: matches!(b.run.finished, Some(Ok(_))),
        }
    }

    /// A link's settings with only What to buy's form, to run on open: the answer's own
    /// link.
    pub fn answer_link(state: &State) -> ViewLink {
        ViewLink {
            buy: Some(BuyLink {
                run: true,
                ..BuyLink::of(state)
            }),
            ..ViewLink::default()
        }
    }
}

/// GPU sharing's form, as typed. The lists are the bundled ones (files a user chose do
/// not travel in a link: opening it runs the bundled lists).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharingLink {
    /// The policies checked, by name.
    pub policies: Vec<String>,
    /// The seeds as typed.
    pub seeds: String,
    /// The target as typed.
    pub target: String,
}

/// Side by side's two scenarios, with their names (`a` may be the draft: `None`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareLink {
    /// The first scenario and its name; `None`: the draft (the link's `s=…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<Saved>,
    /// The second.
    pub b: Saved,
}

/// The Reproduce view's studies: which ran (or run), each at its scale — a few bytes,
/// never the results (the link runs them again).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReproduceLink {
    /// The paper's experiments: `Some(quick)` when they ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<bool>,
    /// The agreement with the reference simulator: `Some(quick)` when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<bool>,
}

/// A view's settings in a link.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ViewLink {
    /// Over time's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_time: Option<OverTimeLink>,
    /// The sweep's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepLink>,
    /// Side by side's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareLink>,
    /// Reproduce's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<ReproduceLink>,
    /// What to buy's (in the Sweep view; runs on open by its own `run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buy: Option<BuyLink>,
    /// GPU sharing's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<SharingLink>,
    /// Run the view when the link opens.
    #[serde(default)]
    pub run: bool,
}

impl ViewLink {
    /// The settings of `view` in `state`, to run on open when the view has results.
    pub fn of(state: &State, view: View) -> ViewLink {
        let mut link = ViewLink::default();
        match view {
            View::OverTime => {
                link.over_time = Some(OverTimeLink {
                    policies: state
                        .over_time
                        .form
                        .policies
                        .iter()
                        .map(|p| p.name().to_owned())
                        .collect(),
                });
                link.run = matches!(state.over_time.run.finished, Some(Ok(_)));
            }
            View::Sweep => {
                let f = &state.sweep.form;
                link.sweep = Some(SweepLink {
                    axis: f.axis.name().to_owned(),
                    machine_type: f.machine_type.name.to_owned(),
                    group: f.group.clone(),
                    resource: f.resource.map(|r| r.name().to_owned()),
                    range: f.range.clone(),
                    off: f.off.iter().map(|p| p.name().to_owned()).collect(),
                    over_time: f.over_time,
                    sim_off: f.sim_off.iter().map(|p| p.name().to_owned()).collect(),
                    metric: f.metric.map(|m| m.name().to_owned()),
                    answer_policy: f.answer_policy.clone(),
                    goal: f.goal.clone(),
                });
                link.run = matches!(state.sweep.run.finished, Some(Ok(_)));
                link.buy = Some(BuyLink::of(state));
            }
            View::Compare => {
                if let Some(Ok(r)) = &state.compare.run.finished {
                    let side = |s: &super::compare::Side| Saved {
                        name: s.label.clone(),
                        scenario: (*s.scenario).clone(),
                    };
                    link.compare = Some(CompareLink {
                        a: Some(side(&r.a)),
                        b: side(&r.b),
                    });
                    link.run = true;
                }
            }
            View::Reproduce => {
                // The scale of a study's last run, or of the one running.
                let scale = |b: &super::ReproductionState| {
                    b.running.as_ref().map(|r| r.request.quick).or_else(|| {
                        b.finished
                            .as_ref()
                            .and_then(|f| f.as_ref().ok())
                            .map(|r| r.quick)
                    })
                };
                let r = ReproduceLink {
                    paper: scale(&state.reproduction),
                    fidelity: scale(&state.fidelity),
                };
                link.run = r.paper.is_some() || r.fidelity.is_some();
                link.reproduce = Some(r);
            }
            View::Sharing => {
                let sh = &state.sharing;
                link.sharing = Some(SharingLink {
                    policies: sh.form.policies.iter().map(|p| p.name().into()).collect(),
                    seeds: sh.form.seeds.clone(),
                    target: sh.form.target.clone(),
                });
                link.run = sh.uses_bundled() && matches!(sh.run.finished, Some(Ok(_)));
            }
            _ => {}
        }
        link
    }

    /// Whether the link needs the scenario beside it: every view but Reproduce and GPU
    /// sharing, whose studies bring their own inputs.
    pub fn needs_scenario(view: View) -> bool {
        view.needs_scenario()
    }

    /// Puts the settings into the state's forms (a name the page does not know is
    /// skipped); Side by side's scenarios are saved under their names and chosen.
    pub fn apply(&self, s: &mut State) {
        if let Some(o) = &self.over_time {
            let ps: Vec<SimPolicy> = SimPolicy::ALL
                .iter()
                .copied()
                .filter(|p| o.policies.iter().any(|n| n == p.name()))
                .collect();
            if !ps.is_empty() {
                s.over_time.form.policies = ps;
            }
            // The draft is what is simulated (one cluster for every view).
            s.over_time.form.source = super::SimSource::Draft;
        }
        if let Some(w) = &self.sweep {
            // Through the form's own setters, as if typed (what varies first: a change of
            // it brings back the default sizes, which the link's then replace).
            let sw = &mut s.sweep;
            for (field, text) in [
                ("axis", w.axis.clone()),
                ("type", w.machine_type.clone()),
                ("group", w.group.clone()),
                ("resource", w.resource.clone().unwrap_or_default()),
                ("over_time", w.over_time.to_string()),
                ("metric", w.metric.clone().unwrap_or_default()),
                ("answer_policy", w.answer_policy.clone()),
                ("goal", w.goal.clone()),
            ] {
                sw.field(field, text);
            }
            sw.form.range = w.range.clone();
            for p in w.off.iter().filter_map(|n| n.parse::<Policy>().ok()) {
                sw.toggle(p, false);
            }
            for p in w.sim_off.iter().filter_map(|n| n.parse::<SimPolicy>().ok()) {
                sw.toggle_sim(p, false);
            }
        }
        if let Some(b) = &self.buy {
            let buy = &mut s.sweep.buy;
            for (field, text) in [
                ("metric", b.metric.clone().unwrap_or_default()),
                ("policy", b.policy.clone()),
                ("goal", b.goal.clone()),
                ("budget", b.budget.clone()),
                ("minimize", b.minimize.clone()),
                ("every", b.every.to_string()),
            ] {
                buy.field(field, text);
            }
            buy.form.grid = b.grid.clone();
            // Run once the page is up (the Sweep view starts it on the page's pool).
            buy.run_on_open = b.run;
        }
        if let Some(l) = &self.sharing {
            let form = &mut s.sharing.form;
            let ps: Vec<smd_fgd::Policy> = smd_fgd::Policy::ALL
                .iter()
                .copied()
                .filter(|p| l.policies.iter().any(|n| n == p.name()))
                .collect();
            if !ps.is_empty() {
                form.policies = ps;
            }
            form.seeds = l.seeds.clone();
            form.target = l.target.clone();
        }
        // The studies run again, each at its scale (the worker takes them once it is up).
        if let (Some(r), true) = (&self.reproduce, self.run) {
            for (study, quick) in [
                (super::Study::Paper, r.paper),
                (super::Study::Fidelity, r.fidelity),
            ] {
                if let Some(quick) = quick {
                    s.start_reproduction(study, quick);
                }
            }
        }
        if let Some(c) = &self.compare {
            let mut choose = |saved: &Saved| -> Option<String> {
                s.compare
                    .put(saved.name.clone(), saved.scenario.clone())
                    .ok()
                    .map(|_| saved.name.clone())
            };
            let a = match &c.a {
                Some(a) => choose(a),
                None => Some(super::compare::DRAFT.to_owned()),
            };
            let b = choose(&c.b);
            if let (Some(a), Some(b)) = (a, b) {
                s.compare.a = a;
                s.compare.b = b;
            }
        }
    }

    /// The `v=…` part of a hash.
    pub fn fragment(&self) -> String {
        let json = serde_json::to_string(self).expect("view settings always serialise");
        format!("{VIEW_SETTINGS_PARAM}{}", codec::pack(json.as_bytes()))
    }

    /// The settings in a hash (with or without `#`), if it has a `v=…` part.
    pub fn parse(hash: &str) -> Option<Result<ViewLink, String>> {
        let data = codec::param(hash, VIEW_SETTINGS_PARAM)?;
        Some(
            codec::unpack(data, MAX_INFLATED)
                .and_then(|json| serde_json::from_str(&json).map_err(|e| e.to_string()))
                .map_err(|e| format!("the link's view settings are damaged ({e})")),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::tests::state;

    /// A sweep's and Over time's settings survive the link, and reach the forms.
    #[test]
    fn settings_round_trip_through_the_hash() {
        let s = state(2);
        let mut st = (*s).clone();
        st.sweep.form.range = Some("1:8:1".into());
        st.sweep.form.metric = Some(smd_sweep::Metric::P95Jct);
        st.sweep.form.answer_policy = "pollux".into();
        st.sweep.form.goal = "2h".into();
        st.sweep.form.sim_off = vec![SimPolicy::Oasis];
        st.over_time.form.policies = vec![SimPolicy::Fifo, SimPolicy::Pollux];
        for view in [View::Sweep, View::OverTime] {
            let link = ViewLink::of(&st, view);
            let hash = format!("#view={}&{}", view.name(), link.fragment());
            let back = ViewLink::parse(&hash).unwrap().unwrap();
            assert_eq!(back, link);
            let mut fresh = (*state(2)).clone();
            back.apply(&mut fresh);
            match view {
                View::Sweep => assert_eq!(fresh.sweep.form, st.sweep.form),
                _ => assert_eq!(fresh.over_time.form.policies, st.over_time.form.policies),
            }
        }
        assert!(ViewLink::parse("#view=sweep").is_none());
    }

    /// The Reproduce view's link is short — the view and each study's scale, not the
    /// scenario nor the results — and opening it runs the studies again.
    #[test]
    fn a_reproduce_link_is_short_and_runs_the_studies_again() {
        use crate::state::{Action, ReproduceAction, Study};
        use yew::Reducible;
        let s = state(40).reduce(Action::Reproduce(ReproduceAction::Start(
            Study::Fidelity,
            true,
        )));
        let link = ViewLink::of(&s, View::Reproduce);
        assert!(link.run);
        assert_eq!(
            link.reproduce,
            Some(ReproduceLink {
                paper: None,
                fidelity: Some(true)
            })
        );
        assert!(!ViewLink::needs_scenario(View::Reproduce));
        assert!(ViewLink::needs_scenario(View::Sweep));
        let hash = crate::route::with_view(&link.fragment(), View::Reproduce);
        assert!(hash.len() < 200, "{} bytes: {hash}", hash.len());
        let back = ViewLink::parse(&hash).unwrap().unwrap();
        let mut fresh = (*state(2)).clone();
        back.apply(&mut fresh);
        let running = fresh
            .fidelity
            .running
            .as_ref()
            .expect("the study runs again");
        assert!(running.request.quick);
        assert!(fresh.reproduction.running.is_none());
        assert!(fresh.tasks().contains(&running.id));
        assert!(ViewLink::parse("#v=%%%").unwrap().is_err());
    }

    /// GPU sharing's form survives its link, which runs the study again on open when it
    /// ran on the bundled lists — and does not carry the scenario, which the study does
    /// not use.
    #[test]
    fn a_sharing_link_carries_the_form_and_runs_again() {
        use crate::solver::{FgdOutput, FgdTask};
        use crate::state::sharing::Studied;
        use std::rc::Rc;
        let mut st = (*state(2)).clone();
        st.sharing.form.policies = vec![smd_fgd::Policy::BestFit, smd_fgd::Policy::Fgd];
        st.sharing.form.seeds = "42, 44".into();
        st.sharing.form.target = "1.1".into();
        let link = ViewLink::of(&st, View::Sharing);
        assert!(!link.run, "nothing ran yet");
        assert!(!ViewLink::needs_scenario(View::Sharing));
        st.sharing.run.finished = Some(Ok(Rc::new(Studied {
            task: Rc::new(FgdTask {
                nodes: String::new(),
                pods: String::new(),
                policies: vec![],
                seeds: vec![42],
                target: 1.1,
                published: None,
            }),
            out: FgdOutput {
                policies: vec![],
                bound: vec![],
                gpus: 0,
                nodes: 0,
                pods: 0,
            },
            label: String::new(),
            ms: 0.0,
        })));
        let link = ViewLink::of(&st, View::Sharing);
        assert!(link.run);
        let hash = crate::route::with_view(&link.fragment(), View::Sharing);
        let back = ViewLink::parse(&hash).unwrap().unwrap();
        assert_eq!(back, link);
        let mut fresh = (*state(2)).clone();
        back.apply(&mut fresh);
        assert_eq!(fresh.sharing.form, {
            let mut f = st.sharing.form.clone();
            f.error = None;
            f
        });
        // A file the user chose does not travel: such a study's link does not run.
        st.sharing.nodes = Some(crate::state::sharing::Chosen {
            name: "mine.csv".into(),
            text: Rc::new(String::new()),
        });
        assert!(!ViewLink::of(&st, View::Sharing).run);
    }
}
