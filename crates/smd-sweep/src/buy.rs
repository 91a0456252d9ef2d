//! What to buy (docs/MODEL.md §25): a question asked of a grid of mixes — the cheapest mix
//! that meets a goal, or the best within a budget — which mixes it needs evaluated (and
//! the exact rule that lets it skip the others), the cost–metric frontier, and the answer
//! in words.

use crate::evaluate::Options;
use crate::mix::{
    evaluate_mix, mix_price, mix_types, mix_words, scenario_at_mix, type_prices, MixPoint, MixSpec,
    MixTask,
};
use crate::{Metric, SweepError};
use serde::{Deserialize, Serialize};
use smd_core::scenario::MachineGroup;
use smd_core::Scenario;
use smd_sim::SimPolicy;
use std::cmp::Ordering;

/// What the answer makes as small as it can.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Minimize {
    /// The mix's price per hour (`--minimize cost`); needs a goal.
    Cost,
    /// The metric (`--minimize mean_jct`; for a metric where more is better, the answer
    /// makes it as large as it can).
    Metric,
}

/// A planner's question of a mix grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The metric each mix is judged by.
    pub metric: Metric,
    /// The policy over time every mix is simulated under.
    pub policy: SimPolicy,
    /// The metric's goal: at most it where less is better, at least it otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<f64>,
    /// The most a mix may cost, US dollars per hour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<f64>,
    /// What the answer minimises.
    pub minimize: Minimize,
    /// Evaluate every mix of the grid (the whole frontier and map), not only those the
    /// answer needs.
    #[serde(default)]
    pub every: bool,
}

impl Question {
    /// Reads `--minimize`: `cost` (the price per hour) or the metric's own name.
    pub fn parse_minimize(text: &str, metric: Metric) -> Result<Minimize, String> {
        match text.trim() {
            "cost" | "price" | "usd_per_hour" => Ok(Minimize::Cost),
            t if t == metric.name() => Ok(Minimize::Metric),
            t => Err(format!(
                "{:?} is not what to minimise: cost (the mix's price per hour) or the metric, {}",
                smd_core::error::cut(t),
                metric.name()
            )),
        }
    }

    /// Whether `value` meets the goal (always, without one).
    fn meets(&self, value: f64) -> bool {
        self.goal.is_none_or(|g| {
            if self.metric.lower_is_better() {
                value <= g
            } else {
                value >= g
            }
        })
    }

    /// Whether `p` qualifies as an answer: a value that meets the goal, a price within the
    /// budget.
    pub fn qualifies(&self, p: &MixPoint) -> bool {
        p.value.is_some_and(|v| self.meets(v)) && self.affordable(p)
    }

    /// Whether `p`'s price is within the budget (any price without one).
    fn affordable(&self, p: &MixPoint) -> bool {
        self.budget
            .is_none_or(|b| p.usd_per_hour.is_some_and(|u| u <= b))
    }

    /// `a` against `b` on the metric: `Less` when `a` is better.
    fn better(&self, a: f64, b: f64) -> Ordering {
        if self.metric.lower_is_better() {
            a.total_cmp(&b)
        } else {
            b.total_cmp(&a)
        }
    }

    /// The goal in words (`mean JCT ≤ 30.0 min`), if there is one.
    pub fn goal_words(&self) -> Option<String> {
        self.goal.map(|g| {
            let op = if self.metric.lower_is_better() {
                "≤"
            } else {
                "≥"
            };
            format!("{} {op} {}", self.metric.words(), self.metric.show(g))
        })
    }

    /// The budget in words (`within $60.00/h`), if there is one.
    pub fn budget_words(&self) -> Option<String> {
        self.budget
            .map(|b| format!("within {}/h", smd_format::usd(b)))
    }

    /// The goal and budget as an answer names them: `with mean JCT ≤ 30.0 min and within
    /// $60.00/h` (empty without either).
    fn condition(&self) -> String {
        let parts: Vec<String> = self
            .goal_words()
            .map(|g| format!("with {g}"))
            .into_iter()
            .chain(self.budget_words())
            .collect();
        parts.join(" and ")
    }
}

/// The most a budget may be, US dollars per hour.
pub const MAX_BUDGET: f64 = 1e12;

/// A budget as a person types it: `60/h`, `$60/h`, `60` (US dollars per hour), ≥ 0, at most
/// [`MAX_BUDGET`].
pub fn parse_budget(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let n = t.strip_prefix('$').unwrap_or(t).trim();
    let n = n
        .strip_suffix("/h")
        .or_else(|| n.strip_suffix("/hour"))
        .unwrap_or(n)
        .trim();
    match n.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=MAX_BUDGET).contains(&v) => Ok(v),
        Ok(v) if v.is_finite() && v > MAX_BUDGET => Err(format!(
            "{:?} is too large: a budget is at most {}/h",
            smd_core::error::cut(t),
            smd_format::usd(MAX_BUDGET)
        )),
        _ => Err(format!(
            "{:?} is not a budget: US dollars per hour ≥ 0, e.g. 60/h",
            smd_core::error::cut(t)
        )),
    }
}

/// A question of a grid of mixes of one scenario, resolved: each mix's price known before
/// any run, the order to evaluate them in, and when the answer is settled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixSearch {
    /// The grid.
    pub spec: MixSpec,
    /// One machine of each type.
    pub types: Vec<MachineGroup>,
    /// The question.
    pub question: Question,
    /// Every mix's counts, in grid order.
    grid: Vec<Vec<u32>>,
    /// Every mix's price per hour.
    prices: Vec<Option<f64>>,
    /// The mixes to evaluate, as grid indices, in the order to evaluate them.
    order: Vec<usize>,
    /// Mixes the budget rules out without a run.
    over_budget: usize,
}

impl MixSearch {
    /// The search of `question` over `spec` on `base`. Errors name the flag at fault: a
    /// type that is neither in the catalog nor a group of the scenario, a type without a
    /// price where the question needs one, a policy that cannot plan these jobs on these
    /// types, `--minimize cost` without a goal.
    pub fn new(
        base: &Scenario,
        spec: MixSpec,
        question: Question,
    ) -> Result<MixSearch, SweepError> {
        let types = mix_types(base, &spec)?;
        let grid = spec.grid();
        let prices: Vec<Option<f64>> = grid
            .iter()
            .map(|c| mix_price(&type_prices(&types), c))
            .collect();
        let spec_err = |field, message: String| SweepError::Spec { field, message };
        if question.minimize == Minimize::Cost && question.goal.is_none() {
            return Err(spec_err(
                "goal",
                "the cheapest mix needs a goal to meet (--goal), else it is no machines at all"
                    .into(),
            ));
        }
        let unpriced = unpriced(&spec, &types);
        // Cost asked for in any form: to minimise, within a budget, or as the metric.
        let priced = question.minimize == Minimize::Cost
            || question.budget.is_some()
            || question.metric.is_cost();
        if priced && !unpriced.is_empty() {
            return Err(spec_err(
                "mix",
                format!(
                    "{} no published price: give {} hourly_usd in the scenario to compare mixes by cost",
                    have(&unpriced),
                    if unpriced.len() == 1 { "its group's" } else { "their groups'" }
                ),
            ));
        }
        if !base.jobs.iter().all(|j| j.arrival_s.is_some()) && !base.jobs.is_empty() {
            return Err(spec_err(
                "metric",
                "a mix is judged over time: every job needs an arrival_s".into(),
            ));
        }
        // The policy must apply to the jobs on the grid's types: checked on the largest
        // mix (every type at its most), so that a refusal is said once, by name.
        let most = largest(&spec);
        if most.iter().any(|&c| c > 0) {
            let full = scenario_at_mix(base, &types, &most);
            if !question.policy.applies_to(&full) {
                let can: Vec<&str> = SimPolicy::all_for(&full)
                    .into_iter()
                    .filter(|p| *p != SimPolicy::Bound)
                    .map(SimPolicy::name)
                    .collect();
                return Err(spec_err(
                    "policy",
                    format!(
                        "{} cannot plan these jobs on {}: {}",
                        question.policy.name(),
                        spec.axes
                            .iter()
                            .map(|a| a.machine_type.as_str())
                            .collect::<Vec<_>>()
                            .join(" and "),
                        if can.is_empty() {
                            "no policy over time can".to_owned()
                        } else {
                            format!("choose {}", can.join(", "))
                        }
                    ),
                ));
            }
        }
        if question.policy == SimPolicy::Bound {
            return Err(spec_err(
                "policy",
                "bound is an upper bound on utility, not a schedule: choose a policy".into(),
            ));
        }
        let within = |i: &usize| {
            question.every
                || question
                    .budget
                    .is_none_or(|b| prices[*i].is_some_and(|u| u <= b))
        };
        let mut order: Vec<usize> = (0..grid.len()).filter(within).collect();
        let over_budget = grid.len() - order.len();
        if !question.every && question.minimize == Minimize::Cost {
            // Cheapest first (ties in grid order): the answer is settled once a mix meets
            // the goal and every mix at most its price has run.
            order.sort_by(|&a, &b| {
                prices[a]
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&prices[b].unwrap_or(f64::INFINITY))
                    .then(a.cmp(&b))
            });
        }
        Ok(MixSearch {
            spec,
            types,
            question,
            grid,
            prices,
            order,
            over_budget,
        })
    }

    /// The policy a mix sweep runs when none is named: `sia` where it plans the jobs on
    /// the grid's largest mix (every type at its most), else the first policy over time
    /// that does (never `bound`, which is no schedule).
    pub fn default_policy(base: &Scenario, spec: &MixSpec) -> Result<SimPolicy, SweepError> {
        let types = mix_types(base, spec)?;
        let full = scenario_at_mix(base, &types, &largest(spec));
        let can = SimPolicy::all_for(&full);
        [SimPolicy::Sia]
            .into_iter()
            .chain(can.iter().copied())
            .find(|p| *p != SimPolicy::Bound && can.contains(p))
            .ok_or_else(|| SweepError::Spec {
                field: "policy",
                message: "no policy over time can plan these jobs on these types".into(),
            })
    }

    /// The mixes to evaluate, as grid indices, in the order to evaluate them.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The mixes in the grid.
    pub fn grid_len(&self) -> usize {
        self.grid.len()
    }

    /// The grid index `index` as a task for [`evaluate_mix`].
    pub fn task(&self, index: usize) -> MixTask {
        MixTask {
            index,
            mix: self.spec.named(&self.grid[index]),
            types: self.types.clone(),
            policy: self.question.policy,
            metric: self.question.metric,
        }
    }

    /// The price below which every mix is needed once `done` is known: the price of the
    /// cheapest candidate answer among `done` when the question minimises cost (mixes
    /// pricier than it cannot be cheaper), else none (every mix in `order` is needed).
    fn ceiling(&self, done: &[MixPoint]) -> Option<f64> {
        if self.question.every || self.question.minimize != Minimize::Cost {
            return None;
        }
        done.iter()
            .filter(|p| self.question.qualifies(p))
            .filter_map(|p| p.usd_per_hour)
            .reduce(f64::min)
    }

    /// Whether the mix at grid index `i` is needed given `ceiling`.
    fn needed(&self, i: usize, ceiling: Option<f64>) -> bool {
        ceiling.is_none_or(|c| self.prices[i].is_some_and(|u| u <= c))
    }

    /// Whether `done` settles the answer: every mix in `order` that is still needed has run.
    pub fn settled(&self, done: &[MixPoint]) -> bool {
        let ceiling = self.ceiling(done);
        self.order
            .iter()
            .filter(|&&i| self.needed(i, ceiling))
            .all(|i| done.iter().any(|p| p.index == *i))
    }

    /// The report of `done` (evaluated in any order, on any thread, possibly more than the
    /// answer needs): the mixes it needs, in grid order — the same whatever ran beyond them
    /// —, the best, the frontier and the answer.
    pub fn report(&self, mut done: Vec<MixPoint>) -> MixReport {
        let ceiling = self.ceiling(&done);
        done.retain(|p| self.order.contains(&p.index) && self.needed(p.index, ceiling));
        done.sort_by_key(|p| p.index);
        done.dedup_by_key(|p| p.index);
        let q = &self.question;
        let best = done
            .iter()
            .filter(|p| q.qualifies(p))
            .min_by(|a, b| {
                let (va, vb) = (a.value.unwrap_or(0.0), b.value.unwrap_or(0.0));
                let (ua, ub) = (
                    a.usd_per_hour.unwrap_or(f64::INFINITY),
                    b.usd_per_hour.unwrap_or(f64::INFINITY),
                );
                match q.minimize {
                    Minimize::Cost => ua.total_cmp(&ub).then(q.better(va, vb)),
                    Minimize::Metric => q.better(va, vb).then(ua.total_cmp(&ub)),
                }
                .then(a.index.cmp(&b.index))
            })
            .cloned();
        let frontier = frontier(&done, q.metric);
        let skipped = self.grid.len() - done.len();
        let rule = self.rule(ceiling, skipped);
        let unpriced = unpriced(&self.spec, &self.types);
        let mut report = MixReport {
            types: self
                .spec
                .axes
                .iter()
                .map(|a| a.machine_type.clone())
                .collect(),
            axes: self.spec.axes.clone(),
            question: q.clone(),
            grid: self.grid.len(),
            evaluated: done.len(),
            skipped,
            rule,
            unpriced,
            best,
            frontier,
            points: done,
            answer: String::new(),
        };
        report.answer = answer(&report, self);
        report
    }

    /// The stated rule that let the search skip mixes, with its count.
    fn rule(&self, ceiling: Option<f64>, skipped: usize) -> Option<String> {
        if skipped == 0 {
            return None;
        }
        let priced_out = skipped - self.over_budget;
        let mut parts = Vec::new();
        if self.over_budget > 0 {
            parts.push(format!(
                "{} over the budget",
                count(self.over_budget, "mix", "mixes")
            ));
        }
        if let (Some(c), true) = (ceiling, priced_out > 0) {
            parts.push(format!(
                "{} pricier than {}/h, which cannot be cheaper than the answer",
                count(priced_out, "mix", "mixes"),
                smd_format::usd(c)
            ));
        }
        Some(format!(
            "Skipped {} (prices need no run).",
            parts.join(" and ")
        ))
    }

    /// Every mix the search needs, one after another, with `opts`' progress (one step per
    /// mix: `point` its position in the order, `points` the mixes in the order) and
    /// cancel: cheapest first when the answer minimises cost, stopping once settled.
    pub fn run(&self, base: &Scenario, opts: &mut Options) -> Result<MixReport, SweepError> {
        let mut done: Vec<MixPoint> = Vec::new();
        for (k, &i) in self.order.iter().enumerate() {
            if self.settled(&done) {
                break;
            }
            if !self.needed(i, self.ceiling(&done)) {
                continue;
            }
            if opts.cancel.is_some_and(|c| c()) {
                return Err(SweepError::Cancelled);
            }
            done.push(evaluate_mix(base, &self.task(i), opts)?);
            if let Some(f) = opts.progress.as_mut() {
                f(crate::Progress {
                    point: k,
                    points: self.order.len(),
                    done: 1,
                    policies: 1,
                    policy: self.question.policy.name(),
                });
            }
        }
        Ok(self.report(done))
    }
}

/// The grid's largest mix: every type at its most.
fn largest(spec: &MixSpec) -> Vec<u32> {
    spec.axes
        .iter()
        .map(|a| a.counts.last().copied().unwrap_or(0))
        .collect()
}

/// The types of the grid that have machines in some mix and no price.
fn unpriced(spec: &MixSpec, types: &[MachineGroup]) -> Vec<String> {
    spec.axes
        .iter()
        .zip(types)
        .filter(|(a, g)| g.hourly_usd.is_none() && a.counts.iter().any(|&c| c > 0))
        .map(|(a, _)| a.machine_type.clone())
        .collect()
}

/// `rtx2080tix8 has` / `rtx2080tix8 and rtx6000x4 have`.
fn have(names: &[String]) -> String {
    match names {
        [one] => format!("{one} has"),
        _ => format!("{} have", names.join(" and ")),
    }
}

/// `1 mix` / `3 mixes`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The Pareto frontier of price against `metric` among `points` with both: every point
/// that no other is at least as good as on both and better on one (equal points are all
/// kept), cheapest first.
pub fn frontier(points: &[MixPoint], metric: Metric) -> Vec<MixPoint> {
    let better = |a: f64, b: f64| {
        if metric.lower_is_better() {
            a < b
        } else {
            a > b
        }
    };
    let mut known: Vec<(f64, f64, &MixPoint)> = points
        .iter()
        .filter_map(|p| Some((p.usd_per_hour?, p.value?, p)))
        .collect();
    // Cheapest first, the best value first within a price: a point is on the frontier
    // when its value is the best at its price and better than every cheaper price's.
    known.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(if metric.lower_is_better() {
                a.1.total_cmp(&b.1)
            } else {
                b.1.total_cmp(&a.1)
            })
            .then(a.2.index.cmp(&b.2.index))
    });
    let mut out = Vec::new();
    let mut best_cheaper: Option<f64> = None;
    let mut k = 0;
    while k < known.len() {
        let price = known[k].0;
        let top = known[k].1;
        let mut end = k;
        while end < known.len() && known[end].0 == price {
            end += 1;
        }
        if best_cheaper.is_none_or(|b| better(top, b)) {
            out.extend(
                known[k..end]
                    .iter()
                    .filter(|p| p.1 == top)
                    .map(|p| p.2.clone()),
            );
            best_cheaper = Some(top);
        }
        k = end;
    }
    out
}

/// A mix sweep's result: the output of docs/SCENARIO.md, "Mix sweep output".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixReport {
    /// The types, in the order given.
    pub types: Vec<String>,
    /// The grid: each type with its counts, so that a reader places every mix — those
    /// skipped too — on it.
    pub axes: Vec<crate::mix::MixAxis>,
    /// The question asked.
    pub question: Question,
    /// The mixes in the grid.
    pub grid: usize,
    /// The mixes evaluated (those `points` holds).
    pub evaluated: usize,
    /// The mixes the stated rule let the search skip.
    pub skipped: usize,
    /// That rule, with its counts (`null`: none skipped).
    pub rule: Option<String>,
    /// Types with machines in the grid and no price.
    pub unpriced: Vec<String>,
    /// The answer's mix (`null`: none qualifies; `answer` says why).
    pub best: Option<MixPoint>,
    /// The cost–metric frontier of the evaluated mixes, cheapest first.
    pub frontier: Vec<MixPoint>,
    /// Every evaluated mix, in grid order.
    pub points: Vec<MixPoint>,
    /// The answer in words.
    pub answer: String,
}

/// A mix with its price and value in words: `2 × a100x8 + 4 × t4x4 at $59.56/h (mean JCT
/// 27.4 min)`.
fn described(p: &MixPoint, metric: Metric) -> String {
    let price = p
        .usd_per_hour
        .map(|u| format!(" at {}/h", smd_format::usd(u)))
        .unwrap_or_default();
    let value = p
        .value
        .map(|v| format!(" ({} {})", metric.words(), metric.show(v)))
        .unwrap_or_default();
    format!("{}{price}{value}", mix_words(&p.mix))
}

/// The answer's first sentence when no mix qualifies: the best within the budget (a mix
/// past it answers nothing asked), or that no mix has a value.
fn no_answer(r: &MixReport) -> String {
    let q = &r.question;
    let (m, under) = (q.metric, q.policy.name());
    let budget = q
        .budget_words()
        .map(|b| format!(" {b}"))
        .unwrap_or_default();
    let closest = r
        .points
        .iter()
        .filter(|p| p.value.is_some() && q.affordable(p))
        .min_by(|a, b| {
            q.better(a.value.unwrap_or(0.0), b.value.unwrap_or(0.0))
                .then(a.index.cmp(&b.index))
        });
    match closest {
        Some(c) => format!(
            "No mix of the grid{budget} has {} under {under}: the best {} is {}.",
            q.goal_words().unwrap_or_else(|| format!("a {}", m.words())),
            m.words(),
            described(c, m)
        ),
        None => format!(
            "No mix of the grid{budget} has a {} under {under}.",
            m.words()
        ),
    }
}

/// The answer's sentences (docs/MODEL.md §25.3).
fn answer(r: &MixReport, s: &MixSearch) -> String {
    let q = &r.question;
    let m = q.metric;
    let under = q.policy.name();
    let cond = q.condition();
    let mut out = Vec::new();
    let best_words = |what: &str| match &r.best {
        Some(b) => format!(
            "{what}{} under {under}: {}.",
            if cond.is_empty() {
                String::new()
            } else {
                format!(" {cond}")
            },
            described(b, m)
        ),
        None => no_answer(r),
    };
    match q.minimize {
        Minimize::Cost => out.push(best_words("The cheapest mix")),
        Minimize::Metric => out.push(best_words(&format!(
            "The mix with the {} {}",
            if m.lower_is_better() { "least" } else { "most" },
            m.words()
        ))),
    }
    // Each type alone, against a mixed answer: what the cheapest single-type mix that
    // qualifies costs, or why there is none.
    if let (Some(b), true, Minimize::Cost) = (&r.best, r.types.len() > 1, q.minimize) {
        for (t, name) in r.types.iter().enumerate() {
            let alone = |p: &MixPoint| {
                p.mix
                    .iter()
                    .enumerate()
                    .all(|(k, &(_, c))| (k == t) == (c > 0))
            };
            if alone(b) {
                continue;
            }
            let qualifying = r
                .points
                .iter()
                .filter(|p| alone(p) && q.qualifies(p))
                .min_by(|a, b| {
                    a.usd_per_hour
                        .unwrap_or(f64::INFINITY)
                        .total_cmp(&b.usd_per_hour.unwrap_or(f64::INFINITY))
                });
            let all_ran = (0..s.grid.len())
                .filter(|&i| {
                    s.grid[i]
                        .iter()
                        .enumerate()
                        .all(|(k, &c)| (k == t) == (c > 0))
                })
                .all(|i| r.points.iter().any(|p| p.index == i));
            let most = s.spec.axes[t].counts.last().copied().unwrap_or(0);
            out.push(match qualifying {
                Some(p) => format!("{name} alone: {}.", described(p, m)),
                None if all_ran => format!("{name} alone does not qualify up to {most} machines."),
                None => format!("{name} alone costs more than the answer."),
            });
        }
    }
    if r.unpriced.is_empty() {
        if r.frontier.len() > 1 {
            let (lo, hi) = (&r.frontier[0], &r.frontier[r.frontier.len() - 1]);
            out.push(format!(
                "{} of the {} evaluated are on the cost–{} frontier (no other is both cheaper and better), from {} to {}.",
                r.frontier.len(),
                r.evaluated,
                m.words(),
                described(lo, m),
                described(hi, m)
            ));
        }
    } else {
        out.push(format!(
            "The frontier needs every price: {} none (give {} hourly_usd in the scenario).",
            have(&r.unpriced),
            if r.unpriced.len() == 1 {
                "its group's"
            } else {
                "their groups'"
            }
        ));
    }
    out.push(format!(
        "Evaluated {} of {} mixes.{}",
        r.evaluated,
        r.grid,
        r.rule.as_ref().map(|t| format!(" {t}")).unwrap_or_default()
    ));
    out.join(" ")
}

/// [`MixSearch::run`] with the mixes on rayon's threads: each thread takes the next mix of
/// the order (cheapest first when the answer minimises cost) that is still needed, until
/// none is; the same report (only the runs' times differ). `progress` gets the mixes done
/// and the most the order holds.
#[cfg(feature = "parallel")]
pub fn run_parallel(
    search: &MixSearch,
    base: &Scenario,
    opts: crate::ParallelOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<MixReport, SweepError> {
    use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<MixPoint>> = Mutex::new(Vec::new());
    let failed: Mutex<Option<SweepError>> = Mutex::new(None);
    let worker = || loop {
        if failed.lock().map_or(true, |f| f.is_some()) {
            return;
        }
        let k = next.fetch_add(1, AtomicOrdering::SeqCst);
        let Some(&i) = search.order.get(k) else {
            return;
        };
        // Needed given what is known now: a mix pricier than a known answer is not.
        let ceiling = done.lock().map(|d| search.ceiling(&d)).unwrap_or(None);
        if !search.needed(i, ceiling) {
            continue;
        }
        match evaluate_mix(base, &search.task(i), &mut opts.options()) {
            Ok(p) => {
                if let Ok(mut d) = done.lock() {
                    d.push(p);
                    progress(d.len(), search.order.len());
                }
            }
            Err(e) => {
                if let Ok(mut f) = failed.lock() {
                    f.get_or_insert(e);
                }
                return;
            }
        }
    };
    rayon::scope(|s| {
        for _ in 0..crate::threads().max(1) {
            s.spawn(|_| worker());
        }
    });
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(search.report(done.into_inner().unwrap_or_default()))
}
