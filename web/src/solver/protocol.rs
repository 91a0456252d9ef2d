//! The messages between the page and the worker (JSON over `postMessage`).
//!
//! The page asks for one [`Task`] at a time under an id of its own ([`Request`]); the worker
//! answers with [`Event`]s carrying that id: progress (and, for `global`, where its search
//! is: [`Event::Search`]), partial results, then one `Done` (with the task's [`Output`]) or
//! `Failed`. A new kind of work is one more [`Task`]
//! variant, its [`Output`] (and [`Partial`], if it reports partial results), and its arm in
//! [`worker::perform`](super::worker::perform): the ids, progress, timing, cancelling and
//! restarting are shared.

use serde::{Deserialize, Serialize};
use smd_core::{Plan, Scenario, SearchProgress};
use smd_sim::{Run, SimPolicy};

/// The policies the page plans and compares for a cluster (here, below both the worker and
/// the page state, so that the worker does not import the page), in display order, `global` last
/// (its search runs within the draft's time budget): [`smd_core::Policy::for_cluster`] — every policy
/// on machines; on a pool all but `smd_locality`, which is `smd` there.
pub fn page_policies(cluster: &smd_core::scenario::Cluster) -> &'static [smd_core::Policy] {
    smd_core::Policy::for_cluster(cluster)
}

/// Page → worker: a task and the page's id for it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    /// The page's id of the task; every event about it carries it.
    pub id: u64,
    /// What to do.
    pub task: Task,
}

/// The work the worker does.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Task {
    /// Plan a valid scenario with every policy ([`Partial`] per policy, then
    /// [`Output::Solved`]).
    Solve {
        /// A valid scenario.
        scenario: Scenario,
        /// Wall-clock budget of `global`'s search, ms (`smd_core::Options::time_budget_ms`).
        global_budget_ms: f64,
    },
    /// The objective landscape of one job ([`Output::Landscape`]).
    Landscape {
        /// A valid scenario.
        scenario: Scenario,
        /// Job index.
        job: usize,
        /// Samples per axis.
        resolution: usize,
        /// Plans whose points to mark.
        plans: Vec<Plan>,
    },
    /// The teaching trace of one job in SMD's plan, `smd_core::teach` ([`Output::Trace`]).
    Teach {
        /// A valid scenario.
        scenario: Scenario,
        /// Job index.
        job: usize,
    },
    /// The paper-reproduction experiments, `smd_reproduce` ([`Output::Reproduced`]).
    Reproduce {
        /// The quick scale (else the full one).
        quick: bool,
    },
    /// The fidelity study, `smd_reproduce::fidelity`: the over-time engine against the
    /// reference simulator's published JCTs, one experiment per policy with the verdicts
    /// ([`Output::Reproduced`]).
    Fidelity {
        /// Workload-1 at load 0.5 only (else 8 workloads at 2 loads).
        quick: bool,
    },
    /// GPU sharing in a production cluster (`smd_fgd`): each policy with each seed on a
    /// node list and a pod list (their CSV texts), then the bound ([`Event::Progress`]
    /// after every few hundred pods, step = the run, then [`Output::Fgd`]).
    Fgd(Box<FgdTask>),
    /// The cluster's GPUs when the arrived workload first reaches `x` % in one run
    /// ([`Output::FgdMap`]).
    FgdMap {
        /// The inputs (its policies and seeds unused).
        study: Box<FgdTask>,
        /// The policy's name.
        policy: String,
        /// The seed.
        seed: i64,
        /// Arrived workload, % of the cluster's GPUs.
        x: u32,
    },
    /// A scenario over time with each policy, `smd_sim` ([`Event::Simulating`] after each
    /// slot, then [`Output::Simulated`]).
    Simulate {
        /// A valid scenario (its jobs' `arrival_s`, default 0).
        scenario: Scenario,
        /// The policies to run, in order.
        policies: Vec<SimPolicy>,
    },
    /// One size of a capacity sweep, `smd_sweep::scenario_at` then `evaluate`
    /// ([`Event::Progress`] after each policy — step: the point's index, done of the
    /// policies —, then [`Output::SweepPoint`]). Each goes to a free worker of the page's
    /// pool.
    SweepPoint {
        /// The sweep's scenario, valid (each point changes its cluster only).
        scenario: Scenario,
        /// The size.
        point: smd_sweep::Point,
        /// The policies to plan (and simulate) at it.
        policies: smd_sweep::Policies,
        /// `global`'s wall-clock budget per point, ms.
        global_budget_ms: f64,
    },
    /// One mix of What to buy's grid, `smd_sweep::evaluate_mix`: the scenario on the mix,
    /// simulated under the task's policy ([`Output::MixPoint`]). Each goes to a free worker
    /// of the page's pool, in the search's order.
    Mix {
        /// The search's scenario, valid (each mix changes its cluster only).
        scenario: Scenario,
        /// The mix, its types, the policy and the metric.
        task: smd_sweep::MixTask,
    },
    /// A small built-in scenario over time with every policy, its results dropped
    /// ([`Output::Warm`]): the browser compiles a wasm function with its optimising compiler
    /// only once it has run a while, and the page's workers share one module and so that
    /// compiled code — after the warm-up a sweep or a simulation runs at full speed from its
    /// start instead of paying for the compiler on two busy cores (docs/BENCHMARKS.md §13).
    /// The sweep's pool sends it to each of its workers when it starts.
    WarmUp,
    /// Two scenarios planned with every policy of each, for the side-by-side view
    /// ([`Event::Progress`] with step 0 or 1 and policies done, then
    /// [`Output::Compared`]).
    Compare {
        /// The first (valid) scenario.
        a: Box<Scenario>,
        /// The second.
        b: Box<Scenario>,
        /// Wall-clock budget of `global`'s search, ms, per scenario.
        global_budget_ms: f64,
    },
}

/// Worker → page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has loaded and listens.
    Ready,
    /// News of a task.
    Event {
        /// The task's id (from its [`Request`]).
        task: u64,
        /// What happened.
        event: Event,
    },
    /// The worker panicked; it is dead after this message.
    Panicked {
        /// The panic message.
        message: String,
    },
}

/// What a task reports.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Event {
    /// Progress: `done` of `total` in step `step` (for a solve: the policy's index in
    /// [`page_policies`] of the scenario's cluster, jobs done of jobs; a reproduction reports
    /// [`Event::Reproducing`]).
    Progress {
        /// Step of the task.
        step: usize,
        /// Units done in this step.
        done: usize,
        /// Units in this step.
        total: usize,
    },
    /// Where a reproduction is: `scenarios` planned of all, and its `work` done of all (a
    /// weighted count of planned jobs, `smd_reproduce::Runner::total_work`'s unit), which
    /// moves after each policy of a scenario.
    Reproducing {
        /// (planned, all).
        scenarios: (usize, usize),
        /// (done, all).
        work: (u64, u64),
    },
    /// Where `global`'s search is (step `step` of a solve), every ~100 ms of it.
    Search {
        /// Step of the task (the policy's index).
        step: usize,
        /// Nodes, the best plan's total utility and the bound on the optimum.
        search: SearchProgress,
    },
    /// Where a simulation is (step `step`: the policy's index in the task's list), after a
    /// slot, at most every ~100 ms of it.
    Simulating {
        /// Step of the task (the policy's index).
        step: usize,
        /// Slots simulated.
        slots: usize,
        /// Simulated time reached, s.
        time_s: f64,
        /// Jobs finished.
        finished: usize,
        /// Jobs in the scenario.
        jobs: usize,
    },
    /// A partial result.
    Partial(Partial),
    /// The task finished (its last event).
    Done {
        /// The result.
        output: Output,
        /// Wall time of the whole task, ms.
        ms: f64,
    },
    /// The task could not run (its last event).
    Failed {
        /// What went wrong.
        message: String,
    },
}

/// A partial result of a task.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Partial {
    /// One policy's plan (a solve).
    Planned(Box<Plan>),
    /// One policy failed; the others still run (a solve).
    PolicyFailed {
        /// Policy name.
        policy: String,
        /// What went wrong.
        message: String,
    },
}

/// The result of a finished task.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Output {
    /// A solve: its plans came as [`Partial`]s.
    Solved,
    /// A landscape, as JSON (`smd_core::Landscape` round-trips through serde).
    Landscape {
        /// The landscape's JSON.
        json: String,
    },
    /// A teaching trace, as JSON (`smd_core::teach::Trace` round-trips through serde).
    Trace {
        /// The trace's JSON.
        json: String,
    },
    /// A reproduction.
    Reproduced {
        /// One per experiment, in order.
        experiments: Vec<Experiment>,
        /// The paper's claims with their verdicts on this run (`smd_reproduce::verdict`).
        #[serde(default)]
        verdicts: Vec<ClaimLine>,
    },
    /// GPU sharing in a production cluster: each policy's mean and verdict, the bound.
    Fgd(Box<FgdOutput>),
    /// The cluster's GPUs at one moment of a run.
    FgdMap(Box<FgdMap>),
    /// A simulation: one run per policy asked for, in order.
    Simulated {
        /// The runs.
        runs: Vec<Run>,
        /// The reference simulator's published mean JCT, s, per policy, when the scenario
        /// is a bundled workload as the reference ran it
        /// (`smd_reproduce::fidelity::reference_means`); empty otherwise.
        reference: Vec<(String, f64)>,
    },
    /// One size of a sweep: every policy's numbers there.
    SweepPoint(Box<smd_sweep::PointResult>),
    /// One mix of What to buy's grid: its price, value and run.
    MixPoint(Box<smd_sweep::MixPoint>),
    /// The warm-up ran: the policies it simulated, in order.
    Warm(Vec<smd_sim::SimPolicy>),
    /// Two scenarios' plans: per scenario one entry per policy of its cluster
    /// ([`page_policies`]), the plan or why it failed.
    Compared {
        /// The first scenario's.
        a: Vec<Result<Plan, String>>,
        /// The second's.
        b: Vec<Result<Plan, String>>,
    },
}

/// One reproduced experiment, as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    /// File stem (`e1-utility-vs-units`, …).
    pub id: String,
    /// Title.
    pub title: String,
    /// The paper's claim.
    pub claim: String,
    /// What was measured, one sentence each.
    pub findings: Vec<String>,
    /// The table, as CSV.
    pub csv: String,
    /// The figure, a standalone SVG document.
    pub svg: String,
    /// Failed invariant checks (empty when all hold).
    pub failures: Vec<String>,
}

/// One of the paper's claims with its verdict on a run, as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimLine {
    /// Its number in docs/REPRODUCTION.md's table (`1a` … `3`).
    pub id: String,
    /// The claim, in a line.
    pub claim: String,
    /// `reproduced`, `partly` or `not reproduced`.
    pub verdict: String,
    /// What was counted, with the numbers.
    pub because: String,
}

impl From<&smd_reproduce::verdict::ClaimVerdict> for ClaimLine {
    fn from(v: &smd_reproduce::verdict::ClaimVerdict) -> ClaimLine {
        ClaimLine {
            id: v.id.into(),
            claim: v.claim.into(),
            verdict: v.verdict.words().into(),
            because: v.because.clone(),
        }
    }
}

impl From<&smd_reproduce::Outcome> for Experiment {
    fn from(o: &smd_reproduce::Outcome) -> Experiment {
        Experiment {
            id: o.id.into(),
            title: o.title.into(),
            claim: o.claim.into(),
            findings: o.findings.clone(),
            csv: o.table.to_csv(),
            svg: o.svg.clone(),
            failures: o.violations.clone(),
        }
    }
}

/// What [`Task::Fgd`] runs: the lists as text, the policies by name, the seeds, the target,
/// and the published tables' texts when the comparison applies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FgdTask {
    /// The node list (CSV).
    pub nodes: String,
    /// The pod list (CSV).
    pub pods: String,
    /// The policies' names, in order.
    pub policies: Vec<String>,
    /// The seeds, in order.
    pub seeds: Vec<i64>,
    /// The workload's target, a multiple of the cluster's GPUs.
    pub target: f64,
    /// The published tables (allocation, amount, ratio) to compare with, if they apply.
    pub published: Option<[String; 3]>,
}

/// One policy's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FgdPolicy {
    /// The policy's name.
    pub policy: String,
    /// The mean over the seeds, per x.
    pub points: Vec<smd_fgd::Point>,
    /// Its verdict against the published tables, in words, if they apply.
    #[serde(default)]
    pub verdict: Option<(bool, String)>,
}

/// What [`Task::Fgd`] gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FgdOutput {
    /// One per policy, in order.
    pub policies: Vec<FgdPolicy>,
    /// The bound, mean over the seeds.
    pub bound: Vec<smd_fgd::bound::BoundPoint>,
    /// The cluster's GPUs.
    pub gpus: i64,
    /// The cluster's nodes.
    pub nodes: usize,
    /// The pods in the list.
    pub pods: usize,
}

/// What [`Task::FgdMap`] gives: per GPU model, per node, each GPU's allocated share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FgdMap {
    /// The policy's name.
    pub policy: String,
    /// The seed.
    pub seed: i64,
    /// The arrived workload asked, %.
    pub x: u32,
    /// GPUs allocated then, %.
    pub allocation_pct: f64,
    /// Pods arrived then.
    pub pods: usize,
    /// `(model, nodes' GPU shares)`.
    pub groups: Vec<(String, Vec<Vec<f64>>)>,
}
