//! Progress on stderr for runs that pass a few seconds (plan, compare, simulate, sweep and
//! its goal, teach): one ticker per run, quiet when the run ends first, so fast runs and
//! scripted `--json` runs print nothing extra (stdout is never touched). A background
//! thread prints the elapsed time and the latest status the run reported; the run only
//! stores text.

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Silence before the first line: shorter runs print nothing.
const FIRST_AFTER: Duration = Duration::from_secs(3);
/// Overrides FIRST_AFTER, in ms; 0 prints the first line at once, before the run starts,
/// so that the CLI's tests see a short run's progress.
const FIRST_AFTER_ENV: &str = "SMD_PROGRESS_AFTER_MS";
/// Between two lines after that.
const EVERY: Duration = Duration::from_secs(2);

/// A running command's progress line; stops (and joins its thread) when dropped.
pub struct Ticker {
    status: Arc<Mutex<String>>,
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts the ticker for `what` (e.g. "smd plan"); prints nothing for FIRST_AFTER.
    pub fn start(what: &str) -> Ticker {
        let status = Arc::new(Mutex::new(String::new()));
        let (stop, stopped) = channel::<()>();
        let shared = Arc::clone(&status);
        let what = what.to_string();
        let t0 = Instant::now();
        let first = std::env::var(FIRST_AFTER_ENV)
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(FIRST_AFTER, Duration::from_millis);
        if first.is_zero() {
            eprintln!("{what}: 0 s");
        }
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || {
                let mut wait = if first.is_zero() { EVERY } else { first };
                // Any message or a closed channel ends it; only a timeout prints.
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
                    let s = shared.lock().map(|s| s.clone()).unwrap_or_default();
                    let secs = t0.elapsed().as_secs_f64();
                    if s.is_empty() {
                        eprintln!("{what}: {secs:.0} s");
                    } else {
                        eprintln!("{what}: {secs:.0} s, {s}");
                    }
                    wait = EVERY;
                }
            })
            .ok();
        Ticker {
            status,
            stop: Some(stop),
            thread,
        }
    }

    /// Where the run writes what it is doing now (shown with the next line); the run's
    /// callbacks keep this handle, not a borrow of the ticker.
    pub fn status(&self) -> Arc<Mutex<String>> {
        Arc::clone(&self.status)
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        // Closing the channel wakes the thread at once.
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The status line of a plan's progress report (smd_core::Progress).
pub fn plan_status(p: &smd_core::Progress) -> String {
    match p.search {
        Some(s) => format!(
            "{}: searching, best {:.1}, bound {:.1} (gap {:.2}%), {} nodes",
            p.policy,
            s.best,
            s.bound,
            100.0 * s.gap(),
            s.nodes
        ),
        // Every job sized: what runs now is the admission (or global's setup).
        None if p.jobs_done >= p.jobs_total => {
            format!("{}: admitting ({} jobs sized)", p.policy, p.jobs_total)
        }
        None => format!("{}: job {} of {}", p.policy, p.jobs_done, p.jobs_total),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticker_keeps_the_latest_status_and_stops_when_dropped() {
        let t = Ticker::start("test");
        let status = t.status();
        *status.lock().unwrap() = "smd: job 1 of 2".into();
        *status.lock().unwrap() = "global: searching".into();
        assert_eq!(*t.status().lock().unwrap(), "global: searching");
        // Dropping joins the thread (it would hang here if the stop did not wake it).
        drop(t);
    }

    #[test]
    fn the_status_names_the_policy_and_the_search() {
        let p = smd_core::Progress {
            policy: smd_core::Policy::Global,
            jobs_done: 3,
            jobs_total: 3,
            search: Some(smd_core::SearchProgress {
                nodes: 10,
                best: 9.0,
                bound: 10.0,
            }),
        };
        assert_eq!(
            plan_status(&p),
            "global: searching, best 9.0, bound 10.0 (gap 10.00%), 10 nodes"
        );
    }
}
