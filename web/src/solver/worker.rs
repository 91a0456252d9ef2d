//! The worker's side: a [`Request`] in, its [`Event`]s out. [`handle`] is the worker's
//! whole job; tests (and the page in [`SolverMode::InThread`](super::SolverMode)) run it
//! on the page's thread.

use super::now_ms;
use super::protocol::{
    page_policies, ClaimLine, Event, Experiment, FgdMap, FgdOutput, FgdPolicy, FgdTask, Output,
    Partial, Reply, Request, Task,
};
use smd_core::{Plan, Scenario};
use std::cell::RefCell;

/// Least time between two progress messages of one step, ms.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

thread_local! {
    /// SMD allocations of the jobs the last plans saw: after an edit of one job, only that
    /// job's Algorithm 1 runs again (plans are identical with or without it).
    static CACHE: RefCell<smd_core::Cache> = RefCell::new(smd_core::Cache::new());
}

/// Answers one request.
pub fn handle(req: Request, post: &mut dyn FnMut(Reply)) {
    let Request { id, task } = req;
    run(id, post, |ctx| perform(task, ctx));
}

/// Runs `work` as task `id`: what it reports goes out tagged with the id, then `Done` with
/// its output and wall time, or `Failed`.
pub fn run(
    id: u64,
    post: &mut dyn FnMut(Reply),
    work: impl FnOnce(&mut Ctx) -> Result<Output, String>,
) {
    let t0 = now_ms();
    let mut ctx = Ctx {
        id,
        post,
        last_progress: None,
    };
    let last = match work(&mut ctx) {
        Ok(output) => Event::Done {
            output,
            ms: now_ms() - t0,
        },
        Err(message) => Event::Failed { message },
    };
    ctx.send(last);
}

/// A running task's line to the page.
pub struct Ctx<'a> {
    id: u64,
    post: &'a mut dyn FnMut(Reply),
    /// `((step, done, total), when)` of the last progress message sent.
    last_progress: Option<((usize, usize, usize), f64)>,
}

impl Ctx<'_> {
    /// Whether a report of `units` (step, done, total) is due: the first of a step, a
    /// step's end (`last`) and one every [`PROGRESS_EVERY_MS`] go out, never the same twice
    /// (each message makes the page render again). Records it when due.
    fn due(&mut self, units: (usize, usize, usize), last: bool) -> bool {
        let now = now_ms();
        let due = match self.last_progress {
            None => true,
            Some((before, _)) if before == units => false,
            Some(((step, _, _), when)) => {
                step != units.0 || last || now - when >= PROGRESS_EVERY_MS
            }
        };
        if due {
            self.last_progress = Some((units, now));
        }
        due
    }

    /// Reports progress: `done` of `total` in step `step`, paced by [`Ctx::due`].
    pub fn progress(&mut self, step: usize, done: usize, total: usize) {
        if self.due((step, done, total), done == total) {
            self.send(Event::Progress { step, done, total });
        }
    }

    /// Reports where a reproduction is — scenarios planned and the work done, which moves
    /// within a long scenario — paced by [`Ctx::due`].
    pub fn reproducing(&mut self, scenarios: (usize, usize), work: (u64, u64)) {
        let units = (0, work.0 as usize, work.1 as usize);
        if self.due(units, work.0 >= work.1) {
            self.send(Event::Reproducing { scenarios, work });
        }
    }

    /// Reports where simulation step `step` is, paced by [`Ctx::due`] (with the jobs
    /// finished as the units done).
    pub fn simulating(&mut self, step: usize, p: smd_sim::Progress) {
        if self.due((step, p.finished, p.jobs), p.finished == p.jobs) {
            self.send(Event::Simulating {
                step,
                slots: p.slots,
                time_s: p.time_s,
                finished: p.finished,
                jobs: p.jobs,
            });
        }
    }

    /// Reports how a policy's plan advances: jobs done (through [`Ctx::progress`]), or
    /// where `global`'s search is — sent whenever the solver reports it, as the solver
    /// already reports it at most every ~100 ms.
    pub fn report(&mut self, step: usize, p: smd_core::Progress) {
        match p.search {
            Some(search) => self.send(Event::Search { step, search }),
            None => self.progress(step, p.jobs_done, p.jobs_total),
        }
    }

    /// Reports a partial result.
    pub fn partial(&mut self, p: Partial) {
        self.send(Event::Partial(p));
    }

    fn send(&mut self, event: Event) {
        (self.post)(Reply::Event {
            task: self.id,
            event,
        });
    }
}

/// Does one task: the one place that knows every kind of work.
pub fn perform(task: Task, ctx: &mut Ctx) -> Result<Output, String> {
    match task {
        Task::Solve {
            scenario,
            global_budget_ms,
        } => {
            solve(&scenario, global_budget_ms, ctx);
            Ok(Output::Solved)
        }
        Task::Landscape {
            scenario,
            job,
            resolution,
            plans,
        } => smd_core::landscape(&scenario, job, resolution, &plans)
            .map(|l| Output::Landscape {
                json: serde_json::to_string(&l).expect("a landscape always serialises"),
            })
            .map_err(|e| e.to_string()),
        Task::Teach { scenario, job } => {
            let opts = smd_core::teach::TraceOptions::default();
            smd_core::teach::trace(&scenario, job, &opts)
                .map(|t| Output::Trace {
                    json: serde_json::to_string(&t).expect("a trace always serialises"),
                })
                .map_err(|e| e.to_string())
        }
        Task::Reproduce { quick } => {
            let scale = if quick {
                smd_reproduce::Scale::Quick
            } else {
                smd_reproduce::Scale::Full
            };
            reproduce(smd_reproduce::Runner::new(scale), ctx)
        }
        Task::Fidelity { quick } => fidelity(quick, ctx),
        Task::Simulate { scenario, policies } => simulate(&scenario, &policies, ctx),
        Task::Fgd(study) => fgd_study(&study, ctx),
        Task::FgdMap {
            study,
            policy,
            seed,
            x,
        } => fgd_map(&study, &policy, seed, x),
        Task::SweepPoint {
            scenario,
            point,
            policies,
            global_budget_ms,
        } => sweep_point(&scenario, &point, &policies, global_budget_ms, ctx),
        Task::Mix { scenario, task } => mix_point(&scenario, &task),
        Task::WarmUp => warm_up(ctx),
        Task::Compare {
            a,
            b,
            global_budget_ms,
        } => {
            let mut side = |step: usize, s: &Scenario| -> Vec<Result<Plan, String>> {
                let policies = page_policies(&s.cluster);
                let mut plans = Vec::with_capacity(policies.len());
                for (k, &policy) in policies.iter().enumerate() {
                    ctx.progress(step, k, policies.len());
                    plans.push(
                        plan_one(s, policy, global_budget_ms, &mut |_| {})
                            .map_err(|e| e.to_string()),
                    );
                }
                ctx.progress(step, policies.len(), policies.len());
                plans
            };
            let a = side(0, &a);
            let b = side(1, &b);
            Ok(Output::Compared { a, b })
        }
    }
}

/// One size of a sweep: its scenario planned (and simulated) with every policy, progress
/// after each (step = the point's index). Cancelling is terminating the worker.
pub fn sweep_point(
    base: &Scenario,
    point: &smd_sweep::Point,
    policies: &smd_sweep::Policies,
    global_budget_ms: f64,
    ctx: &mut Ctx,
) -> Result<Output, String> {
    let scenario = smd_sweep::scenario_at(base, point).map_err(|e| e.to_string())?;
    let clock = now_ms;
    let mut progress = |p: smd_sweep::Progress| ctx.progress(p.point, p.done, p.policies);
    let mut opts = smd_sweep::Options {
        clock: Some(&clock),
        progress: Some(&mut progress),
        global_budget_ms: Some(global_budget_ms),
        ..Default::default()
    };
    smd_sweep::evaluate(point, &scenario, policies, &mut opts)
        .map(|r| Output::SweepPoint(Box::new(r)))
        .map_err(|e| e.to_string())
}

/// One mix of What to buy's grid, simulated under its policy, timed by the worker's clock
/// (no progress within it: the page counts mixes). Cancelling is terminating the worker.
pub fn mix_point(base: &Scenario, task: &smd_sweep::MixTask) -> Result<Output, String> {
    let clock = now_ms;
    let mut opts = smd_sweep::Options {
        clock: Some(&clock),
        ..Default::default()
    };
    smd_sweep::evaluate_mix(base, task, &mut opts)
        .map(|p| Output::MixPoint(Box::new(p)))
        .map_err(|e| e.to_string())
}

/// Jobs of the warm-up: the first of workload-1 (measured, so the reference's policies run
/// too), on [`WARM_UP_MACHINES`] × t4x4: every policy in ~0.1 s natively.
pub const WARM_UP_JOBS: usize = 24;
/// Machines of the warm-up: few, so that jobs wait and every policy's queue is exercised.
pub const WARM_UP_MACHINES: f64 = 2.0;

/// The lists of an FGD study, read: `(nodes, pods, prepared)`; an error names the list, its
/// row and column.
fn fgd_inputs(
    study: &FgdTask,
) -> Result<(Vec<smd_fgd::Node>, Vec<smd_fgd::Pod>, smd_fgd::Prepared), String> {
    let nodes = smd_fgd::parse_nodes(&study.nodes).map_err(|e| format!("the node list: {e}"))?;
    let pods = smd_fgd::parse_pods(&study.pods).map_err(|e| format!("the pod list: {e}"))?;
    let prepared = smd_fgd::Prepared::new(&nodes, &pods);
    Ok((nodes, pods, prepared))
}

fn fgd_policy(name: &str) -> Result<smd_fgd::Policy, String> {
    smd_fgd::Policy::from_name(name).ok_or_else(|| format!("unknown policy {name:?}"))
}

/// [`Task::Fgd`]: every policy with every seed, one after the other, then the bound.
pub fn fgd_study(study: &FgdTask, ctx: &mut Ctx) -> Result<Output, String> {
    use smd_fgd::summary;
    let (nodes, pods, prepared) = fgd_inputs(study)?;
    let policies: Vec<smd_fgd::Policy> = study
        .policies
        .iter()
        .map(|n| fgd_policy(n))
        .collect::<Result<_, _>>()?;
    let published = match &study.published {
        Some([a, b, c]) => Some(
            summary::published_from([a, b, c]).map_err(|e| format!("the published tables: {e}"))?,
        ),
        None => None,
    };
    let s = summary::summarize(
        &prepared,
        &policies,
        &study.seeds,
        study.target,
        published.as_ref(),
        &mut |run, done, total| {
            ctx.progress(run, done, total);
            true
        },
    )
    .map_err(|e| e.to_string())?;
    Ok(Output::Fgd(Box::new(FgdOutput {
        policies: s
            .policies
            .iter()
            .map(|p| FgdPolicy {
                policy: p.policy.name().to_string(),
                points: p.mean.clone(),
                verdict: p.verdict.as_ref().map(|v| (v.reproduced, v.words())),
            })
            .collect(),
        bound: s.bound.clone(),
        gpus: s.gpus,
        nodes: nodes.len(),
        pods: pods.len(),
    })))
}

/// [`Task::FgdMap`]: the run up to the pod at which the arrived workload reaches `x` %, and
/// each GPU's allocated share then, grouped by GPU model.
pub fn fgd_map(study: &FgdTask, policy: &str, seed: i64, x: u32) -> Result<Output, String> {
    use smd_fgd::summary;
    let (nodes, _, prepared) = fgd_inputs(study)?;
    let p = fgd_policy(policy)?;
    let full = prepared
        .run(p, seed, study.target, &mut |_, _| true)
        .map_err(|e| e.to_string())?;
    let k = summary::pods_at(&full.records, prepared.gpus, x);
    let (_, states) = prepared
        .state_after(p, seed, study.target, k)
        .map_err(|e| e.to_string())?;
    let allocation_pct = full
        .records
        .get(k.wrapping_sub(1))
        .map_or(0.0, |r| r.alloc_pct);
    let mut groups: Vec<(String, Vec<Vec<f64>>)> = summary::model_names(&nodes)
        .into_iter()
        .map(|m| (m, Vec::new()))
        .collect();
    for s in &states {
        if s.free.is_empty() {
            continue;
        }
        if let Some(g) = groups.get_mut(s.model) {
            g.1.push(s.free.iter().map(|&f| (1000 - f) as f64 / 1000.0).collect());
        }
    }
    groups.retain(|g| !g.1.is_empty());
    Ok(Output::FgdMap(Box::new(FgdMap {
        policy: policy.to_string(),
        seed,
        x,
        allocation_pct,
        pods: k,
        groups,
    })))
}

/// The warm-up's scenario ([`Task::WarmUp`]).
pub fn warm_up_scenario() -> Result<Scenario, String> {
    use smd_apps::{machines, trace};
    let t4 = machines::machine_type("t4x4")?;
    let text = trace::workload("workload-1")?;
    let mut arrivals = trace::parse(text).map_err(|e| e.to_string())?;
    arrivals.truncate(WARM_UP_JOBS);
    trace::scenario(
        &arrivals,
        machines::cluster(t4, WARM_UP_MACHINES, t4.capacity),
    )
    .map_err(|e| e.to_string())
}

/// [`Task::WarmUp`]: the warm-up scenario over time with every policy (the simulations a
/// sweep's sizes and Over time run), the runs dropped.
fn warm_up(ctx: &mut Ctx) -> Result<Output, String> {
    let ran = runs(&warm_up_scenario()?, &smd_sim::SimPolicy::ALL, ctx)?;
    Ok(Output::Warm(ran.iter().map(|r| r.policy).collect()))
}

/// Runs `scenario` over time with each of `policies` in turn (step = its index), reporting
/// after each slot; the first policy that fails fails the task, naming it. Cancelling is
/// terminating the worker (a simulation runs without pause).
pub fn simulate(
    scenario: &Scenario,
    policies: &[smd_sim::SimPolicy],
    ctx: &mut Ctx,
) -> Result<Output, String> {
    let runs = runs(scenario, policies, ctx)?;
    // Computed here, so the page's module does not carry the published results.
    let reference = smd_reproduce::fidelity::reference_means(scenario)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, mean)| (name.to_owned(), mean))
        .collect();
    Ok(Output::Simulated { runs, reference })
}

/// [`simulate`]'s runs: each of `policies` that applies to `scenario`, in order.
fn runs(
    scenario: &Scenario,
    policies: &[smd_sim::SimPolicy],
    ctx: &mut Ctx,
) -> Result<Vec<smd_sim::Run>, String> {
    if policies.is_empty() {
        return Err("no policy to simulate".into());
    }
    let mut runs = Vec::with_capacity(policies.len());
    // The reference's policies schedule measured jobs only: skipped for other drafts.
    let policies: Vec<smd_sim::SimPolicy> = policies
        .iter()
        .copied()
        .filter(|p| p.applies_to(scenario))
        .collect();
    for (step, &policy) in policies.iter().enumerate() {
        let mut progress = |p: smd_sim::Progress| ctx.simulating(step, p);
        // The page's clock times the heterogeneity-aware policies' decisions (shown under
        // Over time's table); times never change a run.
        let mut opts = smd_sim::Options {
            progress: Some(&mut progress),
            clock: Some(&super::now_ms),
            ..Default::default()
        };
        let run = smd_sim::simulate(scenario, policy, &mut opts)
            .map_err(|e| format!("{}: {e}", policy.name()))?;
        runs.push(run);
    }
    Ok(runs)
}

/// Plans `scenario` with every policy (on machines with `smd_place::plan_placed`, which also
/// places the admitted jobs): progress per policy (step = its index), then its
/// plan or its failure. `global`'s search stops after `global_budget_ms` with the best
/// plan found (its bound and gap in the plan's admission report).
fn solve(scenario: &Scenario, global_budget_ms: f64, ctx: &mut Ctx) {
    CACHE.with(|c| c.borrow_mut().retain_used());
    for (index, &policy) in page_policies(&scenario.cluster).iter().enumerate() {
        let mut progress = |p: smd_core::Progress| ctx.report(index, p);
        let result = plan_one(scenario, policy, global_budget_ms, &mut progress);
        ctx.partial(match result {
            Ok(plan) => Partial::Planned(Box::new(plan)),
            Err(e) => Partial::PolicyFailed {
                policy: policy.name().into(),
                message: e.to_string(),
            },
        });
    }
}

/// One policy's plan of `scenario` with the worker's allocation cache (on machines with
/// `smd_place::plan_placed`: admission, then placement, then T with ρ, docs/MODEL.md §15;
/// a pool plans as `plan_with`).
fn plan_one(
    scenario: &Scenario,
    policy: smd_core::Policy,
    global_budget_ms: f64,
    progress: &mut dyn FnMut(smd_core::Progress),
) -> Result<Plan, smd_core::Error> {
    let clock = now_ms;
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let mut opts = smd_core::Options {
            clock: Some(&clock),
            progress: Some(progress),
            cache: Some(&mut cache),
            time_budget_ms: Some(global_budget_ms),
            ..Default::default()
        };
        if scenario.cluster.has_machines() {
            smd_place::plan_placed(scenario, policy, &mut opts)
        } else {
            smd_core::plan_with(scenario, policy, &mut opts)
        }
    })
}

/// Runs a reproduction case by case, with progress in scenarios.
pub fn reproduce(mut runner: smd_reproduce::Runner, ctx: &mut Ctx) -> Result<Output, String> {
    let t0 = now_ms();
    let total = runner.cases();
    if total == 0 {
        return Err("no experiment to run".into());
    }
    let work = runner.total_work();
    ctx.reproducing((0, total), (0, work));
    while runner.step_observed(&now_ms, &mut |cases, w| {
        ctx.reproducing((cases, total), (w, work))
    }) {}
    let report = runner.report(now_ms() - t0);
    Ok(Output::Reproduced {
        experiments: report.outcomes.iter().map(Experiment::from).collect(),
        verdicts: report.verdicts().iter().map(ClaimLine::from).collect(),
    })
}

/// The fidelity study (`smd_reproduce::fidelity`), reporting each run as it is compared:
/// per policy an experiment (its runs as findings, its rows as CSV, its per-job scatter)
/// and the verdicts against issue 26's goals.
pub fn fidelity(quick: bool, ctx: &mut Ctx) -> Result<Output, String> {
    use smd_reproduce::fidelity::{cases, compare, findings, scatter_svg, table, Size, POLICIES};
    let size = if quick { Size::Quick } else { Size::Full };
    let total = cases(size).len() * POLICIES.len();
    ctx.reproducing((0, total), (0, total as u64));
    let list = compare(size, &mut |done, all| {
        ctx.reproducing((done, all), (done as u64, all as u64))
    })
    .map_err(|e| e.to_string())?;
    let verdicts = smd_reproduce::verdict::fidelity(&table(&list));
    let experiments = POLICIES
        .iter()
        .zip(&verdicts)
        .map(|(&(policy, _), v)| {
            let runs: Vec<_> = list
                .iter()
                .filter(|c| c.policy == policy)
                .cloned()
                .collect();
            let t = table(&runs);
            Experiment {
                id: format!("fidelity-{}", policy.name()),
                title: format!("{} against the reference simulator", policy.name()),
                claim: v.claim.to_string(),
                findings: findings(&t),
                csv: t.to_csv(),
                svg: scatter_svg(&list, policy),
                failures: Vec::new(),
            }
        })
        .collect();
    Ok(Output::Reproduced {
        experiments,
        verdicts: verdicts.iter().map(ClaimLine::from).collect(),
    })
}

/// The worker binary's `main`: listen for requests, answer with [`handle`].
pub fn worker_main() {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;
        use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let post_scope = scope.clone();
        let post = move |r: Reply| {
            let text = serde_json::to_string(&r).expect("replies serialise");
            let _ = post_scope.post_message(&JsValue::from_str(&text));
        };
        let panic_post = post.clone();
        std::panic::set_hook(Box::new(move |info| {
            panic_post(Reply::Panicked {
                message: info.to_string(),
            })
        }));
        let mut post_for_handle = post.clone();
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            match serde_json::from_str::<Request>(&text) {
                Ok(req) => handle(req, &mut post_for_handle),
                Err(err) => post_for_handle(Reply::Panicked {
                    message: format!("the worker could not read a request: {err}"),
                }),
            }
        });
        scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        onmessage.forget();
        post(Reply::Ready);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::Policy;

    /// The events of one task handled by the worker, in order.
    fn events_of(task: Task) -> Vec<Event> {
        let mut events = Vec::new();
        handle(Request { id: 1, task }, &mut |r| match r {
            Reply::Event { task: 1, event } => events.push(event),
            other => panic!("unexpected {other:?}"),
        });
        events
    }

    /// A re-plan after an edit of one job solves that job's Algorithm 1 only.
    #[test]
    fn replan_after_one_edit_solves_one_job() {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 5,
            seed: 2,
            ..Default::default()
        });
        let solve = |s: &Scenario, id: u64| {
            let mut plans = Vec::new();
            handle(
                Request {
                    id,
                    task: Task::Solve {
                        scenario: s.clone(),
                        global_budget_ms: 3000.0,
                    },
                },
                &mut |r| {
                    if let Reply::Event {
                        event: Event::Partial(Partial::Planned(plan)),
                        ..
                    } = r
                    {
                        plans.push(*plan)
                    }
                },
            );
            plans
        };
        let plans = solve(&s, 1);
        let misses = CACHE.with(|c| c.borrow().misses());
        let feasible = plans[0].jobs.iter().filter(|j| j.workers.is_some()).count() as u64;
        assert_eq!(misses, feasible);
        let k = plans[0]
            .jobs
            .iter()
            .position(|j| j.workers.is_some())
            .unwrap();
        s.jobs[k].iterations += 3.0;
        solve(&s, 2);
        assert_eq!(CACHE.with(|c| c.borrow().misses()), misses + 1);
        assert_eq!(CACHE.with(|c| c.borrow().hits()), feasible - 1);
    }

    /// Every event of a task carries its id; a solve ends with one `Done`, after a plan per
    /// policy and each policy's progress (its first report and its last always go out).
    #[test]
    fn a_solve_reports_under_its_id_and_ends_once() {
        let s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            seed: 4,
            ..Default::default()
        });
        let events = events_of(Task::Solve {
            scenario: s,
            global_budget_ms: 3000.0,
        });
        let planned = events
            .iter()
            .filter(|e| matches!(e, Event::Partial(Partial::Planned(_))))
            .count();
        let policies = Policy::POOL;
        assert_eq!(planned, policies.len());
        for step in 0..policies.len() {
            let mine: Vec<_> = events
                .iter()
                .filter_map(|e| match e {
                    Event::Progress {
                        step: s,
                        done,
                        total,
                    } if *s == step => Some((*done, *total)),
                    _ => None,
                })
                .collect();
            assert!(!mine.is_empty(), "policy {step} reported no progress");
            let (done, total) = *mine.last().unwrap();
            assert_eq!(done, total, "policy {step}'s last report is its end");
        }
        assert!(matches!(
            events.last(),
            Some(Event::Done {
                output: Output::Solved,
                ..
            })
        ));
        let ends = events
            .iter()
            .filter(|e| matches!(e, Event::Done { .. } | Event::Failed { .. }))
            .count();
        assert_eq!(ends, 1);
    }

    /// `global`'s search reports go out as the solver sends them (it paces them itself),
    /// under the policy's step; job progress is paced here.
    #[test]
    fn search_reports_go_out_under_their_step() {
        let mut events = Vec::new();
        let mut post = |r: Reply| {
            if let Reply::Event { task: 7, event } = r {
                events.push(event)
            }
        };
        let mut ctx = Ctx {
            id: 7,
            post: &mut post,
            last_progress: None,
        };
        let search = smd_core::SearchProgress {
            nodes: 1_200_000,
            best: 1234.5,
            bound: 1235.0,
        };
        let at = |jobs_done, search| smd_core::Progress {
            policy: smd_core::Policy::Global,
            jobs_done,
            jobs_total: 3,
            search,
        };
        ctx.report(4, at(3, None));
        ctx.report(4, at(3, None));
        ctx.report(4, at(3, Some(search)));
        ctx.report(4, at(3, Some(search)));
        assert_eq!(events.len(), 3, "{events:?}");
        assert!(matches!(
            events[0],
            Event::Progress {
                step: 4,
                done: 3,
                total: 3
            }
        ));
        for e in &events[1..] {
            match e {
                Event::Search { step: 4, search: s } => {
                    assert_eq!(*s, search)
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// However small the budget, `global` plans: proven optimal, or the best plan found
    /// with its gap — and never below another policy's plan.
    #[test]
    fn a_tiny_global_budget_still_gives_a_plan_with_its_proof() {
        let s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 40,
            seed: 3,
            ..Default::default()
        });
        let mut plans = Vec::new();
        handle(
            Request {
                id: 1,
                task: Task::Solve {
                    scenario: s,
                    global_budget_ms: 0.001,
                },
            },
            &mut |r| {
                if let Reply::Event {
                    event: Event::Partial(Partial::Planned(plan)),
                    ..
                } = r
                {
                    plans.push(*plan)
                }
            },
        );
        let policies: Vec<_> = plans.iter().map(|p| p.policy).collect();
        assert_eq!(policies, Policy::POOL);
        let global = plans.last().unwrap();
        let a = &global.admission;
        assert!(
            a.proven_optimal != a.gap.is_some(),
            "proven, or a gap: {a:?}"
        );
        for p in &plans {
            assert!(
                global.total_utility >= p.total_utility - 1e-9,
                "{}",
                p.policy
            );
        }
    }

    /// A simulation of a bundled workload as the reference simulator ran it carries the
    /// reference's published means (the page shows them beside its runs); any other
    /// scenario carries none.
    #[test]
    fn a_simulation_carries_the_reference_s_means_when_they_apply() {
        let reference = |scenario: &Scenario| {
            let mut events = events_of(Task::Simulate {
                scenario: scenario.clone(),
                policies: vec![smd_sim::SimPolicy::Fifo],
            });
            match events.pop() {
                Some(Event::Done {
                    output: Output::Simulated { reference, .. },
                    ..
                }) => reference,
                other => panic!("{other:?}"),
            }
        };
        let s = smd_reproduce::fidelity::scenario("workload-1", "0.5").expect("bundled");
        let want: Vec<(String, f64)> = smd_reproduce::fidelity::reference_means(&s)
            .expect("the reference ran it")
            .into_iter()
            .map(|(n, m)| (n.to_owned(), m))
            .collect();
        assert_eq!(want.len(), 3);
        assert_eq!(reference(&s), want);
        let mut fewer = s.clone();
        fewer.jobs.pop();
        assert_eq!(reference(&fewer), Vec::new());
    }

    /// A simulation reports where each policy is under its step, then its runs in the
    /// order asked; no policy is a failure.
    #[test]
    fn a_simulation_reports_per_policy_and_ends_with_its_runs() {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            seed: 5,
            ..Default::default()
        });
        s.version = 2;
        s.params.epsilon = 0.2;
        for (i, j) in s.jobs.iter_mut().enumerate() {
            j.arrival_s = Some(1200.0 * i as f64);
        }
        let policies = vec![smd_sim::SimPolicy::Oasis, smd_sim::SimPolicy::Fifo];
        let events = events_of(Task::Simulate {
            scenario: s.clone(),
            policies: policies.clone(),
        });
        for step in 0..2 {
            assert!(
                events
                    .iter()
                    .any(|e| matches!(e, Event::Simulating { step: k, jobs: 3, .. } if *k == step)),
                "step {step}: {events:?}"
            );
        }
        let Some(Event::Done {
            output: Output::Simulated { runs, .. },
            ..
        }) = events.last()
        else {
            panic!("{:?}", events.last())
        };
        let got: Vec<_> = runs.iter().map(|r| r.policy).collect();
        assert_eq!(got, policies);
        let mut replies = Vec::new();
        handle(
            Request {
                id: 10,
                task: Task::Simulate {
                    scenario: s,
                    policies: Vec::new(),
                },
            },
            &mut |r| replies.push(r),
        );
        assert!(matches!(
            &replies[..],
            [Reply::Event {
                task: 10,
                event: Event::Failed { .. }
            }]
        ));
    }

    /// A heterogeneity-aware policy's decisions are timed by the worker's clock (Over
    /// time shows their times), and its run is the one without a clock.
    #[test]
    fn a_heterogeneity_aware_run_times_its_decisions() {
        let scenario = warm_up_scenario().expect("the warm-up's scenario");
        let events = events_of(Task::Simulate {
            scenario: scenario.clone(),
            policies: vec![smd_sim::SimPolicy::Sia],
        });
        let Some(Event::Done {
            output: Output::Simulated { runs, .. },
            ..
        }) = events.last()
        else {
            panic!("{:?}", events.last())
        };
        let stats = runs[0].stats.as_ref().expect("sia's decisions");
        assert!(stats.decisions > 0);
        let ms = stats.decision_ms.expect("timed by the worker's clock");
        assert!(ms.median <= ms.p95 && ms.p95 <= ms.max, "{ms:?}");
        let native = smd_sim::simulate(
            &scenario,
            smd_sim::SimPolicy::Sia,
            &mut smd_sim::Options::default(),
        )
        .unwrap();
        assert_eq!(native.jobs, runs[0].jobs);
        assert_eq!(native.stats.and_then(|s| s.decision_ms), None);
    }

    /// The warm-up simulates every policy (the reference's three too: its jobs are
    /// measured), on a cluster small enough that jobs queue — the paths a sweep's small sizes
    /// take — and ends once, with no other news worth the page's time than its end.
    #[test]
    fn the_warm_up_runs_every_policy_with_jobs_queueing() {
        let scenario = warm_up_scenario().expect("the warm-up's scenario");
        assert_eq!(scenario.jobs.len(), WARM_UP_JOBS);
        let fifo = smd_sim::simulate(
            &scenario,
            smd_sim::SimPolicy::Fifo,
            &mut smd_sim::Options::default(),
        )
        .expect("fifo runs it");
        assert!(
            fifo.jobs
                .iter()
                .any(|j| j.first_start_s.is_some_and(|s| s > j.arrival_s)),
            "no job waits on {WARM_UP_MACHINES} machines"
        );
        let events = events_of(Task::WarmUp);
        let done: Vec<_> = events
            .iter()
            .filter(|e| matches!(e, Event::Done { .. } | Event::Failed { .. }))
            .collect();
        assert_eq!(done.len(), 1, "{done:?}");
        let Some(Event::Done {
            output: Output::Warm(policies),
            ..
        }) = events.last()
        else {
            panic!("{:?}", events.last())
        };
        // Every policy that applies (gavel does not where a job asks more than a type holds).
        assert_eq!(
            policies.as_slice(),
            smd_sim::SimPolicy::all_for(&scenario).as_slice()
        );
        assert!(policies.contains(&smd_sim::SimPolicy::Sia));
    }

    /// A sweep's size: progress per policy under the point's index, then the numbers
    /// `smd_sweep::evaluate` gives natively (but the times); a point made for another
    /// kind of cluster fails with why.
    #[test]
    fn a_sweep_point_reports_per_policy_and_equals_evaluate() {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 4,
            seed: 6,
            ..Default::default()
        });
        s.params.epsilon = 0.2;
        let spec = smd_sweep::Spec {
            axis: smd_sweep::Axis::Units,
            range: smd_sweep::Range::parse("0.5:1.5:0.5").unwrap(),
            resource: None,
            machine_type: None,
            group: None,
        };
        let point = smd_sweep::points(&s, &spec).unwrap().remove(2);
        let policies = smd_sweep::Policies::all(&s.cluster, false);
        let task = |scenario: Scenario| Task::SweepPoint {
            scenario,
            point: point.clone(),
            policies: policies.clone(),
            global_budget_ms: 3000.0,
        };
        let events = events_of(task(s.clone()));
        let steps: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Progress { step, done, total } => Some((*step, *done, *total)),
                _ => None,
            })
            .collect();
        assert_eq!(steps.last(), Some(&(2, 5, 5)), "{steps:?}");
        let Some(Event::Done {
            output: Output::SweepPoint(got),
            ..
        }) = events.last()
        else {
            panic!("{:?}", events.last())
        };
        let at = smd_sweep::scenario_at(&s, &point).unwrap();
        let native = smd_sweep::evaluate(&point, &at, &policies, &mut Default::default()).unwrap();
        assert_eq!(got.capacity, native.capacity);
        for ((p, a), (q, b)) in got.policies.iter().zip(&native.policies) {
            assert_eq!(
                (p, a.total_utility, a.admitted),
                (q, b.total_utility, b.admitted)
            );
        }
        // A pool's point on a cluster of machines.
        let mut machines = s.clone();
        let t4 = smd_apps::machines::machine_type("t4x4").unwrap();
        smd_apps::machines::move_to_machines(&mut machines, t4, 2.0);
        let mut replies = Vec::new();
        handle(
            Request {
                id: 4,
                task: task(machines),
            },
            &mut |r| replies.push(r),
        );
        assert!(
            matches!(&replies[..], [Reply::Event { task: 4, event: Event::Failed { message } }]
                if message.contains("made for a pool")),
            "{replies:?}"
        );
    }

    /// A mix of What to buy's grid, through JSON as the page's pool sends it: the point
    /// `smd_sweep::evaluate_mix` gives natively (but its wall time).
    #[test]
    fn a_mix_task_equals_evaluate_mix() {
        let s = smd_apps::trace::workload_on_mix("philly-1", 10, "t4x4=1").unwrap();
        let search = smd_sweep::MixSearch::new(
            &s,
            smd_sweep::MixSpec::parse("t4x4=0:2,a100x8=0:1").unwrap(),
            smd_sweep::Question {
                metric: smd_sweep::Metric::MeanJct,
                policy: smd_sim::SimPolicy::Sia,
                goal: None,
                budget: None,
                minimize: smd_sweep::Minimize::Metric,
                every: false,
            },
        )
        .unwrap();
        let task = search.task(5);
        let req = Request {
            id: 8,
            task: Task::Mix {
                scenario: s.clone(),
                task: task.clone(),
            },
        };
        let req: Request = serde_json::from_str(&serde_json::to_string(&req).unwrap()).unwrap();
        let mut replies: Vec<Reply> = Vec::new();
        handle(req, &mut |r| replies.push(r));
        let replies: [Reply; 1] = replies.try_into().unwrap();
        let [Reply::Event {
            task: 8,
            event:
                Event::Done {
                    output: Output::MixPoint(mut got),
                    ..
                },
        }] = replies
        else {
            panic!("not one Done")
        };
        let mut native =
            smd_sweep::evaluate_mix(&s, &task, &mut smd_sweep::Options::default()).unwrap();
        for p in [&mut *got, &mut native] {
            p.run.as_mut().unwrap().run_ms = 0.0;
        }
        assert_eq!(*got, native);
        assert_eq!(got.mix, vec![("t4x4".into(), 2), ("a100x8".into(), 1)]);
        assert!(got.value.is_some() && got.usd_per_hour.is_some());
    }

    /// A trace is the job's steps and SMD's plan; a job that is not there is a message.
    #[test]
    fn a_trace_request_answers_with_the_trace_or_a_message() {
        let mut s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 3,
            ..Default::default()
        });
        s.params.epsilon = 0.2;
        for (job, ok) in [(1, true), (3, false)] {
            let mut replies = Vec::new();
            handle(
                Request {
                    id: 6,
                    task: Task::Teach {
                        scenario: s.clone(),
                        job,
                    },
                },
                &mut |r| replies.push(r),
            );
            match &replies[..] {
                [Reply::Event {
                    task: 6,
                    event:
                        Event::Done {
                            output: Output::Trace { json },
                            ..
                        },
                }] if ok => {
                    let t: smd_core::teach::Trace = serde_json::from_str(json).unwrap();
                    assert_eq!(t.index, 1);
                    let want = smd_core::plan_with(&s, Policy::Smd, &mut Default::default());
                    assert_eq!(Ok(t.plan), want);
                }
                [Reply::Event {
                    task: 6,
                    event: Event::Failed { message },
                }] if !ok => assert!(message.contains("job"), "{message}"),
                other => panic!("{other:?}"),
            }
        }
    }

    /// A task that cannot run says so with its message, under its id.
    #[test]
    fn a_bad_landscape_request_fails_with_a_message() {
        let s = smd_core::generate(&smd_core::GenerateOptions {
            jobs: 2,
            ..Default::default()
        });
        let mut replies = Vec::new();
        handle(
            Request {
                id: 5,
                task: Task::Landscape {
                    scenario: s,
                    job: 9,
                    resolution: 8,
                    plans: Vec::new(),
                },
            },
            &mut |r| replies.push(r),
        );
        assert!(
            matches!(
                &replies[..],
                [Reply::Event {
                    task: 5,
                    event: Event::Failed { .. }
                }]
            ),
            "{replies:?}"
        );
    }
}
