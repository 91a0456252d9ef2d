//! A pool of solver workers for work that splits into independent tasks (a capacity
//! sweep's points): each [`Solver`] of the pool is spawned, fed and terminated exactly as
//! the page's own solver is (this module only decides which one gets which request).
//!
//! Requests wait in a queue and go to the first free worker; a worker is free again once
//! it has sent its task's last event (`Done` or `Failed`). [`Pool::retain`] drops the
//! queued requests no longer wanted and terminates (and respawns) a worker busy with one:
//! that is how a cancelled sweep stops. A worker that dies or panics is reported with the
//! task it had, and respawned only when it is next given work, so a worker script that
//! cannot load does not start a crash loop.
//!
//! [`Pool::warm_up`] queues the pool's own task ([`Task::WarmUp`], id [`WARM_UP`], one per
//! worker) ahead of any other: `retain` never drops it and its replies stay in the pool.

use super::page::{Solver, SolverMode};
use super::protocol::{Event, Reply, Request, Task};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

/// Most workers a pool has, whatever the browser's `hardwareConcurrency`: every worker
/// loads its own copy of the solver's wasm, and past a few the page's own thread (which
/// posts and reads every message) and memory become the limit.
pub const MAX_WORKERS: usize = 4;

/// The id of the pool's warm-up task ([`Pool::warm_up`]); the page's ids count up from 0.
pub const WARM_UP: u64 = u64::MAX;

/// The pool size for a browser that reports `hardware_concurrency` logical processors:
/// that many, at most [`MAX_WORKERS`], at least 1.
pub fn pool_size(hardware_concurrency: f64) -> usize {
    if hardware_concurrency.is_finite() && hardware_concurrency >= 1.0 {
        (hardware_concurrency as usize).min(MAX_WORKERS)
    } else {
        1
    }
}

/// The browser's logical processors (`navigator.hardwareConcurrency`; 1 when unknown).
pub fn hardware_concurrency() -> f64 {
    web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency())
}

/// Replies of a pool's workers: the reply, as the page's solver would get it.
pub type PoolReplyFn = Rc<dyn Fn(Reply)>;
/// A worker of the pool died (or panicked): the task it had, if any, and why.
pub type PoolDeathFn = Rc<dyn Fn(Option<u64>, String)>;

struct Slot {
    solver: Solver,
    /// The task it is doing.
    task: Option<u64>,
    /// Died: respawned before its next task.
    dead: bool,
}

struct Inner {
    mode: SolverMode,
    slots: Vec<Slot>,
    queue: VecDeque<Request>,
    on_reply: PoolReplyFn,
    on_death: PoolDeathFn,
}

/// A pool of solver workers.
pub struct Pool {
    inner: Rc<RefCell<Inner>>,
}

impl Pool {
    /// A pool of `size` workers (at least 1), each started as the page's solver is.
    pub fn new(
        mode: SolverMode,
        size: usize,
        on_reply: PoolReplyFn,
        on_death: PoolDeathFn,
    ) -> Pool {
        let inner = Rc::new(RefCell::new(Inner {
            mode,
            slots: Vec::new(),
            queue: VecDeque::new(),
            on_reply,
            on_death,
        }));
        let pool = Pool { inner };
        pool.resize(size);
        pool
    }

    /// Workers in the pool.
    pub fn size(&self) -> usize {
        self.inner.borrow().slots.len()
    }

    /// Grows the pool to `size` workers (at least 1), or shrinks it by terminating the
    /// last ones (their tasks, if any, are lost: shrink between runs).
    pub fn resize(&self, size: usize) {
        let size = size.max(1);
        let weak = Rc::downgrade(&self.inner);
        let mut inner = self.inner.borrow_mut();
        inner.slots.truncate(size);
        while inner.slots.len() < size {
            let k = inner.slots.len();
            let solver = Solver::new(
                inner.mode.clone(),
                reply_handler(weak.clone(), k),
                death_handler(weak.clone(), k),
            );
            inner.slots.push(Slot {
                solver,
                task: None,
                dead: false,
            });
        }
        drop(inner);
        feed(&self.inner);
    }

    /// Queues a request for the next free worker.
    pub fn send(&self, req: Request) {
        self.inner.borrow_mut().queue.push_back(req);
        feed(&self.inner);
    }

    /// Runs the warm-up ([`Task::WarmUp`]) on every worker, before anything queued (call it
    /// on a pool just made, whose workers are all free): the workers share one module, so
    /// the first to run the simulations' hot code has the browser compile it for all, and
    /// each fills its own memos of the measurements (the models fitted once per worker)
    /// while the user reads the form. In-thread (tests) there is nothing to warm.
    pub fn warm_up(&self) {
        let mut inner = self.inner.borrow_mut();
        if matches!(inner.mode, SolverMode::InThread(_)) {
            return;
        }
        for _ in 0..inner.slots.len() {
            inner.queue.push_front(Request {
                id: WARM_UP,
                task: Task::WarmUp,
            });
        }
        drop(inner);
        feed(&self.inner);
    }

    /// Keeps only the tasks `wanted` says yes to (and the warm-up): the others are dropped
    /// from the queue, and a worker busy with one is terminated and a fresh one started.
    pub fn retain(&self, wanted: impl Fn(u64) -> bool) {
        let wanted = |id: u64| id == WARM_UP || wanted(id);
        let mut inner = self.inner.borrow_mut();
        inner.queue.retain(|r| wanted(r.id));
        for slot in &mut inner.slots {
            if slot.task.is_some_and(|t| !wanted(t)) {
                slot.task = None;
                slot.dead = false;
                slot.solver.restart();
            }
        }
        drop(inner);
        feed(&self.inner);
    }
}

/// Gives queued requests to free workers.
fn feed(inner: &Rc<RefCell<Inner>>) {
    let mut guard = inner.borrow_mut();
    let inner = &mut *guard;
    for slot in inner.slots.iter_mut().filter(|s| s.task.is_none()) {
        let Some(req) = inner.queue.pop_front() else {
            break;
        };
        if slot.dead {
            slot.dead = false;
            slot.solver.restart();
        }
        slot.task = Some(req.id);
        slot.solver.send(req);
    }
}

/// Worker `k`'s replies: its task's last event frees it (and the next request goes out);
/// a panic is its death.
fn reply_handler(weak: Weak<RefCell<Inner>>, k: usize) -> Rc<dyn Fn(Reply)> {
    Rc::new(move |reply: Reply| {
        let Some(inner) = weak.upgrade() else { return };
        if let Reply::Panicked { message } = reply {
            died(&inner, k, message);
            return;
        }
        let (finished, warm_up) = match &reply {
            Reply::Event {
                task,
                event: Event::Done { .. } | Event::Failed { .. },
            } => (Some(*task), *task == WARM_UP),
            Reply::Event { task, .. } => (None, *task == WARM_UP),
            _ => (None, false),
        };
        let forward = {
            let mut guard = inner.borrow_mut();
            if let (Some(t), Some(slot)) = (finished, guard.slots.get_mut(k)) {
                if slot.task == Some(t) {
                    slot.task = None;
                }
            }
            guard.on_reply.clone()
        };
        // Outside the borrow: the page may send more work from its handler. The warm-up's
        // news is the pool's own (a failed warm-up only means a slower first run).
        if !warm_up {
            forward(reply);
        } else if finished.is_some() {
            // For the benchmarks (`scripts/page.mjs planner`): when each worker was warm.
            super::mark("smd-pool-warm");
        }
        if finished.is_some() {
            feed(&inner);
        }
    })
}

/// Worker `k` died. Deferred, because a worker that cannot be reached says so from inside
/// [`Solver::send`], i.e. while the pool is borrowed to feed it.
fn death_handler(weak: Weak<RefCell<Inner>>, k: usize) -> Rc<dyn Fn(String)> {
    Rc::new(move |message: String| {
        let weak = weak.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(inner) = weak.upgrade() {
                died(&inner, k, message);
            }
        });
    })
}

fn died(inner: &Rc<RefCell<Inner>>, k: usize, message: String) {
    let (task, on_death) = {
        let mut guard = inner.borrow_mut();
        let on_death = guard.on_death.clone();
        let Some(slot) = guard.slots.get_mut(k) else {
            return;
        };
        slot.dead = true;
        (slot.task.take().filter(|&t| t != WARM_UP), on_death)
    };
    on_death(task, message);
    feed(inner);
}
